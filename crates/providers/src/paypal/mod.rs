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
//!
//! [`PaymentGateway::open_page`]: kupa_app::orders::PaymentGateway::open_page
//! [`PaymentGateway::ask_provider`]: kupa_app::orders::PaymentGateway::ask_provider

mod gateway;
pub mod webhook;
mod wire;

use std::sync::Arc;
use std::time::Duration;

use kupa_app::orders::{Payment, PaymentStatus, PaymentUpdate, payment_codes};
use kupa_app::ports::{Clock, DealRef, PaymentDeals};
use reqwest::Method;
use serde_json::{Value, json};

use crate::delivery::secret::Secret;
use crate::http;

pub use wire::{CallError, SettleError, judge_capture, minor_of, value_of};
use wire::{check_order, declined, path_segment, paypal_locale};

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
            .kept(DealRef::Page, &p.id)
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
                .keep(
                    DealRef::Deal,
                    &p.id,
                    PROVIDER,
                    &capture_id,
                    self.clock.now_ms(),
                )
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

#[cfg(test)]
mod tests;
