//! Video on demand's playbacks (decision 0053): counted per order, spent by one statement.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::vod::{Playbacks, VodStore};
use kupa_domain::ids::ReservationId;

use crate::rows::Get;
use crate::{Db, db_err};

fn playbacks(r: &impl Get) -> Result<Playbacks, sqlx::Error> {
    Ok(Playbacks {
        count: r.i("playback_count")?,
        last_at_ms: r.oi("last_playback_at")?,
    })
}

#[async_trait]
impl VodStore for Db {
    async fn playbacks(&self, order_id: &ReservationId) -> StoreResult<Playbacks> {
        let found: Option<Playbacks> = fetch_optional!(
            self,
            "SELECT playback_count, last_playback_at FROM vod_playbacks WHERE order_id = $1",
            [order_id],
            playbacks
        )?;
        Ok(found.unwrap_or_default())
    }

    async fn spend_playback(
        &self,
        order_id: &ReservationId,
        allowance: i64,
        now_ms: i64,
    ) -> StoreResult<Option<Playbacks>> {
        // One statement decides, as a seat hold does: the first play session inserts the row, each
        // later one adds one only while fewer than the allowance are spent. Concurrent calls take
        // turns on the row (PostgreSQL's ON CONFLICT locks it and re-checks the WHERE on the
        // newest version; SQLite runs one writer at a time), so the balance is never overspent.
        fetch_optional!(
            self,
            "INSERT INTO vod_playbacks (order_id, playback_count, last_playback_at) \
             SELECT $1, 1, $2 WHERE $3 > 0 \
             ON CONFLICT (order_id) DO UPDATE SET playback_count = vod_playbacks.playback_count + 1, \
               last_playback_at = excluded.last_playback_at \
             WHERE vod_playbacks.playback_count < $3 \
             RETURNING playback_count, last_playback_at",
            [order_id, now_ms, allowance],
            playbacks
        )
    }
}
