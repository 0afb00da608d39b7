//! The ticket-reference prompt admin (spec section 7, live monitoring; managers and
//! ticket-reference agents): the options (agents' view), their data with what was used, the
//! detail by presentation, the ticket sales that carried a reference, and the quantity edit.
//! An option is addressed as PriceType 1 (a ticket), PriceId (the ticket) and PriceRowId (its row).

use axum::extract::State;
use jiff::ToSpan;
use jiff::civil::Date;
use kupa_app::staff::live::{SoldLine, business_date};
use kupa_app::staff::refs::PRICE_TYPE_TICKET;
use kupa_app::staff::{Access, Caller, Role};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::PresentationId;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, StaffSuccess};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query, id_list};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(ticket_ref_agents))
        .routes(routes!(admin_data))
        .routes(routes!(admin_detail))
        .routes(routes!(admin_ticket_sales))
        .routes(routes!(edit_quantity))
        .routes(routes!(resend_tickets))
}

/// The spec's Ticket-reference agent entity: one reference option as an agent administers it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct TicketRefAgent {
    /// The agent's user id (agents are staff users, not customers).
    pub customer_id: Option<i64>,
    pub ticket_id: i64,
    /// Null: any feature (the options belong to the ticket).
    pub feature_id: Option<i64>,
    pub price_policy_id: i64,
    pub presentation_id: Option<i64>,
    pub feature_category_id: Option<i64>,
    pub reference1: String,
    pub reference2: String,
    pub price_type: i64,
    pub price_id: i64,
    pub price_row_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct TicketRefAgentsResponse {
    pub agents: Vec<TicketRefAgent>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AgentsQuery {
    /// Whose view; another user's only for a manager. Default: the caller.
    pub user_id: Option<i64>,
}

/// The user whose view is asked: the caller, or (for a manager) another staff user of theirs.
async fn view_of(state: &AppState, caller: &Caller, user_id: Option<i64>) -> ApiResult<i64> {
    match user_id {
        None => Ok(caller.user.id),
        Some(id) if id == caller.user.id => Ok(id),
        Some(id) if caller.user.role == Role::Manager => {
            let users = state
                .staff
                .store()
                .staff_users()
                .await
                .map_err(AppError::from)?;
            let shares = users.iter().any(|u| {
                u.id == id
                    && u.business_ids
                        .iter()
                        .all(|b| caller.user.business_ids.contains(b))
            });
            if shares {
                Ok(id)
            } else {
                Err(
                    AppError::rejected(ErrorCode::Forbidden, "not one of this manager's users")
                        .into(),
                )
            }
        }
        Some(_) => Err(AppError::rejected(ErrorCode::Forbidden, "another user's view").into()),
    }
}

/// The reference options the user administers, in the agent entity's shape.
#[utoipa::path(get, operation_id = "getTicketRefAgents", path = "/pres-live/getTicketRefAgents", tag = "pres-live",
    params(AgentsQuery),
    responses((status = 200, description = "The options", body = TicketRefAgentsResponse),
              crate::error::StaffOnly))]
async fn ticket_ref_agents(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<AgentsQuery>,
) -> ApiResult<axum::Json<TicketRefAgentsResponse>> {
    caller.require(Access::ReferencePrompts)?;
    let user = view_of(&state, &caller, q.user_id).await?;
    let options = state
        .staff
        .store()
        .ref_options()
        .await
        .map_err(AppError::from)?;
    Ok(axum::Json(TicketRefAgentsResponse {
        agents: options
            .into_iter()
            .map(|o| TicketRefAgent {
                customer_id: Some(user),
                ticket_id: o.ticket_id,
                feature_id: None,
                price_policy_id: o.price_policy_id,
                presentation_id: None,
                feature_category_id: None,
                reference1: o.reference,
                reference2: o.reference2,
                price_type: PRICE_TYPE_TICKET,
                price_id: o.ticket_id,
                price_row_id: o.row,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct AdminQuery {
    /// Comma-separated; default the user's. A business not the user's is refused.
    #[param(max_length = 500)]
    pub business_ids: Option<String>,
    /// The same as `userId` (agents are staff users).
    pub customer_id: Option<i64>,
    pub user_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct RefOptionRow {
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    pub price_policy_id: i64,
    pub reference1: String,
    pub reference2: String,
    /// How many more tickets may name this reference.
    pub quantity: i64,
    /// Paid, not cancelled tickets of the businesses that named it.
    pub used_quantity: i64,
    pub price_type: i64,
    pub price_id: i64,
    pub price_row_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RefOptionsResponse {
    pub options: Vec<RefOptionRow>,
}

pub(super) fn businesses(caller: &Caller, raw: Option<&str>) -> ApiResult<Vec<i64>> {
    Ok(caller.businesses(&id_list("businessIds", raw)?)?)
}

/// The options with their quantity left and what the businesses' tickets used.
#[utoipa::path(get, operation_id = "ticketReferencePromptAdminData", path = "/pres-live/monitors/TicketReferencePromptAdmin/data", tag = "pres-live",
    params(AdminQuery),
    responses((status = 200, description = "The options", body = RefOptionsResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role, or a business not the user's", body = ErrorBody)))]
async fn admin_data(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<AdminQuery>,
) -> ApiResult<axum::Json<RefOptionsResponse>> {
    caller.require(Access::ReferencePrompts)?;
    let b = businesses(&caller, q.business_ids.as_deref())?;
    view_of(&state, &caller, q.user_id.or(q.customer_id)).await?;
    let options = state.live.ref_options_used(&caller, &b).await?;
    Ok(axum::Json(RefOptionsResponse {
        options: options
            .into_iter()
            .map(|(o, used)| RefOptionRow {
                ticket_id: o.ticket_id,
                ticket_name: o.ticket_name,
                ticket_name_en: o.ticket_name_en,
                price_policy_id: o.price_policy_id,
                reference1: o.reference,
                reference2: o.reference2,
                quantity: o.quantity,
                used_quantity: used,
                price_type: PRICE_TYPE_TICKET,
                price_id: o.ticket_id,
                price_row_id: o.row,
            })
            .collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DetailQuery {
    /// A reference (Reference1) to narrow to.
    #[param(max_length = 100)]
    pub data: Option<String>,
    /// One row per ticket instead of per presentation and reference.
    pub is_detail: Option<bool>,
    pub feature_id: Option<i64>,
    pub ticket_id: Option<i64>,
    pub price_policy_id: Option<i64>,
    pub presentation_id: Option<i64>,
    pub feature_category_id: Option<i64>,
    #[param(max_length = 500)]
    pub business_ids: Option<String>,
    /// TicketSales only: 1 per reference (default), 2 per ticket.
    pub detail_level: Option<i64>,
    /// TicketSales only: YYYY-MM-DD, default a month before today.
    #[param(max_length = 10)]
    pub start_date: Option<String>,
    /// TicketSales only: YYYY-MM-DD, default today.
    #[param(max_length = 10)]
    pub end_date: Option<String>,
    /// TicketSales only: 1 by the date of sale, 2 (default) by the presentation's date.
    pub date_type: Option<i64>,
}

impl DetailQuery {
    fn keeps(&self, l: &SoldLine) -> bool {
        self.data
            .as_deref()
            .is_none_or(|d| d.trim().is_empty() || l.ref1.as_deref() == Some(d.trim()))
            && self.feature_id.is_none_or(|x| l.feature_id == x)
            && self.ticket_id.is_none_or(|x| l.ticket_id == x)
            && self.price_policy_id.is_none_or(|x| l.price_policy_id == x)
            && self
                .presentation_id
                .is_none_or(|x| l.presentation_id == PresentationId(x))
            && self
                .feature_category_id
                .is_none_or(|x| l.feature_category_id == x)
    }
}

/// Tickets that carried a reference: one row per presentation and reference, or per ticket.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct RefSalesRow {
    pub presentation_id: i64,
    pub presentation_date_time: String,
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub location_id: i64,
    pub location_name: String,
    pub ticket_id: i64,
    pub ticket_name: String,
    pub reference1: String,
    pub reference2: String,
    pub quantity: i64,
    /// Agorot.
    pub revenue: i64,
    /// Per ticket only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reservation_number: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paid_at: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct RefSalesResponse {
    pub rows: Vec<RefSalesRow>,
}

fn ref_rows(lines: &[SoldLine], per_ticket: bool) -> Vec<RefSalesRow> {
    let mut out: Vec<RefSalesRow> = Vec::new();
    for l in lines {
        let (r1, r2) = (
            l.ref1.clone().unwrap_or_default(),
            l.ref2.clone().unwrap_or_default(),
        );
        if !per_ticket
            && let Some(row) = out.iter_mut().find(|r| {
                r.presentation_id == l.presentation_id.get()
                    && r.ticket_id == l.ticket_id
                    && r.reference1 == r1
                    && r.reference2 == r2
            })
        {
            row.quantity += 1;
            row.revenue += l.price.minor();
            continue;
        }
        out.push(RefSalesRow {
            presentation_id: l.presentation_id.get(),
            presentation_date_time: ms_to_rfc3339(l.starts_at_ms),
            feature_id: l.feature_id,
            feature_name: l.feature_name.clone(),
            feature_name_en: l.feature_name_en.clone(),
            location_id: l.location_id,
            location_name: l.location_name.clone(),
            ticket_id: l.ticket_id,
            ticket_name: l.ticket_name.clone(),
            reference1: r1,
            reference2: r2,
            quantity: 1,
            revenue: l.price.minor(),
            reservation_number: per_ticket.then(|| l.reservation_number.clone()),
            paid_at: per_ticket.then(|| ms_to_rfc3339(l.paid_at_ms)),
        });
    }
    out
}

/// The tickets of the businesses that named a reference, by presentation (all dates).
#[utoipa::path(get, operation_id = "ticketReferencePromptAdminDetail", path = "/pres-live/monitors/TicketReferencePromptAdminDetail/data", tag = "pres-live",
    params(DetailQuery),
    responses((status = 200, description = "The detail", body = RefSalesResponse),
              crate::error::StaffOnly))]
async fn admin_detail(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<DetailQuery>,
) -> ApiResult<axum::Json<RefSalesResponse>> {
    caller.require(Access::ReferencePrompts)?;
    let b = businesses(&caller, q.business_ids.as_deref())?;
    let today = state.live.today();
    let lines = state
        .live
        .ref_lines(
            &caller,
            &b,
            Date::constant(2000, 1, 1),
            today.checked_add(3650.days()).unwrap_or(today),
            false,
        )
        .await?;
    let lines: Vec<SoldLine> = lines.into_iter().filter(|l| q.keeps(l)).collect();
    Ok(axum::Json(RefSalesResponse {
        rows: ref_rows(&lines, q.is_detail.unwrap_or(false)),
    }))
}

/// The tickets that named a reference in a range (default the last month, by the presentation's
/// date): `detailLevel` 1 per presentation and reference, 2 per ticket.
#[utoipa::path(get, operation_id = "ticketReferencePromptAdminTicketSales", path = "/pres-live/monitors/TicketReferencePromptAdminTicketSales/data", tag = "pres-live",
    params(DetailQuery),
    responses((status = 200, description = "The sales", body = RefSalesResponse),
              crate::error::StaffOnly,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn admin_ticket_sales(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<DetailQuery>,
) -> ApiResult<axum::Json<RefSalesResponse>> {
    caller.require(Access::ReferencePrompts)?;
    let b = businesses(&caller, q.business_ids.as_deref())?;
    let (first, last) = state
        .live
        .history_range(q.start_date.as_deref(), q.end_date.as_deref())?;
    let by_sale = match q.date_type.unwrap_or(2) {
        1 => true,
        2 => false,
        _ => {
            return Err(crate::error::ApiError::validation(
                "dateType: 1 (sale) or 2 (presentation)",
            ));
        }
    };
    let per_ticket = match q.detail_level.unwrap_or(1) {
        1 => false,
        2 => true,
        _ => return Err(crate::error::ApiError::validation("detailLevel: 1 or 2")),
    };
    let lines = state
        .live
        .ref_lines(&caller, &b, first, last, by_sale)
        .await?;
    let lines: Vec<SoldLine> = lines
        .into_iter()
        .filter(|l| q.keeps(l))
        .filter(|l| {
            let d = business_date(if by_sale {
                l.paid_at_ms
            } else {
                l.starts_at_ms
            });
            d >= first && d <= last
        })
        .collect();
    Ok(axum::Json(RefSalesResponse {
        rows: ref_rows(&lines, per_ticket),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EditQuantityBody {
    #[schema(max_length = 100)]
    pub reference: String,
    #[schema(max_length = 100)]
    #[serde(default)]
    pub reference2: String,
    pub quantity: i64,
}

/// Sets how many more tickets may name a reference option. 200 means done.
#[utoipa::path(post, operation_id = "editReferencePromptOptionQuantity", path = "/pres-live/editReferencePromptOptionQuantity/1/{priceType}/{priceId}/{priceRowId}", tag = "pres-live",
    params(("priceType" = i64, Path, description = "1: a ticket's price"), ("priceId" = i64, Path, description = "The ticket"),
           ("priceRowId" = i64, Path, description = "The option's row")),
    request_body = EditQuantityBody,
    responses((status = 200, description = "Done", body = StaffSuccess),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role, or from another site's page", body = ErrorBody),
              (status = 404, description = "notFound: no such price type", body = ErrorBody),
              (status = 409, description = "refPromptOptNotFound: no option has this key", body = ErrorBody),
              (status = 422, description = "formValidation: quantity 0 to 100000", body = ErrorBody)))]
async fn edit_quantity(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path((price_type, price_id, price_row_id)): Path<(i64, i64, i64)>,
    Json(body): Json<EditQuantityBody>,
) -> ApiResult<axum::Json<StaffSuccess>> {
    state
        .live
        .edit_ref_option_quantity(
            &caller,
            &kupa_app::staff::sales::RefOptionKey {
                price_type,
                price_id,
                price_row_id,
                reference: body.reference.trim(),
                reference2: body.reference2.trim(),
            },
            body.quantity,
        )
        .await?;
    Ok(axum::Json(StaffSuccess { success: true }))
}

/// Sends a paid reservation's ticket links again by text message, to the mobile number the order
/// was made with (never another): the reference-prompt admin's "SMS resend". `resId` is the
/// reservation identifier or the reservation number. At most 3 per reservation an hour.
#[utoipa::path(post, operation_id = "staffSendTickets", path = "/pres-live/reservations/{resId}/sendTickets", tag = "pres-live",
    params(("resId" = String, Path, description = "The reservation identifier or its reservation number")),
    responses((status = 200, description = "Sent", body = StaffSuccess),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role (managers and ticket-reference agents), or from another site's page", body = ErrorBody),
              (status = 404, description = "notFound: no paid reservation of the user's businesses", body = ErrorBody),
              (status = 409, description = "CUSTOMER_NO_MOBILE: the order has no mobile number; SMS_FAILED", body = ErrorBody),
              (status = 429, description = "tooManyRequests: this reservation's resends for the hour are used (Retry-After)", body = ErrorBody)))]
async fn resend_tickets(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(reservation): Path<String>,
) -> ApiResult<axum::Json<StaffSuccess>> {
    state
        .staff
        .resend_tickets(&caller, &state.orders, &reservation)
        .await?;
    Ok(axum::Json(StaffSuccess { success: true }))
}
