//! The one error shape on the wire: `{"error": {"code": "...", "message": "..."}}`, with a code
//! from the spec's error catalogue. Internal details are logged once and never sent.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use kupa_app::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// A code from the spec's error catalogue (section 8), e.g. `noEvent`, `formValidation`.
    pub code: String,
    /// English text for developers; the web app shows its own words for the code.
    pub message: String,
    /// Values the words need, e.g. `{"missing": 2}` (how many more tickets a coupon needs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<serde_json::Value>,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: String,
    pub message: String,
    pub params: Option<serde_json::Value>,
}

impl ApiError {
    pub fn new(
        status: StatusCode,
        code: impl Into<String>,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code: code.into(),
            message: message.into(),
            params: None,
        }
    }

    pub fn validation(message: impl Into<String>) -> ApiError {
        ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            ErrorCode::FormValidation.as_str(),
            message,
        )
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, ErrorCode::NotFound.as_str(), message)
    }
}

/// Each rejection code has one status, so the same code never means two things.
fn status_of(code: ErrorCode) -> StatusCode {
    match code {
        ErrorCode::NoEvent | ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::FormValidation => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::IntegrationError => StatusCode::FORBIDDEN,
        // The spec reserves 400 for captcha failures: the client turns it into "recaptcha required".
        ErrorCode::Recaptcha => StatusCode::BAD_REQUEST,
        ErrorCode::GeneralError => StatusCode::INTERNAL_SERVER_ERROR,
        ErrorCode::ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        ErrorCode::LockSeatError
        | ErrorCode::UnlockSeatError
        | ErrorCode::TicketSaleNotYetStarted
        | ErrorCode::TicketingEnded
        | ErrorCode::NotEnoughSeats(_)
        | ErrorCode::Checkout(_) => StatusCode::CONFLICT,
        ErrorCode::SeatingRule(_) | ErrorCode::Invalid(_) => StatusCode::UNPROCESSABLE_ENTITY,
        ErrorCode::Conflict(_) => StatusCode::CONFLICT,
        ErrorCode::Missing(_) => StatusCode::NOT_FOUND,
        ErrorCode::Unauthorized(_) => StatusCode::UNAUTHORIZED,
        ErrorCode::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::PaymentFailed(_) => StatusCode::PAYMENT_REQUIRED,
    }
}

impl From<AppError> for ApiError {
    fn from(e: AppError) -> ApiError {
        match e {
            AppError::Rejected {
                code,
                message,
                params,
            } => ApiError {
                params,
                ..ApiError::new(status_of(code), code.as_str(), message)
            },
            AppError::Unavailable(detail) => {
                tracing::warn!(%detail, "store unavailable");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    ErrorCode::ServiceUnavailable.as_str(),
                    "The service is busy; try again shortly.",
                )
            }
            AppError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                ApiError::new(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ErrorCode::GeneralError.as_str(),
                    "Something went wrong on our side.",
                )
            }
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
                params: self.params,
            },
        };
        (self.status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
