//! Rule 7: best available, and the free places of general admission.

use super::*;

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
