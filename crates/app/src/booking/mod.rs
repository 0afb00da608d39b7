//! Holding seats: lock and unlock (spec section 7 "Seats"), the step timers of the checkout, and
//! the extension the "Time expired" dialog offers. The store arbitrates every seat; this use case
//! decides what may be asked of it.
//!
//! Rooms: this file (the service and lock), [`unlock`], [`checkout`] (the step timers, extension,
//! the buyer's holds), [`best_available`] and [`limits`] (the limits that follow the buyer).

pub mod arbiter;
mod best_available;
mod checkout;
mod claim_writer;
mod limits;
mod unlock;

pub use arbiter::{SeatArbiter, Settled};
use kupa_domain::ids::{PresentationId, SessionId};
pub use limits::{HoldLimits, Holder};

use std::sync::Arc;

use kupa_domain::catalogue::{SaleState, SectionKind};
use kupa_domain::checkout::{CheckoutState, PAYMENT_WINDOW_SECONDS, Step, StepTimers};
use kupa_domain::seating::{self, Confirmations, PlanSeat};

use crate::catalogue::{CatalogueService, Channel, PresentationInfo};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::Presentation;
use crate::model::{Claim, Seat, Section};
use crate::ports::{
    Captcha, CatalogueStore, CheckoutStore, ClaimOp, ClaimStore, Clock, HolderStore, SeatAddress,
};
use crate::seat_events::{SeatChangeKind, SeatEvent, SeatEventSink};
use crate::seat_plan::plan_seat;
use crate::site_config::SiteConfig;

/// A seat as the spec's lock and unlock calls name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatRequest {
    pub presentation_id: PresentationId,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
}

/// A held place with the names a buyer reads.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeldPlace {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub row_name: String,
    pub seat_name: String,
    /// The kinds of seat the place serves, for tickets tied to one: by its own flags, and in
    /// [`BookingService::my_holds`] also beside the session's other holds (a seat beside a held
    /// wheelchair place serves a companion).
    pub seat_kinds: Vec<kupa_domain::seat_kinds::SeatKind>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockOutcome {
    /// The place the buyer now holds in answer to this call: the seat asked for, or (general
    /// admission) the place the server picked.
    pub locked: HeldPlace,
    /// Everything this call holds: the seat and, for a sofa, its partners.
    pub all: Vec<HeldPlace>,
    pub checkout: CheckoutState,
}

pub struct BookingService {
    catalogue: Arc<CatalogueService>,
    store: Arc<dyn CatalogueStore>,
    claims: Arc<dyn ClaimStore>,
    /// Decides every hold and release of this node in memory (decision 0059).
    arbiter: Arc<SeatArbiter>,
    checkout: Arc<dyn CheckoutStore>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    events: Arc<dyn SeatEventSink>,
    /// Who each session holds for, and the limits on it ([`BookingService::with_hold_limits`]).
    holders: Option<Arc<dyn HolderStore>>,
    limits: HoldLimits,
}

/// The step timers of the site config (no ceiling: [`BookingService`] adds its own).
pub fn timers(config: &SiteConfig) -> StepTimers {
    let t = &config.timer_mode;
    StepTimers {
        choose_seats_s: t.choose_seats_in_seconds,
        choose_tickets_s: t.choose_tickets_in_seconds,
        choose_products_s: t.choose_products_in_seconds,
        customer_info_s: t.customer_info_in_seconds,
        payment_window_s: PAYMENT_WINDOW_SECONDS,
        ceiling_s: 0,
    }
}

fn held(seat: &Seat) -> HeldPlace {
    HeldPlace {
        section_id: seat.section_id,
        x: seat.x,
        y: seat.y,
        row_name: seat.row_name.clone(),
        seat_name: seat.seat_name.clone(),
        seat_kinds: kupa_domain::seat_kinds::kinds_served(&[crate::seat_plan::order_seat(seat)])
            .pop()
            .unwrap_or_default(),
    }
}

fn ga_place(section_id: i64, number: i64) -> HeldPlace {
    HeldPlace {
        section_id,
        x: number,
        y: 0,
        row_name: String::new(),
        seat_name: number.to_string(),
        seat_kinds: Vec::new(),
    }
}

fn place(h: &HeldPlace) -> SeatAddress {
    SeatAddress {
        section_id: h.section_id,
        x: h.x,
        y: h.y,
    }
}

fn rule(v: impl Into<RuleCode>) -> AppError {
    let RuleCode(code, message) = v.into();
    AppError::rejected(code, message)
}

struct RuleCode(ErrorCode, String);

impl From<seating::SeatingViolation> for RuleCode {
    fn from(v: seating::SeatingViolation) -> RuleCode {
        RuleCode(v.code(), v.to_string())
    }
}

impl From<seating::NotEnoughSeats> for RuleCode {
    fn from(v: seating::NotEnoughSeats) -> RuleCode {
        RuleCode(v.code(), v.to_string())
    }
}

impl From<kupa_domain::checkout::StepError> for RuleCode {
    fn from(v: kupa_domain::checkout::StepError) -> RuleCode {
        RuleCode(v.code(), v.to_string())
    }
}

impl BookingService {
    pub fn new(
        catalogue: Arc<CatalogueService>,
        store: Arc<dyn CatalogueStore>,
        claims: Arc<dyn ClaimStore>,
        checkout: Arc<dyn CheckoutStore>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
        events: Arc<dyn SeatEventSink>,
    ) -> BookingService {
        BookingService {
            catalogue,
            store,
            arbiter: Arc::new(SeatArbiter::new(claims.clone())),
            claims,
            checkout,
            captcha,
            clock,
            events,
            holders: None,
            limits: HoldLimits::off(),
        }
    }

    /// The limits that follow the buyer across sessions, read from `holders`.
    pub fn with_hold_limits(
        self,
        holders: Arc<dyn HolderStore>,
        limits: HoldLimits,
    ) -> BookingService {
        BookingService {
            holders: Some(holders),
            limits,
            ..self
        }
    }

    /// Saves the session's checkout on the presentation; the store moves its live holds to the
    /// new deadline, and so does the arbiter's memory of them.
    async fn save_checkout(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        state: &CheckoutState,
        now_ms: i64,
    ) -> AppResult<()> {
        self.checkout
            .save_checkout_state(session, presentation_id, state, now_ms)
            .await?;
        self.arbiter
            .holds_moved(presentation_id, session, state.deadline_ms, now_ms);
        Ok(())
    }

    /// The node's seat arbiter, to be told of seat events (the wiring connects it to the hub).
    pub fn arbiter(&self) -> Arc<SeatArbiter> {
        self.arbiter.clone()
    }

    /// The site's step timers with this node's ceiling on holds.
    fn timers(&self, config: &SiteConfig) -> StepTimers {
        StepTimers {
            ceiling_s: self.limits.ceiling_seconds.map_or(0, i64::from),
            ..timers(config)
        }
    }

    /// A seat change another path writes (a sale, a cancellation, a hold order, a seat change of
    /// a paid order), through the arbiter (decision 0059): memory keeps the places `touch` and
    /// `claim` out of reloads while `write` runs, gives the places of `claim` to its session
    /// meanwhile (refusing them to other buyers), and then takes what `settled` says the write
    /// did. With `refusal`, a claim memory already refuses is answered with it, before writing.
    /// The write stays the database's guarded statement; an error leaves memory as it was and the
    /// presentations are read again.
    pub async fn settle<T, E: Into<AppError>>(
        &self,
        touch: &[(PresentationId, SeatAddress)],
        claim: Option<(&SessionId, &[(PresentationId, SeatAddress)])>,
        refusal: Option<AppError>,
        write: impl std::future::Future<Output = Result<T, E>>,
        settled: impl FnOnce(&T) -> Vec<(PresentationId, SeatAddress, Settled)>,
    ) -> AppResult<T> {
        let settling = self
            .arbiter
            .begin_settle(touch, claim, self.clock.now_ms())
            .await?;
        if let Some(refusal) = refusal
            && settling.refused()
        {
            return Err(refusal);
        }
        let written = write.await.map_err(Into::into)?;
        settling.end(settled(&written));
        Ok(written)
    }

    /// What a path found and changed as it wrote (a sweep, a screening's holds released by the
    /// cinema): memory follows at once, before the seat events go out.
    pub fn settled(&self, outcomes: Vec<(PresentationId, SeatAddress, Settled)>) {
        if outcomes.is_empty() {
            return;
        }
        self.arbiter.settled(outcomes, self.clock.now_ms());
    }

    /// Tells watchers of the presentation that these places changed.
    pub fn publish(
        &self,
        presentation_id: PresentationId,
        state: SeatChangeKind,
        places: impl IntoIterator<Item = SeatAddress>,
    ) {
        let event = SeatEvent::new(presentation_id, state, places);
        if !event.changes.is_empty() {
            self.events.publish(event);
        }
    }

    /// Deletes the holds that have run out and tells watchers (one event per presentation).
    /// Expired holds are free to claim before this runs (the lock statement takes them over);
    /// several nodes may sweep at once, and each removed hold is reported by exactly one of them.
    pub async fn sweep_expired_holds(&self) -> AppResult<usize> {
        let released = self.claims.sweep_expired(self.clock.now_ms()).await?;
        self.settled(
            released
                .iter()
                .map(|c| (c.presentation_id, c.address(), Settled::Freed))
                .collect(),
        );
        for event in SeatEvent::expired(&released) {
            self.events.publish(event);
        }
        Ok(released.len())
    }

    async fn require_captcha(&self, token: &str) -> AppResult<()> {
        crate::ports::require_captcha(self.captcha.as_ref(), token).await
    }

    /// The presentation, on sale now through the buyer's channel (the web shop's or a mini-site's
    /// switches, decision 0070), with the request's venue and seat plan checked against it.
    async fn sellable(&self, req: &SeatRequest, channel: &Channel) -> AppResult<PresentationInfo> {
        let info = self
            .catalogue
            .presentation(req.presentation_id, channel)
            .await?
            .info;
        let p = &info.view.presentation;
        if p.venue_id != req.venue_id || p.seatplan_id != req.seatplan_id {
            return Err(AppError::rejected(
                ErrorCode::NotFound,
                "the venue or seat plan is not this presentation's",
            ));
        }
        info.require_on_sale()?;
        Ok(info)
    }

    /// The section of the screening's plan, with the ticket group it sells for the screening.
    async fn section(
        &self,
        p: &Presentation,
        section_id: i64,
    ) -> AppResult<(Section, Vec<Section>)> {
        let sections = crate::prices::sections_of(self.store.as_ref(), p).await?;
        let section = sections
            .iter()
            .find(|s| s.id == section_id)
            .cloned()
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::NotFound,
                    format!("section {section_id} is not in this seat plan"),
                )
            })?;
        Ok((section, sections))
    }

    /// The session's live checkout on this presentation, or a new one starting now (true), which
    /// continues the earlier one's chain within the ceiling (`holdLimitReached` past it).
    async fn live_checkout(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        now_ms: i64,
        timers: &StepTimers,
    ) -> AppResult<(CheckoutState, bool)> {
        let earlier = self
            .checkout
            .checkout_state(session, presentation_id)
            .await?;
        CheckoutState::resume(earlier, now_ms, timers).map_err(|e| {
            AppError::rejected_with(
                e.code(),
                "you have held seats of this presentation for as long as may be; try again later",
                serde_json::json!({ "scope": "ceiling", "limit": timers.ceiling_s }),
            )
        })
    }

    /// The session's live holds on the presentation, as the arbiter has them.
    async fn held_by(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        now_ms: i64,
    ) -> AppResult<Vec<SeatAddress>> {
        self.arbiter
            .holds_of(presentation_id, session, now_ms)
            .await
    }

    fn my_live_holds<'a>(
        claims: &'a [Claim],
        session: &SessionId,
        now_ms: i64,
    ) -> impl Iterator<Item = &'a Claim> {
        claims
            .iter()
            .filter(move |c| c.view().is_live_hold_of(session, now_ms))
    }

    /// Holds a seat for the buyer of `channel` (the web shop, or the mini-site the order is
    /// through): the channel's sales switches judge it.
    pub async fn lock(
        &self,
        session: &SessionId,
        holder: &Holder,
        req: SeatRequest,
        confirmed: Confirmations,
        channel: &Channel,
        captcha_token: &str,
    ) -> AppResult<LockOutcome> {
        self.require_captcha(captcha_token).await?;
        self.lock_checked(session, holder, req, confirmed, channel)
            .await
    }

    /// [`BookingService::lock`] once the caller has checked the captcha (an enrolment's member
    /// seat holds one seat in several presentations on one token).
    pub(crate) async fn lock_checked(
        &self,
        session: &SessionId,
        holder: &Holder,
        req: SeatRequest,
        confirmed: Confirmations,
        channel: &Channel,
    ) -> AppResult<LockOutcome> {
        let now = self.clock.now_ms();
        let info = self.sellable(&req, channel).await?;
        let (section, sections) = self
            .section(&info.view.presentation, req.section_id)
            .await?;
        // A section whose ticket group has no price online (press seats, house seats) is sold at
        // the box office only.
        if self
            .store
            .ticket_groups(&[section.ticket_group_id])
            .await?
            .iter()
            .all(|(_, tickets)| tickets.is_empty())
        {
            return Err(AppError::rejected(
                ErrorCode::NoPricePolicy,
                "these seats are not sold online",
            ));
        }
        let config = self.catalogue.site_config().await?;
        let timers = self.timers(&config);
        let (checkout, new_checkout) = self
            .live_checkout(session, req.presentation_id, now, &timers)
            .await?;
        let mine = self.held_by(session, req.presentation_id, now).await?;
        // Only a new checkout is written, in the hold's batch: an existing one (perhaps just
        // moved on to paying by another request) is never written back with an older step.
        let start = new_checkout.then(|| ClaimOp::SaveCheckout {
            presentation_id: req.presentation_id,
            session_id: session.clone(),
            state: checkout,
            now_ms: now,
        });
        let max = config.max_seats_per_transaction.max(1) as usize;

        let (locked, all) = match section.kind {
            SectionKind::Reserved => {
                // A sofa (or bed) is held whole, in the same atomic claim.
                let group = self
                    .store
                    .seat_with_partners(
                        req.seatplan_id,
                        SeatAddress::new(req.section_id, req.x, req.y),
                    )
                    .await?;
                let seat = group
                    .iter()
                    .find(|s| s.section_id == req.section_id && s.x == req.x && s.y == req.y)
                    .ok_or_else(|| {
                        AppError::rejected(
                            ErrorCode::NotFound,
                            format!(
                                "no seat at x {} y {} in section {}",
                                req.x, req.y, req.section_id
                            ),
                        )
                    })?;
                let new = group
                    .iter()
                    .filter(|s| {
                        !mine
                            .iter()
                            .any(|c| c.section_id == s.section_id && c.x == s.x && c.y == s.y)
                    })
                    .count();
                seating::check_max_seats(mine.len() + new, max).map_err(rule)?;
                let plan: Vec<PlanSeat> = group.iter().map(|s| plan_seat(s, &sections)).collect();
                seating::check_confirmations(&plan, confirmed).map_err(rule)?;
                self.check_hold_limits(session, holder, new, now).await?;
                let all: Vec<HeldPlace> = group.iter().map(held).collect();
                let places: Vec<SeatAddress> = all.iter().map(place).collect();
                if self
                    .arbiter
                    .hold(
                        req.presentation_id,
                        &places,
                        session,
                        now,
                        checkout.deadline_ms,
                        start.clone(),
                    )
                    .await?
                    != arbiter::HoldDecision::Held
                {
                    return Err(AppError::rejected(
                        ErrorCode::LockSeatError,
                        "the seat is no longer available",
                    ));
                }
                self.publish(req.presentation_id, SeatChangeKind::Held, places);
                (held(seat), all)
            }
            SectionKind::Ga => {
                seating::check_max_seats(mine.len() + 1, max).map_err(rule)?;
                self.check_hold_limits(session, holder, 1, now).await?;
                self.lock_ga_place(
                    session,
                    req.presentation_id,
                    &section,
                    now,
                    checkout.deadline_ms,
                    start,
                )
                .await?
            }
        };
        Ok(LockOutcome {
            locked,
            all,
            checkout,
        })
    }

    /// General admission: the lowest free numbered place, picked and held under the
    /// presentation's lock in the arbiter (no two buyers pick the same number).
    async fn lock_ga_place(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        section: &Section,
        now: i64,
        deadline: i64,
        start: Option<ClaimOp>,
    ) -> AppResult<(HeldPlace, Vec<HeldPlace>)> {
        let picked = self
            .arbiter
            .pick_and_hold(presentation_id, session, now, deadline, start, |view| {
                let number = free_ga_places(section, view, 1)?[0];
                Ok((vec![SeatAddress::new(section.id, number, 0)], number))
            })
            .await?;
        match picked {
            Some((places, number)) => {
                self.publish(presentation_id, SeatChangeKind::Held, places);
                let h = ga_place(section.id, number);
                Ok((h.clone(), vec![h]))
            }
            None => Err(AppError::rejected(
                ErrorCode::LockSeatError,
                "general admission places are being taken faster than we can hold one; try again",
            )),
        }
    }
}

/// The lowest `n` free numbered places of a general-admission section, as the arbiter sees them.
fn free_ga_places(
    section: &Section,
    view: &dyn Fn(&SeatAddress) -> kupa_domain::catalogue::SeatState,
    n: usize,
) -> AppResult<Vec<i64>> {
    let taken: Vec<i64> = (1..=section.capacity)
        .filter(|x| !view(&SeatAddress::new(section.id, *x, 0)).is_available())
        .collect();
    seating::free_places(section.capacity, &taken, n).map_err(rule)
}

pub use best_available::{BestAvailableQuery, BestMatch, PartOfDay};
