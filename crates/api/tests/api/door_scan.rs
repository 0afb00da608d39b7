//! The door (decision 0044), on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL:
//! tickets bought the real way (seats locked, card paid, committed) are checked by an usher by
//! the e-document's QR link or the typed ticket number, and every answer is reached: valid,
//! already scanned (with when), cancelled, wrong presentation, too early, too late, not paid,
//! not found; two doors scanning one ticket at once admit it once; roles, businesses and the
//! attempt limit.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::Clock;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const USHER: &str = "usher@chain.example";

async fn scan(app: &TestApp, cookie: &str, presentation: i64, code: &str) -> Reply {
    staff_call(
        app,
        cookie,
        "POST",
        "/api/staff/door/scan",
        Some(json!({ "presentationId": presentation, "code": code })),
        None,
    )
    .await
}

fn result(r: &Reply) -> &str {
    ok(r)["result"].as_str().unwrap()
}

fn ms(at: &Value) -> i64 {
    at.as_str()
        .unwrap()
        .parse::<jiff::Timestamp>()
        .unwrap()
        .as_millisecond()
}

/// The e-document keys of the one order bought, by line.
async fn keys(db: &TestDb) -> Vec<String> {
    rows(db, "SELECT document_key FROM order_tickets ORDER BY line").await
}

/// Two tickets bought by `buyer(1)`: the presentation, its start, the reservation and the QR
/// links.
async fn bought(app: &TestApp, db: &TestDb) -> (i64, i64, Bought, Vec<String>) {
    let (p, b) = buy_with_refs(app, &buyer(1), 0, [None, None]).await;
    let links = keys(db)
        .await
        .iter()
        .map(|k| format!("http://127.0.0.1:8080/edocument/{k}"))
        .collect();
    (p["id"].as_i64().unwrap(), ms(&p["dateTime"]), b, links)
}

/// Cancelling open until 10 minutes before the screening (the default closes 2 hours before, and
/// the tests' first screening is an hour and a half away).
fn cancellable_settings() -> kupa_api::ApiSettings {
    kupa_api::ApiSettings {
        cancellation: kupa_app::orders::CancellationPolicy {
            window_minutes: 10,
            ..Default::default()
        },
        ..test_settings()
    }
}

/// Moves the app's clock to `minutes` after the entrance time of a screening starting at `start`.
fn to_entrance(app: &TestApp, start: i64, minutes: i64) {
    let entrance = start - kupa_app::staff::door::DOOR_OPENS_BEFORE_MS;
    app.clock
        .advance_ms(entrance + minutes * 60_000 - app.clock.now_ms());
}

api_tests! {

async fn an_usher_admits_each_ticket_once_by_qr_or_number_and_the_edocument_says_scanned(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    let usher = staff_login(&app, USHER).await;
    let (p, _, b, links) = bought(&app, db).await;

    // Before the entrance time: too early, saying when the doors open; nothing is marked.
    let r = scan(&app, &usher, p, &links[0]).await;
    assert_eq!(result(&r), "tooEarly", "{}", r.text);
    let start = ms(&r.body["ticket"]["presentation"]["dateTime"]);
    assert_eq!(ms(&r.body["entranceTime"]), start - 30 * 60_000);
    assert!(r.body["ticket"]["scannedAt"].is_null());

    // At the entrance time: valid, with the seat and the ticket.
    app.clock.advance_ms(start - 30 * 60_000 - app.clock.now_ms());
    let r = scan(&app, &usher, p, &links[0]).await;
    assert_eq!(result(&r), "valid", "{}", r.text);
    let t = &r.body["ticket"];
    assert_eq!(t["ticketNumber"], format!("{}-1", b.reservation_number));
    assert_eq!((t["number"].as_i64(), t["count"].as_i64()), (Some(1), Some(2)));
    assert!(!t["row"].as_str().unwrap().is_empty() && !t["seat"].as_str().unwrap().is_empty());
    assert!(!t["ticketType"].as_str().unwrap().is_empty());
    assert_eq!(t["presentation"]["id"], p);
    assert!(r.body.get("buyer").is_none() && !r.text.contains("0524318876"), "never the buyer");
    example(&app, "doorScan", "DoorScanResponse", &r);
    let scanned_at = ms(&t["scannedAt"]);
    assert!((app.clock.now_ms() - scanned_at).abs() < 10_000, "scanned now");

    // Again, even a minute later: already scanned, with when.
    app.clock.advance_ms(60_000);
    let r = scan(&app, &usher, p, &links[0]).await;
    assert_eq!(result(&r), "alreadyScanned", "{}", r.text);
    assert_eq!(ms(&r.body["scannedAt"]), scanned_at);

    // The e-document now says scanned, with the time.
    let key = links[0].rsplit('/').next().unwrap();
    let e = app.get(&format!("/api/edocument/{key}")).await;
    assert_eq!((e.body["state"].as_str(), e.body["scannedAt"].is_string()), (Some("scanned"), true), "{}", e.text);
    assert_eq!(ms(&e.body["scannedAt"]), scanned_at);

    // The second ticket by its typed number, any usual spelling; the first one's number is used.
    let digits = b.reservation_number.replace('-', "");
    let r = scan(&app, &usher, p, &format!(" {digits}/2 ")).await;
    assert_eq!(result(&r), "valid", "{}", r.text);
    assert_eq!(r.body["ticket"]["number"], 2);
    let r = scan(&app, &usher, p, &format!("{}-1", b.reservation_number)).await;
    assert_eq!(result(&r), "alreadyScanned", "{}", r.text);
    // The reservation number alone names no one ticket of two; a third, none; nonsense, none.
    for code in [b.reservation_number.clone(), format!("{}-3", b.reservation_number), "hello".into(),
                 "http://x/edocument/00000000000000000000000000000000".into(), String::new()] {
        let r = scan(&app, &usher, p, &code).await;
        assert_eq!(result(&r), "notFound", "{code}: {}", r.text);
        assert!(r.body["ticket"].is_null());
    }
    let stored = rows(db, "SELECT CAST(scanned_by AS TEXT) FROM order_tickets ORDER BY line").await;
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|s| s == &stored[0]), "who scanned is kept: {stored:?}");

    // After the screening's end (start + runtime): too late, with when it ended. A manager may
    // scan too.
    add(&app, "boss@chain.example", Role::Manager, &[1], false).await;
    let boss = staff_login(&app, "boss@chain.example").await;
    let (p2, b2) = buy_with_refs(&app, &buyer(2), 1, [None, None]).await;
    let p2 = p2["id"].as_i64().unwrap();
    assert_eq!(p2, p, "the same screening (the earliest on sale in the big hall)");
    let r = scan(&app, &boss, p, &format!("{}-1", b2.reservation_number)).await;
    assert_eq!(result(&r), "valid", "{}", r.text);
    let end = ms(&r.body["ticket"]["presentation"]["endTime"]);
    assert!(end > start + 60 * 60_000);
    app.clock.advance_ms(end - app.clock.now_ms());
    let r = scan(&app, &boss, p, &format!("{}-2", b2.reservation_number)).await;
    assert_eq!(result(&r), "tooLate", "{}", r.text);
    assert_eq!(ms(&r.body["endTime"]), end);
}

async fn the_door_refuses_cancelled_unpaid_and_other_screenings_tickets(db: &TestDb) {
    let app = TestApp::new(db, cancellable_settings()).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    let usher = staff_login(&app, USHER).await;
    let (p, start, _, links) = bought(&app, db).await;
    // A second reservation, cancelled by its buyer (while cancelling is still open).
    let (_, cancelled) = buy_with_refs(&app, &buyer(2), 1, [None, None]).await;
    let c = app.call_as(&buyer(2), "POST", &format!("/api/reservations/{}/cancel", cancelled.reservation_id), Some("{}")).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);
    to_entrance(&app, start, 5);

    // Another presentation of the business guarded: refused, naming the ticket's own.
    let other = app.presentations().await.into_iter()
        .find(|x| x.id != p && x.venue_id != 101 && x.venue_id != 102)
        .expect("another presentation");
    let r = scan(&app, &usher, other.id, &links[0]).await;
    assert_eq!(result(&r), "wrongPresentation", "{}", r.text);
    assert_eq!(r.body["ticket"]["presentation"]["id"], p);
    assert!(r.body["ticket"]["presentation"]["featureName"].is_string());

    // The cancelled reservation's tickets are cancelled at the door.
    let r = scan(&app, &usher, p, &format!("{}-2", cancelled.reservation_number)).await;
    assert_eq!(result(&r), "cancelled", "{}", r.text);
    assert!(rows(db, "SELECT CAST(scanned_at AS TEXT) FROM order_tickets WHERE scanned_at IS NOT NULL").await.is_empty());

    // An order not paid: not admitted.
    execute(db, "UPDATE orders SET status = 'pending' WHERE status = 'paid'").await;
    let r = scan(&app, &usher, p, &links[0]).await;
    assert_eq!(result(&r), "notPaid", "{}", r.text);
    assert!(rows(db, "SELECT CAST(scanned_at AS TEXT) FROM order_tickets WHERE scanned_at IS NOT NULL").await.is_empty());
}

async fn two_doors_scanning_one_ticket_at_once_admit_it_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    add(&app, "second@chain.example", Role::Usher, &[1], false).await;
    let first = staff_login(&app, USHER).await;
    let second = staff_login(&app, "second@chain.example").await;
    let (p, start, _, links) = bought(&app, db).await;
    to_entrance(&app, start, 1);
    let other = app.another_node(db, test_settings()).await;
    // Two doors on two nodes, each scanning twice at once (a QR read by two frames).
    for link in &links {
        let (a, b, c, d) = tokio::join!(
            scan(&app, &first, p, link),
            scan(&other, &second, p, link),
            scan(&app, &first, p, link),
            scan(&other, &second, p, link)
        );
        let mut answers: Vec<&str> = [&a, &b, &c, &d].iter().map(|r| result(r)).collect();
        answers.sort();
        assert_eq!(answers, ["alreadyScanned", "alreadyScanned", "alreadyScanned", "valid"]);
        let at: Vec<i64> = [&a, &b, &c, &d].iter().map(|r| ms(&r.body["ticket"]["scannedAt"])).collect();
        assert!(at.iter().all(|t| *t == at[0]), "every door names the one scan: {at:?}");
    }
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM order_tickets WHERE scanned_at IS NOT NULL").await, ["2"]);
}

async fn the_store_marks_a_line_for_one_of_two_doors_that_both_saw_it_unscanned(db: &TestDb) {
    use kupa_app::staff::door::DoorStore;
    let app = TestApp::new(db, cancellable_settings()).await;
    let (_, _, _, links) = bought(&app, db).await;
    // Another reservation, one of its two tickets cancelled by its buyer (the order stays paid).
    let (_, cancelled) = buy_with_refs(&app, &buyer(2), 1, [None, None]).await;
    let c = app.call_as(&buyer(2), "POST", &format!("/api/reservations/{}/cancel", cancelled.reservation_id),
        Some(r#"{"itemsToCancel": [1]}"#)).await;
    assert_eq!(c.status, StatusCode::OK, "{}", c.text);

    let key = links[0].rsplit('/').next().unwrap();
    let (order, line) = db.db.line_of_document_key(key).await.unwrap().unwrap();
    // Both doors read the line as unscanned; the UPDATE is what decides.
    let before = db.db.door_tickets(&order).await.unwrap();
    assert!(before.iter().all(|t| t.scanned_at_ms.is_none()));
    let (a, b) = tokio::join!(db.db.mark_scanned(&order, line, 1_000, 1), db.db.mark_scanned(&order, line, 2_000, 2));
    assert_eq!([a.unwrap(), b.unwrap()].iter().filter(|x| **x).count(), 1, "exactly one door marks it");
    assert!(!db.db.mark_scanned(&order, line, 3_000, 3).await.unwrap(), "and never again");
    let after = db.db.door_tickets(&order).await.unwrap();
    assert!(matches!(after[0].scanned_at_ms, Some(1_000 | 2_000)));

    // A cancelled line is never marked.
    let void = db.db.order_of_reservation_number(&cancelled.reservation_number).await.unwrap().unwrap();
    let void_lines = db.db.door_tickets(&void).await.unwrap();
    assert!(void_lines[0].cancelled_at_ms.is_some() && void_lines[1].cancelled_at_ms.is_none());
    assert_eq!(void_lines[0].order_state, kupa_app::staff::door::DoorOrderState::Paid);
    assert!(!db.db.mark_scanned(&void, void_lines[0].line, 4_000, 1).await.unwrap(), "cancelled");
    // Nor a line of an order not paid.
    execute(db, "UPDATE orders SET status = 'pending' WHERE status = 'paid'").await;
    assert!(!db.db.mark_scanned(&order, after[1].line, 5_000, 1).await.unwrap(), "not paid");
}

async fn only_ushers_and_managers_of_the_tickets_business_scan_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Usher, &[2], false).await;
    let usher = staff_login(&app, USHER).await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;
    let (p, start, _, links) = bought(&app, db).await;
    to_entrance(&app, start, 1);

    // No login: 401; a role that may not: 403, for both calls.
    let r = app.post("/api/staff/door/scan", &json!({ "presentationId": p, "code": links[0] }).to_string()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    let r = scan(&app, &agent, p, &links[0]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    let r = get(&app, &agent, "/api/staff/door/presentations").await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));

    // Each usher lists today's presentations of their own business only.
    let r = get(&app, &usher, "/api/staff/door/presentations").await;
    let mine = ok(&r)["presentations"].as_array().unwrap().clone();
    assert!(mine.iter().any(|x| x["id"] == p), "the screening is today: {}", r.text);
    assert!(mine.iter().all(|x| x["businessId"] == 1));
    example(&app, "doorPresentations", "DoorPresentationsResponse", &r);
    let r = get(&app, &haifa, "/api/staff/door/presentations").await;
    let theirs = ok(&r)["presentations"].as_array().unwrap().clone();
    assert!(!theirs.is_empty() && theirs.iter().all(|x| x["businessId"] == 2), "{}", r.text);

    // Business 2's usher: guarding business 1's screening is refused; at their own door, a
    // business 1 ticket is not found (never revealed), and it stays unscanned.
    let r = scan(&app, &haifa, p, &links[0]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let theirs_id = theirs[0]["id"].as_i64().unwrap();
    let r = scan(&app, &haifa, theirs_id, &links[0]).await;
    assert_eq!(result(&r), "notFound", "{}", r.text);
    assert!(r.body["ticket"].is_null());
    let r = scan(&app, &usher, p, &links[0]).await;
    assert_eq!(result(&r), "valid", "{}", r.text);
}

async fn after_midnight_the_door_still_lists_the_evenings_late_screenings(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    let usher = staff_login(&app, USHER).await;
    let listed = |r: &Reply| -> Vec<i64> {
        ok(r)["presentations"].as_array().unwrap().iter().map(|p| ms(&p["dateTime"])).collect()
    };
    let today = listed(&get(&app, &usher, "/api/staff/door/presentations").await);
    let late = *today.iter().max().unwrap();
    // 00:30 the next night: the business day is still the evening's (it turns at 05:00).
    app.clock.advance_ms(15 * 3_600_000 + 30 * 60_000);
    let usher = staff_login(&app, USHER).await; // a login lasts a 12-hour shift
    let night = listed(&get(&app, &usher, "/api/staff/door/presentations").await);
    assert_eq!(night, today, "the same business day's screenings");
    assert!(late > app.clock.now_ms() - 4 * 3_600_000, "the last one started late in the evening");
    // 05:00: the new day's.
    app.clock.advance_ms(4 * 3_600_000 + 30 * 60_000);
    let morning = listed(&get(&app, &usher, "/api/staff/door/presentations").await);
    assert!(!morning.is_empty() && morning.iter().all(|t| *t > late));
}

async fn scans_are_limited_per_staff_user(db: &TestDb) {
    let settings = kupa_api::ApiSettings {
        rate_limits: kupa_api::rate_limit::RateLimits::parse("door.session=3/1m").unwrap(),
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;
    add(&app, USHER, Role::Usher, &[1], false).await;
    add(&app, "second@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, USHER).await;
    let p = app.presentations().await[0].id;
    for _ in 0..3 {
        let r = scan(&app, &usher, p, "1234-5678-1").await;
        assert_eq!(result(&r), "notFound", "{}", r.text);
    }
    let r = scan(&app, &usher, p, "1234-5678-1").await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyRequests"), "{}", r.text);
    assert!(r.headers.get("retry-after").is_some());
    // Another usher has their own.
    let second = staff_login(&app, "second@chain.example").await;
    let r = scan(&app, &second, p, "1234-5678-1").await;
    assert_eq!(result(&r), "notFound", "{}", r.text);
}

}
