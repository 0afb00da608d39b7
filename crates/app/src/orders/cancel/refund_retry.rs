//! Refunds through the payment port: asked once right after the cancellation commits, and again by
//! the sweeper while the provider has not confirmed (a failed refund stays pending, is shown so,
//! and is retried).

use crate::error::AppResult;

use super::super::*;

/// How long after a failed attempt the sweeper tries a pending refund again.
pub const REFUND_RETRY_AFTER_MS: i64 = 30_000;

impl OrderService {
    /// Asks the provider for one pending refund; true when it confirmed (and the row is done).
    /// A failure is recorded on the row and left for the sweeper.
    pub(in crate::orders) async fn try_refund(&self, r: &Refund) -> AppResult<bool> {
        let now = self.clock.now_ms();
        let RefundTarget::Payment { payment_id } = &r.target else {
            return Ok(false);
        };
        let Some(payment) = self.orders.payment(payment_id).await? else {
            return Err(AppError::internal(format!(
                "refund {} names no payment",
                r.id
            )));
        };
        let ask = GatewayRefund {
            key: r.id.clone(),
            amount: r.amount,
        };
        match self.gateway.refund(&payment, &ask).await {
            Ok(()) => {
                self.orders.settle_refund(&r.id, true, now).await?;
                tracing::info!(refund = %r.id, amount = r.amount.minor(), "refund confirmed by the provider");
                Ok(true)
            }
            Err(e) => {
                self.orders.settle_refund(&r.id, false, now).await?;
                tracing::warn!(refund = %r.id, amount = r.amount.minor(), error = %e, "refund not confirmed by the provider; pending, will retry");
                Ok(false)
            }
        }
    }

    /// Retries refunds the provider has not confirmed, each at most every
    /// [`REFUND_RETRY_AFTER_MS`]. Returns how many it confirmed.
    pub async fn sweep_pending_refunds(&self) -> AppResult<usize> {
        let due = self
            .orders
            .pending_refunds(self.clock.now_ms() - REFUND_RETRY_AFTER_MS)
            .await?;
        let mut confirmed = 0;
        for r in &due {
            match self.try_refund(r).await {
                Ok(true) => confirmed += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(refund = %r.id, error = %e, "a pending refund could not be retried")
                }
            }
        }
        Ok(confirmed)
    }
}
