//! The calendar file: structure, UTC times, escaping, folding, CRLF.

use jiff::{Timestamp, Zoned};
use kupa_documents::{CalendarEvent, render_calendar, render_ics};

fn at(jerusalem: &str) -> Timestamp {
    format!("{jerusalem}[Asia/Jerusalem]")
        .parse::<Zoned>()
        .unwrap()
        .timestamp()
}

fn event() -> CalendarEvent {
    CalendarEvent {
        uid: "4821-7731@kupa.example".into(),
        stamp: "2026-05-01T09:15:00Z".parse().unwrap(),
        start: at("2026-05-14T20:30"),
        end: at("2026-05-14T22:41"),
        summary: "הדרך לעין גדי – קולנוע כפר סבא G".into(),
        location: "קולנוע כפר סבא G, אולם 1 – IMAX".into(),
        description: "שורה 7, כיסאות 12; 13\nמספר הזמנה: 4821-7731\\הזמנה".into(),
        url: "https://kupa.example/e/4821-7731?lang=he,x;y".into(),
        language: "he".into(),
        cancelled: false,
    }
}

/// The content lines after unfolding (RFC 5545 §3.1).
fn unfolded(ics: &str) -> Vec<String> {
    ics.replace("\r\n ", "")
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(str::to_owned)
        .collect()
}

/// The value of the first property `name` (parameters ignored), unescaped.
fn value(ics: &str, name: &str) -> Option<String> {
    let line = unfolded(ics).into_iter().find(|l| {
        l.strip_prefix(name)
            .is_some_and(|rest| rest.starts_with(':') || rest.starts_with(';'))
    })?;
    let raw = &line[line.find(':')? + 1..];
    let mut out = String::new();
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') | Some('N') => out.push('\n'),
                Some(other) => out.push(other),
                None => panic!("dangling backslash in {line:?}"),
            }
        } else {
            out.push(c);
        }
    }
    Some(out)
}

#[test]
fn required_properties_in_order_and_times_in_utc() {
    let ics = render_ics(&event());
    let lines = unfolded(&ics);
    assert_eq!(lines.first().unwrap(), "BEGIN:VCALENDAR");
    assert_eq!(lines.last().unwrap(), "END:VCALENDAR");
    for required in [
        "VERSION:2.0",
        "BEGIN:VEVENT",
        "END:VEVENT",
        "CALSCALE:GREGORIAN",
    ] {
        assert!(
            lines.iter().any(|l| l == required),
            "{required} missing:\n{ics}"
        );
    }
    assert!(lines.iter().any(|l| l.starts_with("PRODID:")));
    assert_eq!(value(&ics, "UID").unwrap(), "4821-7731@kupa.example");
    assert_eq!(value(&ics, "DTSTAMP").unwrap(), "20260501T091500Z");
    // 20:30 in Jerusalem in May (UTC+3) is 17:30 UTC.
    assert_eq!(value(&ics, "DTSTART").unwrap(), "20260514T173000Z");
    assert_eq!(value(&ics, "DTEND").unwrap(), "20260514T194100Z");
    // The VEVENT is inside the VCALENDAR.
    let begin = lines.iter().position(|l| l == "BEGIN:VEVENT").unwrap();
    let end = lines.iter().position(|l| l == "END:VEVENT").unwrap();
    assert!(0 < begin && begin < end && end < lines.len() - 1);
    // Winter time: 20:30 in January (UTC+2) is 18:30 UTC.
    let winter = CalendarEvent {
        start: at("2026-01-08T20:30"),
        ..event()
    };
    assert_eq!(
        value(&render_ics(&winter), "DTSTART").unwrap(),
        "20260108T183000Z"
    );
}

#[test]
fn text_is_escaped_and_round_trips() {
    let e = event();
    let ics = render_ics(&e);
    assert_eq!(value(&ics, "SUMMARY").unwrap(), e.summary);
    assert_eq!(value(&ics, "LOCATION").unwrap(), e.location);
    assert_eq!(value(&ics, "DESCRIPTION").unwrap(), e.description);
    let unfolded = unfolded(&ics).join("\n");
    assert!(
        unfolded.contains(
            "DESCRIPTION;LANGUAGE=he:שורה 7\\, כיסאות 12\\; 13\\nמספר הזמנה: 4821-7731\\\\הזמנה"
        ),
        "{unfolded}"
    );
    assert!(unfolded.contains("LOCATION;LANGUAGE=he:קולנוע כפר סבא G\\, אולם 1 – IMAX"));
    // URL is a URI: not backslash-escaped.
    assert!(unfolded.contains("\nURL:https://kupa.example/e/4821-7731?lang=he,x;y\n"));
    // A line break of any kind inside a value never ends the content line.
    let crlf = CalendarEvent {
        summary: "א\r\nב\rג\nד".into(),
        ..event()
    };
    assert_eq!(value(&render_ics(&crlf), "SUMMARY").unwrap(), "א\nב\nג\nד");
}

#[test]
fn crlf_line_endings_only() {
    let ics = render_ics(&event());
    assert!(ics.ends_with("END:VCALENDAR\r\n"));
    let bytes = ics.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            assert_eq!(bytes[i - 1], b'\r', "bare LF at {i}");
        }
        if b == b'\r' {
            assert_eq!(bytes.get(i + 1), Some(&b'\n'), "bare CR at {i}");
        }
    }
}

#[test]
fn long_hebrew_lines_fold_at_75_octets_between_characters() {
    let description = "הכרטיס תקף להקרנה, לאולם ולמקום המצוינים בו בלבד. ".repeat(8);
    let e = CalendarEvent {
        description: description.clone(),
        ..event()
    };
    let ics = render_ics(&e);
    let physical: Vec<&[u8]> = ics
        .as_bytes()
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect();
    let mut folded = 0;
    for line in &physical {
        assert!(
            line.len() <= 75,
            "{} octets: {:?}",
            line.len(),
            String::from_utf8_lossy(line)
        );
        // Each physical line is valid UTF-8 by itself: no character was split.
        std::str::from_utf8(line).expect("a physical line splits a UTF-8 character");
        if line.starts_with(b" ") {
            folded += 1;
        }
    }
    // About 400 Hebrew letters of 2 octets each: the description takes more than 10 lines.
    assert!(folded > 10, "{folded} continuation lines");
    assert!(
        physical.iter().any(|l| l.len() >= 74),
        "lines are filled up to the limit"
    );
    assert_eq!(value(&ics, "DESCRIPTION").unwrap(), description);
}

#[test]
fn empty_optional_properties_are_left_out() {
    let e = CalendarEvent {
        location: String::new(),
        description: String::new(),
        url: String::new(),
        language: String::new(),
        ..event()
    };
    let ics = render_ics(&e);
    for name in ["LOCATION", "DESCRIPTION", "URL"] {
        assert_eq!(value(&ics, name), None, "{name} in:\n{ics}");
    }
    assert!(unfolded(&ics).iter().any(|l| l.starts_with("SUMMARY:")));
}

#[test]
fn several_screenings_are_one_calendar_of_one_event_each() {
    let second = CalendarEvent {
        uid: "second@kupa.example".into(),
        start: at("2026-05-15T18:00"),
        end: at("2026-05-15T20:00"),
        summary: "Second".into(),
        cancelled: true,
        ..event()
    };
    let ics = render_calendar(&[event(), second]);
    let lines = unfolded(&ics);
    assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VCALENDAR").count(), 1);
    assert_eq!(lines.iter().filter(|l| *l == "BEGIN:VEVENT").count(), 2);
    assert_eq!(lines.iter().filter(|l| *l == "END:VEVENT").count(), 2);
    assert_eq!(lines.last().unwrap(), "END:VCALENDAR");
    let uids: Vec<&String> = lines.iter().filter(|l| l.starts_with("UID:")).collect();
    assert_eq!(
        uids,
        ["UID:4821-7731@kupa.example", "UID:second@kupa.example"]
    );
    let statuses: Vec<&String> = lines.iter().filter(|l| l.starts_with("STATUS:")).collect();
    assert_eq!(statuses, ["STATUS:CONFIRMED", "STATUS:CANCELLED"]);
    assert!(lines.contains(&"DTSTART:20260515T150000Z".to_owned()));
    assert_eq!(render_ics(&event()), render_calendar(&[event()]));
}
