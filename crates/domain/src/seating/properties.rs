//! Property tests of rules 1, 2 and 7 on random rows.
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
