//! Changing the email address or the mobile number from the customer area (not shown in the
//! spec; decision 0031). Each is two calls: the new one gets a code (mailed, or by SMS), and the
//! change happens only when the code comes back with it. The logged-in customer's own, always.

use axum::extract::State;
use kupa_app::model::Customer;
use kupa_domain::customer::MobileNumber;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::customer::{SuccessResponse, mobile};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(request_email_change))
        .routes(routes!(confirm_email_change))
        .routes(routes!(request_mobile_change))
        .routes(routes!(confirm_mobile_change))
}

const TOKEN_ERRORS: &str = "CUSTOMER_TOKEN_ERROR: the code is not right for this address (params.reason wrong); CUSTOMER_TOKEN_EXPIRED (params.expiredAt); CUSTOMER_TOKEN_REDEEMED: used already (params.redeemedAt)";
const RATE: &str = "tooManyLoginAttempts: 5 wrong codes of this account, or 30 from this address, in 15 minutes (params.retryAfterSeconds); tooManyRequests: the call's rate limit";

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailChangeBody {
    /// The new address.
    #[schema(max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailChangeConfirmBody {
    /// The new address the code was mailed to.
    #[schema(max_length = 254)]
    pub email: String,
    /// The 6 digits from the mail.
    #[schema(max_length = 20)]
    pub code: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MobileChangeBody {
    /// The new Israeli mobile number: 0521234567, 052-123-4567, +972521234567, ...
    #[schema(max_length = 30)]
    pub mobile_number: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MobileChangeConfirmBody {
    /// The new number the code was sent to.
    #[schema(max_length = 30)]
    pub mobile_number: String,
    /// The 6 digits from the SMS.
    #[schema(max_length = 20)]
    pub sms_code: String,
}

/// The account's contact details after a change.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ContactResponse {
    #[serde(rename = "EmailAddress1")]
    pub email_address1: String,
    /// Local form (a stored `+972…` with a leading 0).
    #[serde(rename = "MobileNumber1")]
    pub mobile_number1: String,
}

fn contact(c: &Customer) -> axum::Json<ContactResponse> {
    axum::Json(ContactResponse {
        email_address1: c.email.clone(),
        mobile_number1: MobileNumber::parse(&c.mobile)
            .map(|m| m.as_str().to_owned())
            .unwrap_or_else(|| c.mobile.clone()),
    })
}

/// Mails a 6-digit code to a new email address (30 minutes, once); the address changes only
/// when the code comes back (POST /customer-area/email-change/confirm).
#[utoipa::path(post, operation_id = "requestEmailChange", path = "/customer-area/email-change", tag = "customer",
    request_body = EmailChangeBody,
    responses((status = 200, description = "The code is on its way to the new address", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 409, description = "emailTaken: another account has this address", body = ErrorBody),
              (status = 422, description = "formValidation (params.field email, params.reason invalid or unchanged)", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn request_email_change(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<EmailChangeBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    state
        .logins
        .request_email_change(
            session.login(),
            &b.email,
            b.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

/// The mailed code with the new address: the address becomes the account's (and confirmed), and
/// the old address is told by mail.
#[utoipa::path(post, operation_id = "confirmEmailChange", path = "/customer-area/email-change/confirm", tag = "customer",
    request_body = EmailChangeConfirmBody,
    responses((status = 200, description = "Changed", body = ContactResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 409, description = "emailTaken: another account took the address meanwhile", body = ErrorBody),
              (status = 410, description = TOKEN_ERRORS, body = ErrorBody),
              (status = 422, description = "formValidation (params.field email)", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn confirm_email_change(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<EmailChangeConfirmBody>,
) -> ApiResult<axum::Json<ContactResponse>> {
    let c = state
        .logins
        .confirm_email_change(session.login(), &b.email, &b.code, session.address())
        .await?;
    Ok(contact(&c))
}

/// Sends an SMS code to a new mobile number (the login code's rules: 5 minutes, 5 attempts, not
/// again within 30 s, 5 an hour); the number changes only when the code comes back.
#[utoipa::path(post, operation_id = "requestMobileChange", path = "/customer-area/mobile-change", tag = "customer",
    request_body = MobileChangeBody,
    responses((status = 200, description = "The code is on its way to the new number", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 409, description = "mobileNumberTaken: another account has this number; SMS_FAILED", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber; formValidation (params.field mobileNumber, params.reason unchanged)", body = ErrorBody),
              (status = 429, description = "smsResendTooSoon (params.retryAfterSeconds); tooManyRequests", body = ErrorBody)))]
async fn request_mobile_change(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<MobileChangeBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    let to = mobile(&b.mobile_number)?;
    state
        .logins
        .request_mobile_change(
            session.login(),
            &to,
            b.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

/// The SMS code with the new number: the number becomes the account's, and the old address is
/// told by mail.
#[utoipa::path(post, operation_id = "confirmMobileChange", path = "/customer-area/mobile-change/confirm", tag = "customer",
    request_body = MobileChangeConfirmBody,
    responses((status = 200, description = "Changed", body = ContactResponse),
              (status = 401, description = "loginError: nobody is logged in; INVALID_SMS_CODE (params.reason wrong with attemptsLeft, expired, none)", body = ErrorBody),
              (status = 409, description = "mobileNumberTaken: another account took the number meanwhile", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber", body = ErrorBody),
              (status = 429, description = "loginValidation: 5 wrong attempts, the code is dead", body = ErrorBody)))]
async fn confirm_mobile_change(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<MobileChangeConfirmBody>,
) -> ApiResult<axum::Json<ContactResponse>> {
    let to = mobile(&b.mobile_number)?;
    let c = state
        .logins
        .confirm_mobile_change(session.login(), &to, &b.sms_code)
        .await?;
    Ok(contact(&c))
}
