//! Card payments through CardCom's hosted page (decision 0063), against a local fake of
//! CardCom's API v11 started on a loopback port, on SQLite and (when KUPA_TEST_POSTGRES_URL is
//! set) PostgreSQL: a whole order paid (page, notification checked with CardCom, commit), its
//! refunds, a repeated and a forged notification, and CardCom not answering.
//!
//! The fake follows CardCom's public OpenAPI document "CardCom API" version 11.0
//! (https://secure.cardcom.solutions/swagger; the copy read is `data/swagger.json` of
//! github.com/MosheRivkin/cardcom-ts-sdk):
//! - `POST /api/v11/LowProfile/Create`, JSON `CreateLowProfile` (required `TerminalNumber`,
//!   `ApiName`, `Amount`, `SuccessRedirectUrl`, `FailedRedirectUrl`, `WebHookUrl`; `Operation`,
//!   `ReturnValue`, `Language`, `ISOCoinId`, `AdvancedDefinition.MinNumOfPayments`/
//!   `MaxNumOfPayments`), answering `CreateLowProfileResponse` (`ResponseCode` 0 on success,
//!   `Description`, `LowProfileId`, `Url`).
//! - `POST /api/v11/LowProfile/GetLpResult`, JSON `GetLowProfileResult` (`TerminalNumber`,
//!   `ApiName`, `LowProfileId`), answering `LowProfileResult` (`ResponseCode`, `TerminalNumber`,
//!   `LowProfileId`, `TranzactionId`, `ReturnValue`, `Operation`, `TranzactionInfo`: a
//!   `TransactionInfo` with `ResponseCode` 0 when charged, `TranzactionId`, `Amount`, `CoinId`,
//!   `Last4CardDigitsString`, `NumberOfPayments`, `Brand`).
//! - `POST /api/v11/Transactions/RefundByTransactionId`, JSON `RefundByTransactionIdReq`
//!   (required `ApiName`, `ApiPassword`, `TransactionId`; `PartialSum`,
//!   `AllowMultipleRefunds`), answering `RefundByTransactionIdResp` (`ResponseCode`,
//!   `Description`, `NewTranzactionId`).
//! - The webhook: CardCom posts the deal's `LowProfileResult` to `WebHookUrl` when it ends.
//!
//! Saved cards by token, reconciliation and one refund at a time (decision 0066), from the same
//! OpenAPI document and CardCom's developer articles "Step 1+2 – Creating a payment page &
//! sending a request to retrieve transaction details" and "Step 3 – Token Charging ... (Do
//! Transaction)" (https://cardcomapi.zendesk.com/hc/he/articles/28448202810514 and
//! .../28452352778770):
//! - With `Operation` `ChargeAndCreateToken`, `LowProfileResult.TokenInfo` (`TokenInfo`: `Token`,
//!   `TokenExDate` yyyyMMdd, `CardYear`, `CardMonth`, `TokenApprovalNumber`).
//! - `POST /api/v11/Transactions/Transaction`, JSON `TransactionReq` (required `TerminalNumber`,
//!   `ApiName`, `Amount`; `Token`, `CardExpirationMMYY` "MMYY", `NumOfPayments`, `ISOCoinId`,
//!   `ExternalUniqTranId`: the same id again answers error 608, or with
//!   `ExternalUniqUniqTranIdResponse` true the first transaction's answer without charging),
//!   answering `TransactionInfo` (`ResponseCode` 0 when charged, `TranzactionId`,
//!   `TerminalNumber`, `Amount`, `CoinId`, `Last4CardDigitsString`, `FirstCardDigits`).
//! - `POST /api/v11/Transactions/GetTransactionByExternalUniqTran`, JSON
//!   `GetExternalUniqTranIdStatusReq` (`TerminalNumber`, `ApiName`, `ExternalUniqTranId`),
//!   answering that `TransactionInfo`.
//! - `RefundByTransactionIdReq` has no idempotency field (hence Kupa's claim of the key).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Path, State};
use axum::http::{Request, StatusCode};
use axum::routing::post;
use kupa_api::ApiSettings;
use kupa_app::orders::{GatewayRefund, PaymentGateway};
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, PaymentDeals};
use kupa_app::saved_cards::{SavedCard, SavedCardStore};
use kupa_domain::money::Money;
use kupa_providers::cardcom::{CardCom, CardComConfig};
use kupa_providers::delivery::secret::Secret;
use kupa_store::testing::TestDb;
use kupa_wiring::ProviderRoutes;
use serde_json::{Value, json};

use crate::common::paying::*;
use crate::common::*;

const TERMINAL: i64 = 1000;
const API_NAME: &str = "kupa-cardcom-api-name";
const API_PASSWORD: &str = "kupa-cardcom-api-password";

/// A page CardCom opened, and the deal made on it once the buyer paid.
struct Page {
    create: Value,
    deal: Option<(i64, i64)>, // (TranzactionId, ResponseCode)
}

#[derive(Default)]
struct FakeState {
    pages: Mutex<HashMap<String, Page>>,
    refunds: Mutex<Vec<Value>>,
    next: AtomicI64,
    /// GetLpResult answers too late (CardCom down).
    slow: AtomicBool,
    /// Token charges by ExternalUniqTranId: the TransactionReq and CardCom's answer.
    charges: Mutex<Vec<(Value, Value)>>,
    /// How many times Transactions/Transaction was called.
    charge_calls: AtomicI64,
    /// A token charge is made, but its answer comes too late.
    slow_charge: AtomicBool,
    /// Tokens whose card the issuer declines.
    declining: Mutex<Vec<String>>,
    /// Refunds take a while (two can be in flight at once).
    slow_refund: AtomicBool,
}

/// The token CardCom makes of the card paid on a ChargeAndCreateToken page with deal `deal`.
fn token_of(deal: i64) -> String {
    format!("4cf8e168-261e-4613-8d20-{deal:012}")
}

struct FakeCardCom {
    url: String,
    state: Arc<FakeState>,
}

fn refused(code: i64, description: &str) -> axum::Json<Value> {
    axum::Json(json!({ "ResponseCode": code, "Description": description }))
}

async fn create(State(st): State<Arc<FakeState>>, body: axum::Json<Value>) -> axum::Json<Value> {
    let b = body.0;
    if b["TerminalNumber"] != TERMINAL || b["ApiName"] != API_NAME {
        return refused(1, "Invalid terminal or ApiName");
    }
    for field in [
        "Amount",
        "SuccessRedirectUrl",
        "FailedRedirectUrl",
        "WebHookUrl",
    ] {
        if b[field].is_null() {
            return refused(2, &format!("{field} is required"));
        }
    }
    let n = st.next.fetch_add(1, Ordering::SeqCst);
    let id = format!("5e0a1b2c-0000-4000-8000-{n:012}");
    st.pages.lock().unwrap().insert(
        id.clone(),
        Page {
            create: b,
            deal: None,
        },
    );
    axum::Json(json!({
        "ResponseCode": 0, "Description": "OK", "LowProfileId": id,
        "Url": format!("https://secure.cardcom.solutions/EA/LPC6/{TERMINAL}/{id}"),
    }))
}

fn lp_result(id: &str, page: &Page) -> Value {
    let mut r = json!({
        "ResponseCode": 0, "Description": "", "TerminalNumber": TERMINAL, "LowProfileId": id,
        "ReturnValue": page.create["ReturnValue"], "Operation": page.create["Operation"],
    });
    if let Some((deal, code)) = page.deal {
        r["TranzactionId"] = json!(deal);
        r["TranzactionInfo"] = json!({
            "ResponseCode": code, "TranzactionId": deal, "TerminalNumber": TERMINAL,
            "Amount": page.create["Amount"], "CoinId": 1, "Last4CardDigitsString": "4580",
            "Last4CardDigits": 4580, "FirstCardDigits": 458045,
            "NumberOfPayments": page.create["AdvancedDefinition"]["MaxNumOfPayments"],
            "Brand": "Visa", "ApprovalNumber": "0012345", "CardMonth": 10, "CardYear": 2033,
        });
        if code == 0 && page.create["Operation"] == "ChargeAndCreateToken" {
            r["TokenInfo"] = json!({
                "Token": token_of(deal), "TokenExDate": "20331101", "CardYear": 2033,
                "CardMonth": 10, "TokenApprovalNumber": "0012345",
            });
        }
    }
    r
}

async fn transaction(
    State(st): State<Arc<FakeState>>,
    body: axum::Json<Value>,
) -> axum::Json<Value> {
    st.charge_calls.fetch_add(1, Ordering::SeqCst);
    let b = body.0;
    if b["TerminalNumber"] != TERMINAL || b["ApiName"] != API_NAME || b["Amount"].is_null() {
        return refused(1, "Invalid terminal, ApiName or Amount");
    }
    let token = b["Token"].as_str().unwrap_or_default().to_owned();
    let issued = st.pages.lock().unwrap().values().any(|p| {
        p.deal.is_some_and(|(d, c)| c == 0 && token_of(d) == token)
            && p.create["Operation"] == "ChargeAndCreateToken"
    });
    if !issued || b["CardExpirationMMYY"] != "1033" {
        return refused(510, "Invalid token or expiry");
    }
    let answer = {
        let mut charges = st.charges.lock().unwrap();
        if let Some((_, first)) = charges
            .iter()
            .find(|(req, _)| req["ExternalUniqTranId"] == b["ExternalUniqTranId"])
        {
            if b["ExternalUniqUniqTranIdResponse"] == true {
                return axum::Json(first.clone());
            }
            return refused(608, "ExternalUniqTranId already used");
        }
        let deal = 88_000 + charges.len() as i64;
        let code = if st.declining.lock().unwrap().contains(&token) {
            33
        } else {
            0
        };
        let answer = json!({
            "ResponseCode": code, "Description": if code == 0 { "OK" } else { "Declined" },
            "TranzactionId": deal, "TerminalNumber": TERMINAL, "Amount": b["Amount"],
            "CoinId": 1, "Last4CardDigitsString": "4580", "Last4CardDigits": 4580,
            "FirstCardDigits": 458045, "NumberOfPayments": b["NumOfPayments"], "Brand": "Visa",
            "CardMonth": 10, "CardYear": 2033,
        });
        charges.push((b, answer.clone()));
        answer
    };
    if st.slow_charge.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    axum::Json(answer)
}

async fn by_unique_id(
    State(st): State<Arc<FakeState>>,
    body: axum::Json<Value>,
) -> axum::Json<Value> {
    let b = body.0;
    if b["TerminalNumber"] != TERMINAL || b["ApiName"] != API_NAME {
        return refused(1, "Invalid terminal or ApiName");
    }
    let charges = st.charges.lock().unwrap();
    match charges
        .iter()
        .find(|(req, _)| req["ExternalUniqTranId"] == b["ExternalUniqTranId"])
    {
        Some((_, answer)) => axum::Json(answer.clone()),
        None => refused(5100, "Transaction not found"),
    }
}

async fn get_lp_result(
    State(st): State<Arc<FakeState>>,
    body: axum::Json<Value>,
) -> axum::Json<Value> {
    if st.slow.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let b = body.0;
    if b["TerminalNumber"] != TERMINAL || b["ApiName"] != API_NAME {
        return refused(1, "Invalid terminal or ApiName");
    }
    let pages = st.pages.lock().unwrap();
    match b["LowProfileId"]
        .as_str()
        .and_then(|id| pages.get(id).map(|p| (id, p)))
    {
        Some((id, page)) => axum::Json(lp_result(id, page)),
        None => refused(5033, "LowProfile not found"),
    }
}

async fn refund(State(st): State<Arc<FakeState>>, body: axum::Json<Value>) -> axum::Json<Value> {
    let b = body.0;
    if b["ApiName"] != API_NAME || b["ApiPassword"] != API_PASSWORD {
        return refused(1, "Invalid ApiName or ApiPassword");
    }
    let known = st
        .pages
        .lock()
        .unwrap()
        .values()
        .any(|p| p.deal.is_some_and(|(d, _)| json!(d) == b["TransactionId"]))
        || st
            .charges
            .lock()
            .unwrap()
            .iter()
            .any(|(_, a)| a["TranzactionId"] == b["TransactionId"]);
    if !known {
        return refused(3, "Transaction not found");
    }
    // Made first, then answered (slowly when asked): a caller that gives up has still refunded.
    let made = {
        let mut refunds = st.refunds.lock().unwrap();
        refunds.push(b);
        refunds.len()
    };
    if st.slow_refund.load(Ordering::SeqCst) {
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    axum::Json(json!({ "ResponseCode": 0, "Description": "OK", "NewTranzactionId": 900 + made }))
}

impl FakeCardCom {
    async fn start() -> FakeCardCom {
        let state = Arc::new(FakeState::default());
        let app = Router::new()
            .route("/api/v11/LowProfile/Create", post(create))
            .route("/api/v11/LowProfile/GetLpResult", post(get_lp_result))
            .route("/api/v11/Transactions/RefundByTransactionId", post(refund))
            .route("/api/v11/Transactions/Transaction", post(transaction))
            .route(
                "/api/v11/Transactions/GetTransactionByExternalUniqTran",
                post(by_unique_id),
            )
            .route(
                "/{*rest}",
                post(|Path(_): Path<String>| async { StatusCode::NOT_FOUND }),
            )
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeCardCom { url, state }
    }

    /// The page opened for `payment`: its LowProfileId and what Kupa asked for.
    fn page_of(&self, payment: &str) -> (String, Value) {
        let pages = self.state.pages.lock().unwrap();
        let (id, page) = pages
            .iter()
            .find(|(_, p)| p.create["ReturnValue"] == payment)
            .expect("a page for the payment");
        (id.clone(), page.create.clone())
    }

    /// The buyer pays on the page (`code` 0: approved; else the issuer's refusal).
    fn pay(&self, low_profile_id: &str, deal: i64, code: i64) {
        self.state
            .pages
            .lock()
            .unwrap()
            .get_mut(low_profile_id)
            .unwrap()
            .deal = Some((deal, code));
    }

    fn config(&self) -> CardComConfig {
        CardComConfig {
            terminal: TERMINAL,
            api_name: Secret::new(API_NAME),
            api_password: Some(Secret::new(API_PASSWORD)),
            api_url: self.url.clone(),
            public_url: "https://tickets.example".into(),
            timeout: Duration::from_millis(500),
        }
    }
}

/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";
const DANA_ID: i64 = 1;

/// A card of Dana's saved through CardCom (deal `deal`'s token), put straight into the store.
async fn saved_with_cardcom(db: &TestDb, fake: &FakeCardCom, token_byte: u8, deal: i64) -> String {
    let card = format!("{token_byte:02x}").repeat(16);
    db.db
        .insert_saved_card(&SavedCard {
            token: card.clone(),
            customer_id: DANA_ID,
            brand: "visa".into(),
            bin: Some("458045".into()),
            last4: "4580".into(),
            expiry_year: 2033,
            expiry_month: 10,
            created_at_ms: 0,
            deleted_at_ms: None,
        })
        .await
        .unwrap();
    db.db
        .keep_card_token(&card, "cardcom", &token_of(deal), 0)
        .await
        .unwrap();
    // CardCom made that token on a ChargeAndCreateToken page paid with the deal.
    fake.state.pages.lock().unwrap().insert(
        format!("lp-token-{deal}"),
        Page {
            create: json!({ "Operation": "ChargeAndCreateToken", "ReturnValue": "earlier" }),
            deal: Some((deal, 0)),
        },
    );
    card
}

/// A node of `db` whose card payments go through CardCom at `fake` (the demo chain loaded).
async fn cardcom_app(db: &TestDb, fake: &FakeCardCom) -> (TestApp, Arc<CardCom>) {
    let settings = ApiSettings {
        payment_page_origin: Some(fake.config().page_origin()),
        ..test_settings()
    };
    TestApp::with_provider(
        db,
        settings,
        DEMO,
        |p, db| p.with_cardcom(db, Some(fake.config())),
        ProviderRoutes::cardcom,
    )
    .await
}

/// CardCom's webhook post: the deal's LowProfileResult, as CardCom sends it.
async fn notify(app: &TestApp, body: Value) -> Reply {
    app.send(
        Request::post("/pay/cardcom/notify")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

/// A priced cart of `who` and the CardCom page opened for it with `installments`.
async fn opened(
    app: &TestApp,
    fake: &FakeCardCom,
    who: &str,
    installments: i64,
) -> (Paying, String, String, Value) {
    let row = if who == buyer(1) { 0 } else { 1 };
    let k = priced_cart_at(app, who, row, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    let query = format!("method=card&numberOfPayments={installments}&saveCard=false");
    let form = app
        .payment_form(who, "he", presentation, k.total, &query)
        .await
        .ok();
    let (lp, create) = fake.page_of(&form.payment_identifier);
    assert_eq!(
        form.payment_form_url,
        format!("https://secure.cardcom.solutions/EA/LPC6/{TERMINAL}/{lp}")
    );
    (k, form.payment_identifier, lp, create)
}

api_tests! {
async fn with_cardcom_alone_only_cards_are_offered_and_other_methods_refused_before_any_call(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let r = app.get("/api/config").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["paymentMethods"], json!([{ "method": "card" }, { "method": "savedCard" }]), "{}", r.text);
    let who = buyer(1);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    for method in ["paypal", "blik", "payu"] {
        let r = app.call_as(&who, "GET", &format!(
            "/api/payment/form/he?presentationId={presentation}&total={}&recaptchaToken={CAPTCHA_TEST_TOKEN}&method={method}&numberOfPayments=1&saveCard=false",
            k.total), None).await;
        assert_eq!(r.status, StatusCode::PAYMENT_REQUIRED, "{method}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["failureCode"], "formValidation", "{}", r.text);
    }
    assert!(fake.state.pages.lock().unwrap().is_empty(), "CardCom was never asked for a page");
    // Refused before anything was recorded: no payment was made of them.
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM payments").await, vec!["0".to_owned()]);
    // A card still opens CardCom's page.
    let form = app
        .payment_form(&who, "he", presentation, k.total, "method=card&numberOfPayments=1&saveCard=false")
        .await
        .ok();
    let (lp, _) = fake.page_of(&form.payment_identifier);
    assert!(form.payment_form_url.ends_with(&lp), "{}", form.payment_form_url);
}

async fn an_order_paid_on_cardcoms_page_is_committed_once_cardcom_confirms_it(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (k, payment, lp, create) = opened(&app, &fake, &who, 3).await;
    // What Kupa asked CardCom for: the total in shekels, three payments, its payment's id.
    assert_eq!(create["Amount"].as_f64().unwrap(), k.total as f64 / 100.0);
    assert_eq!(create["AdvancedDefinition"]["MinNumOfPayments"], 3);
    assert_eq!(create["AdvancedDefinition"]["MaxNumOfPayments"], 3);
    assert_eq!(create["Operation"], "ChargeOnly");
    assert_eq!(create["ISOCoinId"], 1);
    assert_eq!(create["WebHookUrl"], "https://tickets.example/pay/cardcom/notify");
    // The shop's pages may frame CardCom's (the payment dialog does).
    let page = app.get("/").await;
    let csp = page.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains(&format!("frame-src 'self' {};", fake.url)), "{csp}");

    // Before CardCom says so, nothing is paid: the commit refuses.
    let presentation = k.presentation["id"].as_i64().unwrap();
    assert!(!app.commit(&who, presentation).await.status.is_success());

    fake.pay(&lp, 77_001, 0);
    let r = notify(&app, json!({ "LowProfileId": lp, "ResponseCode": 0, "ReturnValue": payment })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let committed = app.commit(&who, presentation).await.ok();
    assert!(!committed.reservation_identifier.is_empty());

    // CardCom posts again: harmless, still one reservation.
    let r = notify(&app, json!({ "LowProfileId": lp, "ResponseCode": 0, "ReturnValue": payment })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let reservations = rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'").await;
    assert_eq!(reservations, vec!["1".to_owned()]);
}

async fn a_lost_notification_is_made_good_by_asking_cardcom_when_the_buyer_returns(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (k, payment, lp, _) = opened(&app, &fake, &who, 2).await;
    // The buyer is on the page: nothing to record yet.
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "created", "{}", s.text);
    // The buyer pays; CardCom's post never arrives. The returning page's status read asks
    // CardCom (the browser's word is not taken), and the order is paid.
    fake.pay(&lp, 77_005, 0);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    app.commit(&who, presentation).await.ok();
    // The post comes late after all: nothing more happens.
    assert_eq!(notify(&app, json!({ "LowProfileId": lp })).await.status, StatusCode::OK);
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'").await, vec!["1".to_owned()]);
}

async fn a_forged_notification_is_refused_and_pays_nothing(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (k, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    // A LowProfileId CardCom never issued, however the post dresses it up.
    let r = notify(&app, json!({
        "LowProfileId": "00000000-0000-4000-8000-000000000000", "ResponseCode": 0,
        "ReturnValue": payment, "TranzactionInfo": { "ResponseCode": 0, "Amount": 1 },
    })).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    // The real page, but the buyer has not paid on it: CardCom shows no deal.
    let r = notify(&app, json!({ "LowProfileId": lp, "ResponseCode": 0, "ReturnValue": payment })).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    // Not even a LowProfileId.
    let r = notify(&app, json!({ "ReturnValue": payment })).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let s = status(&app, &who, &payment).await;
    assert_ne!(s.body["status"], "captured", "{}", s.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    assert!(!app.commit(&who, presentation).await.status.is_success());
}

async fn a_declined_card_is_a_payment_error_and_the_order_stays_payable(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (_, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    fake.pay(&lp, 77_002, 33);
    let r = notify(&app, json!({ "LowProfileId": lp })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let s = status(&app, &who, &payment).await;
    assert_eq!(s.body["status"], "declined", "{}", s.text);
    assert_eq!(s.body["failureCode"], "paymentError", "{}", s.text);
}

async fn cardcom_not_answering_records_nothing_and_its_next_post_pays_once(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (k, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    fake.pay(&lp, 77_003, 0);
    fake.state.slow.store(true, Ordering::SeqCst);
    let r = notify(&app, json!({ "LowProfileId": lp })).await;
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "CardCom is told to post again");
    let s = status(&app, &who, &payment).await;
    assert_ne!(s.body["status"], "captured", "{}", s.text);
    // CardCom posts again once it answers: the order is paid, once.
    fake.state.slow.store(false, Ordering::SeqCst);
    let r = notify(&app, json!({ "LowProfileId": lp })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let presentation = k.presentation["id"].as_i64().unwrap();
    app.commit(&who, presentation).await.ok();
    let r = notify(&app, json!({ "LowProfileId": lp })).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'").await, vec!["1".to_owned()]);
}

async fn a_refund_names_the_deal_and_a_key_asked_twice_refunds_once(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, cardcom) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (_, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    fake.pay(&lp, 77_004, 0);
    assert_eq!(notify(&app, json!({ "LowProfileId": lp })).await.status, StatusCode::OK);
    let paid = app.state.orders.payment(&payment).await.unwrap();

    // Part of it, asked twice: one refund of 10.00 at CardCom.
    let part = GatewayRefund { key: "cancel-1".into(), amount: Money(1_000) };
    cardcom.refund(&paid, &part).await.unwrap();
    cardcom.refund(&paid, &part).await.unwrap();
    // The rest, whole-deal style once the amount is all of it.
    let rest = GatewayRefund { key: format!("{payment}:void"), amount: paid.amount };
    cardcom.refund(&paid, &rest).await.unwrap();
    let refunds = fake.state.refunds.lock().unwrap().clone();
    assert_eq!(refunds.len(), 2, "{refunds:?}");
    assert_eq!(refunds[0]["TransactionId"], 77_004);
    assert_eq!(refunds[0]["PartialSum"].as_f64(), Some(10.0));
    assert_eq!(refunds[0]["AllowMultipleRefunds"], true);
    assert!(refunds[1].get("PartialSum").is_none());
    // A payment CardCom never confirmed has no deal to refund.
    let (_, other, _, _) = opened(&app, &fake, &buyer(2), 1).await;
    let unpaid = app.state.orders.payment(&other).await.unwrap();
    assert!(cardcom.refund(&unpaid, &part).await.is_err());
}

async fn a_card_saved_through_cardcom_pays_a_second_order_by_token_without_a_page(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    let form = app.payment_form(&who, "he", presentation, k.total, "method=card&saveCard=true").await.ok();
    let (lp, create) = fake.page_of(&form.payment_identifier);
    assert_eq!(create["Operation"], "ChargeAndCreateToken");
    fake.pay(&lp, 77_010, 0);
    assert_eq!(notify(&app, json!({ "LowProfileId": lp })).await.status, StatusCode::OK);
    assert_eq!(status(&app, &who, &form.payment_identifier).await.body["status"], "captured");

    // The card is saved for Dana; CardCom's token is kept beside it and never answered.
    let r = app.call_as(&who, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let cards = r.body["savedCards"].as_array().unwrap().clone();
    assert_eq!(cards.len(), 1, "{}", r.text);
    assert_eq!((cards[0]["last4"].as_str(), cards[0]["expiryMonth"].as_i64(), cards[0]["expiryYear"].as_i64()), (Some("4580"), Some(10), Some(2033)));
    assert!(!r.text.contains(&token_of(77_010)), "{}", r.text);
    let card = cards[0]["token"].as_str().unwrap().to_owned();
    assert_eq!(rows(db, "SELECT provider || '|' || provider_token FROM saved_card_tokens").await, vec![format!("cardcom|{}", token_of(77_010))]);

    // A second order, paid with the saved card: charged by token, in three payments, no page.
    let pages_before = fake.state.pages.lock().unwrap().len();
    let k2 = priced_cart_at(&app, &who, 1, None, "he").await;
    let p2 = k2.presentation["id"].as_i64().unwrap();
    let query = format!("method=savedCard&savedCardToken={card}&numberOfPayments=3");
    let form2 = app.payment_form(&who, "he", p2, k2.total, &query).await.ok();
    assert!(form2.paid, "charged at once");
    assert!(form2.payment_form_url.contains(&format!("paymentId={}", form2.payment_identifier)), "{}", form2.payment_form_url);
    assert_eq!(fake.state.pages.lock().unwrap().len(), pages_before, "no page was opened");
    let charges = fake.state.charges.lock().unwrap().clone();
    assert_eq!(charges.len(), 1);
    let req = &charges[0].0;
    assert_eq!(req["Token"].as_str(), Some(token_of(77_010).as_str()));
    assert_eq!(req["CardExpirationMMYY"], "1033");
    assert_eq!(req["NumOfPayments"], 3);
    assert_eq!(req["ExternalUniqTranId"].as_str(), Some(form2.payment_identifier.as_str()));
    assert_eq!(req["Amount"].as_f64().unwrap(), k2.total as f64 / 100.0);
    assert_eq!(req["ISOCoinId"], 1);
    let s = status(&app, &who, &form2.payment_identifier).await;
    assert_eq!((s.body["status"].as_str(), s.body["method"].as_str()), (Some("captured"), Some("savedCard")), "{}", s.text);
    app.commit(&who, p2).await.ok();

    // A card saved under another gateway (no CardCom token) is refused, and so is a stranger's.
    let k3 = priced_cart_at(&app, &who, 2, None, "he").await;
    let p3 = k3.presentation["id"].as_i64().unwrap();
    let other = "ab".repeat(16);
    db.db.insert_saved_card(&SavedCard {
        token: other.clone(), customer_id: DANA_ID, brand: "visa".into(), bin: Some("424242".into()),
        last4: "4242".into(), expiry_year: 2033, expiry_month: 12, created_at_ms: 0, deleted_at_ms: None,
    }).await.unwrap();
    let r = app.payment_form(&who, "he", p3, k3.total, &format!("method=savedCard&savedCardToken={other}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYMENT_REQUIRED, "paymentError"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["failureCode"], "formValidation", "{}", r.text);
    let r = app.payment_form(&who, "he", p3, k3.total, &format!("method=savedCard&savedCardToken={}", "cd".repeat(16))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    assert_eq!(fake.state.charge_calls.load(Ordering::SeqCst), 1, "refused before any charge");
}

async fn a_declined_token_charge_is_a_payment_error(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let card = saved_with_cardcom(db, &fake, 0x5a, 66_001).await;
    fake.state.declining.lock().unwrap().push(token_of(66_001));
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    let r = app.payment_form(&who, "he", presentation, k.total, &format!("method=savedCard&savedCardToken={card}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYMENT_REQUIRED, "paymentError"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["failureCode"], "paymentError", "{}", r.text);
    let paid = rows(db, "SELECT status || '|' || COALESCE(failure_code, '') FROM payments").await;
    assert_eq!(paid, vec!["declined|paymentError".to_owned()]);
    assert!(!app.commit(&who, presentation).await.status.is_success());
}

async fn a_token_charge_cardcom_does_not_answer_is_settled_once_by_asking(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = log_in(&app, &buyer(1), DANA).await;
    let card = saved_with_cardcom(db, &fake, 0x5b, 66_002).await;
    fake.state.slow_charge.store(true, Ordering::SeqCst);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let presentation = k.presentation["id"].as_i64().unwrap();
    let form = app.payment_form(&who, "he", presentation, k.total, &format!("method=savedCard&savedCardToken={card}")).await.ok();
    // CardCom charged, but its answer was lost: the payment stays open, nothing is recorded.
    assert!(!form.paid);
    assert_eq!(rows(db, "SELECT status FROM payments").await, vec!["created".to_owned()]);
    // The buyer's status read asks CardCom by the payment's id: paid, once.
    fake.state.slow_charge.store(false, Ordering::SeqCst);
    let s = status(&app, &who, &form.payment_identifier).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    let s = status(&app, &who, &form.payment_identifier).await;
    assert_eq!(s.body["status"], "captured", "{}", s.text);
    app.commit(&who, presentation).await.ok();
    assert_eq!(fake.state.charge_calls.load(Ordering::SeqCst), 1, "never charged again");
    assert_eq!(fake.state.charges.lock().unwrap().len(), 1);
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM orders WHERE status = 'paid'").await, vec!["1".to_owned()]);
    // Its deal is the one a refund names.
    assert_eq!(rows(db, "SELECT deal_id FROM payment_deals WHERE card_token IS NOT NULL").await, vec!["88000".to_owned()]);
}

async fn the_reconciliation_settles_a_paid_deal_whose_post_was_lost_and_nobody_came_back(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, cardcom) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (_, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    // The buyer pays on CardCom's page, then closes the tab; CardCom's post is lost.
    fake.pay(&lp, 77_020, 0);
    assert_eq!(cardcom.reconcile(&app.state.orders, 10).await.unwrap(), 0, "too young: left to its buyer");
    app.clock.advance_ms(kupa_providers::cardcom::RECONCILE_MIN_AGE_MS + 1_000);
    assert_eq!(cardcom.reconcile(&app.state.orders, 10).await.unwrap(), 1);
    let paid = rows(db, "SELECT p.status || '|' || o.status FROM payments p JOIN orders o ON o.id = p.order_id").await;
    assert_eq!(paid, vec!["captured|paid".to_owned()]);
    // Settled: the next pass (on any node) has nothing to ask.
    assert_eq!(cardcom.reconcile(&app.state.orders, 10).await.unwrap(), 0);
    // An open payment is asked once per lease, however many passes run.
    let (_, other, _, _) = opened(&app, &fake, &buyer(2), 1).await;
    app.clock.advance_ms(kupa_providers::cardcom::RECONCILE_MIN_AGE_MS + 1_000);
    assert_eq!(cardcom.reconcile(&app.state.orders, 10).await.unwrap(), 1);
    assert_eq!(cardcom.reconcile(&app.state.orders, 10).await.unwrap(), 0, "leased");
    assert_eq!(status(&app, &buyer(2), &other).await.body["status"], "created");
    let _ = payment;
}

async fn two_concurrent_refunds_of_one_key_reach_cardcom_once(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, cardcom) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (_, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    fake.pay(&lp, 77_030, 0);
    assert_eq!(notify(&app, json!({ "LowProfileId": lp })).await.status, StatusCode::OK);
    let paid = app.state.orders.payment(&payment).await.unwrap();
    fake.state.slow_refund.store(true, Ordering::SeqCst);
    let key = GatewayRefund { key: "cancel-7".into(), amount: Money(1_000) };
    let (a, b) = tokio::join!(cardcom.refund(&paid, &key), cardcom.refund(&paid, &key));
    assert!(a.is_ok() != b.is_ok(), "one made it, the other was told it is being made: {a:?} {b:?}");
    assert_eq!(fake.state.refunds.lock().unwrap().len(), 1);
    // Asked again once it is made: done, nothing more at CardCom.
    cardcom.refund(&paid, &key).await.unwrap();
    assert_eq!(fake.state.refunds.lock().unwrap().len(), 1);
}

// CardCom's refund call has no idempotency field: a refund whose answer was lost (it did reach
// CardCom) is never called again by Kupa, however long after; it waits for a person (decision
// 0066, docs/operations.md).
async fn a_refund_whose_answer_was_lost_is_never_made_twice(db: &TestDb) {
    let fake = FakeCardCom::start().await;
    let (app, _) = cardcom_app(db, &fake).await;
    let who = buyer(1);
    let (_, payment, lp, _) = opened(&app, &fake, &who, 1).await;
    fake.pay(&lp, 77_030, 0);
    assert_eq!(notify(&app, json!({ "LowProfileId": lp })).await.status, StatusCode::OK);
    let paid = app.state.orders.payment(&payment).await.unwrap();
    // An adapter that gives up before CardCom answers: the refund is made there, its answer lost.
    let impatient = CardCom::new(
        CardComConfig { timeout: Duration::from_millis(40), ..fake.config() },
        Arc::new(db.db.clone()),
        app.clock.clone(),
    )
    .unwrap();
    fake.state.slow_refund.store(true, Ordering::SeqCst);
    let key = GatewayRefund { key: "cancel-9".into(), amount: Money(1_000) };
    assert!(impatient.refund(&paid, &key).await.is_err());
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.state.refunds.lock().unwrap().len(), 1, "CardCom made it");
    // Hours later, asked again (the refund sweeper): not called again.
    fake.state.slow_refund.store(false, Ordering::SeqCst);
    app.clock.advance_ms(6 * 60 * 60 * 1000);
    assert!(impatient.refund(&paid, &key).await.is_err(), "still waits for a person");
    assert_eq!(fake.state.refunds.lock().unwrap().len(), 1, "never refunded twice");
}
}
