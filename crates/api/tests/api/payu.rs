//! PayU and Blik through PayU's REST API (decision 0064), against a local fake of PayU started on
//! a loopback port, on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a tenant whose
//! club card is priced in złoty (the demo chain, its membership 1 in PLN), a whole order paid by
//! PayU's redirect and one by a Blik code, a Blik code refused, refunds, a repeated and a forged
//! notification, PayU not answering, and the methods routed: cards still go to the card gateway,
//! and PayU's methods are refused for an order in shekels.
//!
//! The fake follows PayU's public documentation (developers.payu.com, Europe):
//! - "REST API" / "Authorize" (docs/getting-started/integration-overview/authorize... the OAuth
//!   page): `POST /pl/standard/user/oauth/authorize`, form `grant_type=client_credentials`,
//!   `client_id`, `client_secret`; answers `access_token`, `token_type` bearer, `expires_in`,
//!   `grant_type`; a wrong client is `401` `invalid_client`.
//! - "Creating a new order" / API Reference "Create an Order": `POST /api/v2_1/orders` with
//!   `Authorization: Bearer`, JSON `notifyUrl`, `customerIp`, `merchantPosId`, `description`,
//!   `currencyCode`, `totalAmount` (a string in minor units), `extOrderId` (unique per POS, else
//!   `ERROR_ORDER_NOT_UNIQUE`), `continueUrl`, `buyer`, `products` (`name`, `unitPrice`,
//!   `quantity`); answers `302` with `status.statusCode` `SUCCESS`, `redirectUri`, `orderId`,
//!   `extOrderId`.
//! - "BLIK" / "Integrating BLIK Payments" (docs/payment-solutions/blik/integration) and "Testing"
//!   (docs/payment-solutions/blik/testing): the code typed on the shop's page is
//!   `payMethods.payMethod` `{type: "BLIK_AUTHORIZATION_CODE", value}`, the answer `201` with
//!   `SUCCESS` and the order `PENDING` until the buyer confirms in the bank's app; the sandbox's
//!   codes 777xxx confirm, 500500 is refused in the bank, 700701/700702/700703 (expired,
//!   cancelled, used) are refused (`ERROR_VALUE_INVALID`).
//! - "Notifications" (docs/standard/notifications... "Order status notifications"): `POST` to
//!   `notifyUrl` with `{order: {orderId, extOrderId, totalAmount, currencyCode, status, ...}}` and
//!   the header `OpenPayu-Signature: sender=checkout;signature=…;algorithm=…;content=DOCUMENT`,
//!   the signature the hash of the body followed by the second key; PayU posts again until
//!   answered 200.
//! - API Reference "Retrieve an Order": `GET /api/v2_1/orders/{orderId}` answers `orders[]` and
//!   `status`; unknown: `DATA_NOT_FOUND`.
//! - "Refunds" / "Create a Refund": `POST /api/v2_1/orders/{orderId}/refunds`, `refund`
//!   `{description, amount?, extRefundId}`; answers `refund` `{refundId, extRefundId, amount,
//!   status: PENDING}` and `SUCCESS`.
//! - "Order capture" (API Reference "Update an Order status"): `PUT
//!   /api/v2_1/orders/{orderId}/status` `{orderId, orderStatus: COMPLETED}` for an order
//!   `WAITING_FOR_CONFIRMATION`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, Request, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use kupa_app::orders::{GatewayRefund, PaymentGateway};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_domain::money::Money;
use kupa_providers::delivery::secret::Secret;
use kupa_providers::payu::{PayU, PayUConfig};
use kupa_store::testing::TestDb;
use kupa_wiring::ProviderRoutes;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::common::paying::*;
use crate::common::*;

const POS: &str = "300746";
const CLIENT_SECRET: &str = "2ee86a66e5d97e3fadc400c9f19b065d";
const SECOND_KEY: &str = "b6ca15b0d1020e8094d9b5f8d163db54";
const TOKEN: &str = "87ad751f-7ea5-4023-a16f-04b6647a07f5";
/// The club card of the demo chain, priced here in złoty.
const CLUB_PLN: i64 = 9_900;
const SSN: &str = "123456782";
/// Customers 1 and 2 of the demo: a membership is bought logged in.
const DANA: &str = "0524318876";
const AVI: &str = "0507712345";

#[derive(Default)]
struct FakeState {
    /// PayU's orders by orderId: what Kupa asked for, and their status.
    orders: Mutex<HashMap<String, (Value, String)>>,
    refunds: Mutex<Vec<Value>>,
    tokens: AtomicI64,
    next: AtomicI64,
    /// PayU answers too late (down).
    slow: AtomicBool,
    /// PayU makes the order, but its answer comes too late.
    late: AtomicBool,
}

struct FakePayU {
    url: String,
    state: Arc<FakeState>,
}

fn payu_status(http: StatusCode, code: &str, literal: Option<&str>) -> Response {
    let mut status = json!({ "statusCode": code, "statusDesc": code });
    if let Some(l) = literal {
        status["codeLiteral"] = json!(l);
    }
    (http, axum::Json(json!({ "status": status }))).into_response()
}

async fn authorize(State(st): State<Arc<FakeState>>, body: String) -> Response {
    let form: HashMap<String, String> = serde_urlencoded::from_str(&body).unwrap_or_default();
    let get = |k: &str| form.get(k).map(String::as_str);
    if get("grant_type") != Some("client_credentials")
        || get("client_id") != Some(POS)
        || get("client_secret") != Some(CLIENT_SECRET)
    {
        return (
            StatusCode::UNAUTHORIZED,
            axum::Json(
                json!({ "error": "invalid_client", "error_description": "Bad client credentials" }),
            ),
        )
            .into_response();
    }
    st.tokens.fetch_add(1, Ordering::SeqCst);
    axum::Json(
        json!({ "access_token": TOKEN, "token_type": "bearer", "expires_in": 43199,
                       "grant_type": "client_credentials" }),
    )
    .into_response()
}

fn bearer_ok(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

async fn slow(st: &FakeState) {
    if st.slow.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
}

async fn create_order(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    body: axum::Json<Value>,
) -> Response {
    slow(&st).await;
    let answer = make_order(&st, &headers, body.0);
    if st.late.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    answer
}

fn make_order(st: &FakeState, headers: &HeaderMap, b: Value) -> Response {
    if !bearer_ok(headers) {
        return payu_status(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", None);
    }
    for field in [
        "customerIp",
        "merchantPosId",
        "description",
        "currencyCode",
        "totalAmount",
        "products",
    ] {
        if b[field].is_null() {
            return payu_status(
                StatusCode::BAD_REQUEST,
                "ERROR_VALUE_MISSING",
                Some("MISSING_REQUIRED_PARAMETER"),
            );
        }
    }
    if b["merchantPosId"] != POS || !b["totalAmount"].is_string() {
        return payu_status(StatusCode::BAD_REQUEST, "ERROR_VALUE_INVALID", None);
    }
    let mut orders = st.orders.lock().unwrap();
    if orders
        .values()
        .any(|(o, _)| o["extOrderId"] == b["extOrderId"])
    {
        return payu_status(StatusCode::BAD_REQUEST, "ERROR_ORDER_NOT_UNIQUE", None);
    }
    let blik = &b["payMethods"]["payMethod"];
    if blik["type"] == "BLIK_AUTHORIZATION_CODE" {
        let code = blik["value"].as_str().unwrap_or_default();
        let literal = match code {
            "700701" => Some("AUTH_CODE_EXPIRED"),
            "700702" => Some("AUTH_CODE_CANCELED"),
            "700703" => Some("AUTH_CODE_USED"),
            c if c.len() != 6 || !c.bytes().all(|b| b.is_ascii_digit()) => {
                Some("AUTH_CODE_INVALID")
            }
            _ => None,
        };
        if let Some(literal) = literal {
            return payu_status(
                StatusCode::BAD_REQUEST,
                "ERROR_VALUE_INVALID",
                Some(literal),
            );
        }
    }
    let n = st.next.fetch_add(1, Ordering::SeqCst);
    let id = format!("WZHF5FFDRJ{n:06}GUEST000P01");
    let ext = b["extOrderId"].clone();
    let is_blik = blik["type"] == "BLIK_AUTHORIZATION_CODE";
    orders.insert(id.clone(), (b, "PENDING".into()));
    if is_blik {
        return (
            StatusCode::CREATED,
            axum::Json(
                json!({ "status": { "statusCode": "SUCCESS" }, "orderId": id, "extOrderId": ext }),
            ),
        )
            .into_response();
    }
    let redirect = format!("https://merch-prod.snd.payu.com/pay/?orderId={id}&token=eyJhbGciOi");
    (
        StatusCode::FOUND,
        [("location", redirect.clone())],
        axum::Json(
            json!({ "status": { "statusCode": "SUCCESS" }, "redirectUri": redirect,
                           "orderId": id, "extOrderId": ext }),
        ),
    )
        .into_response()
}

fn order_json(id: &str, asked: &Value, status: &str) -> Value {
    json!({ "orderId": id, "extOrderId": asked["extOrderId"], "orderCreateDate": "2030-06-12T09:00:00.000+02:00",
            "notifyUrl": asked["notifyUrl"], "customerIp": asked["customerIp"],
            "merchantPosId": POS, "description": asked["description"],
            "currencyCode": asked["currencyCode"], "totalAmount": asked["totalAmount"],
            "status": status, "products": asked["products"] })
}

async fn retrieve(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    slow(&st).await;
    if !bearer_ok(&headers) {
        return payu_status(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", None);
    }
    match st.orders.lock().unwrap().get(&id) {
        Some((asked, status)) => axum::Json(json!({
            "orders": [order_json(&id, asked, status)],
            "status": { "statusCode": "SUCCESS", "statusDesc": "Request processing successful" },
        }))
        .into_response(),
        None => payu_status(StatusCode::NOT_FOUND, "DATA_NOT_FOUND", None),
    }
}

async fn update_status(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::Json<Value>,
) -> Response {
    if !bearer_ok(&headers) || body.0["orderStatus"] != "COMPLETED" || body.0["orderId"] != id {
        return payu_status(StatusCode::BAD_REQUEST, "ERROR_VALUE_INVALID", None);
    }
    match st.orders.lock().unwrap().get_mut(&id) {
        Some((_, status)) if status == "WAITING_FOR_CONFIRMATION" => {
            *status = "COMPLETED".into();
            payu_status(StatusCode::OK, "SUCCESS", None)
        }
        Some(_) => payu_status(StatusCode::BAD_REQUEST, "ERROR_ORDER_STATUS", None),
        None => payu_status(StatusCode::NOT_FOUND, "DATA_NOT_FOUND", None),
    }
}

async fn refund(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    Path(id): Path<String>,
    body: axum::Json<Value>,
) -> Response {
    if !bearer_ok(&headers) {
        return payu_status(StatusCode::UNAUTHORIZED, "UNAUTHORIZED", None);
    }
    let r = body.0["refund"].clone();
    if r["description"].is_null() {
        return payu_status(StatusCode::BAD_REQUEST, "ERROR_VALUE_MISSING", None);
    }
    let orders = st.orders.lock().unwrap();
    let Some((asked, status)) = orders.get(&id) else {
        return payu_status(StatusCode::NOT_FOUND, "DATA_NOT_FOUND", None);
    };
    if status != "COMPLETED" {
        return payu_status(
            StatusCode::BAD_REQUEST,
            "BUSINESS_ERROR",
            Some("NO_BALANCE"),
        );
    }
    let mut refunds = st.refunds.lock().unwrap();
    let mut r = r;
    r["orderId"] = json!(id);
    refunds.push(r.clone());
    axum::Json(json!({
        "orderId": id,
        "refund": { "refundId": format!("50000{}", refunds.len()), "extRefundId": r["extRefundId"],
                    "amount": r.get("amount").cloned().unwrap_or(asked["totalAmount"].clone()),
                    "currencyCode": "PLN", "description": r["description"], "status": "PENDING" },
        "status": { "statusCode": "SUCCESS", "statusDesc": "Refund queued for processing" },
    }))
    .into_response()
}

impl FakePayU {
    async fn start() -> FakePayU {
        let state = Arc::new(FakeState::default());
        let app = Router::new()
            .route("/pl/standard/user/oauth/authorize", post(authorize))
            .route("/api/v2_1/orders", post(create_order))
            .route("/api/v2_1/orders/{id}", get(retrieve))
            .route("/api/v2_1/orders/{id}/status", put(update_status))
            .route("/api/v2_1/orders/{id}/refunds", post(refund))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakePayU { url, state }
    }

    fn config(&self) -> PayUConfig {
        PayUConfig {
            pos_id: POS.into(),
            client_id: POS.into(),
            client_secret: Secret::new(CLIENT_SECRET),
            second_key: Secret::new(SECOND_KEY),
            base_url: self.url.clone(),
            public_url: "https://tickets.example".into(),
            timeout: Duration::from_millis(500),
        }
    }

    /// PayU's order for our payment: its id and what Kupa asked for.
    fn order_of(&self, payment: &str) -> (String, Value) {
        let orders = self.state.orders.lock().unwrap();
        let (id, (asked, _)) = orders
            .iter()
            .find(|(_, (o, _))| o["extOrderId"] == payment)
            .expect("a PayU order for the payment");
        (id.clone(), asked.clone())
    }

    fn orders_made(&self) -> usize {
        self.state.orders.lock().unwrap().len()
    }

    /// The buyer pays (or the bank refuses): the order's new status at PayU.
    fn set_status(&self, order_id: &str, status: &str) {
        self.state
            .orders
            .lock()
            .unwrap()
            .get_mut(order_id)
            .unwrap()
            .1 = status.into();
    }

    /// PayU's notification of the order as it stands: its body and signature header.
    fn notification(&self, order_id: &str) -> (String, String) {
        let orders = self.state.orders.lock().unwrap();
        let (asked, status) = &orders[order_id];
        let body = json!({ "order": order_json(order_id, asked, status),
                           "localReceiptDateTime": "2030-06-12T09:01:00.000+02:00",
                           "properties": [{ "name": "PAYMENT_ID", "value": "5000009987" }] })
        .to_string();
        (body.clone(), signed(&body, SECOND_KEY))
    }
}

fn signed(body: &str, key: &str) -> String {
    let hash: String = Sha256::digest(format!("{body}{key}").as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    format!("sender=checkout;signature={hash};algorithm=SHA256;content=DOCUMENT")
}

async fn notify(app: &TestApp, body: &str, signature: Option<&str>) -> Reply {
    let mut req = Request::post("/pay/payu/notify").header("content-type", "application/json");
    if let Some(s) = signature {
        req = req.header("OpenPayu-Signature", s);
    }
    app.send(req.body(Body::from(body.to_owned())).unwrap())
        .await
}

/// A node of `db` whose PayU and Blik payments go to PayU at `fake` (cards to the test
/// gateway), with the demo chain loaded and its club card priced in złoty.
async fn payu_app(db: &TestDb, fake: &FakePayU) -> (TestApp, Arc<PayU>) {
    let mut chain: Value = serde_json::from_str(DEMO).unwrap();
    chain["memberships"][0]["prices"] =
        json!([{ "id": 100, "priceCode": "CLUB", "price": CLUB_PLN, "currency": "PLN" }]);
    TestApp::with_provider(
        db,
        test_settings(),
        &chain.to_string(),
        |p, db| p.with_payu(db, Some(fake.config())),
        ProviderRoutes::payu,
    )
    .await
}

/// `who`'s cart of the club card in złoty, and the payment opened for it by `method`.
async fn club_card_payment(app: &TestApp, who: &str, method: &str) -> Reply {
    let customer = json!({ "firstName": "Anna", "lastName": "Nowak", "email": "anna@example.com",
                           "verifyEmailAddress": "anna@example.com", "mobileNumber": "+972524318876",
                           "acceptedTerms": [1, 2, 3], "ssn": SSN });
    let r = cart(app, who, json!({
        "memberships": [{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 1 }] }],
        "customerInfo": customer,
    }))
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["total"], CLUB_PLN, "{}", r.text);
    app.call_as(
        who,
        "GET",
        &format!("/api/payment/form/en?orderType=memberships&total={CLUB_PLN}&method={method}&recaptchaToken={CAPTCHA_TEST_TOKEN}"),
        None,
    )
    .await
}

async fn commit_club(app: &TestApp, who: &str) -> Reply {
    let body = json!({ "cart": { "memberships": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

async fn paid_orders(db: &TestDb) -> Vec<String> {
    rows(
        db,
        "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'",
    )
    .await
}

fn payment_id(r: &Reply) -> String {
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["paymentIdentifier"].as_str().unwrap().to_owned()
}

/// A club card paid through PayU's page: its payment and PayU's order.
async fn paid_by_payu(app: &TestApp, fake: &FakePayU, who: &str) -> (String, String) {
    let payment = payment_id(&club_card_payment(app, who, "payu").await);
    let (order, _) = fake.order_of(&payment);
    fake.set_status(&order, "COMPLETED");
    let (body, sig) = fake.notification(&order);
    let r = notify(app, &body, Some(&sig)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    (payment, order)
}

api_tests! {
async fn an_order_in_zloty_paid_on_payus_page_is_committed_once_payu_notifies(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let r = club_card_payment(&app, &who, "payu").await;
    let payment = payment_id(&r);
    let (order, asked) = fake.order_of(&payment);
    // The buyer goes to PayU's page (the whole window: Kupa's page in the dialog's frame has
    // the button); what Kupa asked PayU for.
    let redirect = format!("https://merch-prod.snd.payu.com/pay/?orderId={order}&token=eyJhbGciOi");
    let way = r.body["paymentFormURL"].as_str().unwrap().to_owned();
    assert!(way.starts_with(&format!("/pay/payu/{payment}/go?to=")), "{way}");
    let go = app.call_as(&who, "GET", &way, None).await;
    assert_eq!(go.status, StatusCode::OK, "{}", go.text);
    assert!(go.text.contains(&format!("href=\"{}\" target=\"_top\"", redirect.replace('&', "&amp;"))), "{}", go.text);
    assert_eq!(app.call_as(&buyer(2), "GET", &way, None).await.status, StatusCode::NOT_FOUND);
    let elsewhere = format!("/pay/payu/{payment}/go?to=https%3A%2F%2Fevil.example%2F");
    assert_eq!(app.call_as(&who, "GET", &elsewhere, None).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(r.body["currency"], "PLN", "{}", r.text);
    assert_eq!((asked["totalAmount"].as_str(), asked["currencyCode"].as_str()), (Some("9900"), Some("PLN")));
    assert_eq!(asked["merchantPosId"], POS);
    assert_eq!(asked["notifyUrl"], "https://tickets.example/pay/payu/notify");
    assert!(asked["continueUrl"].as_str().unwrap().starts_with("https://tickets.example/"), "{asked}");
    assert!(asked["continueUrl"].as_str().unwrap().contains(&format!("paymentId={payment}")), "{asked}");
    assert!(asked.get("payMethods").is_none());
    assert_eq!(asked["products"][0]["unitPrice"], "9900");

    // Before PayU says so nothing is paid: PENDING is no word, and the commit refuses.
    let (body, sig) = fake.notification(&order);
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    assert_eq!(status(&app, &who, &payment).await.body["status"], "created");
    assert!(!commit_club(&app, &who).await.status.is_success());

    fake.set_status(&order, "COMPLETED");
    let (body, sig) = fake.notification(&order);
    let r = notify(&app, &body, Some(&sig)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let r = commit_club(&app, &who).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // PayU posts again: harmless, still one paid order.
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
    // One OAuth token served every call.
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 1);
}

async fn an_order_paid_by_a_blik_code_waits_for_the_bank_app_then_for_payus_word(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let r = club_card_payment(&app, &who, "blik").await;
    let payment = payment_id(&r);
    let page = format!("/pay/payu/{payment}/blik");
    assert_eq!(r.body["paymentFormURL"], page.as_str());
    // Another buyer's browser does not see it.
    assert_eq!(app.call_as(&buyer(2), "GET", &page, None).await.status, StatusCode::NOT_FOUND);
    let form = app.call_as(&who, "GET", &page, None).await;
    assert_eq!(form.status, StatusCode::OK);
    assert!(form.text.contains("name=\"code\""), "{}", form.text);
    // Not 6 digits: refused on Kupa's page, PayU never asked.
    let r = app.form_as(&who, "POST", &page, Some("code=12345")).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.text.contains("blikError"), "{}", r.text);
    assert_eq!(fake.orders_made(), 0);
    // The code goes to PayU; the buyer confirms in the bank's app meanwhile.
    let r = app.form_as(&who, "POST", &page, Some("code=777+123")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains(&format!("paymentId={payment}")), "{}", location(&r));
    let (order, asked) = fake.order_of(&payment);
    assert_eq!(asked["payMethods"]["payMethod"], json!({ "type": "BLIK_AUTHORIZATION_CODE", "value": "777123" }));
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "awaitingBank", "{}", s.text);
    assert!(!commit_club(&app, &who).await.status.is_success());
    fake.set_status(&order, "COMPLETED");
    let (body, sig) = fake.notification(&order);
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    assert_eq!(status(&app, &who, &payment).await.body["status"], "captured");
    let r = commit_club(&app, &who).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
}

async fn a_blik_code_payu_refuses_is_a_blik_error(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let payment = payment_id(&club_card_payment(&app, &who, "blik").await);
    // PayU's sandbox code for an expired BLIK code.
    let r = app.form_as(&who, "POST", &format!("/pay/payu/{payment}/blik"), Some("code=700701")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let s = status(&app, &who, &payment).await;
    assert_eq!((s.body["status"].as_str(), s.body["failureCode"].as_str()), (Some("declined"), Some("blikError")), "{}", s.text);
    assert_eq!(fake.orders_made(), 0, "PayU made no order of it");
    // Refused in the bank's app (PayU cancels the order): blikError too.
    let other = log_in(&app, &buyer(2), AVI).await;
    let payment = payment_id(&club_card_payment(&app, &other, "blik").await);
    let r = app.form_as(&other, "POST", &format!("/pay/payu/{payment}/blik"), Some("code=500500")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let (order, _) = fake.order_of(&payment);
    fake.set_status(&order, "CANCELED");
    let (body, sig) = fake.notification(&order);
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    let s = status(&app, &other, &payment).await;
    assert_eq!((s.body["status"].as_str(), s.body["failureCode"].as_str()), (Some("declined"), Some("blikError")), "{}", s.text);
}

async fn a_refund_names_payus_order_and_a_key_asked_twice_refunds_once(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, payu) = payu_app(db, &fake).await;
    let (payment, order) = paid_by_payu(&app, &fake, &log_in(&app, &buyer(1), DANA).await).await;
    let paid = app.state.orders.payment(&payment).await.unwrap();
    let part = GatewayRefund { key: "cancel-1".into(), amount: Money(1_000) };
    payu.refund(&paid, &part).await.unwrap();
    payu.refund(&paid, &part).await.unwrap();
    let whole = GatewayRefund { key: format!("{payment}:void"), amount: paid.amount };
    // Through the gateway routed by method, as the app's cancellations go.
    let routed = kupa_providers::by_method::ByMethod::new(app.gateway.clone()).with_payu(Some(payu.clone()));
    routed.refund(&paid, &whole).await.unwrap();
    assert_eq!(app.gateway.refund_count(&payment), 0, "nothing went to the card gateway");
    let refunds = fake.state.refunds.lock().unwrap().clone();
    assert_eq!(refunds.len(), 2, "{refunds:?}");
    assert_eq!((refunds[0]["orderId"].as_str(), refunds[0]["amount"].as_str()), (Some(order.as_str()), Some("1000")));
    assert_eq!(refunds[0]["extRefundId"], "cancel-1");
    assert!(refunds[1].get("amount").is_none(), "the whole order: no amount");
    assert_eq!(refunds[1]["extRefundId"], format!("{payment}:void"));
}

async fn a_forged_payu_notification_is_refused_and_records_nothing(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let payment = payment_id(&club_card_payment(&app, &who, "payu").await);
    let (order, _) = fake.order_of(&payment);
    // The buyer has not paid (PENDING at PayU); the posts say COMPLETED.
    let (pending, _) = fake.notification(&order);
    let body = pending.replace("\"status\":\"PENDING\"", "\"status\":\"COMPLETED\"");
    assert_ne!(body, pending);
    let good = signed(&pending, SECOND_KEY);
    // Signed with another key, not signed, or the signed body changed afterwards.
    assert_eq!(notify(&app, &body, Some(&signed(&body, "not-the-second-key"))).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(notify(&app, &body, None).await.status, StatusCode::BAD_REQUEST);
    assert_eq!(notify(&app, &body, Some(&good)).await.status, StatusCode::BAD_REQUEST);
    let cheaper = body.replace("\"9900\"", "\"1\"");
    // Well signed (the key leaked), but not this payment's amount: still refused.
    assert_eq!(notify(&app, &cheaper, Some(&signed(&cheaper, SECOND_KEY))).await.status, StatusCode::BAD_REQUEST);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "created", "{}", s.text);
    assert!(!commit_club(&app, &who).await.status.is_success());
    assert_eq!(paid_orders(db).await, vec!["0".to_owned()]);
}

async fn payu_not_answering_loses_nothing_and_the_status_query_pays_once(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    // PayU does not answer the order: no page, errorNoResponse.
    fake.state.slow.store(true, Ordering::SeqCst);
    let r = club_card_payment(&app, &who, "payu").await;
    assert_eq!(r.status, StatusCode::PAYMENT_REQUIRED, "{}", r.text);
    assert_eq!(r.body["error"]["params"]["failureCode"], "errorNoResponse", "{}", r.text);
    fake.state.slow.store(false, Ordering::SeqCst);
    // Again: the page opens; the buyer pays; PayU's notification never comes, and PayU is
    // slow when the buyer's return reads the status: nothing is recorded.
    let payment = payment_id(&club_card_payment(&app, &who, "payu").await);
    let (order, _) = fake.order_of(&payment);
    fake.set_status(&order, "COMPLETED");
    fake.state.slow.store(true, Ordering::SeqCst);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "created", "{}", s.text);
    // PayU answers again: the status query settles it, once.
    fake.state.slow.store(false, Ordering::SeqCst);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let r = commit_club(&app, &who).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The late notification changes nothing.
    let (body, sig) = fake.notification(&order);
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
}

async fn a_blik_order_payu_answered_too_late_is_settled_by_its_notification_then_its_status(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let payment = payment_id(&club_card_payment(&app, &who, "blik").await);
    // PayU makes the order but its answer never reaches Kupa: nothing recorded, the buyer told
    // to wait for the bank app.
    fake.state.late.store(true, Ordering::SeqCst);
    let r = app.form_as(&who, "POST", &format!("/pay/payu/{payment}/blik"), Some("code=777456")).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text);
    assert!(r.text.contains("errorNoResponse"), "{}", r.text);
    fake.state.late.store(false, Ordering::SeqCst);
    assert_eq!(status(&app, &who, &payment).await.body["status"], "created");
    // PayU's PENDING notification names the order; the buyer confirms; the COMPLETED
    // notification is lost: the status query, now knowing the order, pays it once.
    let (order, _) = fake.order_of(&payment);
    let (body, sig) = fake.notification(&order);
    assert_eq!(notify(&app, &body, Some(&sig)).await.status, StatusCode::OK);
    fake.set_status(&order, "COMPLETED");
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    assert_eq!(commit_club(&app, &who).await.status, StatusCode::OK);
    assert_eq!(paid_orders(db).await, vec!["1".to_owned()]);
}

async fn with_payu_cards_still_go_to_the_card_gateway_and_shekels_never_to_payu(db: &TestDb) {
    let fake = FakePayU::start().await;
    let (app, _) = payu_app(db, &fake).await;
    // PayU and Blik are offered for orders in złoty only; the rest as the card gateway (here the
    // test gateway, which simulates PayPal too) takes them: in every currency.
    let r = app.get("/api/config").await;
    assert_eq!(r.body["paymentMethods"], json!([
        { "method": "card" }, { "method": "savedCard" }, { "method": "paypal" },
        { "method": "blik", "currencies": ["PLN"] }, { "method": "payu", "currencies": ["PLN"] },
    ]), "{}", r.text);
    let who = buyer(1);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    // A ticket order is in shekels: Blik and PayU are refused before any call.
    for method in ["blik", "payu"] {
        let r = app.call_as(&who, "GET", &format!(
            "/api/payment/form/he?presentationId={presentation}&total={}&recaptchaToken={CAPTCHA_TEST_TOKEN}&method={method}&numberOfPayments=1&saveCard=false",
            k.total), None).await;
        assert_eq!(r.status, StatusCode::PAYMENT_REQUIRED, "{method}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["failureCode"], "formValidation", "{}", r.text);
    }
    assert_eq!(fake.orders_made(), 0);
    // Refused before anything was recorded: no payment was made of them.
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM payments").await, vec!["0".to_owned()]);
    // A card goes to the card gateway (the test gateway's page), as without PayU.
    let form = app
        .payment_form(&who, "he", presentation, k.total, "method=card&numberOfPayments=1&saveCard=false")
        .await
        .ok();
    assert_eq!(form.payment_form_url, format!("/pay/{}?locale=he", form.payment_identifier));
    let r = pay_card(&app, &who, &form.payment_identifier, "4242+4242+4242+4242").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    app.commit(&who, presentation).await.ok();
    assert_eq!(fake.orders_made(), 0);
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 0, "PayU was never called");
}
}

// `kupa check-config --probe`: PayU gives the POS's client a token (nothing is kept, no payment
// store is needed), and a wrong secret is said to be refused without the secret in the words.
#[tokio::test]
async fn the_payu_probe_asks_payu_for_a_token() {
    let fake = FakePayU::start().await;
    assert_eq!(
        kupa_providers::payu::probe(&fake.config()).await.unwrap(),
        "an OAuth token was given"
    );
    let wrong = PayUConfig {
        client_secret: Secret::new("not-the-secret"),
        ..fake.config()
    };
    let e = kupa_providers::payu::probe(&wrong).await.unwrap_err();
    assert!(e.contains("OAuth HTTP 401"), "{e}");
    assert!(!e.contains("not-the-secret"), "{e}");
    assert_eq!(fake.state.tokens.load(Ordering::SeqCst), 1);
}
