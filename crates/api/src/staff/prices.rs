//! Prices and service charges from a date over HTTP (issue 18 item 2, decision 0070; Kupa's own
//! calls, the spec has no back office). Managers only, scoped by `businessIds`: another
//! business is 404 `notFound`, another role 403 `forbidden`. Days are local to Asia/Jerusalem
//! (`YYYY-MM-DD`); money is agorot.

use axum::extract::State;
use axum::http::StatusCode;
use jiff::civil::Date;
use kupa_app::model::ServiceCharge;
use kupa_app::prices::{ServiceChargeChange, TicketPriceChange};
use kupa_app::programme::{NewServiceCharge, NewTicketPrice, PriceList};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::money::Money;
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
        .routes(routes!(list))
        .routes(routes!(schedule_ticket))
        .routes(routes!(schedule_service_charge))
        .routes(routes!(withdraw_ticket))
        .routes(routes!(withdraw_service_charge))
}

fn parse_day(s: &str) -> Result<Date, AppError> {
    s.parse::<Date>().map_err(|_| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            "a day is YYYY-MM-DD",
            serde_json::json!({ "field": "effectiveFrom" }),
        )
    })
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedTicketDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// The catalogue's price, agorot.
    pub price: i64,
    /// The price in force for today's screenings.
    pub price_today: i64,
    /// Sold only through a code (a discount code, a voucher).
    pub by_code_only: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceGroupDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub tickets: Vec<PricedTicketDto>,
}

/// A service charge: a fixed amount (agorot) or basis points, per ticket or per order.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceChargeRuleDto {
    pub amount: Option<i64>,
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
}

impl ServiceChargeRuleDto {
    fn of(c: &ServiceCharge) -> ServiceChargeRuleDto {
        ServiceChargeRuleDto {
            amount: c.amount.map(Money::minor),
            percent_bp: c.percent_bp,
            per_ticket: c.per_ticket,
        }
    }
}

/// A change scheduled from a day: of a ticket's price (`ticketId`, `price`) or of the service
/// charge (`serviceCharge`).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceChangeDto {
    pub id: i64,
    pub business_id: i64,
    /// The first local day whose screenings sell at it, YYYY-MM-DD.
    pub effective_from: String,
    pub ticket_id: Option<i64>,
    pub price: Option<i64>,
    pub service_charge: Option<ServiceChargeRuleDto>,
    pub created_at: String,
    pub staff_user_id: i64,
}

impl PriceChangeDto {
    fn ticket(c: &TicketPriceChange) -> PriceChangeDto {
        PriceChangeDto {
            id: c.id,
            business_id: c.business_id,
            effective_from: c.effective_from.to_string(),
            ticket_id: Some(c.ticket_id),
            price: Some(c.price.minor()),
            service_charge: None,
            created_at: ms_to_rfc3339(c.created_at_ms),
            staff_user_id: c.staff_user_id,
        }
    }

    fn charge(c: &ServiceChargeChange) -> PriceChangeDto {
        PriceChangeDto {
            id: c.id,
            business_id: c.business_id,
            effective_from: c.effective_from.to_string(),
            ticket_id: None,
            price: None,
            service_charge: Some(ServiceChargeRuleDto {
                amount: c.amount.map(Money::minor),
                percent_bp: c.percent_bp,
                per_ticket: c.per_ticket,
            }),
            created_at: ms_to_rfc3339(c.created_at_ms),
            staff_user_id: c.staff_user_id,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceListResponse {
    pub business_id: i64,
    /// Today, local: a change starts today or later.
    pub today: String,
    pub ticket_groups: Vec<PriceGroupDto>,
    /// The catalogue's service charge; null: none.
    pub service_charge: Option<ServiceChargeRuleDto>,
    /// The one in force for today's screenings.
    pub service_charge_today: Option<ServiceChargeRuleDto>,
    /// The ticket price changes scheduled from today on, by day.
    pub ticket_changes: Vec<PriceChangeDto>,
    /// The service charge changes scheduled from today on, by day.
    pub service_charge_changes: Vec<PriceChangeDto>,
}

impl PriceListResponse {
    fn of(l: PriceList) -> PriceListResponse {
        PriceListResponse {
            business_id: l.business_id,
            today: l.today.to_string(),
            ticket_groups: l
                .groups
                .into_iter()
                .map(|(g, tickets)| PriceGroupDto {
                    id: g.id,
                    name: g.name,
                    name_en: g.name_en,
                    tickets: tickets
                        .into_iter()
                        .map(|t| PricedTicketDto {
                            id: t.ticket.id,
                            name: t.ticket.name,
                            name_en: t.ticket.name_en,
                            price: t.ticket.price.minor(),
                            price_today: t.price_today.minor(),
                            by_code_only: t.ticket.by_code_only,
                        })
                        .collect(),
                })
                .collect(),
            service_charge: l.service_charge.as_ref().map(ServiceChargeRuleDto::of),
            service_charge_today: l
                .service_charge_today
                .as_ref()
                .map(ServiceChargeRuleDto::of),
            ticket_changes: l
                .changes
                .tickets
                .iter()
                .map(PriceChangeDto::ticket)
                .collect(),
            service_charge_changes: l
                .changes
                .service_charges
                .iter()
                .map(PriceChangeDto::charge)
                .collect(),
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PriceListQuery {
    /// A business of the user's.
    pub business_id: i64,
}

/// A business's prices: every ticket group with each ticket's catalogue price and today's, the
/// service charge, and the changes scheduled from today on.
#[utoipa::path(get, operation_id = "staffPrices", path = "/staff/prices", tag = "staff",
    params(PriceListQuery),
    responses((status = 200, description = "The prices", body = PriceListResponse),
              crate::error::ManagersOnly,
              (status = 404, description = "notFound: no such business of the user's", body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Query(q): Query<PriceListQuery>,
) -> ApiResult<axum::Json<PriceListResponse>> {
    let l = state.programme.price_list(&caller, q.business_id).await?;
    Ok(axum::Json(PriceListResponse::of(l)))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketPriceBody {
    pub business_id: i64,
    pub ticket_id: i64,
    /// The first local day whose screenings sell at it, YYYY-MM-DD: today or later.
    #[schema(max_length = 10)]
    pub effective_from: String,
    /// Agorot, 0 or more.
    pub price: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceChangeResponse {
    pub change: PriceChangeDto,
}

/// Schedules a ticket's price from a day on, for the business's screenings of that day or later
/// (an order keeps the price it was priced at). Every node within a second; recorded in the
/// audit (`priceScheduled`).
#[utoipa::path(post, operation_id = "staffScheduleTicketPrice", path = "/staff/prices/tickets", tag = "staff",
    request_body = TicketPriceBody,
    responses((status = 201, description = "Scheduled", body = PriceChangeResponse),
              (status = 422, description = "formValidation (effectiveFrom in the past, price, ticketId)", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound: no such business of the user's", body = ErrorBody),
              (status = 409, description = "priceChangeExists (params.id)", body = ErrorBody)))]
async fn schedule_ticket(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<TicketPriceBody>,
) -> ApiResult<(StatusCode, axum::Json<PriceChangeResponse>)> {
    let new = NewTicketPrice {
        business_id: b.business_id,
        ticket_id: b.ticket_id,
        effective_from: parse_day(&b.effective_from)?,
        price: Money(b.price),
    };
    let c = state.programme.schedule_ticket_price(&caller, new).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(PriceChangeResponse {
            change: PriceChangeDto::ticket(&c),
        }),
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceChargeBody {
    pub business_id: i64,
    /// YYYY-MM-DD, today or later.
    #[schema(max_length = 10)]
    pub effective_from: String,
    /// A fixed amount, agorot; or `percentBp`, not both.
    #[serde(default)]
    pub amount: Option<i64>,
    /// Basis points (1000 = 10 %) of the ticket's price (per ticket) or the tickets' total.
    #[serde(default)]
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
}

/// Schedules the business's service charge from a day on. Recorded in the audit
/// (`priceScheduled`).
#[utoipa::path(post, operation_id = "staffScheduleServiceCharge", path = "/staff/prices/serviceCharges", tag = "staff",
    request_body = ServiceChargeBody,
    responses((status = 201, description = "Scheduled", body = PriceChangeResponse),
              (status = 422, description = "formValidation (effectiveFrom in the past, amount, percentBp)", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound: no such business of the user's", body = ErrorBody),
              (status = 409, description = "priceChangeExists (params.id)", body = ErrorBody)))]
async fn schedule_service_charge(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<ServiceChargeBody>,
) -> ApiResult<(StatusCode, axum::Json<PriceChangeResponse>)> {
    let new = NewServiceCharge {
        business_id: b.business_id,
        effective_from: parse_day(&b.effective_from)?,
        amount: b.amount.map(Money),
        percent_bp: b.percent_bp,
        per_ticket: b.per_ticket,
    };
    let c = state
        .programme
        .schedule_service_charge(&caller, new)
        .await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(PriceChangeResponse {
            change: PriceChangeDto::charge(&c),
        }),
    ))
}

/// Withdraws a ticket price change that starts today or later (one from a past day stays: what
/// was sold then was sold at it). Recorded in the audit (`priceWithdrawn`).
#[utoipa::path(post, operation_id = "staffWithdrawTicketPrice", path = "/staff/prices/tickets/{id}/withdraw", tag = "staff",
    params(("id" = i64, Path, description = "The change")),
    responses((status = 200, description = "Withdrawn: what it was", body = PriceChangeResponse),
              (status = 422, description = "formValidation: it started on a past day", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound: no such change of the user's businesses", body = ErrorBody)))]
async fn withdraw_ticket(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<PriceChangeResponse>> {
    let c: TicketPriceChange = state.programme.withdraw_price_change(&caller, id).await?;
    Ok(axum::Json(PriceChangeResponse {
        change: PriceChangeDto::ticket(&c),
    }))
}

/// Withdraws a service charge change that starts today or later. Recorded in the audit
/// (`priceWithdrawn`).
#[utoipa::path(post, operation_id = "staffWithdrawServiceCharge", path = "/staff/prices/serviceCharges/{id}/withdraw", tag = "staff",
    params(("id" = i64, Path, description = "The change")),
    responses((status = 200, description = "Withdrawn: what it was", body = PriceChangeResponse),
              (status = 422, description = "formValidation: it started on a past day", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound: no such change of the user's businesses", body = ErrorBody)))]
async fn withdraw_service_charge(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<PriceChangeResponse>> {
    let c: ServiceChargeChange = state.programme.withdraw_price_change(&caller, id).await?;
    Ok(axum::Json(PriceChangeResponse {
        change: PriceChangeDto::charge(&c),
    }))
}
