//! The use case: who may cancel, the window and payment rules, then the cancellation in one store
//! transaction under the order's lock, the seats announced free and the refunds asked for.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use kupa_domain::seating::SeatAddress;

use crate::error::{AppError, AppResult, ErrorCode};

use super::super::*;

/// Who asks to cancel: only the reservation's own buyer session, or the customer it belongs to,
/// logged in. A signed link (a forwarded mail) may read the reservation but not cancel it.
#[derive(Debug, Clone, Copy)]
pub struct Canceller<'a> {
    pub session: &'a SessionId,
    pub login: Option<&'a str>,
}

impl OrderService {
    /// The window and payment rules, then the cancellation in one store transaction, then the
    /// seats announced free and the provider asked for the money back. A dry run answers the
    /// same figures and writes nothing.
    pub async fn cancel(
        &self,
        id: &ReservationId,
        who: Canceller<'_>,
        request: CancelRequest,
        refund_to_credit: bool,
    ) -> AppResult<Cancellation> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such reservation");
        let order = self.orders.order(id).await?.ok_or_else(no_such)?;
        if !self.may_cancel(&order, who).await? {
            tracing::info!(reservation = %order.id, "cancel refused: not its buyer");
            return Err(no_such());
        }
        if order.paid_at_ms.is_none() {
            return Err(no_such());
        }
        let now = self.clock.now_ms();
        let mut request = request;
        if refund_to_credit {
            request.credit = Some(self.credit_voucher(&order, now).await?);
        }
        // An order of several presentations closes with the earliest of them.
        let mut until = i64::MAX;
        for id in &order.presentations {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            until = until.min(self.cancellable_until(&info));
        }
        if now >= until {
            return Err(AppError::rejected_with(
                ErrorCode::TicketCancellationsAreNoLongerPossible,
                "cancellations of this event are closed",
                serde_json::json!({ "until": kupa_domain::time::ms_to_rfc3339(until) }),
            ));
        }
        let payment = match &order.payment_id {
            Some(payment_id) => self.orders.payment(payment_id).await?,
            None => None,
        };
        if let Some(p) = payment
            && self.cancellation.not_refundable_online.contains(&p.method)
        {
            return Err(AppError::rejected_with(
                ErrorCode::BalanceIsDue,
                "this payment method cannot be refunded online; please contact the box office",
                serde_json::json!({ "method": p.method.as_str() }),
            ));
        }
        let cancellation_id = token();
        // A screening the cinema moved after the sale: its buyer may cancel free (decision 0058).
        let moved = self
            .orders
            .moved_since(&order.presentations, order.paid_at_ms.unwrap_or(i64::MAX))
            .await?;
        let fee = if moved { None } else { self.cancellation.fee };
        let done = self
            .cancel_written(&order, &request, fee, &cancellation_id, now)
            .await??;
        if done.dry_run {
            return Ok(done);
        }
        tracing::info!(reservation = %order.id, cancellation = %done.id, lines = done.lines.len(), refund = done.refund.minor(), fee = done.fee.minor(), credit = done.credit().is_some(), "reservation cancelled");
        if let (Some((reference, amount)), Some(credit)) = (done.credit(), &request.credit) {
            // The cancellation stands whatever the mail does; the customer area lists the voucher.
            if let Err(e) = self
                .send_credit_mail(&order, reference, amount, &credit.valid_to)
                .await
            {
                tracing::error!(reservation = %order.id, error = %e, "the credit mail was not sent");
            }
        }
        for id in &order.presentations {
            self.booking.publish(
                *id,
                crate::seat_events::SeatChangeKind::Released,
                order
                    .tickets_of(*id)
                    .filter(|t| done.lines.contains(&t.line))
                    .map(OrderTicket::address),
            );
        }
        let mut done = done;
        for r in done.refunds.iter_mut() {
            if r.status == RefundStatus::Pending && self.try_refund(r).await? {
                r.status = RefundStatus::Done;
            }
        }
        Ok(done)
    }

    /// Whether the order can take its refund as voucher credit (decision 0034): it has a customer
    /// (who has a customer area to hold the voucher), sells tickets, and the catalogue has a value
    /// voucher class to issue credit on (the first by sort). The class and the customer, or why not.
    async fn credit_terms(
        &self,
        order: &Order,
    ) -> AppResult<Result<(i64, crate::vouchers::SystemVoucherClass), &'static str>> {
        let Some(customer_id) = order.customer_id else {
            return Ok(Err(
                "only a reservation made logged in can be refunded as voucher credit; cancel without it to be refunded to the way you paid",
            ));
        };
        if order.kind != OrderKind::Tickets {
            return Ok(Err(
                "only a ticket reservation can be refunded as voucher credit",
            ));
        }
        let classes = self.store.system_voucher_classes().await?;
        Ok(classes
            .into_iter()
            .filter(|c| c.is_value())
            .min_by_key(|c| (c.sort, c.id))
            .map(|class| (customer_id, class))
            .ok_or("voucher credit is not offered here; cancel without it to be refunded to the way you paid"))
    }

    /// Whether a cancel of the order may ask for voucher credit (the dialog offers the choice).
    pub async fn credit_offered(&self, order: &Order) -> AppResult<bool> {
        Ok(self.credit_terms(order).await?.is_ok())
    }

    /// The voucher a refund as credit would become, good for the configured days from today.
    /// Drawn here, outside the store's transaction; issued there only if the cancellation's
    /// payment part is more than nothing.
    async fn credit_voucher(&self, order: &Order, now_ms: i64) -> AppResult<CreditVoucher> {
        let (customer_id, class) = self
            .credit_terms(order)
            .await?
            .map_err(|why| AppError::rejected(ErrorCode::RefundToCreditUnavailable, why))?;
        let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
        let valid_to = today
            .checked_add(jiff::ToSpan::days(
                self.cancellation.credit_validity_days.max(1),
            ))
            .map_err(|e| AppError::internal(format!("credit validity: {e}")))?;
        Ok(CreditVoucher {
            reference: crate::vouchers::new_reference(),
            code_id: crate::vouchers::new_code_id(),
            class_id: class.id,
            ticket_id: class.ticket_id,
            customer_id,
            valid_from: today.to_string(),
            valid_to: valid_to.to_string(),
            label: format!("זיכוי מביטול הזמנה {}", order.reservation_number),
            label_en: format!(
                "Credit from cancelled reservation {}",
                order.reservation_number
            ),
        })
    }

    /// Whether `who` may cancel the order: its buyer session, or the customer it belongs to.
    pub async fn may_cancel_order(&self, order: &Order, who: Canceller<'_>) -> AppResult<bool> {
        self.may_cancel(order, who).await
    }

    async fn may_cancel(&self, order: &Order, who: Canceller<'_>) -> AppResult<bool> {
        if &order.session_id == who.session {
            return Ok(true);
        }
        let Some(owner) = order.customer_id else {
            return Ok(false);
        };
        Ok(self
            .customers
            .customer_of_login(who.login)
            .await?
            .is_some_and(|c| c.customer.id == owner))
    }

    /// When cancellations of the presentation close: its own window, or the configured one,
    /// before the start.
    pub fn cancellable_until(&self, info: &PresentationInfo) -> i64 {
        let p = &info.view.presentation;
        let minutes = p
            .cancellation_window_minutes
            .unwrap_or(self.cancellation.window_minutes);
        p.starts_at_ms - minutes * 60_000
    }

    /// The cancellation rules in force (the reservation page shows the fee before confirming).
    pub fn cancellation_policy(&self) -> &CancellationPolicy {
        &self.cancellation
    }

    /// The order's cancellations with their refunds, oldest first.
    pub async fn cancellations(&self, order_id: &ReservationId) -> AppResult<Vec<Cancellation>> {
        Ok(self.orders.cancellations(order_id).await?)
    }
}

impl OrderService {
    /// The one cancellation transaction, through the seat arbiter (decision 0059): the seats it
    /// frees are free in memory as soon as it is written.
    pub(super) async fn cancel_written(
        &self,
        order: &Order,
        request: &CancelRequest,
        fee: Option<CancellationFee>,
        cancellation_id: &str,
        now: i64,
    ) -> AppResult<Result<Cancellation, CancelRefusal>> {
        let touch: Vec<(PresentationId, SeatAddress)> = order
            .tickets
            .iter()
            .filter(|t| t.cancelled_at_ms.is_none())
            .map(|t| (t.presentation_id, t.address()))
            .collect();
        self.booking
            .settle(
                &touch,
                None,
                None,
                self.orders
                    .cancel(&order.id, request, fee, cancellation_id, now),
                |done| freed_by(order, done),
            )
            .await
    }
}

/// The seats a written cancellation freed, for the seat arbiter.
fn freed_by(
    order: &Order,
    done: &Result<Cancellation, CancelRefusal>,
) -> Vec<(PresentationId, SeatAddress, crate::booking::Settled)> {
    match done {
        Ok(done) if !done.dry_run => order
            .tickets
            .iter()
            .filter(|t| done.lines.contains(&t.line))
            .map(|t| {
                (
                    t.presentation_id,
                    t.address(),
                    crate::booking::Settled::Freed,
                )
            })
            .collect(),
        _ => Vec::new(),
    }
}
