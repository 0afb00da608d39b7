//! Prices and service charges from a date, in the staff area (issue 18 item 2, decision 0070):
//! a manager schedules a ticket's price, or the business's service charge, from a local day on,
//! for the business's screenings of that day or later; lists what is scheduled; withdraws a
//! change not yet past. Never from a day in the past: what was sold on a past day was sold at
//! its price. Each change is written with its audit row and a `catalogue_version` bump, so every
//! node sells by it within a second; [`crate::prices`] says which change is in force.

use jiff::civil::Date;

use super::*;
use crate::model::{ServiceCharge, Ticket, TicketGroup};
use crate::prices::{
    PriceChange, PriceChangeKind, PriceChanges, ScheduledChange, ServiceChargeChange,
    TicketPriceChange,
};

/// The highest price or fixed service charge taken (₪100,000): anything above is a typing slip.
const MAX_PRICE: Money = Money(10_000_000);

/// A ticket's new price from a day on, for one business's screenings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewTicketPrice {
    pub business_id: i64,
    pub ticket_id: i64,
    pub effective_from: Date,
    pub price: Money,
}

/// A business's new service charge from a day on: a fixed amount or basis points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewServiceCharge {
    pub business_id: i64,
    pub effective_from: Date,
    pub amount: Option<Money>,
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
}

/// A change to schedule, of either kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewPriceChange<'a> {
    TicketPrice(&'a NewTicketPrice),
    ServiceCharge(&'a NewServiceCharge),
}

/// A scheduling written, or refused for a change of the same thing from the same day.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scheduled<T> {
    Done(T),
    /// The id of the change already scheduled then.
    Exists(i64),
}

/// The scheduled changes' reads and writes. Every write raises `catalogue_version` and writes its
/// `backoffice_audit` row in its transaction.
#[async_trait]
pub trait PriceStore: Send + Sync {
    /// Every ticket group with its tickets, as the catalogue has them.
    async fn price_list(&self) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>>;
    async fn scheduled_changes(&self) -> StoreResult<PriceChanges>;
    /// Writes the change unless one of its kind is scheduled for the same thing from the same day.
    async fn schedule_change(
        &self,
        new: NewPriceChange<'_>,
        by: Change,
    ) -> StoreResult<Scheduled<PriceChange>>;
    /// Deletes the change `id` of `kind` if it starts on `not_before` or later; what it was.
    async fn withdraw_change(
        &self,
        kind: PriceChangeKind,
        id: i64,
        not_before: Date,
        by: Change,
    ) -> StoreResult<Option<PriceChange>>;
}

/// One ticket as the prices panel shows it: the catalogue's price and the one in force today.
#[derive(Debug, Clone, PartialEq)]
pub struct ListedTicket {
    pub ticket: Ticket,
    pub price_today: Money,
}

/// A business's prices: every ticket group, the service charge (the catalogue's and today's), and
/// the changes scheduled from today on.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceList {
    pub business_id: i64,
    pub today: Date,
    pub groups: Vec<(TicketGroup, Vec<ListedTicket>)>,
    pub service_charge: Option<ServiceCharge>,
    pub service_charge_today: Option<ServiceCharge>,
    pub changes: PriceChanges,
}

fn field_error(field: &str, message: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        message,
        serde_json::json!({ "field": field }),
    )
}

fn exists(id: i64) -> AppError {
    AppError::rejected_with(
        ErrorCode::PriceChangeExists,
        "a change from that day is scheduled already: withdraw it first",
        serde_json::json!({ "id": id }),
    )
}

impl ProgrammeService {
    fn today(&self) -> Date {
        kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()))
    }

    /// A business of the caller's with a complex, or `notFound`.
    async fn own_business(&self, caller: &Caller, business_id: i64) -> AppResult<()> {
        caller.require(Access::Programme)?;
        let (complexes, _) = self.choices(caller).await?;
        if complexes.iter().any(|c| c.business_id == business_id) {
            Ok(())
        } else {
            Err(AppError::rejected(ErrorCode::NotFound, "no such business"))
        }
    }

    fn not_past(&self, day: Date) -> AppResult<()> {
        if day < self.today() {
            return Err(field_error(
                "effectiveFrom",
                "a change starts today or later, never on a day in the past",
            ));
        }
        Ok(())
    }

    /// The business's prices, today's and scheduled.
    pub async fn price_list(&self, caller: &Caller, business_id: i64) -> AppResult<PriceList> {
        self.own_business(caller, business_id).await?;
        let today = self.today();
        let all = self.prices.scheduled_changes().await?;
        let groups = self
            .prices
            .price_list()
            .await?
            .into_iter()
            .map(|(g, tickets)| {
                let listed = tickets
                    .into_iter()
                    .map(|t| ListedTicket {
                        price_today: all.ticket_price(business_id, &t, today),
                        ticket: t,
                    })
                    .collect();
                (g, listed)
            })
            .collect();
        let service_charge = self.catalogue.service_charge(business_id).await?;
        let service_charge_today = all.service_charge(business_id, service_charge.clone(), today);
        let mut changes = all;
        changes
            .tickets
            .retain(|c| c.business_id == business_id && c.effective_from >= today);
        changes
            .service_charges
            .retain(|c| c.business_id == business_id && c.effective_from >= today);
        changes
            .tickets
            .sort_by_key(|c| (c.effective_from, c.ticket_id));
        changes.service_charges.sort_by_key(|c| c.effective_from);
        Ok(PriceList {
            business_id,
            today,
            groups,
            service_charge,
            service_charge_today,
            changes,
        })
    }

    /// Schedules a ticket's price from a day on (today or later) for the business's screenings.
    pub async fn schedule_ticket_price(
        &self,
        caller: &Caller,
        new: NewTicketPrice,
    ) -> AppResult<TicketPriceChange> {
        self.own_business(caller, new.business_id).await?;
        self.not_past(new.effective_from)?;
        if !(Money::ZERO..=MAX_PRICE).contains(&new.price) {
            return Err(field_error(
                "price",
                "a price is whole agorot, from 0 to 10,000,000",
            ));
        }
        let known = self
            .prices
            .price_list()
            .await?
            .iter()
            .any(|(_, ts)| ts.iter().any(|t| t.id == new.ticket_id));
        if !known {
            return Err(field_error("ticketId", "no such ticket"));
        }
        let by = self.change_by(caller);
        let done = self
            .scheduled(NewPriceChange::TicketPrice(&new), by)
            .await?;
        self.changed();
        tracing::info!(
            business_id = new.business_id,
            ticket_id = new.ticket_id,
            effective_from = %new.effective_from,
            user_id = caller.user.id,
            "ticket price scheduled"
        );
        Ok(done)
    }

    /// Schedules the business's service charge from a day on (today or later).
    pub async fn schedule_service_charge(
        &self,
        caller: &Caller,
        new: NewServiceCharge,
    ) -> AppResult<ServiceChargeChange> {
        self.own_business(caller, new.business_id).await?;
        self.not_past(new.effective_from)?;
        match (new.amount, new.percent_bp) {
            (Some(a), None) if (Money::ZERO..=MAX_PRICE).contains(&a) => {}
            (None, Some(bp)) if (0..=10_000).contains(&bp) => {}
            (Some(_), None) => return Err(field_error("amount", "an amount is 0 or more agorot")),
            (None, Some(_)) => {
                return Err(field_error(
                    "percentBp",
                    "a percentage is 0 to 10000 basis points",
                ));
            }
            _ => {
                return Err(field_error(
                    "amount",
                    "give either an amount or a percentage (percentBp), not both",
                ));
            }
        }
        let by = self.change_by(caller);
        let done = self
            .scheduled(NewPriceChange::ServiceCharge(&new), by)
            .await?;
        self.changed();
        tracing::info!(
            business_id = new.business_id,
            effective_from = %new.effective_from,
            user_id = caller.user.id,
            "service charge scheduled"
        );
        Ok(done)
    }

    /// Writes `new` through the store: the change, or `priceChangeExists`.
    async fn scheduled<C: ScheduledChange>(
        &self,
        new: NewPriceChange<'_>,
        by: Change,
    ) -> AppResult<C> {
        match self.prices.schedule_change(new, by).await? {
            Scheduled::Done(c) => C::from_change(c)
                .ok_or_else(|| AppError::internal("the store scheduled another kind of change")),
            Scheduled::Exists(id) => Err(exists(id)),
        }
    }

    /// Withdraws a scheduled change of `C`'s kind (a ticket price, a service charge) of the
    /// caller's businesses that starts today or later.
    pub async fn withdraw_price_change<C: ScheduledChange>(
        &self,
        caller: &Caller,
        id: i64,
    ) -> AppResult<C> {
        caller.require(Access::Programme)?;
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such price change");
        let change = C::all(self.prices.scheduled_changes().await?)
            .into_iter()
            .find(|c| c.id() == id && caller.sees(c.business_id()))
            .ok_or_else(no_such)?;
        self.not_past(change.effective_from())?;
        let done = self
            .prices
            .withdraw_change(C::KIND, id, self.today(), self.change_by(caller))
            .await?
            .and_then(C::from_change)
            .ok_or_else(no_such)?;
        self.changed();
        tracing::info!(
            change = id,
            kind = ?C::KIND,
            user_id = caller.user.id,
            "price change withdrawn"
        );
        Ok(done)
    }
}
