//! What a cart asks for: its presentations and seats, products, vouchers and the customer.

use crate::customer_info::CustomerInfo;
use kupa_domain::checkout::Step;
use kupa_domain::ids::PresentationId;
use kupa_domain::seating::SeatAddress;

use super::*;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartSeat {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub ticket_id: i64,
    /// What the client believes the ticket costs; refused when it differs.
    pub amount: Option<Money>,
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
    pub presentation_id: PresentationId,
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
    pub total: Option<Money>,
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
    pub balance: Money,
    /// The smaller of the order's total and the balance; None without a priced cart.
    pub amount: Option<Money>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPayment {
    pub method: PaymentMethod,
    pub installments: i64,
    pub save_card: bool,
    /// The saved card (our token) a `savedCard` payment charges, when the buyer chose it here.
    pub saved_card: Option<String>,
    pub total: Option<Money>,
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

/// Why a cart could not be kept: what it would spend is already promised to other live orders
/// (or spent). The first one found, in lock order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shortfall {
    /// A voucher's balance, less what live pending orders reserved, is below what this cart
    /// wants of it (normalised code).
    VoucherBalance { code: String },
    /// A member's points, less what live pending orders reserved, are below the points tickets'.
    Points { member_number: String },
    /// A series pass's balance, less what live pending orders reserved, is below its pass
    /// tickets'.
    PassBalance { member_number: String },
}
