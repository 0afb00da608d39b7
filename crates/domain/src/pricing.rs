//! Order totals in agorot. The service charge ("דמי טיפול" by default) is the business's rule: a
//! fixed amount or a percentage, per ticket or once per order. A ticket that carries its own
//! service charge pays that instead of the business's per-ticket charge, so no ticket is charged
//! twice; a per-order charge applies once whatever the tickets. Sub-tickets of a multiply factor
//! cost nothing and carry no charge. Pure: every price comes in.

use crate::money::Money;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServiceChargeRule {
    pub amount: Option<Money>,
    /// Basis points of the ticket price (per ticket) or of the tickets' total (per order).
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TicketLine {
    pub price: Money,
    /// The ticket's own service charge; zero when the business rule applies.
    pub own_service_charge: Money,
    /// A sub-ticket of a multiply factor: the seat is covered by another line's ticket.
    pub is_sub_ticket: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProductLine {
    pub unit_price: Money,
    pub quantity: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Each line's price and service charge, in line order.
    pub lines: Vec<(Money, Money)>,
    pub tickets: Money,
    pub products: Money,
    pub service_charge: Money,
    pub total: Money,
}

fn rule_charge(rule: &ServiceChargeRule, base: Money) -> Money {
    match (rule.amount, rule.percent_bp) {
        (Some(a), _) => a,
        (None, Some(bp)) => base.percent_bp(bp),
        (None, None) => Money::ZERO,
    }
}

/// The service charge one ticket of `price` pays: its own, else the business's per-ticket charge.
/// A per-order charge is not a ticket's: [`totals`] adds it once. What the tickets step shows
/// beside each ticket's price, and what [`totals`] charges.
pub fn ticket_service_charge(
    price: Money,
    own_service_charge: Money,
    rule: Option<&ServiceChargeRule>,
) -> Money {
    if own_service_charge > Money::ZERO {
        return own_service_charge;
    }
    match rule {
        Some(r) if r.per_ticket => rule_charge(r, price),
        _ => Money::ZERO,
    }
}

pub fn totals(
    tickets: &[TicketLine],
    products: &[ProductLine],
    rule: Option<&ServiceChargeRule>,
) -> Totals {
    let lines: Vec<(Money, Money)> = tickets
        .iter()
        .map(|t| {
            if t.is_sub_ticket {
                return (Money::ZERO, Money::ZERO);
            }
            (
                t.price,
                ticket_service_charge(t.price, t.own_service_charge, rule),
            )
        })
        .collect();
    let tickets_total: Money = lines.iter().map(|(p, _)| *p).sum();
    let per_order = match rule {
        Some(r) if !r.per_ticket && lines.iter().any(|(p, _)| *p > Money::ZERO) => {
            rule_charge(r, tickets_total)
        }
        _ => Money::ZERO,
    };
    let service_charge: Money = lines.iter().map(|(_, c)| *c).sum::<Money>() + per_order;
    let products_total: Money = products.iter().map(|p| p.unit_price * p.quantity).sum();
    Totals {
        total: tickets_total + products_total + service_charge,
        lines,
        tickets: tickets_total,
        products: products_total,
        service_charge,
    }
}

/// How an order's price is shown, everywhere (web steps, confirmation, PDF, mail, e-document):
/// each ticket at its full price (price plus its service charge) with that service charge
/// itemised beside it; the tickets at their full prices, of which the service charges; a
/// per-order service charge on a line of its own; the products; the total. The lines add up to
/// the total, to the agora.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PriceBreakdown {
    /// The tickets at their full prices.
    pub tickets: Money,
    /// Of which the tickets' own service charges.
    pub tickets_service_charge: Money,
    /// The business's per-order service charge, not part of any ticket.
    pub order_service_charge: Money,
    pub products: Money,
    pub total: Money,
}

/// The breakdown of an order whose tickets cost `lines` (price, service charge each), whose
/// products cost `products` and whose service charge is `service_charge_total` in all.
pub fn breakdown(
    lines: &[(Money, Money)],
    products: Money,
    service_charge_total: Money,
) -> PriceBreakdown {
    let tickets_service_charge: Money = lines.iter().map(|(_, c)| *c).sum();
    let tickets: Money = lines.iter().map(|(p, c)| *p + *c).sum();
    let order_service_charge = service_charge_total - tickets_service_charge;
    PriceBreakdown {
        tickets,
        tickets_service_charge,
        order_service_charge,
        products,
        total: tickets + order_service_charge + products,
    }
}

/// A voucher pays the smaller of what is due and its balance; nothing at all when either is zero
/// (the spec's "לא נותרה יתרה למימוש הטבה": no balance left to redeem).
pub fn voucher_payment(due: Money, balance: Money) -> Option<Money> {
    let pay = due.min(balance);
    (pay > Money::ZERO).then_some(pay)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(price: i64, own: i64) -> TicketLine {
        TicketLine {
            price: Money(price),
            own_service_charge: Money(own),
            is_sub_ticket: false,
        }
    }

    const FIXED_PER_TICKET: ServiceChargeRule = ServiceChargeRule {
        amount: Some(Money(500)),
        percent_bp: None,
        per_ticket: true,
    };
    const TEN_PERCENT_PER_ORDER: ServiceChargeRule = ServiceChargeRule {
        amount: None,
        percent_bp: Some(1000),
        per_ticket: false,
    };

    #[test]
    fn the_breakdown_shows_full_ticket_prices_and_adds_up_to_the_total() {
        let products = [ProductLine {
            unit_price: Money(1800),
            quantity: 1,
        }];
        for rule in [FIXED_PER_TICKET, TEN_PERCENT_PER_ORDER] {
            let r = totals(&[t(4200, 0), t(3400, 0)], &products, Some(&rule));
            let b = breakdown(&r.lines, r.products, r.service_charge);
            assert_eq!(b.total, r.total, "{rule:?}");
            assert_eq!(
                b.tickets + b.order_service_charge + b.products,
                r.total,
                "{rule:?}"
            );
        }
        let r = totals(&[t(4200, 0), t(3400, 0)], &[], Some(&FIXED_PER_TICKET));
        let b = breakdown(&r.lines, r.products, r.service_charge);
        assert_eq!(
            (b.tickets, b.tickets_service_charge, b.order_service_charge),
            (Money(8600), Money(1000), Money::ZERO)
        );
        let r = totals(&[t(4200, 0), t(3400, 0)], &[], Some(&TEN_PERCENT_PER_ORDER));
        let b = breakdown(&r.lines, r.products, r.service_charge);
        assert_eq!(
            (b.tickets, b.tickets_service_charge, b.order_service_charge),
            (Money(7600), Money::ZERO, Money(760))
        );
    }

    #[test]
    fn a_ticket_pays_its_own_charge_else_the_per_ticket_rule_never_the_per_order_one() {
        assert_eq!(
            ticket_service_charge(Money(0), Money(0), Some(&FIXED_PER_TICKET)),
            Money(500),
            "a free companion ticket still pays the business's per-ticket charge"
        );
        assert_eq!(
            ticket_service_charge(Money(4200), Money(700), Some(&FIXED_PER_TICKET)),
            Money(700)
        );
        assert_eq!(
            ticket_service_charge(Money(4200), Money(0), Some(&TEN_PERCENT_PER_ORDER)),
            Money::ZERO
        );
    }

    #[test]
    fn a_fixed_per_ticket_charge_is_added_to_each_ticket_and_products_are_not_charged() {
        let r = totals(
            &[t(4200, 0), t(3400, 0)],
            &[ProductLine {
                unit_price: Money(2500),
                quantity: 2,
            }],
            Some(&FIXED_PER_TICKET),
        );
        assert_eq!(
            r.lines,
            vec![(Money(4200), Money(500)), (Money(3400), Money(500))]
        );
        assert_eq!(
            (r.tickets, r.products, r.service_charge, r.total),
            (Money(7600), Money(5000), Money(1000), Money(13600))
        );
    }

    #[test]
    fn a_ticket_with_its_own_charge_is_not_charged_twice() {
        let r = totals(&[t(4200, 700), t(4200, 0)], &[], Some(&FIXED_PER_TICKET));
        assert_eq!(r.service_charge, Money(1200));
    }

    #[test]
    fn a_percentage_per_order_applies_once_to_the_tickets_total() {
        let r = totals(
            &[t(9000, 0), t(9000, 0)],
            &[ProductLine {
                unit_price: Money(1000),
                quantity: 1,
            }],
            Some(&TEN_PERCENT_PER_ORDER),
        );
        assert_eq!((r.service_charge, r.total), (Money(1800), Money(20800)));
    }

    #[test]
    fn sub_tickets_cost_nothing_and_an_order_of_only_products_has_no_charge() {
        let sub = TicketLine {
            is_sub_ticket: true,
            ..t(9999, 9999)
        };
        let r = totals(&[t(8000, 0), sub], &[], Some(&FIXED_PER_TICKET));
        assert_eq!((r.tickets, r.service_charge), (Money(8000), Money(500)));
        let r = totals(
            &[],
            &[ProductLine {
                unit_price: Money(1200),
                quantity: 3,
            }],
            Some(&TEN_PERCENT_PER_ORDER),
        );
        assert_eq!((r.service_charge, r.total), (Money::ZERO, Money(3600)));
    }

    #[test]
    fn a_voucher_pays_the_smaller_amount_and_nothing_without_a_balance() {
        assert_eq!(
            voucher_payment(Money(10000), Money(3000)),
            Some(Money(3000))
        );
        assert_eq!(voucher_payment(Money(2000), Money(3000)), Some(Money(2000)));
        assert_eq!(voucher_payment(Money(2000), Money(0)), None);
        assert_eq!(voucher_payment(Money(0), Money(500)), None);
    }
}
