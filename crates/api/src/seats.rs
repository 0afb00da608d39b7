//! Seat plans, holds and best available: POST /seats/seatplanV2, GET /seats/seatplan, the lock,
//! unlock and extension calls, my-holds and GET /seats/best-available. The seat status calls are
//! in `seat_status`.

use axum::extract::State;
use kupa_app::booking::{BestAvailableQuery, HeldPlace, PartOfDay, SeatRequest};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::PresentationId;
use kupa_domain::seating::Confirmations;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::{SeatplanLong, SeatplanV2};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(seatplan_v2))
        .routes(routes!(seatplan_long))
        .routes(routes!(seatplan_preview))
        .routes(routes!(lock_seat))
        .routes(routes!(unlock_seat))
        .routes(routes!(extend_hold))
        .routes(routes!(my_holds))
        .routes(routes!(best_available))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SeatplanQuery {
    pub venue_id: i64,
    pub seatplan_id: i64,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SeatplanV2Query {
    pub venue_id: i64,
    pub seatplan_id: i64,
    /// A presentation on this plan: each section's and seat's ticket group is then the one the
    /// screening sells (its own group in place of its hall's main one).
    pub presentation_id: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaptchaBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatplanV2Response {
    pub seatplan: SeatplanV2,
}

/// A seat plan with seats in the short form (x, y, r, n, si, ...).
#[utoipa::path(post, operation_id = "seatplanV2", path = "/seats/seatplanV2", tag = "seats", params(SeatplanV2Query), request_body = CaptchaBody,
    responses((status = 200, description = "The seat plan", body = SeatplanV2Response),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seatplan_v2(
    State(state): State<AppState>,
    Query(q): Query<SeatplanV2Query>,
    Json(body): Json<CaptchaBody>,
) -> ApiResult<axum::Json<SeatplanV2Response>> {
    let plan = state
        .catalogue
        .buyer_seatplan(
            body.recaptcha_token.as_deref().unwrap_or_default(),
            q.venue_id,
            q.seatplan_id,
            q.presentation_id.map(PresentationId),
        )
        .await?;
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

/// The hall as a picture before its seats' states are known: every seat in one neutral colour and
/// the screen, in the seat map's geometry. The order page's first screen shows it in the map's box
/// until the app draws the live map (decision 0076).
#[utoipa::path(get, operation_id = "seatplanPreview", path = "/seats/seatplan/preview", tag = "seats", params(SeatplanQuery),
    responses((status = 200, description = "An SVG picture", content_type = "image/svg+xml", body = String),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seatplan_preview(
    State(state): State<AppState>,
    Query(q): Query<SeatplanQuery>,
) -> ApiResult<axum::response::Response> {
    let plan = state.catalogue.seatplan(q.venue_id, q.seatplan_id).await?;
    // A plan changed in the staff area is a new version (a new id): five minutes is safe.
    Ok(crate::posters::svg_response(
        crate::web::hall_svg(&plan),
        300,
    ))
}

/// The seat as the spec's lock and unlock bodies name it.
#[derive(Debug, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct SeatRef {
    pub PresentationId: i64,
    pub VenueId: i64,
    pub VenueSeatplanId: i64,
    pub VenueSectionId: i64,
    /// Accepted for the spec's client; the section decides the ticket group.
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    pub TicketGroupId: Option<i64>,
    /// For general admission any value: the server picks the place.
    pub XCoordinate: i64,
    pub YCoordinate: i64,
}

impl SeatRef {
    fn request(&self) -> SeatRequest {
        SeatRequest {
            presentation_id: PresentationId(self.PresentationId),
            venue_id: self.VenueId,
            seatplan_id: self.VenueSeatplanId,
            section_id: self.VenueSectionId,
            x: self.XCoordinate,
            y: self.YCoordinate,
        }
    }
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    pub seat: SeatRef,
    /// The buyer confirmed taking a wheelchair place.
    #[serde(default)]
    pub confirm_wheelchair: bool,
    /// The buyer confirmed taking a limited-view seat.
    #[serde(default)]
    pub confirm_limited_view: bool,
    /// The mini-site the order is through (decision 0050): its sales switches judge the lock,
    /// and a presentation it does not show is `noEvent`. Absent: the web shop's.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockedSeat {
    pub x: i64,
    pub y: i64,
    pub section_id: i64,
    pub row_name: String,
    pub seat_name: String,
    /// The kinds of seat this place serves, for tickets tied to one (a ticket's `seatKind`):
    /// `wheelchair`, `companion`, `limitedView`, `premium`, `sofa`, `attribute:<code>`. In
    /// my-holds also beside the session's other holds: a seat beside a held wheelchair place
    /// serves a `companion`.
    pub seat_kinds: Vec<String>,
}

impl From<&HeldPlace> for LockedSeat {
    fn from(h: &HeldPlace) -> LockedSeat {
        LockedSeat {
            x: h.x,
            y: h.y,
            section_id: h.section_id,
            row_name: h.row_name.clone(),
            seat_name: h.seat_name.clone(),
            seat_kinds: h.seat_kinds.iter().map(|k| k.as_string()).collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LockResponse {
    /// The place now held: the seat asked for, or (general admission) the one the server picked.
    pub locked_seat: LockedSeat,
    /// Everything this call holds (a sofa's seats together).
    pub locked_seats: Vec<LockedSeat>,
    /// When the holds end unless the checkout moves on or is extended (UTC).
    pub expires_at: String,
    /// seats, tickets, products, customerInfo or payment.
    pub step: String,
    pub server_time: String,
}

/// Holds a seat (a whole sofa) or a general-admission place for this buyer.
#[utoipa::path(put, operation_id = "lockSeat", path = "/seats/lock-seat", tag = "seats", request_body = LockBody,
    responses((status = 200, description = "Held", body = LockResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 409, description = "lock_seat_error, ticket_sale_not_yet_started, ticketing_ended, locationOffline, advanced_sales_not_allowed_by_outlet, noTicketsInChannel (the channel's sales switches), ga_not_enough_seats, holdLimitReached (the buyer holds as many seats as allowed across sessions, or past the ceiling)", body = ErrorBody),
              (status = 422, description = "formValidation, tooManySeats, seatConfirmationRequired", body = ErrorBody)))]
async fn lock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<LockBody>,
) -> ApiResult<axum::Json<LockResponse>> {
    let confirmed = Confirmations {
        wheelchair: body.confirm_wheelchair,
        limited_view: body.confirm_limited_view,
    };
    let channel = state
        .catalogue
        .channel(body.mini_site_url.as_deref())
        .await?;
    let out = state
        .booking
        .lock(
            session.id(),
            &session.holder(&state).await?,
            body.seat.request(),
            confirmed,
            &channel,
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(LockResponse {
        locked_seat: LockedSeat::from(&out.locked),
        locked_seats: out.all.iter().map(LockedSeat::from).collect(),
        expires_at: ms_to_rfc3339(out.checkout.deadline_ms),
        step: out.checkout.step.as_str().to_owned(),
        server_time: ms_to_rfc3339(state.booking.now_ms()),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnlockBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    pub seat: SeatRef,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UnlockResponse {
    pub unlocked_seats: Vec<LockedSeat>,
    pub server_time: String,
}

/// Releases this buyer's hold on a seat (a whole sofa) or general-admission place.
#[utoipa::path(put, operation_id = "unlockSeat", path = "/seats/unlock-seat", tag = "seats", request_body = UnlockBody,
    responses((status = 200, description = "Released", body = UnlockResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 409, description = "unlock_seat_error", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn unlock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<UnlockBody>,
) -> ApiResult<axum::Json<UnlockResponse>> {
    let released = state
        .booking
        .unlock(
            session.id(),
            body.seat.request(),
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(UnlockResponse {
        unlocked_seats: released.iter().map(LockedSeat::from).collect(),
        server_time: ms_to_rfc3339(state.booking.now_ms()),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExtendBody {
    pub presentation_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutResponse {
    pub step: String,
    pub expires_at: String,
    /// This step was already extended (once per step).
    pub extended: bool,
    pub server_time: String,
}

/// The "Time expired" dialog's extension: the current step gets its time again, once per step.
#[utoipa::path(post, operation_id = "extendHold", path = "/seats/extend", tag = "seats", request_body = ExtendBody,
    responses((status = 200, description = "Extended", body = CheckoutResponse),
              (status = 409, description = "timeExpired, extensionNotAllowed, holdLimitReached (the extension would pass the ceiling)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn extend_hold(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<ExtendBody>,
) -> ApiResult<axum::Json<CheckoutResponse>> {
    let s = state
        .booking
        .extend(session.id(), PresentationId(body.presentation_id))
        .await?;
    Ok(axum::Json(CheckoutResponse {
        step: s.step.as_str().to_owned(),
        expires_at: ms_to_rfc3339(s.deadline_ms),
        extended: s.extended,
        server_time: ms_to_rfc3339(state.booking.now_ms()),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct MyHoldsQuery {
    pub presentation_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyHoldsResponse {
    pub seats: Vec<LockedSeat>,
    /// The live checkout's step, or null when none is live.
    pub step: Option<String>,
    pub expires_at: Option<String>,
    pub server_time: String,
}

/// This buyer's live holds on a presentation, to restore the page after a reload.
#[utoipa::path(get, operation_id = "myHolds", path = "/seats/my-holds", tag = "seats", params(MyHoldsQuery),
    responses((status = 200, description = "Holds", body = MyHoldsResponse),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn my_holds(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<MyHoldsQuery>,
) -> ApiResult<axum::Json<MyHoldsResponse>> {
    let (holds, checkout) = state
        .booking
        .my_holds(session.id(), PresentationId(q.presentation_id))
        .await?;
    Ok(axum::Json(MyHoldsResponse {
        seats: holds.iter().map(LockedSeat::from).collect(),
        step: checkout.map(|c| c.step.as_str().to_owned()),
        expires_at: checkout.map(|c| ms_to_rfc3339(c.deadline_ms)),
        server_time: ms_to_rfc3339(state.booking.now_ms()),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct BestAvailableParams {
    /// How many alternatives (default 5).
    pub max_matches: Option<usize>,
    pub feature_id: Option<i64>,
    pub presentation_id: Option<i64>,
    pub ticket_group_id: Option<i64>,
    /// Only this section (a shortage there is section_not_enough_seats).
    pub section_id: Option<i64>,
    /// Seats wanted together, 1 or more (the site's maximum per transaction applies).
    #[param(minimum = 1)]
    pub quantity: usize,
    /// Blocks per presentation (default 1).
    pub results_per_match: Option<usize>,
    /// 1: the best block of each presentation of the feature.
    pub is_best_per_presentation: Option<u8>,
    /// YYYY-MM-DD, local days.
    #[param(format = Date)]
    pub start_date: Option<String>,
    #[param(format = Date)]
    pub end_date: Option<String>,
    pub location_id: Option<i64>,
    /// morning, afternoon, evening or night.
    #[param(max_length = 20, pattern = r"^(morning|afternoon|evening|night)?$")]
    pub part_of_day: Option<String>,
    /// 1: hold the first block for this buyer.
    pub is_lock: Option<u8>,
    /// Only what this mini-site shows.
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    #[param(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BestMatchDto {
    pub presentation_id: i64,
    pub seats: Vec<LockedSeat>,
    /// True when the seats are now held for this buyer.
    pub is_locked: bool,
    pub expires_at: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BestAvailableResponse {
    pub matches: Vec<BestMatchDto>,
    pub server_time: String,
}

fn day_param(name: &str, v: Option<&str>) -> ApiResult<Option<jiff::civil::Date>> {
    v.filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<jiff::civil::Date>().map_err(|_| {
                AppError::rejected(
                    ErrorCode::FormValidation,
                    format!("{name} must be YYYY-MM-DD"),
                )
                .into()
            })
        })
        .transpose()
}

/// The best contiguous seats near the hall's best viewing point, obeying the seating rules; with
/// isLock=1 they are held for the buyer at once.
#[utoipa::path(get, operation_id = "bestAvailable", path = "/seats/best-available", tag = "seats", params(BestAvailableParams),
    responses((status = 200, description = "The matches", body = BestAvailableResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 409, description = "NOT_ENOUGH_SEATS, res_not_enough_seats, section_not_enough_seats, ga_not_enough_seats, lock_seat_error, ticket_sale_not_yet_started, ticketing_ended, holdLimitReached (with isLock=1)", body = ErrorBody),
              (status = 422, description = "formValidation, tooManySeats", body = ErrorBody)))]
async fn best_available(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<BestAvailableParams>,
) -> ApiResult<axum::Json<BestAvailableResponse>> {
    let part_of_day = match q.part_of_day.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(p) => Some(PartOfDay::parse(p).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::FormValidation,
                "partOfDay must be morning, afternoon, evening or night",
            )
        })?),
    };
    let mut query = BestAvailableQuery {
        presentation_id: q.presentation_id.map(PresentationId),
        feature_id: q.feature_id,
        ticket_group_id: q.ticket_group_id,
        section_id: q.section_id,
        quantity: q.quantity,
        max_matches: q
            .max_matches
            .unwrap_or(kupa_domain::seating::BEST_AVAILABLE_MATCHES)
            .clamp(1, 20),
        results_per_match: q.results_per_match.unwrap_or(1).clamp(1, 5),
        best_per_presentation: q.is_best_per_presentation == Some(1),
        start_date: day_param("startDate", q.start_date.as_deref())?,
        end_date: day_param("endDate", q.end_date.as_deref())?,
        location_id: q.location_id,
        part_of_day,
        lock: q.is_lock == Some(1),
    };
    let channel =
        crate::mini_site::scope_best_available(&state, q.mini_site_url.as_deref(), &mut query)
            .await?;
    let matches = state
        .booking
        .best_available(
            session.id(),
            &session.holder(&state).await?,
            query,
            &channel,
            q.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(BestAvailableResponse {
        matches: matches
            .iter()
            .map(|m| BestMatchDto {
                presentation_id: m.presentation_id.get(),
                seats: m.seats.iter().map(LockedSeat::from).collect(),
                is_locked: m.locked.is_some(),
                expires_at: m.locked.map(|c| ms_to_rfc3339(c.deadline_ms)),
            })
            .collect(),
        server_time: ms_to_rfc3339(state.booking.now_ms()),
    }))
}
