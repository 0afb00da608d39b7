//! Enrolling a member in a membership season (spec sections 2 "Enroll membership", 3, 7
//! `GET /enroll/{membershipId}/seatplan`, `PUT /enroll/{membershipId}/lock-seat` and
//! `unlock-seat`; issue 15, decision 0040): the season open for enrolment, the member checked, the
//! season's seat map and the seats held for it. Seats are held through the booking service, in
//! the same claim table and under the same atomic rules as any ticket seat; the enrolment itself
//! is sold as a ticket order (the orders room prices it with [`EnrollmentRules`]).

use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::BTreeMap;
use std::sync::Arc;

use kupa_domain::catalogue::SeatState;
use kupa_domain::seating::{Confirmations, SeatAddress};

use crate::accounts::{CustomerAccount, CustomerService, MemberCard};
use crate::booking::{BookingService, Holder, SeatRequest};
use crate::catalogue::{CatalogueService, SeatStatus, SeatplanFull, SectionStatus};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Membership, Ticket, TicketGroup};
use crate::ports::{Captcha, CatalogueStore, ClaimStore, Clock, OrderStore};

use super::{EnrollmentRules, Season};

/// A season open for enrolment, with what its pages show of each presentation.
#[derive(Debug, Clone)]
pub struct OpenSeason {
    pub season: Season,
    pub membership: Membership,
    /// The season's presentations, ascending by id.
    pub presentations: Vec<crate::catalogue::PresentationInfo>,
    /// The season's ticket groups and their tickets.
    pub ticket_groups: Vec<(TicketGroup, Vec<Ticket>)>,
}

/// One of the customer's members of the season's membership, and whether it is enrolled.
#[derive(Debug, Clone)]
pub struct EnrollingMember {
    pub card: MemberCard,
    pub enrolled: bool,
}

/// A seat this session holds in a presentation of the season.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub presentation_id: PresentationId,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub row_name: String,
    pub seat_name: String,
    pub expires_at_ms: i64,
}

/// A seat an enrolment asks for: in one presentation, or (None) the member seat in all of them.
#[derive(Debug, Clone, Copy)]
pub struct EnrollSeat {
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub presentation_id: Option<PresentationId>,
    /// The buyer confirmed a wheelchair or limited-view place, as for any seat.
    pub confirmed: Confirmations,
}

/// The season's seat map for a member seat (every presentation at once) or for one presentation.
#[derive(Debug, Clone)]
pub struct EnrollSeatMap {
    pub plan: SeatplanFull,
    pub status: SeatStatus,
}

pub struct EnrollService {
    pub(super) catalogue: Arc<CatalogueService>,
    pub(super) booking: Arc<BookingService>,
    pub(super) store: Arc<dyn CatalogueStore>,
    pub(super) claims: Arc<dyn ClaimStore>,
    pub(super) orders: Arc<dyn OrderStore>,
    pub(super) customers: Arc<CustomerService>,
    pub(super) captcha: Arc<dyn Captcha>,
    pub(super) clock: Arc<dyn Clock>,
}

impl EnrollService {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        catalogue: Arc<CatalogueService>,
        booking: Arc<BookingService>,
        store: Arc<dyn CatalogueStore>,
        claims: Arc<dyn ClaimStore>,
        orders: Arc<dyn OrderStore>,
        customers: Arc<CustomerService>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
    ) -> EnrollService {
        EnrollService {
            catalogue,
            booking,
            store,
            claims,
            orders,
            customers,
            captcha,
            clock,
        }
    }

    pub(super) fn rules(&self) -> EnrollmentRules<'_> {
        EnrollmentRules {
            store: self.store.as_ref(),
            catalogue: &self.catalogue,
            orders: self.orders.as_ref(),
            now_ms: self.clock.now_ms(),
        }
    }

    /// The customer logged in (`loginError` otherwise): a member is a customer's.
    async fn account(&self, login: Option<&str>) -> AppResult<CustomerAccount> {
        self.customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in to enrol a member"))
    }

    /// The season open for enrolment and the customer's members of its membership; with
    /// `member_number`, that member checked.
    pub async fn season(
        &self,
        login: Option<&str>,
        membership_id: i64,
        member_number: Option<&str>,
    ) -> AppResult<(OpenSeason, Vec<EnrollingMember>)> {
        let account = self.account(login).await?;
        let rules = self.rules();
        let open = rules.open_season(membership_id, None).await?;
        if let Some(number) = member_number.filter(|n| !n.trim().is_empty()) {
            rules.member(&account, &open, number).await?;
        }
        let members = rules.members(&account, &open).await?;
        Ok((open, members))
    }

    /// The season's open season, for a call that names it (and its membership).
    async fn named_season(
        &self,
        login: Option<&str>,
        membership_id: i64,
        season_id: Option<i64>,
    ) -> AppResult<(CustomerAccount, OpenSeason)> {
        let account = self.account(login).await?;
        let open = self.rules().open_season(membership_id, season_id).await?;
        Ok((account, open))
    }

    /// The season hall's map: for the member seat (no presentation) a seat is free only when it
    /// is free (or this session's) in every presentation, and this session's only when it holds
    /// it in all; for one presentation, as that presentation's status.
    pub async fn seat_map(
        &self,
        session: &SessionId,
        login: Option<&str>,
        membership_id: i64,
        season_id: Option<i64>,
        presentation_id: Option<PresentationId>,
    ) -> AppResult<(EnrollSeatMap, Vec<Selection>)> {
        let (_, open) = self.named_season(login, membership_id, season_id).await?;
        let ids = presentations_asked(&open.season, presentation_id)?;
        let first = &open.presentations[0].view.presentation;
        let plan = self
            .catalogue
            .seatplan(first.venue_id, first.seatplan_id)
            .await?;
        let mut statuses = Vec::new();
        for id in &ids {
            statuses.push(
                self.catalogue
                    .seat_status(*id, None, Some(session), &Default::default())
                    .await?,
            );
        }
        let status = combine(statuses);
        let selections = self.selections(session, &open).await?;
        Ok((EnrollSeatMap { plan, status }, selections))
    }

    /// Every seat this session holds in the season's presentations, by presentation.
    pub async fn selections(
        &self,
        session: &SessionId,
        open: &OpenSeason,
    ) -> AppResult<Vec<Selection>> {
        season_selections(
            self.store.as_ref(),
            self.claims.as_ref(),
            session,
            open,
            self.clock.now_ms(),
        )
        .await
    }

    /// Holds the seat for the member: in one presentation, or (the member seat) in every
    /// presentation of the season, all or none, taken in ascending order so that buyers racing
    /// for one seat meet at the first presentation. A seat this session held there before gives
    /// way once the new one is held (one seat per presentation for each member).
    #[allow(clippy::too_many_arguments)]
    pub async fn lock(
        &self,
        session: &SessionId,
        login: Option<&str>,
        holder: &Holder,
        captcha_token: &str,
        membership_id: i64,
        season_id: i64,
        member_number: &str,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let (account, open) = self
            .named_season(login, membership_id, Some(season_id))
            .await?;
        self.rules().member(&account, &open, member_number).await?;
        self.hold(session, holder, &open, seat).await
    }

    /// Holds `seat` in the presentation it names, or in every presentation of the season (all or
    /// none, ascending); the seats this session held there before give way once it is held.
    pub(super) async fn hold(
        &self,
        session: &SessionId,
        holder: &Holder,
        open: &OpenSeason,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        let ids = presentations_asked(&open.season, seat.presentation_id)?;
        let before = self.selections(session, open).await?;
        let mut taken: Vec<PresentationId> = Vec::new();
        for id in &ids {
            let already = before.iter().any(|s| {
                s.presentation_id == *id
                    && (s.section_id, s.x, s.y) == (seat.section_id, seat.x, seat.y)
            });
            if already {
                continue;
            }
            let outcome = self
                .booking
                .lock_checked(
                    session,
                    holder,
                    request(*id, &seat),
                    seat.confirmed,
                    &Default::default(),
                )
                .await;
            let outcome = match outcome {
                Ok(o) => o,
                Err(e) => {
                    self.give_back(session, &taken, &seat).await;
                    return Err(e);
                }
            };
            if outcome.all.len() > 1 {
                // A sofa is sold whole: not one member's seat.
                taken.push(*id);
                self.give_back(session, &taken, &seat).await;
                return Err(AppError::rejected_with(
                    ErrorCode::FormValidation,
                    "a sofa is two seats: a member takes one seat in each presentation",
                    serde_json::json!({ "reason": "oneSeatPerPresentation" }),
                ));
            }
            taken.push(*id);
        }
        // Held everywhere asked: the seats this session held there before give way.
        for old in before.iter().filter(|s| ids.contains(&s.presentation_id)) {
            if (old.section_id, old.x, old.y) != (seat.section_id, seat.x, seat.y) {
                let req = SeatRequest {
                    presentation_id: old.presentation_id,
                    venue_id: seat.venue_id,
                    seatplan_id: seat.seatplan_id,
                    section_id: old.section_id,
                    x: old.x,
                    y: old.y,
                };
                self.booking.unlock_checked(session, req).await?;
            }
        }
        self.selections(session, open).await
    }

    /// Releases the seat: in one presentation, or in every presentation of the season.
    pub async fn unlock(
        &self,
        session: &SessionId,
        login: Option<&str>,
        captcha_token: &str,
        membership_id: i64,
        season_id: Option<i64>,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let account = self.account(login).await?;
        // The spec's unlock names no season: the one holding the presentation, else the open one.
        let season_id = match (season_id, seat.presentation_id) {
            (Some(id), _) => Some(id),
            (None, Some(p)) => self
                .store
                .seasons()
                .await?
                .into_iter()
                .find(|s| s.membership_id == membership_id && s.presentation(p).is_some())
                .map(|s| s.id),
            (None, None) => None,
        };
        let open = self.rules().open_season(membership_id, season_id).await?;
        drop(account);
        self.release(session, &open, seat).await
    }

    /// Releases `seat` in the presentation it names, or in every presentation of the season
    /// (`unlock_seat_error` when this session held it nowhere).
    pub(super) async fn release(
        &self,
        session: &SessionId,
        open: &OpenSeason,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        let ids = presentations_asked(&open.season, seat.presentation_id)?;
        let mut released = 0;
        for id in &ids {
            match self
                .booking
                .unlock_checked(session, request(*id, &seat))
                .await
            {
                Ok(_) => released += 1,
                Err(AppError::Rejected {
                    code: ErrorCode::UnlockSeatError,
                    ..
                }) => {}
                Err(e) => return Err(e),
            }
        }
        if released == 0 {
            return Err(AppError::rejected(
                ErrorCode::UnlockSeatError,
                "this seat is not held by you",
            ));
        }
        self.selections(session, open).await
    }

    /// Undoes a member seat's holds taken so far (its lock failed further on).
    async fn give_back(&self, session: &SessionId, taken: &[PresentationId], seat: &EnrollSeat) {
        for id in taken {
            if let Err(e) = self
                .booking
                .unlock_checked(session, request(*id, seat))
                .await
            {
                tracing::warn!(presentation = id.get(), error = %e, "an enrolment hold could not be given back; it expires with its step");
            }
        }
    }
}

/// Every seat `session` holds live in the season's presentations, by presentation: the enrolment
/// calls' `selections`, and what a seated membership's cart sells.
pub async fn season_selections(
    store: &dyn CatalogueStore,
    claims: &dyn ClaimStore,
    session: &SessionId,
    open: &OpenSeason,
    now: i64,
) -> AppResult<Vec<Selection>> {
    let first = &open.presentations[0].view.presentation;
    let seats = store.seats(first.seatplan_id).await?;
    let mut out = Vec::new();
    for p in &open.presentations {
        let id = p.view.presentation.id;
        for c in claims.session_claims(id, session).await? {
            if !c.view().is_live_hold_of(session, now) {
                continue;
            }
            let seat = seats
                .iter()
                .find(|s| s.section_id == c.section_id && s.x == c.x && s.y == c.y);
            out.push(Selection {
                presentation_id: id,
                section_id: c.section_id,
                x: c.x,
                y: c.y,
                row_name: seat.map(|s| s.row_name.clone()).unwrap_or_default(),
                seat_name: seat
                    .map(|s| s.seat_name.clone())
                    .unwrap_or_else(|| c.x.to_string()),
                expires_at_ms: c.expires_at_ms,
            });
        }
    }
    Ok(out)
}

pub(super) fn request(presentation_id: PresentationId, seat: &EnrollSeat) -> SeatRequest {
    SeatRequest {
        presentation_id,
        venue_id: seat.venue_id,
        seatplan_id: seat.seatplan_id,
        section_id: seat.section_id,
        x: seat.x,
        y: seat.y,
    }
}

/// The presentations a call is about: the one named (of the season), or all of them.
fn presentations_asked(
    season: &Season,
    presentation_id: Option<PresentationId>,
) -> AppResult<Vec<PresentationId>> {
    match presentation_id {
        Some(id) if season.presentation(id).is_some() => Ok(vec![id]),
        Some(id) => Err(AppError::rejected_with(
            ErrorCode::NotFound,
            format!("presentation {id} is not in the season"),
            serde_json::json!({ "reason": "notInSeason", "presentationId": id }),
        )),
        None => Ok(season.presentation_ids()),
    }
}

/// One status for several presentations of one hall: a seat is as taken as its most taken
/// presentation says (sold, then held by another), this session's only when held in every one,
/// and otherwise free; blocked when blocked in any. A section's remaining seats are counted anew.
fn combine(mut statuses: Vec<SeatStatus>) -> SeatStatus {
    if statuses.len() == 1 {
        return statuses.remove(0);
    }
    let mut first = statuses.remove(0);
    let rank = |s: &SeatState| match s {
        SeatState::Sold => 3,
        SeatState::HeldByOther => 2,
        SeatState::Available => 1,
        SeatState::HeldByMe => 0,
    };
    let mut states: BTreeMap<SeatAddress, SeatState> = first
        .seats
        .iter()
        .map(|(seat, state)| (SeatAddress::new(seat.section_id, seat.x, seat.y), *state))
        .collect();
    for other in &statuses {
        for (seat, state) in &other.seats {
            let key = SeatAddress::new(seat.section_id, seat.x, seat.y);
            let entry = states.entry(key).or_insert(*state);
            if rank(state) > rank(entry) {
                *entry = *state;
            }
        }
        first.blocked.extend(other.blocked.iter().copied());
        first.box_office.extend(other.box_office.iter().copied());
    }
    for (seat, state) in first.seats.iter_mut() {
        *state = states[&SeatAddress::new(seat.section_id, seat.x, seat.y)];
    }
    for section in first.sections.iter_mut() {
        let id = section.section.id;
        let remaining = first
            .seats
            .iter()
            .filter(|(s, st)| s.section_id == id && *st == SeatState::Available)
            .count() as i64;
        *section = SectionStatus {
            remaining,
            sold_out: remaining == 0
                && section.section.kind == kupa_domain::catalogue::SectionKind::Reserved,
            section: section.section.clone(),
        };
    }
    first
}
