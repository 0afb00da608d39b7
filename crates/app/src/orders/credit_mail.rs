//! The mail of a cancellation refunded as voucher credit (decision 0034): the refund went to a
//! new voucher, not to the card, with its reference, value and last day, in the order's language.
//! Plain text and simple inline-styled HTML, as the other mails.

use crate::error::AppResult;
use crate::ports::{Mail, message_kind};

use super::*;

struct Words {
    chain: &'static str,
    greeting: &'static str,
    cancelled: &'static str,
    credited: &'static str,
    reservation: &'static str,
    reference: &'static str,
    value: &'static str,
    valid_until: &'static str,
    redeem: &'static str,
    subject: &'static str,
}

const HE: Words = Words {
    chain: "קולנוע קופה",
    greeting: "שלום",
    cancelled: "ההזמנה בוטלה.",
    credited: "ההחזר ניתן כזיכוי בשובר לשימוש בהזמנה הבאה שלך, ולא הוחזר לכרטיס האשראי:",
    reservation: "מספר הזמנה",
    reference: "מספר שובר",
    value: "סכום הזיכוי",
    valid_until: "בתוקף עד",
    redeem: "למימוש: הקלידו את מספר השובר בתשלום על הזמנת כרטיסים. השובר מופיע גם באזור האישי.",
    subject: "ביטול הזמנה – זיכוי בשובר",
};

const EN: Words = Words {
    chain: "Kupa Cinemas",
    greeting: "Hello",
    cancelled: "Your reservation is cancelled.",
    credited: "The refund was given as voucher credit for your next order, not back to your card:",
    reservation: "Order number",
    reference: "Voucher number",
    value: "Credit",
    valid_until: "Valid until",
    redeem: "To redeem: type the voucher number when paying for a ticket order. It is also listed in your customer area.",
    subject: "Reservation cancelled – refund as voucher credit",
};

/// The mail's subject, text and HTML.
pub(super) fn credit_mail(
    order: &Order,
    reference: &str,
    amount: Money,
    valid_to: &str,
    lang: &str,
) -> (String, String, String) {
    let w = if lang == "he" { &HE } else { &EN };
    let first = &order.customer.first_name;
    let value = amount.display_ils();
    let subject = format!(
        "{} – {} ({} {})",
        w.chain, w.subject, w.reservation, order.reservation_number
    );
    let text = format!(
        "{} {first},\n\n{}\n{}\n\n  {}: {reference}\n  {}: {value}\n  {}: {valid_to}\n  {}: {}\n\n{}\n",
        w.greeting,
        w.cancelled,
        w.credited,
        w.reference,
        w.value,
        w.valid_until,
        w.reservation,
        order.reservation_number,
        w.redeem
    );
    let esc = kupa_domain::html::escape;
    let (dir, align) = if lang == "he" {
        ("rtl", "right")
    } else {
        ("ltr", "left")
    };
    let row = |label: &str, v: &str| {
        format!(
            "<tr><td style=\"color:#555\">{}</td><td style=\"font-weight:bold\" dir=\"ltr\">{}</td></tr>",
            esc(label),
            esc(v)
        )
    };
    let html = format!(
        "<div dir=\"{dir}\" style=\"font-family:Arial,sans-serif;text-align:{align};max-width:600px\">\
         <div style=\"background:#16161d;color:#fff;padding:16px;font-size:20px;font-weight:bold\">{}</div>\
         <p>{} {},</p><p>{}<br>{}</p>\
         <table dir=\"{dir}\" style=\"border:1px solid #ddd;margin:8px 0;padding:8px;width:100%\">{}{}{}{}</table>\
         <p>{}</p></div>",
        esc(w.chain),
        esc(w.greeting),
        esc(first),
        esc(w.cancelled),
        esc(w.credited),
        row(w.reference, reference),
        row(w.value, &value),
        row(w.valid_until, valid_to),
        row(w.reservation, &order.reservation_number),
        esc(w.redeem)
    );
    (subject, text, html)
}

impl OrderService {
    /// Mails the buyer that the cancellation's refund became the voucher `reference`, when the
    /// order has an address.
    pub(super) async fn send_credit_mail(
        &self,
        order: &Order,
        reference: &str,
        amount: Money,
        valid_to: &str,
    ) -> AppResult<()> {
        if order.customer.email.is_empty() {
            return Ok(());
        }
        let (subject, text, html) =
            credit_mail(order, reference, amount, valid_to, Self::lang(order));
        self.messages
            .mailer
            .send_mail(&Mail {
                to: order.customer.email.clone(),
                subject,
                text,
                html,
                kind: message_kind::CANCELLATION_CREDIT.into(),
                reference: Some(order.id.to_string()),
                attachments: Vec::new(),
            })
            .await
    }
}
