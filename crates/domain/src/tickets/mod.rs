//! The ticket rules of an order (spec sections 4, 5 and 6): which ticket each chosen seat may
//! carry; codes (discount codes, vouchers, coupons, bank benefits cards, credit-card benefits);
//! minimum and maximum per ticket type; a ticket that needs another (a companion needs a
//! wheelchair ticket); the multiply factor; members; senior citizens; hotel guests.
//!
//! Pure: the caller brings the order's lines, the catalogue's tickets, the codes and members it
//! looked up, and today's date in Asia/Jerusalem. Nothing here reads a database or the clock.
//!
//! The cart calls [`check_order`] on every change and gets each line priced (price and the
//! ticket's own service charge; totals and the business's service-charge rule are the cart's),
//! [`apply_code`] / [`remove_code`] when the buyer enters or removes a code, and
//! [`auto_assignable`] before giving a seat a ticket by itself.

//!
//! Rooms: this file (what the rules are told), [`errors`] (what they answer), [`rules`] (single
//! rules, usable on their own, and codes applied or removed) and [`order`] (the whole order).

mod errors;
mod order;
mod rules;
#[cfg(test)]
mod tests;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::money::Money;
use crate::seat_kinds::SeatKind;
use crate::seating::SeatAddress;

/// Membership type 2 is a series (a prepaid pass): its value is its balance.
pub const SERIES_MEMBERSHIP_TYPE: i64 = 2;

/// The longest reference (a hotel room number) a buyer may type.
pub const MAX_REFERENCE_CHARS: usize = 40;

// ---------------------------------------------------------------------------------------------
// What the rules are told.

/// What the rules need of one catalogue ticket.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TicketType {
    pub id: i64,
    pub ticket_group_id: i64,
    pub price: Money,
    /// The ticket's own service charge, per ticket.
    pub service_charge: Money,
    pub min_quantity: i64,
    /// 0 or less: no maximum.
    pub max_quantity: i64,
    /// A ticket of this id must be in the order, at least as many times as this one.
    pub requires_ticket_id: Option<i64>,
    pub member_only: bool,
    pub needs_senior_id: bool,
    /// The ticket asks for a reference (a hotel guest's room number).
    pub has_ref_prompt: bool,
    /// Points one ticket costs when redeemed with loyalty points; None: not a points ticket.
    pub loyalty_points_price: Option<i64>,
    /// Agorot one ticket takes from the balance of a series pass; None: not a pass ticket.
    pub member_balance_price: Option<Money>,
    /// Seats one ticket covers (0 and 1 both mean one).
    pub multiply_factor: i64,
    /// Sold only through a code: never chosen without one.
    pub by_code_only: bool,
    /// Sold only on a seat of this kind ([`crate::seat_kinds`]); None: on any seat.
    pub seat_kind: Option<SeatKind>,
}

impl TicketType {
    fn factor(&self) -> usize {
        self.multiply_factor.max(1) as usize
    }
}

/// What a code is. Only the name differs for the rules, except a credit-card benefit, whose card
/// at payment must start with the code's issuer prefix ([`TicketCodeRule::card_accepted`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum CodeKind {
    #[default]
    DiscountCode,
    Voucher,
    Coupon,
    /// A bank's benefits card (the code printed on it).
    BankCard,
    /// A benefit of paying with a given issuer's credit card.
    CreditCardBenefit,
}

impl CodeKind {
    pub const ALL: [CodeKind; 5] = [
        CodeKind::DiscountCode,
        CodeKind::Voucher,
        CodeKind::Coupon,
        CodeKind::BankCard,
        CodeKind::CreditCardBenefit,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            CodeKind::DiscountCode => "discountCode",
            CodeKind::Voucher => "voucher",
            CodeKind::Coupon => "coupon",
            CodeKind::BankCard => "bankCard",
            CodeKind::CreditCardBenefit => "creditCardBenefit",
        }
    }

    pub fn parse(s: &str) -> Option<CodeKind> {
        CodeKind::ALL.into_iter().find(|k| k.as_str() == s)
    }
}

/// A code as typed is matched trimmed and without regard to case.
pub fn normalise_code(raw: &str) -> String {
    raw.trim().to_lowercase()
}

/// One ticket code of the catalogue, as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TicketCodeRule {
    /// Normalised ([`normalise_code`]).
    pub code: String,
    pub kind: CodeKind,
    /// The ticket the code unlocks.
    pub ticket_id: i64,
    /// First and last local day of validity, inclusive; None: open.
    pub valid_from: Option<Date>,
    pub valid_to: Option<Date>,
    /// Tickets the code may ever be used for; None: no limit.
    pub usage_limit: Option<i64>,
    pub used_count: i64,
    /// A voucher's remaining value; None: the code has no balance.
    pub balance: Option<Money>,
    /// The order must have at least this many seats (a coupon "needs N tickets").
    pub min_tickets: i64,
    /// Credit-card benefit: the card paid with must start with these digits; empty: any card.
    pub card_prefix: String,
}

impl TicketCodeRule {
    /// Uses left; None: unlimited.
    pub fn uses_left(&self) -> Option<i64> {
        self.usage_limit.map(|l| (l - self.used_count).max(0))
    }

    /// Whether the code may be redeemed today, as the ticket-by-code call judges it:
    /// not yet valid (`codeNotFound`), expired, used up, or a voucher with nothing left.
    pub fn check_redeemable(&self, today: Date) -> Result<(), TicketRuleError> {
        if self.valid_from.is_some_and(|d| today < d) {
            return Err(TicketRuleError::CodeNotYetValid);
        }
        if self.valid_to.is_some_and(|d| today > d) {
            return Err(TicketRuleError::VoucherExpired);
        }
        if self.uses_left() == Some(0) {
            return Err(TicketRuleError::CodeUsageLimitExceeded);
        }
        if self.balance.is_some_and(|b| b <= Money::ZERO) {
            return Err(TicketRuleError::VoucherBalance);
        }
        Ok(())
    }

    /// The same judgement inside an order, where a used-up code reads "coupon code already used,
    /// try another" (`couponAlreadyUsed`).
    fn check_redeemable_in_order(&self, today: Date) -> Result<(), TicketRuleError> {
        self.check_redeemable(today).map_err(|e| match e {
            TicketRuleError::CodeUsageLimitExceeded => TicketRuleError::CouponAlreadyUsed,
            other => other,
        })
    }

    /// A credit-card benefit's card check at payment: the card number (spaces and dashes
    /// ignored) starts with the issuer prefix. Any card passes a code without a prefix.
    pub fn card_accepted(&self, card_number: &str) -> bool {
        let digits: String = card_number
            .chars()
            .filter(|c| !matches!(c, ' ' | '-'))
            .collect();
        digits.starts_with(self.card_prefix.trim())
    }
}

/// A member as the rules see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemberInfo {
    pub member_number: String,
    pub membership_type_id: i64,
    /// Agorot left (a series pass).
    pub balance: Money,
    pub points_balance: i64,
    /// Inclusive local days.
    pub start_date: Date,
    pub end_date: Date,
    /// Discounted (member-only) tickets this member may take in one order; None: no limit.
    pub max_discounted_tickets: Option<i64>,
}

impl MemberInfo {
    /// A series pass is worth its balance; a club card gives member prices even without points.
    pub fn has_benefits_left(&self) -> bool {
        self.membership_type_id != SERIES_MEMBERSHIP_TYPE
            || self.balance > Money::ZERO
            || self.points_balance > 0
    }
}

/// A reference a ticket accepts (a hotel's room), and how many tickets may still name it.
/// The staff dashboard (PRES-live reference prompt admin) edits the quantities.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RefOption {
    pub ticket_id: i64,
    pub reference: String,
    /// Empty: any second reference.
    pub reference2: String,
    pub quantity: i64,
}

/// One seat of the order with the ticket chosen for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderLine {
    pub seat: SeatAddress,
    /// The ticket group sold in the seat's section.
    pub ticket_group_id: i64,
    pub ticket_id: i64,
    /// The code that gave this seat its ticket, as typed.
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    /// The member this ticket is for; default: the order's member.
    pub member_number: Option<String>,
    /// A senior citizen's Israeli ID number.
    pub senior_id: Option<String>,
    /// The ticket the seat had before a code filled it; [`remove_code`] restores it.
    pub previous_ticket_id: Option<i64>,
    /// The kinds of seat this line's seat serves in this order ([`seat_kinds::kinds_served`]).
    pub seat_kinds: Vec<SeatKind>,
}

impl Default for OrderLine {
    fn default() -> OrderLine {
        OrderLine {
            seat: SeatAddress {
                section_id: 0,
                x: 0,
                y: 0,
            },
            ticket_group_id: 0,
            ticket_id: 0,
            code: None,
            ref1: None,
            ref2: None,
            member_number: None,
            senior_id: None,
            previous_ticket_id: None,
            seat_kinds: Vec::new(),
        }
    }
}

/// The catalogue's part: every ticket of the presentation's groups, the codes named by the
/// order (lines and entered codes), and the reference options of its tickets.
#[derive(Debug, Clone, Copy, Default)]
pub struct TicketCatalogue<'a> {
    pub tickets: &'a [TicketType],
    pub codes: &'a [TicketCodeRule],
    pub ref_options: &'a [RefOption],
}

impl TicketCatalogue<'_> {
    fn ticket(&self, id: i64) -> Option<&TicketType> {
        self.tickets.iter().find(|t| t.id == id)
    }

    fn code(&self, raw: &str) -> Option<&TicketCodeRule> {
        let key = normalise_code(raw);
        self.codes.iter().find(|c| c.code == key)
    }
}

/// The buyer's part.
#[derive(Debug, Clone, Copy, Default)]
pub struct Buyer<'a> {
    /// The order's member (membershipLoyaltyId / member number), if given.
    pub member_number: Option<&'a str>,
    /// The members the cart found: the order's and those named on lines.
    pub members: &'a [MemberInfo],
    /// The codes the buyer entered for the order (the cart's `ticketCodes`).
    pub entered_codes: &'a [String],
}

/// One line of the order, priced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedLine {
    pub seat: SeatAddress,
    /// For a sub-ticket, the ticket of the line covering it.
    pub ticket_id: i64,
    /// The ticket's price; zero for a sub-ticket.
    pub price: Money,
    /// The ticket's own service charge per ticket; zero for a sub-ticket.
    pub service_charge: Money,
    /// Points this line costs when its ticket is a points ticket (paid with the member's points).
    pub loyalty_points: Option<i64>,
    /// Agorot this line takes from its member's series pass when its ticket is a pass ticket.
    pub member_balance: Option<Money>,
    /// The seat is covered by another line's multiply-factor ticket (`isMultiplyFactorSubTicket`).
    pub is_sub_ticket: bool,
    /// For a sub-ticket, the index of the line whose ticket covers it.
    pub covered_by: Option<usize>,
    /// The code's normalised form, for the cart's usage and balance bookkeeping.
    pub code: Option<String>,
    /// The member whose benefit this line uses (member-only tickets).
    pub member_number: Option<String>,
}

pub use errors::TicketRuleError;
pub use order::{check_order, check_seat_kinds};
pub use rules::*;
