//! How a paid order reaches the buyer: the confirmation mail (its words and layout in [`super::mail`],
//! the tickets PDF attached, the signed link to the confirmation page) and, by text message, the
//! e-document links and the same signed link.

use crate::catalogue::PresentationInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::ports::{Attachment, Mail, Sms, message_kind};
use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;

use super::*;

impl OrderService {
    pub(super) fn lang(order: &Order) -> &'static str {
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

    /// The confirmation mail of a paid order in `lang`, with the tickets PDF attached: each of
    /// its screenings with its own tickets. None when the buyer gave no address.
    pub(super) async fn confirmation_mail(
        &self,
        order: &Order,
        lang: &str,
    ) -> AppResult<Option<Mail>> {
        if order.customer.email.is_empty() {
            return Ok(None);
        }
        let lang = if lang == "he" { "he" } else { "en" };
        let infos = self.presentations_of(order).await?;
        let Some(last) = crate::tickets_out::latest(&infos) else {
            return Err(AppError::internal("a paid order without a presentation"));
        };
        let config = self.catalogue.site_config().await?;
        // A film watched at home (the first presentation headlines the order) has its own terms
        // and no printed tickets.
        let vod = infos.first().is_some_and(|i| i.is_vod);
        let terms = config.confirmation.terms(lang, vod);
        let attachments = if vod {
            Vec::new()
        } else {
            let doc = crate::tickets_out::tickets_document(
                order,
                &infos,
                lang,
                &self.messages.public_url,
                terms,
            );
            vec![Attachment {
                name: format!("tickets-{}.pdf", order.reservation_number),
                content_type: "application/pdf".into(),
                bytes: kupa_documents::render_tickets_pdf(&doc).map_err(AppError::internal)?,
            }]
        };
        // Signed: they open the tickets from any device, until the day after the last screening.
        let confirmation = self.signed_confirmation_url(order, last, lang);
        let pdf_link = self.signed_tickets_url(order, last, lang);
        let content = super::mail::confirmation_mail(
            order,
            &infos,
            lang,
            terms,
            &super::mail::MailLinks {
                confirmation: &confirmation,
                pdf: &pdf_link,
                base_url: &self.messages.public_url,
            },
        );
        Ok(Some(Mail {
            to: order.customer.email.clone(),
            subject: content.subject,
            text: content.text,
            html: content.html,
            kind: message_kind::ORDER_CONFIRMATION.into(),
            reference: Some(order.id.to_string()),
            attachments,
        }))
    }

    /// Sends the links to a paid reservation's tickets by text message: for its owner only, the
    /// session that made it or the customer it belongs to, logged in on the asking session (a
    /// signed link opens the tickets but does not send them anywhere).
    pub async fn send_tickets(
        &self,
        session: &SessionId,
        login: Option<&str>,
        reservation_id: &ReservationId,
        mobile: &str,
    ) -> AppResult<()> {
        let to = kupa_domain::customer::MobileNumber::parse(mobile).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::InvalidMobileNumber,
                "not an Israeli mobile number",
            )
        })?;
        let not_yours = || AppError::rejected(ErrorCode::NotFound, "no such reservation of yours");
        let order = self
            .orders
            .order(reservation_id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid)
            .ok_or_else(not_yours)?;
        let owner = ReservationReader {
            session,
            login,
            link: None,
        };
        if !self.may_read(&order, owner).await? {
            tracing::info!(reservation = %order.id, "tickets by SMS refused: not the owner");
            return Err(not_yours());
        }
        self.send_ticket_links(&order, to).await
    }

    /// A paid order by its reservation identifier.
    pub async fn paid_order(&self, reservation_id: &ReservationId) -> AppResult<Option<Order>> {
        Ok(self
            .orders
            .order(reservation_id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid))
    }

    /// The businesses of the order's presentations (what staff are scoped by).
    pub async fn businesses_of(&self, order: &Order) -> AppResult<Vec<i64>> {
        Ok(self
            .presentations_of(order)
            .await?
            .iter()
            .map(|i| i.view.presentation.business_id)
            .collect())
    }

    /// The e-document links of each ticket and the signed link to the confirmation page, by
    /// text message to `to`, in the order's language (the outbox keeps the kind, not the text).
    pub async fn send_ticket_links(
        &self,
        order: &Order,
        to: kupa_domain::customer::MobileNumber,
    ) -> AppResult<()> {
        let infos = self.presentations_of(order).await?;
        let Some(last) = crate::tickets_out::latest(&infos) else {
            return Err(AppError::internal("a paid order without a presentation"));
        };
        let lang = Self::lang(order);
        let all = self.signed_confirmation_url(order, last, lang);
        let number = &order.reservation_number;
        // A film watched at home has nothing for a door to scan: the message says it is ready
        // and links the order, where it plays.
        if let Some(first) = infos.first().filter(|i| i.is_vod) {
            let v = &first.view;
            let film = crate::tickets_out::pick(lang, &v.feature.name, &v.feature.name_en);
            let text = if lang == "he" {
                format!("קופה: הסרט {film} מחכה לך, הזמנה {number}. לצפייה: {all}")
            } else {
                format!("Kupa: {film} is ready to watch, reservation {number}. Watch: {all}")
            };
            return self.send_sms_text(order, to, text).await;
        }
        // Each screening by its film and time, then its tickets' e-documents (what the door
        // scans; cancelled tickets left out), and the signed link to the confirmation page (all
        // the tickets, the PDF and the calendar file).
        let screenings: Vec<String> = crate::tickets_out::screenings(order, &infos)
            .into_iter()
            .filter_map(|(info, tickets)| {
                let links: Vec<String> = tickets
                    .iter()
                    .filter(|t| t.cancelled_at_ms.is_none())
                    .map(|t| {
                        format!(
                            "{}{}",
                            self.messages.public_url,
                            crate::tickets_out::edocument_path(t)
                        )
                    })
                    .collect();
                let v = &info.view;
                let film = crate::tickets_out::pick(lang, &v.feature.name, &v.feature.name_en);
                (!links.is_empty())
                    .then(|| format!("{film} ({}):\n{}", Self::when(info, lang), links.join("\n")))
            })
            .collect();
        let text = if lang == "he" {
            format!(
                "קופה: הכרטיסים שלך, הזמנה {number}:\n{}\nכל הכרטיסים: {all}",
                screenings.join("\n")
            )
        } else {
            format!(
                "Kupa: your tickets, reservation {number}:\n{}\nAll tickets: {all}",
                screenings.join("\n")
            )
        };
        self.send_sms_text(order, to, text).await
    }

    async fn send_sms_text(
        &self,
        order: &Order,
        to: kupa_domain::customer::MobileNumber,
        text: String,
    ) -> AppResult<()> {
        let sms = Sms {
            to,
            kind: message_kind::TICKETS.into(),
            reference: Some(order.id.to_string()),
            text,
        };
        self.messages.sms.send_sms(&sms).await.map_err(|_| {
            AppError::rejected(ErrorCode::SmsFailed, "the text message could not be sent")
        })
    }
}
