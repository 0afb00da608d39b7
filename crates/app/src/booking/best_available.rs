//! Best available (spec: GET /seats/best-available): the best free blocks of a presentation, or
//! of a feature's presentations in a date range, optionally held at once.

use super::*;
use kupa_domain::ids::{PresentationId, SessionId};

/// What a buyer asks best-available for (spec: GET /seats/best-available).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BestAvailableQuery {
    pub presentation_id: Option<PresentationId>,
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
    pub presentation_id: PresentationId,
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
        session: &SessionId,
        holder: &Holder,
        q: BestAvailableQuery,
        channel: &Channel,
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
            (Some(id), _) => vec![self.catalogue.presentation(id, channel).await?.info],
            (None, Some(feature)) => {
                let filter = crate::catalogue::PresentationFilter {
                    feature_ids: vec![feature],
                    location_id: q.location_id,
                };
                self.catalogue
                    .upcoming(&filter, channel)
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
            // Outside its sale window, or stopped by a switch of the buyer's channel: one
            // presentation asked for says why; a feature's search passes over it.
            if let Err(why) = info.require_on_sale() {
                if single {
                    return Err(why);
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
                AppError::rejected(ErrorCode::NotEnoughSeats, "no seats found")
            }));
        }
        matches.truncate(q.max_matches.max(1));
        if q.lock {
            return self
                .hold_best(session, holder, &q, &presentations, &matches, now)
                .await;
        }
        Ok(matches)
    }

    /// Holds the best block still free, searching again under the presentation's lock in the
    /// arbiter: the block found is the block held, so buyers racing for the same hall each get
    /// the next best block instead of "try again".
    async fn hold_best(
        &self,
        session: &SessionId,
        holder: &Holder,
        q: &BestAvailableQuery,
        presentations: &[PresentationInfo],
        matches: &[BestMatch],
        now: i64,
    ) -> AppResult<Vec<BestMatch>> {
        let config = self.catalogue.site_config().await?;
        let timers = self.timers(&config);
        let mut tried: Vec<PresentationId> = Vec::new();
        let mut last_error = None;
        for m in matches {
            if tried.contains(&m.presentation_id) {
                continue;
            }
            tried.push(m.presentation_id);
            let Some(info) = presentations.iter().find(|p| p.id() == m.presentation_id) else {
                continue;
            };
            let (checkout, new_checkout) = self
                .live_checkout(session, m.presentation_id, now, &timers)
                .await?;
            let held_now = self.held_by(session, m.presentation_id, now).await?.len();
            seating::check_max_seats(
                held_now + q.quantity,
                config.max_seats_per_transaction.max(1) as usize,
            )
            .map_err(rule)?;
            self.check_hold_limits(session, holder, q.quantity, now)
                .await?;
            let plan = self.search_plan(info, q).await?;
            let picked = self
                .arbiter
                .pick_and_hold(
                    m.presentation_id,
                    session,
                    now,
                    checkout.deadline_ms,
                    // A new checkout is written in the hold's batch.
                    new_checkout.then(|| ClaimOp::SaveCheckout {
                        presentation_id: m.presentation_id,
                        session_id: session.clone(),
                        state: checkout,
                        now_ms: now,
                    }),
                    |view| {
                        let first = plan.search(q, view)?.into_iter().next().ok_or_else(|| {
                            AppError::rejected(ErrorCode::NotEnoughSeats, "no seats found")
                        })?;
                        Ok((first.iter().map(place).collect(), first))
                    },
                )
                .await;
            match picked {
                Ok(Some((places, seats))) => {
                    self.publish(m.presentation_id, SeatChangeKind::Held, places);
                    return Ok(vec![BestMatch {
                        presentation_id: m.presentation_id,
                        seats,
                        locked: Some(checkout),
                    }]);
                }
                Ok(None) => {
                    last_error = Some(AppError::rejected(
                        ErrorCode::LockSeatError,
                        "the best seats were just taken; try again",
                    ))
                }
                Err(e) => last_error = Some(e),
            }
        }
        Err(last_error
            .unwrap_or_else(|| AppError::rejected(ErrorCode::NotEnoughSeats, "no seats found")))
    }

    async fn blocks_for(
        &self,
        session: &SessionId,
        info: &PresentationInfo,
        q: &BestAvailableQuery,
    ) -> AppResult<Vec<Vec<HeldPlace>>> {
        let plan = self.search_plan(info, q).await?;
        let now = self.clock.now_ms();
        self.arbiter
            .with_view(info.id(), session, now, |view| plan.search(q, view))
            .await?
    }

    /// What a search of the presentation needs from the catalogue, read before its lock.
    async fn search_plan(
        &self,
        info: &PresentationInfo,
        q: &BestAvailableQuery,
    ) -> AppResult<SearchPlan> {
        let p = &info.view.presentation;
        let sections = crate::prices::sections_of(self.store.as_ref(), p).await?;
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
        let ga: Vec<Section> = sections
            .iter()
            .filter(in_group)
            .filter(|s| s.kind == SectionKind::Ga)
            .cloned()
            .collect();
        let seatplan = self
            .store
            .seatplan(p.seatplan_id)
            .await?
            .ok_or_else(|| AppError::internal("presentation without seat plan"))?;
        let seats = if reserved.is_empty() {
            Vec::new()
        } else {
            self.store.seats(p.seatplan_id).await?
        };
        Ok(SearchPlan {
            sections,
            reserved,
            ga,
            seats,
            best: (seatplan.best_x, seatplan.best_y),
            seating_policy_id: p.seating_policy_id,
        })
    }
}

/// A presentation's best-available search, its catalogue read: searched against the places'
/// states as the arbiter has them ([`SearchPlan::search`]), inside or outside its lock.
struct SearchPlan {
    /// The sections sold online.
    sections: Vec<Section>,
    reserved: Vec<i64>,
    ga: Vec<Section>,
    seats: Vec<Seat>,
    best: (i64, i64),
    seating_policy_id: i64,
}

impl SearchPlan {
    fn search(
        &self,
        q: &BestAvailableQuery,
        view: &dyn Fn(&SeatAddress) -> kupa_domain::catalogue::SeatState,
    ) -> AppResult<Vec<Vec<HeldPlace>>> {
        if self.reserved.is_empty() && !self.ga.is_empty() {
            // General admission: the lowest free numbered places of the first section that has them.
            let mut last = None;
            for s in self
                .ga
                .iter()
                .filter(|s| q.section_id.is_none_or(|id| id == s.id))
            {
                match free_ga_places(s, view, q.quantity) {
                    Ok(numbers) => {
                        return Ok(vec![
                            numbers.into_iter().map(|n| ga_place(s.id, n)).collect(),
                        ]);
                    }
                    Err(e) => last = Some(e),
                }
            }
            return Err(last
                .unwrap_or_else(|| AppError::rejected(ErrorCode::GaNotEnoughSeats, "no places")));
        }
        let seats: Vec<(Seat, kupa_domain::catalogue::SeatState)> = self
            .seats
            .iter()
            .map(|s| (s.clone(), view(&SeatAddress::new(s.section_id, s.x, s.y))))
            .collect();
        let statuses = crate::seat_plan::rule_statuses(&seats, &self.sections);
        let choice = match q.section_id {
            Some(id) => seating::SectionChoice::Requested(id),
            None => seating::SectionChoice::Allowed(&self.reserved),
        };
        let request = seating::BestAvailableRequest {
            quantity: q.quantity,
            best_x: self.best.0,
            best_y: self.best.1,
            sections: choice,
            seating_policy_id: self.seating_policy_id,
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
                        self.seats
                            .iter()
                            .find(|s| s.section_id == k.section_id && s.x == k.x && s.y == k.y)
                            .map(held)
                    })
                    .collect()
            })
            .collect())
    }
}
