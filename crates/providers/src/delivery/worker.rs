//! The one outbox worker: claims due messages one at a time (a lease the database arbitrates,
//! so nodes sharing a database never send the same row at once), sends each through its
//! provider, and records the end of the attempt: sent, retried later with exponential backoff,
//! or given up. Each node runs one; a queued message wakes its own node's worker at once, and
//! every worker looks again every few seconds for what is due (retries, other nodes' messages).

use std::sync::Arc;
use std::time::Duration;

use kupa_app::StoreResult;
use kupa_app::ports::{Clock, DeliveryOutcome, OutboxChannel, OutboxLease, OutboxStore};
use tokio::sync::Notify;

use super::{MailProvider, SendError, SmsProvider, lease_token};
use crate::outbox::masked_email;

/// How often and how long messages are tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// The wait after the first failed attempt; each further one doubles it…
    pub first_retry_ms: i64,
    /// …up to this.
    pub max_retry_ms: i64,
    /// Attempts before a message is given up.
    pub max_attempts: i64,
    /// How long a claim holds: longer than one attempt may take (the providers' timeouts are
    /// 30 s), or a slow attempt could be claimed again by another node and sent twice.
    pub lease_ms: i64,
}

impl Default for RetryPolicy {
    /// 30 s, 1, 2, 4 … minutes, then hourly: 12 attempts over about six hours.
    fn default() -> RetryPolicy {
        RetryPolicy {
            first_retry_ms: 30_000,
            max_retry_ms: 3_600_000,
            max_attempts: 12,
            lease_ms: 120_000,
        }
    }
}

impl RetryPolicy {
    /// The wait before the next attempt, after `attempts` failed ones.
    pub fn backoff_ms(&self, attempts: i64) -> i64 {
        let doublings = (attempts - 1).clamp(0, 30) as u32;
        self.first_retry_ms
            .saturating_mul(1i64 << doublings)
            .min(self.max_retry_ms)
    }

    /// What to record after an attempt that failed with `e`, the `attempts`th of `max`.
    fn after_failure(
        &self,
        e: &SendError,
        attempts: i64,
        max: i64,
        now_ms: i64,
    ) -> DeliveryOutcome {
        if e.permanent {
            DeliveryOutcome::Failed {
                error: e.reason.clone(),
            }
        } else if attempts >= max {
            DeliveryOutcome::Failed {
                error: format!("gave up after {attempts} attempts: {}", e.reason),
            }
        } else {
            DeliveryOutcome::Retry {
                at_ms: now_ms + self.backoff_ms(attempts),
                error: e.reason.clone(),
            }
        }
    }
}

/// What one round did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Round {
    pub sent: u64,
    pub retrying: u64,
    pub failed: u64,
}

/// Messages one round sends at most per channel, so a long queue does not starve the other.
const PER_ROUND: usize = 50;

pub struct OutboxWorker {
    store: Arc<dyn OutboxStore>,
    clock: Arc<dyn Clock>,
    sms: Option<Arc<dyn SmsProvider>>,
    mail: Option<Arc<dyn MailProvider>>,
    policy: RetryPolicy,
    wake: Arc<Notify>,
}

impl OutboxWorker {
    pub fn new(
        store: Arc<dyn OutboxStore>,
        clock: Arc<dyn Clock>,
        sms: Option<Arc<dyn SmsProvider>>,
        mail: Option<Arc<dyn MailProvider>>,
        policy: RetryPolicy,
        wake: Arc<Notify>,
    ) -> OutboxWorker {
        OutboxWorker {
            store,
            clock,
            sms,
            mail,
            policy,
            wake,
        }
    }

    fn lease(&self) -> OutboxLease {
        let now = self.clock.now_ms();
        OutboxLease {
            token: lease_token(),
            now_ms: now,
            until_ms: now + self.policy.lease_ms,
        }
    }

    async fn finish(
        &self,
        channel: OutboxChannel,
        id: i64,
        lease: &OutboxLease,
        outcome: DeliveryOutcome,
        round: &mut Round,
    ) -> StoreResult<()> {
        let now = self.clock.now_ms();
        let held = self
            .store
            .finish_delivery(channel, id, &lease.token, &outcome, now)
            .await?;
        if !held {
            // The attempt outlived its lease and another node took the message over.
            tracing::warn!(
                channel = channel.as_str(),
                outbox_id = id,
                "an attempt ended after its lease; the other sender's record stands"
            );
            return Ok(());
        }
        match outcome {
            DeliveryOutcome::Sent { .. } => round.sent += 1,
            DeliveryOutcome::Retry { at_ms, error } => {
                round.retrying += 1;
                tracing::warn!(channel = channel.as_str(), outbox_id = id, reason = %error, retry_in_s = (at_ms - now) / 1000, "sending failed; will retry");
            }
            DeliveryOutcome::Failed { error } => {
                round.failed += 1;
                tracing::error!(channel = channel.as_str(), outbox_id = id, reason = %error, "sending failed for good");
            }
        }
        Ok(())
    }

    /// Sends what is due now, on every configured channel.
    pub async fn run_once(&self) -> StoreResult<Round> {
        let mut round = Round::default();
        let abandoned = self.store.fail_abandoned(self.clock.now_ms()).await?;
        if abandoned > 0 {
            tracing::error!(
                messages = abandoned,
                "messages given up: their sender stopped during the last attempt"
            );
            round.failed += abandoned;
        }
        if let Some(provider) = &self.sms {
            for _ in 0..PER_ROUND {
                let lease = self.lease();
                let Some(c) = self.store.claim_sms(&lease).await? else {
                    break;
                };
                let outcome = match provider.deliver(&c.message).await {
                    Ok(provider_id) => {
                        tracing::info!(outbox_id = c.id, to = %c.message.to.masked(), kind = %c.message.kind, attempt = c.attempts, "SMS sent");
                        DeliveryOutcome::Sent { provider_id }
                    }
                    Err(e) => self.policy.after_failure(
                        &e,
                        c.attempts,
                        c.max_attempts,
                        self.clock.now_ms(),
                    ),
                };
                self.finish(OutboxChannel::Sms, c.id, &lease, outcome, &mut round)
                    .await?;
            }
        }
        if let Some(provider) = &self.mail {
            for _ in 0..PER_ROUND {
                let lease = self.lease();
                let Some(c) = self.store.claim_mail(&lease).await? else {
                    break;
                };
                let outcome = match provider.deliver(c.id, &c.message).await {
                    Ok(message_id) => {
                        tracing::info!(outbox_id = c.id, to = %masked_email(&c.message.to), kind = %c.message.kind, attempt = c.attempts, "mail sent");
                        DeliveryOutcome::Sent {
                            provider_id: message_id,
                        }
                    }
                    Err(e) => self.policy.after_failure(
                        &e,
                        c.attempts,
                        c.max_attempts,
                        self.clock.now_ms(),
                    ),
                };
                self.finish(OutboxChannel::Mail, c.id, &lease, outcome, &mut round)
                    .await?;
            }
        }
        Ok(round)
    }

    /// Runs for ever: a round now, then one whenever a message is queued on this node or
    /// `every` passes.
    pub async fn run(self: Arc<Self>, every: Duration) {
        loop {
            match self.run_once().await {
                Ok(r) if r == Round::default() => {}
                Ok(r) => tracing::info!(
                    sent = r.sent,
                    retrying = r.retrying,
                    failed = r.failed,
                    "outbox round"
                ),
                Err(e) => tracing::warn!(error = %e, "the outbox round failed; will retry"),
            }
            let _ = tokio::time::timeout(every, self.wake.notified()).await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_thirty_seconds_up_to_an_hour() {
        let p = RetryPolicy::default();
        let waits: Vec<i64> = (1..=9).map(|a| p.backoff_ms(a) / 1000).collect();
        assert_eq!(waits, vec![30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    }

    #[test]
    fn a_permanent_refusal_or_the_last_attempt_gives_up_and_others_retry() {
        let p = RetryPolicy::default();
        let busy = SendError::transient("twilio 503");
        assert_eq!(
            p.after_failure(&busy, 2, 12, 1_000),
            DeliveryOutcome::Retry {
                at_ms: 61_000,
                error: "twilio 503".into()
            }
        );
        assert!(matches!(
            p.after_failure(&busy, 12, 12, 1_000),
            DeliveryOutcome::Failed { error } if error.starts_with("gave up after 12 attempts")
        ));
        let refused = SendError::permanent("twilio 400 code 21211");
        assert_eq!(
            p.after_failure(&refused, 1, 12, 1_000),
            DeliveryOutcome::Failed {
                error: "twilio 400 code 21211".into()
            }
        );
    }
}
