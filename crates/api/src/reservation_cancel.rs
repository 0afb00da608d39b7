//! Cancelling a reservation (spec: POST /reservations/{id}/cancel), whole or some of its tickets,
//! with a dry run the cancel dialog shows before the buyer confirms. Who may cancel, the window,
//! the charge and the refunds are the use case's (`OrderService::cancel`, decision 0022).

use axum::extract::State;
use kupa_app::orders::{CancelRequest, Cancellation, Canceller, Refund, RefundTarget};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::session::BuyerSession;
use crate::state::AppState;

/// What to cancel. `{}` cancels the whole reservation.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CancelReservationBody {
    /// Ticket lines to cancel (`seats[].line` of GET /reservations/{id}); absent or null: the
    /// whole reservation. A line of a ticket with a multiply factor takes its sub tickets with it.
    #[schema(max_items = 200)]
    pub items_to_cancel: Option<Vec<i64>>,
    /// Refund the card's (the provider's) part as voucher credit instead: a new value voucher of
    /// the reservation's customer, issued at once, listed in the customer area and redeemed like a
    /// gift card. The part vouchers paid still goes back to them. A reservation without a
    /// customer (a guest's) answers `refundToCreditUnavailable`.
    #[serde(default)]
    pub refund_to_transaction_credit: bool,
    /// Compute the charge and the refund and write nothing (the dialog's preview).
    #[serde(default)]
    pub dry_run: bool,
}

/// One part of a refund: back to the payment (its provider), to a voucher's balance, or as
/// voucher credit.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RefundDto {
    /// `payment` (the card or the provider paid with), `voucher`, or `credit` (the payment's part
    /// given as a new voucher instead).
    pub to: String,
    pub amount: i64,
    /// `pending` until the provider confirms (retried), then `done`. A voucher's part and credit
    /// are done at once.
    pub status: String,
    /// The credit voucher's reference (`to` = `credit`; absent on a dry run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
}

/// The voucher credit a cancellation gave.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreditDto {
    /// What to type to redeem it (GET /payment/voucher, the cart's voucherPayments); empty on a
    /// dry run.
    pub reference: String,
    /// Its balance (agorot).
    pub amount: i64,
}

/// A cancellation: the lines taken back, the charge kept and the refund owed.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancellationDto {
    /// Empty for a dry run.
    pub id: String,
    pub lines: Vec<i64>,
    /// Nothing of the reservation is left after it.
    pub whole: bool,
    /// What the cancelled items cost (agorot).
    pub value: i64,
    /// The cancellation service charge kept; not refundable.
    pub fee: i64,
    /// `value - fee`, the sum of `refunds`.
    pub refund: i64,
    pub refunds: Vec<RefundDto>,
    /// True while any part of the refund waits for the provider.
    pub refund_pending: bool,
    pub cancelled_at: String,
    pub dry_run: bool,
    /// The voucher credit given (refundToTransactionCredit), or what a dry run would give.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub credit: Option<CreditDto>,
}

impl From<&Refund> for RefundDto {
    fn from(r: &Refund) -> RefundDto {
        RefundDto {
            to: match r.target {
                RefundTarget::Payment { .. } => "payment".into(),
                RefundTarget::Voucher { .. } => "voucher".into(),
                RefundTarget::Credit { .. } => "credit".into(),
            },
            amount: r.amount.minor(),
            status: r.status.as_str().into(),
            reference: match &r.target {
                RefundTarget::Credit { reference, .. } => Some(reference.clone()),
                _ => None,
            },
        }
    }
}

impl From<&Cancellation> for CancellationDto {
    fn from(c: &Cancellation) -> CancellationDto {
        CancellationDto {
            id: if c.dry_run {
                String::new()
            } else {
                c.id.clone()
            },
            lines: c.lines.clone(),
            whole: c.whole,
            value: c.value.minor(),
            fee: c.fee.minor(),
            refund: c.refund.minor(),
            refunds: c
                .refunds
                .iter()
                .map(RefundDto::from)
                .map(|mut r| {
                    // A dry run's reference was drawn, never issued.
                    if c.dry_run {
                        r.reference = None;
                    }
                    r
                })
                .collect(),
            refund_pending: c
                .refunds
                .iter()
                .any(|r| r.status == kupa_app::orders::RefundStatus::Pending),
            cancelled_at: ms_to_rfc3339(c.created_at_ms),
            dry_run: c.dry_run,
            credit: c.credit().map(|(reference, amount)| CreditDto {
                reference: if c.dry_run {
                    String::new()
                } else {
                    reference.to_owned()
                },
                amount: amount.minor(),
            }),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CancelReservationResponse {
    pub cancellation: CancellationDto,
}

/// Cancels the whole reservation or some of its tickets, for its buyer only (the session that made
/// it, or the customer it belongs to, logged in); with `dryRun` it only answers the figures. The
/// seats are on sale again at once; the refund (value less the cancellation service charge) goes
/// back to where it was paid from, or, with `refundToTransactionCredit`, the card's part as a new
/// voucher of the reservation's customer (`credit`).
#[utoipa::path(post, operation_id = "cancelReservation", path = "/reservations/{id}/cancel", tag = "order",
    params(("id" = String, Path, description = "The reservation identifier")),
    request_body = CancelReservationBody,
    responses((status = 200, description = "Cancelled (or, with dryRun, what would be)", body = CancelReservationResponse),
              (status = 404, description = "notFound: no such reservation, or not this buyer's", body = ErrorBody),
              (status = 409, description = "NOTHING_TO_CANCEL, TICKET_CANCELLATIONS_ARE_NO_LONGER_POSSIBLE (closed window, or a ticket admitted at the door), BALANCE_IS_DUE (a payment method not refunded online)", body = ErrorBody),
              (status = 422, description = "refundToCreditUnavailable (a reservation without a customer cannot take credit), formValidation (a line not of this reservation)", body = ErrorBody)))]
async fn cancel_reservation(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Json(body): Json<CancelReservationBody>,
) -> ApiResult<axum::Json<CancelReservationResponse>> {
    let who = Canceller {
        session: session.id(),
        login: session.login(),
    };
    let request = CancelRequest {
        lines: body.items_to_cancel,
        dry_run: body.dry_run,
        credit: None,
    };
    let done = state
        .orders
        .cancel(&id.into(), who, request, body.refund_to_transaction_credit)
        .await?;
    Ok(axum::Json(CancelReservationResponse {
        cancellation: CancellationDto::from(&done),
    }))
}

pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(cancel_reservation))
}
