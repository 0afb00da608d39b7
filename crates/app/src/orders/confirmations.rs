//! Confirmations out of the request (decision 0061): the transaction that marks an order paid
//! writes a job ([`confirmation_to_make`]); a worker makes the mail (the PDF with it) after the
//! buyer has the answer, and writes it to the outbox in the same transaction that marks the job
//! done. A job is claimed under a lease; one whose worker died is taken again when the lease
//! runs out, and only the lease's holder may mark it done, so a retry never mails twice.

use rand::Rng;

use crate::error::AppResult;
use crate::ports::{
    ConfirmationJob, ConfirmationKind, ConfirmationSetback, ConfirmationToMake, Mail, OutboxLease,
};

use super::*;

/// How long a claim holds: far longer than making one confirmation takes (milliseconds).
pub const CONFIRMATION_LEASE_MS: i64 = 60_000;
/// Attempts before a job is given up: 30 s, doubling to an hour, about six hours in all.
pub const CONFIRMATION_MAX_ATTEMPTS: i64 = 12;
const FIRST_RETRY_MS: i64 = 30_000;
const MAX_RETRY_MS: i64 = 3_600_000;
/// Jobs one round makes at most, so a round's end (and its log line) comes regularly.
const PER_ROUND: usize = 100;

/// The confirmation a paid order's transaction writes with the sale: None when the buyer gave
/// no address (nothing is mailed, as before).
pub fn confirmation_to_make(order: &Order) -> Option<ConfirmationToMake> {
    if order.customer.email.is_empty() {
        return None;
    }
    let kind = if order.kind == OrderKind::Tickets {
        ConfirmationKind::Order
    } else {
        ConfirmationKind::Gift
    };
    Some(ConfirmationToMake {
        kind,
        lang: OrderService::lang(order),
        max_attempts: CONFIRMATION_MAX_ATTEMPTS,
    })
}

/// The wait before the next attempt, after `attempts` failed ones.
pub fn confirmation_backoff_ms(attempts: i64) -> i64 {
    let doublings = (attempts - 1).clamp(0, 30) as u32;
    FIRST_RETRY_MS
        .saturating_mul(1i64 << doublings)
        .min(MAX_RETRY_MS)
}

/// What one round of [`OrderService::make_confirmations`] did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ConfirmationRound {
    /// Jobs done: their mail in the outbox (or none to send: the order is no longer paid).
    pub made: u64,
    pub retrying: u64,
    pub failed: u64,
    /// Jobs whose lease was lost before they were marked done: nothing of theirs was written.
    pub lost: u64,
}

impl OrderService {
    /// Makes the confirmations that are due now, one job at a time: what `kupa serve`'s worker
    /// runs when an order is paid and every few seconds, and what tests and the test mode's
    /// outbox routes run to see the mail at once.
    pub async fn make_confirmations(&self) -> AppResult<ConfirmationRound> {
        let jobs = &self.messages.confirmations;
        let mut round = ConfirmationRound::default();
        let abandoned = jobs
            .fail_abandoned_confirmations(self.clock.now_ms())
            .await?;
        if abandoned > 0 {
            tracing::error!(
                jobs = abandoned,
                "confirmations given up: their worker stopped during the last attempt"
            );
            round.failed += abandoned;
        }
        for _ in 0..PER_ROUND {
            let now = self.clock.now_ms();
            let lease = OutboxLease {
                token: format!("{:032x}", rand::rng().random::<u128>()),
                now_ms: now,
                until_ms: now + CONFIRMATION_LEASE_MS,
            };
            let Some(job) = jobs.claim_confirmation(&lease).await? else {
                break;
            };
            self.make_one(&job, &lease, &mut round).await?;
        }
        Ok(round)
    }

    /// Jobs another worker of the database is making now (its lease live).
    pub async fn confirmations_in_hand(&self) -> AppResult<i64> {
        Ok(self
            .messages
            .confirmations
            .confirmations_in_hand(self.clock.now_ms())
            .await?)
    }

    /// One claimed job: its mail made and written with the job's end, or the attempt set back.
    async fn make_one(
        &self,
        job: &ConfirmationJob,
        lease: &OutboxLease,
        round: &mut ConfirmationRound,
    ) -> AppResult<()> {
        let jobs = &self.messages.confirmations;
        let made = self.confirmation_of(job).await;
        let now = self.clock.now_ms();
        match made {
            Ok(mails) => {
                let entry = self.messages.mailer.entry();
                if jobs
                    .complete_confirmation(job.id, &lease.token, &mails, entry, now)
                    .await?
                {
                    tracing::info!(job = job.id, order = %job.order_id, mails = mails.len(), attempt = job.attempts, "confirmation made");
                    round.made += 1;
                    if !mails.is_empty() {
                        self.messages.mailer.written();
                    }
                } else {
                    tracing::warn!(job = job.id, order = %job.order_id, "a confirmation was made after its lease ran out; the other worker's stands");
                    round.lost += 1;
                }
            }
            Err(e) => {
                let setback = if job.attempts >= job.max_attempts {
                    ConfirmationSetback::Failed {
                        error: format!("gave up after {} attempts: {e}", job.attempts),
                    }
                } else {
                    ConfirmationSetback::Retry {
                        at_ms: now + confirmation_backoff_ms(job.attempts),
                        error: e.to_string(),
                    }
                };
                if jobs
                    .set_back_confirmation(job.id, &lease.token, &setback, now)
                    .await?
                {
                    match setback {
                        ConfirmationSetback::Retry { .. } => {
                            tracing::warn!(job = job.id, order = %job.order_id, error = %e, "making a confirmation failed; will retry");
                            round.retrying += 1;
                        }
                        ConfirmationSetback::Failed { .. } => {
                            tracing::error!(job = job.id, order = %job.order_id, error = %e, "making a confirmation failed for good");
                            round.failed += 1;
                        }
                    }
                } else {
                    round.lost += 1;
                }
            }
        }
        Ok(())
    }

    /// The mail a job makes, from the order as it is now: none when it is no longer paid (a
    /// cancellation came first and told the buyer itself) or has no address.
    async fn confirmation_of(&self, job: &ConfirmationJob) -> AppResult<Vec<Mail>> {
        let Some(order) = self
            .orders
            .order(&job.order_id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid)
        else {
            tracing::info!(job = job.id, order = %job.order_id, "no confirmation: the order is no longer paid");
            return Ok(Vec::new());
        };
        let mail = match job.kind {
            ConfirmationKind::Order => self.confirmation_mail(&order, &job.lang).await?,
            ConfirmationKind::Gift => self.gift_confirmation_mail(&order, &job.lang).await?,
        };
        Ok(mail.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wait_doubles_from_thirty_seconds_up_to_an_hour() {
        let waits: Vec<i64> = (1..=9).map(|a| confirmation_backoff_ms(a) / 1000).collect();
        assert_eq!(waits, vec![30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    }
}
