//! Email and password: the login, registration with the address confirmed by a mailed link,
//! and the mailed password reset.

use super::*;

impl CustomerLoginService {
    /// POST /customer/login. One answer (`LOGIN_FAILED`) for an unknown address, a customer
    /// without a password and a wrong password; `emailNotVerified` only after the right password.
    pub async fn login_with_password(
        &self,
        login_id: &str,
        email: &str,
        password: &str,
        captcha_token: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let email = email_of(email)?;
        let (account, addr) = (account_key("email", &email), address_key(address));
        self.guard(&[&account, &addr]).await?;
        let mut matched = None;
        for c in self.creds.customers_by_email(&email).await? {
            if let Some(cred) = self.creds.credentials(c.id).await? {
                matched = Some((c, cred));
                break;
            }
        }
        let Some((customer, cred)) = matched else {
            let _ = password_matches(password, dummy_hash());
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        };
        if !password_matches(password, &cred.password_hash) {
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        }
        if cred.email_verified_at_ms.is_none() {
            return Err(AppError::rejected(
                ErrorCode::EmailNotVerified,
                "confirm the address with the mailed link first",
            ));
        }
        self.creds.clear_failures(&account.stored).await?;
        self.bind(login_id, &customer, "password").await
    }

    /// Registration: a new customer with an unconfirmed password, and a mail with the link that
    /// confirms the address. An address that has an account already gets a mail saying so (with
    /// the way to reset the password) and the same answer, so the form tells nobody who has one.
    pub async fn register(&self, r: &Registration, captcha_token: &str) -> AppResult<()> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let email = email_of(&r.email)?;
        let first = r.first_name.trim();
        let last = r.last_name.trim();
        if first.is_empty() || first.chars().count() > 50 {
            return Err(bad_form("firstName", "required"));
        }
        if last.is_empty() || last.chars().count() > 50 {
            return Err(bad_form("lastName", "required"));
        }
        if let Some(problem) = password_problem(&r.password) {
            return Err(bad_form("password", problem));
        }
        let mobile = match r.mobile_number.trim() {
            "" => String::new(),
            raw => MobileNumber::parse(raw)
                .ok_or_else(|| {
                    AppError::rejected(ErrorCode::InvalidMobileNumber, "not an Israeli mobile")
                })?
                .as_str()
                .to_owned(),
        };
        let now = self.clock.now_ms();
        if let Some(existing) = self.creds.customers_by_email(&email).await?.first() {
            self.mail(
                &email,
                mail_kind::ACCOUNT_EXISTS,
                "כבר יש לך חשבון בקופה · You already have a Kupa account",
                &format!(
                    "ביקשת להירשם עם הכתובת הזו, אבל כבר יש לה חשבון. שכחת את הסיסמה? {url}\n\n\
                     Someone asked to register with this address, which already has an account. \
                     Forgot your password? {url}",
                    url = format!(
                        "{}/customer-area/login?method=email&forgot=1",
                        self.public_url
                    )
                ),
            )
            .await?;
            tracing::info!(
                customer_id = existing.id,
                "registration for a known address"
            );
            return Ok(());
        }
        // A mobile number another customer has stays with them (the SMS login proves it).
        let mobile =
            if !mobile.is_empty() && self.catalogue.customer_by_mobile(&mobile).await?.is_some() {
                String::new()
            } else {
                mobile
            };
        let hash = hash_password(&r.password)?;
        let id = self
            .creds
            .create_customer(
                &NewCustomer {
                    first_name: first.to_owned(),
                    last_name: last.to_owned(),
                    email: email.clone(),
                    mobile,
                    is_mailing_allowed: r.mailing_allowed,
                },
                &hash,
                now,
            )
            .await?;
        let token = self
            .issue(id, TokenPurpose::VerifyEmail, VERIFY_EMAIL_TTL_MS)
            .await?;
        self.mail(
            &email,
            mail_kind::VERIFY_EMAIL,
            "אישור כתובת המייל · Confirm your email",
            &format!(
                "ברוך הבא לקופה! לאישור הכתובת ולכניסה: {url}\nהקישור בתוקף 24 שעות.\n\n\
                 Welcome to Kupa! Confirm your address and log in: {url}\nThe link works for 24 hours.",
                url = self.link(link_path::VERIFY_EMAIL, &token)
            ),
        )
        .await?;
        tracing::info!(customer_id = id, "customer registered");
        Ok(())
    }

    /// The registration mail's link: confirms the address and logs the customer in.
    pub async fn verify_email(
        &self,
        login_id: &str,
        token: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        let t = self
            .redeem(token, TokenPurpose::VerifyEmail, address)
            .await?;
        self.creds
            .mark_email_verified(t.customer_id, self.clock.now_ms())
            .await?;
        let customer = self.customer(t.customer_id).await?;
        self.bind(login_id, &customer, "verifyEmail").await
    }

    /// "Forgot password": mails a reset link to a customer with this address (with or without a
    /// password: the chain's customers from the box office set their first one so). Answers the
    /// same whether or not anyone has the address.
    pub async fn request_password_reset(&self, email: &str, captcha_token: &str) -> AppResult<()> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let email = email_of(email)?;
        let Some(customer) = self
            .creds
            .customers_by_email(&email)
            .await?
            .into_iter()
            .next()
        else {
            tracing::info!("password reset for an unknown address");
            return Ok(());
        };
        let token = self
            .issue(
                customer.id,
                TokenPurpose::ResetPassword,
                RESET_PASSWORD_TTL_MS,
            )
            .await?;
        self.mail(
            &email,
            mail_kind::RESET_PASSWORD,
            "איפוס סיסמה · Reset your password",
            &format!(
                "לבחירת סיסמה חדשה: {url}\nהקישור בתוקף שעה. לא ביקשת? אפשר להתעלם.\n\n\
                 Choose a new password: {url}\nThe link works for one hour. Didn't ask? Ignore this mail.",
                url = self.link(link_path::RESET_PASSWORD, &token)
            ),
        )
        .await?;
        tracing::info!(customer_id = customer.id, "password reset link sent");
        Ok(())
    }

    /// The reset link: sets the new password (the link proves the address too), ends every other
    /// login of the customer, and logs them in here.
    pub async fn reset_password(
        &self,
        login_id: &str,
        token: &str,
        password: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        if let Some(problem) = password_problem(password) {
            return Err(bad_form("password", problem));
        }
        let hash = hash_password(password)?;
        let t = self
            .redeem(token, TokenPurpose::ResetPassword, address)
            .await?;
        let now = self.clock.now_ms();
        self.creds
            .set_password(t.customer_id, &hash, Some(now), now)
            .await?;
        let ended = self.creds.end_logins_of_customer(t.customer_id).await?;
        tracing::info!(customer_id = t.customer_id, ended, "password reset");
        let customer = self.customer(t.customer_id).await?;
        self.bind(login_id, &customer, "passwordReset").await
    }
}
