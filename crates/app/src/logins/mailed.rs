//! The mailed login link and the mailed one-time code.

use super::*;

impl CustomerLoginService {
    /// Mails a login link or a 6-digit code to a customer with this address (and nothing, with
    /// the same answer, when none has it). The newest link or code replaces the earlier one.
    pub async fn request_mailed_login(
        &self,
        email: &str,
        kind: MailedLogin,
        captcha_token: &str,
    ) -> AppResult<()> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let email = email_of(email)?;
        let Some(customer) = self
            .creds
            .customers_by_email(&email)
            .await?
            .into_iter()
            .next()
        else {
            tracing::info!("mailed login for an unknown address");
            return Ok(());
        };
        match kind {
            MailedLogin::Link => {
                let token = self
                    .issue(customer.id, TokenPurpose::LoginLink, LOGIN_LINK_TTL_MS)
                    .await?;
                self.mail(
                    &email,
                    mail_kind::LOGIN_LINK,
                    "קישור כניסה לקופה · Your Kupa login link",
                    &format!(
                        "לכניסה לאזור האישי: {url}\nהקישור בתוקף 20 דקות ולכניסה אחת.\n\n\
                         Log in to your account: {url}\nThe link works once, for 20 minutes.",
                        url = self.link(link_path::LOGIN_LINK, &token)
                    ),
                )
                .await?;
            }
            MailedLogin::Code => {
                let now = self.clock.now_ms();
                let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
                self.creds
                    .issue_token(
                        &CustomerToken {
                            token_hash: mail_code_hash(customer.id, &code),
                            purpose: TokenPurpose::LoginCode,
                            customer_id: customer.id,
                            created_at_ms: now,
                            expires_at_ms: now + MAIL_CODE_TTL_MS,
                            redeemed_at_ms: None,
                        },
                        true,
                    )
                    .await?;
                self.mail(
                    &email,
                    mail_kind::LOGIN_CODE,
                    "קוד כניסה לקופה · Your Kupa login code",
                    &format!(
                        "קוד הכניסה שלך: {code}\nהקוד בתוקף 10 דקות.\n\n\
                         Your login code: {code}\nIt works for 10 minutes."
                    ),
                )
                .await?;
            }
        }
        tracing::info!(customer_id = customer.id, ?kind, "mailed login sent");
        Ok(())
    }

    /// The mailed login link.
    pub async fn login_with_link(
        &self,
        login_id: &str,
        token: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        let t = self.redeem(token, TokenPurpose::LoginLink, address).await?;
        // Opening the mailed link proves the address.
        self.creds
            .mark_email_verified(t.customer_id, self.clock.now_ms())
            .await?;
        let customer = self.customer(t.customer_id).await?;
        self.bind(login_id, &customer, "loginLink").await
    }

    /// The mailed 6-digit code, with the address it was sent to.
    pub async fn login_with_mailed_code(
        &self,
        login_id: &str,
        email: &str,
        code: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        let email = email_of(email)?;
        let code = code.trim();
        let (account, addr) = (account_key("mailCode", &email), address_key(address));
        self.guard(&[&account, &addr]).await?;
        let shaped = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
        let mut found = None;
        if shaped {
            for c in self.creds.customers_by_email(&email).await? {
                if let Some(t) = self.creds.token(&mail_code_hash(c.id, code)).await? {
                    found = Some((c, t));
                    break;
                }
            }
        }
        let Some((customer, t)) = found.filter(|(_, t)| t.purpose == TokenPurpose::LoginCode)
        else {
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        };
        self.check_live(&t)?;
        if !self
            .creds
            .redeem_token(&t.token_hash, self.clock.now_ms())
            .await?
        {
            return Err(self.already_used(&t.token_hash).await);
        }
        self.creds.clear_failures(&account.stored).await?;
        self.creds
            .mark_email_verified(customer.id, self.clock.now_ms())
            .await?;
        self.bind(login_id, &customer, "mailedCode").await
    }
}
