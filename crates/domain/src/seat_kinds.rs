//! Tickets tied to a kind of seat (spec sections 3 and 5): a wheelchair ticket is sold only on a
//! wheelchair place; a companion ticket only on a companion seat or on a seat beside a wheelchair
//! place of the same order; a ticket the catalogue ties to limited-view, premium or sofa seats, or
//! to a custom seat attribute, only on such a seat. That no order has more companion tickets than
//! wheelchair tickets is the catalogue's `requiresTicketId` rule ([`crate::tickets`]).
//!
//! Pure: the caller brings the order's seats with their flags, in order.

use serde::{Deserialize, Serialize};

use crate::seating::SeatAddress;

/// A kind of seat a ticket can be tied to. On the wire and in the catalogue file:
/// `wheelchair`, `companion`, `limitedView`, `premium`, `sofa`, or `attribute:<code>` for a custom
/// seat attribute of the site configuration.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(into = "String", try_from = "String")]
pub enum SeatKind {
    Wheelchair,
    Companion,
    LimitedView,
    Premium,
    Sofa,
    /// A custom seat attribute, by its code (`recliner`, `dbox`, ...).
    Attribute(String),
}

const ATTRIBUTE_PREFIX: &str = "attribute:";

impl SeatKind {
    pub fn parse(s: &str) -> Option<SeatKind> {
        Some(match s {
            "wheelchair" => SeatKind::Wheelchair,
            "companion" => SeatKind::Companion,
            "limitedView" => SeatKind::LimitedView,
            "premium" => SeatKind::Premium,
            "sofa" => SeatKind::Sofa,
            other => {
                let code = other.strip_prefix(ATTRIBUTE_PREFIX)?.trim();
                if code.is_empty() || code.contains(',') {
                    return None;
                }
                SeatKind::Attribute(code.to_owned())
            }
        })
    }

    pub fn as_string(&self) -> String {
        match self {
            SeatKind::Wheelchair => "wheelchair".into(),
            SeatKind::Companion => "companion".into(),
            SeatKind::LimitedView => "limitedView".into(),
            SeatKind::Premium => "premium".into(),
            SeatKind::Sofa => "sofa".into(),
            SeatKind::Attribute(code) => format!("{ATTRIBUTE_PREFIX}{code}"),
        }
    }
}

impl std::fmt::Display for SeatKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.as_string())
    }
}

impl From<SeatKind> for String {
    fn from(k: SeatKind) -> String {
        k.as_string()
    }
}

impl TryFrom<String> for SeatKind {
    type Error = String;
    fn try_from(s: String) -> Result<SeatKind, String> {
        SeatKind::parse(&s).ok_or_else(|| format!("unknown seat kind {s:?}"))
    }
}

/// One seat of an order, as the seat-kind rule sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrderSeat {
    pub key: SeatAddress,
    /// The seat's row (the plan's group id): only seats of one row are beside each other.
    pub row: i64,
    pub wheelchair: bool,
    pub companion: bool,
    pub limited_view: bool,
    pub premium: bool,
    pub sofa: bool,
    /// Custom attribute codes.
    pub attributes: Vec<String>,
}

impl OrderSeat {
    fn beside(&self, other: &OrderSeat) -> bool {
        self.key.section_id == other.key.section_id
            && self.row == other.row
            && (self.key.x - other.key.x).abs() == 1
    }
}

/// The kinds each seat of the order serves, in the seats' order: its own flags, and
/// [`SeatKind::Companion`] also for any seat beside a wheelchair place of the same order.
pub fn kinds_served(seats: &[OrderSeat]) -> Vec<Vec<SeatKind>> {
    seats
        .iter()
        .map(|s| {
            let mut kinds = Vec::new();
            if s.wheelchair {
                kinds.push(SeatKind::Wheelchair);
            }
            if s.companion || seats.iter().any(|o| o.wheelchair && o.beside(s)) {
                kinds.push(SeatKind::Companion);
            }
            if s.limited_view {
                kinds.push(SeatKind::LimitedView);
            }
            if s.premium {
                kinds.push(SeatKind::Premium);
            }
            if s.sofa {
                kinds.push(SeatKind::Sofa);
            }
            kinds.extend(s.attributes.iter().map(|a| SeatKind::Attribute(a.clone())));
            kinds
        })
        .collect()
}

/// Whether a ticket tied to `kind` (None: any seat) may be sold on a seat serving `served`.
pub fn fits(kind: Option<&SeatKind>, served: &[SeatKind]) -> bool {
    kind.is_none_or(|k| served.contains(k))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(x: i64, row: i64) -> OrderSeat {
        OrderSeat {
            key: SeatAddress {
                section_id: 11,
                x,
                y: row,
            },
            row,
            ..OrderSeat::default()
        }
    }

    #[test]
    fn seat_kinds_read_and_write_the_catalogue_spelling() {
        for s in [
            "wheelchair",
            "companion",
            "limitedView",
            "premium",
            "sofa",
            "attribute:recliner",
        ] {
            assert_eq!(SeatKind::parse(s).unwrap().as_string(), s);
        }
        for bad in ["", "Wheelchair", "attribute:", "attribute:a,b", "vip"] {
            assert_eq!(SeatKind::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn an_ordinary_seat_serves_no_kind() {
        assert_eq!(
            kinds_served(&[seat(5, 1), seat(6, 1)]),
            vec![vec![], vec![]]
        );
        assert!(!fits(Some(&SeatKind::Wheelchair), &[]));
        assert!(fits(None, &[]));
    }

    #[test]
    fn a_seat_beside_a_wheelchair_place_of_the_order_serves_a_companion() {
        let wheelchair = OrderSeat {
            wheelchair: true,
            ..seat(1, 1)
        };
        let served = kinds_served(&[wheelchair.clone(), seat(2, 1)]);
        assert_eq!(served[0], vec![SeatKind::Wheelchair]);
        assert_eq!(served[1], vec![SeatKind::Companion]);
        // Not two seats away, not in the next row, not in another section.
        let other_section = OrderSeat {
            key: SeatAddress {
                section_id: 12,
                x: 2,
                y: 1,
            },
            ..seat(2, 1)
        };
        let served = kinds_served(&[wheelchair, seat(3, 1), seat(1, 2), other_section]);
        assert!(served[1..].iter().all(Vec::is_empty), "{served:?}");
    }

    #[test]
    fn a_companion_seat_serves_a_companion_without_a_wheelchair_place_in_the_order() {
        let companion = OrderSeat {
            companion: true,
            ..seat(2, 1)
        };
        assert_eq!(kinds_served(&[companion]), vec![vec![SeatKind::Companion]]);
    }

    #[test]
    fn flags_and_attributes_each_serve_their_kind() {
        let s = OrderSeat {
            limited_view: true,
            premium: true,
            sofa: true,
            attributes: vec!["recliner".into()],
            ..seat(4, 3)
        };
        let served = &kinds_served(std::slice::from_ref(&s))[0];
        for k in ["limitedView", "premium", "sofa", "attribute:recliner"] {
            assert!(fits(SeatKind::parse(k).as_ref(), served), "{k}");
        }
        assert!(!fits(Some(&SeatKind::Attribute("dbox".into())), served));
    }
}
