//! How a paid order reaches the buyer: the confirmation mail (with the tickets PDF and a signed
//! link to them) and, by text message, the e-document links and the signed link.

use crate::catalogue::PresentationInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::ports::{Attachment, Mail, Sms, message_kind};

use super::*;

impl OrderService {
    fn lang(order: &Order) -> &'static str {
        if order.locale == "he" { "he" } else { "en" }
    }

    fn when(info: &PresentationInfo, lang: &str) -> String {
        let starts = info.view.presentation.starts_at_ms;
        format!(
            "{} {}",
            crate::tickets_out::local_date(starts, lang),
            crate::tickets_out::local_time(starts)
        )
    }

    /// The confirmation mail of a paid order, in its language, with the tickets PDF attached.
    pub(super) async fn send_confirmation(&self, order: &Order) -> AppResult<()> {
        if order.customer.email.is_empty() {
            return Ok(());
        }
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        let config = self.catalogue.site_config().await?;
        let lang = Self::lang(order);
        let terms = if lang == "he" {
            &config.confirmation.order_terms
        } else {
            &config.confirmation.order_terms_en
        };
        let doc = crate::tickets_out::tickets_document(
            order,
            &info,
            lang,
            &self.messages.public_url,
            terms,
        );
        let pdf = kupa_documents::render_tickets_pdf(&doc).map_err(AppError::internal)?;
        let v = &info.view;
        let when = Self::when(&info, lang);
        // Signed: it opens the tickets from any device, until the day after the event.
        let link = self.signed_tickets_url(order, &info, lang);
        let prices = crate::tickets_out::price_lines(order, lang);
        let prices_text: String = prices
            .iter()
            .map(|(what, amount)| format!("{what}: {amount}\n"))
            .collect();
        let (subject, text) = if lang == "he" {
            (
                format!(
                    "הכרטיסים שלך ל{} – הזמנה {}",
                    v.feature.name, order.reservation_number
                ),
                format!(
                    "שלום {},\n\nההזמנה {} שולמה.\n{} · {} · {}\n{} כרטיסים. הכרטיסים מצורפים, וגם כאן: {}\n\n{}\n{}",
                    order.customer.first_name,
                    order.reservation_number,
                    v.feature.name,
                    v.location.name,
                    when,
                    order.tickets.len(),
                    link,
                    prices_text,
                    terms
                ),
            )
        } else {
            (
                format!(
                    "Your tickets for {} – reservation {}",
                    v.feature.name_en, order.reservation_number
                ),
                format!(
                    "Hello {},\n\nReservation {} is paid.\n{} · {} · {}\n{} tickets. They are attached, and also here: {}\n\n{}\n{}",
                    order.customer.first_name,
                    order.reservation_number,
                    v.feature.name_en,
                    v.location.name_en,
                    when,
                    order.tickets.len(),
                    link,
                    prices_text,
                    terms
                ),
            )
        };
        let dir = if lang == "he" { "rtl" } else { "ltr" };
        let price_rows: String = prices
            .iter()
            .map(|(what, amount)| {
                format!(
                    "<tr><td style=\"padding:2px 0\">{}</td><td style=\"padding:2px 12px;white-space:nowrap\"><bdi>{}</bdi></td></tr>",
                    html_escape(what),
                    html_escape(amount)
                )
            })
            .collect();
        let greeting = text.split("\n\n").take(2).collect::<Vec<_>>().join("\n\n");
        let html = format!(
            "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><body style=\"font-family:sans-serif\"><p>{}</p><table>{price_rows}</table><p>{}</p><p><a href=\"{}\">{}</a></p></body></html>",
            html_escape(&greeting).replace('\n', "<br>"),
            html_escape(terms).replace('\n', "<br>"),
            html_escape(&link),
            if lang == "he" {
                "הכרטיסים"
            } else {
                "Your tickets"
            }
        );
        let mail = Mail {
            to: order.customer.email.clone(),
            subject,
            text,
            html,
            kind: message_kind::ORDER_CONFIRMATION.into(),
            reference: Some(order.id.clone()),
            attachments: vec![Attachment {
                name: format!("tickets-{}.pdf", order.reservation_number),
                content_type: "application/pdf".into(),
                bytes: pdf,
            }],
        };
        self.messages.mailer.send_mail(&mail).await
    }

    /// Sends the links to a paid reservation's tickets by text message (the buyer's own order only).
    pub async fn send_tickets(
        &self,
        session: &str,
        reservation_id: &str,
        mobile: &str,
    ) -> AppResult<()> {
        let to = kupa_domain::customer::MobileNumber::parse(mobile).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::InvalidMobileNumber,
                "not an Israeli mobile number",
            )
        })?;
        let order = self
            .orders
            .order(reservation_id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid && o.session_id == session)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::NotFound, "no such reservation of yours")
            })?;
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        let v = &info.view;
        let lang = Self::lang(&order);
        let when = Self::when(&info, lang);
        let links: Vec<String> = order
            .tickets
            .iter()
            .map(|t| {
                format!(
                    "{}{}",
                    self.messages.public_url,
                    crate::tickets_out::edocument_path(t)
                )
            })
            .collect();
        // Each ticket's e-document (what the door scans), and the signed link to them all as a PDF.
        let pdf = self.signed_tickets_url(&order, &info, lang);
        let text = if lang == "he" {
            format!(
                "קופה: הכרטיסים ל{} ({}), הזמנה {}:\n{}\nPDF: {pdf}",
                v.feature.name,
                when,
                order.reservation_number,
                links.join("\n")
            )
        } else {
            format!(
                "Kupa: your tickets for {} ({}), reservation {}:\n{}\nPDF: {pdf}",
                v.feature.name_en,
                when,
                order.reservation_number,
                links.join("\n")
            )
        };
        let sms = Sms {
            to,
            kind: message_kind::TICKETS.into(),
            reference: Some(order.id.clone()),
            text,
        };
        self.messages.sms.send_sms(&sms).await.map_err(|_| {
            AppError::rejected(ErrorCode::SmsFailed, "the text message could not be sent")
        })
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
