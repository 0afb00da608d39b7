//! Time is stored as UTC milliseconds since the epoch and shown in Asia/Jerusalem.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan};

pub const ZONE: &str = "Asia/Jerusalem";

pub fn zone() -> TimeZone {
    // tzdb-bundle-always guarantees the zone exists even without system tz files.
    TimeZone::get(ZONE).expect("Asia/Jerusalem is in the bundled tz database")
}

/// The UTC millisecond range [start, end) of a calendar day in Asia/Jerusalem (23 to 25 hours).
pub fn local_day_range_ms(day: Date) -> (i64, i64) {
    let tz = zone();
    let start = day
        .to_zoned(tz.clone())
        .expect("every Jerusalem day has a start");
    let next = day.checked_add(1.day()).expect("date in range");
    let end = next.to_zoned(tz).expect("every Jerusalem day has a start");
    (
        start.timestamp().as_millisecond(),
        end.timestamp().as_millisecond(),
    )
}

/// The calendar day in Asia/Jerusalem that contains `at`.
pub fn local_date(at: Timestamp) -> Date {
    at.to_zoned(zone()).date()
}

pub fn ms_to_timestamp(ms: i64) -> Timestamp {
    Timestamp::from_millisecond(ms).expect("stored timestamps are in range")
}

/// RFC 3339 in UTC with a Z, the wire form of every time.
pub fn ms_to_rfc3339(ms: i64) -> String {
    ms_to_timestamp(ms).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn a_normal_day_is_24_hours_and_starts_at_local_midnight() {
        let (s, e) = local_day_range_ms(date(2026, 11, 22));
        assert_eq!(e - s, 24 * 3_600_000);
        assert_eq!(ms_to_rfc3339(s), "2026-11-21T22:00:00Z");
    }

    #[test]
    fn dst_days_are_23_and_25_hours() {
        // Israel moves to summer time on the Friday before the last Sunday of March.
        let (s, e) = local_day_range_ms(date(2026, 3, 27));
        assert_eq!(e - s, 23 * 3_600_000);
        let (s, e) = local_day_range_ms(date(2026, 10, 25));
        assert_eq!(e - s, 25 * 3_600_000);
    }

    #[test]
    fn local_date_crosses_midnight_before_utc_does() {
        let at: Timestamp = "2026-11-22T22:30:00Z".parse().unwrap();
        assert_eq!(local_date(at), date(2026, 11, 23));
    }
}
