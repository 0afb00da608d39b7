//! Sales (spec section 7, live monitoring; managers only): tickets sold on a day by location and
//! by feature, presentation sales over a range, and the v2 view. Money is agorot.

use axum::extract::State;
use kupa_app::staff::Access;
use kupa_app::staff::sales::{PresentationsData, SalesDay, SalesGroup};
use kupa_domain::ids::PresentationId;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use super::live::{LiveFigures, PresentationLive};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query, id_list};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(location_ticket_sales))
        .routes(routes!(location_ticket_sales_data))
        .routes(routes!(feature_ticket_sales))
        .routes(routes!(feature_ticket_sales_data))
        .routes(routes!(presentation_sales))
        .routes(routes!(available_features))
        .routes(routes!(feature_data))
        .routes(routes!(available_presentations))
        .routes(routes!(presentation_data))
}

/// Tickets sold under a location or feature; the last row is the total (id -1, location 1 left
/// out of it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SalesRow {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_id: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub feature_id: Option<i64>,
    pub name: String,
    pub name_en: String,
    /// With `isByLocation`: the feature's location.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub location_name: Option<String>,
    pub tickets: i64,
    /// Ticket prices, agorot.
    pub revenue: i64,
    pub service_charges: i64,
    pub orders: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SalesResponse {
    pub date: String,
    pub rows: Vec<SalesRow>,
}

fn sales_rows(groups: Vec<SalesGroup>, by_feature: bool) -> Vec<SalesRow> {
    groups
        .into_iter()
        .map(|g| SalesRow {
            location_id: if by_feature {
                g.location.as_ref().map(|l| l.0)
            } else {
                Some(g.id)
            },
            feature_id: by_feature.then_some(g.id),
            name: g.name,
            name_en: g.name_en,
            location_name: g.location.map(|l| l.1),
            tickets: g.tickets,
            revenue: g.revenue.minor(),
            service_charges: g.service_charges.minor(),
            orders: g.orders,
        })
        .collect()
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct FeatureRef {
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesScreen {
    /// The live calendar's bounds and today, YYYY-MM-DD.
    pub calendar_from: String,
    pub calendar_to: String,
    pub today: String,
    /// The features on in the live calendar (featureTicketSales only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<FeatureRef>>,
}

async fn screen(
    state: &AppState,
    caller: &kupa_app::staff::Caller,
    features: bool,
) -> ApiResult<SalesScreen> {
    caller.require(Access::Sales)?;
    let today = state.live.today();
    let span = jiff::Span::new().days(kupa_app::staff::live::CALENDAR_DAYS);
    let features = if features {
        Some(
            state
                .live
                .available_features(caller, None, None)
                .await?
                .into_iter()
                .map(|(id, name, name_en)| FeatureRef {
                    feature_id: id,
                    feature_name: name,
                    feature_name_en: name_en,
                })
                .collect(),
        )
    } else {
        None
    };
    Ok(SalesScreen {
        calendar_from: today.checked_sub(span).unwrap_or(today).to_string(),
        calendar_to: today.checked_add(span).unwrap_or(today).to_string(),
        today: today.to_string(),
        features,
    })
}

/// The location ticket sales screen's data: the calendar's bounds.
#[utoipa::path(get, operation_id = "locationTicketSales", path = "/PRES-live/locationTicketSales/", tag = "pres-live",
    responses((status = 200, description = "The screen", body = SalesScreen),
              crate::error::ManagersOnly))]
async fn location_ticket_sales(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<SalesScreen>> {
    Ok(axum::Json(screen(&state, &caller, false).await?))
}

/// Tickets paid on a business day, by location (`locationId` 0: every location of the user).
#[utoipa::path(get, operation_id = "locationTicketSalesData", path = "/PRES-live/locationTicketSales/data/{date}/{locationId}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD"), ("locationId" = i64, Path, description = "0: all")),
    responses((status = 200, description = "By location", body = SalesResponse),
              crate::error::ManagersOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn location_ticket_sales_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((date, location_id)): Path<(String, i64)>,
) -> ApiResult<axum::Json<SalesResponse>> {
    let groups = state
        .live
        .location_ticket_sales(&caller, &date, location_id)
        .await?;
    Ok(axum::Json(SalesResponse {
        date,
        rows: sales_rows(groups, false),
    }))
}

/// The feature ticket sales screen's data: the calendar's bounds and the features on.
#[utoipa::path(get, operation_id = "featureTicketSales", path = "/PRES-live/featureTicketSales", tag = "pres-live",
    responses((status = 200, description = "The screen", body = SalesScreen),
              crate::error::ManagersOnly))]
async fn feature_ticket_sales(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<SalesScreen>> {
    Ok(axum::Json(screen(&state, &caller, true).await?))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FeatureSalesQuery {
    pub location_id: Option<i64>,
    pub feature_id: Option<i64>,
    /// Rows per feature and location instead of per feature.
    #[serde(default)]
    pub is_by_location: Option<bool>,
}

/// Tickets paid on a business day, by feature (or feature and location).
#[utoipa::path(get, operation_id = "featureTicketSalesData", path = "/PRES-live/featureTicketSales/data/{date}", tag = "pres-live",
    params(("date" = String, Path, description = "YYYY-MM-DD"), FeatureSalesQuery),
    responses((status = 200, description = "By feature", body = SalesResponse),
              crate::error::ManagersOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn feature_ticket_sales_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(date): Path<String>,
    Query(q): Query<FeatureSalesQuery>,
) -> ApiResult<axum::Json<SalesResponse>> {
    let groups = state
        .live
        .feature_ticket_sales(
            &caller,
            &date,
            q.location_id.filter(|l| *l != 0),
            q.feature_id.filter(|f| *f != 0),
            q.is_by_location.unwrap_or(false),
        )
        .await?;
    Ok(axum::Json(SalesResponse {
        date,
        rows: sales_rows(groups, true),
    }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct SalesDayRow {
    pub business_date: String,
    pub tickets: i64,
    pub revenue: i64,
}

fn days(d: &[SalesDay]) -> Vec<SalesDayRow> {
    d.iter()
        .map(|d| SalesDayRow {
            business_date: d.date.to_string(),
            tickets: d.tickets,
            revenue: d.revenue.minor(),
        })
        .collect()
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationsSalesResponse {
    pub presentations: Vec<PresentationLive>,
    /// The cinemas' total (location 1 left out).
    pub total: LiveFigures,
    /// Agorot, the total's.
    pub total_revenue: i64,
    /// Tickets of these presentations by the business day they were paid.
    pub sales_by_day: Vec<SalesDayRow>,
}

fn presentations_response(d: PresentationsData) -> PresentationsSalesResponse {
    let total_revenue = d
        .presentations
        .iter()
        .filter(|r| r.location_id != kupa_app::staff::live::EXCLUDED_LOCATION)
        .map(|r| r.revenue)
        .sum::<kupa_domain::money::Money>()
        .minor();
    PresentationsSalesResponse {
        presentations: d
            .presentations
            .iter()
            .map(|r| PresentationLive::of(r, true))
            .collect(),
        total: LiveFigures::of(&d.total),
        total_revenue,
        sales_by_day: days(&d.sales_by_day),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct RangeQuery {
    /// YYYY-MM-DD; default a month before today.
    #[param(max_length = 10)]
    pub start_date: Option<String>,
    /// YYYY-MM-DD; default today.
    #[param(max_length = 10)]
    pub end_date: Option<String>,
}

/// Presentations of a range of business days (default the last month) with figures and money.
#[utoipa::path(get, operation_id = "presentationSales", path = "/PRES-live/monitors/PresentationSales/data", tag = "pres-live",
    params(RangeQuery),
    responses((status = 200, description = "The presentations", body = PresentationsSalesResponse), crate::error::ManagersOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn presentation_sales(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<RangeQuery>,
) -> ApiResult<axum::Json<PresentationsSalesResponse>> {
    let d = state
        .live
        .presentation_sales(&caller, q.start_date.as_deref(), q.end_date.as_deref())
        .await?;
    Ok(axum::Json(presentations_response(d)))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AvailableFeaturesResponse {
    pub features: Vec<FeatureRef>,
}

/// The features with presentations in the range (default the live calendar).
#[utoipa::path(get, operation_id = "v2AvailableFeatures", path = "/PRES-live/v2/availableFeatures", tag = "pres-live",
    params(RangeQuery),
    responses((status = 200, description = "The features", body = AvailableFeaturesResponse),
              crate::error::ManagersOnly))]
async fn available_features(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<RangeQuery>,
) -> ApiResult<axum::Json<AvailableFeaturesResponse>> {
    let features = state
        .live
        .available_features(&caller, q.start_date.as_deref(), q.end_date.as_deref())
        .await?;
    Ok(axum::Json(AvailableFeaturesResponse {
        features: features
            .into_iter()
            .map(|(id, name, name_en)| FeatureRef {
                feature_id: id,
                feature_name: name,
                feature_name_en: name_en,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FeatureDataQuery {
    pub feature_id: i64,
    pub location_id: Option<i64>,
    /// Comma-separated; none: every presentation of the feature in the range.
    #[param(max_length = 2000)]
    pub presentation_ids: Option<String>,
    #[param(max_length = 10)]
    pub start_date: Option<String>,
    #[param(max_length = 10)]
    pub end_date: Option<String>,
}

/// A feature's presentations in the range (default the live calendar), total and sales by day.
#[utoipa::path(get, operation_id = "v2FeatureData", path = "/PRES-live/v2/featureData", tag = "pres-live",
    params(FeatureDataQuery),
    responses((status = 200, description = "The feature's data", body = PresentationsSalesResponse),
              crate::error::ManagersOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn feature_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<FeatureDataQuery>,
) -> ApiResult<axum::Json<PresentationsSalesResponse>> {
    let ids = id_list("presentationIds", q.presentation_ids.as_deref())?;
    let d = state
        .live
        .feature_data(
            &caller,
            q.feature_id,
            q.location_id.filter(|l| *l != 0),
            &ids.into_iter().map(PresentationId).collect::<Vec<_>>(),
            q.start_date.as_deref(),
            q.end_date.as_deref(),
        )
        .await?;
    Ok(axum::Json(presentations_response(d)))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AvailablePresentationsQuery {
    pub feature_id: i64,
    pub location_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct AvailablePresentationsResponse {
    pub presentations: Vec<PresentationLive>,
}

/// A feature's presentations in the live calendar (optionally at one location).
#[utoipa::path(get, operation_id = "v2AvailablePresentations", path = "/PRES-live/v2/availablePresentations", tag = "pres-live",
    params(AvailablePresentationsQuery),
    responses((status = 200, description = "The presentations", body = AvailablePresentationsResponse),
              crate::error::ManagersOnly))]
async fn available_presentations(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<AvailablePresentationsQuery>,
) -> ApiResult<axum::Json<AvailablePresentationsResponse>> {
    let rows = state
        .live
        .available_presentations(&caller, q.feature_id, q.location_id.filter(|l| *l != 0))
        .await?;
    Ok(axum::Json(AvailablePresentationsResponse {
        presentations: rows.iter().map(|r| PresentationLive::of(r, true)).collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PresentationDataQuery {
    pub presentation_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TicketTypeRow {
    pub ticket_id: i64,
    pub name: String,
    pub name_en: String,
    pub tickets: i64,
    pub revenue: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationDataResponse {
    pub presentation: PresentationLive,
    pub ticket_types: Vec<TicketTypeRow>,
    pub sales_by_day: Vec<SalesDayRow>,
}

/// One presentation: its figures, sales by ticket type and by day.
#[utoipa::path(get, operation_id = "v2PresentationData", path = "/PRES-live/v2/presentationData", tag = "pres-live",
    params(PresentationDataQuery),
    responses((status = 200, description = "The presentation's data", body = PresentationDataResponse),
              crate::error::ManagersOnly,
              (status = 404, description = "notFound (or another business's)", body = ErrorBody)))]
async fn presentation_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<PresentationDataQuery>,
) -> ApiResult<axum::Json<PresentationDataResponse>> {
    let d = state
        .live
        .presentation_data(&caller, PresentationId(q.presentation_id))
        .await?;
    Ok(axum::Json(PresentationDataResponse {
        presentation: PresentationLive::of(&d.presentation, true),
        ticket_types: d
            .ticket_types
            .into_iter()
            .map(|t| TicketTypeRow {
                ticket_id: t.ticket_id,
                name: t.name,
                name_en: t.name_en,
                tickets: t.tickets,
                revenue: t.revenue.minor(),
            })
            .collect(),
        sales_by_day: days(&d.sales_by_day),
    }))
}
