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

use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tokio::sync::oneshot;

use super::claim_writer::ClaimWriter;

use kupa_domain::catalogue::{SeatState, hold_is_live};

use crate::error::{AppResult, StoreError, StoreResult};
use crate::model::Claim;
use crate::ports::{ClaimOp, ClaimStore, SeatAddress};
use crate::seat_events::{SeatChangeKind, SeatEvent};

/// The longest the arbiter decides from one reading of a presentation's claims: the safety net
/// for a change no event told it of (a hold order's claims moved, an event lost between nodes).
pub const RELOAD_AFTER: Duration = Duration::from_secs(5);

/// Presentations kept in memory before the idle ones are forgotten, and how long one is idle.
const KEPT_HALLS: usize = 512;
const IDLE_HALL: Duration = Duration::from_secs(600);

/// What memory knows of a place. No entry: free.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Slot {
    /// Held by a session until the deadline (free once it passes). `here`: this arbiter decided
    /// it, so memory may refuse the place to others; a hold read from the database (another
    /// node's, or from before a restart) may have been let go since, so a lock asks the database.
    Held {
        session: Arc<str>,
        expires_at_ms: i64,
        here: bool,
    },
    Sold,
    /// Taken by someone this node's arbiter did not decide (an event said held, or an own hold
    /// was released by another path): best available avoids it, a lock asks the database.
    Taken,
}

/// A place as a decision sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum PlaceState<'a> {
    Free,
    HeldBy(&'a str),
    Sold,
    /// Taken, owner unknown to this node.
    Taken,
}

impl PlaceState<'_> {
    /// As the seat map's rules see the place, for `viewer` (a place taken by someone this node
    /// does not know is another's).
    fn seat_state(self, viewer: &str) -> SeatState {
        match self {
            PlaceState::Free => SeatState::Available,
            PlaceState::HeldBy(s) if s == viewer => SeatState::HeldByMe,
            PlaceState::HeldBy(_) | PlaceState::Taken => SeatState::HeldByOther,
            PlaceState::Sold => SeatState::Sold,
        }
    }
}

impl Slot {
    fn state(&self, now_ms: i64) -> PlaceState<'_> {
        match self {
            Slot::Held {
                session,
                expires_at_ms,
                ..
            } if hold_is_live(*expires_at_ms, now_ms) => PlaceState::HeldBy(session),
            Slot::Held { .. } => PlaceState::Free,
            Slot::Sold => PlaceState::Sold,
            Slot::Taken => PlaceState::Taken,
        }
    }

    fn from_claim(c: &Claim) -> Slot {
        if c.sold {
            Slot::Sold
        } else {
            Slot::Held {
                session: Arc::from(c.session_id.as_str()),
                expires_at_ms: c.expires_at_ms,
                here: false,
            }
        }
    }
}

#[derive(Default)]
struct Hall {
    slots: HashMap<SeatAddress, Slot>,
    loaded_at: Option<Instant>,
    /// Places changed while a reload was reading (Some only then): their memory is newer.
    dirty: Option<HashSet<SeatAddress>>,
    /// Places with a write decided and not yet answered: memory is newer than any reading.
    inflight: HashMap<SeatAddress, u32>,
}

impl Hall {
    fn state(&self, p: &SeatAddress, now_ms: i64) -> PlaceState<'_> {
        self.slots
            .get(p)
            .map_or(PlaceState::Free, |s| s.state(now_ms))
    }

    fn set(&mut self, p: SeatAddress, slot: Option<Slot>) {
        match slot {
            Some(s) => self.slots.insert(p, s),
            None => self.slots.remove(&p),
        };
        if let Some(d) = self.dirty.as_mut() {
            d.insert(p);
        }
    }

    /// Whether memory alone refuses `p` to `session`: sold, or held by another session through
    /// this arbiter. Anything else is offered to the database, which decides.
    fn refuses(&self, p: &SeatAddress, session: &str, now_ms: i64) -> bool {
        match self.slots.get(p) {
            Some(Slot::Sold) => true,
            Some(Slot::Held {
                session: s,
                expires_at_ms,
                here: true,
            }) => hold_is_live(*expires_at_ms, now_ms) && &**s != session,
            _ => false,
        }
    }

    fn fresh(&self) -> bool {
        self.loaded_at.is_some_and(|t| t.elapsed() < RELOAD_AFTER)
    }

    fn begin_write(&mut self, places: &[SeatAddress]) {
        for p in places {
            *self.inflight.entry(*p).or_default() += 1;
        }
    }

    fn end_write(&mut self, places: &[SeatAddress]) {
        for p in places {
            if let Some(n) = self.inflight.get_mut(p) {
                *n -= 1;
                if *n == 0 {
                    self.inflight.remove(p);
                }
            }
        }
    }
}

#[derive(Default)]
struct HallCell {
    hall: Mutex<Hall>,
    /// One reader of the claims at a time per presentation.
    loading: tokio::sync::Mutex<()>,
}

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

    /// Begins a seat change written by a path other than a lock or an unlock (a sale, a
    /// cancellation, a hold order's claims moved to its owner, a seat change of a paid order):
    /// the presentations are taken in id order, each read first when memory is stale, and every
    /// place in `touch` and in `claim` is kept out of reloads until [`Settling::end`]. The places
    /// of `claim` are the session's from now on in memory (other buyers are refused them while the
    /// write runs); [`Settling::refused`] says whether memory already refuses one of them to that
    /// session. The write itself stays the database's guarded statement.
    pub async fn begin_settle(
        &self,
        touch: &[(PresentationId, SeatAddress)],
        claim: Option<(&SessionId, &[(PresentationId, SeatAddress)])>,
        now_ms: i64,
    ) -> AppResult<Settling<'_>> {
        let mut by_hall: std::collections::BTreeMap<
            PresentationId,
            (Vec<SeatAddress>, Vec<SeatAddress>),
        > = Default::default();
        for (pid, p) in touch {
            by_hall.entry(*pid).or_default().0.push(*p);
        }
        if let Some((_, places)) = claim {
            for (pid, p) in places {
                by_hall.entry(*pid).or_default().1.push(*p);
            }
        }
        let mut settling = Settling {
            arbiter: self,
            halls: Vec::new(),
            refused: false,
            ended: false,
            now_ms,
        };
        for (pid, (touched, claimed)) in by_hall {
            let cell = self.loaded(pid).await?;
            let claimed = ordered(&claimed);
            let mut places = ordered(&touched);
            places.extend(claimed.iter().copied());
            let places = ordered(&places);
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            let mut marks = Vec::with_capacity(places.len());
            let marker = claim.map(|(session, _)| Slot::Held {
                session: Arc::from(session.as_str()),
                expires_at_ms: i64::MAX,
                here: true,
            });
            for p in &places {
                let before = h.slots.get(p).cloned();
                let mark = match &marker {
                    Some(m) if claimed.contains(p) => {
                        let session = claim.map_or("", |(s, _)| s.as_str());
                        settling.refused |= h.refuses(p, session, now_ms);
                        h.set(*p, Some(m.clone()));
                        Some(m.clone())
                    }
                    _ => before.clone(),
                };
                marks.push(SettleMark {
                    place: *p,
                    before,
                    mark,
                });
            }
            h.begin_write(&places);
            drop(h);
            settling.halls.push((pid, cell, marks));
        }
        Ok(settling)
    }

    /// What another path changed as it wrote, places it could not name before (a sweep of
    /// expired holds, a screening's holds released by the cinema): memory follows at once.
    pub fn settled(&self, outcomes: Vec<(PresentationId, SeatAddress, Settled)>, now_ms: i64) {
        let mut outcomes = outcomes;
        Settling {
            arbiter: self,
            halls: Vec::new(),
            refused: false,
            ended: false,
            now_ms,
        }
        .finish(&mut outcomes);
    }

    /// Every presentation is read again before its next decision (tests that change claims
    /// behind the arbiter's back, and a node that lost its event relay).
    pub fn forget_all(&self) {
        self.observe(None, 0);
    }
}

/// What a seat change written by another path did to a place (see [`SeatArbiter::begin_settle`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// Sold (a sale, or a paid order's new seat).
    Sold,
    /// Free again (a cancellation, a hold let go, a paid order's old seat, a swept expiry).
    Freed,
    /// Held for `session` until the deadline (a hold order's seats, moved to its owner).
    HeldFor {
        session: SessionId,
        expires_at_ms: i64,
    },
}

struct SettleMark {
    place: SeatAddress,
    /// Memory before the change began.
    before: Option<Slot>,
    /// Memory as the change left it while writing (the claim's marker, or `before`).
    mark: Option<Slot>,
}

/// A seat change under way (see [`SeatArbiter::begin_settle`]). End it with what the write did;
/// dropped without an end (an error, a refusal), memory goes back and the presentations are read
/// again before their next decision.
pub struct Settling<'a> {
    arbiter: &'a SeatArbiter,
    halls: Vec<(PresentationId, Arc<HallCell>, Vec<SettleMark>)>,
    refused: bool,
    ended: bool,
    now_ms: i64,
}

impl Settling<'_> {
    /// Whether memory refuses one of the claimed places to the claiming session (sold, or held by
    /// another buyer through this arbiter): the write would be refused by the database too.
    pub fn refused(&self) -> bool {
        self.refused
    }

    /// What the write did, place by place. A claimed place the write did not settle goes back to
    /// what memory had, and its presentation is read again (the database knew better).
    pub fn end(
        mut self,
        outcomes: impl IntoIterator<Item = (PresentationId, SeatAddress, Settled)>,
    ) {
        let mut outcomes: Vec<(PresentationId, SeatAddress, Settled)> =
            outcomes.into_iter().collect();
        self.finish(&mut outcomes);
    }

    fn finish(&mut self, outcomes: &mut Vec<(PresentationId, SeatAddress, Settled)>) {
        self.ended = true;
        for (pid, cell, marks) in self.halls.drain(..) {
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            let mut reread = false;
            for m in &marks {
                let now = h.slots.get(&m.place).cloned();
                let outcome = outcomes
                    .iter()
                    .position(|(p, a, _)| *p == pid && *a == m.place)
                    .map(|i| outcomes.swap_remove(i).2);
                // One outcome per place (the first).
                outcomes.retain(|(p, a, _)| !(*p == pid && *a == m.place));
                match outcome {
                    Some(Settled::Sold) => h.set(m.place, Some(Slot::Sold)),
                    Some(Settled::HeldFor {
                        session,
                        expires_at_ms,
                    }) => h.set(
                        m.place,
                        Some(Slot::Held {
                            session: Arc::from(session.as_str()),
                            expires_at_ms,
                            here: true,
                        }),
                    ),
                    // Unless another decision came after this change began.
                    Some(Settled::Freed) if now == m.mark => h.set(m.place, None),
                    Some(Settled::Freed) => {}
                    None if m.mark != m.before && now == m.mark => {
                        h.set(m.place, m.before.clone());
                        reread = true;
                    }
                    None => {}
                }
            }
            let places: Vec<SeatAddress> = marks.iter().map(|m| m.place).collect();
            h.end_write(&places);
            if reread {
                h.loaded_at = None;
            }
        }
        // Places the change did not begin with (a sweep finds them as it writes): memory follows.
        for (pid, place, outcome) in outcomes.drain(..) {
            let cell = self.arbiter.cell(pid);
            let mut h = cell.hall.lock().expect("arbiter poisoned");
            match outcome {
                Settled::Sold => h.set(place, Some(Slot::Sold)),
                Settled::HeldFor {
                    session,
                    expires_at_ms,
                } => h.set(
                    place,
                    Some(Slot::Held {
                        session: Arc::from(session.as_str()),
                        expires_at_ms,
                        here: false,
                    }),
                ),
                // A live hold there is newer than what the write found.
                Settled::Freed if matches!(h.state(&place, self.now_ms), PlaceState::HeldBy(_)) => {
                }
                Settled::Freed => h.set(place, None),
            }
        }
    }
}

impl Drop for Settling<'_> {
    fn drop(&mut self) {
        if !self.ended {
            self.finish(&mut Vec::new());
        }
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
