//! GET /presentations/{id}/ticket: the ticket a voucher or code unlocks (spec section 7).

use axum::extract::State;
use kupa_app::tickets::CodeTicketQuery;
use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query, id_list};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(ticket_by_code))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct TicketByCodeQuery {
    /// The code as typed; surrounding spaces and letter case are ignored.
    #[param(max_length = 64)]
    pub ticket_code: String,
    /// The seat's section: the code's ticket must be of the ticket group it sells.
    pub section_id: Option<i64>,
    /// The ticket group the code's ticket must belong to.
    pub ticket_group_id: Option<i64>,
    /// The ticket the buyer picked: the code must unlock exactly this one.
    pub ticket_id: Option<i64>,
    /// Comma-separated ids of tickets the client already has for this code; the answer is never one of them.
    #[param(
        max_length = 1000,
        pattern = r"^ *([0-9]{1,18} *(, *[0-9]{1,18} *)*)?$"
    )]
    pub ignore_ticket_ids: Option<String>,
    #[param(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketCodeInfo {
    /// The code as printed.
    pub code: String,
    /// discountCode, voucher, coupon, bankCard or creditCardBenefit.
    pub kind: String,
    /// First and last day of validity (YYYY-MM-DD, Asia/Jerusalem, inclusive); null: open.
    pub valid_from: Option<String>,
    pub valid_to: Option<String>,
    /// Tickets the code may still be used for; null: no limit.
    pub uses_left: Option<i64>,
    /// A voucher's remaining value in agorot; null: the code has no balance.
    pub balance: Option<i64>,
    /// The order needs at least this many tickets (a coupon); 0: any.
    pub min_tickets: i64,
    /// Credit-card benefit: the card paid with must start with these digits; empty otherwise.
    pub card_prefix: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketByCodeResponse {
    /// The ticket the code unlocks, with `code` (and a voucher's `balance`) set.
    pub ticket: dto::Ticket,
    /// The code's label in Hebrew, to show beside the ticket.
    pub msg: String,
    pub msg_en: String,
    pub ticket_code: TicketCodeInfo,
    pub server_time: String,
}

/// The ticket a voucher, coupon, discount code or benefit card unlocks for a presentation on sale.
#[utoipa::path(get, operation_id = "ticketByCode", path = "/presentations/{id}/ticket", tag = "catalogue",
    params(("id" = i64, Path, description = "Presentation id"), TicketByCodeQuery),
    responses((status = 200, description = "The ticket the code unlocks", body = TicketByCodeResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent, notFound (unknown mini-site)", body = ErrorBody),
              (status = 409, description = "voucherExpired, voucherBalance, codeUsageLimitExceeded, ticket_sale_not_yet_started, ticketing_ended", body = ErrorBody),
              (status = 422, description = "codeNotFound, ticketNotFound, formValidation", body = ErrorBody)))]
async fn ticket_by_code(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<TicketByCodeQuery>,
) -> ApiResult<axum::Json<TicketByCodeResponse>> {
    let ignore = id_list("ignoreTicketIds", q.ignore_ticket_ids.as_deref())?;
    let found = state
        .tickets
        .ticket_by_code(&CodeTicketQuery {
            presentation_id: PresentationId(id),
            section_id: q.section_id,
            ticket_group_id: q.ticket_group_id,
            ticket_code: &q.ticket_code,
            ticket_id: q.ticket_id,
            ignore_ticket_ids: &ignore,
            recaptcha_token: q.recaptcha_token.as_deref().unwrap_or_default(),
            mini_site_url: q.mini_site_url.as_deref(),
        })
        .await?;
    let c = &found.code;
    let ticket = dto::Ticket {
        code: Some(c.code.clone()),
        balance: c.balance.map(Money::minor),
        ..dto::Ticket::from(&found.ticket)
    };
    Ok(axum::Json(TicketByCodeResponse {
        ticket,
        msg: c.label.clone(),
        msg_en: c.label_en.clone(),
        ticket_code: TicketCodeInfo {
            code: c.code.clone(),
            kind: c.kind.as_str().to_owned(),
            valid_from: c.valid_from.clone(),
            valid_to: c.valid_to.clone(),
            uses_left: found.uses_left,
            balance: c.balance.map(Money::minor),
            min_tickets: c.min_tickets,
            card_prefix: c.card_prefix.clone(),
        },
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}
