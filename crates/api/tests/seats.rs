//! Holding seats over HTTP: lock, unlock, sofas, special seats, general admission, sale windows,
//! step timers and expiry, on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

mod common;

use axum::http::StatusCode;
use common::*;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// An on-sale presentation in the given venue, with its seat plan (short form).
async fn on_sale_in_venue(app: &TestApp, venue_id: i64) -> (Value, Value) {
    let r = app.get("/api/presentations/").await;
    let p = r.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["venueId"] == venue_id && p["isOnSale"] == true && app.starts_after_hours(p, 24)
        })
        .unwrap_or_else(|| panic!("no presentation on sale in venue {venue_id}"))
        .clone();
    let plan = app
        .post(
            &format!(
                "/api/seats/seatplanV2?venueId={}&seatplanId={}",
                p["venueId"], p["seatplanId"]
            ),
            &json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string(),
        )
        .await
        .body["seatplan"]
        .clone();
    (p, plan)
}

fn seat_body(p: &Value, section: i64, x: i64, y: i64, extra: Value) -> String {
    let mut body = json!({
        "recaptchaToken": CAPTCHA_TEST_TOKEN,
        "seat": {
            "PresentationId": p["id"], "VenueId": p["venueId"], "VenueSeatplanId": p["seatplanId"],
            "VenueSectionId": section, "TicketGroupId": 1, "XCoordinate": x, "YCoordinate": y
        }
    });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    body.to_string()
}

fn plain_seats(plan: &Value) -> Vec<&Value> {
    plan["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["hc"] == false && s["lv"] == false && s["sf"].is_null())
        .collect()
}

async fn status_of(app: &TestApp, session: &str, p: &Value, x: i64, y: i64, si: i64) -> Value {
    let r = app
        .call_as(
            session,
            "GET",
            &format!("/api/seats/seats-statusV2?presentationId={}", p["id"]),
            None,
        )
        .await;
    r.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["x"] == x && s["y"] == y && s["si"] == si)
        .unwrap()
        .clone()
}

api_tests! {
async fn a_seat_held_by_one_buyer_is_refused_to_another_until_released(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seat = plain_seats(&plan)[40];
    let (si, x, y) = (seat["si"].as_i64().unwrap(), seat["x"].as_i64().unwrap(), seat["y"].as_i64().unwrap());
    let (a, b) = (buyer(1), buyer(2));

    let r = app.call_as(&a, "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["lockedSeat"]["x"].as_i64(), r.body["lockedSeat"]["y"].as_i64()), (Some(x), Some(y)));
    assert_eq!(r.body["step"], "seats");
    assert!(r.body["expiresAt"].as_str().unwrap() > r.body["serverTime"].as_str().unwrap());
    example(&app, "lockSeat", "LockResponse", &r);

    assert_eq!(status_of(&app, &a, &p, x, y, si).await["s"], "heldByMe");
    assert_eq!(status_of(&app, &a, &p, x, y, si).await["isSelected"], true);
    assert_eq!(status_of(&app, &b, &p, x, y, si).await["s"], "heldByOther");

    let r = app.call_as(&b, "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "lock_seat_error"));
    example(&app, "lockSeat", "ErrorBody", &r);
    let r = app.call_as(&b, "PUT", "/api/seats/unlock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "unlock_seat_error"), "a buyer cannot release another's seat");

    let r = app.call_as(&a, "PUT", "/api/seats/unlock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "unlockSeat", "UnlockResponse", &r);
    let r = app.call_as(&b, "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "released seats are free again: {}", r.text);

    let r = app.call_as(&b, "GET", &format!("/api/seats/my-holds?presentationId={}", p["id"]), None).await;
    assert_eq!(r.body["seats"].as_array().unwrap().len(), 1);
    assert_eq!(r.body["step"], "seats");
    example(&app, "myHolds", "MyHoldsResponse", &r);
}

async fn a_sofa_is_held_and_released_whole(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 2).await;
    let sofa_seat = plan["seats"].as_array().unwrap().iter().find(|s| !s["sf"].is_null()).unwrap();
    let sofa = sofa_seat["sf"].clone();
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat",
        Some(&seat_body(&p, sofa_seat["si"].as_i64().unwrap(), sofa_seat["x"].as_i64().unwrap(), sofa_seat["y"].as_i64().unwrap(), json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let partners = plan["seats"].as_array().unwrap().iter().filter(|s| s["sf"] == sofa).count();
    assert!(partners >= 2);
    assert_eq!(r.body["lockedSeats"].as_array().unwrap().len(), partners, "the whole sofa is held");
    let partner = plan["seats"].as_array().unwrap().iter().find(|s| s["sf"] == sofa && s["x"] != sofa_seat["x"]).unwrap();
    let r = app.call_as(&buyer(2), "PUT", "/api/seats/lock-seat",
        Some(&seat_body(&p, partner["si"].as_i64().unwrap(), partner["x"].as_i64().unwrap(), partner["y"].as_i64().unwrap(), json!({})))).await;
    assert_eq!(code(&r), "lock_seat_error", "the partner seat went with the sofa");
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/unlock-seat",
        Some(&seat_body(&p, partner["si"].as_i64().unwrap(), partner["x"].as_i64().unwrap(), partner["y"].as_i64().unwrap(), json!({})))).await;
    assert_eq!(r.body["unlockedSeats"].as_array().unwrap().len(), partners, "{}", r.text);
}

async fn wheelchair_and_limited_view_seats_need_a_confirmation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 4).await;
    for (flag, confirm) in [("hc", "confirmWheelchair"), ("lv", "confirmLimitedView")] {
        let s = plan["seats"].as_array().unwrap().iter().find(|s| s[flag] == true && s["sf"].is_null()).unwrap_or_else(|| panic!("venue 4 has a {flag} seat"));
        let (si, x, y) = (s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap());
        let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "seatConfirmationRequired"), "{flag}");
        let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({ confirm: true })))).await;
        assert_eq!(r.status, StatusCode::OK, "{flag}: {}", r.text);
    }
}

async fn a_buyer_may_hold_at_most_the_configured_number_of_seats(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seats = plain_seats(&plan);
    for s in seats.iter().take(10) {
        let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), json!({})))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let s = seats[10];
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "tooManySeats"));
    let r = app.call_as(&buyer(2), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "the limit is per buyer");
}

async fn general_admission_places_are_numbered_and_never_oversold(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 8).await;
    let section = plan["sections"].as_array().unwrap().iter().filter(|s| s["kind"] == "ga").min_by_key(|s| s["capacity"].as_i64().unwrap()).unwrap().clone();
    let (si, capacity) = (section["id"].as_i64().unwrap(), section["capacity"].as_i64().unwrap());
    let mut numbers = std::collections::BTreeSet::new();
    for i in 0..capacity {
        let who = buyer(100 + (i / 10) as u32);
        let r = app.call_as(&who, "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, 0, 0, json!({})))).await;
        assert_eq!(r.status, StatusCode::OK, "place {i}: {}", r.text);
        assert!(numbers.insert(r.body["lockedSeat"]["x"].as_i64().unwrap()), "each place once");
    }
    assert_eq!(numbers, (1..=capacity).collect(), "places 1..=capacity");
    let r = app.call_as(&buyer(999), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, 0, 0, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ga_not_enough_seats"));
    let st = app.get(&format!("/api/seats/seats-statusV2?presentationId={}", p["id"])).await;
    let sec = st.body["sections"].as_array().unwrap().iter().find(|s| s["id"] == si).unwrap().clone();
    assert_eq!((sec["remaining"].as_i64(), sec["soldOut"].as_bool()), (Some(0), Some(true)));
}

async fn seats_are_sold_only_inside_the_sale_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get("/api/presentations/").await;
    let premiere = r.body["presentations"].as_array().unwrap().iter().find(|p| p["saleState"] == "notYetStarted").unwrap().clone();
    let plan = app.get(&format!("/api/seats/seatplan?venueId={}&seatplanId={}", premiere["venueId"], premiere["seatplanId"])).await;
    let s = &plan.body["seatplan"]["seats"][0];
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat",
        Some(&seat_body(&premiere, s["VenueSectionId"].as_i64().unwrap(), s["XCoordinate"].as_i64().unwrap(), s["YCoordinate"].as_i64().unwrap(), json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticket_sale_not_yet_started"));
    let past_day = app.today.checked_sub(jiff::ToSpan::days(2)).unwrap();
    let r = app.get(&format!("/api/seats/presentations?date={past_day}")).await;
    let past = r.body["presentations"].as_array().unwrap().iter().find(|p| p["venueId"] == 1).unwrap().clone();
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat",
        Some(&seat_body(&past, s["VenueSectionId"].as_i64().unwrap(), s["XCoordinate"].as_i64().unwrap(), s["YCoordinate"].as_i64().unwrap(), json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticketing_ended"));
}

async fn an_expired_hold_is_free_for_another_buyer_and_cannot_be_extended(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let s = plain_seats(&plan)[5];
    let body = seat_body(&p, s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), json!({}));
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK);
    let extend = json!({ "presentationId": p["id"] }).to_string();
    let r = app.call_as(&buyer(1), "POST", "/api/seats/extend", Some(&extend)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["extended"], true);
    example(&app, "extendHold", "CheckoutResponse", &r);
    let r = app.call_as(&buyer(1), "POST", "/api/seats/extend", Some(&extend)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "extensionNotAllowed"), "once per step");

    // 10 minutes of choosing seats, extended once: 20 minutes and one more second.
    let r = app.post("/api/test/clock", r#"{"advanceMs": 1201000}"#).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(status_of(&app, &buyer(2), &p, s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), s["si"].as_i64().unwrap()).await["s"], "available");
    let r = app.call_as(&buyer(2), "PUT", "/api/seats/lock-seat", Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "the expired hold is free at once: {}", r.text);
    let r = app.call_as(&buyer(1), "POST", "/api/seats/extend", Some(&extend)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "timeExpired"));
    let r = app.call_as(&buyer(1), "GET", &format!("/api/seats/my-holds?presentationId={}", p["id"]), None).await;
    assert!(r.body["seats"].as_array().unwrap().is_empty() && r.body["step"].is_null());
}

async fn policy_three_blocks_the_seat_that_would_leave_a_single_gap(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    assert_eq!(p["seatingPolicyId"], 3);
    // Three seats side by side in one row, away from aisles: hold the left one; the seat two
    // to its right would strand the seat between them, so it is blocked for this buyer.
    let seats = plan["seats"].as_array().unwrap();
    let at = |si: &Value, x: i64, y: &Value| seats.iter().find(|s| &s["si"] == si && s["x"] == x && &s["y"] == y);
    let start = seats
        .iter()
        .find(|s| (1..=3).all(|d| at(&s["si"], s["x"].as_i64().unwrap() + d, &s["y"]).is_some()) && at(&s["si"], s["x"].as_i64().unwrap() - 1, &s["y"]).is_some())
        .unwrap();
    let (si, x, y) = (start["si"].as_i64().unwrap(), start["x"].as_i64().unwrap(), start["y"].as_i64().unwrap());
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, si, x, y, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(status_of(&app, &buyer(1), &p, x + 2, y, si).await["isBlocked"], true, "would strand x+1");
    assert_eq!(status_of(&app, &buyer(1), &p, x + 1, y, si).await["isBlocked"], false);
    // Another buyer taking x+2 would strand x+1 just the same; x+3 strands nothing.
    assert_eq!(status_of(&app, &buyer(2), &p, x + 3, y, si).await["isBlocked"], false);
}

async fn lock_and_unlock_refuse_a_wrong_captcha_with_400(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let s = plain_seats(&plan)[0];
    let mut body: Value = serde_json::from_str(&seat_body(&p, s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), json!({}))).unwrap();
    body["recaptchaToken"] = json!("nope");
    for path in ["/api/seats/lock-seat", "/api/seats/unlock-seat"] {
        let r = app.call_as(&buyer(1), "PUT", path, Some(&body.to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"), "{path}");
    }
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(r#"{"seat": {"PresentationId": "x"}}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&seat_body(&p, s["si"].as_i64().unwrap(), 999, 999, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "no seat there");
}

async fn best_available_finds_contiguous_seats_and_can_hold_them_at_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, _) = on_sale_in_venue(&app, 1).await;
    let base = format!("/api/seats/best-available?presentationId={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]);
    let r = app.call_as(&buyer(1), "GET", &format!("{base}&quantity=3&maxMatches=5"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let matches = r.body["matches"].as_array().unwrap();
    assert_eq!(matches.len(), 5);
    for m in matches {
        let seats = m["seats"].as_array().unwrap();
        assert_eq!(seats.len(), 3);
        assert!(seats.windows(2).all(|w| w[0]["y"] == w[1]["y"] && w[0]["sectionId"] == w[1]["sectionId"] && w[1]["x"].as_i64().unwrap() == w[0]["x"].as_i64().unwrap() + 1), "side by side: {m}");
        assert_eq!(m["isLocked"], false);
    }
    example(&app, "bestAvailable", "BestAvailableResponse", &r);
    let r = app.call_as(&buyer(1), "GET", &format!("{base}&quantity=2&isLock=1"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let held = &r.body["matches"][0];
    assert_eq!(held["isLocked"], true);
    for s in held["seats"].as_array().unwrap() {
        let st = status_of(&app, &buyer(1), &p, s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap(), s["sectionId"].as_i64().unwrap()).await;
        assert_eq!(st["s"], "heldByMe");
    }
    // Another buyer asking the same gets other seats.
    let r = app.call_as(&buyer(2), "GET", &format!("{base}&quantity=2&isLock=1"), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_ne!(r.body["matches"][0]["seats"], held["seats"]);
}

async fn best_available_says_why_there_are_not_enough_seats(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let base = format!("/api/seats/best-available?presentationId={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]);
    let r = app.get(&format!("{base}&quantity=1000")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "res_not_enough_seats"), "{}", r.text);
    let longest_row = plan["seats"].as_array().unwrap().iter().fold(std::collections::HashMap::<(i64, i64), i64>::new(), |mut m, s| {
        *m.entry((s["si"].as_i64().unwrap(), s["y"].as_i64().unwrap())).or_default() += 1;
        m
    }).into_values().max().unwrap();
    let r = app.get(&format!("{base}&quantity={}", longest_row + 1)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "NOT_ENOUGH_SEATS"), "no row is that long: {}", r.text);
    let section = plan["sections"][0].clone();
    let r = app.get(&format!("{base}&quantity={}&sectionId={}", section["capacity"].as_i64().unwrap() + 1, section["id"])).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "section_not_enough_seats"), "{}", r.text);
    let (ga, ga_plan) = on_sale_in_venue(&app, 3).await;
    let capacity = ga_plan["sections"][0]["capacity"].as_i64().unwrap();
    let r = app.get(&format!("/api/seats/best-available?presentationId={}&quantity={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", ga["id"], capacity + 1)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ga_not_enough_seats"), "{}", r.text);
    let r = app.get(&format!("/api/seats/best-available?presentationId={}&quantity=2&recaptchaToken=wrong", p["id"])).await;
    assert_eq!(code(&r), "recaptcha");
}


async fn seats_without_an_online_price_are_refused_with_no_price_policy(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let press = plan["seats"].as_array().unwrap().iter().find(|s| s["tg"] == 9).expect("the big hall has press seats").clone();
    let body = seat_body(&p, press["si"].as_i64().unwrap(), press["x"].as_i64().unwrap(), press["y"].as_i64().unwrap(), json!({}));
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&body)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "no_price_policy"), "{}", r.text);
    let st = status_of(&app, &buyer(1), &p, press["x"].as_i64().unwrap(), press["y"].as_i64().unwrap(), press["si"].as_i64().unwrap()).await;
    assert_eq!(st["isBlocked"], true, "the seat map shows it as not selectable");
}
}
