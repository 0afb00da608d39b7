//! What memory knows of one presentation's places: each place's slot, its state as a decision
//! sees it, and the places being written.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use kupa_domain::catalogue::{SeatState, hold_is_live};

use super::RELOAD_AFTER;
use crate::model::Claim;
use crate::ports::SeatAddress;

/// What memory knows of a place. No entry: free.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Slot {
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
pub(super) enum PlaceState<'a> {
    Free,
    HeldBy(&'a str),
    Sold,
    /// Taken, owner unknown to this node.
    Taken,
}

impl PlaceState<'_> {
    /// As the seat map's rules see the place, for `viewer` (a place taken by someone this node
    /// does not know is another's).
    pub(super) fn seat_state(self, viewer: &str) -> SeatState {
        match self {
            PlaceState::Free => SeatState::Available,
            PlaceState::HeldBy(s) if s == viewer => SeatState::HeldByMe,
            PlaceState::HeldBy(_) | PlaceState::Taken => SeatState::HeldByOther,
            PlaceState::Sold => SeatState::Sold,
        }
    }
}

impl Slot {
    pub(super) fn state(&self, now_ms: i64) -> PlaceState<'_> {
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

    pub(super) fn from_claim(c: &Claim) -> Slot {
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
pub(super) struct Hall {
    pub(super) slots: HashMap<SeatAddress, Slot>,
    pub(super) loaded_at: Option<Instant>,
    /// Places changed while a reload was reading (Some only then): their memory is newer.
    pub(super) dirty: Option<HashSet<SeatAddress>>,
    /// Places with a write decided and not yet answered: memory is newer than any reading.
    pub(super) inflight: HashMap<SeatAddress, u32>,
}

impl Hall {
    pub(super) fn state(&self, p: &SeatAddress, now_ms: i64) -> PlaceState<'_> {
        self.slots
            .get(p)
            .map_or(PlaceState::Free, |s| s.state(now_ms))
    }

    pub(super) fn set(&mut self, p: SeatAddress, slot: Option<Slot>) {
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
    pub(super) fn refuses(&self, p: &SeatAddress, session: &str, now_ms: i64) -> bool {
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

    pub(super) fn fresh(&self) -> bool {
        self.loaded_at.is_some_and(|t| t.elapsed() < RELOAD_AFTER)
    }

    pub(super) fn begin_write(&mut self, places: &[SeatAddress]) {
        for p in places {
            *self.inflight.entry(*p).or_default() += 1;
        }
    }

    pub(super) fn end_write(&mut self, places: &[SeatAddress]) {
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
pub(super) struct HallCell {
    pub(super) hall: Mutex<Hall>,
    /// One reader of the claims at a time per presentation.
    pub(super) loading: tokio::sync::Mutex<()>,
}
