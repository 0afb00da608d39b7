//! Mini-site ticket validation (issue 17 item 3, decision 0048) over HTTP, on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: check and use with the mini-site's key, use by an
//! usher, references matched, a ticket of another mini-site's screening not found, used exactly
//! once (the door then says "already scanned"), and the attempt limit.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::Value;

/// The kids' mini-site shows features 3, 7, 10 and 12 anywhere.
const KIDS_FEATURES: [i64; 4] = [3, 7, 10, 12];

/// Two seats bought by card on a screening of the big hall the kids' mini-site shows: the
/// presentation and the reservation number.
async fn bought_for_kids(app: &TestApp, who: &str) -> (Value, String) {
    let list = app.get("/api/presentations/").await;
    let p = list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| {
            p["venueId"] == 1
                && p["isOnSale"] == true
                && KIDS_FEATURES.contains(&p["featureId"].as_i64().unwrap())
        })
        .cloned()
        .expect("a kids' screening on sale in the big hall");
    let k = priced_cart_for(app, who, p.clone(), 0, None, "he").await;
    (p, pay_by_card(app, who, k).await.reservation_number)
}

async fn validate(
    app: &TestApp,
    site: &str,
    query: &str,
    key: Option<&str>,
    staff: Option<&str>,
) -> Reply {
    let mut req = Request::get(format!("/api/mini-site/validate/{site}?{query}"));
    if let Some(k) = key {
        req = req.header("x-mini-site-key", k);
    }
    if let Some(c) = staff {
        req = req.header("cookie", format!("kupa_staff={c}"));
    }
    app.send(req.body(Body::empty()).unwrap()).await
}

api_tests! {

async fn a_mini_site_checks_and_uses_a_ticket_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, number) = bought_for_kids(&app, &buyer(1)).await;
    let key = Some(TEST_MINI_SITE_KEY);
    // Check: read only, by the key; the typed ticket number.
    let r = validate(&app, "kids", &format!("ticketId={number}-1"), key, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["TicketId"].as_str(), r.body["Balance"].as_i64(), r.body["used"].as_bool()),
               (Some(format!("{number}-1").as_str()), Some(1), Some(false)), "{}", r.text);
    assert_eq!(r.body["presentationId"], p["id"]);
    example(&app, "miniSiteValidate", "ValidationResult", &r);
    let again = validate(&app, "kids", &format!("ticketId={number}-1&mode=check"), key, None).await;
    assert_eq!(again.body["Balance"], 1, "a check uses nothing");
    // Use: once; the second use is refused with when it was used; a check then says 0.
    let r = validate(&app, "kids", &format!("ticketId={number}-1&mode=use"), key, None).await;
    assert_eq!((r.status, r.body["Balance"].as_i64(), r.body["used"].as_bool()), (StatusCode::OK, Some(0), Some(true)), "{}", r.text);
    let r = validate(&app, "kids", &format!("ticketId={number}-1&mode=use"), key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticket_balance_error"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["reason"], "scanned");
    assert!(r.body["error"]["params"]["scannedAt"].is_string(), "{}", r.text);
    let r = validate(&app, "kids", &format!("ticketId={number}-1"), key, None).await;
    assert_eq!(r.body["Balance"], 0);
    // The cinema's own door sees it used.
    let scanned = rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM order_tickets WHERE scanned_at IS NOT NULL AND scanned_by IS NULL").await;
    assert_eq!(scanned, vec!["1"], "marked by the mini-site's key: no staff user");
    // An usher of the business uses the second ticket with their login, no key.
    add(&app, "u@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "u@chain.example").await;
    let r = validate(&app, "kids", &format!("ticketId={number}-2&mode=use"), None, Some(&usher)).await;
    assert_eq!((r.status, r.body["used"].as_bool()), (StatusCode::OK, Some(true)), "{}", r.text);
    let by = rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM order_tickets WHERE scanned_by IS NOT NULL").await;
    assert_eq!(by, vec!["1"]);
}

async fn every_refusal_of_a_mini_site_validation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (_, number) = bought_for_kids(&app, &buyer(1)).await;
    let ticket = format!("ticketId={number}-1");
    let key = Some(TEST_MINI_SITE_KEY);
    // No key and no login; a wrong key; the festival's key is not the kids' (none is set here).
    let r = validate(&app, "kids", &ticket, None, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
    let r = validate(&app, "kids", &ticket, Some("guess"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
    let r = validate(&app, "festival", &ticket, key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "another mini-site's key: {}", r.text);
    // No such mini-site; no such ticket; a reference that is not the ticket's.
    let r = validate(&app, "nowhere", &ticket, key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    let r = validate(&app, "kids", "ticketId=0000-0000-1", key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    let r = validate(&app, "kids", &format!("{ticket}&reference1=301"), key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    let r = validate(&app, "kids", &format!("{ticket}&mode=erase"), key, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    // A ticket of a screening the mini-site does not show: the festival (location 3) shows no
    // big-hall screening; an usher of that mini-site's page asks for it.
    add(&app, "u@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "u@chain.example").await;
    let r = validate(&app, "festival", &ticket, None, Some(&usher)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    // An usher of another business does not find it; an agent may not validate.
    add(&app, "h@chain.example", Role::Usher, &[2], false).await;
    let haifa = staff_login(&app, "h@chain.example").await;
    let r = validate(&app, "kids", &ticket, None, Some(&haifa)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    add(&app, "a@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    let agent = staff_login(&app, "a@chain.example").await;
    let r = validate(&app, "kids", &ticket, None, Some(&agent)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{}", r.text);
}

async fn mini_site_validations_are_attempt_limited(db: &TestDb) {
    let mut settings = test_settings();
    settings.rate_limits = kupa_api::rate_limit::RateLimits::parse("validate.session=3/1m").unwrap();
    let app = TestApp::new(db, settings).await;
    for i in 0..3 {
        let r = validate(&app, "kids", &format!("ticketId=0000-000{i}-1"), Some(TEST_MINI_SITE_KEY), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    }
    let r = validate(&app, "kids", "ticketId=0000-0009-1", Some(TEST_MINI_SITE_KEY), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyRequests"), "{}", r.text);
    assert!(r.headers.contains_key("retry-after"));
}

}
