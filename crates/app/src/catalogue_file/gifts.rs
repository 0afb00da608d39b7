//! The catalogue file's system voucher classes and donations: their days made absolute and their
//! rules checked, before anything is written.

use std::collections::HashSet;

use jiff::civil::Date;
use kupa_domain::money::Money;

use super::checks::unique;
use super::{CatalogueFileError, err, parse_day};
use crate::model::CatalogueData;
use crate::vouchers::{Donation, SystemVoucherClass};

/// Expands and checks the classes and donations into `data` (whose tickets are already there).
pub(super) fn expand_gifts(
    classes: Vec<SystemVoucherClass>,
    donations: Vec<Donation>,
    today: Date,
    data: &mut CatalogueData,
) -> Result<(), CatalogueFileError> {
    unique("systemVoucherClasses", &classes, |c| c.id)?;
    unique("donations", &donations, |d| d.id)?;
    let tickets: HashSet<i64> = data.tickets.iter().map(|t| t.id).collect();
    for mut c in classes {
        let owner = format!("system voucher class {}", c.id);
        if !tickets.contains(&c.ticket_id) {
            return Err(err(format!("{owner}: unknown ticket {}", c.ticket_id)));
        }
        if c.prices.is_empty() && c.open_price.is_none() {
            return Err(err(format!("{owner}: needs prices or an openPrice")));
        }
        unique(&format!("{owner} prices"), &c.prices, |p| p.id)?;
        if c.prices
            .iter()
            .any(|p| p.price <= Money::ZERO || p.value.is_some_and(|v| v <= Money::ZERO))
        {
            return Err(err(format!("{owner}: prices and values must be positive")));
        }
        if let Some(o) = c.open_price
            && (o.min < Money(100)
                || o.min > o.max
                || o.min.minor() % 100 != 0
                || o.max.minor() % 100 != 0)
        {
            return Err(err(format!(
                "{owner}: openPrice min and max are whole shekels, 1 or more, min <= max"
            )));
        }
        if c.benefits.iter().any(|b| b.quantity <= 0) {
            return Err(err(format!(
                "{owner}: a benefit's quantity must be positive"
            )));
        }
        if c.valid_days <= 0 {
            return Err(err(format!("{owner}: validDays must be positive")));
        }
        if let Some(w) = &c.waiver
            && (w.min_age < 0 || w.min_age > w.max_age || w.max_age > 120 || w.text.is_empty())
        {
            return Err(err(format!(
                "{owner}: a waiver needs 0 <= minAge <= maxAge <= 120 and a text"
            )));
        }
        let day = |d: &Option<String>| -> Result<Option<String>, CatalogueFileError> {
            d.as_deref()
                .map(|d| parse_day(d, today).map(|d| d.to_string()))
                .transpose()
        };
        c.sale_from = day(&c.sale_from)?;
        c.sale_to = day(&c.sale_to)?;
        data.system_voucher_classes.push(c);
    }
    for d in donations {
        let owner = format!("donation {}", d.id);
        if d.details.is_empty() {
            return Err(err(format!("{owner}: needs at least one amount")));
        }
        unique(&format!("{owner} details"), &d.details, |x| x.id)?;
        for x in &d.details {
            let ok = if x.custom_amount {
                x.min >= Money(100)
                    && x.min <= x.max
                    && x.min.minor() % 100 == 0
                    && x.max.minor() % 100 == 0
            } else {
                x.amount > Money::ZERO
            };
            if !ok {
                return Err(err(format!(
                    "{owner}: amount {} must be positive (a custom amount: whole shekels, min <= max)",
                    x.id
                )));
            }
        }
        data.donations.push(d);
    }
    Ok(())
}
