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
//! [`PaymentGateway::refund`]: kupa_app::orders::PaymentGateway::refund
//!
//! Saved cards by token (decision 0066): a page opened with `ChargeAndCreateToken` answers
//! `TokenInfo` (`Token`, `CardMonth`, `CardYear`) in GetLpResult; the card is saved as any other
//! (our random token for the buyer) and CardCom's token kept beside it, server-side only
//! (`saved_card_tokens`, migration 0046). A `savedCard` payment naming such a card is charged by
//! `POST /api/v11/Transactions/Transaction` (`Token`, `CardExpirationMMYY`, `NumOfPayments`,
//! `ExternalUniqTranId` = the payment's id), without a page, and settled when that answer is lost
//! by `POST /api/v11/Transactions/GetTransactionByExternalUniqTran`. [`CardCom::reconcile`] asks
//! CardCom about open payments nobody reads; refunds are claimed by key before CardCom is called.

mod deal;
mod gateway;
pub mod notify;
mod wire;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use kupa_app::error::AppResult;
use kupa_app::orders::OrderService;
use kupa_app::orders::{Payment, PaymentStatus, PaymentUpdate};
use kupa_app::ports::{Clock, DealRef, PaymentDeals};
use kupa_app::saved_cards::SavedCardService;
use serde_json::{Value, json};

use crate::delivery::secret::Secret;
use crate::http;

use deal::card_to_save;
pub use deal::{expiration_mmyy, judge, judge_charge};
pub use wire::{CallError, LpResult, TokenInfo, TranzactionInfo};
use wire::{Created, Refunded, page_language, shekels};

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
            .keep(
                DealRef::Deal,
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

#[cfg(test)]
mod tests;
