//! Seat changes written by paths other than a lock or an unlock (a sale, a cancellation, a
//! sweep), and how memory follows them.

use std::sync::Arc;

use kupa_domain::ids::{PresentationId, SessionId};

use super::hall::{HallCell, PlaceState, Slot};
use super::{SeatArbiter, ordered};
use crate::error::AppResult;
use crate::ports::SeatAddress;

impl SeatArbiter {
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
