//! What an order is: its tickets, products and vouchers, its payments and their statuses, what a
//! cart asks for and what finalisation answers.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::{PresentationId, SessionId};
use kupa_domain::money::Money;
use kupa_domain::pricing;
use kupa_domain::seating::SeatAddress;
use serde::{Deserialize, Serialize};

use crate::customer_info::CustomerInfo;

mod cart;
mod payment;
mod seat_move;

pub use cart::*;
pub use payment::*;
pub use seat_move::*;

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
    pub presentation_id: PresentationId,
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
    pub price: Money,
    pub service_charge: Money,
    pub is_sub_ticket: bool,
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub member_number: Option<String>,
    /// Loyalty points this line is paid with (a points ticket); 0 for money.
    pub points: i64,
    /// Agorot this line takes from its member's series pass (a pass ticket, decision 0039); 0
    /// otherwise.
    pub member_balance: Money,
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
    pub unit_price: Money,
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
    pub id: ReservationId,
    pub reservation_number: String,
    pub session_id: SessionId,
    /// The presentations the order's ticket lines are for, in the order the buyer chose them:
    /// none (an order of products, vouchers, memberships or donations alone), one, or several.
    /// Each ticket line names its own ([`OrderTicket::presentation_id`]).
    pub presentations: Vec<PresentationId>,
    pub status: OrderStatus,
    /// Where it was sold (and, from a mini-site, which one referred it).
    pub channel: Channel,
    pub referral_mini_site_id: Option<i64>,
    pub is_hold: bool,
    pub customer_id: Option<i64>,
    pub customer: CustomerInfo,
    pub locale: String,
    pub tickets_total: Money,
    pub products_total: Money,
    pub service_charge_total: Money,
    pub service_charge_name: String,
    pub total: Money,
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
    Presentation(PresentationId),
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
    pub fn amount(&self) -> Money {
        match self {
            Line::Ticket(t) => t.price + t.service_charge,
            Line::Product(p) => p.unit_price * p.quantity,
            Line::SystemVoucher(v) => v.price,
            Line::Donation(d) => d.amount,
        }
    }

    /// The presentation the line is for, if it is for one.
    pub fn presentation_id(&self) -> Option<PresentationId> {
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
    pub fn first_presentation(&self) -> Option<PresentationId> {
        self.presentations.first().copied()
    }

    /// The ticket lines of one of the order's presentations.
    pub fn tickets_of(
        &self,
        presentation_id: PresentationId,
    ) -> impl Iterator<Item = &OrderTicket> {
        self.tickets
            .iter()
            .filter(move |t| t.presentation_id == presentation_id)
    }

    /// The presentations of a set of ticket lines, each once, in the lines' order.
    pub fn presentations_of(tickets: &[OrderTicket]) -> Vec<PresentationId> {
        let mut out: Vec<PresentationId> = Vec::new();
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
            .map(|t| (t.price, t.service_charge))
            .collect();
        pricing::breakdown(&lines, self.products_total, self.service_charge_total)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderVoucher {
    /// The voucher's code, normalised.
    pub code: String,
    /// Agorot it pays: the smaller of what was still due and its balance.
    pub amount: Money,
}

impl Order {
    /// What is left to pay after the vouchers.
    pub fn amount_due(&self) -> Money {
        self.total - self.vouchers.iter().map(|v| v.amount).sum::<Money>()
    }
}
