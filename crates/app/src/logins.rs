//! Every customer login of spec section 6 beside the SMS code of `accounts`: email and password
//! (with registration, the address confirmed by a mailed link, and a mailed password reset),
//! member number and ID number, reservation number and the order's contact, a mailed one-time
//! code, and a mailed login link; and the customer area's mobile login, which remembers the number
//! for the session. Every login ends in the one login of decision 0019: a row in
//! `session_customers` keyed by a fresh login id (the HttpOnly `kupa_login` cookie), the buyer
//! session rotated by the caller.
//!
//! Secrets: passwords are argon2id PHC strings; mailed codes and link tokens are kept only as
//! SHA-256 hashes, used once, expiring. None of them is ever logged. Failed attempts are counted
//! per account and per client address (keys stored hashed, so the table holds no emails); past
//! the limit every attempt answers `tooManyLoginAttempts` with `retryAfterSeconds`, right or wrong.

use std::sync::{Arc, OnceLock};

use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use kupa_domain::customer::{
    MobileNumber, normalise_email, normalise_reservation_number, password_problem,
};
use kupa_domain::ids::IsraeliId;
use kupa_domain::time::ms_to_rfc3339;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::accounts::{CustomerService, LOGIN_TTL_MS, LoggedIn, MobileLoginService};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::Customer;
use crate::ports::{
    Captcha, CatalogueStore, Clock, CredentialStore, CustomerToken, LoginStore, Mail, Mailer,
    NewCustomer, SessionLogin, TokenPurpose, require_captcha,
};

/// Failed attempts one account takes in a window before it is locked for the rest of it.
pub const ACCOUNT_FAILURES: i64 = 5;
/// Failed attempts one client address takes in a window (an office or a carrier's NAT is many
/// people, so more than an account).
pub const ADDRESS_FAILURES: i64 = 30;
pub const FAILURE_WINDOW_MS: i64 = 15 * 60_000;

/// How long each mailed token lives.
pub const VERIFY_EMAIL_TTL_MS: i64 = 24 * 3_600_000;
pub const RESET_PASSWORD_TTL_MS: i64 = 3_600_000;
pub const LOGIN_LINK_TTL_MS: i64 = 20 * 60_000;
pub const MAIL_CODE_TTL_MS: i64 = 10 * 60_000;

/// A guest's login to one reservation lasts as long as a customer's.
pub const RESERVATION_LOGIN_TTL_MS: i64 = LOGIN_TTL_MS;

/// The mail kinds (the outbox's `kind`), never the token.
pub mod mail_kind {
    pub const VERIFY_EMAIL: &str = "verifyEmail";
    pub const RESET_PASSWORD: &str = "resetPassword";
    pub const LOGIN_LINK: &str = "loginLink";
    pub const LOGIN_CODE: &str = "loginCode";
    pub const ACCOUNT_EXISTS: &str = "accountExists";
}

/// Paths of the web app the mailed links open (the token in the query).
pub mod link_path {
    pub const VERIFY_EMAIL: &str = "/customer-area/verify-email";
    pub const RESET_PASSWORD: &str = "/customer-area/reset-password";
    pub const LOGIN_LINK: &str = "/customer-area/token-login";
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for (i, p) in parts.iter().enumerate() {
        if i > 0 {
            h.update(b"\x1f");
        }
        h.update(p.as_bytes());
    }
    hex(&h.finalize())
}

/// A link token: 256 random bits, 64 hex characters.
fn new_link_token() -> String {
    hex(&rand::rng().random::<[u8; 32]>())
}

fn is_link_token_shape(t: &str) -> bool {
    t.len() == 64
        && t.bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// The stored form of a link token (its hash; the token itself has 256 bits, so no salt).
fn link_hash(token: &str) -> String {
    sha256_hex(&["link", token])
}

/// The stored form of a mailed code: bound to its customer, so two customers' equal codes are
/// different rows and a code is tried only against its own account.
fn mail_code_hash(customer_id: i64, code: &str) -> String {
    sha256_hex(&["code", &customer_id.to_string(), code])
}

/// Argon2id with the crate's defaults (19 MiB, 2 passes, 1 lane: the OWASP minimum), as a PHC
/// string with its own 16-byte salt.
pub fn hash_password(password: &str) -> AppResult<String> {
    let salt: [u8; 16] = rand::rng().random();
    Argon2::default()
        .hash_password_with_salt(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| AppError::internal(format!("password hashing failed: {e}")))
}

pub fn password_matches(password: &str, phc: &str) -> bool {
    PasswordVerifier::<str>::verify_password(&Argon2::default(), password.as_bytes(), phc).is_ok()
}

/// Checked when no account matched, so a missing account takes as long as a wrong password.
fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not anybody's password").unwrap_or_default())
}

/// What the reservation-number login did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReservationLogin {
    /// A guest: logged in to this reservation only.
    Guest { order_id: String },
    /// A logged-in customer: the order is now in their account.
    Claimed { order_id: String },
}

/// What the customer-area mobile login's validation did.
#[derive(Debug, Clone, PartialEq)]
pub struct AreaLogin {
    pub logged_in: LoggedIn,
    /// The update branch: the logged-in customer had no mobile number, and now has this one.
    pub mobile_number_updated: bool,
}

/// A registration as the form sends it, not yet checked.
#[derive(Debug, Clone)]
pub struct Registration {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub password: String,
    pub mobile_number: String,
    pub mailing_allowed: bool,
}

/// Which mailed login the customer asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailedLogin {
    Link,
    Code,
}

struct Key {
    stored: String,
    limit: i64,
}

fn account_key(kind: &str, value: &str) -> Key {
    Key {
        stored: sha256_hex(&["account", kind, value]),
        limit: ACCOUNT_FAILURES,
    }
}

fn address_key(address: &str) -> Key {
    Key {
        stored: sha256_hex(&["address", address]),
        limit: ADDRESS_FAILURES,
    }
}

fn failed() -> AppError {
    AppError::rejected(ErrorCode::LoginFailed, "these details do not log anyone in")
}

fn bad_form(field: &str, reason: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        format!("{field}: {reason}"),
        serde_json::json!({ "field": field, "reason": reason }),
    )
}

fn email_of(raw: &str) -> AppResult<String> {
    normalise_email(raw).ok_or_else(|| bad_form("email", "invalid"))
}

pub struct CustomerLoginService {
    customers: Arc<CustomerService>,
    catalogue: Arc<dyn CatalogueStore>,
    logins: Arc<dyn LoginStore>,
    creds: Arc<dyn CredentialStore>,
    mobile_login: Arc<MobileLoginService>,
    mailer: Arc<dyn Mailer>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    public_url: String,
}

impl CustomerLoginService {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        customers: Arc<CustomerService>,
        catalogue: Arc<dyn CatalogueStore>,
        logins: Arc<dyn LoginStore>,
        creds: Arc<dyn CredentialStore>,
        mobile_login: Arc<MobileLoginService>,
        mailer: Arc<dyn Mailer>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
        public_url: String,
    ) -> CustomerLoginService {
        CustomerLoginService {
            customers,
            catalogue,
            logins,
            creds,
            mobile_login,
            mailer,
            captcha,
            clock,
            public_url: public_url.trim_end_matches('/').to_owned(),
        }
    }

    // --- Attempt limits

    /// Refuses at once when any key is over its limit in the current window.
    async fn guard(&self, keys: &[&Key]) -> AppResult<()> {
        let now = self.clock.now_ms();
        for k in keys {
            let f = self
                .creds
                .failures(&k.stored, now, FAILURE_WINDOW_MS)
                .await?;
            if f.count >= k.limit {
                let wait = ((f.window_started_at_ms + FAILURE_WINDOW_MS - now).max(1) + 999) / 1000;
                tracing::info!("login refused: too many failed attempts");
                return Err(AppError::rejected_with(
                    ErrorCode::TooManyLoginAttempts,
                    format!("too many failed logins: try again in {wait} s"),
                    serde_json::json!({ "retryAfterSeconds": wait }),
                ));
            }
        }
        Ok(())
    }

    async fn count_failure(&self, keys: &[&Key]) -> AppResult<()> {
        let now = self.clock.now_ms();
        for k in keys {
            self.creds
                .count_failure(&k.stored, now, FAILURE_WINDOW_MS)
                .await?;
        }
        Ok(())
    }

    // --- The one way a login ends

    /// Binds the customer to the new login id (the caller sets the cookie and rotates the buyer
    /// session) and answers the login as `/customer/me` reads it.
    async fn bind(&self, login_id: &str, customer: &Customer, how: &str) -> AppResult<LoggedIn> {
        let now = self.clock.now_ms();
        let login = SessionLogin {
            session_id: login_id.to_owned(),
            customer_id: Some(customer.id),
            mobile: customer.mobile.clone(),
            logged_in_at_ms: now,
            expires_at_ms: now + LOGIN_TTL_MS,
        };
        self.logins.bind_session(&login).await?;
        tracing::info!(customer_id = customer.id, how, "customer logged in");
        self.customers
            .login_of(login_id)
            .await?
            .ok_or_else(|| AppError::internal("a login just bound is not there"))
    }

    // --- Email and password

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

    // --- Member number and ID number

    pub async fn login_with_member(
        &self,
        login_id: &str,
        member_number: &str,
        ssn: &str,
        captcha_token: &str,
        address: &str,
    ) -> AppResult<LoggedIn> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let number = member_number.trim();
        if number.is_empty() || number.len() > 30 {
            return Err(bad_form("memberNumber", "required"));
        }
        let id = IsraeliId::parse(ssn).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::InvalidSsnLogin,
                "the ID number's check digit fails",
            )
        })?;
        let (account, addr) = (account_key("member", number), address_key(address));
        self.guard(&[&account, &addr]).await?;
        let customer = self.creds.customer_of_member_number(number).await?;
        let matches = customer
            .as_ref()
            .and_then(|c| IsraeliId::parse(&c.ssn))
            .is_some_and(|on_file| on_file == id);
        let Some(customer) = customer.filter(|_| matches) else {
            self.count_failure(&[&account, &addr]).await?;
            return Err(failed());
        };
        self.creds.clear_failures(&account.stored).await?;
        self.bind(login_id, &customer, "memberNumber").await
    }

    // --- Reservation number and the order's contact

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
                return Ok(ReservationLogin::Claimed { order_id: order.id });
            }
            if order.customer_id.is_some()
                || !self.creds.claim_order(&order.id, c.customer.id).await?
            {
                return Err(AppError::rejected(
                    ErrorCode::OrderAlreadyClaimed,
                    "the order is in another account",
                ));
            }
            tracing::info!(customer_id = c.customer.id, order = %order.id, "order claimed by its reservation number");
            return Ok(ReservationLogin::Claimed { order_id: order.id });
        }
        let now = self.clock.now_ms();
        self.creds
            .bind_reservation_login(login_id, &order.id, now, now + RESERVATION_LOGIN_TTL_MS)
            .await?;
        tracing::info!(order = %order.id, "guest logged in to a reservation");
        Ok(ReservationLogin::Guest { order_id: order.id })
    }

    // --- Mailed link and mailed code

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

    // --- The customer area's mobile login

    /// POST /customer-area/mobile-login: sends the code and remembers the number for this buyer
    /// session. A logged-in customer without a mobile number is in the update branch: the code
    /// goes to the new number, which becomes theirs once proven. At checkout a number no customer
    /// has gets a code too (a proven number suffices there).
    pub async fn area_request_code(
        &self,
        session_id: &str,
        current_login: Option<&str>,
        mobile: &MobileNumber,
        checkout: bool,
        captcha_token: &str,
    ) -> AppResult<()> {
        let updating = self
            .customers
            .customer_of_login(current_login)
            .await?
            .is_some_and(|a| a.customer.mobile.trim().is_empty());
        if updating
            && self
                .catalogue
                .customer_by_mobile(mobile.as_str())
                .await?
                .is_some()
        {
            return Err(AppError::rejected(
                ErrorCode::MobileNumberTaken,
                "another customer has this number",
            ));
        }
        self.mobile_login
            .request_code(mobile, captcha_token, checkout || updating)
            .await?;
        self.creds
            .remember_area_mobile(session_id, mobile.as_str(), checkout, self.clock.now_ms())
            .await?;
        Ok(())
    }

    /// POST /customer-area/mobile-login-validation: checks the code against the number the first
    /// call remembered for this session.
    pub async fn area_validate_code(
        &self,
        session_id: &str,
        login_id: &str,
        current_login: Option<&str>,
        code: &str,
    ) -> AppResult<AreaLogin> {
        let Some((number, _checkout)) = self.creds.area_mobile(session_id).await? else {
            return Err(AppError::rejected_with(
                ErrorCode::InvalidSmsCode,
                "no code was sent on this session",
                serde_json::json!({ "reason": "none" }),
            ));
        };
        let mobile = MobileNumber::parse(&number)
            .ok_or_else(|| AppError::internal("a remembered number does not parse"))?;
        let current = self.customers.customer_of_login(current_login).await?;
        let mut logged_in = self
            .mobile_login
            .validate_code(login_id, &mobile, code)
            .await?;
        self.creds.forget_area_mobile(session_id).await?;
        let mut updated = false;
        if let Some(current) = current.filter(|c| c.customer.mobile.trim().is_empty())
            && logged_in.account.is_none()
            && self
                .creds
                .set_customer_mobile(current.customer.id, mobile.as_str())
                .await?
        {
            tracing::info!(
                customer_id = current.customer.id,
                "mobile number added to the account"
            );
            let customer = self.customer(current.customer.id).await?;
            logged_in = self.bind(login_id, &customer, "smsUpdate").await?;
            updated = true;
        }
        self.join_verified_orders(&logged_in).await?;
        Ok(AreaLogin {
            logged_in,
            mobile_number_updated: updated,
        })
    }

    /// After an SMS login of a customer: their guest orders whose checkout proved the same number
    /// join their account (the number is proven twice, so nobody else's tickets come along).
    pub async fn join_verified_orders(&self, logged_in: &LoggedIn) -> AppResult<u64> {
        let Some(account) = &logged_in.account else {
            return Ok(0);
        };
        if logged_in.login.mobile.is_empty() {
            return Ok(0);
        }
        let joined = self
            .creds
            .join_verified_orders(account.customer.id, &logged_in.login.mobile)
            .await?;
        if joined > 0 {
            tracing::info!(
                customer_id = account.customer.id,
                joined,
                "guest orders joined the account"
            );
        }
        Ok(joined)
    }

    /// The reservation a guest's login (by reservation number) may read.
    pub async fn reservation_of_login(&self, login_id: Option<&str>) -> AppResult<Option<String>> {
        match login_id {
            Some(id) => Ok(self
                .creds
                .reservation_of_login(id, self.clock.now_ms())
                .await?),
            None => Ok(None),
        }
    }

    // --- Tokens

    async fn issue(
        &self,
        customer_id: i64,
        purpose: TokenPurpose,
        ttl_ms: i64,
    ) -> AppResult<String> {
        let token = new_link_token();
        let now = self.clock.now_ms();
        self.creds
            .issue_token(
                &CustomerToken {
                    token_hash: link_hash(&token),
                    purpose,
                    customer_id,
                    created_at_ms: now,
                    expires_at_ms: now + ttl_ms,
                    redeemed_at_ms: None,
                },
                true,
            )
            .await?;
        Ok(token)
    }

    fn check_live(&self, t: &CustomerToken) -> AppResult<()> {
        if let Some(at) = t.redeemed_at_ms {
            return Err(AppError::rejected_with(
                ErrorCode::CustomerTokenRedeemed,
                "the link was used already",
                serde_json::json!({ "redeemedAt": ms_to_rfc3339(at) }),
            ));
        }
        if t.expires_at_ms <= self.clock.now_ms() {
            return Err(AppError::rejected_with(
                ErrorCode::CustomerTokenExpired,
                "the link has expired",
                serde_json::json!({ "expiredAt": ms_to_rfc3339(t.expires_at_ms) }),
            ));
        }
        Ok(())
    }

    async fn already_used(&self, token_hash: &str) -> AppError {
        match self.creds.token(token_hash).await {
            Ok(Some(t)) => self.check_live(&t).err().unwrap_or_else(|| {
                AppError::rejected(ErrorCode::CustomerTokenError, "the link does not work")
            }),
            _ => AppError::rejected(ErrorCode::CustomerTokenError, "the link does not work"),
        }
    }

    /// Uses a link token once: `CUSTOMER_TOKEN_ERROR` for one that is not ours (or of another
    /// purpose), `CUSTOMER_TOKEN_EXPIRED` / `CUSTOMER_TOKEN_REDEEMED` with their dates. Unknown
    /// tokens count against the address (guessing 256 bits is hopeless, but hammering is not free).
    async fn redeem(
        &self,
        token: &str,
        purpose: TokenPurpose,
        address: &str,
    ) -> AppResult<CustomerToken> {
        let addr = address_key(address);
        self.guard(&[&addr]).await?;
        let token = token.trim();
        let stored = if is_link_token_shape(token) {
            self.creds.token(&link_hash(token)).await?
        } else {
            None
        };
        let Some(t) = stored.filter(|t| t.purpose == purpose) else {
            self.count_failure(&[&addr]).await?;
            return Err(AppError::rejected(
                ErrorCode::CustomerTokenError,
                "the link does not work: ask for a new one",
            ));
        };
        self.check_live(&t)?;
        if !self
            .creds
            .redeem_token(&t.token_hash, self.clock.now_ms())
            .await?
        {
            return Err(self.already_used(&t.token_hash).await);
        }
        Ok(t)
    }

    async fn customer(&self, id: i64) -> AppResult<Customer> {
        self.logins
            .customer_by_id(id)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::CustomerNotFound, "no such customer"))
    }

    fn link(&self, path: &str, token: &str) -> String {
        format!("{}{path}?token={token}", self.public_url)
    }

    async fn mail(&self, to: &str, kind: &str, subject: &str, text: &str) -> AppResult<()> {
        let html = format!(
            "<div dir=\"rtl\" lang=\"he\"><p>{}</p></div>",
            escape(text).replace('\n', "<br>")
        );
        self.mailer
            .send_mail(&Mail {
                to: to.to_owned(),
                subject: subject.to_owned(),
                text: text.to_owned(),
                html,
                kind: kind.to_owned(),
                reference: None,
                attachments: Vec::new(),
            })
            .await
    }
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_hash_with_argon2id_and_verify() {
        let h = hash_password("correct horse").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(!h.contains("correct horse"));
        assert!(password_matches("correct horse", &h));
        assert!(!password_matches("correct horsf", &h));
        assert!(!password_matches("correct horse", "not a hash"));
        assert_ne!(
            h,
            hash_password("correct horse").unwrap(),
            "each hash has its own salt"
        );
    }

    #[test]
    fn link_tokens_are_256_bits_of_lower_hex_and_stored_hashed() {
        let t = new_link_token();
        assert!(is_link_token_shape(&t));
        assert!(!is_link_token_shape(&t.to_uppercase()));
        assert!(!is_link_token_shape(&t[1..]));
        assert_ne!(link_hash(&t), t);
        assert_eq!(link_hash(&t), link_hash(&t));
    }

    #[test]
    fn mailed_codes_are_bound_to_their_customer() {
        assert_ne!(mail_code_hash(1, "123456"), mail_code_hash(2, "123456"));
        assert_ne!(mail_code_hash(1, "123456"), mail_code_hash(1, "123457"));
    }

    #[test]
    fn limit_keys_keep_no_email_in_clear() {
        let k = account_key("email", "dana.levi@example.com");
        assert!(!k.stored.contains("dana"));
        assert_eq!(k.limit, ACCOUNT_FAILURES);
        assert_ne!(
            k.stored,
            account_key("member", "dana.levi@example.com").stored
        );
    }
}
