//! Seat events across nodes on PostgreSQL (decision 0010): each node NOTIFYs what it published
//! and LISTENs, on one connection, for what the others did.
//!
//! Payloads are JSON `{"node": "...", "events": [SeatEvent, ...]}`, batched (while one NOTIFY is
//! on its way the next events gather) and cut below PostgreSQL's 8000-byte limit. A node skips its
//! own payloads: its watchers heard those already. When the listening connection is lost,
//! notifications sent meanwhile are gone for good, so the node asks its watchers to reload the
//! status (`on_gap`) as soon as it listens again.

use std::time::Duration;

use kupa_app::seat_events::SeatEvent;
use sqlx::postgres::{PgListener, PgPool};
use tokio::sync::mpsc;

use crate::{Db, Pool};

pub const CHANNEL: &str = "kupa_seat_events";
/// Below PostgreSQL's 8000-byte NOTIFY payload limit, with room for the envelope.
const MAX_PAYLOAD: usize = 7_600;
/// Events taken into one batch at most.
const MAX_BATCH: usize = 512;

#[derive(serde::Serialize, serde::Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    node: &'a str,
    events: Vec<SeatEvent>,
}

/// The pool of a PostgreSQL database (None on SQLite: one node, nothing to relay).
pub fn postgres_pool(db: &Db) -> Option<PgPool> {
    match &db.pool {
        Pool::Postgres(p) => Some(p.clone()),
        Pool::Sqlite(_) => None,
    }
}

/// Cuts a batch into payloads that each fit a NOTIFY. An event too big on its own (a sweep of
/// hundreds of seats) is split by its changes.
pub fn payloads(node: &str, batch: Vec<SeatEvent>) -> Vec<String> {
    let mut events: Vec<SeatEvent> = Vec::new();
    for e in batch {
        if serde_json::to_string(&e).map(|s| s.len()).unwrap_or(0) + node.len() + 40 > MAX_PAYLOAD {
            for chunk in e.changes.chunks(100) {
                events.push(SeatEvent {
                    presentation_id: e.presentation_id,
                    emitted_at_ms: e.emitted_at_ms,
                    changes: chunk.to_vec(),
                });
            }
        } else {
            events.push(e);
        }
    }
    let mut out = Vec::new();
    let mut current: Vec<SeatEvent> = Vec::new();
    let mut size = node.len() + 30;
    for e in events {
        let len = serde_json::to_string(&e).map(|s| s.len()).unwrap_or(0) + 1;
        if !current.is_empty() && size + len > MAX_PAYLOAD {
            out.push(envelope(node, std::mem::take(&mut current)));
            size = node.len() + 30;
        }
        size += len;
        current.push(e);
    }
    if !current.is_empty() {
        out.push(envelope(node, current));
    }
    out
}

fn envelope(node: &str, events: Vec<SeatEvent>) -> String {
    serde_json::to_string(&Envelope { node, events }).expect("seat events serialise")
}

/// Reads a payload; None for another node's payload that cannot be read, or this node's own.
pub fn parse(node: &str, payload: &str) -> Option<Vec<SeatEvent>> {
    match serde_json::from_str::<Envelope>(payload) {
        Ok(e) if e.node == node => None,
        Ok(e) => Some(e.events),
        Err(err) => {
            tracing::warn!(error = %err, "unreadable seat event notification skipped");
            None
        }
    }
}

/// Sends this node's events to the others until the hub goes away, on a connection of its own:
/// in a rush the pool's connections are all busy with buyers, and events waiting in line behind
/// them would reach the other nodes seconds late.
pub async fn run_notifier(pool: PgPool, node: String, mut rx: mpsc::Receiver<SeatEvent>) {
    use sqlx::Connection;
    let options = pool.connect_options();
    let mut conn: Option<sqlx::PgConnection> = None;
    while let Some(first) = rx.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(e) => batch.push(e),
                Err(_) => break,
            }
        }
        for payload in payloads(&node, batch) {
            // One reconnection per payload at most; then the payload is given up.
            for attempt in 0..2 {
                if conn.is_none() {
                    match sqlx::PgConnection::connect_with(&options).await {
                        Ok(c) => conn = Some(c),
                        Err(e) => {
                            tracing::warn!(error = %e, "cannot connect to send seat events to the other nodes");
                            break;
                        }
                    }
                }
                let Some(c) = conn.as_mut() else { break };
                match sqlx::query("SELECT pg_notify($1, $2)")
                    .bind(CHANNEL)
                    .bind(&payload)
                    .execute(&mut *c)
                    .await
                {
                    Ok(_) => break,
                    Err(e) => {
                        conn = None;
                        if attempt == 1 {
                            // The other nodes' maps miss these changes until their next status
                            // poll; the seats themselves are safe in the database.
                            tracing::warn!(error = %e, "seat events not sent to the other nodes");
                        }
                    }
                }
            }
        }
    }
}

/// Hears the other nodes' events for ever, reconnecting after a lost connection; `on_gap` runs
/// each time it listens again after a loss.
pub async fn run_listener(
    pool: PgPool,
    node: String,
    on_event: impl Fn(SeatEvent) + Send,
    on_gap: impl Fn() + Send,
) {
    // A pool of its own, of one connection: the listener neither takes one of the buyers'
    // connections nor waits behind them to reconnect.
    let own = sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .max_lifetime(None)
        .idle_timeout(None)
        .connect_lazy_with((*pool.connect_options()).clone());
    let mut first = true;
    loop {
        let mut listener = match PgListener::connect_with(&own).await {
            Ok(l) => l,
            Err(e) => {
                tracing::warn!(error = %e, "cannot listen for other nodes' seat events; retrying");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        if let Err(e) = listener.listen(CHANNEL).await {
            tracing::warn!(error = %e, "cannot listen for other nodes' seat events; retrying");
            tokio::time::sleep(Duration::from_secs(1)).await;
            continue;
        }
        if !first {
            tracing::info!("listening for other nodes' seat events again");
            on_gap();
        }
        first = false;
        loop {
            match listener.try_recv().await {
                Ok(Some(n)) => {
                    for e in parse(&node, n.payload()).unwrap_or_default() {
                        on_event(e);
                    }
                }
                // The connection was lost; the next call reconnects (and re-listens).
                Ok(None) => {
                    tracing::warn!("lost the connection that hears other nodes' seat events");
                    on_gap();
                }
                Err(e) => {
                    tracing::warn!(error = %e, "hearing other nodes' seat events failed; reconnecting");
                    on_gap();
                    break;
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kupa_app::ports::SeatAddress;
    use kupa_app::seat_events::SeatChangeKind;
    use kupa_domain::ids::PresentationId;

    fn event(p: i64, seats: i64) -> SeatEvent {
        SeatEvent::new(
            PresentationId(p),
            SeatChangeKind::Held,
            (0..seats).map(|x| SeatAddress {
                section_id: 1,
                x,
                y: 1,
            }),
        )
    }

    #[test]
    fn payloads_fit_a_notify_and_keep_every_change() {
        let batch: Vec<SeatEvent> = (0..300)
            .map(|p| event(p, 3))
            .chain([event(999, 700)])
            .collect();
        let out = payloads("node-a", batch);
        assert!(out.len() > 1);
        let mut changes = 0;
        for p in &out {
            assert!(p.len() < 8000, "payload of {} bytes", p.len());
            assert!(
                parse("node-a", p).is_none(),
                "a node skips its own payloads"
            );
            changes += parse("node-b", p)
                .unwrap()
                .iter()
                .map(|e| e.changes.len())
                .sum::<usize>();
        }
        assert_eq!(changes, 300 * 3 + 700);
    }
}
