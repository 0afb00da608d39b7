//! The seat-plan editor's SQL (decision 0068): a hall's plan versions, a plan read whole, and a
//! new version written with its sections, seats, audit row and `catalogue_version` bump in one
//! transaction. The bump comes first: that one row's lock makes writers take turns on
//! PostgreSQL (SQLite's `BEGIN IMMEDIATE` does already), so the ids and the version number read
//! next are still free when written.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::programme::{Change, TicketGroupName};
use kupa_app::seat_plans::*;
use serde_json::json;

use crate::rows::{self, Get};
use crate::{BeginWrite, Db, db_err};

type R<T> = Result<T, sqlx::Error>;

/// A hall's plans, newest first: the highest version, then the lowest id. The catalogue's plans
/// are all version 1, so its first plan of the hall stays the default until one is saved here.
const VERSIONS: &str = "SELECT s.id, s.venue_id, s.name, s.version, s.based_on, s.saved_at, \
     COALESCE(u.first_name || ' ' || u.last_name, '') AS saved_by, \
     (SELECT COUNT(*) FROM sections c WHERE c.seatplan_id = s.id) AS n_sections, \
     (SELECT COUNT(*) FROM seats k WHERE k.seatplan_id = s.id) AS n_seats, \
     CAST((SELECT COALESCE(SUM(c.capacity), 0) FROM sections c WHERE c.seatplan_id = s.id AND c.kind = 'ga') AS BIGINT) AS ga_capacity, \
     (SELECT COUNT(*) FROM presentations p WHERE p.seatplan_id = s.id) AS screenings, \
     (SELECT COUNT(*) FROM presentations p WHERE p.seatplan_id = s.id AND p.cancelled_at IS NULL AND p.starts_at > $2) AS upcoming \
     FROM seatplans s LEFT JOIN staff_users u ON u.id = s.saved_by WHERE s.venue_id = $1 \
     ORDER BY s.version DESC, s.id";

/// How many seats one INSERT writes (13 values each: well inside both databases' limits).
const SEATS_PER_INSERT: usize = 500;

fn version_row(r: &impl Get) -> R<PlanVersion> {
    let saved_at_ms = r.oi("saved_at")?;
    let saved_by = r.s("saved_by")?;
    Ok(PlanVersion {
        id: r.i("id")?,
        venue_id: r.i("venue_id")?,
        name: r.s("name")?,
        version: r.i("version")?,
        based_on: r.oi("based_on")?,
        saved_at_ms,
        saved_by: saved_at_ms.map(|_| saved_by.trim().to_owned()),
        sections: r.i("n_sections")?,
        seats: r.i("n_seats")?,
        ga_capacity: r.i("ga_capacity")?,
        screenings: r.i("screenings")?,
        upcoming: r.i("upcoming")?,
        newest: false,
    })
}

/// What the audit keeps of a version: no seats, only what tells one version from another.
fn summary(v: &PlanVersion) -> serde_json::Value {
    json!({
        "venueId": v.venue_id,
        "seatplanId": v.id,
        "version": v.version,
        "name": v.name,
        "sections": v.sections,
        "seats": v.seats,
        "gaCapacity": v.ga_capacity,
        "basedOn": v.based_on,
    })
}

fn hall_row(r: &impl Get) -> R<HallOf> {
    Ok(HallOf {
        id: r.i("id")?,
        location_id: r.i("location_id")?,
        business_id: r.i("business_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        venue_type_id: r.i("venue_type_id")?,
    })
}

#[async_trait]
impl SeatPlanStore for Db {
    async fn hall(&self, venue_id: i64) -> StoreResult<Option<HallOf>> {
        fetch_optional!(
            self,
            "SELECT v.id, v.location_id, v.name, v.name_en, v.venue_type_id, l.business_id \
             FROM venues v JOIN locations l ON l.id = v.location_id WHERE v.id = $1",
            [venue_id],
            hall_row
        )
    }

    async fn plan_versions(&self, venue_id: i64, now_ms: i64) -> StoreResult<Vec<PlanVersion>> {
        fetch_all!(self, VERSIONS, [venue_id, now_ms], version_row)
    }

    async fn stored_plan(&self, id: i64) -> StoreResult<Option<StoredPlan>> {
        let plan = fetch_optional!(
            self,
            "SELECT * FROM seatplans WHERE id = $1",
            [id],
            rows::seatplan
        )?;
        let Some(plan) = plan else { return Ok(None) };
        let sections = fetch_all!(
            self,
            "SELECT * FROM sections WHERE seatplan_id = $1 ORDER BY sort, id",
            [id],
            rows::section
        )?;
        let seats = fetch_all!(
            self,
            "SELECT * FROM seats WHERE seatplan_id = $1 ORDER BY section_id, y, x",
            [id],
            rows::seat
        )?;
        Ok(Some(StoredPlan {
            plan,
            sections,
            seats,
        }))
    }

    async fn all_ticket_groups(&self) -> StoreResult<Vec<TicketGroupName>> {
        fetch_all!(
            self,
            "SELECT id, name, name_en FROM ticket_groups ORDER BY id",
            [],
            ticket_group_row
        )
    }

    async fn save_plan(&self, plan: &NewPlan, hall: &HallOf, by: Change) -> StoreResult<i64> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            sqlx::query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1")
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            let before = sqlx::query(VERSIONS)
                .bind(hall.id)
                .bind(by.at_ms)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?
                .as_ref()
                .map(version_row)
                .transpose()
                .map_err(db_err)?;
            let id: i64 = sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM seatplans")
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
            let version: i64 = sqlx::query_scalar(
                "SELECT COALESCE(MAX(version), 0) + 1 FROM seatplans WHERE venue_id = $1",
            )
            .bind(hall.id)
            .fetch_one(&mut *tx)
            .await
            .map_err(db_err)?;
            let first_section: i64 =
                sqlx::query_scalar("SELECT COALESCE(MAX(id), 0) + 1 FROM sections")
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO seatplans (id, venue_id, name, width, height, screen_label, screen_label_en, \
                 best_x, best_y, version, based_on, saved_at, saved_by, screen_x, screen_width) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
            )
            .bind(id)
            .bind(hall.id)
            .bind(&plan.name)
            .bind(plan.width)
            .bind(plan.height)
            .bind(&plan.screen_label)
            .bind(&plan.screen_label_en)
            .bind(plan.best_x)
            .bind(plan.best_y)
            .bind(version)
            .bind(plan.based_on)
            .bind(by.at_ms)
            .bind(by.staff_user_id)
            .bind(plan.screen_x)
            .bind(plan.screen_width)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            let mut seats = Vec::new();
            for (sort, s) in plan.sections.iter().enumerate() {
                let section_id = first_section + sort as i64;
                sqlx::query(
                    "INSERT INTO sections (id, seatplan_id, name, name_en, kind, capacity, ticket_group_id, price_level, sort) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
                )
                .bind(section_id)
                .bind(id)
                .bind(&s.name)
                .bind(&s.name_en)
                .bind(s.kind.as_str())
                .bind(s.capacity)
                .bind(s.ticket_group_id)
                .bind(s.price_level)
                .bind(sort as i64)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                seats.extend(s.seats.iter().map(|k| (section_id, k)));
            }
            for chunk in seats.chunks(SEATS_PER_INSERT) {
                let mut insert = sqlx::QueryBuilder::new(
                    "INSERT INTO seats (seatplan_id, section_id, x, y, row_name, seat_name, group_id, \
                     premium, handicap, companion, limited_view, sofa_id, attributes) ",
                );
                insert.push_values(chunk, |mut b, (section_id, k)| {
                    b.push_bind(id)
                        .push_bind(*section_id)
                        .push_bind(k.x)
                        .push_bind(k.y)
                        .push_bind(k.row_name.clone())
                        .push_bind(k.seat_name.clone())
                        .push_bind(k.group_id)
                        .push_bind(k.premium)
                        .push_bind(k.handicap)
                        .push_bind(k.companion)
                        .push_bind(k.limited_view)
                        .push_bind(k.sofa.map(|n| sofa_id(*section_id, n)))
                        .push_bind(k.attributes.clone());
                });
                insert.build().execute(&mut *tx).await.map_err(db_err)?;
            }
            let after = PlanVersion {
                id,
                venue_id: hall.id,
                name: plan.name.clone(),
                version,
                based_on: plan.based_on,
                saved_at_ms: Some(by.at_ms),
                saved_by: None,
                sections: plan.sections.len() as i64,
                seats: plan.seat_count() as i64,
                ga_capacity: plan
                    .sections
                    .iter()
                    .filter(|s| s.kind == kupa_domain::catalogue::SectionKind::Ga)
                    .map(|s| s.capacity)
                    .sum(),
                screenings: 0,
                upcoming: 0,
                newest: true,
            };
            sqlx::query(
                "INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc) \
                 VALUES ('seatPlan', $1, $2, NULL, $3, $4, $5, $6)",
            )
            .bind(hall.business_id)
            .bind(hall.location_id)
            .bind(by.staff_user_id)
            .bind(by.at_ms)
            .bind(before.as_ref().map(|b| summary(b).to_string()))
            .bind(summary(&after).to_string())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }
}

fn ticket_group_row(r: &impl Get) -> R<TicketGroupName> {
    Ok(TicketGroupName {
        id: r.i("id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
    })
}
