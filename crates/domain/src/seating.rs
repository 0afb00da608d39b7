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

// ---------------------------------------------------------------------------------------------
// Rule 7: best available.

/// Where best-available may look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SectionChoice<'a> {
    /// Any of these sections (those of the ticket group).
    Allowed(&'a [i64]),
    /// Only this one, as the buyer asked: a lack of seats there is `section_not_enough_seats`.
    Requested(i64),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BestAvailableRequest<'a> {
    pub quantity: usize,
    /// The hall's best viewing point.
    pub best_x: i64,
    pub best_y: i64,
    pub sections: SectionChoice<'a>,
    pub seating_policy_id: i64,
    pub include_wheelchair: bool,
    pub include_limited_view: bool,
    /// At most this many blocks: [`BEST_AVAILABLE_MATCHES`] in the spec.
    pub max_matches: usize,
}

/// `quantity` side-by-side seats of one row, in x order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    pub section_id: i64,
    pub row: i64,
    pub seats: Vec<SeatAddress>,
}

/// Up to `max_matches` blocks of `quantity` contiguous free seats in one row of one section,
/// nearest first (distance of the block's centre to the best point; ties: lower y distance, then
/// lower x). A block is offered only if taking it as the buyer's selection passes rules 1 to 3.
///
/// The buyer's current seats (`Mine`) are not offered and count as taken when a block is judged:
/// best-available proposes a fresh selection, and a gap between old seats and the block is a gap
/// all the same. Blocks may overlap: they are alternatives, and if the first is lost to a race
/// the next may still be had.
pub fn best_available(
    seats: &[SeatStatus],
    request: &BestAvailableRequest,
) -> Result<Vec<Block>, NotEnoughSeats> {
    let q = request.quantity;
    let in_sections = |id: i64| match request.sections {
        SectionChoice::Allowed(ids) => ids.contains(&id),
        SectionChoice::Requested(one) => id == one,
    };
    let offered = |s: &SeatStatus| {
        s.occupancy == Occupancy::Free
            && in_sections(s.seat.section_id)
            && (request.include_wheelchair || !s.seat.handicap)
            && (request.include_limited_view || !s.seat.limited_view)
    };
    let free = seats.iter().filter(|s| offered(s)).count();
    if free < q {
        return Err(match request.sections {
            SectionChoice::Requested(section_id) => NotEnoughSeats::InSection {
                section_id,
                free,
                wanted: q,
            },
            SectionChoice::Allowed(_) => NotEnoughSeats::InAllowedSections { free, wanted: q },
        });
    }
    if q == 0 {
        return Ok(Vec::new());
    }
    let mut sofa_sizes: BTreeMap<i64, usize> = BTreeMap::new();
    for id in seats.iter().filter_map(|s| s.seat.sofa_id) {
        *sofa_sizes.entry(id).or_default() += 1;
    }
    let gap_rule = single_seat_rule_applies(request.seating_policy_id);

    let mut found = Vec::new();
    for ((section_id, row_id), row) in rows(seats) {
        for start in 0..(row.len() + 1).saturating_sub(q) {
            let block = &row[start..start + q];
            let contiguous = block.windows(2).all(|w| w[1].seat.x - w[0].seat.x == 1);
            if !contiguous || !block.iter().all(|s| offered(s)) {
                continue;
            }
            // Rule 2: whole sofas only. Partners are side by side, so a sofa inside the block's
            // row but cut by its edge shows as fewer seats in the block than the sofa has.
            let mut in_block: BTreeMap<i64, usize> = BTreeMap::new();
            for id in block.iter().filter_map(|s| s.seat.sofa_id) {
                *in_block.entry(id).or_default() += 1;
            }
            if in_block.iter().any(|(id, n)| sofa_sizes[id] != *n) {
                continue;
            }
            // Rule 3: one price level.
            if block
                .iter()
                .any(|s| s.seat.price_level != block[0].seat.price_level)
            {
                continue;
            }
            // Rule 1: the block as the buyer's whole selection; everything not free is taken.
            let after = |j: usize| match row[j].occupancy {
                _ if (start..start + q).contains(&j) => Occupancy::Mine,
                Occupancy::Free => Occupancy::Free,
                _ => Occupancy::Taken,
            };
            if gap_rule && lone_gap(&row, after).is_some() {
                continue;
            }
            found.push((
                rank(block, request),
                Block {
                    section_id,
                    row: row_id,
                    seats: block.iter().map(|s| s.seat.key()).collect(),
                },
            ));
        }
    }
    if found.is_empty() {
        return Err(NotEnoughSeats::NoContiguousBlock { wanted: q });
    }
    found.sort_by_key(|a| a.0);
    Ok(found
        .into_iter()
        .take(request.max_matches)
        .map(|(_, b)| b)
        .collect())
}

/// Sort key of a block: squared distance of its centre to the best point, then |y distance|, then
/// x, then section, row and y so the order is total and never depends on the input's order.
/// Integer arithmetic, scaled by the block's size (the same for every block), so no float rounding.
fn rank(block: &[&SeatStatus], r: &BestAvailableRequest) -> (i128, i128, i64, i64, i64, i64) {
    let q = block.len() as i128;
    let dx = block.iter().map(|s| i128::from(s.seat.x)).sum::<i128>() - q * i128::from(r.best_x);
    let dy = block.iter().map(|s| i128::from(s.seat.y)).sum::<i128>() - q * i128::from(r.best_y);
    let first = block[0].seat;
    (
        dx * dx + dy * dy,
        dy.abs(),
        first.x,
        first.section_id,
        first.row,
        first.y,
    )
}

// ---------------------------------------------------------------------------------------------
// Rule 8: general admission.

/// A general-admission section of `capacity` has places 1..=capacity (x = place, y = 0). Gives
/// the lowest `quantity` free places; `taken` may hold duplicates or stray numbers, ignored.
pub fn free_places(
    capacity: i64,
    taken: &[i64],
    quantity: usize,
) -> Result<Vec<i64>, NotEnoughSeats> {
    let places = 1..=capacity;
    let taken: BTreeSet<i64> = taken
        .iter()
        .copied()
        .filter(|p| places.contains(p))
        .collect();
    let free = capacity.max(0) as usize - taken.len();
    if free < quantity {
        return Err(NotEnoughSeats::GaPlaces {
            free,
            wanted: quantity,
        });
    }
    Ok(places
        .filter(|p| !taken.contains(p))
        .take(quantity)
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use Occupancy::{Free, Mine, Taken};

    const P3: i64 = SINGLE_SEAT_GAP_POLICY;

    fn seat(section_id: i64, row: i64, x: i64, occupancy: Occupancy) -> SeatStatus {
        SeatStatus {
            seat: PlanSeat {
                section_id,
                x,
                y: row,
                row,
                price_level: 1,
                ..PlanSeat::default()
            },
            occupancy,
        }
    }

    /// One row (section 1, row 1, y 1) drawn as text: `.` free, `M` mine, `T` taken, `|` an
    /// aisle (x jumps by one), `(` and `)` around seats of one sofa. x starts at 1.
    fn row(text: &str) -> Vec<SeatStatus> {
        row_in(1, 1, text)
    }

    fn row_in(section_id: i64, row: i64, text: &str) -> Vec<SeatStatus> {
        let (mut x, mut sofa, mut sofas, mut seats) = (0, None, 0, Vec::new());
        for c in text.chars() {
            let occupancy = match c {
                '.' => Free,
                'M' => Mine,
                'T' => Taken,
                '|' => {
                    x += 1;
                    continue;
                }
                '(' => {
                    sofas += 1;
                    sofa = Some(section_id * 1000 + row * 100 + sofas);
                    continue;
                }
                ')' => {
                    sofa = None;
                    continue;
                }
                _ => panic!("unknown seat {c:?}"),
            };
            x += 1;
            let mut s = seat(section_id, row, x, occupancy);
            s.seat.sofa_id = sofa;
            seats.push(s);
        }
        seats
    }

    fn key(x: i64) -> SeatAddress {
        SeatAddress {
            section_id: 1,
            x,
            y: 1,
        }
    }

    fn gap_at(x: i64) -> Result<(), SeatingViolation> {
        Err(SeatingViolation::SingleSeatGap { seat: key(x) })
    }

    fn keys(xs: &[i64]) -> BTreeSet<SeatAddress> {
        xs.iter().map(|&x| key(x)).collect()
    }

    // --- Rule 1: single-seat gap -------------------------------------------------------------

    #[test]
    fn a_selection_that_leaves_one_seat_free_between_it_and_a_taken_seat_is_refused() {
        assert_eq!(check_single_seat_gap(P3, &row("T.MM..")), gap_at(2));
    }

    #[test]
    fn a_selection_that_leaves_one_seat_free_at_the_row_end_is_refused() {
        assert_eq!(check_single_seat_gap(P3, &row(".MM...")), gap_at(1));
        assert_eq!(check_single_seat_gap(P3, &row("...MM.")), gap_at(6));
    }

    #[test]
    fn a_selection_that_leaves_one_seat_free_beside_an_aisle_is_refused() {
        // x: 1 2 3 | 5 6 7 8
        assert_eq!(check_single_seat_gap(P3, &row("...|.MM..")), gap_at(5));
    }

    #[test]
    fn a_selection_that_leaves_one_seat_free_between_its_own_seats_is_refused() {
        assert_eq!(check_single_seat_gap(P3, &row("..M.M..")), gap_at(4));
    }

    #[test]
    fn a_selection_leaving_two_free_seats_on_each_side_is_accepted() {
        assert_eq!(check_single_seat_gap(P3, &row("T..MM..")), Ok(()));
        assert_eq!(check_single_seat_gap(P3, &row("..MM..|..")), Ok(()));
    }

    #[test]
    fn a_selection_that_fills_a_gap_exactly_is_accepted() {
        assert_eq!(check_single_seat_gap(P3, &row("TMT..")), Ok(()));
        assert_eq!(check_single_seat_gap(P3, &row("MM|MMM")), Ok(()));
    }

    #[test]
    fn a_lone_free_seat_left_by_other_buyers_is_not_the_buyers_fault() {
        // Seat 2 is alone between two taken seats; the buyer's seats are not beside it.
        assert_eq!(check_single_seat_gap(P3, &row("T.TMM..")), Ok(()));
        assert_eq!(check_single_seat_gap(P3, &row(".T|MM..")), Ok(()));
    }

    #[test]
    fn seats_of_another_row_or_section_are_never_neighbours() {
        // x continues from 1-2 to 3, but in another row (then section): 3 stands alone, walled.
        let mut plan = row("MM");
        let mut other_row = seat(1, 2, 3, Free);
        other_row.seat.y = 1;
        plan.push(other_row);
        assert_eq!(check_single_seat_gap(P3, &plan), Ok(()));
        let mut plan = row("MM");
        plan.push(seat(2, 1, 3, Free));
        assert_eq!(check_single_seat_gap(P3, &plan), Ok(()));
    }

    #[test]
    fn the_order_seats_arrive_in_does_not_matter() {
        let mut plan = row("T.MM..");
        plan.reverse();
        assert_eq!(check_single_seat_gap(P3, &plan), gap_at(2));
    }

    #[test]
    fn the_single_seat_rule_applies_only_under_seating_policy_3() {
        assert!(single_seat_rule_applies(3) && !single_seat_rule_applies(1));
        assert_eq!(check_single_seat_gap(1, &row("T.MM..")), Ok(()));
        assert!(blocked_seats(1, &row("T.....")).is_empty());
    }

    #[test]
    fn seats_whose_taking_would_leave_a_single_gap_are_blocked() {
        // Taking 3 strands 2 beside the taken seat; taking 5 strands 6 at the row's end.
        assert_eq!(blocked_seats(P3, &row("T.....")), keys(&[3, 5]));
        // Beside a selection: 1 or 2 alone would strand the other, 5 would strand 4, 7 would
        // strand 8. (A buyer holding 3 who wants 1-3 must take 1 and 2 together.)
        assert_eq!(blocked_seats(P3, &row("..M.....")), keys(&[1, 2, 5, 7]));
    }

    #[test]
    fn a_two_seat_gap_blocks_both_its_seats_for_a_single_seat_but_not_for_a_sofa() {
        assert_eq!(blocked_seats(P3, &row("T..T")), keys(&[2, 3]));
        assert!(blocked_seats(P3, &row("T(..)T")).is_empty());
    }

    #[test]
    fn the_seat_that_fills_a_gap_the_buyer_left_stays_open() {
        // The buyer's selection has a gap at 3 (say a neighbour's hold expired): 3 is the fix.
        let blocked = blocked_seats(P3, &row("TM.T..."));
        assert!(!blocked.contains(&key(3)));
        // The old gap blocks nothing else (the cart refuses it); only 6, which strands 5 and 7, is.
        assert_eq!(blocked, keys(&[6]));
    }

    #[test]
    fn a_lone_seat_left_by_others_blocks_nothing_of_its_own() {
        assert!(blocked_seats(P3, &row("T.T")).is_empty());
        assert!(!blocked_seats(P3, &row("T.T....")).contains(&key(2)));
    }

    // --- Rules 2 to 6 --------------------------------------------------------------------------

    #[test]
    fn half_a_sofa_is_refused_and_the_missing_partner_is_named() {
        let plan = row("(M.)(..)");
        assert_eq!(
            check_sofas(&plan),
            Err(SeatingViolation::SofaSplit {
                sofa_id: 1101,
                missing: key(2)
            })
        );
        assert_eq!(check_sofas(&row("(.M)..")).unwrap_err().code(), "sofaSplit");
        // A partner held by someone else is missing all the same.
        assert!(matches!(
            check_sofas(&row("(MT)")),
            Err(SeatingViolation::SofaSplit { missing, .. }) if missing == key(2)
        ));
    }

    #[test]
    fn a_whole_sofa_and_ordinary_seats_are_accepted() {
        assert_eq!(check_sofas(&row("(MM)(..)M")), Ok(()));
        assert_eq!(check_sofas(&row("(TT)M")), Ok(()));
    }

    #[test]
    fn seats_of_two_price_levels_in_one_selection_are_refused() {
        let mut seats: Vec<PlanSeat> = row("MMM").iter().map(|s| s.seat).collect();
        assert_eq!(check_price_level(&seats), Ok(()));
        seats[2].price_level = 2;
        assert_eq!(
            check_price_level(&seats),
            Err(SeatingViolation::MixedPriceLevels {
                seat: key(3),
                expected: 1,
                found: 2
            })
        );
        assert_eq!(check_price_level(&[]), Ok(()));
    }

    #[test]
    fn a_couple_ticket_covers_two_seats_and_a_factor_of_zero_or_one_covers_one() {
        assert_eq!(seats_covered(&[2, 1, 0]), 4);
        assert_eq!(check_ticket_count(&[2, 1], 3), Ok(()));
    }

    #[test]
    fn tickets_that_do_not_cover_the_selected_seats_are_refused_with_both_counts() {
        assert_eq!(
            check_ticket_count(&[1], 3),
            Err(SeatingViolation::TicketCountMismatch {
                seats: 3,
                tickets_cover: 1
            })
        );
        assert!(check_ticket_count(&[2, 2], 3).is_err());
    }

    #[test]
    fn more_seats_than_the_configured_maximum_are_refused() {
        assert_eq!(check_max_seats(10, 10), Ok(()));
        assert_eq!(
            check_max_seats(11, 10),
            Err(SeatingViolation::TooManySeats {
                selected: 11,
                max: 10
            })
        );
    }

    #[test]
    fn wheelchair_and_limited_view_seats_need_their_own_confirmation() {
        let mut seats: Vec<PlanSeat> = row("MMM").iter().map(|s| s.seat).collect();
        seats[1].handicap = true;
        seats[2].limited_view = true;
        let refused = |special, x| {
            Err(SeatingViolation::ConfirmationRequired {
                seat: key(x),
                special,
            })
        };
        let none = Confirmations::default();
        assert_eq!(
            check_confirmations(&seats, none),
            refused(SpecialSeat::Wheelchair, 2)
        );
        let wheelchair_only = Confirmations {
            wheelchair: true,
            ..none
        };
        assert_eq!(
            check_confirmations(&seats, wheelchair_only),
            refused(SpecialSeat::LimitedView, 3)
        );
        let both = Confirmations {
            wheelchair: true,
            limited_view: true,
        };
        assert_eq!(check_confirmations(&seats, both), Ok(()));
        assert_eq!(check_confirmations(&seats[..1], none), Ok(()));
    }

    // --- Rule 7: best available ----------------------------------------------------------------

    fn request(quantity: usize, best_x: i64, best_y: i64) -> BestAvailableRequest<'static> {
        BestAvailableRequest {
            quantity,
            best_x,
            best_y,
            sections: SectionChoice::Allowed(&[1, 2]),
            seating_policy_id: P3,
            include_wheelchair: false,
            include_limited_view: false,
            max_matches: BEST_AVAILABLE_MATCHES,
        }
    }

    fn xs(blocks: &[Block]) -> Vec<Vec<i64>> {
        blocks
            .iter()
            .map(|b| b.seats.iter().map(|k| k.x).collect())
            .collect()
    }

    #[test]
    fn best_available_offers_the_block_nearest_the_best_point_first() {
        let blocks = best_available(&row("........"), &request(2, 5, 1)).unwrap();
        // 4-5 and 5-6 are equally near (centre 4.5 and 5.5): the lower x wins.
        // 2-3 and 6-7 would strand a seat at the row's ends.
        assert_eq!(
            xs(&blocks),
            vec![vec![4, 5], vec![5, 6], vec![3, 4], vec![7, 8], vec![1, 2]]
        );
        assert_eq!(blocks[0].row, 1);
        assert_eq!(blocks[0].section_id, 1);
    }

    #[test]
    fn best_available_breaks_ties_by_y_distance_then_x() {
        // Three single seats, each 2 away from (5, 5): (3,5), (7,5) and (5,7).
        let plan = [
            seat(1, 5, 3, Free),
            seat(1, 5, 7, Free),
            seat(1, 7, 5, Free),
        ];
        let blocks = best_available(&plan, &request(1, 5, 5)).unwrap();
        let at: Vec<(i64, i64)> = blocks
            .iter()
            .map(|b| (b.seats[0].x, b.seats[0].y))
            .collect();
        assert_eq!(at, vec![(3, 5), (7, 5), (5, 7)]);
    }

    #[test]
    fn best_available_gives_at_most_max_matches() {
        let mut r = request(1, 5, 1);
        r.max_matches = 2;
        assert_eq!(best_available(&row("........."), &r).unwrap().len(), 2);
    }

    #[test]
    fn best_available_never_crosses_an_aisle() {
        // x: 1 2 | 4 5 — no two side by side across the aisle at 3.
        let blocks = best_available(&row("..|.."), &request(2, 3, 1)).unwrap();
        assert_eq!(xs(&blocks), vec![vec![1, 2], vec![4, 5]]);
        assert_eq!(
            best_available(&row(".|.|."), &request(2, 3, 1)),
            Err(NotEnoughSeats::NoContiguousBlock { wanted: 2 })
        );
    }

    #[test]
    fn best_available_skips_a_block_that_would_leave_a_single_gap_under_policy_3() {
        // 3-4 would strand 5 beside the taken 6, 2-3 would strand 1 at the row's end.
        let plan = row(".....T");
        assert_eq!(
            xs(&best_available(&plan, &request(2, 5, 1)).unwrap()),
            vec![vec![4, 5], vec![1, 2]]
        );
        let plan = row("T.....T");
        let blocks = best_available(&plan, &request(2, 4, 1)).unwrap();
        assert_eq!(xs(&blocks), vec![vec![2, 3], vec![5, 6]]);
        let mut any_policy = request(2, 4, 1);
        any_policy.seating_policy_id = 1;
        assert_eq!(
            xs(&best_available(&plan, &any_policy).unwrap())[0],
            vec![3, 4]
        );
    }

    #[test]
    fn best_available_judges_a_block_as_a_fresh_selection_beside_the_buyers_own_seats() {
        // The buyer holds 1; 3-4 would leave 2 alone between old and new seats.
        let blocks = best_available(&row("M....."), &request(2, 3, 1)).unwrap();
        assert_eq!(xs(&blocks), vec![vec![2, 3], vec![5, 6]]);
        // A gap beside the buyer's old seat only (2) does not spoil every block of the row.
        let blocks = best_available(&row("M.T...."), &request(2, 5, 1)).unwrap();
        assert_eq!(xs(&blocks), vec![vec![4, 5], vec![6, 7]]);
    }

    #[test]
    fn best_available_skips_a_block_that_splits_a_sofa() {
        // 2-3 is nearest the best point but takes half of each sofa. Policy 1, so that only
        // the sofa rule can refuse it.
        let r = |quantity| BestAvailableRequest {
            seating_policy_id: 1,
            ..request(quantity, 3, 1)
        };
        let blocks = best_available(&row("(..)(..)"), &r(2)).unwrap();
        assert_eq!(xs(&blocks), vec![vec![3, 4], vec![1, 2]]);
        let blocks = best_available(&row("(..)(..)"), &r(3));
        assert_eq!(blocks, Err(NotEnoughSeats::NoContiguousBlock { wanted: 3 }));
    }

    #[test]
    fn best_available_offers_wheelchair_and_limited_view_seats_only_when_asked() {
        let mut plan = row("...");
        plan[1].seat.handicap = true;
        plan[2].seat.limited_view = true;
        let r = request(1, 2, 1);
        assert_eq!(xs(&best_available(&plan, &r).unwrap()), vec![vec![1]]);
        let asked = BestAvailableRequest {
            include_wheelchair: true,
            include_limited_view: true,
            seating_policy_id: 1,
            ..r
        };
        assert_eq!(
            xs(&best_available(&plan, &asked).unwrap()),
            vec![vec![2], vec![1], vec![3]]
        );
    }

    #[test]
    fn best_available_keeps_to_the_allowed_sections() {
        let mut plan = row_in(1, 1, "..");
        plan.extend(row_in(3, 1, "...."));
        let blocks = best_available(&plan, &request(2, 3, 1)).unwrap();
        assert!(blocks.iter().all(|b| b.section_id == 1));
    }

    #[test]
    fn too_few_free_seats_in_the_allowed_sections_is_res_not_enough_seats() {
        let mut plan = row("T..T");
        plan.extend(row_in(3, 1, "......"));
        let err = best_available(&plan, &request(3, 2, 1)).unwrap_err();
        assert_eq!(
            err,
            NotEnoughSeats::InAllowedSections { free: 2, wanted: 3 }
        );
        assert_eq!(err.code(), "res_not_enough_seats");
    }

    #[test]
    fn enough_seats_but_none_side_by_side_is_not_enough_seats() {
        let err = best_available(&row(".T.T."), &request(2, 3, 1)).unwrap_err();
        assert_eq!(err, NotEnoughSeats::NoContiguousBlock { wanted: 2 });
        assert_eq!(err.code(), "NOT_ENOUGH_SEATS");
    }

    #[test]
    fn a_requested_section_without_enough_seats_is_section_not_enough_seats() {
        let mut plan = row_in(1, 1, "......");
        plan.extend(row_in(2, 1, "T.T"));
        let r = BestAvailableRequest {
            sections: SectionChoice::Requested(2),
            ..request(2, 2, 1)
        };
        let err = best_available(&plan, &r).unwrap_err();
        assert_eq!(
            err,
            NotEnoughSeats::InSection {
                section_id: 2,
                free: 1,
                wanted: 2
            }
        );
        assert_eq!(err.code(), "section_not_enough_seats");
    }

    // --- Rule 8: general admission -------------------------------------------------------------

    #[test]
    fn general_admission_gives_the_lowest_free_places() {
        assert_eq!(free_places(10, &[1, 3, 3, 99], 3), Ok(vec![2, 4, 5]));
        assert_eq!(free_places(3, &[], 0), Ok(vec![]));
    }

    #[test]
    fn general_admission_refuses_more_places_than_are_left() {
        let err = free_places(4, &[2, 4, 2], 3).unwrap_err();
        assert_eq!(err, NotEnoughSeats::GaPlaces { free: 2, wanted: 3 });
        assert_eq!(err.code(), "ga_not_enough_seats");
        assert!(free_places(0, &[], 1).is_err());
    }

    #[test]
    fn every_violation_has_a_stable_code() {
        let k = key(1);
        let codes: Vec<&str> = [
            SeatingViolation::SingleSeatGap { seat: k },
            SeatingViolation::SofaSplit {
                sofa_id: 1,
                missing: k,
            },
            SeatingViolation::MixedPriceLevels {
                seat: k,
                expected: 1,
                found: 2,
            },
            SeatingViolation::TicketCountMismatch {
                seats: 1,
                tickets_cover: 2,
            },
            SeatingViolation::TooManySeats {
                selected: 11,
                max: 10,
            },
            SeatingViolation::ConfirmationRequired {
                seat: k,
                special: SpecialSeat::Wheelchair,
            },
        ]
        .iter()
        .map(|v| v.code().as_str())
        .collect();
        assert_eq!(
            codes,
            [
                "singleSeatGap",
                "sofaSplit",
                "mixedPriceLevels",
                "ticketCountMismatch",
                "tooManySeats",
                "seatConfirmationRequired"
            ]
        );
    }

    #[test]
    fn a_seat_state_maps_to_the_buyers_occupancy() {
        assert_eq!(Occupancy::from(SeatState::Available), Free);
        assert_eq!(Occupancy::from(SeatState::HeldByMe), Mine);
        assert_eq!(Occupancy::from(SeatState::HeldByOther), Taken);
        assert_eq!(Occupancy::from(SeatState::Sold), Taken);
    }
}

/// Property tests of rules 1, 2 and 7 on random rows.
#[cfg(test)]
mod properties {
    use std::collections::HashMap;

    use proptest::prelude::*;

    use super::*;
    use Occupancy::{Free, Mine, Taken};

    /// One random row of section 1: 1 to 20 seats, about a fifth of them after an aisle, each
    /// free (more often), taken or mine. With `sofas`, some neighbouring pairs share a sofa.
    fn arb_row(row: i64, sofas: bool) -> impl Strategy<Value = Vec<SeatStatus>> {
        let cell = (
            prop_oneof![3 => Just(Free), 1 => Just(Taken), 1 => Just(Mine)],
            prop::bool::weighted(0.2),
            prop::bool::weighted(if sofas { 0.3 } else { 0.0 }),
        );
        prop::collection::vec(cell, 1..=20).prop_map(move |cells| {
            let mut x = 0;
            let mut seats: Vec<SeatStatus> = Vec::new();
            for (i, (occupancy, aisle, sofa)) in cells.into_iter().enumerate() {
                x += if aisle { 2 } else { 1 };
                let mut seat = SeatStatus {
                    seat: PlanSeat {
                        section_id: 1,
                        x,
                        y: row,
                        row,
                        price_level: 1,
                        ..PlanSeat::default()
                    },
                    occupancy,
                };
                // A sofa pairs this seat with its left neighbour when that one is not in a sofa.
                if let Some(prev) = seats.last_mut()
                    && sofa
                    && prev.seat.x == x - 1
                    && prev.seat.sofa_id.is_none()
                {
                    let id = row * 100 + i as i64;
                    prev.seat.sofa_id = Some(id);
                    seat.seat.sofa_id = Some(id);
                }
                seats.push(seat);
            }
            seats
        })
    }

    fn arb_plan() -> impl Strategy<Value = Vec<SeatStatus>> {
        (arb_row(1, true), arb_row(2, true), arb_row(3, true))
            .prop_map(|(a, b, c)| a.into_iter().chain(b).chain(c).collect())
    }

    /// The rule written out plainly, by looking seats up by x, as a second opinion.
    fn leaves_a_lone_seat_beside_mine(row: &[SeatStatus]) -> bool {
        !lone_seats_beside_mine(row).is_empty()
    }

    /// The x of every free seat with no free neighbour and one of the buyer's seats beside it.
    fn lone_seats_beside_mine(row: &[SeatStatus]) -> Vec<i64> {
        let at: HashMap<i64, Occupancy> = row.iter().map(|s| (s.seat.x, s.occupancy)).collect();
        row.iter()
            .filter(|s| {
                let (left, right) = (at.get(&(s.seat.x - 1)), at.get(&(s.seat.x + 1)));
                s.occupancy == Free
                    && left != Some(&Free)
                    && right != Some(&Free)
                    && (left == Some(&Mine) || right == Some(&Mine))
            })
            .map(|s| s.seat.x)
            .collect()
    }

    /// `seats` with the buyer's selection replaced by `selection`; every other non-free seat is
    /// taken (how best-available judges a block).
    fn with_selection(seats: &[SeatStatus], selection: &[SeatAddress]) -> Vec<SeatStatus> {
        seats
            .iter()
            .map(|s| SeatStatus {
                occupancy: if selection.contains(&s.seat.key()) {
                    Mine
                } else if s.occupancy == Free {
                    Free
                } else {
                    Taken
                },
                ..*s
            })
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: 1000,
            // Shrunk failures are printed; no regression file is written into the crate.
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// (a) A selection is accepted exactly when it leaves no free seat with no free neighbour
        /// and one of the buyer's seats beside it (both directions, so neither a weaker nor a
        /// stricter rule passes).
        #[test]
        fn an_accepted_selection_never_leaves_a_lone_seat_beside_it(row in arb_row(1, false)) {
            prop_assert_eq!(
                check_single_seat_gap(SINGLE_SEAT_GAP_POLICY, &row).is_ok(),
                !leaves_a_lone_seat_beside_mine(&row)
            );
        }

        /// (b) The blocked seats are exactly the free seats whose addition would leave a lone seat
        /// beside the selection that was not there before.
        #[test]
        fn blocked_seats_are_exactly_those_whose_taking_would_be_refused(
            row in arb_row(1, false),
        ) {
            let blocked = blocked_seats(SINGLE_SEAT_GAP_POLICY, &row);
            for (i, s) in row.iter().enumerate().filter(|(_, s)| s.occupancy == Free) {
                let mut after = row.clone();
                after[i].occupancy = Mine;
                let before_gaps = lone_seats_beside_mine(&row);
                let new_gap = lone_seats_beside_mine(&after).iter().any(|x| !before_gaps.contains(x));
                prop_assert_eq!(blocked.contains(&s.seat.key()), new_gap, "seat {}", s.seat.x);
            }
            prop_assert!(blocked
                .iter()
                .all(|k| row.iter().any(|s| s.seat.key() == *k && s.occupancy == Free)));
        }

        /// (c) Best-available offers only free, side-by-side seats that the rules accept as the
        /// buyer's selection; it finds a block whenever one exists, nearest first.
        #[test]
        fn best_available_offers_only_blocks_the_rules_accept(
            plan in arb_plan(),
            quantity in 1usize..=4,
            best_x in 0i64..=30,
            best_y in 0i64..=4,
        ) {
            let request = BestAvailableRequest {
                quantity,
                best_x,
                best_y,
                sections: SectionChoice::Allowed(&[1]),
                seating_policy_id: SINGLE_SEAT_GAP_POLICY,
                include_wheelchair: false,
                include_limited_view: false,
                max_matches: BEST_AVAILABLE_MATCHES,
            };
            let is_free = |k: &SeatAddress| {
                plan.iter().any(|s| s.seat.key() == *k && s.occupancy == Free)
            };
            let accepted = |block: &[SeatAddress]| {
                let after = with_selection(&plan, block);
                check_single_seat_gap(SINGLE_SEAT_GAP_POLICY, &after).is_ok()
                    && check_sofas(&after).is_ok()
            };
            // Every run of `quantity` free seats the rules accept, by brute force.
            let all: Vec<Vec<SeatAddress>> = plan
                .iter()
                .map(|s| {
                    (0..quantity as i64)
                        .map(|d| SeatAddress { x: s.seat.x + d, ..s.seat.key() })
                        .collect::<Vec<_>>()
                })
                .filter(|block| block.iter().all(is_free) && accepted(block))
                .collect();
            let distance = |block: &[SeatAddress]| {
                let q = block.len() as i64;
                let dx = block.iter().map(|k| k.x).sum::<i64>() - q * best_x;
                let dy = block.iter().map(|k| k.y).sum::<i64>() - q * best_y;
                dx * dx + dy * dy
            };
            match best_available(&plan, &request) {
                Ok(blocks) => {
                    prop_assert_eq!(blocks.len(), all.len().min(BEST_AVAILABLE_MATCHES));
                    for b in &blocks {
                        prop_assert_eq!(b.seats.len(), quantity);
                        prop_assert!(b.seats.iter().all(is_free), "an occupied seat");
                        prop_assert!(b.seats.windows(2).all(|w| w[1].x == w[0].x + 1
                            && w[1].y == w[0].y), "not side by side");
                        prop_assert!(accepted(&b.seats), "refused by the rules: {:?}", b.seats);
                    }
                    let nearest = all.iter().map(|b| distance(b)).min();
                    prop_assert_eq!(Some(distance(&blocks[0].seats)), nearest);
                    prop_assert!(blocks.windows(2)
                        .all(|w| distance(&w[0].seats) <= distance(&w[1].seats)));
                }
                Err(NotEnoughSeats::InAllowedSections { free, wanted }) => {
                    prop_assert_eq!(free, plan.iter().filter(|s| s.occupancy == Free).count());
                    prop_assert!(free < wanted);
                }
                Err(NotEnoughSeats::NoContiguousBlock { .. }) => prop_assert!(all.is_empty()),
                Err(other) => prop_assert!(false, "unexpected {other:?}"),
            }
        }
    }
}
