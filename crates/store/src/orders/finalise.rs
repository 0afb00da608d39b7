//! The one finalisation transaction (`OrderStore::finalise`) and the payment's own updates: the
//! macros run inside a write transaction the caller opened, on either database.

/// The finalisation: see `OrderStore::finalise`. Returns the outcome; the caller commits only on `Paid`.
macro_rules! finalise_in {
    ($tx:expr, $payment_id:expr, $now:expr) => {{
        let payment = sqlx::query("SELECT * FROM payments WHERE id = $1").bind($payment_id).fetch_optional(&mut *$tx).await.map_err(db_err)?;
        let payment = match payment {
            None => return Err(StoreError::NotFound(format!("payment {}", $payment_id))),
            Some(row) => payment_row(&row).map_err(db_err)?,
        };
        let order = load_order!($tx, "SELECT * FROM orders WHERE id = $1", &payment.order_id).ok_or_else(|| StoreError::NotFound(format!("order {} of a payment", payment.order_id)))?;
        // The decision is the app's; the store carries it out.
        if let Some(outcome) = kupa_app::orders::finalisation_outcome(&payment, &order) {
            (false, outcome)
        } else {
            let mut all_held = true;
            // In the claims' key order, as holds and releases take them: no deadlock with an unlock.
            let mut in_key_order: Vec<&OrderTicket> = order.tickets.iter().collect();
            in_key_order.sort_by_key(|t| (t.presentation_id, t.section_id, t.y, t.x));
            for t in in_key_order {
                let n = sqlx::query(
                    concat!("UPDATE seat_claims SET state = 'sold', order_id = $6, updated_at = $7 \
                     WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 AND session_id = $5 \
                     AND state = 'held' AND ", live_hold!("$7")),
                )
                .bind(t.presentation_id)
                .bind(t.section_id)
                .bind(t.x)
                .bind(t.y)
                .bind(&order.session_id)
                .bind(&order.id)
                .bind($now)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?
                .rows_affected();
                if n != 1 {
                    all_held = false;
                    break;
                }
            }
            // What the order used is spent in the same transaction: each code's uses (never past
            // its limit), and one place of each reference option with a quantity (hotel rooms).
            let mut spent = all_held;
            let mut codes: std::collections::BTreeMap<&str, i64> = std::collections::BTreeMap::new();
            for t in order.tickets.iter().filter(|t| !t.is_sub_ticket) {
                if let Some(c) = t.code.as_deref() {
                    *codes.entry(c).or_default() += 1;
                }
            }
            for (code, n) in &codes {
                if !spent {
                    break;
                }
                let done = sqlx::query(
                    "UPDATE ticket_codes SET used_count = used_count + $2 \
                     WHERE code_key = $1 AND (usage_limit IS NULL OR used_count + $2 <= usage_limit)",
                )
                .bind(*code)
                .bind(*n)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?
                .rows_affected();
                spent = done == 1;
            }
            for t in order.tickets.iter().filter(|t| t.ref1.is_some()) {
                if !spent {
                    break;
                }
                let limited: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM ticket_ref_options WHERE ticket_id = $1")
                    .bind(t.ticket_id)
                    .fetch_one(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                if limited > 0 {
                    let done = sqlx::query(
                        "UPDATE ticket_ref_options SET quantity = quantity - 1 \
                         WHERE ticket_id = $1 AND reference = $2 AND reference2 = $3 AND quantity > 0",
                    )
                    .bind(t.ticket_id)
                    .bind(t.ref1.as_deref().unwrap_or_default())
                    .bind(t.ref2.as_deref().unwrap_or_default())
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?
                    .rows_affected();
                    spent = done == 1;
                }
            }
            // Each voucher's amount comes off its balance, never below zero.
            for v in &order.vouchers {
                if !spent {
                    break;
                }
                let done = sqlx::query("UPDATE ticket_codes SET balance = balance - $2 WHERE code_key = $1 AND balance >= $2")
                    .bind(&v.code)
                    .bind(v.amount)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?
                    .rows_affected();
                spent = done == 1;
            }
            // Each member's points tickets come off their points, pass tickets off their pass.
            if spent {
                spent = spend_from_members!($tx, &order);
            }
            if !all_held {
                (false, Finalised::HoldsLost)
            } else if !spent {
                (false, Finalised::CodeUsedUp)
            } else {
                let paid_now = sqlx::query("UPDATE orders SET status = 'paid', payment_id = $2, paid_at = $3, updated_at = $3 WHERE id = $1 AND status = 'pending'")
                    .bind(&order.id)
                    .bind(&payment.id)
                    .bind($now)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?
                    .rows_affected();
                if paid_now != 1 {
                    // The order stopped being pending meanwhile (a new cart replaced it): nothing is written.
                    (false, Finalised::HoldsLost)
                } else {
                    sqlx::query("UPDATE payments SET status = 'captured', updated_at = $2 WHERE id = $1")
                        .bind(&payment.id)
                        .bind($now)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                    // The checkout this order paid for is over: the session's next seat starts
                    // a checkout of its own, with fresh timers, not the spent payment window.
                    for presentation_id in &order.presentations {
                        sqlx::query("DELETE FROM checkout_steps WHERE session_id = $1 AND presentation_id = $2")
                            .bind(&order.session_id)
                            .bind(presentation_id)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                    }
                    // What a voucher order sold is issued with the sale, or not at all.
                    issue_vouchers!($tx, &order, $now);
                    issue_members!($tx, &order, $now);
                    earn_points!($tx, &order);
                    summary_on_sale!($tx, &order, $now);
                    let paid = load_order!($tx, "SELECT * FROM orders WHERE id = $1", &order.id).ok_or_else(|| StoreError::other("order vanished"))?;
                    // The confirmation to make, with the sale or not at all (decision 0061): a
                    // worker makes its PDF and mail after the buyer has the answer.
                    if let Some(c) = kupa_app::orders::confirmation_to_make(&paid) {
                        sqlx::query(
                            "INSERT INTO confirmation_jobs (order_id, lang, what, max_attempts, next_attempt_at, created_at) \
                             VALUES ($1, $2, $3, $4, $5, $5)",
                        )
                        .bind(&paid.id)
                        .bind(c.lang)
                        .bind(c.kind.as_str())
                        .bind(c.max_attempts)
                        .bind($now)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?;
                    }
                    (true, Finalised::Paid(paid))
                }
            }
        }
    }};
}

macro_rules! update_payment_in {
    ($tx:expr, $id:expr, $u:expr, $now:expr) => {{
        let u: &PaymentUpdate = $u;
        let row = sqlx::query("SELECT * FROM payments WHERE id = $1").bind($id).fetch_optional(&mut *$tx).await.map_err(db_err)?;
        match row {
            None => None,
            Some(row) => {
                let before = payment_row(&row).map_err(db_err)?;
                // Where the word may move the payment is the app's decision (forward only; a late
                // authorization is voided); the store carries it out under the payment's lock.
                let step = kupa_app::orders::payment_move(before.status, u.status);
                let moved = match step {
                    PaymentMove::To(status) => Some((status, u.failure_code.clone(), u.decline_reason)),
                    PaymentMove::VoidLate => Some((PaymentStatus::Refunded, Some(payment_codes::LATE_AUTHORIZATION.to_owned()), None)),
                    PaymentMove::Stay => None,
                };
                if let Some((status, failure_code, decline_reason)) = moved {
                    sqlx::query(
                        "UPDATE payments SET status = $2, card_brand = COALESCE($3, card_brand), card_last4 = COALESCE($4, card_last4), \
                         card_bin = COALESCE($5, card_bin), failure_code = COALESCE($6, failure_code), \
                         decline_reason = COALESCE($8, decline_reason), updated_at = $7 WHERE id = $1",
                    )
                    .bind($id)
                    .bind(status.as_str())
                    .bind(&u.card_brand)
                    .bind(&u.card_last4)
                    .bind(&u.card_bin)
                    .bind(failure_code)
                    .bind($now)
                    .bind(decline_reason.map(|r| r.as_str()))
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                }
                // Every word is kept in the payment's log, also one that changed nothing.
                let mut events = vec![(u.status.as_str().to_owned(), u.note.clone())];
                if step == PaymentMove::VoidLate {
                    events.push(("refunded".to_owned(), format!("refunded: {}", payment_codes::LATE_AUTHORIZATION)));
                }
                for (kind, detail) in events {
                    sqlx::query(
                        "INSERT INTO payment_events (payment_id, seq, kind, detail, created_at) \
                         VALUES ($1, (SELECT COALESCE(MAX(seq), 0) + 1 FROM payment_events WHERE payment_id = $1), $2, $3, $4)",
                    )
                    .bind($id)
                    .bind(kind)
                    .bind(detail)
                    .bind($now)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                }
                let after = sqlx::query("SELECT * FROM payments WHERE id = $1").bind($id).fetch_one(&mut *$tx).await.map_err(db_err)?;
                Some((payment_row(&after).map_err(db_err)?, step))
            }
        }
    }};
}
