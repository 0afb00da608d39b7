//! What an order spends beyond its seats, kept right in its own transactions (decision 0036):
//! a voucher's balance and a member's points are reserved by the live pending orders that use
//! them, spent by the finalisation, given back by a cancellation. The macros run inside a write
//! transaction the caller opened, on either database.

/// The SQL condition that a pending order `o` can still be paid: its seats are held for it (or,
/// for an unpaid hold order, its hold has not ended). An order whose holds expired can never be
/// paid, so what it reserved is free again without anyone writing a thing. `$3` is now.
macro_rules! live_pending {
    () => {
        concat!("o.status = 'pending' AND (\
         (o.hold_until IS NOT NULL AND o.hold_until > $3) OR EXISTS (\
         SELECT 1 FROM order_tickets lt JOIN seat_claims c ON c.presentation_id = lt.presentation_id \
         AND c.section_id = lt.section_id AND c.x = lt.x AND c.y = lt.y \
         WHERE lt.order_id = o.id AND c.state = 'held' AND ", live_hold!("c", "$3"), " \
         AND (c.session_id = o.session_id OR c.session_id = 'hold:' || o.id)))")
    };
}

/// The live pending orders other than the one asking (`$2`, its id).
pub(super) const LIVE_OTHER_PENDING: &str = concat!(live_pending!(), " AND o.id <> $2");

/// The live pending orders of other sessions than the one asking (`$2`, its session): its own
/// pending cart is replaced by the cart it prices.
pub(super) const LIVE_OTHER_SESSIONS: &str = concat!(live_pending!(), " AND o.session_id <> $2");

/// The member's column that holds a purse, and the order line's column of what a line takes.
pub(super) fn purse_columns(purse: kupa_app::orders::Purse) -> (&'static str, &'static str) {
    match purse {
        kupa_app::orders::Purse::Points => ("points_balance", "points"),
        kupa_app::orders::Purse::PassBalance => ("balance", "member_balance"),
    }
}

/// After a cart's order was written: every voucher balance and member's purse it spends must
/// still be free of the other live pending orders. Each is locked first (a no-op update takes
/// PostgreSQL's row lock; SQLite's write transaction is serial already), in code then member
/// order, so two carts racing for the last of a balance take turns and the second sees the
/// first. Yields None when all is free, else the first [`Shortfall`].
macro_rules! reserve_spendings {
    ($tx:expr, $order:expr, $now:expr) => {{
        let order: &Order = $order;
        let mut short: Option<Shortfall> = None;
        let mut vouchers: Vec<&OrderVoucher> = order.vouchers.iter().collect();
        vouchers.sort_by(|a, b| a.code.cmp(&b.code));
        for v in vouchers {
            sqlx::query("UPDATE ticket_codes SET balance = balance WHERE code_key = $1")
                .bind(&v.code)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
            let balance: Option<i64> = sqlx::query_scalar("SELECT balance FROM ticket_codes WHERE code_key = $1")
                .bind(&v.code)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(db_err)?
                .flatten();
            let reserved: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                "SELECT CAST(COALESCE(SUM(v.amount), 0) AS BIGINT) FROM order_vouchers v JOIN orders o ON o.id = v.order_id \
                 WHERE v.code_key = $1 AND {}",
                LIVE_OTHER_PENDING
            )))
            .bind(&v.code)
            .bind(&order.id)
            .bind($now)
            .fetch_one(&mut *$tx)
            .await
            .map_err(db_err)?;
            if balance.unwrap_or(0) - reserved < v.amount.minor() {
                short = Some(Shortfall::VoucherBalance { code: v.code.clone() });
                break;
            }
        }
        'purses: for purse in Purse::ALL {
            if short.is_some() {
                break;
            }
            let (held, line) = purse_columns(purse);
            for (member, amount) in spent_from(purse, &order.tickets) {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "UPDATE members SET {held} = {held} WHERE member_number = $1"
                )))
                .bind(&member)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
                let balance: Option<i64> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT {held} FROM members WHERE member_number = $1"
                )))
                .bind(&member)
                .fetch_optional(&mut *$tx)
                .await
                .map_err(db_err)?;
                let reserved: i64 = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
                    "SELECT CAST(COALESCE(SUM(t.{line}), 0) AS BIGINT) FROM order_tickets t JOIN orders o ON o.id = t.order_id \
                     WHERE t.member_number = $1 AND t.{line} > 0 AND {}",
                    LIVE_OTHER_PENDING
                )))
                .bind(&member)
                .bind(&order.id)
                .bind($now)
                .fetch_one(&mut *$tx)
                .await
                .map_err(db_err)?;
                if balance.unwrap_or(0) - reserved < amount {
                    short = Some(purse.shortfall(member));
                    break 'purses;
                }
            }
        }
        short
    }};
}

/// In the finalisation, after the vouchers: each member's points tickets come off their points
/// and pass tickets off their pass's balance, never below zero. Yields false when a member's
/// points or balance ran out (nothing may be written then).
macro_rules! spend_from_members {
    ($tx:expr, $order:expr) => {{
        let order: &Order = $order;
        let mut spent = true;
        'purses: for purse in Purse::ALL {
            let (held, _) = purse_columns(purse);
            for (member, amount) in spent_from(purse, &order.tickets) {
                let done = sqlx::query(sqlx::AssertSqlSafe(format!(
                    "UPDATE members SET {held} = {held} - $2 WHERE member_number = $1 AND {held} >= $2"
                )))
                .bind(&member)
                .bind(amount)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?
                .rows_affected();
                if done != 1 {
                    spent = false;
                    break 'purses;
                }
            }
        }
        spent
    }};
}

/// In the finalisation, once the order is paid: its member earns what it earns.
macro_rules! earn_points {
    ($tx:expr, $order:expr) => {{
        let order: &Order = $order;
        if let Some(member) = order.points_member.as_deref()
            && order.points_earned > 0
        {
            sqlx::query(
                "UPDATE members SET points_balance = points_balance + $2 WHERE member_number = $1",
            )
            .bind(member)
            .bind(order.points_earned)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        }
    }};
}

/// In a cancellation, once its refunds are written: the points and pass balance the cancelled
/// lines were paid with go back to their members, and the order keeps of what it earned only the share of the money
/// it still keeps (taken back from the member, never below zero).
macro_rules! points_on_cancel {
    ($tx:expr, $order:expr, $taken:expr, $refund:expr, $now:expr) => {{
        let order: &Order = $order;
        for purse in Purse::ALL {
            let (held, _) = purse_columns(purse);
            for (member, amount) in spent_from(purse, $taken.iter().copied()) {
                sqlx::query(sqlx::AssertSqlSafe(format!(
                    "UPDATE members SET {held} = {held} + $2 WHERE member_number = $1"
                )))
                .bind(&member)
                .bind(amount)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
            }
        }
        if let Some(member) = order.points_member.as_deref()
            && order.points_earned > 0
        {
            let (earned, refunded_before): (i64, kupa_domain::money::Money) = {
                let row = sqlx::query("SELECT points_earned, refunded_total FROM orders WHERE id = $1")
                    .bind(&order.id)
                    .fetch_one(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                (row.i("points_earned").map_err(db_err)?, row.m("refunded_total").map_err(db_err)?)
            };
            let kept = points_kept(earned, order.total, refunded_before, refunded_before + $refund);
            if kept < earned {
                sqlx::query(
                    "UPDATE members SET points_balance = CASE WHEN points_balance > $2 THEN points_balance - $2 ELSE 0 END \
                     WHERE member_number = $1",
                )
                .bind(member)
                .bind(earned - kept)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
                sqlx::query("UPDATE orders SET points_earned = $2, updated_at = $3 WHERE id = $1")
                    .bind(&order.id)
                    .bind(kept)
                    .bind($now)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
            }
        }
    }};
}
