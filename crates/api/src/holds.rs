//! Unpaid hold orders ("reserve and pay later", decision 0028). The hold itself is made by the
//! spec's commit with `cart.isHold` (POST /payment/commit, in `cart::payment`); here are the calls
//! the spec does not name: a hold read back (GET /reservations/{id}/hold), switching it to paid
//! (POST /reservations/{id}/pay), giving it up before its time (POST /reservations/{id}/release)
//! and the customer's holds (GET /customer-area/holds).

use axum::extract::State;
use kupa_app::orders::{HoldState, HoldView, PaymentMethod, StartPayment};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::PresentationId;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_hold))
        .routes(routes!(pay_hold))
        .routes(routes!(release_hold))
        .routes(routes!(customer_holds))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HeldSeat {
    pub section: String,
    pub section_en: String,
    pub row: String,
    pub seat: String,
    pub ticket_type: String,
    pub ticket_type_en: String,
    pub price: i64,
}

/// An unpaid hold, as the customer area and the confirmation show it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Hold {
    pub reservation_identifier: String,
    pub reservation_number: String,
    /// `open` (to pay until `holdUntil`), `paid` (an ordinary reservation now: GET
    /// /reservations/{id}) or `released` (not paid in time; the seats went back to sale).
    #[schema(pattern = "^(open|paid|released)$")]
    pub state: String,
    /// Pay and collect by then: 30 minutes before the event. Then the hold is released. For a
    /// hold its customer gave up (`givenUp`), when they did.
    pub hold_until: String,
    /// `released` because the customer gave it up (POST /reservations/{id}/release), not because
    /// its time ran out.
    pub given_up: bool,
    pub presentation: dto::Presentation,
    pub event_date_time: String,
    pub seats: Vec<HeldSeat>,
    /// What the hold costs (agorot), service charge included.
    pub total: i64,
    /// What is left to pay after vouchers (agorot).
    pub amount_due: i64,
    pub currency: String,
    pub server_time: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HoldResponse {
    pub hold: Hold,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct HoldsResponse {
    /// Newest first: open holds, and recent paid or released ones.
    pub holds: Vec<Hold>,
}

fn hold_dto(v: &HoldView, now_ms: i64) -> Hold {
    let o = &v.order;
    Hold {
        reservation_identifier: o.id.to_string(),
        reservation_number: o.reservation_number.clone(),
        state: match v.state {
            HoldState::Open => "open",
            HoldState::Paid => "paid",
            HoldState::Released => "released",
        }
        .into(),
        hold_until: ms_to_rfc3339(v.hold_until_ms),
        given_up: v.given_up,
        presentation: dto::Presentation::from_info(&v.presentation),
        event_date_time: ms_to_rfc3339(v.presentation.view.presentation.starts_at_ms),
        seats: o
            .tickets
            .iter()
            .map(|t| HeldSeat {
                section: t.section_name.clone(),
                section_en: t.section_name_en.clone(),
                row: t.row_name.clone(),
                seat: t.seat_name.clone(),
                ticket_type: t.ticket_name.clone(),
                ticket_type_en: t.ticket_name_en.clone(),
                price: t.price.minor(),
            })
            .collect(),
        total: o.total.minor(),
        amount_due: o.amount_due().minor(),
        currency: o.currency.clone(),
        server_time: ms_to_rfc3339(now_ms),
    }
}

/// A hold of the logged-in customer.
#[utoipa::path(get, operation_id = "getHold", path = "/reservations/{id}/hold", tag = "customer",
    params(("id" = String, Path, description = "The hold's reservation identifier")),
    responses((status = 200, description = "The hold", body = HoldResponse),
              (status = 401, description = "loginError: not logged in", body = ErrorBody),
              (status = 404, description = "notFound: no such hold, or not this customer's", body = ErrorBody)))]
async fn get_hold(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<HoldResponse>> {
    let v = state.orders.hold(session.login(), &id.into()).await?;
    Ok(axum::Json(HoldResponse {
        hold: hold_dto(&v, state.orders.now_ms()),
    }))
}

/// The logged-in customer's holds.
#[utoipa::path(get, operation_id = "customerHolds", path = "/customer-area/holds", tag = "customer",
    responses((status = 200, description = "The holds", body = HoldsResponse),
              (status = 401, description = "loginError: not logged in", body = ErrorBody)))]
async fn customer_holds(
    State(state): State<AppState>,
    session: BuyerSession,
) -> ApiResult<axum::Json<HoldsResponse>> {
    let now = state.orders.now_ms();
    let holds = state.orders.customer_holds(session.login()).await?;
    Ok(axum::Json(HoldsResponse {
        holds: holds.iter().map(|v| hold_dto(v, now)).collect(),
    }))
}

/// Switching a hold to paid: which way to pay and where the payment page sends the buyer back.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PayHoldBody {
    /// card (default), savedCard, paypal, blik, payu.
    #[schema(max_length = 32, pattern = "^(card|savedCard|paypal|blik|payu)$")]
    pub method: Option<String>,
    /// Installments, 1 to 12 (default 1).
    #[schema(minimum = 1, maximum = 12)]
    pub number_of_payments: Option<i64>,
    #[serde(default)]
    pub save_card: bool,
    /// The total the customer sees (agorot); refused with `priceMismatch` when it differs.
    pub total: Option<i64>,
    /// The page language of the payment form: he (default) or en.
    #[schema(max_length = 5)]
    pub locale: Option<String>,
    /// Where the payment page sends the buyer back (a path of this site; default the customer area).
    #[schema(max_length = 500)]
    pub return_path: Option<String>,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

/// Switches a hold to paid: a payment of the hold's order, through the same payment page and the
/// same finalisation as any order. Open the answer's `paymentFormURL`; once the gateway confirms,
/// the hold is an ordinary paid reservation.
#[utoipa::path(post, operation_id = "payHold", path = "/reservations/{id}/pay", tag = "customer",
    params(("id" = String, Path, description = "The hold's reservation identifier")),
    request_body = PayHoldBody,
    responses((status = 200, description = "Where to pay", body = crate::dto::cart::PaymentFormResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = "loginError: not logged in", body = ErrorBody),
              (status = 404, description = "notFound: no such hold, or not this customer's", body = ErrorBody),
              (status = 409, description = "holdReleased (not paid in time), ORDER_ALREADY_PAID", body = ErrorBody),
              (status = 422, description = "formValidation, priceMismatch", body = ErrorBody)))]
async fn pay_hold(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Json(body): Json<PayHoldBody>,
) -> ApiResult<axum::Json<crate::dto::cart::PaymentFormResponse>> {
    let method = match body.method.as_deref() {
        None => PaymentMethod::Card,
        Some(m) => PaymentMethod::parse(m)
            .filter(|m| *m != PaymentMethod::Voucher)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::FormValidation, "unknown payment method")
            })?,
    };
    let locale = body.locale.unwrap_or_else(|| "he".into());
    if !kupa_domain::locale::is_supported(&locale) {
        return Err(AppError::rejected(ErrorCode::FormValidation, "unknown locale").into());
    }
    let return_path = body
        .return_path
        .filter(|p| p.starts_with('/') && !p.starts_with("//"))
        .unwrap_or_else(|| "/customer-area".into());
    let (payment, url, until) = state
        .orders
        .pay_hold(
            session.id(),
            session.login(),
            &id.into(),
            StartPayment {
                method,
                installments: body.number_of_payments.unwrap_or(1),
                save_card: body.save_card,
                saved_card: None,
                total: body.total.map(kupa_domain::money::Money),
                locale,
                return_url: return_path,
                captcha_token: body.recaptcha_token.unwrap_or_default(),
            },
        )
        .await?;
    let now = state.orders.now_ms();
    Ok(axum::Json(crate::dto::cart::PaymentFormResponse {
        payment_form_url: url,
        paid: payment.status == kupa_app::orders::PaymentStatus::Captured,
        payment_identifier: payment.id,
        amount: payment.amount.minor(),
        currency: payment.currency,
        expires_at: ms_to_rfc3339(until),
        server_time: ms_to_rfc3339(now),
    }))
}

/// Gives an open hold up before its time: the hold is released (nothing was paid, so nothing is
/// refunded) and its seats go back to sale at once, announced on the seat event stream. Racing a
/// payment of the same hold, one wins: paid (`ORDER_ALREADY_PAID` here), or released with a
/// payment that authorizes anyway refunded once. The answer is the hold, `released`.
#[utoipa::path(post, operation_id = "releaseHold", path = "/reservations/{id}/release", tag = "customer",
    params(("id" = String, Path, description = "The hold's reservation identifier")),
    responses((status = 200, description = "The hold, released", body = HoldResponse),
              (status = 401, description = "loginError: not logged in", body = ErrorBody),
              (status = 404, description = "notFound: no such hold, or not this customer's", body = ErrorBody),
              (status = 409, description = "holdReleased (released already), ORDER_ALREADY_PAID (paid: cancel it as a reservation)", body = ErrorBody)))]
async fn release_hold(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<HoldResponse>> {
    let v = state
        .orders
        .release_hold(session.login(), &id.into())
        .await?;
    Ok(axum::Json(HoldResponse {
        hold: hold_dto(&v, state.orders.now_ms()),
    }))
}

/// The spec's commit with `cart.isHold`: the session's priced cart becomes an unpaid hold of the
/// logged-in member. The answer names the reservation; its tickets come once it is paid, so
/// `ticketIdentifiers` is empty.
pub(crate) async fn commit_hold(
    state: &AppState,
    session: &BuyerSession,
    presentation_id: i64,
    body: &crate::dto::cart::CommitBody,
) -> ApiResult<axum::Json<crate::dto::cart::CommitResponse>> {
    let order = state
        .orders
        .make_hold(
            session.id(),
            session.login(),
            PresentationId(presentation_id),
            body.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(crate::dto::cart::CommitResponse {
        reservation_identifier: order.id.into_string(),
        ticket_identifiers: Vec::new(),
        reservation_number: order.reservation_number,
        system_vouchers: Vec::new(),
        members: Vec::new(),
        seats: Vec::new(),
        error: None,
    }))
}
