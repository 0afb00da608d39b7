//! Cancelling a system voucher (spec: POST /system-vouchers/{ref}/cancel): only a voucher nothing
//! of which was used is refunded, whole, through the payment port, as a row of the refund ledger
//! (decision 0022) keyed by its own cancellation; a partly used one can only be replaced. Once,
//! however many cancels and redemptions race for it.

use std::sync::Arc;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::vouchers::{
    SoldVoucher, VoucherCancel, VoucherReader, VoucherStatus, VoucherStore, owned_voucher,
};

use super::*;

/// What a voucher's cancellation came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoucherCancelled {
    pub cancellation_id: String,
    pub refund: Money,
    /// False while the provider has not confirmed the refund (the sweeper retries it).
    pub refund_done: bool,
}

fn not_active(message: &str, offer: Option<&str>) -> AppError {
    match offer {
        Some(offer) => AppError::rejected_with(
            ErrorCode::SystemVoucherNotActive,
            message,
            serde_json::json!({ "offer": offer }),
        ),
        None => AppError::rejected(ErrorCode::SystemVoucherNotActive, message),
    }
}

impl OrderService {
    /// The vouchers sold, for their cancellation (the wiring gives the store).
    pub fn with_vouchers(mut self, vouchers: Arc<dyn VoucherStore>) -> OrderService {
        self.vouchers = Some(vouchers);
        self
    }

    /// POST /system-vouchers/{ref}/cancel: the reader's voucher of `reservation` (the order that
    /// bought it) cancelled and refunded; the voucher as it stands after, and the refund.
    pub async fn cancel_system_voucher(
        &self,
        reference: &str,
        reservation: &str,
        reader: VoucherReader<'_>,
    ) -> AppResult<(SoldVoucher, VoucherCancelled)> {
        let vouchers = self
            .vouchers
            .as_deref()
            .ok_or_else(|| AppError::internal("no voucher store: OrderService::with_vouchers"))?;
        let v = owned_voucher(
            vouchers,
            &self.customers,
            reference,
            Some(reservation),
            reader,
        )
        .await?;
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()));
        let done = self.cancel_voucher(vouchers, &v, today).await?;
        let after = vouchers
            .sold_voucher(&v.reference)
            .await?
            .ok_or_else(|| AppError::internal("a voucher vanished while it was cancelled"))?;
        Ok((after, done))
    }

    /// Cancels the owner's voucher `v` and refunds it.
    async fn cancel_voucher(
        &self,
        vouchers: &dyn VoucherStore,
        v: &SoldVoucher,
        today: jiff::civil::Date,
    ) -> AppResult<VoucherCancelled> {
        if v.is_credit {
            // Credit stands in for a refund already made: paying it out to the card as well
            // would refund the cancelled order twice (decision 0034).
            return Err(AppError::rejected_with(
                ErrorCode::SystemVoucherNotActive,
                "voucher credit from a cancellation is not refunded: use it for an order",
                serde_json::json!({ "reason": "credit" }),
            ));
        }
        match v.status(today) {
            VoucherStatus::Active => {}
            VoucherStatus::PartiallyRedeemed => {
                return Err(not_active(
                    "part of this voucher was used: it can be replaced, not refunded",
                    Some("replacement"),
                ));
            }
            VoucherStatus::Replacement => {
                return Err(not_active("a replacement voucher is not refunded", None));
            }
            VoucherStatus::Cancelled | VoucherStatus::Redeemed | VoucherStatus::Expired => {
                return Err(not_active("this voucher is not active", None));
            }
        }
        let classes = self.store.system_voucher_classes().await?;
        if classes
            .iter()
            .any(|c| c.id == v.class_id && c.box_office_only)
        {
            return Err(AppError::rejected(
                ErrorCode::SystemVoucherNotSoldInOutlet,
                "this voucher is handled at the box office only",
            ));
        }
        let payment = match self.orders.order(&v.order_id).await? {
            Some(order) => match order.payment_id {
                Some(id) => self.orders.payment(&id).await?,
                None => None,
            },
            None => None,
        }
        .ok_or_else(|| AppError::internal("a sold voucher's order has no payment"))?;
        if self
            .cancellation
            .not_refundable_online
            .contains(&payment.method)
            || payment.method == PaymentMethod::Voucher
        {
            return Err(AppError::rejected_with(
                ErrorCode::BalanceIsDue,
                "this payment method cannot be refunded online: contact the box office",
                serde_json::json!({ "method": payment.method.as_str() }),
            ));
        }
        let now = self.clock.now_ms();
        let cancellation_id = token();
        let done = vouchers
            .cancel_voucher(&VoucherCancel {
                voucher: v,
                cancellation_id: &cancellation_id,
                payment_id: &payment.id,
                payment_amount: payment.amount,
                now_ms: now,
            })
            .await?;
        if !done {
            // Another cancel, or a redemption, got there first.
            return Err(not_active(
                "this voucher was used or cancelled meanwhile",
                None,
            ));
        }
        let refund = Refund {
            id: format!("{cancellation_id}:payment"),
            cancellation_id: cancellation_id.clone(),
            order_id: v.order_id.clone(),
            target: RefundTarget::Payment {
                payment_id: payment.id.clone(),
            },
            amount: v.price,
            status: RefundStatus::Pending,
            attempts: 0,
            created_at_ms: now,
            updated_at_ms: now,
        };
        tracing::info!(order = %v.order_id, cancellation = %cancellation_id, amount = v.price.minor(), "system voucher cancelled");
        let refund_done = self.try_refund(&refund).await?;
        Ok(VoucherCancelled {
            cancellation_id,
            refund: v.price,
            refund_done,
        })
    }
}
