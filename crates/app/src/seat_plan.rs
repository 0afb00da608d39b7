//! A seat plan's rows as the pure rules see them: [`plan_seat`] for the seating rules,
//! [`order_seat`] and [`seat_kinds_of`] for tickets tied to a kind of seat. A leaf: the
//! catalogue, booking, tickets and the cart all read seats through it.

use kupa_domain::seat_kinds::{OrderSeat, SeatKind, kinds_served};
use kupa_domain::seating::{PlanSeat, SeatAddress};

use crate::model::{Seat, Section};

pub fn plan_seat(seat: &Seat, sections: &[Section]) -> PlanSeat {
    PlanSeat {
        section_id: seat.section_id,
        x: seat.x,
        y: seat.y,
        row: seat.group_id,
        price_level: sections
            .iter()
            .find(|s| s.id == seat.section_id)
            .map(|s| s.price_level)
            .unwrap_or(1),
        sofa_id: seat.sofa_id,
        handicap: seat.handicap,
        companion: seat.companion,
        limited_view: seat.limited_view,
    }
}

/// A plan seat as the seat-kind rule sees it.
pub fn order_seat(s: &Seat) -> OrderSeat {
    OrderSeat {
        key: s.address(),
        row: s.group_id,
        wheelchair: s.handicap,
        companion: s.companion,
        limited_view: s.limited_view,
        premium: s.premium,
        sofa: s.sofa_id.is_some(),
        attributes: s
            .attributes
            .split(',')
            .map(str::trim)
            .filter(|a| !a.is_empty())
            .map(str::to_owned)
            .collect(),
    }
}

/// The kinds of seat each of an order's places serves, in order (a general-admission place, not
/// in the plan, serves none).
pub fn seat_kinds_of(places: &[SeatAddress], plan: &[Seat]) -> Vec<Vec<SeatKind>> {
    let seats: Vec<OrderSeat> = places
        .iter()
        .map(|&place| {
            plan.iter()
                .find(|s| s.address() == place)
                .map(order_seat)
                .unwrap_or_else(|| OrderSeat {
                    key: place,
                    row: i64::MIN,
                    ..OrderSeat::default()
                })
        })
        .collect();
    kinds_served(&seats)
}

/// A presentation's seat status as the seating rules see it: each plan seat and who holds it.
pub fn rule_statuses(
    seats: &[(Seat, kupa_domain::catalogue::SeatState)],
    sections: &[Section],
) -> Vec<kupa_domain::seating::SeatStatus> {
    seats
        .iter()
        .map(|(s, st)| kupa_domain::seating::SeatStatus {
            seat: plan_seat(s, sections),
            occupancy: kupa_domain::seating::Occupancy::from(*st),
        })
        .collect()
}

/// The seat at `at` and the other seats of its sofa, in the plan's order; empty when there is no
/// seat there.
pub fn seat_with_partners(seats: &[Seat], at: SeatAddress) -> Vec<Seat> {
    let Some(seat) = seats
        .iter()
        .find(|s| s.section_id == at.section_id && s.x == at.x && s.y == at.y)
    else {
        return Vec::new();
    };
    match seat.sofa_id {
        Some(sofa) => seats
            .iter()
            .filter(|s| s.sofa_id == Some(sofa))
            .cloned()
            .collect(),
        None => vec![seat.clone()],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(x: i64, sofa: Option<i64>) -> Seat {
        Seat {
            section_id: 1,
            x,
            y: 1,
            sofa_id: sofa,
            ..Default::default()
        }
    }

    #[test]
    fn a_seat_comes_with_the_rest_of_its_sofa_in_plan_order_and_alone_otherwise() {
        let plan = vec![
            seat(1, None),
            seat(2, Some(7)),
            seat(3, Some(7)),
            seat(4, None),
        ];
        let xs = |v: Vec<Seat>| v.iter().map(|s| s.x).collect::<Vec<_>>();
        assert_eq!(
            xs(seat_with_partners(&plan, SeatAddress::new(1, 3, 1))),
            [2, 3]
        );
        assert_eq!(
            xs(seat_with_partners(&plan, SeatAddress::new(1, 4, 1))),
            [4]
        );
        assert!(seat_with_partners(&plan, SeatAddress::new(1, 9, 1)).is_empty());
    }
}
