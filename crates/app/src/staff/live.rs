//! The figures of live monitoring (spec sections 3 "Live data" and 9): per presentation its
//! capacity, sold and held seats (read from the seat claims: a held seat is a live, unexpired
//! hold), summed by business date, location, venue and feature. The rules: location 1 (the head
//! office, not a cinema) stays out of the cinema totals; the total row is 'כל בתי הקולנוע' with id
//! -1; percent sold or held is rounded from capacity; the seat-taken ratio to 3 decimals.
//! Pure functions here; [`LiveService`] reads the rows and scopes them to the caller.

use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use std::collections::BTreeMap;
use std::sync::Arc;

use jiff::ToSpan;
use jiff::civil::Date;

use super::{Access, Caller, StaffStore};
use crate::error::{AppError, AppResult, ErrorCode};

/// Location 1 is the chain's head office (online sales, video on demand): never in cinema totals.
pub const EXCLUDED_LOCATION: i64 = 1;
pub const TOTAL_ROW_ID: i64 = -1;
pub const TOTAL_ROW_NAME: &str = "כל בתי הקולנוע";
pub const TOTAL_ROW_NAME_EN: &str = "All cinemas";
/// The total row inside one cinema (its halls, its features): the same id, named for what it sums.
pub const LOCAL_TOTAL_ROW_NAME: &str = "סה״כ";
pub const LOCAL_TOTAL_ROW_NAME_EN: &str = "Total";
/// The live calendar reaches this many days before and after today.
pub const CALENDAR_DAYS: i64 = 14;
/// A business day runs from 05:00 to 05:00 (Jerusalem): a screening at 00:30 belongs to the
/// evening before, as the box office counts it.
pub const BUSINESS_DAY_STARTS_HOUR: i8 = 5;
/// The longest range a history call reads.
pub const MAX_RANGE_DAYS: i64 = 366;

/// One presentation with its figures, as the store reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct LiveRow {
    pub presentation_id: PresentationId,
    pub starts_at_ms: i64,
    pub business_id: i64,
    pub location_id: i64,
    pub location_name: String,
    pub location_name_en: String,
    pub venue_id: i64,
    pub venue_name: String,
    pub venue_name_en: String,
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub feature_category_id: i64,
    pub seatplan_id: i64,
    pub capacity: i64,
    pub sold: i64,
    pub held: i64,
    /// Paid, not cancelled tickets' prices, agorot.
    pub revenue: Money,
}

/// One paid, not cancelled ticket line.
#[derive(Debug, Clone, PartialEq)]
pub struct SoldLine {
    pub order_id: String,
    pub reservation_number: String,
    pub presentation_id: PresentationId,
    pub starts_at_ms: i64,
    pub paid_at_ms: i64,
    pub business_id: i64,
    pub location_id: i64,
    pub location_name: String,
    pub location_name_en: String,
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub feature_category_id: i64,
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    pub price_policy_id: i64,
    pub price: Money,
    pub service_charge: Money,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub customer_id: Option<i64>,
}

/// The Live data figures of a row (one presentation or a sum).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Figures {
    pub capacity: i64,
    pub sold_quantity: i64,
    pub held_quantity: i64,
    pub revenue: Money,
    pub presentations: i64,
}

impl Figures {
    pub fn of(r: &LiveRow) -> Figures {
        Figures {
            capacity: r.capacity,
            sold_quantity: r.sold,
            held_quantity: r.held,
            revenue: r.revenue,
            presentations: 1,
        }
    }

    pub fn add(&mut self, o: Figures) {
        self.capacity += o.capacity;
        self.sold_quantity += o.sold_quantity;
        self.held_quantity += o.held_quantity;
        self.revenue += o.revenue;
        self.presentations += o.presentations;
    }

    /// Percent of capacity sold, rounded half up (spec: rounded from capacity).
    pub fn sold_percent(&self) -> i64 {
        percent(self.sold_quantity, self.capacity)
    }

    pub fn held_percent(&self) -> i64 {
        percent(self.held_quantity, self.capacity)
    }

    /// Seats neither sold nor held.
    pub fn availability(&self) -> i64 {
        (self.capacity - self.sold_quantity - self.held_quantity).max(0)
    }

    /// (sold + held) / capacity, rounded to 3 decimals.
    pub fn seat_taken_ratio(&self) -> f64 {
        if self.capacity <= 0 {
            return 0.0;
        }
        let thousandths = (2000 * (self.sold_quantity + self.held_quantity) + self.capacity)
            / (2 * self.capacity);
        thousandths as f64 / 1000.0
    }
}

/// round(100 · part / whole), half up, in integers; 0 when there is no capacity.
pub fn percent(part: i64, whole: i64) -> i64 {
    if whole <= 0 {
        return 0;
    }
    (200 * part + whole) / (2 * whole)
}

/// The business date of an instant.
pub fn business_date(ms: i64) -> Date {
    let z = kupa_domain::time::ms_to_timestamp(ms).to_zoned(kupa_domain::time::zone());
    if z.hour() < BUSINESS_DAY_STARTS_HOUR {
        z.date().yesterday().unwrap_or(z.date())
    } else {
        z.date()
    }
}

/// The UTC range [from, to) of the business days `first..=last`.
pub fn business_range_ms(first: Date, last: Date) -> (i64, i64) {
    let at = |d: Date| {
        d.at(BUSINESS_DAY_STARTS_HOUR, 0, 0, 0)
            .to_zoned(kupa_domain::time::zone())
            .map(|z| z.timestamp().as_millisecond())
            .unwrap_or_default()
    };
    (at(first), at(last.tomorrow().unwrap_or(last)))
}

pub fn parse_date(name: &str, raw: &str) -> AppResult<Date> {
    raw.trim().parse::<Date>().map_err(|_| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            format!("{name}: a date as YYYY-MM-DD"),
            serde_json::json!({ "field": name, "reason": "invalid" }),
        )
    })
}

fn out_of_range(name: &str, why: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        format!("{name}: {why}"),
        serde_json::json!({ "field": name, "reason": "range" }),
    )
}

/// A named group of presentations and its figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub figures: Figures,
}

/// Sums rows by a key, in the key's order, then adds the total row: with `cinema_total`, the
/// cinemas' ('כל בתי הקולנוע', location 1 left out of it); otherwise one cinema's ('סה״כ').
pub fn grouped(
    rows: &[LiveRow],
    key: impl Fn(&LiveRow) -> (i64, String, String),
    cinema_total: bool,
) -> Vec<Group> {
    let mut groups: BTreeMap<i64, Group> = BTreeMap::new();
    let mut total = Figures::default();
    for r in rows {
        let (id, name, name_en) = key(r);
        groups
            .entry(id)
            .or_insert_with(|| Group {
                id,
                name,
                name_en,
                figures: Figures::default(),
            })
            .figures
            .add(Figures::of(r));
        if !(cinema_total && r.location_id == EXCLUDED_LOCATION) {
            total.add(Figures::of(r));
        }
    }
    let mut out: Vec<Group> = groups.into_values().collect();
    let (name, name_en) = if cinema_total {
        (TOTAL_ROW_NAME, TOTAL_ROW_NAME_EN)
    } else {
        (LOCAL_TOTAL_ROW_NAME, LOCAL_TOTAL_ROW_NAME_EN)
    };
    out.push(Group {
        id: TOTAL_ROW_ID,
        name: name.into(),
        name_en: name_en.into(),
        figures: total,
    });
    out
}

/// A business day's cinema totals (location 1 left out).
#[derive(Debug, Clone, PartialEq)]
pub struct Day {
    pub date: Date,
    pub figures: Figures,
}

pub struct LiveService {
    pub(super) store: Arc<dyn StaffStore>,
    clock: Arc<dyn crate::ports::Clock>,
}

/// How the presentation box was reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DrillBy {
    Venue,
    Feature,
}

impl DrillBy {
    pub fn parse(raw: &str) -> AppResult<DrillBy> {
        match raw.to_ascii_lowercase().as_str() {
            "venue" | "1" => Ok(DrillBy::Venue),
            "feature" | "2" => Ok(DrillBy::Feature),
            _ => Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "drillBy: venue or feature",
                serde_json::json!({ "field": "drillBy", "reason": "invalid" }),
            )),
        }
    }
}

impl LiveService {
    pub fn new(store: Arc<dyn StaffStore>, clock: Arc<dyn crate::ports::Clock>) -> LiveService {
        LiveService { store, clock }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub fn today(&self) -> Date {
        business_date(self.clock.now_ms())
    }

    /// A date of the live calendar (14 days before and after today).
    pub fn calendar_date(&self, name: &str, raw: &str) -> AppResult<Date> {
        let d = parse_date(name, raw)?;
        let today = self.today();
        let span = (d - today).get_days() as i64;
        if span.abs() > CALENDAR_DAYS {
            return Err(out_of_range(
                name,
                "the live calendar is 14 days before and after today",
            ));
        }
        Ok(d)
    }

    /// A history range: `start` defaults to a month before today, `end` to today.
    pub fn history_range(&self, start: Option<&str>, end: Option<&str>) -> AppResult<(Date, Date)> {
        let today = self.today();
        let end = match end.filter(|s| !s.trim().is_empty()) {
            Some(e) => parse_date("endDate", e)?,
            None => today,
        };
        let start = match start.filter(|s| !s.trim().is_empty()) {
            Some(s) => parse_date("startDate", s)?,
            None => today.checked_sub(1.month()).unwrap_or(today),
        };
        if start > end {
            return Err(out_of_range("startDate", "after endDate"));
        }
        if (end - start).get_days() as i64 > MAX_RANGE_DAYS {
            return Err(out_of_range("endDate", "at most a year after startDate"));
        }
        Ok((start, end))
    }

    /// The caller's presentations of the business days `first..=last` (on-demand video, which
    /// has no seats, is not live monitoring's).
    pub async fn rows(&self, caller: &Caller, first: Date, last: Date) -> AppResult<Vec<LiveRow>> {
        let (from, to) = business_range_ms(first, last);
        let rows = self.store.live_rows(from, to, self.clock.now_ms()).await?;
        Ok(rows
            .into_iter()
            .filter(|r| caller.sees(r.business_id))
            .collect())
    }

    /// GET /PRES-live/attendanceByDate/{from}/{to}: each business day's cinema totals.
    pub async fn attendance_by_date(
        &self,
        caller: &Caller,
        from: &str,
        to: &str,
    ) -> AppResult<Vec<Day>> {
        caller.require(Access::Attendance)?;
        let (first, last) = (
            self.calendar_date("from", from)?,
            self.calendar_date("to", to)?,
        );
        if first > last {
            return Err(out_of_range("from", "after to"));
        }
        let rows = self.rows(caller, first, last).await?;
        let mut days = Vec::new();
        let mut d = first;
        while d <= last {
            let mut f = Figures::default();
            for r in rows.iter().filter(|r| business_date(r.starts_at_ms) == d) {
                if r.location_id != EXCLUDED_LOCATION {
                    f.add(Figures::of(r));
                }
            }
            days.push(Day {
                date: d,
                figures: f,
            });
            d = d.tomorrow().map_err(AppError::internal)?;
        }
        Ok(days)
    }

    /// The caller's presentations of one calendar day, optionally of one location.
    pub async fn day_rows(
        &self,
        caller: &Caller,
        date: &str,
        location_id: Option<i64>,
    ) -> AppResult<Vec<LiveRow>> {
        caller.require(Access::Attendance)?;
        let d = self.calendar_date("date", date)?;
        let rows = self.rows(caller, d, d).await?;
        Ok(rows
            .into_iter()
            .filter(|r| location_id.is_none_or(|l| r.location_id == l))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(location_id: i64, venue_id: i64, capacity: i64, sold: i64, held: i64) -> LiveRow {
        LiveRow {
            presentation_id: PresentationId(venue_id * 100 + sold),
            starts_at_ms: 0,
            business_id: 1,
            location_id,
            location_name: format!("L{location_id}"),
            location_name_en: format!("L{location_id}"),
            venue_id,
            venue_name: String::new(),
            venue_name_en: String::new(),
            feature_id: 1,
            feature_name: String::new(),
            feature_name_en: String::new(),
            feature_category_id: 1,
            seatplan_id: 1,
            capacity,
            sold,
            held,
            revenue: Money::ZERO,
        }
    }

    #[test]
    fn percents_round_half_up_from_capacity_and_the_ratio_to_three_decimals() {
        assert_eq!(percent(1, 3), 33);
        assert_eq!(percent(2, 3), 67);
        assert_eq!(percent(1, 8), 13, "12.5 rounds up");
        assert_eq!(percent(0, 0), 0);
        let f = Figures {
            capacity: 7,
            sold_quantity: 1,
            held_quantity: 1,
            ..Figures::default()
        };
        assert_eq!(f.seat_taken_ratio(), 0.286, "2/7 = 0.2857…");
        assert_eq!(f.availability(), 5);
        assert_eq!(f.sold_percent(), 14);
    }

    #[test]
    fn the_total_row_leaves_location_1_out_and_comes_last() {
        let rows = [
            row(1, 101, 50, 10, 0),
            row(2, 1, 100, 20, 5),
            row(3, 4, 60, 6, 0),
        ];
        let g = grouped(
            &rows,
            |r| (r.location_id, r.location_name.clone(), String::new()),
            true,
        );
        assert_eq!(g.len(), 4);
        let total = g.last().unwrap();
        assert_eq!(
            (total.id, total.name.as_str()),
            (TOTAL_ROW_ID, TOTAL_ROW_NAME)
        );
        assert_eq!(total.figures.capacity, 160);
        assert_eq!(total.figures.sold_quantity, 26);
        assert_eq!(total.figures.held_quantity, 5);
        assert_eq!(
            g[0].figures.sold_quantity, 10,
            "location 1 keeps its own row"
        );
        // Inside one cinema (its halls), the total is that cinema's, named as such.
        let halls = grouped(
            &rows,
            |r| (r.location_id, String::new(), String::new()),
            false,
        );
        let total = halls.last().unwrap();
        assert_eq!(
            (total.id, total.name.as_str(), total.name_en.as_str()),
            (TOTAL_ROW_ID, LOCAL_TOTAL_ROW_NAME, LOCAL_TOTAL_ROW_NAME_EN)
        );
        assert_eq!(
            total.figures.capacity, 210,
            "nothing is left out of one cinema's total"
        );
    }

    #[test]
    fn a_business_day_runs_from_five_to_five() {
        let (from, to) =
            business_range_ms(Date::constant(2030, 6, 12), Date::constant(2030, 6, 12));
        assert_eq!(to - from, 24 * 3_600_000);
        assert_eq!(business_date(from), Date::constant(2030, 6, 12));
        assert_eq!(
            business_date(to - 1),
            Date::constant(2030, 6, 12),
            "04:59 the next morning"
        );
        assert_eq!(business_date(to), Date::constant(2030, 6, 13));
    }
}
