//! A screening with seats held or sold moved to a hall of another seat plan (decision 0070): when
//! the other plan has every such seat by the same names — section, row and seat (a general
//! admission place: the same section's name and a number within its capacity) — the claims and
//! the live tickets move to those places in the move's own transaction, through the seat arbiter
//! (decision 0059). Otherwise the move is refused with `seatPlanDiffers`, as before.
//!
//! Names, not coordinates: a plan drawn again (a new version of the hall, a twin hall) numbers
//! its sections anew and may shift seats on the grid, but a buyer's ticket says "row 7, seat 12".
//! A name two seats of one plan share is no name: neither of them maps.

use std::collections::HashMap;

use kupa_domain::catalogue::SectionKind;

use crate::booking::Settled;
use crate::model::{PresentationId, Seat, Section, SessionId};
use crate::seat_events::SeatChangeKind;

use super::*;

/// Where each place of one plan is in another: reserved seats by (section, row, seat) name,
/// general-admission places by section name and number.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SeatRemap {
    seats: HashMap<SeatAddress, SeatAddress>,
    /// Old general-admission section → the new one and its capacity.
    ga: HashMap<i64, (i64, i64)>,
}

/// A name that appears once in its plan, or none.
fn unique<K: std::hash::Hash + Eq, V>(items: impl IntoIterator<Item = (K, V)>) -> HashMap<K, V> {
    let mut seen: HashMap<K, Option<V>> = HashMap::new();
    for (k, v) in items {
        seen.entry(k).and_modify(|e| *e = None).or_insert(Some(v));
    }
    seen.into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect()
}

impl SeatRemap {
    /// The places of the plan `from` that the plan `to` has by the same names.
    pub fn between(from: (&[Section], &[Seat]), to: (&[Section], &[Seat])) -> SeatRemap {
        let section_name = |sections: &[Section], id: i64| {
            sections.iter().find(|s| s.id == id).map(|s| s.name.clone())
        };
        let named = |(sections, seats): (&[Section], &[Seat])| {
            unique(seats.iter().filter_map(|s| {
                let name = section_name(sections, s.section_id)?;
                Some(((name, s.row_name.clone(), s.seat_name.clone()), s.address()))
            }))
        };
        let to_seats = named(to);
        let seats = named(from)
            .into_iter()
            .filter_map(|(name, old)| to_seats.get(&name).map(|new| (old, *new)))
            .collect();
        let ga_of = |sections: &[Section]| {
            unique(
                sections
                    .iter()
                    .filter(|s| s.kind == SectionKind::Ga)
                    .map(|s| (s.name.clone(), (s.id, s.capacity))),
            )
        };
        let to_ga = ga_of(to.0);
        let ga = ga_of(from.0)
            .into_iter()
            .filter_map(|(name, (old, _))| to_ga.get(&name).map(|new| (old, *new)))
            .collect();
        SeatRemap { seats, ga }
    }

    /// The place in the other plan of `p`, if it has one.
    pub fn place(&self, p: SeatAddress) -> Option<SeatAddress> {
        if let Some(new) = self.seats.get(&p) {
            return Some(*new);
        }
        let (section, capacity) = self.ga.get(&p.section_id)?;
        (1..=*capacity)
            .contains(&p.x)
            .then(|| SeatAddress::new(*section, p.x, 0))
    }
}

/// A claim moved to its place in the new plan, as the move's transaction wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemappedClaim {
    pub from: SeatAddress,
    pub to: SeatAddress,
    /// Sold; else held by `session` until `expires_at_ms`.
    pub sold: bool,
    pub session: SessionId,
    pub expires_at_ms: i64,
}

/// What a move came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveOutcome {
    /// Moved; onto another plan, the claims that moved with it and the expired holds deleted.
    Moved {
        remapped: Vec<RemappedClaim>,
        expired: Vec<SeatAddress>,
    },
    /// It would overlap this screening of the hall.
    Overlaps(PresentationId),
    /// Seats held or sold have no place in the new plan (these, in the old one).
    SeatsMissing(Vec<SeatAddress>),
    /// No such screening, or it was cancelled.
    Gone,
}

impl ProgrammeService {
    /// Where every place of the screening's plan is in the plan `to` (read from the catalogue).
    pub(super) async fn remap_between(&self, from: i64, to: i64) -> AppResult<SeatRemap> {
        let (old_sections, old_seats) = (
            self.catalogue.sections(from).await?,
            self.catalogue.seats(from).await?,
        );
        let (new_sections, new_seats) = (
            self.catalogue.sections(to).await?,
            self.catalogue.seats(to).await?,
        );
        Ok(SeatRemap::between(
            (&old_sections, &old_seats),
            (&new_sections, &new_seats),
        ))
    }

    /// The store's move, through the seat arbiter when seats move to another plan: the places
    /// claimed now and where they go are kept out of the arbiter's reloads while the move writes,
    /// and then memory takes what it did (old places free, new places sold or held by the same
    /// buyer until the same deadline), before the seat maps are told.
    #[allow(clippy::too_many_arguments)]
    pub(super) async fn move_through_arbiter(
        &self,
        id: PresentationId,
        venue_id: i64,
        seatplan_id: i64,
        starts_at_ms: i64,
        remap: Option<&SeatRemap>,
        by: Change,
    ) -> AppResult<MoveOutcome> {
        let write = self.store.move_screening(
            id,
            venue_id,
            seatplan_id,
            starts_at_ms,
            self.gap_ms,
            remap,
            by,
        );
        let Some(remap) = remap else {
            return Ok(write.await?);
        };
        let claimed = self.store.claimed_places(id, by.at_ms).await?;
        let mut touch: Vec<(PresentationId, SeatAddress)> =
            claimed.iter().map(|p| (id, *p)).collect();
        touch.extend(
            claimed
                .iter()
                .filter_map(|p| remap.place(*p))
                .map(|p| (id, p)),
        );
        let outcome = self
            .booking
            .settle(&touch, None, None, write, |o: &MoveOutcome| {
                let MoveOutcome::Moved { remapped, expired } = o else {
                    return Vec::new();
                };
                let mut settled: Vec<(PresentationId, SeatAddress, Settled)> = Vec::new();
                for c in remapped {
                    settled.push((id, c.from, Settled::Freed));
                    let now = if c.sold {
                        Settled::Sold
                    } else {
                        Settled::HeldFor {
                            session: c.session.clone(),
                            expires_at_ms: c.expires_at_ms,
                        }
                    };
                    settled.push((id, c.to, now));
                }
                settled.extend(expired.iter().map(|p| (id, *p, Settled::Freed)));
                settled
            })
            .await?;
        if let MoveOutcome::Moved { remapped, expired } = &outcome {
            let freed = remapped
                .iter()
                .map(|c| c.from)
                .chain(expired.iter().copied());
            self.booking.publish(id, SeatChangeKind::Released, freed);
            let (sold, held): (Vec<&RemappedClaim>, Vec<&RemappedClaim>) =
                remapped.iter().partition(|c| c.sold);
            self.booking
                .publish(id, SeatChangeKind::Sold, sold.iter().map(|c| c.to));
            self.booking
                .publish(id, SeatChangeKind::Held, held.iter().map(|c| c.to));
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn section(id: i64, name: &str, kind: SectionKind, capacity: i64) -> Section {
        Section {
            id,
            name: name.into(),
            kind,
            capacity,
            ..Section::default()
        }
    }

    fn seat(section_id: i64, x: i64, y: i64, row: &str, n: &str) -> Seat {
        Seat {
            section_id,
            x,
            y,
            row_name: row.into(),
            seat_name: n.into(),
            ..Seat::default()
        }
    }

    #[test]
    fn seats_map_by_their_names_and_general_admission_by_section_and_number() {
        let old_sections = [
            section(11, "אולם", SectionKind::Reserved, 3),
            section(12, "מדשאה", SectionKind::Ga, 100),
        ];
        let old_seats = [
            seat(11, 1, 1, "1", "1"),
            seat(11, 2, 1, "1", "2"),
            seat(11, 1, 2, "2", "1"),
        ];
        // Drawn again: new section ids, the rows shifted on the grid, row 2 gone, a smaller lawn.
        let new_sections = [
            section(21, "אולם", SectionKind::Reserved, 2),
            section(22, "מדשאה", SectionKind::Ga, 50),
        ];
        let new_seats = [seat(21, 3, 4, "1", "1"), seat(21, 4, 4, "1", "2")];
        let remap = SeatRemap::between((&old_sections, &old_seats), (&new_sections, &new_seats));
        assert_eq!(
            remap.place(SeatAddress::new(11, 2, 1)),
            Some(SeatAddress::new(21, 4, 4))
        );
        assert_eq!(
            remap.place(SeatAddress::new(11, 1, 2)),
            None,
            "row 2 is gone"
        );
        assert_eq!(
            remap.place(SeatAddress::new(12, 50, 0)),
            Some(SeatAddress::new(22, 50, 0))
        );
        assert_eq!(
            remap.place(SeatAddress::new(12, 51, 0)),
            None,
            "past capacity"
        );
    }

    #[test]
    fn a_name_two_seats_share_maps_neither() {
        let sections = [section(11, "A", SectionKind::Reserved, 2)];
        let twice = [seat(11, 1, 1, "1", "1"), seat(11, 2, 1, "1", "1")];
        let other = [section(21, "A", SectionKind::Reserved, 1)];
        let once = [seat(21, 1, 1, "1", "1")];
        let remap = SeatRemap::between((&sections, &twice), (&other, &once));
        assert_eq!(remap.place(SeatAddress::new(11, 1, 1)), None);
        let back = SeatRemap::between((&other, &once), (&sections, &twice));
        assert_eq!(back.place(SeatAddress::new(21, 1, 1)), None);
    }
}
