//! Changing seats of a paid reservation (spec section 3 "Modify": resId, lastTransactionId,
//! tickets with presentationId, sectionId, x, y, newSeat). The path is not shown in the spec:
//! POST /reservations/{resId}/modify (docs/api.md). The new seat is claimed before the old one is
//! released, in one transaction (`OrderService::change_seats`).

use axum::extract::State;
use kupa_app::orders::{SeatChange, SeatChangeRequest};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::PresentationId;
use kupa_domain::seating::SeatAddress;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::session::BuyerSession;
use crate::state::AppState;

/// A presentation of the reservation whose seats the reader may change now.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatChangeWindowDto {
    pub presentation_id: i64,
    /// When seat changes of this presentation close (its start, or its sale's end if earlier).
    pub until: String,
}

/// Whether the reader may change seats (POST /reservations/{id}/modify), and of which
/// presentations: the buyer's session or its logged-in customer, a paid order, reserved seats, on
/// sale and not started, a ticket not yet admitted. A signed link reads but does not change.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatChangeTerms {
    pub changeable: bool,
    pub presentations: Vec<SeatChangeWindowDto>,
}

/// The reservation page's seat-change terms for this reader.
pub(crate) async fn seat_change_terms(
    state: &AppState,
    session: &BuyerSession,
    order: &kupa_app::orders::Order,
) -> ApiResult<SeatChangeTerms> {
    let who = kupa_app::orders::Canceller {
        session: session.id(),
        login: session.login(),
    };
    let windows = state.orders.seat_change_windows(order, who).await?;
    Ok(SeatChangeTerms {
        changeable: !windows.is_empty(),
        presentations: windows
            .iter()
            .map(|w| SeatChangeWindowDto {
                presentation_id: w.presentation_id.get(),
                until: kupa_domain::time::ms_to_rfc3339(w.until_ms),
            })
            .collect(),
    })
}

/// Where a ticket moves to.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewSeat {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
}

/// A ticket of the reservation (by its seat) and its new seat.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModifyTicket {
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub new_seat: NewSeat,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ModifyBody {
    /// The reservation identifier; when sent, the same as the path's.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub res_id: Option<String>,
    /// The reservation's last transaction as read (`lastTransactionId` of GET /reservations/{id}):
    /// a change made from an older read is refused with `reservationChanged`.
    #[schema(max_length = 64)]
    pub last_transaction_id: String,
    #[schema(min_items = 1, max_items = 100)]
    pub tickets: Vec<ModifyTicket>,
}

/// A moved ticket: its seat now and its new e-document key (the old one no longer admits).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModifiedTicket {
    pub line: i64,
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub section: String,
    pub row: String,
    pub seat: String,
    pub document_key: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ModifyResponse {
    pub reservation_identifier: String,
    /// Every ticket of the reservation after the change, line order.
    pub tickets: Vec<ModifiedTicket>,
}

/// Moves tickets of a paid reservation to other seats of the same presentation, all or none, for
/// its buyer (the session that made it or its logged-in customer). A new seat must be free or held
/// by the asking session, of the same tickets and price level; the price is unchanged. The new
/// seat is claimed before the old one is released: a taken seat leaves the reservation as it was.
#[utoipa::path(post, operation_id = "modifyReservation", path = "/reservations/{id}/modify", tag = "order",
    params(("id" = String, Path, description = "The reservation identifier (resId)")),
    request_body = ModifyBody,
    responses((status = 200, description = "The seats changed", body = ModifyResponse),
              (status = 404, description = "notFound: no such paid reservation, or not this buyer's", body = ErrorBody),
              (status = 409, description = "lock_seat_error (the new seat is sold or held by another buyer; nothing changed), reservationChanged (lastTransactionId is not the reservation's last, or a ticket changed meanwhile), ticketing_ended (the presentation started or its sale ended: `params.reason` `started`; a ticket already admitted: `admitted`)", body = ErrorBody),
              (status = 422, description = "formValidation (a ticket not of this reservation, a seat of other tickets, general admission), mixedPriceLevels (another price level), singleSeatGap (a new seat would leave a single empty seat beside it), sofaSplit (a sofa would be split), a seat-kind rule", body = ErrorBody)))]
async fn modify_reservation(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Json(body): Json<ModifyBody>,
) -> ApiResult<axum::Json<ModifyResponse>> {
    if body.res_id.as_deref().is_some_and(|r| r != id) {
        return Err(AppError::rejected(
            ErrorCode::FormValidation,
            "resId is not the reservation of the path",
        )
        .into());
    }
    let changes: Vec<SeatChange> = body
        .tickets
        .iter()
        .map(|t| SeatChange {
            presentation_id: PresentationId(t.presentation_id),
            from: SeatAddress::new(t.section_id, t.x, t.y),
            to: SeatAddress::new(t.new_seat.section_id, t.new_seat.x, t.new_seat.y),
        })
        .collect();
    let order = state
        .orders
        .change_seats(
            SeatChangeRequest {
                reservation_id: &id.into(),
                last_transaction_id: &body.last_transaction_id,
                session: session.id(),
                login: session.login(),
            },
            &changes,
        )
        .await?;
    Ok(axum::Json(ModifyResponse {
        reservation_identifier: order.id.to_string(),
        tickets: order
            .tickets
            .iter()
            .map(|t| ModifiedTicket {
                line: t.line,
                presentation_id: t.presentation_id.get(),
                section_id: t.section_id,
                x: t.x,
                y: t.y,
                section: t.section_name.clone(),
                row: t.row_name.clone(),
                seat: t.seat_name.clone(),
                document_key: t.document_key.clone(),
            })
            .collect(),
    }))
}

pub fn router() -> utoipa_axum::router::OpenApiRouter<AppState> {
    utoipa_axum::router::OpenApiRouter::new().routes(utoipa_axum::routes!(modify_reservation))
}
