//! Unpaid hold orders (decision 0028): turning the session's pending order into a hold, and
//! releasing holds whose time ran out. The rest of a hold is an order (orders/).

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::orders::{HoldStore, Order, ReleasedHold, hold_owner};
use kupa_domain::ids::PresentationId;
use kupa_domain::ids::ReservationId;
use kupa_domain::seating::SeatAddress;

use crate::rows::Get;
use crate::{Db, Pool, db_err};

/// PostgreSQL takes the order's row lock first, as the finalisation does (payment, then order,
/// then claims), so a hold being paid and the same hold being released take turns instead of
/// deadlocking. SQLite's `BEGIN IMMEDIATE` serialises writers already.
const LOCK_ORDER: &str = "SELECT id FROM orders WHERE id = $1 FOR UPDATE";

const OPEN_PAYMENTS_EXPIRE: &str = "UPDATE payments SET status = 'expired', updated_at = $2 \
     WHERE order_id = $1 AND status IN ('created', 'challenge', 'awaitingBank', 'redirected')";

macro_rules! make_hold_in {
    ($tx:expr, $order:expr, $customer_id:expr, $until:expr, $now:expr) => {{
        let o: &Order = $order;
        let owner = hold_owner(&o.id);
        let n = sqlx::query(
            "UPDATE orders SET is_hold = $2, hold_until = $3, session_id = $4, customer_id = $5, updated_at = $6 \
             WHERE id = $1 AND session_id = $7 AND status = 'pending'",
        )
        .bind(&o.id)
        .bind(true)
        .bind($until)
        .bind(&owner)
        .bind($customer_id)
        .bind($now)
        .bind(&o.session_id)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?
        .rows_affected();
        let mut ok = n == 1;
        // In the claims' key order, as holds, releases and the finalisation take them.
        let mut places: Vec<(PresentationId, SeatAddress)> =
            o.tickets.iter().map(|t| (t.presentation_id, t.address())).collect();
        places.sort_by_key(|(pid, p)| (*pid, p.section_id, p.y, p.x));
        places.dedup();
        for p in &places {
            if !ok {
                break;
            }
            let moved = sqlx::query(
                concat!("UPDATE seat_claims SET session_id = $5, expires_at = $6, updated_at = $7 \
                 WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 AND session_id = $8 \
                 AND state = 'held' AND ", live_hold!("$7")),
            )
            .bind(p.0)
            .bind(p.1.section_id)
            .bind(p.1.x)
            .bind(p.1.y)
            .bind(&owner)
            .bind($until)
            .bind($now)
            .bind(&o.session_id)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            ok = moved == 1;
        }
        if ok {
            sqlx::query(OPEN_PAYMENTS_EXPIRE)
                .bind(&o.id)
                .bind($now)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
            // The checkout is over for the session: its next seat starts a checkout of its own.
            for presentation_id in &o.presentations {
                sqlx::query("DELETE FROM checkout_steps WHERE session_id = $1 AND presentation_id = $2")
                    .bind(&o.session_id)
                    .bind(presentation_id)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
            }
        }
        ok
    }};
}

macro_rules! release_in {
    ($tx:expr, $id:expr, $now:expr) => {{
        let cancelled = sqlx::query(
            "UPDATE orders SET status = 'cancelled', updated_at = $2 WHERE id = $1 AND status = 'pending' AND hold_until IS NOT NULL",
        )
        .bind($id)
        .bind($now)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?
        .rows_affected();
        if cancelled != 1 {
            None
        } else {
            // An open payment of a released hold can no longer be captured: a later authorization
            // is voided and refunded (decision 0018).
            sqlx::query(OPEN_PAYMENTS_EXPIRE)
                .bind($id)
                .bind($now)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
            let rows = sqlx::query(
                "DELETE FROM seat_claims WHERE session_id = $1 AND state = 'held' \
                 RETURNING presentation_id, section_id, x, y",
            )
            .bind(hold_owner($id))
            .fetch_all(&mut *$tx)
            .await
            .map_err(db_err)?;
            // The freed seats, by presentation (an order may be of several).
            let mut released: Vec<ReleasedHold> = Vec::new();
            for r in &rows {
                let presentation_id = r.p("presentation_id").map_err(db_err)?;
                let seat = SeatAddress::new(
                    r.i("section_id").map_err(db_err)?,
                    r.i("x").map_err(db_err)?,
                    r.i("y").map_err(db_err)?,
                );
                match released.iter_mut().find(|h| h.presentation_id == presentation_id) {
                    Some(h) => h.freed.push(seat),
                    None => released.push(ReleasedHold {
                        order_id: $id.clone(),
                        presentation_id,
                        freed: vec![seat],
                    }),
                }
            }
            if released.is_empty() {
                // Nothing left to free (the seat-claim sweeper came first): the hold is still
                // reported, once, under its first presentation.
                let first: Option<PresentationId> = sqlx::query_scalar(
                    "SELECT presentation_id FROM order_presentations WHERE order_id = $1 ORDER BY position LIMIT 1",
                )
                .bind($id)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(db_err)?;
                released.push(ReleasedHold {
                    order_id: $id.clone(),
                    presentation_id: first.unwrap_or_default(),
                    freed: Vec::new(),
                });
            }
            Some(released)
        }
    }};
}

/// A hold given up before its time ends now: `hold_until` records when.
macro_rules! ended_early {
    ($tx:expr, $id:expr, $now:expr) => {{
        sqlx::query("UPDATE orders SET hold_until = $2 WHERE id = $1 AND hold_until > $2")
            .bind($id)
            .bind($now)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
    }};
}

#[async_trait]
impl HoldStore for Db {
    async fn make_hold(
        &self,
        order: &Order,
        customer_id: i64,
        until: i64,
        now_ms: i64,
    ) -> StoreResult<bool> {
        match &self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let ok = make_hold_in!(tx, order, customer_id, until, now_ms);
                if ok {
                    tx.commit().await.map_err(db_err)?
                } else {
                    tx.rollback().await.map_err(db_err)?
                }
                Ok(ok)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                sqlx::query(LOCK_ORDER)
                    .bind(&order.id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                let ok = make_hold_in!(tx, order, customer_id, until, now_ms);
                if ok {
                    tx.commit().await.map_err(db_err)?
                } else {
                    tx.rollback().await.map_err(db_err)?
                }
                Ok(ok)
            }
        }
    }

    async fn hold_until(&self, order_id: &ReservationId) -> StoreResult<Option<i64>> {
        let until: Option<Option<i64>> = crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT hold_until FROM orders WHERE id = $1"
        )
        .bind(order_id)
        .fetch_optional(p)
        .await
        .map_err(db_err))?;
        Ok(until.flatten())
    }

    async fn customer_holds(
        &self,
        customer_id: i64,
        limit: i64,
    ) -> StoreResult<Vec<ReservationId>> {
        crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT id FROM orders WHERE customer_id = $1 AND hold_until IS NOT NULL \
             ORDER BY created_at DESC LIMIT $2"
        )
        .bind(customer_id)
        .bind(limit)
        .fetch_all(p)
        .await
        .map_err(db_err))
    }

    async fn release_due_holds(&self, now_ms: i64) -> StoreResult<Vec<ReleasedHold>> {
        let due: Vec<ReservationId> = crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT id FROM orders \
             WHERE hold_until IS NOT NULL AND hold_until <= $1 AND status = 'pending' \
             ORDER BY hold_until LIMIT 200"
        )
        .bind(now_ms)
        .fetch_all(p)
        .await
        .map_err(db_err))?;
        let mut released = Vec::new();
        for id in &due {
            released.extend(
                self.release_one(id, now_ms, false)
                    .await?
                    .into_iter()
                    .flatten(),
            );
        }
        Ok(released)
    }

    async fn release_hold(
        &self,
        order_id: &ReservationId,
        now_ms: i64,
    ) -> StoreResult<Option<Vec<ReleasedHold>>> {
        self.release_one(order_id, now_ms, true).await
    }
}

impl Db {
    /// One hold released in its own transaction, under the order's lock (as the finalisation
    /// takes it): None when it is no pending hold any more (paid, or released by someone else
    /// first), so each release is reported exactly once. Given up `early`, its `hold_until`
    /// becomes the moment it ended.
    async fn release_one(
        &self,
        id: &ReservationId,
        now_ms: i64,
        early: bool,
    ) -> StoreResult<Option<Vec<ReleasedHold>>> {
        Ok(match &self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let r = release_in!(tx, id, now_ms);
                if early && r.is_some() {
                    ended_early!(tx, id, now_ms);
                }
                tx.commit().await.map_err(db_err)?;
                r
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                sqlx::query(LOCK_ORDER)
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
                let r = release_in!(tx, id, now_ms);
                if early && r.is_some() {
                    ended_early!(tx, id, now_ms);
                }
                tx.commit().await.map_err(db_err)?;
                r
            }
        })
    }
}
