//! RFC 5545 iCalendar file of a screening ("add to calendar").

use jiff::Timestamp;

/// The product identifier written into every calendar file.
const PRODID: &str = "-//Kupa//Kupa Tickets//EN";

/// A screening as a calendar event. Text is written as given (Hebrew is fine): escaping and
/// line folding are done by [`render_ics`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CalendarEvent {
    /// Globally unique and stable for the same event, so that importing the file again updates
    /// the event instead of adding a second one, e.g. `"4821-7731@kupa.example"`.
    pub uid: String,
    /// When the file was made (`DTSTAMP`); passed in so that the output is reproducible.
    pub stamp: Timestamp,
    /// Start of the screening (written in UTC).
    pub start: Timestamp,
    /// End of the screening (written in UTC).
    pub end: Timestamp,
    /// Title, e.g. `"הדרך לעין גדי – קולנוע כפר סבא G"`.
    pub summary: String,
    /// Where, e.g. `"קולנוע כפר סבא G, אולם 1 – IMAX"`. Empty to leave out.
    pub location: String,
    /// Free text, e.g. seats and the reservation number; may contain line breaks. Empty to
    /// leave out.
    pub description: String,
    /// Address of the order's e-documents. Empty to leave out.
    pub url: String,
    /// BCP 47 language of the text (`"he"`), written as the `LANGUAGE` parameter of
    /// `SUMMARY`, `LOCATION` and `DESCRIPTION`. Empty to leave out.
    pub language: String,
    /// Every ticket of this screening was cancelled: the event is written `STATUS:CANCELLED`, so
    /// a calendar that imported it earlier (same `uid`) marks it cancelled.
    pub cancelled: bool,
}

/// The event as an iCalendar file (`text/calendar`): one `VCALENDAR` with one `VEVENT`,
/// CRLF line endings, lines folded at 75 octets without splitting a UTF-8 character.
pub fn render_ics(event: &CalendarEvent) -> String {
    render_calendar(std::slice::from_ref(event))
}

/// Several events (the screenings of one order) as one iCalendar file: one `VCALENDAR` with a
/// `VEVENT` each, in the order given.
pub fn render_calendar(events: &[CalendarEvent]) -> String {
    let mut out = String::new();
    push_folded(&mut out, "BEGIN:VCALENDAR");
    push_folded(&mut out, "VERSION:2.0");
    push_folded(&mut out, &format!("PRODID:{PRODID}"));
    push_folded(&mut out, "CALSCALE:GREGORIAN");
    push_folded(&mut out, "METHOD:PUBLISH");
    for event in events {
        push_event(&mut out, event);
    }
    push_folded(&mut out, "END:VCALENDAR");
    out
}

fn push_event(out: &mut String, event: &CalendarEvent) {
    let lang = if event.language.is_empty() {
        String::new()
    } else {
        format!(";LANGUAGE={}", param_value(&event.language))
    };
    let mut line = |l: String| push_folded(out, &l);
    line("BEGIN:VEVENT".into());
    line(format!("UID:{}", escape_text(&event.uid)));
    line(format!("DTSTAMP:{}", utc(event.stamp)));
    line(format!("DTSTART:{}", utc(event.start)));
    line(format!("DTEND:{}", utc(event.end)));
    line(format!("SUMMARY{lang}:{}", escape_text(&event.summary)));
    if !event.location.is_empty() {
        line(format!("LOCATION{lang}:{}", escape_text(&event.location)));
    }
    if !event.description.is_empty() {
        line(format!(
            "DESCRIPTION{lang}:{}",
            escape_text(&event.description)
        ));
    }
    if !event.url.is_empty() {
        // URL is a URI value, not TEXT: no backslash escapes, but no control characters.
        line(format!("URL:{}", strip_controls(&event.url)));
    }
    line(if event.cancelled {
        "STATUS:CANCELLED".into()
    } else {
        "STATUS:CONFIRMED".into()
    });
    line("TRANSP:OPAQUE".into());
    line("END:VEVENT".into());
}

/// `20260514T173000Z`.
fn utc(t: Timestamp) -> String {
    t.strftime("%Y%m%dT%H%M%SZ").to_string()
}

/// TEXT value escaping (RFC 5545 §3.3.11): `\` `;` `,` are escaped, line breaks become `\n`,
/// other control characters are dropped.
fn escape_text(s: &str) -> String {
    let s = s.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ';' => out.push_str("\\;"),
            ',' => out.push_str("\\,"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn strip_controls(s: &str) -> String {
    s.chars().filter(|c| !c.is_control()).collect()
}

/// A parameter value (RFC 5545 §3.1): quoted when it holds `:` `;` or `,`; `"` cannot appear.
fn param_value(s: &str) -> String {
    let s: String = s.chars().filter(|&c| c != '"' && !c.is_control()).collect();
    if s.contains([':', ';', ',']) {
        format!("\"{s}\"")
    } else {
        s
    }
}

/// Appends a content line folded at 75 octets (RFC 5545 §3.1): continuation lines start with
/// one space, which counts toward their 75; characters are never split.
fn push_folded(out: &mut String, line: &str) {
    let mut len = 0; // octets on the current physical line
    for c in line.chars() {
        let n = c.len_utf8();
        if len + n > 75 {
            out.push_str("\r\n ");
            len = 1;
        }
        out.push(c);
        len += n;
    }
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        assert_eq!(
            escape_text("a,b;c\\d\r\ne\nf\rg"),
            "a\\,b\\;c\\\\d\\ne\\nf\\ng"
        );
        assert_eq!(param_value("he"), "he");
        assert_eq!(param_value("a:b"), "\"a:b\"");
    }

    #[test]
    fn folding_counts_octets() {
        let mut out = String::new();
        push_folded(&mut out, &"א".repeat(100));
        for l in out.split("\r\n").filter(|l| !l.is_empty()) {
            assert!(l.len() <= 75, "{} octets", l.len());
        }
        // 37 two-octet letters fit the first line (74 octets), 37 the next (1 + 74).
        assert_eq!(out.split("\r\n").next().unwrap().chars().count(), 37);
    }
}
