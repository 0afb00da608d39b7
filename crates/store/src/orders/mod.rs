//! Orders and payments, and the one finalisation transaction.

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::orders::*;
use kupa_domain::ids::ReservationId;
use kupa_domain::ids::{PresentationId, SessionId};

use crate::{Db, Pool, db_err};

mod rows;
#[macro_use]
mod gifts;
#[macro_use]
mod loyalty;
use loyalty::{LIVE_OTHER_PENDING, LIVE_OTHER_SESSIONS, purse_columns};

use crate::rows::Get;
use rows::*;

#[macro_use]
mod pending;

#[macro_use]
pub(crate) mod summary;
#[macro_use]
mod finalise;
#[macro_use]
mod cancel;
#[macro_use]
mod modify;
mod enrollments;
use modify::{CLAIM_SOLD, RELEASE_SOLD};

/// Runs `$body` in a write transaction (IMMEDIATE on SQLite) and commits; `$tx` names it.
/// Row locks a PostgreSQL transaction takes first (SQLite's `BEGIN IMMEDIATE` already
/// serialises writers): duplicate callbacks and finalisations of one payment take turns, and a new
/// cart (which cancels the pending order) waits for a finalisation of that order.
const LOCK_PAYMENT: &str = "SELECT id FROM payments WHERE id = $1 FOR UPDATE";
const LOCK_ORDER: &str = "SELECT id FROM orders WHERE id = $1 FOR UPDATE";
const LOCK_ORDER_OF_PAYMENT: &str =
    "SELECT id FROM orders WHERE id = (SELECT order_id FROM payments WHERE id = $1) FOR UPDATE";

macro_rules! write_tx {
    // Money: the same, and on SQLite the commit is fsynced (synchronous = FULL for this
    // transaction; holds and the rest run at NORMAL, which survives a crash of the process but
    // may lose its last commits in a power cut). PostgreSQL fsyncs every commit already.
    ($db:expr, durable, locks [$($lock:expr),*] on $key:expr, |$tx:ident| $body:expr) => {
        match &$db.pool {
            Pool::Sqlite(p) => {
                let mut conn = p.acquire().await.map_err(db_err)?;
                sqlx::query("PRAGMA synchronous = FULL").execute(&mut *conn).await.map_err(db_err)?;
                let result: StoreResult<_> = async {
                    let mut $tx = sqlx::Connection::begin_with(&mut *conn, "BEGIN IMMEDIATE").await.map_err(db_err)?;
                    let (write, out) = $body;
                    if write { $tx.commit().await.map_err(db_err)? } else { $tx.rollback().await.map_err(db_err)? }
                    Ok(out)
                }
                .await;
                if sqlx::query("PRAGMA synchronous = NORMAL").execute(&mut *conn).await.is_err() {
                    // Never hand back a connection in an unknown state: close it instead.
                    conn.detach();
                }
                result
            }
            Pool::Postgres(_) => write_tx!($db, locks [$($lock),*] on $key, |$tx| $body),
        }
    };
    // PostgreSQL row locks first, keyed by `$key`; `$body` yields (commit?, answer).
    ($db:expr, locks [$($lock:expr),*] on $key:expr, |$tx:ident| $body:expr) => {
        match &$db.pool {
            Pool::Sqlite(p) => {
                let mut $tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let (write, out) = $body;
                if write { $tx.commit().await.map_err(db_err)? } else { $tx.rollback().await.map_err(db_err)? }
                Ok(out)
            }
            Pool::Postgres(p) => {
                let mut $tx = p.begin().await.map_err(db_err)?;
                $(sqlx::query($lock).bind($key).execute(&mut *$tx).await.map_err(db_err)?;)*
                let (write, out) = $body;
                if write { $tx.commit().await.map_err(db_err)? } else { $tx.rollback().await.map_err(db_err)? }
                Ok(out)
            }
        }
    };
    ($db:expr, |$tx:ident| $body:expr) => {
        match &$db.pool {
            Pool::Sqlite(p) => {
                let mut $tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let out = $body;
                $tx.commit().await.map_err(db_err)?;
                Ok(out)
            }
            Pool::Postgres(p) => {
                let mut $tx = p.begin().await.map_err(db_err)?;
                let out = $body;
                $tx.commit().await.map_err(db_err)?;
                Ok(out)
            }
        }
    };
}

impl Db {
    /// The session's newest order of a cart (`key`) in one of `statuses` (an SQL list).
    async fn session_order(
        &self,
        session_id: &SessionId,
        key: CartKey,
        statuses: &'static str,
    ) -> StoreResult<Option<Order>> {
        let id: Option<String> = match key {
            CartKey::Presentation(presentation_id) => crate::on_pool!(self, |p| {
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT id FROM orders WHERE session_id = $1 AND status IN {statuses} \
                     AND id IN (SELECT order_id FROM order_presentations WHERE presentation_id = $2) \
                     ORDER BY created_at DESC LIMIT 1"
                )))
                .bind(session_id)
                .bind(presentation_id)
                .fetch_optional(p)
                .await
                .map_err(db_err)
            })?,
            CartKey::Kind(kind) => crate::on_pool!(self, |p| {
                sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT id FROM orders WHERE session_id = $1 AND status IN {statuses} AND kind = $2 \
                     ORDER BY created_at DESC LIMIT 1"
                )))
                .bind(session_id)
                .bind(kind.as_str())
                .fetch_optional(p)
                .await
                .map_err(db_err)
            })?,
        };
        match id {
            Some(id) => self.order(&id.into()).await,
            None => Ok(None),
        }
    }
}

#[async_trait]
impl OrderStore for Db {
    async fn save_pending_order(
        &self,
        order: &Order,
        now_ms: i64,
    ) -> StoreResult<Result<(), Shortfall>> {
        // Written whole, or (a balance or points held by another order) not at all.
        write_tx!(self, locks [] on &order.id, |tx| {
            save_pending!(tx, order, now_ms);
            match reserve_spendings!(tx, order, now_ms) {
                None => (true, Ok(())),
                Some(short) => (false, Err(short)),
            }
        })
    }

    async fn voucher_held_by_others(
        &self,
        code: &str,
        session_id: &SessionId,
        now_ms: i64,
    ) -> StoreResult<i64> {
        let sql = format!(
            "SELECT CAST(COALESCE(SUM(v.amount), 0) AS BIGINT) FROM order_vouchers v JOIN orders o ON o.id = v.order_id \
             WHERE v.code_key = $1 AND {LIVE_OTHER_SESSIONS}"
        );
        crate::on_pool!(self, |p| {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql.clone()))
                .bind(code)
                .bind(session_id)
                .bind(now_ms)
                .fetch_one(p)
                .await
                .map_err(db_err)
        })
    }

    async fn enrolled_members(&self, season_id: i64, member_ids: &[i64]) -> StoreResult<Vec<i64>> {
        self.enrolled(season_id, member_ids).await
    }

    async fn membership_reference_taken(
        &self,
        membership_id: i64,
        reference: &str,
        today: &str,
    ) -> StoreResult<bool> {
        self.reference_taken(membership_id, reference, today).await
    }

    async fn pending_order(
        &self,
        session_id: &SessionId,
        key: CartKey,
    ) -> StoreResult<Option<Order>> {
        self.session_order(session_id, key, "('pending')").await
    }

    async fn latest_order(
        &self,
        session_id: &SessionId,
        key: CartKey,
    ) -> StoreResult<Option<Order>> {
        self.session_order(session_id, key, "('pending', 'paid')")
            .await
    }

    async fn order(&self, id: &ReservationId) -> StoreResult<Option<Order>> {
        match &self.pool {
            Pool::Sqlite(p) => {
                let mut c = p.acquire().await.map_err(db_err)?;
                Ok(load_order!(c, "SELECT * FROM orders WHERE id = $1", id))
            }
            Pool::Postgres(p) => {
                let mut c = p.acquire().await.map_err(db_err)?;
                Ok(load_order!(c, "SELECT * FROM orders WHERE id = $1", id))
            }
        }
    }

    async fn order_by_document_key(&self, key: &str) -> StoreResult<Option<Order>> {
        let id: Option<String> = crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT order_id FROM order_tickets WHERE document_key = $1"
        )
        .bind(key)
        .fetch_optional(p)
        .await
        .map_err(db_err))?;
        match id {
            Some(id) => self.order(&id.into()).await,
            None => Ok(None),
        }
    }

    async fn create_payment(&self, pay: &Payment) -> StoreResult<()> {
        write_tx!(self, |tx| {
            sqlx::query(
                "INSERT INTO payments (id, order_id, session_id, method, amount, currency, installments, status, card_brand, \
                 card_last4, card_bin, save_card, failure_code, locale, return_url, created_at, updated_at, customer_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, NULL, NULL, $9, NULL, $10, $11, $12, $12, $13)",
            )
            .bind(&pay.id)
            .bind(&pay.order_id)
            .bind(&pay.session_id)
            .bind(pay.method.as_str())
            .bind(pay.amount)
            .bind(&pay.currency)
            .bind(pay.installments)
            .bind(pay.status.as_str())
            .bind(pay.save_card)
            .bind(&pay.locale)
            .bind(&pay.return_url)
            .bind(pay.created_at_ms)
            .bind(pay.customer_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            // Earlier open payments of the order give way to this one.
            sqlx::query(
                "UPDATE payments SET status = 'expired', updated_at = $3 \
                 WHERE order_id = $1 AND id <> $2 AND status IN ('created', 'challenge', 'awaitingBank', 'redirected')",
            )
            .bind(&pay.order_id)
            .bind(&pay.id)
            .bind(pay.created_at_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            sqlx::query("UPDATE orders SET payment_id = $2, updated_at = $3 WHERE id = $1 AND status = 'pending'")
                .bind(&pay.order_id)
                .bind(&pay.id)
                .bind(pay.created_at_ms)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
        })
    }

    async fn payment(&self, id: &str) -> StoreResult<Option<Payment>> {
        crate::on_pool!(self, |p| {
            let row = sqlx::query("SELECT * FROM payments WHERE id = $1")
                .bind(id)
                .fetch_optional(p)
                .await
                .map_err(db_err)?;
            row.as_ref().map(payment_row).transpose().map_err(db_err)
        })
    }

    async fn update_payment(
        &self,
        id: &str,
        update: &PaymentUpdate,
        now_ms: i64,
    ) -> StoreResult<Option<(Payment, PaymentMove)>> {
        write_tx!(self, durable, locks [LOCK_PAYMENT] on id, |tx| (true, update_payment_in!(tx, id, update, now_ms)))
    }

    async fn finalise(&self, payment_id: &str, now_ms: i64) -> StoreResult<Finalised> {
        // Commits only when it turned the order paid; anything else rolls back whole.
        write_tx!(self, durable, locks [LOCK_PAYMENT, LOCK_ORDER_OF_PAYMENT] on payment_id, |tx| finalise_in!(tx, payment_id, now_ms))
    }

    async fn claim_refund(
        &self,
        payment_id: &str,
        failure_code: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        write_tx!(self, durable, locks [] on payment_id, |tx| (true, {
            let moved = sqlx::query(
                "UPDATE payments SET status = 'refunded', failure_code = $2, updated_at = $3 WHERE id = $1 AND status = 'authorized'",
            )
            .bind(payment_id)
            .bind(failure_code)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1;
            if moved {
                sqlx::query(
                    "INSERT INTO payment_events (payment_id, seq, kind, detail, created_at) \
                     VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM payment_events WHERE payment_id = $1), 'refunded', $2, $3)",
                )
                .bind(payment_id)
                .bind(format!("refunded: {failure_code}"))
                .bind(now_ms)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            moved
        }))
    }

    async fn mark_committed(&self, order_id: &ReservationId, now_ms: i64) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE orders SET committed_at = $2 WHERE id = $1 AND committed_at IS NULL"
        )
        .bind(order_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }

    async fn stranded_payments(&self, before_ms: i64) -> StoreResult<Vec<Payment>> {
        crate::on_pool!(self, |p| {
            let rows = sqlx::query("SELECT * FROM payments WHERE status = 'authorized' AND updated_at < $1 ORDER BY updated_at")
                .bind(before_ms)
                .fetch_all(p)
                .await
                .map_err(db_err)?;
            rows.iter()
                .map(payment_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)
        })
    }

    async fn cancel(
        &self,
        order_id: &ReservationId,
        request: &CancelRequest,
        fee: Option<CancellationFee>,
        cancellation_id: &str,
        now_ms: i64,
    ) -> StoreResult<Result<Cancellation, CancelRefusal>> {
        write_tx!(self, durable, locks [LOCK_ORDER] on order_id, |tx| cancel_in!(tx, order_id, request, fee, cancellation_id, now_ms))
    }

    async fn move_seats(
        &self,
        order_id: &ReservationId,
        last_payment_id: &str,
        session_id: &SessionId,
        moves: &[SeatMove],
        now_ms: i64,
    ) -> StoreResult<Result<Order, MoveRefusal>> {
        write_tx!(self, durable, locks [LOCK_ORDER] on order_id, |tx| move_seats_in!(tx, order_id, last_payment_id, session_id, moves, now_ms))
    }

    async fn moved_since(
        &self,
        presentation_ids: &[PresentationId],
        after_ms: i64,
    ) -> StoreResult<bool> {
        for id in presentation_ids {
            let n: i64 = crate::on_pool!(self, |p| sqlx::query_scalar(
                "SELECT COUNT(*) FROM presentations WHERE id = $1 AND moved_at > $2"
            )
            .bind(id)
            .bind(after_ms)
            .fetch_one(p)
            .await
            .map_err(db_err))?;
            if n > 0 {
                return Ok(true);
            }
        }
        Ok(false)
    }

    async fn cancellations(&self, order_id: &ReservationId) -> StoreResult<Vec<Cancellation>> {
        crate::on_pool!(self, |p| {
            let mut out = sqlx::query(
                "SELECT * FROM cancellations WHERE order_id = $1 ORDER BY created_at, id",
            )
            .bind(order_id)
            .fetch_all(p)
            .await
            .map_err(db_err)?
            .iter()
            .map(cancellation_row)
            .collect::<R<Vec<_>>>()
            .map_err(db_err)?;
            let refunds =
                sqlx::query("SELECT r.*, sv.reference AS credit_reference FROM refunds r \
                     LEFT JOIN system_vouchers sv ON r.target = 'credit' AND sv.code_key = r.code_key \
                     WHERE r.order_id = $1 ORDER BY r.created_at, r.id")
                    .bind(order_id)
                    .fetch_all(p)
                    .await
                    .map_err(db_err)?
                    .iter()
                    .map(refund_row)
                    .collect::<R<Vec<_>>>()
                    .map_err(db_err)?;
            for c in out.iter_mut() {
                c.refunds = refunds
                    .iter()
                    .filter(|r| r.cancellation_id == c.id)
                    .cloned()
                    .collect();
            }
            Ok(out)
        })
    }

    async fn pending_refunds(&self, before_ms: i64) -> StoreResult<Vec<Refund>> {
        crate::on_pool!(self, |p| {
            sqlx::query("SELECT * FROM refunds WHERE status = 'pending' AND updated_at < $1 ORDER BY updated_at, id")
                .bind(before_ms)
                .fetch_all(p)
                .await
                .map_err(db_err)?
                .iter()
                .map(refund_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)
        })
    }

    async fn settle_refund(
        &self,
        refund_id: &str,
        confirmed: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        crate::on_pool!(self, |p| {
            sqlx::query(
            "UPDATE refunds SET status = CASE WHEN $2 THEN 'done' ELSE status END, attempts = attempts + 1, updated_at = $3 \
             WHERE id = $1 AND status = 'pending'"
        )
        .bind(refund_id)
        .bind(confirmed)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)
        })
    }
}
