//! The seat status's versioned snapshot over HTTP (decision 0060): the ETag and 304 of
//! GET /seats/seats-statusV2 and its compact form, the changes since a version after locks,
//! unlocks and expiries, a change on another node seen through the relay, and the spec's V2
//! shape unchanged; on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_domain::ids::PresentationId;
use kupa_store::testing::TestDb;
use serde_json::Value;

fn v2(p: &Presentation) -> String {
    format!("/api/seats/seats-statusV2?presentationId={}", p.id)
}

fn compact(p: &Presentation, since: Option<&str>) -> String {
    match since {
        Some(v) => format!(
            "/api/seats/seats-statusV2/compact?presentationId={}&since={v}",
            p.id
        ),
        None => format!("/api/seats/seats-statusV2/compact?presentationId={}", p.id),
    }
}

/// A GET as `who` with `If-None-Match: tag`.
async fn get_if_none_match(app: &TestApp, who: &str, uri: &str, tag: &str) -> Reply {
    let req = Request::get(uri)
        .header("uuid", who)
        .header("if-none-match", tag)
        .body(Body::empty())
        .unwrap();
    app.send(req).await
}

fn etag(r: &Reply) -> String {
    r.headers
        .get("etag")
        .unwrap_or_else(|| panic!("no ETag: {:?}", r.headers))
        .to_str()
        .unwrap()
        .to_owned()
}

/// Plain seats of the presentation's plan (no wheelchair place, full view, no sofa), with their
/// index in the plan's seat list, which the compact form uses.
async fn plain_seats(app: &TestApp, p: &Presentation) -> (usize, Vec<(usize, SeatAddress)>) {
    let plan = app.seat_plan(p).await;
    let plain = plan
        .seats
        .iter()
        .enumerate()
        .filter(|(_, s)| !s.hc && !s.lv && !s.co && s.sf.is_none())
        .map(|(i, s)| (i, s.key()))
        .collect();
    (plan.seats.len(), plain)
}

/// The compact changes as (index, letter).
fn changes(body: &Value) -> Vec<(usize, String)> {
    assert_eq!(body["full"], false, "{body}");
    assert!(
        body.get("seats").is_none(),
        "a delta carries no full list: {body}"
    );
    body["changes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["i"].as_u64().unwrap() as usize,
                c["s"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn version(body: &Value) -> String {
    body["version"].as_str().unwrap().to_owned()
}

api_tests! {
async fn the_status_answers_304_to_its_etag_until_a_seat_changes(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let (_, seats) = plain_seats(&app, &p).await;
    let (viewer, other) = (buyer(1), buyer(2));
    let first = app.call_as(&viewer, "GET", &v2(&p), None).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let tag = etag(&first);
    assert!(tag.starts_with("W/\""), "a weak tag (the body may be compressed): {tag}");

    let again = get_if_none_match(&app, &viewer, &v2(&p), &tag).await;
    assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{}", again.text);
    assert!(again.bytes.is_empty(), "a 304 has no body");
    assert_eq!(etag(&again), tag);

    app.lock(&other, &p, seats[10].1).await.expect("a free seat");
    let after = get_if_none_match(&app, &viewer, &v2(&p), &tag).await;
    assert_eq!(after.status, StatusCode::OK, "the lock changed the status: {}", after.text);
    assert_ne!(etag(&after), tag);
    assert_eq!(app.seat_state(&viewer, p.id, seats[10].1).await.s, "heldByOther");

    // The holder's own answer differs from the others' (the seat is theirs): another tag.
    let holder = app.call_as(&other, "GET", &v2(&p), None).await;
    assert_ne!(etag(&holder), etag(&after));
    let compact_first = app.call_as(&viewer, "GET", &compact(&p, None), None).await;
    let ctag = etag(&compact_first);
    assert_ne!(ctag, etag(&after), "the compact form has tags of its own");
    let r = get_if_none_match(&app, &viewer, &compact(&p, None), &ctag).await;
    assert_eq!(r.status, StatusCode::NOT_MODIFIED);
}

async fn the_compact_form_lists_only_the_seats_changed_since_a_version(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let (count, seats) = plain_seats(&app, &p).await;
    let (viewer, holder) = (buyer(1), buyer(2));
    let full = app.call_as(&viewer, "GET", &compact(&p, None), None).await;
    assert_eq!(full.status, StatusCode::OK, "{}", full.text);
    example(&app, "seatsStatusCompact", "SeatsStatusCompactResponse", &full);
    assert_eq!(full.body["full"], true);
    let letters = full.body["seats"].as_str().unwrap();
    assert_eq!(letters.len(), count, "one letter per seat of the plan");
    // The letters say what the V2 answer says, seat by seat.
    let status = app.seat_status(&viewer, p.id).await;
    let plan = app.seat_plan(&p).await;
    for (i, s) in plan.seats.iter().enumerate() {
        let v2 = status.seats.iter().find(|x| x.key() == s.key()).unwrap();
        let expected = match v2.s.as_str() { "available" => 'a', "heldByMe" => 'm', "heldByOther" => 'o', _ => 's' };
        assert_eq!(letters.as_bytes()[i] as char, expected, "seat {i}");
    }
    let v1 = version(&full.body);

    let (a, b) = (seats[20], seats[30]);
    app.lock(&holder, &p, a.1).await.expect("free");
    app.lock(&holder, &p, b.1).await.expect("free");
    let r = app.call_as(&viewer, "GET", &compact(&p, Some(&v1)), None).await;
    assert_eq!(changes(&r.body), vec![(a.0, "o".into()), (b.0, "o".into())]);
    let v2 = version(&r.body);
    assert_ne!(v2, v1);
    // The holder is told the same seats as theirs.
    let mine = app.call_as(&holder, "GET", &compact(&p, Some(&v1)), None).await;
    assert_eq!(changes(&mine.body), vec![(a.0, "m".into()), (b.0, "m".into())]);

    app.unlock(&holder, &p, a.1).await.expect("theirs");
    let r = app.call_as(&viewer, "GET", &compact(&p, Some(&v2)), None).await;
    assert_eq!(changes(&r.body), vec![(a.0, "a".into())], "only the unlocked seat since v2");
    let r = app.call_as(&viewer, "GET", &compact(&p, Some(&v1)), None).await;
    assert_eq!(changes(&r.body), vec![(a.0, "a".into()), (b.0, "o".into())], "both since v1, as they are now");
    let now = version(&r.body);
    let r = app.call_as(&viewer, "GET", &compact(&p, Some(&now)), None).await;
    assert_eq!(changes(&r.body), vec![], "nothing since the current version");

    // A version this node cannot tell (another node's, another process's) gets everything.
    let stranger = format!("{:08x}.{}", u32::from_str_radix(&now[..8], 16).unwrap().wrapping_add(1), 1);
    let r = app.call_as(&viewer, "GET", &compact(&p, Some(&stranger)), None).await;
    assert_eq!(r.body["full"], true, "{}", r.text);
    assert_eq!(r.body["seats"].as_str().unwrap().len(), count);
    let r = app.call_as(&viewer, "GET", &compact(&p, Some("yesterday")), None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert_eq!(code(&r), "formValidation");
}

async fn a_hold_reads_free_at_its_deadline_and_the_version_moves(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let (_, seats) = plain_seats(&app, &p).await;
    let (viewer, holder) = (buyer(1), buyer(2));
    let lock = app.lock(&holder, &p, seats[12].1).await.ok();
    let before = app.call_as(&viewer, "GET", &compact(&p, None), None).await;
    let tag = etag(&before);
    assert_eq!(before.body["seats"].as_str().unwrap().as_bytes()[seats[12].0] as char, 'o');
    let deadline: jiff::Timestamp = lock.expires_at.parse().unwrap();
    let server: jiff::Timestamp = lock.server_time.parse().unwrap();
    app.clock.advance_ms(deadline.as_millisecond() - server.as_millisecond() + 1);
    // No sweeper has run: the status alone reads the hold as free, and it is a new version.
    let r = get_if_none_match(&app, &viewer, &compact(&p, Some(&version(&before.body))), &tag).await;
    assert_eq!(r.status, StatusCode::OK, "the expiry is a change: {}", r.text);
    assert_eq!(changes(&r.body), vec![(seats[12].0, "a".into())]);
    assert_eq!(app.seat_state(&viewer, p.id, seats[12].1).await.s, "available");
}

async fn a_lock_on_another_node_reaches_this_nodes_status_through_the_relay(db: &TestDb) {
    let node_a = TestApp::new(db, test_settings()).await;
    let node_b = node_a.another_node(db, test_settings()).await;
    // What the PostgreSQL relay does between processes: node B's events delivered to node A.
    let mut relay_b = node_b.state.seat_events.attach_relay().unwrap();
    let p = node_a.on_sale_in(1).await;
    let (_, seats) = plain_seats(&node_a, &p).await;
    let viewer = buyer(1);
    let before = node_a.call_as(&viewer, "GET", &compact(&p, None), None).await;
    let v1 = version(&before.body);
    node_b.lock(&buyer(2), &p, seats[5].1).await.expect("free");
    // Until the event arrives, node A serves its snapshot from memory...
    assert_eq!(node_a.seat_state(&viewer, p.id, seats[5].1).await.s, "available");
    let event = tokio::time::timeout(std::time::Duration::from_secs(2), relay_b.recv()).await.unwrap().unwrap();
    assert_eq!(event.presentation_id, PresentationId(p.id));
    node_a.state.seat_events.deliver_remote(&event);
    // ...and once it has, the change is there, in full and since v1.
    assert_eq!(node_a.seat_state(&viewer, p.id, seats[5].1).await.s, "heldByOther");
    let r = node_a.call_as(&viewer, "GET", &compact(&p, Some(&v1)), None).await;
    assert_eq!(changes(&r.body), vec![(seats[5].0, "o".into())]);
}

async fn the_v2_answer_keeps_the_specs_shape(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    let (count, seats) = plain_seats(&app, &p).await;
    app.lock(&buyer(2), &p, seats[3].1).await.expect("free");
    let r = app.call_as(&buyer(1), "GET", &v2(&p), None).await;
    let keys = |v: &Value| {
        let mut k = v.as_object().unwrap().keys().cloned().collect::<Vec<_>>();
        k.sort();
        k
    };
    assert_eq!(keys(&r.body), ["presentationId", "seats", "sections", "serverTime"]);
    let list = r.body["seats"].as_array().unwrap();
    assert_eq!(list.len(), count);
    for s in list {
        let mut k = keys(s);
        k.retain(|k| k != "blockReason");
        assert_eq!(k, ["isAvailable", "isBlocked", "isSelected", "s", "si", "x", "y"], "{s}");
    }
    assert_eq!(keys(&r.body["sections"][0]), ["capacity", "id", "kind", "remaining", "soldOut"]);
}

async fn after_a_burst_of_best_available_buyers_the_status_shows_every_hold(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.on_sale_in(1).await;
    // Readers rebuild the snapshot while holds are being written and announced.
    let (app, p) = (&app, &p);
    let asks = (0..24u32).map(|n| async move {
        let (who, reader) = (buyer(100 + n), buyer(500 + n));
        let uri = compact(p, None);
        let (a, _) = tokio::join!(
            app.best_available(&who, p.id, "quantity=4&isLock=1"),
            app.call_as(&reader, "GET", &uri, None)
        );
        a
    });
    let answers = futures_util::future::join_all(asks).await;
    let served = answers.iter().filter(|a| a.status == StatusCode::OK).count();
    use kupa_app::ports::ClaimStore;
    let held = db.db.claims(PresentationId(p.id)).await.unwrap().len();
    assert_eq!(held, served * 4, "each served buyer holds 4 seats");
    let r = app.call_as(&buyer(999), "GET", &compact(p, None), None).await;
    let taken = r.body["seats"].as_str().unwrap().bytes().filter(|&l| l == b'o').count();
    assert_eq!(taken, held, "the status shows every hold the database has");
}
}
