//! PayPal through its Orders API v2 (decision 0065), against a local fake of PayPal's REST API
//! started on a loopback port, on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a
//! whole order (order opened, buyer sent to approve, webhook verified, capture, commit), the
//! buyer's return that only makes Kupa ask PayPal, a refund asked twice, a repeated and a forged
//! webhook, PayPal not answering a capture, a denied capture, and an order in złoty.
//!
//! The fake follows PayPal's public REST reference (developer.paypal.com; the machine-readable
//! copy is github.com/paypal/paypal-rest-api-specifications, `openapi/`):
//! - "Authentication" (/api/rest/authentication/): `POST /v1/oauth2/token`, HTTP basic auth
//!   `client_id:secret`, form `grant_type=client_credentials`, answering `access_token`,
//!   `token_type: Bearer`, `expires_in` (seconds); every other call `Authorization: Bearer`.
//! - "Orders v2" (/docs/api/orders/v2/): `POST /v2/checkout/orders` (`intent`, `purchase_units[]`
//!   with `reference_id`, `custom_id`, `invoice_id`, `amount {currency_code, value}`;
//!   `payment_source.paypal.experience_context {return_url, cancel_url, locale, user_action}`),
//!   answering `id`, `status: PAYER_ACTION_REQUIRED` and `links[]` with `rel: payer-action`;
//!   `GET /v2/checkout/orders/{id}` (`status` CREATED, APPROVED, COMPLETED...,
//!   `purchase_units[].payments.captures[]`); `POST /v2/checkout/orders/{id}/capture` answering
//!   the order `COMPLETED` with its capture (`id`, `status`, `amount`, `custom_id`), or 422
//!   `UNPROCESSABLE_ENTITY` with `details[].issue` `INSTRUMENT_DECLINED`, `ORDER_NOT_APPROVED`,
//!   `ORDER_ALREADY_CAPTURED`; 422 `CURRENCY_NOT_SUPPORTED`.
//! - "Payments v2" (/docs/api/payments/v2/): `POST /v2/payments/captures/{capture_id}/refund`
//!   with `amount {value, currency_code}`, answering `id`, `status: COMPLETED`; 422
//!   `REFUND_AMOUNT_EXCEEDED`.
//! - "Idempotency" (/api/rest/reference/idempotency/): a call repeated with the same
//!   `PayPal-Request-Id` answers the first call's result and does nothing again.
//! - "Webhooks" (/api/rest/webhooks/ and /docs/api/webhooks/v1/#verify-webhook-signature_post):
//!   an event (`id`, `event_type`, `resource_type`, `resource`) posted with the headers
//!   `PAYPAL-TRANSMISSION-ID`, `-TIME`, `-SIG`, `PAYPAL-CERT-URL`, `PAYPAL-AUTH-ALGO`;
//!   `POST /v1/notifications/verify-webhook-signature` with `auth_algo`, `cert_url`,
//!   `transmission_id`, `transmission_sig`, `transmission_time`, `webhook_id`, `webhook_event`,
//!   answering `verification_status` `SUCCESS` or `FAILURE`. The fake stands in for PayPal's
//!   signature check: it answers SUCCESS only for a transmission it sent itself, with the same
//!   signature and the event unchanged, for the shop's webhook id.
//! - "Webhook event names": `CHECKOUT.ORDER.APPROVED` (resource: the order),
//!   `PAYMENT.CAPTURE.COMPLETED`, `PAYMENT.CAPTURE.DENIED` (resource: the capture, with
//!   `custom_id` and `supplementary_data.related_ids.order_id`).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::routing::{get, post};
use kupa_app::orders::{GatewayRefund, PaymentGateway};
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, Clock};
use kupa_domain::money::Money;
use kupa_providers::delivery::secret::Secret;
use kupa_providers::paypal::{PayPal, PayPalConfig};
use kupa_store::testing::TestDb;
use kupa_wiring::ProviderRoutes;
use serde_json::{Value, json};

use crate::common::paying::*;
use crate::common::*;

const CLIENT_ID: &str = "kupa-paypal-client-id";
const CLIENT_SECRET: &str = "kupa-paypal-client-secret";
/// base64("kupa-paypal-client-id:kupa-paypal-client-secret"), as HTTP basic auth sends it.
const BASIC: &str = "Basic a3VwYS1wYXlwYWwtY2xpZW50LWlkOmt1cGEtcGF5cGFsLWNsaWVudC1zZWNyZXQ=";
const TOKEN: &str = "A21AAFakeAccessTokenForKupaTests";
const WEBHOOK_ID: &str = "8PT597110X687430LKGECATA";
const CERT_URL: &str =
    "https://api.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77";

struct FakeOrder {
    request: Value,
    status: &'static str,
    capture: Option<Value>,
}

#[derive(Default)]
struct FakeState {
    next: AtomicI64,
    tokens: AtomicI64,
    orders: Mutex<HashMap<String, FakeOrder>>,
    /// Answers already given, by `PayPal-Request-Id` (PayPal's idempotency).
    answered: Mutex<HashMap<String, (StatusCode, Value)>>,
    /// Captures made (money taken), by id.
    captures: Mutex<Vec<String>>,
    /// Refunds made (money given back): the request bodies, and the request ids.
    refunds: Mutex<Vec<(String, Value)>>,
    /// Transmissions the fake signed: id → (signature, event).
    sent: Mutex<HashMap<String, (String, Value)>>,
    /// The capture is made but its answer comes too late (PayPal slow).
    slow_capture: AtomicBool,
    /// The buyer's funding fails at capture.
    decline_capture: AtomicBool,
}

struct FakePayPal {
    url: String,
    state: Arc<FakeState>,
}

type Answer = (StatusCode, axum::Json<Value>);

fn error(status: StatusCode, name: &str, issue: &str) -> Answer {
    (
        status,
        axum::Json(json!({
            "name": name, "message": "The requested action could not be performed.",
            "debug_id": "f1e2d3c4b5a69", "details": [{ "issue": issue, "description": issue }],
        })),
    )
}

/// PayPal's answer to a call without the token it gave: `None` when the call has it.
fn unauthorized(headers: &HeaderMap) -> Option<Answer> {
    let bearer = headers.get("authorization").and_then(|v| v.to_str().ok());
    (bearer != Some(&format!("Bearer {TOKEN}"))).then(|| {
        error(
            StatusCode::UNAUTHORIZED,
            "AUTHENTICATION_FAILURE",
            "INVALID_TOKEN",
        )
    })
}

/// The first answer to a call made again with its `PayPal-Request-Id` (PayPal's idempotency).
fn answered_before(st: &FakeState, request_id: Option<&str>) -> Option<Answer> {
    let (status, answer) = st.answered.lock().unwrap().get(request_id?).cloned()?;
    Some((status, axum::Json(answer)))
}

/// Keeps `answer` as the first answer to its `PayPal-Request-Id` (if any), and gives it.
fn keep_answer(st: &FakeState, request_id: Option<String>, answer: Answer) -> Answer {
    if let Some(r) = request_id {
        let kept = (answer.0, answer.1.0.clone());
        st.answered.lock().unwrap().insert(r, kept);
    }
    answer
}

fn request_id(headers: &HeaderMap) -> Option<String> {
    headers
        .get("paypal-request-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned)
}

async fn token(State(st): State<Arc<FakeState>>, headers: HeaderMap, body: String) -> Answer {
    let form = headers.get("content-type").and_then(|v| v.to_str().ok());
    if headers.get("authorization").and_then(|v| v.to_str().ok()) != Some(BASIC)
        || form != Some("application/x-www-form-urlencoded")
        || body != "grant_type=client_credentials"
    {
        return (
            StatusCode::UNAUTHORIZED,
            axum::Json(
                json!({ "error": "invalid_client", "error_description": "Client Authentication failed" }),
            ),
        );
    }
    st.tokens.fetch_add(1, Ordering::SeqCst);
    (
        StatusCode::OK,
        axum::Json(json!({
            "scope": "https://uri.paypal.com/services/payments/payment", "access_token": TOKEN,
            "token_type": "Bearer", "app_id": "APP-80W284485P519543T", "expires_in": 32400,
            "nonce": "2026-11-27T02:00:00ZFakeNonce",
        })),
    )
}

fn order_json(id: &str, o: &FakeOrder) -> Value {
    let unit = &o.request["purchase_units"][0];
    let mut order = json!({
        "id": id, "intent": "CAPTURE", "status": o.status,
        "purchase_units": [{
            "reference_id": unit["reference_id"], "custom_id": unit["custom_id"],
            "invoice_id": unit["invoice_id"], "amount": unit["amount"],
        }],
        "links": [{ "href": format!("https://api-m.sandbox.paypal.com/v2/checkout/orders/{id}"), "rel": "self", "method": "GET" }],
    });
    if o.status != "PAYER_ACTION_REQUIRED" {
        order["payer"] =
            json!({ "payer_id": "QYR5Z8XDVJNXQ", "email_address": "buyer@example.com" });
    }
    if let Some(c) = &o.capture {
        order["purchase_units"][0]["payments"] = json!({ "captures": [c] });
    }
    order
}

async fn create_order(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    body: axum::Json<Value>,
) -> Answer {
    if let Some(refused) = unauthorized(&headers) {
        return refused;
    }
    let b = body.0;
    let rid = request_id(&headers);
    if let Some(first) = answered_before(&st, rid.as_deref()) {
        return first;
    }
    let unit = &b["purchase_units"][0];
    let ctx = &b["payment_source"]["paypal"]["experience_context"];
    if b["intent"] != "CAPTURE" || ctx["return_url"].is_null() || ctx["cancel_url"].is_null() {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_REQUEST",
            "MISSING_REQUIRED_PARAMETER",
        );
    }
    let value = unit["amount"]["value"].as_str().unwrap_or("");
    let two_decimals = value.split_once('.').is_some_and(|(w, f)| {
        !w.is_empty()
            && w.bytes().all(|c| c.is_ascii_digit())
            && f.len() == 2
            && f.bytes().all(|c| c.is_ascii_digit())
    });
    if !two_decimals {
        return error(
            StatusCode::BAD_REQUEST,
            "INVALID_REQUEST",
            "INVALID_PARAMETER_VALUE",
        );
    }
    if !["ILS", "PLN", "USD", "EUR"]
        .contains(&unit["amount"]["currency_code"].as_str().unwrap_or(""))
    {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "UNPROCESSABLE_ENTITY",
            "CURRENCY_NOT_SUPPORTED",
        );
    }
    let n = st.next.fetch_add(1, Ordering::SeqCst);
    let id = format!("5O190127TN36471{n}T");
    let answer = json!({
        "id": id, "status": "PAYER_ACTION_REQUIRED", "payment_source": { "paypal": {} },
        "links": [
            { "href": format!("https://api-m.sandbox.paypal.com/v2/checkout/orders/{id}"), "rel": "self", "method": "GET" },
            { "href": format!("https://www.sandbox.paypal.com/checkoutnow?token={id}"), "rel": "payer-action", "method": "GET" },
        ],
    });
    // The order keeps what was asked: its purchase units, the whole request, its request id.
    let request = json!({ "purchase_units": b["purchase_units"], "asked": b, "request_id": rid });
    st.orders.lock().unwrap().insert(
        id.clone(),
        FakeOrder {
            request,
            status: "PAYER_ACTION_REQUIRED",
            capture: None,
        },
    );
    keep_answer(&st, rid, (StatusCode::OK, axum::Json(answer)))
}

async fn show_order(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Answer {
    if let Some(refused) = unauthorized(&headers) {
        return refused;
    }
    match st.orders.lock().unwrap().get(&id) {
        Some(o) => (StatusCode::OK, axum::Json(order_json(&id, o))),
        None => error(
            StatusCode::NOT_FOUND,
            "RESOURCE_NOT_FOUND",
            "INVALID_RESOURCE_ID",
        ),
    }
}

async fn capture(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Answer {
    if let Some(refused) = unauthorized(&headers) {
        return refused;
    }
    let rid = request_id(&headers);
    if let Some(first) = answered_before(&st, rid.as_deref()) {
        return first;
    }
    let answer = {
        let mut orders = st.orders.lock().unwrap();
        let Some(o) = orders.get_mut(&id) else {
            return error(
                StatusCode::NOT_FOUND,
                "RESOURCE_NOT_FOUND",
                "INVALID_RESOURCE_ID",
            );
        };
        match o.status {
            "COMPLETED" => {
                return error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "UNPROCESSABLE_ENTITY",
                    "ORDER_ALREADY_CAPTURED",
                );
            }
            "APPROVED" => {}
            _ => {
                return error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    "UNPROCESSABLE_ENTITY",
                    "ORDER_NOT_APPROVED",
                );
            }
        }
        if st.decline_capture.load(Ordering::SeqCst) {
            let e = error(
                StatusCode::UNPROCESSABLE_ENTITY,
                "UNPROCESSABLE_ENTITY",
                "INSTRUMENT_DECLINED",
            );
            return keep_answer(&st, rid, e);
        }
        let n = st.next.fetch_add(1, Ordering::SeqCst);
        let capture_id = format!("3C679366HH90899{n}F");
        let unit = &o.request["purchase_units"][0];
        o.capture = Some(json!({
            "id": capture_id, "status": "COMPLETED", "amount": unit["amount"],
            "custom_id": unit["custom_id"], "invoice_id": unit["invoice_id"], "final_capture": true,
            "seller_protection": { "status": "ELIGIBLE" },
        }));
        o.status = "COMPLETED";
        st.captures.lock().unwrap().push(capture_id);
        order_json(&id, o)
    };
    let kept = keep_answer(&st, rid, (StatusCode::CREATED, axum::Json(answer)));
    if st.slow_capture.load(Ordering::SeqCst) {
        // Captured at PayPal, but the answer is lost to Kupa's timeout.
        tokio::time::sleep(Duration::from_millis(1_500)).await;
    }
    kept
}

async fn refund(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(capture_id): Path<String>,
    body: axum::Json<Value>,
) -> Answer {
    if let Some(refused) = unauthorized(&headers) {
        return refused;
    }
    let rid = request_id(&headers).unwrap_or_default();
    if let Some((s, a)) = st.answered.lock().unwrap().get(&rid).cloned() {
        return (s, axum::Json(a));
    }
    let captured = st
        .orders
        .lock()
        .unwrap()
        .values()
        .find_map(|o| o.capture.clone().filter(|c| c["id"] == capture_id.as_str()));
    let Some(captured) = captured else {
        return error(
            StatusCode::NOT_FOUND,
            "RESOURCE_NOT_FOUND",
            "INVALID_RESOURCE_ID",
        );
    };
    let cents =
        |v: &Value| (v.as_str().unwrap_or("0").parse::<f64>().unwrap() * 100.0).round() as i64;
    let mut refunds = st.refunds.lock().unwrap();
    let before: i64 = refunds
        .iter()
        .map(|(_, b)| cents(&b["amount"]["value"]))
        .sum();
    if before + cents(&body["amount"]["value"]) > cents(&captured["amount"]["value"]) {
        return error(
            StatusCode::UNPROCESSABLE_ENTITY,
            "UNPROCESSABLE_ENTITY",
            "REFUND_AMOUNT_EXCEEDED",
        );
    }
    refunds.push((rid.clone(), body.0));
    let answer = json!({ "id": format!("1JU08902781691{}", refunds.len()), "status": "COMPLETED" });
    keep_answer(&st, Some(rid), (StatusCode::CREATED, axum::Json(answer)))
}

async fn verify(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    body: axum::Json<Value>,
) -> Answer {
    if let Some(refused) = unauthorized(&headers) {
        return refused;
    }
    let b = body.0;
    for field in [
        "auth_algo",
        "cert_url",
        "transmission_id",
        "transmission_sig",
        "transmission_time",
        "webhook_id",
    ] {
        if !b[field].is_string() {
            return error(
                StatusCode::BAD_REQUEST,
                "VALIDATION_ERROR",
                "MISSING_REQUIRED_PARAMETER",
            );
        }
    }
    let sent = st.sent.lock().unwrap();
    let good = b["webhook_id"] == WEBHOOK_ID
        && b["auth_algo"] == "SHA256withRSA"
        && b["cert_url"] == CERT_URL
        && b["transmission_id"]
            .as_str()
            .and_then(|t| sent.get(t))
            .is_some_and(|(sig, event)| {
                b["transmission_sig"] == sig.as_str() && b["webhook_event"] == *event
            });
    let status = if good { "SUCCESS" } else { "FAILURE" };
    (
        StatusCode::OK,
        axum::Json(json!({ "verification_status": status })),
    )
}

/// A webhook event as PayPal posts it: its headers and its body.
struct Delivery {
    headers: Vec<(&'static str, String)>,
    body: String,
}

impl FakePayPal {
    async fn start() -> FakePayPal {
        let state = Arc::new(FakeState::default());
        let app = Router::new()
            .route("/v1/oauth2/token", post(token))
            .route("/v2/checkout/orders", post(create_order))
            .route("/v2/checkout/orders/{id}", get(show_order))
            .route("/v2/checkout/orders/{id}/capture", post(capture))
            .route("/v2/payments/captures/{id}/refund", post(refund))
            .route("/v1/notifications/verify-webhook-signature", post(verify))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakePayPal { url, state }
    }

    fn config(&self) -> PayPalConfig {
        PayPalConfig {
            client_id: CLIENT_ID.into(),
            client_secret: Secret::new(CLIENT_SECRET),
            webhook_id: WEBHOOK_ID.into(),
            base_url: self.url.clone(),
            public_url: "https://tickets.example".into(),
            timeout: Duration::from_millis(400),
        }
    }

    /// The PayPal order opened for `payment`: its id and what Kupa asked for (body, request id).
    fn order_of(&self, payment: &str) -> (String, Value) {
        let orders = self.state.orders.lock().unwrap();
        let (id, o) = orders
            .iter()
            .find(|(_, o)| o.request["purchase_units"][0]["custom_id"] == payment)
            .expect("an order for the payment");
        (id.clone(), o.request.clone())
    }

    /// The buyer approves the order at PayPal.
    fn approve(&self, order: &str) {
        self.state
            .orders
            .lock()
            .unwrap()
            .get_mut(order)
            .unwrap()
            .status = "APPROVED";
    }

    fn captures(&self) -> usize {
        self.state.captures.lock().unwrap().len()
    }

    /// PayPal's event of `event_type` about `resource`, signed by the fake.
    fn event(&self, event_type: &str, resource: Value) -> Delivery {
        let n = self.state.next.fetch_add(1, Ordering::SeqCst);
        let resource_type = if event_type.starts_with("CHECKOUT.ORDER") {
            "checkout-order"
        } else {
            "capture"
        };
        let event = json!({
            "id": format!("WH-7Y7254563A4550640-11V2185806837{n}"), "event_version": "1.0",
            "create_time": "2026-11-27T02:00:00.000Z", "resource_type": resource_type,
            "resource_version": "2.0", "event_type": event_type, "summary": event_type,
            "resource": resource,
        });
        let transmission = format!("69cd13f0-d67a-11e5-baa3-{n:012}");
        let sig = format!("FakeSig{n}Zm9yIHRlc3RzIG9ubHk=");
        self.state
            .sent
            .lock()
            .unwrap()
            .insert(transmission.clone(), (sig.clone(), event.clone()));
        Delivery {
            headers: vec![
                ("paypal-transmission-id", transmission),
                ("paypal-transmission-time", "2026-11-27T02:00:01Z".into()),
                ("paypal-transmission-sig", sig),
                ("paypal-cert-url", CERT_URL.into()),
                ("paypal-auth-algo", "SHA256withRSA".into()),
            ],
            body: event.to_string(),
        }
    }

    /// `CHECKOUT.ORDER.APPROVED` for an order, its resource the order as PayPal shows it.
    fn approved_event(&self, order: &str) -> Delivery {
        let resource = order_json(order, &self.state.orders.lock().unwrap()[order]);
        self.event("CHECKOUT.ORDER.APPROVED", resource)
    }

    /// A `PAYMENT.CAPTURE.*` event for the order's capture.
    fn capture_event(&self, event_type: &str, order: &str) -> Delivery {
        let mut capture = self.state.orders.lock().unwrap()[order]
            .capture
            .clone()
            .unwrap();
        capture["supplementary_data"] = json!({ "related_ids": { "order_id": order } });
        self.event(event_type, capture)
    }
}

/// A node of `db` whose payments go through PayPal at `fake`, the chain `catalogue` loaded.
async fn paypal_app(db: &TestDb, fake: &FakePayPal, catalogue: &str) -> (TestApp, Arc<PayPal>) {
    TestApp::with_provider(
        db,
        test_settings(),
        catalogue,
        |p, db| p.with_paypal(db, Some(fake.config())),
        ProviderRoutes::paypal,
    )
    .await
}

async fn deliver(app: &TestApp, d: &Delivery) -> Reply {
    let mut r = Request::post("/pay/paypal/webhook").header("content-type", "application/json");
    for (name, value) in &d.headers {
        r = r.header(*name, value);
    }
    app.send(r.body(Body::from(d.body.clone())).unwrap()).await
}

/// A priced cart of `who` and the PayPal order opened for it: the cart, our payment id, PayPal's
/// order id and what Kupa asked PayPal (`body`, `request_id`).
async fn opened(app: &TestApp, fake: &FakePayPal, who: &str) -> (Paying, String, String, Value) {
    let row = if who == buyer(1) { 0 } else { 1 };
    let k = priced_cart_at(app, who, row, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    let form = app
        .payment_form(who, "he", presentation, k.total, "method=paypal")
        .await
        .ok();
    let (order, asked) = fake.order_of(&form.payment_identifier);
    assert_eq!(
        form.payment_form_url,
        format!("https://www.sandbox.paypal.com/checkoutnow?token={order}")
    );
    (k, form.payment_identifier, order, asked)
}

async fn paid_orders(db: &TestDb) -> Vec<String> {
    rows(
        db,
        "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'",
    )
    .await
}

/// The payment's status as stored, read without asking PayPal.
async fn stored_status(app: &TestApp, payment: &str) -> String {
    app.state
        .orders
        .payment(payment)
        .await
        .unwrap()
        .status
        .as_str()
        .to_owned()
}

api_tests! {
async fn an_order_paid_with_paypal_is_captured_once_paypal_verifies_the_webhook(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    // The token is asked for while the order is opened: between these two instants.
    let before_token = app.clock.now_ms();
    let (k, payment, order, asked) = opened(&app, &fake, &who).await;
    let after_token = app.clock.now_ms();
    // What Kupa asked PayPal: our payment named three ways, the total as PayPal's decimal, the
    // buyer's way back, and the payment as the idempotency key.
    let body = &asked["asked"];
    let unit = &body["purchase_units"][0];
    assert_eq!(body["intent"], "CAPTURE");
    assert_eq!((unit["reference_id"].as_str(), unit["custom_id"].as_str(), unit["invoice_id"].as_str()),
        (Some(payment.as_str()), Some(payment.as_str()), Some(payment.as_str())));
    assert_eq!(unit["amount"], json!({ "currency_code": "ILS", "value": format!("{}.{:02}", k.total / 100, k.total % 100) }));
    let ctx = &body["payment_source"]["paypal"]["experience_context"];
    assert_eq!((ctx["user_action"].as_str(), ctx["locale"].as_str()), (Some("PAY_NOW"), Some("he-IL")));
    assert!(ctx["return_url"].as_str().unwrap().starts_with("https://tickets.example/"), "{ctx}");
    assert!(ctx["return_url"].as_str().unwrap().contains(&format!("paymentId={payment}")), "{ctx}");
    assert_eq!(asked["request_id"], payment.as_str());

    // The buyer has not approved: the status read asks PayPal and nothing is paid.
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "created", "{}", s.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    assert!(!app.commit(&who, presentation).await.status.is_success());

    fake.approve(&order);
    let approved = fake.approved_event(&order);
    let r = deliver(&app, &approved).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(fake.captures(), 1);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let committed = app.commit(&who, presentation).await.ok();
    assert!(!committed.reservation_identifier.is_empty());

    // PayPal delivers the event again, then the capture's own event: harmless, one capture, one
    // reservation.
    assert_eq!(deliver(&app, &approved).await.status, StatusCode::OK);
    let completed = fake.capture_event("PAYMENT.CAPTURE.COMPLETED", &order);
    assert_eq!(deliver(&app, &completed).await.status, StatusCode::OK);
    assert_eq!(deliver(&app, &completed).await.status, StatusCode::OK);
    assert_eq!(fake.captures(), 1);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
    // One token served every call, until a minute before its nine hours are up. The clock is set
    // from when the token was asked for, not moved by a fixed step: the calls above take their
    // time on a busy machine, and the clock runs on meanwhile.
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 1);
    let set_clock_to = |at: i64| app.clock.advance_ms(at - app.clock.now_ms());
    set_clock_to(before_token + 32_400_000 - 90_000);
    assert_eq!(deliver(&app, &completed).await.status, StatusCode::OK);
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 1);
    set_clock_to(after_token + 32_400_000 - 59_000);
    assert_eq!(deliver(&app, &completed).await.status, StatusCode::OK);
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 2);
}

async fn a_forged_or_altered_webhook_is_refused_and_records_nothing(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    let (k, payment, order, asked) = opened(&app, &fake, &who).await;
    let amount = &asked["asked"]["purchase_units"][0]["amount"];
    let capture = json!({
        "id": "3C679366HH9089999F", "status": "COMPLETED", "amount": amount, "custom_id": payment,
        "supplementary_data": { "related_ids": { "order_id": order } },
    });
    // A capture event PayPal never sent, its signature made up.
    let mut forged = fake.event("PAYMENT.CAPTURE.COMPLETED", capture.clone());
    forged.headers[2].1 = "bm90IFBheVBhbCdzIHNpZ25hdHVyZQ==".into();
    let r = deliver(&app, &forged).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    // PayPal's own transmission, its event altered on the way.
    let mut altered = fake.event("PAYMENT.CAPTURE.DENIED", json!({ "id": "X", "status": "DECLINED", "custom_id": payment }));
    altered.body = altered.body.replace("PAYMENT.CAPTURE.DENIED", "PAYMENT.CAPTURE.COMPLETED").replace("DECLINED", "COMPLETED");
    assert_eq!(deliver(&app, &altered).await.status, StatusCode::BAD_REQUEST);
    // No transmission headers at all.
    let bare = Delivery { headers: vec![], body: forged.body.clone() };
    assert_eq!(deliver(&app, &bare).await.status, StatusCode::BAD_REQUEST);

    assert_eq!(stored_status(&app, &payment).await, "created");
    assert_eq!(fake.captures(), 0);
    let presentation = k.presentation["id"].as_i64().unwrap();
    assert!(!app.commit(&who, presentation).await.status.is_success());
    assert_eq!(rows(db, "SELECT deal_id FROM payment_deals WHERE deal_id IS NOT NULL").await.len(), 0);
}

async fn paypal_not_answering_a_capture_neither_loses_the_order_nor_captures_twice(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    let (k, payment, order, _) = opened(&app, &fake, &who).await;
    fake.approve(&order);
    fake.state.slow_capture.store(true, Ordering::SeqCst);
    // PayPal captures, but its answer never reaches Kupa: PayPal is told to deliver again.
    let approved = fake.approved_event(&order);
    let r = deliver(&app, &approved).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert_eq!(stored_status(&app, &payment).await, "created");
    assert_eq!(fake.captures(), 1);
    fake.state.slow_capture.store(false, Ordering::SeqCst);
    // The buyer returns: the status read asks PayPal, which says the order is captured.
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    app.commit(&who, presentation).await.ok();
    // PayPal's next delivery changes nothing.
    assert_eq!(deliver(&app, &approved).await.status, StatusCode::OK);
    assert_eq!(fake.captures(), 1);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
}

async fn a_capture_paypal_declines_is_a_payment_error_and_pays_nothing(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    let (k, payment, order, _) = opened(&app, &fake, &who).await;
    fake.approve(&order);
    fake.state.decline_capture.store(true, Ordering::SeqCst);
    // The buyer's return: Kupa captures, PayPal answers INSTRUMENT_DECLINED.
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "declined", "{}", s.text);
    assert_eq!(s.body["failureCode"], "paymentError", "{}", s.text);
    assert_eq!(fake.captures(), 0);
    let presentation = k.presentation["id"].as_i64().unwrap();
    assert!(!app.commit(&who, presentation).await.status.is_success());
    // A denied capture's event for it is harmless.
    let denied = fake.event("PAYMENT.CAPTURE.DENIED", json!({
        "id": "3C679366HH9089990F", "status": "DECLINED", "custom_id": payment,
        "supplementary_data": { "related_ids": { "order_id": order } },
    }));
    assert_eq!(deliver(&app, &denied).await.status, StatusCode::OK);
    assert_eq!(stored_status(&app, &payment).await, "declined");
}

async fn a_refund_names_the_capture_and_a_key_asked_twice_refunds_once(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, paypal) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    let (_, payment, order, _) = opened(&app, &fake, &who).await;
    fake.approve(&order);
    assert_eq!(status(&app, &who, &payment).await.body["status"], "captured");
    let paid = app.state.orders.payment(&payment).await.unwrap();
    let capture_id = fake.state.captures.lock().unwrap()[0].clone();

    let part = GatewayRefund { key: "cancel-1".into(), amount: Money(1_000) };
    paypal.refund(&paid, &part).await.unwrap();
    paypal.refund(&paid, &part).await.unwrap();
    let rest = GatewayRefund { key: format!("{payment}:void"), amount: paid.amount - Money(1_000) };
    paypal.refund(&paid, &rest).await.unwrap();
    let refunds = fake.state.refunds.lock().unwrap().clone();
    assert_eq!(refunds.len(), 2, "{refunds:?}");
    assert_eq!(refunds[0].0, "cancel-1");
    assert_eq!(refunds[0].1["amount"], json!({ "value": "10.00", "currency_code": "ILS" }));
    assert_eq!(rows(db, "SELECT deal_id FROM payment_deals WHERE deal_id IS NOT NULL").await, vec![capture_id]);
    // More than was captured: PayPal refuses, and Kupa says so.
    let more = GatewayRefund { key: "cancel-2".into(), amount: Money(100) };
    assert!(paypal.refund(&paid, &more).await.is_err());
    // A payment PayPal never captured has nothing to refund.
    let (_, other, _, _) = opened(&app, &fake, &buyer(2)).await;
    let unpaid = app.state.orders.payment(&other).await.unwrap();
    assert!(paypal.refund(&unpaid, &part).await.is_err());
}

async fn a_card_goes_to_the_card_gateway_and_paypal_down_or_refusing_is_said_so(db: &TestDb) {
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, DEMO).await;
    let who = buyer(1);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    // Payments are routed by method (decision 0064): a card goes to the card gateway.
    let r = app.payment_form(&who, "he", presentation, k.total, "method=card").await;
    assert_eq!(r.status, StatusCode::OK, "a card goes to the card gateway: {}", r.text);
    assert!(r.body["paymentFormURL"].as_str().unwrap().starts_with("/pay/"), "{}", r.text);
    assert!(fake.state.orders.lock().unwrap().is_empty(), "PayPal was not asked");

    // The same payment as a PayPal one, opened against a PayPal that does not answer, then
    // against one that refuses the shop's keys.
    let id = rows(db, "SELECT id FROM payments").await.remove(0);
    let payment = kupa_app::orders::Payment {
        method: kupa_app::orders::PaymentMethod::Paypal,
        ..app.state.orders.payment(&id).await.unwrap()
    };
    let failure = |e: kupa_app::AppError| match e {
        kupa_app::AppError::Rejected { params, .. } => params.unwrap()["failureCode"].clone(),
        other => panic!("{other:?}"),
    };
    let deals = Arc::new(db.db.clone());
    let down = PayPal::new(
        PayPalConfig { base_url: "http://127.0.0.1:9".into(), ..fake.config() },
        deals.clone(),
        app.clock.clone(),
    )
    .unwrap();
    assert_eq!(failure(down.open_page(&payment).await.unwrap_err()), "errorNoResponse");
    let wrong_keys = PayPal::new(
        PayPalConfig { client_secret: Secret::new("not-the-secret"), ..fake.config() },
        deals,
        app.clock.clone(),
    )
    .unwrap();
    assert_eq!(failure(wrong_keys.open_page(&payment).await.unwrap_err()), "errorResponse");
    let zloty_less = kupa_app::orders::Payment { currency: "JPY".into(), ..payment };
    assert_eq!(failure(wrong_keys.open_page(&zloty_less).await.unwrap_err()), "formValidation");
    assert!(fake.state.orders.lock().unwrap().is_empty());
}

async fn an_order_in_zloty_is_paid_with_paypal_in_zloty(db: &TestDb) {
    // A chain selling in złoty: its 10-film pass priced in PLN.
    let chain = DEMO.replace(
        r#"{"id": 201, "priceCode": "PASS10", "price": 33000, "value": 35000}"#,
        r#"{"id": 201, "priceCode": "PASS10", "price": 33000, "value": 35000, "currency": "PLN"}"#,
    );
    assert_ne!(chain, DEMO);
    let fake = FakePayPal::start().await;
    let (app, _) = paypal_app(db, &fake, &chain).await;
    let who = log_in(&app, &buyer(1), "0524318876").await;
    let customer = json!({ "firstName": "Dana", "lastName": "Kowalska", "email": "dana@example.com",
        "verifyEmailAddress": "dana@example.com", "mobileNumber": "+972524318876",
        "acceptedTerms": [1, 2, 3], "ssn": "123456782" });
    let r = cart(&app, &who, json!({ "memberships": [{ "MembershipId": 2, "prices": [{ "MembershipPriceId": 201, "selectedQuantity": 1 }] }], "customerInfo": customer })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let form = app.call_as(&who, "GET", &format!("/api/payment/form/en?orderType=memberships&total=33000&method=paypal&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    let payment = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let (order, asked) = fake.order_of(&payment);
    assert_eq!(asked["asked"]["purchase_units"][0]["amount"], json!({ "currency_code": "PLN", "value": "330.00" }));
    assert_eq!(asked["asked"]["payment_source"]["paypal"]["experience_context"]["locale"], "en-US");
    fake.approve(&order);
    let r = deliver(&app, &fake.approved_event(&order)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(fake.state.orders.lock().unwrap()[&order].capture.as_ref().unwrap()["amount"]["currency_code"], "PLN");
    let body = json!({ "cart": { "memberships": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&body.to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
}
}
