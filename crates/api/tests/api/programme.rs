//! The programme in the staff area over HTTP (issue 18 item 2, decision 0058), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a screening added and sold in What's on, overlaps
//! refused with the runtime plus the cleaning gap, a week copied (and copied again: all skipped),
//! a cancel that refunds every paid order in full exactly once however often (and however
//! concurrently) it is called, a move that keeps the paid seats and tells the buyer (who may then
//! cancel free) or is refused for another seat plan, and the scoping by role and business.
//! Orders are bought the real way (seats locked, cart priced, card paid, committed).

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use jiff::ToSpan;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

async fn call(app: &TestApp, cookie: &str, method: &str, uri: &str, body: Option<Value>) -> Reply {
    staff_call(app, cookie, method, uri, body, None).await
}

fn day(app: &TestApp, n: i64) -> String {
    app.today.checked_add(n.days()).unwrap().to_string()
}

/// Adds feature `feature` in hall `venue` on day `n` from today at `time`.
async fn add_screening(
    app: &TestApp,
    m: &str,
    feature: i64,
    venue: i64,
    n: i64,
    time: &str,
) -> Reply {
    let body = json!({ "featureId": feature, "venueId": venue, "date": day(app, n), "time": time });
    call(
        app,
        m,
        "POST",
        "/api/staff/programme/screenings",
        Some(body),
    )
    .await
}

async fn count(db: &TestDb, sql: String) -> i64 {
    let sql = format!("SELECT CAST(({sql}) AS TEXT)");
    rows(db, Box::leak(sql.into_boxed_str())).await[0]
        .parse()
        .unwrap()
}

/// Two seats of the first presentation on sale in the big hall bought by card; the
/// reservation identifier.
async fn buy(app: &TestApp, who: &str, row: usize) -> (Paying, String) {
    let b = pay_by_card(app, who, priced_cart_at(app, who, row, None, "he").await).await;
    (b.k, b.reservation)
}

async fn reservation(app: &TestApp, who: &str, id: &str) -> Value {
    reservation_as(app, who, id).await
}

api_tests! {

async fn a_manager_adds_a_screening_that_buyers_find_and_overlaps_are_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // Feature 3 runs 88 minutes; hall 1 plays from 10:30 every day of the demo.
    let r = add_screening(&app, &m, 3, 1, 7, "08:00").await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let s = &r.body["screening"];
    let id = s["id"].as_i64().unwrap();
    assert_eq!(s["feature"]["runtimeMinutes"], 88);
    assert_eq!(s["venueId"], 1);
    // 08:00 in Jerusalem is stored in UTC; the end is the start plus the runtime.
    let starts: jiff::Timestamp = s["startsAt"].as_str().unwrap().parse().unwrap();
    let ends: jiff::Timestamp = s["endsAt"].as_str().unwrap().parse().unwrap();
    assert_eq!(starts.to_zoned(kupa_domain::time::zone()).time().to_string(), "08:00:00");
    assert_eq!(ends.as_millisecond() - starts.as_millisecond(), 88 * 60_000);
    // In the week grid, and in What's on for buyers (the cache let go of the old catalogue).
    let week = call(&app, &m, "GET", &format!("/api/staff/programme/week?locationId=2&from={}", day(&app, 7)), None).await;
    assert_eq!(week.status, StatusCode::OK, "{}", week.text);
    assert!(week.body["screenings"].as_array().unwrap().iter().any(|x| x["id"] == id));
    assert_eq!(week.body["days"].as_array().unwrap().len(), 7);
    let listed = app.presentations().await;
    assert!(listed.iter().any(|p| p.id == id && p.is_on_sale), "the new screening is on sale");
    // Overlaps: inside the runtime, inside the cleaning gap (88 + 15 = 103 minutes), and with
    // the 10:30 screening that follows.
    for time in ["08:30", "09:42", "06:20", "09:30"] {
        let r = add_screening(&app, &m, 3, 1, 7, time).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "screeningOverlap"), "{time}: {}", r.text);
    }
    let r = add_screening(&app, &m, 3, 1, 7, "08:30").await;
    assert_eq!(r.body["error"]["params"]["presentationId"], id);
    // Another hall at the same time is fine.
    let r = add_screening(&app, &m, 3, 2, 7, "08:00").await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // Each addition is in the audit with who made it; the refused ones are not.
    let by_m = "SELECT COUNT(*) FROM backoffice_audit c JOIN staff_users u ON u.id = c.staff_user_id \
                WHERE u.email = 'm@chain.example' AND c.kind = 'added' AND c.before_doc IS NULL";
    assert_eq!(count(db, by_m.into()).await, 2);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit".into()).await, 2);
    // Two managers adding overlapping screenings at once: one wins, the other is told why.
    let (a, b) = tokio::join!(add_screening(&app, &m, 3, 4, 9, "08:00"), add_screening(&app, &m, 5, 4, 9, "08:45"));
    let mut statuses = vec![a.status, b.status];
    statuses.sort();
    assert_eq!(statuses, vec![StatusCode::CREATED, StatusCode::CONFLICT], "{} {}", a.text, b.text);
    // Bad input: a clear code.
    let r = add_screening(&app, &m, 3, 1, 7, "25:00").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = add_screening(&app, &m, 3, 1, -1, "08:00").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = add_screening(&app, &m, 999, 1, 7, "08:00").await;
    assert_eq!(code(&r), "formValidation");
}

async fn a_week_copies_to_the_next_and_a_second_copy_skips_every_overlap(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // The demo's schedule ends two weeks from today: the week after day 8 is (almost) empty.
    let week = |n: i64| format!("/api/staff/programme/week?locationId=2&from={}", day(&app, n));
    let source = call(&app, &m, "GET", &week(8), None).await;
    let playing = source.body["screenings"].as_array().unwrap().iter().filter(|s| s["cancelledAt"].is_null()).count();
    assert!(playing > 5, "the demo plays in the port's halls: {playing}");
    let before = call(&app, &m, "GET", &week(15), None).await.body["screenings"].as_array().unwrap().len();
    let body = json!({ "locationId": 2, "from": day(&app, 8) });
    let r = call(&app, &m, "POST", "/api/staff/programme/copyWeek", Some(body.clone())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let added = r.body["added"].as_array().unwrap().len();
    let skipped = r.body["skipped"].as_array().unwrap().len();
    assert_eq!(added + skipped, playing);
    assert!(added > 0, "{}", r.text);
    let after = call(&app, &m, "GET", &week(15), None).await.body["screenings"].as_array().unwrap().len();
    assert_eq!(after, before + added);
    // Same films, halls and local times a week on.
    let copy = call(&app, &m, "GET", &week(15), None).await;
    let local = |s: &Value| {
        let t: jiff::Timestamp = s["startsAt"].as_str().unwrap().parse().unwrap();
        let z = t.to_zoned(kupa_domain::time::zone());
        (s["feature"]["id"].as_i64().unwrap(), s["venueId"].as_i64().unwrap(), z.time())
    };
    for s in source.body["screenings"].as_array().unwrap().iter().filter(|s| s["cancelledAt"].is_null()) {
        assert!(copy.body["screenings"].as_array().unwrap().iter().any(|c| local(c) == local(s)));
    }
    // Copied again: every screening now meets its own copy, so nothing is added.
    let r = call(&app, &m, "POST", "/api/staff/programme/copyWeek", Some(body)).await;
    assert_eq!(r.body["added"], json!([]));
    assert_eq!(r.body["skipped"].as_array().unwrap().len(), playing);
    assert!(r.body["skipped"].as_array().unwrap().iter().all(|s| s["overlaps"].is_i64()));
}

async fn cancelling_a_screening_refunds_every_paid_order_in_full_exactly_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let dana = log_in(&app, &buyer(24), "0524318876").await;
    let (k, reservation_id) = buy(&app, &dana, 0).await;
    let pid = k.presentation["id"].as_i64().unwrap();
    let (k2, second) = buy(&app, &buyer(25), 1).await;
    assert_eq!(k2.presentation["id"], pid);
    // A third buyer holds a seat, unpaid.
    let k3 = priced_cart_at(&app, &buyer(26), 2, None, "he").await;
    assert_eq!(k3.presentation["id"], pid);
    let paid: i64 = k.total + k2.total;
    let uri = format!("/api/staff/programme/screenings/{pid}/cancel");
    // Two managers' clicks at once, then a third later: each order is refunded once.
    let (a, b) = tokio::join!(call(&app, &m, "POST", &uri, None), call(&app, &m, "POST", &uri, None));
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    let orders = a.body["ordersRefunded"].as_i64().unwrap() + b.body["ordersRefunded"].as_i64().unwrap();
    let refunded = a.body["refunded"].as_i64().unwrap() + b.body["refunded"].as_i64().unwrap();
    assert_eq!((orders, refunded), (2, paid));
    let holds = a.body["holdsReleased"].as_i64().unwrap() + b.body["holdsReleased"].as_i64().unwrap();
    assert_eq!(holds, 2, "the third buyer's two held seats");
    let again = call(&app, &m, "POST", &uri, None).await;
    assert_eq!(again.body["alreadyCancelled"], true);
    // The audit has the one cancellation, before (no cancelledAt) and after (cancelledAt).
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit WHERE kind = 'cancelled'".into()).await, 1);
    let docs = rows(db, "SELECT COALESCE(before_doc, '') || '|' || after_doc FROM backoffice_audit WHERE kind = 'cancelled'").await;
    let (before, after) = docs[0].split_once('|').unwrap();
    let before: Value = serde_json::from_str(before).unwrap();
    let after: Value = serde_json::from_str(after).unwrap();
    assert!(before["cancelledAt"].is_null() && after["cancelledAt"].is_string(), "{before} {after}");
    assert_eq!((again.body["ordersRefunded"].as_i64(), again.body["refunded"].as_i64()), (Some(0), Some(0)));
    // The ledger: one cancellation per order, its refund the whole order (service charge included, no fee).
    assert_eq!(count(db, "SELECT COUNT(*) FROM cancellations".into()).await, 2);
    assert_eq!(count(db, "SELECT CAST(SUM(fee) AS BIGINT) FROM cancellations".into()).await, 0);
    assert_eq!(count(db, "SELECT CAST(SUM(amount) AS BIGINT) FROM refunds".into()).await, paid);
    assert_eq!(count(db, "SELECT COUNT(*) FROM orders WHERE status = 'cancelled'".into()).await, 2);
    assert_eq!(count(db, format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {pid}")).await, 0);
    let res = reservation(&app, &dana, &reservation_id).await;
    assert!(res["seats"].as_array().unwrap().iter().all(|s| !s["cancelledAt"].is_null() || s["isCancelled"] == true), "{res}");
    // The buyers are told by text message and mail.
    assert_eq!(count(db, "SELECT COUNT(*) FROM sms_outbox WHERE kind = 'screeningCancelled'".into()).await, 2);
    assert_eq!(count(db, "SELECT COUNT(*) FROM mail_outbox WHERE kind = 'screeningCancelled'".into()).await, 2);
    // The sale stopped: not listed on sale, and a seat cannot be locked.
    assert!(!app.presentations().await.iter().any(|p| p.id == pid && p.is_on_sale));
    let r = app.call_as(&buyer(27), "PUT", "/api/seats/lock-seat", Some(&lock_body(&k.presentation, &k.seats[0]))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticketing_ended"), "{}", r.text);
    // The grid says so.
    let s = call(&app, &m, "GET", &format!("/api/staff/programme/week?locationId=2&from={}", app.today), None).await;
    let row = s.body["screenings"].as_array().unwrap().iter().find(|x| x["id"] == pid).cloned().unwrap();
    assert!(row["cancelledAt"].is_string());
    assert_eq!((row["sold"].as_i64(), row["held"].as_i64()), (Some(0), Some(0)));
    let _ = second;
}

async fn a_moved_screening_keeps_its_paid_seats_tells_the_buyer_and_cancels_free(db: &TestDb) {
    let settings = kupa_api::ApiSettings {
        cancellation: kupa_app::orders::CancellationPolicy {
            fee: kupa_app::orders::CancellationFee::parse("fixed:500:perTicket").unwrap(),
            window_minutes: 60,
            ..Default::default()
        },
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let dana = log_in(&app, &buyer(24), "0524318876").await;
    let (k, reservation_id) = buy(&app, &dana, 0).await;
    let pid = k.presentation["id"].as_i64().unwrap();
    let uri = format!("/api/staff/programme/screenings/{pid}/move");
    // A second node has the screening in its catalogue cache.
    let other = app.another_node(db, test_settings()).await;
    let detail = format!("/api/presentations/{pid}");
    let before = other.get(&detail).await.body["presentation"]["dateTime"].clone();
    assert_eq!(before, k.presentation["dateTime"]);
    // Another hall sells another plan: refused while seats are sold.
    let r = call(&app, &m, "POST", &uri, Some(json!({ "venueId": 2, "date": day(&app, 20), "time": "12:00" }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "seatPlanDiffers"), "{}", r.text);
    // Onto another screening of the hall: refused.
    let r = call(&app, &m, "POST", &uri, Some(json!({ "date": day(&app, 3), "time": "13:30" }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "screeningOverlap"), "{}", r.text);
    // To an empty day of the same hall: moved, its seats with it.
    let r = call(&app, &m, "POST", &uri, Some(json!({ "date": day(&app, 20), "time": "18:15" }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["ordersTold"], 1);
    assert_eq!(r.body["screening"]["sold"], 2);
    assert!(r.body["screening"]["movedAt"].is_string());
    let starts: jiff::Timestamp = r.body["screening"]["startsAt"].as_str().unwrap().parse().unwrap();
    let z = starts.to_zoned(kupa_domain::time::zone());
    assert_eq!((z.date().to_string(), z.time().to_string()), (day(&app, 20), "18:15:00".to_owned()));
    // The buyer's reservation follows, and the buyer is told by SMS and mail.
    let res = reservation(&app, &dana, &reservation_id).await;
    assert!(res.to_string().contains(&r.body["screening"]["startsAt"].as_str().unwrap()[..16]), "{res}");
    let p = app.presentations().await.into_iter().find(|p| p.id == pid).unwrap();
    assert_eq!(p.date_time[..16], r.body["screening"]["startsAt"].as_str().unwrap()[..16]);
    // This node's cache let go at once; the other node's within a second (catalogue_version).
    let new_start = |v: &Value| v["presentation"]["dateTime"].as_str().unwrap_or_default()[..16].to_owned();
    assert_eq!(new_start(&app.get(&detail).await.body), r.body["screening"]["startsAt"].as_str().unwrap()[..16]);
    tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
    assert_eq!(new_start(&other.get(&detail).await.body), r.body["screening"]["startsAt"].as_str().unwrap()[..16]);
    assert_eq!(count(db, "SELECT COUNT(*) FROM sms_outbox WHERE kind = 'screeningMoved'".into()).await, 1);
    assert_eq!(count(db, "SELECT COUNT(*) FROM mail_outbox WHERE kind = 'screeningMoved'".into()).await, 1);
    // The audit has the move (the refused ones are not there), from the old start to the new.
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit WHERE kind = 'moved'".into()).await, 1);
    let docs = rows(db, "SELECT COALESCE(before_doc, '') || '|' || after_doc FROM backoffice_audit WHERE kind = 'moved'").await;
    let (before, after) = docs[0].split_once('|').unwrap();
    let (before, after): (Value, Value) = (serde_json::from_str(before).unwrap(), serde_json::from_str(after).unwrap());
    assert_eq!(before["startsAt"], k.presentation["dateTime"]);
    assert_eq!(after["startsAt"], r.body["screening"]["startsAt"]);
    // And the manager reads it back, with their name.
    let h = call(&app, &m, "GET", &format!("/api/staff/programme/screenings/{pid}/changes"), None).await;
    assert_eq!(h.status, StatusCode::OK, "{}", h.text);
    let kinds: Vec<&str> = h.body["changes"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["moved"], "the demo's screening was loaded, not added here");
    assert_eq!(h.body["changes"][0]["by"], "Test Staff");
    assert_eq!(h.body["changes"][0]["before"]["startsAt"], k.presentation["dateTime"]);
    // The buyer may now cancel with no charge (the policy keeps ₪5 a ticket otherwise).
    let r = app.call_as(&dana, "POST", &format!("/api/reservations/{reservation_id}/cancel"), Some(&json!({}).to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(count(db, "SELECT CAST(SUM(fee) AS BIGINT) FROM cancellations".into()).await, 0);
    assert_eq!(count(db, "SELECT CAST(SUM(amount) AS BIGINT) FROM refunds".into()).await, k.total);
    // With nothing sold any more, another hall (another plan) is fine.
    let r = call(&app, &m, "POST", &uri, Some(json!({ "venueId": 2, "date": day(&app, 20), "time": "12:00" }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["screening"]["venueId"], 2);
    assert_eq!(r.body["screening"]["seatplanId"], 2);
}

async fn the_programme_is_a_managers_of_their_own_businesses(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m1 = manager(&app, "m1@chain.example", &[1]).await;
    let m2 = manager(&app, "m2@chain.example", &[2]).await;
    add(&app, "u@chain.example", Role::Usher, &[1], false).await;
    add(&app, "a@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    let usher = staff_login(&app, "u@chain.example").await;
    let agent = staff_login(&app, "a@chain.example").await;
    let r = add_screening(&app, &m1, 3, 1, 7, "08:00").await;
    let id = r.body["screening"]["id"].as_i64().unwrap();
    let week = format!("/api/staff/programme/week?locationId=2&from={}", day(&app, 7));
    let moves = format!("/api/staff/programme/screenings/{id}/move");
    let cancels = format!("/api/staff/programme/screenings/{id}/cancel");
    let move_body = json!({ "date": day(&app, 7), "time": "07:00" });
    // The other business's manager: its complexes are not theirs to see or change.
    let choices = call(&app, &m2, "GET", "/api/staff/programme/choices", None).await;
    assert!(choices.body["complexes"].as_array().unwrap().iter().all(|c| c["businessId"] == 2), "{}", choices.text);
    let history = format!("/api/staff/programme/screenings/{id}/changes");
    for (method, uri, body) in [("GET", week.clone(), None), ("POST", moves.clone(), Some(move_body.clone())), ("POST", cancels.clone(), None), ("GET", history.clone(), None)] {
        let r = call(&app, &m2, method, &uri, body).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{uri}: {}", r.text);
    }
    let r = add_screening(&app, &m2, 3, 1, 8, "08:00").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let r = call(&app, &m2, "POST", "/api/staff/programme/copyWeek", Some(json!({ "locationId": 2, "from": day(&app, 7) }))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // Ushers and agents of the business: refused by role.
    for who in [&usher, &agent] {
        for (method, uri, body) in [("GET", week.clone(), None), ("GET", "/api/staff/programme/choices".into(), None), ("POST", moves.clone(), Some(move_body.clone())), ("POST", cancels.clone(), None)] {
            let r = call(&app, who, method, &uri, body).await;
            assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{uri}");
        }
    }
    // No login at all.
    let r = app.get(&week).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    // A cross-site post is refused before it is read.
    let r = staff_call(&app, &m1, "POST", &cancels, None, Some("https://evil.example")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Nothing of it happened: the screening plays where it was added.
    let s = call(&app, &m1, "GET", &week, None).await;
    let row = s.body["screenings"].as_array().unwrap().iter().find(|x| x["id"] == id).cloned().unwrap();
    assert!(row["cancelledAt"].is_null() && row["movedAt"].is_null(), "{row}");
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit".into()).await, 1, "only the addition");
}

}
