//! The point-of-sale and product summaries (decision 0052, amended): what the points-of-sale and
//! products reports sum, kept beside the sales summary by the finalisation and the cancellation.
//! A point-of-sale cell is one business's paid orders of one channel on one business day of
//! payment; a product cell one business's sales of one product on such a day. An order's business
//! is its first presentation's, or the chain's (0) when it has none (vouchers, donations,
//! memberships), as the reports have always counted it.
//!
//! What a cell holds follows the reports' rule: a paid order counts with what it was paid (its
//! total and service charges) and its tickets not cancelled; a partial cancellation takes only
//! its tickets off; a whole cancellation takes the order off altogether (its count, money,
//! products and remaining tickets), since a cancelled order is no longer a paid one.

use kupa_domain::money::Money;

use crate::orders::{Order, OrderProduct};

use super::summary::sale_day;

/// A paid order as the cells see it (from an [`Order`], or from the rows a rebuild reads).
#[derive(Debug, Clone, Copy)]
pub struct SaleOrder<'a> {
    pub business_id: i64,
    pub channel: &'a str,
    pub total: Money,
    pub service_charge_total: Money,
    /// Its tickets not cancelled.
    pub live_tickets: i64,
    pub products: &'a [OrderProduct],
}

impl<'a> SaleOrder<'a> {
    pub fn of(order: &'a Order, business_id: i64) -> SaleOrder<'a> {
        SaleOrder {
            business_id,
            channel: order.channel.as_str(),
            total: order.total,
            service_charge_total: order.service_charge_total,
            live_tickets: order
                .tickets
                .iter()
                .filter(|t| t.cancelled_at_ms.is_none())
                .count() as i64,
            products: &order.products,
        }
    }
}

/// A change to one point-of-sale cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelDelta {
    /// The business day of the payment, `YYYY-MM-DD`.
    pub sale_day: String,
    pub business_id: i64,
    /// web, miniSite or partnerApi.
    pub channel: String,
    pub orders: i64,
    pub tickets: i64,
    pub revenue: Money,
    pub service_charges: Money,
}

/// A change to one product cell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProductDelta {
    pub sale_day: String,
    pub business_id: i64,
    pub product_id: i64,
    /// The name it was sold under (a cell keeps its first sale's).
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub revenue: Money,
}

/// What a sale changes: its point-of-sale cell and its products' cells.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderCells {
    pub channel: ChannelDelta,
    pub products: Vec<ProductDelta>,
}

fn product_deltas(order: &SaleOrder, day: &str, sign: i64) -> Vec<ProductDelta> {
    order
        .products
        .iter()
        .filter(|p| p.quantity != 0)
        .map(|p| ProductDelta {
            sale_day: day.to_owned(),
            business_id: order.business_id,
            product_id: p.product_id,
            name: p.name.clone(),
            name_en: p.name_en.clone(),
            quantity: sign * p.quantity,
            revenue: p.unit_price * (sign * p.quantity),
        })
        .collect()
}

/// What `order` adds when it is paid at `paid_at_ms`.
pub fn on_sale(order: &SaleOrder, paid_at_ms: i64) -> OrderCells {
    let day = sale_day(paid_at_ms);
    OrderCells {
        channel: ChannelDelta {
            sale_day: day.clone(),
            business_id: order.business_id,
            channel: order.channel.to_owned(),
            orders: 1,
            tickets: order.live_tickets,
            revenue: order.total,
            service_charges: order.service_charge_total,
        },
        products: product_deltas(order, &day, 1),
    }
}

/// What a cancellation of `taken` tickets of `order`, paid at `paid_at_ms`, takes off (on the
/// day it was paid); `whole` when the order itself is cancelled.
pub fn on_cancel(order: &SaleOrder, paid_at_ms: i64, taken: i64, whole: bool) -> OrderCells {
    let day = sale_day(paid_at_ms);
    let (orders, revenue, service_charges, products) = if whole {
        (
            -1,
            -order.total,
            -order.service_charge_total,
            product_deltas(order, &day, -1),
        )
    } else {
        (0, Money::ZERO, Money::ZERO, Vec::new())
    };
    OrderCells {
        channel: ChannelDelta {
            sale_day: day,
            business_id: order.business_id,
            channel: order.channel.to_owned(),
            orders,
            tickets: -taken,
            revenue,
            service_charges,
        },
        products,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::orders::cancel::tests::{order as paid, ticket};
    use crate::orders::{Channel, OrderProduct};

    fn order() -> Order {
        let mut o = paid(
            vec![ticket(1, 4_200, 250, false), ticket(2, 4_200, 250, false)],
            Vec::new(),
            0,
        );
        o.channel = Channel::MiniSite;
        o.total = Money(10_000);
        o.service_charge_total = Money(500);
        o.products = vec![OrderProduct {
            product_id: 7,
            name: "פופקורן".into(),
            name_en: "Popcorn".into(),
            quantity: 2,
            unit_price: Money(1_500),
        }];
        o
    }

    #[test]
    fn a_sale_counts_the_order_its_live_tickets_and_its_products_on_its_business_day() {
        let o = order();
        // 2026-03-10 03:00 UTC is 05:00 in Jerusalem: the new business day begins.
        let at = 1_773_111_600_000;
        let c = on_sale(&SaleOrder::of(&o, 2), at);
        assert_eq!(c.channel.sale_day, "2026-03-10");
        assert_eq!(
            (
                c.channel.orders,
                c.channel.revenue,
                c.channel.service_charges
            ),
            (1, Money(10_000), Money(500))
        );
        assert_eq!(c.channel.channel, "miniSite");
        let live = o
            .tickets
            .iter()
            .filter(|t| t.cancelled_at_ms.is_none())
            .count() as i64;
        assert!(live > 0);
        assert_eq!(c.channel.tickets, live);
        assert_eq!(c.products.len(), 1);
        assert_eq!(
            (c.products[0].quantity, c.products[0].revenue),
            (2, Money(3_000))
        );
        // A minute earlier is still the day before.
        assert_eq!(
            on_sale(&SaleOrder::of(&o, 2), at - 60_000).channel.sale_day,
            "2026-03-09"
        );
    }

    #[test]
    fn a_partial_cancellation_takes_tickets_only_and_a_whole_one_the_order() {
        let o = order();
        let at = 1_773_111_600_000;
        let part = on_cancel(&SaleOrder::of(&o, 2), at, 1, false);
        assert_eq!(
            (
                part.channel.orders,
                part.channel.tickets,
                part.channel.revenue
            ),
            (0, -1, Money::ZERO)
        );
        assert!(part.products.is_empty());
        let whole = on_cancel(&SaleOrder::of(&o, 2), at, 2, true);
        assert_eq!(
            (
                whole.channel.orders,
                whole.channel.tickets,
                whole.channel.revenue,
                whole.channel.service_charges
            ),
            (-1, -2, Money(-10_000), Money(-500))
        );
        assert_eq!(whole.products[0].quantity, -2);
        assert_eq!(whole.channel.sale_day, "2026-03-10");
    }
}
