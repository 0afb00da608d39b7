//! PayU (Poland) through its REST API v2.1 (decision 0064), for the PayU and Blik methods of
//! orders in Polish złoty. What it follows (developers.payu.com, "REST API", "BLIK",
//! "Notifications", "Refunds"):
//! - OAuth: `POST /pl/standard/user/oauth/authorize`, a form `grant_type=client_credentials`,
//!   `client_id`, `client_secret`, answering `access_token` and `expires_in` (seconds); the token
//!   is kept until shortly before it expires.
//! - Order create: `POST /api/v2_1/orders` (Bearer token; `notifyUrl`, `customerIp`,
//!   `merchantPosId`, `description`, `currencyCode`, `totalAmount` in minor units as a string,
//!   `extOrderId` = our payment id, `buyer`, `products`, `continueUrl`), answering 302 (redirect)
//!   or 201 (Blik with its code) with `status.statusCode` `SUCCESS`, `redirectUri`, `orderId`.
//!   Blik with the code typed on our page: `payMethods.payMethod` `{type:
//!   "BLIK_AUTHORIZATION_CODE", value: "<6 digits>"}`; the buyer then confirms in the bank's app
//!   and the order stays `PENDING` until PayU notifies.
//! - Notification: PayU posts the order to `notifyUrl` with the header `OpenPayu-Signature:
//!   sender=…;signature=…;algorithm=MD5|SHA256;content=DOCUMENT`, the signature being the hash of
//!   the body followed by the POS's second key ([`notify`]). Statuses: `PENDING`,
//!   `WAITING_FOR_CONFIRMATION` (auto-receive off: Kupa captures with `PUT
//!   /api/v2_1/orders/{orderId}/status` `orderStatus: COMPLETED`), `COMPLETED` (paid),
//!   `CANCELED` (not paid).
//! - Status query: `GET /api/v2_1/orders/{orderId}` answers `orders[0]` with the same fields:
//!   how a payment whose notification is late or lost is settled ([`PaymentGateway::ask_provider`]).
//! - Refunds: `POST /api/v2_1/orders/{orderId}/refunds` with `refund.description`,
//!   `refund.amount` (minor units; absent for the whole order), `refund.extRefundId` = our
//!   refund key, so PayU itself refunds a key once.
//!
//! [`PaymentGateway::ask_provider`]: kupa_app::orders::PaymentGateway::ask_provider

mod gateway;
pub mod notify;
mod wire;

use std::sync::Arc;
use std::time::{Duration, Instant};

use kupa_app::orders::{Payment, PaymentStatus, PaymentUpdate};
use kupa_app::ports::{Clock, DealRef, PaymentDeals};
use serde_json::{Value, json};

use crate::delivery::secret::Secret;
use crate::http;

pub use wire::{CallError, PayUOrder, SettleError, judge};
use wire::{Created, Orders, Token};

/// The currencies PayU's methods (PayU, Blik) are offered in: Polish złoty.
pub const CURRENCIES: &[&str] = &["PLN"];

pub const DEFAULT_BASE_URL: &str = "https://secure.payu.com";
/// PayU's sandbox (test POS and keys of its own).
pub const SANDBOX_BASE_URL: &str = "https://secure.snd.payu.com";
/// Where PayU posts an order's status, below the site's public address.
pub const NOTIFY_PATH: &str = "/pay/payu/notify";

#[derive(Debug, Clone)]
pub struct PayUConfig {
    pub pos_id: String,
    /// The OAuth client id (by PayU's default the POS id).
    pub client_id: String,
    pub client_secret: Secret,
    /// The POS's second key (MD5): what PayU's notification signatures are made with.
    pub second_key: Secret,
    pub base_url: String,
    /// The shop's public address (KUPA_PUBLIC_URL): the buyer's way back and the notification's.
    pub public_url: String,
    pub timeout: Duration,
}

impl PayUConfig {
    /// PayU when `KUPA_PAYU_POS_ID` is set, with all it needs; `None` when it is not.
    pub fn from_lookup(
        lookup: &dyn Fn(&str) -> Option<String>,
        public_url: &str,
    ) -> Result<Option<PayUConfig>, String> {
        let Some(pos_id) = http::setting(lookup, "KUPA_PAYU_POS_ID") else {
            return Ok(None);
        };
        if !pos_id.bytes().all(|b| b.is_ascii_digit()) {
            return Err("KUPA_PAYU_POS_ID must be the POS's number (pos_id)".into());
        }
        let client_id =
            http::setting(lookup, "KUPA_PAYU_CLIENT_ID").unwrap_or_else(|| pos_id.clone());
        let client_secret = http::required_secret(lookup, "KUPA_PAYU_CLIENT_SECRET")?;
        let second_key = http::required_secret(lookup, "KUPA_PAYU_SECOND_KEY")?;
        let public_url = http::public_url("PayU", public_url)?;
        let base_url = lookup("KUPA_PAYU_BASE_URL")
            .map(|u| u.trim().trim_end_matches('/').to_owned())
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| DEFAULT_BASE_URL.into());
        if !http::is_https_or_loopback(&base_url) {
            return Err("KUPA_PAYU_BASE_URL must be an https:// address".into());
        }
        Ok(Some(PayUConfig {
            pos_id,
            client_id,
            client_secret,
            second_key,
            base_url,
            public_url,
            timeout: http::PAYMENT_TIMEOUT,
        }))
    }

    pub fn summary(&self) -> String {
        format!(
            "PayU POS {} at {}{} (PayU and Blik, PLN orders only)",
            self.pos_id,
            self.base_url,
            if self.base_url == SANDBOX_BASE_URL {
                " (sandbox)"
            } else {
                ""
            }
        )
    }
}

pub struct PayU {
    config: PayUConfig,
    client: reqwest::Client,
    /// Each payment's PayU order id (its page and its deal), and the refunds made, by key.
    deals: Arc<dyn PaymentDeals>,
    clock: Arc<dyn Clock>,
    token: tokio::sync::Mutex<Option<(String, Instant)>>,
}

/// Whether `url` is a page of PayU's (an `https://` address on payu.com, or on PayU's configured
/// host): where the way-to-PayU page may send the buyer, and nowhere else.
pub fn is_payus_page(url: &str, base_url: &str) -> bool {
    fn host(url: &str) -> Option<&str> {
        let rest = url.strip_prefix("https://")?;
        let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let authority = &rest[..end];
        (!authority.contains('@')).then_some(authority)
    }
    let Some(h) = host(url) else {
        return false;
    };
    h == "payu.com" || h.ends_with(".payu.com") || host(base_url) == Some(h)
}

/// A 6-digit Blik code (spaces ignored), or `None`.
pub fn blik_code(code: &str) -> Option<String> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    (code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit())).then_some(code)
}

/// PayU's HTTP client. Order create answers 302 with the page in `redirectUri`: read, never
/// followed.
fn client(config: &PayUConfig) -> Result<reqwest::Client, String> {
    http::build(
        "PayU",
        reqwest::Client::builder()
            .timeout(config.timeout)
            .redirect(reqwest::redirect::Policy::none()),
    )
}

/// A new OAuth token (`client_credentials`) for the POS's client.
async fn request_token(client: &reqwest::Client, config: &PayUConfig) -> Result<Token, CallError> {
    let form = [
        ("grant_type", "client_credentials"),
        ("client_id", config.client_id.as_str()),
        ("client_secret", config.client_secret.expose()),
    ];
    let body = serde_urlencoded::to_string(&form[..])
        .map_err(|_| CallError::refused("a form that cannot be written"))?;
    let answer = http::send(
        client
            .post(format!(
                "{}/pl/standard/user/oauth/authorize",
                config.base_url
            ))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(body),
    )
    .await?;
    if answer.status != 200 {
        return Err(CallError::refused(format!("OAuth HTTP {}", answer.status)));
    }
    answer
        .json()
        .ok_or_else(|| CallError::refused("an OAuth answer that is not its JSON"))
}

/// `kupa check-config --probe`: whether PayU gives the POS's client an OAuth token (in PayU's
/// sandbox with sandbox keys). Nothing is kept.
pub async fn probe(config: &PayUConfig) -> Result<String, String> {
    request_token(&client(config)?, config)
        .await
        .map(|_| "an OAuth token was given".to_owned())
        .map_err(|e| format!("{e:?}"))
}

impl PayU {
    pub fn new(
        config: PayUConfig,
        deals: Arc<dyn PaymentDeals>,
        clock: Arc<dyn Clock>,
    ) -> Result<PayU, String> {
        Ok(PayU {
            client: client(&config)?,
            config,
            deals,
            clock,
            token: tokio::sync::Mutex::new(None),
        })
    }

    pub fn config(&self) -> &PayUConfig {
        &self.config
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.config.base_url)
    }

    /// An OAuth token (`client_credentials`), kept until a minute before it expires.
    pub async fn access_token(&self) -> Result<String, CallError> {
        let mut kept = self.token.lock().await;
        if let Some((token, until)) = kept.as_ref()
            && Instant::now() < *until
        {
            return Ok(token.clone());
        }
        let token = request_token(&self.client, &self.config).await?;
        let life = token.expires_in.unwrap_or(60).saturating_sub(60).max(1);
        *kept = Some((
            token.access_token.clone(),
            Instant::now() + Duration::from_secs(life),
        ));
        Ok(token.access_token)
    }

    /// `request` with the OAuth token, sent: PayU's answer, or why none came.
    async fn authorized(
        &self,
        request: reqwest::RequestBuilder,
    ) -> Result<http::Answer, CallError> {
        let token = self.access_token().await?;
        Ok(http::send(request.bearer_auth(token)).await?)
    }

    /// PayU's answer as `T`, or `HTTP {status}` when it is not that JSON.
    fn read<T: serde::de::DeserializeOwned>(answer: &http::Answer) -> Result<T, CallError> {
        answer
            .json()
            .ok_or_else(|| CallError::refused(format!("HTTP {}", answer.status)))
    }

    /// Order create's body for a payment (Blik with the buyer's code when given).
    pub fn order_body(&self, p: &Payment, customer_ip: &str, blik: Option<&str>) -> Value {
        let language = match p.locale.as_str() {
            "pl" => "pl",
            _ => "en",
        };
        let mut body = json!({
            "notifyUrl": format!("{}{NOTIFY_PATH}", self.config.public_url),
            "continueUrl": http::back_url(&self.config.public_url, p, ""),
            "customerIp": customer_ip,
            "merchantPosId": self.config.pos_id,
            "description": format!("Kupa order {}", p.order_id),
            "currencyCode": p.currency,
            "totalAmount": p.amount.minor().to_string(),
            "extOrderId": p.id,
            "buyer": { "language": language },
            "products": [{
                "name": format!("Order {}", p.order_id),
                "unitPrice": p.amount.minor().to_string(),
                "quantity": "1",
            }],
        });
        if let Some(code) = blik {
            body["payMethods"] =
                json!({ "payMethod": { "type": "BLIK_AUTHORIZATION_CODE", "value": code } });
        }
        body
    }

    /// Creates PayU's order for a payment: its redirect address (none for Blik with a code) and
    /// PayU's order id, kept as the payment's page.
    pub async fn create_order(
        &self,
        p: &Payment,
        customer_ip: &str,
        blik: Option<&str>,
    ) -> Result<(Option<String>, String), CallError> {
        let answer = self
            .authorized(http::with_json(
                self.client.post(self.url("/api/v2_1/orders")),
                self.order_body(p, customer_ip, blik).to_string(),
            ))
            .await?;
        let created: Created = Self::read(&answer)?;
        let status = answer.status;
        let ok = matches!(status, 200 | 201 | 302) && created.status.status_code == "SUCCESS";
        match (ok, created.order_id) {
            (true, Some(order_id)) => {
                if let Err(e) = self
                    .deals
                    .keep(DealRef::Page, &p.id, "payu", &order_id, self.clock.now_ms())
                    .await
                {
                    tracing::error!(payment = %p.id, error = %e, "PayU's order id could not be kept");
                }
                let redirect = created
                    .redirect_uri
                    .filter(|u| http::is_https_or_loopback(u));
                Ok((redirect, order_id))
            }
            _ => Err(CallError::Refused {
                status_code: if created.status.status_code.is_empty() {
                    format!("HTTP {status}")
                } else {
                    created.status.status_code
                },
                code_literal: created.status.code_literal.unwrap_or_default(),
            }),
        }
    }

    /// The status query: PayU's order by its id.
    pub async fn order(&self, order_id: &str) -> Result<PayUOrder, CallError> {
        let answer = self
            .authorized(
                self.client
                    .get(self.url(&format!("/api/v2_1/orders/{order_id}"))),
            )
            .await?;
        let orders: Orders = Self::read(&answer)?;
        if answer.status != 200 || orders.status.status_code != "SUCCESS" {
            return Err(CallError::refused(orders.status.status_code));
        }
        orders
            .orders
            .into_iter()
            .find(|o| o.order_id == order_id)
            .ok_or_else(|| CallError::refused("DATA_NOT_FOUND"))
    }

    /// Receives an order waiting for confirmation (auto-receive off): `orderStatus: COMPLETED`.
    pub async fn capture(&self, order_id: &str) -> Result<(), CallError> {
        let answer = self
            .authorized(http::with_json(
                self.client
                    .put(self.url(&format!("/api/v2_1/orders/{order_id}/status"))),
                json!({ "orderId": order_id, "orderStatus": "COMPLETED" }).to_string(),
            ))
            .await?;
        let orders: Orders = Self::read(&answer)?;
        if answer.status == 200 && orders.status.status_code == "SUCCESS" {
            Ok(())
        } else {
            Err(CallError::refused(orders.status.status_code))
        }
    }

    /// A refund of `amount` (minor units; the whole order when `whole`) named `key`.
    pub async fn refund_order(
        &self,
        order_id: &str,
        amount: i64,
        whole: bool,
        key: &str,
    ) -> Result<(), CallError> {
        let mut refund = json!({ "description": "Kupa refund", "extRefundId": key });
        if !whole {
            refund["amount"] = json!(amount.to_string());
        }
        let answer = self
            .authorized(http::with_json(
                self.client
                    .post(self.url(&format!("/api/v2_1/orders/{order_id}/refunds"))),
                json!({ "refund": refund }).to_string(),
            ))
            .await?;
        let orders: Orders = Self::read(&answer)?;
        if answer.status == 200 && orders.status.status_code == "SUCCESS" {
            Ok(())
        } else {
            Err(CallError::Refused {
                status_code: orders.status.status_code,
                code_literal: orders.status.code_literal.unwrap_or_default(),
            })
        }
    }

    /// PayU's word on `order` for `payment`, acted on: an order waiting for confirmation is
    /// captured first, and a paid order's id is kept for its refunds. `Ok(None)`: no word yet.
    pub async fn settle(
        &self,
        payment: &Payment,
        order: &PayUOrder,
    ) -> Result<Option<PaymentUpdate>, SettleError> {
        let update = judge(payment, &self.config.pos_id, order).map_err(SettleError::NotOurs)?;
        // PayU's order is this payment's: keep its id (once), so that the status query can ask
        // for it even when order create's answer never came.
        self.deals
            .keep(
                DealRef::Page,
                &payment.id,
                "payu",
                &order.order_id,
                self.clock.now_ms(),
            )
            .await
            .map_err(|e| SettleError::Store(e.to_string()))?;
        let Some(update) = update else {
            return Ok(None);
        };
        if update.status == PaymentStatus::Authorized {
            if order.status == "WAITING_FOR_CONFIRMATION" {
                self.capture(&order.order_id)
                    .await
                    .map_err(SettleError::Call)?;
            }
            self.deals
                .keep(
                    DealRef::Deal,
                    &payment.id,
                    "payu",
                    &order.order_id,
                    self.clock.now_ms(),
                )
                .await
                .map_err(|e| SettleError::Store(e.to_string()))?;
        }
        Ok(Some(update))
    }
}

#[cfg(test)]
mod tests;
