//! What a change of seats writes (decision 0030): each ticket's move, and why the store moved
//! nothing.

use kupa_domain::ids::PresentationId;
use kupa_domain::seating::SeatAddress;

/// One ticket to move: the order's line, its presentation, its seat now and the seat it moves to,
/// with the new seat's names and the line's new e-document key (the old ticket stops admitting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatMove {
    pub line: i64,
    pub presentation_id: PresentationId,
    pub from: SeatAddress,
    pub to: SeatAddress,
    pub section_name: String,
    pub section_name_en: String,
    pub row_name: String,
    pub seat_name: String,
    pub document_key: String,
}

/// Why the store moved nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveRefusal {
    /// The order is not (or no longer) paid.
    NotPaid,
    /// The order changed since the buyer read it: another payment, or a moved or cancelled ticket.
    Stale,
    /// The new seat is sold, or held by another buyer.
    SeatTaken {
        presentation_id: PresentationId,
        seat: SeatAddress,
    },
}
