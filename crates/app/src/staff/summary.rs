//! The sales summary (decision 0052): what live monitoring and reports sum, kept by the
//! finalisation and the cancellation instead of read from every ticket sold. A cell is one
//! presentation's sales of one ticket type on one business day of payment; an order counts once
//! per presentation, on the cell of its first line there. The store adds a sale's cells when it
//! marks an order paid, takes a cancellation's away in the same transaction, and fills the table
//! from the orders already paid when it starts without one ([`cells`] for all three).

use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use std::collections::BTreeMap;

use super::live::business_date;

/// The summed sales of one feature at one location of one business.
#[derive(Debug, Clone, PartialEq)]
pub struct SalesCell {
    pub business_id: i64,
    pub location_id: i64,
    pub location_name: String,
    pub location_name_en: String,
    pub feature_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub tickets: i64,
    pub revenue: Money,
    pub service_charges: Money,
    pub orders: i64,
}

/// Which presentations a sum reads: of these businesses, and when given, of one feature, one
/// location and some presentations.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SalesFilter {
    pub business_ids: Vec<i64>,
    pub feature_id: Option<i64>,
    pub location_id: Option<i64>,
    pub presentation_ids: Vec<PresentationId>,
}

impl SalesFilter {
    pub fn keeps(
        &self,
        business_id: i64,
        feature_id: i64,
        location_id: i64,
        presentation_id: PresentationId,
    ) -> bool {
        self.business_ids.contains(&business_id)
            && self.feature_id.is_none_or(|f| f == feature_id)
            && self.location_id.is_none_or(|l| l == location_id)
            && (self.presentation_ids.is_empty()
                || self.presentation_ids.contains(&presentation_id))
    }
}

/// Sales paid on one business day (`YYYY-MM-DD`).
#[derive(Debug, Clone, PartialEq)]
pub struct DaySales {
    pub day: String,
    pub tickets: i64,
    pub revenue: Money,
}

/// One presentation's sales of a ticket type paid on one business day.
#[derive(Debug, Clone, PartialEq)]
pub struct TicketDaySales {
    pub day: String,
    pub ticket_id: i64,
    pub name: String,
    pub name_en: String,
    pub tickets: i64,
    pub revenue: Money,
}

/// A ticket line as the summary sees it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SaleLine {
    pub line: i64,
    pub presentation_id: PresentationId,
    pub ticket_id: i64,
    pub price: Money,
    pub service_charge: Money,
}

/// A change to one cell (negative for a cancellation).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SummaryDelta {
    pub presentation_id: PresentationId,
    /// The business day of the payment, `YYYY-MM-DD`.
    pub sale_day: String,
    pub ticket_id: i64,
    pub tickets: i64,
    pub revenue: Money,
    pub service_charges: Money,
    pub orders: i64,
}

/// The business day a payment at `paid_at_ms` counts on, as the summary keys it.
pub fn sale_day(paid_at_ms: i64) -> String {
    business_date(paid_at_ms).to_string()
}

/// What `counted` (the lines of one paid order that count) adds to the summary, paid at
/// `paid_at_ms`, with `all` the order's every line (cancelled ones too) to find each
/// presentation's first line. `sign` is 1 for a sale and -1 to take lines away; an order's count
/// leaves a presentation when `remaining` (its lines still sold there afterwards) is empty.
pub fn cells(
    all: &[SaleLine],
    counted: &[SaleLine],
    remaining: &[SaleLine],
    paid_at_ms: i64,
    sign: i64,
) -> Vec<SummaryDelta> {
    let day = sale_day(paid_at_ms);
    let first_ticket = |presentation_id: PresentationId| {
        all.iter()
            .filter(|l| l.presentation_id == presentation_id)
            .min_by_key(|l| l.line)
            .map(|l| l.ticket_id)
    };
    let mut out: BTreeMap<(PresentationId, i64), SummaryDelta> = BTreeMap::new();
    let mut touched: Vec<PresentationId> = Vec::new();
    for l in counted {
        let c = cell(&mut out, &day, l.presentation_id, l.ticket_id);
        c.tickets += sign;
        c.revenue += l.price * sign;
        c.service_charges += l.service_charge * sign;
        if !touched.contains(&l.presentation_id) {
            touched.push(l.presentation_id);
        }
    }
    for p in touched {
        let counts_here = sign > 0 || !remaining.iter().any(|l| l.presentation_id == p);
        if let (true, Some(ticket_id)) = (counts_here, first_ticket(p)) {
            cell(&mut out, &day, p, ticket_id).orders += sign;
        }
    }
    out.into_values().collect()
}

fn cell<'a>(
    out: &'a mut BTreeMap<(PresentationId, i64), SummaryDelta>,
    day: &str,
    presentation_id: PresentationId,
    ticket_id: i64,
) -> &'a mut SummaryDelta {
    out.entry((presentation_id, ticket_id))
        .or_insert_with(|| SummaryDelta {
            presentation_id,
            sale_day: day.to_owned(),
            ticket_id,
            tickets: 0,
            revenue: Money::ZERO,
            service_charges: Money::ZERO,
            orders: 0,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn l(line: i64, presentation_id: PresentationId, ticket_id: i64, price: i64) -> SaleLine {
        SaleLine {
            line,
            presentation_id,
            ticket_id,
            price: Money(price),
            service_charge: Money(500),
        }
    }

    // 2026-03-10 03:00 Jerusalem (UTC+2): before 05:00, so the business day before.
    const NIGHT: i64 = 1_773_104_400_000;

    #[test]
    fn a_sale_counts_its_order_once_per_presentation_on_its_first_line() {
        let all = [
            l(1, PresentationId(7), 2, 3000),
            l(2, PresentationId(7), 1, 4000),
            l(3, PresentationId(8), 1, 4000),
        ];
        let d = cells(&all, &all, &[], NIGHT, 1);
        assert_eq!(d.len(), 3);
        let c = |p: i64, t: i64| {
            d.iter()
                .find(|c| c.presentation_id == PresentationId(p) && c.ticket_id == t)
                .unwrap()
        };
        assert_eq!(
            (c(7, 2).tickets, c(7, 2).revenue, c(7, 2).orders),
            (1, Money(3000), 1)
        );
        assert_eq!(
            (c(7, 1).tickets, c(7, 1).revenue, c(7, 1).orders),
            (1, Money(4000), 0)
        );
        assert_eq!((c(8, 1).orders, c(8, 1).service_charges), (1, Money(500)));
        assert_eq!(
            c(7, 2).sale_day,
            "2026-03-09",
            "a payment at 03:00 is the evening before's"
        );
    }

    #[test]
    fn a_cancellation_takes_the_order_away_only_with_its_last_line_there() {
        let all = [
            l(1, PresentationId(7), 2, 3000),
            l(2, PresentationId(7), 1, 4000),
        ];
        // The first line goes, the second stays: the order still counts at presentation 7.
        let d = cells(&all, &all[..1], &all[1..], NIGHT, -1);
        assert_eq!(d.len(), 1);
        assert_eq!(
            (d[0].ticket_id, d[0].tickets, d[0].revenue, d[0].orders),
            (2, -1, Money(-3000), 0)
        );
        // Then the second: the order leaves, from the first line's cell, where it was counted.
        let d = cells(&all, &all[1..], &[], NIGHT, -1);
        let order_cell = d.iter().find(|c| c.ticket_id == 2).unwrap();
        assert_eq!((order_cell.tickets, order_cell.orders), (0, -1));
        let line_cell = d.iter().find(|c| c.ticket_id == 1).unwrap();
        assert_eq!(
            (line_cell.tickets, line_cell.revenue, line_cell.orders),
            (-1, Money(-4000), 0)
        );
    }
}
