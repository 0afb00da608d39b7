//! Loyalty points and reserved balances over HTTP (issue 14, decision 0036), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: points tickets spend a member's points, paid orders
//! earn them, a cancellation gives them back; a voucher's balance and a member's points are
//! reserved with the order, so two orders racing for the last of them never both get it. A series
//! pass's balance pays for pass tickets the same way (issue 15, decision 0039).

use crate::common::picked::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::orders::PaymentStatus;
use kupa_domain::money::Money;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana's club card: 1250 points in the demo chain.
const DANA: &str = "0524318876";
const CLUB: &str = "100001";
/// Dana's 10-film pass: ₪231 left in the demo chain.
const PASS: &str = "200001";
const HOLD_GONE_MS: i64 = 16 * 60_000;

async fn points(db: &TestDb) -> i64 {
    crate::common::paying::rows(
        db,
        "SELECT CAST(points_balance AS TEXT) FROM members WHERE member_number = '100001'",
    )
    .await[0]
        .parse()
        .unwrap()
}

/// The points ticket of the held seats' group, as a member sees it.
async fn points_ticket(app: &TestApp, k: &Picked) -> Value {
    let groups = app
        .get(&format!(
            "/api/presentations/{}/ticketGroups?membershipLoyaltyId={CLUB}",
            k.presentation["id"]
        ))
        .await;
    groups.body["ticketGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["tickets"].as_array().unwrap().clone())
        .find(|t| t["ticketGroupId"] == k.seats[0]["tg"] && !t["loyaltyPointsPrice"].is_null())
        .expect("a points ticket in the big hall's group")
}

/// The pass ticket of the held seats' group, as the holder of `member` sees it (None: not listed).
async fn pass_ticket(app: &TestApp, k: &Picked, member: &str) -> Option<Value> {
    let groups = app
        .get(&format!(
            "/api/presentations/{}/ticketGroups?membershipLoyaltyId={member}",
            k.presentation["id"]
        ))
        .await;
    assert_eq!(groups.status, StatusCode::OK, "{}", groups.text);
    groups.body["ticketGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| g["tickets"].as_array().unwrap().clone())
        .find(|t| t["ticketGroupId"] == k.seats[0]["tg"] && !t["memberBalancePrice"].is_null())
}

async fn pass_balance(db: &TestDb) -> i64 {
    crate::common::paying::rows(
        db,
        "SELECT CAST(balance AS TEXT) FROM members WHERE member_number = '200001'",
    )
    .await[0]
        .parse()
        .unwrap()
}

/// A cart of the two held seats with pass tickets of `member`.
fn pass_cart(k: &Picked, ticket: &Value, member: &str) -> String {
    let mut body: Value = serde_json::from_str(&cart_body(
        k,
        [ticket, ticket],
        true,
        json!({ "products": [] }),
    ))
    .unwrap();
    for seat in body["cart"]["presentations"][0]["seats"]
        .as_array_mut()
        .unwrap()
    {
        seat["ticket"]["memberNumber"] = json!(member);
    }
    body.to_string()
}

/// A cart of the two held seats, each with `tickets`, the member's number on member tickets.
fn member_cart(k: &Picked, tickets: [&Value; 2], extra: Value) -> String {
    let mut body: Value = serde_json::from_str(&cart_body(k, tickets, true, extra)).unwrap();
    for (seat, t) in body["cart"]["presentations"][0]["seats"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .zip(tickets)
    {
        if t["memberOnly"] == true || !t["loyaltyPointsPrice"].is_null() {
            seat["ticket"]["memberNumber"] = json!(CLUB);
        }
    }
    body.to_string()
}

fn code_or_none(r: &Reply) -> String {
    r.body["error"]["code"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

async fn pay_and_commit(app: &TestApp, db: &TestDb, who: &str, k: &Picked, total: i64) -> String {
    let r = start_payment(app, who, k, total).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    if r.body["paid"] != true {
        let payment = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
        authorize(app, db, &payment, PaymentStatus::Authorized).await;
    }
    let r = app
        .call_as(who, "POST", "/api/payment/commit", Some(&commit_body(k)))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["reservationIdentifier"].as_str().unwrap().to_owned()
}

api_tests! {
async fn points_tickets_spend_points_paid_money_earns_them_and_a_cancel_gives_them_back(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = log_in(&app, &buyer(90), DANA).await;
    let k = two_seats_held(&app, &who).await;
    let ticket = points_ticket(&app, &k).await;
    assert_eq!(ticket["isLoyaltyPointsRedemption"], true);
    assert_eq!(ticket["price"], 0, "paid with points, not money");
    let cost = ticket["loyaltyPointsPrice"].as_i64().unwrap();
    let before = points(db).await;
    assert_eq!(before, 1250);

    // Two points tickets and a popcorn: the popcorn and the handling fee are money.
    let r = app.call_as(&who, "POST", "/api/cart", Some(&member_cart(&k, [&ticket, &ticket], json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let total = r.body["cart"]["total"].as_i64().unwrap();
    assert_eq!(r.body["cart"]["ticketsTotal"], 0);
    assert!(total >= 1000, "money to earn a point: {total}");
    assert_eq!(points(db).await, before, "nothing spent before payment");
    let id = pay_and_commit(&app, db, &who, &k, total).await;
    let earned = total / 1000;
    assert_eq!(points(db).await, before - 2 * cost + earned, "spent {} and earned {earned}", 2 * cost);

    // Cancelling one points ticket gives its points back; the order keeps the points of the money it keeps.
    let r = app.call_as(&who, "GET", &format!("/api/reservations/{id}"), None).await;
    assert_eq!((r.body["reservation"]["loyaltyPointsSpent"].as_i64(), r.body["reservation"]["loyaltyPointsEarned"].as_i64()), (Some(2 * cost), Some(earned)), "{}", r.text);
    let line = r.body["reservation"]["seats"][0]["line"].clone();
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/cancel"), Some(&json!({ "itemsToCancel": [line] }).to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let refund = r.body["cancellation"]["refund"].as_i64().unwrap();
    let kept = kupa_app::orders::points_kept(earned, Money(total), Money(0), Money(refund));
    assert_eq!(points(db).await, before - cost + kept, "{cost} back, {} of the earned taken back", earned - kept);
    // The rest of the order: the other ticket's points back too, and nothing earned is left for money refunded.
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/cancel"), Some("{}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let refund2 = r.body["cancellation"]["refund"].as_i64().unwrap();
    let kept2 = kupa_app::orders::points_kept(kept, Money(total), Money(refund), Money(refund + refund2));
    assert_eq!(points(db).await, before + kept2);
}

async fn two_orders_racing_for_the_last_points_one_wins_and_an_expired_hold_gives_them_back(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = log_in(&app, &buyer(91), DANA).await;
    // 1250 points; three orders of two points tickets (640 each) cannot all be kept.
    let ks = [two_seats_held_at(&app, &who, 0).await, two_seats_held_at(&app, &who, 1).await, two_seats_held_at(&app, &who, 2).await];
    let mut bodies = Vec::new();
    for k in &ks {
        let t = points_ticket(&app, k).await;
        bodies.push(member_cart(k, [&t, &t], json!({ "products": [] })));
    }
    let (a, b) = tokio::join!(
        app.call_as(&who, "POST", "/api/cart", Some(&bodies[0])),
        app.call_as(&who, "POST", "/api/cart", Some(&bodies[1])),
    );
    let mut outcomes = [(a.status, code_or_none(&a)), (b.status, code_or_none(&b))];
    outcomes.sort();
    assert_eq!(outcomes[0].0, StatusCode::OK, "{a:?} {b:?}", a = a.text, b = b.text);
    assert_eq!(outcomes[1], (StatusCode::CONFLICT, "memberNoneAvailable".to_owned()), "{} {}", a.text, b.text);
    let lost = if a.status == StatusCode::OK { 1 } else { 0 };
    assert_eq!(points(db).await, 1250, "a reservation spends nothing yet");

    // The winner's holds expire unpaid: its points are free again, with nothing written.
    app.advance_clock_ms(HOLD_GONE_MS).await;
    let again = two_seats_held_at(&app, &who, lost).await;
    let t = points_ticket(&app, &again).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&member_cart(&again, [&t, &t], json!({ "products": [] })))).await;
    assert_eq!(r.status, StatusCode::OK, "the expired order's points are free: {}", r.text);
    let total = r.body["cart"]["total"].as_i64().unwrap();
    pay_and_commit(&app, db, &who, &again, total).await;
    let cost = t["loyaltyPointsPrice"].as_i64().unwrap();
    assert_eq!(points(db).await, 1250 - 2 * cost + total / 1000);
}

async fn two_orders_racing_for_a_vouchers_last_balance_one_wins(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // VALUE-5000 holds ₪50; each order's total is more, so each wants all of it.
    let (a, b) = (buyer(92), buyer(93));
    let (ka, kb) = (two_seats_held(&app, &a).await, two_seats_held(&app, &b).await);
    let body = |k: &Picked| cart_body(k, [&k.regular, &k.child], true, json!({ "voucherPayments": [{ "reference": "VALUE-5000" }] }));
    let (body_a, body_b) = (body(&ka), body(&kb));
    let (ra, rb) = tokio::join!(app.call_as(&a, "POST", "/api/cart", Some(&body_a)), app.call_as(&b, "POST", "/api/cart", Some(&body_b)));
    let mut outcomes = [(ra.status, code_or_none(&ra)), (rb.status, code_or_none(&rb))];
    outcomes.sort();
    assert_eq!(outcomes[0].0, StatusCode::OK, "{} {}", ra.text, rb.text);
    assert_eq!(outcomes[1], (StatusCode::CONFLICT, "voucherBalance".to_owned()), "{} {}", ra.text, rb.text);
    let (winner, wk, wr, loser, lk) = if ra.status == StatusCode::OK { (&a, &ka, &ra, &b, &kb) } else { (&b, &kb, &rb, &a, &ka) };
    assert_eq!(wr.body["cart"]["voucherPayments"][0]["amount"], 5000);

    // Nothing is spent until a payment succeeds, but the balance is not there for anyone else:
    // the loser's balance check and a second cart are refused while the winner's order is live.
    let r = app.call_as(loser, "GET", &format!("/api/payment/voucher?reference=VALUE-5000&recaptchaToken={}", kupa_app::ports::CAPTCHA_TEST_TOKEN), None).await;
    assert_eq!((r.status, code_or_none(&r)), (StatusCode::CONFLICT, "voucherBalance".to_owned()), "{}", r.text);
    let r = app.call_as(winner, "GET", &format!("/api/payment/voucher?reference=VALUE-5000&recaptchaToken={}", kupa_app::ports::CAPTCHA_TEST_TOKEN), None).await;
    assert_eq!(r.body["payment"]["balance"], 5000, "its own order's share is the winner's: {}", r.text);
    let r = app.call_as(loser, "POST", "/api/cart", Some(&body(lk))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
    // The winner pays the rest by card: the voucher is spent, once.
    let total = wr.body["cart"]["total"].as_i64().unwrap();
    pay_and_commit(&app, db, winner, wk, total).await;
    let left = crate::common::paying::rows(db, "SELECT CAST(balance AS TEXT) FROM ticket_codes WHERE code_key = 'value-5000'").await;
    assert_eq!(left, vec!["0".to_owned()]);
}

async fn a_voucher_reserved_by_an_order_whose_hold_expired_is_free_again(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (a, b) = (buyer(94), buyer(95));
    let ka = two_seats_held(&app, &a).await;
    // One voucher entered twice pays once: the second is refused.
    let twice = cart_body(&ka, [&ka.regular, &ka.child], true, json!({ "voucherPayments": [{ "reference": "VALUE-5000" }, { "reference": " value-5000" }] }));
    let r = app.call_as(&a, "POST", "/api/cart", Some(&twice)).await;
    assert_eq!((r.status, code_or_none(&r)), (StatusCode::CONFLICT, "codeAlreadyEntered".to_owned()), "{}", r.text);
    let body = |k: &Picked| cart_body(k, [&k.regular, &k.child], true, json!({ "voucherPayments": [{ "reference": "VALUE-5000" }] }));
    let r = app.call_as(&a, "POST", "/api/cart", Some(&body(&ka))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The payment is declined and the buyer walks away: the order stays pending until its holds end.
    let r = start_payment(&app, &a, &ka, r.body["cart"]["total"].as_i64().unwrap()).await;
    let payment = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    authorize(&app, db, &payment, PaymentStatus::Declined).await;
    let kb = two_seats_held_at(&app, &b, 1).await;
    let r = app.call_as(&b, "POST", "/api/cart", Some(&body(&kb))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "held while the first buyer may still pay: {}", r.text);
    app.advance_clock_ms(HOLD_GONE_MS).await;
    let kb = two_seats_held_at(&app, &b, 1).await;
    let r = app.call_as(&b, "POST", "/api/cart", Some(&body(&kb))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["voucherPayments"][0]["amount"], 5000);
}

async fn a_series_pass_pays_for_pass_tickets_from_its_balance_and_a_cancel_gives_it_back(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = log_in(&app, &buyer(96), DANA).await;
    let k = two_seats_held(&app, &who).await;
    assert!(pass_ticket(&app, &k, CLUB).await.is_none(), "a club card has no balance: no pass ticket listed");
    let ticket = pass_ticket(&app, &k, PASS).await.expect("a pass ticket for the pass");
    let cost = ticket["memberBalancePrice"].as_i64().unwrap();
    assert_eq!((ticket["price"].as_i64(), cost), (Some(0), 3500), "paid from the pass, not with money");
    let before = pass_balance(db).await;
    assert_eq!(before, 23100);

    // A club card's number on a pass ticket: it has no pass to pay from.
    let r = app.call_as(&who, "POST", "/api/cart", Some(&pass_cart(&k, &ticket, CLUB))).await;
    assert_eq!((r.status, code_or_none(&r)), (StatusCode::CONFLICT, "memberNoneAvailable".to_owned()), "{}", r.text);

    let r = app.call_as(&who, "POST", "/api/cart", Some(&pass_cart(&k, &ticket, PASS))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["ticketsTotal"], 0);
    let total = r.body["cart"]["total"].as_i64().unwrap();
    assert_eq!(pass_balance(db).await, before, "nothing spent before payment");
    let id = pay_and_commit(&app, db, &who, &k, total).await;
    assert_eq!(pass_balance(db).await, before - 2 * cost);
    let r = app.call_as(&who, "GET", &format!("/api/reservations/{id}"), None).await;
    assert_eq!(r.body["reservation"]["memberBalanceSpent"].as_i64(), Some(2 * cost), "{}", r.text);

    // One ticket cancelled: its price goes back on the pass; the whole order: all of it.
    let line = r.body["reservation"]["seats"][0]["line"].clone();
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/cancel"), Some(&json!({ "itemsToCancel": [line] }).to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(pass_balance(db).await, before - cost);
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/cancel"), Some("{}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(pass_balance(db).await, before);
}

async fn two_orders_racing_for_the_last_of_a_pass_one_wins(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = log_in(&app, &buyer(97), DANA).await;
    // ₪50 left: one pair of pass tickets (₪70) is more than the pass holds.
    crate::common::paying::execute(db, "UPDATE members SET balance = 5000 WHERE member_number = '200001'").await;
    let k = two_seats_held_at(&app, &who, 0).await;
    let t = pass_ticket(&app, &k, PASS).await.unwrap();
    let r = app.call_as(&who, "POST", "/api/cart", Some(&pass_cart(&k, &t, PASS))).await;
    assert_eq!((r.status, code_or_none(&r)), (StatusCode::CONFLICT, "memberNoneAvailable".to_owned()), "{}", r.text);

    // ₪100: each order of two (₪70) fits alone, not both together.
    crate::common::paying::execute(db, "UPDATE members SET balance = 10000 WHERE member_number = '200001'").await;
    let ks = [two_seats_held_at(&app, &who, 1).await, two_seats_held_at(&app, &who, 2).await];
    let bodies = [pass_cart(&ks[0], &t, PASS), pass_cart(&ks[1], &t, PASS)];
    let (a, b) = tokio::join!(
        app.call_as(&who, "POST", "/api/cart", Some(&bodies[0])),
        app.call_as(&who, "POST", "/api/cart", Some(&bodies[1])),
    );
    let mut outcomes = [(a.status, code_or_none(&a)), (b.status, code_or_none(&b))];
    outcomes.sort();
    assert_eq!(outcomes[0].0, StatusCode::OK, "{} {}", a.text, b.text);
    assert_eq!(outcomes[1], (StatusCode::CONFLICT, "memberNoneAvailable".to_owned()), "{} {}", a.text, b.text);
    let (won, winner) = if a.status == StatusCode::OK { (&ks[0], &a) } else { (&ks[1], &b) };
    pay_and_commit(&app, db, &who, won, winner.body["cart"]["total"].as_i64().unwrap()).await;
    assert_eq!(pass_balance(db).await, 10000 - 7000, "spent once");
}
}
