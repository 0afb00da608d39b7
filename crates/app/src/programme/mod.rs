//! The programme in the staff area (issue 18 item 2, decision 0058): a complex's week of
//! screenings hall by hall, and the manager's changes to it — add a screening, copy a week to the
//! next, move a screening, cancel one (everything refunded through the refund ledger).
//!
//! Its rooms: what is read and the store port (here), the changes that only touch the programme
//! ([`placing`]: add, copy, overlap), the ones that reach buyers ([`buyers`]: move, cancel; and
//! [`remap`]: a sold screening's seats moved onto another plan with the same seats), a screening's
//! own ticket group and channel switch ([`screenings`]), and prices from a date ([`prices`]).
//! Every call needs a manager ([`Access::Programme`]) and names a complex or screening of one of
//! the caller's businesses; another business's is `notFound`, as in live monitoring.

mod buyers;
mod placing;
mod prices;
mod remap;
mod screenings;
mod switches;

use std::sync::Arc;

use async_trait::async_trait;

pub use buyers::*;
pub use placing::*;
pub use prices::*;
pub use remap::*;
pub use screenings::*;
pub use switches::*;

use kupa_domain::money::Money;

use crate::booking::BookingService;
use crate::catalogue_cache::CachedCatalogue;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::model::PresentationId;
use crate::orders::OrderService;
use crate::ports::{CatalogueStore, Clock, SeatAddress};
use crate::sales_switches::SaleChannel;
use crate::staff::{Access, Caller};

/// The gap between two screenings of one hall when nothing else is configured: the hall is
/// cleaned and the next audience seated (KUPA_CLEANING_GAP_MINUTES).
pub const DEFAULT_CLEANING_GAP_MINUTES: i64 = 15;

/// A hall of a complex, with the seat plan a new screening there is sold on and the ticket groups
/// that plan's sections price with (a screening's ticket group comes with its plan).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hall {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub name_en: String,
    /// The hall's newest seat plan (decision 0068: the highest version, then the lowest id);
    /// None: no plan, nothing can be screened there.
    pub seatplan_id: Option<i64>,
    /// The ticket groups its plan's sections sell, in the order of their first section: the
    /// first is the hall's main group, which a screening's own group takes the place of.
    pub ticket_groups: Vec<TicketGroupName>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TicketGroupName {
    pub id: i64,
    pub name: String,
    pub name_en: String,
}

/// A cinema complex (a location) and its halls.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Complex {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub business_id: i64,
    pub halls: Vec<Hall>,
}

/// A film a screening can show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeatureChoice {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub runtime_minutes: i64,
}

/// One screening as the grid shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Screening {
    pub id: PresentationId,
    pub feature: FeatureChoice,
    pub venue_id: i64,
    pub location_id: i64,
    pub seatplan_id: i64,
    pub business_id: i64,
    pub starts_at_ms: i64,
    pub sale_starts_at_ms: i64,
    pub sale_ends_at_ms: i64,
    pub seating_policy_id: i64,
    pub auth_profile_id: i64,
    pub cancelled_at_ms: Option<i64>,
    pub moved_at_ms: Option<i64>,
    /// Seats sold (paid), and held by a buyer now.
    pub sold: i64,
    pub held: i64,
    /// Its own ticket group in place of its hall's main one; None: as its hall (decision 0070).
    pub ticket_group_id: Option<i64>,
    /// The channels a manager closed this screening to.
    pub closed_channels: Vec<SaleChannel>,
}

impl Screening {
    /// The start plus the film's runtime.
    pub fn ends_at_ms(&self) -> i64 {
        self.starts_at_ms + self.feature.runtime_minutes * 60_000
    }
}

/// A screening to write: the programme's own fields; the id is drawn by the store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewScreening {
    pub feature_id: i64,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub business_id: i64,
    pub starts_at_ms: i64,
    pub sale_starts_at_ms: i64,
    pub sale_ends_at_ms: i64,
    pub seating_policy_id: i64,
    pub auth_profile_id: i64,
    pub ticket_group_id: Option<i64>,
}

/// What a write of the programme came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Placed {
    /// Written: the screening's id.
    Done(PresentationId),
    /// Refused: it would overlap this screening of the hall (runtime plus the cleaning gap).
    Overlaps(PresentationId),
    /// Refused: no such screening, or it was cancelled.
    Gone,
}

/// Who changes the programme, and when: written with the change (`programme_changes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub staff_user_id: i64,
    pub at_ms: i64,
}

/// A cancellation of a screening as the store made it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScreeningStopped {
    /// False when an earlier call cancelled it already (its sale stopped then).
    pub newly: bool,
    /// The held seats released.
    pub released: Vec<SeatAddress>,
}

/// The programme's reads and writes. Every write raises `catalogue_version` in its transaction
/// (decision 0049), so every node's catalogue cache empties within a second.
#[async_trait]
pub trait ProgrammeStore: Send + Sync {
    /// Every complex with its halls (on-demand video's venue types left out), by id.
    async fn complexes(&self) -> StoreResult<Vec<Complex>>;
    async fn feature_choices(&self) -> StoreResult<Vec<FeatureChoice>>;
    /// The screenings of a complex starting in [from, to), cancelled ones included.
    async fn screenings(
        &self,
        location_id: i64,
        from_ms: i64,
        to_ms: i64,
        now_ms: i64,
    ) -> StoreResult<Vec<Screening>>;
    async fn screening(&self, id: PresentationId, now_ms: i64) -> StoreResult<Option<Screening>>;
    /// Adds a screening unless it overlaps another one of its hall that is not cancelled
    /// (each lasts its runtime plus `gap_ms`); checked and written under one write lock.
    async fn add_screening(
        &self,
        new: &NewScreening,
        gap_ms: i64,
        by: Change,
    ) -> StoreResult<Placed>;
    /// Moves a screening to `starts_at_ms` in `venue_id` (sold on `seatplan_id`), its sale's end
    /// moved as much as its start; refused when it overlaps or is cancelled. Onto another plan,
    /// every seat held or sold (a claim sold or unexpired, a live order ticket) moves to its place
    /// in `remap`, in the same transaction, expired holds are deleted, and the move is refused
    /// (nothing written) when one has no place there or no `remap` is given.
    #[allow(clippy::too_many_arguments)]
    async fn move_screening(
        &self,
        id: PresentationId,
        venue_id: i64,
        seatplan_id: i64,
        starts_at_ms: i64,
        gap_ms: i64,
        remap: Option<&SeatRemap>,
        by: Change,
    ) -> StoreResult<MoveOutcome>;
    /// The places with a claim sold or held until after `now_ms`.
    async fn claimed_places(
        &self,
        id: PresentationId,
        now_ms: i64,
    ) -> StoreResult<Vec<SeatAddress>>;
    /// Sets the screening's own ticket group (None: as its hall) unless seats of it are held or
    /// sold, with its audit row.
    async fn set_ticket_group(
        &self,
        id: PresentationId,
        ticket_group_id: Option<i64>,
        by: Change,
    ) -> StoreResult<TicketGroupSet>;
    /// Opens or closes the screening to one channel, with its audit row; None: no such screening.
    async fn set_screening_channel(
        &self,
        id: PresentationId,
        channel: SaleChannel,
        open: bool,
        by: Change,
    ) -> StoreResult<Option<()>>;
    /// Stops the screening's sale for good (cancelled, sale ended now) and releases its held
    /// seats; None when there is no such screening.
    async fn stop_screening(
        &self,
        id: PresentationId,
        by: Change,
    ) -> StoreResult<Option<ScreeningStopped>>;
    /// The paid orders with tickets of the screening not yet cancelled.
    async fn paid_orders_on(&self, presentation_id: PresentationId) -> StoreResult<Vec<String>>;
    /// The screening's recorded changes, oldest first.
    async fn changes_of(&self, presentation_id: PresentationId) -> StoreResult<Vec<ChangeRecord>>;
    /// The sales switches that have a row (decision 0067).
    async fn stored_sales_switches(&self) -> StoreResult<Vec<crate::sales_switches::SalesSwitch>>;
    /// Writes one complex's switches for one channel with its audit row (before and after),
    /// raising `catalogue_version` in the same transaction.
    async fn set_sales_switch(
        &self,
        switch: &crate::sales_switches::SalesSwitch,
        business_id: i64,
        by: Change,
    ) -> StoreResult<()>;
    /// The audit's rows the query asks for, newest first.
    async fn audit(&self, query: &AuditQuery) -> StoreResult<Vec<ChangeRecord>>;
}

/// One recorded back-office change (`backoffice_audit`, decision 0067), with who made it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChangeRecord {
    pub id: i64,
    /// None: a change of the chain's own (a film, a product of several businesses, decision
    /// 0069), which every manager reads.
    pub business_id: Option<i64>,
    /// None for a change of a whole business (its prices) or of no one complex (a film, a
    /// product of several).
    pub location_id: Option<i64>,
    /// The screening changed; None for a complex's sales switch.
    pub presentation_id: Option<PresentationId>,
    pub kind: String,
    pub at_ms: i64,
    pub staff_user_id: i64,
    pub staff_name: String,
    pub before: Option<serde_json::Value>,
    pub after: serde_json::Value,
}

/// The programme's use cases.
pub struct ProgrammeService {
    store: Arc<dyn ProgrammeStore>,
    prices: Arc<dyn PriceStore>,
    orders: Arc<OrderService>,
    /// Every seat a move onto another plan moves goes through the seat arbiter (decision 0059).
    booking: Arc<BookingService>,
    /// Seat plans and ticket groups, as the buyers' catalogue has them.
    catalogue: Arc<dyn CatalogueStore>,
    /// This node's cache, emptied at once after a change (other nodes follow the version).
    cache: Option<Arc<CachedCatalogue>>,
    clock: Arc<dyn Clock>,
    gap_ms: i64,
}

impl ProgrammeService {
    pub fn new(
        store: Arc<dyn ProgrammeStore>,
        prices: Arc<dyn PriceStore>,
        orders: Arc<OrderService>,
        booking: Arc<BookingService>,
        catalogue: Arc<dyn CatalogueStore>,
        clock: Arc<dyn Clock>,
        cleaning_gap_minutes: i64,
    ) -> ProgrammeService {
        ProgrammeService {
            store,
            prices,
            orders,
            booking,
            catalogue,
            cache: None,
            clock,
            gap_ms: cleaning_gap_minutes.max(0) * 60_000,
        }
    }

    /// Empties this node's catalogue cache after every change, not a second later.
    pub fn with_cache(mut self, cache: Arc<CachedCatalogue>) -> ProgrammeService {
        self.cache = Some(cache);
        self
    }

    pub fn cleaning_gap_minutes(&self) -> i64 {
        self.gap_ms / 60_000
    }

    fn changed(&self) {
        if let Some(c) = &self.cache {
            c.forget_everything();
        }
    }

    /// The caller, now: who and when a change is recorded as.
    fn change_by(&self, caller: &Caller) -> Change {
        Change {
            staff_user_id: caller.user.id,
            at_ms: self.clock.now_ms(),
        }
    }

    /// The ticket groups a screening may sell as its own: those with a ticket sold online.
    pub async fn ticket_group_choices(&self, caller: &Caller) -> AppResult<Vec<TicketGroupName>> {
        caller.require(Access::Programme)?;
        Ok(self
            .prices
            .price_list()
            .await?
            .into_iter()
            .filter(|(_, tickets)| tickets.iter().any(|t| !t.by_code_only))
            .map(|(g, _)| TicketGroupName {
                id: g.id,
                name: g.name,
                name_en: g.name_en,
            })
            .collect())
    }

    /// The complexes of the caller's businesses, and the films a screening may show.
    pub async fn choices(&self, caller: &Caller) -> AppResult<(Vec<Complex>, Vec<FeatureChoice>)> {
        caller.require(Access::Programme)?;
        let complexes = self
            .store
            .complexes()
            .await?
            .into_iter()
            .filter(|c| caller.sees(c.business_id))
            .collect();
        Ok((complexes, self.store.feature_choices().await?))
    }

    /// A complex of the caller's, or `notFound`.
    async fn complex(&self, caller: &Caller, location_id: i64) -> AppResult<Complex> {
        caller.require(Access::Programme)?;
        self.store
            .complexes()
            .await?
            .into_iter()
            .find(|c| c.id == location_id && caller.sees(c.business_id))
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such complex"))
    }

    /// A screening of the caller's businesses, or `notFound`.
    async fn own_screening(&self, caller: &Caller, id: PresentationId) -> AppResult<Screening> {
        caller.require(Access::Programme)?;
        self.store
            .screening(id, self.clock.now_ms())
            .await?
            .filter(|s| caller.sees(s.business_id))
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such screening"))
    }

    /// A screening of the caller's businesses and its recorded changes, oldest first.
    pub async fn history(
        &self,
        caller: &Caller,
        id: PresentationId,
    ) -> AppResult<Vec<ChangeRecord>> {
        self.own_screening(caller, id).await?;
        Ok(self.store.changes_of(id).await?)
    }

    /// The complex's screenings starting on the seven local days from `from`, and its halls.
    pub async fn week(
        &self,
        caller: &Caller,
        location_id: i64,
        from: jiff::civil::Date,
    ) -> AppResult<(Complex, Vec<Screening>)> {
        let complex = self.complex(caller, location_id).await?;
        let (start, end) = week_range_ms(from)?;
        let screenings = self
            .store
            .screenings(location_id, start, end, self.clock.now_ms())
            .await?;
        Ok((complex, screenings))
    }
}

/// The UTC range of the seven local days from `from`.
pub fn week_range_ms(from: jiff::civil::Date) -> AppResult<(i64, i64)> {
    let last = from
        .checked_add(jiff::ToSpan::days(6))
        .map_err(|_| AppError::rejected(ErrorCode::FormValidation, "the week is out of range"))?;
    let (start, _) = kupa_domain::time::local_day_range_ms(from);
    let (_, end) = kupa_domain::time::local_day_range_ms(last);
    Ok((start, end))
}

/// A local date and time in Asia/Jerusalem as UTC milliseconds. A time the clocks skip (the
/// spring change) is taken as the instant after the gap, as the tz database resolves it.
pub fn local_to_ms(date: jiff::civil::Date, time: jiff::civil::Time) -> AppResult<i64> {
    date.to_datetime(time)
        .to_zoned(kupa_domain::time::zone())
        .map(|z| z.timestamp().as_millisecond())
        .map_err(|e| AppError::rejected(ErrorCode::FormValidation, format!("time: {e}")))
}
