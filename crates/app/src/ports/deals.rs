//! What a card provider adapter keeps of its payments (decisions 0063, 0066): the provider's page and
//! deal ids of each payment, the refunds made of it by key (each claimed before the provider is
//! called), the saved card a payment charged by token, and the provider's tokens of saved cards.

use async_trait::async_trait;

use kupa_domain::money::Money;

use crate::error::StoreResult;

#[async_trait]
pub trait PaymentDeals: Send + Sync {
    /// Keeps one of the provider's ids of a payment: how a second write for the same payment
    /// goes is [`DealRef`]'s.
    async fn keep(
        &self,
        what: DealRef,
        payment_id: &str,
        provider: &str,
        value: &str,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// One of the provider's ids of a payment, when one was kept.
    async fn kept(&self, what: DealRef, payment_id: &str) -> StoreResult<Option<String>>;
    /// Whether the refund `key` of the payment was made (confirmed by the provider).
    async fn refund_made(&self, payment_id: &str, key: &str) -> StoreResult<bool>;
    /// Records the refund `key` as made (once: a second record changes nothing).
    async fn record_refund(
        &self,
        payment_id: &str,
        key: &str,
        amount: Money,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Claims the refund `key` of the payment before the provider is called: `Claimed` for the
    /// one caller that may call (a new key, or a claim older than `stale_before_ms` whose caller
    /// never finished), `Done` when it was made, `Busy` while another caller holds it.
    async fn claim_refund_key(
        &self,
        payment_id: &str,
        key: &str,
        amount: Money,
        now_ms: i64,
        stale_before_ms: i64,
    ) -> StoreResult<RefundClaim>;
    /// Gives up a claim the provider refused (no money moved), so the key may be asked again.
    async fn release_refund_key(&self, payment_id: &str, key: &str) -> StoreResult<()>;
    /// Claims up to `limit` open payments of `provider` created between `created_after_ms` and
    /// `created_before_ms` that no pass asked since `asked_before_ms`, marking them asked at
    /// `now_ms` (so another node's pass skips them): their ids, the least recently asked first.
    async fn claim_open_to_ask(
        &self,
        provider: &str,
        created_after_ms: i64,
        created_before_ms: i64,
        asked_before_ms: i64,
        now_ms: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>>;
    /// Keeps the provider's token of a saved card (replacing an older one).
    async fn keep_card_token(
        &self,
        card_token: &str,
        provider: &str,
        provider_token: &str,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// The provider's token of the customer's live saved card, with the card's expiry.
    async fn provider_card(
        &self,
        card_token: &str,
        customer_id: i64,
        provider: &str,
    ) -> StoreResult<Option<ProviderCard>>;
}

/// What a payment keeps of its provider, one id each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DealRef {
    /// The provider's page opened for the payment (CardCom's LowProfileId, PayU's or PayPal's
    /// order): kept as first written.
    Page,
    /// The deal the provider confirmed (for the refunds): a second write keeps the first.
    Deal,
    /// The saved card a payment charges by the provider's token (no page): kept as first written.
    CardCharge,
}

/// Where a refund key stands when it is claimed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RefundClaim {
    /// This caller calls the provider.
    Claimed,
    /// The provider confirmed it already.
    Done,
    /// Another caller is calling the provider now.
    Busy,
}

/// A saved card as the provider charges it. The token is the provider's: masked in `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct ProviderCard {
    pub provider_token: String,
    pub expiry_year: i32,
    pub expiry_month: u32,
}

impl std::fmt::Debug for ProviderCard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ProviderCard")
            .field("provider_token", &"[redacted]")
            .field("expiry_year", &self.expiry_year)
            .field("expiry_month", &self.expiry_month)
            .finish()
    }
}
