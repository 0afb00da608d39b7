//! The vouchers sold (issue 14): whose they are and what is left of them (their codes), what they
//! paid for, and their replacement.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::vouchers::{SoldVoucher, VoucherCancel, VoucherEvent, VoucherStore};
use kupa_domain::money::Money;

use crate::rows::Get;
use crate::{Db, db_err};

/// A sold voucher has its order line; a credit voucher (decision 0034) has none: its name is its
/// code's label, its value the credit, and nothing was paid for it.
const SOLD: &str = "SELECT sv.reference, sv.code_key, sv.order_id, o.reservation_number, o.session_id, sv.customer_id, \
     sv.class_id, COALESCE(l.name, c.label) AS name, COALESCE(l.name_en, c.label_en) AS name_en, \
     CAST(COALESCE(l.price, 0) AS BIGINT) AS price, COALESCE(l.value, sv.credit) AS value, l.benefit_tickets, \
     c.balance, c.used_count, c.valid_from, c.valid_to, sv.status, sv.is_for_replacement, sv.source, \
     sv.created_at, sv.updated_at \
     FROM system_vouchers sv JOIN orders o ON o.id = sv.order_id \
     LEFT JOIN order_system_vouchers l ON sv.source = 'sale' AND l.order_id = sv.order_id AND l.line = sv.line \
     JOIN ticket_codes c ON c.code_key = sv.code_key";

fn sold(r: &impl Get) -> Result<SoldVoucher, sqlx::Error> {
    Ok(SoldVoucher {
        reference: r.s("reference")?,
        code_key: r.s("code_key")?,
        order_id: r.rid("order_id")?,
        reservation_number: r.s("reservation_number")?,
        session_id: r.sid("session_id")?,
        customer_id: r.oi("customer_id")?,
        class_id: r.i("class_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.m("price")?,
        value: r.om("value")?,
        balance: r.om("balance")?,
        benefit_tickets: r.oi("benefit_tickets")?,
        used_count: r.i("used_count")?,
        valid_from: r.os("valid_from")?.unwrap_or_default(),
        valid_to: r.os("valid_to")?.unwrap_or_default(),
        stored_status: r.s("status")?,
        is_for_replacement: r.b("is_for_replacement")?,
        is_credit: r.s("source")? == "credit",
        created_at_ms: r.i("created_at")?,
        updated_at_ms: r.i("updated_at")?,
    })
}

fn redemption(r: &impl Get, by_tickets: bool) -> Result<(i64, VoucherEvent), sqlx::Error> {
    let at = r.i("paid_at")?;
    let n = r.i("n")?;
    Ok((
        at,
        VoucherEvent {
            kind: "redeemed".into(),
            at: kupa_domain::time::ms_to_rfc3339(at),
            amount: (!by_tickets).then_some(Money(n)),
            tickets: by_tickets.then_some(n),
            reservation_number: Some(r.s("reservation_number")?),
        },
    ))
}

/// The voucher's cancellation, inside the caller's transaction `$tx`; yields whether it was done.
macro_rules! cancel_voucher_in {
    ($tx:expr, $c:expr) => {{
        let c: &VoucherCancel<'_> = $c;
        let v = c.voucher;
        // Nothing of it used: its code is emptied (no balance, no uses left) only if untouched.
        let emptied = sqlx::query(
            "UPDATE ticket_codes SET balance = CASE WHEN balance IS NULL THEN NULL ELSE 0 END, \
             usage_limit = CASE WHEN usage_limit IS NULL THEN NULL ELSE used_count END \
             WHERE code_key = $1 AND used_count = 0 AND (balance IS NULL OR balance = $2)",
        )
        .bind(&v.code_key)
        .bind(v.value.unwrap_or(Money::ZERO))
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?
        .rows_affected()
            == 1;
        let cancelled = emptied
            && sqlx::query(
                "UPDATE system_vouchers SET status = 'cancelled', updated_at = $2 \
                 WHERE reference = $1 AND status = 'active' AND is_for_replacement = FALSE",
            )
            .bind(&v.reference)
            .bind(c.now_ms)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1;
        let refunded_before: Money = sqlx::query_scalar(
            "SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE payment_id = $1",
        )
        .bind(c.payment_id)
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_err)?;
        if cancelled && refunded_before + v.price <= c.payment_amount {
            sqlx::query(
                "INSERT INTO cancellations (id, order_id, lines, whole, value, fee, refund, created_at) \
                 VALUES ($1, $2, '[]', $5, $3, 0, $3, $4)",
            )
            .bind(c.cancellation_id)
            .bind(&v.order_id)
            .bind(v.price)
            .bind(c.now_ms)
            .bind(false)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO refunds (id, cancellation_id, order_id, target, payment_id, code_key, amount, status, \
                 attempts, created_at, updated_at) VALUES ($1, $2, $3, 'payment', $4, NULL, $5, 'pending', 0, $6, $6)",
            )
            .bind(format!("{}:payment", c.cancellation_id))
            .bind(c.cancellation_id)
            .bind(&v.order_id)
            .bind(c.payment_id)
            .bind(v.price)
            .bind(c.now_ms)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
            true
        } else {
            false
        }
    }};
}

#[async_trait]
impl VoucherStore for Db {
    async fn customer_vouchers(&self, customer_id: i64) -> StoreResult<Vec<SoldVoucher>> {
        fetch_all!(
            self,
            sqlx::AssertSqlSafe(format!(
                "{SOLD} WHERE sv.customer_id = $1 ORDER BY sv.created_at DESC, sv.reference"
            )),
            [customer_id],
            sold
        )
    }

    async fn sold_voucher(&self, reference: &str) -> StoreResult<Option<SoldVoucher>> {
        crate::on_pool!(self, |p| {
            let row = sqlx::query(sqlx::AssertSqlSafe(format!(
                "{SOLD} WHERE sv.reference = $1"
            )))
            .bind(reference)
            .fetch_optional(p)
            .await
            .map_err(db_err)?;
            row.as_ref().map(sold).transpose().map_err(db_err)
        })
    }

    async fn redemptions(&self, code_key: &str) -> StoreResult<Vec<VoucherEvent>> {
        let mut events = crate::on_pool!(self, |p| {
            let paid = sqlx::query(
                "SELECT o.reservation_number, o.paid_at, v.amount AS n FROM order_vouchers v \
                 JOIN orders o ON o.id = v.order_id WHERE v.code_key = $1 AND o.paid_at IS NOT NULL",
            )
            .bind(code_key)
            .fetch_all(p)
            .await
            .map_err(db_err)?;
            let tickets = sqlx::query(
                "SELECT o.reservation_number, o.paid_at, COUNT(*) AS n FROM order_tickets t \
                 JOIN orders o ON o.id = t.order_id \
                 WHERE t.code = $1 AND o.paid_at IS NOT NULL AND t.cancelled_at IS NULL AND NOT t.is_sub_ticket \
                 GROUP BY o.reservation_number, o.paid_at",
            )
            .bind(code_key)
            .fetch_all(p)
            .await
            .map_err(db_err)?;
            let mut events = Vec::new();
            for r in &paid {
                events.push(redemption(r, false).map_err(db_err)?);
            }
            for r in &tickets {
                events.push(redemption(r, true).map_err(db_err)?);
            }
            events
        });
        events.sort_by_key(|(at, _)| *at);
        Ok(events.into_iter().map(|(_, e)| e).collect())
    }

    async fn cancel_voucher(&self, cancel: &VoucherCancel<'_>) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
            let done = cancel_voucher_in!(tx, cancel);
            if done {
                tx.commit().await.map_err(db_err)?;
            } else {
                tx.rollback().await.map_err(db_err)?;
            }
            Ok(done)
        })
    }

    async fn mark_for_replacement(
        &self,
        reference: &str,
        valid_to: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
            let marked = sqlx::query(
                "UPDATE system_vouchers SET is_for_replacement = TRUE, updated_at = $2 \
                 WHERE reference = $1 AND status = 'active' AND is_for_replacement = FALSE",
            )
            .bind(reference)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1;
            if marked {
                sqlx::query(
                    "UPDATE ticket_codes SET valid_to = $2 \
                     WHERE code_key = (SELECT code_key FROM system_vouchers WHERE reference = $1)",
                )
                .bind(reference)
                .bind(valid_to)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            Ok(marked)
        })
    }
}
