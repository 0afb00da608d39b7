//! The reads of the sales summary (decision 0052): a day's sales by location and feature, a range
//! of presentations' sales by day of payment, one presentation's by day and ticket type.

use kupa_app::error::StoreResult;
use kupa_app::staff::summary::{DaySales, SalesCell, SalesFilter, TicketDaySales};
use kupa_domain::ids::PresentationId;

use crate::rows::Get;
use crate::{Db, db_err};

fn cell(r: &impl Get) -> Result<SalesCell, sqlx::Error> {
    Ok(SalesCell {
        business_id: r.i("business_id")?,
        location_id: r.i("location_id")?,
        location_name: r.s("location_name")?,
        location_name_en: r.s("location_name_en")?,
        feature_id: r.i("feature_id")?,
        feature_name: r.s("feature_name")?,
        feature_name_en: r.s("feature_name_en")?,
        tickets: r.i("tickets")?,
        revenue: r.m("revenue")?,
        service_charges: r.m("service_charges")?,
        orders: r.i("orders")?,
    })
}

fn day(r: &impl Get) -> Result<DaySales, sqlx::Error> {
    Ok(DaySales {
        day: r.s("sale_day")?,
        tickets: r.i("tickets")?,
        revenue: r.m("revenue")?,
    })
}

fn ticket_day(r: &impl Get) -> Result<TicketDaySales, sqlx::Error> {
    Ok(TicketDaySales {
        day: r.s("sale_day")?,
        ticket_id: r.i("ticket_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        tickets: r.i("tickets")?,
        revenue: r.m("revenue")?,
    })
}

pub(super) async fn day_sales(db: &Db, first: &str, last: &str) -> StoreResult<Vec<SalesCell>> {
    fetch_all!(
        db,
        "SELECT p.business_id, l.id AS location_id, l.name AS location_name, l.name_en AS location_name_en, \
         f.id AS feature_id, f.name AS feature_name, f.name_en AS feature_name_en, \
         CAST(SUM(s.tickets) AS BIGINT) AS tickets, CAST(SUM(s.revenue) AS BIGINT) AS revenue, \
         CAST(SUM(s.service_charges) AS BIGINT) AS service_charges, CAST(SUM(s.orders) AS BIGINT) AS orders \
         FROM sales_summary s JOIN presentations p ON p.id = s.presentation_id JOIN venues v ON v.id = p.venue_id \
         JOIN locations l ON l.id = v.location_id JOIN features f ON f.id = p.feature_id \
         WHERE s.sale_day >= $1 AND s.sale_day <= $2 \
         GROUP BY p.business_id, l.id, l.name, l.name_en, f.id, f.name, f.name_en HAVING SUM(s.tickets) > 0 \
         ORDER BY l.id, f.id",
        [first, last],
        cell
    )
}

/// ` AND <column> IN (…)` of integers (written into the SQL: they are numbers, nothing else).
fn among<T: std::fmt::Display>(column: &str, ids: &[T]) -> String {
    let list: Vec<String> = ids.iter().map(T::to_string).collect();
    format!(
        " AND {column} IN ({})",
        if list.is_empty() {
            "NULL".into()
        } else {
            list.join(",")
        }
    )
}

pub(super) async fn sales_by_day(
    db: &Db,
    from_ms: i64,
    to_ms: i64,
    filter: &SalesFilter,
) -> StoreResult<Vec<DaySales>> {
    let mut sql = String::from(
        "SELECT s.sale_day, CAST(SUM(s.tickets) AS BIGINT) AS tickets, CAST(SUM(s.revenue) AS BIGINT) AS revenue \
         FROM presentations p JOIN venues v ON v.id = p.venue_id JOIN sales_summary s ON s.presentation_id = p.id \
         WHERE p.starts_at >= $1 AND p.starts_at < $2 AND v.venue_type_id < 101",
    );
    sql.push_str(&among("p.business_id", &filter.business_ids));
    if let Some(f) = filter.feature_id {
        sql.push_str(&format!(" AND p.feature_id = {f}"));
    }
    if let Some(l) = filter.location_id {
        sql.push_str(&format!(" AND v.location_id = {l}"));
    }
    if !filter.presentation_ids.is_empty() {
        sql.push_str(&among("p.id", &filter.presentation_ids));
    }
    sql.push_str(" GROUP BY s.sale_day HAVING SUM(s.tickets) > 0 ORDER BY s.sale_day");
    crate::on_pool!(db, |p| {
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql.clone()))
            .bind(from_ms)
            .bind(to_ms)
            .fetch_all(p)
            .await
            .map_err(db_err)?;
        rows.iter()
            .map(day)
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_err)
    })
}

pub(super) async fn presentation_cells(
    db: &Db,
    presentation_id: PresentationId,
) -> StoreResult<Vec<TicketDaySales>> {
    fetch_all!(
        db,
        "SELECT s.sale_day, s.ticket_id, COALESCE(tk.name, '') AS name, COALESCE(tk.name_en, '') AS name_en, \
         s.tickets, s.revenue FROM sales_summary s LEFT JOIN tickets tk ON tk.id = s.ticket_id \
         WHERE s.presentation_id = $1 ORDER BY s.sale_day, s.ticket_id",
        [presentation_id],
        ticket_day
    )
}
