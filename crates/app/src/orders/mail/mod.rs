//! The confirmation mail's words and layout: the same content twice, as HTML that looks like the
//! chain's site (the dark header band, the red button) and as plain text for clients that show no
//! HTML. Mail clients drop `<style>` blocks and most CSS, so the HTML is tables with inline styles
//! only; Hebrew is right to left on every block, as many clients ignore `dir` on `<html>`.

mod content;
mod words;

use crate::catalogue::PresentationInfo;
use crate::tickets_out;

use super::Order;
use content::{Screening, TicketLine, screening, subject};
use words::{EN, EN_VOD, HE, HE_VOD};

/// Where the mail's links lead; every one is absolute, at the site's public address.
pub(super) struct MailLinks<'a> {
    /// The signed confirmation page (`/reservation/{id}?exp=…&sig=…`).
    pub confirmation: &'a str,
    /// The signed tickets PDF, in the mail's language.
    pub pdf: &'a str,
    /// The site's public address, for each ticket's e-document.
    pub base_url: &'a str,
}

pub(super) struct ConfirmationMail {
    pub subject: String,
    pub text: String,
    pub html: String,
}

const ACCENT: &str = "#d6153f";
const HEADER: &str = "#111318";
const PAGE: &str = "#f3f4f6";
const TEXT: &str = "#15171c";
const MUTED: &str = "#5a5f6b";
const BORDER: &str = "#dfe1e6";
const FONT: &str = "Arial,'Noto Sans Hebrew','Segoe UI',Helvetica,sans-serif";

/// The confirmation mail of a paid order: each of its screenings (`infos`, the order's
/// presentations in its order) with its own hall, date, time and tickets, then the order's
/// products and total.
pub(super) fn confirmation_mail(
    order: &Order,
    infos: &[PresentationInfo],
    lang: &str,
    terms: &str,
    links: &MailLinks<'_>,
) -> ConfirmationMail {
    let he = lang == "he";
    // A film watched at home (the order's first presentation, as its page headlines) is told as
    // one: no seats, doors, printed tickets or QR codes.
    let vod = infos.first().is_some_and(|i| i.is_vod);
    let w = match (he, vod) {
        (true, false) => &HE,
        (false, false) => &EN,
        (true, true) => &HE_VOD,
        (false, true) => &EN_VOD,
    };
    let screenings: Vec<Screening> = tickets_out::screenings(order, infos)
        .into_iter()
        .map(|(info, tickets)| screening(order, info, &tickets, lang, w, links.base_url))
        .collect();
    let several =
        (screenings.len() > 1).then(|| w.several.replace("{n}", &screenings.len().to_string()));
    let number = &order.reservation_number;
    let name = order.customer.first_name.trim();
    let greeting = if name.is_empty() {
        format!("{},", w.greeting)
    } else {
        format!("{} {name},", w.greeting)
    };
    // Products, a per-order service charge and the total: the lines after the tickets'.
    let rest: Vec<(String, String)> = tickets_out::price_lines(order, lang)
        .into_iter()
        .skip(order.tickets.len())
        .collect();
    let subject = subject(&screenings, number, he, vod);
    // What the mail says after the lines: the attached PDF and the QR codes, or for a film at
    // home the devices it plays on.
    let notes: Vec<&str> = if vod {
        vec![w.devices]
    } else {
        vec![w.attached, w.qr_hint]
    };

    let text = {
        let mut s = format!("{greeting}\n\n{}\n\n", w.paid);
        s += &format!("{}: {number}\n", w.reservation);
        s += &format!("{}: {}\n", w.view, links.confirmation);
        if let Some(several) = &several {
            s += &format!("\n{several}\n");
        }
        for sc in &screenings {
            s += &format!("\n{}\n", sc.feature);
            for f in &sc.facts {
                s += &format!("{}: {}\n", f.label, f.value);
            }
            s += &format!("{}\n", w.tickets);
            for t in &sc.tickets {
                let note = if t.note.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", t.note)
                };
                let what = if t.seat.is_empty() {
                    t.ticket.clone()
                } else {
                    format!("{} · {}", t.seat, t.ticket)
                };
                s += &format!("- {what}: {}{note}\n", t.price);
                if let Some(edocument) = &t.edocument {
                    s += &format!("  {}: {edocument}\n", w.digital_ticket);
                }
            }
        }
        s += "\n";
        for (what, amount) in &rest {
            s += &format!("{what}: {amount}\n");
        }
        s += "\n";
        if vod {
            s += &format!("{}\n", notes.join("\n"));
        } else {
            s += &format!("{}\n{}: {}\n{}\n", w.attached, w.pdf, links.pdf, w.qr_hint);
        }
        s += &format!("{}\n", w.link_valid);
        if !terms.trim().is_empty() {
            s += &format!("\n{}\n{terms}\n", w.terms);
        }
        s += &format!("\n{}\n", w.chain);
        s
    };

    let dir = if he { "rtl" } else { "ltr" };
    let start = if he { "right" } else { "left" };
    let end = if he { "left" } else { "right" };
    let cell = format!(
        "padding:10px 0;border-bottom:1px solid {BORDER};text-align:{start};vertical-align:top"
    );
    let amount_cell = format!(
        "padding:10px 0;border-bottom:1px solid {BORDER};text-align:{end};vertical-align:top;white-space:nowrap"
    );
    let fact = |label: &str, value: &str| {
        format!(
            "<tr><td style=\"padding:4px 0;color:{MUTED};font-size:14px;text-align:{start};width:40%\">{}</td>\
<td style=\"padding:4px 0;font-size:15px;font-weight:bold;text-align:{start}\">{}</td></tr>",
            esc(label),
            value
        )
    };
    let ltr = |s: &str| format!("<span dir=\"ltr\">{}</span>", esc(s));
    let ticket_rows = |tickets: &[TicketLine]| -> String {
        tickets
            .iter()
            .map(|t| {
                // The seat in bold and the ticket under it; a film at home has only its ticket.
                let (head, sub) = if t.seat.is_empty() {
                    (esc(&t.ticket), String::new())
                } else {
                    (
                        esc(&t.seat),
                        format!(
                            "<div style=\"font-size:14px;color:{MUTED}\">{}</div>",
                            esc(&t.ticket)
                        ),
                    )
                };
                let edocument = t.edocument.as_deref().map_or(String::new(), |href| {
                    format!(
                        "<div style=\"padding-top:4px;font-size:14px\"><a href=\"{}\" style=\"color:{ACCENT};text-decoration:underline\">{}</a></div>",
                        esc(href),
                        esc(w.digital_ticket)
                    )
                });
                format!(
                    "<tr><td style=\"{cell}\"><div style=\"font-size:15px;font-weight:bold\">{head}</div>{sub}{edocument}</td>\
<td style=\"{amount_cell}\"><div style=\"font-size:15px;font-weight:bold\">{}</div><div style=\"font-size:12px;color:{MUTED};white-space:normal\">{}</div></td></tr>",
                    ltr(&t.price),
                    esc(&t.note)
                )
            })
            .collect()
    };
    // Each screening: its film as the heading, its facts, then its own tickets.
    let screening_blocks: String = screenings
        .iter()
        .map(|sc| {
            let facts: String = sc
                .facts
                .iter()
                .map(|f| {
                    let value = if f.ltr { ltr(&f.value) } else { esc(&f.value) };
                    fact(f.label, &value)
                })
                .collect();
            format!(
                "<tr><td style=\"padding:16px 24px 0;text-align:{start}\">\
<h2 style=\"margin:0 0 8px;font-size:22px;line-height:1.3;color:{TEXT}\">{}</h2>\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\">{facts}</table>\
<h3 style=\"margin:12px 0 4px;font-size:16px\">{}</h3>\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\">{}</table>\
</td></tr>",
                esc(&sc.feature),
                esc(w.tickets),
                ticket_rows(&sc.tickets)
            )
        })
        .collect();
    let rest_rows: String = rest
        .iter()
        .enumerate()
        .map(|(i, (what, amount))| {
            let total = i + 1 == rest.len();
            let weight = if total {
                "font-weight:bold;font-size:17px"
            } else {
                "font-size:15px"
            };
            format!(
                "<tr><td style=\"{cell};{weight}\">{}</td><td style=\"{amount_cell};{weight}\">{}</td></tr>",
                esc(what),
                ltr(amount)
            )
        })
        .collect();
    let several_block = several
        .as_deref()
        .map(|t| {
            format!(
                "<p style=\"margin:12px 0 0;font-size:16px;font-weight:bold\">{}</p>",
                esc(t)
            )
        })
        .unwrap_or_default();
    let terms_block = if terms.trim().is_empty() {
        String::new()
    } else {
        format!(
            "<tr><td style=\"padding:16px 24px 0;text-align:{start}\"><div style=\"font-size:13px;font-weight:bold;color:{MUTED}\">{}</div>\
<div style=\"font-size:13px;color:{MUTED};line-height:1.5\">{}</div></td></tr>",
            esc(w.terms),
            esc(terms).replace('\n', "<br>")
        )
    };
    let button = |href: &str, label: &str, primary: bool| {
        let style = if primary {
            format!("background:{ACCENT};color:#ffffff;border:2px solid {ACCENT}")
        } else {
            format!("background:#ffffff;color:{TEXT};border:2px solid {BORDER}")
        };
        format!(
            "<a href=\"{}\" style=\"display:inline-block;{style};border-radius:8px;padding:12px 22px;font-size:16px;font-weight:bold;text-decoration:none;margin:4px\">{}</a>",
            esc(href),
            esc(label)
        )
    };
    let preheader = screenings
        .iter()
        .map(|sc| format!("{} · {}", sc.feature, sc.when))
        .chain([format!("{} {number}", w.reservation)])
        .collect::<Vec<_>>()
        .join(" · ");
    let html = format!(
        "<!doctype html>\
<html lang=\"{lang}\" dir=\"{dir}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\"><title>{subject}</title></head>\
<body dir=\"{dir}\" style=\"margin:0;padding:0;background:{PAGE};font-family:{FONT};color:{TEXT}\">\
<div style=\"display:none;max-height:0;overflow:hidden\">{preheader}</div>\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\" style=\"background:{PAGE}\"><tr><td align=\"center\" style=\"padding:16px 8px\">\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\" style=\"max-width:600px;background:#ffffff;border-radius:14px;overflow:hidden;border:1px solid {BORDER}\">\
<tr><td style=\"background:{HEADER};padding:18px 24px;text-align:{start}\"><span style=\"color:#f5f5f7;font-size:20px;font-weight:bold\">{chain}</span></td></tr>\
<tr><td style=\"padding:24px 24px 8px;text-align:{start}\">\
<p style=\"margin:0 0 8px;font-size:16px\">{greeting}</p>\
<p style=\"margin:0 0 12px;font-size:16px\">{paid}</p>\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\">{reservation}</table>\
{several_block}</td></tr>\
<tr><td align=\"center\" style=\"padding:12px 24px 0\">{view}</td></tr>\
{screening_blocks}\
<tr><td style=\"padding:8px 24px 0;text-align:{start}\">\
<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" dir=\"{dir}\">{rest_rows}</table>\
</td></tr>\
<tr><td style=\"padding:16px 24px 0;text-align:{start};font-size:14px;line-height:1.5\">{notes}</td></tr>\
{pdf}\
{terms_block}\
<tr><td style=\"padding:16px 24px 24px;text-align:{start};font-size:12px;color:{MUTED}\">{link_valid}</td></tr>\
<tr><td style=\"background:{HEADER};padding:14px 24px;text-align:{start};color:#a9adb8;font-size:12px\">{chain}</td></tr>\
</table></td></tr></table></body></html>",
        subject = esc(&subject),
        preheader = esc(&preheader),
        chain = esc(w.chain),
        greeting = esc(&greeting),
        paid = esc(w.paid),
        reservation = fact(w.reservation, &ltr(number)),
        view = button(links.confirmation, w.view, true),
        notes = notes
            .iter()
            .map(|n| format!("<p style=\"margin:0 0 8px\">{}</p>", esc(n)))
            .collect::<String>(),
        // Printed tickets are for screenings; a film at home has none.
        pdf = if vod {
            String::new()
        } else {
            format!(
                "<tr><td align=\"center\" style=\"padding:8px 24px\">{}</td></tr>",
                button(links.pdf, w.pdf, false)
            )
        },
        link_valid = esc(w.link_valid),
    );
    ConfirmationMail {
        subject,
        text,
        html,
    }
}

/// Text for HTML, attribute values included.
pub(super) fn esc(s: &str) -> String {
    kupa_domain::html::escape(s)
}
