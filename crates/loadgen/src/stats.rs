//! What each call did: latencies, successes, and the ways it failed, kept per task and merged
//! at the end of a run; plus a shared millisecond histogram for event delays.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use serde::Serialize;

/// How one answer counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Ok,
    /// The seat was taken by someone else (`lock_seat_error`, `unlock_seat_error`).
    Conflict,
    /// Not enough free seats left (best available's shortage codes, `ga_not_enough_seats`).
    SoldOut,
    /// Another 4xx (a rule of the order, a time-out of a step, …), by code.
    Rejected,
    /// A 5xx answer.
    ServerError,
    /// No answer: connection refused or reset, or no answer within the time-out.
    Transport,
}

#[derive(Default)]
pub struct CallStats {
    /// Latency of every answered call, in microseconds.
    pub latencies_us: Vec<u32>,
    pub ok: u64,
    pub conflicts: u64,
    pub sold_out: u64,
    pub rejected: u64,
    pub server_errors: u64,
    pub transport_errors: u64,
    /// Codes of rejected and 5xx answers (and transport errors' first words), with counts.
    pub codes: BTreeMap<String, u64>,
}

#[derive(Default)]
pub struct Recorder {
    pub calls: BTreeMap<&'static str, CallStats>,
}

impl Recorder {
    pub fn record(
        &mut self,
        call: &'static str,
        elapsed: Duration,
        outcome: Outcome,
        code: Option<&str>,
    ) {
        let s = self.calls.entry(call).or_default();
        if outcome != Outcome::Transport {
            s.latencies_us
                .push(elapsed.as_micros().min(u32::MAX as u128) as u32);
        }
        match outcome {
            Outcome::Ok => s.ok += 1,
            Outcome::Conflict => s.conflicts += 1,
            Outcome::SoldOut => s.sold_out += 1,
            Outcome::Rejected => s.rejected += 1,
            Outcome::ServerError => s.server_errors += 1,
            Outcome::Transport => s.transport_errors += 1,
        }
        if let Some(c) = code
            && !matches!(outcome, Outcome::Ok | Outcome::Conflict | Outcome::SoldOut)
        {
            *s.codes.entry(c.to_owned()).or_default() += 1;
        }
    }

    /// Every task's calls in one recorder (a task that panicked adds none).
    pub async fn gather(tasks: Vec<tokio::task::JoinHandle<Recorder>>) -> Recorder {
        let mut rec = Recorder::default();
        for t in tasks {
            if let Ok(r) = t.await {
                rec.merge(r);
            }
        }
        rec
    }

    pub fn merge(&mut self, other: Recorder) {
        for (k, v) in other.calls {
            let s = self.calls.entry(k).or_default();
            s.latencies_us.extend(v.latencies_us);
            s.ok += v.ok;
            s.conflicts += v.conflicts;
            s.sold_out += v.sold_out;
            s.rejected += v.rejected;
            s.server_errors += v.server_errors;
            s.transport_errors += v.transport_errors;
            for (c, n) in v.codes {
                *s.codes.entry(c).or_default() += n;
            }
        }
    }

    pub fn summary(&mut self, seconds: f64) -> BTreeMap<String, CallSummary> {
        self.calls
            .iter_mut()
            .map(|(k, s)| ((*k).to_owned(), s.summary(seconds)))
            .collect()
    }
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CallSummary {
    /// Every call made (answered or not).
    pub calls: u64,
    pub ok: u64,
    /// Successful calls per second of the run.
    pub ok_per_s: f64,
    /// All answered calls per second.
    pub answered_per_s: f64,
    /// Latency of answered calls (any status), milliseconds.
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub conflicts: u64,
    pub sold_out: u64,
    pub rejected_4xx: u64,
    pub errors_5xx: u64,
    pub transport_errors: u64,
    pub codes: BTreeMap<String, u64>,
}

impl CallStats {
    fn summary(&mut self, seconds: f64) -> CallSummary {
        self.latencies_us.sort_unstable();
        let pct = |p: f64| -> f64 {
            if self.latencies_us.is_empty() {
                return 0.0;
            }
            let i = ((self.latencies_us.len() as f64 * p).ceil() as usize)
                .clamp(1, self.latencies_us.len())
                - 1;
            self.latencies_us[i] as f64 / 1000.0
        };
        let answered = self.latencies_us.len() as u64;
        CallSummary {
            calls: answered + self.transport_errors,
            ok: self.ok,
            ok_per_s: round1(self.ok as f64 / seconds),
            answered_per_s: round1(answered as f64 / seconds),
            p50_ms: round3(pct(0.50)),
            p99_ms: round3(pct(0.99)),
            max_ms: round3(self.latencies_us.last().copied().unwrap_or(0) as f64 / 1000.0),
            conflicts: self.conflicts,
            sold_out: self.sold_out,
            rejected_4xx: self.rejected,
            errors_5xx: self.server_errors,
            transport_errors: self.transport_errors,
            codes: self.codes.clone(),
        }
    }
}

pub fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

pub fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

/// Milliseconds 0..=LIMIT, one counter each; the last counts everything at or above it.
pub struct MsHistogram {
    buckets: Vec<AtomicU64>,
}

const HISTOGRAM_LIMIT_MS: usize = 60_000;

impl Default for MsHistogram {
    fn default() -> Self {
        MsHistogram {
            buckets: (0..=HISTOGRAM_LIMIT_MS)
                .map(|_| AtomicU64::new(0))
                .collect(),
        }
    }
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DelaySummary {
    pub samples: u64,
    pub p50_ms: i64,
    pub p99_ms: i64,
    pub max_ms: i64,
    /// Samples below zero (a receive time before the emit time: clock skew), counted as 0.
    pub negative: u64,
}

impl MsHistogram {
    pub fn add(&self, ms: i64) {
        let i = (ms.max(0) as usize).min(HISTOGRAM_LIMIT_MS);
        self.buckets[i].fetch_add(1, Ordering::Relaxed);
    }

    pub fn summary(&self, negative: u64) -> DelaySummary {
        let counts: Vec<u64> = self
            .buckets
            .iter()
            .map(|b| b.load(Ordering::Relaxed))
            .collect();
        let total: u64 = counts.iter().sum();
        let at = |p: f64| -> i64 {
            if total == 0 {
                return 0;
            }
            let target = ((total as f64) * p).ceil().max(1.0) as u64;
            let mut seen = 0;
            for (i, c) in counts.iter().enumerate() {
                seen += c;
                if seen >= target {
                    return i as i64;
                }
            }
            HISTOGRAM_LIMIT_MS as i64
        };
        DelaySummary {
            samples: total,
            p50_ms: at(0.5),
            p99_ms: at(0.99),
            max_ms: counts
                .iter()
                .rposition(|&c| c > 0)
                .map(|i| i as i64)
                .unwrap_or(0),
            negative,
        }
    }
}

/// p50/p99/max of a list of millisecond values (release lags: a few hundred of them).
pub fn delay_summary(values: &mut [i64]) -> DelaySummary {
    values.sort_unstable();
    let negative = values.iter().filter(|&&v| v < 0).count() as u64;
    let at = |p: f64| -> i64 {
        if values.is_empty() {
            return 0;
        }
        let i = ((values.len() as f64 * p).ceil() as usize).clamp(1, values.len()) - 1;
        values[i]
    };
    DelaySummary {
        samples: values.len() as u64,
        p50_ms: at(0.5),
        p99_ms: at(0.99),
        max_ms: values.last().copied().unwrap_or(0),
        negative,
    }
}
