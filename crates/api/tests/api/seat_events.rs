//! Live seat events over HTTP (GET /api/seats/events): a watcher of a presentation hears every
//! change of seat state (held, released, sold, expired) made through the real calls, on SQLite
//! and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use std::time::Duration;

use crate::common::paying::*;
use crate::common::sse::EventStream;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_store::testing::TestDb;
use serde_json::Value;

/// A watcher of one presentation's seat events.
struct Watcher {
    stream: EventStream,
}

impl Watcher {
    async fn open(app: &TestApp, presentation_id: &Value) -> Watcher {
        let req = Request::get(format!(
            "/api/seats/events?presentationId={presentation_id}"
        ))
        .body(Body::empty())
        .unwrap();
        let mut w = Watcher {
            stream: EventStream::open(app, req).await,
        };
        let (name, data) = w.next().await;
        assert_eq!(name, "ready");
        assert_eq!(data["presentationId"], *presentation_id);
        w
    }

    /// The next event's name and data; fails after two seconds of silence.
    async fn next(&mut self) -> (String, Value) {
        self.stream.next().await
    }

    /// The next `seats` event's changes as (sectionId, x, y, state).
    async fn changes(&mut self) -> Vec<(i64, i64, i64, String)> {
        let (name, data) = self.next().await;
        assert_eq!(name, "seats", "{data}");
        data["changes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| {
                (
                    c["sectionId"].as_i64().unwrap(),
                    c["x"].as_i64().unwrap(),
                    c["y"].as_i64().unwrap(),
                    c["state"].as_str().unwrap().to_owned(),
                )
            })
            .collect()
    }
}

fn place(s: &Value, state: &str) -> (i64, i64, i64, String) {
    (
        s["si"].as_i64().unwrap(),
        s["x"].as_i64().unwrap(),
        s["y"].as_i64().unwrap(),
        state.to_owned(),
    )
}

/// The presentation `priced_cart_at` buys from (the first on sale in venue 1).
async fn first_on_sale(app: &TestApp) -> Value {
    let list = app.get("/api/presentations/").await;
    list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["venueId"] == 1 && p["isOnSale"] == true)
        .unwrap()
        .clone()
}

api_tests! {
async fn watchers_hear_holds_releases_sales_and_expiries(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = first_on_sale(&app).await;
    let mut watcher = Watcher::open(&app, &p["id"]).await;
    let mut other = Watcher::open(&app, &p["id"]).await;

    // Held: the buyer locks two seats (one event per lock call).
    let who = buyer(1);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    assert_eq!(k.presentation["id"], p["id"]);
    let mut held = Vec::new();
    for w in [&mut watcher, &mut other] {
        let mut got = Vec::new();
        for _ in &k.seats {
            got.extend(w.changes().await);
        }
        held = got;
    }
    let expected: Vec<_> = k.seats.iter().map(|s| place(s, "held")).collect();
    assert_eq!(held, expected, "every watcher hears every hold");

    // Sold: paid by card; the callback finalises the order.
    let id = start_payment(&app, &who, &k).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/card"), Some(&card_form("4242+4242+4242+4242", &good_expiry(&app), "987"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let sold = watcher.changes().await;
    let expected: Vec<_> = k.seats.iter().map(|s| place(s, "sold")).collect();
    assert_eq!(sold, expected);

    // Released: another buyer locks a seat and lets it go.
    let other_buyer = buyer(2);
    let k2 = priced_cart_at(&app, &other_buyer, 3, None, "he").await;
    for _ in &k2.seats {
        watcher.changes().await;
    }
    let seat = &k2.seats[0];
    let r = app.call_as(&other_buyer, "PUT", "/api/seats/unlock-seat", Some(&lock_body(&k2.presentation, seat))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(watcher.changes().await, vec![place(seat, "released")]);

    // Expired: the rest of that hold runs out and the sweeper removes it.
    assert_eq!(app.state.booking.sweep_expired_holds().await.unwrap(), 0, "nothing has expired yet");
    app.clock.advance_ms(60 * 60 * 1000);
    assert_eq!(app.state.booking.sweep_expired_holds().await.unwrap(), k2.seats.len() - 1);
    let expired = watcher.changes().await;
    let expected: Vec<_> = k2.seats[1..].iter().map(|s| place(s, "expired")).collect();
    assert_eq!(expired, expected);
}

async fn an_unknown_presentation_has_no_event_stream(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get("/api/seats/events?presentationId=987654").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text);
    assert_eq!(code(&r), "noEvent");
    let r = app.get("/api/seats/events?presentationId=abc").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
}
}

async fn start_payment(app: &TestApp, who: &str, k: &Paying) -> String {
    start_payment_with(app, who, k, "card", "he", 1, false).await
}

mod status_cache {
    use super::*;
    use kupa_app::ports::{ClaimStore, Clock, SeatAddress};

    fn state_of(status: &Value, s: &Value) -> String {
        status["seats"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["si"] == s["si"] && x["x"] == s["x"] && x["y"] == s["y"])
            .unwrap()["s"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    async fn status(app: &TestApp, p: &Value) -> Value {
        app.call_as(
            &buyer(50),
            "GET",
            &format!("/api/seats/seats-statusV2?presentationId={}", p["id"]),
            None,
        )
        .await
        .body
    }

    api_tests! {
    async fn the_seat_status_is_served_from_memory_until_a_seat_changes(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let p = first_on_sale(&app).await;
        let k = priced_cart_at(&app, &buyer(1), 0, None, "he").await;
        let seat = &k.seats[0];
        assert_eq!(state_of(&status(&app, &p).await, seat), "heldByOther");
        // A change the database saw but no event announced (another process writing behind the
        // node's back) is not seen at once: the status came from memory...
        let other = &k.seats[1];
        let place = SeatAddress { section_id: other["si"].as_i64().unwrap(), x: other["x"].as_i64().unwrap(), y: other["y"].as_i64().unwrap() };
        assert_eq!(db.db.release(kupa_domain::ids::PresentationId(p["id"].as_i64().unwrap()), &[place], &buyer(1).into()).await.unwrap(), 1);
        assert_eq!(state_of(&status(&app, &p).await, other), "heldByOther", "served from memory");
        // ...but an announced change is seen at once: the buyer lets the first seat go.
        let r = app.call_as(&buyer(1), "PUT", "/api/seats/unlock-seat", Some(&lock_body(&k.presentation, seat))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let now = status(&app, &p).await;
        assert_eq!(state_of(&now, seat), "available");
        assert_eq!(state_of(&now, other), "available", "the event made the node read the claims again");
        // And without any event, memory is kept at most CLAIMS_TTL_MS.
        let third = &k.seats[0];
        let place = SeatAddress { section_id: third["si"].as_i64().unwrap(), x: third["x"].as_i64().unwrap(), y: third["y"].as_i64().unwrap() };
        assert!(db.db.hold(kupa_domain::ids::PresentationId(p["id"].as_i64().unwrap()), &[place], &buyer(2).into(), app.clock.now_ms(), app.clock.now_ms() + 600_000).await.unwrap());
        assert_eq!(state_of(&status(&app, &p).await, third), "available", "served from memory");
        tokio::time::sleep(Duration::from_millis(kupa_app::catalogue::CLAIMS_TTL_MS + 100)).await;
        assert_eq!(state_of(&status(&app, &p).await, third), "heldByOther", "read again after the TTL");
    }
    }
}
