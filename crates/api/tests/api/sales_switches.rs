//! The sales switches and the back office's audit over HTTP (issue 18 items 5 and 6, decision
//! 0067), on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: each switch refuses a
//! seat lock with its code and What's on says why; a switch refuses a payment started after it;
//! a switch set on one node is obeyed by another within a second; only managers of the complex's
//! business may read or set switches or read the audit; the audit reads every change (who,
//! before, after) newest first, filtered and paged.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

async fn set(
    app: &TestApp,
    m: &str,
    location: i64,
    channel: &str,
    offline: bool,
    advance: bool,
    open: bool,
) -> Reply {
    let body = json!({ "locationId": location, "channel": channel, "offline": offline, "advanceSales": advance, "open": open });
    staff_call(app, m, "PUT", "/api/staff/salesSwitches", Some(body), None).await
}

/// A presentation on sale a day or more ahead in the big hall, and a plain seat of it.
async fn on_sale(app: &TestApp) -> (Presentation, SeatAddress) {
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let (seat, _) = row_end_pair(&plan, 3);
    (p, seat.key())
}

fn listed(all: &[Presentation], id: i64) -> &Presentation {
    all.iter().find(|p| p.id == id).expect("listed")
}

api_tests! {

async fn each_switch_refuses_a_lock_with_its_code_and_whats_on_says_why(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let (p, seat) = on_sale(&app).await;
    let loc = p.location_id;
    let a = buyer(1);
    // (offline, advance sales, open) → the code of the lock and of What's on.
    let cases = [
        ((true, true, true), "locationOffline"),
        ((false, true, false), "noTicketsInChannel"),
        // The screening is a day or more ahead: not today's.
        ((false, false, true), "advanced_sales_not_allowed_by_outlet"),
    ];
    for ((offline, advance, open), want) in cases {
        let r = set(&app, &m, loc, "web", offline, advance, open).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let lock = app.lock(&a, &p, seat).await;
        assert_eq!(lock.refused(), (StatusCode::CONFLICT, want), "{}", lock.text);
        let all = app.presentations().await;
        let shown = listed(&all, p.id);
        assert_eq!(shown.sales_closed.as_deref(), Some(want));
        assert!(!shown.is_on_sale);
        let detail = app.get(&format!("/api/presentations/{}", p.id)).await;
        assert_eq!(detail.body["presentation"]["salesClosed"], want);
    }
    // The mini-site's switches are its own: the web shop's stay as they were set.
    let r = set(&app, &m, loc, "web", false, true, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = set(&app, &m, loc, "miniSite", true, true, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(listed(&app.presentations().await, p.id).sales_closed, None);
    app.lock(&a, &p, seat).await.ok();
    // Another complex is not touched by this one's switch.
    let r = set(&app, &m, loc, "web", true, true, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let all = app.presentations().await;
    assert!(all.iter().any(|x| x.location_id != loc && x.is_on_sale && x.sales_closed.is_none()));
    // The switches as the manager reads them back.
    let s = get(&app, &m, "/api/staff/salesSwitches").await;
    let complex = s.body["complexes"].as_array().unwrap().iter().find(|c| c["id"] == loc).unwrap().clone();
    assert_eq!(complex["switches"], json!([
        { "locationId": loc, "channel": "web", "offline": true, "advanceSales": true, "open": true },
        { "locationId": loc, "channel": "miniSite", "offline": true, "advanceSales": true, "open": true },
    ]));
    // Bad input: a clear code.
    let r = set(&app, &m, loc, "kiosk", true, true, true).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
}

async fn a_payment_started_after_a_switch_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let who = buyer(2);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let loc = k.presentation["locationId"].as_i64().unwrap();
    let r = set(&app, &m, loc, "web", true, true, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    let form = app.payment_form(&who, "he", presentation, k.total, "method=card").await;
    assert_eq!(form.refused(), (StatusCode::CONFLICT, "locationOffline"), "{}", form.text);
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM payments").await, ["0"]);
}

async fn a_switch_set_on_one_node_is_obeyed_by_another_within_a_second(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let (p, seat) = on_sale(&app).await;
    // The other node has the presentation and the switches in its catalogue cache.
    let other = app.another_node(db, test_settings()).await;
    assert_eq!(listed(&other.presentations().await, p.id).sales_closed, None);
    let r = set(&app, &m, p.location_id, "web", true, true, true).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // This node at once; the other within a second (catalogue_version).
    assert_eq!(app.lock(&buyer(1), &p, seat).await.refused().1, "locationOffline");
    tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
    let lock = other.lock(&buyer(1), &p, seat).await;
    assert_eq!(lock.refused(), (StatusCode::CONFLICT, "locationOffline"), "{}", lock.text);
    assert_eq!(listed(&other.presentations().await, p.id).sales_closed.as_deref(), Some("locationOffline"));
}

async fn only_managers_of_the_business_read_and_set_switches_and_the_audit(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let (p, _) = on_sale(&app).await;
    let loc = p.location_id;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let stranger = manager(&app, "m@other.example", &[99]).await;
    for (who, want) in [(&usher, StatusCode::FORBIDDEN), (&stranger, StatusCode::NOT_FOUND)] {
        let r = set(&app, who, loc, "web", true, true, true).await;
        assert_eq!(r.status, want, "{}", r.text);
    }
    assert_eq!(get(&app, &usher, "/api/staff/salesSwitches").await.status, StatusCode::FORBIDDEN);
    assert_eq!(get(&app, &usher, "/api/staff/audit").await.status, StatusCode::FORBIDDEN);
    assert_eq!(get(&app, &stranger, "/api/staff/salesSwitches").await.body["complexes"], json!([]));
    assert_eq!(get(&app, &stranger, &format!("/api/staff/audit?locationId={loc}")).await.status, StatusCode::NOT_FOUND);
    // Nothing was switched: the refused calls wrote nothing.
    assert_eq!(listed(&app.presentations().await, p.id).sales_closed, None);
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM backoffice_audit").await, ["0"]);
    // The manager's change is theirs to read; the other business's manager reads none of it.
    assert_eq!(set(&app, &m, loc, "web", true, true, true).await.status, StatusCode::OK);
    assert_eq!(get(&app, &m, "/api/staff/audit").await.body["changes"].as_array().unwrap().len(), 1);
    assert_eq!(get(&app, &stranger, "/api/staff/audit").await.body["changes"], json!([]));
    // Without a login: 401.
    let r = app.get("/api/staff/audit").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
}

async fn the_audit_reads_every_change_newest_first_a_page_at_a_time(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let (p, _) = on_sale(&app).await;
    let loc = p.location_id;
    // A screening added (hall 1, a week ahead, early), then three switches.
    let day = app.today.checked_add(jiff::ToSpan::days(7)).unwrap().to_string();
    let r = staff_call(&app, &m, "POST", "/api/staff/programme/screenings",
        Some(json!({ "featureId": 3, "venueId": 1, "date": day, "time": "08:00" })), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let added = r.body["screening"]["id"].as_i64().unwrap();
    for (offline, open) in [(true, true), (false, false), (false, true)] {
        assert_eq!(set(&app, &m, loc, "web", offline, true, open).await.status, StatusCode::OK);
    }
    // Newest first, two a page.
    let page = get(&app, &m, "/api/staff/audit?limit=2").await;
    assert_eq!(page.status, StatusCode::OK, "{}", page.text);
    let changes = page.body["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    let last = &changes[0];
    assert_eq!((last["kind"].as_str(), last["by"].as_str()), (Some("salesSwitch"), Some("Test Staff")));
    assert_eq!(last["presentationId"], Value::Null);
    assert_eq!(last["locationId"], loc);
    assert_eq!(last["before"]["open"], false);
    assert_eq!(last["after"]["open"], true);
    assert_eq!(changes[1]["before"]["offline"], true);
    assert_eq!(changes[1]["after"], json!({ "locationId": loc, "channel": "web", "offline": false, "advanceSales": true, "open": false }));
    assert!(changes[0]["id"].as_i64() > changes[1]["id"].as_i64());
    let next = page.body["nextBefore"].as_i64().expect("another page");
    let page2 = get(&app, &m, &format!("/api/staff/audit?limit=2&before={next}")).await;
    let kinds: Vec<&str> = page2.body["changes"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["salesSwitch", "added"]);
    // The first switch started from "on sale" (no row yet).
    assert_eq!(page2.body["changes"][0]["before"]["offline"], false);
    let addition = &page2.body["changes"][1];
    assert_eq!(addition["presentationId"], added);
    assert_eq!(addition["before"], Value::Null);
    assert_eq!(addition["after"]["venueId"], 1);
    let page3 = get(&app, &m, &format!("/api/staff/audit?limit=2&before={}", page2.body["nextBefore"].as_i64().unwrap())).await;
    assert_eq!((page3.body["changes"].as_array().unwrap().len(), &page3.body["nextBefore"]), (0, &Value::Null));
    // Filters: by kind, by complex.
    let only = get(&app, &m, "/api/staff/audit?kind=added").await;
    assert_eq!(only.body["changes"].as_array().unwrap().len(), 1);
    let here = get(&app, &m, &format!("/api/staff/audit?locationId={loc}")).await;
    assert_eq!(here.body["changes"].as_array().unwrap().len(), 4);
    let r = get(&app, &m, "/api/staff/audit?kind=deleted").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    // No personal data and no secrets in what the audit keeps.
    let docs = rows(db, "SELECT COALESCE(before_doc, '') || after_doc FROM backoffice_audit").await.join(" ");
    for word in ["email", "mobile", "password", "@"] {
        assert!(!docs.contains(word), "{word} in {docs}");
    }
}

}
