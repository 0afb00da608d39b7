//! Checkout steps: the deadline a buyer session's holds share, and whether its step was extended.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::ports::CheckoutStore;
use kupa_domain::checkout::{CheckoutState, Step};
use kupa_domain::ids::{PresentationId, SessionId};

use crate::{Db, Pool, db_err, rows::Get};

fn state(r: &impl Get) -> Result<CheckoutState, sqlx::Error> {
    let step = r.s("step")?;
    Ok(CheckoutState {
        step: Step::parse(&step)
            .ok_or_else(|| sqlx::Error::Decode(format!("checkout step {step:?}").into()))?,
        deadline_ms: r.i("deadline")?,
        extended: r.b("extended")?,
        // Rows from before the ceiling began when they were last written.
        started_ms: match r.oi("started_at")? {
            Some(t) => t,
            None => r.i("updated_at")?,
        },
    })
}

pub(crate) const UPSERT: &str = "INSERT INTO checkout_steps (session_id, presentation_id, step, deadline, extended, updated_at, started_at) \
     VALUES ($1, $2, $3, $4, $5, $6, $7) \
     ON CONFLICT (session_id, presentation_id) DO UPDATE \
     SET step = excluded.step, deadline = excluded.deadline, extended = excluded.extended, updated_at = excluded.updated_at, \
     started_at = excluded.started_at";

/// Only live holds move: an expired one is already free for others.
pub(crate) const MOVE_HOLDS: &str = concat!(
    "UPDATE seat_claims SET expires_at = $3, updated_at = $4 \
     WHERE presentation_id = $1 AND session_id = $2 AND state = 'held' AND ",
    live_hold!("$4")
);

macro_rules! save {
    ($tx:expr, $session:expr, $presentation:expr, $s:expr, $now:expr) => {{
        sqlx::query($crate::checkout::UPSERT)
            .bind($session)
            .bind($presentation)
            .bind($s.step.as_str())
            .bind($s.deadline_ms)
            .bind($s.extended)
            .bind($now)
            .bind($s.started_ms)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        sqlx::query($crate::checkout::MOVE_HOLDS)
            .bind($presentation)
            .bind($session)
            .bind($s.deadline_ms)
            .bind($now)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?
            .rows_affected()
    }};
}

/// The seat arbiter's batch saves a new checkout beside the hold it starts with (claims.rs).
pub(crate) use save;

#[async_trait]
impl CheckoutStore for Db {
    async fn checkout_state(
        &self,
        session_id: &SessionId,
        presentation_id: PresentationId,
    ) -> StoreResult<Option<CheckoutState>> {
        fetch_optional!(
            self,
            "SELECT step, deadline, extended, started_at, updated_at FROM checkout_steps WHERE session_id = $1 AND presentation_id = $2",
            [session_id, presentation_id],
            state
        )
    }

    async fn save_checkout_state(
        &self,
        session_id: &SessionId,
        presentation_id: PresentationId,
        s: &CheckoutState,
        now_ms: i64,
    ) -> StoreResult<u64> {
        match &self.pool {
            Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let moved = save!(tx, session_id, presentation_id, s, now_ms);
                tx.commit().await.map_err(db_err)?;
                Ok(moved)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                let moved = save!(tx, session_id, presentation_id, s, now_ms);
                tx.commit().await.map_err(db_err)?;
                Ok(moved)
            }
        }
    }
}
