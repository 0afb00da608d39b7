//! Customer login by mobile number and SMS code (spec section 7 "Customer"):
//! POST /customer/mobile-login, POST /customer/mobile-login-validation-area, POST /customer/logout,
//! and GET /customer/me for the web app after a reload.

use axum::extract::State;
use kupa_app::AppError;
use kupa_app::accounts::{
    CustomerAccount as Account, INVALID_MOBILE_NUMBER, LoggedIn, MemberCard as Card, NOT_LOGGED_IN,
};
use kupa_domain::customer::{MemberStanding, MobileNumber, clean_address, masked_id_number};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::session::{BuyerSession, SessionChange, new_login_id};
use crate::state::AppState;
use axum::response::{IntoResponse, Response};
use kupa_domain::ids::SessionId;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(mobile_login))
        .routes(routes!(mobile_login_validation))
        .routes(routes!(logout))
        .routes(routes!(me))
}

/// Parse at the edge: inner code sees only valid local-form numbers.
pub(crate) fn mobile(raw: &str) -> ApiResult<MobileNumber> {
    MobileNumber::parse(raw).ok_or_else(|| {
        AppError::rejected(INVALID_MOBILE_NUMBER, "not an Israeli mobile number").into()
    })
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MobileLoginBody {
    /// An Israeli mobile number: 0521234567, 052-123-4567, +972521234567, ...
    #[schema(max_length = 20, pattern = r"^(05[0-9]{8}|\+9725[0-9]{8})$")]
    pub mobile_number: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// Send a code even when no customer has the number (checkout: a proven number suffices).
    #[serde(default)]
    pub send_sms_regardless_of_customer_existence: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SuccessResponse {
    pub success: bool,
}

/// Sends a 6-digit login code by SMS to the number.
#[utoipa::path(post, operation_id = "mobileLogin", path = "/customer/mobile-login", tag = "customer", request_body = MobileLoginBody,
    responses((status = 200, description = "The code was sent", body = SuccessResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "CUSTOMER_NOT_FOUND: no customer has the number (and sendSmsRegardlessOfCustomerExistence is false)", body = ErrorBody),
              (status = 409, description = "SMS_FAILED: the SMS could not be sent", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber, formValidation", body = ErrorBody),
              (status = 429, description = "smsResendTooSoon: a code was sent less than 30 s ago, or 5 this hour (params.retryAfterSeconds)", body = ErrorBody)))]
async fn mobile_login(
    State(state): State<AppState>,
    Json(body): Json<MobileLoginBody>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    let number = mobile(&body.mobile_number)?;
    state
        .mobile_login
        .request_code(
            &number,
            body.recaptcha_token.as_deref().unwrap_or_default(),
            body.send_sms_regardless_of_customer_existence,
        )
        .await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MobileLoginValidationBody {
    /// The 6 digits the SMS carried.
    #[schema(max_length = 10)]
    pub sms_code: String,
    #[schema(max_length = 20, pattern = r"^(05[0-9]{8}|\+9725[0-9]{8})$")]
    pub mobile_number: String,
}

/// A member card of the customer (spec section 3 "Member").
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberCard {
    pub member_number: String,
    pub membership_id: i64,
    /// 2 means a series.
    pub membership_type_id: i64,
    pub name: String,
    pub name_en: String,
    pub class_name: String,
    pub customer_id: i64,
    /// Agorot.
    pub balance: i64,
    pub currency: String,
    /// Loyalty points, not money.
    pub points_balance: i64,
    /// YYYY-MM-DD, inclusive.
    pub start_date: String,
    /// YYYY-MM-DD, inclusive.
    pub end_date: String,
    /// The period is running today (Asia/Jerusalem).
    pub is_available: bool,
    pub is_expired: bool,
    pub is_not_started: bool,
    /// Its balance can be topped up now (a series whose membership allows it, on sale, and the
    /// member not expired): the area offers `/memberships?topUp=<memberNumber>`.
    pub top_up: bool,
}

impl From<&Card> for MemberCard {
    fn from(c: &Card) -> MemberCard {
        MemberCard {
            member_number: c.member.member_number.clone(),
            membership_id: c.member.membership_id,
            membership_type_id: c.membership.type_id,
            name: c.membership.name.clone(),
            name_en: c.membership.name_en.clone(),
            class_name: c.membership.class_name.clone(),
            customer_id: c.member.customer_id,
            balance: c.member.balance.minor(),
            currency: "ILS".into(),
            points_balance: c.member.points_balance,
            start_date: c.member.start_date.clone(),
            end_date: c.member.end_date.clone(),
            is_available: c.standing == MemberStanding::Active,
            is_expired: c.standing == MemberStanding::Expired,
            is_not_started: c.standing == MemberStanding::NotStarted,
            top_up: c.membership.top_up
                && c.membership.is_series()
                && c.membership.on_sale
                && c.standing != MemberStanding::Expired,
        }
    }
}

/// The logged-in customer in the spec's spelling (section 3 "Customer"). The ID number is masked
/// but for its last 4 digits; the server keeps the whole one for the orders that need it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct CustomerAccount {
    pub customer_id: i64,
    pub first_name: String,
    pub last_name: String,
    /// Israeli ID number, all but the last 4 digits masked: "*****8711".
    #[serde(rename = "SSN")]
    pub ssn: String,
    pub email_address1: String,
    /// Local form, "0524318876".
    pub mobile_number1: String,
    /// With '#' replaced by a space.
    pub address1: String,
    pub city: String,
    pub postal_code: String,
    /// YYYY-MM-DD.
    pub date_of_birth: String,
    #[serde(rename = "IsSMSAllowed")]
    pub is_sms_allowed: bool,
    pub is_mailing_allowed: bool,
    pub members: Vec<MemberCard>,
}

impl From<&Account> for CustomerAccount {
    fn from(a: &Account) -> CustomerAccount {
        let c = &a.customer;
        CustomerAccount {
            customer_id: c.id,
            first_name: c.first_name.clone(),
            last_name: c.last_name.clone(),
            ssn: masked_id_number(&c.ssn),
            email_address1: c.email.clone(),
            mobile_number1: c.mobile.clone(),
            address1: clean_address(&c.address1),
            city: c.city.clone(),
            postal_code: c.postal_code.clone(),
            date_of_birth: c.date_of_birth.clone(),
            is_sms_allowed: c.is_sms_allowed,
            is_mailing_allowed: c.is_mailing_allowed,
            members: a.members.iter().map(MemberCard::from).collect(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerLoginResponse {
    /// The customer, or null when no customer has the proven number (a code sent regardless).
    #[schema(required = true)]
    pub customer_info: Option<CustomerAccount>,
    /// The proven number, local form.
    pub mobile_number: String,
    pub logged_in_at: String,
    /// The login ends then (2 hours after it began); log in again after.
    pub expires_at: String,
    pub server_time: String,
}

impl CustomerLoginResponse {
    pub(crate) fn new(l: &LoggedIn, now_ms: i64) -> CustomerLoginResponse {
        CustomerLoginResponse {
            customer_info: l.account.as_ref().map(CustomerAccount::from),
            mobile_number: l.login.mobile.clone(),
            logged_in_at: ms_to_rfc3339(l.login.logged_in_at_ms),
            expires_at: ms_to_rfc3339(l.login.expires_at_ms),
            server_time: ms_to_rfc3339(now_ms),
        }
    }
}

/// Checks the SMS code and logs the buyer in as the number's customer. The login lives in a new
/// HttpOnly `kupa_login` cookie, and the buyer session id is rotated (a new `kupa_uuid` cookie and
/// `uuid` header; the holds and the order in progress move with it).
#[utoipa::path(post, operation_id = "mobileLoginValidationArea", path = "/customer/mobile-login-validation-area", tag = "customer",
    request_body = MobileLoginValidationBody,
    responses((status = 200, description = "Logged in", body = CustomerLoginResponse),
              (status = 401, description = "INVALID_SMS_CODE: wrong, expired or never sent (params.reason: wrong, expired or none; params.attemptsLeft)", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber, formValidation", body = ErrorBody),
              (status = 429, description = "loginValidation: 5 attempts used, the code is dead; ask for a new one", body = ErrorBody)))]
async fn mobile_login_validation(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<MobileLoginValidationBody>,
) -> ApiResult<Response> {
    let number = mobile(&body.mobile_number)?;
    let login_id = new_login_id();
    let logged_in = state
        .mobile_login
        .validate_code(&login_id, &number, &body.sms_code)
        .await?;
    // Guest orders whose checkout proved this number join the customer's account.
    state.logins.join_verified_orders(&logged_in).await?;
    let body = axum::Json(CustomerLoginResponse::new(&logged_in, state.clock.now_ms()));
    logged_in_as(&state, &session, login_id, body).await
}

/// Ends the login (a request without one is fine too): the login cookie is cleared and the buyer
/// session id rotated, as at login.
#[utoipa::path(post, operation_id = "customerLogout", path = "/customer/logout", tag = "customer",
    responses((status = 200, description = "Logged out", body = SuccessResponse)))]
async fn logout(State(state): State<AppState>, session: BuyerSession) -> ApiResult<Response> {
    end_login(&state, &session).await
}

/// Starts a login as every login starts: the earlier login of the request (if any) is ended, the buyer
/// session id rotated (its holds and order move along), and the new login id set in the cookie.
pub(crate) async fn logged_in_as(
    state: &AppState,
    session: &BuyerSession,
    login_id: String,
    body: impl IntoResponse,
) -> ApiResult<Response> {
    change_login(state, session, Some(login_id), body).await
}

/// Ends the request's login (if any), rotates the buyer session id (its holds and order move
/// along) and sets the cookie to `login` (none: cleared).
async fn change_login(
    state: &AppState,
    session: &BuyerSession,
    login: Option<String>,
    body: impl IntoResponse,
) -> ApiResult<Response> {
    if let Some(earlier) = session.login() {
        state.customers.logout(earlier).await?;
    }
    let rotated_to = SessionId::new(state.settings.session_key.mint());
    state
        .customers
        .rotate_session(session.id(), &rotated_to)
        .await?;
    Ok(SessionChange { rotated_to, login }.apply(body))
}

/// The one logout (POST /customer/logout, POST /customer-area/logout, an account deleted): the
/// login ends, its cookie is cleared and the buyer session id rotated.
pub(crate) async fn end_login(state: &AppState, session: &BuyerSession) -> ApiResult<Response> {
    change_login(
        state,
        session,
        None,
        axum::Json(SuccessResponse { success: true }),
    )
    .await
}

/// Who is logged in on this buyer session, for the web app after a reload.
#[utoipa::path(get, operation_id = "customerMe", path = "/customer/me", tag = "customer",
    responses((status = 200, description = "The session's login", body = CustomerLoginResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody)))]
async fn me(
    State(state): State<AppState>,
    session: BuyerSession,
) -> ApiResult<axum::Json<CustomerLoginResponse>> {
    let logged_in = match session.login() {
        Some(login) => state.customers.login_of(login).await?,
        None => None,
    }
    .ok_or_else(|| AppError::rejected(NOT_LOGGED_IN, "nobody is logged in"))?;
    Ok(axum::Json(CustomerLoginResponse::new(
        &logged_in,
        state.clock.now_ms(),
    )))
}
