//! Tickets out: the reservation as a PDF, a calendar entry and e-documents, in the order's
//! language, with times shown in Asia/Jerusalem.

use kupa_documents::{
    CalendarEvent, Seat as DocSeat, Ticket as DocTicket, TicketLabels, TicketsDocument,
};
use kupa_domain::money::Money;
use kupa_domain::time::{ms_to_timestamp, zone};

use crate::catalogue::PresentationInfo;
use crate::orders::{Order, OrderTicket};

/// Doors open this long before the screening: the e-document's entrance time.
pub const ENTRANCE_BEFORE_MS: i64 = 30 * 60 * 1000;
const CHAIN_NAME_HE: &str = "קולנוע קופה";
const CHAIN_NAME_EN: &str = "Kupa Cinemas";

fn is_he(lang: &str) -> bool {
    lang == "he"
}

/// "יום ה׳, 14/05/2026" or "Thu, 14/05/2026": weekday, day/month/year (spec section 9).
pub fn local_date(ms: i64, lang: &str) -> String {
    let z = ms_to_timestamp(ms).to_zoned(zone());
    let weekday = z.weekday().to_monday_zero_offset() as usize;
    let names_he = [
        "יום ב׳",
        "יום ג׳",
        "יום ד׳",
        "יום ה׳",
        "יום ו׳",
        "שבת",
        "יום א׳",
    ];
    let names_en = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];
    let name = if is_he(lang) {
        names_he[weekday]
    } else {
        names_en[weekday]
    };
    format!("{name}, {:02}/{:02}/{}", z.day(), z.month(), z.year())
}

/// "20:30" in Asia/Jerusalem.
pub fn local_time(ms: i64) -> String {
    let z = ms_to_timestamp(ms).to_zoned(zone());
    format!("{:02}:{:02}", z.hour(), z.minute())
}

fn labels(lang: &str) -> TicketLabels {
    if is_he(lang) {
        TicketLabels {
            ticket_counter: "כרטיס {n} מתוך {total}".into(),
            complex: "קולנוע".into(),
            hall: "אולם".into(),
            date: "תאריך".into(),
            time: "שעה".into(),
            section: "אזור".into(),
            row: "שורה".into(),
            seat: "מושב".into(),
            general_admission: "ללא מקומות מסומנים".into(),
            ticket_type: "סוג כרטיס".into(),
            price: "מחיר".into(),
            order_total: "סה״כ להזמנה".into(),
            reservation_number: "מספר הזמנה".into(),
            entrance_time: "כניסה לאולם".into(),
            qr_caption: "הציגו את הקוד בכניסה לאולם".into(),
            terms: "תנאי ההזמנה".into(),
        }
    } else {
        TicketLabels {
            ticket_counter: "Ticket {n} of {total}".into(),
            complex: "Cinema".into(),
            hall: "Hall".into(),
            date: "Date".into(),
            time: "Time".into(),
            section: "Section".into(),
            row: "Row".into(),
            seat: "Seat".into(),
            general_admission: "General admission".into(),
            ticket_type: "Ticket".into(),
            price: "Price".into(),
            order_total: "Order total".into(),
            reservation_number: "Reservation".into(),
            entrance_time: "Doors open".into(),
            qr_caption: "Show this code at the hall's entrance".into(),
            terms: "Order terms".into(),
        }
    }
}

/// The Hebrew or the English of a name, in the language asked for (the Hebrew when there is no
/// English).
pub(crate) fn pick<'a>(lang: &str, he: &'a str, en: &'a str) -> &'a str {
    if is_he(lang) || en.is_empty() { he } else { en }
}

/// The one way a ticket's price is written on every document (as on every screen): its full
/// price, and beside it the service charge that price includes ("כולל דמי טיפול ₪5.00" /
/// "incl. ₪5.00 service charge"; empty when it includes none). `charge_name` is the business's
/// Hebrew name of the charge.
pub fn ticket_price_text(t: &OrderTicket, charge_name: &str, lang: &str) -> (String, String) {
    let full = (t.price + t.service_charge).display_ils();
    (
        full,
        service_charge_note(t.service_charge, charge_name, lang),
    )
}

/// "כולל דמי טיפול ₪5.00" / "incl. ₪5.00 service charge"; empty for no charge.
pub fn service_charge_note(charge: Money, charge_name: &str, lang: &str) -> String {
    if charge <= Money::ZERO {
        return String::new();
    }
    let amount = charge.display_ils();
    if is_he(lang) {
        let name = if charge_name.trim().is_empty() {
            "דמי טיפול"
        } else {
            charge_name.trim()
        };
        format!("כולל {name} {amount}")
    } else {
        format!("incl. {amount} service charge")
    }
}

/// An order's price as lines of (what, amount), in its language, the way every screen shows it:
/// each ticket (its seat and type) at its full price with the service charge it includes; each
/// product; a per-order service charge; the total. For the confirmation mail.
pub fn price_lines(order: &Order, lang: &str) -> Vec<(String, String)> {
    let mut lines = Vec::new();
    for t in &order.tickets {
        let seat = if t.row_name.is_empty() {
            t.seat_name.clone()
        } else if is_he(lang) {
            format!("שורה {} מושב {}", t.row_name, t.seat_name)
        } else {
            format!("Row {} seat {}", t.row_name, t.seat_name)
        };
        let (full, note) = ticket_price_text(t, &order.service_charge_name, lang);
        let ticket = pick(lang, &t.ticket_name, &t.ticket_name_en);
        let amount = if note.is_empty() {
            full
        } else {
            format!("{full} ({note})")
        };
        lines.push((format!("{seat} · {ticket}"), amount));
    }
    for p in &order.products {
        lines.push((
            format!("{} × {}", pick(lang, &p.name, &p.name_en), p.quantity),
            (p.unit_price * p.quantity).display_ils(),
        ));
    }
    let b = order.price_breakdown();
    if b.order_service_charge > Money::ZERO {
        let name = if is_he(lang) {
            format!("{} להזמנה", order.service_charge_name)
        } else {
            "Service charge for the order".to_owned()
        };
        lines.push((name, b.order_service_charge.display_ils()));
    }
    lines.push((
        if is_he(lang) { "סה״כ" } else { "Total" }.to_owned(),
        b.total.display_ils(),
    ));
    lines
}

/// The e-document link a ticket's QR carries.
pub fn edocument_path(t: &OrderTicket) -> String {
    format!("/edocument/{}", t.document_key)
}

/// The tickets of an order as a document: each ticket with its own presentation's event, from
/// `infos` (the order's presentations; the first, which titles the document, stands in for any
/// not given).
pub fn tickets_document(
    order: &Order,
    infos: &[PresentationInfo],
    lang: &str,
    base_url: &str,
    terms: &str,
) -> TicketsDocument {
    let Some(headline) = infos.first() else {
        return TicketsDocument {
            lang: lang.to_owned(),
            rtl: is_he(lang),
            title: String::new(),
            chain_name: if is_he(lang) {
                CHAIN_NAME_HE
            } else {
                CHAIN_NAME_EN
            }
            .to_owned(),
            labels: labels(lang),
            terms: terms.to_owned(),
            tickets: Vec::new(),
        };
    };
    let info_of = |t: &OrderTicket| {
        infos
            .iter()
            .find(|i| i.view.presentation.id == t.presentation_id)
            .unwrap_or(headline)
    };
    let v = &headline.view;
    let tickets = order
        .tickets
        .iter()
        .map(|t| (t, &info_of(t).view))
        .map(|(t, v)| (t, v, v.presentation.starts_at_ms))
        .map(|(t, v, starts)| DocTicket {
            feature_name: pick(lang, &v.feature.name, &v.feature.name_en).to_owned(),
            feature_name_secondary: if is_he(lang) {
                v.feature.name_en.clone()
            } else {
                String::new()
            },
            complex: pick(lang, &v.location.name, &v.location.name_en).to_owned(),
            hall: pick(lang, &v.venue.name, &v.venue.name_en).to_owned(),
            date: local_date(starts, lang),
            time: local_time(starts),
            seat: if t.row_name.is_empty() {
                DocSeat::GeneralAdmission
            } else {
                DocSeat::Reserved {
                    section: pick(lang, &t.section_name, &t.section_name_en).to_owned(),
                    row: t.row_name.clone(),
                    seat: t.seat_name.clone(),
                }
            },
            ticket_type: pick(lang, &t.ticket_name, &t.ticket_name_en).to_owned(),
            price: ticket_price_text(t, &order.service_charge_name, lang).0,
            price_note: ticket_price_text(t, &order.service_charge_name, lang).1,
            order_total: order.total.display_ils(),
            reservation_number: order.reservation_number.clone(),
            entrance_time: local_time(starts - ENTRANCE_BEFORE_MS),
            qr_payload: format!("{base_url}{}", edocument_path(t)),
        })
        .collect();
    TicketsDocument {
        lang: lang.to_owned(),
        rtl: is_he(lang),
        title: pick(lang, &v.feature.name, &v.feature.name_en).to_owned(),
        chain_name: if is_he(lang) {
            CHAIN_NAME_HE
        } else {
            CHAIN_NAME_EN
        }
        .to_owned(),
        labels: labels(lang),
        terms: terms.to_owned(),
        tickets,
    }
}

/// The order's screenings, each with its tickets, in the order's presentation order: how the
/// mail, the text message and the calendar file show an order of several presentations. A ticket
/// of a presentation missing from `infos` goes with the first (the headline).
pub fn screenings<'a>(
    order: &'a Order,
    infos: &'a [PresentationInfo],
) -> Vec<(&'a PresentationInfo, Vec<&'a OrderTicket>)> {
    let mut out: Vec<(&PresentationInfo, Vec<&OrderTicket>)> =
        infos.iter().map(|i| (i, Vec::new())).collect();
    for t in &order.tickets {
        let at = out
            .iter()
            .position(|(i, _)| i.view.presentation.id == t.presentation_id)
            .unwrap_or(0);
        if let Some((_, tickets)) = out.get_mut(at) {
            tickets.push(t);
        }
    }
    out.retain(|(_, tickets)| !tickets.is_empty());
    out
}

/// The presentation a signed link of the order must outlive: the latest to start (a link is good
/// until the end of the day after it, so it still opens on the day of the last screening).
pub fn latest(infos: &[PresentationInfo]) -> Option<&PresentationInfo> {
    infos
        .iter()
        .max_by_key(|i| i.view.presentation.starts_at_ms)
}

/// "שורה 4 מושב 7" / "Row 4 Seat 7"; a general-admission place by its name.
fn seat_words(t: &OrderTicket, lang: &str) -> String {
    if t.row_name.is_empty() {
        t.seat_name.clone()
    } else if is_he(lang) {
        format!("שורה {} מושב {}", t.row_name, t.seat_name)
    } else {
        format!("Row {} Seat {}", t.row_name, t.seat_name)
    }
}

/// The order's screenings as calendar entries, one each, with that screening's own seats (not
/// the cancelled ones; a screening whose every ticket is cancelled is written cancelled). `url` is
/// each entry's link (the signed confirmation page): the file carries no bare reservation id, each
/// UID being a one-way hash of it. The first screening keeps the UID an order of one had, so a
/// file imported before stays one event.
pub fn calendar_events(
    order: &Order,
    infos: &[PresentationInfo],
    lang: &str,
    url: &str,
    now_ms: i64,
) -> Vec<CalendarEvent> {
    screenings(order, infos)
        .into_iter()
        .enumerate()
        .map(|(i, (info, tickets))| {
            let v = &info.view;
            let starts = v.presentation.starts_at_ms;
            let live: Vec<&&OrderTicket> = tickets
                .iter()
                .filter(|t| t.cancelled_at_ms.is_none())
                .collect();
            let seats = live
                .iter()
                .map(|t| seat_words(t, lang))
                .collect::<Vec<_>>()
                .join(", ");
            let uid = if i == 0 {
                crate::links::calendar_uid(order.id.as_str())
            } else {
                crate::links::calendar_uid(&format!("{}\n{}", order.id, v.presentation.id))
            };
            CalendarEvent {
                uid,
                stamp: ms_to_timestamp(now_ms),
                start: ms_to_timestamp(starts),
                end: ms_to_timestamp(starts + v.feature.runtime.max(60) * 60_000),
                summary: pick(lang, &v.feature.name, &v.feature.name_en).to_owned(),
                location: format!(
                    "{} – {}",
                    pick(lang, &v.location.name, &v.location.name_en),
                    pick(lang, &v.venue.name, &v.venue.name_en)
                ),
                description: format!(
                    "{} {} · {}",
                    if is_he(lang) {
                        "הזמנה"
                    } else {
                        "Reservation"
                    },
                    order.reservation_number,
                    seats
                ),
                url: url.to_owned(),
                language: lang.to_owned(),
                cancelled: live.is_empty(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_and_times_are_shown_in_jerusalem() {
        // 2026-05-14 17:30 UTC is Thursday 20:30 in Jerusalem (summer time).
        let ms = "2026-05-14T17:30:00Z"
            .parse::<jiff::Timestamp>()
            .unwrap()
            .as_millisecond();
        assert_eq!(local_time(ms), "20:30");
        assert_eq!(local_date(ms, "he"), "יום ה׳, 14/05/2026");
        assert_eq!(local_date(ms, "en"), "Thu, 14/05/2026");
        let winter = "2026-12-01T18:30:00Z"
            .parse::<jiff::Timestamp>()
            .unwrap()
            .as_millisecond();
        assert_eq!(local_time(winter), "20:30");
    }
}
