//! Saved cards of customers (migration 0008): no card number, no security code.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::saved_cards::{SavedCard, SavedCardStore};

use crate::rows::Get;
use crate::{Db, db_err};

fn card(r: &impl Get) -> Result<SavedCard, sqlx::Error> {
    Ok(SavedCard {
        token: r.s("token")?,
        customer_id: r.i("customer_id")?,
        brand: r.s("brand")?,
        bin: r.os("bin")?,
        last4: r.s("last4")?,
        expiry_year: r.i("expiry_year")? as i32,
        expiry_month: r.i("expiry_month")? as u32,
        created_at_ms: r.i("created_at")?,
        deleted_at_ms: r.oi("deleted_at")?,
    })
}

#[async_trait]
impl SavedCardStore for Db {
    async fn insert_saved_card(&self, c: &SavedCard) -> StoreResult<()> {
        crate::on_pool!(self, |p| {
            sqlx::query(
            "INSERT INTO saved_cards (token, customer_id, brand, bin, last4, expiry_year, expiry_month, created_at, deleted_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        )
        .bind(&c.token)
        .bind(c.customer_id)
        .bind(&c.brand)
        .bind(&c.bin)
        .bind(&c.last4)
        .bind(i64::from(c.expiry_year))
        .bind(i64::from(c.expiry_month))
        .bind(c.created_at_ms)
        .bind(c.deleted_at_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)
        })
    }

    async fn saved_cards(&self, customer_id: i64) -> StoreResult<Vec<SavedCard>> {
        fetch_all!(
            self,
            "SELECT token, customer_id, brand, bin, last4, expiry_year, expiry_month, created_at, deleted_at \
             FROM saved_cards WHERE customer_id = $1 AND deleted_at IS NULL ORDER BY created_at, token",
            [customer_id],
            card
        )
    }

    async fn saved_card(&self, token: &str) -> StoreResult<Option<SavedCard>> {
        fetch_optional!(
            self,
            "SELECT token, customer_id, brand, bin, last4, expiry_year, expiry_month, created_at, deleted_at \
             FROM saved_cards WHERE token = $1",
            [token],
            card
        )
    }

    async fn delete_saved_card(
        &self,
        customer_id: i64,
        token: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE saved_cards SET deleted_at = $3 \
             WHERE token = $1 AND customer_id = $2 AND deleted_at IS NULL"
        )
        .bind(token)
        .bind(customer_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }
}
