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
//!
//! Here: the service, its attempt limits, the one way a login ends, and the mailed tokens; a room
//! per way in beside it (`password`, `member`, `reservation`, `mailed`, `area_mobile`), and the
//! profile's proven change of email or mobile number (`contact`).

mod area_mobile;
mod contact;
mod mailed;
mod member;
mod password;
mod reservation;
#[cfg(test)]
mod tests;

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
    pub const CHANGE_EMAIL_CODE: &str = "changeEmailCode";
    pub const CONTACT_CHANGED: &str = "contactChanged";
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
