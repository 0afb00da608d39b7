//! Order, ticket, product and payment rows read back into the app's types.

use kupa_app::customer_info::CustomerInfo;
use kupa_app::orders::*;

use crate::rows::Get;

pub(super) type R<T> = Result<T, sqlx::Error>;

pub(super) fn decode_err(what: &str, v: &str) -> sqlx::Error {
    sqlx::Error::Decode(format!("{what} {v:?}").into())
}

pub(super) fn os(r: &impl Get, c: &str) -> R<Option<String>> {
    r.os(c)
}

pub(super) fn order_row(r: &impl Get) -> R<Order> {
    let status = r.s("status")?;
    let customer: CustomerInfo =
        serde_json::from_str(&r.s("customer")?).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    Ok(Order {
        id: r.rid("id")?,
        reservation_number: r.s("reservation_number")?,
        session_id: r.sid("session_id")?,
        // Read by the loader from order_presentations.
        presentations: Vec::new(),
        status: OrderStatus::parse(&status).ok_or_else(|| decode_err("order status", &status))?,
        channel: {
            let c = r.s("channel")?;
            Channel::parse(&c).ok_or_else(|| decode_err("order channel", &c))?
        },
        referral_mini_site_id: r.oi("referral_mini_site_id")?,
        is_hold: r.b("is_hold")?,
        customer_id: r.oi("customer_id")?,
        customer,
        locale: r.s("locale")?,
        tickets_total: r.m("tickets_total")?,
        products_total: r.m("products_total")?,
        service_charge_total: r.m("service_charge_total")?,
        service_charge_name: r.s("service_charge_name")?,
        total: r.m("total")?,
        currency: r.s("currency")?,
        payment_id: os(r, "payment_id")?,
        created_at_ms: r.i("created_at")?,
        paid_at_ms: r.oi("paid_at")?,
        committed_at_ms: r.oi("committed_at")?,
        tickets: Vec::new(),
        products: Vec::new(),
        vouchers: Vec::new(),
        kind: {
            let k = r.s("kind")?;
            OrderKind::parse(&k).ok_or_else(|| decode_err("order kind", &k))?
        },
        // Read by the loader from order_system_vouchers and order_donations.
        system_vouchers: Vec::new(),
        donations: Vec::new(),
        memberships: Vec::new(),
        points_member: os(r, "points_member")?,
        points_earned: r.i("points_earned")?,
        enrollment: None,
        waiver: None,
    })
}

pub(super) fn ticket_row(r: &impl Get) -> R<OrderTicket> {
    Ok(OrderTicket {
        line: r.i("line")?,
        presentation_id: r.p("presentation_id")?,
        section_id: r.i("section_id")?,
        x: r.i("x")?,
        y: r.i("y")?,
        section_name: r.s("section_name")?,
        section_name_en: r.s("section_name_en")?,
        row_name: r.s("row_name")?,
        seat_name: r.s("seat_name")?,
        ticket_id: r.i("ticket_id")?,
        ticket_name: r.s("ticket_name")?,
        ticket_name_en: r.s("ticket_name_en")?,
        price: r.m("price")?,
        service_charge: r.m("service_charge")?,
        is_sub_ticket: r.b("is_sub_ticket")?,
        code: os(r, "code")?,
        ref1: os(r, "ref1")?,
        ref2: os(r, "ref2")?,
        member_number: os(r, "member_number")?,
        points: r.i("points")?,
        member_balance: r.m("member_balance")?,
        document_key: r.s("document_key")?,
        scanned_at_ms: r.oi("scanned_at")?,
        cancelled_at_ms: r.oi("cancelled_at")?,
    })
}

pub(super) fn product_row(r: &impl Get) -> R<OrderProduct> {
    Ok(OrderProduct {
        product_id: r.i("product_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        quantity: r.i("quantity")?,
        unit_price: r.m("unit_price")?,
    })
}

pub(super) fn payment_row(r: &impl Get) -> R<Payment> {
    let method = r.s("method")?;
    let status = r.s("status")?;
    Ok(Payment {
        id: r.s("id")?,
        order_id: r.rid("order_id")?,
        session_id: r.sid("session_id")?,
        customer_id: r.oi("customer_id")?,
        method: PaymentMethod::parse(&method)
            .ok_or_else(|| decode_err("payment method", &method))?,
        amount: r.m("amount")?,
        currency: r.s("currency")?,
        installments: r.i("installments")?,
        status: PaymentStatus::parse(&status)
            .ok_or_else(|| decode_err("payment status", &status))?,
        card_brand: os(r, "card_brand")?,
        card_last4: os(r, "card_last4")?,
        card_bin: os(r, "card_bin")?,
        save_card: r.b("save_card")?,
        failure_code: os(r, "failure_code")?,
        decline_reason: os(r, "decline_reason")?
            .map(|d| DeclineReason::parse(&d).ok_or_else(|| decode_err("decline reason", &d)))
            .transpose()?,
        locale: r.s("locale")?,
        return_url: r.s("return_url")?,
        created_at_ms: r.i("created_at")?,
        updated_at_ms: r.i("updated_at")?,
    })
}

pub(super) fn refund_row(r: &impl Get) -> R<Refund> {
    let target = r.s("target")?;
    let status = r.s("status")?;
    Ok(Refund {
        id: r.s("id")?,
        cancellation_id: r.s("cancellation_id")?,
        order_id: r.rid("order_id")?,
        target: match target.as_str() {
            "payment" => RefundTarget::Payment {
                payment_id: r
                    .os("payment_id")?
                    .ok_or_else(|| decode_err("refund payment", "NULL"))?,
            },
            "voucher" => RefundTarget::Voucher {
                code: r
                    .os("code_key")?
                    .ok_or_else(|| decode_err("refund voucher", "NULL"))?,
            },
            "credit" => {
                let code = r
                    .os("code_key")?
                    .ok_or_else(|| decode_err("refund credit", "NULL"))?;
                RefundTarget::Credit {
                    payment_id: r
                        .os("payment_id")?
                        .ok_or_else(|| decode_err("refund credit payment", "NULL"))?,
                    // The voucher's reference as shown, where the query joined it (the
                    // cancellations' read); else its code key.
                    reference: r
                        .os("credit_reference")
                        .ok()
                        .flatten()
                        .unwrap_or_else(|| code.clone()),
                    code,
                }
            }
            other => return Err(decode_err("refund target", other)),
        },
        amount: r.m("amount")?,
        status: RefundStatus::parse(&status).ok_or_else(|| decode_err("refund status", &status))?,
        attempts: r.i("attempts")?,
        created_at_ms: r.i("created_at")?,
        updated_at_ms: r.i("updated_at")?,
    })
}

pub(super) fn cancellation_row(r: &impl Get) -> R<Cancellation> {
    let lines = r.s("lines")?;
    Ok(Cancellation {
        id: r.s("id")?,
        order_id: r.rid("order_id")?,
        lines: serde_json::from_str(&lines).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        whole: r.b("whole")?,
        value: r.m("value")?,
        fee: r.m("fee")?,
        refund: r.m("refund")?,
        refunds: Vec::new(),
        created_at_ms: r.i("created_at")?,
        dry_run: false,
    })
}
