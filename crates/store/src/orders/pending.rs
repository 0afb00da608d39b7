//! Reading an order with its lines, and writing a pending order (the cart priced, before it is
//! paid): macros, so that each runs on a pool or inside the caller's transaction and on either
//! database. Their names resolve where they are used (`super::rows`, `super::loyalty`).

/// Loads an order with its lines, on a pool or inside a transaction (`$ex` is an executor).
macro_rules! load_order {
    ($ex:expr, $sql:expr, $key:expr) => {{
        let row = sqlx::query($sql)
            .bind($key)
            .fetch_optional(&mut *$ex)
            .await
            .map_err(db_err)?;
        match row {
            None => None,
            Some(row) => {
                let mut order = order_row(&row).map_err(db_err)?;
                order.presentations = sqlx::query_scalar(
                    "SELECT presentation_id FROM order_presentations WHERE order_id = $1 ORDER BY position",
                )
                .bind(&order.id)
                .fetch_all(&mut *$ex)
                .await
                .map_err(db_err)?;
                let tickets =
                    sqlx::query("SELECT * FROM order_tickets WHERE order_id = $1 ORDER BY line")
                        .bind(&order.id)
                        .fetch_all(&mut *$ex)
                        .await
                        .map_err(db_err)?;
                order.tickets = tickets
                    .iter()
                    .map(ticket_row)
                    .collect::<R<Vec<_>>>()
                    .map_err(db_err)?;
                let products = sqlx::query(
                    "SELECT * FROM order_products WHERE order_id = $1 ORDER BY product_id",
                )
                .bind(&order.id)
                .fetch_all(&mut *$ex)
                .await
                .map_err(db_err)?;
                order.products = products
                    .iter()
                    .map(product_row)
                    .collect::<R<Vec<_>>>()
                    .map_err(db_err)?;
                let vouchers = sqlx::query("SELECT code_key, amount FROM order_vouchers WHERE order_id = $1 ORDER BY code_key")
                    .bind(&order.id)
                    .fetch_all(&mut *$ex)
                    .await
                    .map_err(db_err)?;
                order.vouchers = vouchers
                    .iter()
                    .map(|r| Ok(OrderVoucher { code: r.s("code_key")?, amount: r.m("amount")? }))
                    .collect::<R<Vec<_>>>()
                    .map_err(db_err)?;
                load_gift_lines!($ex, &mut order);
                Some(order)
            }
        }
    }};
}

macro_rules! save_pending {
    ($tx:expr, $o:expr, $now:expr) => {{
        let o = $o;
        // The session's earlier unpaid orders on any of these presentations give way, with their
        // open payments.
        for presentation_id in &o.presentations {
            sqlx::query(
                "UPDATE payments SET status = 'expired', updated_at = $3 \
                 WHERE status IN ('created', 'challenge', 'awaitingBank', 'redirected') AND order_id IN \
                 (SELECT o.id FROM orders o JOIN order_presentations op ON op.order_id = o.id \
                  WHERE o.session_id = $1 AND op.presentation_id = $2 AND o.status = 'pending')",
            )
            .bind(&o.session_id)
            .bind(presentation_id)
            .bind($now)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
            sqlx::query(
                "UPDATE orders SET status = 'cancelled', updated_at = $3 WHERE session_id = $1 AND status = 'pending' \
                 AND id IN (SELECT order_id FROM order_presentations WHERE presentation_id = $2)",
            )
            .bind(&o.session_id)
            .bind(presentation_id)
            .bind($now)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        }
        supersede_kind!($tx, o, $now);
        let customer = serde_json::to_string(&o.customer).map_err(StoreError::other)?;
        sqlx::query(
            "INSERT INTO orders (id, reservation_number, session_id, status, is_hold, customer_id, customer, \
             locale, tickets_total, products_total, service_charge_total, service_charge_name, total, currency, payment_id, \
             created_at, updated_at, paid_at, committed_at, channel, referral_mini_site_id, kind, points_member, points_earned) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, NULL, $15, $15, NULL, NULL, $16, $17, $18, $19, $20)",
        )
        .bind(&o.id)
        .bind(&o.reservation_number)
        .bind(&o.session_id)
        .bind(o.status.as_str())
        .bind(o.is_hold)
        .bind(o.customer_id)
        .bind(customer)
        .bind(&o.locale)
        .bind(o.tickets_total)
        .bind(o.products_total)
        .bind(o.service_charge_total)
        .bind(&o.service_charge_name)
        .bind(o.total)
        .bind(&o.currency)
        .bind($now)
        .bind(o.channel.as_str())
        .bind(o.referral_mini_site_id)
        .bind(o.kind.as_str())
        .bind(&o.points_member)
        .bind(o.points_earned)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
        for (position, presentation_id) in o.presentations.iter().enumerate() {
            sqlx::query("INSERT INTO order_presentations (order_id, presentation_id, position) VALUES ($1, $2, $3)")
                .bind(&o.id)
                .bind(presentation_id)
                .bind(position as i64)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
        }
        for t in &o.tickets {
            sqlx::query(
                "INSERT INTO order_tickets (order_id, line, presentation_id, section_id, x, y, section_name, row_name, seat_name, \
                 ticket_id, ticket_name, ticket_name_en, price, service_charge, is_sub_ticket, code, ref1, ref2, member_number, \
                 document_key, scanned_at, cancelled_at, section_name_en, points, member_balance) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, NULL, NULL, $21, $22, $23)",
            )
            .bind(&o.id)
            .bind(t.line)
            .bind(t.presentation_id)
            .bind(t.section_id)
            .bind(t.x)
            .bind(t.y)
            .bind(&t.section_name)
            .bind(&t.row_name)
            .bind(&t.seat_name)
            .bind(t.ticket_id)
            .bind(&t.ticket_name)
            .bind(&t.ticket_name_en)
            .bind(t.price)
            .bind(t.service_charge)
            .bind(t.is_sub_ticket)
            .bind(&t.code)
            .bind(&t.ref1)
            .bind(&t.ref2)
            .bind(&t.member_number)
            .bind(&t.document_key)
            .bind(&t.section_name_en)
            .bind(t.points)
            .bind(t.member_balance)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        }
        for p in &o.products {
            sqlx::query("INSERT INTO order_products (order_id, product_id, name, name_en, quantity, unit_price) VALUES ($1, $2, $3, $4, $5, $6)")
                .bind(&o.id)
                .bind(p.product_id)
                .bind(&p.name)
                .bind(&p.name_en)
                .bind(p.quantity)
                .bind(p.unit_price)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
        }
        for v in &o.vouchers {
            sqlx::query("INSERT INTO order_vouchers (order_id, code_key, amount) VALUES ($1, $2, $3)")
                .bind(&o.id)
                .bind(&v.code)
                .bind(v.amount)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
        }
        save_gift_lines!($tx, o, $now);
    }};
}
