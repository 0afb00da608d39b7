//! PayPal through its REST Orders API v2 (decision 0065), as PayPal's public reference describes
//! it (developer.paypal.com: "Orders v2", "Payments v2", "Webhooks: verify-webhook-signature",
//! "Authentication", "Idempotency"; the machine-readable copy is github.com/paypal/
//! paypal-rest-api-specifications, `openapi/checkout_orders_v2.json`, `payments_payment_v2.json`,
//! `notifications_webhooks_v1.json`):
//! - `POST /v1/oauth2/token` (basic auth client id:secret, `grant_type=client_credentials`) gives
//!   a bearer token, kept until shortly before its `expires_in`.
//! - `POST /v2/checkout/orders` (`intent: CAPTURE`, one purchase unit naming our payment in
//!   `reference_id`, `custom_id` and `invoice_id`, `amount {currency_code, value}` as a decimal
//!   string, `payment_source.paypal.experience_context` with the buyer's way back) opens the
//!   order; its `payer-action` link is where the buyer approves ([`PaymentGateway::open_page`]).
//! - The buyer's return is never believed: it only makes Kupa ask `GET /v2/checkout/orders/{id}`
//!   ([`PaymentGateway::ask_provider`]); an `APPROVED` order is captured
//!   (`POST /v2/checkout/orders/{id}/capture`), a `COMPLETED` one read. The webhook
//!   ([`webhook`]) is believed only once PayPal's `verify-webhook-signature` answers `SUCCESS`.
//! - `POST /v2/payments/captures/{capture_id}/refund` gives money back.
//!
//! Every call that moves money carries `PayPal-Request-Id` (PayPal's idempotency key): the order
//! our payment id, its capture `{payment}-capture`, a refund its key. A call whose answer was lost
//! and is made again is then answered with the first call's result, never done twice.

pub mod webhook;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentStatus, PaymentUpdate,
    payment_codes,
};
use kupa_app::ports::{Clock, MethodOffer, PaymentDeals};
use reqwest::Method;
use serde_json::{Value, json};

use crate::delivery::secret::Secret;
use crate::http;

/// PayPal's live API.
pub const LIVE_URL: &str = "https://api-m.paypal.com";
/// PayPal's sandbox (its test mode): sandbox apps' keys work only here.
pub const SANDBOX_URL: &str = "https://api-m.sandbox.paypal.com";
/// Where PayPal posts webhook events, below the site's public address.
pub const WEBHOOK_PATH: &str = "/pay/paypal/webhook";
/// What the payments keep as their provider (`payment_deals.provider`).
const PROVIDER: &str = "paypal";

/// The currencies PayPal's REST API takes ("Currency codes" page) that have two decimals, as
/// Kupa's minor units do. HUF, JPY and TWD (no decimals at PayPal) are not offered.
const CURRENCIES: &[&str] = &[
    "AUD", "BRL", "CAD", "CNY", "CZK", "DKK", "EUR", "HKD", "ILS", "MYR", "MXN", "NZD", "NOK",
    "PHP", "PLN", "GBP", "SGD", "SEK", "CHF", "THB", "USD",
];

#[derive(Debug, Clone)]
pub struct PayPalConfig {
    pub client_id: String,
    pub client_secret: Secret,
    /// The id PayPal gave the webhook subscribed to `{public_url}/pay/paypal/webhook`.
    pub webhook_id: String,
    pub base_url: String,
    /// The shop's public address (KUPA_PUBLIC_URL): the buyer's way back.
    pub public_url: String,
    pub timeout: Duration,
}

impl PayPalConfig {
    /// PayPal when `KUPA_PAYPAL_CLIENT_ID` is set (then the secret and the webhook id must be
    /// too); None otherwise. `KUPA_PAYPAL_BASE_URL` names the API (default live);
    /// `KUPA_PAYPAL_SANDBOX=true` (the spec's PayPal test-mode flag) means the sandbox's.
    pub fn from_lookup(
        lookup: &dyn Fn(&str) -> Option<String>,
        public_url: &str,
    ) -> Result<Option<PayPalConfig>, String> {
        let Some(client_id) = http::setting(lookup, "KUPA_PAYPAL_CLIENT_ID") else {
            return Ok(None);
        };
        let client_secret = http::required_secret(lookup, "KUPA_PAYPAL_CLIENT_SECRET")?;
        let webhook_id = lookup("KUPA_PAYPAL_WEBHOOK_ID")
            .map(|v| v.trim().to_owned())
            .filter(|v| !v.is_empty() && v.bytes().all(|b| b.is_ascii_alphanumeric()))
            .ok_or("KUPA_PAYPAL_WEBHOOK_ID must be the id PayPal gave the shop's webhook")?;
        let sandbox = match lookup("KUPA_PAYPAL_SANDBOX").as_deref().map(str::trim) {
            None | Some("") | Some("false") | Some("0") => false,
            Some("true") | Some("1") => true,
            Some(other) => {
                return Err(format!(
                    "KUPA_PAYPAL_SANDBOX: {other:?} is not true or false"
                ));
            }
        };
        let base_url = match lookup("KUPA_PAYPAL_BASE_URL").filter(|u| !u.trim().is_empty()) {
            Some(url) => url.trim().trim_end_matches('/').to_owned(),
            None if sandbox => SANDBOX_URL.into(),
            None => LIVE_URL.into(),
        };
        let public_url = http::public_url("PayPal", public_url)?;
        Ok(Some(PayPalConfig {
            client_id,
            client_secret,
            webhook_id,
            base_url,
            public_url,
            timeout: http::PAYMENT_TIMEOUT,
        }))
    }

    /// Whether the keys are the sandbox's (PayPal's test mode).
    pub fn is_sandbox(&self) -> bool {
        self.base_url.contains(".sandbox.")
    }

    pub fn summary(&self) -> String {
        format!(
            "PayPal at {}{}, webhook {}",
            self.base_url,
            if self.is_sandbox() {
                " (SANDBOX: test mode, no real money)"
            } else {
                ""
            },
            self.webhook_id
        )
    }
}

/// Why a call to PayPal came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: `errorResponse`, with the HTTP status and PayPal's first
    /// `details[].issue` (or its `name`).
    Refused(u16, String),
}

impl From<http::NoAnswer> for CallError {
    fn from(e: http::NoAnswer) -> CallError {
        CallError::NoResponse(e.to_string())
    }
}

/// Why PayPal's word on a payment was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettleError {
    /// PayPal could not be asked, or refused the call: ask again later.
    Call(CallError),
    /// PayPal's answer is not this payment's (another order, amount or currency).
    Mismatch(String),
}

impl From<CallError> for SettleError {
    fn from(e: CallError) -> SettleError {
        SettleError::Call(e)
    }
}

/// Minor units as PayPal's `value`: "12.34" (two decimals, exact).
pub fn value_of(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    format!("{sign}{}.{:02}", m / 100, m % 100)
}

/// PayPal's `value` back in minor units, exactly: "12.34", "12.3", "12" (no more than two
/// decimals); None for anything else.
pub fn minor_of(value: &str) -> Option<i64> {
    let (whole, frac) = value.split_once('.').unwrap_or((value, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let cents = match frac.len() {
        0 => 0,
        1 => frac.parse::<i64>().ok()? * 10,
        _ => frac.parse::<i64>().ok()?,
    };
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

/// PayPal's page language for a Kupa locale (BCP 47, as `experience_context.locale` takes it).
fn paypal_locale(locale: &str) -> &'static str {
    match locale {
        "he" => "he-IL",
        "pl" => "pl-PL",
        "ru" => "ru-RU",
        _ => "en-US",
    }
}

/// PayPal's `amount` object is this payment's: the same currency and value.
fn same_amount(p: &Payment, amount: &Value) -> bool {
    amount["currency_code"].as_str() == Some(p.currency.as_str())
        && amount["value"].as_str().and_then(minor_of) == Some(p.amount.minor())
}

fn declined(note: String, code: &str) -> PaymentUpdate {
    PaymentUpdate {
        status: PaymentStatus::Declined,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        failure_code: Some(code.to_owned()),
        decline_reason: None,
        note,
    }
}

/// What a PayPal capture (an order's `purchase_units[0].payments.captures[0]`, or the resource of
/// a `PAYMENT.CAPTURE.*` event) says of `p`: paid (with the capture's id, for refunds), declined,
/// or no word yet (`PENDING`). `Err`: a capture that is not this payment's.
pub fn judge_capture(
    p: &Payment,
    capture: &Value,
) -> Result<Option<(PaymentUpdate, String)>, String> {
    if let Some(custom) = capture["custom_id"].as_str()
        && custom != p.id
    {
        return Err("the capture is another payment's".into());
    }
    let id = capture["id"]
        .as_str()
        .filter(|i| !i.is_empty())
        .ok_or("a capture without an id")?
        .to_owned();
    match capture["status"].as_str() {
        Some("COMPLETED") => {
            if !same_amount(p, &capture["amount"]) {
                return Err(format!(
                    "the capture's amount {} is not the payment's {} {}",
                    capture["amount"],
                    p.amount.minor(),
                    p.currency
                ));
            }
            Ok(Some((
                PaymentUpdate {
                    status: PaymentStatus::Authorized,
                    card_brand: None,
                    card_last4: None,
                    card_bin: None,
                    failure_code: None,
                    decline_reason: None,
                    note: format!("paypal capture {id}"),
                },
                id,
            )))
        }
        Some("DECLINED") | Some("FAILED") => Ok(Some((
            declined(
                format!("paypal capture {id} declined"),
                payment_codes::PAYMENT_ERROR,
            ),
            id,
        ))),
        // PENDING (an eCheck, a review): PayPal sends PAYMENT.CAPTURE.COMPLETED or DENIED later.
        _ => Ok(None),
    }
}

pub struct PayPal {
    config: PayPalConfig,
    client: reqwest::Client,
    /// The PayPal order of each payment (`page_id`), its capture (`deal_id`), refunds by key.
    deals: Arc<dyn PaymentDeals>,
    clock: Arc<dyn Clock>,
    /// The bearer token and when (server clock, ms) it stops being used.
    token: tokio::sync::Mutex<Option<(String, i64)>>,
}

impl PayPal {
    pub fn new(
        config: PayPalConfig,
        deals: Arc<dyn PaymentDeals>,
        clock: Arc<dyn Clock>,
    ) -> Result<PayPal, String> {
        let client = http::client("PayPal", config.timeout)?;
        Ok(PayPal {
            config,
            client,
            deals,
            clock,
            token: tokio::sync::Mutex::new(None),
        })
    }

    pub fn config(&self) -> &PayPalConfig {
        &self.config
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url.trim_end_matches('/'))
    }

    /// A bearer token: the kept one while it has more than a minute left, else a new one from
    /// `POST /v1/oauth2/token`.
    pub async fn access_token(&self) -> Result<String, CallError> {
        let mut kept = self.token.lock().await;
        let now = self.clock.now_ms();
        if let Some((token, until)) = kept.as_ref()
            && now < *until
        {
            return Ok(token.clone());
        }
        let (token, expires_in) = request_token(&self.client, &self.config).await?;
        let keep_for_ms = i64::try_from(expires_in.saturating_sub(60).saturating_mul(1_000))
            .unwrap_or(i64::MAX / 2);
        *kept = Some((token.clone(), now.saturating_add(keep_for_ms)));
        Ok(token)
    }

    /// One authorised call: the JSON answer of a 2xx, else why not. A 401 (a token PayPal
    /// ended early) forgets the token and is tried once more with a new one.
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
        request_id: Option<&str>,
    ) -> Result<Value, CallError> {
        match self
            .call_once(method.clone(), path, body.clone(), request_id)
            .await
        {
            Err(CallError::Refused(401, _)) => {
                *self.token.lock().await = None;
                self.call_once(method, path, body, request_id).await
            }
            answer => answer,
        }
    }

    async fn call_once(
        &self,
        method: Method,
        path: &str,
        body: Option<String>,
        request_id: Option<&str>,
    ) -> Result<Value, CallError> {
        let token = self.access_token().await?;
        let mut req = self
            .client
            .request(method, self.url(path))
            .bearer_auth(token)
            .header("accept", "application/json")
            .header("prefer", "return=representation");
        if let Some(id) = request_id {
            req = req.header("paypal-request-id", id);
        }
        if let Some(body) = body {
            req = http::with_json(req, body);
        }
        let answer = http::send(req).await?;
        let (status, body) = (answer.status, answer.value());
        if (200..300).contains(&status) {
            return Ok(body);
        }
        let issue = body["details"][0]["issue"]
            .as_str()
            .or(body["name"].as_str())
            .unwrap_or("")
            .to_owned();
        Err(CallError::Refused(status, issue))
    }

    /// The create-order body for a payment.
    pub fn order_body(&self, p: &Payment) -> Value {
        json!({
            "intent": "CAPTURE",
            "purchase_units": [{
                "reference_id": p.id,
                "custom_id": p.id,
                "invoice_id": p.id,
                "description": format!("Kupa order {}", p.order_id),
                "amount": { "currency_code": p.currency, "value": value_of(p.amount.minor()) },
            }],
            "payment_source": { "paypal": { "experience_context": {
                "return_url": http::back_url(&self.config.public_url, p, ""),
                "cancel_url": http::back_url(&self.config.public_url, p, "&cancelled=1"),
                "locale": paypal_locale(&p.locale),
                "user_action": "PAY_NOW",
                "shipping_preference": "NO_SHIPPING",
            }}},
        })
    }

    /// Opens PayPal's order for a payment: its id and the link where the buyer approves it.
    pub async fn create_order(&self, p: &Payment) -> Result<(String, String), CallError> {
        let order = self
            .call(
                Method::POST,
                "/v2/checkout/orders",
                Some(self.order_body(p).to_string()),
                Some(&p.id),
            )
            .await?;
        let id = order["id"].as_str().filter(|i| !i.is_empty());
        let link = order["links"].as_array().and_then(|links| {
            ["payer-action", "approve"].iter().find_map(|rel| {
                links
                    .iter()
                    .find(|l| l["rel"] == *rel)
                    .and_then(|l| l["href"].as_str())
            })
        });
        match (id, link) {
            (Some(id), Some(link)) if http::is_https_or_loopback(link) => {
                Ok((id.to_owned(), link.to_owned()))
            }
            _ => Err(CallError::Refused(
                200,
                "no order id or approval link".into(),
            )),
        }
    }

    /// `GET /v2/checkout/orders/{id}`.
    pub async fn order(&self, order_id: &str) -> Result<Value, CallError> {
        self.call(
            Method::GET,
            &format!("/v2/checkout/orders/{}", path_segment(order_id)?),
            None,
            None,
        )
        .await
    }

    /// `POST /v2/checkout/orders/{id}/capture`, idempotent for the payment.
    pub async fn capture(&self, order_id: &str, payment_id: &str) -> Result<Value, CallError> {
        self.call(
            Method::POST,
            &format!("/v2/checkout/orders/{}/capture", path_segment(order_id)?),
            Some("{}".into()),
            Some(&format!("{payment_id}-capture")),
        )
        .await
    }

    /// PayPal's word on payment `p`, asked of PayPal: its order read (and captured when the buyer
    /// approved it). `Ok(None)`: no word yet (the buyer has not approved, a capture pending).
    pub async fn settle(&self, p: &Payment) -> Result<Option<PaymentUpdate>, SettleError> {
        let Some(order_id) = self
            .deals
            .page_of(&p.id)
            .await
            .map_err(|e| SettleError::Call(CallError::NoResponse(e.to_string())))?
        else {
            return Ok(None);
        };
        let mut order = self.order(&order_id).await?;
        check_order(p, &order_id, &order)?;
        if order["status"] == "APPROVED" {
            order = match self.capture(&order_id, &p.id).await {
                Ok(captured) => captured,
                Err(CallError::Refused(422, issue)) if issue == "INSTRUMENT_DECLINED" => {
                    tracing::info!(payment = %p.id, "PayPal declined the buyer's funding at capture");
                    return Ok(Some(declined(
                        "paypal: INSTRUMENT_DECLINED at capture".into(),
                        payment_codes::PAYMENT_ERROR,
                    )));
                }
                // Captured meanwhile (another node, an earlier call whose answer was lost).
                Err(CallError::Refused(422, issue)) if issue == "ORDER_ALREADY_CAPTURED" => {
                    self.order(&order_id).await?
                }
                Err(e) => return Err(e.into()),
            };
        }
        match order["status"].as_str() {
            Some("COMPLETED") => {
                let capture = &order["purchase_units"][0]["payments"]["captures"][0];
                self.take_capture(p, capture).await
            }
            Some("VOIDED") => Ok(Some(declined(
                format!("paypal order {order_id} voided"),
                payment_codes::PAYMENT_ERROR,
            ))),
            // CREATED, SAVED, PAYER_ACTION_REQUIRED: the buyer is still at PayPal.
            _ => Ok(None),
        }
    }

    /// A capture's word for `p`, its id kept when it paid (refunds name it).
    pub async fn take_capture(
        &self,
        p: &Payment,
        capture: &Value,
    ) -> Result<Option<PaymentUpdate>, SettleError> {
        let Some((update, capture_id)) =
            judge_capture(p, capture).map_err(SettleError::Mismatch)?
        else {
            return Ok(None);
        };
        if update.status == PaymentStatus::Authorized {
            self.deals
                .record_deal(&p.id, PROVIDER, &capture_id, self.clock.now_ms())
                .await
                .map_err(|e| SettleError::Call(CallError::NoResponse(e.to_string())))?;
        }
        Ok(Some(update))
    }

    /// `POST /v2/payments/captures/{id}/refund` for `amount` of the capture, `PayPal-Request-Id`
    /// the refund's key.
    pub async fn refund_capture(
        &self,
        capture_id: &str,
        amount: i64,
        currency: &str,
        key: &str,
    ) -> Result<(), CallError> {
        let body = json!({ "amount": { "value": value_of(amount), "currency_code": currency } });
        let r = self
            .call(
                Method::POST,
                &format!("/v2/payments/captures/{}/refund", path_segment(capture_id)?),
                Some(body.to_string()),
                Some(key),
            )
            .await?;
        match r["status"].as_str() {
            Some("COMPLETED") | Some("PENDING") => Ok(()),
            other => Err(CallError::Refused(
                200,
                format!("refund {}", other.unwrap_or("without a status")),
            )),
        }
    }

    /// `POST /v1/notifications/verify-webhook-signature` for an event as it was received (its
    /// bytes are sent unchanged: PayPal checks its signature over them). True for `SUCCESS`.
    pub async fn verify_webhook(
        &self,
        headers: &webhook::Transmission,
        event: &[u8],
    ) -> Result<bool, CallError> {
        let event = std::str::from_utf8(event)
            .map_err(|_| CallError::Refused(400, "an event that is not UTF-8".into()))?;
        let head = json!({
            "auth_algo": headers.auth_algo,
            "cert_url": headers.cert_url,
            "transmission_id": headers.transmission_id,
            "transmission_sig": headers.transmission_sig,
            "transmission_time": headers.transmission_time,
            "webhook_id": self.config.webhook_id,
        })
        .to_string();
        // `{...head fields..., "webhook_event": <the event's own bytes>}`
        let head = head.strip_suffix('}').unwrap_or(&head);
        let body = format!("{head},\"webhook_event\":{event}}}");
        let r = self
            .call(
                Method::POST,
                "/v1/notifications/verify-webhook-signature",
                Some(body),
                None,
            )
            .await?;
        Ok(r["verification_status"] == "SUCCESS")
    }
}

/// `POST /v1/oauth2/token`: a bearer token and its seconds to live.
async fn request_token(
    client: &reqwest::Client,
    config: &PayPalConfig,
) -> Result<(String, u64), CallError> {
    let answer = http::send(
        client
            .post(format!(
                "{}/v1/oauth2/token",
                config.base_url.trim_end_matches('/')
            ))
            .basic_auth(&config.client_id, Some(config.client_secret.expose()))
            .header("accept", "application/json")
            .form(&[("grant_type", "client_credentials")]),
    )
    .await?;
    let (status, body) = (answer.status, answer.value());
    match body["access_token"].as_str().filter(|_| status == 200) {
        Some(token) => Ok((token.to_owned(), body["expires_in"].as_u64().unwrap_or(0))),
        None => Err(CallError::Refused(
            status,
            body["error"]
                .as_str()
                .unwrap_or("no access_token")
                .to_owned(),
        )),
    }
}

/// `kupa check-config --probe`: whether PayPal gives these keys a token.
pub async fn probe(config: &PayPalConfig) -> Result<String, String> {
    let client = http::client("PayPal", config.timeout)?;
    request_token(&client, config)
        .await
        .map(|_| "PayPal gave an access token".to_owned())
        .map_err(|e| format!("{e:?}"))
}

/// An id from PayPal or the store put into a path: letters, digits, `-` and `_` only.
fn path_segment(id: &str) -> Result<&str, CallError> {
    if !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(id)
    } else {
        Err(CallError::Refused(400, "an id that is not PayPal's".into()))
    }
}

/// The order PayPal answered is the one opened for `p`: its id, our payment in `custom_id`, and
/// the payment's amount.
fn check_order(p: &Payment, order_id: &str, order: &Value) -> Result<(), SettleError> {
    let unit = &order["purchase_units"][0];
    if order["id"].as_str() != Some(order_id) {
        return Err(SettleError::Mismatch("another order's answer".into()));
    }
    if unit["custom_id"].as_str() != Some(p.id.as_str())
        && unit["reference_id"].as_str() != Some(p.id.as_str())
    {
        return Err(SettleError::Mismatch(
            "the order is not this payment's".into(),
        ));
    }
    if !unit["amount"].is_null() && !same_amount(p, &unit["amount"]) {
        return Err(SettleError::Mismatch(
            "the order's amount is not the payment's".into(),
        ));
    }
    Ok(())
}

#[async_trait]
impl PaymentGateway for PayPal {
    /// PayPal, in the currencies its REST API takes with two decimals.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        match method {
            PaymentMethod::Paypal => MethodOffer::Only(CURRENCIES),
            _ => MethodOffer::No,
        }
    }

    /// PayPal's orders are opened by a call ([`PaymentGateway::open_page`]).
    fn form_url(&self, _payment: &Payment) -> String {
        String::new()
    }

    /// The payment's PayPal order read (and captured when approved): how a payment is settled
    /// when the buyer returns, or when a webhook is late or lost. No word when PayPal cannot be
    /// asked: the next look asks again.
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        match self.settle(payment).await {
            Ok(word) => word,
            Err(e) => {
                tracing::warn!(payment = %payment.id, error = ?e, "PayPal could not settle the payment now");
                None
            }
        }
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        if payment.method != PaymentMethod::Paypal {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "this payment method is not paid through PayPal",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        if !CURRENCIES.contains(&payment.currency.as_str()) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "PayPal does not take this currency",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        let (order, link) = self.create_order(payment).await.map_err(|e| {
            let (code, why) = match &e {
                CallError::NoResponse(why) => (payment_codes::ERROR_NO_RESPONSE, why.clone()),
                CallError::Refused(status, issue) => (
                    payment_codes::ERROR_RESPONSE,
                    format!("HTTP {status} {issue}"),
                ),
            };
            tracing::warn!(payment = %payment.id, %why, "PayPal did not open an order");
            AppError::rejected_with(
                ErrorCode::PaymentError,
                "PayPal could not be opened: please try again",
                json!({ "failureCode": code }),
            )
        })?;
        self.deals
            .record_page(&payment.id, PROVIDER, &order, self.clock.now_ms())
            .await?;
        Ok(link)
    }

    /// A refund of the payment's capture (kept when PayPal confirmed it). A key already made
    /// answers at once; a key PayPal has seen (an answer lost) is answered by PayPal with the
    /// first refund, through `PayPal-Request-Id`: a refund asked twice gives the money once.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        if self.deals.refund_made(&payment.id, &refund.key).await? {
            return Ok(());
        }
        let capture = self.deals.deal_of(&payment.id).await?.ok_or_else(|| {
            AppError::rejected(
                ErrorCode::PaymentError,
                "no PayPal capture is known for this payment",
            )
        })?;
        if let Err(e) = self
            .refund_capture(
                &capture,
                refund.amount.minor(),
                &payment.currency,
                &refund.key,
            )
            .await
        {
            tracing::warn!(payment = %payment.id, error = ?e, "PayPal did not confirm a refund");
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "PayPal did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount.minor(), "PayPal refund made");
        Ok(())
    }
}

#[cfg(test)]
mod tests;
