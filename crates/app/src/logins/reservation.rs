//! Reservation number and the order's contact: a guest logs in to that reservation, a logged-in
//! customer claims the order into their account.

use super::*;

impl CustomerLoginService {
    /// A guest (no customer logged in) is logged in to that reservation only; a logged-in customer
    /// gets the order into their account. Both halves must match exactly: the number as the
    /// order has it, and the order's mobile number (compared in local form) or email (compared
    /// lower-cased). A miss, whichever half, is `LOGIN_FAILED` and counts against the number and
    /// the address.
    pub async fn reservation_login(
        &self,
        login_id: &str,
        current_login: Option<&str>,
        reservation_number: &str,
        contact: &str,
        captcha_token: &str,
        address: &str,
    ) -> AppResult<ReservationLogin> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let number = normalise_reservation_number(reservation_number)
            .ok_or_else(|| bad_form("reservationNumber", "invalid"))?;
        let contact = contact.trim();
        enum Contact {
            Mobile(MobileNumber),
            Email(String),
        }
        let contact = if contact.contains('@') {
            Contact::Email(email_of(contact)?)
        } else {
            Contact::Mobile(MobileNumber::parse(contact).ok_or_else(|| {
                AppError::rejected(ErrorCode::InvalidMobileNumber, "not an Israeli mobile")
            })?)
        };
        let (account, addr) = (account_key("reservation", &number), address_key(address));
        self.guard(&[&account, &addr]).await?;
        let order = self
            .creds
            .order_by_reservation_number(&number)
            .await?
            .filter(|o| o.status.as_str() == "paid");
        let matches = order.as_ref().is_some_and(|o| match &contact {
            Contact::Mobile(m) => {
                MobileNumber::parse(&o.customer.mobile_number).as_ref() == Some(m)
            }
            Contact::Email(e) => normalise_email(&o.customer.email).as_deref() == Some(e.as_str()),
        });
        let Some(order) = order.filter(|_| matches) else {
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        };
        self.creds.clear_failures(&account.stored).await?;
        let customer = self.customers.customer_of_login(current_login).await?;
        if let Some(c) = customer {
            if order.customer_id == Some(c.customer.id) {
                return Ok(ReservationLogin::Claimed {
                    order_id: order.id.into_string(),
                });
            }
            if order.customer_id.is_some()
                || !self
                    .creds
                    .claim_order(order.id.as_str(), c.customer.id)
                    .await?
            {
                return Err(AppError::rejected(
                    ErrorCode::OrderAlreadyClaimed,
                    "the order is in another account",
                ));
            }
            tracing::info!(customer_id = c.customer.id, order = %order.id, "order claimed by its reservation number");
            return Ok(ReservationLogin::Claimed {
                order_id: order.id.into_string(),
            });
        }
        let now = self.clock.now_ms();
        self.creds
            .bind_reservation_login(
                login_id,
                order.id.as_str(),
                now,
                now + RESERVATION_LOGIN_TTL_MS,
            )
            .await?;
        tracing::info!(order = %order.id, "guest logged in to a reservation");
        Ok(ReservationLogin::Guest {
            order_id: order.id.into_string(),
        })
    }
}
