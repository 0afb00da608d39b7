//! Sales of live monitoring (managers only): tickets sold on a day by location and by feature,
//! presentation sales over a range, the v2 view (features, presentations, their data), and the
//! ticket-reference prompt admin. Money is agorot; a ticket's `Revenue` is its price without the
//! service charge, which is summed apart.

use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use std::collections::BTreeMap;

use jiff::ToSpan;
use jiff::civil::Date;

use super::live::{
    CALENDAR_DAYS, EXCLUDED_LOCATION, Figures, LiveRow, LiveService, SoldLine, TOTAL_ROW_ID,
    TOTAL_ROW_NAME, TOTAL_ROW_NAME_EN, business_range_ms, parse_date,
};
use super::refs::{PRICE_TYPE_TICKET, RefOption, line_uses};
use super::summary::{DaySales, SalesCell, SalesFilter};
use super::{Access, Caller};
use crate::error::{AppError, AppResult, ErrorCode};

/// An option as the quantity edit addresses it.
#[derive(Debug, Clone, Copy)]
pub struct RefOptionKey<'a> {
    pub price_type: i64,
    pub price_id: i64,
    pub price_row_id: i64,
    pub reference: &'a str,
    pub reference2: &'a str,
}

/// Tickets sold, summed under a name.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SalesGroup {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// The location, when the group is a feature at one location.
    pub location: Option<(i64, String, String)>,
    pub tickets: i64,
    pub revenue: Money,
    pub service_charges: Money,
    pub orders: i64,
}

/// One business day of sales.
#[derive(Debug, Clone, PartialEq)]
pub struct SalesDay {
    pub date: Date,
    pub tickets: i64,
    pub revenue: Money,
}

/// A ticket type's sales.
#[derive(Debug, Clone, PartialEq)]
pub struct TicketTypeSales {
    pub ticket_id: i64,
    pub name: String,
    pub name_en: String,
    pub tickets: i64,
    pub revenue: Money,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PresentationsData {
    pub presentations: Vec<LiveRow>,
    pub total: Figures,
    pub sales_by_day: Vec<SalesDay>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct PresentationData {
    pub presentation: LiveRow,
    pub ticket_types: Vec<TicketTypeSales>,
    pub sales_by_day: Vec<SalesDay>,
}

fn not_found(what: &str) -> AppError {
    AppError::rejected(ErrorCode::NotFound, format!("no such {what}"))
}

/// Sums cells by a key; the total row (id -1, location 1 left out) last. An order counts once
/// in each presentation it holds tickets of (decision 0052).
fn sum_cells(
    cells: &[SalesCell],
    key: impl Fn(&SalesCell) -> (i64, i64, String, String, Option<(i64, String, String)>),
) -> Vec<SalesGroup> {
    let mut groups: BTreeMap<(i64, i64), SalesGroup> = BTreeMap::new();
    let mut total = SalesGroup {
        id: TOTAL_ROW_ID,
        name: TOTAL_ROW_NAME.into(),
        name_en: TOTAL_ROW_NAME_EN.into(),
        ..SalesGroup::default()
    };
    let add = |g: &mut SalesGroup, c: &SalesCell| {
        g.tickets += c.tickets;
        g.revenue += c.revenue;
        g.service_charges += c.service_charges;
        g.orders += c.orders;
    };
    for c in cells {
        let (id, sub, name, name_en, location) = key(c);
        let g = groups.entry((id, sub)).or_insert_with(|| SalesGroup {
            id,
            name,
            name_en,
            location,
            ..SalesGroup::default()
        });
        add(g, c);
        if c.location_id != EXCLUDED_LOCATION {
            add(&mut total, c);
        }
    }
    let mut out: Vec<SalesGroup> = groups.into_values().collect();
    out.push(total);
    out
}

fn days(sales: Vec<DaySales>) -> Vec<SalesDay> {
    sales
        .into_iter()
        .filter_map(|d| {
            Some(SalesDay {
                date: d.day.parse().ok()?,
                tickets: d.tickets,
                revenue: d.revenue,
            })
        })
        .collect()
}

impl LiveService {
    /// The caller's summed sales paid on the business days `first..=last`.
    async fn cells(&self, caller: &Caller, first: Date, last: Date) -> AppResult<Vec<SalesCell>> {
        Ok(self
            .store
            .day_sales(&first.to_string(), &last.to_string())
            .await?
            .into_iter()
            .filter(|c| caller.sees(c.business_id))
            .collect())
    }

    fn calendar(&self) -> (Date, Date) {
        let today = self.today();
        (
            today.checked_sub(CALENDAR_DAYS.days()).unwrap_or(today),
            today.checked_add(CALENDAR_DAYS.days()).unwrap_or(today),
        )
    }

    /// GET /PRES-live/locationTicketSales/data/{date}/{locationId}: tickets paid on that business
    /// day, by location (0: every location), the total row last.
    pub async fn location_ticket_sales(
        &self,
        caller: &Caller,
        date: &str,
        location_id: i64,
    ) -> AppResult<Vec<SalesGroup>> {
        caller.require(Access::Sales)?;
        let d = parse_date("date", date)?;
        let cells: Vec<SalesCell> = self
            .cells(caller, d, d)
            .await?
            .into_iter()
            .filter(|l| location_id == 0 || l.location_id == location_id)
            .collect();
        Ok(sum_cells(&cells, |l| {
            (
                l.location_id,
                0,
                l.location_name.clone(),
                l.location_name_en.clone(),
                None,
            )
        }))
    }

    /// GET /PRES-live/featureTicketSales/data/{date}: tickets paid that day by feature (or by
    /// feature and location), optionally of one location and one feature.
    pub async fn feature_ticket_sales(
        &self,
        caller: &Caller,
        date: &str,
        location_id: Option<i64>,
        feature_id: Option<i64>,
        by_location: bool,
    ) -> AppResult<Vec<SalesGroup>> {
        caller.require(Access::Sales)?;
        let d = parse_date("date", date)?;
        let cells: Vec<SalesCell> = self
            .cells(caller, d, d)
            .await?
            .into_iter()
            .filter(|l| location_id.is_none_or(|x| l.location_id == x))
            .filter(|l| feature_id.is_none_or(|x| l.feature_id == x))
            .collect();
        Ok(sum_cells(&cells, |l| {
            let location = by_location.then(|| {
                (
                    l.location_id,
                    l.location_name.clone(),
                    l.location_name_en.clone(),
                )
            });
            (
                l.feature_id,
                if by_location { l.location_id } else { 0 },
                l.feature_name.clone(),
                l.feature_name_en.clone(),
                location,
            )
        }))
    }

    /// GET /PRES-live/monitors/PresentationSales/data: every presentation of the range (by its
    /// business date; default the last month) with its figures and money.
    pub async fn presentation_sales(
        &self,
        caller: &Caller,
        start: Option<&str>,
        end: Option<&str>,
    ) -> AppResult<PresentationsData> {
        caller.require(Access::Sales)?;
        let (first, last) = self.history_range(start, end)?;
        let filter = SalesFilter {
            business_ids: caller.user.business_ids.clone(),
            ..SalesFilter::default()
        };
        self.presentations_data(first, last, &filter).await
    }

    async fn presentations_data(
        &self,
        first: Date,
        last: Date,
        filter: &SalesFilter,
    ) -> AppResult<PresentationsData> {
        let (from, to) = business_range_ms(first, last);
        let rows = match filter.feature_id {
            Some(feature) => {
                self.store
                    .feature_live_rows(from, to, self.now_ms(), feature)
                    .await?
            }
            None => self.store.live_rows(from, to, self.now_ms()).await?,
        };
        let rows: Vec<LiveRow> = rows
            .into_iter()
            .filter(|r| {
                filter.keeps(
                    r.business_id,
                    r.feature_id,
                    r.location_id,
                    r.presentation_id,
                )
            })
            .collect();
        let mut total = Figures::default();
        for r in rows.iter().filter(|r| r.location_id != EXCLUDED_LOCATION) {
            total.add(Figures::of(r));
        }
        let sales = self.store.sales_by_day(from, to, filter).await?;
        Ok(PresentationsData {
            presentations: rows,
            total,
            sales_by_day: days(sales),
        })
    }

    /// GET /PRES-live/v2/availableFeatures: the features with presentations in the range
    /// (default: the live calendar).
    pub async fn available_features(
        &self,
        caller: &Caller,
        start: Option<&str>,
        end: Option<&str>,
    ) -> AppResult<Vec<(i64, String, String)>> {
        caller.require(Access::Sales)?;
        let (first, last) = self.range_or_calendar(start, end)?;
        let (from, to) = business_range_ms(first, last);
        let mut out: BTreeMap<i64, (i64, String, String)> = BTreeMap::new();
        for (id, name, name_en, business) in self.store.features_between(from, to).await? {
            if caller.sees(business) {
                out.entry(id).or_insert((id, name, name_en));
            }
        }
        Ok(out.into_values().collect())
    }

    fn range_or_calendar(&self, start: Option<&str>, end: Option<&str>) -> AppResult<(Date, Date)> {
        let (cal_first, cal_last) = self.calendar();
        let start = start.filter(|s| !s.trim().is_empty());
        let end = end.filter(|s| !s.trim().is_empty());
        let first = start.map(|s| parse_date("startDate", s)).transpose()?;
        let last = end.map(|s| parse_date("endDate", s)).transpose()?;
        let (first, last) = (first.unwrap_or(cal_first), last.unwrap_or(cal_last));
        self.history_range(Some(&first.to_string()), Some(&last.to_string()))
    }

    /// GET /PRES-live/v2/availablePresentations: a feature's presentations in the live calendar,
    /// optionally at one location.
    pub async fn available_presentations(
        &self,
        caller: &Caller,
        feature_id: i64,
        location_id: Option<i64>,
    ) -> AppResult<Vec<LiveRow>> {
        caller.require(Access::Sales)?;
        let (first, last) = self.calendar();
        let (from, to) = business_range_ms(first, last);
        Ok(self
            .store
            .feature_live_rows(from, to, self.now_ms(), feature_id)
            .await?
            .into_iter()
            .filter(|r| caller.sees(r.business_id))
            .filter(|r| location_id.is_none_or(|l| r.location_id == l))
            .collect())
    }

    /// GET /PRES-live/v2/featureData: a feature's presentations (optionally some of them, at one
    /// location) in the range (default: the live calendar), their total and sales by day.
    pub async fn feature_data(
        &self,
        caller: &Caller,
        feature_id: i64,
        location_id: Option<i64>,
        presentation_ids: &[PresentationId],
        start: Option<&str>,
        end: Option<&str>,
    ) -> AppResult<PresentationsData> {
        caller.require(Access::Sales)?;
        let (first, last) = self.range_or_calendar(start, end)?;
        let filter = SalesFilter {
            business_ids: caller.user.business_ids.clone(),
            feature_id: Some(feature_id),
            location_id,
            presentation_ids: presentation_ids.to_vec(),
        };
        self.presentations_data(first, last, &filter).await
    }

    /// GET /PRES-live/v2/presentationData: one presentation's figures, sales by ticket type and
    /// by day. Another business's presentation is answered as not found.
    pub async fn presentation_data(
        &self,
        caller: &Caller,
        presentation_id: PresentationId,
    ) -> AppResult<PresentationData> {
        caller.require(Access::Sales)?;
        let row = self
            .store
            .live_row(presentation_id, self.now_ms())
            .await?
            .filter(|r| caller.sees(r.business_id))
            .ok_or_else(|| not_found("presentation"))?;
        let cells = self.store.presentation_cells(presentation_id).await?;
        let mut types: BTreeMap<i64, TicketTypeSales> = BTreeMap::new();
        let mut by_day: BTreeMap<String, DaySales> = BTreeMap::new();
        for c in cells {
            let t = types.entry(c.ticket_id).or_insert(TicketTypeSales {
                ticket_id: c.ticket_id,
                name: c.name.clone(),
                name_en: c.name_en.clone(),
                tickets: 0,
                revenue: Money::ZERO,
            });
            t.tickets += c.tickets;
            t.revenue += c.revenue;
            let d = by_day.entry(c.day.clone()).or_insert(DaySales {
                day: c.day,
                tickets: 0,
                revenue: Money::ZERO,
            });
            d.tickets += c.tickets;
            d.revenue += c.revenue;
        }
        Ok(PresentationData {
            presentation: row,
            ticket_types: types.into_values().filter(|t| t.tickets > 0).collect(),
            sales_by_day: days(by_day.into_values().filter(|d| d.tickets > 0).collect()),
        })
    }

    // --- The ticket-reference prompt admin

    /// The options with how many tickets of the caller's businesses used each (all time).
    pub async fn ref_options_used(
        &self,
        caller: &Caller,
        businesses: &[i64],
    ) -> AppResult<Vec<(RefOption, i64)>> {
        caller.require(Access::ReferencePrompts)?;
        let options = self.store.ref_options().await?;
        let (first, last) = (
            Date::constant(2000, 1, 1),
            self.today()
                .checked_add(3650.days())
                .unwrap_or(self.today()),
        );
        let lines = self
            .ref_lines(caller, businesses, first, last, false)
            .await?;
        Ok(options
            .into_iter()
            .map(|o| {
                let used = lines
                    .iter()
                    .filter(|l| line_uses(&o, l.ticket_id, l.ref1.as_deref(), l.ref2.as_deref()))
                    .count() as i64;
                (o, used)
            })
            .collect())
    }

    /// Sold lines that carry a reference, of these businesses.
    pub async fn ref_lines(
        &self,
        caller: &Caller,
        businesses: &[i64],
        first: Date,
        last: Date,
        by_sale: bool,
    ) -> AppResult<Vec<SoldLine>> {
        caller.require(Access::ReferencePrompts)?;
        let (from, to) = business_range_ms(first, last);
        Ok(self
            .store
            .ref_lines(from, to, by_sale)
            .await?
            .into_iter()
            .filter(|l| businesses.contains(&l.business_id) && l.ref1.is_some())
            .collect())
    }

    /// POST /pres-live/editReferencePromptOptionQuantity/1/{priceType}/{priceId}/{priceRowId}.
    pub async fn edit_ref_option_quantity(
        &self,
        caller: &Caller,
        key: &RefOptionKey<'_>,
        quantity: i64,
    ) -> AppResult<()> {
        let RefOptionKey {
            price_type,
            price_id,
            price_row_id,
            reference,
            reference2,
        } = *key;
        caller.require(Access::ReferencePrompts)?;
        if price_type != PRICE_TYPE_TICKET {
            return Err(not_found("price type"));
        }
        if !(0..=100_000).contains(&quantity) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "quantity: 0 to 100000",
                serde_json::json!({ "field": "quantity", "reason": "range" }),
            ));
        }
        let done = self
            .store
            .set_ref_option_quantity(price_id, price_row_id, reference, reference2, quantity)
            .await?;
        if !done {
            return Err(AppError::rejected(
                ErrorCode::RefPromptOptNotFound,
                "no reference option has this key",
            ));
        }
        tracing::info!(
            user_id = caller.user.id,
            ticket_id = price_id,
            row = price_row_id,
            quantity,
            "reference option quantity set"
        );
        Ok(())
    }
}
