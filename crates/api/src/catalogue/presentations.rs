//! GET /seats/presentations, /presentations, one presentation and its ticket groups.

use axum::extract::State;
use jiff::civil::Date;
use kupa_app::catalogue::PresentationFilter;
use kupa_domain::ids::PresentationId;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::dto::{self, ChannelQuery};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Path, Query, id_list};
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DateQuery {
    /// A calendar day in Asia/Jerusalem, YYYY-MM-DD; default today.
    #[param(format = Date)]
    pub date: Option<String>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationsByDateResponse {
    pub date: String,
    pub presentations: Vec<dto::Presentation>,
    /// The days (YYYY-MM-DD, from today on) with a screening whose sale has not ended: the days
    /// a date strip offers. Not the same for every channel (a mini-site sees its own).
    pub sale_dates: Vec<String>,
    pub server_time: String,
}

/// Every presentation of one local day, in start order.
#[utoipa::path(get, operation_id = "presentationsByDate", path = "/seats/presentations", tag = "catalogue", params(DateQuery),
    responses((status = 200, description = "The day's presentations", body = PresentationsByDateResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn presentations_by_date(
    State(state): State<AppState>,
    Query(q): Query<DateQuery>,
) -> ApiResult<axum::Json<PresentationsByDateResponse>> {
    presentations_by_date_body(&state, q.date.as_deref(), q.mini_site_url.as_deref())
        .await
        .map(axum::Json)
}

/// GET /seats/presentations's body (web.rs writes the index's into its HTML, decision 0056).
pub(crate) async fn presentations_by_date_body(
    state: &AppState,
    date: Option<&str>,
    mini_site_url: Option<&str>,
) -> ApiResult<PresentationsByDateResponse> {
    let day = match date.filter(|d| !d.is_empty()) {
        Some(d) => d
            .parse::<Date>()
            .map_err(|_| ApiError::validation("date must be YYYY-MM-DD"))?,
        None => kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(
            state.catalogue.now_ms(),
        )),
    };
    let channel = state.catalogue.channel(mini_site_url).await?;
    let list = state.catalogue.presentations_on(day, &channel).await?;
    let sale_dates = state.catalogue.sale_dates(&channel).await?;
    Ok(PresentationsByDateResponse {
        date: day.to_string(),
        presentations: list.iter().map(dto::Presentation::from_info).collect(),
        sale_dates: sale_dates.iter().map(ToString::to_string).collect(),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    /// Comma-separated feature ids; empty for all.
    #[param(
        max_length = 1000,
        pattern = r"^ *([0-9]{1,18} *(, *[0-9]{1,18} *)*)?$"
    )]
    pub feature_ids: Option<String>,
    pub location_id: Option<i64>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 1000)]
    pub ticket_codes: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationListResponse {
    pub presentations: Vec<dto::Presentation>,
    pub has_reserved: bool,
    #[serde(rename = "hasGA")]
    pub has_ga: bool,
    pub server_time: String,
}

pub(super) async fn list_presentations(
    state: AppState,
    q: ListQuery,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    let filter = PresentationFilter {
        feature_ids: id_list("featureIds", q.feature_ids.as_deref())?,
        location_id: q.location_id,
    };
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let list = state.catalogue.upcoming(&filter, &channel).await?;
    let presentations: Vec<dto::Presentation> =
        list.iter().map(dto::Presentation::from_info).collect();
    Ok(axum::Json(PresentationListResponse {
        has_reserved: presentations.iter().any(|p| p.has_reserved_section),
        has_ga: presentations.iter().any(|p| p.has_ga_section),
        presentations,
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}

/// Upcoming presentations (sales not ended), optionally of some features at one complex.
#[utoipa::path(get, operation_id = "presentationList", path = "/presentations/", tag = "catalogue", params(ListQuery),
    responses((status = 200, description = "Upcoming presentations", body = PresentationListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn presentation_list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    list_presentations(state, q).await
}

/// The same as `/presentations/`, without the trailing slash.
#[utoipa::path(get, operation_id = "presentationListNoSlash", path = "/presentations", tag = "catalogue", params(ListQuery),
    responses((status = 200, description = "Upcoming presentations", body = PresentationListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn presentation_list_no_slash(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    list_presentations(state, q).await
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationResponse {
    pub presentation: dto::Presentation,
    pub server_time: String,
    /// Always null on success (errors come as an error body with a 4xx status).
    pub error: Option<String>,
}

/// One presentation with its products and service charge.
#[utoipa::path(get, operation_id = "getPresentation", path = "/presentations/{id}", tag = "catalogue",
    params(("id" = i64, Path, description = "Presentation id"), ChannelQuery),
    responses((status = 200, description = "The presentation", body = PresentationResponse),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn get_presentation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<ChannelQuery>,
) -> ApiResult<axum::Json<PresentationResponse>> {
    presentation_body(&state, id, q.mini_site_url.as_deref())
        .await
        .map(axum::Json)
}

/// GET /presentations/{id}'s body (web.rs writes an order page's into its HTML, decision 0056).
pub(crate) async fn presentation_body(
    state: &AppState,
    id: i64,
    mini_site_url: Option<&str>,
) -> ApiResult<PresentationResponse> {
    let channel = state.catalogue.channel(mini_site_url).await?;
    let detail = state
        .catalogue
        .presentation(PresentationId(id), &channel)
        .await?;
    Ok(PresentationResponse {
        presentation: dto::Presentation::from_detail(&detail),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
        error: None,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupsQuery {
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    /// A member's loyalty id (the member number on the card): the member is checked, and
    /// member-only tickets are listed too.
    #[param(max_length = 64)]
    pub membership_loyalty_id: Option<String>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 64)]
    pub integration_id: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupsResponse {
    pub ticket_groups: Vec<dto::TicketGroup>,
    pub service_charge: Option<dto::ServiceCharge>,
}

/// The ticket groups (and their tickets) of a presentation's sections.
#[utoipa::path(get, operation_id = "ticketGroups", path = "/presentations/{id}/ticketGroups", tag = "catalogue",
    params(("id" = i64, Path, description = "Presentation id"), TicketGroupsQuery),
    responses((status = 200, description = "Ticket groups", body = TicketGroupsResponse),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 409, description = "memberExpired, memberNotStarted, memberNoneAvailable", body = ErrorBody),
              (status = 422, description = "memberNotFound, formValidation", body = ErrorBody)))]
pub(super) async fn ticket_groups(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<TicketGroupsQuery>,
) -> ApiResult<axum::Json<TicketGroupsResponse>> {
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let (groups, charge) = state
        .tickets
        .ticket_groups(
            PresentationId(id),
            &channel,
            q.membership_loyalty_id.as_deref(),
        )
        .await?;
    Ok(axum::Json(TicketGroupsResponse {
        ticket_groups: groups
            .iter()
            .map(|(g, ts)| dto::TicketGroup {
                id: g.id,
                name: g.name.clone(),
                name_en: g.name_en.clone(),
                is_by_code_enabled: g.is_by_code_enabled,
                tickets: ts.iter().map(dto::Ticket::from).collect(),
                voucher_tickets: Vec::new(),
            })
            .collect(),
        service_charge: charge.as_ref().map(dto::ServiceCharge::from),
    }))
}
