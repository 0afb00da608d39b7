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
//!
//! Saved cards by token (decision 0066): a page opened with `ChargeAndCreateToken` answers
//! `TokenInfo` (`Token`, `CardMonth`, `CardYear`) in GetLpResult; the card is saved as any other
//! (our random token for the buyer) and CardCom's token kept beside it, server-side only
//! (`saved_card_tokens`, migration 0046). A `savedCard` payment naming such a card is charged by
//! `POST /api/v11/Transactions/Transaction` (`Token`, `CardExpirationMMYY`, `NumOfPayments`,
//! `ExternalUniqTranId` = the payment's id), without a page, and settled when that answer is lost
//! by `POST /api/v11/Transactions/GetTransactionByExternalUniqTran`. [`CardCom::reconcile`] asks
//! CardCom about open payments nobody reads; refunds are claimed by key before CardCom is called.

pub mod notify;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentStatus, PaymentUpdate,
    payment_codes,
};
use kupa_app::orders::{OrderService, SavedCardCharge};
use kupa_app::ports::{Clock, MethodOffer, PaymentDeals, RefundClaim};
use kupa_app::saved_cards::{CardToSave, SavedCardService};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::delivery::secret::Secret;
use crate::http;

pub const DEFAULT_API_URL: &str = "https://secure.cardcom.solutions";
/// Where CardCom posts when a deal ends, below the site's public address.
pub const NOTIFY_PATH: &str = "/pay/cardcom/notify";
/// The provider name kept with its rows (`payment_deals`, `saved_card_tokens`).
pub const PROVIDER: &str = "cardcom";
/// Reconciliation: payments younger than this are left to their buyer and CardCom's post ...
pub const RECONCILE_MIN_AGE_MS: i64 = 60 * 1000;
/// ... each is asked at most once in this long, by one node ...
pub const RECONCILE_EVERY_MS: i64 = 2 * 60 * 1000;
/// ... and none older than this (CardCom's page is long closed; its windows are minutes).
pub const RECONCILE_MAX_AGE_MS: i64 = 2 * 60 * 60 * 1000;
/// A token charge CardCom still does not know this long after it was sent never reached it: the
/// payment fails (`errorNoResponse`). Well past the call's timeout.
pub const TOKEN_CHARGE_LOST_MS: i64 = 10 * 60 * 1000;

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
        let api_name = http::required_secret(lookup, "KUPA_CARDCOM_API_NAME")?;
        let api_password = Secret::from_env_or_file("KUPA_CARDCOM_API_PASSWORD", lookup)?;
        let public_url = http::public_url("CardCom", public_url)?;
        Ok(Some(CardComConfig {
            terminal,
            api_name,
            api_password,
            api_url: lookup("KUPA_CARDCOM_API_URL")
                .filter(|u| !u.trim().is_empty())
                .unwrap_or_else(|| DEFAULT_API_URL.into()),
            public_url,
            timeout: http::PAYMENT_TIMEOUT,
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
    /// The saved cards, attached by the wiring once the app is built ([`CardCom::attach`]): the
    /// cards CardCom tokenises are saved there. Unattached, no card is saved.
    saved_cards: OnceLock<Arc<SavedCardService>>,
}

/// Why a call to CardCom came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: `errorResponse`, with CardCom's `ResponseCode`.
    Refused(i64, String),
}

impl From<http::NoAnswer> for CallError {
    fn from(e: http::NoAnswer) -> CallError {
        CallError::NoResponse(e.to_string())
    }
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
    /// With `ChargeAndCreateToken`: the card's token at CardCom.
    #[serde(default)]
    pub token_info: Option<TokenInfo>,
}

/// GetLpResult's `TokenInfo`. Its `Token` charges the card: never logged (masked in `Debug`).
#[derive(Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct TokenInfo {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub card_year: Option<i64>,
    #[serde(default)]
    pub card_month: Option<i64>,
}

impl std::fmt::Debug for TokenInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenInfo")
            .field("token", &self.token.as_ref().map(|_| "[redacted]"))
            .field("card_year", &self.card_year)
            .field("card_month", &self.card_month)
            .finish()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct TranzactionInfo {
    pub response_code: i64,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub tranzaction_id: Option<i64>,
    #[serde(default)]
    pub terminal_number: Option<i64>,
    #[serde(default)]
    pub first_card_digits: Option<i64>,
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
    judge_deal(expected, r.response_code == 0, &info, r.tranzaction_id)
}

/// What CardCom's word on a token charge (`Transactions/Transaction`, or its status query by
/// `ExternalUniqTranId`) is for the payment `expected`; `Err` when it is not this terminal's or
/// not for this payment's amount.
pub fn judge_charge(
    expected: &Payment,
    terminal: i64,
    info: &TranzactionInfo,
) -> Result<PaymentUpdate, String> {
    if info.terminal_number.is_some_and(|t| t != terminal) {
        return Err("another terminal's deal".into());
    }
    if info.response_code == 0 && info.tranzaction_id.is_none() {
        return Err("a charge without a deal id".into());
    }
    judge_deal(expected, true, info, None)
}

fn judge_deal(
    expected: &Payment,
    page_ok: bool,
    info: &TranzactionInfo,
    page_deal: Option<i64>,
) -> Result<PaymentUpdate, String> {
    let paid = page_ok && info.response_code == 0;
    if paid {
        let amount = info.amount.map(|a| (a * 100.0).round() as i64);
        if amount != Some(expected.amount.minor()) {
            return Err(format!(
                "the deal's amount {amount:?} is not the payment's {}",
                expected.amount.minor()
            ));
        }
        if expected.currency == "ILS" && info.coin_id.is_some_and(|c| c != 1) {
            return Err("the deal's currency is not the payment's".into());
        }
    }
    let tran = info.tranzaction_id.or(page_deal);
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
        card_bin: paid.then(|| bin_of(info)).flatten(),
        failure_code: (!paid).then(|| payment_codes::PAYMENT_ERROR.to_owned()),
        decline_reason: None,
        note,
    })
}

/// The card's first six digits, from CardCom's `FirstCardDigits`.
fn bin_of(info: &TranzactionInfo) -> Option<String> {
    info.first_card_digits
        .map(|d| d.to_string())
        .filter(|d| d.len() == 6)
}

/// What may be saved of a card CardCom tokenised: brand, BIN, last four and the expiry of
/// `TokenInfo` (a two-digit year is this century's).
fn card_to_save(info: &TranzactionInfo, token: &TokenInfo) -> Option<CardToSave> {
    let month = u32::try_from(token.card_month?)
        .ok()
        .filter(|m| (1..=12).contains(m))?;
    let year = i32::try_from(token.card_year?).ok()?;
    let year = if year < 100 { 2000 + year } else { year };
    let last4 = info
        .last4_card_digits_string
        .clone()
        .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_digit()))?;
    Some(CardToSave {
        brand: info
            .brand
            .as_deref()
            .map(|b| b.trim().to_ascii_lowercase())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "card".into()),
        bin: bin_of(info),
        last4,
        expiry_year: year,
        expiry_month: month,
    })
}

/// CardCom's `CardExpirationMMYY` of a saved card: "1027" for October 2027.
pub fn expiration_mmyy(year: i32, month: u32) -> String {
    format!("{month:02}{:02}", year.rem_euclid(100))
}

impl CardCom {
    pub fn new(
        config: CardComConfig,
        deals: Arc<dyn PaymentDeals>,
        clock: Arc<dyn Clock>,
    ) -> Result<CardCom, String> {
        let client = http::client("CardCom", config.timeout)?;
        Ok(CardCom {
            config,
            client,
            deals,
            clock,
            saved_cards: OnceLock::new(),
        })
    }

    /// Gives the adapter the saved cards, where the cards CardCom tokenises are saved (the
    /// wiring does, once the app is built). A second call changes nothing.
    pub fn attach(&self, saved_cards: Arc<SavedCardService>) {
        let _ = self.saved_cards.set(saved_cards);
    }

    /// What Kupa keeps when CardCom confirms a page's deal for `payment`: the deal id (for its
    /// refunds), and with `ChargeAndCreateToken` the card, saved with CardCom's token beside it.
    /// An error: something could not be kept (CardCom's word is then not recorded yet either).
    pub async fn confirmed(&self, payment: &Payment, result: &LpResult) -> AppResult<()> {
        if let Some(deal) = result
            .tranzaction_info
            .as_ref()
            .and_then(|t| t.tranzaction_id)
            .or(result.tranzaction_id)
        {
            self.keep_deal(&payment.id, deal).await?;
        }
        if payment.save_card
            && let (Some(info), Some(token)) = (&result.tranzaction_info, &result.token_info)
        {
            self.keep_card(payment, info, token).await?;
        }
        Ok(())
    }

    async fn keep_card(
        &self,
        payment: &Payment,
        info: &TranzactionInfo,
        token: &TokenInfo,
    ) -> AppResult<()> {
        let Some(cards) = self.saved_cards.get() else {
            return Ok(());
        };
        let (Some(card), Some(provider_token)) = (
            card_to_save(info, token),
            token
                .token
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty()),
        ) else {
            tracing::warn!(payment = %payment.id, "CardCom made a token without the card's details: card not saved");
            return Ok(());
        };
        if let Some(saved) = cards.remember_confirmed(payment, &card).await? {
            self.deals
                .keep_card_token(&saved.token, PROVIDER, provider_token, self.clock.now_ms())
                .await?;
            tracing::info!(payment = %payment.id, "CardCom's token of the saved card kept");
        }
        Ok(())
    }

    /// Keeps a confirmed deal's id, so its refunds can name it.
    pub async fn keep_deal(&self, payment_id: &str, deal_id: i64) -> AppResult<()> {
        self.deals
            .record_deal(
                payment_id,
                PROVIDER,
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
        let answer = http::send(http::with_json(self.client.post(url), body.to_string())).await?;
        if answer.status != 200 {
            return Err(CallError::Refused(-1, format!("HTTP {}", answer.status)));
        }
        answer
            .json()
            .ok_or_else(|| CallError::Refused(-1, "an answer that is not its JSON".into()))
    }

    /// LowProfile/Create's body for a payment.
    pub fn create_body(&self, p: &Payment) -> Value {
        let back = http::back_url(&self.config.public_url, p, "");
        let mut body = json!({
            "TerminalNumber": self.config.terminal,
            "ApiName": self.config.api_name.expose(),
            "Operation": if p.save_card { "ChargeAndCreateToken" } else { "ChargeOnly" },
            "ReturnValue": p.id,
            "Amount": shekels(p.amount.minor()),
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
            (0, Some(url), Some(id)) if http::is_https_or_loopback(&url) => Ok((url, id)),
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

    /// `Transactions/Transaction` by a saved card's token: the payment's amount in
    /// `NumOfPayments` payments, `ExternalUniqTranId` the payment's id (CardCom charges one id
    /// once; `ExternalUniqUniqTranIdResponse`, so spelled in CardCom's OpenAPI, answers a repeat
    /// with the first answer instead of error 608).
    pub fn charge_body(&self, p: &Payment, token: &str, expiry_mmyy: &str) -> Value {
        let mut body = json!({
            "TerminalNumber": self.config.terminal,
            "ApiName": self.config.api_name.expose(),
            "Amount": shekels(p.amount.minor()),
            "Token": token,
            "CardExpirationMMYY": expiry_mmyy,
            "ExternalUniqTranId": p.id,
            "ExternalUniqUniqTranIdResponse": true,
            "NumOfPayments": p.installments.max(1),
        });
        if p.currency == "ILS" {
            body["ISOCoinId"] = json!(1);
        } else {
            body["Advanced"] = json!({ "ISOCoinName": p.currency });
        }
        body
    }

    /// What CardCom says of the charge sent with `ExternalUniqTranId` = `payment_id`.
    pub async fn charge_result(&self, payment_id: &str) -> Result<TranzactionInfo, CallError> {
        self.call(
            "/api/v11/Transactions/GetTransactionByExternalUniqTran",
            &json!({
                "TerminalNumber": self.config.terminal,
                "ApiName": self.config.api_name.expose(),
                "ExternalUniqTranId": payment_id,
            }),
        )
        .await
    }

    /// CardCom's word on a token charge, checked, with its deal id kept for the refunds.
    async fn charge_word(
        &self,
        payment: &Payment,
        info: &TranzactionInfo,
    ) -> Option<PaymentUpdate> {
        let update = match judge_charge(payment, self.config.terminal, info) {
            Ok(u) => u,
            Err(why) => {
                tracing::warn!(payment = %payment.id, %why, "a CardCom charge answer that does not match its payment");
                return None;
            }
        };
        if update.status == PaymentStatus::Authorized {
            self.keep_deal(&payment.id, info.tranzaction_id?)
                .await
                .ok()?;
        }
        Some(update)
    }

    /// Asks CardCom about open payments nobody reads (no post came, no buyer came back): up to
    /// `limit` of them, each at most once in [`RECONCILE_EVERY_MS`] across all nodes (a lease in
    /// `payment_deals`), from [`RECONCILE_MIN_AGE_MS`] to [`RECONCILE_MAX_AGE_MS`] old, before
    /// and after their window ends. CardCom's word goes the one way (`expire_if_due`): a paid
    /// deal finalises the order, or is refunded when the order can no longer be had. Returns how
    /// many were asked.
    pub async fn reconcile(&self, orders: &OrderService, limit: i64) -> AppResult<usize> {
        let now = self.clock.now_ms();
        let due = self
            .deals
            .claim_open_to_ask(
                PROVIDER,
                now - RECONCILE_MAX_AGE_MS,
                now - RECONCILE_MIN_AGE_MS,
                now - RECONCILE_EVERY_MS,
                now,
                limit,
            )
            .await?;
        for id in &due {
            let settled = match orders.payment(id).await {
                Ok(p) => orders.expire_if_due(p).await.map(|p| p.status),
                Err(e) => Err(e),
            };
            match settled {
                Ok(status) if !status.is_open() => {
                    tracing::info!(payment = %id, status = status.as_str(), "reconciliation: CardCom's word recorded");
                }
                Ok(_) => {}
                Err(e) => {
                    tracing::warn!(payment = %id, error = %e, "reconciliation: CardCom's word could not be recorded; will ask again");
                }
            }
        }
        Ok(due.len())
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
    /// A payment charged by token asks `GetTransactionByExternalUniqTran` instead: CardCom's
    /// deal when the charge reached it; when CardCom still knows none [`TOKEN_CHARGE_LOST_MS`]
    /// after it was sent, the charge never arrived and the payment fails (`errorNoResponse`).
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        let Some(page) = self.deals.page_of(&payment.id).await.ok()? else {
            self.deals.card_charge_of(&payment.id).await.ok()??;
            let info = self.charge_result(&payment.id).await.ok()?;
            if info.response_code != 0 && info.tranzaction_id.is_none() {
                let lost = self.clock.now_ms() - payment.created_at_ms > TOKEN_CHARGE_LOST_MS;
                return lost.then(|| PaymentUpdate {
                    status: PaymentStatus::Failed,
                    card_brand: None,
                    card_last4: None,
                    card_bin: None,
                    failure_code: Some(payment_codes::ERROR_NO_RESPONSE.to_owned()),
                    decline_reason: None,
                    note: "cardcom: the token charge never reached CardCom".into(),
                });
            }
            return self.charge_word(payment, &info).await;
        };
        let result = self.lp_result(&page).await.ok()?;
        let update = judge(payment, self.config.terminal, &result).ok()?;
        if update.status == PaymentStatus::Authorized {
            self.confirmed(payment, &result).await.ok()?;
        }
        Some(update)
    }

    /// A saved card CardCom holds a token for, charged by `Transactions/Transaction`: refused
    /// (`notFound`) when it is not the payment's customer's live card, and (`paymentError`,
    /// failureCode `formValidation`) when CardCom holds no token for it (a card saved under
    /// another gateway) or it has expired: the buyer pays with a card instead.
    async fn charge_saved_card(
        &self,
        payment: &Payment,
        card_token: &str,
    ) -> AppResult<SavedCardCharge> {
        let Some(customer) = payment.customer_id else {
            return Err(AppError::rejected(
                kupa_app::accounts::NOT_LOGGED_IN,
                "a saved card needs a logged-in customer",
            ));
        };
        let Some(cards) = self.saved_cards.get() else {
            return Err(AppError::internal("CardCom has no saved cards attached"));
        };
        if cards.card_of(customer, card_token).await?.is_none() {
            return Err(AppError::rejected(
                kupa_app::saved_cards::SAVED_CARD_NOT_FOUND,
                "no such saved card",
            ));
        }
        let cannot = |why: &str| {
            AppError::rejected_with(
                ErrorCode::PaymentError,
                format!("this saved card cannot be charged here ({why}): pay with a card"),
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            )
        };
        let Some(card) = self
            .deals
            .provider_card(card_token, customer, PROVIDER)
            .await?
        else {
            return Err(cannot("it was not saved with CardCom"));
        };
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()));
        let expiry = card.expiry_year * 12 + i32::try_from(card.expiry_month).unwrap_or(0);
        if expiry < i32::from(today.year()) * 12 + i32::from(today.month()) {
            return Err(cannot("it has expired"));
        }
        self.deals
            .record_card_charge(&payment.id, PROVIDER, card_token, self.clock.now_ms())
            .await?;
        let body = self.charge_body(
            payment,
            &card.provider_token,
            &expiration_mmyy(card.expiry_year, card.expiry_month),
        );
        let info: TranzactionInfo = match self
            .call("/api/v11/Transactions/Transaction", &body)
            .await
        {
            Ok(info) => info,
            Err(CallError::NoResponse(why)) => {
                tracing::warn!(payment = %payment.id, %why, "CardCom did not answer a token charge: it is asked again by the payment's id");
                return Ok(SavedCardCharge::NoAnswer);
            }
            Err(CallError::Refused(code, _)) => {
                // An HTTP error or an answer that is not CardCom's: whether it charged is not
                // known, so the payment stays open and CardCom is asked by the payment's id.
                tracing::warn!(payment = %payment.id, code, "CardCom's answer to a token charge was not readable: it is asked again by the payment's id");
                return Ok(SavedCardCharge::NoAnswer);
            }
        };
        Ok(match self.charge_word(payment, &info).await {
            Some(word) => SavedCardCharge::Answered(word),
            None => SavedCardCharge::NoAnswer,
        })
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
    ///
    /// The key is claimed in the database before CardCom is called (decision 0066), so two
    /// refunds of one key, on any nodes, reach CardCom once: the second answers an error while
    /// the first is in flight and Ok once it is made. A refusal gives the claim up (no money
    /// moved). No answer (a timeout, a crash mid-call) keeps the claim for good:
    /// `RefundByTransactionId` has no idempotency field, so calling again could refund twice;
    /// the refund waits for a person, who checks the deal in CardCom's back office
    /// (docs/operations.md).
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        let now = self.clock.now_ms();
        match self
            .deals
            .claim_refund_key(
                &payment.id,
                &refund.key,
                refund.amount,
                now,
                // Never taken over: an unanswered refund may have been made.
                i64::MIN,
            )
            .await?
        {
            RefundClaim::Done => return Ok(()),
            RefundClaim::Busy => {
                return Err(AppError::rejected(
                    ErrorCode::PaymentError,
                    "this refund is being made: try again shortly",
                ));
            }
            RefundClaim::Claimed => {}
        }
        let Some(deal) = self
            .deals
            .deal_of(&payment.id)
            .await?
            .and_then(|d| d.parse::<i64>().ok())
        else {
            self.deals
                .release_refund_key(&payment.id, &refund.key)
                .await?;
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "no CardCom deal is known for this payment",
            ));
        };
        let whole = refund.amount >= payment.amount;
        if let Err(e) = self.refund_deal(deal, refund.amount.minor(), whole).await {
            if matches!(e, CallError::Refused(code, _) if code != -1) {
                tracing::warn!(payment = %payment.id, error = ?e, "CardCom refused a refund");
                self.deals
                    .release_refund_key(&payment.id, &refund.key)
                    .await?;
            } else {
                tracing::error!(payment = %payment.id, key = %refund.key, error = ?e, "CardCom did not confirm a refund and it may have been made: it is not retried; check the deal in CardCom's back office and settle the refund by hand");
            }
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "CardCom did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount.minor(), whole, "CardCom refund made");
        Ok(())
    }
}

#[cfg(test)]
mod tests;
