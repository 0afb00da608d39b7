//! Changing the email address or the mobile number from the profile (decision 0031). Both log the
//! customer in and receive their tickets and codes, so neither changes before the new one is
//! proven: a 6-digit code mailed to the new address (a customer token of its own purpose, stored
//! as a hash bound to the customer and the address, single use, expiring), or an SMS code sent to
//! the new number (the mobile login's own codes, limits and storage). An address or number another
//! account has is refused (`emailTaken`, `mobileNumberTaken`), also when it is taken between the
//! two steps. The old address is then told, by mail, what changed.

use super::*;

/// How long the code mailed to a new address lives.
pub const CHANGE_EMAIL_TTL_MS: i64 = 30 * 60_000;

/// The stored form of a change-of-address code: bound to the customer and to the new address, so
/// a code proves that address only, for that account only.
fn change_email_hash(customer_id: i64, email: &str, code: &str) -> String {
    sha256_hex(&["changeEmail", &customer_id.to_string(), email, code])
}

/// `d***@example.com`: enough for the owner to recognise, not a whole address in a mail.
fn masked_email(email: &str) -> String {
    match email.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

fn taken(code: ErrorCode, what: &str) -> AppError {
    AppError::rejected(code, format!("another account has this {what}"))
}

impl CustomerLoginService {
    async fn logged_in(&self, login: Option<&str>) -> AppResult<Customer> {
        self.customers
            .customer_of_login(login)
            .await?
            .map(|a| a.customer)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::LoginError, "log in to change your details")
            })
    }

    async fn email_taken_by_another(&self, customer_id: i64, email: &str) -> AppResult<bool> {
        Ok(self
            .creds
            .customers_by_email(email)
            .await?
            .iter()
            .any(|c| c.id != customer_id))
    }

    /// Mails a 6-digit code to the new address; the address changes only when the code comes back
    /// ([`Self::confirm_email_change`]). A newer code replaces the earlier one.
    pub async fn request_email_change(
        &self,
        login: Option<&str>,
        email: &str,
        captcha_token: &str,
    ) -> AppResult<()> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let customer = self.logged_in(login).await?;
        let email = email_of(email)?;
        if normalise_email(&customer.email).as_deref() == Some(email.as_str()) {
            return Err(bad_form("email", "unchanged"));
        }
        if self.email_taken_by_another(customer.id, &email).await? {
            return Err(taken(ErrorCode::EmailTaken, "email address"));
        }
        let now = self.clock.now_ms();
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        self.creds
            .issue_token(
                &CustomerToken {
                    token_hash: change_email_hash(customer.id, &email, &code),
                    purpose: TokenPurpose::ChangeEmail,
                    customer_id: customer.id,
                    created_at_ms: now,
                    expires_at_ms: now + CHANGE_EMAIL_TTL_MS,
                    redeemed_at_ms: None,
                },
                true,
            )
            .await?;
        self.mail(
            &email,
            mail_kind::CHANGE_EMAIL_CODE,
            "אימות כתובת המייל החדשה · Confirm your new email address",
            &format!(
                "הקוד לאימות הכתובת החדשה באזור האישי: {code}\nהקוד בתוקף 30 דקות. \
                 אם לא ביקשת לשנות את כתובת המייל, אפשר להתעלם מההודעה.\n\n\
                 The code to confirm your new address in your account: {code}\n\
                 It works for 30 minutes. If you did not ask to change your email, ignore this mail."
            ),
        )
        .await?;
        tracing::info!(customer_id = customer.id, "email change code sent");
        Ok(())
    }

    /// The mailed code, with the new address it was sent to: the address becomes the customer's
    /// (and confirmed). A wrong code is `CUSTOMER_TOKEN_ERROR` (`params.reason: "wrong"`) and counts
    /// against the account and the client address, as a login does (5 and 30 in 15 minutes);
    /// an expired or used one `CUSTOMER_TOKEN_EXPIRED` / `CUSTOMER_TOKEN_REDEEMED` with the date.
    pub async fn confirm_email_change(
        &self,
        login: Option<&str>,
        email: &str,
        code: &str,
        address: &str,
    ) -> AppResult<Customer> {
        let customer = self.logged_in(login).await?;
        let email = email_of(email)?;
        let code = code.trim();
        let (account, addr) = (
            account_key("changeEmail", &customer.id.to_string()),
            address_key(address),
        );
        self.guard(&[&account, &addr]).await?;
        let shaped = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
        let stored = if shaped {
            self.creds
                .token(&change_email_hash(customer.id, &email, code))
                .await?
        } else {
            None
        };
        let Some(t) = stored
            .filter(|t| t.purpose == TokenPurpose::ChangeEmail && t.customer_id == customer.id)
        else {
            self.count_failure(&[&account, &addr]).await?;
            return Err(AppError::rejected_with(
                ErrorCode::CustomerTokenError,
                "the code is not right for this address: check it, or ask for a new one",
                serde_json::json!({ "reason": "wrong" }),
            ));
        };
        self.check_live(&t)?;
        let now = self.clock.now_ms();
        if !self.creds.redeem_token(&t.token_hash, now).await? {
            return Err(self.already_used(&t.token_hash).await);
        }
        self.creds.clear_failures(&account.stored).await?;
        if !self
            .creds
            .change_customer_email(customer.id, &email, now)
            .await?
        {
            return Err(taken(ErrorCode::EmailTaken, "email address"));
        }
        tracing::info!(customer_id = customer.id, "email address changed");
        let old = normalise_email(&customer.email).unwrap_or_default();
        self.tell_old_address(
            &old,
            &format!(
                "כתובת המייל של החשבון שלך בקופה שונתה ל-{new}.\n\
                 אם לא ביצעת את השינוי, פנו מיד לשירות הלקוחות.\n\n\
                 The email address of your Kupa account was changed to {new}.\n\
                 If you did not make this change, contact customer service at once.",
                new = masked_email(&email)
            ),
        )
        .await?;
        self.customer(customer.id).await
    }

    /// Sends an SMS code to the new number; the number changes only when the code comes back
    /// ([`Self::confirm_mobile_change`]).
    pub async fn request_mobile_change(
        &self,
        login: Option<&str>,
        mobile: &MobileNumber,
        captcha_token: &str,
    ) -> AppResult<()> {
        let customer = self.logged_in(login).await?;
        if MobileNumber::parse(&customer.mobile).as_ref() == Some(mobile) {
            return Err(bad_form("mobileNumber", "unchanged"));
        }
        if self
            .catalogue
            .customer_by_mobile(mobile.as_str())
            .await?
            .is_some_and(|c| c.id != customer.id)
        {
            return Err(taken(ErrorCode::MobileNumberTaken, "mobile number"));
        }
        self.mobile_login
            .request_change_code(mobile, captcha_token)
            .await?;
        tracing::info!(customer_id = customer.id, to = %mobile.masked(), "mobile change code sent");
        Ok(())
    }

    /// The SMS code, with the new number it was sent to: the number becomes the customer's. The
    /// code's own rules answer as at login (`INVALID_SMS_CODE` with `reason`, `loginValidation`
    /// after 5 attempts).
    pub async fn confirm_mobile_change(
        &self,
        login: Option<&str>,
        mobile: &MobileNumber,
        code: &str,
    ) -> AppResult<Customer> {
        let customer = self.logged_in(login).await?;
        self.mobile_login.check_code(mobile, code).await?;
        if !self
            .creds
            .change_customer_mobile(customer.id, mobile.as_str())
            .await?
        {
            return Err(taken(ErrorCode::MobileNumberTaken, "mobile number"));
        }
        tracing::info!(customer_id = customer.id, "mobile number changed");
        let old = normalise_email(&customer.email).unwrap_or_default();
        self.tell_old_address(
            &old,
            &format!(
                "מספר הטלפון הנייד של החשבון שלך בקופה שונה ל-{new}.\n\
                 אם לא ביצעת את השינוי, פנו מיד לשירות הלקוחות.\n\n\
                 The mobile number of your Kupa account was changed to {new}.\n\
                 If you did not make this change, contact customer service at once.",
                new = mobile.masked()
            ),
        )
        .await?;
        self.customer(customer.id).await
    }

    /// The mail that tells the address on file (before the change) that a contact changed.
    async fn tell_old_address(&self, old: &str, text: &str) -> AppResult<()> {
        if old.is_empty() {
            return Ok(());
        }
        self.mail(
            old,
            mail_kind::CONTACT_CHANGED,
            "פרטי הקשר בחשבון שונו · Your account's contact details changed",
            text,
        )
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_code_is_bound_to_its_customer_and_address() {
        let h = change_email_hash(7, "a@example.com", "123456");
        assert_eq!(h, change_email_hash(7, "a@example.com", "123456"));
        assert_ne!(h, change_email_hash(8, "a@example.com", "123456"));
        assert_ne!(h, change_email_hash(7, "b@example.com", "123456"));
        assert_ne!(h, mail_code_hash(7, "123456"), "not a login code");
        assert!(!h.contains("123456"));
    }

    #[test]
    fn a_masked_address_keeps_its_first_letter_and_domain() {
        assert_eq!(masked_email("dana.levi@example.com"), "d***@example.com");
        assert_eq!(masked_email("nothing"), "***");
    }
}
