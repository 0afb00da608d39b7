//! Enrolment in a membership season (spec sections 3 "Enroll membership" and 7; issue 15,
//! decision 0040): `GET /enroll/{membershipId}` (Kupa's own: the season open for enrolment and the
//! customer's members), `GET /enroll/{membershipId}/seatplan`, `PUT /enroll/{membershipId}/lock-seat`
//! and `PUT /enroll/{membershipId}/unlock-seat`. The enrolment is then bought as a ticket order
//! (`POST /cart` with `enrollment`).

use kupa_domain::ids::PresentationId;
use std::collections::BTreeMap;

use axum::extract::{Path, State};
use kupa_app::memberships::{EnrollSeat, EnrollingMember, OpenSeason, Selection};
use kupa_domain::seating::Confirmations;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::{self, SeatplanV2};
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(enroll_season))
        .routes(routes!(enroll_seatplan))
        .routes(routes!(enroll_lock_seat))
        .routes(routes!(enroll_unlock_seat))
}

// ---- The season

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct SeasonQuery {
    /// Check this member: the customer's, of this membership, valid and not enrolled yet.
    #[param(max_length = 20)]
    pub member_number: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeasonTicket {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// The ticket's own price (agorot); the season's price is in PresentationDetail.
    pub price: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeasonTicketGroup {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub tickets: Vec<SeasonTicket>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct SeasonPresentationDto {
    pub PresentationId: i64,
    pub IsRequired: bool,
    /// Agorot of each ticket the series balance pays when the season is not priced per ticket.
    pub MembershipPayableAmount: i64,
    #[serde(rename = "featureId")]
    pub feature_id: i64,
    #[serde(rename = "featureName")]
    pub feature_name: String,
    #[serde(rename = "featureNameEn")]
    pub feature_name_en: String,
    /// UTC.
    #[serde(rename = "dateTime")]
    pub date_time: String,
    #[serde(rename = "locationName")]
    pub location_name: String,
    #[serde(rename = "locationNameEn")]
    pub location_name_en: String,
    #[serde(rename = "venueId")]
    pub venue_id: i64,
    #[serde(rename = "venueName")]
    pub venue_name: String,
    #[serde(rename = "venueNameEn")]
    pub venue_name_en: String,
    #[serde(rename = "seatplanId")]
    pub seatplan_id: i64,
}

/// A ticket's price in a presentation of the season.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct SeasonPriceDto {
    pub IsPriceOverride: bool,
    /// The price in force (agorot): the season's override, or the ticket's own.
    pub Price: i64,
    /// Agorot of it the member's series balance pays; the rest is money.
    pub MembershipPayableAmount: i64,
}

/// The spec's "Enroll membership".
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct EnrollMembershipDto {
    pub SeasonId: i64,
    pub MembershipId: i64,
    pub Name: String,
    pub NameEn: String,
    pub Description: String,
    pub DescriptionEn: String,
    pub IsSkipMemberSeat: bool,
    pub IsPricingPerTicket: bool,
    pub DefaultTicketGroupId: i64,
    pub TicketGroups: Vec<SeasonTicketGroup>,
    pub Presentations: Vec<SeasonPresentationDto>,
    /// Keyed by presentation id, then ticket group id, then ticket id.
    pub PresentationDetail: BTreeMap<String, BTreeMap<String, BTreeMap<String, SeasonPriceDto>>>,
    #[serde(rename = "venueId")]
    pub venue_id: i64,
    #[serde(rename = "seatplanId")]
    pub seatplan_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollingMemberDto {
    pub member_number: String,
    pub name: String,
    pub name_en: String,
    pub balance: i64,
    pub start_date: String,
    pub end_date: String,
    /// Valid today.
    pub is_available: bool,
    /// Enrolled in this season already (a paid enrolment).
    pub enrolled: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollSeasonResponse {
    pub enroll_membership: EnrollMembershipDto,
    pub members: Vec<EnrollingMemberDto>,
}

/// The membership's season open for enrolment, and the customer's members of it.
#[utoipa::path(get, operation_id = "enrollSeason", path = "/enroll/{membershipId}", tag = "memberships",
    params(("membershipId" = i64, Path, description = "The membership"), SeasonQuery),
    responses((status = 200, description = "The season and the customer's members", body = EnrollSeasonResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 404, description = "notFound (no season open for enrolment), CUSTOMER_NOT_FOUND", body = ErrorBody),
              (status = 409, description = "ALREADY_ENROLLED, CUSTOMER_NO_MOBILE, memberExpired, memberNotStarted", body = ErrorBody)))]
async fn enroll_season(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(membership_id): Path<i64>,
    Query(q): Query<SeasonQuery>,
) -> ApiResult<axum::Json<EnrollSeasonResponse>> {
    let (open, members) = state
        .enroll
        .season(session.login(), membership_id, q.member_number.as_deref())
        .await?;
    Ok(axum::Json(EnrollSeasonResponse {
        enroll_membership: season_dto(&open, &open.ticket_groups),
        members: members.iter().map(member_dto).collect(),
    }))
}

fn season_dto(
    open: &OpenSeason,
    groups: &[(kupa_app::model::TicketGroup, Vec<kupa_app::model::Ticket>)],
) -> EnrollMembershipDto {
    let s = &open.season;
    let mut detail: BTreeMap<String, BTreeMap<String, BTreeMap<String, SeasonPriceDto>>> =
        BTreeMap::new();
    for p in &open.presentations {
        let pid = p.view.presentation.id;
        for (g, tickets) in groups {
            for t in tickets {
                let price = s.price_of(pid, g.id, t.id, t.price);
                let is_override = s.presentation_detail.iter().any(|d| {
                    d.presentation_id == pid
                        && d.ticket_group_id == g.id
                        && d.ticket_id == t.id
                        && d.is_price_override
                });
                detail
                    .entry(pid.to_string())
                    .or_default()
                    .entry(g.id.to_string())
                    .or_default()
                    .insert(
                        t.id.to_string(),
                        SeasonPriceDto {
                            IsPriceOverride: is_override && s.is_pricing_per_ticket,
                            Price: price.price.minor(),
                            MembershipPayableAmount: price.membership_payable.minor(),
                        },
                    );
            }
        }
    }
    let first = &open.presentations[0].view.presentation;
    EnrollMembershipDto {
        SeasonId: s.id,
        MembershipId: s.membership_id,
        Name: s.name.clone(),
        NameEn: s.name_en.clone(),
        Description: s.description.clone(),
        DescriptionEn: s.description_en.clone(),
        IsSkipMemberSeat: s.is_skip_member_seat,
        IsPricingPerTicket: s.is_pricing_per_ticket,
        DefaultTicketGroupId: s.default_ticket_group_id,
        TicketGroups: groups
            .iter()
            .map(|(g, tickets)| SeasonTicketGroup {
                id: g.id,
                name: g.name.clone(),
                name_en: g.name_en.clone(),
                tickets: tickets
                    .iter()
                    .map(|t| SeasonTicket {
                        id: t.id,
                        name: t.name.clone(),
                        name_en: t.name_en.clone(),
                        price: t.price.minor(),
                    })
                    .collect(),
            })
            .collect(),
        Presentations: presentation_dtos(open),
        PresentationDetail: detail,
        venue_id: first.venue_id,
        seatplan_id: first.seatplan_id,
    }
}

/// The season's presentations as the spec's "Enroll membership" lists them.
pub(crate) fn presentation_dtos(open: &OpenSeason) -> Vec<SeasonPresentationDto> {
    let s = &open.season;
    open.presentations
        .iter()
        .map(|p| {
            let v = &p.view;
            SeasonPresentationDto {
                PresentationId: v.presentation.id.get(),
                IsRequired: s
                    .presentation(v.presentation.id)
                    .is_some_and(|sp| sp.is_required),
                MembershipPayableAmount: s
                    .presentation(v.presentation.id)
                    .map_or(0, |sp| sp.membership_payable_amount.minor()),
                feature_id: v.feature.id,
                feature_name: v.feature.name.clone(),
                feature_name_en: v.feature.name_en.clone(),
                date_time: ms_to_rfc3339(v.presentation.starts_at_ms),
                location_name: v.location.name.clone(),
                location_name_en: v.location.name_en.clone(),
                venue_id: v.venue.id,
                venue_name: v.venue.name.clone(),
                venue_name_en: v.venue.name_en.clone(),
                seatplan_id: v.presentation.seatplan_id,
            }
        })
        .collect()
}

fn member_dto(m: &EnrollingMember) -> EnrollingMemberDto {
    let c = &m.card;
    EnrollingMemberDto {
        member_number: c.member.member_number.clone(),
        name: c.membership.name.clone(),
        name_en: c.membership.name_en.clone(),
        balance: c.member.balance.minor(),
        start_date: c.member.start_date.clone(),
        end_date: c.member.end_date.clone(),
        is_available: c.standing == kupa_domain::customer::MemberStanding::Active,
        enrolled: m.enrolled,
    }
}

// ---- Seats

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelectionDto {
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub row_name: String,
    pub seat_name: String,
    /// When this hold ends unless the order moves on (UTC).
    pub expires_at: String,
}

pub(crate) fn selections(all: &[Selection]) -> Vec<SelectionDto> {
    all.iter()
        .map(|s| SelectionDto {
            presentation_id: s.presentation_id.get(),
            section_id: s.section_id,
            x: s.x,
            y: s.y,
            row_name: s.row_name.clone(),
            seat_name: s.seat_name.clone(),
            expires_at: ms_to_rfc3339(s.expires_at_ms),
        })
        .collect()
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EnrollSeatplanQuery {
    /// Default: the membership's season open for enrolment.
    pub season_id: Option<i64>,
    /// One presentation of the season; none: the member seat (every presentation at once).
    pub presentation_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollSeatplanResponse {
    pub seatplan: SeatplanV2,
    pub sections: Vec<dto::SectionStatus>,
    pub seats: Vec<dto::SeatStatusShort>,
    pub selections: Vec<SelectionDto>,
    pub server_time: String,
}

/// The season hall's seat plan and its seats' states for this buyer: for the member seat a seat
/// is available only when free (or this buyer's) in every presentation of the season.
#[utoipa::path(get, operation_id = "enrollSeatplan", path = "/enroll/{membershipId}/seatplan", tag = "memberships",
    params(("membershipId" = i64, Path, description = "The membership"), EnrollSeatplanQuery),
    responses((status = 200, description = "The plan, the states and the buyer's selections", body = EnrollSeatplanResponse),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn enroll_seatplan(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(membership_id): Path<i64>,
    Query(q): Query<EnrollSeatplanQuery>,
) -> ApiResult<axum::Json<EnrollSeatplanResponse>> {
    let (map, held) = state
        .enroll
        .seat_map(
            session.id(),
            session.login(),
            membership_id,
            q.season_id,
            q.presentation_id.map(PresentationId),
        )
        .await?;
    Ok(axum::Json(EnrollSeatplanResponse::of(
        &map,
        &held,
        state.catalogue.now_ms(),
    )))
}

impl EnrollSeatplanResponse {
    pub(crate) fn of(
        map: &kupa_app::memberships::EnrollSeatMap,
        held: &[Selection],
        now_ms: i64,
    ) -> EnrollSeatplanResponse {
        EnrollSeatplanResponse {
            seatplan: SeatplanV2::new(&map.plan),
            sections: dto::section_statuses(&map.status),
            seats: dto::seat_statuses_short(&map.status),
            selections: selections(held),
            server_time: ms_to_rfc3339(now_ms),
        }
    }
}

/// The spec's enrolment seat: `{venueId, seatplanId, sectionId, x, y, ticketGroupId, seasonId,
/// presentationId, selections}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollLockBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// The member enrolled.
    #[schema(max_length = 20)]
    pub member_number: String,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    /// Accepted for the spec's client; the season decides the tickets.
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    pub ticket_group_id: Option<i64>,
    pub season_id: i64,
    /// One presentation; null: the member seat, in every presentation of the season.
    #[serde(default)]
    pub presentation_id: Option<i64>,
    /// The client's selections; the answer's are the server's.
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    #[schema(value_type = Vec<Object>)]
    pub selections: Vec<serde_json::Value>,
    #[serde(default)]
    pub confirm_wheelchair: bool,
    #[serde(default)]
    pub confirm_limited_view: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SelectionsResponse {
    /// Every seat this buyer holds in the season's presentations, by presentation.
    pub selections: Vec<SelectionDto>,
    pub server_time: String,
}

/// The answer of a seat's lock or unlock: every seat this buyer holds now, at the server's time.
pub(crate) fn selections_answer(
    state: &AppState,
    held: &[Selection],
) -> axum::Json<SelectionsResponse> {
    axum::Json(SelectionsResponse {
        selections: selections(held),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    })
}

/// The answers of a seat's unlock (an enrolment's or a seated membership's).
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum UnlockSeatResponses {
    #[response(status = 200, description = "The buyer's selections")]
    Selections(SelectionsResponse),
    #[response(status = 400, description = "recaptcha")]
    Recaptcha(ErrorBody),
    #[response(status = 401, description = "loginError")]
    Login(ErrorBody),
    #[response(status = 404, description = "notFound")]
    NotFound(ErrorBody),
    #[response(
        status = 409,
        description = "unlock_seat_error (not held by this buyer)"
    )]
    NotHeld(ErrorBody),
}

/// Holds a seat for the member: in one presentation (replacing the one held there), or the member
/// seat in every presentation of the season, all or none.
#[utoipa::path(put, operation_id = "enrollLockSeat", path = "/enroll/{membershipId}/lock-seat", tag = "memberships",
    params(("membershipId" = i64, Path, description = "The membership")),
    request_body = EnrollLockBody,
    responses((status = 200, description = "The buyer's selections", body = SelectionsResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 404, description = "notFound, CUSTOMER_NOT_FOUND", body = ErrorBody),
              (status = 409, description = "lock_seat_error (not free in one of the presentations: nothing held), ALREADY_ENROLLED, CUSTOMER_NO_MOBILE, memberExpired, holdLimitReached", body = ErrorBody),
              (status = 422, description = "formValidation (params.reason oneSeatPerPresentation), seatConfirmationRequired, tooManySeats", body = ErrorBody)))]
async fn enroll_lock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(membership_id): Path<i64>,
    Json(body): Json<EnrollLockBody>,
) -> ApiResult<axum::Json<SelectionsResponse>> {
    let held = state
        .enroll
        .lock(
            session.id(),
            session.login(),
            &session.holder(&state).await?,
            body.recaptcha_token.as_deref().unwrap_or_default(),
            membership_id,
            body.season_id,
            &body.member_number,
            EnrollSeat {
                venue_id: body.venue_id,
                seatplan_id: body.seatplan_id,
                section_id: body.section_id,
                x: body.x,
                y: body.y,
                presentation_id: body.presentation_id.map(PresentationId),
                confirmed: Confirmations {
                    wheelchair: body.confirm_wheelchair,
                    limited_view: body.confirm_limited_view,
                },
            },
        )
        .await?;
    Ok(selections_answer(&state, &held))
}

/// The spec's unlock: as the lock without `seasonId` (optional here).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollUnlockBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    pub ticket_group_id: Option<i64>,
    #[serde(default)]
    pub season_id: Option<i64>,
    /// One presentation; null: the seat in every presentation of the season.
    #[serde(default)]
    pub presentation_id: Option<i64>,
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    #[schema(value_type = Vec<Object>)]
    pub selections: Vec<serde_json::Value>,
}

/// Releases the seat: in one presentation, or in every presentation of the season.
#[utoipa::path(put, operation_id = "enrollUnlockSeat", path = "/enroll/{membershipId}/unlock-seat", tag = "memberships",
    params(("membershipId" = i64, Path, description = "The membership")),
    request_body = EnrollUnlockBody,
    responses(UnlockSeatResponses))]
async fn enroll_unlock_seat(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(membership_id): Path<i64>,
    Json(body): Json<EnrollUnlockBody>,
) -> ApiResult<axum::Json<SelectionsResponse>> {
    let held = state
        .enroll
        .unlock(
            session.id(),
            session.login(),
            body.recaptcha_token.as_deref().unwrap_or_default(),
            membership_id,
            body.season_id,
            EnrollSeat {
                venue_id: body.venue_id,
                seatplan_id: body.seatplan_id,
                section_id: body.section_id,
                x: body.x,
                y: body.y,
                presentation_id: body.presentation_id.map(PresentationId),
                confirmed: Confirmations::default(),
            },
        )
        .await?;
    Ok(selections_answer(&state, &held))
}

// ---- The enrolment cart

/// `cart.enrollment` of `POST /cart`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartEnrollmentIn {
    pub membership_id: i64,
    pub season_id: i64,
    #[schema(max_length = 20)]
    pub member_number: String,
}

impl CartEnrollmentIn {
    pub fn to_app(&self) -> kupa_app::orders::EnrollmentChoice {
        kupa_app::orders::EnrollmentChoice {
            membership_id: self.membership_id,
            season_id: self.season_id,
            member_number: self.member_number.trim().to_owned(),
        }
    }
}

/// The season a ticket order enrols its member in.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnrollmentDto {
    pub season_id: i64,
    pub membership_id: i64,
    pub member_number: String,
    pub name: String,
    pub name_en: String,
}

impl EnrollmentDto {
    pub fn of(e: &kupa_app::orders::OrderEnrollment) -> EnrollmentDto {
        EnrollmentDto {
            season_id: e.season_id,
            membership_id: e.membership_id,
            member_number: e.member_number.clone(),
            name: e.name.clone(),
            name_en: e.name_en.clone(),
        }
    }
}
