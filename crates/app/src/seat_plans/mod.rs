//! The seat-plan editor's use cases (issue 18 item 4, decision 0068): a hall's plan versions, one
//! plan read whole as the editor draws it, and a new version saved. A plan is never changed in
//! place: each save is a new plan of the hall (its own sections and seats), written with its
//! audit row and a `catalogue_version` bump in one transaction; presentations keep the plan they
//! were made with, and the programme gives a new screening the hall's newest.
//!
//! Managers only ([`Access::Programme`]), and only for halls of their businesses: another
//! business's hall or plan is `notFound`, as in the programme.

mod rules;

use std::sync::Arc;

use async_trait::async_trait;

pub use rules::*;

use crate::catalogue_cache::CachedCatalogue;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::model::{Seat, Seatplan, Section};
use crate::ports::Clock;
use crate::programme::{Change, TicketGroupName};
use crate::staff::{Access, Caller};

/// A hall and whose it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallOf {
    pub id: i64,
    pub location_id: i64,
    pub business_id: i64,
    pub name: String,
    pub name_en: String,
    pub venue_type_id: i64,
}

/// One version of a hall's plan, as the list shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanVersion {
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    pub version: i64,
    /// The plan it was drawn from; None: drawn from nothing, or loaded from the catalogue.
    pub based_on: Option<i64>,
    /// When and by whom it was saved; None: loaded from the catalogue.
    pub saved_at_ms: Option<i64>,
    pub saved_by: Option<String>,
    pub sections: i64,
    pub seats: i64,
    pub ga_capacity: i64,
    /// Presentations sold on it, and those of them still to come (not cancelled).
    pub screenings: i64,
    pub upcoming: i64,
    /// The one a new screening of the hall is sold on.
    pub newest: bool,
}

/// A stored plan with its sections and seats.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredPlan {
    pub plan: Seatplan,
    pub sections: Vec<Section>,
    pub seats: Vec<Seat>,
}

/// The editor's reads and its one write.
#[async_trait]
pub trait SeatPlanStore: Send + Sync {
    async fn hall(&self, venue_id: i64) -> StoreResult<Option<HallOf>>;
    /// The hall's plans, newest first: the highest version, then the lowest id (the
    /// catalogue's plans are all version 1 and its first is the hall's default).
    async fn plan_versions(&self, venue_id: i64, now_ms: i64) -> StoreResult<Vec<PlanVersion>>;
    async fn stored_plan(&self, id: i64) -> StoreResult<Option<StoredPlan>>;
    async fn all_ticket_groups(&self) -> StoreResult<Vec<TicketGroupName>>;
    /// Writes the plan as the hall's next version (its own new ids), with a `backoffice_audit`
    /// row (kind `seatPlan`, before: the newest version until now) and a `catalogue_version`
    /// bump, in one transaction. The new plan's id.
    async fn save_plan(&self, plan: &NewPlan, hall: &HallOf, by: Change) -> StoreResult<i64>;
}

pub struct SeatPlanService {
    store: Arc<dyn SeatPlanStore>,
    /// This node's cache, emptied at once after a save (other nodes follow the version).
    cache: Option<Arc<CachedCatalogue>>,
    clock: Arc<dyn Clock>,
}

/// A hall's versions and what a section may sell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HallPlans {
    pub hall: HallOf,
    pub versions: Vec<PlanVersion>,
    pub ticket_groups: Vec<TicketGroupName>,
}

impl SeatPlanService {
    pub fn new(store: Arc<dyn SeatPlanStore>, clock: Arc<dyn Clock>) -> SeatPlanService {
        SeatPlanService {
            store,
            cache: None,
            clock,
        }
    }

    pub fn with_cache(mut self, cache: Arc<CachedCatalogue>) -> SeatPlanService {
        self.cache = Some(cache);
        self
    }

    /// A hall (not a video-on-demand channel) of the caller's businesses, or `notFound`.
    async fn own_hall(&self, caller: &Caller, venue_id: i64) -> AppResult<HallOf> {
        caller.require(Access::Programme)?;
        self.store
            .hall(venue_id)
            .await?
            .filter(|h| h.venue_type_id < 101 && caller.sees(h.business_id))
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such hall"))
    }

    async fn versions_of(&self, venue_id: i64) -> AppResult<Vec<PlanVersion>> {
        let mut versions = self
            .store
            .plan_versions(venue_id, self.clock.now_ms())
            .await?;
        if let Some(first) = versions.first_mut() {
            first.newest = true;
        }
        Ok(versions)
    }

    /// The hall's plan versions, newest first, and the ticket groups a section may sell.
    pub async fn hall_plans(&self, caller: &Caller, venue_id: i64) -> AppResult<HallPlans> {
        let hall = self.own_hall(caller, venue_id).await?;
        Ok(HallPlans {
            versions: self.versions_of(hall.id).await?,
            ticket_groups: self.store.all_ticket_groups().await?,
            hall,
        })
    }

    /// One plan whole, as the editor draws it.
    pub async fn plan(&self, caller: &Caller, id: i64) -> AppResult<(PlanVersion, PlanDraft)> {
        caller.require(Access::Programme)?;
        let no_plan = || AppError::rejected(ErrorCode::NotFound, "no such seat plan");
        let stored = self.store.stored_plan(id).await?.ok_or_else(no_plan)?;
        let hall = self
            .own_hall(caller, stored.plan.venue_id)
            .await
            .map_err(|e| match e {
                AppError::Rejected {
                    code: ErrorCode::NotFound,
                    ..
                } => no_plan(),
                e => e,
            })?;
        let version = self
            .versions_of(hall.id)
            .await?
            .into_iter()
            .find(|v| v.id == id)
            .ok_or_else(no_plan)?;
        Ok((
            version,
            draft_of(&stored.plan, &stored.sections, &stored.seats),
        ))
    }

    /// Saves a drawn plan as the hall's new version. `based_on`, when given, must be a plan of
    /// the same hall (it is recorded, not required to be the newest).
    pub async fn save(
        &self,
        caller: &Caller,
        venue_id: i64,
        based_on: Option<i64>,
        draft: &PlanDraft,
    ) -> AppResult<(PlanVersion, PlanDraft)> {
        let hall = self.own_hall(caller, venue_id).await?;
        if let Some(b) = based_on {
            let of_hall = self
                .store
                .stored_plan(b)
                .await?
                .is_some_and(|p| p.plan.venue_id == hall.id);
            if !of_hall {
                return Err(refused(Invalid {
                    field: "basedOn".into(),
                    rule: "basedOn",
                    message: "the plan drawn from is not one of this hall's".into(),
                }));
            }
        }
        let groups: Vec<i64> = self
            .store
            .all_ticket_groups()
            .await?
            .iter()
            .map(|g| g.id)
            .collect();
        let new = build(hall.id, based_on, draft, &groups).map_err(refused)?;
        let by = Change {
            staff_user_id: caller.user.id,
            at_ms: self.clock.now_ms(),
        };
        let id = self.store.save_plan(&new, &hall, by).await?;
        if let Some(c) = &self.cache {
            c.forget_everything();
        }
        tracing::info!(
            venue = hall.id,
            seatplan = id,
            seats = new.seat_count(),
            user_id = caller.user.id,
            "seat plan saved"
        );
        self.plan(caller, id).await
    }
}

fn refused(e: Invalid) -> AppError {
    AppError::rejected_with(
        ErrorCode::SeatPlanInvalid,
        e.message,
        serde_json::json!({ "field": e.field, "rule": e.rule }),
    )
}
