//! The confirmations to make (decision 0061): written by the transaction that marks an order
//! paid, made by a worker after the buyer's answer, each claimed by one worker at a time under a
//! lease, its mail written to the outbox in the same transaction that marks it done.

use async_trait::async_trait;

use super::{Mail, MailEntry, OutboxLease};
use crate::error::StoreResult;

/// What a confirmation job makes. Its `as_str` is the `what` column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ConfirmationKind {
    /// A tickets order (screenings, a film at home, membership seats, enrolment): the mail with
    /// the tickets PDF.
    Order,
    /// A voucher, donation or membership order: the mail with the vouchers PDF, if any.
    Gift,
}

impl ConfirmationKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ConfirmationKind::Order => "orderConfirmation",
            ConfirmationKind::Gift => "giftConfirmation",
        }
    }

    pub fn parse(s: &str) -> Option<ConfirmationKind> {
        [ConfirmationKind::Order, ConfirmationKind::Gift]
            .into_iter()
            .find(|k| k.as_str() == s)
    }
}

/// A confirmation the paying transaction asks for: the store writes it with the sale.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmationToMake {
    pub kind: ConfirmationKind,
    /// The language of the mail ("he" or "en").
    pub lang: &'static str,
    /// Attempts before the job is given up.
    pub max_attempts: i64,
}

/// A job claimed for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmationJob {
    pub id: i64,
    pub order_id: crate::model::ReservationId,
    pub lang: String,
    pub kind: ConfirmationKind,
    /// Attempts made, this one included.
    pub attempts: i64,
    pub max_attempts: i64,
}

/// A job as it stands (for operators and tests).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfirmationJobState {
    pub id: i64,
    pub kind: ConfirmationKind,
    /// queued, making, done or failed.
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
}

/// How an attempt that made no mail ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfirmationSetback {
    /// Try again at `at_ms`; why this attempt failed (no personal data).
    Retry { at_ms: i64, error: String },
    /// Given up for good.
    Failed { error: String },
}

#[async_trait]
pub trait ConfirmationStore: Send + Sync {
    /// Claims the next due job for one attempt (its attempts counted), if any: a queued one
    /// whose time has come, or one whose worker's lease ran out with attempts left. Each job is
    /// claimed by one caller, however many nodes ask at once.
    async fn claim_confirmation(&self, lease: &OutboxLease)
    -> StoreResult<Option<ConfirmationJob>>;
    /// In one transaction, if the lease `token` still holds job `id`: writes `mails` to the
    /// outbox as `entry` says and marks the job done. False (and nothing written) when the
    /// lease was lost: another worker took the job over and its record stands.
    async fn complete_confirmation(
        &self,
        id: i64,
        token: &str,
        mails: &[Mail],
        entry: MailEntry,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Records an attempt that made nothing, if the lease `token` still holds job `id`.
    async fn set_back_confirmation(
        &self,
        id: i64,
        token: &str,
        setback: &ConfirmationSetback,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Gives up jobs whose worker stopped mid-attempt (lease run out) with no attempts left.
    async fn fail_abandoned_confirmations(&self, now_ms: i64) -> StoreResult<u64>;
    /// The jobs of one order, oldest first.
    async fn confirmation_jobs(&self, order_id: &str) -> StoreResult<Vec<ConfirmationJobState>>;
    /// Jobs not done yet (queued or making), and the oldest one's creation time.
    async fn confirmations_waiting(&self) -> StoreResult<(i64, Option<i64>)>;
    /// Jobs a worker is making now (claimed, lease not run out at `now_ms`).
    async fn confirmations_in_hand(&self, now_ms: i64) -> StoreResult<i64>;
}
