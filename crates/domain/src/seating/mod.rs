//! Seating rules: which seats a buyer may hold together, which free seats to show as blocked,
//! best-available blocks and general-admission places.
//!
//! Pure: the caller brings the plan's seats and how each is occupied as this buyer sees it
//! ([`Occupancy`]); nothing here reads a database or the clock.
//!
//! Adjacency: two seats are neighbours when they share section and row and their x differ by
//! exactly 1. A jump in x (an aisle) or the end of the row is a wall.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::codes::ErrorCode;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::catalogue::SeatState;

/// The seating policy under which no buyer may leave a single empty seat (spec section 4).
pub const SINGLE_SEAT_GAP_POLICY: i64 = 3;

/// How many alternative blocks best-available offers (spec section 9).
pub const BEST_AVAILABLE_MATCHES: usize = 5;

/// A seat's address: its section and grid cell, as the lock and unlock calls name it. A numbered
/// general-admission place has the same shape (x = its number, y = 0). The one name for this idea
/// everywhere (claims, carts, orders, events).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[serde(rename_all = "camelCase")]
pub struct SeatAddress {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
}

impl SeatAddress {
    pub fn new(section_id: i64, x: i64, y: i64) -> SeatAddress {
        SeatAddress { section_id, x, y }
    }
}

impl fmt::Display for SeatAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "section {} x {} y {}", self.section_id, self.x, self.y)
    }
}

/// What the rules need to know of one seat of a seat plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlanSeat {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    /// The seat's row (the plan's group id). Only seats of one row can be neighbours.
    pub row: i64,
    /// The price level of the seat's section.
    pub price_level: i64,
    /// Seats sharing a sofa (or bed) id are sold together.
    pub sofa_id: Option<i64>,
    /// A wheelchair place.
    pub handicap: bool,
    pub companion: bool,
    pub limited_view: bool,
}

impl PlanSeat {
    pub fn key(&self) -> SeatAddress {
        SeatAddress {
            section_id: self.section_id,
            x: self.x,
            y: self.y,
        }
    }
}

/// A seat as one buyer sees it, after the change being judged.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Occupancy {
    Free,
    /// Held by this buyer: the buyer's selection.
    Mine,
    /// Held by another buyer, or sold.
    Taken,
}

impl From<SeatState> for Occupancy {
    fn from(state: SeatState) -> Occupancy {
        match state {
            SeatState::Available => Occupancy::Free,
            SeatState::HeldByMe => Occupancy::Mine,
            SeatState::HeldByOther | SeatState::Sold => Occupancy::Taken,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatStatus {
    pub seat: PlanSeat,
    pub occupancy: Occupancy,
}

/// The special seats a buyer must knowingly accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpecialSeat {
    Wheelchair,
    LimitedView,
}

/// What the buyer has confirmed, one flag per kind of special seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Confirmations {
    pub wheelchair: bool,
    pub limited_view: bool,
}

/// Why a selection of seats is refused. Spec section 8 names only the confirmation case, not a
/// code, so these codes are Kupa's own (camelCase, like `notFound`).
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SeatingViolation {
    #[error("{seat} would be left as a single empty seat")]
    SingleSeatGap { seat: SeatAddress },
    #[error("sofa {sofa_id} is sold whole: {missing} is missing")]
    SofaSplit { sofa_id: i64, missing: SeatAddress },
    #[error("{seat} has price level {found}, the selection has {expected}")]
    MixedPriceLevels {
        seat: SeatAddress,
        expected: i64,
        found: i64,
    },
    #[error("the tickets cover {tickets_cover} seats, {seats} are selected")]
    TicketCountMismatch { seats: usize, tickets_cover: usize },
    #[error("{selected} seats selected, at most {max} per transaction")]
    TooManySeats { selected: usize, max: usize },
    #[error("{seat} is a {special:?} seat and needs the buyer's confirmation")]
    ConfirmationRequired {
        seat: SeatAddress,
        special: SpecialSeat,
    },
}

impl SeatingViolation {
    pub fn code(&self) -> ErrorCode {
        match self {
            SeatingViolation::SingleSeatGap { .. } => ErrorCode::SingleSeatGap,
            SeatingViolation::SofaSplit { .. } => ErrorCode::SofaSplit,
            SeatingViolation::MixedPriceLevels { .. } => ErrorCode::MixedPriceLevels,
            SeatingViolation::TicketCountMismatch { .. } => ErrorCode::TicketCountMismatch,
            SeatingViolation::TooManySeats { .. } => ErrorCode::TooManySeats,
            SeatingViolation::ConfirmationRequired { .. } => ErrorCode::SeatConfirmationRequired,
        }
    }
}

/// Why no seats can be offered: the spec's NOT_ENOUGH_SEATS family.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum NotEnoughSeats {
    #[error("{free} free seats in the allowed sections, {wanted} wanted")]
    InAllowedSections { free: usize, wanted: usize },
    #[error("{free} free seats in section {section_id}, {wanted} wanted")]
    InSection {
        section_id: i64,
        free: usize,
        wanted: usize,
    },
    #[error("enough free seats, but no {wanted} side by side")]
    NoContiguousBlock { wanted: usize },
    #[error("{free} free places, {wanted} wanted")]
    GaPlaces { free: usize, wanted: usize },
}

impl NotEnoughSeats {
    pub fn code(&self) -> ErrorCode {
        match self {
            NotEnoughSeats::InAllowedSections { .. } => ErrorCode::ResNotEnoughSeats,
            NotEnoughSeats::InSection { .. } => ErrorCode::SectionNotEnoughSeats,
            NotEnoughSeats::NoContiguousBlock { .. } => ErrorCode::NotEnoughSeats,
            NotEnoughSeats::GaPlaces { .. } => ErrorCode::GaNotEnoughSeats,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Rule 1: the single-seat gap (seating policy 3).

pub fn single_seat_rule_applies(seating_policy_id: i64) -> bool {
    seating_policy_id == SINGLE_SEAT_GAP_POLICY
}

/// Refuses a selection (the buyer's `Mine` seats, after the proposed change) that leaves a free
/// seat alone — both sides mine, taken or a wall — beside one of the buyer's seats. A lone seat
/// with no `Mine` neighbour was left by others and is not this buyer's fault. Under any policy
/// but 3 everything is accepted.
pub fn check_single_seat_gap(
    seating_policy_id: i64,
    seats: &[SeatStatus],
) -> Result<(), SeatingViolation> {
    if !single_seat_rule_applies(seating_policy_id) {
        return Ok(());
    }
    for row in rows(seats).values() {
        if let Some(i) = lone_gap(row, |j| row[j].occupancy) {
            return Err(SeatingViolation::SingleSeatGap {
                seat: row[i].seat.key(),
            });
        }
    }
    Ok(())
}

/// The free seats the buyer may not take next, because taking them would leave a *new* single
/// empty seat beside the selection (the seat map's `isBlocked`). Taking a sofa seat means taking
/// its sofa (rule 2), so a sofa seat is judged with its free partners: a sofa that exactly fills a
/// two-seat gap is not blocked. Empty under any policy but 3.
///
/// A gap the selection already leaves does not block the rest of the row: a buyer who clicked
/// seat 2 first (stranding seat 1) may still click seat 3; [`check_single_seat_gap`] refuses the
/// whole selection when the buyer moves on, and seat 1 is then the fix.
///
/// Seats are judged one at a time, so some selections the rule accepts cannot be reached by single
/// clicks: holding seat 3 of `..M.....`, seats 1 and 2 are both blocked (each alone would strand
/// the other), and `T...T` cannot be filled by three clicks. Such seats must be locked together
/// (or found by [`best_available`]), which the lock call should allow.
pub fn blocked_seats(seating_policy_id: i64, seats: &[SeatStatus]) -> BTreeSet<SeatAddress> {
    let mut blocked = BTreeSet::new();
    if !single_seat_rule_applies(seating_policy_id) {
        return blocked;
    }
    for row in rows(seats).values() {
        // The row's lone seats as it stands: the same for every candidate, so read once.
        let before = lone_gaps(row, |j| row[j].occupancy);
        for (i, candidate) in row.iter().enumerate() {
            if candidate.occupancy != Occupancy::Free {
                continue;
            }
            let sofa = candidate.seat.sofa_id;
            let taken_along = |j: usize| j == i || (sofa.is_some() && row[j].seat.sofa_id == sofa);
            let after = |j: usize| match row[j].occupancy {
                Occupancy::Free if taken_along(j) => Occupancy::Mine,
                o => o,
            };
            if lone_gaps(row, after).iter().any(|g| !before.contains(g)) {
                blocked.insert(candidate.seat.key());
            }
        }
    }
    blocked
}

/// The plan's seats grouped by (section, row), each row in x order: adjacency is read off this.
fn rows(seats: &[SeatStatus]) -> BTreeMap<(i64, i64), Vec<&SeatStatus>> {
    let mut rows: BTreeMap<(i64, i64), Vec<&SeatStatus>> = BTreeMap::new();
    for s in seats {
        rows.entry((s.seat.section_id, s.seat.row))
            .or_default()
            .push(s);
    }
    for row in rows.values_mut() {
        row.sort_by_key(|s| s.seat.x);
    }
    rows
}

/// The first seat of `row` (x order) that is free with no free neighbour and at least one `Mine`
/// neighbour. `occupancy` is asked instead of the row's own state so that callers can judge a
/// change without copying the row.
fn lone_gap(row: &[&SeatStatus], occupancy: impl Fn(usize) -> Occupancy) -> Option<usize> {
    lone_gaps(row, occupancy).into_iter().next()
}

/// Every such lone seat of `row`, in x order.
fn lone_gaps(row: &[&SeatStatus], occupancy: impl Fn(usize) -> Occupancy) -> Vec<usize> {
    // `None` is a wall: the row's end, or an aisle (a jump in x).
    let neighbour = |i: usize, j: Option<usize>| {
        j.filter(|&j| j < row.len() && row[j].seat.x.abs_diff(row[i].seat.x) == 1)
            .map(&occupancy)
    };
    (0..row.len())
        .filter(|&i| {
            let (left, right) = (neighbour(i, i.checked_sub(1)), neighbour(i, Some(i + 1)));
            occupancy(i) == Occupancy::Free
                && left != Some(Occupancy::Free)
                && right != Some(Occupancy::Free)
                && (left == Some(Occupancy::Mine) || right == Some(Occupancy::Mine))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Rules 2 to 6: sofas, price level, ticket count, maximum, confirmations.

/// Refuses a selection holding part of a sofa (or bed): every seat sharing a `sofa_id` with one
/// of the buyer's seats must be the buyer's too. The missing partner reported is the lowest one,
/// so the answer does not depend on the order of `seats`.
pub fn check_sofas(seats: &[SeatStatus]) -> Result<(), SeatingViolation> {
    let chosen: BTreeSet<i64> = seats
        .iter()
        .filter(|s| s.occupancy == Occupancy::Mine)
        .filter_map(|s| s.seat.sofa_id)
        .collect();
    let missing = seats
        .iter()
        .filter(|s| s.occupancy != Occupancy::Mine)
        .filter_map(|s| {
            Some((
                s.seat.sofa_id.filter(|id| chosen.contains(id))?,
                s.seat.key(),
            ))
        })
        .min();
    match missing {
        Some((sofa_id, missing)) => Err(SeatingViolation::SofaSplit { sofa_id, missing }),
        None => Ok(()),
    }
}

/// Refuses a selection whose seats have more than one price level; the first seat's level is
/// the one expected.
pub fn check_price_level(selection: &[PlanSeat]) -> Result<(), SeatingViolation> {
    let Some(first) = selection.first() else {
        return Ok(());
    };
    match selection
        .iter()
        .find(|s| s.price_level != first.price_level)
    {
        Some(s) => Err(SeatingViolation::MixedPriceLevels {
            seat: s.key(),
            expected: first.price_level,
            found: s.price_level,
        }),
        None => Ok(()),
    }
}

/// Seats the chosen tickets cover: a ticket's multiply factor, and at least 1 (a factor of 0 or 1
/// is one seat).
pub fn seats_covered(multiply_factors: &[i64]) -> usize {
    multiply_factors.iter().map(|&f| f.max(1) as usize).sum()
}

/// Refuses tickets that do not cover exactly the selected seats.
pub fn check_ticket_count(multiply_factors: &[i64], seats: usize) -> Result<(), SeatingViolation> {
    let tickets_cover = seats_covered(multiply_factors);
    if tickets_cover == seats {
        Ok(())
    } else {
        Err(SeatingViolation::TicketCountMismatch {
            seats,
            tickets_cover,
        })
    }
}

/// Refuses more seats in one transaction than the site allows.
pub fn check_max_seats(selected: usize, max: usize) -> Result<(), SeatingViolation> {
    if selected <= max {
        Ok(())
    } else {
        Err(SeatingViolation::TooManySeats { selected, max })
    }
}

/// Refuses wheelchair or limited-view seats the buyer has not confirmed, naming the first.
/// The flags are separate: accepting a limited view says nothing about a wheelchair place.
pub fn check_confirmations(
    selection: &[PlanSeat],
    confirmed: Confirmations,
) -> Result<(), SeatingViolation> {
    for s in selection {
        let special = if s.handicap && !confirmed.wheelchair {
            SpecialSeat::Wheelchair
        } else if s.limited_view && !confirmed.limited_view {
            SpecialSeat::LimitedView
        } else {
            continue;
        };
        return Err(SeatingViolation::ConfirmationRequired {
            seat: s.key(),
            special,
        });
    }
    Ok(())
}

mod best_available;
pub use best_available::{BestAvailableRequest, Block, SectionChoice, best_available, free_places};

#[cfg(test)]
mod properties;
#[cfg(test)]
mod tests;
