//! What the use cases need from the outside world. `store` implements the store traits on SQLite
//! and PostgreSQL; `providers` implements the rest.

use async_trait::async_trait;

use crate::error::{AppResult, StoreResult};
use crate::model::*;
use crate::orders::model::{CartKey, Finalised, Order, Payment, PaymentUpdate};
use crate::orders::{
    CancelRefusal, CancelRequest, Cancellation, CancellationFee, GatewayRefund, MoveRefusal,
    Refund, SeatMove,
};

/// The catalogue: written whole by the seed command, read by every buyer.
#[async_trait]
pub trait CatalogueStore: Send + Sync {
    async fn is_catalogue_empty(&self) -> StoreResult<bool>;
    /// Writes the whole catalogue in one transaction; fails whole if any row is refused.
    async fn load_catalogue(&self, data: &CatalogueData) -> StoreResult<()>;

    async fn site_config(&self) -> StoreResult<Option<serde_json::Value>>;
    async fn presentation(&self, id: i64) -> StoreResult<Option<PresentationView>>;
    /// Presentations starting in [from_ms, to_ms), ordered by start time then id.
    async fn presentations_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<PresentationView>>;
    /// Every video-on-demand presentation (venue types 101–104), whenever it starts: a film at
    /// home is offered on every day of its window, not only on its first.
    async fn vod_presentations(&self) -> StoreResult<Vec<PresentationView>>;
    async fn features(&self) -> StoreResult<Vec<(Feature, FeatureCategory)>>;
    async fn feature(&self, id: i64) -> StoreResult<Option<Feature>>;
    async fn product(&self, id: i64) -> StoreResult<Option<Product>>;
    /// Products sold at a location (and those sold everywhere), in menu order.
    async fn products_for_location(&self, location_id: i64) -> StoreResult<Vec<Product>>;
    /// The products sold at every location (no location of their own), in menu order: what a
    /// voucher order, which belongs to no complex, offers (decision 0035).
    async fn chain_products(&self) -> StoreResult<Vec<Product>>;
    async fn seatplan(&self, seatplan_id: i64) -> StoreResult<Option<Seatplan>>;
    async fn sections(&self, seatplan_id: i64) -> StoreResult<Vec<Section>>;
    async fn seats(&self, seatplan_id: i64) -> StoreResult<Vec<Seat>>;
    async fn ticket_groups(&self, ids: &[i64]) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>>;
    async fn service_charge(&self, business_id: i64) -> StoreResult<Option<ServiceCharge>>;
    async fn mini_site(&self, url: &str) -> StoreResult<Option<MiniSite>>;
    async fn integration(&self, key: &str) -> StoreResult<Option<Integration>>;
    async fn locations(&self) -> StoreResult<Vec<Location>>;
    async fn customer_by_mobile(&self, mobile: &str) -> StoreResult<Option<Customer>>;
    async fn members_of_customer(&self, customer_id: i64)
    -> StoreResult<Vec<(Member, Membership)>>;
    /// The system voucher classes, in their order (issue 14).
    async fn system_voucher_classes(&self)
    -> StoreResult<Vec<crate::vouchers::SystemVoucherClass>>;
    /// The donations, in their order (issue 14).
    async fn donations(&self) -> StoreResult<Vec<crate::vouchers::Donation>>;
    /// Every membership, on sale or not, by its sort then id (issue 15).
    async fn memberships(&self) -> StoreResult<Vec<Membership>>;
    /// Membership seasons to enrol in (issue 15, decision 0040), by id.
    async fn seasons(&self) -> StoreResult<Vec<crate::memberships::Season>>;
    /// A number every load or import of the catalogue raises (decision 0049): a node whose
    /// cached catalogue was read at another number reads it again.
    async fn catalogue_version(&self) -> StoreResult<i64> {
        Ok(0)
    }
}

/// The catalogue import on a live database (decision 0049).
#[async_trait]
pub trait CatalogueImportStore: Send + Sync {
    /// The stored rows of every kind an import merges (not customers, members, codes).
    async fn stored_catalogue(&self) -> StoreResult<CatalogueData>;
    /// Presentations with a seat held or sold, or an order.
    async fn presentations_with_sales(&self) -> StoreResult<Vec<i64>>;
    /// Writes the plan's rows in one transaction and raises the catalogue version; first checks,
    /// in that transaction, that the plan's unsold presentations still have no sales, and
    /// returns (writing nothing) those that now have.
    async fn apply_import(
        &self,
        plan: &crate::catalogue_file::import::ImportPlan,
    ) -> StoreResult<Vec<i64>>;
}

pub use kupa_domain::seating::SeatAddress;

/// Claims on seats and general-admission places. The store is the only arbiter: each claim is one
/// atomic statement (insert, or take over an expired hold), never "select, then insert".
#[async_trait]
pub trait ClaimStore: Send + Sync {
    async fn claims(&self, presentation_id: i64) -> StoreResult<Vec<Claim>>;
    /// One session's claims on a presentation (what a lock counts against the seat limit).
    async fn session_claims(
        &self,
        presentation_id: i64,
        session_id: &str,
    ) -> StoreResult<Vec<Claim>>;
    /// Holds every place for `session_id` until `expires_at_ms`, in one transaction: all or none.
    /// A place already held by the same session has its hold renewed. Returns false (and claims
    /// nothing) when any place is sold, or held by another session whose hold has not expired.
    async fn hold(
        &self,
        presentation_id: i64,
        places: &[SeatAddress],
        session_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<bool>;
    /// Releases the session's unexpired-or-expired holds on these places; returns how many it released.
    async fn release(
        &self,
        presentation_id: i64,
        places: &[SeatAddress],
        session_id: &str,
    ) -> StoreResult<u64>;
    /// Moves the expiry of all of a session's holds on a presentation; returns how many moved.
    async fn extend(
        &self,
        presentation_id: i64,
        session_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<u64>;
    /// Deletes holds that expired at or before `now_ms` and returns them (for events).
    async fn sweep_expired(&self, now_ms: i64) -> StoreResult<Vec<Claim>>;
}

/// Where each buyer session stands in a checkout, and the deadline of its holds.
#[async_trait]
pub trait CheckoutStore: Send + Sync {
    async fn checkout_state(
        &self,
        session_id: &str,
        presentation_id: i64,
    ) -> StoreResult<Option<kupa_domain::checkout::CheckoutState>>;
    /// Saves the state and moves the session's live holds on the presentation to its deadline,
    /// in one transaction; returns how many holds moved.
    async fn save_checkout_state(
        &self,
        session_id: &str,
        presentation_id: i64,
        state: &kupa_domain::checkout::CheckoutState,
        now_ms: i64,
    ) -> StoreResult<u64>;
}

/// The server's clock. Tests and the test mode move it; nothing else reads the system time.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// A clock the test mode may move forward (never backward).
pub trait AdjustableClock: Clock {
    fn advance_ms(&self, by_ms: i64);
    fn offset_ms(&self) -> i64;
}

/// Refuses the call with `recaptcha` (HTTP 400, as the spec's client expects) unless the captcha
/// accepts the token: the one check every protected call makes.
pub async fn require_captcha(captcha: &dyn Captcha, token: &str) -> AppResult<()> {
    if captcha.verify(token).await? {
        Ok(())
    } else {
        Err(crate::AppError::rejected(
            crate::ErrorCode::Recaptcha,
            "the captcha token was not accepted",
        ))
    }
}

/// The captcha token the test mode accepts and the web app sends in test mode.
pub const CAPTCHA_TEST_TOKEN: &str = "kupa-test-captcha";

/// The captcha check of lock, login and best-available calls.
#[async_trait]
pub trait Captcha: Send + Sync {
    async fn verify(&self, token: &str) -> AppResult<bool>;
}

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

/// A login code as the store keeps it: only a salted hash of the code, never the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoginCode {
    /// The mobile number in local form; one live code per number.
    pub mobile: String,
    /// Hex SHA-256 of the salt, the number and the code.
    pub code_hash: String,
    /// Hex random salt, new for every code.
    pub salt: String,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    /// Validation attempts made against this code, the current one included.
    pub attempts: i64,
    /// The start of the sending window and the codes sent to this number in it.
    pub window_started_at_ms: i64,
    pub sends_in_window: i64,
}

/// How often a number may be sent a code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeLimits {
    /// A new code only this long after the previous one.
    pub resend_after_ms: i64,
    /// At most `max_per_window` codes per number in a window this long.
    pub window_ms: i64,
    pub max_per_window: i64,
}

/// A buyer session bound to the customer (or, with no customer on file, the mobile number) that
/// proved the number with an SMS code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionLogin {
    pub session_id: String,
    /// None when the number has no customer (the code was sent regardless).
    pub customer_id: Option<i64>,
    /// The proven mobile number, local form.
    pub mobile: String,
    pub logged_in_at_ms: i64,
    pub expires_at_ms: i64,
}

/// Login codes and logged-in sessions. Every step that could race (two requests for a code, two
/// guesses at once) is one atomic statement.
#[async_trait]
pub trait LoginStore: Send + Sync {
    /// Saves `code` as the number's one live code, replacing any earlier one and zeroing the
    /// attempts, in one statement, unless the earlier one is younger than `limits.resend_after_ms`
    /// or the window's codes are used up. Returns None when saved, or the code that stands when
    /// refused. (`code.attempts`, `window_started_at_ms` and `sends_in_window` are not read.)
    async fn issue_login_code(
        &self,
        code: &LoginCode,
        limits: &CodeLimits,
    ) -> StoreResult<Option<LoginCode>>;
    /// Counts one attempt against the number's code and returns the code with the new count;
    /// None when the number has no code.
    async fn attempt_login_code(&self, mobile: &str) -> StoreResult<Option<LoginCode>>;
    /// Deletes the number's code if it is still the one with this hash; true when this call
    /// deleted it (so a code is used once, however many requests race).
    async fn consume_login_code(&self, mobile: &str, code_hash: &str) -> StoreResult<bool>;
    /// Binds the session to the login, replacing any earlier login of the session.
    async fn bind_session(&self, login: &SessionLogin) -> StoreResult<()>;
    /// The session's login unless it has expired at `now_ms`.
    async fn session_login(
        &self,
        session_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<SessionLogin>>;
    /// Ends the session's login; true when there was one.
    async fn end_session_login(&self, session_id: &str) -> StoreResult<bool>;
    async fn customer_by_id(&self, id: i64) -> StoreResult<Option<Customer>>;
}

/// Ticket codes, the references tickets accept, and members by number: what the ticket rules
/// look up (`tickets::TicketService`).
#[async_trait]
pub trait TicketStore: Send + Sync {
    /// The code whose normalised text (trimmed, lower case) is `code_key`.
    async fn ticket_code(&self, code_key: &str) -> StoreResult<Option<TicketCode>>;
    /// The references the ticket accepts, with the quantity left of each.
    async fn ref_prompt_options(&self, ticket_id: i64) -> StoreResult<Vec<RefPromptOption>>;
    /// A member by the number on the card (the spec's membershipLoyaltyId or memberNumber).
    async fn member_by_number(
        &self,
        member_number: &str,
    ) -> StoreResult<Option<(Member, Membership)>>;
}

/// Orders and payments. `finalise` is the one path from an authorized payment to a reservation.
#[async_trait]
pub trait OrderStore: Send + Sync {
    /// Writes a pending order, replacing the session's earlier pending (unpaid) order on the same
    /// presentation and any of its open payments.
    /// Saves a priced cart as the session's pending order (replacing its pending order of that
    /// cart), if every voucher balance and member's points it spends are still free of the other
    /// live pending orders (decision 0036); else writes nothing and says which one fell short.
    async fn save_pending_order(
        &self,
        order: &Order,
        now_ms: i64,
    ) -> StoreResult<Result<(), crate::orders::Shortfall>>;
    /// Agorot of a voucher's balance held by live pending orders of other sessions (decision 0036).
    async fn voucher_held_by_others(
        &self,
        code: &str,
        session_id: &str,
        now_ms: i64,
    ) -> StoreResult<i64>;
    /// Which of these members are enrolled in the season: a paid enrolment order of theirs with a
    /// ticket not cancelled (decision 0040).
    async fn enrolled_members(&self, season_id: i64, member_ids: &[i64]) -> StoreResult<Vec<i64>>;
    /// Whether a member of the membership valid on `today` (YYYY-MM-DD) was bought with this
    /// `reference1` (a student card number): one card, one member.
    async fn membership_reference_taken(
        &self,
        membership_id: i64,
        reference: &str,
        today: &str,
    ) -> StoreResult<bool>;
    /// The session's pending cart: a ticket order by one of its presentations, the others by kind.
    async fn pending_order(&self, session_id: &str, key: CartKey) -> StoreResult<Option<Order>>;
    /// The session's newest pending or paid order of a cart.
    async fn latest_order(&self, session_id: &str, key: CartKey) -> StoreResult<Option<Order>>;
    async fn order(&self, id: &str) -> StoreResult<Option<Order>>;
    async fn order_by_document_key(&self, key: &str) -> StoreResult<Option<Order>>;
    async fn create_payment(&self, payment: &Payment) -> StoreResult<()>;
    async fn payment(&self, id: &str) -> StoreResult<Option<Payment>>;
    /// Records what the provider said, in the payment's log, and moves the payment as
    /// [`crate::orders::payment_move`] decides on its status as read under the payment's lock
    /// (forward only; a late authorization becomes refunded). Returns the payment as stored
    /// afterwards and the move made; None for an unknown payment.
    async fn update_payment(
        &self,
        id: &str,
        update: &PaymentUpdate,
        now_ms: i64,
    ) -> StoreResult<Option<(Payment, crate::orders::PaymentMove)>>;
    /// In one transaction: the order's held seats become sold (each must still be held by the
    /// order's session, live), the order becomes paid and the payment captured, and the session's
    /// checkout on the presentation ends (its next hold starts a new one). Safe to run twice.
    async fn finalise(&self, payment_id: &str, now_ms: i64) -> StoreResult<Finalised>;
    /// Moves an authorized payment to refunded, with the reason, if nothing else moved it first:
    /// true for the one caller that must give the money back (single winner, on any node).
    async fn claim_refund(
        &self,
        payment_id: &str,
        failure_code: &str,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Marks the buyer's first commit; false when the order was already committed.
    async fn mark_committed(&self, order_id: &str, now_ms: i64) -> StoreResult<bool>;
    /// Authorized payments older than `before_ms` that no finalisation reached (a closed tab).
    async fn stranded_payments(&self, before_ms: i64) -> StoreResult<Vec<Payment>>;
    /// In one transaction under the order's lock: reads the order, its payment and its earlier
    /// refunds, runs [`crate::orders::plan`], and (unless a dry run) writes the cancellation, the
    /// tickets' `cancelled_at`, the refund rows (a voucher's balance back at once, the payment's
    /// part pending), the seats released, the code uses given back and the order's totals. Checks
    /// in the same transaction that no payment or voucher gets back more than it paid.
    async fn cancel(
        &self,
        order_id: &str,
        request: &CancelRequest,
        fee: Option<CancellationFee>,
        cancellation_id: &str,
        now_ms: i64,
    ) -> StoreResult<Result<Cancellation, CancelRefusal>>;
    /// Moves tickets of a paid order to new seats, all or none, if the order is still paid by
    /// `last_payment_id`: each new seat is claimed sold for the order (free, expired, or held by
    /// `session_id`) before its old seat is released, and the moved lines get new e-document keys.
    async fn move_seats(
        &self,
        order_id: &str,
        last_payment_id: &str,
        session_id: &str,
        moves: &[SeatMove],
        now_ms: i64,
    ) -> StoreResult<Result<Order, MoveRefusal>>;
    /// The order's cancellations with their refunds, oldest first.
    async fn cancellations(&self, order_id: &str) -> StoreResult<Vec<Cancellation>>;
    /// Whether the cinema moved one of these presentations after `after_ms` (its buyers may then
    /// cancel free; decision 0058).
    async fn moved_since(&self, presentation_ids: &[i64], after_ms: i64) -> StoreResult<bool>;
    /// Pending refunds last tried before `before_ms`.
    async fn pending_refunds(&self, before_ms: i64) -> StoreResult<Vec<Refund>>;
    /// Marks a pending refund done (`confirmed`), or counts a failed attempt.
    async fn settle_refund(&self, refund_id: &str, confirmed: bool, now_ms: i64)
    -> StoreResult<()>;
}

/// A payment provider. The built-in test gateway implements it with its own hosted pages.
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Where the buyer pays this payment (the spec's paymentFormURL).
    fn form_url(&self, payment: &Payment) -> String;
    /// Gives `refund.amount` of a paid payment back (all of it for a finalisation that failed
    /// after the money was taken, part of it for a cancellation). Asking twice with the same
    /// `refund.key` gives the money back once; an error means the provider did not confirm.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()>;
    /// The provider's word for an open payment that has outlived its window at `now_ms`, if it
    /// has (the built-in test gateway times payments out itself; others call back).
    fn timed_out(&self, _payment: &Payment, _now_ms: i64) -> Option<PaymentUpdate> {
        None
    }
}

/// What the limits that follow the buyer (not the session) read: which client address and
/// logged-in customer each buyer session holds seats for, and how many seats they hold live
/// across all their sessions; and the move of a buyer's state to a new session id when the
/// session is rotated (at login and logout).
#[async_trait]
pub trait HolderStore: Send + Sync {
    /// Records (or refreshes) who the session holds for.
    async fn record_holder(
        &self,
        session_id: &str,
        address: &str,
        customer_id: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// Seats held (not sold) and live at `now_ms` by every session of the address.
    async fn live_holds_of_address(&self, address: &str, now_ms: i64) -> StoreResult<i64>;
    /// Seats held (not sold) and live at `now_ms` by every session of the customer.
    async fn live_holds_of_customer(&self, customer_id: i64, now_ms: i64) -> StoreResult<i64>;
    /// Moves everything of the buyer session `from` (holds, checkouts, orders, payments, its
    /// holder record) to the session `to`, in one transaction.
    async fn move_session(&self, from: &str, to: &str) -> StoreResult<()>;
}

/// What a mailed token is for (`customer_tokens.purpose`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPurpose {
    /// The link in the registration mail: confirms the address, then the password works.
    VerifyEmail,
    /// The link of "forgot password".
    ResetPassword,
    /// A mailed login link (magic link).
    LoginLink,
    /// A mailed 6-digit login code (customers without a mobile number).
    LoginCode,
    /// A mailed 6-digit code proving a new email address before the profile takes it.
    ChangeEmail,
}

impl TokenPurpose {
    pub fn as_str(self) -> &'static str {
        match self {
            TokenPurpose::VerifyEmail => "verifyEmail",
            TokenPurpose::ResetPassword => "resetPassword",
            TokenPurpose::LoginLink => "loginLink",
            TokenPurpose::LoginCode => "loginCode",
            TokenPurpose::ChangeEmail => "changeEmail",
        }
    }
}

/// A mailed token as stored: only its SHA-256 hash, single use, expiring.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CustomerToken {
    pub token_hash: String,
    pub purpose: TokenPurpose,
    pub customer_id: i64,
    pub created_at_ms: i64,
    pub expires_at_ms: i64,
    pub redeemed_at_ms: Option<i64>,
}

/// A customer's password (an argon2id PHC string) and whether their address is confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credentials {
    pub customer_id: i64,
    pub password_hash: String,
    pub email_verified_at_ms: Option<i64>,
}

/// A customer who registers on the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewCustomer {
    pub first_name: String,
    pub last_name: String,
    /// Normalised (lower case).
    pub email: String,
    /// Local form, or empty.
    pub mobile: String,
    pub is_mailing_allowed: bool,
}

/// Failed logins counted under one key (an account or a client address) in a fixed window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Failures {
    pub count: i64,
    pub window_started_at_ms: i64,
}

/// Passwords, mailed tokens, failed-login counts, and the lookups of the other logins (member
/// number, reservation number). Each step that could race is one statement.
#[async_trait]
pub trait CredentialStore: Send + Sync {
    /// Customers whose email is this one (compared lower-cased), lowest id first.
    async fn customers_by_email(&self, email: &str) -> StoreResult<Vec<Customer>>;
    async fn credentials(&self, customer_id: i64) -> StoreResult<Option<Credentials>>;
    /// Sets (or replaces) the password; `verified_at_ms` marks the address confirmed when given
    /// (an earlier confirmation is kept).
    async fn set_password(
        &self,
        customer_id: i64,
        password_hash: &str,
        verified_at_ms: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<()>;
    async fn mark_email_verified(&self, customer_id: i64, now_ms: i64) -> StoreResult<()>;
    /// Writes a new customer and their (unconfirmed) password in one transaction; the new id.
    async fn create_customer(
        &self,
        c: &NewCustomer,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<i64>;
    /// Saves a token; with `replace`, the customer's other unredeemed tokens of the same purpose
    /// are deleted in the same transaction (one live code or link at a time).
    async fn issue_token(&self, t: &CustomerToken, replace: bool) -> StoreResult<()>;
    async fn token(&self, token_hash: &str) -> StoreResult<Option<CustomerToken>>;
    /// Marks the token used unless it was used already or has expired; true when this call did
    /// (so a token logs in once, however many requests race).
    async fn redeem_token(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool>;
    /// Counts one failure under `key` and answers the count in the window (a window older than
    /// `window_ms` starts again at 1).
    async fn count_failure(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures>;
    /// The failures under `key` in the current window (zero when the window is over).
    async fn failures(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures>;
    async fn clear_failures(&self, key: &str) -> StoreResult<()>;
    /// The customer whose member card has this number.
    async fn customer_of_member_number(&self, member_number: &str)
    -> StoreResult<Option<Customer>>;
    /// The order with this reservation number (exact).
    async fn order_by_reservation_number(
        &self,
        reservation_number: &str,
    ) -> StoreResult<Option<crate::orders::Order>>;
    /// Puts a guest order into the customer's account unless it is in one; true when it did.
    async fn claim_order(&self, order_id: &str, customer_id: i64) -> StoreResult<bool>;
    /// Notes that the order's mobile number was proven by an SMS code in its checkout.
    async fn mark_order_mobile_verified(&self, order_id: &str, mobile: &str) -> StoreResult<()>;
    /// Puts into the customer's account the guest orders whose checkout proved this number;
    /// how many.
    async fn join_verified_orders(&self, customer_id: i64, mobile: &str) -> StoreResult<u64>;
    /// A guest's login to one reservation (reservation number + contact), keyed by the login id.
    async fn bind_reservation_login(
        &self,
        login_id: &str,
        order_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()>;
    /// The reservation a live guest login may read.
    async fn reservation_of_login(
        &self,
        login_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<String>>;
    /// The number a customer-area mobile login sent its code to, for this buyer session.
    async fn remember_area_mobile(
        &self,
        session_id: &str,
        mobile: &str,
        checkout: bool,
        now_ms: i64,
    ) -> StoreResult<()>;
    /// The number and whether it was asked at checkout.
    async fn area_mobile(&self, session_id: &str) -> StoreResult<Option<(String, bool)>>;
    async fn forget_area_mobile(&self, session_id: &str) -> StoreResult<()>;
    /// Gives a customer without a mobile number this one; false when they have one already.
    async fn set_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool>;
    /// Ends every login of the customer (after a password reset).
    async fn end_logins_of_customer(&self, customer_id: i64) -> StoreResult<u64>;
    /// Replaces a customer's email with one a mailed code proved, and marks it confirmed, in one
    /// statement each of one transaction; false, with nothing written, when another customer has
    /// the address (compared lower-cased).
    async fn change_customer_email(
        &self,
        customer_id: i64,
        email: &str,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// Replaces a customer's mobile number with one an SMS code proved; false when another
    /// customer has it.
    async fn change_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool>;
}
