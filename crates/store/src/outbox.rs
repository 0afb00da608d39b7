//! The outboxes of the default SMS and mail adapters: what was "sent", newest first.

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::ports::{
    AttachmentInfo, Claimed, DeliveryOutcome, Mail, OutboxChannel, OutboxCount, OutboxLease,
    OutboxMail, OutboxSms, OutboxStore, Queueing, Sms,
};

use crate::rows::Get;
use crate::{Db, db_err};

pub(crate) fn id(r: &impl Get) -> Result<i64, sqlx::Error> {
    r.i("id")
}

fn sms(r: &impl Get) -> Result<OutboxSms, sqlx::Error> {
    Ok(OutboxSms {
        id: r.i("id")?,
        recipient: r.s("recipient")?,
        kind: r.s("kind")?,
        reference: r.os("reference")?,
        body: r.s("body")?,
        created_at_ms: r.i("created_at")?,
    })
}

fn mail(r: &impl Get) -> Result<OutboxMail, sqlx::Error> {
    let attachments = r.s("attachments")?;
    Ok(OutboxMail {
        id: r.i("id")?,
        recipient: r.s("recipient")?,
        subject: r.s("subject")?,
        kind: r.s("kind")?,
        reference: r.os("reference")?,
        text_body: r.s("text_body")?,
        html_body: r.s("html_body")?,
        attachments: serde_json::from_str(&attachments)
            .map_err(|e| sqlx::Error::Decode(format!("mail attachments: {e}").into()))?,
        created_at_ms: r.i("created_at")?,
    })
}

/// Keeps a mail's attachments' bytes beside its outbox row (in the caller's transaction `tx`),
/// for the worker to send.
macro_rules! keep_attachment_bytes {
    ($tx:ident, $mail_id:expr, $mail:expr) => {
        for (position, a) in $mail.attachments.iter().enumerate() {
            sqlx::query(
                "INSERT INTO mail_outbox_attachments (mail_id, position, bytes) VALUES ($1, $2, $3)",
            )
            .bind($mail_id)
            .bind(position as i64)
            .bind(a.bytes.as_slice())
            .execute(&mut *$tx)
            .await
            .map_err($crate::db_err)?;
        }
    };
}
pub(crate) use keep_attachment_bytes;

/// What the outbox keeps of a mail's attachments, as JSON: names, types and sizes.
pub(crate) fn attachment_infos(m: &Mail) -> StoreResult<String> {
    let attachments: Vec<AttachmentInfo> = m
        .attachments
        .iter()
        .map(|a| AttachmentInfo {
            name: a.name.clone(),
            content_type: a.content_type.clone(),
            size: a.bytes.len() as i64,
        })
        .collect();
    serde_json::to_string(&attachments).map_err(StoreError::other)
}

#[async_trait]
impl OutboxStore for Db {
    async fn queue_sms(&self, sms: &Sms, q: &Queueing) -> StoreResult<i64> {
        self.queue_sms_row(sms, q).await
    }

    async fn queue_mail(&self, mail: &Mail, q: &Queueing) -> StoreResult<i64> {
        self.queue_mail_row(mail, q).await
    }

    async fn claim_sms(&self, lease: &OutboxLease) -> StoreResult<Option<Claimed<Sms>>> {
        self.claim_sms_row(lease).await
    }

    async fn claim_mail(&self, lease: &OutboxLease) -> StoreResult<Option<Claimed<Mail>>> {
        self.claim_mail_row(lease).await
    }

    async fn finish_delivery(
        &self,
        channel: OutboxChannel,
        id: i64,
        token: &str,
        outcome: &DeliveryOutcome,
        now_ms: i64,
    ) -> StoreResult<bool> {
        self.finish_delivery_row(channel, id, token, outcome, now_ms)
            .await
    }

    async fn fail_abandoned(&self, now_ms: i64) -> StoreResult<u64> {
        self.fail_abandoned_rows(now_ms).await
    }

    async fn outbox_counts(&self) -> StoreResult<Vec<OutboxCount>> {
        self.outbox_count_rows().await
    }

    async fn redact_login_codes(&self, before_ms: i64) -> StoreResult<u64> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE sms_outbox SET body = '[login code expired]' \
             WHERE kind = 'loginCode' AND created_at < $1 AND body <> '[login code expired]'"
        )
        .bind(before_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected())
        .map_err(db_err))
    }

    async fn record_sms(&self, m: &Sms, now_ms: i64) -> StoreResult<i64> {
        let id: Option<i64> = fetch_optional!(
            self,
            "INSERT INTO sms_outbox (recipient, kind, reference, body, created_at) \
             VALUES ($1, $2, $3, $4, $5) RETURNING id",
            [
                m.to.as_str(),
                m.kind.as_str(),
                m.reference.as_deref(),
                m.text.as_str(),
                now_ms
            ],
            id
        )?;
        id.ok_or_else(|| kupa_app::StoreError::other("the SMS outbox returned no id"))
    }

    async fn record_mail(&self, m: &Mail, now_ms: i64) -> StoreResult<i64> {
        let attachments = attachment_infos(m)?;
        let id: Option<i64> = fetch_optional!(
            self,
            "INSERT INTO mail_outbox (recipient, subject, kind, reference, text_body, html_body, attachments, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            [
                m.to.as_str(),
                m.subject.as_str(),
                m.kind.as_str(),
                m.reference.as_deref(),
                m.text.as_str(),
                m.html.as_str(),
                attachments.as_str(),
                now_ms
            ],
            id
        )?;
        id.ok_or_else(|| kupa_app::StoreError::other("the mail outbox returned no id"))
    }

    async fn sms_outbox(&self, recipient: Option<&str>, limit: i64) -> StoreResult<Vec<OutboxSms>> {
        match recipient {
            Some(to) => fetch_all!(
                self,
                "SELECT * FROM sms_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT $2",
                [to, limit],
                sms
            ),
            None => fetch_all!(
                self,
                "SELECT * FROM sms_outbox ORDER BY id DESC LIMIT $1",
                [limit],
                sms
            ),
        }
    }

    async fn mail_outbox(
        &self,
        recipient: Option<&str>,
        limit: i64,
    ) -> StoreResult<Vec<OutboxMail>> {
        match recipient {
            Some(to) => fetch_all!(
                self,
                "SELECT * FROM mail_outbox WHERE recipient = $1 ORDER BY id DESC LIMIT $2",
                [to, limit],
                mail
            ),
            None => fetch_all!(
                self,
                "SELECT * FROM mail_outbox ORDER BY id DESC LIMIT $1",
                [limit],
                mail
            ),
        }
    }
}
