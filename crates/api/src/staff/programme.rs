//! The programme's HTTP (issue 18 item 2, decision 0058; Kupa's own calls, the spec has no back
//! office): the complexes and films to choose from, a complex's week, and a screening added,
//! moved or cancelled, a week copied. Managers only, scoped by `businessIds`: another business's
//! complex or screening is 404 `notFound`. Dates and times in are local to Asia/Jerusalem
//! (`YYYY-MM-DD`, `HH:MM`); times out are UTC RFC 3339.

use axum::extract::State;
use axum::http::StatusCode;
use jiff::civil::{Date, Time};
use kupa_app::programme::{
    AddScreening, Complex, FeatureChoice, MoveScreening, Screening, ScreeningCancelled,
};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::PresentationId;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(choices))
        .routes(routes!(week))
        .routes(routes!(add))
        .routes(routes!(copy_week))
        .routes(routes!(move_screening))
        .routes(routes!(cancel))
        .routes(routes!(history))
}

fn bad(field: &str, message: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        message,
        serde_json::json!({ "field": field }),
    )
}

fn parse_date(field: &str, s: &str) -> Result<Date, AppError> {
    s.parse::<Date>()
        .map_err(|_| bad(field, "a date is YYYY-MM-DD"))
}

fn parse_time(field: &str, s: &str) -> Result<Time, AppError> {
    match s.split_once(':') {
        Some((h, m)) if h.len() == 2 && m.len() == 2 => {
            let (h, m) = (h.parse::<i8>(), m.parse::<i8>());
            match (h, m) {
                (Ok(h), Ok(m)) => Time::new(h, m, 0, 0).map_err(|_| bad(field, "a time is HH:MM")),
                _ => Err(bad(field, "a time is HH:MM")),
            }
        }
        _ => Err(bad(field, "a time is HH:MM")),
    }
}

/// "YYYY-MM-DDTHH:MM" (local) → date and time.
fn parse_local(field: &str, s: &str) -> Result<(Date, Time), AppError> {
    let (d, t) = s
        .split_once('T')
        .ok_or_else(|| bad(field, "a local time is YYYY-MM-DDTHH:MM"))?;
    Ok((parse_date(field, d)?, parse_time(field, t)?))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HallDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// The seat plan a screening here is sold on; null: none (nothing can be screened).
    pub seatplan_id: Option<i64>,
    /// The ticket groups (prices) of that plan; the first is its main one, which a screening's
    /// own ticket group takes the place of.
    pub ticket_groups: Vec<TicketGroupDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComplexDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub business_id: i64,
    pub halls: Vec<HallDto>,
}

impl ComplexDto {
    fn of(c: &Complex) -> ComplexDto {
        ComplexDto {
            id: c.id,
            name: c.name.clone(),
            name_en: c.name_en.clone(),
            business_id: c.business_id,
            halls: c
                .halls
                .iter()
                .map(|h| HallDto {
                    id: h.id,
                    name: h.name.clone(),
                    name_en: h.name_en.clone(),
                    seatplan_id: h.seatplan_id,
                    ticket_groups: h
                        .ticket_groups
                        .iter()
                        .map(|g| TicketGroupDto {
                            id: g.id,
                            name: g.name.clone(),
                            name_en: g.name_en.clone(),
                        })
                        .collect(),
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FeatureChoiceDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub runtime_minutes: i64,
}

impl FeatureChoiceDto {
    fn of(f: &FeatureChoice) -> FeatureChoiceDto {
        FeatureChoiceDto {
            id: f.id,
            name: f.name.clone(),
            name_en: f.name_en.clone(),
            runtime_minutes: f.runtime_minutes,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgrammeChoicesResponse {
    pub complexes: Vec<ComplexDto>,
    pub features: Vec<FeatureChoiceDto>,
    /// The ticket groups a screening may sell as its own, in place of its hall's main one.
    pub ticket_groups: Vec<TicketGroupDto>,
    /// Minutes a hall is kept free after each screening's runtime.
    pub cleaning_gap_minutes: i64,
}

/// The complexes (with their halls) of the caller's businesses and the films to screen.
#[utoipa::path(get, operation_id = "programmeChoices", path = "/staff/programme/choices", tag = "staff",
    responses((status = 200, description = "What a screening can be", body = ProgrammeChoicesResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: managers only", body = ErrorBody)))]
async fn choices(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<ProgrammeChoicesResponse>> {
    let (complexes, features) = state.programme.choices(&caller).await?;
    let groups = state.programme.ticket_group_choices(&caller).await?;
    Ok(axum::Json(ProgrammeChoicesResponse {
        complexes: complexes.iter().map(ComplexDto::of).collect(),
        features: features.iter().map(FeatureChoiceDto::of).collect(),
        ticket_groups: groups
            .into_iter()
            .map(|g| TicketGroupDto {
                id: g.id,
                name: g.name,
                name_en: g.name_en,
            })
            .collect(),
        cleaning_gap_minutes: state.programme.cleaning_gap_minutes(),
    }))
}

/// One screening of the grid.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScreeningDto {
    pub id: i64,
    pub feature: FeatureChoiceDto,
    pub venue_id: i64,
    pub location_id: i64,
    pub seatplan_id: i64,
    pub business_id: i64,
    pub starts_at: String,
    /// The start plus the film's runtime.
    pub ends_at: String,
    pub sale_starts_at: String,
    pub sale_ends_at: String,
    /// When the cinema cancelled it; null: it plays.
    pub cancelled_at: Option<String>,
    /// When it was last moved; null: never.
    pub moved_at: Option<String>,
    pub sold: i64,
    pub held: i64,
    /// Its own ticket group, sold in place of its hall's main one; null: as its hall.
    pub ticket_group_id: Option<i64>,
    /// The channels (`web`, `miniSite`) a manager closed this screening to.
    pub closed_channels: Vec<String>,
}

impl ScreeningDto {
    pub(super) fn of(s: &Screening) -> ScreeningDto {
        ScreeningDto {
            id: s.id.get(),
            feature: FeatureChoiceDto::of(&s.feature),
            venue_id: s.venue_id,
            location_id: s.location_id,
            seatplan_id: s.seatplan_id,
            business_id: s.business_id,
            starts_at: ms_to_rfc3339(s.starts_at_ms),
            ends_at: ms_to_rfc3339(s.ends_at_ms()),
            sale_starts_at: ms_to_rfc3339(s.sale_starts_at_ms),
            sale_ends_at: ms_to_rfc3339(s.sale_ends_at_ms),
            cancelled_at: s.cancelled_at_ms.map(ms_to_rfc3339),
            moved_at: s.moved_at_ms.map(ms_to_rfc3339),
            sold: s.sold,
            held: s.held,
            ticket_group_id: s.ticket_group_id,
            closed_channels: s
                .closed_channels
                .iter()
                .map(|c| c.as_str().to_owned())
                .collect(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct WeekQuery {
    pub location_id: i64,
    /// The week's first local day, YYYY-MM-DD; the week is it and the six after it.
    pub from: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgrammeWeekResponse {
    pub complex: ComplexDto,
    /// The seven local days, YYYY-MM-DD.
    pub days: Vec<String>,
    pub screenings: Vec<ScreeningDto>,
}

/// A complex's screenings starting on seven local days, cancelled ones included.
#[utoipa::path(get, operation_id = "programmeWeek", path = "/staff/programme/week", tag = "staff",
    params(WeekQuery),
    responses((status = 200, description = "The week", body = ProgrammeWeekResponse),
              (status = 422, description = "formValidation", body = ErrorBody),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: managers only", body = ErrorBody),
              (status = 404, description = "notFound: no such complex of the user's businesses", body = ErrorBody)))]
async fn week(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<WeekQuery>,
) -> ApiResult<axum::Json<ProgrammeWeekResponse>> {
    let from = parse_date("from", &q.from)?;
    let (complex, screenings) = state.programme.week(&caller, q.location_id, from).await?;
    let days = (0..7)
        .filter_map(|n| from.checked_add(jiff::ToSpan::days(n)).ok())
        .map(|d| d.to_string())
        .collect();
    Ok(axum::Json(ProgrammeWeekResponse {
        complex: ComplexDto::of(&complex),
        days,
        screenings: screenings.iter().map(ScreeningDto::of).collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AddScreeningBody {
    pub feature_id: i64,
    /// The hall.
    pub venue_id: i64,
    /// Local day, YYYY-MM-DD.
    #[schema(max_length = 10)]
    pub date: String,
    /// Local time, HH:MM.
    #[schema(max_length = 5)]
    pub time: String,
    /// When the sale opens, local YYYY-MM-DDTHH:MM; default now.
    #[schema(max_length = 16)]
    #[serde(default)]
    pub sale_starts: Option<String>,
    /// When the sale closes, local YYYY-MM-DDTHH:MM; default 15 minutes after the start.
    #[schema(max_length = 16)]
    #[serde(default)]
    pub sale_ends: Option<String>,
    /// The screening's own ticket group (one of the choices' `ticketGroups`), sold in place of
    /// its hall's main one; absent: as its hall.
    #[serde(default)]
    pub ticket_group_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScreeningResponse {
    pub screening: ScreeningDto,
}

/// Adds a screening. Refused with 409 `screeningOverlap` when the hall has another screening
/// within the film's runtime plus the cleaning gap.
#[utoipa::path(post, operation_id = "programmeAddScreening", path = "/staff/programme/screenings", tag = "staff",
    request_body = AddScreeningBody,
    responses((status = 201, description = "Added", body = ScreeningResponse),
              (status = 422, description = "formValidation", body = ErrorBody),
              crate::error::ManagersOnlyFromOurPages,
              (status = 404, description = "notFound: no such hall of the user's businesses", body = ErrorBody),
              (status = 409, description = "screeningOverlap (params.presentationId)", body = ErrorBody)))]
async fn add(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<AddScreeningBody>,
) -> ApiResult<(StatusCode, axum::Json<ScreeningResponse>)> {
    let add = AddScreening {
        feature_id: b.feature_id,
        venue_id: b.venue_id,
        date: parse_date("date", &b.date)?,
        time: parse_time("time", &b.time)?,
        sale_starts: b
            .sale_starts
            .as_deref()
            .map(|s| parse_local("saleStarts", s))
            .transpose()?,
        sale_ends: b
            .sale_ends
            .as_deref()
            .map(|s| parse_local("saleEnds", s))
            .transpose()?,
        ticket_group_id: b.ticket_group_id,
    };
    let s = state.programme.add(&caller, &add).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(ScreeningResponse {
            screening: ScreeningDto::of(&s),
        }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyWeekBody {
    pub location_id: i64,
    /// The first local day of the week copied, YYYY-MM-DD.
    #[schema(max_length = 10)]
    pub from: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkippedDto {
    /// The screening of the week copied.
    pub presentation_id: i64,
    /// The screening of the next week it would overlap; null: it would start in the past.
    pub overlaps: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyWeekResponse {
    pub added: Vec<i64>,
    pub skipped: Vec<SkippedDto>,
}

/// Copies a week's screenings (not cancelled) to the same halls and local times seven days
/// later; those that would overlap or start in the past are skipped and listed.
#[utoipa::path(post, operation_id = "programmeCopyWeek", path = "/staff/programme/copyWeek", tag = "staff",
    request_body = CopyWeekBody,
    responses((status = 200, description = "Copied", body = CopyWeekResponse),
              (status = 422, description = "formValidation", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn copy_week(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<CopyWeekBody>,
) -> ApiResult<axum::Json<CopyWeekResponse>> {
    let from = parse_date("from", &b.from)?;
    let done = state
        .programme
        .copy_week(&caller, b.location_id, from)
        .await?;
    Ok(axum::Json(CopyWeekResponse {
        added: done.added.iter().map(|id| id.get()).collect(),
        skipped: done
            .skipped
            .iter()
            .map(|s| SkippedDto {
                presentation_id: s.source_id.get(),
                overlaps: s.overlaps.map(PresentationId::get),
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveScreeningBody {
    /// The new hall; absent: the same one.
    #[serde(default)]
    pub venue_id: Option<i64>,
    #[schema(max_length = 10)]
    pub date: String,
    #[schema(max_length = 5)]
    pub time: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MoveScreeningResponse {
    pub screening: ScreeningDto,
    /// Paid orders told of the move by mail and text message.
    pub orders_told: usize,
    /// Seats held or sold moved to their places of the same name in the new hall's seat plan.
    pub seats_moved: usize,
}

/// Moves a screening to another time and/or hall of its complex. Holders keep their seats and
/// paid seats go with it; to a hall with another seat plan, every seat held or sold moves to the
/// seat of the same section, row and seat name there, or the move is refused (409
/// `seatPlanDiffers`, `params.missing`). Buyers are told, and may then cancel with no charge.
#[utoipa::path(post, operation_id = "programmeMoveScreening", path = "/staff/programme/screenings/{id}/move", tag = "staff",
    params(("id" = i64, Path, description = "The screening (presentation id)")),
    request_body = MoveScreeningBody,
    responses((status = 200, description = "Moved", body = MoveScreeningResponse),
              (status = 422, description = "formValidation", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound, or noEvent: the screening is cancelled", body = ErrorBody),
              (status = 409, description = "screeningOverlap, seatPlanDiffers", body = ErrorBody)))]
async fn move_screening(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    Json(b): Json<MoveScreeningBody>,
) -> ApiResult<axum::Json<MoveScreeningResponse>> {
    let to = MoveScreening {
        venue_id: b.venue_id,
        date: parse_date("date", &b.date)?,
        time: parse_time("time", &b.time)?,
    };
    let done = state
        .programme
        .move_screening(&caller, PresentationId(id), &to)
        .await?;
    Ok(axum::Json(MoveScreeningResponse {
        screening: ScreeningDto::of(&done.screening),
        orders_told: done.orders_told,
        seats_moved: done.seats_moved,
    }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelScreeningResponse {
    /// An earlier call had cancelled it; this one refunded only what was left.
    pub already_cancelled: bool,
    pub orders_refunded: usize,
    /// Agorot refunded by this call.
    pub refunded: i64,
    pub holds_released: usize,
    /// Reservation numbers with a ticket already admitted: for the box office.
    pub left_for_box_office: Vec<String>,
}

impl CancelScreeningResponse {
    fn of(c: ScreeningCancelled) -> CancelScreeningResponse {
        CancelScreeningResponse {
            already_cancelled: c.already_cancelled,
            orders_refunded: c.orders_refunded,
            refunded: c.refunded.minor(),
            holds_released: c.holds_released,
            left_for_box_office: c.left_for_box_office,
        }
    }
}

/// The cinema cancels a screening: its sale stops, held seats are released, every paid order's
/// tickets of it are refunded in full (service charges included, no charge, no window) through
/// the refund ledger, once however often it is called, and buyers are told by mail and SMS.
#[utoipa::path(post, operation_id = "programmeCancelScreening", path = "/staff/programme/screenings/{id}/cancel", tag = "staff",
    params(("id" = i64, Path, description = "The screening (presentation id)")),
    responses((status = 200, description = "Cancelled", body = CancelScreeningResponse),
              crate::error::StaffOnly,
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn cancel(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<CancelScreeningResponse>> {
    let done = state
        .programme
        .cancel_screening(&caller, PresentationId(id))
        .await?;
    Ok(axum::Json(CancelScreeningResponse::of(done)))
}

/// One recorded change of a screening.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgrammeChangeDto {
    /// `added`, `moved` or `cancelled`.
    pub kind: String,
    pub at: String,
    pub staff_user_id: i64,
    /// The staff user's first and last name.
    pub by: String,
    /// The screening's programme fields before (null for an addition) and after:
    /// featureId, venueId, seatplanId, startsAt, saleStartsAt, saleEndsAt, cancelledAt.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    #[schema(value_type = Object)]
    pub after: serde_json::Value,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProgrammeHistoryResponse {
    pub changes: Vec<ProgrammeChangeDto>,
}

/// The screening's recorded changes (the audit of the programme), oldest first.
#[utoipa::path(get, operation_id = "programmeScreeningHistory", path = "/staff/programme/screenings/{id}/changes", tag = "staff",
    params(("id" = i64, Path, description = "The screening (presentation id)")),
    responses((status = 200, description = "Its changes", body = ProgrammeHistoryResponse),
              crate::error::StaffOnly,
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn history(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<ProgrammeHistoryResponse>> {
    let changes = state.programme.history(&caller, PresentationId(id)).await?;
    Ok(axum::Json(ProgrammeHistoryResponse {
        changes: changes
            .into_iter()
            .map(|c| ProgrammeChangeDto {
                kind: c.kind,
                at: ms_to_rfc3339(c.at_ms),
                staff_user_id: c.staff_user_id,
                by: c.staff_name,
                before: c.before,
                after: c.after,
            })
            .collect(),
    }))
}
