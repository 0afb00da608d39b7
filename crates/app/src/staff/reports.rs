//! Cinema reports (spec section 1 "cinema reports"; issue 17, decision 0047): attendance by
//! showtime and venue, by showtime and feature, the top ten features, products sold, and sales by
//! point of sale, for a range of business days and the caller's businesses (managers only). A
//! report is a table: typed columns with Hebrew and English labels, rows keyed by column, and the
//! totals of what adds up; the HTTP layer writes it as JSON, CSV or XLSX. No report holds
//! personal data: every row is a sum over screenings, features, products or channels.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use jiff::ToSpan;
use jiff::civil::Date;
use kupa_domain::money::Money;
use serde_json::{Map, Value, json};

use super::live::{LiveRow, MAX_RANGE_DAYS, business_range_ms, parse_date, percent};
use super::{Access, Caller, StaffStore};
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};

/// A product's sales in a range (paid orders, by payment time).
#[derive(Debug, Clone, PartialEq)]
pub struct ProductSale {
    pub business_id: i64,
    pub product_id: i64,
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub revenue: Money,
}

/// A sales channel's paid orders in a range (by payment time).
#[derive(Debug, Clone, PartialEq)]
pub struct ChannelSale {
    pub business_id: i64,
    /// web, miniSite or partnerApi.
    pub channel: String,
    pub orders: i64,
    pub tickets: i64,
    /// What the orders were paid, every kind of order.
    pub revenue: Money,
    pub service_charges: Money,
}

/// The reads only reports make, of the business days `first..=last` (`YYYY-MM-DD`) of payment,
/// from the summaries the finalisation and the cancellation keep ([`super::order_summary`]). An
/// order's business is its first presentation's; an order with none (vouchers, donations,
/// memberships) is the chain's, business 0.
#[async_trait]
pub trait ReportStore: Send + Sync {
    async fn product_sales(&self, first: &str, last: &str) -> StoreResult<Vec<ProductSale>>;
    async fn channel_sales(&self, first: &str, last: &str) -> StoreResult<Vec<ChannelSale>>;
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    AttendanceByVenue,
    AttendanceByFeature,
    TopFeatures,
    Products,
    PointsOfSale,
}

impl ReportKind {
    pub const ALL: [ReportKind; 5] = [
        ReportKind::AttendanceByVenue,
        ReportKind::AttendanceByFeature,
        ReportKind::TopFeatures,
        ReportKind::Products,
        ReportKind::PointsOfSale,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ReportKind::AttendanceByVenue => "attendance-venue",
            ReportKind::AttendanceByFeature => "attendance-feature",
            ReportKind::TopFeatures => "top-features",
            ReportKind::Products => "products",
            ReportKind::PointsOfSale => "points-of-sale",
        }
    }

    pub fn parse(s: &str) -> Option<ReportKind> {
        ReportKind::ALL.into_iter().find(|k| k.as_str() == s)
    }

    /// The report's title, Hebrew and English (a file's sheet name, a printout's heading).
    pub fn title(self) -> (&'static str, &'static str) {
        match self {
            ReportKind::AttendanceByVenue => {
                ("נוכחות לפי הקרנה ואולם", "Attendance by showtime and venue")
            }
            ReportKind::AttendanceByFeature => (
                "נוכחות לפי הקרנה וסרט",
                "Attendance by showtime and feature",
            ),
            ReportKind::TopFeatures => ("עשרת הסרטים המובילים", "Top ten features"),
            ReportKind::Products => ("מוצרים שנמכרו", "Products sold"),
            ReportKind::PointsOfSale => ("מכירות לפי נקודת מכירה", "Sales by point of sale"),
        }
    }
}

/// How a column's values read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColumnKind {
    /// A name: the row holds `key` (Hebrew) and `key` + "En".
    Text,
    /// YYYY-MM-DD, local.
    Date,
    /// HH:MM, local.
    Time,
    Count,
    /// Agorot.
    Money,
    /// 0–100.
    Percent,
}

impl ColumnKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ColumnKind::Text => "text",
            ColumnKind::Date => "date",
            ColumnKind::Time => "time",
            ColumnKind::Count => "count",
            ColumnKind::Money => "money",
            ColumnKind::Percent => "percent",
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    pub key: &'static str,
    pub label: &'static str,
    pub label_en: &'static str,
    pub kind: ColumnKind,
}

const fn col(
    key: &'static str,
    label: &'static str,
    label_en: &'static str,
    kind: ColumnKind,
) -> Column {
    Column {
        key,
        label,
        label_en,
        kind,
    }
}

const LOCATION: Column = col("location", "קולנוע", "Cinema", ColumnKind::Text);
const VENUE: Column = col("venue", "אולם", "Hall", ColumnKind::Text);
const DATE: Column = col("date", "תאריך", "Date", ColumnKind::Date);
const TIME: Column = col("time", "שעה", "Time", ColumnKind::Time);
const FEATURE: Column = col("feature", "סרט", "Feature", ColumnKind::Text);
const CAPACITY: Column = col("capacity", "מקומות", "Capacity", ColumnKind::Count);
const SOLD: Column = col("sold", "נמכרו", "Sold", ColumnKind::Count);
const OCCUPANCY: Column = col("occupancy", "תפוסה", "Occupancy", ColumnKind::Percent);
const REVENUE: Column = col("revenue", "הכנסות", "Revenue", ColumnKind::Money);

/// A report's table.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    pub kind: ReportKind,
    pub first: Date,
    pub last: Date,
    pub business_ids: Vec<i64>,
    pub columns: Vec<Column>,
    /// Each row: column key (and `key` + "En" for text) to its value.
    pub rows: Vec<Map<String, Value>>,
    /// The sums of the count and money columns (and the occupancy they make); None when nothing
    /// adds up (the top ten).
    pub totals: Option<Map<String, Value>>,
}

fn text(row: &mut Map<String, Value>, key: &str, he: &str, en: &str) {
    row.insert(key.to_owned(), json!(he));
    row.insert(format!("{key}En"), json!(en));
}

/// One screening's row.
fn screening_row(r: &LiveRow) -> Map<String, Value> {
    let z = kupa_domain::time::ms_to_timestamp(r.starts_at_ms).to_zoned(kupa_domain::time::zone());
    let mut row = Map::new();
    // Not a column (no file shows it): the screen links a row to its screening.
    row.insert("presentationId".into(), json!(r.presentation_id));
    text(&mut row, "location", &r.location_name, &r.location_name_en);
    text(&mut row, "venue", &r.venue_name, &r.venue_name_en);
    text(&mut row, "feature", &r.feature_name, &r.feature_name_en);
    row.insert("date".into(), json!(z.date().to_string()));
    row.insert(
        "time".into(),
        json!(format!("{:02}:{:02}", z.hour(), z.minute())),
    );
    row.insert("capacity".into(), json!(r.capacity));
    row.insert("sold".into(), json!(r.sold));
    row.insert("occupancy".into(), json!(percent(r.sold, r.capacity)));
    row.insert("revenue".into(), json!(r.revenue));
    row
}

/// The sums of the count and money columns; occupancy from the summed sold and capacity.
fn totals_of(columns: &[Column], rows: &[Map<String, Value>]) -> Map<String, Value> {
    let mut out = Map::new();
    for c in columns
        .iter()
        .filter(|c| matches!(c.kind, ColumnKind::Count | ColumnKind::Money))
    {
        let sum: i64 = rows.iter().filter_map(|r| r[c.key].as_i64()).sum();
        out.insert(c.key.to_owned(), json!(sum));
    }
    if columns.iter().any(|c| c.key == "occupancy") {
        let (sold, capacity) = (
            out.get("sold").and_then(Value::as_i64).unwrap_or(0),
            out.get("capacity").and_then(Value::as_i64).unwrap_or(0),
        );
        out.insert("occupancy".into(), json!(percent(sold, capacity)));
    }
    out
}

/// Attendance, one row per screening: by cinema, hall and time, or by feature and time.
pub fn attendance(rows: &[LiveRow], by_feature: bool) -> (Vec<Column>, Vec<Map<String, Value>>) {
    let mut sorted: Vec<&LiveRow> = rows.iter().collect();
    if by_feature {
        sorted.sort_by(|a, b| {
            (&a.feature_name, a.starts_at_ms, a.presentation_id).cmp(&(
                &b.feature_name,
                b.starts_at_ms,
                b.presentation_id,
            ))
        });
    } else {
        sorted.sort_by(|a, b| {
            (
                &a.location_name,
                &a.venue_name,
                a.starts_at_ms,
                a.presentation_id,
            )
                .cmp(&(
                    &b.location_name,
                    &b.venue_name,
                    b.starts_at_ms,
                    b.presentation_id,
                ))
        });
    }
    let columns = if by_feature {
        vec![
            FEATURE, DATE, TIME, LOCATION, VENUE, CAPACITY, SOLD, OCCUPANCY, REVENUE,
        ]
    } else {
        vec![
            LOCATION, VENUE, DATE, TIME, FEATURE, CAPACITY, SOLD, OCCUPANCY, REVENUE,
        ]
    };
    (columns, sorted.into_iter().map(screening_row).collect())
}

/// The ten features with the most tickets sold (ties: more revenue, then the name).
pub fn top_features(rows: &[LiveRow]) -> (Vec<Column>, Vec<Map<String, Value>>) {
    #[derive(Default)]
    struct Sum {
        name: String,
        name_en: String,
        screenings: i64,
        sold: i64,
        capacity: i64,
        revenue: Money,
    }
    let mut by_feature: BTreeMap<i64, Sum> = BTreeMap::new();
    for r in rows {
        let s = by_feature.entry(r.feature_id).or_insert_with(|| Sum {
            name: r.feature_name.clone(),
            name_en: r.feature_name_en.clone(),
            ..Sum::default()
        });
        s.screenings += 1;
        s.sold += r.sold;
        s.capacity += r.capacity;
        s.revenue += r.revenue;
    }
    let mut sums: Vec<Sum> = by_feature.into_values().filter(|s| s.sold > 0).collect();
    sums.sort_by(|a, b| {
        (b.sold, b.revenue)
            .cmp(&(a.sold, a.revenue))
            .then_with(|| a.name.cmp(&b.name))
    });
    let columns = vec![
        col("rank", "מקום", "Rank", ColumnKind::Count),
        FEATURE,
        col("screenings", "הקרנות", "Screenings", ColumnKind::Count),
        SOLD,
        OCCUPANCY,
        REVENUE,
    ];
    let rows = sums
        .into_iter()
        .take(10)
        .enumerate()
        .map(|(i, s)| {
            let mut row = Map::new();
            row.insert("rank".into(), json!(i + 1));
            text(&mut row, "feature", &s.name, &s.name_en);
            row.insert("screenings".into(), json!(s.screenings));
            row.insert("sold".into(), json!(s.sold));
            row.insert("occupancy".into(), json!(percent(s.sold, s.capacity)));
            row.insert("revenue".into(), json!(s.revenue));
            row
        })
        .collect();
    (columns, rows)
}

/// Every product sold, most sold first (the least sold are the same list from its end).
pub fn products(sales: &[ProductSale]) -> (Vec<Column>, Vec<Map<String, Value>>) {
    let mut by_product: BTreeMap<i64, ProductSale> = BTreeMap::new();
    for s in sales {
        let e = by_product
            .entry(s.product_id)
            .or_insert_with(|| ProductSale {
                quantity: 0,
                revenue: Money::ZERO,
                ..s.clone()
            });
        e.quantity += s.quantity;
        e.revenue += s.revenue;
    }
    let mut list: Vec<ProductSale> = by_product.into_values().collect();
    list.sort_by(|a, b| {
        (b.quantity, b.revenue)
            .cmp(&(a.quantity, a.revenue))
            .then_with(|| a.name.cmp(&b.name))
    });
    let columns = vec![
        col("product", "מוצר", "Product", ColumnKind::Text),
        col("quantity", "כמות", "Quantity", ColumnKind::Count),
        REVENUE,
    ];
    let rows = list
        .iter()
        .map(|p| {
            let mut row = Map::new();
            text(&mut row, "product", &p.name, &p.name_en);
            row.insert("quantity".into(), json!(p.quantity));
            row.insert("revenue".into(), json!(p.revenue));
            row
        })
        .collect();
    (columns, rows)
}

/// A channel's name as a report shows it.
pub fn channel_name(channel: &str) -> (&str, &str) {
    match channel {
        "web" => ("אתר", "Website"),
        "miniSite" => ("מיני-סייט", "Mini-site"),
        "partnerApi" => ("ממשק שותף", "Partner API"),
        other => (other, other),
    }
}

/// Paid orders by the channel that sold them.
pub fn points_of_sale(sales: &[ChannelSale]) -> (Vec<Column>, Vec<Map<String, Value>>) {
    let mut by_channel: BTreeMap<&str, ChannelSale> = BTreeMap::new();
    for s in sales {
        let e = by_channel
            .entry(s.channel.as_str())
            .or_insert_with(|| ChannelSale {
                orders: 0,
                tickets: 0,
                revenue: Money::ZERO,
                service_charges: Money::ZERO,
                ..s.clone()
            });
        e.orders += s.orders;
        e.tickets += s.tickets;
        e.revenue += s.revenue;
        e.service_charges += s.service_charges;
    }
    let columns = vec![
        col("channel", "נקודת מכירה", "Point of sale", ColumnKind::Text),
        col("orders", "הזמנות", "Orders", ColumnKind::Count),
        col("tickets", "כרטיסים", "Tickets", ColumnKind::Count),
        REVENUE,
        col(
            "serviceCharges",
            "דמי טיפול",
            "Service charges",
            ColumnKind::Money,
        ),
    ];
    let mut list: Vec<ChannelSale> = by_channel.into_values().collect();
    list.sort_by(|a, b| {
        b.revenue
            .cmp(&a.revenue)
            .then_with(|| a.channel.cmp(&b.channel))
    });
    let rows = list
        .iter()
        .map(|c| {
            let (he, en) = channel_name(&c.channel);
            let mut row = Map::new();
            text(&mut row, "channel", he, en);
            row.insert("orders".into(), json!(c.orders));
            row.insert("tickets".into(), json!(c.tickets));
            row.insert("revenue".into(), json!(c.revenue));
            row.insert("serviceCharges".into(), json!(c.service_charges));
            row
        })
        .collect();
    (columns, rows)
}

pub struct ReportService {
    live: Arc<dyn StaffStore>,
    store: Arc<dyn ReportStore>,
    clock: Arc<dyn crate::ports::Clock>,
}

fn range_refused(field: &str, why: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        format!("{field}: {why}"),
        json!({ "field": field, "fields": [field], "reason": "range" }),
    )
}

impl ReportService {
    pub fn new(
        live: Arc<dyn StaffStore>,
        store: Arc<dyn ReportStore>,
        clock: Arc<dyn crate::ports::Clock>,
    ) -> ReportService {
        ReportService { live, store, clock }
    }

    /// The business days a report covers: `to` (default today's business day) and `from`
    /// (default six days before it), at most [`MAX_RANGE_DAYS`] days.
    pub fn range(&self, from: Option<&str>, to: Option<&str>) -> AppResult<(Date, Date)> {
        let today = super::live::business_date(self.clock.now_ms());
        let last = match to.filter(|s| !s.trim().is_empty()) {
            Some(s) => parse_date("to", s)?,
            None => today,
        };
        let first = match from.filter(|s| !s.trim().is_empty()) {
            Some(s) => parse_date("from", s)?,
            None => last.checked_sub(6.days()).map_err(AppError::internal)?,
        };
        if first > last {
            return Err(range_refused("from", "after to"));
        }
        if (last - first).get_days() >= MAX_RANGE_DAYS as i32 {
            return Err(range_refused(
                "from",
                &format!("at most {MAX_RANGE_DAYS} days in one report"),
            ));
        }
        Ok((first, last))
    }

    /// A report of the caller's `businesses` (checked: the user's own) over `first..=last`.
    pub async fn report(
        &self,
        caller: &Caller,
        kind: ReportKind,
        first: Date,
        last: Date,
        businesses: &[i64],
    ) -> AppResult<Report> {
        caller.require(Access::Sales)?;
        let business_ids = caller.businesses(businesses)?;
        let (from_ms, to_ms) = business_range_ms(first, last);
        let screenings = || async {
            let rows = self
                .live
                .live_rows(from_ms, to_ms, self.clock.now_ms())
                .await?;
            Ok::<_, AppError>(
                rows.into_iter()
                    .filter(|r| business_ids.contains(&r.business_id))
                    .collect::<Vec<LiveRow>>(),
            )
        };
        let (columns, rows) = match kind {
            ReportKind::AttendanceByVenue => attendance(&screenings().await?, false),
            ReportKind::AttendanceByFeature => attendance(&screenings().await?, true),
            ReportKind::TopFeatures => top_features(&screenings().await?),
            ReportKind::Products => {
                let sales: Vec<ProductSale> = self
                    .store
                    .product_sales(&first.to_string(), &last.to_string())
                    .await?
                    .into_iter()
                    .filter(|s| business_ids.contains(&s.business_id) || s.business_id == 0)
                    .collect();
                products(&sales)
            }
            ReportKind::PointsOfSale => {
                let sales: Vec<ChannelSale> = self
                    .store
                    .channel_sales(&first.to_string(), &last.to_string())
                    .await?
                    .into_iter()
                    .filter(|s| business_ids.contains(&s.business_id) || s.business_id == 0)
                    .collect();
                points_of_sale(&sales)
            }
        };
        let totals = (kind != ReportKind::TopFeatures).then(|| totals_of(&columns, &rows));
        Ok(Report {
            kind,
            first,
            last,
            business_ids,
            columns,
            rows,
            totals,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn screening(id: i64, feature: (i64, &str), sold: i64, revenue: i64) -> LiveRow {
        LiveRow {
            presentation_id: crate::model::PresentationId(id),
            starts_at_ms: 1_900_000_000_000 + id * 3_600_000,
            business_id: 1,
            location_id: 2,
            location_name: "ירושלים".into(),
            location_name_en: "Jerusalem".into(),
            venue_id: 1,
            venue_name: "אולם 1".into(),
            venue_name_en: "Hall 1".into(),
            feature_id: feature.0,
            feature_name: feature.1.into(),
            feature_name_en: feature.1.into(),
            feature_category_id: 1,
            seatplan_id: 1,
            capacity: 100,
            sold,
            held: 0,
            revenue: Money(revenue),
        }
    }

    #[test]
    fn the_top_ten_is_by_tickets_then_revenue_and_leaves_unsold_features_out() {
        let mut rows: Vec<LiveRow> = (1..=12)
            .map(|i| screening(i, (i, &format!("F{i:02}")), i, i * 1000))
            .collect();
        rows.push(screening(20, (3, "F03"), 10, 500));
        rows.push(screening(21, (99, "Unsold"), 0, 0));
        let (_, top) = top_features(&rows);
        let names: Vec<&str> = top.iter().map(|r| r["feature"].as_str().unwrap()).collect();
        assert_eq!(names[0], "F03", "3 + 10 tickets over two screenings");
        assert_eq!(top.len(), 10);
        assert!(!names.contains(&"Unsold"));
        assert_eq!(top[0]["screenings"], 2);
        assert_eq!(top[0]["occupancy"], percent(13, 200));
        assert_eq!(top[1]["feature"], "F12");
    }

    #[test]
    fn attendance_totals_add_the_screenings_and_recompute_occupancy() {
        let rows = vec![
            screening(1, (1, "A"), 30, 3000),
            screening(2, (2, "B"), 50, 5000),
        ];
        let (columns, table) = attendance(&rows, true);
        assert_eq!(columns[0].key, "feature");
        let t = totals_of(&columns, &table);
        assert_eq!(
            (
                t["sold"].as_i64(),
                t["capacity"].as_i64(),
                t["revenue"].as_i64()
            ),
            (Some(80), Some(200), Some(8000))
        );
        assert_eq!(t["occupancy"], 40);
        assert!(!t.contains_key("time"));
    }

    #[test]
    fn products_and_channels_sum_across_businesses() {
        let p = |b, id, q| ProductSale {
            business_id: b,
            product_id: id,
            name: format!("P{id}"),
            name_en: format!("P{id}"),
            quantity: q,
            revenue: Money(q * 100),
        };
        let (_, rows) = products(&[p(1, 1, 2), p(2, 1, 3), p(1, 2, 9)]);
        assert_eq!(
            (rows[0]["product"].as_str(), rows[0]["quantity"].as_i64()),
            (Some("P2"), Some(9))
        );
        assert_eq!(
            (rows[1]["quantity"].as_i64(), rows[1]["revenue"].as_i64()),
            (Some(5), Some(500))
        );
        let c = |channel: &str, revenue| ChannelSale {
            business_id: 1,
            channel: channel.into(),
            orders: 1,
            tickets: 2,
            revenue: Money(revenue),
            service_charges: Money(10),
        };
        let (_, rows) = points_of_sale(&[c("web", 100), c("miniSite", 900), c("web", 50)]);
        assert_eq!(
            (rows[0]["channelEn"].as_str(), rows[1]["orders"].as_i64()),
            (Some("Mini-site"), Some(2))
        );
    }
}
