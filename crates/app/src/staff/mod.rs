//! The staff side (decision 0026): staff users separate from customers, their login (email and
//! password, argon2id, attempt limits, an optional TOTP second factor) and who may do what; and
//! the live monitoring (PRES-live) and ticket-reference prompt admin they use ([`live`], [`refs`]).
//!
//! Every staff call goes through [`StaffService::caller`] and [`Caller::require`]: a live login,
//! a role that may make the call, and the user's `businessIds`, which every figure is filtered by.

pub mod door;
pub mod live;
pub mod order_summary;
pub mod refs;
pub mod reports;
pub mod resend;
pub mod sales;
mod store;
pub mod summary;
pub mod totp;
pub mod validate;

pub use store::StaffStore;

use std::sync::Arc;

use kupa_domain::customer::normalise_email;
use rand::Rng;
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::logins::{FAILURE_WINDOW_MS, hash_password, password_matches};
use crate::ports::{Clock, CredentialStore};

/// A staff login lasts a long shift.
pub const STAFF_LOGIN_TTL_MS: i64 = 12 * 3_600_000;
/// Failed staff logins one account takes in the window before it is locked for the rest of it.
pub const STAFF_ACCOUNT_FAILURES: i64 = 5;
/// Failed staff logins one client address takes in the window.
pub const STAFF_ADDRESS_FAILURES: i64 = 20;
pub const MIN_PASSWORD_CHARS: usize = 10;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum Role {
    /// Everything of the businesses: attendance, sales, the reference-prompt admin.
    Manager,
    /// The ticket-reference prompt admin of the businesses only.
    TicketReferenceAgent,
    /// The door: attendance (how full the halls are), never money.
    Usher,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Manager => "manager",
            Role::TicketReferenceAgent => "ticketReferenceAgent",
            Role::Usher => "usher",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        [Role::Manager, Role::TicketReferenceAgent, Role::Usher]
            .into_iter()
            .find(|r| r.as_str() == s)
    }
}

/// What a staff call needs of its caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Occupancy: capacity, sold and held counts (managers and ushers).
    Attendance,
    /// Money and sales lists (managers).
    Sales,
    /// The ticket-reference prompt admin (managers and ticket-reference agents).
    ReferencePrompts,
    /// The waivers signed for children's vouchers, with their signatures (managers; decision 0041).
    Waivers,
    /// Checking tickets at the door and marking them scanned (ushers and managers; decision 0044).
    Door,
    /// The programme: screenings added, moved, cancelled, weeks copied (managers; decision 0058).
    Programme,
    /// The chain's films and products (managers; decision 0069).
    Catalogue,
}

impl Access {
    pub fn allows(self, role: Role) -> bool {
        match self {
            Access::Attendance | Access::Door => matches!(role, Role::Manager | Role::Usher),
            Access::Sales | Access::Waivers | Access::Programme | Access::Catalogue => {
                role == Role::Manager
            }
            Access::ReferencePrompts => {
                matches!(role, Role::Manager | Role::TicketReferenceAgent)
            }
        }
    }
}

/// A staff user (spec section 3: FirstName, LastName, userId, businessIds) and their role.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StaffUser {
    pub id: i64,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub business_ids: Vec<i64>,
    pub has_totp: bool,
}

/// The stored account: the user and their secrets (never logged, never answered).
#[derive(Debug, Clone)]
pub struct StaffAccount {
    pub user: StaffUser,
    pub password_hash: String,
    pub totp_secret: Option<String>,
    pub disabled: bool,
}

#[derive(Debug, Clone)]
pub struct NewStaffUser {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub business_ids: Vec<i64>,
    pub password_hash: String,
    pub totp_secret: Option<String>,
}

/// A logged-in staff user, as a call sees them.
#[derive(Debug, Clone)]
pub struct Caller {
    pub user: StaffUser,
}

impl Caller {
    /// Refuses (403 `forbidden`) a call the role may not make.
    pub fn require(&self, access: Access) -> AppResult<()> {
        if access.allows(self.user.role) {
            Ok(())
        } else {
            tracing::info!(
                user_id = self.user.id,
                role = self.user.role.as_str(),
                ?access,
                "staff call refused for the role"
            );
            Err(AppError::rejected(
                ErrorCode::Forbidden,
                "this staff role may not make this call",
            ))
        }
    }

    /// The businesses a call reads: the user's own, or those of them the call names. Naming a
    /// business the user does not have is refused, never silently narrowed.
    pub fn businesses(&self, asked: &[i64]) -> AppResult<Vec<i64>> {
        if asked.is_empty() {
            return Ok(self.user.business_ids.clone());
        }
        if let Some(b) = asked.iter().find(|b| !self.user.business_ids.contains(b)) {
            return Err(AppError::rejected_with(
                ErrorCode::Forbidden,
                format!("business {b} is not one of this user's"),
                serde_json::json!({ "businessId": b }),
            ));
        }
        Ok(asked.to_vec())
    }

    pub fn sees(&self, business_id: i64) -> bool {
        self.user.business_ids.contains(&business_id)
    }
}

/// A staff user as `kupa staff add` or the demo creates them.
#[derive(Debug, Clone)]
pub struct StaffSignup {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub role: Role,
    pub business_ids: Vec<i64>,
    pub password: String,
    pub with_totp: bool,
}

/// What creating a user gave: the id, and the TOTP secret to put in an authenticator app.
#[derive(Debug, Clone)]
pub struct Created {
    pub user_id: i64,
    pub totp_secret: Option<String>,
}

/// The demo chain's staff (decision 0026): their addresses, roles and, in test mode only, fixed
/// passwords the start prints.
pub const DEMO_STAFF: [(&str, &str, &str, Role, &[i64]); 4] = [
    (
        "manager@kupa.example",
        "Noa",
        "Mizrahi",
        Role::Manager,
        &[1],
    ),
    ("usher@kupa.example", "Avi", "Peretz", Role::Usher, &[1]),
    (
        "agent@kupa.example",
        "Shira",
        "Katz",
        Role::TicketReferenceAgent,
        &[1],
    ),
    ("haifa@kupa.example", "Yossi", "Haddad", Role::Manager, &[2]),
];

fn sha256_hex(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update(b"\x1f");
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

fn login_hash(login_id: &str) -> String {
    sha256_hex(&["staff login", login_id])
}

/// Checked when no account matched, so a missing account takes as long as a wrong password.
fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not any staff user's password").unwrap_or_default())
}

fn no_such_user() -> AppError {
    AppError::rejected(ErrorCode::NotFound, "no staff user has this email")
}

fn failed() -> AppError {
    AppError::rejected(ErrorCode::LoginFailed, "these details do not log anyone in")
}

pub struct StaffService {
    store: Arc<dyn StaffStore>,
    creds: Arc<dyn CredentialStore>,
    clock: Arc<dyn Clock>,
}

/// A login done: the new login id (the caller sets the `kupa_staff` cookie) and the user.
#[derive(Debug, Clone)]
pub struct StaffLogin {
    pub login_id: String,
    pub user: StaffUser,
}

impl StaffService {
    pub fn new(
        store: Arc<dyn StaffStore>,
        creds: Arc<dyn CredentialStore>,
        clock: Arc<dyn Clock>,
    ) -> StaffService {
        StaffService {
            store,
            creds,
            clock,
        }
    }

    pub fn store(&self) -> &Arc<dyn StaffStore> {
        &self.store
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Creates a staff user (`kupa staff add`, the demo). The password must be at least
    /// [`MIN_PASSWORD_CHARS`] long; the email is one account.
    pub async fn add_user(&self, s: &StaffSignup) -> AppResult<Created> {
        let email = normalise_email(&s.email).ok_or_else(|| {
            AppError::rejected(ErrorCode::FormValidation, "email: not an email address")
        })?;
        if s.password.chars().count() < MIN_PASSWORD_CHARS {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                format!("password: at least {MIN_PASSWORD_CHARS} characters"),
            ));
        }
        if s.first_name.trim().is_empty() || s.last_name.trim().is_empty() {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "first and last name are required",
            ));
        }
        if s.business_ids.is_empty() {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "businessIds: at least one business",
            ));
        }
        let totp_secret = s.with_totp.then(totp::new_secret);
        let new = NewStaffUser {
            email,
            first_name: s.first_name.trim().to_owned(),
            last_name: s.last_name.trim().to_owned(),
            role: s.role,
            business_ids: s.business_ids.clone(),
            password_hash: hash_password(&s.password)?,
            totp_secret: totp_secret.clone(),
        };
        let id = self
            .store
            .create_staff_user(&new, self.clock.now_ms())
            .await?
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::FormValidation,
                    "email: a staff user has this address already",
                )
            })?;
        tracing::info!(user_id = id, role = s.role.as_str(), "staff user added");
        Ok(Created {
            user_id: id,
            totp_secret,
        })
    }

    /// The demo staff, when the demo chain was just loaded: in test mode with fixed passwords
    /// (returned, for the start to print), otherwise with random ones nobody is told (set real
    /// ones with `kupa staff add`).
    pub async fn add_demo_staff(&self, test_mode: bool) -> AppResult<Vec<(String, String)>> {
        let mut printed = Vec::new();
        for (email, first, last, role, businesses) in DEMO_STAFF {
            let password = if test_mode {
                format!("demo-{}-pass", email.split('@').next().unwrap_or("staff"))
            } else {
                crate::staff::totp::base32_encode(&rand::rng().random::<[u8; 15]>())
            };
            self.add_user(&StaffSignup {
                email: email.into(),
                first_name: first.into(),
                last_name: last.into(),
                role,
                business_ids: businesses.to_vec(),
                password: password.clone(),
                with_totp: false,
            })
            .await?;
            if test_mode {
                printed.push((email.to_owned(), password));
            }
        }
        Ok(printed)
    }

    async fn guard(&self, keys: &[(&str, i64)]) -> AppResult<()> {
        let now = self.clock.now_ms();
        for (key, limit) in keys {
            let f = self.creds.failures(key, now, FAILURE_WINDOW_MS).await?;
            if f.count >= *limit {
                let wait = ((f.window_started_at_ms + FAILURE_WINDOW_MS - now).max(1) + 999) / 1000;
                tracing::info!("staff login refused: too many failed attempts");
                return Err(AppError::rejected_with(
                    ErrorCode::TooManyLoginAttempts,
                    format!("too many failed logins: try again in {wait} s"),
                    serde_json::json!({ "retryAfterSeconds": wait }),
                ));
            }
        }
        Ok(())
    }

    async fn count_failure(&self, keys: &[(&str, i64)]) -> AppResult<()> {
        let now = self.clock.now_ms();
        for (key, _) in keys {
            self.creds
                .count_failure(key, now, FAILURE_WINDOW_MS)
                .await?;
        }
        Ok(())
    }

    /// Email, password and (when the account has one) the TOTP code. One answer,
    /// `LOGIN_FAILED`, for an unknown address, a wrong password and a wrong code; a missing code
    /// after the right password says `params.totpRequired`. Past the limits every attempt is
    /// `tooManyLoginAttempts`, right or wrong.
    pub async fn login(
        &self,
        email: &str,
        password: &str,
        totp_code: Option<&str>,
        address: &str,
    ) -> AppResult<StaffLogin> {
        let email = normalise_email(email).ok_or_else(failed)?;
        let account_key = sha256_hex(&["staff account", &email]);
        let address_key = sha256_hex(&["staff address", address]);
        let keys = [
            (account_key.as_str(), STAFF_ACCOUNT_FAILURES),
            (address_key.as_str(), STAFF_ADDRESS_FAILURES),
        ];
        self.guard(&keys).await?;
        let account = self.store.staff_account_by_email(&email).await?;
        let Some(account) = account.filter(|a| !a.disabled) else {
            let _ = password_matches(password, dummy_hash());
            self.count_failure(&keys).await?;
            return Err(failed());
        };
        if !password_matches(password, &account.password_hash) {
            self.count_failure(&keys).await?;
            return Err(failed());
        }
        if let Some(secret) = &account.totp_secret {
            let Some(code) = totp_code.filter(|c| !c.trim().is_empty()) else {
                return Err(AppError::rejected_with(
                    ErrorCode::LoginFailed,
                    "this account needs the code of its authenticator app",
                    serde_json::json!({ "totpRequired": true }),
                ));
            };
            let now = self.clock.now_ms();
            let step = totp::matching_step(secret, code, now);
            let fresh = match step {
                Some(step) => self.store.use_totp_step(account.user.id, step).await?,
                None => false,
            };
            if !fresh {
                self.count_failure(&keys).await?;
                return Err(AppError::rejected_with(
                    ErrorCode::LoginFailed,
                    "the authenticator code is wrong or was used already",
                    serde_json::json!({ "totpRequired": true }),
                ));
            }
        }
        self.creds.clear_failures(&account_key).await?;
        let login_id: String = rand::rng()
            .random::<[u8; 16]>()
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let now = self.clock.now_ms();
        self.store
            .bind_staff_login(
                &login_hash(&login_id),
                account.user.id,
                now,
                now + STAFF_LOGIN_TTL_MS,
            )
            .await?;
        tracing::info!(user_id = account.user.id, "staff user logged in");
        Ok(StaffLogin {
            login_id,
            user: account.user,
        })
    }

    /// The logged-in staff user of a `kupa_staff` cookie; 401 `loginError` without one.
    pub async fn caller(&self, login_id: Option<&str>) -> AppResult<Caller> {
        let user = match login_id {
            Some(id) => {
                self.store
                    .staff_of_login(&login_hash(id), self.clock.now_ms())
                    .await?
            }
            None => None,
        };
        user.map(|user| Caller { user }).ok_or_else(|| {
            AppError::rejected(ErrorCode::LoginError, "log in as a staff user first")
        })
    }

    /// `kupa staff disable`: the user can no longer log in, and every login they have ends now
    /// (the next call of each is 401, an open figures stream closes at its next event).
    pub async fn disable_user(&self, email: &str) -> AppResult<()> {
        let email = normalise_email(email).ok_or_else(no_such_user)?;
        if !self
            .store
            .disable_staff_user(&email, self.clock.now_ms())
            .await?
        {
            return Err(no_such_user());
        }
        tracing::info!("staff user disabled");
        Ok(())
    }

    /// `kupa staff password`: a new password (at least [`MIN_PASSWORD_CHARS`]); the user's
    /// logins end (whoever knew the old one is out) and the failed-login lock is lifted.
    pub async fn set_password(&self, email: &str, password: &str) -> AppResult<()> {
        let email = normalise_email(email).ok_or_else(no_such_user)?;
        if password.chars().count() < MIN_PASSWORD_CHARS {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                format!("password: at least {MIN_PASSWORD_CHARS} characters"),
            ));
        }
        let hash = hash_password(password)?;
        if !self.store.set_staff_password(&email, &hash).await? {
            return Err(no_such_user());
        }
        self.creds
            .clear_failures(&sha256_hex(&["staff account", &email]))
            .await?;
        tracing::info!("staff user's password replaced");
        Ok(())
    }

    pub async fn logout(&self, login_id: Option<&str>) -> AppResult<()> {
        if let Some(id) = login_id {
            self.store.end_staff_login(&login_hash(id)).await?;
        }
        Ok(())
    }
}
