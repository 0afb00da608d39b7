//! A staff resend of a reservation's tickets by text message (spec section 2: the
//! ticket-reference prompt admin's "SMS resend"; decision 0032). A customer on the phone says
//! the message never came: a manager or a ticket-reference agent of the reservation's business
//! sends the same links again, to the mobile number the order was made with and to no other
//! (a staff member never types a number the tickets go to), a few times an hour at most.

use kupa_domain::customer::MobileNumber;

use super::{Access, Caller, StaffService, sha256_hex};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::orders::{Order, OrderService};

/// Resends one reservation may take in [`RESEND_WINDOW_MS`], whoever asks.
pub const RESENDS_PER_RESERVATION: i64 = 3;
pub const RESEND_WINDOW_MS: i64 = 3_600_000;

impl StaffService {
    /// Sends the reservation's ticket links again to its own mobile number. `reservation` is the
    /// reservation identifier or its reservation number. Another business's reservation, or none,
    /// is 404 `notFound`; an order without a mobile number 409 `CUSTOMER_NO_MOBILE`; past the
    /// limit 429 `tooManyRequests` with the wait.
    pub async fn resend_tickets(
        &self,
        caller: &Caller,
        orders: &OrderService,
        reservation: &str,
    ) -> AppResult<()> {
        caller.require(Access::ReferencePrompts)?;
        let reservation = reservation.trim();
        let not_found = || AppError::rejected(ErrorCode::NotFound, "no such paid reservation");
        let order = self
            .paid_order(orders, reservation)
            .await?
            .ok_or_else(not_found)?;
        let businesses = orders.businesses_of(&order).await?;
        if businesses.is_empty() || !businesses.iter().all(|b| caller.sees(*b)) {
            tracing::info!(
                user_id = caller.user.id,
                "staff resend refused: not the user's business"
            );
            return Err(not_found());
        }
        let to = MobileNumber::parse(&order.customer.mobile_number).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::CustomerNoMobile,
                "the reservation has no mobile number to send to",
            )
        })?;
        let key = sha256_hex(&["staff resend", order.id.as_str()]);
        let now = self.clock.now_ms();
        let used = self
            .creds
            .count_failure(&key, now, RESEND_WINDOW_MS)
            .await?;
        if used.count > RESENDS_PER_RESERVATION {
            let wait = ((used.window_started_at_ms + RESEND_WINDOW_MS - now).max(1) + 999) / 1000;
            tracing::info!(reservation = %order.id, "staff resend refused: the reservation's limit");
            return Err(AppError::rejected_with(
                ErrorCode::TooManyRequests,
                format!("this reservation's tickets were resent often: try again in {wait} s"),
                serde_json::json!({ "retryAfterSeconds": wait }),
            ));
        }
        orders.send_ticket_links(&order, to).await.map_err(|_| {
            AppError::rejected(ErrorCode::SmsFailed, "the text message could not be sent")
        })?;
        // The number stays out of the log: the reservation and who asked say enough.
        tracing::info!(reservation = %order.id, user_id = caller.user.id, "tickets resent by SMS by staff");
        Ok(())
    }

    async fn paid_order(
        &self,
        orders: &OrderService,
        reservation: &str,
    ) -> AppResult<Option<Order>> {
        if reservation.is_empty() || reservation.len() > 64 {
            return Ok(None);
        }
        if let Some(o) = orders.paid_order(&reservation.into()).await? {
            return Ok(Some(o));
        }
        Ok(self
            .creds
            .order_by_reservation_number(reservation)
            .await?
            .filter(|o| o.status == crate::orders::OrderStatus::Paid))
    }
}
