//! The scheduled changes of prices and service charges (decision 0070), and which is in force on a
//! screening's local day: the data the catalogue keeps, pure of any port.

use jiff::civil::Date;
use kupa_domain::money::Money;

use crate::model::{Presentation, ServiceCharge, Ticket, TicketGroup};

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

/// One kind's impl: the kind, the variant of [`PriceChange`] and the field of [`PriceChanges`].
macro_rules! scheduled_change {
    ($ty:ty, $variant:ident, $field:ident) => {
        impl ScheduledChange for $ty {
            const KIND: PriceChangeKind = PriceChangeKind::$variant;
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
                changes.$field
            }
            fn from_change(change: PriceChange) -> Option<Self> {
                match change {
                    PriceChange::$variant(c) => Some(c),
                    _ => None,
                }
            }
        }
    };
}

scheduled_change!(TicketPriceChange, TicketPrice, tickets);
scheduled_change!(ServiceChargeChange, ServiceCharge, service_charges);

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
