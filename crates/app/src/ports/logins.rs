//! Login codes, logged-in sessions, passwords and mailed tokens: what the logins read and write.

use async_trait::async_trait;

use crate::error::StoreResult;
use crate::model::*;

/// A login code as the store keeps it: only a salted hash of the code, never the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginCode {
    /// The mobile number in local form; one live code per number.
    pub mobile: String,
    /// Hex SHA-256 of the salt, the number and the code.
    pub code_hash: String,
    /// Hex random salt, new for every code.
    pub salt: String,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    /// Validation attempts made against this code, the current one included.
    pub attempts: i64,
    /// The start of the sending window and the codes sent to this number in it.
    pub window_started_at_ms: i64,
    pub sends_in_window: i64,
}

/// How often a number may be sent a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeLimits {
    /// A new code only this long after the previous one.
    pub resend_after_ms: i64,
    /// At most `max_per_window` codes per number in a window this long.
    pub window_ms: i64,
    pub max_per_window: i64,
}

/// A buyer session bound to the customer (or, with no customer on file, the mobile number) that
/// proved the number with an SMS code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLogin {
    pub session_id: String,
    /// None when the number has no customer (the code was sent regardless).
    pub customer_id: Option<i64>,
    /// The proven mobile number, local form.
    pub mobile: String,
    pub logged_in_at_ms: i64,
    pub expires_at_ms: i64,
}

/// Login codes and logged-in sessions. Every step that could race (two requests for a code, two
/// guesses at once) is one atomic statement.
#[async_trait]
pub trait LoginStore: Send + Sync {
    /// Saves `code` as the number's one live code, replacing any earlier one and zeroing the
    /// attempts, in one statement, unless the earlier one is younger than `limits.resend_after_ms`
    /// or the window's codes are used up. Returns None when saved, or the code that stands when
    /// refused. (`code.attempts`, `window_started_at_ms` and `sends_in_window` are not read.)
    async fn issue_login_code(
        &self,
        code: &LoginCode,
        limits: &CodeLimits,
    ) -> StoreResult<Option<LoginCode>>;
    /// Counts one attempt against the number's code and returns the code with the new count;
    /// None when the number has no code.
    async fn attempt_login_code(&self, mobile: &str) -> StoreResult<Option<LoginCode>>;
    /// Deletes the number's code if it is still the one with this hash; true when this call
    /// deleted it (so a code is used once, however many requests race).
    async fn consume_login_code(&self, mobile: &str, code_hash: &str) -> StoreResult<bool>;
    /// Binds the session to the login, replacing any earlier login of the session.
    async fn bind_session(&self, login: &SessionLogin) -> StoreResult<()>;
    /// The session's login unless it has expired at `now_ms`.
    async fn session_login(
        &self,
        session_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<SessionLogin>>;
    /// Ends the session's login; true when there was one.
    async fn end_session_login(&self, session_id: &str) -> StoreResult<bool>;
    async fn customer_by_id(&self, id: i64) -> StoreResult<Option<Customer>>;
}

/// What a mailed token is for (`customer_tokens.purpose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPurpose {
    /// The link in the registration mail: confirms the address, then the password works.
    VerifyEmail,
    /// The link of "forgot password".
    ResetPassword,
    /// A mailed login link (magic link).
    LoginLink,
    /// A mailed 6-digit login code (customers without a mobile number).
    LoginCode,
    /// A mailed 6-digit code proving a new email address before the profile takes it.
    ChangeEmail,
}

impl TokenPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenPurpose::VerifyEmail => "verifyEmail",
            TokenPurpose::ResetPassword => "resetPassword",
            TokenPurpose::LoginLink => "loginLink",
            TokenPurpose::LoginCode => "loginCode",
            TokenPurpose::ChangeEmail => "changeEmail",
        }
    }
}

/// A mailed token as stored: only its SHA-256 hash, single use, expiring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerToken {
    pub token_hash: String,
    pub purpose: TokenPurpose,
    pub customer_id: i64,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    pub redeemed_at_ms: Option<i64>,
}

/// A customer's password (an argon2id PHC string) and whether their address is confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub customer_id: i64,
    pub password_hash: String,
    pub email_verified_at_ms: Option<i64>,
}

/// A customer who registers on the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomer {
    pub first_name: String,
    pub last_name: String,
    /// Normalised (lower case).
    pub email: String,
    /// Local form, or empty.
    pub mobile: String,
    pub is_mailing_allowed: bool,
}

/// Failed logins counted under one key (an account or a client address) in a fixed window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    pub count: i64,
    pub window_started_at_ms: i64,
}

/// Passwords, mailed tokens, failed-login counts, and the lookups of the other logins (member
/// number, reservation number). Each step that could race is one statement.
#[async_trait]
pub trait CredentialStore: Send + Sync {
    /// Customers whose email is this one (compared lower-cased), lowest id first.
    async fn customers_by_email(&self, email: &str) -> StoreResult<Vec<Customer>>;
    async fn credentials(&self, customer_id: i64) -> StoreResult<Option<Credentials>>;
    /// Sets (or replaces) the password; `verified_at_ms` marks the address confirmed when given
    /// (an earlier confirmation is kept).
    async fn set_password(
        &self,
        customer_id: i64,
        password_hash: &str,
        verified_at_ms: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<()>;
    async fn mark_email_verified(&self, customer_id: i64, now_ms: i64) -> StoreResult<()>;
    /// Writes a new customer and their (unconfirmed) password in one transaction; the new id.
    async fn create_customer(
        &self,
        c: &NewCustomer,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<i64>;
    /// Saves a token; with `replace`, the customer's other unredeemed tokens of the same purpose
    /// are deleted in the same transaction (one live code or link at a time).
    async fn issue_token(&self, t: &CustomerToken, replace: bool) -> StoreResult<()>;
    async fn token(&self, token_hash: &str) -> StoreResult<Option<CustomerToken>>;
    /// Marks the token used unless it was used already or has expired; true when this call did
    /// (so a token logs in once, however many requests race).
    async fn redeem_token(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool>;
    /// Counts one failure under `key` and answers the count in the window (a window older than
    /// `window_ms` starts again at 1).
    async fn count_failure(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures>;
    /// The failures under `key` in the current window (zero when the window is over).
    async fn failures(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures>;
    async fn clear_failures(&self, key: &str) -> StoreResult<()>;
    /// The customer whose member card has this number.
    async fn customer_of_member_number(&self, member_number: &str)
    -> StoreResult<Option<Customer>>;
    /// The order with this reservation number (exact).
    async fn order_by_reservation_number(
        &self,
        reservation_number: &str,
    ) -> StoreResult<Option<crate::orders::model::Order>>;
    /// Puts a guest order into the customer's account unless it is in one; true when it did.
    async fn claim_order(&self, order_id: &str, customer_id: i64) -> StoreResult<bool>;
    /// Notes that the order's mobile number was proven by an SMS code in its checkout.
    async fn mark_order_mobile_verified(&self, order_id: &str, mobile: &str) -> StoreResult<()>;
    /// Puts into the customer's account the guest orders whose checkout proved this number;
    /// how many.
    async fn join_verified_orders(&self, customer_id: i64, mobile: &str) -> StoreResult<u64>;
    /// A guest's login to one reservation (reservation number + contact), keyed by the login id.
    async fn bind_reservation_login(
        &self,
        login_id: &str,
        order_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()>;
    /// The reservation a live guest login may read.
    async fn reservation_of_login(
        &self,
        login_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<String>>;
    /// The number a customer-area mobile login sent its code to, for this buyer session.
    async fn remember_area_mobile(
        &self,
        session_id: &str,
        mobile: &str,
        checkout: bool,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// The number and whether it was asked at checkout.
    async fn area_mobile(&self, session_id: &str) -> StoreResult<Option<(String, bool)>>;
    async fn forget_area_mobile(&self, session_id: &str) -> StoreResult<()>;
    /// Gives a customer without a mobile number this one; false when they have one already.
    async fn set_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool>;
    /// Ends every login of the customer (after a password reset).
    async fn end_logins_of_customer(&self, customer_id: i64) -> StoreResult<u64>;
    /// Replaces a customer's email with one a mailed code proved, and marks it confirmed, in one
    /// statement each of one transaction; false, with nothing written, when another customer has
    /// the address (compared lower-cased).
    async fn change_customer_email(
        &self,
        customer_id: i64,
        email: &str,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Replaces a customer's mobile number with one an SMS code proved; false when another
    /// customer has it.
    async fn change_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool>;
}
