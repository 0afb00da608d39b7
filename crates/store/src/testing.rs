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

impl TestDb {
    pub async fn sqlite() -> TestDb {
        let path = std::env::temp_dir().join(format!("kupa-test-{}.db", random_suffix()));
        let url = format!("sqlite:{}", path.display());
        let db = Db::connect(&url, 8)
            .await
            .expect("open a fresh SQLite file");
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
        let name = format!("kupa_test_{}", random_suffix());
        let admin = Db::connect(admin_url, 1).await.unwrap_or_else(|e| {
            panic!("{POSTGRES_URL_VAR} is set but PostgreSQL does not answer: {e}")
        });
        admin
            .exec_admin(&format!("CREATE DATABASE {name}"))
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
            if let Ok(admin) = Db::connect(&admin_url, 1).await {
                let _ = admin
                    .exec_admin(&format!("DROP DATABASE IF EXISTS {db_name} WITH (FORCE)"))
                    .await;
                admin.close().await;
            }
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
}

#[cfg(test)]
mod tests {
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
