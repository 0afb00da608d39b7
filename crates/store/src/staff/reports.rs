//! The reads of cinema reports (decision 0047): products sold and paid orders by channel over a
//! range of payment times. An order's business is its first presentation's, or the chain's (0)
//! when it has none (vouchers, donations, memberships).

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::staff::reports::{ChannelSale, ProductSale, ReportStore};

use crate::rows::Get;
use crate::{Db, db_err};

/// Paid orders in [$1, $2) with their business and their tickets not cancelled.
macro_rules! paid_orders {
    () => {
        "SELECT o.id, o.channel, o.total, o.service_charge_total, \
         COALESCE((SELECT p.business_id FROM order_presentations op JOIN presentations p ON p.id = op.presentation_id \
                   WHERE op.order_id = o.id ORDER BY op.position LIMIT 1), 0) AS business_id, \
         (SELECT COUNT(*) FROM order_tickets t WHERE t.order_id = o.id AND t.cancelled_at IS NULL) AS tickets \
         FROM orders o WHERE o.status = 'paid' AND o.paid_at >= $1 AND o.paid_at < $2"
    };
}

fn product_sale(r: &impl Get) -> Result<ProductSale, sqlx::Error> {
    Ok(ProductSale {
        business_id: r.i("business_id")?,
        product_id: r.i("product_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        quantity: r.i("quantity")?,
        revenue: r.i("revenue")?,
    })
}

fn channel_sale(r: &impl Get) -> Result<ChannelSale, sqlx::Error> {
    Ok(ChannelSale {
        business_id: r.i("business_id")?,
        channel: r.s("channel")?,
        orders: r.i("orders")?,
        tickets: r.i("tickets")?,
        revenue: r.i("revenue")?,
        service_charges: r.i("service_charges")?,
    })
}

#[async_trait]
impl ReportStore for Db {
    async fn product_sales(&self, from_ms: i64, to_ms: i64) -> StoreResult<Vec<ProductSale>> {
        fetch_all!(
            self,
            concat!(
                "SELECT CAST(b.business_id AS BIGINT) AS business_id, op.product_id, MIN(op.name) AS name, \
                 MIN(op.name_en) AS name_en, CAST(SUM(op.quantity) AS BIGINT) AS quantity, \
                 CAST(SUM(op.quantity * op.unit_price) AS BIGINT) AS revenue \
                 FROM order_products op JOIN (",
                paid_orders!(),
                ") b ON b.id = op.order_id GROUP BY b.business_id, op.product_id ORDER BY op.product_id"
            ),
            [from_ms, to_ms],
            product_sale
        )
    }

    async fn channel_sales(&self, from_ms: i64, to_ms: i64) -> StoreResult<Vec<ChannelSale>> {
        fetch_all!(
            self,
            concat!(
                "SELECT CAST(b.business_id AS BIGINT) AS business_id, b.channel, COUNT(*) AS orders, \
                 CAST(COALESCE(SUM(b.tickets), 0) AS BIGINT) AS tickets, \
                 CAST(COALESCE(SUM(b.total), 0) AS BIGINT) AS revenue, \
                 CAST(COALESCE(SUM(b.service_charge_total), 0) AS BIGINT) AS service_charges \
                 FROM (",
                paid_orders!(),
                ") b GROUP BY b.business_id, b.channel ORDER BY b.channel"
            ),
            [from_ms, to_ms],
            channel_sale
        )
    }
}
