//! Races at the edges of a hold, over HTTP, on SQLite and (when KUPA_TEST_POSTGRES_URL is set)
//! PostgreSQL: a hold expiring at the moment its commit lands while another buyer claims the
//! seat; a buyer paying for their live hold while another tries to lock it; payment callbacks
//! duplicated, reordered and late; two nodes sweeping expired holds at once. Each asserts that no
//! seat is sold twice or to a buyer who lost it, no paid order is lost, and no seat stays locked.

use crate::common::paying::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use hmac::{Hmac, KeyInit, Mac};
use kupa_app::orders::{OrderStatus, OrderStore, PaymentStatus, PaymentUpdate};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_app::ports::{ClaimStore, Clock};
use kupa_domain::ids::PresentationId;
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const TEST_SECRET: &str = "kupa-test-gateway-secret";

async fn pay_by_card(app: &TestApp, who: &str, id: &str) -> Reply {
    app.form_as(
        who,
        "POST",
        &format!("/pay/{id}/card"),
        Some(&card_form(cards::APPROVED_VISA, &good_expiry(app), "123")),
    )
    .await
}

async fn lock(app: &TestApp, who: &str, k: &Paying, seat: &Value) -> Reply {
    app.call_as(
        who,
        "PUT",
        "/api/seats/lock-seat",
        Some(&lock_body(&k.presentation, seat)),
    )
    .await
}

async fn commit(app: &TestApp, who: &str, k: &Paying) -> Reply {
    let body = json!({ "cart": { "presentations": [{ "presentationId": k.presentation["id"] }] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

async fn callback(app: &TestApp, id: &str, status: &str) -> Reply {
    let at = kupa_app::ports::Clock::now_ms(app.clock.as_ref()) / 1000;
    let body = json!({ "paymentId": id, "status": status, "timestamp": at }).to_string();
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(TEST_SECRET.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    let signature: String = mac
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    app.send(
        Request::post("/api/payment/callback")
            .header("content-type", "application/json")
            .header("x-kupa-signature", signature)
            .body(Body::from(body))
            .unwrap(),
    )
    .await
}

/// The deadline of the buyer's holds on the presentation (server clock, ms).
async fn deadline(db: &TestDb, k: &Paying, who: &str) -> i64 {
    let claims = db
        .db
        .claims(PresentationId(k.presentation["id"].as_i64().unwrap()))
        .await
        .unwrap();
    claims
        .iter()
        .filter(|c| c.session_id == who && !c.sold)
        .map(|c| c.expires_at_ms)
        .min()
        .expect("the buyer holds seats")
}

/// The invariants every race ends with: each seat sold at most once, and only to a paid order
/// whose payment was captured; every paid order's seats sold to it.
async fn assert_consistent(db: &TestDb, presentation_id: i64) {
    let claims = db.db.claims(PresentationId(presentation_id)).await.unwrap();
    let mut seen = std::collections::HashSet::new();
    for c in &claims {
        assert!(
            seen.insert((c.section_id, c.x, c.y)),
            "two claims on one seat: {c:?}"
        );
    }
    let sold_rows = rows(db, "SELECT COALESCE(order_id, '') || '|' || section_id || '|' || x || '|' || y FROM seat_claims WHERE state = 'sold'").await;
    for row in &sold_rows {
        let order_id = row.split('|').next().unwrap();
        let order = db
            .db
            .order(&order_id.into())
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("a sold seat without an order: {row}"));
        assert_eq!(
            order.status,
            OrderStatus::Paid,
            "a seat sold to an unpaid order: {row}"
        );
        let payment = db
            .db
            .payment(order.payment_id.as_deref().unwrap())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            payment.status,
            PaymentStatus::Captured,
            "a seat sold without the money: {row}"
        );
    }
    for id in rows(db, "SELECT id FROM orders WHERE status = 'paid'").await {
        let order = db.db.order(&id.as_str().into()).await.unwrap().unwrap();
        for t in &order.tickets {
            assert!(
                sold_rows.contains(&format!("{id}|{}|{}|{}", t.section_id, t.x, t.y)),
                "paid order {id} lost seat {t:?}"
            );
        }
    }
}

api_tests! {
async fn a_hold_expiring_as_its_commit_lands_goes_to_exactly_one_buyer(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // A presentation days ahead, so moving the clock by each round's payment window never ends its sale.
    let list = app.get("/api/presentations/").await.body["presentations"].as_array().unwrap().clone();
    let p = list.iter().find(|p| p["venueId"] == 1 && p["isOnSale"] == true && app.starts_after_hours(p, 48)).unwrap().clone();
    let mut outcomes = (0, 0, 0);
    for round in 0..8u32 {
        let (a, b) = (app.new_buyer().await, app.new_buyer().await);
        let k = priced_cart_for(&app, &a, p.clone(), round as usize, None, "he").await;
        let id = start_payment_with(&app, &a, &k, "card", "he", 1, false).await;
        // The gateway's authorization is recorded; the buyer's commit is still on its way.
        let authorized = PaymentUpdate { status: PaymentStatus::Authorized, card_brand: Some("visa".into()), card_last4: Some("4242".into()), card_bin: Some("424242".into()), failure_code: None, decline_reason: None, note: "test".into() };
        db.db.update_payment(&id, &authorized, app.clock.now_ms()).await.unwrap();
        // Bring the server's clock to a few milliseconds before the hold's deadline: the deadline
        // passes while the commit and the other buyer's lock are under way.
        let gap = deadline(db, &k, &a).await - app.clock.now_ms();
        app.clock.advance_ms(gap - (round as i64 % 4) * 2);
        let (committed, taken) = if round == 0 {
            // First the plain order of events, which must come out the same every time: the
            // deadline passes, the other buyer takes all the seats, then the commit arrives.
            app.clock.advance_ms(10);
            let taken = lock(&app, &b, &k, &k.seats[0]).await;
            assert_eq!(taken.status, StatusCode::OK, "an expired hold is free at once: {}", taken.text);
            for s in &k.seats[1..] {
                assert_eq!(lock(&app, &b, &k, s).await.status, StatusCode::OK);
            }
            (commit(&app, &a, &k).await, taken)
        } else {
            tokio::join!(commit(&app, &a, &k), lock(&app, &b, &k, &k.seats[0]))
        };
        let payment = db.db.payment(&id).await.unwrap().unwrap();
        let order = db.db.order(&payment.order_id).await.unwrap().unwrap();
        match (order.status, taken.status) {
            (OrderStatus::Paid, s) => {
                assert_eq!(committed.status, StatusCode::OK, "{}", committed.text);
                assert_eq!(s, StatusCode::CONFLICT, "the seat was sold, yet another buyer locked it: {}", taken.text);
                assert_eq!(code(&taken), "lock_seat_error");
                assert_eq!(payment.status, PaymentStatus::Captured);
                outcomes.0 += 1;
            }
            (_, StatusCode::OK) => {
                assert_eq!(code(&committed), "lastCommit", "{}", committed.text);
                assert_eq!(payment.status, PaymentStatus::Refunded, "the hold was lost: the money goes back");
                outcomes.1 += 1;
            }
            // The lock came just before the deadline (the hold still live), the commit just after
            // (the hold gone): neither got the seat at that instant. The money went back and the
            // seat is free for whoever asks next.
            (OrderStatus::Pending, StatusCode::CONFLICT) => {
                assert_eq!(code(&committed), "lastCommit", "{}", committed.text);
                assert_eq!(payment.status, PaymentStatus::Refunded);
                let late = app.new_buyer().await;
                let r = lock(&app, &late, &k, &k.seats[0]).await;
                assert_eq!(r.status, StatusCode::OK, "the seat is free again: {}", r.text);
                outcomes.2 += 1;
            }
            (status, s) => panic!("unexpected: order {status:?}, lock {s} {}, commit {}", taken.text, committed.text),
        }
        assert_consistent(db, k.presentation["id"].as_i64().unwrap()).await;
    }
    eprintln!("committed first: {}, other buyer first: {}, neither at that instant: {}", outcomes.0, outcomes.1, outcomes.2);
}

async fn a_buyer_paying_for_a_live_hold_keeps_it_while_another_tries_to_lock_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (a, b, c) = (app.new_buyer().await, app.new_buyer().await, app.new_buyer().await);
    let k = priced_cart_at(&app, &a, 0, None, "he").await;
    let id = start_payment_with(&app, &a, &k, "card", "he", 1, false).await;
    let (paid, l1, l2, l3) = tokio::join!(
        pay_by_card(&app, &a, &id),
        lock(&app, &b, &k, &k.seats[0]),
        lock(&app, &b, &k, &k.seats[1]),
        lock(&app, &c, &k, &k.seats[0]),
    );
    assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.text);
    for l in [l1, l2, l3] {
        assert_eq!((l.status, code(&l)), (StatusCode::CONFLICT, "lock_seat_error"), "{}", l.text);
    }
    let order = db.db.order(&db.db.payment(&id).await.unwrap().unwrap().order_id).await.unwrap().unwrap();
    assert_eq!(order.status, OrderStatus::Paid);
    assert_consistent(db, k.presentation["id"].as_i64().unwrap()).await;
}

async fn callbacks_duplicated_reordered_and_late_change_nothing_twice(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // Duplicated: three identical callbacks at once make one reservation.
    let a = app.new_buyer().await;
    let k = priced_cart_at(&app, &a, 0, None, "he").await;
    let id = start_payment_with(&app, &a, &k, "card", "he", 1, false).await;
    let (r1, r2, r3) = tokio::join!(callback(&app, &id, "authorized"), callback(&app, &id, "authorized"), callback(&app, &id, "authorized"));
    for r in [&r1, &r2, &r3] {
        assert_eq!((r.status, r.body["status"].as_str()), (StatusCode::OK, Some("captured")), "{}", r.text);
    }
    assert_eq!(rows(db, "SELECT id FROM orders WHERE status = 'paid'").await.len(), 1);
    // Reordered: a 'declined' arriving after the capture does not undo it.
    let r = callback(&app, &id, "declined").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(db.db.payment(&id).await.unwrap().unwrap().status, PaymentStatus::Captured);
    let order = db.db.order(&db.db.payment(&id).await.unwrap().unwrap().order_id).await.unwrap().unwrap();
    assert_eq!(order.status, OrderStatus::Paid);

    // Late: the authorization arrives after the hold ran out and another buyer took a seat.
    let (late, other) = (app.new_buyer().await, app.new_buyer().await);
    // Days ahead, so moving the clock past the hold never ends the presentation's sale.
    let list = app.get("/api/presentations/").await.body["presentations"].as_array().unwrap().clone();
    let ahead = list.iter().find(|p| p["venueId"] == 1 && p["isOnSale"] == true && app.starts_after_hours(p, 48)).unwrap().clone();
    let k2 = priced_cart_for(&app, &late, ahead, 2, None, "he").await;
    let id2 = start_payment_with(&app, &late, &k2, "card", "he", 1, false).await;
    let gap = deadline(db, &k2, &late).await - app.clock.now_ms();
    app.clock.advance_ms(gap + 1);
    let r = lock(&app, &other, &k2, &k2.seats[0]).await;
    assert_eq!(r.status, StatusCode::OK, "the expired hold is free at once: {}", r.text);
    let r = callback(&app, &id2, "authorized").await;
    assert_ne!(r.body["status"].as_str(), Some("captured"), "{}", r.text);
    let p2 = db.db.payment(&id2).await.unwrap().unwrap();
    assert_ne!(p2.status, PaymentStatus::Captured, "money kept for seats the buyer did not get");
    assert_ne!(p2.status, PaymentStatus::Authorized, "an authorization left hanging: {p2:?}");
    let order2 = db.db.order(&p2.order_id).await.unwrap().unwrap();
    assert_ne!(order2.status, OrderStatus::Paid);
    assert_consistent(db, k2.presentation["id"].as_i64().unwrap()).await;
    // The other buyer's hold is theirs; nothing of the late buyer's is left locked.
    let claims = db.db.claims(PresentationId(k2.presentation["id"].as_i64().unwrap())).await.unwrap();
    assert!(claims.iter().any(|c| c.session_id == other.as_str() && !c.sold));
    assert!(claims.iter().filter(|c| c.session_id == late.as_str()).all(|c| c.expires_at_ms <= app.clock.now_ms()), "{claims:?}");
}

async fn two_nodes_sweeping_at_once_release_each_expired_hold_once(db: &TestDb) {
    let node_a = TestApp::new(db, test_settings()).await;
    let node_b = node_a.another_node(db, test_settings()).await;
    let p = node_a.get("/api/presentations/").await.body["presentations"].as_array().unwrap().iter().find(|p| p["venueId"] == 1 && p["isOnSale"] == true).unwrap()["id"].as_i64().unwrap();
    let mut watch_a = node_a.state.seat_events.subscribe(PresentationId(p));
    let mut watch_b = node_b.state.seat_events.subscribe(PresentationId(p));
    let mut held = 0;
    for (n, row) in [(1u32, 0usize), (2, 2), (3, 4), (4, 6)] {
        let node = if n % 2 == 0 { &node_a } else { &node_b };
        let who = node.new_buyer().await;
        held += priced_cart_at(node, &who, row, None, "he").await.seats.len();
    }
    while watch_a.try_recv().is_ok() {}
    while watch_b.try_recv().is_ok() {}
    for node in [&node_a, &node_b] {
        node.clock.advance_ms(3 * 60 * 60 * 1000);
    }
    let (a, b) = tokio::join!(node_a.state.booking.sweep_expired_holds(), node_b.state.booking.sweep_expired_holds());
    assert_eq!(a.unwrap() + b.unwrap(), held, "each expired hold released by exactly one node");
    assert!(db.db.claims(PresentationId(p)).await.unwrap().is_empty(), "no seat left locked");
    // Each node told its own watchers of what it swept (other nodes hear it by the PostgreSQL relay).
    let mut expired = 0;
    for w in [&mut watch_a, &mut watch_b] {
        while let Ok(e) = w.try_recv() {
            assert_eq!(e.name, "seats");
            expired += e.data.matches("\"expired\"").count();
        }
    }
    assert_eq!(expired, held, "one expiry event per seat across the nodes");
}
}
