//! Mini-site ticket validation (spec sections 3 and 7 `GET /mini-site/validate/{url}`; issue 17
//! item 3, decision 0048): the mini-site's partner checks (`mode=check`) or uses (`mode=use`) a
//! ticket of one of its screenings. The partner proves itself with the mini-site's key in
//! `X-Mini-Site-Key` (the server keeps its SHA-256 only); an usher's staff login may do the same
//! for their businesses. Both are attempt-limited per mini-site and per address.

use std::time::Instant;

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use kupa_app::error::{AppError, ErrorCode};
use kupa_app::staff::validate::{ValidateMode, Validator};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Query;
use crate::rate_limit::Class;
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(validate))
}

/// The header a mini-site's partner sends its key in (never in the address: addresses are
/// logged).
pub const KEY_HEADER: &str = "x-mini-site-key";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ValidateQuery {
    /// The ticket: its e-document key (or the QR's link) or its typed number `RRRR-RRRR-n`.
    #[serde(rename = "ticketId")]
    #[param(max_length = 300)]
    pub ticket_id: String,
    /// When given, must be the ticket's first reference (e.g. a hotel guest ticket's room).
    #[param(max_length = 64)]
    pub reference1: Option<String>,
    #[param(max_length = 64)]
    pub reference2: Option<String>,
    /// check (default: read only) or use (mark the ticket used, once).
    #[param(max_length = 8)]
    pub mode: Option<String>,
}

/// The spec's Mini-site ticket validation result, with Kupa's own `used`, `scannedAt` and
/// `presentationId`.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ValidationResult {
    /// The typed ticket number `RRRR-RRRR-n`.
    #[serde(rename = "TicketId")]
    pub ticket_id: String,
    /// 1: good for entry; 0: used, cancelled or not paid.
    #[serde(rename = "Balance")]
    pub balance: i64,
    pub reference1: Option<String>,
    pub reference2: Option<String>,
    /// This call used the ticket (`mode=use`).
    pub used: bool,
    /// When it was used (UTC), if it was.
    #[serde(rename = "scannedAt")]
    pub scanned_at: Option<String>,
    #[serde(rename = "presentationId")]
    pub presentation_id: i64,
}

/// Checks or uses a ticket of one of the mini-site's screenings.
#[utoipa::path(get, operation_id = "miniSiteValidate", path = "/mini-site/validate/{url}", tag = "catalogue",
    params(("url" = String, Path, max_length = 200, description = "The mini-site"), ValidateQuery,
           ("X-Mini-Site-Key" = Option<String>, Header, description = "The mini-site's key (or an usher's staff login)")),
    responses((status = 200, description = "The ticket", body = ValidationResult),
              (status = 401, description = "loginError: no key and no usher login, or a wrong key", body = ErrorBody),
              (status = 403, description = "forbidden: a staff role that is not at the door", body = ErrorBody),
              (status = 404, description = "notFound: no such mini-site, or no such ticket of its screenings (references included)", body = ErrorBody),
              (status = 409, description = "ticket_balance_error: mode use on a ticket with nothing left (params.reason scanned, cancelled or notPaid; params.scannedAt)", body = ErrorBody),
              (status = 422, description = "formValidation: an unknown mode", body = ErrorBody),
              (status = 429, description = "tooManyRequests", body = ErrorBody)))]
async fn validate(
    State(state): State<AppState>,
    session: BuyerSession,
    headers: HeaderMap,
    Path(url): Path<String>,
    Query(q): Query<ValidateQuery>,
) -> ApiResult<axum::Json<ValidationResult>> {
    if let Err(wait) = state.rate_limiter.check(
        Class::Validate,
        &format!("mini-site:{url}"),
        session.address(),
        Instant::now(),
    ) {
        tracing::warn!(mini_site = %url, "mini-site validation: limit reached");
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        return Err(ApiError::retry_later(
            ErrorCode::TooManyRequests,
            format!("too many validations; try again in {seconds} s"),
            seconds,
        ));
    }
    let mode = ValidateMode::parse(q.mode.as_deref()).ok_or_else(|| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            "mode: check or use",
            serde_json::json!({ "fields": ["mode"] }),
        )
    })?;
    let channel = state.catalogue.channel(Some(url.as_str())).await?;
    let site = channel
        .mini_site
        .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such mini-site"))?;
    let key = headers.get(KEY_HEADER).and_then(|v| v.to_str().ok());
    let usher;
    let by = match key {
        Some(key) => {
            let known = state
                .settings
                .mini_site_keys
                .iter()
                .any(|k| k.url == site.url && k.accepts(key.trim()));
            if !known {
                tracing::warn!(mini_site = %site.url, "mini-site validation: wrong key");
                return Err(refused().into());
            }
            Validator::Key
        }
        None => {
            let cookie = crate::staff::staff_cookie(&headers).ok_or_else(refused)?;
            usher = state.staff.caller(Some(cookie.as_str())).await?;
            Validator::Usher(&usher)
        }
    };
    let v = state
        .door
        .validate(
            &site,
            by,
            &q.ticket_id,
            q.reference1.as_deref(),
            q.reference2.as_deref(),
            mode,
        )
        .await?;
    Ok(axum::Json(ValidationResult {
        ticket_id: v.ticket_id,
        balance: v.balance,
        reference1: v.reference1,
        reference2: v.reference2,
        used: v.used_now,
        scanned_at: v.scanned_at_ms.map(ms_to_rfc3339),
        presentation_id: v.presentation_id.get(),
    }))
}

fn refused() -> AppError {
    AppError::rejected(
        ErrorCode::LoginError,
        "the mini-site's key (X-Mini-Site-Key) or an usher's login",
    )
}
