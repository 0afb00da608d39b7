//! What an order is: its tickets, products and vouchers, its payments and their statuses, what a
//! cart asks for and what finalisation answers.

use kupa_domain::checkout::Step;
use kupa_domain::money::Money;
use kupa_domain::pricing;
use kupa_domain::seating::SeatAddress;
use serde::{Deserialize, Serialize};

use crate::customer_info::CustomerInfo;

// ------------------------------------------------------------------------------------------
// What is stored

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OrderStatus {
    Pending,
    Paid,
    Failed,
    Cancelled,
}

impl OrderStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Paid => "paid",
            OrderStatus::Failed => "failed",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<OrderStatus> {
        [
            OrderStatus::Pending,
            OrderStatus::Paid,
            OrderStatus::Failed,
            OrderStatus::Cancelled,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTicket {
    pub line: i64,
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub section_name: String,
    pub section_name_en: String,
    pub row_name: String,
    pub seat_name: String,
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    pub price: i64,
    pub service_charge: i64,
    pub is_sub_ticket: bool,
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub member_number: Option<String>,
    /// Loyalty points this line is paid with (a points ticket); 0 for money.
    pub points: i64,
    /// Agorot this line takes from its member's series pass (a pass ticket, decision 0039); 0
    /// otherwise.
    pub member_balance: i64,
    pub document_key: String,
    pub scanned_at_ms: Option<i64>,
    pub cancelled_at_ms: Option<i64>,
}

impl OrderTicket {
    pub fn address(&self) -> SeatAddress {
        SeatAddress::new(self.section_id, self.x, self.y)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderProduct {
    pub product_id: i64,
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub unit_price: i64,
}

/// Where an order was sold: the web shop, a promotional mini-site (which referred it), or a
/// partner's API. Reports of sales by point of sale read it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Channel {
    #[default]
    Web,
    MiniSite,
    PartnerApi,
}

impl Channel {
    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Web => "web",
            Channel::MiniSite => "miniSite",
            Channel::PartnerApi => "partnerApi",
        }
    }

    pub fn parse(s: &str) -> Option<Channel> {
        [Channel::Web, Channel::MiniSite, Channel::PartnerApi]
            .into_iter()
            .find(|c| c.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub id: String,
    pub reservation_number: String,
    pub session_id: String,
    /// The presentations the order's ticket lines are for, in the order the buyer chose them:
    /// none (an order of products, vouchers, memberships or donations alone), one, or several.
    /// Each ticket line names its own ([`OrderTicket::presentation_id`]).
    pub presentations: Vec<i64>,
    pub status: OrderStatus,
    /// Where it was sold (and, from a mini-site, which one referred it).
    pub channel: Channel,
    pub referral_mini_site_id: Option<i64>,
    pub is_hold: bool,
    pub customer_id: Option<i64>,
    pub customer: CustomerInfo,
    pub locale: String,
    pub tickets_total: i64,
    pub products_total: i64,
    pub service_charge_total: i64,
    pub service_charge_name: String,
    pub total: i64,
    pub currency: String,
    pub payment_id: Option<String>,
    pub created_at_ms: i64,
    pub paid_at_ms: Option<i64>,
    pub committed_at_ms: Option<i64>,
    /// The ticket lines, over [`Order::presentations`].
    pub tickets: Vec<OrderTicket>,
    /// The product lines.
    pub products: Vec<OrderProduct>,
    /// Vouchers paying part (or all) of the total, in the order they were applied.
    pub vouchers: Vec<OrderVoucher>,
    /// What the order sells: tickets (and products), system vouchers, donations or memberships.
    pub kind: OrderKind,
    /// The system vouchers sold, one line each.
    pub system_vouchers: Vec<OrderSystemVoucher>,
    /// The donations given, one line each.
    pub donations: Vec<OrderDonation>,
    /// The memberships sold (new members and top-ups), one line each (decision 0037).
    pub memberships: Vec<OrderMembership>,
    /// The member whose points this order spends and earns (decision 0036).
    pub points_member: Option<String>,
    /// Points the order earns when paid, and after that what it still holds of them.
    pub points_earned: i64,
    /// A ticket order that enrols a member in a membership season (decision 0040).
    pub enrollment: Option<OrderEnrollment>,
    /// The waiver signed for a children's voucher (decision 0041): written with the pending
    /// order, in its transaction. Personal data: an order read back never carries it (None);
    /// only `WaiverStore` reads it.
    pub waiver: Option<crate::vouchers::OrderWaiver>,
}

/// The season a ticket order enrols its member in: the member is enrolled once it is paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderEnrollment {
    pub season_id: i64,
    pub membership_id: i64,
    pub member_id: i64,
    pub member_number: String,
    pub name: String,
    pub name_en: String,
}

/// What an order sells (spec section 4: the order types a buyer switches between). A ticket
/// order is found by its presentations; the others by their kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OrderKind {
    Tickets,
    Vouchers,
    Donations,
    Memberships,
}

impl OrderKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderKind::Tickets => "tickets",
            OrderKind::Vouchers => "vouchers",
            OrderKind::Donations => "donations",
            OrderKind::Memberships => "memberships",
        }
    }

    pub fn parse(s: &str) -> Option<OrderKind> {
        [
            OrderKind::Tickets,
            OrderKind::Vouchers,
            OrderKind::Donations,
            OrderKind::Memberships,
        ]
        .into_iter()
        .find(|k| k.as_str() == s)
    }
}

/// How the session's cart is found: a ticket order by one of its presentations, the others by
/// their kind (a session has one cart of each).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CartKey {
    Presentation(i64),
    Kind(OrderKind),
}

pub use crate::memberships::OrderMembership;
pub use crate::vouchers::{OrderDonation, OrderSystemVoucher};

/// What a line of an order sells (decision 0027). Each kind is its own typed list on [`Order`]
/// and its own table (`order_tickets`, `order_products`, ...): tickets and products today; the
/// round-two areas add theirs as new kinds, never by bending a ticket line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum LineKind {
    /// A seat (or a general-admission place) of one presentation.
    Ticket,
    /// A product of the complex's menu (popcorn, a drink).
    Product,
    /// A system voucher sold (issue 14).
    SystemVoucher,
    /// A membership sold (issue 15).
    Membership,
    /// A donation (issue 14).
    Donation,
    /// A video-on-demand item (a presentation of venue type 101-104).
    VideoOnDemand,
}

/// One line of an order, whatever its kind: what code that walks every line (totals, receipts,
/// cancellation) reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line<'a> {
    Ticket(&'a OrderTicket),
    Product(&'a OrderProduct),
    SystemVoucher(&'a OrderSystemVoucher),
    Donation(&'a OrderDonation),
}

impl Line<'_> {
    pub fn kind(&self) -> LineKind {
        match self {
            Line::Ticket(_) => LineKind::Ticket,
            Line::Product(_) => LineKind::Product,
            Line::SystemVoucher(_) => LineKind::SystemVoucher,
            Line::Donation(_) => LineKind::Donation,
        }
    }

    /// What the line costs, service charge included (agorot).
    pub fn amount(&self) -> i64 {
        match self {
            Line::Ticket(t) => t.price + t.service_charge,
            Line::Product(p) => p.unit_price * p.quantity,
            Line::SystemVoucher(v) => v.price,
            Line::Donation(d) => d.amount,
        }
    }

    /// The presentation the line is for, if it is for one.
    pub fn presentation_id(&self) -> Option<i64> {
        match self {
            Line::Ticket(t) => Some(t.presentation_id),
            Line::Product(_) | Line::SystemVoucher(_) | Line::Donation(_) => None,
        }
    }
}

impl Order {
    /// Every line of the order: its tickets (in line order), its products, its system vouchers,
    /// then its donations.
    pub fn lines(&self) -> impl Iterator<Item = Line<'_>> {
        self.tickets
            .iter()
            .map(Line::Ticket)
            .chain(self.products.iter().map(Line::Product))
            .chain(self.system_vouchers.iter().map(Line::SystemVoucher))
            .chain(self.donations.iter().map(Line::Donation))
    }

    /// The first presentation the order is for: the one its pages, mail and messages headline.
    /// None for an order without tickets.
    pub fn first_presentation(&self) -> Option<i64> {
        self.presentations.first().copied()
    }

    /// The ticket lines of one of the order's presentations.
    pub fn tickets_of(&self, presentation_id: i64) -> impl Iterator<Item = &OrderTicket> {
        self.tickets
            .iter()
            .filter(move |t| t.presentation_id == presentation_id)
    }

    /// The presentations of a set of ticket lines, each once, in the lines' order.
    pub fn presentations_of(tickets: &[OrderTicket]) -> Vec<i64> {
        let mut out: Vec<i64> = Vec::new();
        for t in tickets {
            if !out.contains(&t.presentation_id) {
                out.push(t.presentation_id);
            }
        }
        out
    }

    /// How this order's price is shown everywhere ([`pricing::PriceBreakdown`]).
    pub fn price_breakdown(&self) -> pricing::PriceBreakdown {
        let lines: Vec<(Money, Money)> = self
            .tickets
            .iter()
            .map(|t| (Money(t.price), Money(t.service_charge)))
            .collect();
        pricing::breakdown(
            &lines,
            Money(self.products_total),
            Money(self.service_charge_total),
        )
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderVoucher {
    /// The voucher's code, normalised.
    pub code: String,
    /// Agorot it pays: the smaller of what was still due and its balance.
    pub amount: i64,
}

impl Order {
    /// What is left to pay after the vouchers.
    pub fn amount_due(&self) -> i64 {
        self.total - self.vouchers.iter().map(|v| v.amount).sum::<i64>()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentMethodValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentMethod {
    Card,
    SavedCard,
    Paypal,
    Blik,
    Payu,
    Voucher,
}

impl PaymentMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "card",
            PaymentMethod::SavedCard => "savedCard",
            PaymentMethod::Paypal => "paypal",
            PaymentMethod::Blik => "blik",
            PaymentMethod::Payu => "payu",
            PaymentMethod::Voucher => "voucher",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentMethod> {
        [
            PaymentMethod::Card,
            PaymentMethod::SavedCard,
            PaymentMethod::Paypal,
            PaymentMethod::Blik,
            PaymentMethod::Payu,
            PaymentMethod::Voucher,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

/// Where a payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentStatusValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentStatus {
    Created,
    /// The card's 3-D Secure check is waiting.
    Challenge,
    /// Blik: waiting for the buyer to confirm in the bank's app.
    AwaitingBank,
    /// PayU or PayPal: the buyer is on the provider's page.
    Redirected,
    Authorized,
    /// Paid: the order is a reservation.
    Captured,
    Declined,
    Failed,
    Refunded,
    Expired,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Created => "created",
            PaymentStatus::Challenge => "challenge",
            PaymentStatus::AwaitingBank => "awaitingBank",
            PaymentStatus::Redirected => "redirected",
            PaymentStatus::Authorized => "authorized",
            PaymentStatus::Captured => "captured",
            PaymentStatus::Declined => "declined",
            PaymentStatus::Failed => "failed",
            PaymentStatus::Refunded => "refunded",
            PaymentStatus::Expired => "expired",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentStatus> {
        use PaymentStatus::*;
        [
            Created,
            Challenge,
            AwaitingBank,
            Redirected,
            Authorized,
            Captured,
            Declined,
            Failed,
            Refunded,
            Expired,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }

    /// Still waiting for the buyer or the provider.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            PaymentStatus::Created
                | PaymentStatus::Challenge
                | PaymentStatus::AwaitingBank
                | PaymentStatus::Redirected
        )
    }

    /// The money is there: a payment is "paid" once authorized, before it is captured.
    pub fn is_paid(self) -> bool {
        matches!(self, PaymentStatus::Authorized | PaymentStatus::Captured)
    }
}

/// What a provider's word does to a payment as it stands. A payment only moves forward: while
/// open it takes any later word; once it has ended (authorized, captured, declined, failed,
/// expired, refunded) a word changes nothing, with one exception: money authorized for a payment
/// that had already ended without it is given straight back ([`PaymentMove::VoidLate`]), never
/// captured, so a buyer is never charged for seats the shop stopped holding for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentMove {
    /// The payment takes the word's status.
    To(PaymentStatus),
    /// An authorization that came after the payment had expired, been declined or failed: the
    /// payment is refunded at once (`failure_code` [`payment_codes::LATE_AUTHORIZATION`]).
    VoidLate,
    /// Nothing changes: a duplicate, a word that would move backwards, or a word after the end.
    Stay,
}

/// How long a signed callback stays good: a callback whose own time stamp is further than this
/// from the server's clock (either way) is refused, so a captured one cannot be replayed later.
pub const CALLBACK_WINDOW_SECONDS: i64 = 5 * 60;

/// Whether a callback stamped `sent_at_s` (Unix seconds) is inside `window_s` of `now_ms`.
pub fn callback_in_window(sent_at_s: i64, now_ms: i64, window_s: i64) -> bool {
    let gap_ms = now_ms.saturating_sub(sent_at_s.saturating_mul(1000));
    gap_ms.saturating_abs() <= window_s.max(0).saturating_mul(1000)
}

/// How the word `word` moves a payment that is `current` (see [`PaymentMove`]).
pub fn payment_move(current: PaymentStatus, word: PaymentStatus) -> PaymentMove {
    use PaymentStatus::*;
    match (current, word) {
        // Back to the start, or to a state only the shop itself writes (captured, refunded).
        (_, Created | Captured | Refunded) => PaymentMove::Stay,
        (c, w) if c.is_open() => {
            if c == w {
                PaymentMove::Stay
            } else {
                PaymentMove::To(w)
            }
        }
        (Declined | Failed | Expired, Authorized) => PaymentMove::VoidLate,
        _ => PaymentMove::Stay,
    }
}

/// The spec's payment codes (section 8), as stored in `failure_code`: what a provider may say a
/// payment failed with, whichever provider it is.
pub mod payment_codes {
    pub const PAYMENT_ERROR: &str = "paymentError";
    pub const BLIK_ERROR: &str = "blikError";
    pub const PAYU_ERROR: &str = "payUerror";
    pub const PAYU_3DS_ERROR: &str = "payU_3DS_error";
    pub const ERROR_NO_RESPONSE: &str = "errorNoResponse";
    pub const ERROR_RESPONSE: &str = "errorResponse";
    pub const FORM_VALIDATION: &str = "formValidation";
    /// Not a provider's code: money authorized after the payment had ended, given back at once.
    pub const LATE_AUTHORIZATION: &str = "lateAuthorization";
    /// Every code a payment may fail with.
    pub const ALL: [&str; 6] = [
        PAYMENT_ERROR,
        BLIK_ERROR,
        PAYU_ERROR,
        PAYU_3DS_ERROR,
        ERROR_NO_RESPONSE,
        ERROR_RESPONSE,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: String,
    pub order_id: String,
    pub session_id: String,
    /// The customer logged in (login cookie) when the payment started: whose saved cards it may
    /// use, and who a card it saves belongs to.
    pub customer_id: Option<i64>,
    pub method: PaymentMethod,
    pub amount: i64,
    pub currency: String,
    pub installments: i64,
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub save_card: bool,
    pub failure_code: Option<String>,
    /// Why it was declined, when the provider said (see [`DeclineReason`]).
    pub decline_reason: Option<super::DeclineReason>,
    pub locale: String,
    pub return_url: String,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

impl Payment {
    /// The failure code to tell the buyer: none once paid (a code from an earlier try is history).
    pub fn failure_code_for_buyer(&self) -> Option<String> {
        if self.status.is_paid() {
            None
        } else {
            self.failure_code.clone()
        }
    }

    /// The decline reason to tell the buyer: none once paid.
    pub fn decline_reason_for_buyer(&self) -> Option<super::DeclineReason> {
        if self.status.is_paid() {
            None
        } else {
            self.decline_reason
        }
    }
}

/// What a payment provider reports back about a payment (the callback's content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentUpdate {
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub failure_code: Option<String>,
    /// Why it was declined, when the provider said; only with declined or failed.
    pub decline_reason: Option<super::DeclineReason>,
    /// For the payment's event log; never card data.
    pub note: String,
}

impl PaymentUpdate {
    /// The same word, with the provider's reason for a decline.
    pub fn because(mut self, reason: super::DeclineReason) -> PaymentUpdate {
        self.decline_reason = Some(reason);
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finalised {
    /// Turned paid now, by this call.
    Paid(Order),
    /// Paid earlier by this same payment (a callback arriving twice, or the commit after it).
    AlreadyPaid(Order),
    /// The payment is not (or no longer) authorized.
    NotAuthorized(PaymentStatus),
    /// A held seat was lost (its hold expired and another buyer took it): nothing was written.
    HoldsLost,
    /// A code's uses, or a reference option's places, ran out before this order was paid:
    /// nothing was written.
    CodeUsedUp,
    /// The order was already paid by another payment.
    PaidByAnother(Order),
    /// A ticket of the order does not fit its seat (a wheelchair ticket on an ordinary seat):
    /// nothing was written, and the payment was refunded.
    TicketsRefused,
}

// ------------------------------------------------------------------------------------------
// The cart

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartSeat {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub ticket_id: i64,
    /// What the client believes the ticket costs; refused when it differs.
    pub amount: Option<i64>,
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub member_number: Option<String>,
    /// A senior citizen's Israeli ID (senior tickets).
    pub senior_id: Option<String>,
}

impl CartSeat {
    pub fn address(&self) -> SeatAddress {
        SeatAddress::new(self.section_id, self.x, self.y)
    }
}

/// One presentation of a cart and the seats the buyer holds there, one ticket each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartPresentation {
    pub presentation_id: i64,
    pub seats: Vec<CartSeat>,
}

impl CartInput {
    /// Every seat of the cart, presentation after presentation: the order of its ticket lines.
    pub fn seats(&self) -> impl Iterator<Item = &CartSeat> {
        self.presentations.iter().flat_map(|p| p.seats.iter())
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartInput {
    /// The presentations of the cart, each with its held seats, in the order the buyer chose them.
    pub presentations: Vec<CartPresentation>,
    pub products: Vec<(i64, i64)>,
    /// Voucher references paying part of the order (spec: the cart's voucherPayments).
    pub vouchers: Vec<String>,
    pub customer: Option<CustomerInfo>,
    /// The step the buyer is entering (tickets, products, customerInfo); the holds follow it.
    pub step: Option<Step>,
    pub locale: String,
    /// What the client believes the order costs; refused when it differs.
    pub total: Option<i64>,
    /// The cart enrols a member in a membership season (decision 0040): priced by the season.
    pub enrollment: Option<EnrollmentChoice>,
    /// The mini-site the buyer orders through (decision 0050): its presentations only, and the
    /// order is the mini-site's (channel miniSite, referralMiniSiteId its id).
    pub mini_site_url: Option<String>,
    /// The spec's cart repeats the mini-site's id; when given it must be `mini_site_url`'s.
    pub referral_mini_site_id: Option<i64>,
}

/// The season and member an enrolment cart is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnrollmentChoice {
    pub membership_id: i64,
    pub season_id: i64,
    pub member_number: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedCart {
    pub order: Order,
    pub expires_at_ms: i64,
    pub step: Step,
}

/// A voucher as a way to pay: its balance, and what it would pay of the buyer's priced cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoucherPayment {
    pub reference: String,
    pub balance: i64,
    /// The smaller of the order's total and the balance; None without a priced cart.
    pub amount: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPayment {
    pub method: PaymentMethod,
    pub installments: i64,
    pub save_card: bool,
    pub total: Option<i64>,
    pub locale: String,
    pub return_url: String,
    pub captcha_token: String,
}

/// Whether a finalisation may go on to sell the seats, decided on the payment and its order as
/// read inside the finalisation's transaction. `None`: go on (the payment is authorized and the
/// order still pending); otherwise the outcome, with nothing written.
pub fn finalisation_outcome(payment: &Payment, order: &Order) -> Option<Finalised> {
    let paid_by_this = order.payment_id.as_deref() == Some(payment.id.as_str());
    if payment.status == PaymentStatus::Captured
        && order.status == OrderStatus::Paid
        && paid_by_this
    {
        Some(Finalised::AlreadyPaid(order.clone()))
    } else if payment.status != PaymentStatus::Authorized {
        Some(Finalised::NotAuthorized(payment.status))
    } else if order.status == OrderStatus::Paid {
        Some(Finalised::PaidByAnother(order.clone()))
    } else if order.status != OrderStatus::Pending {
        Some(Finalised::HoldsLost)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::PaymentStatus::*;
    use super::*;

    #[test]
    fn a_callback_is_good_within_its_window_either_way() {
        let now = 1_900_000_000_000;
        assert!(callback_in_window(1_900_000_000, now, 300));
        assert!(callback_in_window(1_900_000_000 - 300, now, 300));
        assert!(
            callback_in_window(1_900_000_000 + 300, now, 300),
            "a gateway's clock a little ahead"
        );
        assert!(!callback_in_window(1_900_000_000 - 301, now, 300));
        assert!(!callback_in_window(1_900_000_000 + 301, now, 300));
        assert!(!callback_in_window(i64::MIN, now, 300));
        assert!(!callback_in_window(i64::MAX, now, 300));
        assert!(!callback_in_window(0, now, 300));
    }

    #[test]
    fn an_open_payment_takes_any_later_word() {
        for open in [Created, Challenge, AwaitingBank, Redirected] {
            for word in [Authorized, Declined, Failed, Expired] {
                assert_eq!(
                    payment_move(open, word),
                    PaymentMove::To(word),
                    "{open:?} {word:?}"
                );
            }
            assert_eq!(
                payment_move(open, Created),
                PaymentMove::Stay,
                "never back to the start"
            );
        }
        assert_eq!(payment_move(Created, Challenge), PaymentMove::To(Challenge));
        assert_eq!(payment_move(Challenge, Challenge), PaymentMove::Stay);
    }

    #[test]
    fn an_ended_payment_stays_ended_and_a_late_authorization_is_voided() {
        for ended in [Declined, Failed, Expired] {
            assert_eq!(
                payment_move(ended, Authorized),
                PaymentMove::VoidLate,
                "{ended:?}"
            );
            for word in [
                Created,
                Challenge,
                AwaitingBank,
                Redirected,
                Declined,
                Failed,
                Expired,
            ] {
                assert_eq!(
                    payment_move(ended, word),
                    PaymentMove::Stay,
                    "{ended:?} {word:?}"
                );
            }
        }
        for paid in [Authorized, Captured, Refunded] {
            for word in [
                Created,
                Challenge,
                AwaitingBank,
                Redirected,
                Authorized,
                Declined,
                Failed,
                Expired,
            ] {
                assert_eq!(
                    payment_move(paid, word),
                    PaymentMove::Stay,
                    "{paid:?} {word:?}"
                );
            }
        }
    }
}
