//! Tickets out: the reservation read back for the confirmation screen, its PDF tickets and
//! calendar file, and the e-document a ticket's QR leads to. The reservation and its files are
//! its buyer's: the session that made it, or anyone with a signed link (`?exp=…&sig=…`, decision
//! 0018); the use case decides. Absolute links come from the configured public address, never
//! from the request's `Host`.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use kupa_app::catalogue::PresentationInfo;
use kupa_app::links::{self, LinkProof};
use kupa_app::orders::{Order, ReservationReader};
use kupa_app::tickets_out::{self, ENTRANCE_BEFORE_MS};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_reservation))
        .routes(routes!(tickets_pdf))
        .routes(routes!(calendar))
        .routes(routes!(edocument))
        .routes(routes!(send_tickets))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReservedSeat {
    /// The ticket's line in the order: what POST /reservations/{id}/cancel names in `itemsToCancel`.
    pub line: i64,
    /// A sub ticket of the line before it (a ticket with a multiply factor): cancelled with it.
    pub is_sub_ticket: bool,
    /// The presentation of this ticket (one of `presentations`).
    pub presentation_id: i64,
    /// The seat's address: what POST /reservations/{id}/modify names.
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    /// When the ticket was cancelled; its e-document then shows "cancelled".
    pub cancelled_at: Option<String>,
    pub section: String,
    pub section_en: String,
    pub row: String,
    pub seat: String,
    pub ticket_type: String,
    pub ticket_type_en: String,
    pub price: i64,
    pub service_charge: i64,
    /// The e-document key (its QR code leads to /edocument/{documentKey}).
    pub document_key: String,
    /// The ticket's e-document page on the site, `/edocument/{documentKey}`: what the door scans.
    pub edocument_url: String,
    /// The ticket's QR code (leading to its e-document) as SVG, when the site shows it (param 670).
    pub qr_svg: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReservedProduct {
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub amount: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Reservation {
    #[serde(rename = "ReservationIdentifier")]
    pub reservation_identifier: String,
    pub reservation_number: String,
    /// The reservation's first presentation: the event its page headlines.
    pub presentation: dto::Presentation,
    /// Every presentation of the reservation, in the order bought (the first is `presentation`).
    pub presentations: Vec<dto::Presentation>,
    /// The reservation's last transaction (its payment): what a seat change
    /// (POST /reservations/{id}/modify) repeats as `lastTransactionId`.
    pub last_transaction_id: Option<String>,
    pub seats: Vec<ReservedSeat>,
    pub products: Vec<ReservedProduct>,
    pub service_charge_name: String,
    pub service_charge: i64,
    pub total: i64,
    /// The lines every screen shows, adding up to `total`.
    pub price_breakdown: dto::PriceBreakdown,
    pub currency: String,
    pub event_date_time: String,
    pub entrance_time: String,
    pub paid_at: Option<String>,
    pub customer_first_name: String,
    pub customer_email: String,
    /// The order terms, those of video on demand for a film watched at home.
    pub order_terms: String,
    pub order_terms_en: String,
    /// A film watched at home (the first presentation is video on demand): when and how often it
    /// may be watched; null for a screening.
    pub vod: Option<crate::vod::VodItem>,
    /// The tickets (PDF) as a signed link, good without the buyer's session until the end of
    /// the day after the event; add `&lang=he|en`.
    pub pdf_url: String,
    /// The calendar file, as a signed link like `pdfUrl`.
    pub calendar_url: String,
    /// The confirmation page on the site, `/reservation/{id}?exp=…&sig=…`, signed like `pdfUrl`:
    /// the address to share, that opens the tickets on any device.
    pub confirmation_url: String,
    /// `paid`, or `cancelled` once every ticket was cancelled.
    pub status: String,
    /// Where it was sold: `web`, `miniSite` (then `referralMiniSiteId` is the mini-site's id) or
    /// `partnerApi`.
    pub channel: String,
    pub referral_mini_site_id: Option<i64>,
    /// What has been cancelled, oldest first, with each refund and whether it is still pending.
    pub cancellations: Vec<crate::reservation_cancel::CancellationDto>,
    /// The sum of every refund so far (agorot).
    pub refunded_total: i64,
    /// Loyalty points the reservation's live tickets were paid with (decision 0036).
    pub loyalty_points_spent: i64,
    /// Loyalty points the reservation earned its member and still holds (0 before it is paid).
    pub loyalty_points_earned: i64,
    /// Agorot the reservation's live pass tickets took from the series pass (decision 0039).
    pub member_balance_spent: i64,
    /// The membership season this order enrolled its member in (decision 0040); null otherwise.
    pub enrollment: Option<crate::enroll::EnrollmentDto>,
    /// Whether and until when this reader may cancel, and the charge kept.
    pub cancellation_terms: CancellationTerms,
    /// Whether this reader may change seats now, and of which presentations.
    pub seat_change: crate::reservation_modify::SeatChangeTerms,
}

/// What the cancel dialog says before anything is chosen.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancellationTerms {
    /// The reader may cancel (the buyer's session or its logged-in customer), the window is open
    /// and a ticket is left. A signed link reads but does not cancel.
    pub cancellable: bool,
    /// When cancellations of this event close.
    pub until: String,
    /// `none`, `fixed` (agorot) or `percent` (basis points, 1 % = 100).
    pub fee_kind: String,
    pub fee_amount: i64,
    /// `perTicket` or `perOrder`.
    pub fee_scope: String,
    /// The reader may cancel and may ask for the refund as voucher credit
    /// (`refundToTransactionCredit`): the reservation has a customer (made logged in) and the
    /// chain sells value vouchers (decision 0034).
    pub credit_offered: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ReservationResponse {
    pub reservation: Reservation,
}

async fn cancellation_terms(
    state: &AppState,
    session: &BuyerSession,
    order: &Order,
    info: &PresentationInfo,
) -> ApiResult<CancellationTerms> {
    use kupa_app::orders::{FeeAmount, FeeScope};
    let until = state.orders.cancellable_until(info);
    let who = kupa_app::orders::Canceller {
        session: session.id(),
        login: session.login(),
    };
    let cancellable = state.orders.now_ms() < until
        && order.tickets.iter().any(|t| t.cancelled_at_ms.is_none())
        && state.orders.may_cancel_order(order, who).await?;
    let credit_offered = cancellable && state.orders.credit_offered(order).await?;
    let fee = state.orders.cancellation_policy().fee;
    let (fee_kind, fee_amount) = match fee.map(|f| f.amount) {
        None => ("none", 0),
        Some(FeeAmount::Fixed(a)) => ("fixed", a.minor()),
        Some(FeeAmount::PercentBp(bp)) => ("percent", bp),
    };
    Ok(CancellationTerms {
        cancellable,
        until: ms_to_rfc3339(until),
        fee_kind: fee_kind.into(),
        fee_amount,
        fee_scope: match fee.map(|f| f.scope) {
            Some(FeeScope::PerOrder) => "perOrder".into(),
            _ => "perTicket".into(),
        },
        credit_offered,
    })
}

/// A signed link's proof, as the link carries it in its query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    /// A signed link's expiry, Unix seconds (with `sig`).
    pub exp: Option<i64>,
    /// A signed link's signature, hex (with `exp`).
    pub sig: Option<String>,
}

impl LinkQuery {
    fn proof(&self) -> Option<LinkProof> {
        Some(LinkProof {
            exp: self.exp?,
            sig: self.sig.clone()?,
        })
    }
}

/// The reservation, if this request may read it: its buyer's session or a good signed link.
async fn reservation_of(
    state: &AppState,
    session: &BuyerSession,
    id: &str,
    link: &LinkQuery,
) -> ApiResult<(Order, PresentationInfo)> {
    let proof = link.proof();
    let reader = ReservationReader {
        session: session.id(),
        login: session.login(),
        link: proof.as_ref(),
    };
    Ok(state.orders.reservation(&id.into(), reader).await?)
}

/// The errors of a reservation and its documents: no such reservation (or not this reader's), or an
/// id or language too long.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum DocumentErrors {
    #[response(
        status = 404,
        description = "notFound: no such reservation, or not this reader's"
    )]
    NotFound(ErrorBody),
    #[response(
        status = 422,
        description = "formValidation: an id or language longer than the document allows"
    )]
    TooLong(ErrorBody),
}

/// A paid reservation, for the confirmation screen: for the session that made it, its logged-in
/// customer, or a signed link.
#[utoipa::path(get, operation_id = "getReservation", path = "/reservations/{id}", tag = "order",
    params(("id" = String, Path, description = "The reservation identifier"), LinkQuery),
    responses((status = 200, description = "The reservation", body = ReservationResponse),
              DocumentErrors))]
async fn get_reservation(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Query(link): Query<LinkQuery>,
) -> ApiResult<axum::Json<ReservationResponse>> {
    let (order, info) = reservation_of(&state, &session, &id, &link).await?;
    let config = state.catalogue.site_config().await?;
    let starts = info.view.presentation.starts_at_ms;
    let cancellations = state.orders.cancellations(&order.id).await?;
    let terms = cancellation_terms(&state, &session, &order, &info).await?;
    let seat_change =
        crate::reservation_modify::seat_change_terms(&state, &session, &order).await?;
    let show_qr = config.param_on("670");
    let infos = state.orders.presentations_of(&order).await?;
    let presentations = infos.iter().map(dto::Presentation::from_info).collect();
    // Signed links last until the day after the order's last screening.
    let last = tickets_out::latest(&infos).unwrap_or(&info);
    let vod = if info.is_vod {
        state
            .vod
            .item_of(order.clone())
            .await?
            .as_ref()
            .map(crate::vod::VodItem::from_item)
    } else {
        None
    };
    Ok(axum::Json(ReservationResponse {
        reservation: Reservation {
            reservation_identifier: order.id.to_string(),
            reservation_number: order.reservation_number.clone(),
            presentation: dto::Presentation::from_info(&info),
            presentations,
            last_transaction_id: order.payment_id.clone(),
            seats: order
                .tickets
                .iter()
                .map(|t| ReservedSeat {
                    line: t.line,
                    is_sub_ticket: t.is_sub_ticket,
                    presentation_id: t.presentation_id.get(),
                    section_id: t.section_id,
                    x: t.x,
                    y: t.y,
                    cancelled_at: t.cancelled_at_ms.map(ms_to_rfc3339),
                    section: t.section_name.clone(),
                    section_en: t.section_name_en.clone(),
                    row: t.row_name.clone(),
                    seat: t.seat_name.clone(),
                    ticket_type: t.ticket_name.clone(),
                    ticket_type_en: t.ticket_name_en.clone(),
                    price: t.price.minor(),
                    service_charge: t.service_charge.minor(),
                    document_key: t.document_key.clone(),
                    edocument_url: tickets_out::edocument_path(t),
                    qr_svg: show_qr.then(|| {
                        kupa_documents::qr_svg(&format!(
                            "{}{}",
                            state.orders.public_url(),
                            tickets_out::edocument_path(t)
                        ))
                    }),
                })
                .collect(),
            products: order
                .products
                .iter()
                .map(|p| ReservedProduct {
                    name: p.name.clone(),
                    name_en: p.name_en.clone(),
                    quantity: p.quantity,
                    amount: (p.unit_price * p.quantity).minor(),
                })
                .collect(),
            service_charge_name: order.service_charge_name.clone(),
            service_charge: order.service_charge_total.minor(),
            total: order.total.minor(),
            price_breakdown: order.price_breakdown().into(),
            currency: order.currency.clone(),
            event_date_time: ms_to_rfc3339(starts),
            entrance_time: ms_to_rfc3339(starts - ENTRANCE_BEFORE_MS),
            paid_at: order.paid_at_ms.map(ms_to_rfc3339),
            customer_first_name: order.customer.first_name.clone(),
            customer_email: order.customer.email.clone(),
            order_terms: config.confirmation.terms("he", info.is_vod).to_owned(),
            order_terms_en: config.confirmation.terms("en", info.is_vod).to_owned(),
            vod,
            pdf_url: state.orders.signed_path(
                &links::tickets_pdf_path(order.id.as_str()),
                &order,
                last,
            ),
            calendar_url: state.orders.signed_path(
                &links::calendar_path(order.id.as_str()),
                &order,
                last,
            ),
            confirmation_url: state.orders.signed_path(
                &links::confirmation_path(order.id.as_str()),
                &order,
                last,
            ),
            status: order.status.as_str().into(),
            channel: order.channel.as_str().into(),
            referral_mini_site_id: order.referral_mini_site_id,
            refunded_total: cancellations
                .iter()
                .map(|c| c.refund)
                .sum::<kupa_domain::money::Money>()
                .minor(),
            loyalty_points_spent: kupa_app::orders::points_spent(&order.tickets)
                .iter()
                .map(|(_, p)| p)
                .sum(),
            member_balance_spent: kupa_app::orders::spent_from(
                kupa_app::orders::Purse::PassBalance,
                &order.tickets,
            )
            .iter()
            .map(|(_, b)| b)
            .sum(),
            enrollment: order
                .enrollment
                .as_ref()
                .map(crate::enroll::EnrollmentDto::of),
            loyalty_points_earned: if order.paid_at_ms.is_some() {
                order.points_earned
            } else {
                0
            },
            cancellations: cancellations
                .iter()
                .map(crate::reservation_cancel::CancellationDto::from)
                .collect(),
            cancellation_terms: terms,
            seat_change,
        },
    }))
}

/// A ticket document's language and, for a signed link, its proof.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct DocumentQuery {
    /// he (default: the order's language) or en.
    #[param(max_length = 5)]
    pub lang: Option<String>,
    /// A signed link's expiry, Unix seconds (with `sig`).
    pub exp: Option<i64>,
    /// A signed link's signature, hex (with `exp`).
    pub sig: Option<String>,
}

impl DocumentQuery {
    fn link(&self) -> LinkQuery {
        LinkQuery {
            exp: self.exp,
            sig: self.sig.clone(),
        }
    }
}

fn doc_lang(q: &DocumentQuery, order: &Order) -> String {
    // Ticket documents come in Hebrew or English; other interface languages read the English.
    match q.lang.as_deref().unwrap_or(&order.locale) {
        "he" => "he".into(),
        _ => "en".into(),
    }
}

/// The tickets as a PDF, one page per ticket, each with its QR code: for the reservation's buyer
/// or a signed link.
#[utoipa::path(get, operation_id = "ticketsPdf", path = "/reservations/{id}/tickets.pdf", tag = "order",
    params(("id" = String, Path, description = "The reservation identifier"), DocumentQuery),
    responses((status = 200, description = "The tickets", content_type = "application/pdf", body = Vec<u8>),
              DocumentErrors))]
async fn tickets_pdf(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Query(q): Query<DocumentQuery>,
) -> ApiResult<Response> {
    let (order, info) = reservation_of(&state, &session, &id, &q.link()).await?;
    let config = state.catalogue.site_config().await?;
    let lang = doc_lang(&q, &order);
    let terms = config.confirmation.terms(&lang, info.is_vod);
    // Each ticket with its own presentation (an order may hold several; the first is `info`).
    let infos = state.orders.presentations_of(&order).await?;
    debug_assert_eq!(
        infos.first().map(|i| i.view.presentation.id),
        Some(info.view.presentation.id)
    );
    let doc =
        tickets_out::tickets_document(&order, &infos, &lang, state.orders.public_url(), terms);
    let pdf = kupa_documents::render_tickets_pdf(&doc).map_err(AppError::internal)?;
    Ok((
        [
            (CONTENT_TYPE, "application/pdf".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!(
                    "inline; filename=\"tickets-{}.pdf\"",
                    order.reservation_number
                ),
            ),
            (CACHE_CONTROL, "private, no-store".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

/// The order's screenings as calendar entries (iCalendar, one event each), for "add to calendar":
/// for the reservation's buyer or a signed link. Its `URL:` is the signed link to the confirmation page (the tickets
/// with their QR codes); it carries no bare reservation id.
#[utoipa::path(get, operation_id = "calendar", path = "/reservations/{id}/calendar.ics", tag = "order",
    params(("id" = String, Path, description = "The reservation identifier"), DocumentQuery),
    responses((status = 200, description = "The calendar file", content_type = "text/calendar", body = String),
              DocumentErrors))]
async fn calendar(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Query(q): Query<DocumentQuery>,
) -> ApiResult<Response> {
    let (order, info) = reservation_of(&state, &session, &id, &q.link()).await?;
    let lang = doc_lang(&q, &order);
    let infos = state.orders.presentations_of(&order).await?;
    let last = tickets_out::latest(&infos).unwrap_or(&info);
    let events = tickets_out::calendar_events(
        &order,
        &infos,
        &lang,
        &state.orders.signed_confirmation_url(&order, last, &lang),
        state.orders.now_ms(),
    );
    Ok((
        [
            (CONTENT_TYPE, "text/calendar; charset=utf-8".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!(
                    "attachment; filename=\"kupa-{}.ics\"",
                    order.reservation_number
                ),
            ),
        ],
        kupa_documents::render_calendar(&events),
    )
        .into_response())
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EDocument {
    /// valid, scanned or cancelled (an unknown key is a 404).
    pub state: String,
    pub reservation_number: String,
    pub presentation: dto::Presentation,
    pub section: String,
    /// The section's English name (empty when the catalogue has none).
    pub section_en: String,
    pub row: String,
    pub seat: String,
    pub ticket_type: String,
    pub ticket_type_en: String,
    pub entrance_time: String,
    pub scanned_at: Option<String>,
    /// The ticket's QR code as SVG, when the site shows it (param 670).
    pub qr_svg: Option<String>,
}

/// A ticket's e-document: its state and entrance time, and its QR code when the site shows it.
/// Opened by the ticket's own key, which its QR carries to the door: it shows the ticket, not its
/// buyer (no name, mail or phone), so it needs no session or signed link.
#[utoipa::path(get, operation_id = "edocument", path = "/edocument/{documentKey}", tag = "order",
    params(("documentKey" = String, Path, description = "The ticket's e-document key")),
    responses((status = 200, description = "The e-document", body = EDocument),
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn edocument(
    State(state): State<AppState>,
    Path(key): Path<String>,
) -> ApiResult<axum::Json<EDocument>> {
    let not_found = || AppError::rejected(ErrorCode::NotFound, "no such ticket");
    let (order, info) = state
        .orders
        .by_document_key(&key)
        .await?
        .ok_or_else(not_found)?;
    let t = order
        .tickets
        .iter()
        .find(|t| t.document_key == key)
        .ok_or_else(not_found)?;
    let config = state.catalogue.site_config().await?;
    let ticket_state = if t.cancelled_at_ms.is_some() {
        "cancelled"
    } else if t.scanned_at_ms.is_some() {
        "scanned"
    } else {
        "valid"
    };
    Ok(axum::Json(EDocument {
        state: ticket_state.into(),
        reservation_number: order.reservation_number.clone(),
        presentation: dto::Presentation::from_info(&info),
        section: t.section_name.clone(),
        section_en: t.section_name_en.clone(),
        row: t.row_name.clone(),
        seat: t.seat_name.clone(),
        ticket_type: t.ticket_name.clone(),
        ticket_type_en: t.ticket_name_en.clone(),
        entrance_time: ms_to_rfc3339(info.view.presentation.starts_at_ms - ENTRANCE_BEFORE_MS),
        scanned_at: t.scanned_at_ms.map(ms_to_rfc3339),
        qr_svg: config.param_on("670").then(|| {
            kupa_documents::qr_svg(&format!(
                "{}{}",
                state.orders.public_url(),
                tickets_out::edocument_path(t)
            ))
        }),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendTicketsBody {
    #[schema(max_length = 20, pattern = r"^(05[0-9]{8}|\+9725[0-9]{8})$")]
    pub mobile_number: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SendTicketsResponse {
    pub success: bool,
}

/// Sends the links to the reservation's tickets by text message: for the session that made it or
/// its logged-in customer only (not for a signed link); limited with the other text messages
/// (429 tooManyRequests).
#[utoipa::path(post, operation_id = "sendTickets", path = "/reservations/{resId}/sendTickets", tag = "order",
    params(("resId" = String, Path, description = "The reservation identifier")), request_body = SendTicketsBody,
    responses((status = 200, description = "Sent", body = SendTicketsResponse),
              (status = 404, description = "notFound (not your reservation)", body = ErrorBody),
              (status = 409, description = "SMS_FAILED", body = ErrorBody),
              (status = 422, description = "invalid_mobileNumber, formValidation", body = ErrorBody),
              (status = 429, description = "tooManyRequests: text messages are limited per session and per address", body = ErrorBody)))]
async fn send_tickets(
    State(state): State<AppState>,
    session: crate::session::BuyerSession,
    Path(id): Path<String>,
    crate::extract::Json(body): crate::extract::Json<SendTicketsBody>,
) -> ApiResult<axum::Json<SendTicketsResponse>> {
    state
        .orders
        .send_tickets(
            session.id(),
            session.login(),
            &id.into(),
            &body.mobile_number,
        )
        .await?;
    Ok(axum::Json(SendTicketsResponse { success: true }))
}
