//! The door's HTTP (decision 0044; Kupa's own calls, the spec names none): the presentations an
//! usher may guard today, and the scan of a ticket shown at the door. Ushers and managers only.
//! Every ticket answer is a 200 with its `result` (it is what the usher must see, not a fault
//! of the call); errors are the call's own: no login, a role that may not, a presentation not of
//! the user's businesses, too many scans.

use kupa_domain::ids::PresentationId;
use std::time::Instant;

use axum::extract::State;
use kupa_app::staff::door::{DoorPresentation, NumberedTicket, Scan, Verdict};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Json;
use crate::rate_limit::Class;
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(presentations))
        .routes(routes!(scan))
}

/// A presentation as the door shows it: when its doors open and when it ends.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoorPresentationDto {
    pub id: i64,
    pub business_id: i64,
    /// When the screening starts.
    pub date_time: String,
    /// From when its tickets are valid (the entrance time printed on the ticket).
    pub entrance_time: String,
    /// Until when: the screening's end (start + the feature's runtime).
    pub end_time: String,
    pub feature_name: String,
    pub feature_name_en: String,
    pub location_name: String,
    pub location_name_en: String,
    pub venue_name: String,
    pub venue_name_en: String,
}

impl DoorPresentationDto {
    fn of(p: &DoorPresentation) -> DoorPresentationDto {
        DoorPresentationDto {
            id: p.id.get(),
            business_id: p.business_id,
            date_time: ms_to_rfc3339(p.starts_at_ms),
            entrance_time: ms_to_rfc3339(p.entrance_at_ms()),
            end_time: ms_to_rfc3339(p.ends_at_ms()),
            feature_name: p.feature_name.clone(),
            feature_name_en: p.feature_name_en.clone(),
            location_name: p.location_name.clone(),
            location_name_en: p.location_name_en.clone(),
            venue_name: p.venue_name.clone(),
            venue_name_en: p.venue_name_en.clone(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoorPresentationsResponse {
    pub presentations: Vec<DoorPresentationDto>,
    pub server_time: String,
}

/// The presentations of the user's businesses in today's business day (05:00 to 05:00
/// Jerusalem: after midnight, yesterday evening's late screenings), to choose the one guarded.
#[utoipa::path(get, operation_id = "doorPresentations", path = "/staff/door/presentations", tag = "staff",
    responses((status = 200, description = "Today's presentations", body = DoorPresentationsResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: the role (ushers and managers)", body = ErrorBody)))]
async fn presentations(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<DoorPresentationsResponse>> {
    let list = state.door.presentations(&caller).await?;
    Ok(axum::Json(DoorPresentationsResponse {
        presentations: list.iter().map(DoorPresentationDto::of).collect(),
        server_time: ms_to_rfc3339(state.clock.now_ms()),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoorScanBody {
    /// The presentation the usher guards.
    pub presentation_id: i64,
    /// What the QR code read (the e-document's link) or the typed ticket number
    /// (`RRRR-RRRR-n`: the reservation number and the ticket's "n of N").
    #[schema(max_length = 300)]
    pub code: String,
}

/// The door's answer.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, ToSchema, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum DoorResult {
    /// Admitted: this scan marked the ticket.
    Valid,
    /// Scanned before (`scannedAt` says when).
    AlreadyScanned,
    Cancelled,
    /// For another presentation (`ticket.presentation` names it).
    WrongPresentation,
    /// Before its entrance time (`entranceTime`).
    TooEarly,
    /// After the screening's end (`endTime`).
    TooLate,
    /// The order is not paid.
    NotPaid,
    NotFound,
}

/// A ticket as the door shows it: the seat and the ticket, never the buyer.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoorTicketDto {
    /// `RRRR-RRRR-n`, as typed at the door.
    pub ticket_number: String,
    pub reservation_number: String,
    /// The ticket's "n of count" in its reservation.
    pub number: i64,
    pub count: i64,
    pub section: String,
    pub section_en: String,
    /// Empty for general admission.
    pub row: String,
    pub seat: String,
    pub ticket_type: String,
    pub ticket_type_en: String,
    pub scanned_at: Option<String>,
    pub presentation: DoorPresentationDto,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DoorScanResponse {
    pub result: DoorResult,
    /// Absent when not found.
    pub ticket: Option<DoorTicketDto>,
    /// alreadyScanned: when it was scanned.
    pub scanned_at: Option<String>,
    /// tooEarly: when the doors open.
    pub entrance_time: Option<String>,
    /// tooLate: when the screening ended.
    pub end_time: Option<String>,
    pub server_time: String,
}

fn ticket_dto(n: &NumberedTicket) -> DoorTicketDto {
    let t = &n.ticket;
    DoorTicketDto {
        ticket_number: n.ticket_number(),
        reservation_number: t.reservation_number.clone(),
        number: n.number as i64,
        count: n.count as i64,
        section: t.section_name.clone(),
        section_en: t.section_name_en.clone(),
        row: t.row_name.clone(),
        seat: t.seat_name.clone(),
        ticket_type: t.ticket_name.clone(),
        ticket_type_en: t.ticket_name_en.clone(),
        scanned_at: t.scanned_at_ms.map(ms_to_rfc3339),
        presentation: DoorPresentationDto::of(&t.presentation),
    }
}

fn response(scan: &Scan, now_ms: i64) -> DoorScanResponse {
    let (result, scanned_at, entrance_time, end_time) = match scan.verdict {
        Verdict::Valid => (DoorResult::Valid, None, None, None),
        Verdict::AlreadyScanned { at_ms } => (
            DoorResult::AlreadyScanned,
            Some(ms_to_rfc3339(at_ms)),
            None,
            None,
        ),
        Verdict::Cancelled => (DoorResult::Cancelled, None, None, None),
        Verdict::WrongPresentation => (DoorResult::WrongPresentation, None, None, None),
        Verdict::TooEarly { entrance_at_ms } => (
            DoorResult::TooEarly,
            None,
            Some(ms_to_rfc3339(entrance_at_ms)),
            None,
        ),
        Verdict::TooLate { ended_at_ms } => (
            DoorResult::TooLate,
            None,
            None,
            Some(ms_to_rfc3339(ended_at_ms)),
        ),
        Verdict::NotPaid => (DoorResult::NotPaid, None, None, None),
        Verdict::NotFound => (DoorResult::NotFound, None, None, None),
    };
    DoorScanResponse {
        result,
        ticket: scan.ticket.as_ref().map(ticket_dto),
        scanned_at,
        entrance_time,
        end_time,
        server_time: ms_to_rfc3339(now_ms),
    }
}

/// Checks a ticket at the door of the presentation guarded and, when it may enter, marks it
/// scanned, exactly once however many doors scan it at the same moment. A ticket of another
/// business is `notFound`. Limited per staff user and per address (`door.session`,
/// `door.address` of KUPA_RATE_LIMITS): 429 tooManyRequests with Retry-After.
#[utoipa::path(post, operation_id = "doorScan", path = "/staff/door/scan", tag = "staff",
    request_body = DoorScanBody,
    responses((status = 200, description = "The door's answer", body = DoorScanResponse),
              (status = 401, description = "loginError: no staff login", body = ErrorBody),
              (status = 403, description = "forbidden: the role (ushers and managers), or from another site's page", body = ErrorBody),
              (status = 404, description = "notFound: no such presentation of the user's businesses", body = ErrorBody),
              (status = 429, description = "tooManyRequests (Retry-After)", body = ErrorBody)))]
async fn scan(
    State(state): State<AppState>,
    session: BuyerSession,
    Staff(caller): Staff,
    Json(body): Json<DoorScanBody>,
) -> ApiResult<axum::Json<DoorScanResponse>> {
    // Keyed by the staff user, not the browser: an usher's phone may drop its buyer session.
    let user_key = format!("staff:{}", caller.user.id);
    if let Err(wait) =
        state
            .rate_limiter
            .check(Class::Door, &user_key, session.address(), Instant::now())
    {
        tracing::warn!(user_id = caller.user.id, "door: scan limit reached");
        let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
        return Err(ApiError::retry_later(
            kupa_app::ErrorCode::TooManyRequests,
            format!("too many scans; try again in {seconds} s"),
            seconds,
        ));
    }
    if body.code.len() > 300 {
        return Err(ApiError::validation("code: at most 300 characters"));
    }
    let done = state
        .door
        .scan(&caller, PresentationId(body.presentation_id), &body.code)
        .await?;
    Ok(axum::Json(response(&done, state.clock.now_ms())))
}
