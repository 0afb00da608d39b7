//! The shared server secrets, and who each buyer session holds seats for (the limits that follow
//! the buyer across sessions), and the move of a buyer's state to a rotated session id.

use async_trait::async_trait;
use kupa_app::ports::HolderStore;
use kupa_app::{StoreError, StoreResult};
use kupa_domain::ids::SessionId;
use sqlx::Row;

use crate::{Db, db_err};

impl Db {
    /// The secret called `name`, shared by every node of the database: `fresh` is stored if the
    /// name has none yet (the first node to start draws it), and the stored one is returned.
    pub async fn server_secret(
        &self,
        name: &str,
        fresh: [u8; 32],
        now_ms: i64,
    ) -> StoreResult<[u8; 32]> {
        let stored: Vec<u8> = on_pool!(self, |p| {
            sqlx::query(
                "INSERT INTO server_secrets (name, secret, created_at) VALUES ($1, $2, $3) \
                 ON CONFLICT (name) DO NOTHING",
            )
            .bind(name)
            .bind(fresh.as_slice())
            .bind(now_ms)
            .execute(p)
            .await
            .map_err(db_err)?;
            sqlx::query("SELECT secret FROM server_secrets WHERE name = $1")
                .bind(name)
                .fetch_one(p)
                .await
                .and_then(|r| r.try_get::<Vec<u8>, _>("secret"))
                .map_err(db_err)?
        });
        stored
            .try_into()
            .map_err(|_| StoreError::other(format!("the server secret {name} is not 32 bytes")))
    }
}

const LIVE_HOLDS_OF_ADDRESS: &str = concat!(
    "SELECT COUNT(*) AS n FROM seat_claims c \
     JOIN hold_owners o ON o.session_id = c.session_id \
     WHERE c.state = 'held' AND ",
    live_hold!("c", "$2"),
    " AND o.address = $1"
);
const LIVE_HOLDS_OF_CUSTOMER: &str = concat!(
    "SELECT COUNT(*) AS n FROM seat_claims c \
     JOIN hold_owners o ON o.session_id = c.session_id \
     WHERE c.state = 'held' AND ",
    live_hold!("c", "$2"),
    " AND o.customer_id = $1"
);

#[async_trait]
impl HolderStore for Db {
    async fn record_holder(
        &self,
        session_id: &SessionId,
        address: &str,
        customer_id: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "INSERT INTO hold_owners (session_id, address, customer_id, updated_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (session_id) DO UPDATE SET address = excluded.address, \
               customer_id = excluded.customer_id, updated_at = excluded.updated_at"
        )
        .bind(session_id)
        .bind(address)
        .bind(customer_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err))
    }

    async fn live_holds_of_address(&self, address: &str, now_ms: i64) -> StoreResult<i64> {
        on_pool!(self, |p| sqlx::query(LIVE_HOLDS_OF_ADDRESS)
            .bind(address)
            .bind(now_ms)
            .fetch_one(p)
            .await
            .and_then(|r| r.try_get::<i64, _>("n"))
            .map_err(db_err))
    }

    async fn live_holds_of_customer(&self, customer_id: i64, now_ms: i64) -> StoreResult<i64> {
        on_pool!(self, |p| sqlx::query(LIVE_HOLDS_OF_CUSTOMER)
            .bind(customer_id)
            .bind(now_ms)
            .fetch_one(p)
            .await
            .and_then(|r| r.try_get::<i64, _>("n"))
            .map_err(db_err))
    }

    async fn move_session(&self, from: &SessionId, to: &SessionId) -> StoreResult<()> {
        const MOVES: [&str; 5] = [
            "UPDATE seat_claims SET session_id = $2 WHERE session_id = $1",
            "UPDATE checkout_steps SET session_id = $2 WHERE session_id = $1",
            "UPDATE orders SET session_id = $2 WHERE session_id = $1",
            "UPDATE payments SET session_id = $2 WHERE session_id = $1",
            "UPDATE hold_owners SET session_id = $2 WHERE session_id = $1",
        ];
        macro_rules! move_all {
            ($tx:expr) => {{
                for sql in MOVES {
                    sqlx::query(sql)
                        .bind(from)
                        .bind(to)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                }
                $tx.commit().await.map_err(db_err)
            }};
        }
        match &self.pool {
            // IMMEDIATE: take the write lock first, as the claims do.
            crate::Pool::Sqlite(p) => {
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                move_all!(tx)
            }
            crate::Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                move_all!(tx)
            }
        }
    }
}
