//! What a card provider adapter keeps of its payments (decision 0063): the provider's page and
//! deal ids of each payment, and the refunds made of it by key.

use async_trait::async_trait;

use crate::error::StoreResult;

#[async_trait]
pub trait PaymentDeals: Send + Sync {
    /// Keeps the provider's page id of a payment (once).
    async fn record_page(
        &self,
        payment_id: &str,
        provider: &str,
        page_id: &str,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// The provider's page id of a payment, when one was recorded.
    async fn page_of(&self, payment_id: &str) -> StoreResult<Option<String>>;
    /// Keeps the provider's deal id of a payment; a second record of the same payment keeps
    /// the first.
    async fn record_deal(
        &self,
        payment_id: &str,
        provider: &str,
        deal_id: &str,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// The provider's deal id of a payment, when one was recorded.
    async fn deal_of(&self, payment_id: &str) -> StoreResult<Option<String>>;
    /// Whether the refund `key` of the payment was made.
    async fn refund_made(&self, payment_id: &str, key: &str) -> StoreResult<bool>;
    /// Records the refund `key` as made (once: a second record changes nothing).
    async fn record_refund(
        &self,
        payment_id: &str,
        key: &str,
        amount: i64,
        now_ms: i64,
    ) -> StoreResult<()>;
}
