//! Saved cards (the spec's MagCards) and the credit-card-benefit check at payment.
//!
//! A card is saved when a card payment that asked for it (`save_card`) is captured and the buyer
//! session has a logged-in customer, and the site allows it (`allow_save_member_card`). What is
//! kept is a random token, the brand, the BIN (first six digits, as on the payment), the last four
//! and the expiry: never the number or the security code. A deleted card stays as a row marked
//! deleted (`isDeleted`) and is never offered again.
//!
//! A credit-card benefit code on an order (kind `creditCardBenefit`) restricts the card that may
//! pay for it to the code's issuer prefix; [`SavedCardService::benefit_rules`] finds those codes.

use std::sync::Arc;

use async_trait::async_trait;
use kupa_domain::ids::Token;
use kupa_domain::tickets::{CodeKind, TicketCodeRule};
use rand::Rng;

use crate::accounts::{CustomerService, NOT_LOGGED_IN};
use crate::catalogue::CatalogueService;
use crate::error::StoreResult;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::orders::{OrderStore, Payment, PaymentMethod, PaymentStatus};
use crate::ports::Clock;
use crate::tickets::TicketService;

/// A saved card of a customer. Holds no card number and no security code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCard {
    /// 32 hex characters, random: how the buyer picks the card.
    pub token: String,
    pub customer_id: i64,
    /// visa, mastercard, amex, ...
    pub brand: String,
    /// The first six digits; None for Isracard's short numbers.
    pub bin: Option<String>,
    pub last4: String,
    pub expiry_year: i32,
    pub expiry_month: u32,
    pub created_at_ms: i64,
    pub deleted_at_ms: Option<i64>,
}

impl SavedCard {
    /// Whether the card may still pay at `now_ms`: good through the last day of its expiry
    /// month, Israel time.
    pub fn is_expired(&self, now_ms: i64) -> bool {
        let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
        let now = i32::from(today.year()) * 12 + i32::from(today.month());
        self.expiry_year * 12 + (self.expiry_month as i32) < now
    }

    /// A credit-card benefit's card check on what is kept of the card: its BIN starts with the
    /// code's prefix. A prefix longer than the BIN, or a card without a BIN, cannot be proven
    /// and is not accepted.
    pub fn accepted_by(&self, rule: &TicketCodeRule) -> bool {
        let prefix = rule.card_prefix.trim();
        prefix.is_empty()
            || self
                .bin
                .as_deref()
                .is_some_and(|bin| bin.len() >= prefix.len() && rule.card_accepted(bin))
    }
}

/// What the gateway knows of a captured card when it asks to save it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardToSave {
    pub brand: String,
    pub bin: Option<String>,
    pub last4: String,
    pub expiry_year: i32,
    pub expiry_month: u32,
}

#[async_trait]
pub trait SavedCardStore: Send + Sync {
    async fn insert_saved_card(&self, card: &SavedCard) -> StoreResult<()>;
    /// The customer's cards that are not deleted, oldest first.
    async fn saved_cards(&self, customer_id: i64) -> StoreResult<Vec<SavedCard>>;
    /// The card with this token, deleted or not.
    async fn saved_card(&self, token: &str) -> StoreResult<Option<SavedCard>>;
    /// Marks the customer's card deleted; false when the customer has no such (live) card.
    async fn delete_saved_card(
        &self,
        customer_id: i64,
        token: &str,
        now_ms: i64,
    ) -> StoreResult<bool>;
}

/// The card is not the customer's, or was deleted.
pub const SAVED_CARD_NOT_FOUND: ErrorCode = ErrorCode::NotFound;

pub struct SavedCardService {
    cards: Arc<dyn SavedCardStore>,
    orders: Arc<dyn OrderStore>,
    tickets: Arc<TicketService>,
    catalogue: Arc<CatalogueService>,
    customers: Arc<CustomerService>,
    clock: Arc<dyn Clock>,
}

impl SavedCardService {
    pub fn new(
        cards: Arc<dyn SavedCardStore>,
        orders: Arc<dyn OrderStore>,
        tickets: Arc<TicketService>,
        catalogue: Arc<CatalogueService>,
        customers: Arc<CustomerService>,
        clock: Arc<dyn Clock>,
    ) -> SavedCardService {
        SavedCardService {
            cards,
            orders,
            tickets,
            catalogue,
            customers,
            clock,
        }
    }

    /// The id of the customer of the login, if any.
    pub async fn customer_id(&self, login_id: Option<&str>) -> AppResult<Option<i64>> {
        Ok(self
            .customers
            .customer_of_login(login_id)
            .await?
            .map(|a| a.customer.id))
    }

    async fn logged_in(&self, login_id: Option<&str>) -> AppResult<i64> {
        self.customer_id(login_id)
            .await?
            .ok_or_else(|| AppError::rejected(NOT_LOGGED_IN, "nobody is logged in"))
    }

    /// The logged-in customer's saved cards (`loginError` without a login).
    pub async fn list(&self, login_id: Option<&str>) -> AppResult<Vec<SavedCard>> {
        let customer = self.logged_in(login_id).await?;
        self.cards_of(customer).await
    }

    /// The cards of a customer (the gateway's saved-card page, for the payment's customer).
    pub async fn cards_of(&self, customer_id: i64) -> AppResult<Vec<SavedCard>> {
        Ok(self.cards.saved_cards(customer_id).await?)
    }

    /// Deletes one of the logged-in customer's cards (`loginError`, `notFound`).
    pub async fn delete(&self, login_id: Option<&str>, token: &str) -> AppResult<()> {
        let customer = self.logged_in(login_id).await?;
        if Token::parse(token).is_none()
            || !self
                .cards
                .delete_saved_card(customer, token, self.clock.now_ms())
                .await?
        {
            return Err(AppError::rejected(
                SAVED_CARD_NOT_FOUND,
                "no such saved card",
            ));
        }
        tracing::info!(customer, "saved card deleted");
        Ok(())
    }

    /// The customer's live card with this token, if it is theirs.
    pub async fn card_of(&self, customer_id: i64, token: &str) -> AppResult<Option<SavedCard>> {
        if Token::parse(token).is_none() {
            return Ok(None);
        }
        Ok(self
            .cards
            .saved_card(token)
            .await?
            .filter(|c| c.customer_id == customer_id && c.deleted_at_ms.is_none()))
    }

    /// Saves the card of a captured card payment that asked for it, when the payment's session
    /// has a logged-in customer and the site allows saving cards. Returns the saved card, or
    /// None when nothing was saved. The same card (brand, BIN, last four, expiry) is kept once.
    pub async fn remember(
        &self,
        payment: &Payment,
        card: &CardToSave,
    ) -> AppResult<Option<SavedCard>> {
        if payment.status != PaymentStatus::Captured {
            return Ok(None);
        }
        self.remember_confirmed(payment, card).await
    }

    /// [`SavedCardService::remember`] for a card payment whose provider confirmed the charge
    /// itself (CardCom's deal, decision 0066), before Kupa records its word: the same rules
    /// (asked for, a logged-in customer, allowed by the site), the same card kept once.
    pub async fn remember_confirmed(
        &self,
        payment: &Payment,
        card: &CardToSave,
    ) -> AppResult<Option<SavedCard>> {
        if !payment.save_card || payment.method != PaymentMethod::Card {
            return Ok(None);
        }
        if !self.catalogue.site_config().await?.allow_save_member_card {
            return Ok(None);
        }
        let Some(customer_id) = payment.customer_id else {
            tracing::info!(payment = %payment.id, "card not saved: nobody is logged in");
            return Ok(None);
        };
        let existing = self.cards.saved_cards(customer_id).await?;
        if let Some(same) = existing.into_iter().find(|c| {
            c.brand == card.brand
                && c.bin == card.bin
                && c.last4 == card.last4
                && c.expiry_year == card.expiry_year
                && c.expiry_month == card.expiry_month
        }) {
            return Ok(Some(same));
        }
        let saved = SavedCard {
            token: Token::from_bytes(rand::rng().random()).to_string(),
            customer_id,
            brand: card.brand.clone(),
            bin: card.bin.clone(),
            last4: card.last4.clone(),
            expiry_year: card.expiry_year,
            expiry_month: card.expiry_month,
            created_at_ms: self.clock.now_ms(),
            deleted_at_ms: None,
        };
        self.cards.insert_saved_card(&saved).await?;
        tracing::info!(payment = %payment.id, customer = customer_id, brand = %saved.brand, "card saved");
        Ok(Some(saved))
    }

    /// The credit-card-benefit codes on the order's tickets: the card that pays must be
    /// accepted by each of them ([`TicketCodeRule::card_accepted`]).
    pub async fn benefit_rules(
        &self,
        order_id: &crate::model::ReservationId,
    ) -> AppResult<Vec<TicketCodeRule>> {
        let Some(order) = self.orders.order(order_id).await? else {
            return Ok(Vec::new());
        };
        let codes: Vec<&str> = order
            .tickets
            .iter()
            .filter_map(|t| t.code.as_deref())
            .collect();
        if codes.is_empty() {
            return Ok(Vec::new());
        }
        Ok(self
            .tickets
            .code_rules(&codes)
            .await?
            .into_iter()
            .map(|(_, r)| r)
            .filter(|r| r.kind == CodeKind::CreditCardBenefit)
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card(bin: Option<&str>, year: i32, month: u32) -> SavedCard {
        SavedCard {
            token: "ab".repeat(16),
            customer_id: 1,
            brand: "visa".into(),
            bin: bin.map(str::to_owned),
            last4: "4580".into(),
            expiry_year: year,
            expiry_month: month,
            created_at_ms: 0,
            deleted_at_ms: None,
        }
    }

    /// 2026-05-10 12:00 UTC.
    const NOW: i64 = 1_778_414_400_000;

    #[test]
    fn a_card_is_good_through_its_expiry_month() {
        assert!(!card(None, 2026, 5).is_expired(NOW));
        assert!(card(None, 2026, 4).is_expired(NOW));
        assert!(card(None, 2025, 12).is_expired(NOW));
        assert!(!card(None, 2027, 1).is_expired(NOW));
    }

    #[test]
    fn the_benefit_prefix_is_checked_on_the_bin() {
        let rule = TicketCodeRule {
            card_prefix: "4580".into(),
            kind: CodeKind::CreditCardBenefit,
            ..Default::default()
        };
        assert!(card(Some("458045"), 2030, 1).accepted_by(&rule));
        assert!(!card(Some("424242"), 2030, 1).accepted_by(&rule));
        assert!(
            !card(None, 2030, 1).accepted_by(&rule),
            "no BIN: not provable"
        );
        let long = TicketCodeRule {
            card_prefix: "45804580".into(),
            ..rule.clone()
        };
        assert!(!card(Some("458045"), 2030, 1).accepted_by(&long));
        let any = TicketCodeRule::default();
        assert!(card(None, 2030, 1).accepted_by(&any));
    }
}
