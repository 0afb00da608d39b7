//! One screening's own settings and a move's seats onto another plan (decision 0070): its ticket
//! group (while nothing of it is held or sold), a channel closed to it, and the claims and live
//! tickets of a sold screening moved to their places of the same name in the new plan, in the
//! move's transaction. Every write raises `catalogue_version` and records its audit row, as the
//! programme's other writes (`programme.rs`).

use kupa_app::error::StoreResult;
use kupa_app::ports::SeatAddress;
use kupa_app::programme::*;
use kupa_app::sales_switches::SaleChannel;
use kupa_domain::ids::PresentationId;

use crate::programme_macros::{bump_version, record, snapshot};
use crate::rows::Get;
use crate::{BeginWrite, Db, db_err};

type R<T> = Result<T, sqlx::Error>;

/// Moves the live claims and tickets of presentation `$id` to their places in `$remap` (an
/// `Option<&SeatRemap>`), on transaction `$tx`: a `Result` of the claims moved and the expired
/// holds deleted, or (nothing written) the places held or sold, or of a paid ticket, that have
/// no place there. A ticket of an order not paid whose seat has no place keeps its old one: its
/// holds are gone, so it can never be paid.
macro_rules! remap_in {
    ($tx:expr, $id:expr, $remap:expr, $now:expr) => {{
        use $crate::rows::Get as _;
        let remap: Option<&SeatRemap> = $remap;
        let now: i64 = $now;
        let place = |p: SeatAddress| remap.and_then(|r| r.place(p));
        let claims = sqlx::query(
            concat!("SELECT section_id, x, y, state, session_id, expires_at FROM seat_claims \
             WHERE presentation_id = $1 AND (state = 'sold' OR ", live_hold!("$2"), ") ORDER BY section_id, y, x"),
        )
        .bind($id)
        .bind(now)
        .fetch_all(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
        let tickets = sqlx::query(
            "SELECT DISTINCT ot.section_id, ot.x, ot.y, CAST(CASE WHEN o.status = 'paid' THEN 1 ELSE 0 END AS BIGINT) AS paid \
             FROM order_tickets ot JOIN orders o ON o.id = ot.order_id \
             WHERE ot.presentation_id = $1 AND ot.cancelled_at IS NULL",
        )
        .bind($id)
        .fetch_all(&mut *$tx)
        .await
        .map_err($crate::db_err)?;
        let mut remapped: Vec<RemappedClaim> = Vec::new();
        let mut missing: Vec<SeatAddress> = Vec::new();
        for c in &claims {
            let from = SeatAddress::new(
                c.i("section_id").map_err($crate::db_err)?,
                c.i("x").map_err($crate::db_err)?,
                c.i("y").map_err($crate::db_err)?,
            );
            match place(from) {
                Some(to) => remapped.push(RemappedClaim {
                    from,
                    to,
                    sold: c.s("state").map_err($crate::db_err)? == "sold",
                    session: c.s("session_id").map_err($crate::db_err)?.into(),
                    expires_at_ms: c.i("expires_at").map_err($crate::db_err)?,
                }),
                None => missing.push(from),
            }
        }
        let mut ticket_moves: Vec<(SeatAddress, SeatAddress)> = Vec::new();
        for t in &tickets {
            let from = SeatAddress::new(
                t.i("section_id").map_err($crate::db_err)?,
                t.i("x").map_err($crate::db_err)?,
                t.i("y").map_err($crate::db_err)?,
            );
            match place(from) {
                Some(to) => ticket_moves.push((from, to)),
                None if t.i("paid").map_err($crate::db_err)? == 1 => missing.push(from),
                None => {}
            }
        }
        if missing.is_empty() {
            let expired = sqlx::query(
                concat!("DELETE FROM seat_claims WHERE presentation_id = $1 AND state = 'held' AND ", expired_hold!("$2"), " \
                 RETURNING section_id, x, y"),
            )
            .bind($id)
            .bind(now)
            .fetch_all(&mut *$tx)
            .await
            .map_err($crate::db_err)?
            .iter()
            .map(|r| Ok(SeatAddress::new(r.i("section_id")?, r.i("x")?, r.i("y")?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()
            .map_err($crate::db_err)?;
            // Sections are numbered across all plans: an old place and a new one never share a key.
            for c in &remapped {
                sqlx::query(
                    "UPDATE seat_claims SET section_id = $5, x = $6, y = $7, updated_at = $8 \
                     WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4",
                )
                .bind($id)
                .bind(c.from.section_id)
                .bind(c.from.x)
                .bind(c.from.y)
                .bind(c.to.section_id)
                .bind(c.to.x)
                .bind(c.to.y)
                .bind(now)
                .execute(&mut *$tx)
                .await
                .map_err($crate::db_err)?;
            }
            for (from, to) in &ticket_moves {
                sqlx::query(
                    "UPDATE order_tickets SET section_id = $5, x = $6, y = $7, \
                     section_name = COALESCE((SELECT name FROM sections WHERE id = $5), section_name), \
                     section_name_en = COALESCE((SELECT name_en FROM sections WHERE id = $5), section_name_en) \
                     WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 AND cancelled_at IS NULL",
                )
                .bind($id)
                .bind(from.section_id)
                .bind(from.x)
                .bind(from.y)
                .bind(to.section_id)
                .bind(to.x)
                .bind(to.y)
                .execute(&mut *$tx)
                .await
                .map_err($crate::db_err)?;
            }
            Ok((remapped, expired))
        } else {
            missing.sort_by_key(|p| (p.section_id, p.y, p.x));
            missing.dedup();
            Err(missing)
        }
    }};
}
pub(crate) use remap_in;

/// The screenings closed to a channel, for the catalogue (through its cache).
pub(crate) async fn closures(db: &Db) -> StoreResult<Vec<(PresentationId, SaleChannel)>> {
    crate::on_pool!(db, |p| {
        let rows = sqlx::query(
            "SELECT presentation_id, channel FROM screening_channel_closures ORDER BY presentation_id, channel",
        )
        .fetch_all(p)
        .await
        .map_err(db_err)?;
        let mut out = Vec::new();
        for r in &rows {
            if let Some(c) = SaleChannel::parse(&r.s("channel").map_err(db_err)?) {
                out.push((r.p("presentation_id").map_err(db_err)?, c));
            }
        }
        Ok(out)
    })
}

pub(crate) async fn claimed_places(
    db: &Db,
    id: PresentationId,
    now_ms: i64,
) -> StoreResult<Vec<SeatAddress>> {
    crate::on_pool!(db, |p| {
        sqlx::query(concat!(
            "SELECT section_id, x, y FROM seat_claims \
             WHERE presentation_id = $1 AND (state = 'sold' OR ",
            live_hold!("$2"),
            ")"
        ))
        .bind(id)
        .bind(now_ms)
        .fetch_all(p)
        .await
        .map_err(db_err)?
        .iter()
        .map(|r| Ok(SeatAddress::new(r.i("section_id")?, r.i("x")?, r.i("y")?)))
        .collect::<R<Vec<_>>>()
        .map_err(db_err)
    })
}

macro_rules! set_group_in {
    ($tx:expr, $lock:expr, $id:expr, $group:expr, $by:expr) => {{
        let by: Change = $by;
        bump_version!($tx);
        // On PostgreSQL the row lock makes a seat claim (its foreign key) wait for the change.
        let cancelled: Option<Option<i64>> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
            "SELECT cancelled_at FROM presentations WHERE id = $1{}",
            $lock
        )))
        .bind($id)
        .fetch_optional(&mut *$tx)
        .await
        .map_err(db_err)?;
        match cancelled {
            None | Some(Some(_)) => TicketGroupSet::Gone,
            Some(None) => {
                // Sold: the seats sold, or the paid tickets (a paid seat is both; either says so).
                let counts = sqlx::query(
                    concat!("SELECT (SELECT COUNT(*) FROM seat_claims WHERE presentation_id = $1 AND state = 'sold') AS sold, \
                     (SELECT COUNT(*) FROM order_tickets ot JOIN orders o ON o.id = ot.order_id \
                      WHERE ot.presentation_id = $1 AND ot.cancelled_at IS NULL AND o.status = 'paid') AS paid, \
                     (SELECT COUNT(*) FROM seat_claims WHERE presentation_id = $1 AND state = 'held' AND ", live_hold!("$2"), ") AS held"),
                )
                .bind($id)
                .bind(by.at_ms)
                .fetch_one(&mut *$tx)
                .await
                .map_err(db_err)?;
                let (sold, held) = (
                    counts
                        .i("sold")
                        .map_err(db_err)?
                        .max(counts.i("paid").map_err(db_err)?),
                    counts.i("held").map_err(db_err)?,
                );
                if sold + held > 0 {
                    TicketGroupSet::HasSales { sold, held }
                } else {
                    let before = snapshot!($tx, $id);
                    sqlx::query("UPDATE presentations SET ticket_group_id = $2 WHERE id = $1")
                        .bind($id)
                        .bind($group)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                    let after = snapshot!($tx, $id);
                    record!($tx, $id, "ticketGroup", by, Some(before), after);
                    TicketGroupSet::Done
                }
            }
        }
    }};
}

pub(crate) async fn set_ticket_group(
    db: &Db,
    id: PresentationId,
    group: Option<i64>,
    by: Change,
) -> StoreResult<TicketGroupSet> {
    let lock = db.on_postgres(" FOR UPDATE");
    crate::on_pool!(db, |p| {
        let mut tx = p.begin_write().await.map_err(db_err)?;
        let set = set_group_in!(tx, lock, id, group, by);
        tx.commit().await.map_err(db_err)?;
        Ok(set)
    })
}

pub(crate) async fn set_screening_channel(
    db: &Db,
    id: PresentationId,
    channel: SaleChannel,
    open: bool,
    by: Change,
) -> StoreResult<Option<()>> {
    crate::on_pool!(db, |p| {
        let mut tx = p.begin_write().await.map_err(db_err)?;
        bump_version!(tx);
        let exists: Option<i64> = sqlx::query_scalar("SELECT id FROM presentations WHERE id = $1")
            .bind(id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
        if exists.is_none() {
            return Ok(None);
        }
        let was_closed: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM screening_channel_closures WHERE presentation_id = $1 AND channel = $2",
        )
        .bind(id)
        .bind(channel.as_str())
        .fetch_one(&mut *tx)
        .await
        .map_err(db_err)?;
        if open {
            sqlx::query(
                "DELETE FROM screening_channel_closures WHERE presentation_id = $1 AND channel = $2",
            )
            .bind(id)
            .bind(channel.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        } else {
            sqlx::query(
                "INSERT INTO screening_channel_closures (presentation_id, channel) VALUES ($1, $2) \
                 ON CONFLICT (presentation_id, channel) DO NOTHING",
            )
            .bind(id)
            .bind(channel.as_str())
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        }
        let doc = |open: bool| {
            serde_json::json!({ "presentationId": id, "channel": channel.as_str(), "open": open })
                .to_string()
        };
        record!(
            tx,
            id,
            "screeningChannel",
            by,
            Some(doc(was_closed == 0)),
            doc(open)
        );
        tx.commit().await.map_err(db_err)?;
        Ok(Some(()))
    })
}
