//! The staff figures stream (GET /api/PRES-live/events, decision 0032), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a seat held or sold through the real calls tells
//! the live monitoring screens of the user's businesses which day and location to re-read, within
//! the 2 s of issue 16; other businesses' users hear nothing; a logout ends the stream.

use std::time::Duration;

use crate::common::paying::*;
use crate::common::sse::EventStream;
use crate::common::staff::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::json;

fn events_request(cookie: &str) -> Request<Body> {
    Request::get("/api/PRES-live/events")
        .header("cookie", format!("kupa_staff={cookie}"))
        .body(Body::empty())
        .unwrap()
}

async fn open(app: &TestApp, cookie: &str) -> EventStream {
    let mut s = EventStream::open(app, events_request(cookie)).await;
    let (name, _) = s.next().await;
    assert_eq!(name, "ready");
    s
}

api_tests! {

async fn a_hold_and_a_sale_tell_the_figures_of_that_day_and_location(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "manager@chain.example", Role::Manager, &[1], false).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Manager, &[2], false).await;
    let manager = staff_login(&app, "manager@chain.example").await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;

    // Who may listen: no login 401, an agent (no attendance) 403.
    let r = app.get("/api/PRES-live/events").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    let r = get(&app, &agent, "/api/PRES-live/events").await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));

    let mut m = open(&app, &manager).await;
    let mut u = open(&app, &usher).await;
    let mut h = open(&app, &haifa).await;
    // A buyer holds two seats (two lock calls): one event for both, naming the day and place.
    let k = priced_cart_at(&app, &buyer(1), 0, None, "he").await;
    let p = &k.presentation;
    let started = std::time::Instant::now();
    let (name, data) = m.next().await;
    assert_eq!(name, "figures");
    assert_eq!(data["dates"], json!([date_of(p)]));
    assert_eq!(data["locations"], json!([p["locationId"]]));
    assert_eq!(data["presentationIds"], json!([p["id"]]));
    assert_eq!(data["all"], false);
    assert!(started.elapsed() < Duration::from_secs(2));
    assert_eq!(u.next().await.0, "figures");
    // Another business's manager hears nothing of it.
    assert!(h.within(Duration::from_millis(600)).await.is_none(), "business 2 heard business 1's seats");

    // The sale: the held seats become sold; the stream says so again.
    let payment = start_payment_with(&app, &buyer(1), &k, "card", "he", 1, false).await;
    let r = app.form_as(&buyer(1), "POST", &format!("/pay/{payment}/card"),
        Some(&card_form("4242+4242+4242+4242", &good_expiry(&app), "987"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    app.commit(&buyer(1), p["id"].as_i64().unwrap()).await.ok();
    let (name, data) = m.next().await;
    assert_eq!((name.as_str(), &data["presentationIds"]), ("figures", &json!([p["id"]])));

    // A logout ends the manager's stream at its next event; the usher's goes on.
    let r = staff_call(&app, &manager, "POST", "/api/staff/logout", Some(json!({})), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    priced_cart_at(&app, &buyer(2), 1, None, "he").await;
    assert!(m.ends_within(Duration::from_secs(2)).await, "a logged-out user's stream went on");
    assert_eq!(u.next().await.0, "figures");
}

}
