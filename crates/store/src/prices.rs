//! Prices and service charges from a date (decision 0070): the scheduled changes, read by the
//! catalogue (through its cache) and the staff area, and written by managers with their audit row
//! and a `catalogue_version` bump in one transaction. A business's change has no complex: its
//! audit row's `location_id` is NULL.

use async_trait::async_trait;
use jiff::civil::Date;
use kupa_app::error::StoreResult;
use kupa_app::model::{Ticket, TicketGroup};
use kupa_app::ports::CatalogueStore;
use kupa_app::prices::{
    PriceChange, PriceChangeKind, PriceChanges, ServiceChargeChange, TicketPriceChange,
};
use kupa_app::programme::{Change, NewPriceChange, PriceStore, Scheduled};

use crate::programme_macros::bump_version;
use crate::rows::Get;
use crate::{BeginWrite, Db, db_err};

type R<T> = Result<T, sqlx::Error>;

fn day(r: &impl Get) -> R<Date> {
    let s = r.s("effective_from")?;
    s.parse()
        .map_err(|e| sqlx::Error::Decode(format!("effective_from {s:?}: {e}").into()))
}

fn ticket_change(r: &impl Get) -> R<TicketPriceChange> {
    Ok(TicketPriceChange {
        id: r.i("id")?,
        business_id: r.i("business_id")?,
        ticket_id: r.i("ticket_id")?,
        effective_from: day(r)?,
        price: r.m("price")?,
        created_at_ms: r.i("created_at")?,
        staff_user_id: r.i("staff_user_id")?,
    })
}

fn charge_change(r: &impl Get) -> R<ServiceChargeChange> {
    Ok(ServiceChargeChange {
        id: r.i("id")?,
        business_id: r.i("business_id")?,
        effective_from: day(r)?,
        amount: r.om("amount")?,
        percent_bp: r.oi("percent_bp")?,
        per_ticket: r.b("per_ticket")?,
        created_at_ms: r.i("created_at")?,
        staff_user_id: r.i("staff_user_id")?,
    })
}

/// A change as the audit keeps it (no personal data: ids, a day, amounts).
fn ticket_doc(c: &TicketPriceChange) -> String {
    serde_json::json!({
        "id": c.id,
        "ticketId": c.ticket_id,
        "effectiveFrom": c.effective_from.to_string(),
        "price": c.price,
    })
    .to_string()
}

fn charge_doc(c: &ServiceChargeChange) -> String {
    serde_json::json!({
        "id": c.id,
        "serviceCharge": true,
        "effectiveFrom": c.effective_from.to_string(),
        "amount": c.amount,
        "percentBp": c.percent_bp,
        "perTicket": c.per_ticket,
    })
    .to_string()
}

fn change_doc(c: &PriceChange) -> String {
    match c {
        PriceChange::TicketPrice(c) => ticket_doc(c),
        PriceChange::ServiceCharge(c) => charge_doc(c),
    }
}

fn withdrawn_doc(id: i64) -> String {
    serde_json::json!({ "id": id, "withdrawn": true }).to_string()
}

/// One audit row of a business's price list, in the change's transaction.
macro_rules! audit {
    ($tx:expr, $kind:expr, $business:expr, $by:expr, $before:expr, $after:expr) => {{
        let by: Change = $by;
        let before: Option<String> = $before;
        let after: String = $after;
        sqlx::query(
            "INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc) \
             VALUES ($1, $2, NULL, NULL, $3, $4, $5, $6)",
        )
        .bind($kind)
        .bind($business)
        .bind(by.staff_user_id)
        .bind(by.at_ms)
        .bind(before)
        .bind(after)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

/// Every scheduled change, for the catalogue and the staff area.
pub(crate) async fn read_all(db: &Db) -> StoreResult<PriceChanges> {
    let tickets = fetch_all!(
        db,
        "SELECT id, business_id, ticket_id, effective_from, price, created_at, staff_user_id \
         FROM ticket_price_changes ORDER BY id",
        [],
        ticket_change
    )?;
    let service_charges = fetch_all!(
        db,
        "SELECT id, business_id, effective_from, amount, percent_bp, per_ticket, created_at, staff_user_id \
         FROM service_charge_changes ORDER BY id",
        [],
        charge_change
    )?;
    Ok(PriceChanges {
        tickets,
        service_charges,
    })
}

#[async_trait]
impl PriceStore for Db {
    async fn price_list(&self) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>> {
        let ids: Vec<i64> = crate::on_pool!(self, |p| {
            sqlx::query_scalar("SELECT id FROM ticket_groups ORDER BY id")
                .fetch_all(p)
                .await
                .map_err(db_err)
        })?;
        CatalogueStore::ticket_groups(self, &ids).await
    }

    async fn scheduled_changes(&self) -> StoreResult<PriceChanges> {
        read_all(self).await
    }

    async fn schedule_change(
        &self,
        new: NewPriceChange<'_>,
        by: Change,
    ) -> StoreResult<Scheduled<PriceChange>> {
        let (business_id, effective_from) = match new {
            NewPriceChange::TicketPrice(n) => (n.business_id, n.effective_from),
            NewPriceChange::ServiceCharge(n) => (n.business_id, n.effective_from),
        };
        let day = effective_from.to_string();
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            // One change of a ticket (or of the service charge) per business and day: the key
            // decides, not a read first.
            let (insert, existing) = match new {
                NewPriceChange::TicketPrice(n) => (
                    sqlx::query_scalar(
                        "INSERT INTO ticket_price_changes (business_id, ticket_id, effective_from, price, created_at, staff_user_id) \
                         VALUES ($1, $2, $3, $4, $5, $6) \
                         ON CONFLICT (business_id, ticket_id, effective_from) DO NOTHING RETURNING id",
                    )
                    .bind(n.business_id)
                    .bind(n.ticket_id)
                    .bind(&day)
                    .bind(n.price),
                    sqlx::query_scalar(
                        "SELECT id FROM ticket_price_changes WHERE business_id = $1 AND ticket_id = $2 AND effective_from = $3",
                    )
                    .bind(n.business_id)
                    .bind(n.ticket_id)
                    .bind(&day),
                ),
                NewPriceChange::ServiceCharge(n) => (
                    sqlx::query_scalar(
                        "INSERT INTO service_charge_changes (business_id, effective_from, amount, percent_bp, per_ticket, created_at, staff_user_id) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7) \
                         ON CONFLICT (business_id, effective_from) DO NOTHING RETURNING id",
                    )
                    .bind(n.business_id)
                    .bind(&day)
                    .bind(n.amount)
                    .bind(n.percent_bp)
                    .bind(n.per_ticket),
                    sqlx::query_scalar(
                        "SELECT id FROM service_charge_changes WHERE business_id = $1 AND effective_from = $2",
                    )
                    .bind(n.business_id)
                    .bind(&day),
                ),
            };
            let id: Option<i64> = insert
                .bind(by.at_ms)
                .bind(by.staff_user_id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let Some(id) = id else {
                let existing: i64 = existing.fetch_one(&mut *tx).await.map_err(db_err)?;
                return Ok(Scheduled::Exists(existing));
            };
            let change = match new {
                NewPriceChange::TicketPrice(n) => PriceChange::TicketPrice(TicketPriceChange {
                    id,
                    business_id: n.business_id,
                    ticket_id: n.ticket_id,
                    effective_from: n.effective_from,
                    price: n.price,
                    created_at_ms: by.at_ms,
                    staff_user_id: by.staff_user_id,
                }),
                NewPriceChange::ServiceCharge(n) => {
                    PriceChange::ServiceCharge(ServiceChargeChange {
                        id,
                        business_id: n.business_id,
                        effective_from: n.effective_from,
                        amount: n.amount,
                        percent_bp: n.percent_bp,
                        per_ticket: n.per_ticket,
                        created_at_ms: by.at_ms,
                        staff_user_id: by.staff_user_id,
                    })
                }
            };
            audit!(
                tx,
                "priceScheduled",
                business_id,
                by,
                None,
                change_doc(&change)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Scheduled::Done(change))
        })
    }

    async fn withdraw_change(
        &self,
        kind: PriceChangeKind,
        id: i64,
        not_before: Date,
        by: Change,
    ) -> StoreResult<Option<PriceChange>> {
        let delete = match kind {
            PriceChangeKind::TicketPrice => {
                "DELETE FROM ticket_price_changes WHERE id = $1 AND effective_from >= $2 \
                 RETURNING id, business_id, ticket_id, effective_from, price, created_at, staff_user_id"
            }
            PriceChangeKind::ServiceCharge => {
                "DELETE FROM service_charge_changes WHERE id = $1 AND effective_from >= $2 \
                 RETURNING id, business_id, effective_from, amount, percent_bp, per_ticket, created_at, staff_user_id"
            }
        };
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let row = sqlx::query(delete)
                .bind(id)
                .bind(not_before.to_string())
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let Some(row) = row else { return Ok(None) };
            let change = match kind {
                PriceChangeKind::TicketPrice => ticket_change(&row).map(PriceChange::TicketPrice),
                PriceChangeKind::ServiceCharge => {
                    charge_change(&row).map(PriceChange::ServiceCharge)
                }
            }
            .map_err(db_err)?;
            audit!(
                tx,
                "priceWithdrawn",
                change.business_id(),
                by,
                Some(change_doc(&change)),
                withdrawn_doc(id)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Some(change))
        })
    }
}
