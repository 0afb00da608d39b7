//! The two migration trees (migrations/sqlite and migrations/postgres) must build the same
//! schema: the same tables, the same columns (types compared by family, nullability too), the
//! same named constraints and the same indexes. Each tree is applied to a real database (SQLite
//! in memory; a scratch PostgreSQL database when KUPA_TEST_POSTGRES_URL is set) and the two
//! catalogues are compared, so a migration written for one database only fails here.
//!
//! Names PostgreSQL makes up for an unnamed constraint (`sites_pkey`, `orders_session_id_fkey`)
//! are not compared: SQLite has no names for those. A constraint named in the SQL (`CONSTRAINT
//! seat_claims_presentation_seat_key UNIQUE ...`) must be named alike in both trees, since the
//! store maps errors by those names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use kupa_store::testing::{postgres_url, with_database};
use sqlx::migrate::Migrator;
use sqlx::{AssertSqlSafe, Connection, Row};

/// Column types, loosely: a BOOLEAN is an INTEGER in SQLite, a BIGINT one in PostgreSQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Family {
    Integer,
    Real,
    Text,
    Bytes,
}

fn family(declared: &str) -> Family {
    let t = declared.trim().to_ascii_lowercase();
    let base = t.split('(').next().unwrap_or_default().trim();
    match base {
        "integer" | "int" | "bigint" | "smallint" | "boolean" | "bool" => Family::Integer,
        "real" | "double precision" | "float" | "numeric" | "decimal" => Family::Real,
        "text" | "character varying" | "varchar" | "character" | "char" | "json" | "jsonb" => {
            Family::Text
        }
        "blob" | "bytea" => Family::Bytes,
        other => panic!(
            "column type {other:?} has no family here yet: add it to `family` in {}",
            file!()
        ),
    }
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Column {
    family: Family,
    not_null: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Constraint {
    table: String,
    name: String,
    /// PRIMARY KEY, UNIQUE, FOREIGN KEY or CHECK.
    kind: String,
}

#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Index {
    name: String,
    table: String,
    unique: bool,
    columns: Vec<String>,
}

/// One database's schema as its catalogue tells it.
#[derive(Debug, Default)]
struct Schema {
    tables: BTreeMap<String, BTreeMap<String, Column>>,
    /// Constraints named in the SQL (SQLite knows no other names).
    named: BTreeSet<Constraint>,
    /// PostgreSQL only: constraints whose name is the one it makes up for an unnamed constraint.
    made_up: BTreeSet<Constraint>,
    /// Indexes made with CREATE INDEX, not those behind a key.
    indexes: BTreeSet<Index>,
}

fn tree(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("migrations")
        .join(name)
}

const MIGRATIONS_TABLE: &str = "_sqlx_migrations";

// ---------------------------------------------------------------------------------------------
// SQLite: sqlite_master and the table_info, index_list and index_info pragmas.

async fn sqlite_schema(migrations: &Path) -> Schema {
    let mut conn = sqlx::SqliteConnection::connect("sqlite::memory:")
        .await
        .expect("an SQLite database in memory");
    Migrator::new(migrations)
        .await
        .expect("read the SQLite migrations")
        .run(&mut conn)
        .await
        .expect("apply the SQLite migrations");
    let tables = sqlx::query(
        "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> $1 ORDER BY name",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut conn)
    .await
    .unwrap();
    let mut schema = Schema::default();
    for t in tables {
        let table: String = t.get("name");
        let sql: String = t.get("sql");
        let columns = sqlx::query("SELECT name, type, \"notnull\", pk FROM pragma_table_info($1)")
            .bind(&table)
            .fetch_all(&mut conn)
            .await
            .unwrap();
        let columns = columns
            .iter()
            .map(|c| {
                let not_null: i64 = c.get("notnull");
                let pk: i64 = c.get("pk");
                (
                    c.get::<String, _>("name"),
                    Column {
                        family: family(c.get("type")),
                        not_null: not_null == 1 || pk > 0,
                    },
                )
            })
            .collect();
        schema.tables.insert(table.clone(), columns);
        schema.named.extend(
            named_in_sql(&sql)
                .into_iter()
                .map(|(name, kind)| Constraint {
                    table: table.clone(),
                    name,
                    kind,
                }),
        );
        let indexes =
            sqlx::query("SELECT name, \"unique\" FROM pragma_index_list($1) WHERE origin = 'c'")
                .bind(&table)
                .fetch_all(&mut conn)
                .await
                .unwrap();
        for i in indexes {
            let name: String = i.get("name");
            let unique: i64 = i.get("unique");
            let columns = sqlx::query("SELECT name FROM pragma_index_info($1) ORDER BY seqno")
                .bind(&name)
                .fetch_all(&mut conn)
                .await
                .unwrap()
                .iter()
                .map(|c| {
                    c.get::<Option<String>, _>("name")
                        .unwrap_or_else(|| "(expression)".into())
                })
                .collect();
            schema.indexes.insert(Index {
                name,
                table: table.clone(),
                unique: unique == 1,
                columns,
            });
        }
    }
    conn.close().await.unwrap();
    schema
}

/// The constraints a CREATE TABLE names (`CONSTRAINT name KIND ...`), with their kind.
fn named_in_sql(sql: &str) -> Vec<(String, String)> {
    let words: Vec<String> = sql
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|w| !w.is_empty())
        .map(|w| w.trim_matches('"').to_owned())
        .collect();
    words
        .windows(3)
        .filter(|w| w[0].eq_ignore_ascii_case("constraint"))
        .filter_map(|w| {
            let kind = match w[2].to_ascii_uppercase().as_str() {
                "PRIMARY" => "PRIMARY KEY",
                "UNIQUE" => "UNIQUE",
                "CHECK" => "CHECK",
                "FOREIGN" | "REFERENCES" => "FOREIGN KEY",
                _ => return None,
            };
            Some((w[1].clone(), kind.to_owned()))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL: information_schema, and pg_index for the indexes.

async fn postgres_schema(admin_url: &str, migrations: &Path) -> Schema {
    let scratch = format!("kupa_drift_{:016x}", rand::random::<u64>());
    let mut admin = sqlx::PgConnection::connect(admin_url)
        .await
        .unwrap_or_else(|e| panic!("KUPA_TEST_POSTGRES_URL is set but does not answer: {e}"));
    sqlx::query(AssertSqlSafe(format!("CREATE DATABASE {scratch}")))
        .execute(&mut admin)
        .await
        .expect("create a scratch database");
    let read = async {
        let mut conn = sqlx::PgConnection::connect(&with_database(admin_url, &scratch))
            .await
            .expect("connect to the scratch database");
        Migrator::new(migrations)
            .await
            .expect("read the PostgreSQL migrations")
            .run(&mut conn)
            .await
            .expect("apply the PostgreSQL migrations");
        let schema = read_postgres(&mut conn).await;
        conn.close().await.unwrap();
        schema
    };
    let schema = read.await;
    sqlx::query(AssertSqlSafe(format!(
        "DROP DATABASE IF EXISTS {scratch} WITH (FORCE)"
    )))
    .execute(&mut admin)
    .await
    .expect("drop the scratch database");
    admin.close().await.unwrap();
    schema
}

async fn read_postgres(conn: &mut sqlx::PgConnection) -> Schema {
    let mut schema = Schema::default();
    let columns = sqlx::query(
        "SELECT c.table_name::text AS table_name, c.column_name::text AS column_name,
                c.data_type::text AS data_type, c.is_nullable::text AS is_nullable
         FROM information_schema.columns c
         JOIN information_schema.tables t
           ON t.table_schema = c.table_schema AND t.table_name = c.table_name
         WHERE c.table_schema = 'public' AND t.table_type = 'BASE TABLE' AND c.table_name <> $1",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for c in columns {
        let data_type: String = c.get("data_type");
        let nullable: String = c.get("is_nullable");
        schema
            .tables
            .entry(c.get("table_name"))
            .or_default()
            .insert(
                c.get("column_name"),
                Column {
                    family: family(&data_type),
                    not_null: nullable == "NO",
                },
            );
    }
    let constraints = sqlx::query(
        "SELECT tc.table_name::text AS table_name, tc.constraint_name::text AS name,
                tc.constraint_type::text AS kind,
                COALESCE(
                  (SELECT string_agg(k.column_name::text, ',' ORDER BY k.ordinal_position)
                     FROM information_schema.key_column_usage k
                    WHERE k.constraint_schema = tc.constraint_schema
                      AND k.constraint_name = tc.constraint_name),
                  (SELECT string_agg(u.column_name::text, ',')
                     FROM information_schema.constraint_column_usage u
                    WHERE u.constraint_schema = tc.constraint_schema
                      AND u.constraint_name = tc.constraint_name),
                  '') AS columns
         FROM information_schema.table_constraints tc
         WHERE tc.table_schema = 'public' AND tc.table_name <> $1
           AND tc.constraint_type IN ('PRIMARY KEY', 'UNIQUE', 'FOREIGN KEY', 'CHECK')
           AND tc.constraint_name::text NOT LIKE '%_not_null'",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for c in constraints {
        let constraint = Constraint {
            table: c.get("table_name"),
            name: c.get("name"),
            kind: c.get("kind"),
        };
        let columns: String = c.get("columns");
        let columns: Vec<&str> = columns.split(',').filter(|s| !s.is_empty()).collect();
        if is_made_up_name(&constraint, &columns) {
            schema.made_up.insert(constraint);
        } else {
            schema.named.insert(constraint);
        }
    }
    let indexes = sqlx::query(
        "SELECT i.relname::text AS name, t.relname::text AS table_name, ix.indisunique AS is_unique,
                ARRAY(SELECT COALESCE(a.attname::text, '(expression)')
                        FROM unnest(ix.indkey) WITH ORDINALITY AS k(attnum, ord)
                        LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                       ORDER BY k.ord) AS columns
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
         WHERE n.nspname = 'public' AND t.relname <> $1
           AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                            WHERE c.conindid = ix.indexrelid AND c.conrelid = t.oid
                              AND c.contype IN ('p', 'u', 'x'))",
    )
    .bind(MIGRATIONS_TABLE)
    .fetch_all(&mut *conn)
    .await
    .unwrap();
    for i in indexes {
        schema.indexes.insert(Index {
            name: i.get("name"),
            table: i.get("table_name"),
            unique: i.get("is_unique"),
            columns: i.get("columns"),
        });
    }
    schema
}

/// Whether PostgreSQL chose this name for a constraint the SQL left unnamed: `<table>_pkey`,
/// `<table>_<columns>_key` / `_fkey`, `<table>_<a column>_check` (with a digit when taken).
fn is_made_up_name(c: &Constraint, columns: &[&str]) -> bool {
    let name = c.name.trim_end_matches(|ch: char| ch.is_ascii_digit());
    let table = &c.table;
    match c.kind.as_str() {
        "PRIMARY KEY" => name == format!("{table}_pkey"),
        "UNIQUE" => name == format!("{table}_{}_key", columns.join("_")),
        "FOREIGN KEY" => name == format!("{table}_{}_fkey", columns.join("_")),
        "CHECK" => {
            name == format!("{table}_check")
                || columns
                    .iter()
                    .any(|col| name == format!("{table}_{col}_check"))
        }
        _ => false,
    }
}

// ---------------------------------------------------------------------------------------------
// The comparison.

/// Every way `b` differs from `a`, in words; empty when they have the same shape.
fn differences(a_name: &str, a: &Schema, b_name: &str, b: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    for (table, columns) in &a.tables {
        let Some(other) = b.tables.get(table) else {
            out.push(format!("table {table}: only in {a_name}"));
            continue;
        };
        for (column, shape) in columns {
            match other.get(column) {
                None => out.push(format!("column {table}.{column}: only in {a_name}")),
                Some(o) if o != shape => out.push(format!(
                    "column {table}.{column}: {a_name} {shape:?}, {b_name} {o:?}"
                )),
                Some(_) => {}
            }
        }
        for column in other.keys().filter(|c| !columns.contains_key(*c)) {
            out.push(format!("column {table}.{column}: only in {b_name}"));
        }
    }
    for table in b.tables.keys().filter(|t| !a.tables.contains_key(*t)) {
        out.push(format!("table {table}: only in {b_name}"));
    }
    let known = |s: &Schema, c: &Constraint| s.named.contains(c) || s.made_up.contains(c);
    for c in a.named.iter().filter(|c| !known(b, c)) {
        out.push(format!(
            "constraint {} ({}) on {}: named only in {a_name}",
            c.name, c.kind, c.table
        ));
    }
    for c in b.named.iter().filter(|c| !known(a, c)) {
        out.push(format!(
            "constraint {} ({}) on {}: named only in {b_name}",
            c.name, c.kind, c.table
        ));
    }
    for i in a.indexes.symmetric_difference(&b.indexes) {
        let side = if a.indexes.contains(i) {
            a_name
        } else {
            b_name
        };
        out.push(format!(
            "index {} on {} ({}{}): only in {side}",
            i.name,
            i.table,
            if i.unique { "unique, " } else { "" },
            i.columns.join(", ")
        ));
    }
    out
}

fn assert_same_shape(a_name: &str, a: &Schema, b_name: &str, b: &Schema) {
    let diffs = differences(a_name, a, b_name, b);
    assert!(
        diffs.is_empty(),
        "the {a_name} and {b_name} migrations build different schemas:\n  {}",
        diffs.join("\n  ")
    );
}

#[tokio::test]
async fn the_sqlite_and_postgres_migrations_build_the_same_schema() {
    let sqlite = sqlite_schema(&tree("sqlite")).await;
    // A reading that found nothing would compare equal: make sure it found the schema.
    assert!(
        sqlite.tables.len() > 10 && !sqlite.named.is_empty() && !sqlite.indexes.is_empty(),
        "the SQLite tree read as {} tables, {} named constraints, {} indexes",
        sqlite.tables.len(),
        sqlite.named.len(),
        sqlite.indexes.len()
    );
    let Some(url) = postgres_url() else {
        eprintln!("KUPA_TEST_POSTGRES_URL is not set: the PostgreSQL tree not compared");
        return;
    };
    let postgres = postgres_schema(&url, &tree("postgres")).await;
    assert_same_shape("sqlite", &sqlite, "postgres", &postgres);
}

/// The check itself: a copy of the SQLite tree with one more column must not pass for the same.
#[tokio::test]
async fn a_column_added_to_one_tree_only_is_a_difference() {
    let copy = std::env::temp_dir().join(format!("kupa-drift-{:016x}", rand::random::<u64>()));
    std::fs::create_dir_all(&copy).unwrap();
    for entry in std::fs::read_dir(tree("sqlite")).unwrap() {
        let path = entry.unwrap().path();
        std::fs::copy(&path, copy.join(path.file_name().unwrap())).unwrap();
    }
    std::fs::write(
        copy.join("9999_drift.sql"),
        "ALTER TABLE venues ADD COLUMN drifted TEXT;\nCREATE INDEX venues_drifted_idx ON venues (drifted);\n",
    )
    .unwrap();
    let same = sqlite_schema(&tree("sqlite")).await;
    let drifted = sqlite_schema(&copy).await;
    std::fs::remove_dir_all(&copy).unwrap();
    assert_eq!(
        differences("original", &same, "copy", &drifted),
        vec![
            "column venues.drifted: only in copy".to_owned(),
            "index venues_drifted_idx on venues (drifted): only in copy".to_owned(),
        ]
    );
    assert!(differences("original", &same, "again", &same).is_empty());
}

#[test]
fn names_postgres_makes_up_are_told_from_names_in_the_sql() {
    let c = |table: &str, name: &str, kind: &str| Constraint {
        table: table.into(),
        name: name.into(),
        kind: kind.into(),
    };
    assert!(is_made_up_name(
        &c("sites", "sites_pkey", "PRIMARY KEY"),
        &["id"]
    ));
    assert!(is_made_up_name(
        &c("orders", "orders_session_id_fkey", "FOREIGN KEY"),
        &["session_id"]
    ));
    assert!(is_made_up_name(
        &c("t", "t_a_b_key1", "UNIQUE"),
        &["a", "b"]
    ));
    assert!(!is_made_up_name(
        &c("seat_claims", "seat_claims_presentation_seat_key", "UNIQUE"),
        &["presentation_id", "section_id", "x", "y"]
    ));
    assert_eq!(
        named_in_sql(
            "CREATE TABLE t (a BIGINT CONSTRAINT t_a_check CHECK (a > 0), b TEXT, CONSTRAINT t_b_key UNIQUE (b))"
        ),
        vec![
            ("t_a_check".to_owned(), "CHECK".to_owned()),
            ("t_b_key".to_owned(), "UNIQUE".to_owned())
        ]
    );
}
