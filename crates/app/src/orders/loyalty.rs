//! Loyalty points and reserved balances (decision 0036), pure: what an order earns, what its
//! points tickets spend, what a cancellation keeps, and why a cart could not be kept.
//!
//! The store carries these out in its transactions: a cart is saved only if every voucher balance
//! and member's points it uses are still free of the other live orders ([`Shortfall`]), the
//! finalisation spends them and adds what the order earned, a cancellation gives them back.

use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

use super::model::{Order, OrderKind, OrderTicket, Shortfall};

/// One point for every ₪10 paid with money, unless configured otherwise.
pub const DEFAULT_AGOROT_PER_POINT: i64 = 1000;

/// How a paid order earns points (KUPA_LOYALTY_AGOROT_PER_POINT).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoyaltyRule {
    /// Agorot of money paid per point earned; 0 earns nothing.
    pub agorot_per_point: i64,
}

impl Default for LoyaltyRule {
    fn default() -> Self {
        LoyaltyRule {
            agorot_per_point: DEFAULT_AGOROT_PER_POINT,
        }
    }
}

impl LoyaltyRule {
    /// Points an order earns for the money it pays (not what vouchers or points pay): whole
    /// points, rounded down. Only ticket orders earn: a gift voucher earns when it is spent.
    pub fn earned(&self, order: &Order) -> i64 {
        if self.agorot_per_point <= 0 || order.kind != OrderKind::Tickets {
            return 0;
        }
        let by_vouchers: Money = order.vouchers.iter().map(|v| v.amount).sum();
        let money = (order.total - by_vouchers).max(Money::ZERO);
        money.minor() / self.agorot_per_point
    }
}

/// The member an order's points go to: the member named on its tickets (a member ticket, a
/// points ticket), else the logged-in buyer's first card valid today; None earns nothing.
pub fn earning_member(tickets: &[OrderTicket], buyers_valid_card: Option<&str>) -> Option<String> {
    tickets
        .iter()
        .find_map(|t| t.member_number.clone())
        .or_else(|| buyers_valid_card.map(str::to_owned))
}

/// What of a member an order's tickets spend: loyalty points (a points ticket), or the balance of
/// a series pass (a pass ticket, decision 0039). Each is reserved, spent and given back the same
/// way; the store knows which columns hold them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purse {
    Points,
    PassBalance,
}

impl Purse {
    /// Every purse, in the order the store locks them.
    pub const ALL: [Purse; 2] = [Purse::Points, Purse::PassBalance];

    /// What one line takes from this purse.
    pub fn of(self, t: &OrderTicket) -> i64 {
        match self {
            Purse::Points => t.points,
            Purse::PassBalance => t.member_balance.minor(),
        }
    }

    /// What the cart is refused with when another live order holds what it needs.
    pub fn shortfall(self, member_number: String) -> Shortfall {
        match self {
            Purse::Points => Shortfall::Points { member_number },
            Purse::PassBalance => Shortfall::PassBalance { member_number },
        }
    }
}

/// What the order's live lines take from a purse, per member, in member-number order (the order
/// the store locks them in).
pub fn spent_from<'a>(
    purse: Purse,
    tickets: impl IntoIterator<Item = &'a OrderTicket>,
) -> Vec<(String, i64)> {
    let mut per: std::collections::BTreeMap<String, i64> = Default::default();
    for t in tickets {
        if purse.of(t) > 0
            && t.cancelled_at_ms.is_none()
            && let Some(m) = &t.member_number
        {
            *per.entry(m.clone()).or_default() += purse.of(t);
        }
    }
    per.into_iter().collect()
}

/// The points the order's live lines spend, per member.
pub fn points_spent<'a>(tickets: impl IntoIterator<Item = &'a OrderTicket>) -> Vec<(String, i64)> {
    spent_from(Purse::Points, tickets)
}

/// What an order still holds of the points it earned after a cancellation refunded more of it:
/// the earned points shrink with the money kept, rounded down (never below zero).
pub fn points_kept(
    earned: i64,
    total: Money,
    refunded_before: Money,
    refunded_after: Money,
) -> i64 {
    let kept_before = total - refunded_before;
    let kept_after = (total - refunded_after).max(Money::ZERO);
    if earned <= 0 || kept_before <= Money::ZERO {
        return 0;
    }
    // i128: points × agorot stays exact for any order.
    ((earned as i128 * kept_after.minor() as i128) / kept_before.minor() as i128) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_point_per_ten_shekels_of_money_rounded_down() {
        let rule = LoyaltyRule::default();
        use crate::orders::cancel::tests::{order, ticket};
        let mut order = order(vec![ticket(1, 12_990, 0, false)], Vec::new(), 0);
        assert_eq!(rule.earned(&order), 12);
        order.vouchers.push(crate::orders::OrderVoucher {
            code: "V".into(),
            amount: Money(5_000),
        });
        assert_eq!(rule.earned(&order), 7, "what a voucher pays earns nothing");
        order.kind = OrderKind::Vouchers;
        assert_eq!(rule.earned(&order), 0, "a voucher earns when it is spent");
        let off = LoyaltyRule {
            agorot_per_point: 0,
        };
        order.kind = OrderKind::Tickets;
        assert_eq!(off.earned(&order), 0);
    }

    #[test]
    fn a_cancellation_keeps_the_points_of_the_money_kept() {
        assert_eq!(points_kept(12, Money(12_000), Money(0), Money(6_000)), 6);
        assert_eq!(
            points_kept(6, Money(12_000), Money(6_000), Money(12_000)),
            0
        );
        assert_eq!(points_kept(12, Money(12_000), Money(0), Money(500)), 11);
        assert_eq!(points_kept(0, Money(12_000), Money(0), Money(500)), 0);
    }
}
