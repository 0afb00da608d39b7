//! The seat arbiter (decision 0059): each presentation's claims in memory, so a lock, an unlock
//! or a best-available pick is decided under that presentation's own lock, in microseconds, and
//! then written through the group-committing [`ClaimWriter`].
//!
//! The database stays the guard: every write is still the conditional statement of decision 0002
//! (a hold takes a place only when it is free, expired or the session's own), so a decision made
//! on a stale view is refused by the database, never sold twice; the arbiter then reloads the
//! presentation. It learns what other paths and other nodes change from the seat events
//! ([`SeatArbiter::observe`]), and reads the claims again every [`RELOAD_AFTER`] at the latest.
//!
//! Memory never says "taken" of a place the database holds free for longer than a hold's own
//! deadline or one reload, and a place memory believes free is only ever offered to the database,
//! which decides.

mod hall;
mod settle;

use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::claim_writer::ClaimWriter;

use kupa_domain::catalogue::SeatState;

use crate::error::{AppResult, StoreError, StoreResult};
use crate::ports::{ClaimOp, ClaimStore, SeatAddress};
use crate::seat_events::{SeatChangeKind, SeatEvent};

use hall::{Hall, HallCell, PlaceState, Slot};
pub use settle::{Settled, Settling};

/// The longest the arbiter decides from one reading of a presentation's claims: the safety net
/// for a change no event told it of (a hold order's claims moved, an event lost between nodes).
pub const RELOAD_AFTER: Duration = Duration::from_secs(5);

/// Presentations kept in memory before the idle ones are forgotten, and how long one is idle.
const KEPT_HALLS: usize = 512;
const IDLE_HALL: Duration = Duration::from_secs(600);

/// What a decision does with the places it asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HoldDecision {
    /// Held in memory and written: the places are the session's.
    Held,
    /// Another buyer holds or bought one of them (memory, or the database's refusal).
    Taken,
}

pub struct SeatArbiter {
    claims: Arc<dyn ClaimStore>,
    writer: ClaimWriter,
    halls: Mutex<HashMap<PresentationId, Arc<HallCell>>>,
}

impl SeatArbiter {
    pub fn new(claims: Arc<dyn ClaimStore>) -> SeatArbiter {
        SeatArbiter {
            writer: ClaimWriter::new(claims.clone()),
            claims,
            halls: Mutex::new(HashMap::new()),
        }
    }

    fn cell(&self, presentation_id: PresentationId) -> Arc<HallCell> {
        let mut halls = self.halls.lock().expect("arbiter poisoned");
        if halls.len() >= KEPT_HALLS && !halls.contains_key(&presentation_id) {
            // Forget presentations nobody decided on lately (read again if they come back).
            halls.retain(|_, cell| {
                Arc::strong_count(cell) > 1
                    || cell.hall.try_lock().is_ok_and(|h| {
                        !h.inflight.is_empty()
                            || h.loaded_at.is_some_and(|t| t.elapsed() < IDLE_HALL)
                    })
            });
        }
        halls.entry(presentation_id).or_default().clone()
    }

    /// The presentation's claims in memory, read again when never read, told stale, or older than
    /// [`RELOAD_AFTER`]. Decisions already made while reading are kept over what was read.
    async fn loaded(&self, presentation_id: PresentationId) -> AppResult<Arc<HallCell>> {
        let cell = self.cell(presentation_id);
        if cell.hall.lock().expect("arbiter poisoned").fresh() {
            return Ok(cell);
        }
        let _one = cell.loading.lock().await;
        {
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            if h.fresh() {
                return Ok(cell.clone());
            }
            h.dirty = Some(HashSet::new());
        }
        let read = self.claims.claims(presentation_id).await;
        let mut h = cell.hall.lock().expect("arbiter poisoned");
        let dirty = h.dirty.take().unwrap_or_default();
        let claims = read?;
        let mut slots: HashMap<SeatAddress, Slot> = claims
            .iter()
            .map(|c| (c.address(), Slot::from_claim(c)))
            .collect();
        for p in dirty.iter().chain(h.inflight.keys()) {
            match h.slots.get(p) {
                Some(s) => slots.insert(*p, s.clone()),
                None => slots.remove(p),
            };
        }
        h.slots = slots;
        h.loaded_at = Some(Instant::now());
        drop(h);
        Ok(cell.clone())
    }

    /// Holds `places` for `session` until `expires_at_ms`, all or none: decided in memory, then
    /// written (the answer waits for the batch's commit). `then` is written right after the hold,
    /// in its batch, when memory grants it (the checkout a first hold starts).
    pub async fn hold(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
        then: Option<ClaimOp>,
    ) -> AppResult<HoldDecision> {
        let cell = self.loaded(presentation_id).await?;
        let places = ordered(places);
        let pending = {
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            if places
                .iter()
                .any(|p| h.refuses(p, session.as_str(), now_ms))
            {
                return Ok(HoldDecision::Taken);
            }
            self.decide_hold(
                &mut h,
                presentation_id,
                &places,
                session,
                now_ms,
                expires_at_ms,
                then,
            )
        };
        self.finish_hold(&cell, pending).await
    }

    /// Picks places with `pick` (given each place's state as memory has it) and holds them, under
    /// one lock of the presentation: no other decision on it comes between the search and the
    /// hold. A refusal by the database (memory was stale) reads the claims again and searches
    /// again, a few times; `None` when it was refused every time.
    pub async fn pick_and_hold<T>(
        &self,
        presentation_id: PresentationId,
        session: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
        then: Option<ClaimOp>,
        mut pick: impl FnMut(&dyn Fn(&SeatAddress) -> SeatState) -> AppResult<(Vec<SeatAddress>, T)>,
    ) -> AppResult<Option<(Vec<SeatAddress>, T)>> {
        for _ in 0..4 {
            let cell = self.loaded(presentation_id).await?;
            let (pending, places, value) = {
                let mut h = cell.hall.lock().expect("arbiter poisoned");
                let (places, value) = {
                    let hall: &Hall = &h;
                    let view = |p: &SeatAddress| hall.state(p, now_ms).seat_state(session.as_str());
                    pick(&view)?
                };
                let places = ordered(&places);
                let pending = self.decide_hold(
                    &mut h,
                    presentation_id,
                    &places,
                    session,
                    now_ms,
                    expires_at_ms,
                    then.clone(),
                );
                (pending, places, value)
            };
            if self.finish_hold(&cell, pending).await? == HoldDecision::Held {
                return Ok(Some((places, value)));
            }
        }
        Ok(None)
    }

    /// Marks the places held in memory and queues their write (under the presentation's lock, so
    /// writes reach the database in the order they were decided).
    #[allow(clippy::too_many_arguments)]
    fn decide_hold(
        &self,
        h: &mut Hall,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
        then: Option<ClaimOp>,
    ) -> PendingHold {
        let slot = Slot::Held {
            session: Arc::from(session.as_str()),
            expires_at_ms,
            here: true,
        };
        let before: Vec<Option<Slot>> = places.iter().map(|p| h.slots.get(p).cloned()).collect();
        for p in places {
            h.set(*p, Some(slot.clone()));
        }
        h.begin_write(places);
        let answer = self.writer.submit(ClaimOp::Hold {
            presentation_id,
            places: places.to_vec(),
            session_id: session.clone(),
            now_ms,
            expires_at_ms,
        });
        let then = then.map(|op| self.writer.submit(op));
        PendingHold {
            places: places.to_vec(),
            before,
            slot,
            answer,
            then,
        }
    }

    async fn finish_hold(&self, cell: &HallCell, p: PendingHold) -> AppResult<HoldDecision> {
        let written = p
            .answer
            .await
            .unwrap_or_else(|_| Err(StoreError::Other("the claim writer dropped a hold".into())));
        let then_written = match p.then {
            Some(then) => then
                .await
                .unwrap_or_else(|_| {
                    Err(StoreError::Other("the claim writer dropped a write".into()))
                })
                .map(|_| ()),
            None => Ok(()),
        };
        let mut h = cell.hall.lock().expect("arbiter poisoned");
        h.end_write(&p.places);
        let held = matches!(written, Ok(1));
        for (place, before) in p.places.iter().zip(p.before) {
            if held || h.slots.get(place) != Some(&p.slot) {
                continue;
            }
            match written {
                // The database refused: someone memory did not know of has one of the places
                // (another node's buyer, a hold moved by another path). They are taken; which
                // one, the next reading says.
                Ok(_) => h.set(*place, Some(Slot::Taken)),
                // Not written at all: memory goes back, and reads the presentation again.
                Err(_) => {
                    h.set(*place, before);
                    h.loaded_at = None;
                }
            }
        }
        drop(h);
        written?;
        then_written?;
        Ok(if held {
            HoldDecision::Held
        } else {
            HoldDecision::Taken
        })
    }

    /// Releases the session's holds on these places; returns how many the database released.
    pub async fn release(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session: &SessionId,
    ) -> AppResult<u64> {
        let cell = self.cell(presentation_id);
        let places = ordered(places);
        let answer = {
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            for p in &places {
                if matches!(h.slots.get(p), Some(Slot::Held { session: s, .. }) if &**s == session.as_str())
                {
                    h.set(*p, None);
                }
            }
            h.begin_write(&places);
            self.writer.submit(ClaimOp::Release {
                presentation_id,
                places: places.clone(),
                session_id: session.clone(),
            })
        };
        let written = answer.await.unwrap_or_else(|_| {
            Err(StoreError::Other(
                "the claim writer dropped a release".into(),
            ))
        });
        let mut h = cell.hall.lock().expect("arbiter poisoned");
        h.end_write(&places);
        if !matches!(written, Ok(n) if n as usize == places.len()) {
            h.loaded_at = None;
        }
        drop(h);
        Ok(written?)
    }

    /// The session's holds on the presentation now run until `expires_at_ms` (the database moved
    /// them with the checkout's step).
    pub fn holds_moved(
        &self,
        presentation_id: PresentationId,
        session: &SessionId,
        expires_at_ms: i64,
        now_ms: i64,
    ) {
        let cell = self.cell(presentation_id);
        let mut h = cell.hall.lock().expect("arbiter poisoned");
        let mine: Vec<SeatAddress> = h
            .slots
            .iter()
            .filter(
                |(_, s)| matches!(s.state(now_ms), PlaceState::HeldBy(x) if x == session.as_str()),
            )
            .map(|(p, _)| *p)
            .collect();
        for p in mine {
            if let Some(Slot::Held {
                expires_at_ms: e, ..
            }) = h.slots.get_mut(&p)
            {
                *e = expires_at_ms;
            }
        }
    }

    /// Runs `f` on the presentation's places as memory has them, for `viewer` (a search without
    /// a hold).
    pub async fn with_view<T>(
        &self,
        presentation_id: PresentationId,
        viewer: &SessionId,
        now_ms: i64,
        f: impl FnOnce(&dyn Fn(&SeatAddress) -> SeatState) -> T,
    ) -> AppResult<T> {
        let cell = self.loaded(presentation_id).await?;
        let h = cell.hall.lock().expect("arbiter poisoned");
        let hall: &Hall = &h;
        let view = |p: &SeatAddress| hall.state(p, now_ms).seat_state(viewer.as_str());
        Ok(f(&view))
    }

    /// The session's live holds on the presentation, as memory has them.
    pub async fn holds_of(
        &self,
        presentation_id: PresentationId,
        session: &SessionId,
        now_ms: i64,
    ) -> AppResult<Vec<SeatAddress>> {
        let cell = self.loaded(presentation_id).await?;
        let h = cell.hall.lock().expect("arbiter poisoned");
        let mut v: Vec<SeatAddress> = h
            .slots
            .iter()
            .filter(
                |(_, s)| matches!(s.state(now_ms), PlaceState::HeldBy(x) if x == session.as_str()),
            )
            .map(|(p, _)| *p)
            .collect();
        v.sort_by_key(|p| (p.section_id, p.y, p.x));
        Ok(v)
    }

    /// A seat event (this node's or another's, through the relay): memory follows it. `None`:
    /// anything may have changed (the cross-node listener lost its connection).
    pub fn observe(&self, event: Option<&SeatEvent>, now_ms: i64) {
        let Some(event) = event else {
            for cell in self.halls.lock().expect("arbiter poisoned").values() {
                cell.hall.lock().expect("arbiter poisoned").loaded_at = None;
            }
            return;
        };
        let Some(cell) = self
            .halls
            .lock()
            .expect("arbiter poisoned")
            .get(&event.presentation_id)
            .cloned()
        else {
            return;
        };
        let mut h = cell.hall.lock().expect("arbiter poisoned");
        for c in &event.changes {
            let p = SeatAddress::new(c.section_id, c.x, c.y);
            let now = h.state(&p, now_ms);
            let next = match (c.state, now) {
                // Memory already knows it taken (usually this node's own hold, told back).
                (SeatChangeKind::Held, PlaceState::HeldBy(_) | PlaceState::Sold) => continue,
                (SeatChangeKind::Held, _) => Some(Slot::Taken),
                (SeatChangeKind::Sold, _) => Some(Slot::Sold),
                // A live hold let go by a path other than this arbiter, or told late: the database
                // decides the next lock on it.
                (SeatChangeKind::Released, PlaceState::HeldBy(_)) => Some(Slot::Taken),
                (SeatChangeKind::Released, _) => None,
                // A sweeper removed an expired hold; a live one here is newer.
                (SeatChangeKind::Expired, PlaceState::HeldBy(_)) => continue,
                (SeatChangeKind::Expired, _) => None,
            };
            h.set(p, next);
        }
    }

    /// Every presentation is read again before its next decision (tests that change claims
    /// behind the arbiter's back, and a node that lost its event relay).
    pub fn forget_all(&self) {
        self.observe(None, 0);
    }
}

struct PendingHold {
    places: Vec<SeatAddress>,
    before: Vec<Option<Slot>>,
    slot: Slot,
    answer: oneshot::Receiver<StoreResult<u64>>,
    then: Option<oneshot::Receiver<StoreResult<u64>>>,
}

/// In the claims' key order (as every writer takes them), without repeats.
fn ordered(places: &[SeatAddress]) -> Vec<SeatAddress> {
    let mut v = places.to_vec();
    v.sort_by_key(|p| (p.section_id, p.y, p.x));
    v.dedup();
    v
}
