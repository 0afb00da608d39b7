//! The confirmations to make (decision 0061), claimed like the outbox's messages (decision
//! 0057): one conditional UPDATE picks the oldest due job (`FOR UPDATE SKIP LOCKED` on
//! PostgreSQL, so two nodes take different jobs) and checks again that it is still due, so no job
//! is held by two workers at once. Its end is written only under its lease token, and the mail
//! it made goes into the outbox in that same transaction: a worker whose lease ran out (and whose
//! job another worker took) writes nothing.

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::ports::{
    ConfirmationJob, ConfirmationJobState, ConfirmationKind, ConfirmationSetback,
    ConfirmationStore, Mail, MailEntry, OutboxLease,
};
use sqlx::Row;

use crate::rows::Get;
use crate::{BeginWrite, Db, Pool, db_err};

/// A job may be claimed: queued and due, or claimed by a worker whose lease ran out and with
/// attempts left. Written once, used in the pick and again in the UPDATE's own check.
const DUE: &str = "((status = 'queued' AND next_attempt_at <= $3) \
                    OR (status = 'making' AND lease_until < $3 AND attempts < max_attempts))";

fn claim_sql(postgres: bool) -> String {
    let lock = if postgres {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    format!(
        "UPDATE confirmation_jobs SET status = 'making', attempts = attempts + 1, \
         lease_until = $1, lease_token = $2 \
         WHERE id = (SELECT id FROM confirmation_jobs WHERE {DUE} ORDER BY next_attempt_at, id LIMIT 1{lock}) \
         AND {DUE} RETURNING id, order_id, lang, what, attempts, max_attempts"
    )
}

fn kind(r: &impl Get) -> Result<ConfirmationKind, sqlx::Error> {
    let what = r.s("what")?;
    ConfirmationKind::parse(&what)
        .ok_or_else(|| sqlx::Error::Decode(format!("a confirmation job of kind {what}").into()))
}

fn job(r: &impl Get) -> Result<ConfirmationJob, sqlx::Error> {
    Ok(ConfirmationJob {
        id: r.i("id")?,
        order_id: r.rid("order_id")?,
        lang: r.s("lang")?,
        kind: kind(r)?,
        attempts: r.i("attempts")?,
        max_attempts: r.i("max_attempts")?,
    })
}

fn state(r: &impl Get) -> Result<ConfirmationJobState, sqlx::Error> {
    Ok(ConfirmationJobState {
        id: r.i("id")?,
        kind: kind(r)?,
        status: r.s("status")?,
        attempts: r.i("attempts")?,
        last_error: r.os("last_error")?,
    })
}

/// The job's end, under its lease.
const DONE: &str = "UPDATE confirmation_jobs SET status = 'done', done_at = $3, lease_until = NULL, \
                    lease_token = NULL, last_error = NULL \
                    WHERE id = $1 AND lease_token = $2 AND status = 'making'";

#[async_trait]
impl ConfirmationStore for Db {
    async fn claim_confirmation(
        &self,
        lease: &OutboxLease,
    ) -> StoreResult<Option<ConfirmationJob>> {
        let sql = claim_sql(matches!(self.pool, Pool::Postgres(_)));
        crate::on_pool!(self, |p| {
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(lease.until_ms)
                .bind(&lease.token)
                .bind(lease.now_ms)
                .fetch_optional(p)
                .await
                .map_err(db_err)?;
            row.as_ref().map(job).transpose().map_err(db_err)
        })
    }

    async fn complete_confirmation(
        &self,
        id: i64,
        token: &str,
        mails: &[Mail],
        entry: MailEntry,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let infos = mails
            .iter()
            .map(crate::outbox::attachment_infos)
            .collect::<StoreResult<Vec<String>>>()?;
        let (status, max_attempts, next) = match entry {
            MailEntry::Recorded => ("recorded", 0, None),
            MailEntry::Queued { max_attempts } => ("queued", max_attempts, Some(now_ms)),
        };
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let held = sqlx::query(DONE)
                .bind(id)
                .bind(token)
                .bind(now_ms)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected()
                == 1;
            if !held {
                tx.rollback().await.map_err(db_err)?;
                return Ok(false);
            }
            for (m, attachments) in mails.iter().zip(&infos) {
                let mail_id: i64 = sqlx::query(
                    "INSERT INTO mail_outbox (recipient, subject, kind, reference, text_body, html_body, \
                     attachments, created_at, status, attempts, max_attempts, next_attempt_at) \
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11) RETURNING id",
                )
                .bind(&m.to)
                .bind(&m.subject)
                .bind(&m.kind)
                .bind(m.reference.as_deref())
                .bind(&m.text)
                .bind(&m.html)
                .bind(attachments)
                .bind(now_ms)
                .bind(status)
                .bind(max_attempts)
                .bind(next)
                .fetch_one(&mut *tx)
                .await
                .and_then(|r| r.try_get::<i64, _>("id"))
                .map_err(db_err)?;
                // Only a mail the worker will send keeps its bytes until it is sent; the offline
                // outbox keeps names and sizes, as it always has.
                if entry != MailEntry::Recorded {
                    crate::outbox::keep_attachment_bytes!(tx, mail_id, m);
                }
            }
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        })
    }

    async fn set_back_confirmation(
        &self,
        id: i64,
        token: &str,
        setback: &ConfirmationSetback,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let (status, next, error) = match setback {
            ConfirmationSetback::Retry { at_ms, error } => ("queued", Some(*at_ms), error),
            ConfirmationSetback::Failed { error } => ("failed", None, error),
        };
        let done_at = (status == "failed").then_some(now_ms);
        crate::on_pool!(self, |p| {
            sqlx::query(
            "UPDATE confirmation_jobs SET status = $1, next_attempt_at = COALESCE($2, next_attempt_at), \
             last_error = $3, done_at = $4, lease_until = NULL, lease_token = NULL \
             WHERE id = $5 AND lease_token = $6 AND status = 'making'"
        )
        .bind(status)
        .bind(next)
        .bind(error.as_str())
        .bind(done_at)
        .bind(id)
        .bind(token)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err)
        })
    }

    async fn fail_abandoned_confirmations(&self, now_ms: i64) -> StoreResult<u64> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE confirmation_jobs SET status = 'failed', done_at = $1, lease_until = NULL, \
             lease_token = NULL, last_error = 'the worker stopped during the last attempt' \
             WHERE status = 'making' AND lease_until < $1 AND attempts >= max_attempts"
        )
        .bind(now_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected())
        .map_err(db_err))
    }

    async fn confirmation_jobs(&self, order_id: &str) -> StoreResult<Vec<ConfirmationJobState>> {
        fetch_all!(
            self,
            "SELECT id, what, status, attempts, last_error FROM confirmation_jobs \
             WHERE order_id = $1 ORDER BY id",
            [order_id],
            state
        )
    }

    async fn confirmations_in_hand(&self, now_ms: i64) -> StoreResult<i64> {
        crate::on_pool!(self, |p| sqlx::query_scalar(
            "SELECT COUNT(*) FROM confirmation_jobs WHERE status = 'making' AND lease_until >= $1"
        )
        .bind(now_ms)
        .fetch_one(p)
        .await
        .map_err(db_err))
    }

    async fn confirmations_waiting(&self) -> StoreResult<(i64, Option<i64>)> {
        crate::on_pool!(self, |p| {
            let row = sqlx::query(
                "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM confirmation_jobs \
                 WHERE status IN ('queued', 'making')",
            )
            .fetch_one(p)
            .await
            .map_err(db_err)?;
            Ok::<_, StoreError>((
                row.i("n").map_err(db_err)?,
                row.oi("oldest").map_err(db_err)?,
            ))
        })
    }
}
