//! The cancellation transaction (`OrderStore::cancel`): the macro runs inside a write transaction
//! the caller opened, on either database, under the order's lock.

/// See `OrderStore::cancel`. Yields (commit?, answer): only a real cancellation commits.
macro_rules! cancel_in {
    ($tx:expr, $order_id:expr, $request:expr, $fee:expr, $cid:expr, $now:expr) => {{
        let order_id: &ReservationId = $order_id;
        let request: &CancelRequest = $request;
        let now: i64 = $now;
        match load_order!($tx, "SELECT * FROM orders WHERE id = $1", order_id) {
            None => (false, Err(CancelRefusal::NotPaid)),
            Some(order) => {
                let payment = match &order.payment_id {
                    Some(pid) => {
                        let row = sqlx::query("SELECT * FROM payments WHERE id = $1")
                            .bind(pid)
                            .fetch_optional(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                        row.as_ref().map(payment_row).transpose().map_err(db_err)?
                    }
                    None => None,
                };
                let previous = sqlx::query("SELECT * FROM refunds WHERE order_id = $1 ORDER BY created_at, id")
                    .bind(order_id)
                    .fetch_all(&mut *$tx)
                    .await
                    .map_err(db_err)?
                    .iter()
                    .map(refund_row)
                    .collect::<R<Vec<_>>>()
                    .map_err(db_err)?;
                let fee_charged: kupa_domain::money::Money = sqlx::query_scalar("SELECT cancellation_fee_charged FROM orders WHERE id = $1")
                    .bind(order_id)
                    .fetch_one(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                let facts = CancelFacts { order: &order, payment: payment.as_ref(), previous: &previous, fee_charged };
                match kupa_app::orders::plan(&facts, request, $fee, $cid, now) {
                    Err(refusal) => (false, Err(refusal)),
                    Ok(c) if c.dry_run => (false, Ok(c)),
                    Ok(mut c) => {
                        sqlx::query(
                            "INSERT INTO cancellations (id, order_id, lines, whole, value, fee, refund, created_at) \
                             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
                        )
                        .bind(&c.id)
                        .bind(order_id)
                        .bind(serde_json::to_string(&c.lines).map_err(StoreError::other)?)
                        .bind(c.whole)
                        .bind(c.value)
                        .bind(c.fee)
                        .bind(c.refund)
                        .bind(now)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                        let mut taken: Vec<&OrderTicket> = order.tickets.iter().filter(|t| c.lines.contains(&t.line)).collect();
                        // In the claims' key order, as holds, releases and finalisations take them.
                        taken.sort_by_key(|t| (t.section_id, t.y, t.x));
                        for t in &taken {
                            let n = sqlx::query(
                                "UPDATE order_tickets SET cancelled_at = $3, cancellation_id = $4 \
                                 WHERE order_id = $1 AND line = $2 AND cancelled_at IS NULL",
                            )
                            .bind(order_id)
                            .bind(t.line)
                            .bind(now)
                            .bind(&c.id)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?
                            .rows_affected();
                            if n != 1 {
                                return Err(StoreError::other("a ticket line was cancelled twice"));
                            }
                            // Back on sale at once.
                            sqlx::query(
                                "DELETE FROM seat_claims WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 \
                                 AND order_id = $5 AND state = 'sold'",
                            )
                            .bind(t.presentation_id)
                            .bind(t.section_id)
                            .bind(t.x)
                            .bind(t.y)
                            .bind(order_id)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                        }
                        summary_on_cancel!($tx, &order, &taken[..], c.whole, now);
                        // The code uses the cancelled tickets spent come back, and their reference places.
                        let mut codes: std::collections::BTreeMap<&str, i64> = std::collections::BTreeMap::new();
                        for t in taken.iter().filter(|t| !t.is_sub_ticket) {
                            if let Some(code) = t.code.as_deref() {
                                *codes.entry(code).or_default() += 1;
                            }
                        }
                        for (code, n) in &codes {
                            sqlx::query("UPDATE ticket_codes SET used_count = used_count - $2 WHERE code_key = $1 AND used_count >= $2")
                                .bind(*code)
                                .bind(*n)
                                .execute(&mut *$tx)
                                .await
                                .map_err(db_err)?;
                        }
                        for t in taken.iter().filter(|t| t.ref1.is_some()) {
                            sqlx::query(
                                "UPDATE ticket_ref_options SET quantity = quantity + 1 \
                                 WHERE ticket_id = $1 AND reference = $2 AND reference2 = $3",
                            )
                            .bind(t.ticket_id)
                            .bind(t.ref1.as_deref().unwrap_or_default())
                            .bind(t.ref2.as_deref().unwrap_or_default())
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                        }
                        for r in c.refunds.iter_mut() {
                            let (target, payment_id, code_key) = match &r.target {
                                RefundTarget::Payment { payment_id } => ("payment", Some(payment_id.clone()), None),
                                RefundTarget::Voucher { code } => ("voucher", None, Some(code.clone())),
                                RefundTarget::Credit { payment_id, code, .. } => ("credit", Some(payment_id.clone()), Some(code.clone())),
                            };
                            if let (RefundTarget::Credit { reference, code, .. }, Some(v)) = (&r.target, &request.credit) {
                                // The payment's part becomes a new value voucher of the customer, issued
                                // here as a sold one is (decision 0033), so it is redeemed like any other.
                                sqlx::query(
                                    "INSERT INTO ticket_codes (id, code, code_key, kind, ticket_id, valid_from, valid_to, usage_limit, \
                                     used_count, balance, min_tickets, card_prefix, label, label_en) \
                                     VALUES ($1, $2, $3, 'voucher', $4, $5, $6, NULL, 0, $7, 0, '', $8, $9)",
                                )
                                .bind(v.code_id).bind(reference).bind(code).bind(v.ticket_id).bind(&v.valid_from).bind(&v.valid_to)
                                .bind(r.amount).bind(&v.label).bind(&v.label_en)
                                .execute(&mut *$tx).await.map_err(db_err)?;
                                sqlx::query(
                                    "INSERT INTO system_vouchers (reference, code_key, order_id, line, class_id, customer_id, status, \
                                     is_for_replacement, created_at, updated_at, source, cancellation_id, credit) \
                                     VALUES ($1, $2, $3, 0, $4, $5, 'active', FALSE, $6, $6, 'credit', $7, $8)",
                                )
                                .bind(reference).bind(code).bind(order_id).bind(v.class_id).bind(v.customer_id).bind(now)
                                .bind(&c.id).bind(r.amount)
                                .execute(&mut *$tx).await.map_err(db_err)?;
                            }
                            if let (RefundTarget::Voucher { .. }, Some(code)) = (&r.target, &code_key) {
                                // A voucher's part goes back to its balance in this transaction.
                                let n = sqlx::query("UPDATE ticket_codes SET balance = balance + $2 WHERE code_key = $1 AND balance IS NOT NULL")
                                    .bind(code)
                                    .bind(r.amount)
                                    .execute(&mut *$tx)
                                    .await
                                    .map_err(db_err)?
                                    .rows_affected();
                                if n != 1 {
                                    return Err(StoreError::other("a voucher to refund to is gone"));
                                }
                                r.status = RefundStatus::Done;
                            }
                            sqlx::query(
                                "INSERT INTO refunds (id, cancellation_id, order_id, target, payment_id, code_key, amount, status, attempts, created_at, updated_at) \
                                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, $9, $9)",
                            )
                            .bind(&r.id)
                            .bind(&c.id)
                            .bind(order_id)
                            .bind(target)
                            .bind(&payment_id)
                            .bind(&code_key)
                            .bind(r.amount)
                            .bind(r.status.as_str())
                            .bind(now)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                            // Never more back than was paid, checked on the ledger as it now stands.
                            let (back, paid): (i64, i64) = match (&payment_id, &code_key) {
                                // Credit counts against the payment it stands in for.
                                (Some(pid), _) => (
                                    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE payment_id = $1")
                                        .bind(pid).fetch_one(&mut *$tx).await.map_err(db_err)?,
                                    sqlx::query_scalar("SELECT amount FROM payments WHERE id = $1")
                                        .bind(pid).fetch_one(&mut *$tx).await.map_err(db_err)?,
                                ),
                                (_, Some(code)) => (
                                    sqlx::query_scalar("SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) FROM refunds WHERE order_id = $1 AND code_key = $2")
                                        .bind(order_id).bind(code).fetch_one(&mut *$tx).await.map_err(db_err)?,
                                    sqlx::query_scalar("SELECT amount FROM order_vouchers WHERE order_id = $1 AND code_key = $2")
                                        .bind(order_id).bind(code).fetch_one(&mut *$tx).await.map_err(db_err)?,
                                ),
                                _ => (0, 0),
                            };
                            if back > paid {
                                return Err(StoreError::other(format!("refund {} would give back {back} of {paid} paid", r.id)));
                            }
                        }
                        // Points paid back, and what the order earned shrunk with its money.
                        points_on_cancel!($tx, &order, &taken, c.refund, now);
                        sqlx::query(
                            "UPDATE orders SET cancellation_fee_charged = cancellation_fee_charged + $2, refunded_total = refunded_total + $3, \
                             status = CASE WHEN $4 THEN 'cancelled' ELSE status END, updated_at = $5 WHERE id = $1 AND status = 'paid'",
                        )
                        .bind(order_id)
                        .bind(c.fee)
                        .bind(c.refund)
                        .bind(c.whole)
                        .bind(now)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                        (true, Ok(c))
                    }
                }
            }
        }
    }};
}
