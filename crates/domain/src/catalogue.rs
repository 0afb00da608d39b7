//! Catalogue rules: what a presentation's sections make of its seating mode, which venue types
//! are video on demand, when a presentation is on sale, and how a seat's state is shown.

use crate::ids::SessionId;
use serde::{Deserialize, Serialize};

/// Venue types 101 to 104 are video on demand; 101 and 102 empty the cart of anything else.
pub fn is_vod_venue_type(venue_type_id: i64) -> bool {
    (101..=104).contains(&venue_type_id)
}

pub fn vod_clears_cart(venue_type_id: i64) -> bool {
    venue_type_id == 101 || venue_type_id == 102
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SectionKind {
    /// Numbered seats, each chosen by the buyer.
    #[default]
    Reserved,
    /// General admission: N interchangeable places.
    Ga,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum SeatingMode {
    #[serde(rename = "mixed")]
    Mixed,
    #[serde(rename = "reserved")]
    Reserved,
    #[serde(rename = "singleGA")]
    SingleGa,
    #[serde(rename = "multiGA")]
    MultiGa,
}

impl SectionKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SectionKind::Reserved => "reserved",
            SectionKind::Ga => "ga",
        }
    }

    pub fn parse(s: &str) -> Option<SectionKind> {
        match s {
            "reserved" => Some(SectionKind::Reserved),
            "ga" => Some(SectionKind::Ga),
            _ => None,
        }
    }
}

impl SeatingMode {
    /// Derived from the sections of the seat plan, so it can never disagree with them.
    pub fn from_sections(reserved_sections: usize, ga_sections: usize) -> SeatingMode {
        match (reserved_sections, ga_sections) {
            (_, 0) => SeatingMode::Reserved,
            (0, 1) => SeatingMode::SingleGa,
            (0, _) => SeatingMode::MultiGa,
            _ => SeatingMode::Mixed,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SeatingMode::Mixed => "mixed",
            SeatingMode::Reserved => "reserved",
            SeatingMode::SingleGa => "singleGA",
            SeatingMode::MultiGa => "multiGA",
        }
    }
}

/// A presentation is on sale from `sale_starts_at` up to (not including) `sale_ends_at`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SaleWindow {
    pub starts_at_ms: i64,
    pub ends_at_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaleState {
    NotYetStarted,
    OnSale,
    Ended,
}

impl SaleWindow {
    pub fn state_at(self, now_ms: i64) -> SaleState {
        if now_ms < self.starts_at_ms {
            SaleState::NotYetStarted
        } else if now_ms >= self.ends_at_ms {
            SaleState::Ended
        } else {
            SaleState::OnSale
        }
    }
}

/// What one buyer sees of one seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SeatState {
    Available,
    HeldByMe,
    HeldByOther,
    Sold,
}

impl SeatState {
    /// A claim row as the viewer sees it; an expired hold is simply free.
    pub fn from_claim(
        claim: Option<ClaimView>,
        viewer_session: Option<&SessionId>,
        now_ms: i64,
    ) -> SeatState {
        match claim {
            None => SeatState::Available,
            Some(c) if c.sold => SeatState::Sold,
            Some(c) if !c.is_live_hold(now_ms) => SeatState::Available,
            Some(c) if Some(c.session_id) == viewer_session => SeatState::HeldByMe,
            Some(_) => SeatState::HeldByOther,
        }
    }

    pub fn is_available(self) -> bool {
        self == SeatState::Available
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SeatState::Available => "available",
            SeatState::HeldByMe => "heldByMe",
            SeatState::HeldByOther => "heldByOther",
            SeatState::Sold => "sold",
        }
    }
}

/// The one liveness rule of a hold: live until its deadline, not at it. An expired hold is simply
/// free, whether or not a sweeper has deleted it. (The store's SQL writes the same rule once, as
/// its `live_hold!`, `expires_at > now`, and takes over or sweeps a hold with `expired_hold!`,
/// `expires_at <= now`.)
pub fn hold_is_live(expires_at_ms: i64, now_ms: i64) -> bool {
    expires_at_ms > now_ms
}

#[derive(Debug, Clone, Copy)]
pub struct ClaimView<'a> {
    pub sold: bool,
    pub expires_at_ms: i64,
    pub session_id: &'a SessionId,
}

impl ClaimView<'_> {
    /// The one liveness rule of a claim: a hold is live until its deadline (not at it); a sold
    /// claim is no hold. An expired hold is simply free, whether or not a sweeper has deleted it.
    pub fn is_live_hold(&self, now_ms: i64) -> bool {
        !self.sold && hold_is_live(self.expires_at_ms, now_ms)
    }

    /// The seat is taken: sold, or held and the hold still live.
    pub fn takes_the_seat(&self, now_ms: i64) -> bool {
        self.sold || self.is_live_hold(now_ms)
    }

    /// A live hold of this session.
    pub fn is_live_hold_of(&self, session_id: &SessionId, now_ms: i64) -> bool {
        self.session_id == session_id && self.is_live_hold(now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seating_mode_follows_the_sections() {
        assert_eq!(SeatingMode::from_sections(2, 0), SeatingMode::Reserved);
        assert_eq!(SeatingMode::from_sections(0, 1), SeatingMode::SingleGa);
        assert_eq!(SeatingMode::from_sections(0, 3), SeatingMode::MultiGa);
        assert_eq!(SeatingMode::from_sections(1, 1), SeatingMode::Mixed);
    }

    #[test]
    fn sale_window_is_half_open() {
        let w = SaleWindow {
            starts_at_ms: 100,
            ends_at_ms: 200,
        };
        assert_eq!(w.state_at(99), SaleState::NotYetStarted);
        assert_eq!(w.state_at(100), SaleState::OnSale);
        assert_eq!(w.state_at(199), SaleState::OnSale);
        assert_eq!(w.state_at(200), SaleState::Ended);
    }

    #[test]
    fn vod_types() {
        assert!(is_vod_venue_type(101) && is_vod_venue_type(104));
        assert!(!is_vod_venue_type(1) && !is_vod_venue_type(105));
        assert!(vod_clears_cart(102) && !vod_clears_cart(103));
    }

    #[test]
    fn an_expired_hold_shows_as_available_and_a_sale_never_expires() {
        let (a, b) = (SessionId::from("a"), SessionId::from("b"));
        let held = |exp| {
            Some(ClaimView {
                sold: false,
                expires_at_ms: exp,
                session_id: &a,
            })
        };
        assert_eq!(
            SeatState::from_claim(held(50), Some(&b), 100),
            SeatState::Available
        );
        assert_eq!(
            SeatState::from_claim(held(150), Some(&b), 100),
            SeatState::HeldByOther
        );
        assert_eq!(
            SeatState::from_claim(held(150), Some(&a), 100),
            SeatState::HeldByMe
        );
        let sold = Some(ClaimView {
            sold: true,
            expires_at_ms: 0,
            session_id: &a,
        });
        assert_eq!(SeatState::from_claim(sold, None, 100), SeatState::Sold);
    }
}
