//! Fresh databases for tests: an SQLite file always, and a new PostgreSQL database when
//! `KUPA_TEST_POSTGRES_URL` is set. A set URL that does not answer fails the test: CI must
//! never pass by skipping PostgreSQL.

use crate::Db;

pub const POSTGRES_URL_VAR: &str = "KUPA_TEST_POSTGRES_URL";

/// The PostgreSQL server to test against, if any (an empty value counts as unset).
pub fn postgres_url() -> Option<String> {
    std::env::var(POSTGRES_URL_VAR)
        .ok()
        .filter(|u| !u.is_empty())
}

/// A database made for one test, dropped (PostgreSQL) or deleted (SQLite) by `cleanup`.
pub struct TestDb {
    pub name: String,
    pub db: Db,
    pub url: String,
    admin_url: Option<String>,
    sqlite_path: Option<std::path::PathBuf>,
}

fn random_suffix() -> String {
    use rand::Rng;
    let n: u64 = rand::rng().random();
    format!("{n:016x}")
}

/// Replaces the database name (the path) of a PostgreSQL URL.
pub fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let scheme_end = base.find("://").map(|i| i + 3).unwrap_or(0);
    let host_end = base[scheme_end..]
        .find('/')
        .map(|i| i + scheme_end)
        .unwrap_or(base.len());
    let mut out = format!("{}/{}", &base[..host_end], name);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

/// A short, stable name for one set of migrations (FNV-1a over their versions and checksums):
/// a template is reused only by the migrations it was made with.
fn migrations_key(migrator: &sqlx::migrate::Migrator) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for m in migrator.iter() {
        for b in m.version.to_le_bytes().iter().chain(m.checksum.iter()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// An SQLite file migrated once per set of migrations and copied for each test (migrating
/// 40-odd files per test was most of a short test's time). Made under a private name and
/// renamed into place, so processes that make it at once never see half of one.
async fn sqlite_template() -> &'static std::path::Path {
    static TEMPLATE: tokio::sync::OnceCell<std::path::PathBuf> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let key = migrations_key(&crate::SQLITE_MIGRATOR);
            let path = std::env::temp_dir().join(format!("kupa-template-{key}.db"));
            if path.exists() {
                return path;
            }
            let work = std::env::temp_dir().join(format!("kupa-template-{}", random_suffix()));
            let building = work.with_extension("build.db");
            let whole = work.with_extension("db");
            let db = Db::connect(&format!("sqlite:{}", building.display()), 1)
                .await
                .expect("open the SQLite template");
            db.migrate().await.expect("migrate the SQLite template");
            // One self-contained file, whatever the write-ahead log held.
            db.exec_admin(&format!("VACUUM INTO '{}'", whole.display()))
                .await
                .expect("write the SQLite template");
            db.close().await;
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", building.display()));
            }
            std::fs::rename(&whole, &path).expect("put the SQLite template in place");
            path
        })
        .await
}

/// A PostgreSQL database migrated once per set of migrations, that each test's database is
/// created from (`CREATE DATABASE ... TEMPLATE`). Made under an advisory lock and renamed into
/// place when whole, so concurrent test processes make it once and never copy half of one.
async fn postgres_template(admin_url: &str) -> &'static str {
    static TEMPLATE: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    TEMPLATE
        .get_or_init(|| async {
            let name = format!(
                "kupa_template_{}",
                migrations_key(&crate::POSTGRES_MIGRATOR)
            );
            let admin = Db::connect(admin_url, 1).await.unwrap_or_else(|e| {
                panic!("{POSTGRES_URL_VAR} is set but PostgreSQL does not answer: {e}")
            });
            // One connection, so the lock and its release are on the same session.
            admin
                .exec_admin("SELECT pg_advisory_lock(727001)")
                .await
                .expect("lock the template's making");
            if !admin.database_exists(&name).await {
                let building = format!("{name}_building");
                admin
                    .exec_admin(&format!("DROP DATABASE IF EXISTS {building} WITH (FORCE)"))
                    .await
                    .expect("drop a half-made template");
                admin
                    .exec_admin(&format!("CREATE DATABASE {building}"))
                    .await
                    .expect("create the template database");
                let db = Db::connect(&with_database(admin_url, &building), 1)
                    .await
                    .expect("connect to the template database");
                db.migrate().await.expect("migrate the template database");
                db.close().await;
                admin
                    .exec_admin(&format!("ALTER DATABASE {building} RENAME TO {name}"))
                    .await
                    .expect("put the template in place");
            }
            for leftover in admin.leftover_test_databases().await {
                drop_in_background(admin_url.to_owned(), leftover);
            }
            admin
                .exec_admin("SELECT pg_advisory_unlock(727001)")
                .await
                .expect("unlock the template's making");
            admin.close().await;
            name
        })
        .await
}

/// Drops a test database without making the test wait: `DROP DATABASE` waits for a checkpoint
/// (seconds on a busy machine), and drops running at once share one. Drops still running when
/// the process ends are left to the next test process, which drops the databases of processes
/// that are gone (`leftover_test_databases`).
fn drop_in_background(admin_url: String, name: String) {
    static DROPPER: std::sync::OnceLock<tokio::runtime::Runtime> = std::sync::OnceLock::new();
    let runtime = DROPPER.get_or_init(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("test-db-dropper")
            .enable_all()
            .build()
            .expect("start the test databases' dropper")
    });
    runtime.spawn(async move {
        if let Ok(admin) = Db::connect(&admin_url, 1).await {
            let _ = admin
                .exec_admin(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .await;
            admin.close().await;
        }
    });
}

/// The process that made a test database, from its name (`kupa_test_<pid>_<random>`).
fn maker_pid(name: &str) -> Option<u32> {
    name.strip_prefix("kupa_test_")?
        .split_once('_')?
        .0
        .parse()
        .ok()
}

impl TestDb {
    pub async fn sqlite() -> TestDb {
        let path = std::env::temp_dir().join(format!("kupa-test-{}.db", random_suffix()));
        std::fs::copy(sqlite_template().await, &path).expect("copy the migrated SQLite template");
        let url = format!("sqlite:{}", path.display());
        let db = Db::connect(&url, 8)
            .await
            .expect("open a fresh SQLite file");
        // Already migrated: this only checks the template is whole.
        db.migrate().await.expect("migrate SQLite");
        TestDb {
            name: "sqlite".into(),
            db,
            url,
            admin_url: None,
            sqlite_path: Some(path),
        }
    }

    pub async fn postgres(admin_url: &str) -> TestDb {
        let name = format!("kupa_test_{}_{}", std::process::id(), random_suffix());
        let template = postgres_template(admin_url).await;
        let admin = Db::connect(admin_url, 1).await.unwrap_or_else(|e| {
            panic!("{POSTGRES_URL_VAR} is set but PostgreSQL does not answer: {e}")
        });
        admin
            .exec_admin(&format!("CREATE DATABASE {name} TEMPLATE {template}"))
            .await
            .expect("create a test database");
        // A test database need not survive a crash of the server: its commits skip the wait for
        // the disk (the fault tests run kupa against databases of their own, durably).
        admin
            .exec_admin(&format!(
                "ALTER DATABASE {name} SET synchronous_commit = off"
            ))
            .await
            .expect("set up the test database");
        admin.close().await;
        let url = with_database(admin_url, &name);
        let db = Db::connect(&url, 8)
            .await
            .expect("connect to the test database");
        db.migrate().await.expect("migrate PostgreSQL");
        TestDb {
            name: "postgres".into(),
            db,
            url,
            admin_url: Some(admin_url.to_owned()),
            sqlite_path: None,
        }
    }

    pub async fn cleanup(self) {
        self.db.close().await;
        if let Some(path) = self.sqlite_path {
            for suffix in ["", "-wal", "-shm"] {
                let _ = std::fs::remove_file(format!("{}{suffix}", path.display()));
            }
        }
        if let Some(admin_url) = self.admin_url {
            let db_name = self
                .url
                .rsplit('/')
                .next()
                .unwrap_or_default()
                .split('?')
                .next()
                .unwrap_or_default()
                .to_owned();
            drop_in_background(admin_url, db_name);
        }
    }
}

impl Db {
    /// Runs a statement built at run time; only for test set-up with names we generated.
    async fn exec_admin(&self, sql: &str) -> Result<(), sqlx::Error> {
        crate::on_pool!(self, |p| sqlx::query(sqlx::AssertSqlSafe(sql.to_owned()))
            .execute(p)
            .await
            .map(|_| ()))
    }

    /// Test databases whose making process has ended (it was killed, or ended before its
    /// background drops did): only this machine's processes are judged, by `/proc`.
    async fn leftover_test_databases(&self) -> Vec<String> {
        let names: Vec<String> = crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT datname::text FROM pg_database WHERE datname LIKE 'kupa\\_test\\_%'"
        )
        .fetch_all(p)
        .await)
        .unwrap_or_default();
        names
            .into_iter()
            .filter(|n| {
                maker_pid(n).is_some_and(|pid| {
                    pid != std::process::id()
                        && !std::path::Path::new(&format!("/proc/{pid}")).exists()
                })
            })
            .collect()
    }

    /// Whether PostgreSQL has a database of this name (test set-up only).
    async fn database_exists(&self, name: &str) -> bool {
        let n: i64 = crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT count(*) FROM pg_database WHERE datname = $1"
        )
        .bind(name)
        .fetch_one(p)
        .await)
        .expect("read the list of databases");
        n > 0
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_test_database_names_its_maker() {
        assert_eq!(
            super::maker_pid("kupa_test_4242_00ff00ff00ff00ff"),
            Some(4242)
        );
        assert_eq!(super::maker_pid("kupa_test_00ff00ff00ff00ff"), None);
        assert_eq!(super::maker_pid("kupa_template_00ff"), None);
    }

    #[test]
    fn database_name_is_replaced_and_query_kept() {
        assert_eq!(
            super::with_database("postgres://postgres@127.0.0.1:5432/postgres", "x"),
            "postgres://postgres@127.0.0.1:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://u@h:5432", "x"),
            "postgres://u@h:5432/x"
        );
        assert_eq!(
            super::with_database("postgres://u@h/db?sslmode=disable", "x"),
            "postgres://u@h/x?sslmode=disable"
        );
    }
}
