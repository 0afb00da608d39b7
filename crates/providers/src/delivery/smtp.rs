//! Mail through an SMTP server (decision 0057), with lettre over rustls: STARTTLS required
//! (port 587) or TLS from the first byte (port 465); never plain text. Each mail is
//! multipart/mixed: a multipart/alternative of the text and the HTML body, then its attachments
//! (the tickets PDF). Its Message-ID is made from the outbox row, the same on every attempt.

use std::time::Duration;

use async_trait::async_trait;
use kupa_app::ports::Mail;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::secret::Secret;
use super::{MailProvider, SendError};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpSecurity {
    /// Plain connection upgraded by STARTTLS, which must succeed (port 587).
    StartTls,
    /// TLS from the first byte, "SMTPS" (port 465).
    Tls,
}

impl SmtpSecurity {
    pub fn default_port(self) -> u16 {
        match self {
            SmtpSecurity::StartTls => 587,
            SmtpSecurity::Tls => 465,
        }
    }
}

#[derive(Debug, Clone)]
pub struct SmtpConfig {
    pub host: String,
    pub port: u16,
    pub security: SmtpSecurity,
    /// Login, when the server asks for one.
    pub username: Option<String>,
    pub password: Option<Secret>,
    /// The sender, `Kupa <tickets@cinema.example>`.
    pub from: Mailbox,
    /// PEM certificates to trust besides the built-in Mozilla roots (a private CA).
    pub extra_roots_pem: Option<Vec<u8>>,
    /// The name Kupa greets the server with (EHLO); the sender's domain by default.
    pub hello_name: String,
    pub timeout: Duration,
}

pub struct SmtpMailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl SmtpMailer {
    pub fn new(config: SmtpConfig) -> Result<SmtpMailer, String> {
        let mut tls = TlsParameters::builder(config.host.clone());
        if let Some(pem) = &config.extra_roots_pem {
            let cert = Certificate::from_pem(pem)
                .map_err(|e| format!("the SMTP CA certificate file: {e}"))?;
            tls = tls.add_root_certificate(cert);
        }
        let tls = tls
            .build_rustls()
            .map_err(|e| format!("the SMTP TLS settings: {e}"))?;
        let tls = match config.security {
            SmtpSecurity::StartTls => Tls::Required(tls),
            SmtpSecurity::Tls => Tls::Wrapper(tls),
        };
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&config.host)
            .port(config.port)
            .tls(tls)
            .hello_name(ClientId::Domain(config.hello_name.clone()))
            .timeout(Some(config.timeout));
        if let (Some(user), Some(password)) = (&config.username, &config.password) {
            builder =
                builder.credentials(Credentials::new(user.clone(), password.expose().to_owned()));
        }
        Ok(SmtpMailer {
            transport: builder.build(),
            from: config.from,
        })
    }

    /// Connects, says hello, upgrades to TLS and logs in, sending nothing.
    pub async fn check(&self) -> Result<String, String> {
        match self.transport.test_connection().await {
            Ok(true) => Ok("the server answers over TLS".into()),
            Ok(false) => Err("the server did not answer".into()),
            // No message is involved, so the server's own words name no recipient: shown whole.
            Err(e) => Err(format!("{} ({e})", reason(&e))),
        }
    }

    /// The MIME message of an outbox mail.
    pub fn message(&self, outbox_id: i64, mail: &Mail) -> Result<Message, SendError> {
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|_| SendError::permanent("smtp: the recipient is not an address"))?;
        let domain = self.from.email.domain().to_owned();
        let mut body = MultiPart::mixed().multipart(MultiPart::alternative_plain_html(
            mail.text.clone(),
            mail.html.clone(),
        ));
        for a in &mail.attachments {
            let content_type = ContentType::parse(&a.content_type)
                .map_err(|_| SendError::permanent("smtp: an attachment's type is unreadable"))?;
            body = body
                .singlepart(Attachment::new(a.name.clone()).body(a.bytes.clone(), content_type));
        }
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(mail.subject.clone())
            .message_id(Some(format!("<kupa.{outbox_id}@{domain}>")))
            .date_now()
            .multipart(body)
            .map_err(|e| SendError::permanent(format!("smtp: the message cannot be built: {e}")))
    }
}

/// An SMTP error as the outbox may keep it: its kind and reply code, not the server's words
/// (which often quote the recipient's address).
fn reason(e: &lettre::transport::smtp::Error) -> String {
    let code = e.status().map(|c| format!(" {c}")).unwrap_or_default();
    let kind = if e.is_permanent() {
        "refused"
    } else if e.is_transient() {
        "deferred"
    } else if e.is_timeout() {
        "timeout"
    } else if e.is_tls() {
        "TLS failed"
    } else if e.is_response() {
        "unreadable answer"
    } else if e.is_client() {
        "client error"
    } else {
        "connection failed"
    };
    format!("smtp {kind}{code}")
}

fn is_login_trouble(e: &lettre::transport::smtp::Error) -> bool {
    e.status().is_some_and(|c| c.to_string().starts_with("53"))
}

#[async_trait]
impl MailProvider for SmtpMailer {
    async fn deliver(&self, outbox_id: i64, mail: &Mail) -> Result<String, SendError> {
        let message = self.message(outbox_id, mail)?;
        let message_id = message
            .headers()
            .get_raw("Message-ID")
            .unwrap_or_default()
            .to_owned();
        match self.transport.send(message).await {
            Ok(_) => Ok(message_id),
            // A 5xx reply refuses this mail for good (no such mailbox, refused content); a 4xx
            // one, a timeout, a lost connection or a failed handshake may pass later.
            // 530-538 are about logging in and TLS: an operator's fix, after which the queued
            // mail should still go.
            Err(e) if e.is_permanent() && !is_login_trouble(&e) => {
                Err(SendError::permanent(reason(&e)))
            }
            Err(e) => Err(SendError::transient(reason(&e))),
        }
    }
}
