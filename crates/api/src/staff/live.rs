//! Attendance (spec section 7, live monitoring; managers and ushers): by business date, by
//! location, by venue or feature, the presentation box, and the cinema filter's data. Counts only,
//! no money (an usher reads these; the sales calls are the manager's).

use axum::extract::State;
use kupa_app::staff::live::{DrillBy, Figures, Group, LiveRow, business_date, grouped};
use kupa_app::staff::{Access, Caller};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(attendance_by_date))
        .routes(routes!(attendance_by_location))
        .routes(routes!(attendance_by_venue))
        .routes(routes!(attendance_by_feature))
        .routes(routes!(presentation_box))
        .routes(routes!(cinema_filter_data))
}

/// The Live data figures (spec section 3) of a row.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct LiveFigures {
    /// Seats and general-admission places of the hall(s).
    pub capacity: i64,
    /// Seats sold (paid orders).
    pub sold_quantity: i64,
    /// Seats held now (a buyer's live hold, read from the seat claims).
    pub held_quantity: i64,
    /// Percent of capacity sold, rounded half up.
    pub sold: i64,
    /// Percent of capacity held, rounded half up.
    pub held: i64,
    /// Seats neither sold nor held.
    pub availability: i64,
    /// (sold + held) / capacity, to 3 decimals.
    pub seat_taken_ratio: f64,
    /// Presentations summed in the row.
    pub presentations: i64,
}

impl LiveFigures {
    pub fn of(f: &Figures) -> LiveFigures {
        LiveFigures {
            capacity: f.capacity,
            sold_quantity: f.sold_quantity,
            held_quantity: f.held_quantity,
            sold: f.sold_percent(),
            held: f.held_percent(),
            availability: f.availability(),
            seat_taken_ratio: f.seat_taken_ratio(),
            presentations: f.presentations,
        }
    }
}

/// A business day's cinema totals (location 1 left out).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct DayRow {
    /// YYYY-MM-DD; a business day runs 05:00 to 05:00, Jerusalem time.
    pub business_date: String,
    #[serde(flatten)]
    pub figures: LiveFigures,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AttendanceByDateResponse {
    pub days: Vec<DayRow>,
}

/// A location's, venue's or feature's row; the last row is the total, 'כל בתי הקולנוע' with id
/// -1 (location 1 left out of it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct AttendanceRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub venue_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature_id: Option<i64>,
    pub name: String,
    pub name_en: String,
    #[serde(flatten)]
    pub figures: LiveFigures,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AttendanceResponse {
    /// YYYY-MM-DD.
    pub date: String,
    pub rows: Vec<AttendanceRow>,
}

/// One presentation's Live data.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct PresentationLive {
    pub presentation_id: i64,
    /// RFC 3339, UTC.
    pub presentation_date_time: String,
    pub business_date: String,
    pub location_id: i64,
    pub location_name: String,
    pub location_name_en: String,
    pub venue_id: i64,
    pub venue_name: String,
    pub venue_name_en: String,
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub feature_category_id: i64,
    pub seatplan_id: i64,
    #[serde(flatten)]
    pub figures: LiveFigures,
    /// Agorot (sales calls only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub revenue: Option<i64>,
}

impl PresentationLive {
    pub fn of(r: &LiveRow, with_money: bool) -> PresentationLive {
        PresentationLive {
            presentation_id: r.presentation_id.get(),
            presentation_date_time: ms_to_rfc3339(r.starts_at_ms),
            business_date: business_date(r.starts_at_ms).to_string(),
            location_id: r.location_id,
            location_name: r.location_name.clone(),
            location_name_en: r.location_name_en.clone(),
            venue_id: r.venue_id,
            venue_name: r.venue_name.clone(),
            venue_name_en: r.venue_name_en.clone(),
            feature_id: r.feature_id,
            feature_name: r.feature_name.clone(),
            feature_name_en: r.feature_name_en.clone(),
            feature_category_id: r.feature_category_id,
            seatplan_id: r.seatplan_id,
            figures: LiveFigures::of(&Figures::of(r)),
            revenue: with_money.then_some(r.revenue.minor()),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct PresentationBoxResponse {
    pub date: String,
    pub presentations: Vec<PresentationLive>,
    pub total: LiveFigures,
}

fn rows(groups: Vec<Group>, id_of: fn(i64) -> [Option<i64>; 3]) -> Vec<AttendanceRow> {
    groups
        .into_iter()
        .map(|g| {
            let [location_id, venue_id, feature_id] = id_of(g.id);
            AttendanceRow {
                location_id,
                venue_id,
                feature_id,
                name: g.name,
                name_en: g.name_en,
                figures: LiveFigures::of(&g.figures),
            }
        })
        .collect()
}

/// Each business day's cinema totals, `from` to `to` (YYYY-MM-DD, within the live calendar: 14
/// days before and after today).
#[utoipa::path(get, operation_id = "attendanceByDate", path = "/PRES-live/attendanceByDate/{from}/{to}", tag = "pres-live",
    params(("from" = String, Path, description = "YYYY-MM-DD"), ("to" = String, Path, description = "YYYY-MM-DD")),
    responses((status = 200, description = "The days", body = AttendanceByDateResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role may not", body = ErrorBody),
              (status = 422, description = "formValidation: a date outside the live calendar", body = ErrorBody)))]
async fn attendance_by_date(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((from, to)): Path<(String, String)>,
) -> ApiResult<axum::Json<AttendanceByDateResponse>> {
    let days = state.live.attendance_by_date(&caller, &from, &to).await?;
    Ok(axum::Json(AttendanceByDateResponse {
        days: days
            .iter()
            .map(|d| DayRow {
                business_date: d.date.to_string(),
                figures: LiveFigures::of(&d.figures),
            })
            .collect(),
    }))
}

/// The day's figures by location, with the total row.
#[utoipa::path(get, operation_id = "attendanceByDateByLocation", path = "/PRES-live/attendanceByDateByLocation/{date}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD")),
    responses((status = 200, description = "By location", body = AttendanceResponse),
              crate::error::StaffOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn attendance_by_location(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(date): Path<String>,
) -> ApiResult<axum::Json<AttendanceResponse>> {
    let day = state.live.day_rows(&caller, &date, None).await?;
    let groups = grouped(
        &day,
        |r| {
            (
                r.location_id,
                r.location_name.clone(),
                r.location_name_en.clone(),
            )
        },
        true,
    );
    Ok(axum::Json(AttendanceResponse {
        date,
        rows: rows(groups, |id| [Some(id), None, None]),
    }))
}

/// A location's day by venue (hall), with the total row.
#[utoipa::path(get, operation_id = "attendanceByDateByLocationByVenue", path = "/PRES-live/attendanceByDateByLocationByVenue/{date}/{locationId}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD"), ("locationId" = i64, Path)),
    responses((status = 200, description = "By venue", body = AttendanceResponse),
              crate::error::StaffOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn attendance_by_venue(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((date, location_id)): Path<(String, i64)>,
) -> ApiResult<axum::Json<AttendanceResponse>> {
    within_location(&state, &caller, date, location_id, DrillBy::Venue).await
}

/// One cinema's day grouped by its halls or its features, with that cinema's total row.
async fn within_location(
    state: &AppState,
    caller: &Caller,
    date: String,
    location_id: i64,
    by: DrillBy,
) -> ApiResult<axum::Json<AttendanceResponse>> {
    let day = state
        .live
        .day_rows(caller, &date, Some(location_id))
        .await?;
    let groups = grouped(
        &day,
        |r| match by {
            DrillBy::Venue => (r.venue_id, r.venue_name.clone(), r.venue_name_en.clone()),
            DrillBy::Feature => (
                r.feature_id,
                r.feature_name.clone(),
                r.feature_name_en.clone(),
            ),
        },
        false,
    );
    Ok(axum::Json(AttendanceResponse {
        date,
        rows: rows(
            groups,
            match by {
                DrillBy::Venue => |id| [None, Some(id), None],
                DrillBy::Feature => |id| [None, None, Some(id)],
            },
        ),
    }))
}

/// A location's day by feature, with the total row.
#[utoipa::path(get, operation_id = "attendanceByDateByLocationByFeature", path = "/PRES-live/attendanceByDateByLocationByFeature/{date}/{locationId}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD"), ("locationId" = i64, Path)),
    responses((status = 200, description = "By feature", body = AttendanceResponse),
              crate::error::StaffOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn attendance_by_feature(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((date, location_id)): Path<(String, i64)>,
) -> ApiResult<axum::Json<AttendanceResponse>> {
    within_location(&state, &caller, date, location_id, DrillBy::Feature).await
}

/// The presentation box: the presentations of a venue (`drillBy` venue) or a feature (`drillBy`
/// feature) at a location on a day, each with its Live data.
#[utoipa::path(get, operation_id = "attendanceByDatePresentationBox", path = "/PRES-live/attendanceByDatePresentationBox/{date}/{locationId}/{drillBy}/{id}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD"), ("locationId" = i64, Path),
           ("drillBy" = String, Path, description = "venue or feature"), ("id" = i64, Path, description = "The venue's or feature's id")),
    responses((status = 200, description = "The presentations", body = PresentationBoxResponse),
              crate::error::StaffOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn presentation_box(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((date, location_id, drill_by, id)): Path<(String, i64, String, i64)>,
) -> ApiResult<axum::Json<PresentationBoxResponse>> {
    let drill = DrillBy::parse(&drill_by)?;
    let day = state
        .live
        .day_rows(&caller, &date, Some(location_id))
        .await?;
    let mut total = Figures::default();
    let presentations = day
        .iter()
        .filter(|r| match drill {
            DrillBy::Venue => r.venue_id == id,
            DrillBy::Feature => r.feature_id == id,
        })
        .inspect(|r| total.add(Figures::of(r)))
        .map(|r| PresentationLive::of(r, false))
        .collect();
    Ok(axum::Json(PresentationBoxResponse {
        date,
        presentations,
        total: LiveFigures::of(&total),
    }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilterLocation {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub business_id: i64,
    pub is_cinema: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CinemaFilterData {
    /// The locations of the user's businesses.
    pub locations: Vec<FilterLocation>,
    /// The product categories of the catalogue.
    pub product_classes: Vec<String>,
    /// The weekend's days as JavaScript numbers them (0 Sunday … 6 Saturday): Friday and Saturday.
    pub weekend_days: Vec<i64>,
    /// The live calendar's first and last day and today (YYYY-MM-DD).
    pub calendar_from: String,
    pub calendar_to: String,
    pub today: String,
}

/// The filter's data: locations, product classes, weekend days (and the live calendar's bounds).
#[utoipa::path(get, operation_id = "getCinemaFilterData", path = "/PRES-live/getCinemaFilterData", tag = "pres-live",
    responses((status = 200, description = "The filter's data", body = CinemaFilterData),
              (status = 401, description = "loginError", body = ErrorBody)))]
async fn cinema_filter_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<CinemaFilterData>> {
    caller
        .require(Access::Attendance)
        .or_else(|_| caller.require(Access::ReferencePrompts))?;
    let locations = state
        .customer_area
        .locations()
        .await?
        .into_iter()
        .filter(|l| caller.sees(l.business_id))
        .map(|l| FilterLocation {
            id: l.id,
            name: l.name,
            name_en: l.name_en,
            business_id: l.business_id,
            is_cinema: l.is_cinema,
        })
        .collect();
    let today = state.live.today();
    let span = jiff::Span::new().days(kupa_app::staff::live::CALENDAR_DAYS);
    Ok(axum::Json(CinemaFilterData {
        locations,
        product_classes: state.staff.store().product_classes().await?,
        weekend_days: vec![5, 6],
        calendar_from: today.checked_sub(span).unwrap_or(today).to_string(),
        calendar_to: today.checked_add(span).unwrap_or(today).to_string(),
        today: today.to_string(),
    }))
}
