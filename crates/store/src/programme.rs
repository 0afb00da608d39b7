//! The programme's SQL (decision 0058): a complex's week, and the screenings added, moved and
//! stopped. Every write first raises `catalogue_version`: that one row's lock makes programme
//! writers take turns on PostgreSQL (SQLite's `BEGIN IMMEDIATE` does so already), so an overlap
//! checked is still an overlap when written, and every node's catalogue cache empties after it.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::programme::*;

use crate::rows::Get;
use crate::{BeginWrite, Db, db_err};

type R<T> = Result<T, sqlx::Error>;

use kupa_app::ports::SeatAddress;
use kupa_app::sales_switches::{SaleChannel, SalesSwitch};
use kupa_domain::ids::PresentationId;

use crate::programme_macros::{bump_version, record, snapshot};
use crate::programme_screenings::remap_in;

const SCREENING_SELECT: &str = concat!(
    "SELECT p.id, p.feature_id, p.venue_id, v.location_id, p.seatplan_id, p.business_id, \
     p.starts_at, p.sale_starts_at, p.sale_ends_at, p.seating_policy_id, p.auth_profile_id, \
     p.cancelled_at, p.moved_at, p.ticket_group_id, f.name AS f_name, f.name_en AS f_name_en, f.runtime AS f_runtime, \
     (SELECT COUNT(*) FROM screening_channel_closures x WHERE x.presentation_id = p.id AND x.channel = 'web') AS closed_web, \
     (SELECT COUNT(*) FROM screening_channel_closures x WHERE x.presentation_id = p.id AND x.channel = 'miniSite') AS closed_mini_site, \
     (SELECT COUNT(*) FROM seat_claims c WHERE c.presentation_id = p.id AND c.state = 'sold') AS sold, \
     (SELECT COUNT(*) FROM seat_claims c WHERE c.presentation_id = p.id AND c.state = 'held' AND ",
    live_hold!("c", "$1"),
    ") AS held \
     FROM presentations p JOIN features f ON f.id = p.feature_id JOIN venues v ON v.id = p.venue_id"
);

fn screening_row(r: &impl Get) -> R<Screening> {
    Ok(Screening {
        id: r.p("id")?,
        feature: FeatureChoice {
            id: r.i("feature_id")?,
            name: r.s("f_name")?,
            name_en: r.s("f_name_en")?,
            runtime_minutes: r.i("f_runtime")?,
        },
        venue_id: r.i("venue_id")?,
        location_id: r.i("location_id")?,
        seatplan_id: r.i("seatplan_id")?,
        business_id: r.i("business_id")?,
        starts_at_ms: r.i("starts_at")?,
        sale_starts_at_ms: r.i("sale_starts_at")?,
        sale_ends_at_ms: r.i("sale_ends_at")?,
        seating_policy_id: r.i("seating_policy_id")?,
        auth_profile_id: r.i("auth_profile_id")?,
        cancelled_at_ms: r.oi("cancelled_at")?,
        moved_at_ms: r.oi("moved_at")?,
        sold: r.i("sold")?,
        held: r.i("held")?,
        ticket_group_id: r.oi("ticket_group_id")?,
        closed_channels: [
            (r.i("closed_web")?, SaleChannel::Web),
            (r.i("closed_mini_site")?, SaleChannel::MiniSite),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, c)| c)
        .collect(),
    })
}

/// The first screening of the hall (not cancelled, not `except`) that a screening of
/// `runtime_minutes` from `starts` would overlap, each lasting its runtime plus `gap`.
macro_rules! overlapping {
    ($tx:expr, $venue:expr, $except:expr, $starts:expr, $runtime:expr, $gap:expr) => {{
        let end: i64 = $starts + $runtime * 60_000 + $gap;
        let other: Option<PresentationId> = sqlx::query_scalar(
            "SELECT p.id FROM presentations p JOIN features f ON f.id = p.feature_id \
             WHERE p.venue_id = $1 AND p.cancelled_at IS NULL AND p.id <> $2 \
             AND p.starts_at < $3 AND p.starts_at + f.runtime * 60000 + $4 > $5 \
             ORDER BY p.starts_at, p.id LIMIT 1",
        )
        .bind($venue)
        .bind($except)
        .bind(end)
        .bind($gap)
        .bind($starts)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_err)?;
        other
    }};
}

macro_rules! add_in {
    ($tx:expr, $new:expr, $gap:expr, $by:expr) => {{
        let n: &NewScreening = $new;
        bump_version!($tx);
        let runtime: i64 = sqlx::query_scalar("SELECT runtime FROM features WHERE id = $1")
            .bind(n.feature_id)
            .fetch_one(&mut *$tx)
            .await
            .map_err(db_err)?;
        if let Some(other) = overlapping!($tx, n.venue_id, -1_i64, n.starts_at_ms, runtime, $gap) {
            return Ok(Placed::Overlaps(other));
        }
        let id: PresentationId = sqlx::query_scalar("SELECT CAST(COALESCE(MAX(id), 0) + 1 AS BIGINT) FROM presentations")
            .fetch_one(&mut *$tx)
            .await
            .map_err(db_err)?;
        sqlx::query(
            "INSERT INTO presentations (id, feature_id, venue_id, seatplan_id, starts_at, available_until, \
             sale_starts_at, sale_ends_at, auth_profile_id, business_id, seating_policy_id, new_booking_url, ticket_group_id) \
             VALUES ($1, $2, $3, $4, $5, NULL, $6, $7, $8, $9, $10, '', $11)",
        )
        .bind(id)
        .bind(n.feature_id)
        .bind(n.venue_id)
        .bind(n.seatplan_id)
        .bind(n.starts_at_ms)
        .bind(n.sale_starts_at_ms)
        .bind(n.sale_ends_at_ms)
        .bind(n.auth_profile_id)
        .bind(n.business_id)
        .bind(n.seating_policy_id)
        .bind(n.ticket_group_id)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        let after = snapshot!($tx, id);
        record!($tx, id, "added", $by, None, after);
        Placed::Done(id)
    }};
}

macro_rules! move_in {
    ($tx:expr, $lock:expr, $id:expr, $venue:expr, $plan:expr, $starts:expr, $gap:expr, $remap:expr, $by:expr) => {{
        let by: Change = $by;
        let remap: Option<&SeatRemap> = $remap;
        let now = by.at_ms;
        bump_version!($tx);
        // On PostgreSQL the row lock makes a seat claim (its foreign key) wait for the move.
        let row = sqlx::query(sqlx::AssertSqlSafe(format!(
            "SELECT p.starts_at, p.sale_ends_at, p.seatplan_id, p.cancelled_at, f.runtime \
             FROM presentations p JOIN features f ON f.id = p.feature_id WHERE p.id = $1{}",
            $lock
        )))
        .bind($id)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_err)?;
        let Some(row) = row else { return Ok(MoveOutcome::Gone) };
        let (old_start, sale_ends, plan, cancelled, runtime) = (
            row.i("starts_at").map_err(db_err)?,
            row.i("sale_ends_at").map_err(db_err)?,
            row.i("seatplan_id").map_err(db_err)?,
            row.oi("cancelled_at").map_err(db_err)?,
            row.i("runtime").map_err(db_err)?,
        );
        if cancelled.is_some() {
            return Ok(MoveOutcome::Gone);
        }
        if let Some(other) = overlapping!($tx, $venue, $id, $starts, runtime, $gap) {
            return Ok(MoveOutcome::Overlaps(other));
        }
        let (mut remapped, mut expired) = (Vec::new(), Vec::new());
        if plan != $plan {
            match remap_in!($tx, $id, remap, now) {
                Ok((r, e)) => (remapped, expired) = (r, e),
                Err(missing) => return Ok(MoveOutcome::SeatsMissing(missing)),
            }
        }
        let before = snapshot!($tx, $id);
        sqlx::query(
            "UPDATE presentations SET venue_id = $2, seatplan_id = $3, starts_at = $4, sale_ends_at = $5, moved_at = $6 \
             WHERE id = $1",
        )
        .bind($id)
        .bind($venue)
        .bind($plan)
        .bind($starts)
        .bind(sale_ends + ($starts - old_start))
        .bind(now)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        let after = snapshot!($tx, $id);
        record!($tx, $id, "moved", by, Some(before), after);
        MoveOutcome::Moved { remapped, expired }
    }};
}

macro_rules! stop_in {
    ($tx:expr, $lock:expr, $id:expr, $by:expr) => {{
        let by: Change = $by;
        let now = by.at_ms;
        bump_version!($tx);
        let row: Option<Option<i64>> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT cancelled_at FROM presentations WHERE id = $1{}",
            $lock
        )))
        .bind($id)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_err)?;
        let Some(cancelled) = row else { return Ok(None) };
        let before = snapshot!($tx, $id);
        sqlx::query(
            "UPDATE presentations SET cancelled_at = COALESCE(cancelled_at, $2), \
             sale_ends_at = CASE WHEN sale_ends_at > $2 THEN $2 ELSE sale_ends_at END WHERE id = $1",
        )
        .bind($id)
        .bind(now)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        if cancelled.is_none() {
            let after = snapshot!($tx, $id);
            record!($tx, $id, "cancelled", by, Some(before), after);
        }
        let released = sqlx::query(
            "DELETE FROM seat_claims WHERE presentation_id = $1 AND state = 'held' RETURNING section_id, x, y",
        )
        .bind($id)
        .fetch_all(&mut *$tx)
        .await
        .map_err(db_err)?
        .iter()
        .map(|r| Ok(SeatAddress::new(r.i("section_id")?, r.i("x")?, r.i("y")?)))
        .collect::<R<Vec<_>>>()
        .map_err(db_err)?;
        ScreeningStopped {
            newly: cancelled.is_none(),
            released,
        }
    }};
}

#[async_trait]
impl ProgrammeStore for Db {
    async fn complexes(&self) -> StoreResult<Vec<Complex>> {
        on_pool!(self, |p| {
            let halls = sqlx::query(
                // A new screening is sold on the hall's newest plan (decision 0068): the highest
                // version, then the lowest id (the catalogue's first plan of the hall).
                "SELECT v.id, v.location_id, v.name, v.name_en, \
                 (SELECT s.id FROM seatplans s WHERE s.venue_id = v.id ORDER BY s.version DESC, s.id LIMIT 1) AS seatplan_id \
                 FROM venues v WHERE v.venue_type_id < 101 ORDER BY v.location_id, v.id",
            )
            .fetch_all(p)
            .await
            .map_err(db_err)?;
            // In the order of their first section: the plan's main group first (decision 0070).
            let groups = sqlx::query(
                "SELECT s.seatplan_id, g.id, g.name, g.name_en FROM sections s \
                 JOIN ticket_groups g ON g.id = s.ticket_group_id \
                 GROUP BY s.seatplan_id, g.id, g.name, g.name_en \
                 ORDER BY s.seatplan_id, MIN(s.sort), MIN(s.id)",
            )
            .fetch_all(p)
            .await
            .map_err(db_err)?;
            let locations =
                sqlx::query("SELECT id, name, name_en, business_id FROM locations ORDER BY id")
                    .fetch_all(p)
                    .await
                    .map_err(db_err)?;
            let mut out = Vec::new();
            for l in &locations {
                let id = l.i("id").map_err(db_err)?;
                let mut complex = Complex {
                    id,
                    name: l.s("name").map_err(db_err)?,
                    name_en: l.s("name_en").map_err(db_err)?,
                    business_id: l.i("business_id").map_err(db_err)?,
                    halls: Vec::new(),
                };
                for h in halls.iter() {
                    if h.i("location_id").map_err(db_err)? != id {
                        continue;
                    }
                    let seatplan_id = h.oi("seatplan_id").map_err(db_err)?;
                    let mut ticket_groups = Vec::new();
                    for g in groups.iter() {
                        if Some(g.i("seatplan_id").map_err(db_err)?) == seatplan_id {
                            ticket_groups.push(TicketGroupName {
                                id: g.i("id").map_err(db_err)?,
                                name: g.s("name").map_err(db_err)?,
                                name_en: g.s("name_en").map_err(db_err)?,
                            });
                        }
                    }
                    complex.halls.push(Hall {
                        id: h.i("id").map_err(db_err)?,
                        location_id: id,
                        name: h.s("name").map_err(db_err)?,
                        name_en: h.s("name_en").map_err(db_err)?,
                        seatplan_id,
                        ticket_groups,
                    });
                }
                if !complex.halls.is_empty() {
                    out.push(complex);
                }
            }
            Ok(out)
        })
    }

    async fn feature_choices(&self) -> StoreResult<Vec<FeatureChoice>> {
        on_pool!(self, |p| {
            sqlx::query("SELECT id, name, name_en, runtime FROM features ORDER BY name_en, id")
                .fetch_all(p)
                .await
                .map_err(db_err)?
                .iter()
                .map(|r| {
                    Ok(FeatureChoice {
                        id: r.i("id")?,
                        name: r.s("name")?,
                        name_en: r.s("name_en")?,
                        runtime_minutes: r.i("runtime")?,
                    })
                })
                .collect::<R<Vec<_>>>()
                .map_err(db_err)
        })
    }

    async fn screenings(
        &self,
        location_id: i64,
        from_ms: i64,
        to_ms: i64,
        now_ms: i64,
    ) -> StoreResult<Vec<Screening>> {
        let sql = format!(
            "{SCREENING_SELECT} WHERE v.location_id = $2 AND p.starts_at >= $3 AND p.starts_at < $4 \
             ORDER BY p.starts_at, p.venue_id, p.id"
        );
        on_pool!(self, |p| {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(now_ms)
                .bind(location_id)
                .bind(from_ms)
                .bind(to_ms)
                .fetch_all(p)
                .await
                .map_err(db_err)?
                .iter()
                .map(screening_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)
        })
    }

    async fn screening(&self, id: PresentationId, now_ms: i64) -> StoreResult<Option<Screening>> {
        let sql = format!("{SCREENING_SELECT} WHERE p.id = $2");
        on_pool!(self, |p| {
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(now_ms)
                .bind(id)
                .fetch_optional(p)
                .await
                .map_err(db_err)?
                .as_ref()
                .map(screening_row)
                .transpose()
                .map_err(db_err)
        })
    }

    async fn add_screening(
        &self,
        new: &NewScreening,
        gap_ms: i64,
        by: Change,
    ) -> StoreResult<Placed> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let placed = add_in!(tx, new, gap_ms, by);
            tx.commit().await.map_err(db_err)?;
            Ok(placed)
        })
    }

    async fn move_screening(
        &self,
        id: PresentationId,
        venue_id: i64,
        seatplan_id: i64,
        starts_at_ms: i64,
        gap_ms: i64,
        remap: Option<&SeatRemap>,
        by: Change,
    ) -> StoreResult<MoveOutcome> {
        let lock = self.on_postgres(" FOR UPDATE OF p");
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let moved = move_in!(
                tx,
                lock,
                id,
                venue_id,
                seatplan_id,
                starts_at_ms,
                gap_ms,
                remap,
                by
            );
            tx.commit().await.map_err(db_err)?;
            Ok(moved)
        })
    }

    async fn claimed_places(
        &self,
        id: PresentationId,
        now_ms: i64,
    ) -> StoreResult<Vec<SeatAddress>> {
        crate::programme_screenings::claimed_places(self, id, now_ms).await
    }

    async fn set_ticket_group(
        &self,
        id: PresentationId,
        ticket_group_id: Option<i64>,
        by: Change,
    ) -> StoreResult<TicketGroupSet> {
        crate::programme_screenings::set_ticket_group(self, id, ticket_group_id, by).await
    }

    async fn set_screening_channel(
        &self,
        id: PresentationId,
        channel: SaleChannel,
        open: bool,
        by: Change,
    ) -> StoreResult<Option<()>> {
        crate::programme_screenings::set_screening_channel(self, id, channel, open, by).await
    }

    async fn stop_screening(
        &self,
        id: PresentationId,
        by: Change,
    ) -> StoreResult<Option<ScreeningStopped>> {
        let lock = self.on_postgres(" FOR UPDATE");
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let stopped = stop_in!(tx, lock, id, by);
            tx.commit().await.map_err(db_err)?;
            Ok(Some(stopped))
        })
    }

    async fn changes_of(&self, presentation_id: PresentationId) -> StoreResult<Vec<ChangeRecord>> {
        crate::audit::changes_of(self, presentation_id).await
    }

    async fn stored_sales_switches(&self) -> StoreResult<Vec<SalesSwitch>> {
        crate::sales_switches::read_all(self).await
    }

    async fn set_sales_switch(
        &self,
        switch: &SalesSwitch,
        business_id: i64,
        by: Change,
    ) -> StoreResult<()> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let before = sqlx::query(
                "SELECT location_id, channel, is_offline, advance_sales, is_open FROM sales_switches \
                 WHERE location_id = $1 AND channel = $2",
            )
            .bind(switch.location_id)
            .bind(switch.channel.as_str())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?
            .map(|r| crate::sales_switches::row(&r))
            .transpose()
            .map_err(db_err)?
            .flatten()
            .unwrap_or_else(|| SalesSwitch::on_sale(switch.location_id, switch.channel));
            sqlx::query(
                "INSERT INTO sales_switches (location_id, channel, is_offline, advance_sales, is_open) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (location_id, channel) DO UPDATE SET \
                 is_offline = excluded.is_offline, advance_sales = excluded.advance_sales, is_open = excluded.is_open",
            )
            .bind(switch.location_id)
            .bind(switch.channel.as_str())
            .bind(switch.offline)
            .bind(switch.advance_sales)
            .bind(switch.open)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc) \
                 VALUES ('salesSwitch', $1, $2, NULL, $3, $4, $5, $6)",
            )
            .bind(business_id)
            .bind(switch.location_id)
            .bind(by.staff_user_id)
            .bind(by.at_ms)
            .bind(before.doc().to_string())
            .bind(switch.doc().to_string())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)
        })
    }

    async fn audit(&self, q: &AuditQuery) -> StoreResult<Vec<ChangeRecord>> {
        crate::audit::page(self, q).await
    }

    async fn paid_orders_on(&self, presentation_id: PresentationId) -> StoreResult<Vec<String>> {
        on_pool!(self, |p| {
            sqlx::query_scalar(
                "SELECT DISTINCT ot.order_id FROM order_tickets ot JOIN orders o ON o.id = ot.order_id \
                 WHERE ot.presentation_id = $1 AND ot.cancelled_at IS NULL AND o.status = 'paid' \
                 ORDER BY ot.order_id",
            )
            .bind(presentation_id)
            .fetch_all(p)
            .await
            .map_err(db_err)
        })
    }
}
