//! kupa-loadgen: the on-sale benchmark of issue 5 (docs/benchmark.md). It starts its own kupa
//! servers (test mode, fresh databases: SQLite on one node, PostgreSQL on two), drives buyers,
//! browsers and event-stream watchers at them, checks the database for double sells afterwards,
//! and writes bench/results/<date>-<scenario>.json plus a summary table.

mod api;
mod check;
mod events;
mod expiry;
mod halls;
mod report;
mod runs;
mod scenarios;
mod server;
mod stats;
mod storm;
mod year;

use std::path::PathBuf;

use anyhow::Context;
use clap::Parser;
use serde_json::json;

use report::RunResult;
use server::{Backend, Cluster, Settings};

#[derive(Parser, Debug, Clone)]
#[command(
    name = "kupa-loadgen",
    about = "The on-sale benchmark: kupa servers on fresh databases, buyers, watchers, and a double-sell check"
)]
struct Cli {
    /// Shorter runs and fewer buyers: a couple of minutes in all.
    #[arg(long, env = "KUPA_BENCH_QUICK")]
    quick: bool,
    /// Targets: sqlite (one node), postgres (two nodes on one database).
    #[arg(
        long,
        env = "KUPA_BENCH_TARGETS",
        value_delimiter = ',',
        default_value = "sqlite,postgres"
    )]
    targets: Vec<String>,
    /// Scenarios: a (on-sale), b (browsing), c (event fan-out during an on-sale), d (expiry),
    /// f (lock-storm), g (best-burst), h (watchers: many event streams on one node),
    /// year (a 10-cinema chain's year of sales, then every PRES-live and report call timed).
    #[arg(
        long,
        env = "KUPA_BENCH_SCENARIOS",
        value_delimiter = ',',
        default_value = "a,b,c,d,f,g,h,year"
    )]
    scenarios: Vec<String>,
    /// Days of sales the year scenario writes before today (default 365, quick 60).
    #[arg(long, env = "KUPA_BENCH_YEAR_DAYS")]
    year_days: Option<i64>,
    /// The year scenario on databases kept by an earlier run (KUPA_BENCH_KEEP=1) instead of new
    /// ones: one URL per target, in --targets order (sqlite:path, postgres://…/kupa_bench_…).
    #[arg(long, value_delimiter = ',')]
    year_database: Option<Vec<String>>,
    /// Timed calls of each PRES-live and report call in the year scenario (default 100, quick 30).
    #[arg(long, env = "KUPA_BENCH_YEAR_SAMPLES")]
    year_samples: Option<usize>,
    /// Length of each timed run in seconds (default 20, quick 8).
    #[arg(long, env = "KUPA_BENCH_SECONDS")]
    seconds: Option<u64>,
    /// Concurrent buyers of scenario (a), one run each (default 32,256,1024; quick 32,256).
    #[arg(long, value_delimiter = ',')]
    buyers: Option<Vec<usize>>,
    /// Concurrent browsers of scenario (b) (default 256, quick 64).
    #[arg(long)]
    browsers: Option<usize>,
    /// Event-stream watchers of scenario (c) (default 1000).
    #[arg(long)]
    watchers: Option<usize>,
    /// Buyers selling while the watchers watch, scenario (c) (default 256, quick 64).
    #[arg(long)]
    fanout_buyers: Option<usize>,
    /// Holds of scenario (d) (default 500).
    #[arg(long)]
    holds: Option<usize>,
    /// The status form the browsers of scenario (b) read: v2 (GET /seats/seats-statusV2, the
    /// spec's) or compact (GET /seats/seats-statusV2/compact with `since`, decision 0060).
    #[arg(long, default_value = "v2")]
    browse_status: String,
    /// Sessions of the lock storm, scenario (f) (default 256).
    #[arg(long)]
    storm_sessions: Option<usize>,
    /// Halls the lock storm's sessions are spread over (default 8).
    #[arg(long, default_value_t = 8)]
    storm_halls: usize,
    /// Buyers of each best-available burst, scenario (g), all at the same instant (default 60).
    #[arg(long, default_value_t = 60)]
    burst_buyers: usize,
    /// Seats each burst buyer asks for together (default 4).
    #[arg(long, default_value_t = 4)]
    burst_quantity: usize,
    /// Bursts, each in a fresh hall (default 5, quick 3).
    #[arg(long)]
    bursts: Option<usize>,
    /// Event-stream watchers on the first node, scenario (h) (default 10000).
    #[arg(long)]
    many_watchers: Option<usize>,
    /// Seat changes per second the watchers of scenario (h) are sent (default 10).
    #[arg(long, default_value_t = 10)]
    watch_changes_per_s: u64,
    /// Lifetime of a hold in seconds, set through the test-mode timer override (scenarios a, c, d).
    #[arg(long, default_value_t = 10)]
    hold_seconds: u64,
    /// PostgreSQL server the two-node target creates its database on (and drops it after).
    #[arg(
        long,
        env = "KUPA_BENCH_POSTGRES_URL",
        default_value = "postgres://postgres@127.0.0.1:5432/postgres"
    )]
    postgres_url: String,
    /// The kupa binary (default: next to this one, i.e. target/release/kupa).
    #[arg(long, env = "KUPA_BENCH_KUPA")]
    kupa: Option<PathBuf>,
    /// Where the results go.
    #[arg(long, default_value = "bench/results")]
    out: PathBuf,
    /// First port of the servers (each run takes a few above it).
    #[arg(long, default_value_t = 18400)]
    base_port: u16,
    /// Worker threads of the load generator (it shares the machine with the servers).
    #[arg(long, env = "KUPA_BENCH_THREADS", default_value_t = 2)]
    threads: usize,
    /// Only run the correctness checks (double sells, over-capacity, …) on this database
    /// (sqlite:path or postgres://…) and print them; exit status 1 when one fails.
    #[arg(long, value_name = "DATABASE_URL")]
    check: Option<String>,
}

struct Plan {
    seconds: u64,
    buyers: Vec<usize>,
    browsers: usize,
    watchers: usize,
    fanout_buyers: usize,
    holds: usize,
    storm_sessions: usize,
    bursts: usize,
    many_watchers: usize,
}

impl Cli {
    fn plan(&self) -> Plan {
        let q = self.quick;
        Plan {
            seconds: self.seconds.unwrap_or(if q { 8 } else { 20 }),
            buyers: self.buyers.clone().unwrap_or_else(|| {
                if q {
                    vec![32, 256]
                } else {
                    vec![32, 256, 1024]
                }
            }),
            browsers: self.browsers.unwrap_or(if q { 64 } else { 256 }),
            watchers: self.watchers.unwrap_or(1000),
            fanout_buyers: self.fanout_buyers.unwrap_or(if q { 64 } else { 256 }),
            holds: self.holds.unwrap_or(500),
            storm_sessions: self.storm_sessions.unwrap_or(256),
            bursts: self.bursts.unwrap_or(if q { 3 } else { 5 }),
            many_watchers: self.many_watchers.unwrap_or(10_000),
        }
    }
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cli.threads.max(1))
        .enable_all()
        .build()?;
    let failures = match cli.check.clone() {
        Some(url) => rt.block_on(async {
            let c = check::run(&url, &[]).await?;
            println!("{}", serde_json::to_string_pretty(&c)?);
            anyhow::Ok(c.failures())
        })?,
        None => rt.block_on(run(cli))?,
    };
    if failures > 0 {
        eprintln!("kupa-loadgen: {failures} correctness check failure(s): see the figures above");
        std::process::exit(1);
    }
    Ok(())
}

const SCENARIO_NAMES: [(&str, &str); 7] = [
    ("a", "on-sale"),
    ("b", "browsing"),
    ("c", "fanout"),
    ("d", "expiry"),
    ("f", "lock-storm"),
    ("g", "best-burst"),
    ("h", "watchers"),
];

async fn run(cli: Cli) -> anyhow::Result<i64> {
    let plan = cli.plan();
    let kupa = match &cli.kupa {
        Some(p) => p.clone(),
        None => std::env::current_exe()?.with_file_name("kupa"),
    };
    if !kupa.exists() {
        anyhow::bail!(
            "no kupa binary at {} (cargo build --release -p kupa, or --kupa PATH)",
            kupa.display()
        );
    }
    let settings = Settings {
        kupa,
        postgres_url: cli.postgres_url.clone(),
        base_port: cli.base_port,
    };
    let mut backends = Vec::new();
    for t in &cli.targets {
        backends.push(match t.trim() {
            "sqlite" => Backend::Sqlite,
            "postgres" | "pg" => Backend::Postgres,
            other => anyhow::bail!("unknown target {other:?} (sqlite, postgres)"),
        });
    }
    let mut by_scenario: Vec<(&str, Vec<RunResult>)> = Vec::new();
    for (key, name) in SCENARIO_NAMES {
        if cli
            .scenarios
            .iter()
            .any(|s| s.trim() == key || s.trim() == name)
        {
            by_scenario.push((name, Vec::new()));
        }
    }
    let started = std::time::Instant::now();
    for &backend in &backends {
        for (name, results) in by_scenario.iter_mut() {
            let kinds: Vec<Kind> = match *name {
                "on-sale" => plan.buyers.iter().map(|&b| Kind::OnSale(b)).collect(),
                "browsing" => vec![Kind::Browsing(plan.browsers)],
                "fanout" => vec![Kind::Fanout(plan.fanout_buyers, plan.watchers)],
                "lock-storm" => vec![Kind::LockStorm(plan.storm_sessions)],
                "best-burst" => vec![Kind::Burst(cli.burst_buyers)],
                "watchers" => vec![Kind::Watchers(plan.many_watchers)],
                _ => vec![Kind::Expiry(plan.holds)],
            };
            for kind in kinds {
                results.push(one_run(&cli, &plan, &settings, backend, kind).await);
            }
        }
    }

    let now = jiff::Timestamp::now();
    let date = now.to_zoned(jiff::tz::TimeZone::UTC).date().to_string();
    let commit = std::process::Command::new("git")
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned());
    let mut year_section = String::new();
    if cli.scenarios.iter().any(|s| s.trim() == "year") {
        let days = cli.year_days.unwrap_or(if cli.quick { 60 } else { 365 });
        let samples = cli.year_samples.unwrap_or(if cli.quick { 30 } else { 100 });
        let mut runs = Vec::new();
        for (i, &backend) in backends.iter().enumerate() {
            let existing = cli
                .year_database
                .as_ref()
                .and_then(|d| d.get(i))
                .map(String::as_str);
            match year::run(&settings, backend, days, samples, existing).await {
                Ok(r) => {
                    // Each target's figures as soon as they are measured: a long run stopped
                    // before the next target keeps them.
                    eprintln!("{}", year::table(std::slice::from_ref(&r)));
                    runs.push(r);
                }
                Err(e) => eprintln!("year of sales on {backend:?}: did not run: {e:#}"),
            }
        }
        let table = year::report(&runs, &cli.out, &date)?;
        println!("\n## A year of sales: PRES-live and reports\n\n{table}");
        year_section = format!(
            "\n## A year of sales ({days} days, {samples} calls each, commit {})\n\n{table}",
            commit.as_deref().unwrap_or("?")
        );
    }
    let machine = report::Machine {
        cpus: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        loadgen_threads: cli.threads,
    };
    let custom = cli.seconds.is_some()
        || cli.buyers.is_some()
        || cli.browsers.is_some()
        || cli.watchers.is_some()
        || cli.fanout_buyers.is_some()
        || cli.holds.is_some()
        || cli.storm_sessions.is_some()
        || cli.bursts.is_some()
        || cli.many_watchers.is_some();
    let mode = match (cli.quick, custom) {
        (_, true) => "custom",
        (true, false) => "quick",
        (false, false) => "full",
    };
    let settings_json = json!({
        "seconds": plan.seconds, "buyers": plan.buyers, "browsers": plan.browsers,
        "watchers": plan.watchers, "fanoutBuyers": plan.fanout_buyers, "holds": plan.holds,
        "holdSeconds": cli.hold_seconds, "targets": cli.targets,
        "browseStatus": cli.browse_status, "stormSessions": plan.storm_sessions,
        "stormHalls": cli.storm_halls, "burstBuyers": cli.burst_buyers,
        "burstQuantity": cli.burst_quantity, "bursts": plan.bursts,
        "manyWatchers": plan.many_watchers, "watchChangesPerS": cli.watch_changes_per_s,
        "mix": { "commit": scenarios::ON_SALE_MIX.commit, "unlock": scenarios::ON_SALE_MIX.unlock,
                 "expire": stats::round3(1.0 - scenarios::ON_SALE_MIX.commit - scenarios::ON_SALE_MIX.unlock),
                 "manualPicks": scenarios::ON_SALE_MIX.manual },
        "serverEnv": { "KUPA_RATE_LIMITS": "off", "KUPA_HOLD_LIMITS": "off", "KUPA_LOG": "warn" },
    });
    let mut all: Vec<RunResult> = Vec::new();
    for (name, results) in &by_scenario {
        let file = report::ScenarioFile {
            scenario: name,
            date: date.clone(),
            generated_at: now.to_string(),
            commit: commit.clone(),
            mode,
            machine: machine.clone(),
            settings: settings_json.clone(),
            runs: results.iter().collect(),
        };
        let path = report::write_scenario_file(&cli.out, &file)?;
        eprintln!("wrote {}", path.display());
        all.extend(results.iter().cloned());
    }
    let mut table = format!(
        "## On-sale benchmark, {} ({mode} run, commit {}, {} CPUs, {:.0} s)\n\n",
        now.round(jiff::Unit::Second)?,
        commit.as_deref().unwrap_or("?"),
        machine.cpus,
        started.elapsed().as_secs_f64()
    );
    table.push_str(&report::headline(&all));
    let details = report::details(&all);
    if !all.is_empty() {
        println!("\n{table}");
        println!("{details}");
    }
    let md = cli.out.join(format!("{date}-summary.md"));
    let mut text = std::fs::read_to_string(&md).unwrap_or_default();
    if !text.is_empty() {
        text.push('\n');
    }
    if !all.is_empty() {
        text.push_str(&table);
        text.push_str(&details);
    }
    text.push_str(&year_section);
    std::fs::write(&md, text).with_context(|| format!("write {}", md.display()))?;
    eprintln!("appended the table to {}", md.display());
    Ok(all
        .iter()
        .filter_map(|r| r.checks.as_ref())
        .map(|c| c.failures())
        .sum())
}

#[derive(Clone, Copy)]
enum Kind {
    OnSale(usize),
    Browsing(usize),
    /// (buyers, watchers)
    Fanout(usize, usize),
    Expiry(usize),
    /// sessions
    LockStorm(usize),
    /// buyers per burst
    Burst(usize),
    /// watchers on one node
    Watchers(usize),
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::OnSale(_) => "on-sale",
            Kind::Browsing(_) => "browsing",
            Kind::Fanout(..) => "fanout",
            Kind::Expiry(_) => "expiry",
            Kind::LockStorm(_) => "lock-storm",
            Kind::Burst(_) => "best-burst",
            Kind::Watchers(_) => "watchers",
        }
    }

    fn load(self) -> String {
        match self {
            Kind::OnSale(b) => format!("{b} buyers"),
            Kind::Browsing(b) => format!("{b} browsers"),
            Kind::Fanout(b, w) => format!("{w} watchers, {b} buyers"),
            Kind::Expiry(h) => format!("{h} holds"),
            Kind::LockStorm(s) => format!("{s} sessions"),
            Kind::Burst(b) => format!("{b} buyers at once"),
            Kind::Watchers(w) => format!("{w} watchers on one node"),
        }
    }
}

/// What a scenario hands back to be checked and reported.
pub(crate) struct Scenario {
    pub(crate) result: RunResult,
    pub(crate) acknowledged: Vec<String>,
}

impl Scenario {
    /// A result with no acknowledged reservation numbers to check.
    pub(crate) fn of(result: RunResult) -> Self {
        Self {
            result,
            acknowledged: Vec::new(),
        }
    }
}

/// Starts a fresh cluster, runs one scenario on it, reads memory, checks the database, stops it.
async fn one_run(
    cli: &Cli,
    plan: &Plan,
    settings: &Settings,
    backend: Backend,
    kind: Kind,
) -> RunResult {
    let target = backend.target_name();
    let (scenario, load) = (kind.name(), kind.load());
    eprintln!("▶ {target} · {scenario} · {load}");
    let mut failed = RunResult::new(scenario, target, backend.nodes(), load);
    let load_average_before = server::load_average();
    let mut cluster = match Cluster::start(backend, settings).await {
        Ok(c) => c,
        Err(e) => {
            eprintln!("  could not start the servers: {e:#}");
            failed.error = Some(format!("{e:#}").lines().next().unwrap_or("").to_owned());
            return failed;
        }
    };
    let (secs, hold) = (plan.seconds, cli.hold_seconds);
    let servers_before = cluster.cpu_seconds();
    let own_before = server::process_cpu_seconds("self").unwrap_or(0.0);
    let outcome = match kind {
        Kind::OnSale(b) => runs::on_sale_run(&cluster, b, secs, hold).await,
        Kind::Browsing(b) => {
            let compact = cli.browse_status.trim() == "compact";
            runs::browsing_run(&cluster, b, secs, compact).await
        }
        Kind::Fanout(b, w) => runs::fanout_run(&cluster, b, w, secs, hold).await,
        Kind::Expiry(h) => runs::expiry_run(&cluster, h, hold).await,
        Kind::LockStorm(s) => runs::lock_storm_run(&cluster, s, cli.storm_halls, secs).await,
        Kind::Burst(b) => runs::burst_run(&cluster, b, cli.burst_quantity, plan.bursts, hold).await,
        Kind::Watchers(w) => {
            runs::watchers_run(&cluster, w, cli.watch_changes_per_s, secs, hold).await
        }
    };
    let cpu = report::Cpu {
        server_seconds: cluster
            .cpu_seconds()
            .iter()
            .zip(&servers_before)
            .map(|(a, b)| stats::round1(a - b))
            .collect(),
        loadgen_seconds: stats::round1(
            server::process_cpu_seconds("self").unwrap_or(0.0) - own_before,
        ),
        load_average_before,
    };
    let mut result = match outcome {
        Ok(s) => {
            let mut r = s.result;
            r.memory = cluster.memory();
            match check::run(&cluster.database_url, &s.acknowledged).await {
                Ok(c) => r.checks = Some(c),
                Err(e) => r.notes.push(format!("database check failed: {e:#}")),
            }
            r
        }
        Err(e) => {
            failed.error = Some(format!("{e:#}"));
            failed.memory = cluster.memory();
            failed
        }
    };
    result.cpu = cpu;
    for c in cluster.crashed() {
        result.notes.push(format!("server crashed: {c}"));
    }
    cluster.stop().await;
    eprintln!("  {}", one_line(&result));
    result
}

fn one_line(r: &RunResult) -> String {
    if let Some(e) = &r.error {
        return format!("error: {e}");
    }
    let lock = r
        .calls
        .get("lock-seat")
        .map(|c| format!("lock-seat {:.0}/s p99 {:.1} ms", c.ok_per_s, c.p99_ms))
        .unwrap_or_default();
    let checks = r
        .checks
        .as_ref()
        .map(|c| {
            format!(
                "sold {} · double sells {} · over capacity {}",
                c.sold_claims, c.double_sells, c.over_capacity
            )
        })
        .unwrap_or_else(|| "not checked".into());
    format!("{lock} · {checks}")
}
