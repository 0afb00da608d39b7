//! What the caller hands over to render the tickets of an order.

/// The tickets of one order, in one language.
///
/// Every string is shown as given: translate labels and format dates, times and prices before
/// calling (dates and times in Asia/Jerusalem, prices like `₪ 45.00`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketsDocument {
    /// BCP 47 language tag of the labels, written into the PDF (`"he"`, `"en"`).
    pub lang: String,
    /// `true` for Hebrew: text is right-aligned, the layout mirrored (QR code on the left) and
    /// text without a strong direction of its own (numbers, prices) runs right to left.
    /// `false` for English: left-aligned, left to right.
    pub rtl: bool,
    /// Document title in the PDF metadata, e.g. `"כרטיסים – הזמנה 4821-7731"`.
    pub title: String,
    /// Name of the cinema chain, printed in the ticket's header band.
    pub chain_name: String,
    /// The labels, already in the document's language.
    pub labels: TicketLabels,
    /// The order terms, printed small at the bottom of every ticket. Lines separated by `\n`
    /// are paragraphs; long paragraphs wrap. Text that does not fit is shrunk, then cut.
    pub terms: String,
    /// One page per ticket, in this order. Must not be empty.
    pub tickets: Vec<Ticket>,
}

/// Labels printed next to the values, in the document's language.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketLabels {
    /// Above the ticket counter in the header band, e.g. `"כרטיס {n} מתוך {total}"` /
    /// `"Ticket {n} of {total}"`: `{n}` and `{total}` are replaced. Empty to print none.
    pub ticket_counter: String,
    /// `"קולנוע"` / `"Cinema"`.
    pub complex: String,
    /// `"אולם"` / `"Hall"`.
    pub hall: String,
    /// `"תאריך"` / `"Date"`.
    pub date: String,
    /// `"שעה"` / `"Time"`.
    pub time: String,
    /// `"אזור"` / `"Section"`.
    pub section: String,
    /// `"שורה"` / `"Row"`.
    pub row: String,
    /// `"כיסא"` / `"Seat"`.
    pub seat: String,
    /// Printed in place of row and seat for unreserved seating: `"ללא מקומות מסומנים"` /
    /// `"General admission"`.
    pub general_admission: String,
    /// `"סוג כרטיס"` / `"Ticket type"`.
    pub ticket_type: String,
    /// `"מחיר"` / `"Price"`.
    pub price: String,
    /// `"סה״כ להזמנה"` / `"Order total"`.
    pub order_total: String,
    /// `"מספר הזמנה"` / `"Reservation number"`.
    pub reservation_number: String,
    /// `"כניסה לאולם"` / `"Entrance"`.
    pub entrance_time: String,
    /// Under the QR code: `"הציגו את הקוד בכניסה"` / `"Show this code at the entrance"`.
    pub qr_caption: String,
    /// Heading of the terms: `"תנאי ההזמנה"` / `"Order terms"`.
    pub terms: String,
}

/// One admission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Ticket {
    /// The feature's name in the document's language (Hebrew first), printed large.
    pub feature_name: String,
    /// The feature's name in a second language (English under the Hebrew), printed smaller;
    /// empty to print none.
    pub feature_name_secondary: String,
    /// Cinema complex, e.g. `"קולנוע כפר סבא G"`.
    pub complex: String,
    /// Hall, e.g. `"אולם 1 – IMAX"`.
    pub hall: String,
    /// Formatted date of the screening, e.g. `"יום ה׳, 14.05.2026"`.
    pub date: String,
    /// Formatted start time, e.g. `"20:30"`.
    pub time: String,
    /// Where the holder sits.
    pub seat: Seat,
    /// Ticket type, e.g. `"רגיל"` / `"Student"`.
    pub ticket_type: String,
    /// Formatted full price of the ticket (its service charge included), e.g. `"₪ 47.00"`.
    pub price: String,
    /// Printed small under the price: the service charge it includes, e.g.
    /// `"כולל דמי טיפול ₪5.00"`; empty to print none.
    pub price_note: String,
    /// Formatted total of the whole order, e.g. `"₪ 94.00"`; empty to print none.
    pub order_total: String,
    /// Reservation (order) number, e.g. `"4821-7731"`.
    pub reservation_number: String,
    /// Formatted entrance time, e.g. `"20:10"` or `"הכניסה מ־20:10"`.
    pub entrance_time: String,
    /// What the QR code encodes: the ticket's e-document address or key.
    pub qr_payload: String,
}

/// Where the holder of a ticket sits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Seat {
    /// A reserved seat.
    Reserved {
        /// Section of the hall (e.g. `"יציע"`); empty for halls without sections.
        section: String,
        /// Row label, e.g. `"7"`.
        row: String,
        /// Seat label, e.g. `"12"`.
        seat: String,
    },
    /// Unreserved seating: [`TicketLabels::general_admission`] is printed instead.
    GeneralAdmission,
}
