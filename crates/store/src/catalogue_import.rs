//! `kupa catalogue import` (decision 0049): the stored catalogue to compare a file with, the
//! presentations with sales, and the write of an import plan in one transaction.

use async_trait::async_trait;
use kupa_app::catalogue_file::import::ImportPlan;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::model::*;
use kupa_app::ports::{CatalogueImportStore, CatalogueStore};

use crate::catalogue::{insert_catalogue, upsert};
use crate::{Db, Pool, db_err, rows};

/// A presentation has sales when a seat of it is held or sold, or an order (of any status) or
/// an order's ticket names it.
const WITH_SALES: &str = "SELECT presentation_id FROM seat_claims \
     UNION SELECT presentation_id FROM order_presentations \
     UNION SELECT presentation_id FROM order_tickets";

/// The plan's writes on one open transaction `$tx`: the unsold presentations checked again
/// (PostgreSQL locks their rows first, so a claim being written on one waits for the import),
/// then each replaced seat plan's seats and sections removed, then every row upserted.
macro_rules! apply_plan {
    ($tx:expr, $plan:expr, $lock:expr, $backend:ident) => {{
        let tx = &mut *$tx;
        let plan: &ImportPlan = $plan;
        if $lock {
            for id in &plan.unsold_presentations {
                sqlx::query("SELECT id FROM presentations WHERE id = $1 FOR UPDATE")
                    .bind(id)
                    .fetch_optional(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
        }
        let sold: Vec<i64> = sqlx::query_scalar(WITH_SALES)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
        let mut sold_meanwhile: Vec<i64> = plan
            .unsold_presentations
            .iter()
            .copied()
            .filter(|p| sold.contains(p))
            .collect();
        sold_meanwhile.sort_unstable();
        sold_meanwhile.dedup();
        if sold_meanwhile.is_empty() {
            for id in &plan.replaced_seatplans {
                sqlx::query("DELETE FROM seats WHERE seatplan_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                sqlx::query("DELETE FROM sections WHERE seatplan_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            insert_catalogue!(tx, &plan.write, $backend);
        }
        sold_meanwhile
    }};
}

#[async_trait]
impl CatalogueImportStore for Db {
    async fn stored_catalogue(&self) -> StoreResult<CatalogueData> {
        Ok(CatalogueData {
            site_config: self.site_config().await?.unwrap_or_default(),
            locations: self.locations().await?,
            venues: fetch_all!(
                self,
                "SELECT id AS v_id, location_id AS v_location_id, name AS v_name, name_en AS v_name_en, \
                 venue_type_id AS v_venue_type_id FROM venues ORDER BY id",
                [],
                rows::venue
            )?,
            seatplans: fetch_all!(
                self,
                "SELECT * FROM seatplans ORDER BY id",
                [],
                rows::seatplan
            )?,
            sections: fetch_all!(
                self,
                "SELECT * FROM sections ORDER BY id",
                [],
                rows::section
            )?,
            seats: fetch_all!(
                self,
                "SELECT * FROM seats ORDER BY section_id, y, x",
                [],
                rows::seat
            )?,
            categories: fetch_all!(
                self,
                "SELECT id AS c_id, name AS c_name, name_en AS c_name_en FROM feature_categories ORDER BY id",
                [],
                rows::category
            )?,
            // An uploaded poster is not the file's to compare (an upload sets it, decision 0069).
            features: self
                .features()
                .await?
                .into_iter()
                .map(|(f, _)| Feature {
                    poster_version: None,
                    ..f
                })
                .collect(),
            ticket_groups: fetch_all!(
                self,
                "SELECT * FROM ticket_groups ORDER BY id",
                [],
                rows::ticket_group
            )?,
            tickets: fetch_all!(self, "SELECT * FROM tickets ORDER BY id", [], rows::ticket)?,
            products: {
                let mut all = crate::catalogue::with_locations(
                    self,
                    crate::catalogue::all_products(self).await?,
                )
                .await?;
                all.sort_by_key(|p| p.id);
                all
            },
            service_charges: fetch_all!(
                self,
                "SELECT * FROM service_charges ORDER BY id",
                [],
                rows::service_charge
            )?,
            presentations: fetch_all!(
                self,
                "SELECT * FROM presentations ORDER BY id",
                [],
                rows::presentation
            )?,
            memberships: self.memberships().await?,
            seasons: self.seasons().await?,
            system_voucher_classes: self.system_voucher_classes().await?,
            donations: self.donations().await?,
            ..CatalogueData::default()
        })
    }

    async fn presentations_with_sales(&self) -> StoreResult<Vec<i64>> {
        crate::on_pool!(self, |p| sqlx::query_scalar(WITH_SALES)
            .fetch_all(p)
            .await
            .map_err(db_err))
    }

    async fn apply_import(&self, plan: &ImportPlan) -> StoreResult<Vec<i64>> {
        match &self.pool {
            Pool::Sqlite(p) => {
                // IMMEDIATE: the write lock up front, so no sale slips in between check and write.
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let sold = apply_plan!(tx, plan, false, sqlite);
                if sold.is_empty() {
                    tx.commit().await.map_err(db_err)?;
                }
                Ok(sold)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                let sold = apply_plan!(tx, plan, true, postgres);
                if sold.is_empty() {
                    tx.commit().await.map_err(db_err)?;
                }
                Ok(sold)
            }
        }
    }
}
