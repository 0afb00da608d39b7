//! The ticket-reference prompt admin (spec sections 2 and 7): tickets that prompt for a reference
//! (a hotel guest's room number, say) take one of a list of options, each with a quantity the
//! chain allows. The admin reads the options with what was used of them, the detail by
//! presentation, the ticket sales that carried a reference, and edits an option's quantity.
//!
//! An option is addressed as the spec's agent entity does: PriceType 1 (a ticket price), PriceId
//! (the ticket id) and PriceRowId (the option's row in the ticket's list).

/// An option of a ticket's reference prompt, with its ticket.
#[derive(Debug, Clone, PartialEq)]
pub struct RefOption {
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    pub price_policy_id: i64,
    /// The option's row in its ticket's list (PriceRowId).
    pub row: i64,
    pub reference: String,
    /// Empty: any second reference.
    pub reference2: String,
    pub quantity: i64,
}

/// The only price type of the admin: a ticket's price.
pub const PRICE_TYPE_TICKET: i64 = 1;

/// Whether a sold line used this option (its first reference, and the second when the option
/// names one).
pub fn line_uses(o: &RefOption, ticket_id: i64, ref1: Option<&str>, ref2: Option<&str>) -> bool {
    ticket_id == o.ticket_id
        && ref1 == Some(o.reference.as_str())
        && (o.reference2.is_empty() || ref2 == Some(o.reference2.as_str()))
}
