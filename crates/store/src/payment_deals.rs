//! A card provider's deal ids and refunds by key (migration 0043, decision 0063); refunds claimed
//! before the provider is called, the saved card a payment charged by token, the reconciliation's
//! lease and the provider's tokens of saved cards (migration 0046, decision 0066).

use async_trait::async_trait;
use kupa_app::StoreResult;
use kupa_app::ports::{DealRef, PaymentDeals, ProviderCard, RefundClaim};
use kupa_domain::money::Money;
use sqlx::Row;

use crate::{Db, db_err};

// The SQL below is put together from these words only (a closed set, no input).
/// The column of each id, and what a second write for the payment does.
trait Column {
    fn column(self) -> &'static str;
    fn on_conflict(self) -> &'static str;
}

impl Column for DealRef {
    fn column(self) -> &'static str {
        match self {
            DealRef::Page => "page_id",
            DealRef::Deal => "deal_id",
            DealRef::CardCharge => "card_token",
        }
    }

    /// What a second write for the payment does: a page and a card charge are kept as first
    /// written; a deal fills in a row the page made, and is never replaced once known.
    fn on_conflict(self) -> &'static str {
        match self {
            DealRef::Page | DealRef::CardCharge => "DO NOTHING",
            DealRef::Deal => {
                "DO UPDATE SET deal_id = COALESCE(payment_deals.deal_id, excluded.deal_id)"
            }
        }
    }
}

#[async_trait]
impl PaymentDeals for Db {
    async fn keep(
        &self,
        what: DealRef,
        payment_id: &str,
        provider: &str,
        value: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        let sql = format!(
            "INSERT INTO payment_deals (payment_id, provider, {}, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id) {}",
            what.column(),
            what.on_conflict()
        );
        on_pool!(self, |p| sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(payment_id)
            .bind(provider)
            .bind(value)
            .bind(now_ms)
            .execute(p)
            .await
            .map(|_| ())
            .map_err(db_err)?);
        Ok(())
    }

    async fn kept(&self, what: DealRef, payment_id: &str) -> StoreResult<Option<String>> {
        let column = what.column();
        let sql = format!("SELECT {column} FROM payment_deals WHERE payment_id = $1");
        Ok(on_pool!(self, |p| sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(payment_id)
            .fetch_optional(p)
            .await
            .and_then(|r| r
                .map(|r| r.try_get::<Option<String>, _>(column))
                .transpose())
            .map(Option::flatten)
            .map_err(db_err)?))
    }

    async fn refund_made(&self, payment_id: &str, key: &str) -> StoreResult<bool> {
        Ok(on_pool!(self, |p| sqlx::query(
            "SELECT 1 AS one FROM payment_deal_refunds \
             WHERE payment_id = $1 AND refund_key = $2 AND done_at IS NOT NULL"
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
        amount: Money,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| {
            sqlx::query(
            "INSERT INTO payment_deal_refunds (payment_id, refund_key, amount, created_at, done_at) \
             VALUES ($1, $2, $3, $4, $4) ON CONFLICT (payment_id, refund_key) DO UPDATE \
             SET done_at = COALESCE(payment_deal_refunds.done_at, excluded.done_at)",
        )
        .bind(payment_id)
        .bind(key)
        .bind(amount)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?
        });
        Ok(())
    }

    async fn claim_refund_key(
        &self,
        payment_id: &str,
        key: &str,
        amount: Money,
        now_ms: i64,
        stale_before_ms: i64,
    ) -> StoreResult<RefundClaim> {
        Ok(on_pool!(self, |p| {
            let inserted = sqlx::query(
                "INSERT INTO payment_deal_refunds (payment_id, refund_key, amount, created_at) \
                 VALUES ($1, $2, $3, $4) ON CONFLICT (payment_id, refund_key) DO NOTHING",
            )
            .bind(payment_id)
            .bind(key)
            .bind(amount)
            .bind(now_ms)
            .execute(p)
            .await
            .map_err(db_err)?
            .rows_affected();
            if inserted == 1 {
                RefundClaim::Claimed
            } else {
                // Someone claimed it: made, being made, or a claim whose caller never finished
                // (taken over once it is stale, by one caller: the update is conditional).
                let retaken = sqlx::query(
                    "UPDATE payment_deal_refunds SET created_at = $3 \
                     WHERE payment_id = $1 AND refund_key = $2 AND done_at IS NULL AND created_at < $4",
                )
                .bind(payment_id)
                .bind(key)
                .bind(now_ms)
                .bind(stale_before_ms)
                .execute(p)
                .await
                .map_err(db_err)?
                .rows_affected();
                if retaken == 1 {
                    RefundClaim::Claimed
                } else {
                    let done = sqlx::query(
                        "SELECT 1 AS one FROM payment_deal_refunds \
                         WHERE payment_id = $1 AND refund_key = $2 AND done_at IS NOT NULL",
                    )
                    .bind(payment_id)
                    .bind(key)
                    .fetch_optional(p)
                    .await
                    .map_err(db_err)?
                    .is_some();
                    if done {
                        RefundClaim::Done
                    } else {
                        RefundClaim::Busy
                    }
                }
            }
        }))
    }

    async fn release_refund_key(&self, payment_id: &str, key: &str) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "DELETE FROM payment_deal_refunds \
             WHERE payment_id = $1 AND refund_key = $2 AND done_at IS NULL",
        )
        .bind(payment_id)
        .bind(key)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?);
        Ok(())
    }

    async fn claim_open_to_ask(
        &self,
        provider: &str,
        created_after_ms: i64,
        created_before_ms: i64,
        asked_before_ms: i64,
        now_ms: i64,
        limit: i64,
    ) -> StoreResult<Vec<String>> {
        // The conditional update is the lease: on PostgreSQL a second node's update waits for the
        // first's row lock, then finds `asked_at` moved and skips the row; SQLite has one writer.
        Ok(on_pool!(self, |p| {
            sqlx::query(
            "UPDATE payment_deals SET asked_at = $5 \
             WHERE (asked_at IS NULL OR asked_at < $4) AND payment_id IN ( \
                 SELECT d.payment_id FROM payment_deals d JOIN payments p ON p.id = d.payment_id \
                 WHERE d.provider = $1 AND p.status IN ('created', 'challenge', 'awaitingBank', 'redirected') \
                   AND p.created_at > $2 AND p.created_at < $3 \
                   AND (d.asked_at IS NULL OR d.asked_at < $4) \
                 ORDER BY COALESCE(d.asked_at, 0), p.created_at LIMIT $6) \
             RETURNING payment_id",
        )
        .bind(provider)
        .bind(created_after_ms)
        .bind(created_before_ms)
        .bind(asked_before_ms)
        .bind(now_ms)
        .bind(limit)
        .fetch_all(p)
        .await
        .and_then(|rows| rows
            .iter()
            .map(|r| r.try_get::<String, _>("payment_id"))
            .collect::<Result<Vec<_>, _>>())
        .map_err(db_err)?
        }))
    }

    async fn keep_card_token(
        &self,
        card_token: &str,
        provider: &str,
        provider_token: &str,
        now_ms: i64,
    ) -> StoreResult<()> {
        on_pool!(self, |p| sqlx::query(
            "INSERT INTO saved_card_tokens (card_token, provider, provider_token, created_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (card_token) DO UPDATE \
             SET provider = excluded.provider, provider_token = excluded.provider_token, \
                 created_at = excluded.created_at",
        )
        .bind(card_token)
        .bind(provider)
        .bind(provider_token)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)?);
        Ok(())
    }

    async fn provider_card(
        &self,
        card_token: &str,
        customer_id: i64,
        provider: &str,
    ) -> StoreResult<Option<ProviderCard>> {
        Ok(on_pool!(self, |p| sqlx::query(
            "SELECT t.provider_token, c.expiry_year, c.expiry_month \
             FROM saved_card_tokens t JOIN saved_cards c ON c.token = t.card_token \
             WHERE t.card_token = $1 AND c.customer_id = $2 AND t.provider = $3 \
               AND c.deleted_at IS NULL",
        )
        .bind(card_token)
        .bind(customer_id)
        .bind(provider)
        .fetch_optional(p)
        .await
        .and_then(|r| r
            .map(|r| -> Result<ProviderCard, sqlx::Error> {
                Ok(ProviderCard {
                    provider_token: r.try_get("provider_token")?,
                    expiry_year: i32::try_from(r.try_get::<i64, _>("expiry_year")?).unwrap_or(0),
                    expiry_month: u32::try_from(r.try_get::<i64, _>("expiry_month")?).unwrap_or(0),
                })
            })
            .transpose())
        .map_err(db_err)?))
    }
}
