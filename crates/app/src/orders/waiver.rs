//! The waivers of children's vouchers read back and swept (decision 0041): the buyer's own
//! order shows the children masked; a manager of the voucher's business reads the whole waiver
//! with its signature; the sweeper deletes those whose time is up.

use kupa_domain::ids::ReservationId;
use std::sync::Arc;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::staff::{Access, Caller};
use crate::vouchers::waiver::{MaskedWaiver, StoredWaiver, UNPAID_WAIVER_KEPT_MS, WaiverStore};

use super::*;

impl OrderService {
    /// The waivers of children's vouchers (the wiring gives the store).
    pub fn with_waivers(mut self, waivers: Arc<dyn WaiverStore>) -> OrderService {
        self.waivers = Some(waivers);
        self
    }

    fn waiver_store(&self) -> AppResult<&dyn WaiverStore> {
        self.waivers
            .as_deref()
            .ok_or_else(|| AppError::internal("no waiver store: OrderService::with_waivers"))
    }

    /// The waiver of an order its buyer has already been allowed to read ([`Self::gift_order`]),
    /// masked: the children's first names and birth years.
    pub async fn masked_waiver(&self, order: &Order) -> AppResult<Option<MaskedWaiver>> {
        if order.kind != OrderKind::Vouchers {
            return Ok(None);
        }
        Ok(self
            .waiver_store()?
            .order_waiver(order.id.as_str())
            .await?
            .map(|w| w.waiver.masked()))
    }

    /// GET /staff/waivers/{orderId}: the whole waiver of a paid order, for a manager of the
    /// voucher's business only. Any other manager, and an order with no waiver or not paid, is
    /// told there is none (404), so the call does not say which orders have children on them.
    pub async fn staff_waiver(
        &self,
        caller: &Caller,
        order_id: &ReservationId,
    ) -> AppResult<StoredWaiver> {
        caller.require(Access::Waivers)?;
        let waiver = self
            .waiver_store()?
            .order_waiver(order_id.as_str())
            .await?
            .filter(|w| w.paid && caller.sees(w.waiver.business_id))
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such waiver"))?;
        // Who read whose waiver, and nothing of what it says.
        tracing::info!(user_id = caller.user.id, order_id = %order_id, "staff read a waiver");
        Ok(waiver)
    }

    /// Deletes the waivers kept past their day, and those of orders never paid after a day.
    pub async fn sweep_waivers(&self) -> AppResult<u64> {
        let now = self.clock.now_ms();
        Ok(self
            .waiver_store()?
            .sweep_waivers(self.tickets.today(), now - UNPAID_WAIVER_KEPT_MS)
            .await?)
    }
}
