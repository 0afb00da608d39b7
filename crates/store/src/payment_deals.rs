//! A card provider's deal ids and refunds by key (migration 0043, decision 0063).

use async_trait::async_trait;
use kupa_app::StoreResult;
use kupa_app::ports::PaymentDeals;
use sqlx::Row;

use crate::{Db, db_err};

#[async_trait]
impl PaymentDeals for Db {
    async fn record_page(
        &self,
        payment_id: &str,
        provider: &str,
        page_id: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "INSERT INTO payment_deals (payment_id, provider, page_id, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id) DO NOTHING",
        )
        .bind(payment_id)
        .bind(provider)
        .bind(page_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?);
        Ok(())
    }

    async fn page_of(&self, payment_id: &str) -> StoreResult<Option<String>> {
        Ok(on_pool!(self, |p| sqlx::query(
            "SELECT page_id FROM payment_deals WHERE payment_id = $1"
        )
        .bind(payment_id)
        .fetch_optional(p)
        .await
        .and_then(|r| r
            .map(|r| r.try_get::<Option<String>, _>("page_id"))
            .transpose())
        .map(Option::flatten)
        .map_err(db_err)?))
    }

    async fn record_deal(
        &self,
        payment_id: &str,
        provider: &str,
        deal_id: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "INSERT INTO payment_deals (payment_id, provider, deal_id, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id) DO UPDATE \
             SET deal_id = COALESCE(payment_deals.deal_id, excluded.deal_id)",
        )
        .bind(payment_id)
        .bind(provider)
        .bind(deal_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?);
        Ok(())
    }

    async fn deal_of(&self, payment_id: &str) -> StoreResult<Option<String>> {
        Ok(on_pool!(self, |p| sqlx::query(
            "SELECT deal_id FROM payment_deals WHERE payment_id = $1"
        )
        .bind(payment_id)
        .fetch_optional(p)
        .await
        .and_then(|r| r
            .map(|r| r.try_get::<Option<String>, _>("deal_id"))
            .transpose())
        .map(Option::flatten)
        .map_err(db_err)?))
    }

    async fn refund_made(&self, payment_id: &str, key: &str) -> StoreResult<bool> {
        Ok(on_pool!(self, |p| sqlx::query(
            "SELECT 1 AS one FROM payment_deal_refunds WHERE payment_id = $1 AND refund_key = $2"
        )
        .bind(payment_id)
        .bind(key)
        .fetch_optional(p)
        .await
        .map(|r| r.is_some())
        .map_err(db_err)?))
    }

    async fn record_refund(
        &self,
        payment_id: &str,
        key: &str,
        amount: i64,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "INSERT INTO payment_deal_refunds (payment_id, refund_key, amount, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id, refund_key) DO NOTHING",
        )
        .bind(payment_id)
        .bind(key)
        .bind(amount)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?);
        Ok(())
    }
}
