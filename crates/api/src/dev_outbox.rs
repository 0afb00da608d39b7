//! The outboxes of the default SMS and mail adapters, in test mode only: JSON under
//! /api/test/outbox (so end-to-end tests can read the code a buyer received) and a plain HTML page
//! at /dev/outbox for people. Never in the OpenAPI document, never routed outside test mode.

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use kupa_app::ports::{OutboxMail, OutboxSms};
use kupa_domain::customer::MobileNumber;
use kupa_domain::time::{ms_to_rfc3339, ms_to_timestamp, zone};
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::Query;
use crate::state::AppState;

const DEFAULT_LIMIT: i64 = 50;
const MAX_LIMIT: i64 = 500;
const PAGE_LIMIT: i64 = 100;

/// The JSON routes, merged under /api in test mode.
pub fn test_router() -> Router<AppState> {
    Router::new()
        .route("/test/outbox/sms", get(sms_json))
        .route("/test/outbox/mail", get(mail_json))
}

/// The HTML page, outside /api; an empty router when test mode is off.
pub fn pages(test_mode: bool) -> Router<AppState> {
    if test_mode {
        Router::new().route("/dev/outbox", get(page))
    } else {
        Router::new()
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
struct OutboxQuery {
    /// A mobile number (any spelling MobileNumber accepts) or, for mail, an address.
    to: Option<String>,
    limit: Option<i64>,
}

impl OutboxQuery {
    fn limit(&self) -> i64 {
        self.limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
    }

    /// The local form of `to` for the SMS outbox.
    fn mobile(&self) -> ApiResult<Option<String>> {
        match self.to.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => Ok(None),
            Some(raw) => crate::customer::mobile(raw).map(|m| Some(m.as_str().to_owned())),
        }
    }

    fn address(&self) -> Option<&str> {
        self.to.as_deref().map(str::trim).filter(|s| !s.is_empty())
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SmsJson {
    id: i64,
    to: String,
    kind: String,
    reference: Option<String>,
    body: String,
    created_at: String,
}

#[derive(Serialize)]
struct Messages<T> {
    messages: Vec<T>,
}

/// Newest first.
async fn sms_json(
    State(state): State<AppState>,
    Query(q): Query<OutboxQuery>,
) -> ApiResult<axum::Json<Messages<SmsJson>>> {
    let rows = state
        .outbox
        .sms_outbox(q.mobile()?.as_deref(), q.limit())
        .await?;
    Ok(axum::Json(Messages {
        messages: rows
            .into_iter()
            .map(|m| SmsJson {
                id: m.id,
                to: m.recipient,
                kind: m.kind,
                reference: m.reference,
                body: m.body,
                created_at: ms_to_rfc3339(m.created_at_ms),
            })
            .collect(),
    }))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MailJson {
    id: i64,
    to: String,
    subject: String,
    kind: String,
    reference: Option<String>,
    text: String,
    html: String,
    attachments: Vec<kupa_app::ports::AttachmentInfo>,
    created_at: String,
}

async fn mail_json(
    State(state): State<AppState>,
    Query(q): Query<OutboxQuery>,
) -> ApiResult<axum::Json<Messages<MailJson>>> {
    made_now(&state).await?;
    let rows = state.outbox.mail_outbox(q.address(), q.limit()).await?;
    Ok(axum::Json(Messages {
        messages: rows
            .into_iter()
            .map(|m| MailJson {
                id: m.id,
                to: m.recipient,
                subject: m.subject,
                kind: m.kind,
                reference: m.reference,
                text: m.text_body,
                html: m.html_body,
                attachments: m.attachments,
                created_at: ms_to_rfc3339(m.created_at_ms),
            })
            .collect(),
    }))
}

/// The confirmations due now are made first (decision 0061), so a reader right after a payment
/// sees its mail without waiting for the node's worker; the worker's leases keep the two from
/// making one twice. When a worker holds one (the node's own took it first), this waits for it,
/// a second at most: making one takes milliseconds.
async fn made_now(state: &AppState) -> ApiResult<()> {
    for _ in 0..50 {
        state.orders.make_confirmations().await?;
        if state.orders.confirmations_in_hand().await? == 0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    Ok(())
}

fn esc(s: &str) -> String {
    kupa_domain::html::escape(s)
}

/// Jerusalem wall time, as the box office reads it.
fn local_time(ms: i64) -> String {
    ms_to_timestamp(ms)
        .to_zoned(zone())
        .strftime("%Y-%m-%d %H:%M:%S")
        .to_string()
}

/// A message's line of facts: to whom, what kind, its reference, when, and its number.
fn meta_html(recipient: &str, kind: &str, reference: Option<&str>, at_ms: i64, id: i64) -> String {
    format!(
        r#"<p class="meta"><bdi dir="ltr" class="to">{to}</bdi> · <span class="kind">{kind}</span>{reference} · <time datetime="{iso}">{local}</time> · #{id}</p>"#,
        to = esc(recipient),
        kind = esc(kind),
        reference = reference
            .map(|r| format!(r#" · <bdi dir="ltr">{}</bdi>"#, esc(r)))
            .unwrap_or_default(),
        iso = ms_to_rfc3339(at_ms),
        local = local_time(at_ms),
    )
}

/// The line of facts of an SMS or a mail (both have its fields).
macro_rules! meta_of {
    ($m:expr) => {
        meta_html(
            &$m.recipient,
            &$m.kind,
            $m.reference.as_deref(),
            $m.created_at_ms,
            $m.id,
        )
    };
}

fn sms_html(m: &OutboxSms) -> String {
    let meta = meta_of!(m);
    format!(
        r#"<article class="msg">
{meta}
<p class="body" dir="auto">{body}</p>
</article>
"#,
        body = esc(&m.body),
    )
}

fn mail_html(m: &OutboxMail) -> String {
    let attachments = if m.attachments.is_empty() {
        String::new()
    } else {
        let items: Vec<String> = m
            .attachments
            .iter()
            .map(|a| {
                format!(
                    r#"<li><bdi dir="ltr">{}</bdi> ({}, {} bytes)</li>"#,
                    esc(&a.name),
                    esc(&a.content_type),
                    a.size
                )
            })
            .collect();
        format!(r#"<ul class="attachments">{}</ul>"#, items.join(""))
    };
    let meta = meta_of!(m);
    // The HTML body is shown in a sandbox without scripts, so a mail cannot act on this page.
    format!(
        r#"<article class="msg">
{meta}
<h3 dir="auto">{subject}</h3>
{attachments}<details><summary>Text</summary><pre dir="auto">{text}</pre></details>
<details open><summary>HTML</summary><iframe sandbox title="{subject}" srcdoc="{html}"></iframe></details>
</article>
"#,
        subject = esc(&m.subject),
        text = esc(&m.text_body),
        html = esc(&m.html_body),
    )
}

const OUTBOX_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; \
form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

const STYLE: &str = "body{font-family:system-ui,'Noto Sans Hebrew',sans-serif;margin:0;padding:1rem;max-inline-size:60rem;margin-inline:auto;color:#1b1b1f;background:#fafafa}\
header{border-block-end:2px solid #c33;margin-block-end:1rem}\
.warn{color:#c33;font-weight:600}\
.msg{background:#fff;border:1px solid #ddd;border-radius:.5rem;padding:.75rem 1rem;margin-block:.75rem}\
.meta{color:#555;font-size:.875rem;margin:0}\
.to{font-family:ui-monospace,monospace}\
.kind{background:#eef;border-radius:.25rem;padding-inline:.3rem}\
.body{white-space:pre-wrap;font-size:1.125rem;margin-block:.5rem 0}\
pre{white-space:pre-wrap}\
iframe{inline-size:100%;block-size:20rem;border:1px solid #ddd;background:#fff}\
form{display:flex;gap:.5rem;flex-wrap:wrap}";

async fn page(
    State(state): State<AppState>,
    Query(q): Query<OutboxQuery>,
) -> Result<impl IntoResponse, ApiError> {
    // Any `to` filters both lists: the SMS list by the number it parses to (none when it does
    // not), the mail list by the address as typed.
    made_now(&state).await?;
    let to = q.address().map(str::to_owned);
    let (sms, mail) = match &to {
        None => (
            state.outbox.sms_outbox(None, PAGE_LIMIT).await?,
            state.outbox.mail_outbox(None, PAGE_LIMIT).await?,
        ),
        Some(raw) => (
            match MobileNumber::parse(raw) {
                Some(m) => {
                    state
                        .outbox
                        .sms_outbox(Some(m.as_str()), PAGE_LIMIT)
                        .await?
                }
                None => Vec::new(),
            },
            state.outbox.mail_outbox(Some(raw), PAGE_LIMIT).await?,
        ),
    };
    let list = |items: Vec<String>| {
        if items.is_empty() {
            "<p>אין הודעות · No messages</p>".to_owned()
        } else {
            items.join("")
        }
    };
    let html = format!(
        r#"<!doctype html>
<html lang="he" dir="rtl">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Kupa · דואר יוצא · Outbox</title>
<style>{STYLE}</style>
</head>
<body>
<header>
<h1>דואר יוצא · Outbox</h1>
<p class="warn">מצב בדיקה בלבד · Test mode only</p>
<p>ההודעות החדשות ראשונות · Newest first · {n_sms} SMS · {n_mail} mail</p>
<form method="get" action="/dev/outbox"><label>נמען · To <input name="to" dir="ltr" value="{to}"></label><button>סינון · Filter</button><a href="/dev/outbox">הכול · All</a></form>
</header>
<main>
<section aria-labelledby="sms"><h2 id="sms">SMS</h2>
{sms}</section>
<section aria-labelledby="mail"><h2 id="mail">דואר · Mail</h2>
{mail}</section>
</main>
</body>
</html>
"#,
        n_sms = sms.len(),
        n_mail = mail.len(),
        to = esc(to.as_deref().unwrap_or_default()),
        sms = list(sms.iter().map(sms_html).collect()),
        mail = list(mail.iter().map(mail_html).collect()),
    );
    Ok((
        [
            (header::CONTENT_TYPE, "text/html; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
            // No script at all; inline styles for this page's own <style> and the mails' HTML,
            // whose sandboxed srcdoc frames inherit this policy.
            (header::CONTENT_SECURITY_POLICY, OUTBOX_CSP),
            (header::X_FRAME_OPTIONS, "DENY"),
        ],
        html,
    ))
}

#[cfg(test)]
mod tests {
    #[test]
    fn markup_is_escaped() {
        assert_eq!(
            super::esc(r#"<a href="x">&'"#),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }
}
