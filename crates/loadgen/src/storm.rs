//! The scenarios of issue 21 item 6: (f) a lock storm (lock and unlock only, many sessions,
//! across halls), (g) the best-available burst (buyers asking for the same number of seats at
//! the same instant in an empty hall), (h) many event-stream watchers on one node.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::api::{Client, Hall, PlanSeat, new_session};
use crate::events::{self, FanoutSummary, WatchCounters};
use crate::scenarios::Pool;
use crate::stats::{MsHistogram, Outcome, Recorder};

/// Scenario (f): `sessions` buyer sessions spread over the nodes and over the first `halls`
/// halls, each locking one seat of its own and unlocking it again, as fast as answers come.
/// Each session has seats of its own (no two sessions ever ask for the same seat), so every
/// refusal is the server's, not a race lost.
pub async fn lock_storm(
    addrs: &[SocketAddr],
    halls: &[Arc<Hall>],
    sessions: usize,
    hall_count: usize,
    duration: Duration,
) -> Recorder {
    let halls: Vec<Arc<Hall>> = halls.iter().take(hall_count.max(1)).cloned().collect();
    let per_hall = sessions.div_ceil(halls.len());
    let until = Instant::now() + duration;
    let mut tasks = Vec::with_capacity(sessions);
    for i in 0..sessions {
        let addr = addrs[i % addrs.len()];
        let hall = halls[i % halls.len()].clone();
        let slot = i / halls.len();
        // This session's seats: the hall's plain seats whose rank is `slot` modulo `per_hall`.
        let mine: Vec<PlanSeat> = hall
            .plan
            .seats
            .iter()
            .filter(|s| s.eligible)
            .enumerate()
            .filter(|(k, _)| k % per_hall == slot)
            .map(|(_, s)| s.clone())
            .collect();
        tasks.push(tokio::spawn(async move {
            let mut c = Client::new(addr, until);
            if mine.is_empty() {
                return c.rec;
            }
            let session = new_session(&mut c.conn).await;
            let mut k = 0;
            while Instant::now() < until {
                let seat = &mine[k % mine.len()];
                k += 1;
                if c.lock(&hall, seat, &session).await.outcome == Outcome::Ok {
                    c.unlock(&hall, seat, &session).await;
                }
            }
            c.rec
        }));
    }
    Recorder::gather(tasks).await
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct BurstOutcome {
    /// Buyers per burst, seats each, and bursts (one fresh hall each).
    pub buyers: usize,
    pub quantity: usize,
    pub bursts: usize,
    /// Buyers given `quantity` side-by-side seats (one row, consecutive x, one section).
    pub served_adjacent: u64,
    /// Buyers given seats that are not side by side.
    pub served_apart: u64,
    /// Buyers told "the best seats were just taken; try again" (409 lock_seat_error).
    pub told_try_again: u64,
    /// Buyers told there are not enough seats (a shortage code).
    pub told_sold_out: u64,
    /// Any other answer (other 4xx, 5xx, no answer).
    pub other: u64,
    /// Seats given to two buyers of one burst (must be 0).
    pub seats_given_twice: u64,
    /// Free seats left in each burst's hall afterwards, as the status shows them (first burst).
    pub seats_left_after_first: Option<u64>,
}

fn side_by_side(hall: &Hall, seats: &[PlanSeat]) -> bool {
    let mut xs: Vec<i64> = seats.iter().map(|s| s.x).collect();
    xs.sort();
    seats
        .iter()
        .all(|s| s.si == seats[0].si && s.y == seats[0].y)
        && xs.windows(2).all(|w| w[1] == w[0] + 1)
        && seats.iter().all(|s| hall.seat(s.si, s.x, s.y).is_some())
}

/// Scenario (g): `bursts` times, `buyers` new buyer sessions (spread over the nodes, each with
/// its connection open) ask best available for `quantity` seats with isLock=1 at the same
/// instant, in a fresh, empty hall.
pub async fn best_burst(
    addrs: &[SocketAddr],
    pool: &Pool,
    buyers: usize,
    quantity: usize,
    bursts: usize,
) -> (Recorder, BurstOutcome) {
    let mut rec = Recorder::default();
    let mut out = BurstOutcome {
        buyers,
        quantity,
        bursts: 0,
        ..Default::default()
    };
    for b in 0..bursts {
        let Some(hall) = pool.halls.get(b).cloned() else {
            break;
        };
        out.bursts += 1;
        let until = Instant::now() + Duration::from_secs(60);
        let barrier = Arc::new(tokio::sync::Barrier::new(buyers));
        let mut tasks = Vec::with_capacity(buyers);
        for i in 0..buyers {
            let addr = addrs[i % addrs.len()];
            let hall = hall.clone();
            let barrier = barrier.clone();
            tasks.push(tokio::spawn(async move {
                let mut c = Client::new(addr, until);
                // A session and a warm connection first, as a buyer on the seat page has.
                let session = new_session(&mut c.conn).await;
                barrier.wait().await;
                let (a, seats) = c.best_available(&hall, quantity, &session).await;
                (c.rec, a.outcome, a.code, seats)
            }));
        }
        let mut given: HashMap<(i64, i64, i64), u64> = HashMap::new();
        for t in tasks {
            let Ok((r, outcome, code, seats)) = t.await else {
                out.other += 1;
                continue;
            };
            rec.merge(r);
            match outcome {
                Outcome::Ok if seats.len() == quantity => {
                    if side_by_side(&hall, &seats) {
                        out.served_adjacent += 1;
                    } else {
                        out.served_apart += 1;
                    }
                    for s in &seats {
                        *given.entry((s.si, s.x, s.y)).or_default() += 1;
                    }
                }
                Outcome::Conflict => out.told_try_again += 1,
                Outcome::SoldOut if code.is_some() => out.told_sold_out += 1,
                _ => out.other += 1,
            }
        }
        out.seats_given_twice += given.values().filter(|&&n| n > 1).count() as u64;
        if b == 0 {
            let mut c = Client::new(addrs[0], Instant::now() + Duration::from_secs(30));
            let session = new_session(&mut c.conn).await;
            let a = c.status(&hall, &session).await;
            out.seats_left_after_first = a
                .response
                .and_then(|r| crate::api::free_seats(&hall, &r.body).ok())
                .map(|f| f.iter().filter(|&&x| x).count() as u64);
        }
    }
    (rec, out)
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WatchersOutcome {
    /// Seconds the watchers took to connect (all of them, or until the deadline).
    pub connect_seconds: f64,
    /// Seat changes the driver made per second while the watchers watched.
    pub changes_per_s: f64,
    pub changes_made: u64,
}

/// Scenario (h): `watchers` event-stream watchers of one hall on the first node, then `drivers`
/// sessions lock and unlock seats of that hall at `changes_per_s` changes a second in all for
/// `duration`; each watcher measures each message's delay.
pub async fn many_watchers(
    addr: SocketAddr,
    hall: Arc<Hall>,
    watchers: usize,
    changes_per_s: u64,
    duration: Duration,
) -> (Recorder, FanoutSummary, WatchersOutcome) {
    let counters = Arc::new(WatchCounters::default());
    let hist = Arc::new(MsHistogram::default());
    let started = Instant::now();
    let connect_by = started + Duration::from_secs(60);
    let until = connect_by + duration + Duration::from_secs(2);
    // A pool of one hall that never moves on: the watchers stay on it.
    let pool = Pool::new(vec![hall.clone()]);
    let mut tasks = Vec::with_capacity(watchers);
    for _ in 0..watchers {
        tasks.push(tokio::spawn(events::watcher(
            addr,
            pool.halls.clone(),
            pool.subscribe(),
            counters.clone(),
            hist.clone(),
            until,
        )));
        // Not all at once: the accept queue is finite.
        if tasks.len() % 500 == 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    while (counters.connected.load(Ordering::Relaxed) as usize) < watchers
        && !counters.unavailable.load(Ordering::Relaxed)
        && Instant::now() < connect_by
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let connect_seconds = crate::stats::round1(started.elapsed().as_secs_f64());
    // The driver: one session per seat it moves, paced.
    let drive_until = Instant::now() + duration;
    let made = Arc::new(AtomicU64::new(0));
    let mut c = Client::new(addr, drive_until);
    let session = new_session(&mut c.conn).await;
    let seats: Vec<PlanSeat> = hall
        .plan
        .seats
        .iter()
        .filter(|s| s.eligible)
        .take(64)
        .cloned()
        .collect();
    let gap = Duration::from_secs_f64(1.0 / changes_per_s.max(1) as f64);
    let mut next = Instant::now();
    let mut k = 0usize;
    let mut held: Option<PlanSeat> = None;
    while Instant::now() < drive_until && !seats.is_empty() {
        tokio::time::sleep_until(next.into()).await;
        next += gap;
        match held.take() {
            Some(s) => {
                if c.unlock(&hall, &s, &session).await.outcome == Outcome::Ok {
                    made.fetch_add(1, Ordering::Relaxed);
                }
            }
            None => {
                let s = seats[k % seats.len()].clone();
                k += 1;
                if c.lock(&hall, &s, &session).await.outcome == Outcome::Ok {
                    made.fetch_add(1, Ordering::Relaxed);
                    held = Some(s);
                }
            }
        }
    }
    if let Some(s) = held {
        c.unlock(&hall, &s, &session).await;
    }
    // Let the last events arrive.
    tokio::time::sleep(Duration::from_millis(1000)).await;
    for t in &tasks {
        t.abort();
    }
    let summary = counters.summary(watchers, &hist);
    let changes_made = made.load(Ordering::Relaxed);
    let outcome = WatchersOutcome {
        connect_seconds,
        changes_per_s: crate::stats::round1(changes_made as f64 / duration.as_secs_f64()),
        changes_made,
    };
    (c.rec, summary, outcome)
}

/// This process's open-file limit (soft), from /proc/self/limits; the servers it starts inherit
/// it. Ten thousand watchers need about as many descriptors here and on the server (raise it
/// with `ulimit -n` before `make bench`: the workspace forbids the unsafe call that would raise
/// it in-process).
pub fn fd_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line.split_whitespace().nth(3)?.parse().ok()
}
