//! The lines of voucher and donation orders (issue 14, decision 0033): written with the pending
//! order, read back with it, and the vouchers issued by the one finalisation. The macros run on
//! an executor or inside the caller's transaction, on either database.

use kupa_app::orders::{OrderDonation, OrderEnrollment, OrderMembership, OrderSystemVoucher};

use crate::rows::Get;

type R<T> = Result<T, sqlx::Error>;

pub(super) fn system_voucher_row(r: &impl Get) -> R<OrderSystemVoucher> {
    Ok(OrderSystemVoucher {
        line: r.i("line")?,
        class_id: r.i("class_id")?,
        price_id: r.oi("price_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.m("price")?,
        value: r.om("value")?,
        benefit_tickets: r.oi("benefit_tickets")?,
        ticket_id: r.i("ticket_id")?,
        reference: r.s("reference")?,
        code_id: r.i("code_id")?,
        valid_from: r.s("valid_from")?,
        valid_to: r.s("valid_to")?,
    })
}

pub(super) fn donation_row(r: &impl Get) -> R<OrderDonation> {
    Ok(OrderDonation {
        line: r.i("line")?,
        donation_id: r.i("donation_id")?,
        detail_id: r.i("detail_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        amount: r.m("amount")?,
    })
}

pub(super) fn membership_row(r: &impl Get) -> R<OrderMembership> {
    Ok(OrderMembership {
        line: r.i("line")?,
        membership_id: r.i("membership_id")?,
        price_id: r.i("price_id")?,
        type_id: r.i("type_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.m("price")?,
        value: r.m("value")?,
        currency: r.s("currency")?,
        member_number: r.os("member_number")?,
        member_id: r.oi("member_id")?,
        top_up_member_number: r.os("top_up_member_number")?,
        reference1: r.os("reference1")?,
        reference2: r.os("reference2")?,
        valid_months: r.i("valid_months")?,
        valid_from: r.os("valid_from")?,
        valid_to: r.os("valid_to")?,
    })
}

pub(super) fn enrollment_row(r: &impl Get) -> R<OrderEnrollment> {
    Ok(OrderEnrollment {
        season_id: r.i("season_id")?,
        membership_id: r.i("membership_id")?,
        member_id: r.i("member_id")?,
        member_number: r.s("member_number")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
    })
}

/// Reads an order's voucher, donation and membership lines into `$order` (`$ex` is an executor).
macro_rules! load_gift_lines {
    ($ex:expr, $order:expr) => {{
        let order: &mut Order = $order;
        if order.kind == OrderKind::Vouchers {
            let rows = sqlx::query(
                "SELECT * FROM order_system_vouchers WHERE order_id = $1 ORDER BY line",
            )
            .bind(&order.id)
            .fetch_all(&mut *$ex)
            .await
            .map_err(db_err)?;
            order.system_vouchers = rows
                .iter()
                .map(gifts::system_voucher_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)?;
        }
        if order.kind == OrderKind::Donations {
            let rows =
                sqlx::query("SELECT * FROM order_donations WHERE order_id = $1 ORDER BY line")
                    .bind(&order.id)
                    .fetch_all(&mut *$ex)
                    .await
                    .map_err(db_err)?;
            order.donations = rows
                .iter()
                .map(gifts::donation_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)?;
        }
        if order.kind == OrderKind::Memberships {
            let rows =
                sqlx::query("SELECT * FROM order_memberships WHERE order_id = $1 ORDER BY line")
                    .bind(&order.id)
                    .fetch_all(&mut *$ex)
                    .await
                    .map_err(db_err)?;
            order.memberships = rows
                .iter()
                .map(gifts::membership_row)
                .collect::<R<Vec<_>>>()
                .map_err(db_err)?;
        }
        // An enrolment's ticket order, or a seated membership's order (decision 0043).
        if matches!(order.kind, OrderKind::Tickets | OrderKind::Memberships) {
            let row = sqlx::query("SELECT * FROM order_enrollments WHERE order_id = $1")
                .bind(&order.id)
                .fetch_optional(&mut *$ex)
                .await
                .map_err(db_err)?;
            order.enrollment = row
                .as_ref()
                .map(gifts::enrollment_row)
                .transpose()
                .map_err(db_err)?;
        }
    }};
}

/// Writes a pending order's voucher, donation and membership lines, inside the caller's transaction. The
/// session's earlier pending order of the same kind gives way first (one cart of each kind),
/// with its open payments.
macro_rules! save_gift_lines {
    ($tx:expr, $o:expr, $now:expr) => {{
        let o: &Order = $o;
        for v in &o.system_vouchers {
            sqlx::query(
                "INSERT INTO order_system_vouchers (order_id, line, class_id, price_id, name, name_en, price, value, \
                 benefit_tickets, ticket_id, reference, code_id, valid_from, valid_to) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            )
            .bind(&o.id).bind(v.line).bind(v.class_id).bind(v.price_id).bind(&v.name).bind(&v.name_en)
            .bind(v.price).bind(v.value).bind(v.benefit_tickets).bind(v.ticket_id).bind(&v.reference)
            .bind(v.code_id).bind(&v.valid_from).bind(&v.valid_to)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
        for d in &o.donations {
            sqlx::query(
                "INSERT INTO order_donations (order_id, line, donation_id, detail_id, name, name_en, amount) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&o.id).bind(d.line).bind(d.donation_id).bind(d.detail_id).bind(&d.name).bind(&d.name_en).bind(d.amount)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
        if let Some(e) = &o.enrollment {
            sqlx::query(
                "INSERT INTO order_enrollments (order_id, season_id, membership_id, member_id, member_number, name, name_en) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&o.id).bind(e.season_id).bind(e.membership_id).bind(e.member_id).bind(&e.member_number)
            .bind(&e.name).bind(&e.name_en)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
        for m in &o.memberships {
            sqlx::query(
                "INSERT INTO order_memberships (order_id, line, membership_id, price_id, type_id, name, name_en, price, \
                 value, currency, member_number, member_id, top_up_member_number, reference1, reference2, valid_months, \
                 valid_from, valid_to) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)",
            )
            .bind(&o.id).bind(m.line).bind(m.membership_id).bind(m.price_id).bind(m.type_id).bind(&m.name)
            .bind(&m.name_en).bind(m.price).bind(m.value).bind(&m.currency).bind(&m.member_number).bind(m.member_id)
            .bind(&m.top_up_member_number).bind(&m.reference1).bind(&m.reference2).bind(m.valid_months)
            .bind(&m.valid_from).bind(&m.valid_to)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
        if o.kind == OrderKind::Vouchers {
            // The waivers of the session's voucher carts this one replaced (cancelled just now by
            // `supersede_kind!`) go with them: no one pays for them any more.
            sqlx::query(
                "DELETE FROM order_waivers WHERE order_id IN \
                 (SELECT id FROM orders WHERE session_id = $1 AND kind = 'vouchers' AND status = 'cancelled' AND id <> $2)",
            )
            .bind(&o.session_id).bind(&o.id)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
        if let Some(w) = &o.waiver {
            sqlx::query(
                "INSERT INTO order_waivers (order_id, class_id, business_id, children, signature, signer_name, signed_at, keep_until) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(&o.id).bind(w.class_id).bind(w.business_id).bind(crate::waivers::children_json(w))
            .bind(&w.signature_png).bind(&w.signer_name).bind(w.signed_at_ms).bind(w.keep_until.to_string())
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    }};
}

/// The session's earlier pending orders of a kind without presentations give way to a new one,
/// with their open payments (a ticket order's give way per presentation, in `save_pending`).
macro_rules! supersede_kind {
    ($tx:expr, $o:expr, $now:expr) => {{
        let o: &Order = $o;
        if o.kind != OrderKind::Tickets {
            sqlx::query(
                "UPDATE payments SET status = 'expired', updated_at = $3 \
                 WHERE status IN ('created', 'challenge', 'awaitingBank', 'redirected') AND order_id IN \
                 (SELECT id FROM orders WHERE session_id = $1 AND kind = $2 AND status = 'pending')",
            )
            .bind(&o.session_id).bind(o.kind.as_str()).bind($now)
            .execute(&mut *$tx).await.map_err(db_err)?;
            sqlx::query(
                "UPDATE orders SET status = 'cancelled', updated_at = $3 \
                 WHERE session_id = $1 AND kind = $2 AND status = 'pending'",
            )
            .bind(&o.session_id).bind(o.kind.as_str()).bind($now)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    }};
}

/// Issues the vouchers a paid order sold, inside the finalisation's transaction: each becomes a
/// code (its balance or its uses, redeemed like any voucher code) and a system voucher row of
/// its owner.
macro_rules! issue_vouchers {
    ($tx:expr, $o:expr, $now:expr) => {{
        let o: &Order = $o;
        for v in &o.system_vouchers {
            let key = kupa_domain::tickets::normalise_code(&v.reference);
            sqlx::query(
                "INSERT INTO ticket_codes (id, code, code_key, kind, ticket_id, valid_from, valid_to, usage_limit, \
                 used_count, balance, min_tickets, card_prefix, label, label_en) \
                 VALUES ($1, $2, $3, 'voucher', $4, $5, $6, $7, 0, $8, 0, '', $9, $10)",
            )
            .bind(v.code_id).bind(&v.reference).bind(&key).bind(v.ticket_id).bind(&v.valid_from).bind(&v.valid_to)
            .bind(v.benefit_tickets).bind(v.value).bind(&v.name).bind(&v.name_en)
            .execute(&mut *$tx).await.map_err(db_err)?;
            sqlx::query(
                "INSERT INTO system_vouchers (reference, code_key, order_id, line, class_id, customer_id, status, \
                 is_for_replacement, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, 'active', FALSE, $7, $7)",
            )
            .bind(&v.reference).bind(&key).bind(&o.id).bind(v.line).bind(v.class_id).bind(o.customer_id).bind($now)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    }};
}

/// Creates the members a paid order sold, inside the finalisation's transaction: each new member
/// is the order's customer's, good from the payment day for its months (the line keeps the days
/// as paid), with a series' value as its balance; each top-up adds its value to the member it
/// names. A member exists with its sale, or not at all.
macro_rules! issue_members {
    ($tx:expr, $o:expr, $now:expr) => {{
        let o: &Order = $o;
        for m in &o.memberships {
            match (&m.member_number, &m.top_up_member_number) {
                (Some(number), _) => {
                    let customer_id = o.customer_id.ok_or_else(|| StoreError::other("a membership order without its customer"))?;
                    let (from, to) = kupa_app::memberships::member_days_paid_at($now, m.valid_months)
                        .map_err(StoreError::other)?;
                    sqlx::query(
                        "INSERT INTO members (id, member_number, membership_id, customer_id, balance, points_balance, \
                         start_date, end_date) VALUES ($1, $2, $3, $4, $5, 0, $6, $7)",
                    )
                    .bind(m.member_id).bind(number).bind(m.membership_id).bind(customer_id).bind(m.balance())
                    .bind(&from).bind(&to)
                    .execute(&mut *$tx).await.map_err(db_err)?;
                    sqlx::query("UPDATE order_memberships SET valid_from = $3, valid_to = $4 WHERE order_id = $1 AND line = $2")
                        .bind(&o.id).bind(m.line).bind(&from).bind(&to)
                        .execute(&mut *$tx).await.map_err(db_err)?;
                }
                (None, Some(number)) => {
                    // Checked the customer's and unexpired when priced; the customer is checked
                    // again here, so a top-up never lands on someone else's card.
                    sqlx::query("UPDATE members SET balance = balance + $2 WHERE member_number = $1 AND customer_id = $3")
                        .bind(number).bind(m.balance()).bind(o.customer_id)
                        .execute(&mut *$tx).await.map_err(db_err)?;
                }
                (None, None) => {}
            }
        }
    }};
}
