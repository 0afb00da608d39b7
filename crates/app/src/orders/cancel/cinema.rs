//! When the cinema changes a screening (decision 0058): its cancellation of one presentation's
//! tickets of a paid order — no charge, no window, through the one cancellation transaction and
//! its refund ledger — and the mail and text message that tell the buyer of a cancel or a move.

use kupa_domain::customer::MobileNumber;
use kupa_domain::ids::PresentationId;
use kupa_domain::ids::ReservationId;
use kupa_domain::seating::SeatAddress;

use crate::error::AppResult;
use crate::ports::{Mail, Sms, message_kind};
use crate::programme::{CinemaCancel, FeatureChoice};
use crate::seat_events::SeatChangeKind;

use super::super::*;

impl OrderService {
    /// Tells seat maps that the released holds of the presentation are free.
    pub fn announce_released(&self, presentation_id: PresentationId, released: &[SeatAddress]) {
        self.booking.settled(
            released
                .iter()
                .map(|place| (presentation_id, *place, crate::booking::Settled::Freed))
                .collect(),
        );
        self.booking.publish(
            presentation_id,
            SeatChangeKind::Released,
            released.iter().copied(),
        );
    }

    /// Cancels the order's live tickets of the presentation for the cinema: no cancellation
    /// charge, no window, the refund split back where the money came from and asked of the
    /// provider at once (the sweeper retries a failure); the seats announced free and the buyer
    /// told. Run under the order's lock: a second call finds nothing left ([`CinemaCancel::Nothing`]).
    pub async fn cancel_for_the_cinema(
        &self,
        order_id: &ReservationId,
        presentation_id: PresentationId,
        feature: &FeatureChoice,
        starts_at_ms: i64,
    ) -> AppResult<CinemaCancel> {
        let Some(order) = self.orders.order(order_id).await? else {
            return Ok(CinemaCancel::Nothing);
        };
        let lines: Vec<i64> = order
            .tickets_of(presentation_id)
            .filter(|t| t.cancelled_at_ms.is_none())
            .map(|t| t.line)
            .collect();
        if lines.is_empty() {
            return Ok(CinemaCancel::Nothing);
        }
        let request = CancelRequest {
            lines: Some(lines),
            dry_run: false,
            credit: None,
        };
        let now = self.clock.now_ms();
        let written = self
            .cancel_written(&order, &request, None, &token(), now)
            .await?;
        let done = match written {
            Ok(done) => done,
            Err(CancelRefusal::NothingToCancel | CancelRefusal::NotPaid) => {
                return Ok(CinemaCancel::Nothing);
            }
            Err(CancelRefusal::BoxOfficeOnly(_)) => {
                return Ok(CinemaCancel::BoxOffice(order.reservation_number.clone()));
            }
            Err(other) => return Err(other.into()),
        };
        tracing::info!(reservation = %order.id, cancellation = %done.id, presentation = presentation_id.get(), refund = done.refund.minor(), "tickets cancelled by the cinema");
        self.booking.publish(
            presentation_id,
            SeatChangeKind::Released,
            order
                .tickets_of(presentation_id)
                .filter(|t| done.lines.contains(&t.line))
                .map(OrderTicket::address),
        );
        for r in &done.refunds {
            if r.status == RefundStatus::Pending {
                // A provider that fails now is retried by the refund sweeper; the ledger has it.
                if let Err(e) = self.try_refund(r).await {
                    tracing::error!(reservation = %order.id, refund = %r.id, error = %e, "a cinema cancel's refund waits for the sweeper");
                }
            }
        }
        let lang = Self::lang(&order);
        let when = when(starts_at_ms, lang);
        let film = if lang == "he" {
            &feature.name
        } else {
            &feature.name_en
        };
        let amount = done.refund.display_ils();
        let (subject, text) = if lang == "he" {
            (
                format!("ההקרנה בוטלה – הזמנה {}", order.reservation_number),
                format!(
                    "ההקרנה של {film} ב-{when} בוטלה על ידי הקולנוע. הכרטיסים שלך אליה בהזמנה {} בוטלו, והוחזרו {amount}, כולל דמי השירות, לאמצעי התשלום.",
                    order.reservation_number
                ),
            )
        } else {
            (
                format!("Screening cancelled – order {}", order.reservation_number),
                format!(
                    "The screening of {film} on {when} was cancelled by the cinema. Your tickets for it in order {} are cancelled, and {amount} is refunded to the way you paid, service charges included.",
                    order.reservation_number
                ),
            )
        };
        self.tell_buyer(&order, message_kind::SCREENING_CANCELLED, subject, text)
            .await;
        Ok(CinemaCancel::Refunded(done.refund))
    }

    /// Tells the paid order's buyer that its screening moved; false when the order is gone or
    /// has nothing left of it.
    pub async fn tell_of_move(
        &self,
        order_id: &ReservationId,
        feature: &FeatureChoice,
        starts_at_ms: i64,
        hall: &(String, String),
    ) -> AppResult<bool> {
        let Some(order) = self.orders.order(order_id).await? else {
            return Ok(false);
        };
        let lang = Self::lang(&order);
        let when = when(starts_at_ms, lang);
        let (subject, text) = if lang == "he" {
            (
                format!("שינוי בהקרנה – הזמנה {}", order.reservation_number),
                format!(
                    "ההקרנה של {} הועברה ל-{when}, {}. המקומות שלך נשמרו. אם המועד החדש אינו מתאים, אפשר לבטל את ההזמנה בדף ההזמנה ללא דמי ביטול.",
                    feature.name, hall.0
                ),
            )
        } else {
            (
                format!("Screening changed – order {}", order.reservation_number),
                format!(
                    "The screening of {} moved to {when}, {}. Your seats are kept. If the new time does not suit you, you may cancel the order on its page with no cancellation charge.",
                    feature.name_en, hall.1
                ),
            )
        };
        self.tell_buyer(&order, message_kind::SCREENING_MOVED, subject, text)
            .await;
        Ok(true)
    }

    /// Mail and text message to the order's own address and number, each if it has one. A
    /// message that fails is logged, never fatal: the change stands, the reservation page says it.
    async fn tell_buyer(&self, order: &Order, kind: &str, subject: String, text: String) {
        if !order.customer.email.is_empty() {
            let html = format!(
                "<div dir=\"{}\" style=\"font-family:Arial,sans-serif\"><p>{}</p></div>",
                if Self::lang(order) == "he" {
                    "rtl"
                } else {
                    "ltr"
                },
                kupa_domain::html::escape(&text)
            );
            let mail = Mail {
                to: order.customer.email.clone(),
                subject,
                text: text.clone(),
                html,
                kind: kind.into(),
                reference: Some(order.id.to_string()),
                attachments: Vec::new(),
            };
            if let Err(e) = self.messages.mailer.send_mail(&mail).await {
                tracing::error!(reservation = %order.id, error = %e, kind, "the buyer's mail was not sent");
            }
        }
        if let Some(to) = MobileNumber::parse(&order.customer.mobile_number) {
            let sms = Sms {
                to,
                kind: kind.into(),
                reference: Some(order.id.to_string()),
                text,
            };
            if let Err(e) = self.messages.sms.send_sms(&sms).await {
                tracing::error!(reservation = %order.id, error = %e, kind, "the buyer's text message was not sent");
            }
        }
    }
}

fn when(ms: i64, lang: &str) -> String {
    format!(
        "{} {}",
        crate::tickets_out::local_date(ms, lang),
        crate::tickets_out::local_time(ms)
    )
}
