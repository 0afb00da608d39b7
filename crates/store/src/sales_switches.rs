//! The sales switches' rows (decision 0067): read by the catalogue (through its cache) and by the
//! staff area; written by the programme store with the audit row.

use kupa_app::error::StoreResult;
use kupa_app::sales_switches::{SaleChannel, SalesSwitch};

use crate::rows::Get;
use crate::{Db, db_err};

/// A row as a switch; None for a channel this build does not know.
pub(crate) fn row(r: &impl Get) -> Result<Option<SalesSwitch>, sqlx::Error> {
    let Some(channel) = SaleChannel::parse(&r.s("channel")?) else {
        return Ok(None);
    };
    Ok(Some(SalesSwitch {
        location_id: r.i("location_id")?,
        channel,
        offline: r.b("is_offline")?,
        advance_sales: r.b("advance_sales")?,
        open: r.b("is_open")?,
    }))
}

pub(crate) async fn read_all(db: &Db) -> StoreResult<Vec<SalesSwitch>> {
    crate::on_pool!(db, |p| {
        sqlx::query(
            "SELECT location_id, channel, is_offline, advance_sales, is_open FROM sales_switches \
             ORDER BY location_id, channel",
        )
        .fetch_all(p)
        .await
        .map_err(db_err)?
        .iter()
        .map(row)
        .filter_map(Result::transpose)
        .collect::<Result<Vec<_>, _>>()
        .map_err(db_err)
    })
}
