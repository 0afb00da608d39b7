//! Real text messages and mail (decision 0057): an SMS provider over HTTP ([`twilio`]) and SMTP
//! ([`smtp`]) behind the same `SmsSender` and `Mailer` ports as the offline outbox. Every
//! message is written to its outbox table first and sent by the [`worker`], with retries and
//! backoff, so a provider outage loses nothing; a login code alone is tried once, within the
//! request that asked for it.

pub mod config;
pub mod secret;
pub mod smtp;
pub mod twilio;
pub mod worker;

use std::sync::Arc;

use async_trait::async_trait;
use kupa_app::error::{AppError, AppResult};
use kupa_app::ports::{
    Clock, DeliveryOutcome, Mail, MailEntry, Mailer, OutboxChannel, OutboxLease, OutboxStore,
    Queueing, Sms, SmsSender, message_kind,
};
use tokio::sync::Notify;

use crate::outbox::masked_email;
pub use worker::{OutboxWorker, RetryPolicy};

/// Why one attempt at sending failed. `reason` goes to the outbox row and the log: it names the
/// provider's status and code, never a secret, a message's text or its recipient.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SendError {
    /// Trying again cannot help (the provider refused the number or the address).
    pub permanent: bool,
    pub reason: String,
}

impl SendError {
    pub fn transient(reason: impl Into<String>) -> SendError {
        SendError {
            permanent: false,
            reason: reason.into(),
        }
    }

    pub fn permanent(reason: impl Into<String>) -> SendError {
        SendError {
            permanent: true,
            reason: reason.into(),
        }
    }
}

/// A real SMS provider: one attempt at one message; the provider's id for it.
#[async_trait]
pub trait SmsProvider: Send + Sync {
    async fn deliver(&self, sms: &Sms) -> Result<String, SendError>;
}

/// A real mail server: one attempt at one mail. `outbox_id` makes its Message-ID, the same on
/// every attempt, so a receiver can tell a repeat. Returns the Message-ID.
#[async_trait]
pub trait MailProvider: Send + Sync {
    async fn deliver(&self, outbox_id: i64, mail: &Mail) -> Result<String, SendError>;
}

/// A random lease token: only its holder records the attempt's end.
pub(crate) fn lease_token() -> String {
    use rand::Rng;
    format!("{:032x}", rand::rng().random::<u128>())
}

/// The SMS port with a real provider: a login code is tried once now (the buyer waits for it;
/// `SMS_FAILED` when that attempt fails), and its text is not kept; everything else is queued
/// for the worker.
pub struct QueuedSmsSender {
    pub(crate) store: Arc<dyn OutboxStore>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) provider: Arc<dyn SmsProvider>,
    pub(crate) policy: RetryPolicy,
    pub(crate) wake: Arc<Notify>,
}

/// What the outbox keeps of a login code sent through a real provider: not the code.
pub const LOGIN_CODE_NOT_KEPT: &str = "[login code: sent at once, its text not kept]";

#[async_trait]
impl SmsSender for QueuedSmsSender {
    async fn send_sms(&self, sms: &Sms) -> AppResult<()> {
        let now = self.clock.now_ms();
        if sms.kind != message_kind::LOGIN_CODE {
            let id = self
                .store
                .queue_sms(
                    sms,
                    &Queueing {
                        now_ms: now,
                        max_attempts: self.policy.max_attempts,
                        claimed: None,
                    },
                )
                .await?;
            tracing::info!(outbox_id = id, to = %sms.to.masked(), kind = %sms.kind, "SMS queued");
            self.wake.notify_one();
            return Ok(());
        }
        let lease = OutboxLease {
            token: lease_token(),
            now_ms: now,
            until_ms: now + self.policy.lease_ms,
        };
        let kept = Sms {
            text: LOGIN_CODE_NOT_KEPT.into(),
            ..sms.clone()
        };
        let id = self
            .store
            .queue_sms(
                &kept,
                &Queueing {
                    now_ms: now,
                    max_attempts: 1,
                    claimed: Some(lease.clone()),
                },
            )
            .await?;
        let result = self.provider.deliver(sms).await;
        let outcome = match &result {
            Ok(provider_id) => DeliveryOutcome::Sent {
                provider_id: provider_id.clone(),
            },
            Err(e) => DeliveryOutcome::Failed {
                error: e.reason.clone(),
            },
        };
        self.store
            .finish_delivery(
                OutboxChannel::Sms,
                id,
                &lease.token,
                &outcome,
                self.clock.now_ms(),
            )
            .await?;
        match result {
            Ok(_) => {
                tracing::info!(outbox_id = id, to = %sms.to.masked(), "login code SMS sent");
                Ok(())
            }
            Err(e) => {
                tracing::warn!(outbox_id = id, to = %sms.to.masked(), reason = %e.reason, "login code SMS failed");
                Err(AppError::internal(format!(
                    "the SMS provider refused: {}",
                    e.reason
                )))
            }
        }
    }
}

/// The mail port with a real mail server: every mail is queued, its attachments with it, and
/// sent by the worker.
pub struct QueuedMailer {
    pub(crate) store: Arc<dyn OutboxStore>,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) policy: RetryPolicy,
    pub(crate) wake: Arc<Notify>,
}

#[async_trait]
impl Mailer for QueuedMailer {
    async fn send_mail(&self, mail: &Mail) -> AppResult<()> {
        let id = self
            .store
            .queue_mail(
                mail,
                &Queueing {
                    now_ms: self.clock.now_ms(),
                    max_attempts: self.policy.max_attempts,
                    claimed: None,
                },
            )
            .await?;
        tracing::info!(
            outbox_id = id,
            to = %masked_email(&mail.to),
            kind = %mail.kind,
            attachments = mail.attachments.len(),
            "mail queued"
        );
        self.wake.notify_one();
        Ok(())
    }

    fn entry(&self) -> MailEntry {
        MailEntry::Queued {
            max_attempts: self.policy.max_attempts,
        }
    }

    fn written(&self) {
        self.wake.notify_one();
    }
}

/// The real providers configured, if any, and how they retry.
#[derive(Clone, Default)]
pub struct Delivery {
    pub sms: Option<Arc<dyn SmsProvider>>,
    pub mail: Option<Arc<dyn MailProvider>>,
    pub policy: RetryPolicy,
}

/// The ports and the worker of a [`Delivery`]: `None` for a channel with no real provider (it
/// stays on the offline outbox).
pub struct Delivering {
    pub sms: Option<Arc<dyn SmsSender>>,
    pub mailer: Option<Arc<dyn Mailer>>,
    pub worker: Option<Arc<OutboxWorker>>,
}

impl Delivery {
    pub fn is_configured(&self) -> bool {
        self.sms.is_some() || self.mail.is_some()
    }

    /// The senders for the configured channels, and the one worker that sends for both.
    pub fn build(&self, store: Arc<dyn OutboxStore>, clock: Arc<dyn Clock>) -> Delivering {
        if !self.is_configured() {
            return Delivering {
                sms: None,
                mailer: None,
                worker: None,
            };
        }
        let wake = Arc::new(Notify::new());
        let sms = self.sms.clone().map(|provider| {
            Arc::new(QueuedSmsSender {
                store: store.clone(),
                clock: clock.clone(),
                provider,
                policy: self.policy,
                wake: wake.clone(),
            }) as Arc<dyn SmsSender>
        });
        let mailer = self.mail.as_ref().map(|_| {
            Arc::new(QueuedMailer {
                store: store.clone(),
                clock: clock.clone(),
                policy: self.policy,
                wake: wake.clone(),
            }) as Arc<dyn Mailer>
        });
        let worker = Arc::new(OutboxWorker::new(
            store,
            clock,
            self.sms.clone(),
            self.mail.clone(),
            self.policy,
            wake,
        ));
        Delivering {
            sms,
            mailer,
            worker: Some(worker),
        }
    }
}
