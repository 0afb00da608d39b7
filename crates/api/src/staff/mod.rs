//! The staff side's HTTP (decision 0026): the staff login (POST /staff/login, POST /staff/logout,
//! GET /staff/me, Kupa's own calls) and the live monitoring calls of spec section 7 ([`live`],
//! [`sales`], [`refs`]), with the spec's spellings (`/pres-live/...` and `/PRES-live/...`).
//!
//! A staff login lives in its own cookie, `kupa_staff`: HttpOnly, SameSite=Strict, a random id
//! the server draws at each login (stored hashed). It is not the buyer's login and never acts as
//! one. State-changing calls from another site's page are refused by the session layer's
//! `Origin` check (decision 0019), as every other call's are. Every call here reads its caller
//! with [`Staff`]: no live login is 401 `loginError`, a role that may not is 403 `forbidden`.

mod door;
mod events;
mod films;
mod live;
mod prices;
mod products;
mod programme;
mod refs;
mod reports;
mod sales;
mod sales_switches;
mod screening_settings;
mod seat_plans;

use axum::extract::{FromRequestParts, State};
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use kupa_app::staff::{Caller, Role};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Json;
use crate::session::BuyerSession;
use crate::state::AppState;

pub const STAFF_COOKIE_NAME: &str = "kupa_staff";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
        .routes(routes!(me))
        .merge(door::router())
        .merge(events::router())
        .merge(live::router())
        .merge(sales::router())
        .merge(refs::router())
        .merge(reports::router())
        .merge(programme::router())
        .merge(screening_settings::router())
        .merge(prices::router())
        .merge(sales_switches::router())
        .merge(seat_plans::router())
        .merge(films::router())
        .merge(products::router())
}

/// The logged-in staff user of a request (the `kupa_staff` cookie).
pub struct Staff(pub Caller);

pub(crate) fn staff_cookie(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == STAFF_COOKIE_NAME && v.len() == 32 && v.bytes().all(|b| b.is_ascii_hexdigit()))
                .then(|| v.to_owned())
        })
        .next()
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        let login = staff_cookie(&parts.headers);
        Ok(Staff(state.staff.caller(login.as_deref()).await?))
    }
}

/// The spec's Staff user (FirstName, LastName, userId, businessIds) with the role.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StaffMe {
    #[serde(rename = "FirstName")]
    pub first_name: String,
    #[serde(rename = "LastName")]
    pub last_name: String,
    #[serde(rename = "userId")]
    pub user_id: i64,
    #[serde(rename = "businessIds")]
    pub business_ids: Vec<i64>,
    pub role: Role,
    pub email: String,
    /// The account asks for an authenticator code at login.
    #[serde(rename = "hasTotp")]
    pub has_totp: bool,
}

impl StaffMe {
    fn of(u: &kupa_app::staff::StaffUser) -> StaffMe {
        StaffMe {
            first_name: u.first_name.clone(),
            last_name: u.last_name.clone(),
            user_id: u.id,
            business_ids: u.business_ids.clone(),
            role: u.role,
            email: u.email.clone(),
            has_totp: u.has_totp,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StaffMeResponse {
    pub user: StaffMe,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StaffLoginBody {
    #[schema(max_length = 254)]
    pub email: String,
    #[schema(max_length = 200)]
    pub password: String,
    /// The six digits of the authenticator app, for an account with a second factor.
    #[schema(max_length = 10)]
    #[serde(default)]
    pub totp_code: Option<String>,
}

fn cookie(state: &AppState, value: Option<&str>) -> String {
    let secure = if state.settings.public_url.starts_with("https://") {
        "; Secure"
    } else {
        ""
    };
    match value {
        Some(v) => format!(
            "{STAFF_COOKIE_NAME}={v}; Path=/; Max-Age={}; HttpOnly; SameSite=Strict{secure}",
            kupa_app::staff::STAFF_LOGIN_TTL_MS / 1000
        ),
        None => {
            format!("{STAFF_COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict{secure}")
        }
    }
}

fn with_cookie(response: impl IntoResponse, cookie: String) -> Response {
    let mut response = response.into_response();
    if let Ok(v) = HeaderValue::from_str(&cookie) {
        response.headers_mut().append(SET_COOKIE, v);
    }
    response
}

/// Logs a staff user in by email and password (and the authenticator code when the account has
/// a second factor). Sets the HttpOnly, SameSite=Strict `kupa_staff` cookie.
#[utoipa::path(post, operation_id = "staffLogin", path = "/staff/login", tag = "staff",
    request_body = StaffLoginBody,
    responses((status = 200, description = "Logged in", body = StaffMeResponse),
              (status = 401, description = "LOGIN_FAILED (params.totpRequired when the account needs its authenticator code)", body = ErrorBody),
              (status = 403, description = "forbidden: from another site's page", body = ErrorBody),
              (status = 429, description = "tooManyLoginAttempts (params.retryAfterSeconds)", body = ErrorBody)))]
async fn login(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<StaffLoginBody>,
) -> ApiResult<Response> {
    let done = state
        .staff
        .login(
            &body.email,
            &body.password,
            body.totp_code.as_deref(),
            session.address(),
        )
        .await?;
    let answer = axum::Json(StaffMeResponse {
        user: StaffMe::of(&done.user),
    });
    Ok(with_cookie(answer, cookie(&state, Some(&done.login_id))))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct StaffSuccess {
    pub success: bool,
}

/// Ends the staff login of this browser (and clears its cookie).
#[utoipa::path(post, operation_id = "staffLogout", path = "/staff/logout", tag = "staff",
    responses((status = 200, description = "Logged out", body = StaffSuccess),
              (status = 403, description = "forbidden: from another site's page", body = ErrorBody)))]
async fn logout(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    state
        .staff
        .logout(staff_cookie(&headers).as_deref())
        .await?;
    Ok(with_cookie(
        axum::Json(StaffSuccess { success: true }),
        cookie(&state, None),
    ))
}

/// The logged-in staff user.
#[utoipa::path(get, operation_id = "staffMe", path = "/staff/me", tag = "staff",
    responses((status = 200, description = "The staff user", body = StaffMeResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody)))]
async fn me(Staff(caller): Staff) -> ApiResult<axum::Json<StaffMeResponse>> {
    Ok(axum::Json(StaffMeResponse {
        user: StaffMe::of(&caller.user),
    }))
}
