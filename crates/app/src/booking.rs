//! Holding seats: lock and unlock (spec section 7 "Seats"), the step timers of the checkout, and
//! the extension the "Time expired" dialog offers. The store arbitrates every seat; this use case
//! decides what may be asked of it.

use std::sync::Arc;

use kupa_domain::catalogue::{SaleState, SectionKind};
use kupa_domain::checkout::{CheckoutState, PAYMENT_WINDOW_SECONDS, Step, StepTimers};
use kupa_domain::seating::{self, Confirmations, PlanSeat};

use crate::catalogue::{CatalogueService, PresentationInfo};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Claim, Seat, Section};
use crate::ports::{Captcha, CatalogueStore, CheckoutStore, ClaimStore, Clock, Place};
use crate::seat_events::{SeatChangeKind, SeatEvent, SeatEventSink};
use crate::seat_plan::plan_seat;
use crate::site_config::SiteConfig;

/// A seat as the spec's lock and unlock calls name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatRequest {
    pub presentation_id: i64,
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

/// Tries before a general-admission lock gives up on places other buyers keep taking.
const GA_ATTEMPTS: usize = 8;

pub struct BookingService {
    catalogue: Arc<CatalogueService>,
    store: Arc<dyn CatalogueStore>,
    claims: Arc<dyn ClaimStore>,
    checkout: Arc<dyn CheckoutStore>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    events: Arc<dyn SeatEventSink>,
}

pub fn timers(config: &SiteConfig) -> StepTimers {
    let t = &config.timer_mode;
    StepTimers {
        choose_seats_s: t.choose_seats_in_seconds,
        choose_tickets_s: t.choose_tickets_in_seconds,
        choose_products_s: t.choose_products_in_seconds,
        customer_info_s: t.customer_info_in_seconds,
        payment_window_s: PAYMENT_WINDOW_SECONDS,
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

fn place(h: &HeldPlace) -> Place {
    Place {
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
        RuleCode(ErrorCode::SeatingRule(v.code()), v.to_string())
    }
}

impl From<seating::NotEnoughSeats> for RuleCode {
    fn from(v: seating::NotEnoughSeats) -> RuleCode {
        RuleCode(ErrorCode::NotEnoughSeats(v.code()), v.to_string())
    }
}

impl From<kupa_domain::checkout::StepError> for RuleCode {
    fn from(v: kupa_domain::checkout::StepError) -> RuleCode {
        RuleCode(ErrorCode::Checkout(v.code()), v.to_string())
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
            claims,
            checkout,
            captcha,
            clock,
            events,
        }
    }

    /// Tells watchers of the presentation that these places changed.
    pub fn publish(
        &self,
        presentation_id: i64,
        state: SeatChangeKind,
        places: impl IntoIterator<Item = Place>,
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
        for event in SeatEvent::expired(&released) {
            self.events.publish(event);
        }
        Ok(released.len())
    }

    async fn require_captcha(&self, token: &str) -> AppResult<()> {
        crate::ports::require_captcha(self.captcha.as_ref(), token).await
    }

    /// The presentation, on sale now, with the request's venue and seat plan checked against it.
    async fn sellable(&self, req: &SeatRequest) -> AppResult<PresentationInfo> {
        let info = self
            .catalogue
            .presentation(req.presentation_id, &Default::default())
            .await?
            .info;
        let p = &info.view.presentation;
        if p.venue_id != req.venue_id || p.seatplan_id != req.seatplan_id {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "the venue or seat plan is not this presentation's",
            ));
        }
        match info.sale_state {
            SaleState::OnSale => Ok(info),
            SaleState::NotYetStarted => Err(AppError::rejected(
                ErrorCode::TicketSaleNotYetStarted,
                "ticket sale has not started yet",
            )),
            SaleState::Ended => Err(AppError::rejected(
                ErrorCode::TicketingEnded,
                "ticketing for this presentation has ended",
            )),
        }
    }

    async fn section(
        &self,
        seatplan_id: i64,
        section_id: i64,
    ) -> AppResult<(Section, Vec<Section>)> {
        let sections = self.store.sections(seatplan_id).await?;
        let section = sections
            .iter()
            .find(|s| s.id == section_id)
            .cloned()
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::FormValidation,
                    format!("section {section_id} is not in this seat plan"),
                )
            })?;
        Ok((section, sections))
    }

    /// The session's live checkout on this presentation, or a new one starting now (true).
    async fn live_checkout(
        &self,
        session: &str,
        presentation_id: i64,
        now_ms: i64,
        timers: &StepTimers,
    ) -> AppResult<(CheckoutState, bool)> {
        Ok(
            match self
                .checkout
                .checkout_state(session, presentation_id)
                .await?
            {
                Some(s) if s.is_live(now_ms) => (s, false),
                _ => (CheckoutState::start(now_ms, timers), true),
            },
        )
    }

    fn my_live_holds<'a>(
        claims: &'a [Claim],
        session: &str,
        now_ms: i64,
    ) -> impl Iterator<Item = &'a Claim> {
        claims
            .iter()
            .filter(move |c| c.session_id == session && !c.sold && c.expires_at_ms > now_ms)
    }

    pub async fn lock(
        &self,
        session: &str,
        req: SeatRequest,
        confirmed: Confirmations,
        captcha_token: &str,
    ) -> AppResult<LockOutcome> {
        self.require_captcha(captcha_token).await?;
        let now = self.clock.now_ms();
        self.sellable(&req).await?;
        let (section, sections) = self.section(req.seatplan_id, req.section_id).await?;
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
                ErrorCode::Conflict("no_price_policy"),
                "these seats are not sold online",
            ));
        }
        let config = self.catalogue.site_config().await?;
        let timers = timers(&config);
        let (checkout, new_checkout) = self
            .live_checkout(session, req.presentation_id, now, &timers)
            .await?;
        let claims = self
            .claims
            .session_claims(req.presentation_id, session)
            .await?;
        let mine: Vec<&Claim> = Self::my_live_holds(&claims, session, now).collect();
        let max = config.max_seats_per_transaction.max(1) as usize;

        let (locked, all) = match section.kind {
            SectionKind::Reserved => {
                let seats = self.store.seats(req.seatplan_id).await?;
                let seat = seats
                    .iter()
                    .find(|s| s.section_id == req.section_id && s.x == req.x && s.y == req.y)
                    .ok_or_else(|| {
                        AppError::rejected(
                            ErrorCode::FormValidation,
                            format!(
                                "no seat at x {} y {} in section {}",
                                req.x, req.y, req.section_id
                            ),
                        )
                    })?;
                // A sofa (or bed) is held whole, in the same atomic claim.
                let group: Vec<&Seat> = match seat.sofa_id {
                    Some(sofa) => seats.iter().filter(|s| s.sofa_id == Some(sofa)).collect(),
                    None => vec![seat],
                };
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
                let all: Vec<HeldPlace> = group.iter().map(|s| held(s)).collect();
                let places: Vec<Place> = all.iter().map(place).collect();
                if !self
                    .claims
                    .hold(
                        req.presentation_id,
                        &places,
                        session,
                        now,
                        checkout.deadline_ms,
                    )
                    .await?
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
                self.lock_ga_place(
                    session,
                    req.presentation_id,
                    &section,
                    now,
                    checkout.deadline_ms,
                )
                .await?
            }
        };
        // Only a new checkout is written: an existing one (perhaps just moved on to paying by
        // another request) is never written back with an older step and deadline.
        if new_checkout {
            self.checkout
                .save_checkout_state(session, req.presentation_id, &checkout, now)
                .await?;
        }
        Ok(LockOutcome {
            locked,
            all,
            checkout,
        })
    }

    /// General admission: the lowest free numbered place, retried when another buyer takes it first.
    async fn lock_ga_place(
        &self,
        session: &str,
        presentation_id: i64,
        section: &Section,
        now: i64,
        deadline: i64,
    ) -> AppResult<(HeldPlace, Vec<HeldPlace>)> {
        for _ in 0..GA_ATTEMPTS {
            let claims = self.claims.claims(presentation_id).await?;
            let taken: Vec<i64> = claims
                .iter()
                .filter(|c| c.section_id == section.id && (c.sold || c.expires_at_ms > now))
                .map(|c| c.x)
                .collect();
            let lowest = seating::free_places(section.capacity, &taken, 1).map_err(rule)?[0];
            // Buyers racing for one section would all try the lowest number: each picks one of
            // the lowest free places at random, so most succeed at the first attempt.
            let room = (section.capacity - taken.len() as i64).clamp(1, 32) as usize;
            let candidates =
                seating::free_places(section.capacity, &taken, room).unwrap_or_default();
            let number = if candidates.is_empty() {
                lowest
            } else {
                candidates[rand::Rng::random_range(&mut rand::rng(), 0..candidates.len())]
            };
            let h = ga_place(section.id, number);
            if self
                .claims
                .hold(presentation_id, &[place(&h)], session, now, deadline)
                .await?
            {
                self.publish(presentation_id, SeatChangeKind::Held, [place(&h)]);
                return Ok((h.clone(), vec![h]));
            }
        }
        Err(AppError::rejected(
            ErrorCode::LockSeatError,
            "general admission places are being taken faster than we can hold one; try again",
        ))
    }

    /// Releases a held seat (its whole sofa) or general-admission place of this session.
    pub async fn unlock(
        &self,
        session: &str,
        req: SeatRequest,
        captcha_token: &str,
    ) -> AppResult<Vec<HeldPlace>> {
        self.require_captcha(captcha_token).await?;
        let info = self
            .catalogue
            .presentation(req.presentation_id, &Default::default())
            .await?
            .info;
        if info.view.presentation.seatplan_id != req.seatplan_id
            || info.view.presentation.venue_id != req.venue_id
        {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "the venue or seat plan is not this presentation's",
            ));
        }
        let (section, _) = self.section(req.seatplan_id, req.section_id).await?;
        let group: Vec<HeldPlace> = match section.kind {
            SectionKind::Ga => vec![ga_place(section.id, req.x)],
            SectionKind::Reserved => {
                let seats = self.store.seats(req.seatplan_id).await?;
                let seat = seats
                    .iter()
                    .find(|s| s.section_id == req.section_id && s.x == req.x && s.y == req.y)
                    .ok_or_else(|| AppError::rejected(ErrorCode::FormValidation, "no such seat"))?;
                match seat.sofa_id {
                    Some(sofa) => seats
                        .iter()
                        .filter(|s| s.sofa_id == Some(sofa))
                        .map(held)
                        .collect(),
                    None => vec![held(seat)],
                }
            }
        };
        let places: Vec<Place> = group.iter().map(place).collect();
        let released = self
            .claims
            .release(req.presentation_id, &places, session)
            .await?;
        if released > 0 {
            self.publish(req.presentation_id, SeatChangeKind::Released, places);
        } else {
            return Err(AppError::rejected(
                ErrorCode::UnlockSeatError,
                "this seat is not held by you",
            ));
        }
        Ok(group)
    }

    /// The session's checkout on this presentation, or `timeExpired` when there is none.
    async fn current_checkout(
        &self,
        session: &str,
        presentation_id: i64,
    ) -> AppResult<CheckoutState> {
        self.checkout
            .checkout_state(session, presentation_id)
            .await?
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::Checkout("timeExpired"),
                    "there is no checkout to continue",
                )
            })
    }

    /// The "Time expired" dialog's extension: once per step, before the deadline.
    pub async fn extend(&self, session: &str, presentation_id: i64) -> AppResult<CheckoutState> {
        let now = self.clock.now_ms();
        let timers = timers(&self.catalogue.site_config().await?);
        let state = self.current_checkout(session, presentation_id).await?;
        let next = state.extend(now, &timers).map_err(rule)?;
        self.checkout
            .save_checkout_state(session, presentation_id, &next, now)
            .await?;
        Ok(next)
    }

    /// Moves the checkout forward (ticket choice, cart, payment start); the holds follow the new deadline.
    pub async fn advance(
        &self,
        session: &str,
        presentation_id: i64,
        step: Step,
    ) -> AppResult<CheckoutState> {
        let now = self.clock.now_ms();
        let timers = timers(&self.catalogue.site_config().await?);
        let state = self.current_checkout(session, presentation_id).await?;
        let next = state.advance(step, now, &timers).map_err(rule)?;
        if next != state {
            self.checkout
                .save_checkout_state(session, presentation_id, &next, now)
                .await?;
        }
        Ok(next)
    }

    /// The session's live holds on a presentation and its checkout, to restore a page after a reload.
    pub async fn my_holds(
        &self,
        session: &str,
        presentation_id: i64,
    ) -> AppResult<(Vec<HeldPlace>, Option<CheckoutState>)> {
        let now = self.clock.now_ms();
        let info = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info;
        let seats = self.store.seats(info.view.presentation.seatplan_id).await?;
        let claims = self.claims.session_claims(presentation_id, session).await?;
        let mut holds: Vec<HeldPlace> = Self::my_live_holds(&claims, session, now)
            .map(|c| {
                match seats
                    .iter()
                    .find(|s| s.section_id == c.section_id && s.x == c.x && s.y == c.y)
                {
                    Some(s) => held(s),
                    None => ga_place(c.section_id, c.x),
                }
            })
            .collect();
        let places: Vec<(i64, i64, i64)> = holds.iter().map(|h| (h.section_id, h.x, h.y)).collect();
        for (h, kinds) in holds
            .iter_mut()
            .zip(crate::seat_plan::seat_kinds_of(&places, &seats))
        {
            h.seat_kinds = kinds;
        }
        let state = self
            .checkout
            .checkout_state(session, presentation_id)
            .await?
            .filter(|s| s.is_live(now));
        Ok((holds, state))
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }
}

/// What a buyer asks best-available for (spec: GET /seats/best-available).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BestAvailableQuery {
    pub presentation_id: Option<i64>,
    pub feature_id: Option<i64>,
    pub ticket_group_id: Option<i64>,
    pub section_id: Option<i64>,
    pub quantity: usize,
    pub max_matches: usize,
    pub results_per_match: usize,
    pub best_per_presentation: bool,
    /// Local days in Asia/Jerusalem, inclusive.
    pub start_date: Option<jiff::civil::Date>,
    pub end_date: Option<jiff::civil::Date>,
    pub location_id: Option<i64>,
    pub part_of_day: Option<PartOfDay>,
    pub lock: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartOfDay {
    Morning,
    Afternoon,
    Evening,
    Night,
}

impl PartOfDay {
    pub fn parse(s: &str) -> Option<PartOfDay> {
        match s {
            "morning" => Some(PartOfDay::Morning),
            "afternoon" => Some(PartOfDay::Afternoon),
            "evening" => Some(PartOfDay::Evening),
            "night" => Some(PartOfDay::Night),
            _ => None,
        }
    }

    /// Morning until 12:00, afternoon until 17:00, evening until 21:00, night after (local time).
    fn contains(self, starts_at_ms: i64) -> bool {
        let hour = kupa_domain::time::ms_to_timestamp(starts_at_ms)
            .to_zoned(kupa_domain::time::zone())
            .hour();
        match self {
            PartOfDay::Morning => hour < 12,
            PartOfDay::Afternoon => (12..17).contains(&hour),
            PartOfDay::Evening => (17..21).contains(&hour),
            PartOfDay::Night => hour >= 21,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BestMatch {
    pub presentation_id: i64,
    pub seats: Vec<HeldPlace>,
    /// Set when the seats were also held for the buyer (isLock=1).
    pub locked: Option<CheckoutState>,
}

impl BookingService {
    /// The best contiguous seats of one presentation, or the best per presentation of a feature,
    /// nearest the hall's best viewing point; with `lock`, the first block that can still be had is
    /// held for the buyer, atomically.
    pub async fn best_available(
        &self,
        session: &str,
        q: BestAvailableQuery,
        captcha_token: &str,
    ) -> AppResult<Vec<BestMatch>> {
        self.require_captcha(captcha_token).await?;
        if q.quantity == 0 {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "quantity must be at least 1",
            ));
        }
        let now = self.clock.now_ms();
        let presentations: Vec<PresentationInfo> = match (q.presentation_id, q.feature_id) {
            (Some(id), _) => vec![
                self.catalogue
                    .presentation(id, &Default::default())
                    .await?
                    .info,
            ],
            (None, Some(feature)) => {
                let filter = crate::catalogue::PresentationFilter {
                    feature_ids: vec![feature],
                    location_id: q.location_id,
                };
                self.catalogue
                    .upcoming(&filter, &Default::default())
                    .await?
                    .into_iter()
                    .filter(|p| p.sale_state == SaleState::OnSale && !p.is_vod)
                    .filter(|p| {
                        let day = kupa_domain::time::local_date(
                            kupa_domain::time::ms_to_timestamp(p.view.presentation.starts_at_ms),
                        );
                        q.start_date.is_none_or(|d| day >= d) && q.end_date.is_none_or(|d| day <= d)
                    })
                    .filter(|p| {
                        q.part_of_day
                            .is_none_or(|part| part.contains(p.view.presentation.starts_at_ms))
                    })
                    .collect()
            }
            (None, None) => {
                return Err(AppError::rejected(
                    ErrorCode::FormValidation,
                    "give a presentationId or a featureId",
                ));
            }
        };
        let single = presentations.len() == 1;
        let mut matches = Vec::new();
        let mut last_error = None;
        for info in presentations.iter().take(if q.best_per_presentation {
            q.max_matches.max(1)
        } else {
            usize::MAX
        }) {
            if info.sale_state != SaleState::OnSale {
                if single {
                    self.sellable(&SeatRequest {
                        presentation_id: info.id(),
                        venue_id: info.view.presentation.venue_id,
                        seatplan_id: info.view.presentation.seatplan_id,
                        section_id: 0,
                        x: 0,
                        y: 0,
                    })
                    .await?;
                }
                continue;
            }
            match self.blocks_for(session, info, &q).await {
                Ok(blocks) => {
                    let per = if q.best_per_presentation {
                        q.results_per_match.max(1)
                    } else {
                        q.max_matches.max(1)
                    };
                    for seats in blocks.into_iter().take(per) {
                        matches.push(BestMatch {
                            presentation_id: info.id(),
                            seats,
                            locked: None,
                        });
                    }
                }
                Err(e) => last_error = Some(e),
            }
            if matches.len() >= q.max_matches.max(1) {
                break;
            }
        }
        if matches.is_empty() {
            return Err(last_error.unwrap_or_else(|| {
                AppError::rejected(
                    ErrorCode::NotEnoughSeats("NOT_ENOUGH_SEATS"),
                    "no seats found",
                )
            }));
        }
        matches.truncate(q.max_matches.max(1));
        if q.lock {
            // Hold the first block that can still be had: others may be racing for the same seats.
            let config = self.catalogue.site_config().await?;
            let timers = timers(&config);
            for m in matches.iter_mut() {
                let (checkout, new_checkout) = self
                    .live_checkout(session, m.presentation_id, now, &timers)
                    .await?;
                let places: Vec<Place> = m.seats.iter().map(place).collect();
                let mine = self
                    .claims
                    .session_claims(m.presentation_id, session)
                    .await?;
                let held_now = Self::my_live_holds(&mine, session, now).count();
                seating::check_max_seats(
                    held_now + places.len(),
                    config.max_seats_per_transaction.max(1) as usize,
                )
                .map_err(rule)?;
                if self
                    .claims
                    .hold(
                        m.presentation_id,
                        &places,
                        session,
                        now,
                        checkout.deadline_ms,
                    )
                    .await?
                {
                    self.publish(m.presentation_id, SeatChangeKind::Held, places);
                    if new_checkout {
                        self.checkout
                            .save_checkout_state(session, m.presentation_id, &checkout, now)
                            .await?;
                    }
                    m.locked = Some(checkout);
                    let locked = m.clone();
                    return Ok(vec![locked]);
                }
            }
            return Err(AppError::rejected(
                ErrorCode::LockSeatError,
                "the best seats were just taken; try again",
            ));
        }
        Ok(matches)
    }

    async fn blocks_for(
        &self,
        session: &str,
        info: &PresentationInfo,
        q: &BestAvailableQuery,
    ) -> AppResult<Vec<Vec<HeldPlace>>> {
        let p = &info.view.presentation;
        let sections = self.store.sections(p.seatplan_id).await?;
        // Sections sold online only: best-available never offers box-office-only seats.
        let group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        let priced: Vec<i64> = self
            .store
            .ticket_groups(&group_ids)
            .await?
            .iter()
            .filter(|(_, ts)| !ts.is_empty())
            .map(|(g, _)| g.id)
            .collect();
        let sections: Vec<Section> = sections
            .into_iter()
            .filter(|s| priced.contains(&s.ticket_group_id))
            .collect();
        let in_group = |s: &&Section| q.ticket_group_id.is_none_or(|g| s.ticket_group_id == g);
        let reserved: Vec<i64> = sections
            .iter()
            .filter(in_group)
            .filter(|s| s.kind == SectionKind::Reserved)
            .map(|s| s.id)
            .collect();
        let ga: Vec<&Section> = sections
            .iter()
            .filter(in_group)
            .filter(|s| s.kind == SectionKind::Ga)
            .collect();
        if reserved.is_empty() && !ga.is_empty() {
            // General admission: the lowest free numbered places of the first section that has them.
            let claims = self.claims.claims(p.id).await?;
            let now = self.clock.now_ms();
            let mut last = None;
            for s in ga
                .iter()
                .filter(|s| q.section_id.is_none_or(|id| id == s.id))
            {
                let taken: Vec<i64> = claims
                    .iter()
                    .filter(|c| c.section_id == s.id && (c.sold || c.expires_at_ms > now))
                    .map(|c| c.x)
                    .collect();
                match seating::free_places(s.capacity, &taken, q.quantity) {
                    Ok(numbers) => {
                        return Ok(vec![
                            numbers.into_iter().map(|n| ga_place(s.id, n)).collect(),
                        ]);
                    }
                    Err(e) => last = Some(rule(e)),
                }
            }
            return Err(last.unwrap_or_else(|| {
                AppError::rejected(
                    ErrorCode::NotEnoughSeats("ga_not_enough_seats"),
                    "no places",
                )
            }));
        }
        let status = self
            .catalogue
            .seat_status(p.id, None, Some(session), &Default::default())
            .await?;
        let statuses: Vec<seating::SeatStatus> = status
            .seats
            .iter()
            .map(|(s, st)| seating::SeatStatus {
                seat: plan_seat(s, &sections),
                occupancy: (*st).into(),
            })
            .collect();
        let seatplan = self
            .store
            .seatplan(p.seatplan_id)
            .await?
            .ok_or_else(|| AppError::internal("presentation without seat plan"))?;
        let choice = match q.section_id {
            Some(id) => seating::SectionChoice::Requested(id),
            None => seating::SectionChoice::Allowed(&reserved),
        };
        let request = seating::BestAvailableRequest {
            quantity: q.quantity,
            best_x: seatplan.best_x,
            best_y: seatplan.best_y,
            sections: choice,
            seating_policy_id: p.seating_policy_id,
            include_wheelchair: false,
            include_limited_view: false,
            max_matches: q.max_matches.max(1),
        };
        let blocks = seating::best_available(&statuses, &request).map_err(rule)?;
        Ok(blocks
            .into_iter()
            .map(|b| {
                b.seats
                    .iter()
                    .filter_map(|k| {
                        status
                            .seats
                            .iter()
                            .find(|(s, _)| s.section_id == k.section_id && s.x == k.x && s.y == k.y)
                            .map(|(s, _)| held(s))
                    })
                    .collect()
            })
            .collect())
    }
}
