//! What the use cases need from the outside world. `store` implements the store traits on SQLite
//! and PostgreSQL; `providers` implements the rest.

use async_trait::async_trait;

use crate::error::{AppResult, StoreResult};
use crate::model::*;
use crate::orders::cancel::ledger::{Cancellation, Refund};
use crate::orders::cancel::terms::{CancelRefusal, CancelRequest, CancellationFee};
use crate::orders::model::{
    CartKey, Finalised, GatewayRefund, MoveRefusal, Order, Payment, PaymentMethod, PaymentUpdate,
    SeatMove,
};

mod captcha;
mod confirmations;
mod deals;
mod logins;
mod messages;

pub use captcha::*;
pub use confirmations::*;
pub use deals::*;
pub use logins::*;
pub use messages::*;
/// The catalogue: written whole by the seed command, read by every buyer.
#[async_trait]
pub trait CatalogueStore: Send + Sync {
    async fn is_catalogue_empty(&self) -> StoreResult<bool>;
    /// Writes the whole catalogue in one transaction; fails whole if any row is refused.
    async fn load_catalogue(&self, data: &CatalogueData) -> StoreResult<()>;

    async fn site_config(&self) -> StoreResult<Option<serde_json::Value>>;
    /// The managers' sales switches (decision 0067), every complex and channel that has a row.
    async fn sales_switches(&self) -> StoreResult<Vec<crate::sales_switches::SalesSwitch>> {
        Ok(Vec::new())
    }
    /// The screenings a manager closed to one channel (decision 0070): (presentation, channel).
    async fn screening_closures(
        &self,
    ) -> StoreResult<Vec<(PresentationId, crate::sales_switches::SaleChannel)>> {
        Ok(Vec::new())
    }
    /// Every scheduled price and service charge change (decision 0070); [`crate::prices`] says
    /// which is in force for a screening.
    async fn price_changes(&self) -> StoreResult<crate::prices::changes::PriceChanges> {
        Ok(Default::default())
    }
    async fn presentation(&self, id: PresentationId) -> StoreResult<Option<PresentationView>>;
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
    /// The seat at `at` and the other seats of its sofa (held and sold together), in the plan's
    /// order; empty when the plan has no seat there. What a lock or an unlock needs, without the whole plan
    /// (the catalogue cache answers it from memory without copying the plan).
    async fn seat_with_partners(
        &self,
        seatplan_id: i64,
        at: SeatAddress,
    ) -> StoreResult<Vec<Seat>> {
        Ok(crate::seat_plan::seat_with_partners(
            &self.seats(seatplan_id).await?,
            at,
        ))
    }
    async fn ticket_groups(&self, ids: &[i64]) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>>;
    async fn service_charge(&self, business_id: i64) -> StoreResult<Option<ServiceCharge>>;
    async fn mini_site(&self, url: &str) -> StoreResult<Option<MiniSite>>;
    async fn integration(&self, key: &str) -> StoreResult<Option<Integration>>;
    async fn locations(&self) -> StoreResult<Vec<Location>>;
    async fn customer_by_mobile(&self, mobile: &str) -> StoreResult<Option<Customer>>;
    async fn members_of_customer(&self, customer_id: i64)
    -> StoreResult<Vec<(Member, Membership)>>;
    /// The system voucher classes, in their order (issue 14).
    async fn system_voucher_classes(
        &self,
    ) -> StoreResult<Vec<crate::vouchers::model::SystemVoucherClass>>;
    /// The donations, in their order (issue 14).
    async fn donations(&self) -> StoreResult<Vec<crate::vouchers::model::Donation>>;
    /// Every membership, on sale or not, by its sort then id (issue 15).
    async fn memberships(&self) -> StoreResult<Vec<Membership>>;
    /// Membership seasons to enrol in (issue 15, decision 0040), by id.
    async fn seasons(&self) -> StoreResult<Vec<crate::memberships::seasons::Season>>;
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
        plan: &crate::catalogue_file::import_plan::ImportPlan,
    ) -> StoreResult<Vec<i64>>;
}

pub use kupa_domain::seating::SeatAddress;

/// One write of the seat arbiter's group commit ([`ClaimStore::apply_claim_ops`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClaimOp {
    /// As [`ClaimStore::hold`]: all places or none; answers 1 when held, 0 when refused.
    Hold {
        presentation_id: PresentationId,
        places: Vec<SeatAddress>,
        session_id: SessionId,
        now_ms: i64,
        expires_at_ms: i64,
    },
    /// As [`ClaimStore::release`]: answers how many it released.
    Release {
        presentation_id: PresentationId,
        places: Vec<SeatAddress>,
        session_id: SessionId,
    },
    /// As [`CheckoutStore::save_checkout_state`], in the batch (a session's first hold of a
    /// presentation starts its checkout): answers how many holds moved.
    SaveCheckout {
        presentation_id: PresentationId,
        session_id: SessionId,
        state: kupa_domain::checkout::CheckoutState,
        now_ms: i64,
    },
}

/// Claims on seats and general-admission places. Each claim is one atomic conditional statement
/// (insert, or take over an expired hold), never "select, then insert": the guard under the seat
/// arbiter's decisions (decision 0059), and the only one for paths that write claims themselves.
#[async_trait]
pub trait ClaimStore: Send + Sync {
    async fn claims(&self, presentation_id: PresentationId) -> StoreResult<Vec<Claim>>;
    /// One session's claims on a presentation (what a lock counts against the seat limit).
    async fn session_claims(
        &self,
        presentation_id: PresentationId,
        session_id: &SessionId,
    ) -> StoreResult<Vec<Claim>>;
    /// Holds every place for `session_id` until `expires_at_ms`, in one transaction: all or none.
    /// A place already held by the same session has its hold renewed. Returns false (and claims
    /// nothing) when any place is sold, or held by another session whose hold has not expired.
    async fn hold(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session_id: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<bool>;
    /// Releases the session's unexpired-or-expired holds on these places; returns how many it released.
    async fn release(
        &self,
        presentation_id: PresentationId,
        places: &[SeatAddress],
        session_id: &SessionId,
    ) -> StoreResult<u64>;
    /// Moves the expiry of all of a session's holds on a presentation; returns how many moved.
    async fn extend(
        &self,
        presentation_id: PresentationId,
        session_id: &SessionId,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<u64>;
    /// Deletes holds that expired at or before `now_ms` and returns them (for events).
    async fn sweep_expired(&self, now_ms: i64) -> StoreResult<Vec<Claim>>;
    /// Applies the operations in order in one transaction (each all or nothing on its own) and
    /// answers each one's count, once committed: the seat arbiter's group commit. When the batch
    /// cannot commit (a deadlock between nodes, a busy database), each operation is tried alone;
    /// when the database cannot be reached, each answers unavailable without another try.
    async fn apply_claim_ops(&self, ops: &[ClaimOp]) -> Vec<StoreResult<u64>>;
}

/// Where each buyer session stands in a checkout, and the deadline of its holds.
#[async_trait]
pub trait CheckoutStore: Send + Sync {
    async fn checkout_state(
        &self,
        session_id: &SessionId,
        presentation_id: PresentationId,
    ) -> StoreResult<Option<kupa_domain::checkout::CheckoutState>>;
    /// Saves the state and moves the session's live holds on the presentation to its deadline,
    /// in one transaction; returns how many holds moved.
    async fn save_checkout_state(
        &self,
        session_id: &SessionId,
        presentation_id: PresentationId,
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
    ) -> StoreResult<Result<(), crate::orders::model::Shortfall>>;
    /// Agorot of a voucher's balance held by live pending orders of other sessions (decision 0036).
    async fn voucher_held_by_others(
        &self,
        code: &str,
        session_id: &SessionId,
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
    async fn pending_order(
        &self,
        session_id: &SessionId,
        key: CartKey,
    ) -> StoreResult<Option<Order>>;
    /// The session's newest pending or paid order of a cart.
    async fn latest_order(
        &self,
        session_id: &SessionId,
        key: CartKey,
    ) -> StoreResult<Option<Order>>;
    async fn order(&self, id: &ReservationId) -> StoreResult<Option<Order>>;
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
    ) -> StoreResult<Option<(Payment, crate::orders::model::PaymentMove)>>;
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
    async fn mark_committed(&self, order_id: &ReservationId, now_ms: i64) -> StoreResult<bool>;
    /// Authorized payments older than `before_ms` that no finalisation reached (a closed tab).
    async fn stranded_payments(&self, before_ms: i64) -> StoreResult<Vec<Payment>>;
    /// In one transaction under the order's lock: reads the order, its payment and its earlier
    /// refunds, runs [`crate::orders::plan`], and (unless a dry run) writes the cancellation, the
    /// tickets' `cancelled_at`, the refund rows (a voucher's balance back at once, the payment's
    /// part pending), the seats released, the code uses given back and the order's totals. Checks
    /// in the same transaction that no payment or voucher gets back more than it paid.
    async fn cancel(
        &self,
        order_id: &ReservationId,
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
        order_id: &ReservationId,
        last_payment_id: &str,
        session_id: &SessionId,
        moves: &[SeatMove],
        now_ms: i64,
    ) -> StoreResult<Result<Order, MoveRefusal>>;
    /// The order's cancellations with their refunds, oldest first.
    async fn cancellations(&self, order_id: &ReservationId) -> StoreResult<Vec<Cancellation>>;
    /// Whether the cinema moved one of these presentations after `after_ms` (its buyers may then
    /// cancel free; decision 0058).
    async fn moved_since(
        &self,
        presentation_ids: &[PresentationId],
        after_ms: i64,
    ) -> StoreResult<bool>;
    /// Pending refunds last tried before `before_ms`.
    async fn pending_refunds(&self, before_ms: i64) -> StoreResult<Vec<Refund>>;
    /// Marks a pending refund done (`confirmed`), or counts a failed attempt.
    async fn settle_refund(&self, refund_id: &str, confirmed: bool, now_ms: i64)
    -> StoreResult<()>;
}

/// Where a gateway takes a payment method (issue 20): in no currency, in every one, or in a
/// few. What `GET /config` lists as the payment methods, and what a payment is checked against
/// before any provider is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodOffer {
    /// Not taken at all.
    No,
    /// Taken in every currency the catalogue sells in.
    AnyCurrency,
    /// Taken in these currencies only (ISO 4217 codes).
    Only(&'static [&'static str]),
}

impl MethodOffer {
    /// Whether an order in `currency` may be paid this way.
    pub fn takes(self, currency: &str) -> bool {
        match self {
            MethodOffer::No => false,
            MethodOffer::AnyCurrency => true,
            MethodOffer::Only(list) => list.contains(&currency),
        }
    }
}

/// A payment provider. The built-in test gateway implements it with its own hosted pages.
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Where this gateway takes `method`; by default every method in every currency (the test
    /// gateway simulates them all).
    fn offer(&self, _method: PaymentMethod) -> MethodOffer {
        MethodOffer::AnyCurrency
    }
    /// Whether an order in `currency` may be paid by `method` through this gateway.
    fn offers(&self, method: PaymentMethod, currency: &str) -> bool {
        self.offer(method).takes(currency)
    }
    /// Where the buyer pays this payment (the spec's paymentFormURL), for a provider whose page
    /// needs no call to open (the test gateway's own pages).
    fn form_url(&self, payment: &Payment) -> String;
    /// Opens the provider's page for a new payment and answers its address. A provider that
    /// creates its page by a call (CardCom's LowProfile) overrides this; an error means no page
    /// was opened, and the payment stays open until its window ends.
    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        Ok(self.form_url(payment))
    }
    /// Gives `refund.amount` of a paid payment back (all of it for a finalisation that failed
    /// after the money was taken, part of it for a cancellation). Asking twice with the same
    /// `refund.key` gives the money back once; an error means the provider did not confirm.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()>;
    /// The provider's word on an open payment, asked of the provider itself (a status query),
    /// when it has one: how a payment whose notification never came is still settled. None: no
    /// word (yet), or a provider that only calls back.
    async fn ask_provider(&self, _payment: &Payment) -> Option<PaymentUpdate> {
        None
    }
    /// Charges one of the customer's saved cards (`card_token`, ours) server to server, without a
    /// page, when the provider keeps its own token for the card (decision 0066). `OnPage`: this
    /// provider takes saved cards on its page (the test gateway's). An error: refused before any
    /// charge (not the customer's card, a card the provider holds no token for).
    async fn charge_saved_card(
        &self,
        _payment: &Payment,
        _card_token: &str,
    ) -> AppResult<SavedCardCharge> {
        Ok(SavedCardCharge::OnPage)
    }
    /// The provider's word for an open payment that has outlived its window at `now_ms`, if it
    /// has (the built-in test gateway times payments out itself; others call back).
    fn timed_out(&self, _payment: &Payment, _now_ms: i64) -> Option<PaymentUpdate> {
        None
    }
}

/// What became of a saved-card charge made server to server ([`PaymentGateway::charge_saved_card`]).
#[derive(Debug, Clone)]
pub enum SavedCardCharge {
    /// The provider takes saved cards on its page: open it as for any payment.
    OnPage,
    /// The provider's answer, to be recorded through the one path.
    Answered(PaymentUpdate),
    /// No answer (a timeout): the payment stays open, settled later by
    /// [`PaymentGateway::ask_provider`]; the provider's idempotency key keeps it charged once.
    NoAnswer,
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
        session_id: &SessionId,
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
    async fn move_session(&self, from: &SessionId, to: &SessionId) -> StoreResult<()>;
}
