//! Card payments through CardCom's hosted page (decision 0063), its REST API v11
//! (https://secure.cardcom.solutions/swagger, the "CardCom API" OpenAPI document, version 11.0):
//! - `POST /api/v11/LowProfile/Create` opens the hosted page for one payment (`ReturnValue` our
//!   payment id, `Amount` in shekels, `Operation` ChargeOnly or ChargeAndCreateToken, installments
//!   as `AdvancedDefinition.MinNumOfPayments`/`MaxNumOfPayments`), answering `Url`.
//! - CardCom posts to `WebHookUrl` when the deal ends; Kupa never trusts that post: it asks
//!   `POST /api/v11/LowProfile/GetLpResult` itself ([`notify`]) and records what CardCom says.
//! - `POST /api/v11/Transactions/RefundByTransactionId` (`PartialSum` for part of it).
//!
//! The page charges the card itself (J4, `ChargeOnly`): the money is taken when CardCom says the
//! deal succeeded, so "capture" is that word, and a finalisation that fails afterwards gives the
//! money back through [`PaymentGateway::refund`], as with every provider (decision 0009). The
//! deal's id is kept (`payment_deals`, migration 0043) for the refunds.

pub mod notify;

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
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::delivery::secret::Secret;

pub const DEFAULT_API_URL: &str = "https://secure.cardcom.solutions";
/// Where CardCom posts when a deal ends, below the site's public address.
pub const NOTIFY_PATH: &str = "/pay/cardcom/notify";

#[derive(Debug, Clone)]
pub struct CardComConfig {
    pub terminal: i64,
    pub api_name: Secret,
    /// Only refunds need it.
    pub api_password: Option<Secret>,
    pub api_url: String,
    /// The shop's public address (KUPA_PUBLIC_URL): the buyer's way back and the webhook's.
    pub public_url: String,
    pub timeout: Duration,
}

impl CardComConfig {
    pub fn from_lookup(
        lookup: &dyn Fn(&str) -> Option<String>,
        public_url: &str,
    ) -> Result<Option<CardComConfig>, String> {
        match lookup("KUPA_PAYMENT_GATEWAY").as_deref().map(str::trim) {
            None | Some("") | Some("test") => return Ok(None),
            Some("cardcom") => {}
            Some(other) => {
                return Err(format!(
                    "KUPA_PAYMENT_GATEWAY: {other:?} is not one of test, cardcom"
                ));
            }
        }
        let terminal = lookup("KUPA_CARDCOM_TERMINAL")
            .and_then(|t| t.trim().parse::<i64>().ok())
            .filter(|t| *t > 0)
            .ok_or("KUPA_CARDCOM_TERMINAL must be the terminal's number")?;
        let api_name = Secret::from_env_or_file("KUPA_CARDCOM_API_NAME", lookup)?
            .ok_or("KUPA_CARDCOM_API_NAME (or KUPA_CARDCOM_API_NAME_FILE) must be set")?;
        let api_password = Secret::from_env_or_file("KUPA_CARDCOM_API_PASSWORD", lookup)?;
        if !public_url.starts_with("https://") && !public_url.starts_with("http://127.0.0.1") {
            return Err("CardCom needs KUPA_PUBLIC_URL to be the shop's https:// address".into());
        }
        Ok(Some(CardComConfig {
            terminal,
            api_name,
            api_password,
            api_url: lookup("KUPA_CARDCOM_API_URL")
                .filter(|u| !u.trim().is_empty())
                .unwrap_or_else(|| DEFAULT_API_URL.into()),
            public_url: public_url.trim_end_matches('/').to_owned(),
            timeout: Duration::from_secs(20),
        }))
    }

    /// Where CardCom's pages are (the payment dialog frames them): its API's origin.
    pub fn page_origin(&self) -> String {
        let url = self.api_url.trim_end_matches('/');
        match url.find("://").map(|i| i + 3) {
            Some(start) => match url[start..].find('/') {
                Some(end) => url[..start + end].to_owned(),
                None => url.to_owned(),
            },
            None => url.to_owned(),
        }
    }

    pub fn summary(&self) -> String {
        format!(
            "CardCom terminal {} at {}{}",
            self.terminal,
            self.api_url,
            if self.api_password.is_some() {
                ", refunds on"
            } else {
                ", refunds OFF (no KUPA_CARDCOM_API_PASSWORD)"
            }
        )
    }
}

pub struct CardCom {
    config: CardComConfig,
    client: reqwest::Client,
    /// Each payment's CardCom deal id (for refunds) and the refunds made, by key.
    deals: Arc<dyn PaymentDeals>,
    clock: Arc<dyn Clock>,
}

/// Why a call to CardCom came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: `errorResponse`, with CardCom's `ResponseCode`.
    Refused(i64, String),
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Created {
    response_code: i64,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    low_profile_id: Option<String>,
    #[serde(default)]
    url: Option<String>,
}

/// GetLpResult's answer: the fields Kupa reads.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct LpResult {
    pub response_code: i64,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub terminal_number: Option<i64>,
    #[serde(default)]
    pub low_profile_id: Option<String>,
    #[serde(default)]
    pub tranzaction_id: Option<i64>,
    #[serde(default)]
    pub return_value: Option<String>,
    #[serde(default)]
    pub tranzaction_info: Option<TranzactionInfo>,
}

#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct TranzactionInfo {
    pub response_code: i64,
    #[serde(default)]
    pub tranzaction_id: Option<i64>,
    #[serde(default)]
    pub amount: Option<f64>,
    #[serde(default)]
    pub coin_id: Option<i64>,
    #[serde(default)]
    pub last4_card_digits_string: Option<String>,
    #[serde(default)]
    pub number_of_payments: Option<i64>,
    #[serde(default)]
    pub brand: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
struct Refunded {
    response_code: i64,
    #[serde(default)]
    description: Option<String>,
}

/// Shekels with agorot, as CardCom's `Amount` (a JSON number: 12.36).
fn shekels(minor: i64) -> f64 {
    minor as f64 / 100.0
}

/// CardCom's page languages (he, en, ru, sp); any other locale gets English.
fn page_language(locale: &str) -> &'static str {
    match locale {
        "he" => "he",
        "ru" => "ru",
        _ => "en",
    }
}

/// What CardCom's word on a deal is for the payment `expected`, or why it is not to be believed.
/// `Err` is a result that does not belong to this payment (another terminal, payment or amount).
pub fn judge(expected: &Payment, terminal: i64, r: &LpResult) -> Result<PaymentUpdate, String> {
    if r.terminal_number.is_some_and(|t| t != terminal) {
        return Err("another terminal's deal".into());
    }
    if r.return_value.as_deref() != Some(expected.id.as_str()) {
        return Err("the deal is not this payment's".into());
    }
    // No deal on the page yet (the buyer is still there, or left it): nothing to record.
    let Some(info) = r.tranzaction_info.clone() else {
        return Err(format!(
            "no deal on the page (response code {})",
            r.response_code
        ));
    };
    let paid = r.response_code == 0 && info.response_code == 0;
    if paid {
        let amount = info.amount.map(|a| (a * 100.0).round() as i64);
        if amount != Some(expected.amount) {
            return Err(format!(
                "the deal's amount {amount:?} is not the payment's {}",
                expected.amount
            ));
        }
        if expected.currency == "ILS" && info.coin_id.is_some_and(|c| c != 1) {
            return Err("the deal's currency is not the payment's".into());
        }
    }
    let tran = info.tranzaction_id.or(r.tranzaction_id);
    let note = match tran {
        Some(t) => format!("cardcom deal {t}"),
        None => "cardcom: no deal".into(),
    };
    Ok(PaymentUpdate {
        status: if paid {
            PaymentStatus::Authorized
        } else {
            PaymentStatus::Declined
        },
        card_brand: paid.then(|| info.brand.clone()).flatten(),
        card_last4: paid
            .then(|| info.last4_card_digits_string.clone())
            .flatten()
            .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_digit())),
        card_bin: None,
        failure_code: (!paid).then(|| payment_codes::PAYMENT_ERROR.to_owned()),
        decline_reason: None,
        note,
    })
}

impl CardCom {
    pub fn new(
        config: CardComConfig,
        deals: Arc<dyn PaymentDeals>,
        clock: Arc<dyn Clock>,
    ) -> Result<CardCom, String> {
        let client = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| format!("the HTTP client for CardCom: {e}"))?;
        Ok(CardCom {
            config,
            client,
            deals,
            clock,
        })
    }

    /// Keeps a confirmed deal's id, so its refunds can name it.
    pub async fn keep_deal(&self, payment_id: &str, deal_id: i64) -> AppResult<()> {
        self.deals
            .record_deal(
                payment_id,
                "cardcom",
                &deal_id.to_string(),
                self.clock.now_ms(),
            )
            .await?;
        Ok(())
    }

    pub fn config(&self) -> &CardComConfig {
        &self.config
    }

    async fn call<T: serde::de::DeserializeOwned>(
        &self,
        path: &str,
        body: &Value,
    ) -> Result<T, CallError> {
        let url = format!("{}{path}", self.config.api_url.trim_end_matches('/'));
        let r = self
            .client
            .post(url)
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .map_err(|e| CallError::NoResponse(transport_kind(&e).into()))?;
        let status = r.status().as_u16();
        let bytes = r
            .bytes()
            .await
            .map_err(|e| CallError::NoResponse(transport_kind(&e).into()))?;
        if status != 200 {
            return Err(CallError::Refused(-1, format!("HTTP {status}")));
        }
        serde_json::from_slice(&bytes)
            .map_err(|_| CallError::Refused(-1, "an answer that is not its JSON".into()))
    }

    /// The buyer's way back: the payment's return path (a path of this site only) with its id.
    fn back_url(&self, p: &Payment) -> String {
        let path = if p.return_url.starts_with('/') && !p.return_url.starts_with("//") {
            p.return_url.as_str()
        } else {
            "/"
        };
        let (path, fragment) = match path.split_once('#') {
            Some((path, f)) => (path, format!("#{f}")),
            None => (path, String::new()),
        };
        let sep = if path.contains('?') { '&' } else { '?' };
        format!(
            "{}{path}{sep}paymentId={}{fragment}",
            self.config.public_url, p.id
        )
    }

    /// LowProfile/Create's body for a payment.
    pub fn create_body(&self, p: &Payment) -> Value {
        let back = self.back_url(p);
        let mut body = json!({
            "TerminalNumber": self.config.terminal,
            "ApiName": self.config.api_name.expose(),
            "Operation": if p.save_card { "ChargeAndCreateToken" } else { "ChargeOnly" },
            "ReturnValue": p.id,
            "Amount": shekels(p.amount),
            "SuccessRedirectUrl": back,
            "FailedRedirectUrl": back,
            "CancelRedirectUrl": back,
            "WebHookUrl": format!("{}{NOTIFY_PATH}", self.config.public_url),
            "Language": page_language(&p.locale),
            "AdvancedDefinition": {
                "MinNumOfPayments": p.installments.max(1),
                "MaxNumOfPayments": p.installments.max(1),
            },
        });
        if p.currency == "ILS" {
            body["ISOCoinId"] = json!(1);
        } else {
            body["AdvancedDefinition"]["ISOCoinName"] = json!(p.currency);
        }
        body
    }

    /// The page of a payment: LowProfile/Create. Its address and its LowProfileId.
    pub async fn create_page(&self, p: &Payment) -> Result<(String, String), CallError> {
        let created: Created = self
            .call("/api/v11/LowProfile/Create", &self.create_body(p))
            .await?;
        match (created.response_code, created.url, created.low_profile_id) {
            (0, Some(url), Some(id))
                if url.starts_with("https://") || url.starts_with("http://127.0.0.1") =>
            {
                Ok((url, id))
            }
            (code, _, _) => Err(CallError::Refused(
                code,
                created.description.unwrap_or_default(),
            )),
        }
    }

    /// Gives `amount` (agorot) of deal `deal_id` back: Transactions/RefundByTransactionId, with
    /// `PartialSum` below the whole and `AllowMultipleRefunds` so several partial refunds may
    /// follow one another.
    pub async fn refund_deal(
        &self,
        deal_id: i64,
        amount: i64,
        whole: bool,
    ) -> Result<(), CallError> {
        let password = self
            .config
            .api_password
            .as_ref()
            .ok_or_else(|| CallError::Refused(-1, "no KUPA_CARDCOM_API_PASSWORD".into()))?;
        let mut body = json!({
            "ApiName": self.config.api_name.expose(),
            "ApiPassword": password.expose(),
            "TransactionId": deal_id,
            "AllowMultipleRefunds": true,
        });
        if !whole {
            body["PartialSum"] = json!(shekels(amount));
        }
        let r: Refunded = self
            .call("/api/v11/Transactions/RefundByTransactionId", &body)
            .await?;
        match r.response_code {
            0 => Ok(()),
            c => Err(CallError::Refused(c, r.description.unwrap_or_default())),
        }
    }

    /// What CardCom says of a deal, asked by its LowProfileId.
    pub async fn lp_result(&self, low_profile_id: &str) -> Result<LpResult, CallError> {
        self.call(
            "/api/v11/LowProfile/GetLpResult",
            &json!({
                "TerminalNumber": self.config.terminal,
                "ApiName": self.config.api_name.expose(),
                "LowProfileId": low_profile_id,
            }),
        )
        .await
    }
}

fn transport_kind(e: &reqwest::Error) -> &'static str {
    if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connection failed"
    } else {
        "transport error"
    }
}

#[async_trait]
impl PaymentGateway for CardCom {
    /// CardCom's page takes cards (and its tokens, the saved cards), in any currency the
    /// catalogue sells in; PayPal, Blik and PayU are other providers'.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        match method {
            PaymentMethod::Card | PaymentMethod::SavedCard => MethodOffer::AnyCurrency,
            _ => MethodOffer::No,
        }
    }

    /// CardCom's pages are opened by a call ([`PaymentGateway::open_page`]); this address is
    /// never handed out.
    fn form_url(&self, _payment: &Payment) -> String {
        String::new()
    }

    /// GetLpResult for the payment's page: a finished deal's word (the notification may not have
    /// come); nothing while the buyer is still on the page, or when CardCom cannot be asked.
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        let page = self.deals.page_of(&payment.id).await.ok()??;
        let result = self.lp_result(&page).await.ok()?;
        let update = judge(payment, self.config.terminal, &result).ok()?;
        if update.status == PaymentStatus::Authorized {
            let deal = result
                .tranzaction_info
                .as_ref()
                .and_then(|t| t.tranzaction_id)
                .or(result.tranzaction_id)?;
            self.keep_deal(&payment.id, deal).await.ok()?;
        }
        Some(update)
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        // CardCom's page takes cards; PayPal, Blik and PayU are other providers' (issue 20 item
        // 2), so they are refused here rather than sent to a card page.
        if !matches!(
            payment.method,
            PaymentMethod::Card | PaymentMethod::SavedCard
        ) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "this payment method is not offered with CardCom",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        let (url, page) = self.create_page(payment).await.map_err(|e| {
            let (code, why) = match &e {
                CallError::NoResponse(why) => (payment_codes::ERROR_NO_RESPONSE, why.clone()),
                CallError::Refused(c, _) => {
                    (payment_codes::ERROR_RESPONSE, format!("response code {c}"))
                }
            };
            tracing::warn!(payment = %payment.id, %why, "CardCom did not open a payment page");
            AppError::rejected_with(
                ErrorCode::PaymentError,
                "the payment page could not be opened: please try again",
                json!({ "failureCode": code }),
            )
        })?;
        self.deals
            .record_page(&payment.id, "cardcom", &page, self.clock.now_ms())
            .await?;
        Ok(url)
    }

    /// RefundByTransactionId for the payment's deal (kept when CardCom confirmed it): the whole
    /// deal, or `PartialSum` for part of it. A key already made answers at once, so a refund asked
    /// twice gives the money once.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        if self.deals.refund_made(&payment.id, &refund.key).await? {
            return Ok(());
        }
        let deal = self
            .deals
            .deal_of(&payment.id)
            .await?
            .and_then(|d| d.parse::<i64>().ok())
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::PaymentError,
                    "no CardCom deal is known for this payment",
                )
            })?;
        let whole = refund.amount >= payment.amount;
        if let Err(e) = self.refund_deal(deal, refund.amount, whole).await {
            tracing::warn!(payment = %payment.id, error = ?e, "CardCom did not confirm a refund");
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "CardCom did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount, whole, "CardCom refund made");
        Ok(())
    }
}

#[cfg(test)]
mod tests;
