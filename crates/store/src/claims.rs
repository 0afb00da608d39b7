//! Seat claims: the guard under the seat arbiter (decision 0059) and of every path that writes
//! claims itself; each claim one conditional statement (decision 0002).

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::model::Claim;
use kupa_app::ports::{ClaimOp, ClaimStore, SeatAddress};
use kupa_domain::ids::{PresentationId, SessionId};

use crate::{BeginWrite, Db, db_err, rows};

/// Insert a hold, or take over the row when it is this session's own hold or an expired one.
/// A sold row, or another session's live hold, is left alone: zero rows affected.
const HOLD: &str = concat!(
    "INSERT INTO seat_claims (presentation_id, section_id, x, y, session_id, state, expires_at, order_id, updated_at) \
     VALUES ($1, $2, $3, $4, $5, 'held', $6, NULL, $7) \
     ON CONFLICT (presentation_id, section_id, x, y) DO UPDATE \
     SET session_id = excluded.session_id, expires_at = excluded.expires_at, updated_at = excluded.updated_at \
     WHERE seat_claims.state = 'held' AND (",
    expired_hold!("seat_claims", "$7"),
    " OR seat_claims.session_id = excluded.session_id)"
);

const RELEASE: &str = "DELETE FROM seat_claims \
     WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 AND session_id = $5 AND state = 'held'";

/// Claims in a fixed order, so two buyers taking overlapping places cannot deadlock on PostgreSQL.
fn ordered(places: &[SeatAddress]) -> Vec<SeatAddress> {
    let mut v = places.to_vec();
    v.sort_by_key(|p| (p.section_id, p.y, p.x));
    v.dedup();
    v
}

macro_rules! hold_all {
    ($tx:expr, $presentation_id:expr, $places:expr, $session_id:expr, $now_ms:expr, $expires_at_ms:expr) => {{
        let mut all = true;
        for p in $places {
            let done = sqlx::query(HOLD)
                .bind($presentation_id)
                .bind(p.section_id)
                .bind(p.x)
                .bind(p.y)
                .bind($session_id)
                .bind($expires_at_ms)
                .bind($now_ms)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
            if done.rows_affected() != 1 {
                all = false;
                break;
            }
        }
        all
    }};
}

macro_rules! release_all {
    ($tx:expr, $presentation_id:expr, $places:expr, $session_id:expr) => {{
        let mut n = 0u64;
        for p in $places {
            n += sqlx::query(RELEASE)
                .bind($presentation_id)
                .bind(p.section_id)
                .bind(p.x)
                .bind(p.y)
                .bind($session_id)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?
                .rows_affected();
        }
        n
    }};
}

/// The arbiter's batch in one open transaction: each hold of several places inside a savepoint,
/// so a refused one leaves nothing behind; single statements are atomic on their own.
macro_rules! apply_all {
    ($tx:expr, $ops:expr) => {{
        let mut out: Vec<u64> = Vec::with_capacity($ops.len());
        for op in $ops {
            match op {
                ClaimOp::Hold {
                    presentation_id,
                    places,
                    session_id,
                    now_ms,
                    expires_at_ms,
                } => {
                    let places = ordered(places);
                    let several = places.len() > 1;
                    if several {
                        sqlx::query("SAVEPOINT claim_op")
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                    }
                    let ok = hold_all!(
                        $tx,
                        presentation_id,
                        &places,
                        session_id,
                        now_ms,
                        expires_at_ms
                    );
                    if several {
                        if !ok {
                            sqlx::query("ROLLBACK TO SAVEPOINT claim_op")
                                .execute(&mut *$tx)
                                .await
                                .map_err(db_err)?;
                        }
                        sqlx::query("RELEASE SAVEPOINT claim_op")
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                    }
                    out.push(u64::from(ok));
                }
                ClaimOp::Release {
                    presentation_id,
                    places,
                    session_id,
                } => {
                    let places = ordered(places);
                    out.push(release_all!($tx, presentation_id, &places, session_id));
                }
                ClaimOp::SaveCheckout {
                    presentation_id,
                    session_id,
                    state,
                    now_ms,
                } => {
                    out.push(crate::checkout::save!(
                        $tx,
                        session_id,
                        presentation_id,
                        state,
                        now_ms
                    ));
                }
            }
        }
        out
    }};
}

impl Db {
    async fn apply_batch(&self, ops: &[ClaimOp]) -> StoreResult<Vec<u64>> {
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let out = apply_all!(tx, ops);
            tx.commit().await.map_err(db_err)?;
            Ok(out)
        })
    }
}

#[async_trait]
impl ClaimStore for Db {
    async fn apply_claim_ops(&self, ops: &[ClaimOp]) -> Vec<StoreResult<u64>> {
        match self.apply_batch(ops).await {
            Ok(out) => return out.into_iter().map(Ok).collect(),
            // The database is down: trying each operation alone would wait for a connection once
            // per operation (the pool's 5 s each) and fail the same way; nothing was written.
            Err(StoreError::Unavailable(m)) => {
                return ops
                    .iter()
                    .map(|_| Err(StoreError::Unavailable(m.clone())))
                    .collect();
            }
            Err(_) => {}
        }
        // The batch did not commit (PostgreSQL broke a deadlock with another node's batch, the
        // database was busy): nothing of it was written; each operation alone, in order.
        let mut out = Vec::with_capacity(ops.len());
        for op in ops {
            out.push(match op {
                ClaimOp::Hold {
                    presentation_id,
                    places,
                    session_id,
                    now_ms,
                    expires_at_ms,
                } => self
                    .hold(
                        *presentation_id,
                        places,
                        session_id,
                        *now_ms,
                        *expires_at_ms,
                    )
                    .await
                    .map(u64::from),
                ClaimOp::Release {
                    presentation_id,
                    places,
                    session_id,
                } => self.release(*presentation_id, places, session_id).await,
                ClaimOp::SaveCheckout {
                    presentation_id,
                    session_id,
                    state,
                    now_ms,
                } => {
                    kupa_app::ports::CheckoutStore::save_checkout_state(
                        self,
                        session_id,
                        *presentation_id,
                        state,
                        *now_ms,
                    )
                    .await
                }
            });
        }
        out
    }

    async fn claims(&self, presentation_id: PresentationId) -> StoreResult<Vec<Claim>> {
        fetch_all!(
            self,
            "SELECT presentation_id, section_id, x, y, session_id, state, expires_at FROM seat_claims WHERE presentation_id = $1",
            [presentation_id],
            rows::claim
        )
    }

    async fn session_claims(
        &self,
        presentation_id: PresentationId,
        session_id: &SessionId,
    ) -> StoreResult<Vec<Claim>> {
        fetch_all!(
            self,
            "SELECT presentation_id, section_id, x, y, session_id, state, expires_at FROM seat_claims WHERE presentation_id = $1 AND session_id = $2",
            [presentation_id, session_id],
            rows::claim
        )
    }

    async fn hold(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session_id: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<bool> {
        let places = ordered(places);
        // On SQLite, BEGIN IMMEDIATE: the write lock is taken before reading, so the upserts never
        // meet a busy upgrade.
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let ok = hold_all!(
                tx,
                presentation_id,
                &places,
                session_id,
                now_ms,
                expires_at_ms
            );
            if ok {
                tx.commit().await.map_err(db_err)?
            } else {
                tx.rollback().await.map_err(db_err)?
            }
            Ok(ok)
        })
    }

    async fn release(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session_id: &SessionId,
    ) -> StoreResult<u64> {
        let places = ordered(places);
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let n = release_all!(tx, presentation_id, &places, session_id);
            tx.commit().await.map_err(db_err)?;
            Ok(n)
        })
    }

    async fn extend(
        &self,
        presentation_id: PresentationId,
        session_id: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<u64> {
        // Only live holds move: an expired hold is already free for others, and stays so.
        crate::on_pool!(self, |p| sqlx::query(concat!(
            "UPDATE seat_claims SET expires_at = $3, updated_at = $4 \
             WHERE presentation_id = $1 AND session_id = $2 AND state = 'held' AND ",
            live_hold!("$4")
        ))
        .bind(presentation_id)
        .bind(session_id)
        .bind(expires_at_ms)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected())
        .map_err(db_err))
    }

    async fn sweep_expired(&self, now_ms: i64) -> StoreResult<Vec<Claim>> {
        // DELETE ... RETURNING hands each expired row to exactly one sweeper, however many run.
        fetch_all!(
            self,
            concat!(
                "DELETE FROM seat_claims WHERE state = 'held' AND ",
                expired_hold!("$1"),
                " RETURNING presentation_id, section_id, x, y, session_id, state, expires_at"
            ),
            [now_ms],
            rows::claim
        )
    }
}
