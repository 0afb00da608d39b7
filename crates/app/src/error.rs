//! Every error a buyer can see carries a stable code from the spec's error catalogue (section 8).
//! The api layer picks the HTTP status; the web app picks the words.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    /// No such presentation, or not sellable through this channel.
    NoEvent,
    /// Generic "no such thing" for catalogue objects other than presentations.
    NotFound,
    /// The request's fields or parameters are malformed.
    FormValidation,
    /// An integration link whose key, time stamp or return address does not check out.
    IntegrationError,
    /// The captcha token was missing or rejected.
    Recaptcha,
    /// A storage or other internal failure; its details stay in the log.
    GeneralError,
    /// The database is unreachable right now; try again.
    ServiceUnavailable,
    /// The seat is no longer available (held by another buyer or sold).
    LockSeatError,
    /// The seat is not held by this buyer, so it cannot be released.
    UnlockSeatError,
    /// The presentation's sale window has not opened yet.
    TicketSaleNotYetStarted,
    /// The presentation's sale window has closed.
    TicketingEnded,
    /// A seating rule refused the selection (code from `kupa_domain::seating`).
    SeatingRule(&'static str),
    /// Not enough seats or places (res_not_enough_seats, NOT_ENOUGH_SEATS, ...).
    NotEnoughSeats(&'static str),
    /// The checkout's step timer refused (timeExpired, extensionNotAllowed).
    Checkout(&'static str),
    /// Any other catalogue code, by the HTTP meaning it carries: input that breaks a rule (422),
    /// a state that refuses the request (409), something that does not exist (404), a login or
    /// identity that does not check out (401), too many attempts (429), a payment refused (402).
    Invalid(&'static str),
    Conflict(&'static str),
    Missing(&'static str),
    Unauthorized(&'static str),
    TooMany(&'static str),
    PaymentFailed(&'static str),
}

impl ErrorCode {
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::NoEvent => "noEvent",
            ErrorCode::NotFound => "notFound",
            ErrorCode::FormValidation => "formValidation",
            ErrorCode::IntegrationError => "integrationError",
            ErrorCode::Recaptcha => "recaptcha",
            ErrorCode::GeneralError => "GENERAL_ERROR",
            ErrorCode::ServiceUnavailable => "serviceUnavailable",
            ErrorCode::LockSeatError => "lock_seat_error",
            ErrorCode::UnlockSeatError => "unlock_seat_error",
            ErrorCode::TicketSaleNotYetStarted => "ticket_sale_not_yet_started",
            ErrorCode::TicketingEnded => "ticketing_ended",
            ErrorCode::SeatingRule(code)
            | ErrorCode::NotEnoughSeats(code)
            | ErrorCode::Checkout(code)
            | ErrorCode::Invalid(code)
            | ErrorCode::Conflict(code)
            | ErrorCode::Missing(code)
            | ErrorCode::Unauthorized(code)
            | ErrorCode::TooMany(code)
            | ErrorCode::PaymentFailed(code) => code,
        }
    }
}

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
