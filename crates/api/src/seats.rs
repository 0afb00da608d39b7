//! Seat plans and seat status: POST /seats/seatplanV2, GET /seats/seatplan,
//! GET /seats/seats-statusV2 and the older GET /seats/seats-status.

use axum::extract::State;
use kupa_app::{AppError, ErrorCode};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::{self, SeatplanLong, SeatplanV2};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(seatplan_v2))
        .routes(routes!(seatplan_long))
        .routes(routes!(seats_status_v2))
        .routes(routes!(seats_status))
}

async fn check_captcha(state: &AppState, token: Option<&str>) -> ApiResult<()> {
    if state.captcha.verify(token.unwrap_or_default()).await? {
        Ok(())
    } else {
        Err(AppError::rejected(ErrorCode::Recaptcha, "the captcha token was not accepted").into())
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SeatplanQuery {
    pub venue_id: i64,
    pub seatplan_id: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaptchaBody {
    #[serde(default)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeatplanV2Response {
    pub seatplan: SeatplanV2,
}

/// A seat plan with seats in the short form (x, y, r, n, si, ...).
#[utoipa::path(post, operation_id = "seatplanV2", path = "/seats/seatplanV2", tag = "seats", params(SeatplanQuery), request_body = CaptchaBody,
    responses((status = 200, description = "The seat plan", body = SeatplanV2Response),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seatplan_v2(
    State(state): State<AppState>,
    Query(q): Query<SeatplanQuery>,
    Json(body): Json<CaptchaBody>,
) -> ApiResult<axum::Json<SeatplanV2Response>> {
    check_captcha(&state, body.recaptcha_token.as_deref()).await?;
    let plan = state.catalogue.seatplan(q.venue_id, q.seatplan_id).await?;
    Ok(axum::Json(SeatplanV2Response {
        seatplan: SeatplanV2::new(&plan),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SeatplanLongResponse {
    pub seatplan: SeatplanLong,
}

/// A seat plan with seats in the long form (XCoordinate, YCoordinate, RowName, ...).
#[utoipa::path(get, operation_id = "seatplan", path = "/seats/seatplan", tag = "seats", params(SeatplanQuery),
    responses((status = 200, description = "The seat plan", body = SeatplanLongResponse),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seatplan_long(
    State(state): State<AppState>,
    Query(q): Query<SeatplanQuery>,
) -> ApiResult<axum::Json<SeatplanLongResponse>> {
    let plan = state.catalogue.seatplan(q.venue_id, q.seatplan_id).await?;
    Ok(axum::Json(SeatplanLongResponse {
        seatplan: SeatplanLong::new(&plan),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatusV2Query {
    pub presentation_id: i64,
    /// Accepted for the spec's client; the server knows the venue type.
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub venue_type_id: Option<i64>,
    /// Accepted for the spec's client; the server knows the seating.
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub is_reserved: Option<String>,
    /// Only this section.
    pub section_id: Option<i64>,
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatsStatusV2Response {
    pub presentation_id: i64,
    pub sections: Vec<dto::SectionStatus>,
    pub seats: Vec<dto::SeatStatusShort>,
    pub server_time: String,
}

/// Each seat's state as this buyer sees it, and each section's remaining places.
#[utoipa::path(get, operation_id = "seatsStatusV2", path = "/seats/seats-statusV2", tag = "seats", params(StatusV2Query),
    responses((status = 200, description = "Seat states", body = SeatsStatusV2Response),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seats_status_v2(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<StatusV2Query>,
) -> ApiResult<axum::Json<SeatsStatusV2Response>> {
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let status = state
        .catalogue
        .seat_status(
            q.presentation_id,
            q.section_id,
            Some(session.id()),
            &channel,
        )
        .await?;
    Ok(axum::Json(SeatsStatusV2Response {
        presentation_id: status.presentation_id,
        sections: dto::section_statuses(&status),
        seats: dto::seat_statuses_short(&status),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatusQuery {
    pub presentation_id: i64,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub venue_type_id: Option<i64>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub is_reserved: Option<String>,
    pub recaptcha_token: Option<String>,
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatsStatusResponse {
    pub sections: Vec<dto::SectionStatus>,
    pub seats: Vec<dto::SeatStatusLong>,
    pub server_time: String,
}

/// The older seat-status call, long form, with a captcha token.
#[utoipa::path(get, operation_id = "seatsStatus", path = "/seats/seats-status", tag = "seats", params(StatusQuery),
    responses((status = 200, description = "Seat states", body = SeatsStatusResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seats_status(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<StatusQuery>,
) -> ApiResult<axum::Json<SeatsStatusResponse>> {
    check_captcha(&state, q.recaptcha_token.as_deref()).await?;
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let status = state
        .catalogue
        .seat_status(q.presentation_id, None, Some(session.id()), &channel)
        .await?;
    Ok(axum::Json(SeatsStatusResponse {
        sections: dto::section_statuses(&status),
        seats: dto::seat_statuses_long(&status),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}
