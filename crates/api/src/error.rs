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

/// The answers a manager's call gives besides its own (in its `responses(...)`): nobody logged
/// in, or a staff user who is not a manager.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)] // only its responses are read, by the OpenAPI document
pub enum ManagersOnly {
    #[response(status = 401, description = "loginError")]
    Login(ErrorBody),
    #[response(status = 403, description = "forbidden: managers only")]
    Forbidden(ErrorBody),
}

/// As [`ManagersOnly`], for a manager's write, which is refused from another site's page too.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum ManagersOnlyFromOurPages {
    #[response(status = 401, description = "loginError")]
    Login(ErrorBody),
    #[response(
        status = 403,
        description = "forbidden: managers only, or from another site's page"
    )]
    Forbidden(ErrorBody),
}

/// The answers a staff call gives besides its own: nobody logged in, or a staff user without
/// the call's permission.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum StaffOnly {
    #[response(status = 401, description = "loginError")]
    Login(ErrorBody),
    #[response(status = 403, description = "forbidden")]
    Forbidden(ErrorBody),
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorDetail {
    /// A code from the spec's error catalogue (section 8), or Kupa's own (docs/api.md section 3).
    pub code: ErrorCode,
    /// English text for developers; the web app shows its own words for the code.
    pub message: String,
    /// Values the words need, e.g. `{"missing": 2}` (how many more tickets a coupon needs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub params: Option<serde_json::Value>,
}

#[derive(Debug)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: ErrorCode,
    pub message: String,
    pub params: Option<serde_json::Value>,
}

impl ApiError {
    /// An error with its code's one status.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status: status_of(code),
            code,
            message: message.into(),
            params: None,
        }
    }

    pub fn validation(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::FormValidation, message)
    }

    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(ErrorCode::NotFound, message)
    }
}

/// Each code has one status, so the same code never means two things: a state that refuses the
/// request is a conflict (409), input that breaks a rule is 422, something that does not exist
/// 404, a login or identity that does not check out 401, a refused payment 402. The match is
/// exhaustive: a new code does not compile until it has its status.
pub fn status_of(code: ErrorCode) -> StatusCode {
    use ErrorCode::*;
    match code {
        NoEvent | NotFound | CustomerNotFound | SystemVoucherNotFound => StatusCode::NOT_FOUND,
        IntegrationError | Forbidden => StatusCode::FORBIDDEN,
        // The spec reserves 400 for captcha failures: the client turns it into "recaptcha required".
        // Its siblings too: a token used twice, and a provider that could not be asked.
        Recaptcha | RecaptchaRepeated | InvalidCaptcha => StatusCode::BAD_REQUEST,
        GeneralError => StatusCode::INTERNAL_SERVER_ERROR,
        ServiceUnavailable => StatusCode::SERVICE_UNAVAILABLE,
        MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
        PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        TooManyRequests | LoginValidation | SmsResendTooSoon | TooManyLoginAttempts => {
            StatusCode::TOO_MANY_REQUESTS
        }
        LoginError | InvalidSmsCode | InvalidSignature | LoginFailed => StatusCode::UNAUTHORIZED,
        // A mailed link that cannot log in any more: gone (410) whatever the reason, so a client
        // tells it from a wrong password.
        CustomerTokenError | CustomerTokenExpired | CustomerTokenRedeemed => StatusCode::GONE,
        PaymentError => StatusCode::PAYMENT_REQUIRED,
        // States that refuse the request.
        LockSeatError
        | UnlockSeatError
        | HoldLimitReached
        | TicketSaleNotYetStarted
        | TicketingEnded
        | LocationOffline
        | AdvancedSalesNotAllowedByOutlet
        | NoTicketsInChannel
        | ResNotEnoughSeats
        | SectionNotEnoughSeats
        | NotEnoughSeats
        | GaNotEnoughSeats
        | TimeExpired
        | ExtensionNotAllowed
        | NoPricePolicy
        | VoucherExpired
        | VoucherBalance
        | CodeUsageLimitExceeded
        | CouponAlreadyUsed
        | CodeAlreadyEntered
        | TicketBalanceError
        | MemberExpired
        | MemberNotStarted
        | MemberNoneAvailable
        | PaymentPending
        | LastCommit
        | OrderAlreadyPaid
        | NothingToCancel
        | ReservationChanged
        | BalanceIsDue
        | TicketCancellationsAreNoLongerPossible
        | SmsFailed
        | CustomerNoMobile
        | AlreadyEnrolled
        | EmailNotVerified
        | MobileNumberTaken
        | EmailTaken
        | OrderAlreadyClaimed
        | HoldTooLate
        | HoldReleased
        | ScreeningOverlap
        | SeatPlanDiffers
        | ScreeningHasSales
        | PriceChangeExists
        | SystemVoucherNotActive
        | SystemVoucherAlreadyForReplacement => StatusCode::CONFLICT,
        // Input that breaks a rule.
        FormValidation
        | SingleSeatGap
        | SofaSplit
        | MixedPriceLevels
        | TicketCountMismatch
        | TooManySeats
        | SeatConfirmationRequired
        | CodeNotFound
        | CouponNeedsMoreTickets
        | CouponNoTickets
        | TicketNotFound
        | TicketMaxQuantity
        | TicketMinQuantity
        | TicketSeatKind
        | RequiredTicketMissing
        | NoValidMember
        | MemberNotFound
        | MemberTicketsMax
        | IlSeniorError
        | IlSeniorBalance
        | IlSeniorTicketNotFound
        | InvalidSsn
        | RefPromptOptError
        | RefPromptOptNotFound
        | PriceMismatch
        | CartSeatsMismatch
        | OnePresentationPerOrder
        | IncompatibleAuthProfile
        | IncompatibleBusiness
        | RefundToCreditUnavailable
        | MustSelectVouchers
        | NoVouchers
        | MustSelectDonations
        | NoDonations
        | MustSelectMemberships
        | NoMemberships
        | ValidateReferences
        | PriceNotFound
        | GetPrice
        | SystemVoucherNotSoldInOutlet
        | InvalidMobileNumber
        | InvalidSsnLogin
        | HoldPremiumSeat
        | HoldSystemVoucher
        | SeatPlanInvalid => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

impl From<kupa_app::StoreError> for ApiError {
    fn from(e: kupa_app::StoreError) -> ApiError {
        ApiError::from(AppError::from(e))
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
                ..ApiError::new(code, message)
            },
            AppError::Unavailable(detail) => {
                tracing::warn!(%detail, "store unavailable");
                ApiError::new(
                    ErrorCode::ServiceUnavailable,
                    "The service is busy; try again shortly.",
                )
            }
            AppError::Internal(detail) => {
                tracing::error!(%detail, "internal error");
                ApiError::new(ErrorCode::GeneralError, "Something went wrong on our side.")
            }
        }
    }
}

impl ApiError {
    /// A refusal that passes with time (429): `params.retryAfterSeconds` and the `Retry-After`
    /// header both say when to try again.
    pub fn retry_later(code: ErrorCode, message: impl Into<String>, seconds: u64) -> ApiError {
        ApiError {
            params: Some(serde_json::json!({ "retryAfterSeconds": seconds.max(1) })),
            ..ApiError::new(code, message)
        }
    }

    /// When to try again, for a 429: the `retryAfterSeconds` the refusal gave, else one second
    /// (every 429 carries `Retry-After`, so a client never has to guess).
    fn retry_after_seconds(&self) -> Option<u64> {
        (self.status == StatusCode::TOO_MANY_REQUESTS).then(|| {
            self.params
                .as_ref()
                .and_then(|p| p.get("retryAfterSeconds"))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(1)
                .max(1)
        })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let retry_after = self.retry_after_seconds();
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code,
                message: self.message,
                params: self.params,
            },
        };
        let mut response = (self.status, Json(body)).into_response();
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(
                axum::http::header::RETRY_AFTER,
                axum::http::HeaderValue::from(seconds),
            );
        }
        response
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_error_code_is_explained_in_the_api_document() {
        let doc = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api.md"),
        )
        .unwrap();
        let missing: Vec<&str> = ErrorCode::ALL
            .iter()
            .map(|c| c.as_str())
            .filter(|c| !doc.contains(&format!("`{c}`")))
            .collect();
        assert!(missing.is_empty(), "not in docs/api.md: {missing:?}");
    }

    #[test]
    fn a_refusing_state_is_a_conflict_and_broken_input_is_unprocessable() {
        assert_eq!(status_of(ErrorCode::VoucherExpired), StatusCode::CONFLICT);
        assert_eq!(
            status_of(ErrorCode::MemberNoneAvailable),
            StatusCode::CONFLICT
        );
        assert_eq!(
            status_of(ErrorCode::CodeNotFound),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(
            status_of(ErrorCode::TicketSeatKind),
            StatusCode::UNPROCESSABLE_ENTITY
        );
        assert_eq!(status_of(ErrorCode::Recaptcha), StatusCode::BAD_REQUEST);
    }
}
