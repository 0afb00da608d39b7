//! One run of each scenario on a started cluster: drive it, and hand back what to report and
//! check.

use std::sync::Arc;
use std::time::Duration;

use crate::report::RunResult;
use crate::scenarios::{self, Pool};
use crate::server::Cluster;
use crate::{Scenario, api, events, storm};

pub async fn on_sale_run(
    c: &Cluster,
    buyers: usize,
    seconds: u64,
    hold: u64,
) -> anyhow::Result<Scenario> {
    let (addrs, halls) = halls_held(c, hold).await?;
    let pool = Arc::new(Pool::new(halls));
    let (mut rec, outcome, acknowledged) = scenarios::on_sale(
        &addrs,
        pool,
        buyers,
        Duration::from_secs(seconds),
        scenarios::ON_SALE_MIX,
    )
    .await;
    let mut r = RunResult::new(
        "on-sale",
        c.backend.target_name(),
        addrs.len(),
        format!("{buyers} buyers"),
    );
    r.seconds = outcome.seconds;
    r.calls = rec.summary(outcome.seconds);
    if outcome.halls_exhausted {
        r.notes.push(format!(
            "all {} fresh halls were sold out before the end: the rates are over the whole {} s",
            outcome.halls_available, seconds
        ));
    }
    r.on_sale = Some(outcome);
    Ok(Scenario {
        result: r,
        acknowledged,
    })
}

pub async fn browsing_run(
    c: &Cluster,
    browsers: usize,
    seconds: u64,
    compact: bool,
) -> anyhow::Result<Scenario> {
    let addrs = c.addrs();
    let halls = api::discover_halls(addrs[0]).await?;
    let mut rec = scenarios::browsing(
        &addrs,
        &halls,
        browsers,
        Duration::from_secs(seconds),
        compact,
    )
    .await;
    let form = if compact { ", compact status" } else { "" };
    Ok(timed_calls(
        c,
        "browsing",
        addrs.len(),
        format!("{browsers} browsers{form}"),
        seconds,
        &mut rec,
    ))
}

/// The cluster's node addresses and its halls, with every node's hold length set to `hold` s.
async fn halls_held(
    c: &Cluster,
    hold: u64,
) -> anyhow::Result<(Vec<std::net::SocketAddr>, Vec<Arc<crate::halls::Hall>>)> {
    let addrs = c.addrs();
    let halls = api::discover_halls(addrs[0]).await?;
    api::set_hold_seconds(&addrs, hold).await?;
    Ok((addrs, halls))
}

/// A run whose result is its calls over its planned length.
fn timed_calls(
    c: &Cluster,
    scenario: &'static str,
    nodes: usize,
    load: String,
    seconds: u64,
    rec: &mut crate::stats::Recorder,
) -> Scenario {
    let mut r = RunResult::new(scenario, c.backend.target_name(), nodes, load);
    r.seconds = seconds as f64;
    r.calls = rec.summary(seconds as f64);
    Scenario::of(r)
}

pub async fn fanout_run(
    c: &Cluster,
    buyers: usize,
    watchers: usize,
    seconds: u64,
    hold: u64,
) -> anyhow::Result<Scenario> {
    let (addrs, halls) = halls_held(c, hold).await?;
    let load = format!("{watchers} watchers, {buyers} buyers");
    let mut r = RunResult::new("fanout", c.backend.target_name(), addrs.len(), load);
    let probe = events::probe(addrs[0], halls[0].presentation_id).await?;
    if let events::Probe::Unavailable(status) = probe {
        r.events_available = Some(false);
        r.notes.push(format!(
            "events endpoint unavailable: GET /api/seats/events answered HTTP {status}; fan-out not measured"
        ));
        return Ok(Scenario::of(r));
    }
    r.events_available = Some(true);
    let pool = Arc::new(Pool::new(halls));
    let (mut rec, outcome, acknowledged, fanout) =
        scenarios::fanout(&addrs, pool, buyers, watchers, Duration::from_secs(seconds)).await;
    r.seconds = outcome.seconds;
    r.calls = rec.summary(outcome.seconds);
    if (fanout.connected as usize) < watchers {
        r.notes.push(format!(
            "only {} of {watchers} watchers got a stream within 10 s",
            fanout.connected
        ));
    }
    r.on_sale = Some(outcome);
    r.fanout = Some(fanout);
    Ok(Scenario {
        result: r,
        acknowledged,
    })
}

pub async fn expiry_run(c: &Cluster, holds: usize, hold: u64) -> anyhow::Result<Scenario> {
    let (addrs, halls) = halls_held(c, hold).await?;
    let mut r = RunResult::new(
        "expiry",
        c.backend.target_name(),
        addrs.len(),
        format!("{holds} holds"),
    );
    let use_events = matches!(
        events::probe(addrs[0], halls[0].presentation_id).await?,
        events::Probe::Available
    );
    r.events_available = Some(use_events);
    if !use_events {
        r.notes.push(
            "events endpoint unavailable: release seen by polling seats-statusV2 every 50 ms (the status reads an expired hold as free at once, so this measures the read side, not the sweeper's events)".into(),
        );
    }
    let started = std::time::Instant::now();
    let (mut rec, outcome) = scenarios::expiry(&addrs, &halls, holds, hold, use_events).await;
    r.seconds = crate::stats::round1(started.elapsed().as_secs_f64());
    r.calls = rec.summary(outcome.locking_seconds.max(0.001));
    r.expiry = Some(outcome);
    Ok(Scenario::of(r))
}

pub async fn lock_storm_run(
    c: &Cluster,
    sessions: usize,
    halls: usize,
    seconds: u64,
) -> anyhow::Result<Scenario> {
    let addrs = c.addrs();
    let all = api::discover_halls(addrs[0]).await?;
    let used = halls.min(all.len());
    let mut rec =
        storm::lock_storm(&addrs, &all, sessions, used, Duration::from_secs(seconds)).await;
    Ok(timed_calls(
        c,
        "lock-storm",
        addrs.len(),
        format!("{sessions} sessions, {used} halls"),
        seconds,
        &mut rec,
    ))
}

pub async fn burst_run(
    c: &Cluster,
    buyers: usize,
    quantity: usize,
    bursts: usize,
    hold: u64,
) -> anyhow::Result<Scenario> {
    let (addrs, halls) = halls_held(c, hold.max(60)).await?;
    let pool = Pool::new(halls);
    let started = std::time::Instant::now();
    let (mut rec, outcome) = storm::best_burst(&addrs, &pool, buyers, quantity, bursts).await;
    let mut r = RunResult::new(
        "best-burst",
        c.backend.target_name(),
        addrs.len(),
        format!(
            "{buyers} buyers × {quantity} seats at once, {} bursts",
            outcome.bursts
        ),
    );
    r.seconds = crate::stats::round1(started.elapsed().as_secs_f64());
    r.calls = rec.summary(r.seconds.max(0.001));
    r.notes.push(format!(
        "best-available burst: {} served side by side, {} served apart, {} told to try again, {} told sold out, {} other; seats given twice {}; free seats left after the first burst {}",
        outcome.served_adjacent,
        outcome.served_apart,
        outcome.told_try_again,
        outcome.told_sold_out,
        outcome.other,
        outcome.seats_given_twice,
        outcome
            .seats_left_after_first
            .map(|n| n.to_string())
            .unwrap_or_else(|| "?".into()),
    ));
    r.burst = Some(outcome);
    Ok(Scenario::of(r))
}

pub async fn watchers_run(
    c: &Cluster,
    watchers: usize,
    changes_per_s: u64,
    seconds: u64,
    hold: u64,
) -> anyhow::Result<Scenario> {
    let (addrs, halls) = halls_held(c, hold).await?;
    let load = format!("{watchers} watchers on one node, {changes_per_s} changes/s");
    let mut r = RunResult::new("watchers", c.backend.target_name(), 1, load);
    if let Some(limit) = storm::fd_limit()
        && limit < watchers as u64 + 512
    {
        r.notes.push(format!(
            "the open-file limit is {limit}: fewer than {watchers} streams fit (ulimit -n)"
        ));
    }
    if let events::Probe::Unavailable(status) =
        events::probe(addrs[0], halls[0].presentation_id).await?
    {
        r.events_available = Some(false);
        r.notes.push(format!(
            "events endpoint unavailable: HTTP {status}; fan-out not measured"
        ));
        return Ok(Scenario::of(r));
    }
    r.events_available = Some(true);
    let (mut rec, fanout, outcome) = storm::many_watchers(
        addrs[0],
        halls[0].clone(),
        watchers,
        changes_per_s,
        Duration::from_secs(seconds),
    )
    .await;
    r.seconds = seconds as f64;
    r.calls = rec.summary(seconds as f64);
    r.notes.push(format!(
        "{} of {watchers} watchers connected in {} s; {} seat changes sent ({}/s)",
        fanout.connected, outcome.connect_seconds, outcome.changes_made, outcome.changes_per_s
    ));
    r.fanout = Some(fanout);
    r.watchers = Some(outcome);
    Ok(Scenario::of(r))
}
