//! Locks on the doors, over HTTP: buyer sessions are minted by the server only, a login lives in
//! its own HttpOnly cookie and rotates the buyer session, a planted session id is worth nothing
//! after the victim logs in, and another site's page cannot change state with the buyer's
//! cookies. On SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;

/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";

async fn get_with_cookie(app: &TestApp, uri: &str, cookie: &str) -> Reply {
    app.send(
        Request::get(uri)
            .header("cookie", cookie)
            .body(Body::empty())
            .unwrap(),
    )
    .await
}

/// A plain seat of an on-sale presentation of venue 1.
async fn a_seat(app: &TestApp, n: usize) -> (Presentation, SeatAddress) {
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let seat = plan
        .seats
        .iter()
        .filter(|s| !s.hc && !s.lv && s.sf.is_none())
        .nth(n)
        .unwrap()
        .key();
    (p, seat)
}

api_tests! {
async fn made_up_session_ids_are_never_adopted(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let other_key = kupa_api::session::SessionKey::new([7; 32]).sign([1; 16]);
    for planted in [
        "0".repeat(32),                 // the shape ids had before they were signed
        "0".repeat(64),
        format!("{:032x}", 42),
        other_key,                      // signed, but not by this server
    ] {
        for (how, reply) in [
            ("header", app.call_as(&planted, "GET", "/api/config", None).await),
            ("cookie", get_with_cookie(&app, "/api/config", &format!("kupa_uuid={planted}")).await),
        ] {
            let issued = reply.headers["uuid"].to_str().unwrap();
            assert_ne!(issued, planted, "{how}: a made-up id is replaced");
            assert!(kupa_api::session::SessionKey::for_tests().verify(issued));
            assert_eq!(
                set_cookie(&reply, "kupa_uuid"),
                Some(issued),
                "{how}: the browser is given the new id"
            );
        }
    }
    // A made-up id cannot hold a seat under its own name either.
    let (p, seat) = a_seat(&app, 3).await;
    let planted = "0".repeat(64);
    let r = app.lock(&planted, &p, seat).await;
    let holder = r.headers["uuid"].to_str().unwrap().to_owned();
    assert_ne!(holder, planted);
    assert_eq!(app.my_holds(&planted, p.id).await.ok().seats.len(), 0);
    assert_eq!(app.my_holds(&holder, p.id).await.ok().seats.len(), 1);
}

async fn a_planted_session_is_worth_nothing_after_the_victim_logs_in(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // The attacker gets a real id from the server and plants it in the victim's browser.
    let planted = app.get("/api/config").await.headers["uuid"]
        .to_str()
        .unwrap()
        .to_owned();
    let (p, seat) = a_seat(&app, 5).await;
    app.lock(&planted, &p, seat).await.ok();

    let victim = log_in(&app, &planted, DANA).await;
    let (victim_session, _) = who_parts(&victim);
    assert_ne!(victim_session, planted, "the login rotated the buyer session");

    // The attacker's copy of the old id: no login, no saved cards, none of the victim's seats.
    let r = app.call_as(&planted, "GET", "/api/customer/me", None).await;
    assert_eq!((r.status, r.body["error"]["code"].as_str()), (StatusCode::UNAUTHORIZED, Some("loginError")));
    let r = app.call_as(&planted, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(app.my_holds(&planted, p.id).await.ok().seats.len(), 0);

    // The victim kept the seat and is logged in.
    assert_eq!(app.my_holds(&victim, p.id).await.ok().seats.len(), 1, "the holds moved with the session");
    let r = app.call_as(&victim, "GET", "/api/customer/me", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["customerInfo"]["CustomerId"], 1);

    // The new buyer id alone (what the page script sees and echoes) does not log anyone in.
    let r = app.call_as(victim_session, "GET", "/api/customer/me", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "the uuid alone is not a login");
}

async fn the_login_cookie_is_http_only_and_logout_ends_and_rotates_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let body = serde_json::json!({ "mobileNumber": DANA, "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    app.call_as(&who, "POST", "/api/customer/mobile-login", Some(&body)).await;
    let sms = app.get(&format!("/api/test/outbox/sms?to={DANA}")).await;
    let code = six_digits(sms.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let body = serde_json::json!({ "smsCode": code, "mobileNumber": DANA }).to_string();
    let r = app.call_as(&who, "POST", "/api/customer/mobile-login-validation-area", Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let login_cookie = r
        .headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("kupa_login="))
        .expect("a login cookie");
    assert!(login_cookie.contains("HttpOnly"), "{login_cookie}");
    assert!(login_cookie.contains("SameSite=Lax"), "{login_cookie}");
    let session = r.headers["uuid"].to_str().unwrap().to_owned();
    let login = set_cookie(&r, "kupa_login").unwrap().to_owned();
    let logged_in = format!("{session};{login}");
    assert_eq!(app.call_as(&logged_in, "GET", "/api/customer/me", None).await.status, StatusCode::OK);

    let r = app.call_as(&logged_in, "POST", "/api/customer/logout", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(set_cookie(&r, "kupa_login"), Some(""), "the login cookie is cleared");
    let after = r.headers["uuid"].to_str().unwrap().to_owned();
    assert_ne!(after, session, "logout rotates the buyer session too");
    let r = app.call_as(&logged_in, "GET", "/api/customer/me", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "a kept copy of the old login cookie is dead");
}

async fn another_sites_page_cannot_change_state_with_the_buyers_cookies(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(9);
    let (p, seat) = a_seat(&app, 7).await;
    let body = seat_body(&p, seat).to_string();
    let post = |origin: &'static str| {
        Request::put("/api/seats/lock-seat")
            .header("host", "tickets.example")
            .header("origin", origin)
            .header("cookie", format!("kupa_uuid={who}"))
            .header("content-type", "application/json")
            .body(Body::from(body.clone()))
            .unwrap()
    };
    let r = app.send(post("https://evil.example")).await;
    assert_eq!((r.status, r.body["error"]["code"].as_str()), (StatusCode::FORBIDDEN, Some("forbidden")), "{}", r.text);
    let r = app.send(post("null")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "an opaque origin is another site too");
    assert_eq!(app.my_holds(&who, p.id).await.ok().seats.len(), 0, "nothing was held");
    // The shop's own page (same host), and the configured public address, may.
    let r = app.send(post("http://tickets.example")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app
        .send(
            Request::get("/api/config")
                .header("origin", "https://evil.example")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "reads are not refused");
}

async fn one_address_cannot_hold_a_hall_however_many_sessions_it_asks_for(db: &TestDb) {
    let limits = kupa_app::booking::HoldLimits::parse("address=10,ceiling=off").unwrap();
    let app = TestApp::new(db, kupa_api::ApiSettings { hold_limits: limits, trust_forwarded_for: true, ..test_settings() }).await;
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let seats: Vec<SeatAddress> = plan.seats.iter().filter(|s| !s.hc && !s.lv && s.sf.is_none()).map(|s| s.key()).collect();
    // One client asks the server for a fresh session per seat, as the probe did with made-up ids.
    let lock_from = |address: &'static str, at: SeatAddress| {
        let body = seat_body(&p, at).to_string();
        Request::put("/api/seats/lock-seat")
            .header("x-forwarded-for", address)
            .header("content-type", "application/json")
            .body(Body::from(body))
            .unwrap()
    };
    let mut held = Vec::new();
    for (i, at) in seats.iter().take(12).enumerate() {
        let r = app.send(lock_from("203.0.113.7", *at)).await;
        if i < 10 {
            assert_eq!(r.status, StatusCode::OK, "seat {i}: {}", r.text);
            held.push((r.headers["uuid"].to_str().unwrap().to_owned(), *at));
        } else {
            assert_eq!((r.status, r.body["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("holdLimitReached")), "seat {i}: {}", r.text);
            assert_eq!((r.body["error"]["params"]["scope"].as_str(), r.body["error"]["params"]["limit"].as_i64()), (Some("address"), Some(10)));
        }
    }
    let sessions: std::collections::HashSet<&str> = held.iter().map(|(s, _)| s.as_str()).collect();
    assert_eq!(sessions.len(), 10, "ten sessions, one seat each");
    // Another address has its own allowance.
    let r = app.send(lock_from("198.51.100.2", seats[20])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // A seat let go makes room again.
    let (who, at) = &held[0];
    app.unlock(who, &p, *at).await.ok();
    let r = app.send(lock_from("203.0.113.7", seats[11])).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn a_customer_holds_no_more_than_allowed_across_logins(db: &TestDb) {
    let limits = kupa_app::booking::HoldLimits::parse("address=off,customer=3,ceiling=off").unwrap();
    let app = TestApp::new(db, kupa_api::ApiSettings { hold_limits: limits, ..test_settings() }).await;
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let seats: Vec<SeatAddress> = plan.seats.iter().filter(|s| !s.hc && !s.lv && s.sf.is_none()).map(|s| s.key()).collect();
    let first = log_in(&app, &buyer(1), DANA).await;
    for at in &seats[..3] {
        app.lock(&first, &p, *at).await.ok();
    }
    let second = log_in(&app, &buyer(2), DANA).await;
    let r = app.lock(&second, &p, seats[3]).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "holdLimitReached"));
    assert_eq!(r.body["error"]["params"]["scope"], "customer");
    // The same seat for a buyer who is not logged in (the address limit is off here).
    app.lock(&buyer(3), &p, seats[3]).await.ok();
}

async fn a_sessions_holds_are_not_renewed_past_the_ceiling(db: &TestDb) {
    let limits = kupa_app::booking::HoldLimits::parse("address=off,ceiling=15m").unwrap();
    let app = TestApp::new(db, kupa_api::ApiSettings { hold_limits: limits, ..test_settings() }).await;
    let (p, seat) = a_seat(&app, 11).await;
    let who = buyer(1);
    let minute = 60_000;
    let first = app.lock(&who, &p, seat).await.ok();
    let started: jiff::Timestamp = first.server_time.parse().unwrap();
    let after_start = |t: &str| t.parse::<jiff::Timestamp>().unwrap().as_millisecond() - started.as_millisecond();
    // The seats step is 10 minutes; its one extension would make 20: cut at the 15-minute ceiling.
    app.advance_clock_ms(9 * minute).await;
    let r = app.extend(&who, p.id).await.ok();
    assert!((after_start(&r.expires_at) - 15 * minute).abs() < 2_000, "{}", r.expires_at);
    // Expired, and held again at once: the chain goes on, still cut at 15 minutes from the start.
    app.advance_clock_ms(6 * minute + 1_000).await;
    let r = app.lock(&who, &p, seat).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "holdLimitReached"), "past the ceiling");
    assert_eq!(r.body["error"]["params"]["scope"], "ceiling");
    // Refused for as long again, then a new chain of 10 minutes.
    app.advance_clock_ms(15 * minute).await;
    let fresh = app.lock(&who, &p, seat).await.expect("a new chain after the pause");
    let restarted: jiff::Timestamp = fresh.server_time.parse().unwrap();
    // Lapse it, and hold again within the ceiling: the restart continues the chain.
    app.advance_clock_ms(10 * minute + 1_000).await;
    let again = app.lock(&who, &p, seat).await.ok();
    let until = again.expires_at.parse::<jiff::Timestamp>().unwrap().as_millisecond() - restarted.as_millisecond();
    assert!((until - 15 * minute).abs() < 2_000, "a restart is cut at the chain's ceiling, not given 10 more minutes: {until}");
}

async fn an_order_priced_by_a_logged_in_customer_is_theirs_on_another_device(db: &TestDb) {
    use crate::common::paying::{card_form, good_expiry, location, priced_cart_at, rows, start_payment_with};
    let app = TestApp::new(db, test_settings()).await;
    let phone = log_in(&app, &buyer(61), DANA).await;
    let k = priced_cart_at(&app, &phone, 0, None, "he").await;
    let pay = start_payment_with(&app, &phone, &k, "card", "he", 1, false).await;
    let r = app.form_as(&phone, "POST", &format!("/pay/{pay}/card"), Some(&card_form(kupa_providers::test_gateway::cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let id = app.commit(&phone, k.presentation["id"].as_i64().unwrap()).await.ok().reservation_identifier;
    assert_eq!(rows(db, "SELECT CAST(customer_id AS TEXT) FROM orders WHERE status = 'paid'").await, vec!["1".to_owned()], "the order names its customer");
    // The same customer on a laptop (a session of its own, logged in there) reads it; the
    // laptop's session before the login, and another customer, do not.
    let laptop = buyer(62);
    let uri = format!("/api/reservations/{id}");
    assert_eq!(app.call_as(&laptop, "GET", &uri, None).await.status, StatusCode::NOT_FOUND);
    let laptop = log_in(&app, &laptop, DANA).await;
    assert_eq!(app.call_as(&laptop, "GET", &uri, None).await.status, StatusCode::OK);
    let other = log_in(&app, &buyer(63), "0507712345").await;
    assert_eq!(app.call_as(&other, "GET", &uri, None).await.status, StatusCode::NOT_FOUND);
}
}
