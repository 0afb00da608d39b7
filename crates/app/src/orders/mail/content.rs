//! What the confirmation mail says of each screening: its facts, its tickets, and for a film
//! watched at home its window and viewings; and the subject line.

use kupa_domain::vod::{VodOffer, playbacks_per_ticket, vod_offer, watch_window};

use crate::catalogue::PresentationInfo;
use crate::orders::{Order, OrderTicket};
use crate::tickets_out::{self, ENTRANCE_BEFORE_MS, pick};

use super::words::Words;

/// "אזור יציע · שורה 4 · מושב 7" / "Section Balcony · Row 4 · Seat 7"; general admission has no
/// row or seat.
fn seat_text(t: &OrderTicket, lang: &str, w: &Words) -> String {
    if t.row_name.is_empty() {
        return w.general_admission.to_owned();
    }
    let section = pick(lang, &t.section_name, &t.section_name_en);
    let mut parts = Vec::new();
    if !section.trim().is_empty() {
        parts.push(format!("{} {section}", w.section));
    }
    parts.push(format!("{} {}", w.row, t.row_name));
    parts.push(format!("{} {}", w.seat, t.seat_name));
    parts.join(" · ")
}

pub(super) struct TicketLine {
    pub(super) seat: String,
    pub(super) ticket: String,
    /// The full price, as every screen writes it…
    pub(super) price: String,
    /// …and the service charge it includes ("" for none).
    pub(super) note: String,
    /// The ticket's e-document, what the door scans (none for a film watched at home).
    pub(super) edocument: Option<String>,
}

/// One screening of the order as the mail shows it: the event and its own tickets.
pub(super) struct Screening {
    pub(super) feature: String,
    /// Its facts, label and value (the hall, date, time and doors; for a film watched at home,
    /// the rental or purchase, its window and viewings); `ltr` values read left to right.
    pub(super) facts: Vec<Fact>,
    /// "date time" for the subject line's preheader.
    pub(super) when: String,
    pub(super) tickets: Vec<TicketLine>,
}

pub(super) struct Fact {
    pub(super) label: &'static str,
    pub(super) value: String,
    pub(super) ltr: bool,
}

impl Fact {
    fn text(label: &'static str, value: String) -> Fact {
        Fact {
            label,
            value,
            ltr: false,
        }
    }

    /// Digits and times, read left to right in Hebrew too.
    fn ltr(label: &'static str, value: String) -> Fact {
        Fact {
            label,
            value,
            ltr: true,
        }
    }
}

/// What a film watched at home offers the buyer: rental or purchase, from when (the purchase, or
/// the title's start when later) until when (UTC milliseconds; no end for a purchase of a title
/// with no end), and how many viewings.
struct VodTerms {
    offer: VodOffer,
    start_ms: i64,
    end_ms: Option<i64>,
    viewings: i64,
}

/// The watch window and viewings of an order's presentation, when it is video on demand (the
/// rules of decision 0053, as the player applies them).
fn vod_terms(order: &Order, info: &PresentationInfo) -> Option<VodTerms> {
    let p = &info.view.presentation;
    let offer = vod_offer(info.view.venue.venue_type_id)?;
    let paid_at = order.paid_at_ms.unwrap_or(order.created_at_ms);
    let (start_ms, end_ms) = watch_window(offer, p.starts_at_ms, p.available_until_ms, paid_at);
    let tickets = order
        .tickets
        .iter()
        .filter(|t| t.presentation_id == p.id && !t.is_sub_ticket && t.cancelled_at_ms.is_none())
        .count() as i64;
    Some(VodTerms {
        offer,
        // The buyer watches from the purchase on, or from the title's start when bought before.
        start_ms: start_ms.max(paid_at),
        end_ms,
        viewings: tickets * playbacks_per_ticket(offer),
    })
}

pub(super) fn screening(
    order: &Order,
    info: &PresentationInfo,
    tickets: &[&OrderTicket],
    lang: &str,
    w: &Words,
    base_url: &str,
) -> Screening {
    let v = &info.view;
    let starts = v.presentation.starts_at_ms;
    let date = tickets_out::local_date(starts, lang);
    let time = tickets_out::local_time(starts);
    let vod = vod_terms(order, info);
    let at = |ms: i64| {
        format!(
            "{} {}",
            tickets_out::local_date(ms, lang),
            tickets_out::local_time(ms)
        )
    };
    let facts = match &vod {
        Some(vod) => vec![
            Fact::text(
                w.offer,
                match vod.offer {
                    VodOffer::Rent => w.rent,
                    VodOffer::Buy => w.buy,
                }
                .to_owned(),
            ),
            Fact::text(w.watch_from, at(vod.start_ms)),
            Fact::text(w.watch_until, vod.end_ms.map_or(w.no_end.to_owned(), at)),
            Fact::ltr(w.viewings, vod.viewings.to_string()),
        ],
        None => vec![
            Fact::text(
                w.venue,
                format!(
                    "{} – {}",
                    pick(lang, &v.location.name, &v.location.name_en),
                    pick(lang, &v.venue.name, &v.venue.name_en)
                ),
            ),
            Fact::text(w.date, date.clone()),
            Fact::ltr(w.time, time.clone()),
            Fact::ltr(
                w.doors,
                tickets_out::local_time(starts - ENTRANCE_BEFORE_MS),
            ),
        ],
    };
    Screening {
        feature: pick(lang, &v.feature.name, &v.feature.name_en).to_owned(),
        facts,
        when: format!("{date} {time}"),
        tickets: tickets
            .iter()
            .map(|t| {
                let (price, note) =
                    tickets_out::ticket_price_text(t, &order.service_charge_name, lang);
                TicketLine {
                    // A film watched at home has no seat; its ticket says what it is.
                    seat: if vod.is_some() {
                        String::new()
                    } else {
                        seat_text(t, lang, w)
                    },
                    ticket: pick(lang, &t.ticket_name, &t.ticket_name_en).to_owned(),
                    price,
                    note,
                    edocument: vod
                        .is_none()
                        .then(|| format!("{base_url}{}", tickets_out::edocument_path(t))),
                }
            })
            .collect(),
    }
}

/// "הכרטיסים שלך לא' – הזמנה N", naming up to two films ("לא' ולב'"), then "ועוד k"; a film
/// watched at home: "הסרט א' מחכה לך – הזמנה N".
pub(super) fn subject(screenings: &[Screening], number: &str, he: bool, vod: bool) -> String {
    if let (true, Some(first)) = (vod, screenings.first()) {
        let film = &first.feature;
        return if he {
            format!("הסרט {film} מחכה לך – הזמנה {number}")
        } else {
            format!("{film} is ready to watch – reservation {number}")
        };
    }
    let mut films: Vec<&str> = Vec::new();
    for s in screenings {
        if !films.contains(&s.feature.as_str()) {
            films.push(&s.feature);
        }
    }
    let named = match films.as_slice() {
        [] => String::new(),
        [one] if he => format!("ל{one}"),
        [one] => format!("for {one}"),
        [a, b] if he => format!("ל{a} ול{b}"),
        [a, b] => format!("for {a} and {b}"),
        [a, rest @ ..] if he => format!("ל{a} ועוד {}", rest.len()),
        [a, rest @ ..] => format!("for {a} and {} more", rest.len()),
    };
    if he {
        format!("הכרטיסים שלך {named} – הזמנה {number}")
    } else {
        format!("Your tickets {named} – reservation {number}")
    }
}
