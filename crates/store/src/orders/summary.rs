//! The sales summary's writes (decision 0052): the finalisation adds a paid order's cells, a
//! cancellation takes its lines' away, both inside their own transaction; and the table is filled
//! from the orders already paid when the store starts without it.

use kupa_app::error::{StoreError, StoreResult};
use kupa_app::orders::OrderTicket;
use kupa_app::staff::summary::{SaleLine, SummaryDelta, cells};

use crate::rows::Get;
use crate::{BeginWrite, Db, db_err};

pub(crate) fn sale_line(t: &OrderTicket) -> SaleLine {
    SaleLine {
        line: t.line,
        presentation_id: t.presentation_id,
        ticket_id: t.ticket_id,
        price: t.price,
        service_charge: t.service_charge,
    }
}

/// Adds each delta to its cell.
macro_rules! summary_apply {
    ($tx:expr, $deltas:expr) => {{
        let deltas: &[kupa_app::staff::summary::SummaryDelta] = $deltas;
        for d in deltas {
            sqlx::query(
                "INSERT INTO sales_summary (presentation_id, sale_day, ticket_id, tickets, revenue, service_charges, orders) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (presentation_id, sale_day, ticket_id) DO UPDATE SET \
                 tickets = sales_summary.tickets + excluded.tickets, revenue = sales_summary.revenue + excluded.revenue, \
                 service_charges = sales_summary.service_charges + excluded.service_charges, \
                 orders = sales_summary.orders + excluded.orders",
            )
            .bind(d.presentation_id)
            .bind(&d.sale_day)
            .bind(d.ticket_id)
            .bind(d.tickets)
            .bind(d.revenue)
            .bind(d.service_charges)
            .bind(d.orders)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        }
    }};
}

/// In the finalisation, once the order is paid at `$now`: its lines' cells.
macro_rules! summary_on_sale {
    ($tx:expr, $order:expr, $now:expr) => {{
        let order: &Order = $order;
        let lines: Vec<kupa_app::staff::summary::SaleLine> = order
            .tickets
            .iter()
            .filter(|t| t.cancelled_at_ms.is_none())
            .map(crate::orders::summary::sale_line)
            .collect();
        summary_apply!(
            $tx,
            &kupa_app::staff::summary::cells(&lines, &lines, &[], $now, 1)
        );
    }};
}

/// In a cancellation, once its lines are marked: what they had added comes off, on the day the
/// order was paid.
macro_rules! summary_on_cancel {
    ($tx:expr, $order:expr, $taken:expr, $now:expr) => {{
        let order: &Order = $order;
        let taken: &[&OrderTicket] = $taken;
        let all: Vec<kupa_app::staff::summary::SaleLine> = order
            .tickets
            .iter()
            .map(crate::orders::summary::sale_line)
            .collect();
        let counted: Vec<kupa_app::staff::summary::SaleLine> = taken
            .iter()
            .map(|t| crate::orders::summary::sale_line(t))
            .collect();
        let remaining: Vec<kupa_app::staff::summary::SaleLine> = order
            .tickets
            .iter()
            .filter(|t| t.cancelled_at_ms.is_none() && !taken.iter().any(|x| x.line == t.line))
            .map(crate::orders::summary::sale_line)
            .collect();
        let paid_at = order.paid_at_ms.unwrap_or($now);
        summary_apply!(
            $tx,
            &kupa_app::staff::summary::cells(&all, &counted, &remaining, paid_at, -1)
        );
    }};
}

/// A paid order's line as the rebuild reads it.
struct PaidLine {
    order_id: String,
    paid_at: i64,
    line: SaleLine,
    cancelled: bool,
}

fn paid_line(r: &impl Get) -> Result<PaidLine, sqlx::Error> {
    Ok(PaidLine {
        order_id: r.s("order_id")?,
        paid_at: r.oi("paid_at")?.unwrap_or_default(),
        line: SaleLine {
            line: r.i("line")?,
            presentation_id: r.i("presentation_id")?,
            ticket_id: r.i("ticket_id")?,
            price: r.i("price")?,
            service_charge: r.i("service_charge")?,
        },
        cancelled: r.oi("cancelled_at")?.is_some(),
    })
}

/// Adds every order's cells of `lines` (whole orders, in order id and line order) to `out`.
fn sum_into(
    out: &mut std::collections::BTreeMap<(i64, String, i64), SummaryDelta>,
    lines: &[PaidLine],
) {
    for order in lines.chunk_by(|a, b| a.order_id == b.order_id) {
        let all: Vec<SaleLine> = order.iter().map(|l| l.line).collect();
        let kept: Vec<SaleLine> = order
            .iter()
            .filter(|l| !l.cancelled)
            .map(|l| l.line)
            .collect();
        for d in cells(&all, &kept, &[], order[0].paid_at, 1) {
            let c = out
                .entry((d.presentation_id, d.sale_day.clone(), d.ticket_id))
                .or_insert(SummaryDelta {
                    tickets: 0,
                    revenue: 0,
                    service_charges: 0,
                    orders: 0,
                    ..d.clone()
                });
            c.tickets += d.tickets;
            c.revenue += d.revenue;
            c.service_charges += d.service_charges;
            c.orders += d.orders;
        }
    }
}

/// Paid orders' lines after an order id, a page at a time (whole orders only).
const PAID_LINES: &str = "SELECT t.order_id, o.paid_at, t.line, t.presentation_id, t.ticket_id, t.price, t.service_charge, \
     t.cancelled_at FROM order_tickets t JOIN orders o ON o.id = t.order_id \
     WHERE t.order_id > $1 AND o.paid_at IS NOT NULL ORDER BY t.order_id, t.line LIMIT $2";
const PAGE: i64 = 50_000;

/// Writes the summary from every paid order, replacing what it held. Run when the store starts
/// with an empty summary and orders already paid (a database from before the summary, or sales
/// written in bulk), under the write lock so two nodes starting at once fill it once.
pub async fn rebuild_sales_summary(db: &Db) -> StoreResult<usize> {
    let postgres = matches!(db.pool, crate::Pool::Postgres(_));
    crate::on_pool!(db, |p| {
        let mut tx = p.begin_write().await.map_err(db_err)?;
        if postgres {
            sqlx::query("LOCK TABLE sales_summary IN EXCLUSIVE MODE")
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
        }
        let mut sums = std::collections::BTreeMap::new();
        let mut after = String::new();
        loop {
            let rows = sqlx::query(PAID_LINES)
                .bind(&after)
                .bind(PAGE)
                .fetch_all(&mut *tx)
                .await
                .map_err(db_err)?;
            let mut lines = rows
                .iter()
                .map(paid_line)
                .collect::<Result<Vec<_>, _>>()
                .map_err(db_err)?;
            let full = rows.len() as i64 == PAGE;
            drop(rows);
            if full {
                // The page's last order may go on in the next page: it is read whole there.
                let last = lines.last().map(|l| l.order_id.clone()).unwrap_or_default();
                lines.retain(|l| l.order_id != last);
                if lines.is_empty() {
                    return Err(StoreError::other("an order with more lines than a page"));
                }
            }
            sum_into(&mut sums, &lines);
            match lines.last() {
                Some(l) if full => after = l.order_id.clone(),
                _ => break,
            }
        }
        let deltas: Vec<SummaryDelta> = sums.into_values().collect();
        sqlx::query("DELETE FROM sales_summary")
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        for chunk in deltas.chunks(1000) {
            let mut q = sqlx::QueryBuilder::new(
                "INSERT INTO sales_summary (presentation_id, sale_day, ticket_id, tickets, revenue, service_charges, orders) ",
            );
            q.push_values(chunk, |mut b, d| {
                b.push_bind(d.presentation_id)
                    .push_bind(d.sale_day.clone())
                    .push_bind(d.ticket_id)
                    .push_bind(d.tickets)
                    .push_bind(d.revenue)
                    .push_bind(d.service_charges)
                    .push_bind(d.orders);
            });
            q.build().execute(&mut *tx).await.map_err(db_err)?;
        }
        tx.commit().await.map_err(db_err)?;
        Ok::<usize, StoreError>(deltas.len())
    })
}

/// Fills the summary when it is empty and some order was paid.
pub(crate) async fn ensure_sales_summary(db: &Db) -> StoreResult<()> {
    let (has_summary, has_sales): (bool, bool) = crate::on_pool!(db, |p| {
        let s: Option<i64> =
            sqlx::query_scalar("SELECT CAST(1 AS BIGINT) FROM sales_summary LIMIT 1")
                .fetch_optional(p)
                .await
                .map_err(db_err)?;
        let o: Option<i64> = sqlx::query_scalar(
            "SELECT CAST(1 AS BIGINT) FROM order_tickets t JOIN orders o ON o.id = t.order_id WHERE o.paid_at IS NOT NULL LIMIT 1",
        )
        .fetch_optional(p)
        .await
        .map_err(db_err)?;
        Ok::<(bool, bool), StoreError>((s.is_some(), o.is_some()))
    })?;
    if !has_summary && has_sales {
        let cells = rebuild_sales_summary(db).await?;
        tracing::info!(cells, "sales summary filled from the orders already paid");
    }
    Ok(())
}
