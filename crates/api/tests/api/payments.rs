//! The built-in test payment gateway over HTTP: its hosted pages (card, 3-D Secure, Blik and the
//! bank app, PayU, PayPal), the status call the payment dialog polls, and the signed callback,
//! on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL. Orders are made the real way:
//! seats locked, the cart priced, the payment started with GET /payment/form.

use crate::common::paying::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_api::ApiSettings;
use kupa_api::state::GatewaySecret;
use kupa_app::orders::{OrderStatus, OrderStore};
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const TEST_SECRET: &str = "kupa-test-gateway-secret";

async fn priced_cart_in_row(app: &TestApp, who: &str, row: usize) -> Paying {
    priced_cart_at(app, who, row, None, "he").await
}

async fn priced_cart(app: &TestApp, who: &str) -> Paying {
    priced_cart_in_row(app, who, 0).await
}

async fn start_payment(
    app: &TestApp,
    who: &str,
    k: &Paying,
    method: &str,
    locale: &str,
    installments: i64,
) -> String {
    start_payment_with(app, who, k, method, locale, installments, false).await
}

/// A request as the browser of buyer `who` makes it: the session in the `kupa_uuid` cookie, forms
/// form-encoded.
async fn browse(app: &TestApp, who: &str, method: &str, uri: &str, form: Option<&str>) -> Reply {
    app.form_as(who, method, uri, form).await
}

/// The order the payment pays, read from the store.
async fn order_of(db: &TestDb, payment_id: &str) -> kupa_app::orders::Order {
    let payment = db.db.payment(payment_id).await.unwrap().unwrap();
    db.db.order(&payment.order_id).await.unwrap().unwrap()
}

const PAYMENT_TEXT: &str = "SELECT id || '|' || order_id || '|' || session_id || '|' || method || '|' || status || '|' || COALESCE(card_brand, '') || '|' \
     || COALESCE(card_last4, '') || '|' || COALESCE(card_bin, '') || '|' || COALESCE(failure_code, '') || '|' || locale || '|' || return_url FROM payments";
const EVENT_TEXT: &str = "SELECT payment_id || '|' || kind || '|' || detail FROM payment_events";
/// The events' own words, without the payment's (random) id, which may hold any digits.
const EVENT_DETAIL: &str = "SELECT kind || '|' || detail FROM payment_events";
const PAID_ORDERS: &str = "SELECT id FROM orders WHERE status = 'paid'";
const SOLD_SEATS: &str = "SELECT COALESCE(order_id, '') FROM seat_claims WHERE state = 'sold'";

/// The server's clock in Unix seconds: a callback's `timestamp` when the gateway sends it now.
fn now_s(app: &TestApp) -> i64 {
    use kupa_app::ports::Clock;
    app.clock.now_ms() / 1000
}

/// A gateway's word about payment `id`, stamped `at` (Unix seconds), and its signature.
fn word(id: &str, status: &str, at: i64) -> (String, String) {
    let body = json!({ "paymentId": id, "status": status, "timestamp": at }).to_string();
    let signature = sign_with(TEST_SECRET, &body);
    (body, signature)
}

async fn callback(app: &TestApp, body: &str, signature: Option<&str>) -> Reply {
    let mut req = Request::post("/api/payment/callback").header("content-type", "application/json");
    if let Some(s) = signature {
        req = req.header("x-kupa-signature", s);
    }
    app.send(req.body(Body::from(body.to_owned())).unwrap())
        .await
}

api_tests! {
async fn with_no_provider_configured_every_method_is_offered_in_every_currency(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get("/api/config").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The test gateway simulates them all (issue 20): no currency list, so every currency.
    assert_eq!(
        r.body["paymentMethods"],
        serde_json::json!([{ "method": "card" }, { "method": "savedCard" }, { "method": "paypal" },
                           { "method": "blik" }, { "method": "payu" }]),
        "{}", r.text
    );
}

async fn a_card_payment_is_captured_its_order_paid_and_its_seats_sold(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 3).await;

    let r = browse(&app, &who, "GET", &format!("/pay/{id}?locale=he"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.headers["content-type"], "text/html; charset=utf-8");
    assert!(r.headers["content-security-policy"].to_str().unwrap().contains("frame-ancestors 'self'"));
    assert!(r.text.contains("lang=\"he\" dir=\"rtl\"") && r.text.contains("<label for=\"cardNumber\">מספר כרטיס"), "{}", r.text);
    assert!(r.text.contains("3 תשלומים"), "the number of payments is shown");
    assert!(r.text.contains(&format!("₪{}.{:02}", k.total / 100, k.total % 100)), "the amount is shown");
    let r = browse(&app, &who, "GET", &format!("/pay/{id}?locale=en"), None).await;
    assert!(r.text.contains("lang=\"en\" dir=\"ltr\"") && r.text.contains("Card number"));

    let r = status(&app, &who, &id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["status"].as_str(), r.body["method"].as_str(), r.body["amount"].as_i64()), (Some("created"), Some("card"), Some(k.total)));
    assert_eq!(r.body["failureCode"], Value::Null);

    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form("4242+4242+4242+4242", &good_expiry(&app), "987"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert_eq!(location(&r), format!("/order/{}?paymentId={id}&status=captured", k.presentation["id"]));

    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["cardBrand"].as_str(), r.body["cardLast4"].as_str()), (Some("captured"), Some("visa"), Some("4242")));
    example(&app, "paymentStatus", "PaymentStatusResponse", &r);
    let order = order_of(db, &id).await;
    assert_eq!((order.status, order.payment_id.as_deref()), (OrderStatus::Paid, Some(id.as_str())));
    for s in &k.seats {
        assert_eq!(seat_state(&app, &k, s).await, "sold");
    }
    // The buyer's commit reads the reservation the callback made.
    let committed = app.commit(&who, k.presentation["id"].as_i64().unwrap()).await.ok();
    assert_eq!(committed.reservation_identifier, order.id.as_str());
    let reservation = app.reservation(&who, &committed.reservation_identifier).await.ok().reservation;
    assert_eq!((reservation.seats.len(), reservation.total), (k.seats.len(), k.total));
    assert_eq!(reservation.reservation_number, committed.reservation_number);

    // A second post after capture changes nothing.
    let events = rows(db, EVENT_TEXT).await.len();
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::DECLINED, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text);
    assert!(r.text.contains("התשלום כבר התקבל"), "{}", r.text);
    assert_eq!(status(&app, &who, &id).await.body["status"], "captured");
    assert_eq!(rows(db, EVENT_TEXT).await.len(), events, "no event was written");
    let r = browse(&app, &who, "GET", &format!("/pay/{id}"), None).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    let r = browse(&app, &who, "GET", &format!("/pay/{id}/result"), None).await;
    assert_eq!((r.status, location(&r)), (StatusCode::SEE_OTHER, format!("/order/{}?paymentId={id}&status=captured", k.presentation["id"])));
    // In an iframe the end is a page that tells the parent.
    let r = app.send(Request::get(format!("/pay/{id}/result")).header("cookie", format!("kupa_uuid={who}")).header("sec-fetch-dest", "iframe").body(Body::empty()).unwrap()).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.contains("postMessage(") && r.text.contains("\"type\":\"kupa-payment\"") && r.text.contains("\"status\":\"captured\"") && r.text.contains("location.origin"));

    // The card number and its code are nowhere in the payments' records.
    let stored = [rows(db, PAYMENT_TEXT).await, rows(db, EVENT_TEXT).await].concat().join("\n");
    assert!(stored.contains("4242") && stored.contains("424242"), "last four and BIN are kept: {stored}");
    for secret in [cards::APPROVED_VISA, "4242 4242 4242 4242", "4242+4242"] {
        assert!(!stored.contains(secret), "{secret} in {stored}");
    }
    for detail in rows(db, EVENT_DETAIL).await {
        assert!(!detail.contains("987"), "the security code in {detail}");
    }
}

async fn declined_and_malformed_cards(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(2);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "en", 1).await;

    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form("4242424242424241", "13/40", "12"))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    for field in ["cardNumber", "expiry", "cvv"] {
        assert!(r.text.contains(&format!("aria-describedby=\"{field}-error\"")), "{field}");
    }
    assert!(!r.text.contains("aria-describedby=\"holderId-error\""));
    assert!(!r.text.contains("4242424242424241"), "the number is never written back");
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123").replace("holderId=", "holderId=123456789"))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "an ID that fails its check");
    assert!(r.text.contains("aria-describedby=\"holderId-error\""));
    assert_eq!(status(&app, &who, &id).await.body["status"], "created", "malformed input changes nothing");

    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::DECLINED, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).ends_with(&format!("?paymentId={id}&status=declined&failureCode=paymentError")), "{}", location(&r));
    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("declined"), Some("paymentError")));
    assert_eq!(r.body["declineReason"], "declined", "the issuer's reason is told: {}", r.text);
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
    assert_eq!(seat_state(&app, &k, &k.seats[0]).await, "heldByOther", "the seats stay held for another try");
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "a declined payment takes no second card");

    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::INSUFFICIENT_FUNDS, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=declined&failureCode=paymentError"));
    let events = rows(db, EVENT_TEXT).await.join("\n");
    assert!(events.contains("insufficientFunds") && events.contains("declined"), "{events}");
    assert_eq!(status(&app, &who, &id).await.body["declineReason"], "insufficientFunds");
    for (card, reason) in [(cards::EXPIRED_CARD, "expiredCard"), (cards::CARD_BLOCKED, "cardBlocked")] {
        let id = start_payment(&app, &who, &k, "card", "en", 1).await;
        let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(card, &good_expiry(&app), "123"))).await;
        assert!(location(&r).contains("status=declined&failureCode=paymentError"), "{}", location(&r));
        let r = status(&app, &who, &id).await;
        assert_eq!((r.body["status"].as_str(), r.body["declineReason"].as_str()), (Some("declined"), Some(reason)));
    }

    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::NO_RESPONSE, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=failed&failureCode=errorNoResponse"), "{}", location(&r));
    assert_eq!(status(&app, &who, &id).await.body["declineReason"], Value::Null, "no answer is not a decline");

    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_ISRACARD, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "another card after a decline: {}", location(&r));
    assert_eq!(status(&app, &who, &id).await.body["cardBrand"], "isracard");
}

async fn three_d_secure_passes_with_its_code_and_declines_otherwise(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(3);
    let k = priced_cart(&app, &who).await;

    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::THREE_D_SECURE, &good_expiry(&app), "123"))).await;
    assert_eq!((r.status, location(&r)), (StatusCode::SEE_OTHER, format!("/pay/{id}/3ds")));
    assert_eq!(status(&app, &who, &id).await.body["status"], "challenge");
    let r = browse(&app, &who, "GET", &format!("/pay/{id}"), None).await;
    assert_eq!(location(&r), format!("/pay/{id}/3ds"), "the form page sends a challenged payment on");
    let r = browse(&app, &who, "GET", &format!("/pay/{id}/3ds"), None).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text.contains("<label for=\"code\">") && r.text.contains("3220"), "{}", r.text);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/3ds"), Some("code=")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/3ds"), Some("code=1234")).await;
    assert!(location(&r).ends_with("status=captured"), "{}", location(&r));
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Paid);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/3ds"), Some("code=1234")).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "the challenge is over");

    // A fresh order, and a wrong code.
    let who = buyer(4);
    let k = priced_cart_in_row(&app, &who, 1).await;
    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::THREE_D_SECURE, &good_expiry(&app), "123"))).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/3ds"), Some("code=0000")).await;
    assert!(location(&r).ends_with("status=declined&failureCode=paymentError"), "{}", location(&r));
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
}

async fn blik_is_approved_or_rejected_in_the_bank_app(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(5);
    let k = priced_cart(&app, &who).await;

    let id = start_payment(&app, &who, &k, "blik", "en", 1).await;
    let r = browse(&app, &who, "GET", &format!("/pay/{id}"), None).await;
    assert!(r.text.contains("<label for=\"code\">BLIK code (6 digits)"), "{}", r.text);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/blik"), Some("code=12345")).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/blik"), Some("code=123+456")).await;
    assert_eq!((r.status, location(&r)), (StatusCode::SEE_OTHER, format!("/pay/{id}")));
    assert_eq!(status(&app, &who, &id).await.body["status"], "awaitingBank");
    let r = browse(&app, &who, "GET", &format!("/pay/{id}"), None).await;
    assert!(r.text.contains("Waiting for your bank app") && r.text.contains(&format!("/api/payment/status/{id}")));
    let r = browse(&app, &who, "GET", &format!("/pay/{id}/result"), None).await;
    assert_eq!(location(&r), format!("/pay/{id}"), "no result while the bank app waits");

    // The phone is another device: no buyer session needed.
    let r = app.get(&format!("/pay/{id}/bank-app")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("value=\"approve\"") && r.text.contains("value=\"reject\""));
    let r = browse(&app, &buyer(77), "POST", &format!("/pay/{id}/bank-app"), Some("decision=approve")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("Payment approved"));
    assert_eq!(status(&app, &who, &id).await.body["status"], "captured");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Paid);
    let r = browse(&app, &buyer(77), "POST", &format!("/pay/{id}/bank-app"), Some("decision=reject")).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "nothing left to answer");
    assert_eq!(status(&app, &who, &id).await.body["status"], "captured");

    let who = buyer(6);
    let k = priced_cart_in_row(&app, &who, 1).await;
    let id = start_payment(&app, &who, &k, "blik", "he", 1).await;
    browse(&app, &who, "POST", &format!("/pay/{id}/blik"), Some("code=654321")).await;
    let r = browse(&app, &buyer(78), "POST", &format!("/pay/{id}/bank-app"), Some("decision=reject")).await;
    assert_eq!(r.status, StatusCode::OK);
    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("declined"), Some("blikError")));

    let id = start_payment(&app, &who, &k, "blik", "he", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/blik"), Some("code=777777")).await;
    assert!(location(&r).ends_with("status=declined&failureCode=blikError"), "the bank refuses this code at once");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
}

async fn payu_pays_or_fails_its_3ds_or_errors(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(7);
    let k = priced_cart(&app, &who).await;

    for (outcome, expected) in [("3ds", "status=declined&failureCode=payU_3DS_error"), ("error", "status=failed&failureCode=payUerror"), ("pay", "status=captured")] {
        let id = start_payment(&app, &who, &k, "payu", "en", 1).await;
        let r = browse(&app, &who, "GET", &format!("/pay/{id}"), None).await;
        assert!(r.text.contains(&format!("href=\"/pay/{id}/payu\"")) && r.text.contains("Continue to PayU"), "{}", r.text);
        let r = browse(&app, &who, "GET", &format!("/pay/{id}/payu"), None).await;
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(status(&app, &who, &id).await.body["status"], "redirected");
        let r = browse(&app, &who, "POST", &format!("/pay/{id}/payu"), Some("outcome=maybe")).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
        let r = browse(&app, &who, "POST", &format!("/pay/{id}/payu"), Some(&format!("outcome={outcome}"))).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
        assert!(location(&r).ends_with(expected), "{outcome}: {}", location(&r));
    }
    assert_eq!(rows(db, PAID_ORDERS).await.len(), 1);
}

async fn paypal_approves_or_cancels(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(8);
    let k = priced_cart(&app, &who).await;

    let id = start_payment(&app, &who, &k, "paypal", "en", 1).await;
    let r = browse(&app, &who, "GET", &format!("/pay/{id}/paypal"), None).await;
    assert!(r.text.contains("value=\"approve\"") && r.text.contains("value=\"cancel\""), "{}", r.text);
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/paypal"), Some("decision=cancel")).await;
    assert!(location(&r).ends_with("status=declined&failureCode=paymentError"), "{}", location(&r));
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);

    let id = start_payment(&app, &who, &k, "paypal", "en", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/payu"), Some("outcome=pay")).await;
    assert_eq!(r.status, StatusCode::CONFLICT, "a PayPal payment is not PayU's");
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/paypal"), Some("decision=approve")).await;
    assert!(location(&r).ends_with("status=captured"), "{}", location(&r));
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Paid);
}

async fn another_buyer_can_neither_see_nor_touch_a_payment(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (who, other) = (buyer(9), buyer(10));
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;

    let r = browse(&app, &other, "GET", &format!("/pay/{id}"), None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(!r.text.contains("cardNumber"));
    let r = browse(&app, &other, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = status(&app, &other, &id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    example(&app, "paymentStatus", "ErrorBody", &r);
    let r = app.get(&format!("/pay/{id}")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "a browser with no session");
    let r = browse(&app, &who, "GET", "/pay/not-a-payment", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = status(&app, &who, "00000000000000000000000000000000").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));

    assert_eq!(status(&app, &who, &id).await.body["status"], "created", "nothing changed");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
}

async fn the_signed_callback_finalises_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(11);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let body = json!({ "timestamp": now_s(&app), "paymentId": id, "status": "authorized", "cardBrand": "visa", "cardLast4": "4242" }).to_string();

    let r = callback(&app, &body, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "invalidSignature"));
    let r = callback(&app, &body, Some(&sign_with("another-secret-of-some-length", &body))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "invalidSignature"));
    example(&app, "paymentCallback", "ErrorBody", &r);
    let tampered = body.replace("4242", "1111");
    let r = callback(&app, &tampered, Some(&sign_with(TEST_SECRET, &body))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "the signature covers the body");
    assert_eq!(status(&app, &who, &id).await.body["status"], "created", "refused callbacks change nothing");

    let r = callback(&app, &body, Some(&sign_with(TEST_SECRET, &body))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, json!({ "status": "captured" }));
    example(&app, "paymentCallback", "PaymentCallbackResponse", &r);
    let order = order_of(db, &id).await;
    assert_eq!(order.status, OrderStatus::Paid);

    // The same callback again, and a late "declined": still one paid order, each seat sold once.
    let r = callback(&app, &body, Some(&sign_with(TEST_SECRET, &body).to_uppercase())).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "captured" })));
    let late = json!({ "timestamp": now_s(&app), "paymentId": id, "status": "declined" }).to_string();
    let r = callback(&app, &late, Some(&sign_with(TEST_SECRET, &late))).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "captured" })), "a paid payment stays paid");
    assert_eq!(rows(db, PAID_ORDERS).await, vec![order.id.to_string()]);
    assert_eq!(rows(db, SOLD_SEATS).await, vec![order.id.to_string(), order.id.to_string()]);
    assert_eq!(status(&app, &who, &id).await.body["failureCode"], Value::Null);

    let unknown = json!({ "timestamp": now_s(&app), "paymentId": "00000000000000000000000000000000", "status": "authorized" }).to_string();
    let r = callback(&app, &unknown, Some(&sign_with(TEST_SECRET, &unknown))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    for bad in [json!({ "timestamp": now_s(&app), "paymentId": id, "status": "captured" }), json!({ "timestamp": now_s(&app), "paymentId": id, "status": "authorized", "cardLast4": "4242424242424242" }), json!({ "timestamp": now_s(&app), "status": "authorized" })] {
        let bad = bad.to_string();
        let r = callback(&app, &bad, Some(&sign_with(TEST_SECRET, &bad))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{bad}");
    }
}

async fn callbacks_are_refused_outside_test_mode_without_a_secret(db: &TestDb) {
    let app = TestApp::new(db, ApiSettings::default()).await;
    let who = buyer(12);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let body = json!({ "timestamp": now_s(&app), "paymentId": id, "status": "authorized" }).to_string();
    let r = callback(&app, &body, Some(&sign_with(TEST_SECRET, &body))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "invalidSignature"), "no secret, no callbacks");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
}

async fn callbacks_are_signed_with_the_configured_secret(db: &TestDb) {
    let secret = "a-configured-secret-0123456789";
    let app = TestApp::new(db, ApiSettings { gateway_secret: Some(GatewaySecret(secret.into())), ..ApiSettings::default() }).await;
    let who = buyer(14);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let body = json!({ "timestamp": now_s(&app), "paymentId": id, "status": "authorized" }).to_string();
    let r = callback(&app, &body, Some(&sign_with(TEST_SECRET, &body))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "the test secret is not accepted once one is configured");
    let r = callback(&app, &body, Some(&sign_with(secret, &body))).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "captured" })));
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Paid);
}

async fn an_open_payment_times_out_after_its_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(13);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "en", 1).await;
    let r = app.post("/api/test/clock", &json!({ "advanceMs": 15 * 60_000 + 1_000 }).to_string()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("expired"), Some("errorNoResponse")));
    let r = browse(&app, &who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::CONFLICT);
    assert!(r.text.contains("The time for this payment has run out"), "{}", r.text);
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
    let r = browse(&app, &who, "GET", &format!("/pay/{id}/result"), None).await;
    assert!(location(&r).ends_with("status=expired&failureCode=errorNoResponse"), "{}", location(&r));
}

async fn a_signed_callback_is_good_for_its_window_only(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(15);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let now = now_s(&app);
    // Stamped more than five minutes before or after the server's clock: refused, however well signed.
    for at in [now - 301, now + 301] {
        let (body, signature) = word(&id, "authorized", at);
        let r = callback(&app, &body, Some(&signature)).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "invalidSignature"), "stamped {} s off: {}", at - now, r.text);
    }
    assert_eq!(status(&app, &who, &id).await.body["status"], "created", "refused callbacks change nothing");
    // Inside the window it counts; the same bytes six minutes later are a replay, refused.
    let (challenge, signature) = word(&id, "challenge", now - 60);
    let r = callback(&app, &challenge, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "challenge" })), "{}", r.text);
    app.advance_clock_ms(6 * 60_000).await;
    let r = callback(&app, &challenge, Some(&signature)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "invalidSignature"), "{}", r.text);
    let (body, signature) = word(&id, "authorized", now_s(&app));
    let r = callback(&app, &body, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "captured" })), "{}", r.text);
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Paid);
}

async fn a_replayed_callback_never_moves_a_payment_back(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(16);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "blik", "he", 1).await;
    let now = now_s(&app);
    let (waiting, waiting_sig) = word(&id, "awaitingBank", now);
    for _ in 0..2 {
        let r = callback(&app, &waiting, Some(&waiting_sig)).await;
        assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "awaitingBank" })), "the same callback twice: {}", r.text);
    }
    let (declined, declined_sig) = word(&id, "declined", now + 1);
    let r = callback(&app, &declined, Some(&declined_sig)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "declined" })));
    // The earlier word replayed after the later one: the payment stays declined, and cannot be
    // walked back to an open state from which a replayed "authorized" would capture it.
    let r = callback(&app, &waiting, Some(&waiting_sig)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "declined" })), "{}", r.text);
    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("declined"), Some("paymentError")));
    assert_eq!(r.body["declineReason"], Value::Null, "the gateway gave no reason");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
    assert!(rows(db, SOLD_SEATS).await.is_empty());
}

async fn a_callback_may_say_why_a_payment_was_declined(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(17);
    let k = priced_cart(&app, &who).await;
    let now = now_s(&app);
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let said = |status: &str, reason: &str, at: i64| {
        json!({ "paymentId": id, "status": status, "timestamp": at, "failureCode": "paymentError", "declineReason": reason }).to_string()
    };
    let wrong = said("declined", "stolenProbably", now);
    let r = callback(&app, &wrong, Some(&sign_with(TEST_SECRET, &wrong))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("declineReason must be one of"), "{}", r.text);
    assert_eq!(status(&app, &who, &id).await.body["status"], "created", "a refused word changes nothing");
    let body = said("declined", "callIssuer", now);
    let r = callback(&app, &body, Some(&sign_with(TEST_SECRET, &body))).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "declined" })), "{}", r.text);
    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["failureCode"].as_str(), r.body["declineReason"].as_str()), (Some("paymentError"), Some("callIssuer")));
    // A later word with another reason does not rewrite a declined payment's story.
    let again = said("declined", "insufficientFunds", now + 1);
    callback(&app, &again, Some(&sign_with(TEST_SECRET, &again))).await;
    assert_eq!(status(&app, &who, &id).await.body["declineReason"], "callIssuer");
}

async fn a_late_authorization_of_an_expired_payment_is_refunded_never_captured(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(17);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    let now = now_s(&app);
    // The gateway gives up on the payment, then (its own records out of order) authorizes it.
    let (expired, signature) = word(&id, "expired", now);
    let r = callback(&app, &expired, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "expired" })));
    let (late, signature) = word(&id, "authorized", now + 5);
    let r = callback(&app, &late, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "refunded" })), "{}", r.text);
    let r = callback(&app, &late, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "refunded" })), "again: {}", r.text);
    let r = status(&app, &who, &id).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("refunded"), Some("lateAuthorization")));
    assert_eq!(rows(db, "SELECT kind FROM payment_events WHERE kind = 'refunded'").await.len(), 1, "given back once");
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending, "no reservation without a payment");
    assert!(rows(db, SOLD_SEATS).await.is_empty());

    // Nothing is lost: the seats are still the buyer's, and a new payment buys them.
    let again = start_payment(&app, &who, &k, "card", "he", 1).await;
    let r = browse(&app, &who, "POST", &format!("/pay/{again}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let order = order_of(db, &again).await;
    assert_eq!(rows(db, PAID_ORDERS).await, vec![order.id.to_string()]);
    assert_eq!(rows(db, SOLD_SEATS).await, vec![order.id.to_string(), order.id.to_string()]);
    assert_eq!(status(&app, &who, &id).await.body["status"], "refunded", "the first payment stays refunded");
}

async fn a_late_authorization_of_a_replaced_payment_is_refunded_and_the_new_one_pays(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(18);
    let k = priced_cart(&app, &who).await;
    // The buyer starts paying, gives up on that form and starts again: the first payment expires.
    let first = start_payment(&app, &who, &k, "paypal", "he", 1).await;
    let second = start_payment(&app, &who, &k, "card", "he", 1).await;
    assert_eq!(status(&app, &who, &first).await.body["status"], "expired");
    // The first provider's signed "authorized" arrives late, within its window.
    let (late, signature) = word(&first, "authorized", now_s(&app));
    let r = callback(&app, &late, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "refunded" })), "{}", r.text);
    assert_eq!(order_of(db, &first).await.status, OrderStatus::Pending, "not paid by the payment the buyer gave up");
    // The payment the buyer is on goes through: one paid order, by it, and one refund.
    let r = browse(&app, &who, "POST", &format!("/pay/{second}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let order = order_of(db, &second).await;
    assert_eq!((order.status, order.payment_id.as_deref()), (OrderStatus::Paid, Some(second.as_str())));
    assert_eq!(rows(db, "SELECT status FROM payments ORDER BY status").await, vec!["captured".to_owned(), "refunded".to_owned()]);
}

async fn an_authorization_after_the_payment_window_is_refunded_as_late(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(19);
    let k = priced_cart(&app, &who).await;
    let id = start_payment(&app, &who, &k, "card", "he", 1).await;
    // Nobody looked at the payment while its window passed: the gateway's own record says it
    // timed out, so the signed "authorized" that arrives now is late.
    app.advance_clock_ms(15 * 60_000 + 1_000).await;
    let (late, signature) = word(&id, "authorized", now_s(&app));
    let r = callback(&app, &late, Some(&signature)).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "status": "refunded" })), "{}", r.text);
    let r = status(&app, &who, &id).await;
    assert_eq!(r.body["failureCode"].as_str(), Some("lateAuthorization"), "{}", r.text);
    assert_eq!(order_of(db, &id).await.status, OrderStatus::Pending);
    assert!(rows(db, SOLD_SEATS).await.is_empty());
}
}
