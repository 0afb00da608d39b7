//! Dates and times as the web app writes them (web/src/lib/format.ts, the browser's `Intl` for
//! he-IL and en-GB), for the first screens in Hebrew and English: a test checks each against
//! what Chromium writes.

use jiff::Timestamp;
use jiff::civil::Date;

/// The languages whose first screen the server writes: the product's two (he, the default, and
/// en, the fallback). Another language's page keeps the bar of index.html until the app draws.
pub(in crate::web) fn written_in(lang: &str) -> bool {
    matches!(lang, "he" | "en")
}

fn hebrew(lang: &str) -> bool {
    lang == "he"
}

fn weekday_index(day: Date) -> usize {
    usize::from(day.weekday().to_sunday_zero_offset().unsigned_abs())
}

const HE_SHORT: [&str; 7] = [
    "יום א׳",
    "יום ב׳",
    "יום ג׳",
    "יום ד׳",
    "יום ה׳",
    "יום ו׳",
    "שבת",
];
const HE_LONG: [&str; 7] = [
    "יום ראשון",
    "יום שני",
    "יום שלישי",
    "יום רביעי",
    "יום חמישי",
    "יום שישי",
    "יום שבת",
];
const EN_SHORT: [&str; 7] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const EN_LONG: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const HE_MONTHS: [&str; 12] = [
    "בינואר",
    "בפברואר",
    "במרץ",
    "באפריל",
    "במאי",
    "ביוני",
    "ביולי",
    "באוגוסט",
    "בספטמבר",
    "באוקטובר",
    "בנובמבר",
    "בדצמבר",
];
const EN_MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// `formatWeekday`: "יום ג׳", "Tue".
pub(super) fn weekday_short(day: Date, lang: &str) -> &'static str {
    let names = if hebrew(lang) { HE_SHORT } else { EN_SHORT };
    names[weekday_index(day)]
}

fn weekday_long(day: Date, lang: &str) -> &'static str {
    let names = if hebrew(lang) { HE_LONG } else { EN_LONG };
    names[weekday_index(day)]
}

/// `formatDayMonth`: "14.7" (he-IL), "14/07" (en-GB).
pub(super) fn day_month(day: Date, lang: &str) -> String {
    if hebrew(lang) {
        format!("{}.{}", day.day(), day.month())
    } else {
        format!("{:02}/{:02}", day.day(), day.month())
    }
}

/// `formatLongDate`: "יום שלישי, 14 ביולי 2026", "Tuesday, 14 July 2026".
pub(super) fn long_date(day: Date, lang: &str) -> String {
    let month = usize::from(day.month().unsigned_abs()) - 1;
    let month = if hebrew(lang) {
        HE_MONTHS[month]
    } else {
        EN_MONTHS[month]
    };
    format!(
        "{}, {} {month} {}",
        weekday_long(day, lang),
        day.day(),
        day.year()
    )
}

/// An RFC 3339 instant in the cinema's zone; `None` for text that is none.
fn local(iso: &str) -> Option<jiff::civil::DateTime> {
    let at: Timestamp = iso.parse().ok()?;
    Some(at.to_zoned(kupa_domain::time::zone()).datetime())
}

/// `formatTime`: "20:30" in Asia/Jerusalem.
pub(super) fn time(iso: &str) -> String {
    local(iso)
        .map(|t| format!("{:02}:{:02}", t.hour(), t.minute()))
        .unwrap_or_default()
}

/// `formatDateTimeParts`: ("יום שלישי", "14/07/2026", "20:30") in Asia/Jerusalem.
pub(super) fn date_time_parts(iso: &str, lang: &str) -> (String, String, String) {
    let Some(t) = local(iso) else {
        return Default::default();
    };
    (
        weekday_long(t.date(), lang).to_owned(),
        format!("{:02}/{:02}/{}", t.day(), t.month(), t.year()),
        format!("{:02}:{:02}", t.hour(), t.minute()),
    )
}

/// `formatDateTime`: "יום שלישי, 14/07/2026, 20:30".
pub(super) fn date_time(iso: &str, lang: &str) -> String {
    let (weekday, date, time) = date_time_parts(iso, lang);
    format!("{weekday}, {date}, {time}")
}

#[cfg(test)]
mod tests {
    use super::*;

    // What Chromium 156's Intl writes for these (web/src/lib/format.ts's options).
    #[test]
    fn dates_read_as_the_browser_writes_them() {
        let day: Date = "2026-07-14".parse().unwrap();
        assert_eq!(weekday_short(day, "he"), "יום ג׳");
        assert_eq!(weekday_short(day, "en"), "Tue");
        assert_eq!(day_month(day, "he"), "14.7");
        assert_eq!(day_month(day, "en"), "14/07");
        let early: Date = "2026-07-05".parse().unwrap();
        assert_eq!(day_month(early, "he"), "5.7");
        assert_eq!(day_month(early, "en"), "05/07");
        assert_eq!(long_date(early, "he"), "יום ראשון, 5 ביולי 2026");
        assert_eq!(long_date(early, "en"), "Sunday, 5 July 2026");
        let sat: Date = "2026-12-05".parse().unwrap();
        assert_eq!(weekday_short(sat, "he"), "שבת");
        assert_eq!(long_date(sat, "he"), "יום שבת, 5 בדצמבר 2026");
        // 05:05 UTC is 08:05 in Jerusalem in summer.
        assert_eq!(time("2026-07-14T05:05:00Z"), "08:05");
        assert_eq!(
            date_time("2026-07-14T05:05:00Z", "he"),
            "יום שלישי, 14/07/2026, 08:05"
        );
        assert_eq!(
            date_time("2026-07-14T05:05:00Z", "en"),
            "Tuesday, 14/07/2026, 08:05"
        );
        // Winter: UTC+2; the day turns at 22:00 UTC.
        assert_eq!(
            date_time("2026-12-14T22:30:00Z", "en"),
            "Tuesday, 15/12/2026, 00:30"
        );
        assert_eq!(time("not a time"), "");
    }
}
