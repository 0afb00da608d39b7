//! The back office's audit read back (decision 0067): a screening's changes, and the audit page
//! across the user's businesses, newest first. Written by each change in its own transaction
//! (`programme.rs`, `programme_screenings.rs`, `prices.rs`, `backoffice.rs`).

use kupa_app::error::StoreResult;
use kupa_app::programme::{AuditQuery, ChangeRecord};
use kupa_domain::ids::PresentationId;

use crate::rows::Get;
use crate::{Db, db_err};

type R<T> = Result<T, sqlx::Error>;

/// The audit's columns with the name of who made the change.
const AUDIT_SELECT: &str = "SELECT c.id, c.kind, c.business_id, c.location_id, c.presentation_id, c.changed_at, \
     c.staff_user_id, c.before_doc, c.after_doc, \
     COALESCE(u.first_name, '') AS first_name, COALESCE(u.last_name, '') AS last_name \
     FROM backoffice_audit c LEFT JOIN staff_users u ON u.id = c.staff_user_id";

struct AuditRow {
    id: i64,
    kind: String,
    business_id: Option<i64>,
    location_id: Option<i64>,
    presentation_id: Option<PresentationId>,
    at_ms: i64,
    staff_user_id: i64,
    before: Option<String>,
    after: String,
    name: String,
}

fn audit_row(r: &impl Get) -> R<AuditRow> {
    Ok(AuditRow {
        id: r.i("id")?,
        kind: r.s("kind")?,
        business_id: r.oi("business_id")?,
        location_id: r.oi("location_id")?,
        presentation_id: r.op("presentation_id")?,
        at_ms: r.i("changed_at")?,
        staff_user_id: r.i("staff_user_id")?,
        before: r.os("before_doc")?,
        after: r.s("after_doc")?,
        name: format!("{} {}", r.s("first_name")?, r.s("last_name")?),
    })
}

fn change_record(a: AuditRow) -> StoreResult<ChangeRecord> {
    let doc = |s: &str| serde_json::from_str(s).map_err(kupa_app::StoreError::other);
    Ok(ChangeRecord {
        id: a.id,
        business_id: a.business_id,
        location_id: a.location_id,
        presentation_id: a.presentation_id,
        kind: a.kind,
        at_ms: a.at_ms,
        staff_user_id: a.staff_user_id,
        staff_name: a.name.trim().to_owned(),
        before: a.before.as_deref().map(doc).transpose()?,
        after: doc(&a.after)?,
    })
}

/// A screening's recorded changes, oldest first.
pub(crate) async fn changes_of(
    db: &Db,
    presentation_id: PresentationId,
) -> StoreResult<Vec<ChangeRecord>> {
    let rows = on_pool!(db, |p| {
        // Only constant text: the select and this clause.
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "{AUDIT_SELECT} WHERE c.presentation_id = $1 ORDER BY c.id"
        )))
        .bind(presentation_id)
        .fetch_all(p)
        .await
        .map_err(db_err)?
        .iter()
        .map(audit_row)
        .collect::<R<Vec<_>>>()
        .map_err(db_err)
    })?;
    rows.into_iter().map(change_record).collect()
}

/// A page of the audit, newest first.
pub(crate) async fn page(db: &Db, q: &AuditQuery) -> StoreResult<Vec<ChangeRecord>> {
    if q.business_ids.is_empty() {
        return Ok(Vec::new());
    }
    // $1 the limit, $2 the row id before which, then the optional filters, then the businesses
    // (a change of the chain's own, with no business, is every manager's to read).
    let mut sql = format!("{AUDIT_SELECT} WHERE c.id < $2");
    let mut n = 2;
    if q.kind.is_some() {
        n += 1;
        sql.push_str(&format!(" AND c.kind = ${n}"));
    }
    if q.location_id.is_some() {
        n += 1;
        sql.push_str(&format!(" AND c.location_id = ${n}"));
    }
    let ids: Vec<String> = (0..q.business_ids.len())
        .map(|i| format!("${}", n + 1 + i))
        .collect();
    sql.push_str(&format!(
        " AND (c.business_id IS NULL OR c.business_id IN ({})) ORDER BY c.id DESC LIMIT $1",
        ids.join(", ")
    ));
    let rows = on_pool!(db, |p| {
        // Only constant text and numbered placeholders: every value is bound.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .bind(q.limit)
            .bind(q.before_id.unwrap_or(i64::MAX));
        if let Some(k) = &q.kind {
            query = query.bind(k.clone());
        }
        if let Some(l) = q.location_id {
            query = query.bind(l);
        }
        for b in &q.business_ids {
            query = query.bind(*b);
        }
        query
            .fetch_all(p)
            .await
            .map_err(db_err)?
            .iter()
            .map(audit_row)
            .collect::<R<Vec<_>>>()
            .map_err(db_err)
    })?;
    rows.into_iter().map(change_record).collect()
}
