//! Prices and service charges from a date (decision 0070): the scheduled changes, read by the
//! catalogue (through its cache) and the staff area, and written by managers with their audit row
//! and a `catalogue_version` bump in one transaction. A business's change has no complex: its
//! audit row's `location_id` is NULL.

use async_trait::async_trait;
use jiff::civil::Date;
use kupa_app::error::StoreResult;
use kupa_app::model::{Ticket, TicketGroup};
use kupa_app::ports::CatalogueStore;
use kupa_app::prices::{PriceChanges, ServiceChargeChange, TicketPriceChange};
use kupa_app::programme::{Change, NewServiceCharge, NewTicketPrice, PriceStore, Scheduled};

use crate::programme::bump_version;
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
        price: r.i("price")?,
        created_at_ms: r.i("created_at")?,
        staff_user_id: r.i("staff_user_id")?,
    })
}

fn charge_change(r: &impl Get) -> R<ServiceChargeChange> {
    Ok(ServiceChargeChange {
        id: r.i("id")?,
        business_id: r.i("business_id")?,
        effective_from: day(r)?,
        amount: r.oi("amount")?,
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

    async fn schedule_ticket_price(
        &self,
        new: &NewTicketPrice,
        by: Change,
    ) -> StoreResult<Scheduled<TicketPriceChange>> {
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            // One change of a ticket per business and day: the key decides, not a read first.
            let id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO ticket_price_changes (business_id, ticket_id, effective_from, price, created_at, staff_user_id) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (business_id, ticket_id, effective_from) DO NOTHING RETURNING id",
            )
            .bind(new.business_id)
            .bind(new.ticket_id)
            .bind(new.effective_from.to_string())
            .bind(new.price)
            .bind(by.at_ms)
            .bind(by.staff_user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(id) = id else {
                let existing: i64 = sqlx::query_scalar(
                    "SELECT id FROM ticket_price_changes WHERE business_id = $1 AND ticket_id = $2 AND effective_from = $3",
                )
                .bind(new.business_id)
                .bind(new.ticket_id)
                .bind(new.effective_from.to_string())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                return Ok(Scheduled::Exists(existing));
            };
            let change = TicketPriceChange {
                id,
                business_id: new.business_id,
                ticket_id: new.ticket_id,
                effective_from: new.effective_from,
                price: new.price,
                created_at_ms: by.at_ms,
                staff_user_id: by.staff_user_id,
            };
            audit!(
                tx,
                "priceScheduled",
                new.business_id,
                by,
                None,
                ticket_doc(&change)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Scheduled::Done(change))
        })
    }

    async fn schedule_service_charge(
        &self,
        new: &NewServiceCharge,
        by: Change,
    ) -> StoreResult<Scheduled<ServiceChargeChange>> {
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO service_charge_changes (business_id, effective_from, amount, percent_bp, per_ticket, created_at, staff_user_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (business_id, effective_from) DO NOTHING RETURNING id",
            )
            .bind(new.business_id)
            .bind(new.effective_from.to_string())
            .bind(new.amount)
            .bind(new.percent_bp)
            .bind(new.per_ticket)
            .bind(by.at_ms)
            .bind(by.staff_user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(id) = id else {
                let existing: i64 = sqlx::query_scalar(
                    "SELECT id FROM service_charge_changes WHERE business_id = $1 AND effective_from = $2",
                )
                .bind(new.business_id)
                .bind(new.effective_from.to_string())
                .fetch_one(&mut *tx)
                .await
                .map_err(db_err)?;
                return Ok(Scheduled::Exists(existing));
            };
            let change = ServiceChargeChange {
                id,
                business_id: new.business_id,
                effective_from: new.effective_from,
                amount: new.amount,
                percent_bp: new.percent_bp,
                per_ticket: new.per_ticket,
                created_at_ms: by.at_ms,
                staff_user_id: by.staff_user_id,
            };
            audit!(
                tx,
                "priceScheduled",
                new.business_id,
                by,
                None,
                charge_doc(&change)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Scheduled::Done(change))
        })
    }

    async fn withdraw_ticket_price(
        &self,
        id: i64,
        not_before: Date,
        by: Change,
    ) -> StoreResult<Option<TicketPriceChange>> {
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let row = sqlx::query(
                "DELETE FROM ticket_price_changes WHERE id = $1 AND effective_from >= $2 \
                 RETURNING id, business_id, ticket_id, effective_from, price, created_at, staff_user_id",
            )
            .bind(id)
            .bind(not_before.to_string())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(row) = row else { return Ok(None) };
            let change = ticket_change(&row).map_err(db_err)?;
            audit!(
                tx,
                "priceWithdrawn",
                change.business_id,
                by,
                Some(ticket_doc(&change)),
                withdrawn_doc(change.id)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Some(change))
        })
    }

    async fn withdraw_service_charge(
        &self,
        id: i64,
        not_before: Date,
        by: Change,
    ) -> StoreResult<Option<ServiceChargeChange>> {
        crate::on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let row = sqlx::query(
                "DELETE FROM service_charge_changes WHERE id = $1 AND effective_from >= $2 \
                 RETURNING id, business_id, effective_from, amount, percent_bp, per_ticket, created_at, staff_user_id",
            )
            .bind(id)
            .bind(not_before.to_string())
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(row) = row else { return Ok(None) };
            let change = charge_change(&row).map_err(db_err)?;
            audit!(
                tx,
                "priceWithdrawn",
                change.business_id,
                by,
                Some(charge_doc(&change)),
                withdrawn_doc(change.id)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(Some(change))
        })
    }
}
