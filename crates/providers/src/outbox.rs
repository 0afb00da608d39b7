//! The default SMS and mail adapters: each message goes to an outbox table (read by the test
//! mode's dev page, GET /dev/outbox) and one log line. The log line names the recipient masked
//! and what the message is for, never its text: an SMS may carry a login code.

use std::sync::Arc;

use async_trait::async_trait;
use kupa_app::error::AppResult;
use kupa_app::ports::{Clock, Mail, MailEntry, Mailer, OutboxStore, Sms, SmsSender};

pub struct OutboxSmsSender {
    store: Arc<dyn OutboxStore>,
    clock: Arc<dyn Clock>,
}

impl OutboxSmsSender {
    pub fn new(store: Arc<dyn OutboxStore>, clock: Arc<dyn Clock>) -> OutboxSmsSender {
        OutboxSmsSender { store, clock }
    }
}

#[async_trait]
impl SmsSender for OutboxSmsSender {
    async fn send_sms(&self, sms: &Sms) -> AppResult<()> {
        let id = self.store.record_sms(sms, self.clock.now_ms()).await?;
        tracing::info!(
            outbox_id = id,
            to = %sms.to.masked(),
            kind = %sms.kind,
            reference = sms.reference.as_deref().unwrap_or(""),
            "SMS written to the outbox"
        );
        Ok(())
    }
}

pub struct OutboxMailer {
    store: Arc<dyn OutboxStore>,
    clock: Arc<dyn Clock>,
}

impl OutboxMailer {
    pub fn new(store: Arc<dyn OutboxStore>, clock: Arc<dyn Clock>) -> OutboxMailer {
        OutboxMailer { store, clock }
    }
}

/// "dana.levi@example.com" → "d***@example.com": enough to tell mails apart in a log.
pub fn masked_email(address: &str) -> String {
    match address.split_once('@') {
        Some((local, domain)) => {
            let first: String = local.chars().take(1).collect();
            format!("{first}***@{domain}")
        }
        None => "***".to_owned(),
    }
}

#[async_trait]
impl Mailer for OutboxMailer {
    async fn send_mail(&self, mail: &Mail) -> AppResult<()> {
        let id = self.store.record_mail(mail, self.clock.now_ms()).await?;
        tracing::info!(
            outbox_id = id,
            to = %masked_email(&mail.to),
            kind = %mail.kind,
            reference = mail.reference.as_deref().unwrap_or(""),
            attachments = mail.attachments.len(),
            "mail written to the outbox"
        );
        Ok(())
    }

    fn entry(&self) -> MailEntry {
        MailEntry::Recorded
    }
}

#[cfg(test)]
mod tests {
    use super::masked_email;

    #[test]
    fn mail_addresses_are_masked_for_logs() {
        assert_eq!(masked_email("dana.levi@example.com"), "d***@example.com");
        assert_eq!(masked_email("not-an-address"), "***");
        assert_eq!(masked_email("@x.org"), "***@x.org");
    }
}
