//! Seats of a seated membership (spec sections 2 "Memberships: choose memberships, choose seats",
//! 3 Membership `seats`, 7 `GET /membership/seatplan`, `PUT /membership/lock-seat` and
//! `PUT /membership/unlock-seat`; issue 15, decision 0043): the member seat of the membership's
//! season, held in every screening, then sold with the membership (`POST /cart` with
//! `memberships`), and listed back as the order's `seats`.

use axum::extract::State;
use kupa_app::memberships::{EnrollSeat, OpenSeason};
use kupa_app::orders::Order;
use kupa_domain::seating::Confirmations;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::cart::MembershipSeatDto;
use crate::enroll::{
    EnrollSeatplanResponse, SeasonPresentationDto, SelectionsResponse, UnlockSeatResponses,
    presentation_dtos, selections_answer,
};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(membership_seatplan))
        .routes(routes!(membership_lock_seat))
        .routes(routes!(membership_unlock_seat))
}

/// What a seated membership's card says of its seats: its season and screenings.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MembershipSeatsDto {
    pub season_id: i64,
    pub name: String,
    pub name_en: String,
    /// The screenings the seat is in (one seat, the same in each).
    pub presentations: Vec<SeasonPresentationDto>,
}

impl MembershipSeatsDto {
    pub fn of(open: &OpenSeason) -> MembershipSeatsDto {
        MembershipSeatsDto {
            season_id: open.season.id,
            name: open.season.name.clone(),
            name_en: open.season.name_en.clone(),
            presentations: presentation_dtos(open),
        }
    }
}

/// The seats a membership order sells (`[]` for any other order, and for a membership without
/// seats).
pub async fn order_seats(state: &AppState, order: &Order) -> ApiResult<Vec<MembershipSeatDto>> {
    if order.kind != kupa_app::orders::OrderKind::Memberships {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for t in &order.tickets {
        let info = state
            .catalogue
            .presentation(t.presentation_id, &Default::default())
            .await?
            .info;
        let v = &info.view;
        out.push(MembershipSeatDto {
            presentation_id: t.presentation_id.get(),
            feature_name: v.feature.name.clone(),
            feature_name_en: v.feature.name_en.clone(),
            date_time: ms_to_rfc3339(v.presentation.starts_at_ms),
            venue_name: v.venue.name.clone(),
            venue_name_en: v.venue.name_en.clone(),
            section_id: t.section_id,
            section_name: t.section_name.clone(),
            section_name_en: t.section_name_en.clone(),
            row_name: t.row_name.clone(),
            seat_name: t.seat_name.clone(),
            document_key: t.document_key.clone(),
        });
    }
    Ok(out)
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct MembershipSeatplanQuery {
    pub membership_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MembershipSeatplanResponse {
    pub season_id: i64,
    /// The plan, its states and every seat this buyer holds in the season's screenings.
    #[serde(flatten)]
    pub map: EnrollSeatplanResponse,
}

/// The seated membership's hall: a seat is available only when free (or this buyer's) in every
/// screening of its season.
#[utoipa::path(get, operation_id = "membershipSeatplan", path = "/membership/seatplan", tag = "memberships",
    params(MembershipSeatplanQuery),
    responses((status = 200, description = "The plan, the states and the buyer's selections", body = MembershipSeatplanResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 404, description = "notFound (no such membership on sale, no seats, or its season has closed)", body = ErrorBody)))]
async fn membership_seatplan(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<MembershipSeatplanQuery>,
) -> ApiResult<axum::Json<MembershipSeatplanResponse>> {
    let (open, map, held) = state
        .enroll
        .membership_seat_map(session.id(), session.login(), q.membership_id)
        .await?;
    Ok(axum::Json(MembershipSeatplanResponse {
        season_id: open.season.id,
        map: EnrollSeatplanResponse::of(&map, &held, state.catalogue.now_ms()),
    }))
}

/// The spec's membership seat: `{seat fields}` with the membership.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MembershipSeatBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    pub membership_id: i64,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    /// The client's selections; the answer's are the server's.
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    #[schema(value_type = Vec<Object>)]
    pub selections: Vec<serde_json::Value>,
    #[serde(default)]
    pub confirm_wheelchair: bool,
    #[serde(default)]
    pub confirm_limited_view: bool,
}

impl MembershipSeatBody {
    fn seat(&self) -> EnrollSeat {
        EnrollSeat {
            venue_id: self.venue_id,
            seatplan_id: self.seatplan_id,
            section_id: self.section_id,
            x: self.x,
            y: self.y,
            presentation_id: None,
            confirmed: Confirmations {
                wheelchair: self.confirm_wheelchair,
                limited_view: self.confirm_limited_view,
            },
        }
    }
}

/// Holds the seat in every screening of the membership's season, all or none; the seat this
/// buyer held there before gives way.
#[utoipa::path(put, operation_id = "membershipLockSeat", path = "/membership/lock-seat", tag = "memberships",
    request_body = MembershipSeatBody,
    responses((status = 200, description = "The buyer's selections", body = SelectionsResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 409, description = "lock_seat_error (not free in one of the screenings: nothing new held), holdLimitReached", body = ErrorBody),
              (status = 422, description = "formValidation (params.reason oneSeatPerPresentation), seatConfirmationRequired", body = ErrorBody)))]
async fn membership_lock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<MembershipSeatBody>,
) -> ApiResult<axum::Json<SelectionsResponse>> {
    let held = state
        .enroll
        .membership_lock(
            session.id(),
            session.login(),
            &session.holder(&state).await?,
            body.recaptcha_token.as_deref().unwrap_or_default(),
            body.membership_id,
            body.seat(),
        )
        .await?;
    Ok(selections_answer(&state, &held))
}

/// Releases the seat in every screening of the membership's season.
#[utoipa::path(put, operation_id = "membershipUnlockSeat", path = "/membership/unlock-seat", tag = "memberships",
    request_body = MembershipSeatBody,
    responses(UnlockSeatResponses))]
async fn membership_unlock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<MembershipSeatBody>,
) -> ApiResult<axum::Json<SelectionsResponse>> {
    let token = body.recaptcha_token.as_deref().unwrap_or_default();
    let (id, login) = (session.id(), session.login());
    let held = state
        .enroll
        .membership_unlock(id, login, token, body.membership_id, body.seat())
        .await?;
    Ok(selections_answer(&state, &held))
}
