//! The run's correctness, read straight from its database after the load stops (the tables of
//! crates/store/migrations: `seat_claims` arbitrates each seat, decision 0002; a paid order's
//! seats are its `order_tickets` rows, decision 0009). Every figure here must be 0 except the
//! totals.

use std::collections::HashSet;

use serde::Serialize;
use sqlx::Connection;

#[derive(Clone, Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Checks {
    /// Seats (presentation, section, x, y) on the tickets of two or more paid orders.
    pub double_sells: i64,
    /// Presentations whose sold plus live-held places exceed the hall's capacity, or whose paid
    /// tickets do.
    pub over_capacity: i64,
    /// Tickets of paid orders whose seat claim is not sold to that order.
    pub paid_tickets_without_sold_claim: i64,
    /// Sold claims with no ticket of a paid order behind them.
    pub sold_claims_without_paid_ticket: i64,
    /// Claims on a reserved section's place that is not a seat of the hall's plan.
    pub claims_outside_plan: i64,
    /// Reservations the buyers were told were committed that are not paid orders in the
    /// database.
    pub acknowledged_orders_missing: i64,
    /// Totals (not errors): paid orders, their tickets, and sold claims.
    pub paid_orders: i64,
    pub paid_tickets: i64,
    pub sold_claims: i64,
}

impl Checks {
    pub fn failures(&self) -> i64 {
        self.double_sells
            + self.over_capacity
            + self.paid_tickets_without_sold_claim
            + self.sold_claims_without_paid_ticket
            + self.claims_outside_plan
            + self.acknowledged_orders_missing
    }
}

const DOUBLE_SELLS: &str = "SELECT COUNT(*) FROM (
    SELECT t.presentation_id, t.section_id, t.x, t.y
    FROM order_tickets t JOIN orders o ON o.id = t.order_id
    WHERE o.status = 'paid' AND t.cancelled_at IS NULL
    GROUP BY t.presentation_id, t.section_id, t.x, t.y
    HAVING COUNT(DISTINCT t.order_id) > 1) d";

fn over_capacity(now_ms: i64) -> String {
    format!(
        "SELECT COUNT(*) FROM presentations p
         WHERE (SELECT COUNT(*) FROM seat_claims c WHERE c.presentation_id = p.id
                  AND (c.state = 'sold' OR c.expires_at > {now_ms}))
               > (SELECT COALESCE(SUM(s.capacity), 0) FROM sections s WHERE s.seatplan_id = p.seatplan_id)
            OR (SELECT COUNT(*) FROM order_tickets t JOIN orders o ON o.id = t.order_id
                 WHERE t.presentation_id = p.id AND o.status = 'paid' AND t.cancelled_at IS NULL)
               > (SELECT COALESCE(SUM(s.capacity), 0) FROM sections s WHERE s.seatplan_id = p.seatplan_id)"
    )
}

const PAID_WITHOUT_CLAIM: &str =
    "SELECT COUNT(*) FROM order_tickets t JOIN orders o ON o.id = t.order_id
    WHERE o.status = 'paid' AND t.cancelled_at IS NULL AND NOT EXISTS (
        SELECT 1 FROM seat_claims c WHERE c.presentation_id = t.presentation_id
          AND c.section_id = t.section_id AND c.x = t.x AND c.y = t.y
          AND c.state = 'sold' AND c.order_id = t.order_id)";

const SOLD_WITHOUT_TICKET: &str =
    "SELECT COUNT(*) FROM seat_claims c WHERE c.state = 'sold' AND NOT EXISTS (
    SELECT 1 FROM order_tickets t JOIN orders o ON o.id = t.order_id
    WHERE o.status = 'paid' AND t.order_id = c.order_id AND t.presentation_id = c.presentation_id
      AND t.section_id = c.section_id AND t.x = c.x AND t.y = c.y)";

const OUTSIDE_PLAN: &str = "SELECT COUNT(*) FROM seat_claims c
    JOIN presentations p ON p.id = c.presentation_id
    JOIN sections s ON s.id = c.section_id
    WHERE s.kind = 'reserved' AND NOT EXISTS (
        SELECT 1 FROM seats st WHERE st.seatplan_id = p.seatplan_id
          AND st.section_id = c.section_id AND st.x = c.x AND st.y = c.y)";

const PAID_ORDERS: &str = "SELECT COUNT(*) FROM orders WHERE status = 'paid'";
const PAID_TICKETS: &str = "SELECT COUNT(*) FROM order_tickets t JOIN orders o ON o.id = t.order_id
    WHERE o.status = 'paid' AND t.cancelled_at IS NULL";
const SOLD_CLAIMS: &str = "SELECT COUNT(*) FROM seat_claims WHERE state = 'sold'";
const PAID_IDS: &str = "SELECT id FROM orders WHERE status = 'paid'";

/// Runs the checks on the run's database. `acknowledged`: the reservation ids commit answered.
pub async fn run(database_url: &str, acknowledged: &[String]) -> anyhow::Result<Checks> {
    let now_ms = jiff::Timestamp::now().as_millisecond();
    let over = over_capacity(now_ms);
    let counts: [&str; 8] = [
        DOUBLE_SELLS,
        // now_ms is an integer we formatted.
        &over,
        PAID_WITHOUT_CLAIM,
        SOLD_WITHOUT_TICKET,
        OUTSIDE_PLAN,
        PAID_ORDERS,
        PAID_TICKETS,
        SOLD_CLAIMS,
    ];
    let mut n = Vec::new();
    let paid: HashSet<String>;
    // The counts and the paid orders' ids, on either database's connection.
    macro_rules! read {
        ($c:ident) => {
            let mut $c = $c;
            for q in counts {
                n.push(
                    sqlx::query_scalar::<_, i64>(sqlx::AssertSqlSafe(q.to_owned()))
                        .fetch_one(&mut $c)
                        .await?,
                );
            }
            paid = sqlx::query_scalar::<_, String>(PAID_IDS)
                .fetch_all(&mut $c)
                .await?
                .into_iter()
                .collect();
            $c.close().await?;
        };
    }
    if database_url.starts_with("sqlite:") {
        let c = sqlx::SqliteConnection::connect(&format!("{database_url}?mode=ro")).await?;
        read!(c);
    } else {
        let c = sqlx::PgConnection::connect(database_url).await?;
        read!(c);
    }
    Ok(Checks {
        double_sells: n[0],
        over_capacity: n[1],
        paid_tickets_without_sold_claim: n[2],
        sold_claims_without_paid_ticket: n[3],
        claims_outside_plan: n[4],
        acknowledged_orders_missing: acknowledged.iter().filter(|id| !paid.contains(*id)).count()
            as i64,
        paid_orders: n[5],
        paid_tickets: n[6],
        sold_claims: n[7],
    })
}
