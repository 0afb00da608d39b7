//! The seat map side of the catalogue: a hall's seat plan, and the state of its seats for one
//! presentation as a buyer sees them (from the versioned snapshot of `snapshot`, the single-seat
//! rule's blocked seats).

use super::snapshot::{Entry, Snapshot, StatusVersion};
use super::*;

#[derive(Debug, Clone, PartialEq)]
pub struct SeatplanFull {
    pub venue_id: i64,
    pub seatplan: Seatplan,
    pub sections: Vec<Section>,
    pub seats: Vec<Seat>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SectionStatus {
    pub section: Section,
    /// Places not held or sold; for reserved sections, available seats.
    pub remaining: i64,
    pub sold_out: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SeatStatus {
    pub presentation_id: PresentationId,
    pub sections: Vec<SectionStatus>,
    pub seats: Vec<(Seat, SeatState)>,
    /// Free seats this buyer may not take next: under seating policy 3 they would leave a new
    /// single empty seat beside the buyer's selection; and the seats of a section with no price
    /// online (also in `box_office`).
    pub blocked: std::collections::BTreeSet<kupa_domain::seating::SeatAddress>,
    /// The blocked seats that are sold at the box office only (their section has no price
    /// online); every other blocked seat is blocked by the single-seat rule.
    pub box_office: std::collections::BTreeSet<kupa_domain::seating::SeatAddress>,
    /// The version of the shared seat states this answer shows (decision 0060).
    pub version: StatusVersion,
    /// The viewer's own live holds on the presentation.
    pub mine: std::collections::BTreeSet<kupa_domain::seating::SeatAddress>,
    /// The seats whose shared state changed after the version the caller named, when this node
    /// can tell (None: answer in full).
    pub changed: Option<Vec<kupa_domain::seating::SeatAddress>>,
}

/// Why a seat is blocked for this buyer, as the seat map says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockReason {
    /// Taking it would leave a new single empty seat (seating policy 3).
    SingleSeat,
    /// Its section has no price online: sold at the box office only.
    BoxOffice,
}

impl SeatStatus {
    /// Why `seat` is blocked, or None when it is not.
    pub fn block_reason(&self, seat: &kupa_domain::seating::SeatAddress) -> Option<BlockReason> {
        if self.box_office.contains(seat) {
            Some(BlockReason::BoxOffice)
        } else if self.blocked.contains(seat) {
            Some(BlockReason::SingleSeat)
        } else {
            None
        }
    }
}

/// How long the seat status may be served from memory without any event saying it changed (the
/// safety net for a missed cross-node event). The status is advisory: a lock always asks the
/// database.
pub const CLAIMS_TTL_MS: u64 = 1_000;

impl CatalogueService {
    /// A seat of the presentation changed (on this node or, relayed, another; None: any may have):
    /// the next seat status reads the claims again.
    pub fn forget_claims(&self, presentation_id: Option<PresentationId>) {
        let mut cache = self.claims_cache.lock().expect("claims cache poisoned");
        let Some(presentation_id) = presentation_id else {
            for c in cache.values_mut() {
                c.changed();
            }
            return;
        };
        cache
            .entry(presentation_id)
            .or_insert_with(Entry::new)
            .changed();
    }

    /// The presentation's seat status snapshot (decision 0060): from memory when nothing says it
    /// changed, so a hall's watchers reloading the status during a rush cost the database one
    /// read, not one each; and the seats changed since `since`, when that can be told.
    pub async fn status_snapshot(
        &self,
        presentation_id: PresentationId,
        since: Option<StatusVersion>,
    ) -> AppResult<(Arc<Snapshot>, Option<Vec<SeatAddress>>)> {
        let answer = |cache: &HashMap<PresentationId, Entry>, snapshot: Arc<Snapshot>| {
            let changed = since.and_then(|v| {
                cache
                    .get(&presentation_id)
                    .and_then(|e| e.changes_since(v, &snapshot))
            });
            (snapshot, changed)
        };
        // Every change announced before now was written before now: a snapshot whose claims
        // were read from now on shows them all.
        let asked = std::time::Instant::now();
        let rebuild = {
            let cache = self.claims_cache.lock().expect("claims cache poisoned");
            if let Some(s) = cache
                .get(&presentation_id)
                .and_then(|e| e.serve(self.now_ms(), CLAIMS_TTL_MS))
            {
                return Ok(answer(&cache, s));
            }
            cache.get(&presentation_id).map(|e| e.rebuild.clone())
        };
        // One reader rebuilds; the others wait for it and take what it built.
        let rebuild = rebuild.unwrap_or_else(|| {
            let mut cache = self.claims_cache.lock().expect("claims cache poisoned");
            cache
                .entry(presentation_id)
                .or_insert_with(Entry::new)
                .rebuild
                .clone()
        });
        let _rebuilding = rebuild.lock().await;
        let generation = {
            let cache = self.claims_cache.lock().expect("claims cache poisoned");
            match cache.get(&presentation_id) {
                Some(e) => {
                    // The rebuild this reader waited for read the claims after it asked: that
                    // answer is new enough for it, even if another change came in since.
                    let served = e
                        .serve(self.now_ms(), CLAIMS_TTL_MS)
                        .or_else(|| e.read_since(asked, self.now_ms()));
                    if let Some(s) = served {
                        return Ok(answer(&cache, s));
                    }
                    e.generation
                }
                None => 0,
            }
        };
        let started = std::time::Instant::now();
        let claims = self.claims.claims(presentation_id).await?;
        let now = self.now_ms();
        let mut cache = self.claims_cache.lock().expect("claims cache poisoned");
        if cache.len() > 10_000 {
            cache.retain(|_, e| e.age_ms() < u128::from(CLAIMS_TTL_MS));
        }
        let entry = cache.entry(presentation_id).or_insert_with(Entry::new);
        let snapshot = entry.install(&claims, now, started, generation);
        Ok(answer(&cache, snapshot))
    }

    /// The seat plan as a buyer asks for it (spec: POST /seats/seatplanV2 carries a captcha).
    /// The plan; with a presentation of it, its sections sell the screening's ticket groups
    /// (a screening's own group in place of its hall's main one, decision 0070).
    pub async fn buyer_seatplan(
        &self,
        captcha_token: &str,
        venue_id: i64,
        seatplan_id: i64,
        presentation_id: Option<PresentationId>,
    ) -> AppResult<SeatplanFull> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let mut plan = self.seatplan(venue_id, seatplan_id).await?;
        if let Some(id) = presentation_id {
            let view = self
                .store
                .presentation(id)
                .await?
                .filter(|v| v.presentation.seatplan_id == seatplan_id)
                .ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::NotFound,
                        format!("presentation {id} is not sold on seat plan {seatplan_id}"),
                    )
                })?;
            plan.sections = crate::prices::with_screening_group(&view.presentation, plan.sections);
        }
        Ok(plan)
    }

    /// The older seat status call (GET /seats/seats-status), which carries a captcha.
    pub async fn buyer_seat_status(
        &self,
        captcha_token: &str,
        presentation_id: PresentationId,
        viewer: &SessionId,
        channel: &Channel,
    ) -> AppResult<SeatStatus> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        self.seat_status(presentation_id, None, Some(viewer), channel)
            .await
    }

    pub async fn seatplan(&self, venue_id: i64, seatplan_id: i64) -> AppResult<SeatplanFull> {
        let seatplan = self
            .store
            .seatplan(seatplan_id)
            .await?
            .filter(|s| s.venue_id == venue_id)
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::NotFound,
                    format!("seat plan {seatplan_id} of venue {venue_id} not found"),
                )
            })?;
        let sections = self.store.sections(seatplan_id).await?;
        let seats = self.store.seats(seatplan_id).await?;
        Ok(SeatplanFull {
            venue_id,
            seatplan,
            sections,
            seats,
        })
    }

    /// Each seat as `viewer` sees it, and each section's remaining places.
    pub async fn seat_status(
        &self,
        presentation_id: PresentationId,
        section_id: Option<i64>,
        viewer: Option<&SessionId>,
        channel: &Channel,
    ) -> AppResult<SeatStatus> {
        self.seat_status_since(presentation_id, section_id, viewer, channel, None)
            .await
    }

    /// The seat status with its version, and (when `since` is a version this node can still
    /// tell) the seats changed after it in `changed`.
    pub async fn seat_status_since(
        &self,
        presentation_id: PresentationId,
        section_id: Option<i64>,
        viewer: Option<&SessionId>,
        channel: &Channel,
        since: Option<StatusVersion>,
    ) -> AppResult<SeatStatus> {
        let viewer = viewer.map(SessionId::as_str);
        let detail = self.presentation(presentation_id, channel).await?;
        let seatplan_id = detail.info.view.presentation.seatplan_id;
        let mut sections =
            crate::prices::sections_of(self.store.as_ref(), &detail.info.view.presentation).await?;
        if let Some(sid) = section_id {
            sections.retain(|s| s.id == sid);
            if sections.is_empty() {
                return Err(AppError::rejected(
                    ErrorCode::NotFound,
                    format!("section {sid} is not in this presentation"),
                ));
            }
        }
        let seats = self.store.seats(seatplan_id).await?;
        let (snapshot, changed) = self.status_snapshot(presentation_id, since).await?;
        let state_of = |section_id: i64, x: i64, y: i64| {
            snapshot.state_for(&SeatAddress::new(section_id, x, y), viewer)
        };
        let seats: Vec<(Seat, SeatState)> = seats
            .into_iter()
            .filter(|s| sections.iter().any(|sec| sec.id == s.section_id))
            .map(|s| {
                let st = state_of(s.section_id, s.x, s.y);
                (s, st)
            })
            .collect();
        let mut box_office = std::collections::BTreeSet::new();
        let blocked = {
            let statuses = crate::seat_plan::rule_statuses(&seats, &sections);
            let mut blocked = kupa_domain::seating::blocked_seats(
                detail.info.view.presentation.seating_policy_id,
                &statuses,
            );
            // Seats of a section with no price online (press seats) are sold at the box office
            // only: not selectable here, whatever their state.
            let group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
            let priced: Vec<i64> = self
                .store
                .ticket_groups(&group_ids)
                .await?
                .into_iter()
                .filter(|(_, tickets)| !tickets.is_empty())
                .map(|(g, _)| g.id)
                .collect();
            for (seat, _) in &seats {
                let unpriced = sections
                    .iter()
                    .any(|s| s.id == seat.section_id && !priced.contains(&s.ticket_group_id));
                if unpriced {
                    let address = kupa_domain::seating::SeatAddress {
                        section_id: seat.section_id,
                        x: seat.x,
                        y: seat.y,
                    };
                    blocked.insert(address);
                    box_office.insert(address);
                }
            }
            blocked
        };
        let sections = sections
            .into_iter()
            .map(|section| {
                let remaining = match section.kind {
                    SectionKind::Reserved => seats
                        .iter()
                        .filter(|(s, st)| s.section_id == section.id && st.is_available())
                        .count() as i64,
                    SectionKind::Ga => {
                        let taken = snapshot
                            .taken
                            .keys()
                            .filter(|a| a.section_id == section.id)
                            .count() as i64;
                        (section.capacity - taken).max(0)
                    }
                };
                SectionStatus {
                    sold_out: remaining == 0,
                    remaining,
                    section,
                }
            })
            .collect();
        Ok(SeatStatus {
            presentation_id,
            sections,
            seats,
            blocked,
            box_office,
            version: snapshot.version,
            mine: snapshot.held_by(viewer),
            changed,
        })
    }
}
