//! The scenarios of issue 5 item 5: (a) the hot on-sale, (b) steady browsing, (c) watchers of
//! the event stream during an on-sale, (d) holds that expire.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tokio::sync::watch;

use crate::api::{self, Client, Hall, PlanSeat, candidate_blocks, free_seats, new_session};
use crate::events::{self, FanoutSummary, WatchCounters};
use crate::stats::{MsHistogram, Outcome, Recorder};

/// The fresh halls of a run and the one the buyers are selling now.
pub struct Pool {
    pub halls: Arc<Vec<Arc<Hall>>>,
    current: watch::Sender<usize>,
}

impl Pool {
    pub fn new(halls: Vec<Arc<Hall>>) -> Pool {
        Pool {
            halls: Arc::new(halls),
            current: watch::Sender::new(0),
        }
    }

    pub fn current(&self) -> Option<(usize, Arc<Hall>)> {
        let i = *self.current.borrow();
        self.halls.get(i).map(|h| (i, h.clone()))
    }

    /// The hall `i` has (nearly) no seats left: everyone moves on to the next one.
    pub fn sold_out(&self, i: usize) {
        self.current.send_if_modified(|v| {
            if *v == i {
                *v += 1;
                true
            } else {
                false
            }
        });
    }

    pub fn used(&self) -> usize {
        (*self.current.borrow() + 1).min(self.halls.len())
    }

    pub fn exhausted(&self) -> bool {
        *self.current.borrow() >= self.halls.len()
    }

    pub fn subscribe(&self) -> watch::Receiver<usize> {
        self.current.subscribe()
    }
}

#[derive(Clone, Copy)]
pub struct Mix {
    pub commit: f64,
    pub unlock: f64,
    /// Share of buyers who pick their seats on the map (the rest ask best available).
    pub manual: f64,
}

pub const ON_SALE_MIX: Mix = Mix {
    commit: 0.7,
    unlock: 0.1,
    manual: 0.5,
};

#[derive(Default)]
struct BuyerOut {
    rec: Recorder,
    seats_sold: u64,
    orders: u64,
    failed_orders: u64,
    seats_locked: u64,
    seats_unlocked: u64,
    seats_left_to_expire: u64,
    reservations: Vec<String>,
    failure_reasons: HashMap<String, u64>,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OnSaleOutcome {
    pub seconds: f64,
    pub buyers: usize,
    /// Seats held by lock-seat or best available during the run, per second.
    pub seats_locked: u64,
    pub seats_locked_per_s: f64,
    /// Seats the buyers were told were sold (commit answered a reservation).
    pub seats_sold: u64,
    pub orders_committed: u64,
    pub orders_committed_per_s: f64,
    /// Orders whose cart, payment or commit failed (the seats were then released).
    pub orders_failed: u64,
    pub order_failure_reasons: HashMap<String, u64>,
    pub seats_unlocked: u64,
    pub seats_left_to_expire: u64,
    pub halls_used: usize,
    pub halls_available: usize,
    /// The run used up every fresh hall before its time was over.
    pub halls_exhausted: bool,
}

/// Scenario (a): `buyers` concurrent buyers, spread over the nodes, each a new buyer session per
/// order: lock 1–4 side-by-side seats (picked on the status map, or best available), then commit
/// (70 %), unlock (10 %) or walk away and let the hold expire (20 %).
pub async fn on_sale(
    addrs: &[SocketAddr],
    pool: Arc<Pool>,
    buyers: usize,
    duration: Duration,
    mix: Mix,
) -> (Recorder, OnSaleOutcome, Vec<String>) {
    let start = Instant::now();
    let until = start + duration;
    let expiry = Arc::new(api::card_expiry());
    let mut tasks = Vec::with_capacity(buyers);
    for i in 0..buyers {
        let addr = addrs[i % addrs.len()];
        let pool = pool.clone();
        let expiry = expiry.clone();
        tasks.push(tokio::spawn(async move {
            on_sale_buyer(addr, pool, until, mix, &expiry).await
        }));
    }
    let mut all = BuyerOut::default();
    for t in tasks {
        if let Ok(o) = t.await {
            all.rec.merge(o.rec);
            all.seats_sold += o.seats_sold;
            all.orders += o.orders;
            all.failed_orders += o.failed_orders;
            all.seats_locked += o.seats_locked;
            all.seats_unlocked += o.seats_unlocked;
            all.seats_left_to_expire += o.seats_left_to_expire;
            all.reservations.extend(o.reservations);
            for (k, v) in o.failure_reasons {
                *all.failure_reasons.entry(k).or_default() += v;
            }
        }
    }
    // Rates are over the planned length; a run that ran out of halls says so.
    let seconds = duration.as_secs_f64();
    let outcome = OnSaleOutcome {
        seconds,
        buyers,
        seats_locked: all.seats_locked,
        seats_locked_per_s: crate::stats::round1(all.seats_locked as f64 / seconds),
        seats_sold: all.seats_sold,
        orders_committed: all.orders,
        orders_committed_per_s: crate::stats::round1(all.orders as f64 / seconds),
        orders_failed: all.failed_orders,
        order_failure_reasons: all.failure_reasons,
        seats_unlocked: all.seats_unlocked,
        seats_left_to_expire: all.seats_left_to_expire,
        halls_used: pool.used(),
        halls_available: pool.halls.len(),
        halls_exhausted: pool.exhausted(),
    };
    (all.rec, outcome, all.reservations)
}

fn rng() -> SmallRng {
    SmallRng::from_rng(&mut rand::rng())
}

async fn on_sale_buyer(
    addr: SocketAddr,
    pool: Arc<Pool>,
    until: Instant,
    mix: Mix,
    expiry: &str,
) -> BuyerOut {
    let mut rng = rng();
    let mut c = Client::new(addr, until);
    let mut out = BuyerOut::default();
    let mut session = new_session(&mut c.conn).await;
    while Instant::now() < until {
        let Some((idx, hall)) = pool.current() else {
            break;
        };
        let n = rng.random_range(1..=4usize);
        let mut held: Vec<PlanSeat> = Vec::new();
        let mut try_best = true;
        if rng.random_bool(mix.manual) {
            let a = c.status(&hall, &session).await;
            let Some(r) = a.response.filter(|_| a.outcome == Outcome::Ok) else {
                continue;
            };
            let Ok(free) = free_seats(&hall, &r.body) else {
                continue;
            };
            let eligible_free = free
                .iter()
                .zip(&hall.plan.seats)
                .filter(|(f, s)| **f && s.eligible)
                .count();
            if eligible_free < 4 {
                pool.sold_out(idx);
                continue;
            }
            let blocks = candidate_blocks(&hall.plan, &free, n);
            if !blocks.is_empty() {
                try_best = false;
                let (ri, first) = blocks[rng.random_range(0..blocks.len())];
                let row = &hall.plan.rows[ri];
                let mut failed = false;
                for &k in &row[first..first + n] {
                    let seat = &hall.plan.seats[k];
                    let a = c.lock(&hall, seat, &session).await;
                    if a.outcome == Outcome::Ok {
                        held.push(seat.clone());
                    } else {
                        failed = true;
                        break;
                    }
                }
                if failed {
                    // Someone was faster: let go of the rest and look again.
                    for s in &held {
                        c.unlock(&hall, s, &session).await;
                    }
                    out.seats_locked += held.len() as u64;
                    out.seats_unlocked += held.len() as u64;
                    continue;
                }
            }
        }
        if try_best {
            let (a, seats) = c.best_available(&hall, n, &session).await;
            match a.outcome {
                Outcome::Ok => held = seats,
                Outcome::SoldOut if a.code.is_some() => {
                    pool.sold_out(idx);
                    continue;
                }
                _ => continue,
            }
        }
        out.seats_locked += held.len() as u64;
        if Instant::now() >= until {
            break;
        }
        let roll: f64 = rng.random();
        if roll < mix.commit {
            match c.buy(&hall, &held, &session, expiry).await {
                Ok(res) => {
                    out.seats_sold += held.len() as u64;
                    out.orders += 1;
                    out.reservations.push(res);
                }
                Err(e) => {
                    out.failed_orders += 1;
                    let reason: String = e.to_string().chars().take(80).collect();
                    *out.failure_reasons.entry(reason).or_default() += 1;
                    for s in &held {
                        c.unlock(&hall, s, &session).await;
                    }
                    out.seats_unlocked += held.len() as u64;
                }
            }
        } else if roll < mix.commit + mix.unlock {
            for s in &held {
                c.unlock(&hall, s, &session).await;
            }
            out.seats_unlocked += held.len() as u64;
        } else {
            out.seats_left_to_expire += held.len() as u64;
        }
        // The next order is another buyer's.
        session = new_session(&mut c.conn).await;
    }
    out.rec = std::mem::take(&mut c.rec);
    out
}

/// Scenario (b): browsers on the first few halls: 95 % reads (the seat map and the seat status,
/// half each), 5 % locks of a free seat (each browser holds at most one, unlocking the last).
/// With `compact`, the status is read in the compact form, each browser sending the version of
/// its last answer as `since` and applying the changes (decision 0060).
pub async fn browsing(
    addrs: &[SocketAddr],
    halls: &[Arc<Hall>],
    browsers: usize,
    duration: Duration,
    compact: bool,
) -> Recorder {
    let until = Instant::now() + duration;
    let halls: Vec<Arc<Hall>> = halls.iter().take(8).cloned().collect();
    let mut tasks = Vec::new();
    for i in 0..browsers {
        let addr = addrs[i % addrs.len()];
        let hall = halls[i % halls.len()].clone();
        tasks.push(tokio::spawn(async move {
            let mut rng = rng();
            let mut c = Client::new(addr, until);
            let session = new_session(&mut c.conn).await;
            let mut last_status: Option<Vec<u8>> = None;
            let mut view = api::CompactView::default();
            let mut held: Option<PlanSeat> = None;
            while Instant::now() < until {
                if rng.random_bool(0.95) {
                    if rng.random_bool(0.5) {
                        c.seat_map(&hall, &session).await;
                    } else if compact {
                        let path = view.path(&hall);
                        let a = c.call("seat-status", "GET", &path, &session, None).await;
                        if let Some(r) = a.response.filter(|_| a.outcome == Outcome::Ok) {
                            view.apply(&r.body);
                        }
                    } else {
                        let a = c.status(&hall, &session).await;
                        if let Some(r) = a.response.filter(|_| a.outcome == Outcome::Ok) {
                            last_status = Some(r.body);
                        }
                    }
                    continue;
                }
                let free = if compact {
                    match view.free(&hall) {
                        Some(f) => f,
                        None => continue,
                    }
                } else {
                    let Some(body) = &last_status else { continue };
                    let Ok(free) = free_seats(&hall, body) else {
                        continue;
                    };
                    free
                };
                let choices: Vec<usize> = (0..free.len())
                    .filter(|&i| free[i] && hall.plan.seats[i].eligible)
                    .collect();
                if choices.is_empty() {
                    continue;
                }
                let seat = hall.plan.seats[choices[rng.random_range(0..choices.len())]].clone();
                if let Some(old) = held.take() {
                    c.unlock(&hall, &old, &session).await;
                }
                if c.lock(&hall, &seat, &session).await.outcome == Outcome::Ok {
                    held = Some(seat);
                }
            }
            c.rec
        }));
    }
    Recorder::gather(tasks).await
}

/// Scenario (c): `watchers` subscribers of the event stream (spread over the nodes, following
/// the hall being sold) while `buyers` run the on-sale.
pub async fn fanout(
    addrs: &[SocketAddr],
    pool: Arc<Pool>,
    buyers: usize,
    watchers: usize,
    duration: Duration,
) -> (Recorder, OnSaleOutcome, Vec<String>, FanoutSummary) {
    let counters = Arc::new(WatchCounters::default());
    let hist = Arc::new(MsHistogram::default());
    // The watchers subscribe first (within 10 s), then the sale starts.
    let connect_by = Instant::now() + Duration::from_secs(10);
    let until = connect_by + duration + Duration::from_secs(1);
    let mut tasks = Vec::new();
    for i in 0..watchers {
        let addr = addrs[i % addrs.len()];
        tasks.push(tokio::spawn(events::watcher(
            addr,
            pool.halls.clone(),
            pool.subscribe(),
            counters.clone(),
            hist.clone(),
            until,
        )));
    }
    while (counters.connected.load(Ordering::Relaxed) as usize) < watchers
        && !counters.unavailable.load(Ordering::Relaxed)
        && Instant::now() < connect_by
    {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let (rec, outcome, reservations) =
        on_sale(addrs, pool.clone(), buyers, duration, ON_SALE_MIX).await;
    // Let the last events arrive.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for t in &tasks {
        t.abort();
    }
    let summary = counters.summary(watchers, &hist);
    (rec, outcome, reservations, summary)
}

pub use crate::expiry::{ExpiryOutcome, expiry};
