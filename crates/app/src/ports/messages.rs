//! Text messages and mail: what is sent, the senders, and the outbox that keeps and delivers
//! them (decision 0057).

use async_trait::async_trait;

use crate::error::{AppResult, StoreResult};

/// What a message is for. The outbox's `kind` column and the log line carry it instead of the
/// message's text, which may hold a login code.
pub mod message_kind {
    /// The login code of the mobile login (customer area and checkout).
    pub const LOGIN_CODE: &str = "loginCode";
    /// The links to a reservation's tickets (POST /reservations/{id}/sendTickets).
    pub const TICKETS: &str = "tickets";
    /// The confirmation mail of a paid order, with the tickets PDF.
    pub const ORDER_CONFIRMATION: &str = "orderConfirmation";
    /// A cancellation refunded as voucher credit: the new voucher's reference and value.
    pub const CANCELLATION_CREDIT: &str = "cancellationCredit";
    /// The cinema cancelled a screening: the order is refunded in full (decision 0058).
    pub const SCREENING_CANCELLED: &str = "screeningCancelled";
    /// The cinema moved a screening: the new time and hall, and a free cancellation.
    pub const SCREENING_MOVED: &str = "screeningMoved";
}

/// One text message to a mobile number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sms {
    pub to: kupa_domain::customer::MobileNumber,
    /// What it is for (see [`message_kind`]).
    pub kind: String,
    /// What it is about (a reservation id), if anything.
    pub reference: Option<String>,
    pub text: String,
}

/// A file sent with a mail (the tickets PDF, a calendar entry).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    pub name: String,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// One mail, with a plain-text and an HTML body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
    /// What it is for (see [`message_kind`]).
    pub kind: String,
    pub reference: Option<String>,
    pub attachments: Vec<Attachment>,
}

/// Sends text messages. The default adapter writes them to the outbox (a table, readable in the
/// test mode's dev page); a real one calls an SMS provider.
#[async_trait]
pub trait SmsSender: Send + Sync {
    /// An error means the message was not sent.
    async fn send_sms(&self, sms: &Sms) -> AppResult<()>;
}

/// Sends mail. The default adapter writes it to the outbox; a real one speaks SMTP.
#[async_trait]
pub trait Mailer: Send + Sync {
    /// An error means the mail was not sent.
    async fn send_mail(&self, mail: &Mail) -> AppResult<()>;
    /// How this mailer's mail enters the outbox table when another transaction writes it there
    /// (a confirmation job, decision 0061): recorded (the offline outbox is the destination) or
    /// queued for the outbox worker.
    fn entry(&self) -> MailEntry;
    /// Mail of [`Mailer::entry`] was written to the outbox by such a transaction: start sending.
    fn written(&self) {}
}

/// How a mail written by a transaction of its own enters the outbox table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MailEntry {
    /// Nothing sends it (the offline outbox adapters): the row is the mail's destination.
    Recorded,
    /// Queued for the outbox worker, with its attachments' bytes, tried at most this often.
    Queued { max_attempts: i64 },
}

/// A text message as the outbox keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxSms {
    pub id: i64,
    /// The mobile number in local form.
    pub recipient: String,
    pub kind: String,
    pub reference: Option<String>,
    pub body: String,
    pub created_at_ms: i64,
}

/// What the outbox keeps of an attachment: not its bytes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AttachmentInfo {
    pub name: String,
    pub content_type: String,
    pub size: i64,
}

/// A mail as the outbox keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxMail {
    pub id: i64,
    pub recipient: String,
    pub subject: String,
    pub kind: String,
    pub reference: Option<String>,
    pub text_body: String,
    pub html_body: String,
    pub attachments: Vec<AttachmentInfo>,
    pub created_at_ms: i64,
}

/// The outbox tables the default SMS and mail adapters write and the dev page reads.
#[async_trait]
pub trait OutboxStore: Send + Sync {
    /// Returns the new message's id.
    async fn record_sms(&self, sms: &Sms, now_ms: i64) -> StoreResult<i64>;
    async fn record_mail(&self, mail: &Mail, now_ms: i64) -> StoreResult<i64>;
    /// Newest first, at most `limit`; only those to `recipient` when given.
    async fn sms_outbox(&self, recipient: Option<&str>, limit: i64) -> StoreResult<Vec<OutboxSms>>;
    async fn mail_outbox(
        &self,
        recipient: Option<&str>,
        limit: i64,
    ) -> StoreResult<Vec<OutboxMail>>;
    /// Blanks the text of login-code messages sent before `before_ms` (their codes have expired):
    /// the outbox must not keep codes readable. Returns how many it blanked.
    async fn redact_login_codes(&self, before_ms: i64) -> StoreResult<u64>;

    // The outbox worker's side (decision 0057): with a real provider configured, messages are
    // queued here and sent by whichever node claims them first.

    /// Writes a text message to be sent (status queued, or sending under `q.claimed`).
    async fn queue_sms(&self, sms: &Sms, q: &Queueing) -> StoreResult<i64>;
    /// Writes a mail to be sent, its attachments' bytes kept until it is sent or given up.
    async fn queue_mail(&self, mail: &Mail, q: &Queueing) -> StoreResult<i64>;
    /// Claims the next due text message for one attempt (its attempts counted), if any: a
    /// queued one whose time has come, or one whose sender's lease ran out with attempts left.
    /// Each row is claimed by one caller, however many nodes ask at once.
    async fn claim_sms(&self, lease: &OutboxLease) -> StoreResult<Option<Claimed<Sms>>>;
    async fn claim_mail(&self, lease: &OutboxLease) -> StoreResult<Option<Claimed<Mail>>>;
    /// Records how an attempt ended, if the lease `token` still holds the message; false when
    /// it does not (the lease ran out and another node claimed it).
    async fn finish_delivery(
        &self,
        channel: OutboxChannel,
        id: i64,
        token: &str,
        outcome: &DeliveryOutcome,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Gives up messages whose sender stopped mid-attempt (lease run out) with no attempts left,
    /// a login code among them. Returns how many.
    async fn fail_abandoned(&self, now_ms: i64) -> StoreResult<u64>;
    /// How many messages of each channel are in each status, and the oldest of each.
    async fn outbox_counts(&self) -> StoreResult<Vec<OutboxCount>>;
}

/// Which outbox a message is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutboxChannel {
    Sms,
    Mail,
}

impl OutboxChannel {
    pub fn as_str(self) -> &'static str {
        match self {
            OutboxChannel::Sms => "sms",
            OutboxChannel::Mail => "mail",
        }
    }
}

/// One sender's hold on an outbox message while it tries to send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxLease {
    /// Random, new for every claim: only its holder may record the attempt's end.
    pub token: String,
    pub now_ms: i64,
    /// After this another node may claim the message again (if it has attempts left).
    pub until_ms: i64,
}

/// How a message is queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Queueing {
    pub now_ms: i64,
    /// Attempts before it is given up (1: tried once, as a login code is).
    pub max_attempts: i64,
    /// Written already claimed by the caller, who tries it at once (its first attempt counted).
    pub claimed: Option<OutboxLease>,
}

/// A message claimed for one attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Claimed<M> {
    pub id: i64,
    /// Attempts made, this one included.
    pub attempts: i64,
    pub max_attempts: i64,
    pub message: M,
}

/// How one attempt at sending ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeliveryOutcome {
    /// The provider took it; its id for the message.
    Sent { provider_id: String },
    /// Try again at `at_ms`; why this attempt failed (no secrets).
    Retry { at_ms: i64, error: String },
    /// Given up for good.
    Failed { error: String },
}

/// Messages of one channel in one status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxCount {
    pub channel: OutboxChannel,
    pub status: String,
    pub count: i64,
    pub oldest_created_at_ms: i64,
}
