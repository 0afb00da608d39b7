//! The servers under test: `kupa serve --demo --test-mode` child processes on fresh databases
//! (a SQLite file in a temp folder, or a PostgreSQL database created for the run and dropped
//! after it), their memory, and stopping them.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use serde::Serialize;
use sqlx::Connection;

use kupa_http_client::{Conn, Request};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn target_name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite-1-node",
            Backend::Postgres => "postgres-2-nodes",
        }
    }

    pub fn nodes(self) -> usize {
        match self {
            Backend::Sqlite => 1,
            Backend::Postgres => 2,
        }
    }
}

pub struct Node {
    pub addr: SocketAddr,
    child: Child,
    pub log: PathBuf,
}

/// The servers of one run and the database they share.
pub struct Cluster {
    pub backend: Backend,
    pub nodes: Vec<Node>,
    /// What the run's checks connect to.
    pub database_url: String,
    /// PostgreSQL: the admin URL and the name of the database to drop afterwards.
    drop: Option<(String, String)>,
    pub dir: PathBuf,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Memory {
    pub node: String,
    /// Peak resident set (VmHWM), MiB.
    pub peak_rss_mib: f64,
    /// Resident set at the end of the run (VmRSS), MiB.
    pub rss_mib: f64,
}

pub struct Settings {
    pub kupa: PathBuf,
    pub postgres_url: String,
    pub base_port: u16,
}

static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

impl Cluster {
    pub async fn start(backend: Backend, s: &Settings) -> anyhow::Result<Cluster> {
        let (mut cluster, run) = Cluster::create(backend, s).await?;
        cluster.spawn_nodes(s, run).await?;
        Ok(cluster)
    }

    /// The database of a run, made as [`Cluster::start`] makes it, with no server yet: the year
    /// of sales is written into it first ([`Cluster::spawn_nodes`] then starts the servers).
    pub async fn create(backend: Backend, s: &Settings) -> anyhow::Result<(Cluster, u32)> {
        let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        // Digits and underscores only: safe to write into the SQL below.
        let tag = format!("kupa_bench_{}_{run}", std::process::id());
        let dir = std::env::temp_dir().join(&tag);
        // Made once the database exists, so a PostgreSQL that cannot be reached leaves nothing.
        let (database_url, drop) = match backend {
            Backend::Sqlite => (format!("sqlite:{}", dir.join("kupa.db").display()), None),
            Backend::Postgres => {
                let mut admin = sqlx::PgConnection::connect(&s.postgres_url)
                    .await
                    .with_context(|| {
                        format!(
                            "cannot reach PostgreSQL at {} (set KUPA_BENCH_POSTGRES_URL)",
                            kupa_store::redact_url(&s.postgres_url)
                        )
                    })?;
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "DROP DATABASE IF EXISTS {tag}"
                )))
                .execute(&mut admin)
                .await?;
                sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {tag}")))
                    .execute(&mut admin)
                    .await
                    .context("create the run's database")?;
                admin.close().await?;
                (
                    with_database(&s.postgres_url, &tag),
                    Some((s.postgres_url.clone(), tag.clone())),
                )
            }
        };
        std::fs::create_dir_all(&dir).with_context(|| format!("create {}", dir.display()))?;
        Ok((
            Cluster {
                backend,
                nodes: Vec::new(),
                database_url,
                drop,
                dir,
            },
            run,
        ))
    }

    /// A run on a database that already exists (a year kept by `KUPA_BENCH_KEEP`): its servers
    /// get a folder of their own for their logs; the database is never dropped.
    pub fn existing(backend: Backend, database_url: &str) -> anyhow::Result<(Cluster, u32)> {
        let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("kupa_bench_{}_{run}", std::process::id()));
        std::fs::create_dir_all(&dir).with_context(|| format!("create {}", dir.display()))?;
        Ok((
            Cluster {
                backend,
                nodes: Vec::new(),
                database_url: database_url.to_owned(),
                drop: None,
                dir,
            },
            run,
        ))
    }

    /// Starts the run's servers, one at a time: the first migrates (and loads the demo into an
    /// empty database), the others find it there.
    pub async fn spawn_nodes(&mut self, s: &Settings, run: u32) -> anyhow::Result<()> {
        let cluster = self;
        // One node at a time: the first migrates and loads the demo, the others find it there.
        for i in 0..cluster.backend.nodes() {
            let port = s.base_port + (run as u16 % 50) * 4 + i as u16;
            let addr: SocketAddr = format!("127.0.0.1:{port}").parse()?;
            let log = cluster.dir.join(format!("node{i}.log"));
            let node = match spawn(&s.kupa, addr, &cluster.database_url, &log) {
                Ok(n) => n,
                Err(e) => {
                    cluster.stop().await;
                    return Err(e);
                }
            };
            cluster.nodes.push(node);
            let last = cluster.nodes.len() - 1;
            if let Err(e) = wait_healthy(&mut cluster.nodes[last]).await {
                cluster.stop().await;
                return Err(e);
            }
        }
        Ok(())
    }

    pub fn addrs(&self) -> Vec<SocketAddr> {
        self.nodes.iter().map(|n| n.addr).collect()
    }

    pub fn memory(&self) -> Vec<Memory> {
        self.nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                let (hwm, rss) = proc_memory(n.child.id()).unwrap_or((0, 0));
                Memory {
                    node: format!("node{i} ({})", n.addr),
                    peak_rss_mib: mib(hwm),
                    rss_mib: mib(rss),
                }
            })
            .collect()
    }

    /// CPU seconds (user + system) each node has used so far.
    pub fn cpu_seconds(&self) -> Vec<f64> {
        self.nodes
            .iter()
            .map(|n| process_cpu_seconds(&n.child.id().to_string()).unwrap_or(0.0))
            .collect()
    }

    /// Every node still running (none crashed during the run)?
    pub fn crashed(&mut self) -> Vec<String> {
        self.nodes
            .iter_mut()
            .filter_map(|n| match n.child.try_wait() {
                Ok(Some(status)) => Some(format!(
                    "{} exited ({status}); log: {}",
                    n.addr,
                    n.log.display()
                )),
                _ => None,
            })
            .collect()
    }

    /// Stops the servers (SIGTERM, then SIGKILL after 5 s), drops the PostgreSQL database and
    /// removes the temp folder.
    pub async fn stop(&mut self) {
        for n in &mut self.nodes {
            let _ = Command::new("kill")
                .args(["-TERM", &n.child.id().to_string()])
                .status();
        }
        for n in &mut self.nodes {
            let deadline = Instant::now() + Duration::from_secs(5);
            loop {
                match n.child.try_wait() {
                    Ok(Some(_)) => break,
                    Ok(None) if Instant::now() < deadline => {
                        tokio::time::sleep(Duration::from_millis(50)).await
                    }
                    _ => {
                        let _ = n.child.kill();
                        let _ = n.child.wait();
                        break;
                    }
                }
            }
        }
        self.nodes.clear();
        // KUPA_BENCH_KEEP keeps the run's database (its folder, and on PostgreSQL the database)
        // for reading it afterwards, e.g. timing a report's SQL in sqlite3 or psql.
        let keep = std::env::var_os("KUPA_BENCH_KEEP").is_some();
        if keep {
            eprintln!(
                "kept the run's database: {}",
                kupa_store::redact_url(&self.database_url)
            );
            self.drop = None;
        }
        if let Some((admin, name)) = self.drop.take() {
            match sqlx::PgConnection::connect(&admin).await {
                Ok(mut c) => {
                    if let Err(e) = sqlx::query(sqlx::AssertSqlSafe(format!(
                        "DROP DATABASE IF EXISTS {name} WITH (FORCE)"
                    )))
                    .execute(&mut c)
                    .await
                    {
                        eprintln!("warning: could not drop the bench database {name}: {e}");
                    }
                    let _ = c.close().await;
                }
                Err(e) => eprintln!("warning: could not drop the bench database {name}: {e}"),
            }
        }
        if !keep {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

fn spawn(kupa: &Path, addr: SocketAddr, db: &str, log: &Path) -> anyhow::Result<Node> {
    // A port someone else listens on would have the bench measure their server.
    std::net::TcpListener::bind(addr).with_context(|| {
        format!(
            "port {} is taken: pick others with --base-port",
            addr.port()
        )
    })?;
    let out = std::fs::File::create(log)?;
    let err = out.try_clone()?;
    let child = Command::new(kupa)
        .args([
            "serve",
            "--demo",
            "--test-mode",
            "--addr",
            &addr.to_string(),
        ])
        .env("KUPA_DATABASE_URL", db)
        // The bench sets rate limits explicitly (off): it measures the server, not the limiter.
        .env("KUPA_RATE_LIMITS", "off")
        .env("KUPA_HOLD_LIMITS", "off")
        // Every buyer and watcher comes from 127.0.0.1: the per-address caps are off too
        // (the node's own connection cap stays, kept below the open-files limit).
        .env("KUPA_MAX_CONNECTIONS_PER_ADDRESS", "0")
        .env("KUPA_MAX_EVENT_STREAMS_PER_ADDRESS", "0")
        // The node's connection cap (default 10,000) above the watchers scenario's 10,000
        // streams plus its driver; the node lowers it to its open-files limit less a margin.
        .env("KUPA_MAX_HTTP_CONNECTIONS", "30000")
        // Warnings only: a log line per request would measure the terminal, not the server.
        .env(
            "KUPA_LOG",
            std::env::var("KUPA_BENCH_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .stdin(Stdio::null())
        .stdout(out)
        .stderr(err)
        .spawn()
        .with_context(|| format!("start {}", kupa.display()))?;
    Ok(Node {
        addr,
        child,
        log: log.to_owned(),
    })
}

async fn wait_healthy(node: &mut Node) -> anyhow::Result<()> {
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut conn = Conn::new(node.addr);
    loop {
        if let Ok(Some(status)) = node.child.try_wait() {
            let log = std::fs::read_to_string(&node.log).unwrap_or_default();
            let tail: Vec<&str> = log.lines().rev().take(20).collect();
            bail!(
                "kupa on {} exited at start ({status}):\n{}",
                node.addr,
                tail.into_iter().rev().collect::<Vec<_>>().join("\n")
            );
        }
        let r = conn
            .send(&Request {
                method: "GET",
                path: "/api/health",
                session: None,
                body: None,
            })
            .await;
        if let Ok(r) = r
            && r.status == 200
        {
            return Ok(());
        }
        if Instant::now() > deadline {
            bail!("kupa on {} did not become healthy in 90 s", node.addr);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// User plus system CPU seconds of a process (`self` for this one), from /proc/<pid>/stat
/// (clock ticks of 1/100 s, Linux's USER_HZ).
pub fn process_cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_ascii_whitespace().collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name.
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// The machine's 1, 5 and 15 minute load averages: the bench shares the machine.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| {
            s.split_ascii_whitespace()
                .take(3)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}

/// (VmHWM, VmRSS) in kB.
fn proc_memory(pid: u32) -> Option<(u64, u64)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let field = |name: &str| -> Option<u64> {
        status
            .lines()
            .find(|l| l.starts_with(name))?
            .split_ascii_whitespace()
            .nth(1)?
            .parse()
            .ok()
    };
    Some((field("VmHWM:")?, field("VmRSS:")?))
}

fn mib(kb: u64) -> f64 {
    (kb as f64 / 1024.0 * 10.0).round() / 10.0
}

/// The same PostgreSQL URL with another database name.
pub fn with_database(url: &str, db: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_and_path = &base[scheme_end..];
    let host = host_and_path.split('/').next().unwrap_or_default();
    let mut out = format!("{}{host}/{db}", &base[..scheme_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_postgres_url_gets_another_database() {
        assert_eq!(
            with_database("postgres://postgres@127.0.0.1:5432/postgres", "b1"),
            "postgres://postgres@127.0.0.1:5432/b1"
        );
        assert_eq!(
            with_database("postgres://u:p@h:1/x?sslmode=disable", "b1"),
            "postgres://u:p@h:1/b1?sslmode=disable"
        );
        assert_eq!(with_database("postgres://h", "b1"), "postgres://h/b1");
    }
}
