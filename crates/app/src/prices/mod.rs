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

use jiff::civil::Date;
use kupa_domain::money::Money;

use crate::error::StoreResult;
use crate::model::{Presentation, Section, ServiceCharge, Ticket, TicketGroup};
use crate::ports::CatalogueStore;

/// The service charge's name when a business has none in the catalogue and one is scheduled.
const DEFAULT_CHARGE_NAME: (&str, &str) = ("דמי טיפול", "Service charge");

/// A ticket's price from a local day on, in one business's screenings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketPriceChange {
    pub id: i64,
    pub business_id: i64,
    pub ticket_id: i64,
    pub effective_from: Date,
    pub price: Money,
    pub created_at_ms: i64,
    pub staff_user_id: i64,
}

/// A business's service charge from a local day on: a fixed amount or basis points, per ticket
/// or per order (as the catalogue's `service_charges`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServiceChargeChange {
    pub id: i64,
    pub business_id: i64,
    pub effective_from: Date,
    pub amount: Option<Money>,
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
    pub created_at_ms: i64,
    pub staff_user_id: i64,
}

/// Every scheduled change (few: a chain schedules a handful a season), read with the catalogue
/// and kept in its cache.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PriceChanges {
    pub tickets: Vec<TicketPriceChange>,
    pub service_charges: Vec<ServiceChargeChange>,
}

/// Which kind of scheduled change: a ticket's price or a business's service charge.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PriceChangeKind {
    TicketPrice,
    ServiceCharge,
}

/// A scheduled change of either kind, as the store hands one back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PriceChange {
    TicketPrice(TicketPriceChange),
    ServiceCharge(ServiceChargeChange),
}

impl PriceChange {
    pub fn business_id(&self) -> i64 {
        match self {
            PriceChange::TicketPrice(c) => c.business_id,
            PriceChange::ServiceCharge(c) => c.business_id,
        }
    }
}

/// What the calls that treat both kinds alike (finding and withdrawing a change) need of one.
pub trait ScheduledChange: Sized {
    const KIND: PriceChangeKind;
    fn id(&self) -> i64;
    fn business_id(&self) -> i64;
    fn effective_from(&self) -> Date;
    /// The changes of this kind.
    fn all(changes: PriceChanges) -> Vec<Self>;
    /// This kind's change, if `change` is one.
    fn from_change(change: PriceChange) -> Option<Self>;
}

impl ScheduledChange for TicketPriceChange {
    const KIND: PriceChangeKind = PriceChangeKind::TicketPrice;
    fn id(&self) -> i64 {
        self.id
    }
    fn business_id(&self) -> i64 {
        self.business_id
    }
    fn effective_from(&self) -> Date {
        self.effective_from
    }
    fn all(changes: PriceChanges) -> Vec<Self> {
        changes.tickets
    }
    fn from_change(change: PriceChange) -> Option<Self> {
        match change {
            PriceChange::TicketPrice(c) => Some(c),
            PriceChange::ServiceCharge(_) => None,
        }
    }
}

impl ScheduledChange for ServiceChargeChange {
    const KIND: PriceChangeKind = PriceChangeKind::ServiceCharge;
    fn id(&self) -> i64 {
        self.id
    }
    fn business_id(&self) -> i64 {
        self.business_id
    }
    fn effective_from(&self) -> Date {
        self.effective_from
    }
    fn all(changes: PriceChanges) -> Vec<Self> {
        changes.service_charges
    }
    fn from_change(change: PriceChange) -> Option<Self> {
        match change {
            PriceChange::ServiceCharge(c) => Some(c),
            PriceChange::TicketPrice(_) => None,
        }
    }
}

impl PriceChanges {
    /// The ticket's price in a screening of `business_id` on local day `day`.
    pub fn ticket_price(&self, business_id: i64, ticket: &Ticket, day: Date) -> Money {
        self.tickets
            .iter()
            .filter(|c| {
                c.business_id == business_id && c.ticket_id == ticket.id && c.effective_from <= day
            })
            .max_by_key(|c| c.effective_from)
            .map_or(ticket.price, |c| c.price)
    }

    /// The business's service charge for its screenings of local day `day`: the latest change on
    /// or before it (named as the catalogue's), else the catalogue's.
    pub fn service_charge(
        &self,
        business_id: i64,
        base: Option<ServiceCharge>,
        day: Date,
    ) -> Option<ServiceCharge> {
        let Some(c) = self
            .service_charges
            .iter()
            .filter(|c| c.business_id == business_id && c.effective_from <= day)
            .max_by_key(|c| c.effective_from)
        else {
            return base;
        };
        let (name, name_en) = base.as_ref().map_or(
            (
                DEFAULT_CHARGE_NAME.0.to_owned(),
                DEFAULT_CHARGE_NAME.1.to_owned(),
            ),
            |b| (b.name.clone(), b.name_en.clone()),
        );
        Some(ServiceCharge {
            id: base.as_ref().map_or(0, |b| b.id),
            business_id,
            name,
            name_en,
            amount: c.amount,
            percent_bp: c.percent_bp,
            per_ticket: c.per_ticket,
        })
    }

    /// The groups with each ticket at its price for the screening.
    pub fn priced(
        &self,
        p: &Presentation,
        groups: Vec<(TicketGroup, Vec<Ticket>)>,
    ) -> Vec<(TicketGroup, Vec<Ticket>)> {
        let day = screening_day(p);
        groups
            .into_iter()
            .map(|(g, tickets)| {
                let tickets = tickets
                    .into_iter()
                    .map(|mut t| {
                        t.price = self.ticket_price(p.business_id, &t, day);
                        t
                    })
                    .collect();
                (g, tickets)
            })
            .collect()
    }
}

/// The local day (Asia/Jerusalem) a screening is priced by: the day it starts.
pub fn screening_day(p: &Presentation) -> Date {
    kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(p.starts_at_ms))
}

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
