//! What a card provider adapter keeps of its deals (decision 0063): the provider's id of each
//! payment's deal, and the refunds made of it by key.

use async_trait::async_trait;

use crate::error::StoreResult;

#[async_trait]
pub trait PaymentDeals: Send + Sync {
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
