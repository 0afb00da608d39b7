//! Scenario (d): holds that expire, and how soon watchers (event streams, or polling the seat
//! status) see the seats free again.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::Mutex;

use crate::api::{Client, Hall, PlanSeat, free_seats, new_session};
use crate::events::{self};
use crate::stats::{DelaySummary, Outcome, Recorder, delay_summary};
use kupa_http_client::{EventStream, Opened};

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ExpiryOutcome {
    /// "events" (the event stream) or "polling" (seats-statusV2 every 50 ms: the stream was
    /// unavailable).
    pub method: String,
    pub holds_asked: usize,
    pub holds_made: usize,
    pub hold_seconds: u64,
    /// How long making the holds took (the lock rates are over this).
    pub locking_seconds: f64,
    /// Seen free − the hold's expiresAt, per hold seen free.
    pub release_lag: DelaySummary,
    /// Holds not seen free within 15 s after their expiry.
    pub never_seen_released: usize,
}

struct Tracked {
    /// When the lock answered: only what was asked after it can show the hold's end.
    locked_ms: i64,
    expires_ms: i64,
    seen_ms: Option<i64>,
}

type Watched = Arc<Mutex<HashMap<(i64, i64, i64, i64), Tracked>>>;

/// Scenario (d): `holds` buyers each hold one seat for `hold_seconds`, then walk away; when does
/// each seat show free again, against its expiresAt?
pub async fn expiry(
    addrs: &[SocketAddr],
    halls: &[Arc<Hall>],
    holds: usize,
    hold_seconds: u64,
    use_events: bool,
) -> (Recorder, ExpiryOutcome) {
    // The seats: plain seats of the first halls, a few hundred a hall.
    let mut seats: Vec<(Arc<Hall>, PlanSeat)> = Vec::new();
    for h in halls {
        for s in h.plan.seats.iter().filter(|s| s.eligible) {
            if seats.len() < holds {
                seats.push((h.clone(), s.clone()));
            }
        }
    }
    let used_halls: Vec<Arc<Hall>> = {
        let mut v: Vec<Arc<Hall>> = Vec::new();
        for (h, _) in &seats {
            if !v.iter().any(|x| x.presentation_id == h.presentation_id) {
                v.push(h.clone());
            }
        }
        v
    };
    let watched: Watched = Arc::new(Mutex::new(HashMap::new()));
    let stop = Arc::new(tokio::sync::Notify::new());
    let mut observers = Vec::new();
    // Observers first: one stream per hall and node (or one poller per hall).
    for h in &used_halls {
        if use_events {
            for &addr in addrs {
                observers.push(tokio::spawn(observe_events(
                    addr,
                    h.clone(),
                    watched.clone(),
                    stop.clone(),
                )));
            }
        } else {
            observers.push(tokio::spawn(observe_polling(
                addrs[0],
                h.clone(),
                watched.clone(),
                stop.clone(),
            )));
        }
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The holds, 50 at a time.
    let locking_started = Instant::now();
    let far = Instant::now() + Duration::from_secs(3600);
    let made = Arc::new(AtomicU64::new(0));
    let seats = Arc::new(seats);
    let next = Arc::new(AtomicU64::new(0));
    let mut lockers = Vec::new();
    for w in 0..50usize {
        let addr = addrs[w % addrs.len()];
        let (seats, next, watched, made) =
            (seats.clone(), next.clone(), watched.clone(), made.clone());
        lockers.push(tokio::spawn(async move {
            let mut c = Client::new(addr, far);
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed) as usize;
                let Some((hall, seat)) = seats.get(i) else {
                    break;
                };
                let session = new_session(&mut c.conn).await;
                let a = c.lock(hall, seat, &session).await;
                if a.outcome != Outcome::Ok {
                    continue;
                }
                let Some(expires) = a
                    .response
                    .as_ref()
                    .and_then(|r| r.json()["expiresAt"].as_str().map(str::to_owned))
                    .and_then(|s| s.parse::<jiff::Timestamp>().ok())
                else {
                    continue;
                };
                made.fetch_add(1, Ordering::Relaxed);
                let key = (hall.presentation_id, seat.si, seat.x, seat.y);
                let mut w = watched.lock().await;
                w.insert(
                    key,
                    Tracked {
                        locked_ms: events::now_ms(),
                        expires_ms: expires.as_millisecond(),
                        seen_ms: None,
                    },
                );
            }
            c.rec
        }));
    }
    let rec = Recorder::gather(lockers).await;
    let locking_seconds = locking_started.elapsed().as_secs_f64();
    // Wait until every hold is seen free, or 15 s after the last expiry.
    let last_expiry = watched
        .lock()
        .await
        .values()
        .map(|t| t.expires_ms)
        .max()
        .unwrap_or(0);
    loop {
        let (done, now) = {
            let w = watched.lock().await;
            (w.values().all(|t| t.seen_ms.is_some()), events::now_ms())
        };
        if done || now > last_expiry + 15_000 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    stop.notify_waiters();
    for o in observers {
        o.abort();
    }
    let w = watched.lock().await;
    let mut lags: Vec<i64> = w
        .values()
        .filter_map(|t| t.seen_ms.map(|s| s - t.expires_ms))
        .collect();
    let never = w.values().filter(|t| t.seen_ms.is_none()).count();
    (
        rec,
        ExpiryOutcome {
            method: if use_events { "events" } else { "polling" }.into(),
            holds_asked: holds,
            holds_made: made.load(Ordering::Relaxed) as usize,
            hold_seconds,
            locking_seconds: crate::stats::round3(locking_seconds),
            release_lag: delay_summary(&mut lags),
            never_seen_released: never,
        },
    )
}

/// The seat `key` was seen free at `at`, by a look that started at `asked`.
fn mark_seen(
    w: &mut HashMap<(i64, i64, i64, i64), Tracked>,
    key: (i64, i64, i64, i64),
    asked: i64,
    at: i64,
) {
    if let Some(t) = w.get_mut(&key)
        && asked > t.locked_ms
        && t.seen_ms.is_none()
    {
        t.seen_ms = Some(at);
    }
}

async fn observe_events(
    addr: SocketAddr,
    hall: Arc<Hall>,
    watched: Watched,
    stop: Arc<tokio::sync::Notify>,
) {
    loop {
        let mut stream = match EventStream::open(addr, &events::path(hall.presentation_id)).await {
            Ok(Opened::Stream(s)) => s,
            _ => {
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        loop {
            let m = tokio::select! {
                m = stream.next() => m,
                _ = stop.notified() => return,
            };
            let Ok(m) = m else { break };
            let at = events::now_ms();
            match m.event.as_str() {
                "seats" => {
                    let v: serde_json::Value = serde_json::from_str(&m.data).unwrap_or_default();
                    let mut w = watched.lock().await;
                    for ch in v["changes"].as_array().into_iter().flatten() {
                        let state = ch["state"].as_str().unwrap_or_default();
                        if matches!(state, "released" | "expired")
                            && let (Some(si), Some(x), Some(y)) =
                                (ch["sectionId"].as_i64(), ch["x"].as_i64(), ch["y"].as_i64())
                        {
                            mark_seen(&mut w, (hall.presentation_id, si, x, y), at, at);
                        }
                    }
                }
                "resync" => {
                    // The stream lost track: read the status instead, once.
                    poll_once(addr, &hall, &watched).await;
                }
                _ => {}
            }
        }
    }
}

async fn poll_once(addr: SocketAddr, hall: &Hall, watched: &Watched) {
    let mut c = Client::new(addr, Instant::now());
    let asked = events::now_ms();
    let session = new_session(&mut c.conn).await;
    let a = c.status(hall, &session).await;
    let at = events::now_ms();
    if let Some(r) = a.response.filter(|_| a.outcome == Outcome::Ok)
        && let Ok(free) = free_seats(hall, &r.body)
    {
        let mut w = watched.lock().await;
        for (i, s) in hall.plan.seats.iter().enumerate() {
            if free[i] {
                mark_seen(&mut w, (hall.presentation_id, s.si, s.x, s.y), asked, at);
            }
        }
    }
}

async fn observe_polling(
    addr: SocketAddr,
    hall: Arc<Hall>,
    watched: Watched,
    stop: Arc<tokio::sync::Notify>,
) {
    let mut c = Client::new(addr, Instant::now());
    let session = new_session(&mut c.conn).await;
    loop {
        let asked = events::now_ms();
        let a = tokio::select! {
            a = c.status(&hall, &session) => a,
            _ = stop.notified() => return,
        };
        let at = events::now_ms();
        if let Some(r) = a.response.filter(|_| a.outcome == Outcome::Ok)
            && let Ok(free) = free_seats(&hall, &r.body)
        {
            let mut w = watched.lock().await;
            for (i, s) in hall.plan.seats.iter().enumerate() {
                if free[i] {
                    mark_seen(&mut w, (hall.presentation_id, s.si, s.x, s.y), asked, at);
                }
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
