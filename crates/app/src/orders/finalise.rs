//! The one finalisation path, keyed by payment id and safe to run twice: from the gateway's
//! callback, the buyer's commit and the sweeper of stranded payments.

use kupa_domain::ids::SessionId;
use kupa_domain::seating::SeatAddress;

use crate::booking::Settled;
use crate::error::{AppError, AppResult, ErrorCode};

use super::*;

/// An authorized payment that no finalisation reached within this time is finalised (or refunded) by the sweeper.
pub const STRANDED_AFTER_MS: i64 = 60_000;

impl OrderService {
    /// The one finalisation path. A payment whose seats were lost is refunded, whole.
    pub(super) async fn finalise(&self, payment: &Payment) -> AppResult<Finalised> {
        let now = self.clock.now_ms();
        let pending = self
            .orders
            .order(&payment.order_id)
            .await?
            .filter(|o| o.status == OrderStatus::Pending);
        let unfit = match &pending {
            Some(order) => match self.check_tickets_fit(order).await {
                Ok(()) => false,
                Err(AppError::Rejected { .. }) => true,
                Err(e) => return Err(e),
            },
            None => false,
        };
        let outcome = if unfit {
            Finalised::TicketsRefused
        } else {
            // The sale goes through the seat arbiter (decision 0059): the order's seats are its
            // session's in memory while the sale is written, and sold once it is.
            let places: Vec<(PresentationId, SeatAddress)> = pending
                .iter()
                .flat_map(|o| o.tickets.iter().map(|t| (t.presentation_id, t.address())))
                .collect();
            let claim = pending
                .as_ref()
                .filter(|_| !places.is_empty())
                .map(|o| (&o.session_id, places.as_slice()));
            self.booking
                .settle(
                    &[],
                    claim,
                    None,
                    self.orders.finalise(&payment.id, now),
                    |outcome| match outcome {
                        Finalised::Paid(order) => order
                            .tickets
                            .iter()
                            .map(|t| (t.presentation_id, t.address(), Settled::Sold))
                            .collect(),
                        _ => Vec::new(),
                    },
                )
                .await?
        };
        match &outcome {
            Finalised::HoldsLost
            | Finalised::PaidByAnother(_)
            | Finalised::CodeUsedUp
            | Finalised::TicketsRefused => {
                let reason = match outcome {
                    Finalised::HoldsLost => "holdsLost",
                    Finalised::CodeUsedUp => "couponAlreadyUsed",
                    Finalised::TicketsRefused => "ticketSeatKind",
                    _ => "ORDER_ALREADY_PAID",
                };
                // Only the run that moves the payment from authorized to refunded gives the money
                // back: a callback, a commit and sweepers on several nodes may all get here.
                if self
                    .orders
                    .claim_refund(&payment.id, reason, self.clock.now_ms())
                    .await?
                {
                    if let Err(e) = self
                        .gateway
                        .refund(payment, &GatewayRefund::whole(payment))
                        .await
                    {
                        tracing::error!(payment = %payment.id, error = %e, "REFUND FAILED: the payment is marked refunded but the gateway did not confirm; refund it by hand");
                        return Err(e);
                    }
                    tracing::warn!(payment = %payment.id, order = %payment.order_id, reason, "finalisation failed; payment refunded");
                }
            }
            Finalised::Paid(order) => {
                tracing::info!(order = %order.id, payment = %payment.id, "order paid");
                for id in &order.presentations {
                    self.booking.publish(
                        *id,
                        crate::seat_events::SeatChangeKind::Sold,
                        order.tickets_of(*id).map(OrderTicket::address),
                    );
                }
                // The confirmation (the PDF, the mail) was written as a job with the sale
                // (decision 0061): this node's worker makes it after the buyer has the answer.
                (self.messages.wake_confirmations)();
            }
            Finalised::AlreadyPaid(_) | Finalised::NotAuthorized(_) => {}
        }
        Ok(outcome)
    }

    /// The buyer's commit (spec: POST /payment/commit): the reservation of the session's paid or
    /// just-authorized order, once. A second commit is refused with ORDER_ALREADY_PAID. A
    /// `mini_site_url` (decision 0050) must be the mini-site the order was priced through.
    pub async fn commit(
        &self,
        session: &SessionId,
        cart: CartKey,
        captcha_token: &str,
        mini_site_url: Option<&str>,
    ) -> AppResult<Order> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let now = self.clock.now_ms();
        let order = self
            .orders
            .latest_order(session, cart)
            .await?
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::LastCommit, "there is no order to commit")
            })?;
        if let Some(url) = mini_site_url.filter(|u| !u.is_empty()) {
            let site = self.catalogue.channel(Some(url)).await?.mini_site;
            if site.map(|m| m.id) != order.referral_mini_site_id {
                return Err(AppError::rejected_with(
                    ErrorCode::FormValidation,
                    "the order was not priced through this mini-site",
                    serde_json::json!({ "fields": ["miniSiteUrl"] }),
                ));
            }
        }
        let order = match order.status {
            OrderStatus::Paid => order,
            OrderStatus::Pending => {
                let payment_id = order.payment_id.clone();
                let payment = match payment_id {
                    Some(id) => self.orders.payment(&id).await?,
                    None => None,
                };
                let Some(payment) = payment else {
                    return Err(AppError::rejected(
                        ErrorCode::PaymentError,
                        "the order has not been paid",
                    ));
                };
                match payment.status {
                    PaymentStatus::Authorized | PaymentStatus::Captured => {
                        match self.finalise(&payment).await? {
                            Finalised::Paid(o) | Finalised::AlreadyPaid(o) => o,
                            Finalised::HoldsLost => {
                                return Err(AppError::rejected_with(
                                    ErrorCode::LastCommit,
                                    "your seats were released before the payment completed; the payment was refunded",
                                    serde_json::json!({ "reason": "holdsLost", "refunded": true }),
                                ));
                            }
                            Finalised::CodeUsedUp => {
                                return Err(AppError::rejected_with(
                                    ErrorCode::CouponAlreadyUsed,
                                    "a code (or a reference) of this order was used up before the payment completed; the payment was refunded",
                                    serde_json::json!({ "refunded": true }),
                                ));
                            }
                            Finalised::TicketsRefused => {
                                return Err(AppError::rejected_with(
                                    ErrorCode::LastCommit,
                                    "a ticket of this order is not sold on its seat; the payment was refunded",
                                    serde_json::json!({ "reason": "ticketSeatKind", "refunded": true }),
                                ));
                            }
                            Finalised::PaidByAnother(_) => {
                                return Err(AppError::rejected(
                                    ErrorCode::OrderAlreadyPaid,
                                    "this order was already paid",
                                ));
                            }
                            Finalised::NotAuthorized(_) => {
                                return Err(AppError::rejected(
                                    ErrorCode::PaymentError,
                                    "the payment was not completed",
                                ));
                            }
                        }
                    }
                    s if s.is_open() => {
                        return Err(AppError::rejected(
                            ErrorCode::PaymentPending,
                            "the payment is still in progress",
                        ));
                    }
                    PaymentStatus::Refunded
                        if payment.failure_code.as_deref() == Some("holdsLost") =>
                    {
                        return Err(AppError::rejected_with(
                            ErrorCode::LastCommit,
                            "your seats were released before the payment completed; the payment was refunded",
                            serde_json::json!({ "reason": "holdsLost", "refunded": true }),
                        ));
                    }
                    _ => {
                        let code = payment
                            .failure_code
                            .clone()
                            .unwrap_or_else(|| "paymentError".into());
                        return Err(AppError::rejected_with(
                            ErrorCode::PaymentError,
                            "the payment was declined",
                            serde_json::json!({ "reason": code }),
                        ));
                    }
                }
            }
            OrderStatus::Failed | OrderStatus::Cancelled => {
                return Err(AppError::rejected(
                    ErrorCode::LastCommit,
                    "this order cannot be committed",
                ));
            }
        };
        if !self.orders.mark_committed(&order.id, now).await? {
            return Err(AppError::rejected(
                ErrorCode::OrderAlreadyPaid,
                "this order was already paid and committed; check your email for the tickets",
            ));
        }
        Ok(order)
    }

    /// Finalises or refunds payments that were authorized but never finalised (the buyer closed
    /// the tab, the callback was lost). Returns how many it handled.
    pub async fn sweep_stranded_payments(&self) -> AppResult<usize> {
        let stranded = self
            .orders
            .stranded_payments(self.clock.now_ms() - STRANDED_AFTER_MS)
            .await?;
        // One payment that keeps failing must not hold up the others behind it.
        for p in &stranded {
            if let Err(e) = self.finalise(p).await {
                tracing::error!(payment = %p.id, error = %e, "a stranded payment could not be finalised or refunded; will retry");
            }
        }
        Ok(stranded.len())
    }
}
