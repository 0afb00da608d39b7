//! The confirmation mail of a voucher, donation or membership order: the vouchers with their
//! references (the mail is how a gift reaches its buyer), the donation's receipt details, or the
//! members with their numbers and days, in the order's
//! language. Plain text and simple inline-styled HTML, as the ticket mail.

use crate::error::{AppError, AppResult};
use crate::ports::{Attachment, Mail, message_kind};
use kupa_domain::ids::PresentationId;

use super::*;

struct Words {
    chain: &'static str,
    greeting: &'static str,
    vouchers_paid: &'static str,
    donation_paid: &'static str,
    reservation: &'static str,
    reference: &'static str,
    value: &'static str,
    benefits: &'static str,
    valid_until: &'static str,
    amount: &'static str,
    total: &'static str,
    redeem: &'static str,
    subject_vouchers: &'static str,
    subject_donation: &'static str,
    extras: &'static str,
    extras_what: &'static str,
    extras_collect: &'static str,
    memberships_paid: &'static str,
    subject_memberships: &'static str,
    member_number: &'static str,
    valid_from: &'static str,
    balance: &'static str,
    topped_up: &'static str,
    seat: &'static str,
    row: &'static str,
    digital_ticket: &'static str,
}

/// A screening a seated membership's seat is in, as the mail names it.
pub(super) struct Screening {
    pub presentation_id: PresentationId,
    /// The site's public address (no trailing slash): the seat's e-document link is built on it.
    pub base_url: String,
    pub name: String,
    pub name_en: String,
    pub starts_at_ms: i64,
    pub hall: String,
    pub hall_en: String,
}

const HE: Words = Words {
    chain: "קולנוע קופה",
    greeting: "שלום",
    vouchers_paid: "ההזמנה שולמה. אלה השוברים שלך:",
    donation_paid: "תודה על תרומתך! התרומה התקבלה.",
    reservation: "מספר הזמנה",
    reference: "מספר שובר",
    value: "שווי",
    benefits: "כרטיסים",
    valid_until: "בתוקף עד",
    amount: "סכום",
    total: "סה״כ",
    redeem: "למימוש: הקלידו את מספר השובר בתשלום על הזמנת כרטיסים.",
    subject_vouchers: "השוברים שלך",
    subject_donation: "אישור תרומה",
    extras: "תוספות ששולמו מראש",
    extras_what: "מה",
    extras_collect: "לאיסוף בכל מזנון של הרשת עם שובר",
    memberships_paid: "ההזמנה שולמה. המנויים שלך, גם באזור האישי:",
    subject_memberships: "המנוי שלך",
    member_number: "מספר חבר",
    valid_from: "בתוקף מ־",
    balance: "יתרה",
    topped_up: "נטען ליתרה",
    seat: "מושב",
    row: "שורה",
    digital_ticket: "כרטיס דיגיטלי",
};

const EN: Words = Words {
    chain: "Kupa Cinemas",
    greeting: "Hello",
    vouchers_paid: "Your order is paid. Here are your vouchers:",
    donation_paid: "Thank you for your donation! It has been received.",
    reservation: "Order number",
    reference: "Voucher number",
    value: "Value",
    benefits: "Tickets",
    valid_until: "Valid until",
    amount: "Amount",
    total: "Total",
    redeem: "To redeem: type the voucher number when paying for a ticket order.",
    subject_vouchers: "Your vouchers",
    subject_donation: "Donation receipt",
    extras: "Extras paid in advance",
    extras_what: "What",
    extras_collect: "Collect at any of our bars with voucher",
    memberships_paid: "Your order is paid. Your memberships, also in your customer area:",
    subject_memberships: "Your membership",
    member_number: "Member number",
    valid_from: "Valid from",
    balance: "Balance",
    topped_up: "Added to the balance",
    seat: "Seat",
    row: "Row",
    digital_ticket: "Digital ticket",
};

fn shekels(amount: Money) -> String {
    amount.display_ils()
}

fn escape(s: &str) -> String {
    kupa_domain::html::escape(s)
}

/// The mail's subject, text and HTML for a paid voucher or donation order.
pub(super) fn gift_mail(
    order: &Order,
    lang: &str,
    screenings: &[Screening],
) -> (String, String, String) {
    let w = if lang == "he" { &HE } else { &EN };
    let he = lang == "he";
    let name = |n: &str, n_en: &str| if he { n.to_owned() } else { n_en.to_owned() };
    let first = &order.customer.first_name;
    let mut rows: Vec<Vec<(String, String)>> = Vec::new();
    let (intro, subject) = if order.kind == OrderKind::Vouchers {
        for v in &order.system_vouchers {
            let mut row = vec![
                (String::new(), name(&v.name, &v.name_en)),
                (w.reference.into(), v.reference.clone()),
            ];
            if let Some(value) = v.value {
                row.push((w.value.into(), shekels(value)));
            }
            if let Some(n) = v.benefit_tickets {
                row.push((w.benefits.into(), n.to_string()));
            }
            row.push((w.valid_until.into(), v.valid_to.clone()));
            rows.push(row);
        }
        // The products step's extras go with the first voucher (decision 0035).
        if let (false, Some(v)) = (order.products.is_empty(), order.system_vouchers.first()) {
            let what: Vec<String> = order
                .products
                .iter()
                .map(|p| format!("{} × {}", p.quantity, name(&p.name, &p.name_en)))
                .collect();
            rows.push(vec![
                (String::new(), w.extras.into()),
                (w.extras_what.into(), what.join(", ")),
                (w.extras_collect.into(), v.reference.clone()),
            ]);
        }
        (w.vouchers_paid, w.subject_vouchers)
    } else if order.kind == OrderKind::Memberships {
        for m in &order.memberships {
            let mut row = vec![(String::new(), name(&m.name, &m.name_en))];
            match (&m.member_number, &m.top_up_member_number) {
                (Some(number), _) => {
                    row.push((w.member_number.into(), number.clone()));
                    if let (Some(from), Some(to)) = (&m.valid_from, &m.valid_to) {
                        row.push((w.valid_from.into(), from.clone()));
                        row.push((w.valid_until.into(), to.clone()));
                    }
                    if m.balance() > Money::ZERO {
                        row.push((w.balance.into(), shekels(m.balance())));
                    }
                }
                (None, Some(number)) => {
                    row.push((w.member_number.into(), number.clone()));
                    row.push((w.topped_up.into(), shekels(m.balance())));
                }
                (None, None) => {}
            }
            rows.push(row);
        }
        // A seated membership's seat, in each screening of its season (decision 0043).
        for t in &order.tickets {
            let Some(s) = screenings
                .iter()
                .find(|s| s.presentation_id == t.presentation_id)
            else {
                continue;
            };
            rows.push(vec![
                (String::new(), name(&s.name, &s.name_en)),
                (
                    String::new(),
                    format!(
                        "{} {} · {}",
                        crate::tickets_out::local_date(s.starts_at_ms, lang),
                        crate::tickets_out::local_time(s.starts_at_ms),
                        name(&s.hall, &s.hall_en)
                    ),
                ),
                (w.row.into(), t.row_name.clone()),
                (w.seat.into(), t.seat_name.clone()),
                (
                    w.digital_ticket.into(),
                    format!("{}{}", s.base_url, crate::tickets_out::edocument_path(t)),
                ),
            ]);
        }
        (w.memberships_paid, w.subject_memberships)
    } else {
        for d in &order.donations {
            rows.push(vec![
                (String::new(), name(&d.name, &d.name_en)),
                (w.amount.into(), shekels(d.amount)),
            ]);
        }
        (w.donation_paid, w.subject_donation)
    };
    let subject = format!(
        "{} – {subject} ({} {})",
        w.chain, w.reservation, order.reservation_number
    );
    let mut text = format!("{} {first},\n\n{intro}\n\n", w.greeting);
    for row in &rows {
        for (label, value) in row {
            if label.is_empty() {
                text.push_str(&format!("{value}\n"));
            } else {
                text.push_str(&format!("  {label}: {value}\n"));
            }
        }
        text.push('\n');
    }
    text.push_str(&format!(
        "{}: {}\n{}: {}\n",
        w.total,
        shekels(order.total),
        w.reservation,
        order.reservation_number
    ));
    if order.kind == OrderKind::Vouchers {
        text.push_str(&format!("\n{}\n", w.redeem));
    }
    let dir = if he { "rtl" } else { "ltr" };
    let align = if he { "right" } else { "left" };
    let mut html = format!(
        "<div dir=\"{dir}\" style=\"font-family:Arial,sans-serif;text-align:{align};max-width:600px\">\
         <div style=\"background:#16161d;color:#fff;padding:16px;font-size:20px;font-weight:bold\">{}</div>\
         <p>{} {},</p><p>{}</p>",
        escape(w.chain),
        escape(w.greeting),
        escape(first),
        escape(intro)
    );
    for row in &rows {
        html.push_str("<table dir=\"");
        html.push_str(dir);
        html.push_str("\" style=\"border:1px solid #ddd;margin:8px 0;padding:8px;width:100%\">");
        for (label, value) in row {
            if label.is_empty() {
                html.push_str(&format!(
                    "<tr><td colspan=\"2\" style=\"font-weight:bold;font-size:16px\">{}</td></tr>",
                    escape(value)
                ));
            } else {
                html.push_str(&format!(
                    "<tr><td style=\"color:#555\">{}</td><td style=\"font-weight:bold\" dir=\"ltr\">{}</td></tr>",
                    escape(label),
                    escape(value)
                ));
            }
        }
        html.push_str("</table>");
    }
    html.push_str(&format!(
        "<p>{}: <b>{}</b><br>{}: <b>{}</b></p>",
        escape(w.total),
        escape(&shekels(order.total)),
        escape(w.reservation),
        escape(&order.reservation_number)
    ));
    if order.kind == OrderKind::Vouchers {
        html.push_str(&format!("<p>{}</p>", escape(w.redeem)));
    }
    html.push_str("</div>");
    (subject, text, html)
}

impl OrderService {
    /// A paid voucher, donation or membership order's confirmation mail in `lang`; None when
    /// the buyer gave no address.
    pub(super) async fn gift_confirmation_mail(
        &self,
        order: &Order,
        lang: &str,
    ) -> AppResult<Option<Mail>> {
        if order.customer.email.is_empty() {
            return Ok(None);
        }
        let lang = if lang == "he" { "he" } else { "en" };
        let mut screenings = Vec::new();
        for id in &order.presentations {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            let v = &info.view;
            screenings.push(Screening {
                presentation_id: *id,
                base_url: self.messages.public_url.clone(),
                name: v.feature.name.clone(),
                name_en: v.feature.name_en.clone(),
                starts_at_ms: v.presentation.starts_at_ms,
                hall: v.venue.name.clone(),
                hall_en: v.venue.name_en.clone(),
            });
        }
        let (subject, text, html) = gift_mail(order, lang, &screenings);
        // The vouchers themselves, one page each with its QR: what a buyer prints or forwards.
        let attachments = if order.kind == OrderKind::Vouchers {
            vec![Attachment {
                name: format!("vouchers-{}.pdf", order.reservation_number),
                content_type: "application/pdf".into(),
                bytes: self.vouchers_pdf(order, lang).await?,
            }]
        } else {
            Vec::new()
        };
        Ok(Some(Mail {
            to: order.customer.email.clone(),
            subject,
            text,
            html,
            kind: message_kind::ORDER_CONFIRMATION.into(),
            reference: Some(order.id.to_string()),
            attachments,
        }))
    }

    /// The PDF of a paid voucher order of this reader's (as [`OrderService::gift_order`]); a
    /// donation order has none (notFound).
    pub async fn voucher_order_pdf(
        &self,
        id: &ReservationId,
        reader: ReservationReader<'_>,
        lang: Option<&str>,
    ) -> AppResult<(Order, Vec<u8>)> {
        let order = self.gift_order(id, reader).await?;
        if order.kind != OrderKind::Vouchers {
            return Err(AppError::rejected(
                crate::error::ErrorCode::NotFound,
                "no such voucher order",
            ));
        }
        let pdf = self
            .vouchers_pdf(&order, lang.unwrap_or(&order.locale))
            .await?;
        Ok((order, pdf))
    }

    /// A paid voucher order's vouchers as a PDF in `lang`, one page each.
    pub async fn vouchers_pdf(&self, order: &Order, lang: &str) -> AppResult<Vec<u8>> {
        let classes = self.store.system_voucher_classes().await?;
        let paid_on = order
            .paid_at_ms
            .map(|ms| {
                kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(ms)).to_string()
            })
            .unwrap_or_default();
        let lang = if lang == "he" { "he" } else { "en" };
        let doc = crate::vouchers::vouchers_document(
            &order.system_vouchers,
            &crate::vouchers::VoucherOrder {
                reservation_number: &order.reservation_number,
                paid_on: &paid_on,
                chain_name: if lang == "he" { HE.chain } else { EN.chain },
                products: order
                    .products
                    .iter()
                    .map(|p| (p.name.as_str(), p.name_en.as_str(), p.quantity))
                    .collect(),
            },
            &classes,
            lang,
        );
        kupa_documents::render_tickets_pdf(&doc).map_err(AppError::internal)
    }
}
