//! Customer login by mobile number and SMS code (spec sections 4, 6 and 7 "Customer"), and which
//! customer a buyer session belongs to, for the calls that come after it (member tickets, saved
//! cards, hold orders).
//!
//! A code is 6 digits from a CSPRNG, kept only as a salted SHA-256 hash, lives 5 minutes, takes
//! at most 5 attempts, and is the number's only live code: asking again replaces it, but not more
//! often than every 30 seconds nor more than 5 times an hour per number. The code is never logged.

use std::sync::Arc;

use kupa_domain::customer::{MemberStanding, MobileNumber};
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Customer, Member, Membership, SessionId};
use crate::ports::{
    Captcha, CatalogueStore, Clock, CodeLimits, CredentialStore, HolderStore, LoginCode,
    LoginStore, SessionLogin, Sms, SmsSender, message_kind,
};

pub const CODE_DIGITS: usize = 6;
/// A code is valid this long after it was sent.
pub const CODE_TTL_MS: i64 = 5 * 60_000;
/// Validation attempts a code takes, right or wrong; then it is dead.
pub const MAX_ATTEMPTS: i64 = 5;
pub const CODE_LIMITS: CodeLimits = CodeLimits {
    resend_after_ms: 30_000,
    window_ms: 3_600_000,
    max_per_window: 5,
};
/// A login lasts this long from the moment the code was validated.
pub const LOGIN_TTL_MS: i64 = 2 * 3_600_000;

/// The mobile number is not an Israeli mobile number.
pub const INVALID_MOBILE_NUMBER: ErrorCode = ErrorCode::InvalidMobileNumber;
pub const CUSTOMER_NOT_FOUND: ErrorCode = ErrorCode::CustomerNotFound;
pub const INVALID_SMS_CODE: ErrorCode = ErrorCode::InvalidSmsCode;
/// Too many attempts against one code: it is dead, ask for a new one.
pub const TOO_MANY_ATTEMPTS: ErrorCode = ErrorCode::LoginValidation;
/// A new code was asked for too soon after the last, or too often this hour.
pub const RESEND_TOO_SOON: ErrorCode = ErrorCode::SmsResendTooSoon;
/// The SMS sender refused or failed.
pub const SMS_FAILED: ErrorCode = ErrorCode::SmsFailed;
/// The session has no (live) login.
pub const NOT_LOGGED_IN: ErrorCode = ErrorCode::LoginError;

/// A member card of the customer, with where its period stands today (Asia/Jerusalem).
#[derive(Debug, Clone, PartialEq)]
pub struct MemberCard {
    pub member: Member,
    pub membership: Membership,
    pub standing: MemberStanding,
}

/// A customer with their member cards.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomerAccount {
    pub customer: Customer,
    pub members: Vec<MemberCard>,
}

/// A session's login: the proven number, and the customer when one has that number.
#[derive(Debug, Clone, PartialEq)]
pub struct LoggedIn {
    pub login: SessionLogin,
    pub account: Option<CustomerAccount>,
}

/// Reads and ends a login (the id of the HttpOnly login cookie), and rotates the buyer session
/// at login and logout. Needs no SMS sender.
pub struct CustomerService {
    catalogue: Arc<dyn CatalogueStore>,
    logins: Arc<dyn LoginStore>,
    holders: Arc<dyn HolderStore>,
    clock: Arc<dyn Clock>,
    /// Guests' reservation logins and guest orders' proven numbers (decision 0023).
    credentials: Option<Arc<dyn CredentialStore>>,
}

impl CustomerService {
    pub fn new(
        catalogue: Arc<dyn CatalogueStore>,
        logins: Arc<dyn LoginStore>,
        holders: Arc<dyn HolderStore>,
        clock: Arc<dyn Clock>,
    ) -> CustomerService {
        CustomerService {
            catalogue,
            logins,
            holders,
            clock,
            credentials: None,
        }
    }

    /// With the store of the other logins: guests logged in to one reservation may read it, and
    /// guest orders remember the number their checkout proved.
    pub fn with_credentials(mut self, credentials: Arc<dyn CredentialStore>) -> CustomerService {
        self.credentials = Some(credentials);
        self
    }

    /// The reservation a guest's login (reservation number + contact) may read.
    pub async fn reservation_of_login(&self, login_id: Option<&str>) -> AppResult<Option<String>> {
        match (login_id, &self.credentials) {
            (Some(id), Some(c)) => Ok(c.reservation_of_login(id, self.clock.now_ms()).await?),
            _ => Ok(None),
        }
    }

    /// A guest order (no customer) priced on a session whose SMS login proved the order's own
    /// mobile number: noted, so the order joins the account of whoever proves that number later.
    pub async fn note_verified_mobile(
        &self,
        order_id: &str,
        login_id: Option<&str>,
        order_mobile: &str,
    ) -> AppResult<()> {
        let (Some(login_id), Some(c)) = (login_id, &self.credentials) else {
            return Ok(());
        };
        let Some(l) = self.login_of(login_id).await? else {
            return Ok(());
        };
        let proven = MobileNumber::parse(&l.login.mobile);
        if l.account.is_none() && proven.is_some() && proven == MobileNumber::parse(order_mobile) {
            c.mark_order_mobile_verified(order_id, &l.login.mobile)
                .await?;
        }
        Ok(())
    }

    /// The customer of the login, with their member cards; None without a login (the request
    /// carried no login cookie), when the login is not live, or when it proved a number that no
    /// customer has.
    pub async fn customer_of_login(
        &self,
        login_id: Option<&str>,
    ) -> AppResult<Option<CustomerAccount>> {
        let Some(login_id) = login_id else {
            return Ok(None);
        };
        Ok(self.login_of(login_id).await?.and_then(|l| l.account))
    }

    /// The live login with this id: the proven mobile number and, when on file, the customer.
    pub async fn login_of(&self, login_id: &str) -> AppResult<Option<LoggedIn>> {
        let Some(login) = self
            .logins
            .session_login(login_id, self.clock.now_ms())
            .await?
        else {
            return Ok(None);
        };
        let customer = match login.customer_id {
            Some(id) => self.logins.customer_by_id(id).await?,
            None => None,
        };
        let account = match customer {
            Some(c) => Some(self.account(c).await?),
            None => None,
        };
        Ok(Some(LoggedIn { login, account }))
    }

    /// Moves the buyer's holds, checkouts, orders and payments from the buyer session `from` to
    /// the freshly minted `to` (at login and logout, so an id known before is worth nothing after).
    pub async fn rotate_session(&self, from: &SessionId, to: &SessionId) -> AppResult<()> {
        Ok(self.holders.move_session(from, to).await?)
    }

    /// Ends the login with this id; true when there was one.
    pub async fn logout(&self, login_id: &str) -> AppResult<bool> {
        let ended = self.logins.end_session_login(login_id).await?;
        if ended {
            tracing::info!("customer logged out");
        }
        Ok(ended)
    }

    async fn account(&self, customer: Customer) -> AppResult<CustomerAccount> {
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()));
        let members = self
            .catalogue
            .members_of_customer(customer.id)
            .await?
            .into_iter()
            .map(|(member, membership)| {
                let day = |s: &str| {
                    s.parse::<jiff::civil::Date>().map_err(|e| {
                        AppError::internal(format!("member {}: bad date {s:?}: {e}", member.id))
                    })
                };
                let standing =
                    MemberStanding::on(day(&member.start_date)?, day(&member.end_date)?, today);
                Ok(MemberCard {
                    member,
                    membership,
                    standing,
                })
            })
            .collect::<AppResult<Vec<_>>>()?;
        Ok(CustomerAccount { customer, members })
    }
}

/// Sends login codes and checks them.
pub struct MobileLoginService {
    customers: Arc<CustomerService>,
    catalogue: Arc<dyn CatalogueStore>,
    logins: Arc<dyn LoginStore>,
    sms: Arc<dyn SmsSender>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The stored form of a code: bound to its number and salted, so equal codes never look alike.
fn code_hash(salt: &str, mobile: &MobileNumber, code: &str) -> String {
    let mut h = Sha256::new();
    h.update(salt.as_bytes());
    h.update(b":");
    h.update(mobile.as_str().as_bytes());
    h.update(b":");
    h.update(code.as_bytes());
    hex(&h.finalize())
}

/// Compares without stopping at the first difference.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

fn is_code_shape(code: &str) -> bool {
    code.len() == CODE_DIGITS && code.bytes().all(|b| b.is_ascii_digit())
}

/// The SMS text (Hebrew, the site's language; 1 SMS segment).
pub fn login_code_text(code: &str) -> String {
    format!(
        "קוד הכניסה שלך לקופה: {code}\nהקוד בתוקף {} דקות.",
        CODE_TTL_MS / 60_000
    )
}

/// The SMS text of a code that proves a new number for the account (1 SMS segment).
pub fn change_code_text(code: &str) -> String {
    format!(
        "קוד לאימות המספר החדש בקופה: {code}\nהקוד בתוקף {} דקות.",
        CODE_TTL_MS / 60_000
    )
}

fn retry_after_seconds(code: &LoginCode, now: i64, limits: &CodeLimits) -> i64 {
    let resend_at = code.created_at_ms + limits.resend_after_ms;
    let window_at = if code.sends_in_window >= limits.max_per_window {
        code.window_started_at_ms + limits.window_ms
    } else {
        now
    };
    ((resend_at.max(window_at) - now).max(1) + 999) / 1000
}

impl MobileLoginService {
    pub fn new(
        customers: Arc<CustomerService>,
        catalogue: Arc<dyn CatalogueStore>,
        logins: Arc<dyn LoginStore>,
        sms: Arc<dyn SmsSender>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
    ) -> MobileLoginService {
        MobileLoginService {
            customers,
            catalogue,
            logins,
            sms,
            captcha,
            clock,
        }
    }

    /// POST /customer/mobile-login: sends a new code to the number. Without `regardless`, only
    /// to a number a customer has (CUSTOMER_NOT_FOUND otherwise).
    pub async fn request_code(
        &self,
        mobile: &MobileNumber,
        captcha_token: &str,
        regardless: bool,
    ) -> AppResult<()> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let customer = self.catalogue.customer_by_mobile(mobile.as_str()).await?;
        if customer.is_none() && !regardless {
            return Err(AppError::rejected(
                CUSTOMER_NOT_FOUND,
                "no customer has this mobile number",
            ));
        }
        self.send_code(mobile, login_code_text, customer.is_some())
            .await
    }

    /// A code that proves a new number of a logged-in customer (the profile's change of mobile
    /// number): the same codes, limits and storage as the login's, another text.
    pub async fn request_change_code(
        &self,
        mobile: &MobileNumber,
        captcha_token: &str,
    ) -> AppResult<()> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        self.send_code(mobile, change_code_text, false).await
    }

    async fn send_code(
        &self,
        mobile: &MobileNumber,
        text: fn(&str) -> String,
        known_customer: bool,
    ) -> AppResult<()> {
        let now = self.clock.now_ms();
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        let salt = hex(&rand::rng().random::<[u8; 16]>());
        let row = LoginCode {
            mobile: mobile.as_str().to_owned(),
            code_hash: code_hash(&salt, mobile, &code),
            salt,
            created_at_ms: now,
            expires_at_ms: now + CODE_TTL_MS,
            attempts: 0,
            window_started_at_ms: now,
            sends_in_window: 1,
        };
        if let Some(standing) = self.logins.issue_login_code(&row, &CODE_LIMITS).await? {
            let wait = retry_after_seconds(&standing, now, &CODE_LIMITS);
            return Err(AppError::rejected_with(
                RESEND_TOO_SOON,
                format!("a new code can be sent in {wait} s"),
                serde_json::json!({ "retryAfterSeconds": wait }),
            ));
        }
        let sms = Sms {
            to: mobile.clone(),
            kind: message_kind::LOGIN_CODE.to_owned(),
            reference: None,
            text: text(&code),
        };
        if let Err(e) = self.sms.send_sms(&sms).await {
            // Nobody received this code: drop it, so the buyer may ask again at once.
            self.logins
                .consume_login_code(mobile.as_str(), &row.code_hash)
                .await?;
            tracing::warn!(to = %mobile.masked(), error = %e, "login code SMS failed");
            return Err(AppError::rejected(SMS_FAILED, "the SMS could not be sent"));
        }
        tracing::info!(to = %mobile.masked(), known_customer, "login code sent");
        Ok(())
    }

    /// POST /customer/mobile-login-validation-area: checks the code and, when it is right, binds
    /// the number's customer (or the bare number) to the session.
    pub async fn validate_code(
        &self,
        session_id: &str,
        mobile: &MobileNumber,
        code: &str,
    ) -> AppResult<LoggedIn> {
        self.check_code(mobile, code).await?;
        let now = self.clock.now_ms();
        let customer = self.catalogue.customer_by_mobile(mobile.as_str()).await?;
        let login = SessionLogin {
            session_id: session_id.to_owned(),
            customer_id: customer.as_ref().map(|c| c.id),
            mobile: mobile.as_str().to_owned(),
            logged_in_at_ms: now,
            expires_at_ms: now + LOGIN_TTL_MS,
        };
        self.logins.bind_session(&login).await?;
        tracing::info!(customer_id = ?login.customer_id, "customer logged in by SMS code");
        let account = match customer {
            Some(c) => Some(self.customers.account(c).await?),
            None => None,
        };
        Ok(LoggedIn { login, account })
    }

    /// Checks the number's code and uses it up (its attempts, expiry and single use), without
    /// logging anyone in: the login's validation and the profile's change of number share it.
    pub async fn check_code(&self, mobile: &MobileNumber, code: &str) -> AppResult<()> {
        let code = code.trim();
        let refuse = |reason: &str, params: serde_json::Value| {
            tracing::info!(to = %mobile.masked(), reason, "login code refused");
            AppError::rejected_with(INVALID_SMS_CODE, format!("the code is {reason}"), params)
        };
        if !is_code_shape(code) {
            // Cannot be right: counted against nothing.
            return Err(refuse("wrong", serde_json::json!({ "reason": "wrong" })));
        }
        let now = self.clock.now_ms();
        let Some(stored) = self.logins.attempt_login_code(mobile.as_str()).await? else {
            return Err(refuse("missing", serde_json::json!({ "reason": "none" })));
        };
        if stored.expires_at_ms <= now {
            return Err(refuse(
                "expired",
                serde_json::json!({ "reason": "expired" }),
            ));
        }
        if stored.attempts > MAX_ATTEMPTS {
            tracing::info!(to = %mobile.masked(), "login code dead after too many attempts");
            // The code is dead; a new one may be asked for once the resend limits allow.
            let wait = retry_after_seconds(&stored, now, &CODE_LIMITS);
            return Err(AppError::rejected_with(
                TOO_MANY_ATTEMPTS,
                "too many attempts: ask for a new code",
                serde_json::json!({ "maxAttempts": MAX_ATTEMPTS, "retryAfterSeconds": wait }),
            ));
        }
        if !same(&code_hash(&stored.salt, mobile, code), &stored.code_hash) {
            let left = MAX_ATTEMPTS - stored.attempts;
            return Err(refuse(
                "wrong",
                serde_json::json!({ "reason": "wrong", "attemptsLeft": left }),
            ));
        }
        if !self
            .logins
            .consume_login_code(mobile.as_str(), &stored.code_hash)
            .await?
        {
            // Another request used this code a moment ago.
            return Err(refuse("used", serde_json::json!({ "reason": "none" })));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(created: i64, window_start: i64, sends: i64) -> LoginCode {
        LoginCode {
            mobile: "0521234567".into(),
            code_hash: String::new(),
            salt: String::new(),
            created_at_ms: created,
            expires_at_ms: created + CODE_TTL_MS,
            attempts: 0,
            window_started_at_ms: window_start,
            sends_in_window: sends,
        }
    }

    #[test]
    fn the_hash_depends_on_salt_number_and_code() {
        let m = MobileNumber::parse("0521234567").unwrap();
        let other = MobileNumber::parse("0521234568").unwrap();
        let h = code_hash("aa", &m, "123456");
        assert_eq!(h.len(), 64);
        assert!(!h.contains("123456"));
        assert_eq!(h, code_hash("aa", &m, "123456"));
        assert_ne!(h, code_hash("ab", &m, "123456"));
        assert_ne!(h, code_hash("aa", &other, "123456"));
        assert_ne!(h, code_hash("aa", &m, "123457"));
    }

    #[test]
    fn only_six_digits_make_a_code() {
        assert!(is_code_shape("012345"));
        for c in ["12345", "1234567", "12345a", "", "12 345", "١٢٣٤٥٦"] {
            assert!(!is_code_shape(c), "{c:?}");
        }
    }

    #[test]
    fn comparison_is_exact() {
        assert!(same("abc", "abc"));
        assert!(!same("abc", "abd"));
        assert!(!same("abc", "ab"));
    }

    #[test]
    fn the_text_carries_the_code_and_its_lifetime() {
        let t = login_code_text("042137");
        assert!(t.contains("042137"));
        assert!(t.contains("5 דקות"));
        assert!(t.chars().count() <= 70, "one Hebrew SMS segment");
    }

    #[test]
    fn retry_after_is_the_later_of_the_resend_wait_and_the_full_window() {
        let now = 1_000_000;
        assert_eq!(
            retry_after_seconds(&code(now - 10_000, now - 10_000, 1), now, &CODE_LIMITS),
            20
        );
        assert_eq!(
            retry_after_seconds(&code(now - 60_000, now - 600_000, 5), now, &CODE_LIMITS),
            3000
        );
        assert_eq!(
            retry_after_seconds(&code(now - 29_999, now, 1), now, &CODE_LIMITS),
            1
        );
    }
}

#[cfg(test)]
mod catalogue_tests {
    #[test]
    fn customers_mobiles_are_stored_in_local_form() {
        let file = crate::catalogue_file::parse(
            r#"{"customers": [{"id": 1, "mobile": "+972-52-123-4567"}, {"id": 2, "mobile": "02-6234567"}]}"#,
        )
        .unwrap();
        let data = crate::catalogue_file::expand(file, jiff::civil::date(2026, 11, 22)).unwrap();
        assert_eq!(data.customers[0].mobile, "0521234567");
        assert_eq!(
            data.customers[1].mobile, "02-6234567",
            "not a mobile: left as it was"
        );
    }
}
