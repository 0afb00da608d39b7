//! What a screening sells at (decision 0070): the ticket group each of its sections sells (a
//! screening may have its own group in place of its hall's main one), each ticket's price in
//! force on the screening's local day, and the business's service charge in force that day.
//!
//! One rule, read by everything that shows or charges a price — the tickets step's list, a ticket
//! by code, the seat map's "sold at the box office only", a seat lock, best available, the cart —
//! so the storefront and the cart cannot disagree: a change scheduled from a local day (Asia/
//! Jerusalem) applies to the business's screenings of that day or later; the latest change on or
//! before the day wins; with none, the catalogue's price. An order keeps the price it was priced
//! at (`order_tickets.price`): nothing here reaches an order already priced, and the house does
//! not reprice a pending cart at payment (decision 0049's rule for imported prices).

use crate::error::StoreResult;
use crate::model::{Presentation, Section, ServiceCharge, Ticket, TicketGroup};
use crate::ports::CatalogueStore;

pub mod changes;
pub use changes::*;

/// The hall's main ticket group: the group of its plan's first section in display order. A
/// screening's own group takes its place; other sections (premium seats, press seats sold at the
/// box office, a standing area) keep their own.
pub fn main_ticket_group(sections: &[Section]) -> Option<i64> {
    sections
        .iter()
        .min_by_key(|s| (s.sort, s.id))
        .map(|s| s.ticket_group_id)
}

/// The plan's sections as the screening sells them: those of the hall's main ticket group sell
/// the screening's own group, when it has one.
pub fn with_screening_group(p: &Presentation, mut sections: Vec<Section>) -> Vec<Section> {
    let (Some(own), Some(main)) = (p.ticket_group_id, main_ticket_group(&sections)) else {
        return sections;
    };
    for s in sections.iter_mut().filter(|s| s.ticket_group_id == main) {
        s.ticket_group_id = own;
    }
    sections
}

/// The screening's sections, each with the ticket group it sells.
pub async fn sections_of(
    store: &dyn CatalogueStore,
    p: &Presentation,
) -> StoreResult<Vec<Section>> {
    Ok(with_screening_group(
        p,
        store.sections(p.seatplan_id).await?,
    ))
}

/// The ticket groups `ids` with each ticket at its price for the screening.
pub async fn ticket_groups_of(
    store: &dyn CatalogueStore,
    p: &Presentation,
    ids: &[i64],
) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>> {
    let groups = store.ticket_groups(ids).await?;
    Ok(store.price_changes().await?.priced(p, groups))
}

/// The business's service charge in force for the screening.
pub async fn service_charge_of(
    store: &dyn CatalogueStore,
    p: &Presentation,
) -> StoreResult<Option<ServiceCharge>> {
    let base = store.service_charge(p.business_id).await?;
    Ok(store
        .price_changes()
        .await?
        .service_charge(p.business_id, base, screening_day(p)))
}

#[cfg(test)]
mod tests;
