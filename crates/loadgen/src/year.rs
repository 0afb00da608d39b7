//! The year of sales (issue 17 item 4, docs/benchmark.md "year"): a 10-cinema chain's year of
//! screenings and several million tickets sold, written into a fresh database (never into the
//! demo), then every PRES-live and report call a manager makes, timed one after another. The
//! chain is the demo's with seven more cinemas of three halls each (copies of the Port's halls);
//! every hall shows four screenings a day from a year ago to two weeks ahead; the sales are the
//! demo history's generator (`kupa_store::seed_history`) over the whole range.

use std::net::SocketAddr;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::server::{Backend, Cluster, Settings};

const DEMO_CHAIN: &str = include_str!("../../../demo/chain.json");
const DAY_MS: i64 = 86_400_000;
const MANAGER: &str = "bench-manager@kupa.example";
const PASSWORD: &str = "bench-manager-pass";
/// The cinemas added to the demo's three.
const NEW_CINEMAS: i64 = 7;
const TIMES: [&str; 4] = ["13:00", "16:30", "19:30", "22:00"];

/// The demo chain grown to ten cinemas, with a year of screenings and none of the demo's
/// memberships, seasons or mini-sites (they name presentations of their own).
pub fn chain(days_back: i64) -> anyhow::Result<Value> {
    let mut c: Value = serde_json::from_str(DEMO_CHAIN)?;
    let o = c.as_object_mut().context("the demo chain is an object")?;
    for k in [
        "presentations",
        "schedule",
        "seasons",
        "memberships",
        "members",
        "miniSites",
        "integrations",
    ] {
        o.remove(k);
    }
    let port = o["locations"]
        .as_array()
        .and_then(|l| l.iter().find(|l| l["id"] == 2))
        .cloned()
        .context("the demo's Port cinema")?;
    let halls: Vec<Value> = o["venues"]
        .as_array()
        .context("venues")?
        .iter()
        .filter(|v| v["locationId"] == 2)
        .cloned()
        .collect();
    let plans: Vec<Value> = o["seatplans"].as_array().context("seatplans")?.clone();
    for n in 0..NEW_CINEMAS {
        let id = 5 + n;
        let mut l = port.clone();
        l["id"] = json!(id);
        l["name"] = json!(format!("קולנוע {}", n + 1));
        l["nameEn"] = json!(format!("Cinema {}", n + 1));
        l["businessId"] = json!(if n % 2 == 0 { 1 } else { 2 });
        o.get_mut("locations")
            .and_then(Value::as_array_mut)
            .context("locations")?
            .push(l);
        for (k, hall) in halls.iter().enumerate() {
            let venue = 1000 + id * 10 + k as i64 + 1;
            let mut v = hall.clone();
            v["id"] = json!(venue);
            v["locationId"] = json!(id);
            o.get_mut("venues")
                .and_then(Value::as_array_mut)
                .context("venues")?
                .push(v);
            let mut plan = plans
                .iter()
                .find(|p| p["venueId"] == hall["id"])
                .cloned()
                .context("a hall's seat plan")?;
            plan["id"] = json!(venue);
            plan["venueId"] = json!(venue);
            for section in plan["sections"].as_array_mut().context("sections")? {
                let old = section["id"].as_i64().unwrap_or_default();
                section["id"] = json!(venue * 100 + old % 100);
            }
            o.get_mut("seatplans")
                .and_then(Value::as_array_mut)
                .context("seatplans")?
                .push(plan);
        }
    }
    let features: Vec<i64> = o["features"]
        .as_array()
        .context("features")?
        .iter()
        .filter_map(|f| f["id"].as_i64())
        .collect();
    let venues: Vec<(i64, i64)> = o["venues"]
        .as_array()
        .context("venues")?
        .iter()
        .filter(|v| v["venueTypeId"].as_i64().unwrap_or(0) < 101)
        .filter_map(|v| Some((v["id"].as_i64()?, v["locationId"].as_i64()?)))
        .collect();
    let mut schedule = Vec::new();
    // Four weeks a run: each hall and time shows one feature, then the next.
    let mut from = -days_back;
    let mut block = 0usize;
    while from <= 14 {
        let to = (from + 27).min(14);
        for (i, (venue, _)) in venues.iter().enumerate() {
            for (t, time) in TIMES.iter().enumerate() {
                let business = o["locations"]
                    .as_array()
                    .and_then(|ls| {
                        let loc = venues[i].1;
                        ls.iter().find(|l| l["id"] == loc)
                    })
                    .and_then(|l| l["businessId"].as_i64())
                    .unwrap_or(1);
                schedule.push(json!({
                    "featureId": features[(i * 3 + t + block) % features.len()],
                    "venueId": venue,
                    "times": [time],
                    "fromDay": from,
                    "toDay": to,
                    "businessId": business,
                    "seatingPolicyId": 1,
                }));
            }
        }
        from = to + 1;
        block += 1;
    }
    o.insert("schedule".into(), Value::Array(schedule));
    Ok(c)
}

/// One call's figures.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CallFigures {
    pub call: String,
    pub path: String,
    pub samples: usize,
    pub errors: usize,
    pub p50_ms: f64,
    pub p99_ms: f64,
    pub max_ms: f64,
    pub bytes: usize,
}

/// A request on a fresh connection (`Connection: close`), answering status, headers, body.
async fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    cookie: Option<&str>,
    body: Option<&str>,
) -> anyhow::Result<(u16, String, Vec<u8>)> {
    let mut s = tokio::net::TcpStream::connect(addr).await?;
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n");
    if let Some(c) = cookie {
        req.push_str(&format!("Cookie: kupa_staff={c}\r\n"));
    }
    match body {
        Some(b) => req.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}",
            b.len()
        )),
        None => req.push_str("\r\n"),
    }
    s.write_all(req.as_bytes()).await?;
    let mut out = Vec::new();
    tokio::time::timeout(Duration::from_secs(120), s.read_to_end(&mut out)).await??;
    let split = out
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .context("an HTTP answer")?;
    let head = String::from_utf8_lossy(&out[..split]).into_owned();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .context("a status")?;
    Ok((status, head, out[split + 4..].to_vec()))
}

fn kupa(settings: &Settings, db: &str, args: &[&str]) -> anyhow::Result<()> {
    let out = Command::new(&settings.kupa)
        .args(args)
        .env("KUPA_DATABASE_URL", db)
        .env("KUPA_STAFF_PASSWORD", PASSWORD)
        .env("KUPA_LOG", "warn")
        .output()
        .with_context(|| format!("run kupa {}", args.join(" ")))?;
    if !out.status.success() {
        bail!(
            "kupa {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let i = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[i]
}

/// The calls a manager makes, with the parameters the screens send: a busy day three days ago,
/// its cinema and hall, the live calendar's defaults, the default month and week, a month report.
fn calls(today: jiff::civil::Date, feature: i64, presentation: i64) -> Vec<(String, String)> {
    let d = today
        .checked_sub(jiff::Span::new().days(3))
        .unwrap_or(today);
    let week_ago = today
        .checked_sub(jiff::Span::new().days(6))
        .unwrap_or(today);
    let month_ago = today
        .checked_sub(jiff::Span::new().days(30))
        .unwrap_or(today);
    let mut v: Vec<(String, String)> = vec![
        (
            "attendanceByDate (a week)",
            format!("/api/PRES-live/attendanceByDate/{week_ago}/{today}"),
        ),
        (
            "attendanceByDateByLocation",
            format!("/api/PRES-live/attendanceByDateByLocation/{d}"),
        ),
        (
            "attendanceByDateByLocationByVenue",
            format!("/api/PRES-live/attendanceByDateByLocationByVenue/{d}/2"),
        ),
        (
            "attendanceByDateByLocationByFeature",
            format!("/api/PRES-live/attendanceByDateByLocationByFeature/{d}/2"),
        ),
        (
            "attendanceByDatePresentationBox",
            format!("/api/PRES-live/attendanceByDatePresentationBox/{d}/2/venue/1"),
        ),
        (
            "getCinemaFilterData",
            "/api/PRES-live/getCinemaFilterData".into(),
        ),
        (
            "locationTicketSales",
            format!("/api/PRES-live/locationTicketSales/data/{d}/0"),
        ),
        (
            "featureTicketSales",
            format!("/api/PRES-live/featureTicketSales/data/{d}"),
        ),
        (
            "PresentationSales (default month)",
            "/api/PRES-live/monitors/PresentationSales/data".into(),
        ),
        (
            "availableFeatures",
            "/api/PRES-live/v2/availableFeatures".into(),
        ),
        (
            "featureData",
            format!("/api/PRES-live/v2/featureData?featureId={feature}"),
        ),
        (
            "availablePresentations",
            format!("/api/PRES-live/v2/availablePresentations?featureId={feature}"),
        ),
        (
            "presentationData",
            format!("/api/PRES-live/v2/presentationData?presentationId={presentation}"),
        ),
        (
            "getTicketRefAgents",
            "/api/pres-live/getTicketRefAgents".into(),
        ),
        (
            "TicketReferencePromptAdmin",
            "/api/pres-live/monitors/TicketReferencePromptAdmin/data".into(),
        ),
        (
            "TicketReferencePromptAdminDetail",
            "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data".into(),
        ),
        (
            "TicketReferencePromptAdminTicketSales",
            "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data".into(),
        ),
    ]
    .into_iter()
    .map(|(a, b)| (a.to_owned(), b))
    .collect();
    for report in [
        "attendance-venue",
        "attendance-feature",
        "top-features",
        "products",
        "points-of-sale",
    ] {
        v.push((
            format!("report {report} (default week)"),
            format!("/api/staff/reports/{report}"),
        ));
        v.push((
            format!("report {report} (a month)"),
            format!("/api/staff/reports/{report}?from={month_ago}&to={today}"),
        ));
    }
    v.push((
        "report attendance-venue (a month, xlsx)".into(),
        format!("/api/staff/reports/attendance-venue?from={month_ago}&to={today}&format=xlsx"),
    ));
    v
}

pub struct YearRun {
    pub backend: Backend,
    pub figures: Vec<CallFigures>,
    pub setup: Value,
}

/// Writes the year into a fresh database of `backend`, starts its servers and times each call
/// `samples` times (after two unmeasured calls) on the first node.
pub async fn run(
    settings: &Settings,
    backend: Backend,
    days_back: i64,
    samples: usize,
    existing: Option<&str>,
) -> anyhow::Result<YearRun> {
    let (mut cluster, run) = match existing {
        Some(url) => Cluster::existing(backend, url)?,
        None => Cluster::create(backend, settings).await?,
    };
    let result = match existing {
        Some(_) => {
            timed_calls(
                settings,
                &mut cluster,
                run,
                samples,
                json!({ "database": "kept from an earlier run" }),
            )
            .await
        }
        None => measure(settings, &mut cluster, run, days_back, samples).await,
    };
    cluster.stop().await;
    result
}

async fn measure(
    settings: &Settings,
    cluster: &mut Cluster,
    run: u32,
    days_back: i64,
    samples: usize,
) -> anyhow::Result<YearRun> {
    let db_url = cluster.database_url.clone();
    let file = cluster.dir.join("year-chain.json");
    std::fs::write(&file, serde_json::to_vec(&chain(days_back)?)?)?;
    let t = Instant::now();
    kupa(
        settings,
        &db_url,
        &["seed", "--catalogue", &file.display().to_string()],
    )?;
    let catalogue_s = t.elapsed().as_secs_f64();
    kupa(
        settings,
        &db_url,
        &[
            "staff",
            "add",
            "--email",
            MANAGER,
            "--first-name",
            "Bench",
            "--last-name",
            "Manager",
            "--role",
            "manager",
            "--business-ids",
            "1,2",
        ],
    )?;
    let t = Instant::now();
    let db = kupa_store::Db::connect(&db_url, 4).await?;
    let now = jiff::Timestamp::now().as_millisecond();
    let written =
        kupa_store::seed_history(&db, now - days_back * DAY_MS, now + 14 * DAY_MS, now).await?;
    db.close().await;
    let sales_s = t.elapsed().as_secs_f64();
    eprintln!(
        "year of sales on {}: {} presentations, {} orders, {} tickets (catalogue {catalogue_s:.0} s, sales {sales_s:.0} s)",
        backend_name(cluster.backend),
        written.presentations,
        written.orders,
        written.tickets
    );
    timed_calls(
        settings,
        cluster,
        run,
        samples,
        json!({
            "daysBack": days_back,
            "presentations": written.presentations,
            "orders": written.orders,
            "tickets": written.tickets,
            "catalogueSeconds": catalogue_s,
            "salesSeconds": sales_s,
        }),
    )
    .await
}

/// Starts the run's servers on its database (which holds the year and the bench manager) and
/// times every call.
async fn timed_calls(
    settings: &Settings,
    cluster: &mut Cluster,
    run: u32,
    samples: usize,
    mut setup: Value,
) -> anyhow::Result<YearRun> {
    let t = Instant::now();
    cluster.spawn_nodes(settings, run).await?;
    setup["serverStartSeconds"] = json!(t.elapsed().as_secs_f64());
    let addr = cluster.addrs()[0];
    let body = json!({ "email": MANAGER, "password": PASSWORD }).to_string();
    let (status, head, _) = http(addr, "POST", "/api/staff/login", None, Some(&body)).await?;
    if status != 200 {
        bail!("the bench manager's login: HTTP {status}");
    }
    let cookie = head
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .find_map(|(_, v)| {
            v.trim()
                .strip_prefix("kupa_staff=")
                .map(|v| v.split(';').next().unwrap_or_default().to_owned())
        })
        .context("the staff cookie")?;
    let today = jiff::Timestamp::now()
        .to_zoned(jiff::tz::TimeZone::get("Asia/Jerusalem")?)
        .date();
    // A presentation and a feature of three days ago, in the Port's big hall.
    let (_, _, box_body) = http(
        addr,
        "GET",
        &format!(
            "/api/PRES-live/attendanceByDatePresentationBox/{}/2/venue/1",
            today.checked_sub(jiff::Span::new().days(3))?
        ),
        Some(&cookie),
        None,
    )
    .await?;
    let boxed: Value = serde_json::from_slice(&box_body).unwrap_or_default();
    let first = &boxed["presentations"][0];
    let (presentation, feature) = (
        first["PresentationId"].as_i64().unwrap_or(1),
        first["FeatureId"].as_i64().unwrap_or(1),
    );
    let mut figures = Vec::new();
    for (call, path) in calls(today, feature, presentation) {
        let mut times = Vec::with_capacity(samples);
        let (mut errors, mut bytes) = (0, 0);
        for i in 0..samples + 2 {
            let t = Instant::now();
            let r = http(addr, "GET", &path, Some(&cookie), None).await;
            let ms = t.elapsed().as_secs_f64() * 1000.0;
            match r {
                Ok((200, _, b)) => bytes = b.len(),
                Ok((status, _, b)) => {
                    errors += 1;
                    if errors == 1 {
                        eprintln!(
                            "{call}: HTTP {status} {}",
                            String::from_utf8_lossy(&b[..b.len().min(300)])
                        );
                    }
                }
                Err(e) => {
                    errors += 1;
                    eprintln!("{call}: {e}");
                }
            }
            if i >= 2 {
                times.push(ms);
            }
        }
        times.sort_by(|a, b| a.total_cmp(b));
        figures.push(CallFigures {
            call,
            path,
            samples,
            errors,
            p50_ms: percentile(&times, 0.5),
            p99_ms: percentile(&times, 0.99),
            max_ms: times.last().copied().unwrap_or_default(),
            bytes,
        });
    }
    Ok(YearRun {
        backend: cluster.backend,
        figures,
        setup,
    })
}

fn backend_name(b: Backend) -> &'static str {
    match b {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    }
}

/// The figures as a table, and written to `<out>/<date>-year.json`.
pub fn report(runs: &[YearRun], out: &Path, date: &str) -> anyhow::Result<String> {
    let json = json!(runs
        .iter()
        .map(|r| json!({ "target": backend_name(r.backend), "setup": r.setup, "calls": r.figures }))
        .collect::<Vec<_>>());
    std::fs::create_dir_all(out)?;
    std::fs::write(
        out.join(format!("{date}-year.json")),
        serde_json::to_vec_pretty(&json)?,
    )?;
    Ok(table(runs))
}

/// The figures as a Markdown table.
pub fn table(runs: &[YearRun]) -> String {
    let mut table = String::from(
        "| target | call | p50 ms | p99 ms | max ms | errors | bytes |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for r in runs {
        for f in &r.figures {
            table.push_str(&format!(
                "| {} | {} | {:.1} | {:.1} | {:.1} | {} | {} |\n",
                backend_name(r.backend),
                f.call,
                f.p50_ms,
                f.p99_ms,
                f.max_ms,
                f.errors,
                f.bytes
            ));
        }
    }
    table
}
