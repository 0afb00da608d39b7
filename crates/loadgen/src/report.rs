//! The results: one JSON file per scenario (bench/results/<date>-<scenario>.json), and a
//! readable table printed and appended to bench/results/<date>-summary.md.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use serde::Serialize;

use crate::check::Checks;
use crate::events::FanoutSummary;
use crate::scenarios::{ExpiryOutcome, OnSaleOutcome};
use crate::server::Memory;
use crate::stats::CallSummary;
use crate::storm::{BurstOutcome, WatchersOutcome};

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    /// on-sale, browsing, fanout, expiry
    pub scenario: String,
    /// sqlite-1-node, postgres-2-nodes
    pub target: String,
    pub nodes: usize,
    /// What drove it, in words ("256 buyers").
    pub load: String,
    pub seconds: f64,
    pub calls: BTreeMap<String, CallSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_sale: Option<OnSaleOutcome>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fanout: Option<FanoutSummary>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expiry: Option<ExpiryOutcome>,
    /// Scenario (g): how the buyers of the best-available bursts were answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub burst: Option<BurstOutcome>,
    /// Scenario (h): how the watchers connected and what they were sent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub watchers: Option<WatchersOutcome>,
    /// Whether GET /api/seats/events answered with an event stream.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub events_available: Option<bool>,
    pub memory: Vec<Memory>,
    /// CPU seconds used during the run by each server node and by the load generator: on two
    /// shared cores, what the client and other work took is not the server's.
    pub cpu: Cpu,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub checks: Option<Checks>,
    /// Why the run has no figures, or what to know about them.
    pub notes: Vec<String>,
    pub error: Option<String>,
}

impl RunResult {
    pub fn new(scenario: &str, target: &str, nodes: usize, load: String) -> RunResult {
        RunResult {
            scenario: scenario.into(),
            target: target.into(),
            nodes,
            load,
            seconds: 0.0,
            calls: BTreeMap::new(),
            on_sale: None,
            fanout: None,
            expiry: None,
            burst: None,
            watchers: None,
            events_available: None,
            memory: Vec::new(),
            cpu: Cpu::default(),
            checks: None,
            notes: Vec::new(),
            error: None,
        }
    }

    fn call(&self, name: &str) -> Option<&CallSummary> {
        self.calls.get(name)
    }

    fn peak_mib(&self) -> Option<f64> {
        self.memory.iter().map(|m| m.peak_rss_mib).reduce(f64::max)
    }
}

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Cpu {
    pub server_seconds: Vec<f64>,
    pub loadgen_seconds: f64,
    /// The machine's load averages (1, 5, 15 min) just before the run.
    pub load_average_before: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScenarioFile<'a> {
    pub scenario: &'a str,
    pub date: String,
    pub generated_at: String,
    pub commit: Option<String>,
    pub mode: &'a str,
    pub machine: Machine,
    pub settings: serde_json::Value,
    pub runs: Vec<&'a RunResult>,
}

#[derive(Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Machine {
    pub cpus: usize,
    pub loadgen_threads: usize,
}

pub fn write_scenario_file(dir: &Path, file: &ScenarioFile) -> anyhow::Result<std::path::PathBuf> {
    std::fs::create_dir_all(dir)?;
    let path = dir.join(format!("{}-{}.json", file.date, file.scenario));
    std::fs::write(&path, serde_json::to_string_pretty(file)? + "\n")?;
    Ok(path)
}

fn f(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

fn rate_p99(c: Option<&CallSummary>) -> String {
    match c {
        Some(c) => format!("{} ({} ms)", f(c.ok_per_s), f(c.p99_ms)),
        None => "–".into(),
    }
}

/// The headline table: one row per run.
pub fn headline(runs: &[RunResult]) -> String {
    let mut out = String::new();
    out.push_str("| scenario | target | load | lock-seat ok/s | lock-seat p50 / p99 / max ms | best-available ok/s (p99) | seats locked/s | seat-status ok/s (p99) | commits/s (p99) | conflicts | 5xx / no answer | seats sold | double sells | over capacity | other checks | fan-out p50 / p99 ms | release lag p99 ms | peak RSS MiB | server CPU s |\n");
    out.push_str("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in runs {
        if let Some(e) = &r.error {
            let _ = writeln!(
                out,
                "| {} | {} | {} | not run: {} |{}",
                r.scenario,
                r.target,
                r.load,
                e.replace('|', "/").replace('\n', " "),
                " |".repeat(15)
            );
            continue;
        }
        let lock = r.call("lock-seat");
        let lock_lat = lock
            .map(|c| format!("{} / {} / {}", f(c.p50_ms), f(c.p99_ms), f(c.max_ms)))
            .unwrap_or_else(|| "–".into());
        let conflicts: u64 = r.calls.values().map(|c| c.conflicts).sum();
        let e5: u64 = r.calls.values().map(|c| c.errors_5xx).sum();
        let tr: u64 = r.calls.values().map(|c| c.transport_errors).sum();
        let seats_locked = r
            .on_sale
            .as_ref()
            .map(|o| f(o.seats_locked_per_s))
            .unwrap_or_else(|| "–".into());
        let sold = r
            .checks
            .as_ref()
            .map(|c| c.sold_claims.to_string())
            .unwrap_or_else(|| "–".into());
        let (double, over, other) = match &r.checks {
            Some(c) => (
                c.double_sells.to_string(),
                c.over_capacity.to_string(),
                (c.failures() - c.double_sells - c.over_capacity).to_string(),
            ),
            None => ("not checked".into(), "not checked".into(), "–".into()),
        };
        let fanout = match (&r.fanout, r.events_available) {
            (_, Some(false)) if r.scenario == "fanout" => "events endpoint unavailable".into(),
            (Some(fo), _) => format!(
                "{} / {} ({} msgs)",
                fo.delay.p50_ms, fo.delay.p99_ms, fo.messages
            ),
            _ => "–".into(),
        };
        let lag = match &r.expiry {
            Some(e) => format!(
                "{} ({}{})",
                e.release_lag.p99_ms,
                e.method,
                if e.never_seen_released > 0 {
                    format!(", {} never seen", e.never_seen_released)
                } else {
                    String::new()
                }
            ),
            None => "–".into(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} / {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            r.scenario,
            r.target,
            r.load,
            lock.map(|c| f(c.ok_per_s)).unwrap_or_else(|| "–".into()),
            lock_lat,
            rate_p99(r.call("best-available")),
            seats_locked,
            rate_p99(r.call("seat-status")),
            rate_p99(r.call("commit")),
            conflicts,
            e5,
            tr,
            sold,
            double,
            over,
            other,
            fanout,
            lag,
            r.peak_mib().map(f).unwrap_or_else(|| "–".into()),
            if r.cpu.server_seconds.is_empty() {
                "–".to_owned()
            } else {
                f(r.cpu.server_seconds.iter().sum())
            },
        );
    }
    out
}

/// Per call, per run: rates, latencies and the ways calls failed.
pub fn details(runs: &[RunResult]) -> String {
    let mut out = String::new();
    for r in runs.iter().filter(|r| r.error.is_none()) {
        let _ = writeln!(
            out,
            "\n**{} · {} · {}** ({} s{}; CPU s: servers {:?}, loadgen {}; load average before {})\n",
            r.scenario,
            r.target,
            r.load,
            r.seconds,
            r.memory
                .iter()
                .map(|m| format!(
                    "; {}: peak {} MiB, now {} MiB",
                    m.node, m.peak_rss_mib, m.rss_mib
                ))
                .collect::<String>(),
            r.cpu.server_seconds,
            r.cpu.loadgen_seconds,
            r.cpu.load_average_before,
        );
        for n in &r.notes {
            let _ = writeln!(out, "- {n}");
        }
        if r.calls.is_empty() {
            continue;
        }
        out.push('\n');
        out.push_str("| call | calls | ok/s | p50 ms | p99 ms | max ms | conflicts | sold out | other 4xx | 5xx | no answer | top codes |\n");
        out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
        for (name, c) in &r.calls {
            let mut codes: Vec<(&String, &u64)> = c.codes.iter().collect();
            codes.sort_by(|a, b| b.1.cmp(a.1));
            let top: Vec<String> = codes
                .iter()
                .take(3)
                .map(|(k, v)| format!("{} ×{v}", k.replace('|', "/")))
                .collect();
            let _ = writeln!(
                out,
                "| {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                c.calls,
                f(c.ok_per_s),
                f(c.p50_ms),
                f(c.p99_ms),
                f(c.max_ms),
                c.conflicts,
                c.sold_out,
                c.rejected_4xx,
                c.errors_5xx,
                c.transport_errors,
                top.join(", ")
            );
        }
    }
    out
}
