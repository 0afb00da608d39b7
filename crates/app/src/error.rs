//! Every error a buyer can see carries a stable code from the spec's error catalogue (section 8).
//! The api layer picks the HTTP status; the web app picks the words.

use std::fmt;

pub use kupa_domain::codes::ErrorCode;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    /// Something the buyer can act on; `message` is English for logs and API consumers.
    #[error("{code:?}: {message}")]
    Rejected {
        code: ErrorCode,
        message: String,
        /// Values the client's message needs (e.g. `{"missing": 1}` more tickets for a coupon).
        params: Option<serde_json::Value>,
    },
    /// The store could not be reached (connection refused, pool timed out).
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// Anything else: a bug or a broken invariant. Logged, never shown.
    #[error("internal: {0}")]
    Internal(String),
}

impl AppError {
    pub fn rejected(code: ErrorCode, message: impl fmt::Display) -> AppError {
        AppError::Rejected {
            code,
            message: message.to_string(),
            params: None,
        }
    }

    pub fn rejected_with(
        code: ErrorCode,
        message: impl fmt::Display,
        params: serde_json::Value,
    ) -> AppError {
        AppError::Rejected {
            code,
            message: message.to_string(),
            params: Some(params),
        }
    }

    pub fn internal(e: impl fmt::Display) -> AppError {
        AppError::Internal(e.to_string())
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// What a store (the database adapter behind the store ports) says went wrong. The store names
/// what happened; the app decides what it means (mapped once, in `From<StoreError> for AppError`,
/// or matched where a use case expects it, e.g. a reservation number drawn twice).
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// A row the call needs is not there (a payment being finalised, ...).
    #[error("not found: {0}")]
    NotFound(String),
    /// A write broke a named constraint (see [`constraint`]); `detail` is for the log only.
    #[error("conflict on {constraint}: {detail}")]
    Conflict {
        constraint: &'static str,
        detail: String,
    },
    /// The database cannot be reached right now; the call may be tried again.
    #[error("store unavailable: {0}")]
    Unavailable(String),
    /// Anything else: a bug or a broken invariant.
    #[error("store: {0}")]
    Other(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

impl StoreError {
    pub fn other(e: impl fmt::Display) -> StoreError {
        StoreError::Other(e.to_string())
    }

    /// Whether this is a conflict on the named constraint.
    pub fn is_conflict_on(&self, name: &str) -> bool {
        matches!(self, StoreError::Conflict { constraint, .. } if *constraint == name)
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> AppError {
        match e {
            StoreError::Unavailable(m) => AppError::Unavailable(m),
            // A conflict no use case expected, or a missing row, is a broken invariant: logged,
            // never shown.
            other => AppError::Internal(other.to_string()),
        }
    }
}

/// The database constraints a use case may meet at run time, by the names both migration trees
/// give them. The store turns a broken one into [`StoreError::Conflict`] with this name.
pub mod constraint {
    /// Two orders drew the same short reservation number.
    pub const ORDERS_RESERVATION_NUMBER: &str = "orders_reservation_number_key";
    /// Two tickets drew the same e-document key.
    pub const ORDER_TICKETS_DOCUMENT_KEY: &str = "order_tickets_document_key";
    pub const TICKET_CODES_CODE_KEY: &str = "ticket_codes_code_key";
    pub const MEMBERS_NUMBER_KEY: &str = "members_number_key";
    pub const MINI_SITES_URL_KEY: &str = "mini_sites_url_key";
    pub const SEATS_PLACE_KEY: &str = "seats_place_key";
    pub const SERVICE_CHARGES_BUSINESS_KEY: &str = "service_charges_business_key";
    /// A code used past its limit, a voucher below zero (the guarded updates avoid these).
    pub const TICKET_CODES_USED_COUNT_CHECK: &str = "ticket_codes_used_count_check";
    pub const TICKET_CODES_BALANCE_CHECK: &str = "ticket_codes_balance_check";
    /// Two registrations at once drew the same customer id. A primary key with its database's
    /// default name (not written in the migrations, so not in [`ALL`]).
    pub const CUSTOMERS_PKEY: &str = "customers_pkey";

    /// Every name above written as a named constraint in both migration trees.
    pub const ALL: [&str; 9] = [
        ORDERS_RESERVATION_NUMBER,
        ORDER_TICKETS_DOCUMENT_KEY,
        TICKET_CODES_CODE_KEY,
        MEMBERS_NUMBER_KEY,
        MINI_SITES_URL_KEY,
        SEATS_PLACE_KEY,
        SERVICE_CHARGES_BUSINESS_KEY,
        TICKET_CODES_USED_COUNT_CHECK,
        TICKET_CODES_BALANCE_CHECK,
    ];
}
