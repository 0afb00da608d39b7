//! The outbox as a queue (decision 0057): messages written to be sent, claimed one at a time by
//! a lease, and their attempts' ends. The claim is one conditional UPDATE: on PostgreSQL the row
//! is picked with `FOR UPDATE SKIP LOCKED`, so two nodes claim different rows, and the UPDATE
//! checks the row is still due, so no row is claimed twice; on SQLite the single writer
//! serialises the claims.

use kupa_app::error::{StoreError, StoreResult};
use kupa_app::ports::{
    Attachment, AttachmentInfo, Claimed, DeliveryOutcome, Mail, OutboxChannel, OutboxCount,
    OutboxLease, Queueing, Sms,
};
use kupa_domain::customer::MobileNumber;
use sqlx::Row;

use crate::rows::Get;
use crate::{BeginWrite, Db, Pool, db_err};

/// A row may be claimed: queued and due, or claimed by a sender whose lease ran out and with
/// attempts left. Written once, used in the pick and again in the UPDATE's own check.
const DUE: &str = "((status = 'queued' AND next_attempt_at <= $3) \
                    OR (status = 'sending' AND lease_until < $3 AND attempts < max_attempts))";

fn claim_sql(table: &str, postgres: bool) -> String {
    let lock = if postgres {
        " FOR UPDATE SKIP LOCKED"
    } else {
        ""
    };
    format!(
        "UPDATE {table} SET status = 'sending', attempts = attempts + 1, lease_until = $1, \
         lease_token = $2 \
         WHERE id = (SELECT id FROM {table} WHERE {DUE} ORDER BY next_attempt_at, id LIMIT 1{lock}) \
         AND {DUE} RETURNING *"
    )
}

fn table(channel: OutboxChannel) -> &'static str {
    match channel {
        OutboxChannel::Sms => "sms_outbox",
        OutboxChannel::Mail => "mail_outbox",
    }
}

fn claimed_sms(r: &impl Get) -> Result<Claimed<Sms>, sqlx::Error> {
    let recipient = r.s("recipient")?;
    let to = MobileNumber::parse(&recipient)
        .ok_or_else(|| sqlx::Error::Decode("an outbox SMS to a number that is none".into()))?;
    Ok(Claimed {
        id: r.i("id")?,
        attempts: r.i("attempts")?,
        max_attempts: r.i("max_attempts")?,
        message: Sms {
            to,
            kind: r.s("kind")?,
            reference: r.os("reference")?,
            text: r.s("body")?,
        },
    })
}

/// The mail without its attachments' bytes (read next).
fn claimed_mail(r: &impl Get) -> Result<(Claimed<Mail>, Vec<AttachmentInfo>), sqlx::Error> {
    let infos: Vec<AttachmentInfo> = serde_json::from_str(&r.s("attachments")?)
        .map_err(|e| sqlx::Error::Decode(format!("mail attachments: {e}").into()))?;
    Ok((
        Claimed {
            id: r.i("id")?,
            attempts: r.i("attempts")?,
            max_attempts: r.i("max_attempts")?,
            message: Mail {
                to: r.s("recipient")?,
                subject: r.s("subject")?,
                text: r.s("text_body")?,
                html: r.s("html_body")?,
                kind: r.s("kind")?,
                reference: r.os("reference")?,
                attachments: Vec::new(),
            },
        },
        infos,
    ))
}

/// The columns a queued row starts with: status, attempts, lease.
fn start(q: &Queueing) -> (&'static str, i64, Option<i64>, Option<&str>) {
    match &q.claimed {
        Some(l) => ("sending", 1, Some(l.until_ms), Some(l.token.as_str())),
        None => ("queued", 0, None, None),
    }
}

impl Db {
    pub(crate) async fn queue_sms_row(&self, m: &Sms, q: &Queueing) -> StoreResult<i64> {
        let (status, attempts, lease_until, token) = start(q);
        let id: Option<i64> = fetch_optional!(
            self,
            "INSERT INTO sms_outbox (recipient, kind, reference, body, created_at, status, attempts, \
             max_attempts, next_attempt_at, lease_until, lease_token) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $5, $9, $10) RETURNING id",
            [
                m.to.as_str(),
                m.kind.as_str(),
                m.reference.as_deref(),
                m.text.as_str(),
                q.now_ms,
                status,
                attempts,
                q.max_attempts,
                lease_until,
                token
            ],
            crate::outbox::id
        )?;
        id.ok_or_else(|| StoreError::other("the SMS outbox returned no id"))
    }

    pub(crate) async fn queue_mail_row(&self, m: &Mail, q: &Queueing) -> StoreResult<i64> {
        let (status, attempts, lease_until, token) = start(q);
        let attachments = crate::outbox::attachment_infos(m)?;
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let id: i64 = sqlx::query(
                "INSERT INTO mail_outbox (recipient, subject, kind, reference, text_body, html_body, \
                 attachments, created_at, status, attempts, max_attempts, next_attempt_at, \
                 lease_until, lease_token) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $8, $12, $13) RETURNING id",
            )
            .bind(&m.to)
            .bind(&m.subject)
            .bind(&m.kind)
            .bind(m.reference.as_deref())
            .bind(&m.text)
            .bind(&m.html)
            .bind(&attachments)
            .bind(q.now_ms)
            .bind(status)
            .bind(attempts)
            .bind(q.max_attempts)
            .bind(lease_until)
            .bind(token)
            .fetch_one(&mut *tx)
            .await
            .and_then(|r| r.try_get::<i64, _>("id"))
            .map_err(db_err)?;
            crate::outbox::keep_attachment_bytes!(tx, id, m);
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    pub(crate) async fn claim_sms_row(&self, l: &OutboxLease) -> StoreResult<Option<Claimed<Sms>>> {
        let postgres = matches!(self.pool, Pool::Postgres(_));
        let sql = claim_sql("sms_outbox", postgres);
        crate::on_pool!(self, |p| {
            let row = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(l.until_ms)
                .bind(&l.token)
                .bind(l.now_ms)
                .fetch_optional(p)
                .await
                .map_err(db_err)?;
            row.as_ref().map(claimed_sms).transpose().map_err(db_err)
        })
    }

    pub(crate) async fn claim_mail_row(
        &self,
        l: &OutboxLease,
    ) -> StoreResult<Option<Claimed<Mail>>> {
        let postgres = matches!(self.pool, Pool::Postgres(_));
        let sql = claim_sql("mail_outbox", postgres);
        crate::on_pool!(self, |p| {
            let Some(row) = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(l.until_ms)
                .bind(&l.token)
                .bind(l.now_ms)
                .fetch_optional(p)
                .await
                .map_err(db_err)?
            else {
                return Ok(None);
            };
            let (mut claimed, infos) = claimed_mail(&row).map_err(db_err)?;
            let parts = sqlx::query(
                "SELECT position, bytes FROM mail_outbox_attachments WHERE mail_id = $1 ORDER BY position",
            )
            .bind(claimed.id)
            .fetch_all(p)
            .await
            .map_err(db_err)?;
            for part in parts {
                let position: i64 = part.try_get("position").map_err(db_err)?;
                let bytes: Vec<u8> = part.try_get("bytes").map_err(db_err)?;
                let info = infos.get(position as usize).ok_or_else(|| {
                    StoreError::other("an outbox attachment with no name in its mail")
                })?;
                claimed.message.attachments.push(Attachment {
                    name: info.name.clone(),
                    content_type: info.content_type.clone(),
                    bytes,
                });
            }
            if claimed.message.attachments.len() != infos.len() {
                // Sending a confirmation without its tickets would be worse than not sending it.
                return Err(StoreError::other(
                    "a queued mail's attachments are missing from the outbox",
                ));
            }
            Ok(Some(claimed))
        })
    }

    pub(crate) async fn finish_delivery_row(
        &self,
        channel: OutboxChannel,
        id: i64,
        token: &str,
        outcome: &DeliveryOutcome,
        now_ms: i64,
    ) -> StoreResult<bool> {
        let t = table(channel);
        let (status, next, error, provider_id) = match outcome {
            DeliveryOutcome::Sent { provider_id } => {
                ("sent", None, None, Some(provider_id.as_str()))
            }
            DeliveryOutcome::Retry { at_ms, error } => {
                ("queued", Some(*at_ms), Some(error.as_str()), None)
            }
            DeliveryOutcome::Failed { error } => ("failed", None, Some(error.as_str()), None),
        };
        let sent_at = matches!(outcome, DeliveryOutcome::Sent { .. }).then_some(now_ms);
        let sql = format!(
            "UPDATE {t} SET status = $1, next_attempt_at = COALESCE($2, next_attempt_at), \
             last_error = $3, provider_id = $4, sent_at = $5, lease_until = NULL, lease_token = NULL \
             WHERE id = $6 AND lease_token = $7 AND status = 'sending'"
        );
        let done = status != "queued";
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            let n = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(status)
                .bind(next)
                .bind(error)
                .bind(provider_id)
                .bind(sent_at)
                .bind(id)
                .bind(token)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?
                .rows_affected();
            if n == 1 && done && channel == OutboxChannel::Mail {
                // Sent or given up: the tickets PDF is not kept any longer.
                sqlx::query("DELETE FROM mail_outbox_attachments WHERE mail_id = $1")
                    .bind(id)
                    .execute(&mut *tx)
                    .await
                    .map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            Ok(n == 1)
        })
    }

    pub(crate) async fn fail_abandoned_rows(&self, now_ms: i64) -> StoreResult<u64> {
        let mut total = 0;
        for t in ["sms_outbox", "mail_outbox"] {
            let sql = format!(
                "UPDATE {t} SET status = 'failed', lease_until = NULL, lease_token = NULL, \
                 last_error = 'the sender stopped during the last attempt' \
                 WHERE status = 'sending' AND lease_until < $1 AND attempts >= max_attempts"
            );
            total += crate::on_pool!(self, |p| sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(now_ms)
                .execute(p)
                .await
                .map(|r| r.rows_affected())
                .map_err(db_err))?;
        }
        crate::on_pool!(self, |p| sqlx::query(
            "DELETE FROM mail_outbox_attachments WHERE mail_id IN \
             (SELECT id FROM mail_outbox WHERE status = 'failed')"
        )
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err))?;
        Ok(total)
    }

    pub(crate) async fn outbox_count_rows(&self) -> StoreResult<Vec<OutboxCount>> {
        let mut out = Vec::new();
        for channel in [OutboxChannel::Sms, OutboxChannel::Mail] {
            let sql = format!(
                "SELECT status, COUNT(*) AS n, MIN(created_at) AS oldest FROM {} GROUP BY status ORDER BY status",
                table(channel)
            );
            let rows = crate::on_pool!(self, |p| {
                let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
                    .fetch_all(p)
                    .await
                    .map_err(db_err)?;
                rows.iter()
                    .map(|r| {
                        Ok(OutboxCount {
                            channel,
                            status: r.s("status")?,
                            count: r.i("n")?,
                            oldest_created_at_ms: r.i("oldest")?,
                        })
                    })
                    .collect::<Result<Vec<_>, sqlx::Error>>()
                    .map_err(db_err)
            })?;
            out.extend(rows);
        }
        Ok(out)
    }
}
