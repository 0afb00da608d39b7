//! The staff side over HTTP (decision 0026), on SQLite and (when KUPA_TEST_POSTGRES_URL is set)
//! PostgreSQL: staff logins (argon2id, attempt limits, TOTP, the SameSite=Strict cookie), roles,
//! `businessIds` scoping for every PRES-live call, a cross-origin POST refused, and figures that
//! match orders bought the real way (seats locked, cart priced, card paid, committed).

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::json;

/// Every GET call of PRES-live for this presentation's day and place.
fn every_get(
    date: &str,
    location: i64,
    venue: i64,
    feature: i64,
    presentation: i64,
) -> Vec<String> {
    vec![
        format!("/api/PRES-live/attendanceByDate/{date}/{date}"),
        format!("/api/PRES-live/attendanceByDateByLocation/{date}"),
        format!("/api/PRES-live/attendanceByDateByLocationByVenue/{date}/{location}"),
        format!("/api/PRES-live/attendanceByDateByLocationByFeature/{date}/{location}"),
        format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/{location}/venue/{venue}"),
        "/api/PRES-live/getCinemaFilterData".into(),
        "/api/PRES-live/locationTicketSales/".into(),
        format!("/api/PRES-live/locationTicketSales/data/{date}/0"),
        "/api/PRES-live/featureTicketSales".into(),
        format!("/api/PRES-live/featureTicketSales/data/{date}?isByLocation=true"),
        format!("/api/PRES-live/monitors/PresentationSales/data?startDate={date}&endDate={date}"),
        "/api/PRES-live/v2/availableFeatures".into(),
        format!("/api/PRES-live/v2/featureData?featureId={feature}"),
        format!("/api/PRES-live/v2/availablePresentations?featureId={feature}"),
        format!("/api/PRES-live/v2/presentationData?presentationId={presentation}"),
        "/api/pres-live/getTicketRefAgents".into(),
        "/api/pres-live/monitors/TicketReferencePromptAdmin/data".into(),
        "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data".into(),
        "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data".into(),
    ]
}

api_tests! {

async fn staff_log_in_with_limits_and_a_strict_cookie(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "Manager@Chain.example", Role::Manager, &[1], false).await;
    // The cookie: HttpOnly, SameSite=Strict; /staff/me reads it.
    let r = login_reply(&app, json!({ "email": "manager@chain.example", "password": PASSWORD }), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let raw = r.headers.get_all("set-cookie").iter().map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("kupa_staff=")).unwrap();
    assert!(raw.contains("HttpOnly") && raw.contains("SameSite=Strict"), "{raw}");
    assert_eq!(r.body["user"]["role"], "manager");
    assert_eq!(r.body["user"]["businessIds"], json!([1]));
    let cookie = set_cookie(&r, "kupa_staff").unwrap().to_owned();
    let me = get(&app, &cookie, "/api/staff/me").await;
    assert_eq!(ok(&me)["user"]["FirstName"], "Test");
    // Without a login, or with a made-up one: 401 loginError.
    let r = app.get("/api/staff/me").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    let r = get(&app, &"0".repeat(32), "/api/PRES-live/getCinemaFilterData").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    // A buyer's login cookie is not a staff login.
    let r = app.call_as(&format!("{};{}", buyer(1), cookie), "GET", "/api/staff/me", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // A cross-site login post is refused before it is read.
    let r = login_reply(&app, json!({ "email": "manager@chain.example", "password": PASSWORD }), Some("https://evil.example")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    assert_eq!(r.body["error"]["params"]["reason"], "crossSite", "tells it from a role's refusal");
    // Wrong passwords and unknown addresses answer alike; past five the account is locked, right or wrong.
    let r = login_reply(&app, json!({ "email": "nobody@chain.example", "password": PASSWORD }), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));
    for _ in 0..5 {
        let r = login_reply(&app, json!({ "email": "manager@chain.example", "password": "wrong password!" }), None).await;
        assert_eq!(code(&r), "LOGIN_FAILED");
    }
    let r = login_reply(&app, json!({ "email": "manager@chain.example", "password": PASSWORD }), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"));
    assert!(r.body["error"]["params"]["retryAfterSeconds"].as_i64().unwrap() > 0);
    // Logout ends the login.
    let r = staff_call(&app, &cookie, "POST", "/api/staff/logout", None, None).await;
    ok(&r);
    let r = get(&app, &cookie, "/api/staff/me").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    // The password is stored as argon2id.
    let stored = rows(db, "SELECT password_hash FROM staff_users").await;
    assert!(stored[0].starts_with("$argon2id$"), "{}", stored[0]);
}

async fn a_second_factor_is_asked_for_checked_and_used_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let secret = add(&app, "totp@chain.example", Role::Usher, &[1], true).await.unwrap();
    let r = login_reply(&app, json!({ "email": "totp@chain.example", "password": PASSWORD }), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));
    assert_eq!(r.body["error"]["params"]["totpRequired"], true);
    let now = app.state.clock.now_ms();
    let right = kupa_app::staff::totp::code_now(&secret, now).unwrap();
    let wrong = format!("{:06}", (right.parse::<u32>().unwrap() + 1) % 1_000_000);
    let r = login_reply(&app, json!({ "email": "totp@chain.example", "password": PASSWORD, "totpCode": wrong }), None).await;
    assert_eq!(code(&r), "LOGIN_FAILED");
    let r = login_reply(&app, json!({ "email": "totp@chain.example", "password": PASSWORD, "totpCode": right }), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["user"]["hasTotp"], true);
    // The same code again is refused (replay).
    let r = login_reply(&app, json!({ "email": "totp@chain.example", "password": PASSWORD, "totpCode": right }), None).await;
    assert_eq!(code(&r), "LOGIN_FAILED");
}

async fn live_figures_match_real_orders_and_holds(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "m@chain.example", Role::Manager, &[1], false).await;
    let m = staff_login(&app, "m@chain.example").await;
    let p = buy_two(&app, &buyer(1), 0).await;
    let (pid, venue, feature) = (p["id"].as_i64().unwrap(), p["venueId"].as_i64().unwrap(), p["featureId"].as_i64().unwrap());
    // Another buyer holds one seat of the same presentation.
    let typed: crate::common::client::Presentation = serde_json::from_value(p.clone()).unwrap();
    let plan = app.seat_plan(&typed).await;
    let (held, _) = row_end_pair(&plan, 3);
    app.lock(&buyer(2), &typed, held.key()).await.ok();
    let capacity: i64 = plan.sections.iter().map(|s| s.capacity).sum();
    let date = date_of(&p);

    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/{venue}")).await;
    let body = ok(&r);
    let row = body["presentations"].as_array().unwrap().iter().find(|x| x["PresentationId"] == pid).unwrap().clone();
    assert_eq!(row["Capacity"], capacity);
    assert_eq!(row["SoldQuantity"], 2);
    assert_eq!(row["HeldQuantity"], 1);
    assert_eq!(row["Availability"], capacity - 3);
    assert_eq!(row["Sold"], (200 * 2 + capacity) / (2 * capacity));
    let ratio = ((2000 * 3 + capacity) / (2 * capacity)) as f64 / 1000.0;
    assert_eq!(row["SeatTakenRatio"].as_f64().unwrap(), ratio);
    assert_eq!(row["BusinessDate"], date.as_str());
    assert!(row.get("Revenue").is_none(), "attendance shows no money");

    // By feature, the same box.
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/feature/{feature}")).await;
    assert!(ok(&r)["presentations"].as_array().unwrap().iter().any(|x| x["PresentationId"] == pid && x["SoldQuantity"] == 2));

    // By location: the total row last, id -1, its name, the sum of the cinemas (location 1 out).
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDateByLocation/{date}")).await;
    let rows_ = ok(&r)["rows"].as_array().unwrap().clone();
    let total = rows_.last().unwrap();
    assert_eq!(total["LocationId"], -1);
    assert_eq!(total["Name"], "כל בתי הקולנוע");
    let sum = |k: &str| rows_.iter().filter(|x| x["LocationId"] != -1 && x["LocationId"] != 1).map(|x| x[k].as_i64().unwrap()).sum::<i64>();
    for k in ["Capacity", "SoldQuantity", "HeldQuantity"] {
        assert_eq!(total[k].as_i64().unwrap(), sum(k), "{k}");
    }
    assert!(rows_.iter().all(|x| x["LocationId"] != 4), "business 2's Haifa is not the manager's");
    let port = rows_.iter().find(|x| x["LocationId"] == 2).unwrap();
    assert!(port["SoldQuantity"].as_i64().unwrap() >= 2 && port["HeldQuantity"].as_i64().unwrap() >= 1);

    // The calendar day equals the location total.
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDate/{date}/{date}")).await;
    let day = &ok(&r)["days"][0];
    assert_eq!(day["SoldQuantity"], total["SoldQuantity"]);
    assert_eq!(day["Capacity"], total["Capacity"]);

    // By venue: the hall's row.
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDateByLocationByVenue/{date}/2")).await;
    let halls = ok(&r)["rows"].as_array().unwrap().clone();
    let hall = halls.iter().find(|x| x["VenueId"] == venue).unwrap().clone();
    assert!(hall["SoldQuantity"].as_i64().unwrap() >= 2);
    // Inside one cinema the total row is that cinema's: 'סה״כ', the sum of its halls.
    let total = halls.last().unwrap();
    assert_eq!((total["Name"].as_str(), total["NameEn"].as_str()), (Some("סה״כ"), Some("Total")));
    let capacity: i64 = halls.iter().filter(|x| x["VenueId"] != -1).map(|x| x["Capacity"].as_i64().unwrap()).sum();
    assert_eq!(total["Capacity"].as_i64().unwrap(), capacity);

    // Money: the presentation's data and the day's sales by presentation.
    let r = get(&app, &m, &format!("/api/PRES-live/v2/presentationData?presentationId={pid}")).await;
    let d = ok(&r);
    assert_eq!(d["presentation"]["SoldQuantity"], 2);
    let tickets: i64 = d["ticketTypes"].as_array().unwrap().iter().map(|t| t["Tickets"].as_i64().unwrap()).sum();
    assert_eq!(tickets, 2);
    let revenue: i64 = d["ticketTypes"].as_array().unwrap().iter().map(|t| t["Revenue"].as_i64().unwrap()).sum();
    assert_eq!(d["presentation"]["Revenue"], revenue);
    assert!(revenue > 0);
    let r = get(&app, &m, &format!("/api/PRES-live/monitors/PresentationSales/data?startDate={date}&endDate={date}")).await;
    let s = ok(&r);
    assert!(s["presentations"].as_array().unwrap().iter().any(|x| x["PresentationId"] == pid && x["Revenue"] == revenue));
    // The sales by day of sale: the sale's business day has these two tickets.
    let paid = rows(db, "SELECT CAST(paid_at AS TEXT) FROM orders WHERE status = 'paid'").await;
    let paid_day = kupa_app::staff::live::business_date(paid[0].parse().unwrap()).to_string();
    let r = get(&app, &m, &format!("/api/PRES-live/locationTicketSales/data/{paid_day}/0")).await;
    let sales = ok(&r)["rows"].as_array().unwrap().clone();
    let port = sales.iter().find(|x| x["LocationId"] == 2).unwrap();
    assert_eq!((port["Tickets"].as_i64(), port["Revenue"].as_i64(), port["Orders"].as_i64()), (Some(2), Some(revenue), Some(1)));
    assert_eq!(sales.last().unwrap()["LocationId"], -1);
    let r = get(&app, &m, &format!("/api/PRES-live/featureTicketSales/data/{paid_day}?featureId={feature}")).await;
    let f = ok(&r)["rows"].as_array().unwrap().clone();
    assert_eq!(f[0]["FeatureId"], feature);
    assert_eq!(f[0]["Tickets"], 2);

    // When the hold goes, the held count follows at once (read from the claims).
    app.unlock(&buyer(2), &typed, held.key()).await.ok();
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/{venue}")).await;
    let row = ok(&r)["presentations"].as_array().unwrap().iter().find(|x| x["PresentationId"] == pid).unwrap().clone();
    assert_eq!((row["SoldQuantity"].as_i64(), row["HeldQuantity"].as_i64()), (Some(2), Some(0)));
    // A hold that ran out is not held, even before the sweeper removes its claim.
    app.lock(&buyer(3), &typed, held.key()).await.ok();
    let held_now = |r: &Reply| r.body["presentations"].as_array().unwrap().iter().find(|x| x["PresentationId"] == pid).unwrap()["HeldQuantity"].as_i64();
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/{venue}")).await;
    assert_eq!(held_now(&r), Some(1));
    app.advance_clock_ms(3 * 3_600_000).await;
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/{venue}")).await;
    assert_eq!(held_now(&r), Some(0));
}

async fn every_call_is_scoped_to_the_users_businesses(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "tlv@chain.example", Role::Manager, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Manager, &[2], false).await;
    let tlv = staff_login(&app, "tlv@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;
    let p = buy_two(&app, &buyer(1), 0).await;
    let (pid, venue, feature) = (p["id"].as_i64().unwrap(), p["venueId"].as_i64().unwrap(), p["featureId"].as_i64().unwrap());
    let date = date_of(&p);
    for uri in every_get(&date, 2, venue, feature, pid) {
        let r = get(&app, &haifa, &uri).await;
        assert!(r.status == StatusCode::OK || r.status == StatusCode::NOT_FOUND, "{uri}: {} {}", r.status, r.text);
        for word in ["Tel Aviv Port", "Talpiot", "נמל תל אביב"] {
            assert!(!r.text.contains(word), "{uri} shows business 1's {word} to business 2: {}", r.text);
        }
        assert!(!r.text.contains(&format!("\"PresentationId\":{pid}")), "{uri}: {}", r.text);
        let r = get(&app, &tlv, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
    }
    // The presentation of another business is not found; naming its business is refused.
    let r = get(&app, &haifa, &format!("/api/PRES-live/v2/presentationData?presentationId={pid}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let r = get(&app, &haifa, "/api/pres-live/monitors/TicketReferencePromptAdmin/data?businessIds=1").await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    let r = get(&app, &tlv, &format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/{venue}")).await;
    assert!(ok(&r)["presentations"].as_array().unwrap().iter().any(|x| x["PresentationId"] == pid));
    let r = get(&app, &haifa, &format!("/api/PRES-live/locationTicketSales/data/{date}/0")).await;
    let total = ok(&r)["rows"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(total["Tickets"], 0);
}

async fn roles_limit_what_each_user_reads(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let date = app.today.to_string();
    let attendance = [
        format!("/api/PRES-live/attendanceByDate/{date}/{date}"),
        format!("/api/PRES-live/attendanceByDateByLocation/{date}"),
        format!("/api/PRES-live/attendanceByDateByLocationByVenue/{date}/2"),
        format!("/api/PRES-live/attendanceByDateByLocationByFeature/{date}/2"),
        format!("/api/PRES-live/attendanceByDatePresentationBox/{date}/2/venue/1"),
    ];
    let sales = [
        "/api/PRES-live/locationTicketSales/".to_owned(),
        format!("/api/PRES-live/locationTicketSales/data/{date}/0"),
        "/api/PRES-live/featureTicketSales".to_owned(),
        format!("/api/PRES-live/featureTicketSales/data/{date}"),
        "/api/PRES-live/monitors/PresentationSales/data".to_owned(),
        "/api/PRES-live/v2/availableFeatures".to_owned(),
        "/api/PRES-live/v2/featureData?featureId=4".to_owned(),
        "/api/PRES-live/v2/availablePresentations?featureId=4".to_owned(),
        "/api/PRES-live/v2/presentationData?presentationId=1".to_owned(),
    ];
    let refs = [
        "/api/pres-live/getTicketRefAgents",
        "/api/pres-live/monitors/TicketReferencePromptAdmin/data",
        "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data",
        "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data",
    ];
    for uri in &attendance {
        ok(&get(&app, &usher, uri).await);
        let r = get(&app, &agent, uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{uri}");
    }
    for uri in &sales {
        for who in [&usher, &agent] {
            let r = get(&app, who, uri).await;
            assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "an usher or agent reads no sales: {uri}");
        }
    }
    for uri in refs {
        ok(&get(&app, &agent, uri).await);
        let r = get(&app, &usher, uri).await;
        assert_eq!(r.status, StatusCode::FORBIDDEN, "{uri}");
    }
    ok(&get(&app, &usher, "/api/PRES-live/getCinemaFilterData").await);
    // Without a login every call is 401.
    for uri in attendance.iter().chain(&sales) {
        let r = app.get(uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{uri}");
    }
    // The live calendar is 14 days either side of today.
    let far = app.today.checked_add(jiff::Span::new().days(15)).unwrap();
    let r = get(&app, &usher, &format!("/api/PRES-live/attendanceByDateByLocation/{far}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
}

async fn reference_options_are_edited_by_same_site_posts_only(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let r = get(&app, &agent, "/api/pres-live/getTicketRefAgents").await;
    let first = ok(&r)["agents"][0].clone();
    assert_eq!(first["PriceType"], 1);
    assert_eq!(first["Reference1"], "101");
    let uri = format!(
        "/api/pres-live/editReferencePromptOptionQuantity/1/1/{}/{}",
        first["PriceId"], first["PriceRowId"]
    );
    let body = json!({ "reference": "101", "reference2": "", "quantity": 7 });
    // From another site's page: refused, nothing written.
    let r = staff_call(&app, &agent, "POST", &uri, Some(body.clone()), Some("https://evil.example")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    let quantity = |r: &Reply| r.body["options"].as_array().unwrap().iter()
        .find(|o| o["Reference1"] == "101").unwrap()["Quantity"].as_i64().unwrap();
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdmin/data").await;
    assert_eq!(quantity(&r), 2);
    // An usher may not; the agent may, from the site's own page.
    let r = staff_call(&app, &usher, "POST", &uri, Some(body.clone()), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = staff_call(&app, &agent, "POST", &uri, Some(body), Some("http://127.0.0.1:8080")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdmin/data").await;
    assert_eq!(quantity(&r), 7);
    assert_eq!(r.body["options"][0]["UsedQuantity"], 0);
    // A key no option has; a negative quantity.
    let r = staff_call(&app, &agent, "POST", &uri, Some(json!({ "reference": "999", "quantity": 1 })), None).await;
    assert_eq!(code(&r), "refPromptOptNotFound");
    let r = staff_call(&app, &agent, "POST", &uri, Some(json!({ "reference": "101", "quantity": -1 })), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    // The ticket sales default to the last month by presentation date, per reference.
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data?detailLevel=2&dateType=1").await;
    assert!(ok(&r)["rows"].as_array().unwrap().is_empty());
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data?dateType=3").await;
    assert_eq!(code(&r), "formValidation");
}

async fn the_demo_history_reads_as_fourteen_days_of_sales(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "m@chain.example", Role::Manager, &[1, 2], false).await;
    let m = staff_login(&app, "m@chain.example").await;
    let started = std::time::Instant::now();
    let report = kupa_store::seed_demo_history(&db.db, app.state.clock.now_ms()).await.unwrap();
    eprintln!("history: {report:?} in {:?}", started.elapsed());
    assert!(report.presentations > 100 && report.tickets > 5_000, "{report:?}");
    let first = app.today.checked_sub(jiff::Span::new().days(14)).unwrap();
    let r = get(&app, &m, &format!("/api/PRES-live/attendanceByDate/{first}/{}", app.today)).await;
    let days = ok(&r)["days"].as_array().unwrap().clone();
    assert_eq!(days.len(), 15);
    let sold: i64 = days.iter().map(|d| d["SoldQuantity"].as_i64().unwrap()).sum();
    assert_eq!(sold as usize, report.tickets, "every seeded ticket is a sold seat of a cinema");
    for d in &days[..14] {
        let (s, c) = (d["SoldQuantity"].as_i64().unwrap(), d["Capacity"].as_i64().unwrap());
        assert!(s > 0 && s < c, "{d}");
    }
    // The money: the last month's presentation sales equal the orders' ticket totals.
    let r = get(&app, &m, "/api/PRES-live/monitors/PresentationSales/data").await;
    let s = ok(&r);
    let orders = rows(db, "SELECT CAST(SUM(tickets_total) AS TEXT) FROM orders WHERE status = 'paid'").await;
    assert_eq!(s["totalRevenue"].as_i64().unwrap().to_string(), orders[0]);
    let by_day: i64 = s["salesByDay"].as_array().unwrap().iter().map(|d| d["Tickets"].as_i64().unwrap()).sum();
    assert_eq!(by_day as usize, report.tickets);
    // The points-of-sale and products reports of the fortnight (their summaries, filled from the
    // seeded orders) say what the orders say, channel by channel and product by product: over
    // the days they were paid on (up to a week before each screening).
    let paid_from = app.today.checked_sub(jiff::Span::new().days(30)).unwrap();
    let range = format!("from={paid_from}&to={}", app.today);
    let r = get(&app, &m, &format!("/api/staff/reports/points-of-sale?{range}&lang=en")).await;
    let mut channels: Vec<String> = ok(&r)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| format!("{} {} {} {}", row["channelEn"].as_str().unwrap(), row["orders"], row["tickets"], row["revenue"]))
        .collect();
    channels.sort();
    let mut expected = rows(
        db,
        "SELECT CASE o.channel WHEN 'web' THEN 'Website' WHEN 'miniSite' THEN 'Mini-site' ELSE 'Partner API' END \
         || ' ' || CAST(COUNT(*) AS TEXT) || ' ' || CAST(SUM((SELECT COUNT(*) FROM order_tickets t WHERE t.order_id = o.id)) AS TEXT) \
         || ' ' || CAST(SUM(o.total) AS TEXT) FROM orders o WHERE o.status = 'paid' GROUP BY o.channel",
    )
    .await;
    expected.sort();
    assert_eq!(channels, expected, "{}", r.text);
    assert_eq!(channels.len(), 3, "web, mini-site and partner sales: {channels:?}");
    let r = get(&app, &m, &format!("/api/staff/reports/products?{range}")).await;
    let sold: i64 = ok(&r)["totals"]["revenue"].as_i64().unwrap();
    let bought = rows(db, "SELECT CAST(SUM(quantity * unit_price) AS TEXT) FROM order_products").await;
    assert_eq!(sold.to_string(), bought[0], "{}", r.text);
    assert!(sold > 0);
    // A seeded reservation reads back like any other.
    let id = rows(db, "SELECT id FROM orders LIMIT 1").await;
    let order = kupa_app::orders::OrderStore::order(&db.db, &id[0].as_str().into()).await.unwrap().unwrap();
    assert!(!order.tickets.is_empty());
}

}
