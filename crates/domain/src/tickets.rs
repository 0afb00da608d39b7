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

use std::collections::BTreeMap;

use jiff::civil::Date;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::ids::IsraeliId;
use crate::money::Money;
use crate::seat_kinds::{self, SeatKind};
use crate::seating::{self, SeatKey, SeatingViolation};

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
    /// Agorot.
    pub price: i64,
    /// The ticket's own service charge, agorot per ticket.
    pub service_charge: i64,
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
    /// A voucher's remaining value in agorot; None: the code has no balance.
    pub balance: Option<i64>,
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
        if self.balance.is_some_and(|b| b <= 0) {
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
    pub balance: i64,
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
            || self.balance > 0
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
    pub seat: SeatKey,
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
            seat: SeatKey {
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
    pub seat: SeatKey,
    /// For a sub-ticket, the ticket of the line covering it.
    pub ticket_id: i64,
    /// The ticket's price; zero for a sub-ticket.
    pub price: Money,
    /// The ticket's own service charge per ticket; zero for a sub-ticket.
    pub service_charge: Money,
    /// Points this line costs when its ticket is a points ticket (paid with the member's points).
    pub loyalty_points: Option<i64>,
    /// The seat is covered by another line's multiply-factor ticket (`isMultiplyFactorSubTicket`).
    pub is_sub_ticket: bool,
    /// For a sub-ticket, the index of the line whose ticket covers it.
    pub covered_by: Option<usize>,
    /// The code's normalised form, for the cart's usage and balance bookkeeping.
    pub code: Option<String>,
    /// The member whose benefit this line uses (member-only tickets).
    pub member_number: Option<String>,
}

// ---------------------------------------------------------------------------------------------
// What the rules answer.

/// Why an order's tickets are refused. [`TicketRuleError::code`] is the spec's catalogue code
/// (section 8) where one exists; [`TicketRuleError::params`] are the numbers the client's words need.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TicketRuleError {
    #[error("no such code")]
    CodeNotFound,
    #[error("the code is not valid yet")]
    CodeNotYetValid,
    #[error("the voucher has expired")]
    VoucherExpired,
    #[error("the voucher has no balance left")]
    VoucherBalance,
    #[error("the code's usage limit is reached")]
    CodeUsageLimitExceeded,
    #[error("the coupon code was already used; try another")]
    CouponAlreadyUsed,
    #[error("the coupon needs {missing} more ticket(s)")]
    CouponNeedsMoreTickets { missing: i64 },
    #[error("no tickets found to apply the coupon to")]
    CouponNoTickets,
    #[error("ticket {ticket_id} is not sold here this way")]
    TicketNotFound { ticket_id: i64 },
    #[error("at most {max} of ticket {ticket_id} per order")]
    TicketMaxExceeded { ticket_id: i64, max: i64 },
    #[error("at least {min} of ticket {ticket_id} per order ({missing} more)")]
    TicketMinNotReached {
        ticket_id: i64,
        min: i64,
        missing: i64,
    },
    #[error("ticket {ticket_id} is sold only on a {seat_kind} seat")]
    TicketNotForSeat { ticket_id: i64, seat_kind: SeatKind },
    #[error("ticket {ticket_id} needs ticket {required_ticket_id} in the order ({missing} more)")]
    RequiredTicketMissing {
        ticket_id: i64,
        required_ticket_id: i64,
        missing: i64,
    },
    #[error(transparent)]
    Seating(SeatingViolation),
    #[error("a member ticket needs a member")]
    NoValidMember,
    #[error("no such member")]
    MemberNotFound,
    #[error("the membership has expired")]
    MemberExpired,
    #[error("the membership has not started yet")]
    MemberNotStarted,
    #[error("the member has no balance or points left for this")]
    MemberNoneAvailable,
    #[error("at most {max} discounted member tickets per order")]
    MemberTicketsMax { max: i64 },
    #[error("the senior citizen's ID number is not valid")]
    IlSeniorError,
    #[error("an ID number of up to 9 digits is needed")]
    InvalidSsn,
    #[error("one senior citizen ID number stands for one senior citizen ticket")]
    IlSeniorBalance,
    #[error("ticket group {ticket_group_id} has no senior citizen ticket")]
    IlSeniorTicketNotFound { ticket_group_id: i64 },
    #[error("the reference is missing or not valid")]
    RefPromptOptError,
    #[error("the reference is not one this ticket accepts")]
    RefPromptOptNotFound,
    #[error("the reference is accepted for {available} more ticket(s) only")]
    RefPromptOptUsedUp { available: i64 },
}

impl TicketRuleError {
    pub fn code(&self) -> &'static str {
        use TicketRuleError::*;
        match self {
            CodeNotFound | CodeNotYetValid => "codeNotFound",
            VoucherExpired => "voucherExpired",
            VoucherBalance => "voucherBalance",
            CodeUsageLimitExceeded => "codeUsageLimitExceeded",
            CouponAlreadyUsed => "couponAlreadyUsed",
            CouponNeedsMoreTickets { .. } => "couponNeedsMoreTickets",
            CouponNoTickets => "couponNoTickets",
            TicketNotFound { .. } => "ticketNotFound",
            TicketMaxExceeded { .. } => "ticketMaxQuantity",
            TicketMinNotReached { .. } => "ticketMinQuantity",
            TicketNotForSeat { .. } => "ticketSeatKind",
            RequiredTicketMissing { .. } => "requiredTicketMissing",
            Seating(v) => v.code(),
            NoValidMember => "noValidMember",
            MemberNotFound => "memberNotFound",
            MemberExpired => "memberExpired",
            MemberNotStarted => "memberNotStarted",
            MemberNoneAvailable => "memberNoneAvailable",
            MemberTicketsMax { .. } => "memberTicketsMax",
            IlSeniorError => "ilSenior_error",
            IlSeniorBalance => "ilSenior_balance",
            InvalidSsn => "invalidSSN",
            IlSeniorTicketNotFound { .. } => "ilSenior_ticketNotFound",
            RefPromptOptError => "refPromptOptError",
            RefPromptOptNotFound | RefPromptOptUsedUp { .. } => "refPromptOptNotFound",
        }
    }

    /// The numbers the client's message needs, e.g. `[("missing", 1)]` for "one more ticket".
    pub fn params(&self) -> Vec<(&'static str, i64)> {
        use TicketRuleError::*;
        match *self {
            TicketNotForSeat { ticket_id, .. } => vec![("ticketId", ticket_id)],
            CouponNeedsMoreTickets { missing } => vec![("missing", missing)],
            TicketNotFound { ticket_id } => vec![("ticketId", ticket_id)],
            TicketMaxExceeded { ticket_id, max } => vec![("ticketId", ticket_id), ("max", max)],
            TicketMinNotReached {
                ticket_id,
                min,
                missing,
            } => vec![("ticketId", ticket_id), ("min", min), ("missing", missing)],
            RequiredTicketMissing {
                ticket_id,
                required_ticket_id,
                missing,
            } => vec![
                ("ticketId", ticket_id),
                ("requiredTicketId", required_ticket_id),
                ("missing", missing),
            ],
            MemberTicketsMax { max } => vec![("max", max)],
            IlSeniorTicketNotFound { ticket_group_id } => vec![("ticketGroupId", ticket_group_id)],
            RefPromptOptUsedUp { available } => vec![("available", available)],
            _ => Vec::new(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Single rules, usable on their own.

/// A member found (or not) by loyalty id or member number, judged on `today`.
pub fn check_member(
    found: Option<&MemberInfo>,
    today: Date,
) -> Result<&MemberInfo, TicketRuleError> {
    let m = found.ok_or(TicketRuleError::MemberNotFound)?;
    if today < m.start_date {
        return Err(TicketRuleError::MemberNotStarted);
    }
    if today > m.end_date {
        return Err(TicketRuleError::MemberExpired);
    }
    if !m.has_benefits_left() {
        return Err(TicketRuleError::MemberNoneAvailable);
    }
    Ok(m)
}

/// A senior citizen's ID: missing or not up to 9 digits is `invalidSSN`; digits whose check digit
/// fails are `ilSenior_error`.
pub fn check_senior_id(raw: Option<&str>) -> Result<IsraeliId, TicketRuleError> {
    let raw = raw.map(str::trim).unwrap_or_default();
    if raw.is_empty() || raw.len() > 9 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TicketRuleError::InvalidSsn);
    }
    IsraeliId::parse(raw).ok_or(TicketRuleError::IlSeniorError)
}

/// The senior citizen ticket of a ticket group (the buyer's "senior citizen" button).
pub fn senior_ticket(
    tickets: &[TicketType],
    ticket_group_id: i64,
) -> Result<&TicketType, TicketRuleError> {
    tickets
        .iter()
        .find(|t| t.ticket_group_id == ticket_group_id && t.needs_senior_id && !t.by_code_only)
        .ok_or(TicketRuleError::IlSeniorTicketNotFound { ticket_group_id })
}

/// Spec section 4: a ticket is put on a seat by itself only if it covers one seat, asks for no
/// reference, and, in an unpaid hold, is not a system voucher.
pub fn auto_assignable(ticket: &TicketType, is_system_voucher: bool, is_hold: bool) -> bool {
    ticket.multiply_factor <= 1 && !ticket.has_ref_prompt && !(is_hold && is_system_voucher)
}

/// Which lines are sub-tickets: lines carrying a ticket of factor N are taken in order, N at a
/// time; the first of each N is the ticket, the others are seats it covers. `Some(i)` names the
/// covering line.
pub fn sub_tickets(lines: &[OrderLine], tickets: &[TicketType]) -> Vec<Option<usize>> {
    let mut seen: BTreeMap<i64, (usize, usize)> = BTreeMap::new();
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let factor = tickets
                .iter()
                .find(|t| t.id == l.ticket_id)
                .map_or(1, TicketType::factor);
            let (count, main) = seen.entry(l.ticket_id).or_insert((0, i));
            let position = *count % factor;
            *count += 1;
            if position == 0 {
                *main = i;
                None
            } else {
                Some(*main)
            }
        })
        .collect()
}

fn same_code(a: &str, b: &str) -> bool {
    normalise_code(a) == normalise_code(b)
}

fn filled(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Fills the order's seats of the code's ticket group that have no code with the code's ticket
/// (spec section 4), remembering each seat's previous ticket. A factor-N ticket takes N seats at
/// a time; a code with uses left fills at most that many tickets.
pub fn apply_code(
    lines: &[OrderLine],
    code: &TicketCodeRule,
    tickets: &[TicketType],
    today: Date,
) -> Result<Vec<OrderLine>, TicketRuleError> {
    code.check_redeemable_in_order(today)?;
    if lines
        .iter()
        .any(|l| l.code.as_deref().is_some_and(|c| same_code(c, &code.code)))
    {
        return Err(TicketRuleError::CouponAlreadyUsed);
    }
    let ticket =
        tickets
            .iter()
            .find(|t| t.id == code.ticket_id)
            .ok_or(TicketRuleError::TicketNotFound {
                ticket_id: code.ticket_id,
            })?;
    let seats = lines.len() as i64;
    if seats < code.min_tickets {
        return Err(TicketRuleError::CouponNeedsMoreTickets {
            missing: code.min_tickets - seats,
        });
    }
    let free: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.ticket_group_id == ticket.ticket_group_id && filled(&l.code).is_none())
        .map(|(i, _)| i)
        .collect();
    let factor = ticket.factor();
    let mut tickets_to_fill = free.len() / factor;
    if let Some(left) = code.uses_left() {
        tickets_to_fill = tickets_to_fill.min(left as usize);
    }
    if tickets_to_fill == 0 {
        return Err(TicketRuleError::CouponNoTickets);
    }
    let mut out = lines.to_vec();
    for &i in &free[..tickets_to_fill * factor] {
        let l = &mut out[i];
        l.previous_ticket_id = Some(l.previous_ticket_id.unwrap_or(l.ticket_id));
        l.ticket_id = ticket.id;
        l.code = Some(code.code.clone());
    }
    Ok(out)
}

/// Takes a code off the order: its seats get their previous tickets back.
pub fn remove_code(lines: &[OrderLine], code: &str) -> Vec<OrderLine> {
    lines
        .iter()
        .map(|l| match &l.code {
            Some(c) if same_code(c, code) => OrderLine {
                ticket_id: l.previous_ticket_id.unwrap_or(l.ticket_id),
                code: None,
                previous_ticket_id: None,
                ..l.clone()
            },
            _ => l.clone(),
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// The whole order.

/// Checks every ticket rule on the order and prices its lines, in line order. The first broken
/// rule is answered, in this order: tickets are sold in their seats' sections and fit their kinds
/// of seat ([`check_seat_kinds`]); the multiply factor covers the seats
/// exactly; codes; minimum and maximum per ticket; required tickets; members; senior IDs;
/// references.
pub fn check_order(
    lines: &[OrderLine],
    catalogue: &TicketCatalogue<'_>,
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<PricedLine>, TicketRuleError> {
    // Each seat's ticket exists and is sold in the seat's section.
    let mut chosen: Vec<&TicketType> = Vec::with_capacity(lines.len());
    for l in lines {
        let t = catalogue
            .ticket(l.ticket_id)
            .filter(|t| t.ticket_group_id == l.ticket_group_id)
            .ok_or(TicketRuleError::TicketNotFound {
                ticket_id: l.ticket_id,
            })?;
        chosen.push(t);
    }
    check_seat_kinds(lines, &chosen)?;

    // The multiply factor: which lines are covered by another's ticket, and whether the tickets
    // cover exactly the seats.
    let covered_by = sub_tickets(lines, catalogue.tickets);
    let mains: Vec<usize> = (0..lines.len())
        .filter(|&i| covered_by[i].is_none())
        .collect();
    let factors: Vec<i64> = mains.iter().map(|&i| chosen[i].multiply_factor).collect();
    seating::check_ticket_count(&factors, lines.len()).map_err(TicketRuleError::Seating)?;

    let codes = check_codes(lines, &chosen, &mains, catalogue, buyer, today)?;
    check_quantities(&chosen, &mains)?;
    let members = check_members(lines, &chosen, &mains, buyer, today)?;
    // Each senior ticket is a senior's own: one ID number, one senior ticket.
    let mut senior_ids: Vec<IsraeliId> = Vec::new();
    for &i in &mains {
        if chosen[i].needs_senior_id {
            let id = check_senior_id(lines[i].senior_id.as_deref())?;
            if senior_ids.contains(&id) {
                return Err(TicketRuleError::IlSeniorBalance);
            }
            senior_ids.push(id);
        }
    }
    check_references(lines, &chosen, &mains, catalogue)?;

    Ok(lines
        .iter()
        .enumerate()
        .map(|(i, l)| match covered_by[i] {
            Some(main) => PricedLine {
                seat: l.seat,
                ticket_id: chosen[main].id,
                price: Money::ZERO,
                service_charge: Money::ZERO,
                loyalty_points: None,
                is_sub_ticket: true,
                covered_by: Some(main),
                code: codes[main].clone(),
                member_number: None,
            },
            None => PricedLine {
                seat: l.seat,
                ticket_id: chosen[i].id,
                price: Money(chosen[i].price),
                service_charge: Money(chosen[i].service_charge),
                loyalty_points: chosen[i].loyalty_points_price,
                is_sub_ticket: false,
                covered_by: None,
                code: codes[i].clone(),
                member_number: members[i].clone(),
            },
        })
        .collect())
}

/// Every line's ticket fits its seat: a ticket tied to a kind of seat is sold only on a seat that
/// serves that kind in this order (the line's `seat_kinds`). `chosen` is each line's ticket.
pub fn check_seat_kinds(
    lines: &[OrderLine],
    chosen: &[&TicketType],
) -> Result<(), TicketRuleError> {
    for (l, t) in lines.iter().zip(chosen) {
        if !seat_kinds::fits(t.seat_kind.as_ref(), &l.seat_kinds) {
            return Err(TicketRuleError::TicketNotForSeat {
                ticket_id: t.id,
                seat_kind: t.seat_kind.clone().expect("only a tied ticket can misfit"),
            });
        }
    }
    Ok(())
}

/// Codes on lines and entered for the order; returns each line's normalised code.
fn check_codes(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    catalogue: &TicketCatalogue<'_>,
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<Option<String>>, TicketRuleError> {
    let mut codes: Vec<Option<String>> = vec![None; lines.len()];
    // Tickets per code, in order of first use.
    let mut uses: Vec<(&TicketCodeRule, i64)> = Vec::new();
    for &i in mains {
        let Some(raw) = filled(&lines[i].code) else {
            if chosen[i].by_code_only {
                return Err(TicketRuleError::TicketNotFound {
                    ticket_id: chosen[i].id,
                });
            }
            continue;
        };
        let code = catalogue.code(raw).ok_or(TicketRuleError::CodeNotFound)?;
        if code.ticket_id != chosen[i].id {
            return Err(TicketRuleError::TicketNotFound {
                ticket_id: chosen[i].id,
            });
        }
        codes[i] = Some(code.code.clone());
        match uses.iter_mut().find(|(c, _)| c.code == code.code) {
            Some((_, n)) => *n += 1,
            None => uses.push((code, 1)),
        }
    }
    let mut entered: Vec<String> = Vec::new();
    for raw in buyer.entered_codes {
        let key = normalise_code(raw);
        if entered.contains(&key) {
            return Err(TicketRuleError::CouponAlreadyUsed);
        }
        let code = catalogue.code(&key).ok_or(TicketRuleError::CodeNotFound)?;
        if !uses.iter().any(|(c, _)| c.code == code.code) {
            return Err(TicketRuleError::CouponNoTickets);
        }
        entered.push(key);
    }
    let seats = lines.len() as i64;
    for (code, n) in uses {
        code.check_redeemable_in_order(today)?;
        if code.uses_left().is_some_and(|left| n > left) {
            return Err(TicketRuleError::CouponAlreadyUsed);
        }
        if seats < code.min_tickets {
            return Err(TicketRuleError::CouponNeedsMoreTickets {
                missing: code.min_tickets - seats,
            });
        }
    }
    Ok(codes)
}

fn count_by_ticket(chosen: &[&TicketType], mains: &[usize]) -> Vec<(i64, i64)> {
    let mut counts: Vec<(i64, i64)> = Vec::new();
    for &i in mains {
        match counts.iter_mut().find(|(id, _)| *id == chosen[i].id) {
            Some((_, n)) => *n += 1,
            None => counts.push((chosen[i].id, 1)),
        }
    }
    counts
}

/// Minimum and maximum per ticket type, then tickets that need another.
fn check_quantities(chosen: &[&TicketType], mains: &[usize]) -> Result<(), TicketRuleError> {
    let counts = count_by_ticket(chosen, mains);
    let count_of = |id: i64| counts.iter().find(|(t, _)| *t == id).map_or(0, |(_, n)| *n);
    let ticket = |id: i64| chosen.iter().find(|t| t.id == id).copied();
    for &(id, n) in &counts {
        let t = ticket(id).expect("counted tickets are chosen");
        if t.max_quantity > 0 && n > t.max_quantity {
            return Err(TicketRuleError::TicketMaxExceeded {
                ticket_id: id,
                max: t.max_quantity,
            });
        }
        if n < t.min_quantity {
            return Err(TicketRuleError::TicketMinNotReached {
                ticket_id: id,
                min: t.min_quantity,
                missing: t.min_quantity - n,
            });
        }
    }
    for &(id, n) in &counts {
        let t = ticket(id).expect("counted tickets are chosen");
        if let Some(required) = t.requires_ticket_id {
            let have = count_of(required);
            if have < n {
                return Err(TicketRuleError::RequiredTicketMissing {
                    ticket_id: id,
                    required_ticket_id: required,
                    missing: n - have,
                });
            }
        }
    }
    Ok(())
}

/// Member-only tickets: each needs a valid member; a member's points must cover the points
/// tickets, and a member may take at most the membership's number of discounted tickets.
/// Returns each line's member number.
fn check_members(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<Option<String>>, TicketRuleError> {
    let mut numbers: Vec<Option<String>> = vec![None; lines.len()];
    // Per member: tickets and points taken.
    let mut taken: Vec<(&MemberInfo, i64, i64)> = Vec::new();
    for &i in mains {
        let t = chosen[i];
        if !t.member_only {
            continue;
        }
        let number = filled(&lines[i].member_number)
            .or(buyer.member_number.map(str::trim).filter(|s| !s.is_empty()))
            .ok_or(TicketRuleError::NoValidMember)?;
        let found = buyer.members.iter().find(|m| m.member_number == number);
        let member = check_member(found, today)?;
        numbers[i] = Some(member.member_number.clone());
        let points = t.loyalty_points_price.unwrap_or(0);
        match taken
            .iter_mut()
            .find(|(m, _, _)| m.member_number == member.member_number)
        {
            Some((_, n, p)) => {
                *n += 1;
                *p += points;
            }
            None => taken.push((member, 1, points)),
        }
    }
    for (member, n, points) in taken {
        if let Some(max) = member.max_discounted_tickets
            && n > max
        {
            return Err(TicketRuleError::MemberTicketsMax { max });
        }
        if points > member.points_balance {
            return Err(TicketRuleError::MemberNoneAvailable);
        }
    }
    Ok(numbers)
}

fn same_reference(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Tickets with a reference prompt: a reference is given, sensible, and (when the ticket lists
/// its accepted references) one of them, named by no more tickets than its quantity.
fn check_references(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    catalogue: &TicketCatalogue<'_>,
) -> Result<(), TicketRuleError> {
    let mut used: Vec<(&RefOption, i64)> = Vec::new();
    for &i in mains {
        let t = chosen[i];
        if !t.has_ref_prompt {
            continue;
        }
        let ref1 = filled(&lines[i].ref1).ok_or(TicketRuleError::RefPromptOptError)?;
        let ref2 = filled(&lines[i].ref2).unwrap_or_default();
        let sensible =
            |s: &str| s.chars().count() <= MAX_REFERENCE_CHARS && !s.chars().any(char::is_control);
        if !sensible(ref1) || !sensible(ref2) {
            return Err(TicketRuleError::RefPromptOptError);
        }
        let mut options = catalogue
            .ref_options
            .iter()
            .filter(|o| o.ticket_id == t.id)
            .peekable();
        if options.peek().is_none() {
            continue;
        }
        let option = options
            .find(|o| {
                same_reference(&o.reference, ref1)
                    && (o.reference2.trim().is_empty() || same_reference(&o.reference2, ref2))
            })
            .ok_or(TicketRuleError::RefPromptOptNotFound)?;
        let n = match used.iter_mut().find(|(o, _)| std::ptr::eq(*o, option)) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                used.push((option, 1));
                1
            }
        };
        if n > option.quantity {
            return Err(if option.quantity <= 0 {
                TicketRuleError::RefPromptOptNotFound
            } else {
                TicketRuleError::RefPromptOptUsedUp {
                    available: option.quantity,
                }
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    const TODAY: Date = date(2026, 11, 22);
    const GROUP: i64 = 1;
    const REGULAR: i64 = 101;
    const SENIOR: i64 = 104;
    const MEMBER: i64 = 105;
    const POINTS: i64 = 106;
    const HOTEL: i64 = 107;
    const WHEELCHAIR: i64 = 108;
    const COMPANION: i64 = 109;
    const COUPLE: i64 = 202;
    const CODE_TICKET: i64 = 112;
    const FAMILY: i64 = 120;

    fn ticket(id: i64, price: i64) -> TicketType {
        TicketType {
            id,
            ticket_group_id: GROUP,
            price,
            service_charge: 500,
            max_quantity: 10,
            multiply_factor: 1,
            ..TicketType::default()
        }
    }

    fn tickets() -> Vec<TicketType> {
        vec![
            ticket(REGULAR, 4200),
            TicketType {
                needs_senior_id: true,
                ..ticket(SENIOR, 2900)
            },
            TicketType {
                member_only: true,
                service_charge: 0,
                ..ticket(MEMBER, 3200)
            },
            TicketType {
                member_only: true,
                loyalty_points_price: Some(320),
                service_charge: 0,
                ..ticket(POINTS, 3200)
            },
            TicketType {
                has_ref_prompt: true,
                ..ticket(HOTEL, 3800)
            },
            TicketType {
                max_quantity: 2,
                seat_kind: Some(SeatKind::Wheelchair),
                ..ticket(WHEELCHAIR, 3400)
            },
            TicketType {
                requires_ticket_id: Some(WHEELCHAIR),
                price: 0,
                service_charge: 0,
                seat_kind: Some(SeatKind::Companion),
                ..ticket(COMPANION, 0)
            },
            TicketType {
                ticket_group_id: 2,
                multiply_factor: 2,
                service_charge: 1000,
                ..ticket(COUPLE, 12000)
            },
            TicketType {
                by_code_only: true,
                ..ticket(CODE_TICKET, 3500)
            },
            TicketType {
                min_quantity: 3,
                ..ticket(FAMILY, 3000)
            },
        ]
    }

    fn code(text: &str, kind: CodeKind) -> TicketCodeRule {
        TicketCodeRule {
            code: normalise_code(text),
            kind,
            ticket_id: CODE_TICKET,
            valid_from: Some(date(2026, 11, 1)),
            valid_to: Some(date(2026, 12, 31)),
            ..TicketCodeRule::default()
        }
    }

    fn codes() -> Vec<TicketCodeRule> {
        vec![
            code("KUPA10", CodeKind::DiscountCode),
            TicketCodeRule {
                min_tickets: 2,
                ..code("DUO", CodeKind::Coupon)
            },
            TicketCodeRule {
                min_tickets: 4,
                ..code("FOURSOME", CodeKind::Coupon)
            },
            TicketCodeRule {
                usage_limit: Some(1),
                ..code("GIFT-ONE", CodeKind::Voucher)
            },
            TicketCodeRule {
                usage_limit: Some(3),
                used_count: 3,
                ..code("GIFT-USED", CodeKind::Voucher)
            },
            TicketCodeRule {
                valid_to: Some(date(2026, 11, 1)),
                ..code("GIFT-OLD", CodeKind::Voucher)
            },
            TicketCodeRule {
                balance: Some(0),
                ..code("GIFT-EMPTY", CodeKind::Voucher)
            },
            TicketCodeRule {
                valid_from: Some(date(2026, 12, 1)),
                ..code("LATER", CodeKind::DiscountCode)
            },
            TicketCodeRule {
                card_prefix: "4580".into(),
                ..code("VISA4580", CodeKind::CreditCardBenefit)
            },
        ]
    }

    fn ref_options() -> Vec<RefOption> {
        vec![
            RefOption {
                ticket_id: HOTEL,
                reference: "101".into(),
                reference2: String::new(),
                quantity: 2,
            },
            RefOption {
                ticket_id: HOTEL,
                reference: "Suite A".into(),
                reference2: String::new(),
                quantity: 0,
            },
        ]
    }

    fn member(number: &str, type_id: i64, points: i64) -> MemberInfo {
        MemberInfo {
            member_number: number.into(),
            membership_type_id: type_id,
            balance: 0,
            points_balance: points,
            start_date: date(2026, 1, 1),
            end_date: date(2026, 12, 31),
            max_discounted_tickets: Some(4),
        }
    }

    fn members() -> Vec<MemberInfo> {
        vec![
            member("100001", 1, 1250),
            member("100009", 1, 300),
            MemberInfo {
                end_date: date(2026, 10, 1),
                ..member("100002", 1, 480)
            },
            MemberInfo {
                start_date: date(2026, 12, 2),
                ..member("300001", 3, 0)
            },
            member("200003", SERIES_MEMBERSHIP_TYPE, 0),
        ]
    }

    /// Seat `n` of a row, with the ticket; a wheelchair or companion ticket is on a seat of its
    /// kind (see `on_ordinary_seat`).
    fn line(n: i64, ticket_id: i64) -> OrderLine {
        let seat_kinds = match ticket_id {
            WHEELCHAIR => vec![SeatKind::Wheelchair],
            COMPANION => vec![SeatKind::Companion],
            _ => Vec::new(),
        };
        OrderLine {
            seat: SeatKey {
                section_id: 11,
                x: n,
                y: 5,
            },
            ticket_group_id: GROUP,
            ticket_id,
            seat_kinds,
            ..OrderLine::default()
        }
    }

    fn on_ordinary_seat(l: OrderLine) -> OrderLine {
        OrderLine {
            seat_kinds: Vec::new(),
            ..l
        }
    }

    fn with_code(n: i64, code: &str) -> OrderLine {
        OrderLine {
            code: Some(code.into()),
            ..line(n, CODE_TICKET)
        }
    }

    struct Fixture {
        tickets: Vec<TicketType>,
        codes: Vec<TicketCodeRule>,
        refs: Vec<RefOption>,
        members: Vec<MemberInfo>,
    }

    impl Fixture {
        fn new() -> Fixture {
            Fixture {
                tickets: tickets(),
                codes: codes(),
                refs: ref_options(),
                members: members(),
            }
        }

        fn check_as(
            &self,
            lines: &[OrderLine],
            member: Option<&str>,
            entered: &[&str],
        ) -> Result<Vec<PricedLine>, TicketRuleError> {
            let entered: Vec<String> = entered.iter().map(|s| s.to_string()).collect();
            check_order(
                lines,
                &TicketCatalogue {
                    tickets: &self.tickets,
                    codes: &self.codes,
                    ref_options: &self.refs,
                },
                &Buyer {
                    member_number: member,
                    members: &self.members,
                    entered_codes: &entered,
                },
                TODAY,
            )
        }

        fn check(&self, lines: &[OrderLine]) -> Result<Vec<PricedLine>, TicketRuleError> {
            self.check_as(lines, None, &[])
        }

        fn code(&self, text: &str) -> &TicketCodeRule {
            self.codes
                .iter()
                .find(|c| c.code == normalise_code(text))
                .unwrap()
        }
    }

    fn err(r: Result<Vec<PricedLine>, TicketRuleError>) -> TicketRuleError {
        r.expect_err("the order should be refused")
    }

    // --- pricing and plain tickets ---

    #[test]
    fn plain_tickets_are_priced_with_their_own_service_charge() {
        let f = Fixture::new();
        let priced = f.check(&[line(1, REGULAR), line(2, REGULAR)]).unwrap();
        assert_eq!(priced.len(), 2);
        assert_eq!(priced[0].price, Money(4200));
        assert_eq!(priced[0].service_charge, Money(500));
        assert!(!priced[0].is_sub_ticket && priced[0].code.is_none());
    }

    #[test]
    fn a_ticket_not_of_the_seats_group_is_not_found() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[line(1, COUPLE)])),
            TicketRuleError::TicketNotFound { ticket_id: COUPLE }
        );
        assert_eq!(err(f.check(&[line(1, 999)])).code(), "ticketNotFound");
    }

    #[test]
    fn a_code_only_ticket_without_its_code_is_not_found() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[line(1, CODE_TICKET)])).code(),
            "ticketNotFound"
        );
    }

    // --- minimum, maximum, companion ---

    #[test]
    fn more_tickets_of_a_type_than_its_maximum_are_refused() {
        let f = Fixture::new();
        let lines: Vec<_> = (1..=3).map(|n| line(n, WHEELCHAIR)).collect();
        let e = err(f.check(&lines));
        assert_eq!(
            e,
            TicketRuleError::TicketMaxExceeded {
                ticket_id: WHEELCHAIR,
                max: 2
            }
        );
        assert_eq!(e.code(), "ticketMaxQuantity");
        assert_eq!(e.params(), vec![("ticketId", WHEELCHAIR), ("max", 2)]);
    }

    #[test]
    fn fewer_tickets_of_a_type_than_its_minimum_are_refused_but_none_at_all_is_fine() {
        let f = Fixture::new();
        let e = err(f.check(&[line(1, FAMILY), line(2, FAMILY)]));
        assert_eq!(
            e,
            TicketRuleError::TicketMinNotReached {
                ticket_id: FAMILY,
                min: 3,
                missing: 1
            }
        );
        assert_eq!(e.code(), "ticketMinQuantity");
        assert!(
            f.check(&[line(1, FAMILY), line(2, FAMILY), line(3, FAMILY)])
                .is_ok()
        );
        assert!(f.check(&[line(1, REGULAR)]).is_ok());
    }

    #[test]
    fn a_companion_ticket_needs_a_wheelchair_ticket_for_each_companion() {
        let f = Fixture::new();
        let e = err(f.check(&[line(1, COMPANION)]));
        assert_eq!(
            e,
            TicketRuleError::RequiredTicketMissing {
                ticket_id: COMPANION,
                required_ticket_id: WHEELCHAIR,
                missing: 1
            }
        );
        assert_eq!(e.code(), "requiredTicketMissing");
        assert!(f.check(&[line(1, WHEELCHAIR), line(2, COMPANION)]).is_ok());
        assert_eq!(
            err(f.check(&[line(1, WHEELCHAIR), line(2, COMPANION), line(3, COMPANION)])).code(),
            "requiredTicketMissing"
        );
    }

    // --- tickets tied to a kind of seat ---

    #[test]
    fn a_wheelchair_ticket_on_an_ordinary_seat_is_refused() {
        let f = Fixture::new();
        let e = err(f.check(&[on_ordinary_seat(line(1, WHEELCHAIR)), line(2, REGULAR)]));
        assert_eq!(
            e,
            TicketRuleError::TicketNotForSeat {
                ticket_id: WHEELCHAIR,
                seat_kind: SeatKind::Wheelchair
            }
        );
        assert_eq!(e.code(), "ticketSeatKind");
        assert_eq!(e.params(), vec![("ticketId", WHEELCHAIR)]);
    }

    #[test]
    fn a_wheelchair_and_companion_pair_on_two_ordinary_seats_is_refused() {
        let f = Fixture::new();
        let e = err(f.check(&[
            on_ordinary_seat(line(1, WHEELCHAIR)),
            on_ordinary_seat(line(2, COMPANION)),
        ]));
        assert_eq!(e.code(), "ticketSeatKind");
        let e = err(f.check(&[line(1, WHEELCHAIR), on_ordinary_seat(line(2, COMPANION))]));
        assert_eq!(
            e,
            TicketRuleError::TicketNotForSeat {
                ticket_id: COMPANION,
                seat_kind: SeatKind::Companion
            }
        );
    }

    #[test]
    fn a_wheelchair_ticket_with_a_companion_on_their_seats_is_priced() {
        let f = Fixture::new();
        let priced = f.check(&[line(1, WHEELCHAIR), line(2, COMPANION)]).unwrap();
        let prices: Vec<i64> = priced.iter().map(|p| p.price.minor()).collect();
        assert_eq!(prices, vec![3400, 0]);
    }

    #[test]
    fn an_untied_ticket_fits_any_seat_even_a_wheelchair_place() {
        let f = Fixture::new();
        let regular_on_wheelchair_place = OrderLine {
            seat_kinds: vec![SeatKind::Wheelchair],
            ..line(1, REGULAR)
        };
        assert!(f.check(&[regular_on_wheelchair_place]).is_ok());
    }

    // --- multiply factor ---

    fn sofa(n: i64) -> OrderLine {
        OrderLine {
            ticket_group_id: 2,
            ..line(n, COUPLE)
        }
    }

    #[test]
    fn a_couple_ticket_covers_two_seats_and_the_second_is_a_free_sub_ticket() {
        let f = Fixture::new();
        let priced = f.check(&[sofa(1), sofa(2), sofa(3), sofa(4)]).unwrap();
        let subs: Vec<bool> = priced.iter().map(|p| p.is_sub_ticket).collect();
        assert_eq!(subs, vec![false, true, false, true]);
        assert_eq!(priced[1].covered_by, Some(0));
        assert_eq!(priced[3].covered_by, Some(2));
        assert_eq!(
            (priced[0].price, priced[0].service_charge),
            (Money(12000), Money(1000))
        );
        assert_eq!(
            (priced[1].price, priced[1].service_charge),
            (Money::ZERO, Money::ZERO)
        );
    }

    #[test]
    fn a_couple_ticket_on_an_odd_number_of_seats_does_not_match_the_seat_count() {
        let f = Fixture::new();
        let e = err(f.check(&[sofa(1), sofa(2), sofa(3)]));
        assert_eq!(e.code(), "ticketCountMismatch");
        assert_eq!(
            e,
            TicketRuleError::Seating(SeatingViolation::TicketCountMismatch {
                seats: 3,
                tickets_cover: 4
            })
        );
    }

    #[test]
    fn sub_tickets_are_counted_per_ticket_in_line_order() {
        let t = tickets();
        let lines = [sofa(1), line(2, REGULAR), sofa(3)];
        assert_eq!(sub_tickets(&lines, &t), vec![None, None, Some(0)]);
    }

    #[test]
    fn a_ticket_is_auto_assigned_only_for_one_seat_no_reference_and_no_held_system_voucher() {
        let t = tickets();
        let by_id = |id: i64| t.iter().find(|x| x.id == id).unwrap();
        assert!(auto_assignable(by_id(REGULAR), false, false));
        assert!(
            !auto_assignable(by_id(COUPLE), false, false),
            "multiply factor 2"
        );
        assert!(
            !auto_assignable(by_id(HOTEL), false, false),
            "reference prompt"
        );
        assert!(
            !auto_assignable(by_id(REGULAR), true, true),
            "system voucher in a hold"
        );
        assert!(
            auto_assignable(by_id(REGULAR), true, false),
            "system voucher in a paid order"
        );
        assert!(auto_assignable(by_id(REGULAR), false, true));
    }

    // --- codes ---

    #[test]
    fn a_code_ticket_is_priced_and_its_code_matched_without_regard_to_case_or_spaces() {
        let f = Fixture::new();
        let priced = f.check(&[with_code(1, "  kupa10 ")]).unwrap();
        assert_eq!(priced[0].price, Money(3500));
        assert_eq!(priced[0].code.as_deref(), Some("kupa10"));
    }

    #[test]
    fn an_unknown_code_is_not_found() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[with_code(1, "NOPE")])),
            TicketRuleError::CodeNotFound
        );
        assert_eq!(
            err(f.check(&[with_code(1, "LATER")])).code(),
            "codeNotFound",
            "not valid yet"
        );
    }

    #[test]
    fn a_code_on_a_ticket_it_does_not_unlock_is_ticket_not_found() {
        let f = Fixture::new();
        let l = OrderLine {
            code: Some("KUPA10".into()),
            ..line(1, REGULAR)
        };
        assert_eq!(err(f.check(&[l])).code(), "ticketNotFound");
    }

    #[test]
    fn an_expired_voucher_and_an_empty_one_are_refused() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[with_code(1, "GIFT-OLD")])),
            TicketRuleError::VoucherExpired
        );
        assert_eq!(
            err(f.check(&[with_code(1, "GIFT-EMPTY")])),
            TicketRuleError::VoucherBalance
        );
    }

    #[test]
    fn a_coupon_for_two_tickets_needs_one_more_ticket_when_the_order_has_one() {
        let f = Fixture::new();
        let e = err(f.check(&[with_code(1, "DUO")]));
        assert_eq!(e, TicketRuleError::CouponNeedsMoreTickets { missing: 1 });
        assert_eq!(e.code(), "couponNeedsMoreTickets");
        assert_eq!(e.params(), vec![("missing", 1)]);
        assert!(f.check(&[with_code(1, "DUO"), line(2, REGULAR)]).is_ok());
    }

    #[test]
    fn a_coupon_for_four_tickets_needs_n_more_tickets() {
        let f = Fixture::new();
        let e = err(f.check(&[with_code(1, "FOURSOME"), line(2, REGULAR)]));
        assert_eq!(e.params(), vec![("missing", 2)]);
        let e = apply_code(&[line(1, REGULAR)], f.code("FOURSOME"), &f.tickets, TODAY).unwrap_err();
        assert_eq!(e, TicketRuleError::CouponNeedsMoreTickets { missing: 3 });
    }

    #[test]
    fn a_used_up_code_is_already_used_in_an_order() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[with_code(1, "GIFT-USED")])),
            TicketRuleError::CouponAlreadyUsed
        );
        assert_eq!(
            f.code("GIFT-USED").check_redeemable(TODAY),
            Err(TicketRuleError::CodeUsageLimitExceeded),
            "looked up alone, it is over its usage limit"
        );
    }

    #[test]
    fn a_single_use_voucher_on_two_tickets_is_already_used() {
        let f = Fixture::new();
        let e = err(f.check(&[with_code(1, "GIFT-ONE"), with_code(2, "gift-one")]));
        assert_eq!(e.code(), "couponAlreadyUsed");
    }

    #[test]
    fn a_code_entered_twice_is_already_used() {
        let f = Fixture::new();
        let lines = [with_code(1, "KUPA10")];
        assert!(f.check_as(&lines, None, &["KUPA10"]).is_ok());
        assert_eq!(
            err(f.check_as(&lines, None, &["KUPA10", " kupa10"])),
            TicketRuleError::CouponAlreadyUsed
        );
        assert_eq!(
            apply_code(&lines, f.code("KUPA10"), &f.tickets, TODAY),
            Err(TicketRuleError::CouponAlreadyUsed)
        );
    }

    #[test]
    fn an_entered_code_with_no_ticket_to_apply_to_has_no_tickets() {
        let f = Fixture::new();
        let e = err(f.check_as(&[line(1, REGULAR)], None, &["KUPA10"]));
        assert_eq!(e, TicketRuleError::CouponNoTickets);
        assert_eq!(e.code(), "couponNoTickets");
        assert_eq!(
            err(f.check_as(&[line(1, REGULAR)], None, &["NOPE"])).code(),
            "codeNotFound"
        );
    }

    #[test]
    fn applying_a_code_with_no_seat_of_its_group_has_no_tickets_to_apply_to() {
        let f = Fixture::new();
        let e = apply_code(&[sofa(1), sofa(2)], f.code("KUPA10"), &f.tickets, TODAY).unwrap_err();
        assert_eq!(e, TicketRuleError::CouponNoTickets);
        let all_coded = [with_code(1, "GIFT-ONE")];
        assert_eq!(
            apply_code(&all_coded, f.code("KUPA10"), &f.tickets, TODAY),
            Err(TicketRuleError::CouponNoTickets)
        );
    }

    #[test]
    fn applying_a_code_fills_the_seats_without_a_code_and_removing_it_restores_their_tickets() {
        let f = Fixture::new();
        let lines = [line(1, REGULAR), line(2, SENIOR), sofa(3), sofa(4)];
        let applied = apply_code(&lines, f.code("KUPA10"), &f.tickets, TODAY).unwrap();
        let ids: Vec<i64> = applied.iter().map(|l| l.ticket_id).collect();
        assert_eq!(ids, vec![CODE_TICKET, CODE_TICKET, COUPLE, COUPLE]);
        assert_eq!(applied[1].previous_ticket_id, Some(SENIOR));
        assert!(f.check(&applied).is_ok());
        let removed = remove_code(&applied, "KUPA10");
        assert_eq!(removed, lines.to_vec());
    }

    #[test]
    fn a_single_use_voucher_fills_one_seat_only() {
        let f = Fixture::new();
        let lines = [line(1, REGULAR), line(2, REGULAR)];
        let applied = apply_code(&lines, f.code("GIFT-ONE"), &f.tickets, TODAY).unwrap();
        assert_eq!(applied[0].ticket_id, CODE_TICKET);
        assert_eq!(applied[1].ticket_id, REGULAR);
        assert!(applied[1].code.is_none());
    }

    #[test]
    fn a_code_for_a_couple_ticket_fills_seats_two_at_a_time() {
        let mut f = Fixture::new();
        f.codes.push(TicketCodeRule {
            ticket_id: COUPLE,
            ..code("SOFA", CodeKind::BankCard)
        });
        let lines = [sofa(1), sofa(2), sofa(3)];
        let lines: Vec<OrderLine> = lines
            .into_iter()
            .map(|l| OrderLine {
                ticket_id: 201,
                ..l
            })
            .collect();
        f.tickets.push(TicketType {
            ticket_group_id: 2,
            ..ticket(201, 6500)
        });
        let applied = apply_code(&lines, f.code("SOFA"), &f.tickets, TODAY).unwrap();
        let ids: Vec<i64> = applied.iter().map(|l| l.ticket_id).collect();
        assert_eq!(ids, vec![COUPLE, COUPLE, 201]);
        let priced = f.check(&applied).unwrap();
        assert!(priced[1].is_sub_ticket && priced[1].code.as_deref() == Some("sofa"));
    }

    #[test]
    fn a_credit_card_benefit_accepts_only_cards_of_its_issuer() {
        let f = Fixture::new();
        let visa = f.code("VISA4580");
        assert!(visa.card_accepted("4580 1234 5678 9012"));
        assert!(!visa.card_accepted("5326-1234-5678-9012"));
        assert!(
            f.code("KUPA10").card_accepted("5326123456789012"),
            "no prefix: any card"
        );
    }

    #[test]
    fn code_kinds_round_trip_their_names() {
        for k in CodeKind::ALL {
            assert_eq!(CodeKind::parse(k.as_str()), Some(k));
        }
        assert_eq!(CodeKind::parse("giftCard"), None);
    }

    // --- members ---

    #[test]
    fn a_member_ticket_without_any_member_has_no_valid_member() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[line(1, MEMBER)])),
            TicketRuleError::NoValidMember
        );
    }

    #[test]
    fn a_member_ticket_takes_the_orders_member_or_the_lines_own() {
        let f = Fixture::new();
        let priced = f.check_as(&[line(1, MEMBER)], Some("100001"), &[]).unwrap();
        assert_eq!(priced[0].member_number.as_deref(), Some("100001"));
        let own = OrderLine {
            member_number: Some("100009".into()),
            ..line(1, MEMBER)
        };
        let priced = f.check_as(&[own], Some("100001"), &[]).unwrap();
        assert_eq!(priced[0].member_number.as_deref(), Some("100009"));
    }

    #[test]
    fn unknown_expired_and_not_started_members_are_refused() {
        let f = Fixture::new();
        let as_member = |n: &str| f.check_as(&[line(1, MEMBER)], Some(n), &[]);
        assert_eq!(err(as_member("999999")), TicketRuleError::MemberNotFound);
        assert_eq!(err(as_member("100002")), TicketRuleError::MemberExpired);
        assert_eq!(err(as_member("300001")), TicketRuleError::MemberNotStarted);
    }

    #[test]
    fn a_used_up_series_pass_has_none_available() {
        let f = Fixture::new();
        let m = f.members.iter().find(|m| m.member_number == "200003");
        assert_eq!(
            check_member(m, TODAY),
            Err(TicketRuleError::MemberNoneAvailable)
        );
        let club_without_points = member("1", 1, 0);
        assert!(
            check_member(Some(&club_without_points), TODAY).is_ok(),
            "a club card still gives member prices"
        );
    }

    #[test]
    fn a_member_without_enough_points_for_the_points_tickets_has_none_available() {
        let f = Fixture::new();
        let e = err(f.check_as(&[line(1, POINTS)], Some("100009"), &[]));
        assert_eq!(e, TicketRuleError::MemberNoneAvailable);
        let priced = f
            .check_as(&[line(1, POINTS), line(2, POINTS)], Some("100001"), &[])
            .unwrap();
        assert_eq!(priced[0].loyalty_points, Some(320));
    }

    #[test]
    fn a_member_takes_at_most_the_memberships_discounted_tickets() {
        let f = Fixture::new();
        let lines: Vec<_> = (1..=5).map(|n| line(n, MEMBER)).collect();
        let e = err(f.check_as(&lines, Some("100001"), &[]));
        assert_eq!(e, TicketRuleError::MemberTicketsMax { max: 4 });
        assert!(f.check_as(&lines[..4], Some("100001"), &[]).is_ok());
    }

    // --- senior citizens ---

    fn senior(id: Option<&str>) -> OrderLine {
        OrderLine {
            senior_id: id.map(str::to_owned),
            ..line(1, SENIOR)
        }
    }

    #[test]
    fn a_senior_ticket_with_a_valid_id_is_accepted() {
        let f = Fixture::new();
        assert!(f.check(&[senior(Some("012347811"))]).is_ok());
    }

    #[test]
    fn a_senior_id_whose_check_digit_fails_is_an_ilsenior_error() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[senior(Some("123456789"))])).code(),
            "ilSenior_error"
        );
    }

    #[test]
    fn a_missing_or_malformed_senior_id_is_an_invalid_ssn() {
        let f = Fixture::new();
        for id in [None, Some(""), Some("12a"), Some("1234567890")] {
            assert_eq!(
                err(f.check(&[senior(id)])),
                TicketRuleError::InvalidSsn,
                "{id:?}"
            );
        }
    }

    #[test]
    fn one_senior_id_buys_one_senior_ticket_however_it_is_written() {
        let f = Fixture::new();
        let two = |a: &str, b: &str| {
            [
                senior(Some(a)),
                OrderLine {
                    seat: SeatKey {
                        section_id: 11,
                        x: 2,
                        y: 5,
                    },
                    ..senior(Some(b))
                },
            ]
        };
        let e = err(f.check(&two("012347811", "12347811")));
        assert_eq!(e, TicketRuleError::IlSeniorBalance);
        assert_eq!(e.code(), "ilSenior_balance");
        assert!(
            f.check(&two("012347811", "000000018")).is_ok(),
            "two seniors"
        );
    }

    #[test]
    fn a_group_without_a_senior_ticket_has_no_senior_ticket_to_find() {
        let t = tickets();
        assert_eq!(senior_ticket(&t, GROUP).unwrap().id, SENIOR);
        let e = senior_ticket(&t, 2).unwrap_err();
        assert_eq!(e.code(), "ilSenior_ticketNotFound");
        assert_eq!(e.params(), vec![("ticketGroupId", 2)]);
    }

    // --- hotel guests ---

    fn guest(n: i64, room: Option<&str>) -> OrderLine {
        OrderLine {
            ref1: room.map(str::to_owned),
            ..line(n, HOTEL)
        }
    }

    #[test]
    fn a_hotel_guest_ticket_needs_a_sensible_reference() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[guest(1, None)])),
            TicketRuleError::RefPromptOptError
        );
        assert_eq!(
            err(f.check(&[guest(1, Some("  "))])).code(),
            "refPromptOptError"
        );
        let long = "9".repeat(MAX_REFERENCE_CHARS + 1);
        assert_eq!(
            err(f.check(&[guest(1, Some(&long))])).code(),
            "refPromptOptError"
        );
    }

    #[test]
    fn a_room_not_among_the_accepted_references_is_not_found() {
        let f = Fixture::new();
        assert_eq!(
            err(f.check(&[guest(1, Some("999"))])),
            TicketRuleError::RefPromptOptNotFound
        );
        assert_eq!(
            err(f.check(&[guest(1, Some("suite a"))])).code(),
            "refPromptOptNotFound",
            "a reference with no quantity left"
        );
    }

    #[test]
    fn a_room_takes_at_most_its_quantity_of_tickets() {
        let f = Fixture::new();
        assert!(
            f.check(&[guest(1, Some("101")), guest(2, Some(" 101 "))])
                .is_ok()
        );
        let e = err(f.check(&[
            guest(1, Some("101")),
            guest(2, Some("101")),
            guest(3, Some("101")),
        ]));
        assert_eq!(e, TicketRuleError::RefPromptOptUsedUp { available: 2 });
        assert_eq!(e.code(), "refPromptOptNotFound");
    }

    #[test]
    fn a_reference_ticket_without_listed_options_takes_any_sensible_reference() {
        let mut f = Fixture::new();
        f.refs.clear();
        assert!(f.check(&[guest(1, Some("any room"))]).is_ok());
    }
}
