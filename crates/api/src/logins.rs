//! Every customer login beside the checkout's SMS code (spec section 6 "logins", section 7
//! "Customer", decision 0023): email and password (`POST /customer/login`, registration with a
//! mailed confirmation link, password reset by a mailed link), member number and ID number,
//! reservation number and the order's contact, a mailed one-time code, a mailed login link, and
//! the customer area's mobile login (`/customer-area/mobile-login`, with `?checkout` at checkout,
//! and `/customer-area/mobile-login-validation`).
//!
//! Each login ends as the SMS login does (decision 0019): a fresh login id in the HttpOnly
//! `kupa_login` cookie and the buyer session id rotated.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use kupa_app::accounts::LoggedIn;
use kupa_app::logins::{MailedLogin, Registration, ReservationLogin};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::customer::{
    CustomerAccount, CustomerLoginResponse, SuccessResponse, logged_in_as, mobile,
};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::session::{BuyerSession, new_login_id};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(password_login))
        .routes(routes!(register))
        .routes(routes!(verify_email))
        .routes(routes!(password_reset))
        .routes(routes!(password_reset_confirm))
        .routes(routes!(member_login))
        .routes(routes!(reservation_login))
        .routes(routes!(mail_login))
        .routes(routes!(token_login))
        .routes(routes!(mail_code_login))
        .routes(routes!(area_mobile_login))
        .routes(routes!(area_mobile_login_validation))
}

fn answer(state: &AppState, l: &LoggedIn) -> axum::Json<CustomerLoginResponse> {
    axum::Json(CustomerLoginResponse::new(l, state.clock.now_ms()))
}

/// A login as most of these end: `login` runs the use case under a fresh login id, and its
/// customer is answered with the login cookie set and the session rotated.
async fn log_in(
    state: &AppState,
    session: &BuyerSession,
    login: impl AsyncFnOnce(&str) -> Result<LoggedIn, kupa_app::AppError>,
) -> ApiResult<Response> {
    let login_id = new_login_id();
    let l = login(&login_id).await?;
    let reply = answer(state, &l);
    logged_in_as(state, session, login_id, reply).await
}

const LOGIN_ERRORS: &str =
    "LOGIN_FAILED: the details match no account (one answer whichever half was wrong)";
const RATE: &str = "tooManyLoginAttempts: 5 failed logins of this account, or 30 from this address, in 15 minutes (params.retryAfterSeconds); tooManyRequests: the call's rate limit";
const TOKEN_ERRORS: &str = "CUSTOMER_TOKEN_ERROR: not a link of ours (ask for a new one); CUSTOMER_TOKEN_EXPIRED (params.expiredAt); CUSTOMER_TOKEN_REDEEMED: used already (params.redeemedAt)";

// --- Email and password

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordLoginBody {
    #[schema(max_length = 254)]
    pub email: String,
    #[schema(max_length = 128)]
    pub password: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// Answer the customer's member cards too.
    #[serde(default)]
    pub include_memberships: bool,
}

/// Logs in by email and password (spec: POST /customer/login). The address must have been
/// confirmed by the registration mail's link (or a reset link) first.
#[utoipa::path(post, operation_id = "customerLogin", path = "/customer/login", tag = "customer", request_body = PasswordLoginBody,
    responses((status = 200, description = "Logged in (new kupa_login cookie, rotated session)", body = CustomerLoginResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = LOGIN_ERRORS, body = ErrorBody),
              (status = 409, description = "emailNotVerified: the right password, but the address was never confirmed", body = ErrorBody),
              (status = 422, description = "formValidation (params.field email)", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn password_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<PasswordLoginBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        let mut l = state
            .logins
            .login_with_password(
                id,
                &body.email,
                &body.password,
                body.recaptcha_token.as_deref().unwrap_or_default(),
                session.address(),
            )
            .await?;
        if !body.include_memberships
            && let Some(account) = l.account.as_mut()
        {
            account.members.clear();
        }
        Ok(l)
    })
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RegisterBody {
    #[schema(max_length = 50)]
    pub first_name: String,
    #[schema(max_length = 50)]
    pub last_name: String,
    #[schema(max_length = 254)]
    pub email: String,
    /// 8 to 128 characters, not only digits.
    #[schema(max_length = 128)]
    pub password: String,
    /// Optional; proven later by an SMS code (a number another customer has is not taken).
    #[serde(default)]
    #[schema(max_length = 20)]
    pub mobile_number: String,
    #[serde(default)]
    pub mailing_allowed: bool,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// Registers a customer (path not shown in the spec). Mails a link that confirms the address;
/// the password logs in only after it. Answers the same when the address has an account already
/// (that address gets a mail saying so instead), so nobody learns who is registered.
#[utoipa::path(post, operation_id = "customerRegister", path = "/customer/register", tag = "customer", request_body = RegisterBody,
    responses((status = 200, description = "A confirmation mail is on its way", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 422, description = "formValidation (params.field firstName, lastName, email or password; params.reason tooShort, tooLong, tooSimple, required, invalid), invalid_mobileNumber", body = ErrorBody)))]
async fn register(
    State(state): State<AppState>,
    Json(body): Json<RegisterBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    state
        .logins
        .register(
            &Registration {
                first_name: body.first_name,
                last_name: body.last_name,
                email: body.email,
                password: body.password,
                mobile_number: body.mobile_number,
                mailing_allowed: body.mailing_allowed,
            },
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TokenBody {
    /// The token of the mailed link (its `token` query parameter).
    #[schema(max_length = 100)]
    pub token: String,
}

/// The registration mail's link: confirms the address and logs the customer in.
#[utoipa::path(post, operation_id = "customerVerifyEmail", path = "/customer/verify-email", tag = "customer", request_body = TokenBody,
    responses((status = 200, description = "Confirmed and logged in", body = CustomerLoginResponse),
              (status = 410, description = TOKEN_ERRORS, body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn verify_email(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<TokenBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        state
            .logins
            .verify_email(id, &body.token, session.address())
            .await
    })
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmailBody {
    #[schema(max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// "Forgot password": mails a link to choose a new one (valid one hour). Answers the same whether
/// or not a customer has the address.
#[utoipa::path(post, operation_id = "customerPasswordReset", path = "/customer/password-reset", tag = "customer", request_body = EmailBody,
    responses((status = 200, description = "If the address has an account, a link is on its way", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn password_reset(
    State(state): State<AppState>,
    Json(body): Json<EmailBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    state
        .logins
        .request_password_reset(
            &body.email,
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasswordResetConfirmBody {
    #[schema(max_length = 100)]
    pub token: String,
    #[schema(max_length = 128)]
    pub password: String,
}

/// The reset link: sets the new password, ends the customer's other logins, logs them in here.
#[utoipa::path(post, operation_id = "customerPasswordResetConfirm", path = "/customer/password-reset/confirm", tag = "customer", request_body = PasswordResetConfirmBody,
    responses((status = 200, description = "Password set, logged in", body = CustomerLoginResponse),
              (status = 410, description = TOKEN_ERRORS, body = ErrorBody),
              (status = 422, description = "formValidation (params.field password)", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn password_reset_confirm(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<PasswordResetConfirmBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        state
            .logins
            .reset_password(id, &body.token, &body.password, session.address())
            .await
    })
    .await
}

// --- Member number and ID number

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberLoginBody {
    #[schema(max_length = 30)]
    pub member_number: String,
    /// Israeli ID number, up to 9 digits with its check digit.
    #[schema(max_length = 20)]
    pub ssn: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// Logs a member in by the number on their card and their ID number (site config
/// memberLoginMethod byMemberNumberAndSsn). Answers the member cards always.
#[utoipa::path(post, operation_id = "customerMemberLogin", path = "/customer/member-login", tag = "customer", request_body = MemberLoginBody,
    responses((status = 200, description = "Logged in", body = CustomerLoginResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = LOGIN_ERRORS, body = ErrorBody),
              (status = 422, description = "invalid_ssn: the ID number's check digit fails; formValidation", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn member_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<MemberLoginBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        state
            .logins
            .login_with_member(
                id,
                &body.member_number,
                &body.ssn,
                body.recaptcha_token.as_deref().unwrap_or_default(),
                session.address(),
            )
            .await
    })
    .await
}

// --- Reservation number and contact

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReservationLoginBody {
    /// "1234-5678" (the dash optional).
    #[schema(max_length = 20)]
    pub reservation_number: String,
    /// The mobile number or the email written on the order.
    #[schema(max_length = 254)]
    pub contact: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReservationLoginResponse {
    /// Open it at /reservations/{reservationIdentifier}.
    pub reservation_identifier: String,
    /// True: a logged-in customer's claim, the order is now in their account. False: a guest,
    /// logged in to this reservation only (new kupa_login cookie, rotated session).
    pub claimed: bool,
}

/// Reservation number plus the mobile number or email on the order (path not shown in the spec).
/// A guest is logged in to that reservation only; a logged-in customer claims the order into
/// their account. Both halves must match exactly.
#[utoipa::path(post, operation_id = "customerReservationLogin", path = "/customer/reservation-login", tag = "customer", request_body = ReservationLoginBody,
    responses((status = 200, description = "Logged in to the reservation, or claimed", body = ReservationLoginResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = LOGIN_ERRORS, body = ErrorBody),
              (status = 409, description = "orderAlreadyClaimed: the order is in another customer's account", body = ErrorBody),
              (status = 422, description = "formValidation (reservationNumber: eight digits), invalid_mobileNumber", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn reservation_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<ReservationLoginBody>,
) -> ApiResult<Response> {
    let login_id = new_login_id();
    let outcome = state
        .logins
        .reservation_login(
            &login_id,
            session.login(),
            &body.reservation_number,
            &body.contact,
            body.recaptcha_token.as_deref().unwrap_or_default(),
            session.address(),
        )
        .await?;
    match outcome {
        ReservationLogin::Claimed { order_id } => Ok(axum::Json(ReservationLoginResponse {
            reservation_identifier: order_id,
            claimed: true,
        })
        .into_response()),
        ReservationLogin::Guest { order_id } => {
            let reply = axum::Json(ReservationLoginResponse {
                reservation_identifier: order_id,
                claimed: false,
            });
            logged_in_as(&state, &session, login_id, reply).await
        }
    }
}

// --- Mailed link and code

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailLoginBody {
    #[schema(max_length = 254)]
    pub email: String,
    /// "link" (a login link, the default) or "code" (a 6-digit code).
    #[serde(default)]
    #[schema(max_length = 10)]
    pub kind: Option<String>,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// Mails a one-time login link (20 minutes) or 6-digit code (10 minutes) to a customer with this
/// address; answers the same when none has it (path not shown in the spec).
#[utoipa::path(post, operation_id = "customerMailLogin", path = "/customer/mail-login", tag = "customer", request_body = MailLoginBody,
    responses((status = 200, description = "If the address has an account, the mail is on its way", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 422, description = "formValidation (email, or kind not link or code)", body = ErrorBody)))]
async fn mail_login(
    State(state): State<AppState>,
    Json(body): Json<MailLoginBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    let kind = match body.kind.as_deref().unwrap_or("link") {
        "link" => MailedLogin::Link,
        "code" => MailedLogin::Code,
        _ => return Err(crate::error::ApiError::validation("kind: link or code")),
    };
    state
        .logins
        .request_mailed_login(
            &body.email,
            kind,
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

/// The mailed login link (link token login).
#[utoipa::path(post, operation_id = "customerTokenLogin", path = "/customer/token-login", tag = "customer", request_body = TokenBody,
    responses((status = 200, description = "Logged in", body = CustomerLoginResponse),
              (status = 410, description = TOKEN_ERRORS, body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn token_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<TokenBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        state
            .logins
            .login_with_link(id, &body.token, session.address())
            .await
    })
    .await
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailCodeLoginBody {
    #[schema(max_length = 254)]
    pub email: String,
    /// The 6 digits the mail carried.
    #[schema(max_length = 10)]
    pub code: String,
}

/// The mailed one-time code, with the address it went to.
#[utoipa::path(post, operation_id = "customerMailCodeLogin", path = "/customer/mail-code-login", tag = "customer", request_body = MailCodeLoginBody,
    responses((status = 200, description = "Logged in", body = CustomerLoginResponse),
              (status = 401, description = "LOGIN_FAILED: wrong code (or no code for the address)", body = ErrorBody),
              (status = 410, description = "CUSTOMER_TOKEN_EXPIRED (params.expiredAt), CUSTOMER_TOKEN_REDEEMED (params.redeemedAt)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody),
              (status = 429, description = RATE, body = ErrorBody)))]
async fn mail_code_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<MailCodeLoginBody>,
) -> ApiResult<Response> {
    log_in(&state, &session, async |id| {
        state
            .logins
            .login_with_mailed_code(id, &body.email, &body.code, session.address())
            .await
    })
    .await
}

// --- The customer area's mobile login

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AreaMobileLoginQuery {
    /// Present (any value, or none: `?checkout`) at checkout: a number no customer has gets a
    /// code too, since a proven number suffices there.
    #[param(max_length = 10)]
    pub checkout: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AreaMobileLoginBody {
    #[schema(max_length = 20, pattern = r"^(05[0-9]{8}|\+9725[0-9]{8})$")]
    pub mobile_number: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// Sends an SMS code for the customer area and remembers the number for this buyer session (the
/// validation carries only the code). A logged-in customer with no mobile number on file is in
/// the update branch: the proven number becomes theirs.
#[utoipa::path(post, operation_id = "customerAreaMobileLogin", path = "/customer-area/mobile-login", tag = "customer", request_body = AreaMobileLoginBody,
    params(AreaMobileLoginQuery),
    responses((status = 200, description = "The code was sent", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "CUSTOMER_NOT_FOUND: no customer has the number (not at checkout)", body = ErrorBody),
              (status = 409, description = "SMS_FAILED; mobileNumberTaken (update branch: another customer has the number)", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber", body = ErrorBody),
              (status = 429, description = "smsResendTooSoon (params.retryAfterSeconds), tooManyRequests", body = ErrorBody)))]
async fn area_mobile_login(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<AreaMobileLoginQuery>,
    Json(body): Json<AreaMobileLoginBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    let number = mobile(&body.mobile_number)?;
    state
        .logins
        .area_request_code(
            session.id().as_str(),
            session.login(),
            &number,
            q.checkout.is_some(),
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AreaMobileLoginValidationBody {
    #[schema(max_length = 10)]
    pub sms_code: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AreaLoginResponse {
    /// The customer (null when no customer has the proven number: a checkout login).
    #[schema(required = true)]
    pub customer_area_info: Option<CustomerAccount>,
    /// The proven number, local form.
    pub mobile_number: String,
    /// The update branch added the number to the logged-in customer's account.
    pub mobile_number_updated: bool,
    pub logged_in_at: String,
    pub expires_at: String,
    pub server_time: String,
}

/// Checks the SMS code against the number the first call remembered for this session.
#[utoipa::path(post, operation_id = "customerAreaMobileLoginValidation", path = "/customer-area/mobile-login-validation", tag = "customer",
    request_body = AreaMobileLoginValidationBody,
    responses((status = 200, description = "Logged in (new kupa_login cookie, rotated session)", body = AreaLoginResponse),
              (status = 401, description = "INVALID_SMS_CODE: wrong, expired, or no code sent on this session (params.reason, params.attemptsLeft)", body = ErrorBody),
              (status = 429, description = "loginValidation: 5 attempts used, ask for a new code; tooManyRequests", body = ErrorBody)))]
async fn area_mobile_login_validation(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<AreaMobileLoginValidationBody>,
) -> ApiResult<Response> {
    let login_id = new_login_id();
    let area = state
        .logins
        .area_validate_code(
            session.id().as_str(),
            &login_id,
            session.login(),
            &body.sms_code,
        )
        .await?;
    let l = &area.logged_in;
    let reply = axum::Json(AreaLoginResponse {
        customer_area_info: l.account.as_ref().map(CustomerAccount::from),
        mobile_number: l.login.mobile.clone(),
        mobile_number_updated: area.mobile_number_updated,
        logged_in_at: kupa_domain::time::ms_to_rfc3339(l.login.logged_in_at_ms),
        expires_at: kupa_domain::time::ms_to_rfc3339(l.login.expires_at_ms),
        server_time: kupa_domain::time::ms_to_rfc3339(state.clock.now_ms()),
    });
    logged_in_as(&state, &session, login_id, reply).await
}
