//! The seat-plan editor's HTTP (issue 18 item 4, decision 0068; Kupa's own calls): a hall's plan
//! versions, one plan read whole, and a new version saved. Managers only, scoped by
//! `businessIds`: another business's hall or plan is 404 `notFound`. A plan that breaks a rule
//! is 422 `seatPlanInvalid` with `params.field` and `params.rule`; nothing is written.

use axum::extract::State;
use axum::http::StatusCode;
use kupa_app::seat_plans::{
    HallPlans, PlanDraft, PlanVersion, RowDraft, ScreenDraft, SeatDraft, SectionDraft,
};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::catalogue::SectionKind;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use super::programme::TicketGroupDto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(versions, save))
        .routes(routes!(plan))
}

/// A seat: its cell, its name in the row, and what kind of seat it is. Flags left out are false.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatDoc {
    pub x: i64,
    pub y: i64,
    #[schema(max_length = 10)]
    pub name: String,
    #[serde(default, skip_serializing_if = "is_false")]
    pub premium: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub wheelchair: bool,
    /// A companion seat: beside a wheelchair place (same row, next x).
    #[serde(default, skip_serializing_if = "is_false")]
    pub companion: bool,
    #[serde(default, skip_serializing_if = "is_false")]
    pub limited_view: bool,
    /// Seats of one section with the same number are one sofa (or bed): two seats side by side.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sofa: Option<i64>,
    /// Custom attribute codes, comma separated.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[schema(max_length = 200)]
    pub attributes: String,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_zero(n: &i64) -> bool {
    *n == 0
}

/// A row: its name, the line it stands on (its y before any curve: the seats of a row are one
/// row for the seating rules however it curves), and its seats left to right.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RowDoc {
    #[schema(max_length = 10)]
    pub name: String,
    pub line: i64,
    pub seats: Vec<SeatDoc>,
}

/// A section: reserved (rows of seats) or a GA area (a capacity, no rows), each selling one
/// ticket group at one price level.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionDoc {
    #[schema(max_length = 100)]
    pub name: String,
    #[schema(max_length = 100)]
    #[serde(default)]
    pub name_en: String,
    /// `reserved` or `ga`.
    pub kind: String,
    pub ticket_group_id: i64,
    #[serde(default = "one")]
    pub price_level: i64,
    /// A GA area's places (a reserved section's is its number of seats).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub capacity: i64,
    #[serde(default)]
    pub rows: Vec<RowDoc>,
}

fn one() -> i64 {
    1
}

/// The screen: its words and where it stands at the top of the plan (from `x`, `width` cells).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ScreenDoc {
    #[schema(max_length = 100)]
    #[serde(default)]
    pub label: String,
    #[schema(max_length = 100)]
    #[serde(default)]
    pub label_en: String,
    pub x: i64,
    pub width: i64,
}

/// A whole seat plan as the editor draws it. Cells: x across (left to right as drawn, the
/// screen at the top), y front to back; seats stand at 1 <= x < width, 1 <= y < height.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SeatPlanDoc {
    #[schema(max_length = 100)]
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub screen: ScreenDoc,
    pub sections: Vec<SectionDoc>,
}

fn bad_kind(i: usize) -> AppError {
    AppError::rejected_with(
        ErrorCode::SeatPlanInvalid,
        "a section's kind is reserved or ga",
        serde_json::json!({ "field": format!("plan.sections[{i}].kind"), "rule": "kind" }),
    )
}

impl SeatPlanDoc {
    fn draft(self) -> Result<PlanDraft, AppError> {
        let sections = self
            .sections
            .into_iter()
            .enumerate()
            .map(|(i, s)| {
                Ok(SectionDraft {
                    kind: match s.kind.as_str() {
                        "reserved" => SectionKind::Reserved,
                        "ga" => SectionKind::Ga,
                        _ => return Err(bad_kind(i)),
                    },
                    name: s.name,
                    name_en: s.name_en,
                    ticket_group_id: s.ticket_group_id,
                    price_level: s.price_level,
                    capacity: s.capacity,
                    rows: s.rows.into_iter().map(RowDraft::from).collect(),
                })
            })
            .collect::<Result<Vec<_>, AppError>>()?;
        Ok(PlanDraft {
            name: self.name,
            width: self.width,
            height: self.height,
            screen: ScreenDraft {
                label: self.screen.label,
                label_en: self.screen.label_en,
                x: self.screen.x,
                width: self.screen.width,
            },
            sections,
        })
    }

    fn of(d: PlanDraft) -> SeatPlanDoc {
        SeatPlanDoc {
            name: d.name,
            width: d.width,
            height: d.height,
            screen: ScreenDoc {
                label: d.screen.label,
                label_en: d.screen.label_en,
                x: d.screen.x,
                width: d.screen.width,
            },
            sections: d
                .sections
                .into_iter()
                .map(|s| SectionDoc {
                    name: s.name,
                    name_en: s.name_en,
                    kind: s.kind.as_str().to_owned(),
                    ticket_group_id: s.ticket_group_id,
                    price_level: s.price_level,
                    capacity: s.capacity,
                    rows: s.rows.into_iter().map(RowDoc::from).collect(),
                })
                .collect(),
        }
    }
}

/// One version of a hall's plan.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatPlanVersionDto {
    /// The plan's id (a presentation's `seatplanId`).
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    pub version: i64,
    /// The plan it was drawn from; null: none, or loaded from the catalogue.
    pub based_on: Option<i64>,
    /// When and by whom it was saved in the editor; null: loaded from the catalogue.
    pub saved_at: Option<String>,
    pub saved_by: Option<String>,
    pub sections: i64,
    pub seats: i64,
    pub ga_capacity: i64,
    /// Presentations sold on this version, and those still to come (not cancelled).
    pub screenings: i64,
    pub upcoming: i64,
    /// The version a new screening of the hall is sold on.
    pub newest: bool,
}

impl SeatPlanVersionDto {
    fn of(v: PlanVersion) -> SeatPlanVersionDto {
        SeatPlanVersionDto {
            id: v.id,
            venue_id: v.venue_id,
            name: v.name,
            version: v.version,
            based_on: v.based_on,
            saved_at: v.saved_at_ms.map(ms_to_rfc3339),
            saved_by: v.saved_by,
            sections: v.sections,
            seats: v.seats,
            ga_capacity: v.ga_capacity,
            screenings: v.screenings,
            upcoming: v.upcoming,
            newest: v.newest,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatPlanHallDto {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub name_en: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatPlanVersionsResponse {
    pub hall: SeatPlanHallDto,
    /// Newest first.
    pub versions: Vec<SeatPlanVersionDto>,
    /// The ticket groups a section may sell.
    pub ticket_groups: Vec<TicketGroupDto>,
}

impl SeatPlanVersionsResponse {
    fn of(h: HallPlans) -> SeatPlanVersionsResponse {
        SeatPlanVersionsResponse {
            hall: SeatPlanHallDto {
                id: h.hall.id,
                location_id: h.hall.location_id,
                name: h.hall.name,
                name_en: h.hall.name_en,
            },
            versions: h.versions.into_iter().map(SeatPlanVersionDto::of).collect(),
            ticket_groups: h
                .ticket_groups
                .into_iter()
                .map(|g| TicketGroupDto {
                    id: g.id,
                    name: g.name,
                    name_en: g.name_en,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct VersionsQuery {
    /// The hall.
    pub venue_id: i64,
}

/// A hall's seat-plan versions, newest first (the one new screenings are sold on), and the
/// ticket groups a section may sell.
#[utoipa::path(get, operation_id = "seatPlanVersions", path = "/staff/seatPlans", tag = "staff",
    params(VersionsQuery),
    responses((status = 200, description = "The hall's plans", body = SeatPlanVersionsResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: managers only", body = ErrorBody),
              (status = 404, description = "notFound: no such hall of the user's businesses", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn versions(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<VersionsQuery>,
) -> ApiResult<axum::Json<SeatPlanVersionsResponse>> {
    let h = state.seat_plans.hall_plans(&caller, q.venue_id).await?;
    Ok(axum::Json(SeatPlanVersionsResponse::of(h)))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatPlanResponse {
    pub version: SeatPlanVersionDto,
    pub plan: SeatPlanDoc,
}

/// One seat plan whole, as the editor draws it.
#[utoipa::path(get, operation_id = "seatPlan", path = "/staff/seatPlans/{id}", tag = "staff",
    params(("id" = i64, Path, description = "The seat plan")),
    responses((status = 200, description = "The plan", body = SeatPlanResponse),
              crate::error::ManagersOnly,
              (status = 404, description = "notFound: no such plan of the user's businesses", body = ErrorBody)))]
async fn plan(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<SeatPlanResponse>> {
    let (v, d) = state.seat_plans.plan(&caller, id).await?;
    Ok(axum::Json(SeatPlanResponse {
        version: SeatPlanVersionDto::of(v),
        plan: SeatPlanDoc::of(d),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SaveSeatPlanBody {
    /// The hall.
    pub venue_id: i64,
    /// The version it was drawn from (a plan of the same hall); absent: drawn from nothing.
    #[serde(default)]
    pub based_on: Option<i64>,
    pub plan: SeatPlanDoc,
}

/// Saves a drawn plan as the hall's new version: a new plan with its own sections and seats, in
/// one transaction with its audit row. Screenings already made keep the plan they were made
/// with; screenings added from now on are sold on this one.
#[utoipa::path(post, operation_id = "saveSeatPlan", path = "/staff/seatPlans", tag = "staff",
    request_body = SaveSeatPlanBody,
    responses((status = 201, description = "Saved: the new version", body = SeatPlanResponse),
              crate::error::ManagersOnlyFromOurPages,
              (status = 404, description = "notFound: no such hall of the user's businesses", body = ErrorBody),
              (status = 413, description = "payloadTooLarge", body = ErrorBody),
              (status = 422, description = "seatPlanInvalid (params.field, params.rule), or formValidation: a malformed body", body = ErrorBody)))]
async fn save(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<SaveSeatPlanBody>,
) -> ApiResult<(StatusCode, axum::Json<SeatPlanResponse>)> {
    let draft = b.plan.draft()?;
    let (v, d) = state
        .seat_plans
        .save(&caller, b.venue_id, b.based_on, &draft)
        .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(SeatPlanResponse {
            version: SeatPlanVersionDto::of(v),
            plan: SeatPlanDoc::of(d),
        }),
    ))
}

impl From<RowDoc> for RowDraft {
    fn from(r: RowDoc) -> RowDraft {
        RowDraft {
            name: r.name,
            line: r.line,
            seats: r.seats.into_iter().map(SeatDraft::from).collect(),
        }
    }
}

impl From<RowDraft> for RowDoc {
    fn from(d: RowDraft) -> RowDoc {
        RowDoc {
            name: d.name,
            line: d.line,
            seats: d.seats.into_iter().map(SeatDoc::from).collect(),
        }
    }
}

impl From<SeatDoc> for SeatDraft {
    fn from(k: SeatDoc) -> SeatDraft {
        SeatDraft {
            x: k.x,
            y: k.y,
            name: k.name,
            premium: k.premium,
            wheelchair: k.wheelchair,
            companion: k.companion,
            limited_view: k.limited_view,
            sofa: k.sofa,
            attributes: k.attributes,
        }
    }
}

impl From<SeatDraft> for SeatDoc {
    fn from(d: SeatDraft) -> SeatDoc {
        SeatDoc {
            x: d.x,
            y: d.y,
            name: d.name,
            premium: d.premium,
            wheelchair: d.wheelchair,
            companion: d.companion,
            limited_view: d.limited_view,
            sofa: d.sofa,
            attributes: d.attributes,
        }
    }
}
