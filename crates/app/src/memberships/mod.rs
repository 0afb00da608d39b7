//! Memberships sold (spec sections 2, 3 "Membership" and "Member", 7 `POST /cart` with
//! `memberships`; issue 15, decision 0037): the prices a membership is sold at, the order lines a
//! membership cart becomes (a new member, or a top-up of a series member's balance), and the
//! rules that price them. The orders room keeps the cart, the payment and the one finalisation,
//! which creates the members; nothing here writes.

mod enroll;
mod enrollment_rules;
pub mod seasons;
mod seated;
pub use enroll::*;
pub use enrollment_rules::*;
pub use seasons::*;

use jiff::ToSpan;
use jiff::civil::Date;
use kupa_domain::money::Money;
use rand::Rng;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Member, Membership, MembershipPrice, ReferencePrompt};

/// At most this many new members of one membership in one order (spec section 9:
/// maxQuantityForMembership 1).
pub const MAX_QUANTITY_FOR_MEMBERSHIP: i64 = 1;
/// At most this many top-ups of one member number in one order.
pub const MAX_TOP_UPS_PER_MEMBER: i64 = 10;
/// A price without a currency is in shekels.
pub const DEFAULT_CURRENCY: &str = "ILS";

/// A membership sold: one line per unit. A new member's number (and row id) are drawn when the
/// cart is priced and the member is created by the finalisation that sells the order; a top-up
/// names the buyer's existing member instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderMembership {
    pub line: i64,
    pub membership_id: i64,
    pub price_id: i64,
    pub type_id: i64,
    pub name: String,
    pub name_en: String,
    /// Paid.
    pub price: Money,
    /// The price's value: what a series member's balance gets.
    pub value: Money,
    pub currency: String,
    /// A new member: its number (8 digits) and row id. None for a top-up.
    pub member_number: Option<String>,
    pub member_id: Option<i64>,
    /// A top-up: the member whose balance grows. None for a new member.
    pub top_up_member_number: Option<String>,
    pub reference1: Option<String>,
    pub reference2: Option<String>,
    pub valid_months: i64,
    /// A new member's days (local, inclusive, YYYY-MM-DD): as priced, then as paid (the
    /// finalisation writes the payment day's). None for a top-up.
    pub valid_from: Option<String>,
    pub valid_to: Option<String>,
}

impl OrderMembership {
    /// Line `line` of membership `m` at `price`: neither a new member nor a top-up yet (the
    /// caller fills in which), no references, no dates.
    fn of(line: usize, m: &Membership, price: &MembershipPrice) -> OrderMembership {
        OrderMembership {
            line: line as i64,
            membership_id: m.id,
            price_id: price.id,
            type_id: m.type_id,
            name: m.name.clone(),
            name_en: m.name_en.clone(),
            price: price.price,
            value: value_of(price),
            currency: currency_of(price).to_owned(),
            member_number: None,
            member_id: None,
            top_up_member_number: None,
            reference1: None,
            reference2: None,
            valid_months: m.valid_months,
            valid_from: None,
            valid_to: None,
        }
    }

    /// The balance the line gives its member: a series' value; other memberships carry none.
    pub fn balance(&self) -> Money {
        if self.type_id == 2 {
            self.value
        } else {
            Money::ZERO
        }
    }
}

/// A membership the buyer chose: new members at some of its prices, and top-ups of members the
/// buyer has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct MembershipChoice {
    pub membership_id: i64,
    pub prices: Vec<PriceChoice>,
    pub top_ups: Vec<TopUpChoice>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PriceChoice {
    /// None: the client named no price (`getPrice`).
    pub price_id: Option<i64>,
    pub quantity: i64,
    pub reference1: Option<String>,
    pub reference2: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TopUpChoice {
    pub member_number: String,
    pub price_id: Option<i64>,
    pub quantity: i64,
}

/// A member as the buyer's order made it (or topped it up): what the confirmation shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderMember {
    pub member_number: String,
    pub membership_id: i64,
    pub membership_type_id: i64,
    pub name: String,
    pub name_en: String,
    /// As the member has it now.
    pub balance: Money,
    pub start_date: String,
    pub end_date: String,
    /// True: this order topped up an existing member (its days unchanged).
    pub top_up: bool,
}

/// The prices a membership is sold at: its own, or one implicit price (id = membership id × 100,
/// the membership's code and price) when it lists none.
pub fn prices_of(m: &Membership) -> Vec<MembershipPrice> {
    if !m.prices.is_empty() {
        return m.prices.clone();
    }
    vec![MembershipPrice {
        id: m.id * 100,
        price_code: m.code.clone(),
        price: m.price,
        ..MembershipPrice::default()
    }]
}

/// What a price's buyer gets as balance (agorot): its value, or its price.
pub fn value_of(p: &MembershipPrice) -> Money {
    p.value.unwrap_or(p.price)
}

pub fn currency_of(p: &MembershipPrice) -> &str {
    p.currency.as_deref().unwrap_or(DEFAULT_CURRENCY)
}

/// A new member's first and last day (inclusive): from `start` for `months` months, less a day.
pub fn member_days(start: Date, months: i64) -> AppResult<(Date, Date)> {
    let end = start
        .checked_add(months.max(1).months())
        .and_then(|d| d.checked_sub(1.day()))
        .map_err(|e| AppError::internal(format!("membership validity: {e}")))?;
    Ok((start, end))
}

/// A new member's days when paid at `now_ms` (the payment day in Asia/Jerusalem), as stored.
pub fn member_days_paid_at(now_ms: i64, months: i64) -> AppResult<(String, String)> {
    let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
    let (from, to) = member_days(today, months)?;
    Ok((from.to_string(), to.to_string()))
}

/// Whether a member's balance can be topped up now: its membership allows it (a series only) and
/// it has not expired.
pub fn can_top_up(member: &Member, membership: &Membership, today: Date) -> bool {
    membership.top_up
        && membership.is_series()
        && member.end_date.as_str() >= today.to_string().as_str()
}

/// A new member number: 8 digits, the first not 0 (so it reads the same as a number).
pub fn new_member_number() -> String {
    rand::rng()
        .random_range(10_000_000_i64..100_000_000)
        .to_string()
}

/// A new member's row id: random in a range the catalogue file never uses (its ids are small), so
/// members created on several nodes at once never collide.
pub fn new_member_id() -> i64 {
    rand::rng().random_range((1_i64 << 40)..(1_i64 << 62))
}

/// Whether a reference answers its prompt: not blank, and matching the prompt's pattern when it
/// has one (a pattern that does not compile matches nothing; the catalogue file's checks refuse
/// one).
pub fn reference_fits(prompt: &ReferencePrompt, answer: Option<&str>) -> bool {
    let Some(answer) = answer.map(str::trim).filter(|a| !a.is_empty()) else {
        return false;
    };
    match prompt.pattern.as_deref() {
        None => true,
        Some(p) => regex_automata::meta::Regex::new(p).is_ok_and(|re| re.is_match(answer)),
    }
}

/// Whether a pattern compiles (the catalogue file's check).
pub fn pattern_compiles(pattern: &str) -> bool {
    regex_automata::meta::Regex::new(pattern).is_ok()
}

fn refused(code: ErrorCode, message: impl std::fmt::Display) -> AppError {
    AppError::rejected(code, message)
}

fn form(message: impl std::fmt::Display, params: serde_json::Value) -> AppError {
    AppError::rejected_with(ErrorCode::FormValidation, message, params)
}

fn price_of(m: &Membership, price_id: Option<i64>) -> AppResult<MembershipPrice> {
    let id = price_id.ok_or_else(|| {
        refused(
            ErrorCode::GetPrice,
            "choose one of the membership's prices (MembershipPriceId)",
        )
    })?;
    prices_of(m)
        .into_iter()
        .find(|p| p.id == id)
        .ok_or_else(|| refused(ErrorCode::PriceNotFound, "no such price of this membership"))
}

/// Prices the memberships chosen into order lines (one per unit): each membership on sale, each
/// price its own, its references answered, at most [`MAX_QUANTITY_FOR_MEMBERSHIP`] new members
/// of one membership, top-ups only of the buyer's own unexpired members of a membership that
/// allows them (at most [`MAX_TOP_UPS_PER_MEMBER`] each), and one currency.
pub fn membership_lines(
    catalogue: &[Membership],
    choices: &[MembershipChoice],
    mine: &[(Member, Membership)],
    today: Date,
) -> AppResult<Vec<OrderMembership>> {
    let on_sale: Vec<&Membership> = catalogue.iter().filter(|m| m.on_sale).collect();
    if on_sale.is_empty() {
        return Err(refused(
            ErrorCode::NoMemberships,
            "no membership is on sale now",
        ));
    }
    let quantities = || {
        choices.iter().flat_map(|c| {
            c.prices
                .iter()
                .map(|p| p.quantity)
                .chain(c.top_ups.iter().map(|t| t.quantity))
        })
    };
    if quantities().any(|q| q < 0) {
        return Err(form(
            "a quantity cannot be negative",
            serde_json::json!({ "fields": ["selectedQuantity"] }),
        ));
    }
    if quantities().sum::<i64>() == 0 {
        return Err(refused(
            ErrorCode::MustSelectMemberships,
            "choose at least one membership",
        ));
    }
    let mut lines: Vec<OrderMembership> = Vec::new();
    for choice in choices {
        let wanted_new: i64 = choice.prices.iter().map(|p| p.quantity).sum();
        let wanted_top_ups: i64 = choice.top_ups.iter().map(|t| t.quantity).sum();
        if wanted_new + wanted_top_ups == 0 {
            continue;
        }
        let m = on_sale
            .iter()
            .find(|m| m.id == choice.membership_id)
            .ok_or_else(|| refused(ErrorCode::NotFound, "no such membership on sale"))?;
        // Counted over the whole cart: a membership named twice is still one membership.
        let new_of_membership: i64 = choices
            .iter()
            .filter(|c| c.membership_id == m.id)
            .flat_map(|c| c.prices.iter().map(|p| p.quantity))
            .sum();
        if new_of_membership > MAX_QUANTITY_FOR_MEMBERSHIP {
            return Err(form(
                format!("at most {MAX_QUANTITY_FOR_MEMBERSHIP} of one membership in one order"),
                serde_json::json!({ "fields": ["selectedQuantity"], "max": MAX_QUANTITY_FOR_MEMBERSHIP }),
            ));
        }
        for chosen in choice.prices.iter().filter(|p| p.quantity > 0) {
            let price = price_of(m, chosen.price_id)?;
            let missing: Vec<&str> = [
                ("reference1", &price.reference1, &chosen.reference1),
                ("reference2", &price.reference2, &chosen.reference2),
            ]
            .into_iter()
            .filter_map(|(key, prompt, answer)| {
                prompt
                    .as_ref()
                    .filter(|p| !reference_fits(p, answer.as_deref()))
                    .map(|_| key)
            })
            .collect();
            if !missing.is_empty() {
                return Err(AppError::rejected_with(
                    ErrorCode::ValidateReferences,
                    "fill in the membership's details as asked",
                    serde_json::json!({ "fields": missing }),
                ));
            }
            // Only what a prompt asked for is kept.
            let answer = |prompt: &Option<ReferencePrompt>, a: &Option<String>| {
                prompt
                    .as_ref()
                    .and(a.as_deref())
                    .map(|a| a.trim().to_owned())
            };
            let (from, to) = member_days(today, m.valid_months)?;
            for _ in 0..chosen.quantity {
                lines.push(OrderMembership {
                    member_number: Some(new_member_number()),
                    member_id: Some(new_member_id()),
                    reference1: answer(&price.reference1, &chosen.reference1),
                    reference2: answer(&price.reference2, &chosen.reference2),
                    valid_from: Some(from.to_string()),
                    valid_to: Some(to.to_string()),
                    ..OrderMembership::of(lines.len(), m, &price)
                });
            }
        }
        if wanted_top_ups == 0 {
            continue;
        }
        if !(m.top_up && m.is_series()) {
            return Err(form(
                "this membership cannot be topped up",
                serde_json::json!({ "fields": ["topups"], "reason": "topUp" }),
            ));
        }
        let mut numbers: Vec<&str> = choice
            .top_ups
            .iter()
            .filter(|t| t.quantity > 0)
            .map(|t| t.member_number.as_str())
            .collect();
        numbers.sort_unstable();
        numbers.dedup();
        for number in numbers {
            let member = mine
                .iter()
                .map(|(member, _)| member)
                .find(|x| x.member_number == number && x.membership_id == m.id)
                .ok_or_else(|| {
                    refused(
                        ErrorCode::MemberNotFound,
                        "no such member of this membership in your account",
                    )
                })?;
            if member.end_date.as_str() < today.to_string().as_str() {
                return Err(refused(
                    ErrorCode::MemberExpired,
                    "this membership has expired: buy a new one",
                ));
            }
            let of_member = choice
                .top_ups
                .iter()
                .filter(|t| t.member_number == number && t.quantity > 0);
            let top_ups_of_member: i64 = choices
                .iter()
                .flat_map(|c| c.top_ups.iter())
                .filter(|t| t.member_number == number)
                .map(|t| t.quantity)
                .sum();
            if top_ups_of_member > MAX_TOP_UPS_PER_MEMBER {
                return Err(form(
                    format!("at most {MAX_TOP_UPS_PER_MEMBER} top-ups of one member in one order"),
                    serde_json::json!({ "fields": ["topups"], "max": MAX_TOP_UPS_PER_MEMBER }),
                ));
            }
            for chosen in of_member {
                let price = price_of(m, chosen.price_id)?;
                for _ in 0..chosen.quantity {
                    lines.push(OrderMembership {
                        top_up_member_number: Some(member.member_number.clone()),
                        ..OrderMembership::of(lines.len(), m, &price)
                    });
                }
            }
        }
    }
    let mut currencies: Vec<&str> = lines.iter().map(|l| l.currency.as_str()).collect();
    currencies.sort_unstable();
    currencies.dedup();
    if currencies.len() > 1 {
        return Err(form(
            "the memberships chosen are priced in different currencies: pay for them apart",
            serde_json::json!({ "fields": ["prices"], "reason": "currencies" }),
        ));
    }
    Ok(lines)
}

/// The members an order made or topped up, from its lines and the buyer's members as they are
/// now (a member created by the finalisation, a balance after its top-up): one entry per new
/// member, one per member topped up.
pub fn order_members(lines: &[OrderMembership], mine: &[(Member, Membership)]) -> Vec<OrderMember> {
    let mut out: Vec<OrderMember> = Vec::new();
    for l in lines {
        let (number, top_up) = match (&l.member_number, &l.top_up_member_number) {
            (Some(n), _) => (n, false),
            (None, Some(n)) => (n, true),
            (None, None) => continue,
        };
        if top_up && out.iter().any(|o| o.top_up && &o.member_number == number) {
            continue;
        }
        let Some((member, membership)) = mine.iter().find(|(m, _)| &m.member_number == number)
        else {
            continue;
        };
        out.push(OrderMember {
            member_number: member.member_number.clone(),
            membership_id: member.membership_id,
            membership_type_id: membership.type_id,
            name: membership.name.clone(),
            name_en: membership.name_en.clone(),
            balance: member.balance,
            start_date: member.start_date.clone(),
            end_date: member.end_date.clone(),
            top_up,
        });
    }
    out
}

#[cfg(test)]
mod tests;
