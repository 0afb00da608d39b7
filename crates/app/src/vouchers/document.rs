//! A voucher order's vouchers as a PDF, one page each, drawn by the tickets' renderer: the
//! voucher's name where a ticket has its film, its number, value or tickets, validity and terms,
//! and a QR of its reference (what the box office scans, or the buyer types when paying).

use kupa_documents::{Seat, Ticket, TicketLabels, TicketsDocument};

use super::{OrderSystemVoucher, SystemVoucherClass};

/// What the document says of the order the vouchers came with.
pub struct VoucherOrder<'a> {
    pub reservation_number: &'a str,
    /// The local day it was paid (YYYY-MM-DD).
    pub paid_on: &'a str,
    pub chain_name: &'a str,
    /// Products prepaid with the vouchers (name, English name, quantity; decision 0035): printed
    /// on the first voucher, whose number collects them at any cinema's bar.
    pub products: Vec<(&'a str, &'a str, i64)>,
}

fn pick<'a>(lang: &str, he: &'a str, en: &'a str) -> &'a str {
    if lang == "he" || en.trim().is_empty() {
        he
    } else {
        en
    }
}

fn labels(he: bool) -> TicketLabels {
    let l = |h: &str, e: &str| if he { h.to_owned() } else { e.to_owned() };
    TicketLabels {
        ticket_counter: l("שובר {n} מתוך {total}", "Voucher {n} of {total}"),
        complex: l("בתוקף מ", "Valid from"),
        hall: l("בתוקף עד", "Valid until"),
        date: l("מספר שובר", "Voucher number"),
        time: l("שווי", "Worth"),
        section: String::new(),
        row: String::new(),
        seat: String::new(),
        general_admission: l(
            "למימוש בכל בתי הקולנוע של הרשת",
            "Good at every cinema of the chain",
        ),
        ticket_type: l("סוג", "Kind"),
        price: l("מחיר", "Price"),
        order_total: l("סה״כ להזמנה", "Order total"),
        reservation_number: l("מספר הזמנה", "Order number"),
        entrance_time: l("נרכש", "Bought"),
        qr_caption: l(
            "הציגו את הקוד בקופה, או הקלידו את מספר השובר בתשלום באתר",
            "Show this code at the box office, or type the voucher number when paying online",
        ),
        terms: l("תנאי השובר", "Voucher terms"),
    }
}

/// `YYYY-MM-DD` as `DD.MM.YYYY`.
fn day(ymd: &str) -> String {
    let parts: Vec<&str> = ymd.split('-').collect();
    match parts.as_slice() {
        [y, m, d] => format!("{d}.{m}.{y}"),
        _ => ymd.to_owned(),
    }
}

/// The document of a paid voucher order's vouchers in `lang` (Hebrew, or English for the rest).
pub fn vouchers_document(
    vouchers: &[OrderSystemVoucher],
    order: &VoucherOrder<'_>,
    classes: &[SystemVoucherClass],
    lang: &str,
) -> TicketsDocument {
    let he = lang == "he";
    let class_of = |v: &OrderSystemVoucher| classes.iter().find(|c| c.id == v.class_id);
    let worth = |v: &OrderSystemVoucher| match (v.value, v.benefit_tickets) {
        (Some(value), _) => value.display_ils(),
        (None, Some(n)) if he => format!("{n} כרטיסים"),
        (None, Some(n)) => format!("{n} tickets"),
        (None, None) => String::new(),
    };
    let kind = |v: &OrderSystemVoucher| {
        let benefits: Vec<String> = class_of(v)
            .map(|c| {
                c.benefits
                    .iter()
                    .map(|b| format!("{} × {}", b.quantity, pick(lang, &b.name, &b.name_en)))
                    .collect()
            })
            .unwrap_or_default();
        if benefits.is_empty() {
            if he { "שובר כספי" } else { "Gift card" }.to_owned()
        } else {
            benefits.join(", ")
        }
    };
    let bought = day(order.paid_on);
    let extras: Vec<String> = order
        .products
        .iter()
        .map(|(name, name_en, n)| format!("{n} × {}", pick(lang, name, name_en)))
        .collect();
    // The kind's field is one short line: it says there are extras; the terms say which.
    let with_extras = |i: usize, v: &OrderSystemVoucher| {
        if i > 0 || extras.is_empty() {
            return kind(v);
        }
        format!("{} + {}", kind(v), if he { "תוספות" } else { "extras" })
    };
    let tickets = vouchers
        .iter()
        .enumerate()
        .map(|(i, v)| Ticket {
            feature_name: pick(lang, &v.name, &v.name_en).to_owned(),
            feature_name_secondary: if he { v.name_en.clone() } else { String::new() },
            complex: day(&v.valid_from),
            hall: day(&v.valid_to),
            date: v.reference.clone(),
            time: worth(v),
            seat: Seat::GeneralAdmission,
            ticket_type: with_extras(i, v),
            price: v.price.display_ils(),
            price_note: String::new(),
            order_total: String::new(),
            reservation_number: order.reservation_number.to_owned(),
            entrance_time: bought.clone(),
            qr_payload: v.reference.clone(),
        })
        .collect();
    let mut terms: Vec<String> = Vec::new();
    if let (false, Some(first)) = (extras.is_empty(), vouchers.first()) {
        terms.push(if he {
            format!(
                "שולם מראש עם שובר {}: {}. לאיסוף בכל מזנון של הרשת עם מספר השובר, בתוקפו.",
                first.reference,
                extras.join(", ")
            )
        } else {
            format!(
                "Prepaid with voucher {}: {}. Collect at any of our cinemas' bars with the voucher number, while it is valid.",
                first.reference,
                extras.join(", ")
            )
        });
    }
    for v in vouchers {
        if let Some(c) = class_of(v) {
            let t = pick(lang, &c.terms, &c.terms_en).to_owned();
            if !t.is_empty() && !terms.contains(&t) {
                terms.push(t);
            }
        }
    }
    TicketsDocument {
        lang: if he { "he" } else { "en" }.to_owned(),
        rtl: he,
        title: if he {
            format!("שוברים – הזמנה {}", order.reservation_number)
        } else {
            format!("Vouchers – order {}", order.reservation_number)
        },
        chain_name: order.chain_name.to_owned(),
        labels: labels(he),
        terms: terms.join("\n"),
        tickets,
    }
}
