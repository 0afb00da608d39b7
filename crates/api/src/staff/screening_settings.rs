//! One screening's own settings over HTTP (decision 0070; Kupa's own calls): the ticket group it
//! sells, and a channel closed to it. Managers only, scoped by `businessIds` as the programme's
//! calls: another business's screening is 404 `notFound`, another role 403 `forbidden`.

use axum::extract::State;
use kupa_domain::ids::PresentationId;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use super::programme::{ScreeningDto, ScreeningResponse};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(set_ticket_group))
        .routes(routes!(set_channel))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupBody {
    /// One of the choices' `ticketGroups`; null: as its hall.
    pub ticket_group_id: Option<i64>,
}

/// Sets the ticket group a screening sells in place of its hall's main one, while none of its
/// seats is held or sold (409 `screeningHasSales` otherwise, with `params.sold` and
/// `params.held`). Every node prices by it within a second; recorded in the audit (`ticketGroup`).
#[utoipa::path(put, operation_id = "programmeSetTicketGroup", path = "/staff/programme/screenings/{id}/ticketGroup", tag = "staff",
    params(("id" = i64, Path, description = "The screening (presentation id)")),
    request_body = TicketGroupBody,
    responses((status = 200, description = "Set", body = ScreeningResponse),
              (status = 422, description = "formValidation (ticketGroupId)", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound, or noEvent: the screening is cancelled", body = ErrorBody),
              (status = 409, description = "screeningHasSales", body = ErrorBody)))]
async fn set_ticket_group(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    Json(b): Json<TicketGroupBody>,
) -> ApiResult<axum::Json<ScreeningResponse>> {
    let s = state
        .programme
        .set_ticket_group(&caller, PresentationId(id), b.ticket_group_id)
        .await?;
    Ok(axum::Json(ScreeningResponse {
        screening: ScreeningDto::of(&s),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScreeningChannelBody {
    /// `web` or `miniSite`.
    #[schema(max_length = 16)]
    pub channel: String,
    /// False: no tickets open for this screening in the channel (`noTicketsInChannel`).
    pub open: bool,
}

/// Opens or closes one screening to one channel. Buyers through it are told
/// `noTicketsInChannel` (lock, best available, cart, payment); every node within a second;
/// recorded in the audit (`screeningChannel`).
#[utoipa::path(put, operation_id = "programmeSetScreeningChannel", path = "/staff/programme/screenings/{id}/channels", tag = "staff",
    params(("id" = i64, Path, description = "The screening (presentation id)")),
    request_body = ScreeningChannelBody,
    responses((status = 200, description = "Set", body = ScreeningResponse),
              (status = 422, description = "formValidation (channel)", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn set_channel(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    Json(b): Json<ScreeningChannelBody>,
) -> ApiResult<axum::Json<ScreeningResponse>> {
    let channel = super::sales_switches::sale_channel(&b.channel)?;
    let s = state
        .programme
        .set_screening_channel(&caller, PresentationId(id), channel, b.open)
        .await?;
    Ok(axum::Json(ScreeningResponse {
        screening: ScreeningDto::of(&s),
    }))
}
