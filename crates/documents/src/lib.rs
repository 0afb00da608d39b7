//! Ticket documents of Kupa: what a buyer takes away from an order.
//!
//! - [`render_tickets_pdf`]: the tickets as a PDF, one A4 page per ticket, in Hebrew (right to
//!   left) or English, with the fonts embedded and subset.
//! - [`qr_svg`]: the QR code of a ticket's e-document address, as SVG for the web page.
//! - [`render_ics`], [`render_calendar`]: an RFC 5545 calendar file for a screening, or for
//!   every screening of an order.
//!
//! Everything here is a pure function of its input: the caller supplies already-translated
//! labels and already-formatted dates, times and prices (Asia/Jerusalem, `₪ 45.00`), so this
//! crate has no locale, clock or time-zone logic of its own.
//!
//! Hebrew and mixed text (`שורה 7 כיסא 12`, `אולם 1 – IMAX`) are reordered with the Unicode
//! bidirectional algorithm (`unicode-bidi`) and drawn in visual order, so the page reads right
//! to left and text extraction (copy, search, `pdftotext`) gives the logical string back.

mod fonts;
mod ics;
mod model;
mod pdf;
mod qr;
mod text;

pub use ics::{CalendarEvent, render_calendar, render_ics};
pub use model::{Seat, Ticket, TicketLabels, TicketsDocument};
pub use pdf::render_tickets_pdf;
pub use qr::{qr_svg, try_qr_svg};

/// Why a document could not be made.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum DocumentError {
    /// A tickets document needs at least one ticket.
    #[error("the document has no tickets")]
    NoTickets,
    /// The QR payload is longer than a QR code holds (about 2,300 bytes at level M).
    #[error("the QR payload of ticket {ticket} is too long for a QR code ({len} bytes)")]
    QrPayloadTooLong {
        /// Index of the ticket in [`TicketsDocument::tickets`] (0-based).
        ticket: usize,
        /// Length of the payload in bytes.
        len: usize,
    },
    /// An embedded font could not be read or subset (a bug in this crate, not in the input).
    #[error("embedded font {0}: {1}")]
    Font(&'static str, String),
}
