//! The seating rules, one by one.
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
