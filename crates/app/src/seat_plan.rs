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
