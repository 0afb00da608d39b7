//! The sales switches and the back office's audit over HTTP (issue 18 items 5 and 6, decision
//! 0067; Kupa's own calls, the spec has no back office). Managers only, scoped by `businessIds`:
//! another business's complex is 404 `notFound`, another role 403 `forbidden`.

use axum::extract::State;
use kupa_app::programme::ChangeRecord;
use kupa_app::sales_switches::{SaleChannel, SalesSwitch};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(switches, set_switch))
        .routes(routes!(audit))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesSwitchDto {
    pub location_id: i64,
    /// `web` or `miniSite`.
    #[schema(max_length = 16)]
    pub channel: String,
    /// Taken offline: buyers are told to book at the box office (`locationOffline`).
    pub offline: bool,
    /// False: only today's screenings (Asia/Jerusalem) sell through the channel
    /// (`advanced_sales_not_allowed_by_outlet`).
    pub advance_sales: bool,
    /// False: no tickets open in this channel (`noTicketsInChannel`).
    pub open: bool,
}

impl SalesSwitchDto {
    fn of(s: &SalesSwitch) -> SalesSwitchDto {
        SalesSwitchDto {
            location_id: s.location_id,
            channel: s.channel.as_str().to_owned(),
            offline: s.offline,
            advance_sales: s.advance_sales,
            open: s.open,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ComplexSwitchesDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub business_id: i64,
    /// One per channel: web, miniSite.
    pub switches: Vec<SalesSwitchDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesSwitchesResponse {
    pub complexes: Vec<ComplexSwitchesDto>,
}

/// The complexes of the user's businesses with their sales switches per channel.
#[utoipa::path(get, operation_id = "salesSwitches", path = "/staff/salesSwitches", tag = "staff",
    responses((status = 200, description = "The switches", body = SalesSwitchesResponse),
              crate::error::ManagersOnly))]
async fn switches(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<SalesSwitchesResponse>> {
    let all = state.programme.sales_switches(&caller).await?;
    Ok(axum::Json(SalesSwitchesResponse {
        complexes: all
            .iter()
            .map(|c| ComplexSwitchesDto {
                id: c.complex.id,
                name: c.complex.name.clone(),
                name_en: c.complex.name_en.clone(),
                business_id: c.complex.business_id,
                switches: c.switches.iter().map(SalesSwitchDto::of).collect(),
            })
            .collect(),
    }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SalesSwitchResponse {
    pub switch: SalesSwitchDto,
}

/// A channel as a body names it (`web` or `miniSite`); another is refused as `formValidation`.
pub(crate) fn sale_channel(name: &str) -> Result<SaleChannel, AppError> {
    SaleChannel::parse(name).ok_or_else(|| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            "channel is web or miniSite",
            serde_json::json!({ "field": "channel" }),
        )
    })
}

/// Sets one complex's switches for one channel. Every node sells by it within a second; the
/// change is recorded in the audit (who, when, before, after).
#[utoipa::path(put, operation_id = "setSalesSwitch", path = "/staff/salesSwitches", tag = "staff",
    request_body = SalesSwitchDto,
    responses((status = 200, description = "Set", body = SalesSwitchResponse),
              (status = 422, description = "formValidation (channel)", body = ErrorBody),
              crate::error::ManagersOnlyFromOurPages,
              (status = 404, description = "notFound: no such complex of the user's businesses", body = ErrorBody)))]
async fn set_switch(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<SalesSwitchDto>,
) -> ApiResult<axum::Json<SalesSwitchResponse>> {
    let channel = sale_channel(&b.channel)?;
    let s = state
        .programme
        .set_sales_switch(
            &caller,
            SalesSwitch {
                location_id: b.location_id,
                channel,
                offline: b.offline,
                advance_sales: b.advance_sales,
                open: b.open,
            },
        )
        .await?;
    Ok(axum::Json(SalesSwitchResponse {
        switch: SalesSwitchDto::of(&s),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AuditParams {
    /// added, moved, cancelled, ticketGroup, screeningChannel, salesSwitch, seatPlan,
    /// priceScheduled, priceWithdrawn, filmAdded, filmChanged, filmPoster, productAdded,
    /// productChanged or productImage; absent: every kind.
    pub kind: Option<String>,
    /// A complex of the user's businesses; absent: all of them.
    pub location_id: Option<i64>,
    /// Rows older than this id (the previous page's `nextBefore`); absent: the newest.
    pub before: Option<i64>,
    /// Rows per page, 1 to 100 (default 25).
    pub limit: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntryDto {
    pub id: i64,
    /// added, moved, cancelled, ticketGroup, screeningChannel (a screening), salesSwitch (a
    /// complex's channel), priceScheduled or priceWithdrawn (a business's prices), seatPlan (a
    /// hall's new seat-plan version), filmAdded, filmChanged, filmPoster (a film), productAdded,
    /// productChanged or productImage (a product; its picture uploaded or taken away).
    pub kind: String,
    pub at: String,
    /// Null: a change of the chain's own (a film; a product sold by several businesses), which
    /// every manager reads.
    pub business_id: Option<i64>,
    /// The complex; null for a change of the whole business (its prices) or of no one complex
    /// (a film; a product sold at several).
    pub location_id: Option<i64>,
    /// The screening changed; null for a sales switch, a seat plan, a film or a product.
    pub presentation_id: Option<i64>,
    pub staff_user_id: i64,
    /// The staff user's first and last name.
    pub by: String,
    /// What it was before (null for an addition) and after: a screening's programme fields,
    /// a switch's (locationId, channel, offline, advanceSales, open), a screening's channel
    /// (presentationId, channel, open), a scheduled change (id, ticketId or serviceCharge,
    /// effectiveFrom, price or amount/percentBp/perTicket; after a withdrawal `{id, withdrawn}`),
    /// a hall's newest seat plan (venueId, seatplanId, version, name, sections, seats,
    /// gaCapacity, basedOn; before: null for the hall's first), or a film's or a product's fields
    /// (a poster: its version and size, never its bytes; a product's picture: whether one was
    /// uploaded, its version and size, never its bytes).
    /// No personal data.
    #[schema(value_type = Option<Object>)]
    pub before: Option<serde_json::Value>,
    #[schema(value_type = Object)]
    pub after: serde_json::Value,
}

impl AuditEntryDto {
    fn of(c: ChangeRecord) -> AuditEntryDto {
        AuditEntryDto {
            id: c.id,
            kind: c.kind,
            at: ms_to_rfc3339(c.at_ms),
            business_id: c.business_id,
            location_id: c.location_id,
            presentation_id: c.presentation_id.map(|p| p.get()),
            staff_user_id: c.staff_user_id,
            by: c.staff_name,
            before: c.before,
            after: c.after,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditResponse {
    /// Newest first.
    pub changes: Vec<AuditEntryDto>,
    /// `before` for the next (older) page; null: this is the last page.
    pub next_before: Option<i64>,
}

/// The back office's changes in the user's businesses, newest first, a page at a time.
#[utoipa::path(get, operation_id = "backofficeAudit", path = "/staff/audit", tag = "staff",
    params(AuditParams),
    responses((status = 200, description = "A page of changes", body = AuditResponse),
              (status = 422, description = "formValidation (kind)", body = ErrorBody),
              crate::error::ManagersOnly,
              (status = 404, description = "notFound: no such complex of the user's businesses", body = ErrorBody)))]
async fn audit(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<AuditParams>,
) -> ApiResult<axum::Json<AuditResponse>> {
    let limit = q.limit.unwrap_or(25).clamp(1, 100);
    let changes = state
        .programme
        .audit(
            &caller,
            q.kind.filter(|k| !k.is_empty()),
            q.location_id,
            q.before,
            Some(limit),
        )
        .await?;
    let next_before = (changes.len() as i64 == limit)
        .then(|| changes.last().map(|c| c.id))
        .flatten();
    Ok(axum::Json(AuditResponse {
        changes: changes.into_iter().map(AuditEntryDto::of).collect(),
        next_before,
    }))
}
