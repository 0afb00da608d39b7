//! All of Kupa's SQL, on SQLite (embedded, one node) and PostgreSQL (several nodes).
//! One SQL text with `$n` placeholders serves both; the `on_pool!` macro runs it on whichever
//! pool is open, and the `Get` trait lets each row decoder be written once.

/// Runs the same expression on the open pool; `$p` is bound to the concrete pool.
/// The schema of each database, in order (crates/store/migrations).
pub(crate) static SQLITE_MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations/sqlite");
pub(crate) static POSTGRES_MIGRATOR: sqlx::migrate::Migrator =
    sqlx::migrate!("./migrations/postgres");

macro_rules! on_pool {
    ($db:expr, |$p:ident| $body:expr) => {
        match &$db.pool {
            $crate::Pool::Sqlite($p) => $body,
            $crate::Pool::Postgres($p) => $body,
        }
    };
}
pub(crate) use on_pool;

/// A transaction that will write, begun as a writer: on SQLite `BEGIN IMMEDIATE` takes the write
/// lock first (waiting out the busy timeout), where a deferred one that reads and then writes
/// fails at once with "database is locked" when another writer committed in between; on
/// PostgreSQL an ordinary transaction. For the `on_pool!` bodies that serve both databases.
pub(crate) trait BeginWrite {
    type Db: sqlx::Database;
    fn begin_write(
        &self,
    ) -> impl std::future::Future<Output = Result<sqlx::Transaction<'static, Self::Db>, sqlx::Error>>
    + Send;
}

impl BeginWrite for sqlx::SqlitePool {
    type Db = sqlx::Sqlite;
    fn begin_write(
        &self,
    ) -> impl std::future::Future<
        Output = Result<sqlx::Transaction<'static, sqlx::Sqlite>, sqlx::Error>,
    > + Send {
        self.begin_with("BEGIN IMMEDIATE")
    }
}

impl BeginWrite for sqlx::PgPool {
    type Db = sqlx::Postgres;
    fn begin_write(
        &self,
    ) -> impl std::future::Future<
        Output = Result<sqlx::Transaction<'static, sqlx::Postgres>, sqlx::Error>,
    > + Send {
        self.begin()
    }
}

/// Fetches rows and decodes each with `$decode`.
macro_rules! fetch_all {
    ($db:expr, $sql:expr, [$($arg:expr),*], $decode:path) => {
        on_pool!($db, |p| {
            let rows = sqlx::query($sql)$(.bind($arg))*.fetch_all(p).await.map_err(db_err)?;
            rows.iter().map(|r| $decode(r)).collect::<Result<Vec<_>, _>>().map_err(db_err)
        })
    };
}

macro_rules! fetch_optional {
    ($db:expr, $sql:expr, [$($arg:expr),*], $decode:path) => {
        on_pool!($db, |p| {
            let row = sqlx::query($sql)$(.bind($arg))*.fetch_optional(p).await.map_err(db_err)?;
            row.as_ref().map(|r| $decode(r)).transpose().map_err(db_err)
        })
    };
}

/// The liveness of a hold in SQL: the rule of `kupa_domain::catalogue::hold_is_live` (live until
/// its deadline, not at it), written here once because a query cannot call Rust. `$now` is the
/// query's parameter for now, and `$claims` the `seat_claims` row's alias or table name (none: the
/// bare column): `live_hold!("c", "$3")` is `c.expires_at > $3`. A literal, for `concat!`: sqlx
/// takes only literal SQL unasserted.
macro_rules! live_hold {
    ($now:literal) => {
        concat!("expires_at > ", $now)
    };
    ($claims:literal, $now:literal) => {
        concat!($claims, ".expires_at > ", $now)
    };
}

/// A hold that is no longer live (`expires_at <= $now`), the negation of [`live_hold!`]: free to
/// take over, or to sweep.
macro_rules! expired_hold {
    ($now:literal) => {
        concat!("expires_at <= ", $now)
    };
    ($claims:literal, $now:literal) => {
        concat!($claims, ".expires_at <= ", $now)
    };
}

mod audit;
mod backoffice;
mod catalogue;
mod catalogue_import;
mod checkout;
mod claims;
mod confirmations;
mod credentials;
mod customer_area;
mod holders;
mod holds;
mod inquiries;
mod login;
mod orders;
mod outbox;
mod outbox_queue;
mod payment_deals;
mod prices;
mod programme;
mod programme_macros;
mod programme_screenings;
mod rows;
mod sales_switches;
mod saved_cards;
pub mod seat_events;
mod seat_plans;
mod staff;
pub use orders::summary::rebuild_sales_summary;
pub use staff::{HistoryReport, seed_demo_history, seed_history};
pub mod testing;

/// A database URL without its password, for logs and messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.find('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..s + 3], &url[at..]),
                None => url.to_owned(),
            }
        }
        _ => url.to_owned(),
    }
}
mod tickets;
mod vod;
mod vouchers;
mod waivers;

use std::str::FromStr;
use std::time::Duration;

use kupa_app::error::constraint;
use kupa_app::{StoreError, StoreResult};
use sqlx::postgres::{PgPool, PgPoolOptions};
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqlitePoolOptions, SqliteSynchronous,
};

#[derive(Clone)]
pub(crate) enum Pool {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

/// The database behind every store port.
#[derive(Clone)]
pub struct Db {
    pub(crate) pool: Pool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub(crate) fn db_err(e: sqlx::Error) -> StoreError {
    if is_unavailable(&e) {
        return StoreError::Unavailable(e.to_string());
    }
    if let Some(name) = broken_constraint(&e) {
        return StoreError::Conflict {
            constraint: name,
            detail: e.to_string(),
        };
    }
    StoreError::Other(e.to_string())
}

/// The named constraint a write broke, as both migration trees name it. PostgreSQL says the
/// name; SQLite names a CHECK constraint but a UNIQUE one only by its columns, so those are
/// looked up here, once.
fn broken_constraint(e: &sqlx::Error) -> Option<&'static str> {
    let sqlx::Error::Database(d) = e else {
        return None;
    };
    if let Some(name) = d.constraint() {
        return constraint::ALL
            .into_iter()
            .chain([constraint::CUSTOMERS_PKEY])
            .find(|c| *c == name);
    }
    let message = d.message();
    if let Some(columns) = message.strip_prefix("UNIQUE constraint failed: ") {
        return SQLITE_UNIQUE_COLUMNS
            .iter()
            .find(|(cols, _)| *cols == columns)
            .map(|(_, name)| *name);
    }
    let checked = message.strip_prefix("CHECK constraint failed: ")?;
    constraint::ALL.into_iter().find(|c| *c == checked.trim())
}

/// SQLite's words for a broken UNIQUE constraint ("UNIQUE constraint failed: <columns>"), by the
/// constraint's name.
const SQLITE_UNIQUE_COLUMNS: [(&str, &str); 8] = [
    ("customers.id", constraint::CUSTOMERS_PKEY),
    (
        "orders.reservation_number",
        constraint::ORDERS_RESERVATION_NUMBER,
    ),
    (
        "order_tickets.document_key",
        constraint::ORDER_TICKETS_DOCUMENT_KEY,
    ),
    ("ticket_codes.code_key", constraint::TICKET_CODES_CODE_KEY),
    ("members.member_number", constraint::MEMBERS_NUMBER_KEY),
    ("mini_sites.url", constraint::MINI_SITES_URL_KEY),
    (
        "seats.seatplan_id, seats.x, seats.y",
        constraint::SEATS_PLACE_KEY,
    ),
    (
        "service_charges.business_id",
        constraint::SERVICE_CHARGES_BUSINESS_KEY,
    ),
];

/// The database cannot be reached, or is going away or coming back (PostgreSQL restarting):
/// the call failed cleanly and may be tried again (503), as opposed to a bug (500).
fn is_unavailable(e: &sqlx::Error) -> bool {
    match e {
        sqlx::Error::PoolTimedOut
        | sqlx::Error::Io(_)
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => true,
        // SQLSTATE class 08 (connection exception) and 57P0x (admin shutdown, crash shutdown,
        // cannot connect now: the server is starting or stopping).
        sqlx::Error::Database(d) => d
            .code()
            .is_some_and(|c| c.starts_with("08") || c.starts_with("57P")),
        _ => false,
    }
}

impl Db {
    /// `clause` on PostgreSQL (a row lock, say), nothing on SQLite (whose write transaction
    /// already holds the whole database).
    pub(crate) fn on_postgres(&self, clause: &'static str) -> &'static str {
        match self.pool {
            Pool::Postgres(_) => clause,
            Pool::Sqlite(_) => "",
        }
    }
    /// `sqlite:path/to/file.db` (created if missing, WAL) or `postgres://...`.
    pub async fn connect(url: &str, max_connections: u32) -> StoreResult<Db> {
        let pool = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            // No JIT: Kupa's statements are short, and PostgreSQL compiles any whose estimated
            // cost passes jit_above_cost, which a month of screenings with its per-screening
            // subqueries does: 260 ms of compiling for a 110 ms read (decision 0052).
            let options = sqlx::postgres::PgConnectOptions::from_str(url)
                .map_err(|e| StoreError::other(format!("bad database url: {e}")))?
                .options([("jit", "off")]);
            let pool = PgPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(5))
                .connect_with(options)
                .await
                .map_err(db_err)?;
            Pool::Postgres(pool)
        } else if url.starts_with("sqlite:") {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| StoreError::other(format!("bad database url: {e}")))?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                .synchronous(SqliteSynchronous::Normal)
                .busy_timeout(Duration::from_secs(10))
                .foreign_keys(true);
            if let Some(parent) = options
                .get_filename()
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
            {
                std::fs::create_dir_all(parent).map_err(|e| {
                    StoreError::other(format!("cannot create {}: {e}", parent.display()))
                })?;
            }
            let pool = SqlitePoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(10))
                .connect_with(options)
                .await
                .map_err(db_err)?;
            Pool::Sqlite(pool)
        } else {
            return Err(StoreError::other(
                "the database url must start with sqlite: or postgres://",
            ));
        };
        Ok(Db { pool })
    }

    pub fn backend(&self) -> Backend {
        match self.pool {
            Pool::Sqlite(_) => Backend::Sqlite,
            Pool::Postgres(_) => Backend::Postgres,
        }
    }

    /// Brings the schema up to date; safe to run on every start.
    pub async fn migrate(&self) -> StoreResult<()> {
        match &self.pool {
            Pool::Sqlite(p) => SQLITE_MIGRATOR.run(p).await,
            Pool::Postgres(p) => POSTGRES_MIGRATOR.run(p).await,
        }
        .map_err(|e| StoreError::other(format!("migration failed: {e}")))?;
        orders::summary::ensure_sales_summary(self).await
    }

    /// A cheap round trip, for the health check.
    pub async fn ping(&self) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query("SELECT 1")
            .execute(p)
            .await
            .map(|_| ())
            .map_err(db_err))
    }

    pub async fn close(&self) {
        on_pool!(self, |p| p.close().await)
    }
}

#[cfg(test)]
mod url_tests {
    use super::redact_url;

    #[test]
    fn passwords_stay_out_of_logged_urls() {
        assert_eq!(
            redact_url("postgres://kupa:s3cret@db:5432/kupa"),
            "postgres://kupa:***@db:5432/kupa"
        );
        assert_eq!(
            redact_url("postgres://postgres@127.0.0.1/x"),
            "postgres://postgres@127.0.0.1/x"
        );
        assert_eq!(redact_url("sqlite:data/kupa.db"), "sqlite:data/kupa.db");
    }
}
