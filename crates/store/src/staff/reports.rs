//! The reads of cinema reports (decision 0047): products sold and paid orders by channel over a
//! range of business days of payment, summed from the summaries the finalisation and the
//! cancellation keep (decision 0052). An order's business is its first presentation's, or the
//! chain's (0) when it has none (vouchers, donations, memberships).

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::staff::reports::{ChannelSale, ProductSale, ReportStore};

use crate::rows::Get;
use crate::{Db, db_err};

fn product_sale(r: &impl Get) -> Result<ProductSale, sqlx::Error> {
    Ok(ProductSale {
        business_id: r.i("business_id")?,
        product_id: r.i("product_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        quantity: r.i("quantity")?,
        revenue: r.m("revenue")?,
    })
}

fn channel_sale(r: &impl Get) -> Result<ChannelSale, sqlx::Error> {
    Ok(ChannelSale {
        business_id: r.i("business_id")?,
        channel: r.s("channel")?,
        orders: r.i("orders")?,
        tickets: r.i("tickets")?,
        revenue: r.m("revenue")?,
        service_charges: r.m("service_charges")?,
    })
}

#[async_trait]
impl ReportStore for Db {
    async fn product_sales(&self, first: &str, last: &str) -> StoreResult<Vec<ProductSale>> {
        fetch_all!(
            self,
            "SELECT s.business_id, s.product_id, MIN(s.name) AS name, MIN(s.name_en) AS name_en, \
             CAST(SUM(s.quantity) AS BIGINT) AS quantity, CAST(SUM(s.revenue) AS BIGINT) AS revenue \
             FROM product_summary s WHERE s.sale_day >= $1 AND s.sale_day <= $2 \
             GROUP BY s.business_id, s.product_id HAVING SUM(s.quantity) <> 0 ORDER BY s.product_id",
            [first, last],
            product_sale
        )
    }

    async fn channel_sales(&self, first: &str, last: &str) -> StoreResult<Vec<ChannelSale>> {
        fetch_all!(
            self,
            "SELECT s.business_id, s.channel, CAST(SUM(s.orders) AS BIGINT) AS orders, \
             CAST(SUM(s.tickets) AS BIGINT) AS tickets, CAST(SUM(s.revenue) AS BIGINT) AS revenue, \
             CAST(SUM(s.service_charges) AS BIGINT) AS service_charges \
             FROM channel_summary s WHERE s.sale_day >= $1 AND s.sale_day <= $2 \
             GROUP BY s.business_id, s.channel HAVING SUM(s.orders) <> 0 ORDER BY s.channel",
            [first, last],
            channel_sale
        )
    }
}
