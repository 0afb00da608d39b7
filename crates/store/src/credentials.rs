//! Passwords, mailed tokens, failed-login counts and the other logins' lookups (decision 0023).
//! Each step that could race is one statement: redeeming a token (`... AND redeemed_at IS NULL`),
//! counting a failure (an upsert), claiming an order (`... AND customer_id IS NULL`).

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::model::Customer;
use kupa_app::orders::{Order, OrderStore};
use kupa_app::ports::{
    CredentialStore, Credentials, CustomerToken, Failures, NewCustomer, TokenPurpose,
};

use crate::rows::{self, Get};
use crate::{Db, db_err};

/// Customers who register get ids from here up, clear of the ids a chain's own file gives.
const FIRST_REGISTERED_ID: i64 = 1_000_000;
/// Draws of a new customer id before a registration gives up (each lost only to another registration).
const DRAWS: usize = 64;

fn purpose(s: &str) -> Result<TokenPurpose, sqlx::Error> {
    Ok(match s {
        "verifyEmail" => TokenPurpose::VerifyEmail,
        "resetPassword" => TokenPurpose::ResetPassword,
        "loginLink" => TokenPurpose::LoginLink,
        "loginCode" => TokenPurpose::LoginCode,
        "changeEmail" => TokenPurpose::ChangeEmail,
        other => {
            return Err(sqlx::Error::Decode(
                format!("unknown token purpose {other:?}").into(),
            ));
        }
    })
}

fn token(r: &impl Get) -> Result<CustomerToken, sqlx::Error> {
    Ok(CustomerToken {
        token_hash: r.s("token_hash")?,
        purpose: purpose(&r.s("purpose")?)?,
        customer_id: r.i("customer_id")?,
        created_at_ms: r.i("created_at")?,
        expires_at_ms: r.i("expires_at")?,
        redeemed_at_ms: r.oi("redeemed_at")?,
    })
}

fn credentials(r: &impl Get) -> Result<Credentials, sqlx::Error> {
    Ok(Credentials {
        customer_id: r.i("customer_id")?,
        password_hash: r.s("password_hash")?,
        email_verified_at_ms: r.oi("email_verified_at")?,
    })
}

fn failures(r: &impl Get) -> Result<Failures, sqlx::Error> {
    Ok(Failures {
        count: r.i("failures")?,
        window_started_at_ms: r.i("window_started_at")?,
    })
}

fn one_string(r: &impl Get) -> Result<String, sqlx::Error> {
    r.s("v")
}

fn area_number(r: &impl Get) -> Result<(String, bool), sqlx::Error> {
    Ok((r.s("mobile")?, r.b("checkout")?))
}

macro_rules! exec {
    ($db:expr, $sql:expr, [$($arg:expr),*]) => {
        crate::on_pool!($db, |p| sqlx::query($sql)$(.bind($arg))*.execute(p).await.map(|r| r.rows_affected()).map_err(db_err))
    };
}

#[async_trait]
impl CredentialStore for Db {
    async fn customers_by_email(&self, email: &str) -> StoreResult<Vec<Customer>> {
        fetch_all!(
            self,
            "SELECT * FROM customers WHERE lower(email) = $1 ORDER BY id",
            [email],
            rows::customer
        )
    }

    async fn credentials(&self, customer_id: i64) -> StoreResult<Option<Credentials>> {
        fetch_optional!(
            self,
            "SELECT customer_id, password_hash, email_verified_at FROM customer_passwords WHERE customer_id = $1",
            [customer_id],
            credentials
        )
    }

    async fn set_password(
        &self,
        customer_id: i64,
        password_hash: &str,
        verified_at_ms: Option<i64>,
        now_ms: i64,
    ) -> StoreResult<()> {
        exec!(
            self,
            "INSERT INTO customer_passwords (customer_id, password_hash, email_verified_at, updated_at) \
             VALUES ($1, $2, $3, $4) \
             ON CONFLICT (customer_id) DO UPDATE SET password_hash = excluded.password_hash, \
               email_verified_at = COALESCE(customer_passwords.email_verified_at, excluded.email_verified_at), \
               updated_at = excluded.updated_at",
            [customer_id, password_hash, verified_at_ms, now_ms]
        )
        .map(|_| ())
    }

    async fn mark_email_verified(&self, customer_id: i64, now_ms: i64) -> StoreResult<()> {
        exec!(
            self,
            "UPDATE customer_passwords SET email_verified_at = $2 \
             WHERE customer_id = $1 AND email_verified_at IS NULL",
            [customer_id, now_ms]
        )
        .map(|_| ())
    }

    async fn create_customer(
        &self,
        c: &NewCustomer,
        password_hash: &str,
        now_ms: i64,
    ) -> StoreResult<i64> {
        // Two registrations at once may draw the same id: the primary key refuses the second,
        // which draws again (on SQLite the writer's transaction serialises them; on PostgreSQL
        // a rush of n draws at most n times).
        for _ in 0..DRAWS {
            // An async block, so a `?` inside ends this draw, not the whole call.
            let result: StoreResult<i64> = async { crate::on_pool!(self, |p| {
                let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
                let max: Option<i64> = sqlx::query_scalar("SELECT MAX(id) FROM customers")
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err)?;
                let id = max.map_or(FIRST_REGISTERED_ID, |m| (m + 1).max(FIRST_REGISTERED_ID));
                sqlx::query(
                    "INSERT INTO customers (id, first_name, last_name, ssn, email, mobile, city, address1, \
                     postal_code, date_of_birth, is_sms_allowed, is_mailing_allowed) \
                     VALUES ($1, $2, $3, '', $4, $5, '', '', '', '', $6, $6)",
                )
                .bind(id)
                .bind(&c.first_name)
                .bind(&c.last_name)
                .bind(&c.email)
                .bind(&c.mobile)
                .bind(c.is_mailing_allowed)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                sqlx::query(
                    "INSERT INTO customer_passwords (customer_id, password_hash, email_verified_at, updated_at) \
                     VALUES ($1, $2, NULL, $3)",
                )
                .bind(id)
                .bind(password_hash)
                .bind(now_ms)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
                tx.commit().await.map_err(db_err)?;
                Ok(id)
            }) }
            .await;
            match result {
                Err(StoreError::Conflict { .. }) => continue,
                other => return other,
            }
        }
        Err(StoreError::other(format!(
            "no free customer id after {DRAWS} draws"
        )))
    }

    async fn issue_token(&self, t: &CustomerToken, replace: bool) -> StoreResult<()> {
        crate::on_pool!(self, |p| {
            let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
            if replace {
                sqlx::query(
                    "DELETE FROM customer_tokens WHERE customer_id = $1 AND purpose = $2 AND redeemed_at IS NULL",
                )
                .bind(t.customer_id)
                .bind(t.purpose.as_str())
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            sqlx::query(
                "INSERT INTO customer_tokens (token_hash, purpose, customer_id, created_at, expires_at, redeemed_at) \
                 VALUES ($1, $2, $3, $4, $5, NULL) \
                 ON CONFLICT (token_hash) DO UPDATE SET purpose = excluded.purpose, customer_id = excluded.customer_id, \
                   created_at = excluded.created_at, expires_at = excluded.expires_at, redeemed_at = NULL",
            )
            .bind(&t.token_hash)
            .bind(t.purpose.as_str())
            .bind(t.customer_id)
            .bind(t.created_at_ms)
            .bind(t.expires_at_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)
        })
    }

    async fn token(&self, token_hash: &str) -> StoreResult<Option<CustomerToken>> {
        fetch_optional!(
            self,
            "SELECT token_hash, purpose, customer_id, created_at, expires_at, redeemed_at \
             FROM customer_tokens WHERE token_hash = $1",
            [token_hash],
            token
        )
    }

    async fn redeem_token(&self, token_hash: &str, now_ms: i64) -> StoreResult<bool> {
        exec!(
            self,
            "UPDATE customer_tokens SET redeemed_at = $2 \
             WHERE token_hash = $1 AND redeemed_at IS NULL AND expires_at > $2",
            [token_hash, now_ms]
        )
        .map(|n| n == 1)
    }

    async fn count_failure(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures> {
        let over_before = now_ms - window_ms;
        let f: Option<Failures> = fetch_optional!(
            self,
            "INSERT INTO login_failures (key, window_started_at, failures) VALUES ($1, $2, 1) \
             ON CONFLICT (key) DO UPDATE SET \
               failures = CASE WHEN login_failures.window_started_at <= $3 THEN 1 ELSE login_failures.failures + 1 END, \
               window_started_at = CASE WHEN login_failures.window_started_at <= $3 THEN excluded.window_started_at ELSE login_failures.window_started_at END \
             RETURNING failures, window_started_at",
            [key, now_ms, over_before],
            failures
        )?;
        f.ok_or_else(|| StoreError::other("a counted failure returned no row"))
    }

    async fn failures(&self, key: &str, now_ms: i64, window_ms: i64) -> StoreResult<Failures> {
        let f: Option<Failures> = fetch_optional!(
            self,
            "SELECT failures, window_started_at FROM login_failures WHERE key = $1 AND window_started_at > $2",
            [key, now_ms - window_ms],
            failures
        )?;
        Ok(f.unwrap_or(Failures {
            count: 0,
            window_started_at_ms: now_ms,
        }))
    }

    async fn clear_failures(&self, key: &str) -> StoreResult<()> {
        exec!(self, "DELETE FROM login_failures WHERE key = $1", [key]).map(|_| ())
    }

    async fn customer_of_member_number(
        &self,
        member_number: &str,
    ) -> StoreResult<Option<Customer>> {
        fetch_optional!(
            self,
            "SELECT c.* FROM customers c JOIN members m ON m.customer_id = c.id WHERE m.member_number = $1",
            [member_number],
            rows::customer
        )
    }

    async fn order_by_reservation_number(
        &self,
        reservation_number: &str,
    ) -> StoreResult<Option<Order>> {
        let id: Option<String> = fetch_optional!(
            self,
            "SELECT id AS v FROM orders WHERE reservation_number = $1",
            [reservation_number],
            one_string
        )?;
        match id {
            Some(id) => OrderStore::order(self, &id.into()).await,
            None => Ok(None),
        }
    }

    async fn claim_order(&self, order_id: &str, customer_id: i64) -> StoreResult<bool> {
        exec!(
            self,
            "UPDATE orders SET customer_id = $2 WHERE id = $1 AND customer_id IS NULL",
            [order_id, customer_id]
        )
        .map(|n| n == 1)
    }

    async fn mark_order_mobile_verified(&self, order_id: &str, mobile: &str) -> StoreResult<()> {
        exec!(
            self,
            "UPDATE orders SET verified_mobile = $2 WHERE id = $1",
            [order_id, mobile]
        )
        .map(|_| ())
    }

    async fn join_verified_orders(&self, customer_id: i64, mobile: &str) -> StoreResult<u64> {
        exec!(
            self,
            "UPDATE orders SET customer_id = $1 WHERE customer_id IS NULL AND verified_mobile = $2",
            [customer_id, mobile]
        )
    }

    async fn bind_reservation_login(
        &self,
        login_id: &str,
        order_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()> {
        exec!(
            self,
            "INSERT INTO reservation_logins (login_id, order_id, logged_in_at, expires_at) VALUES ($1, $2, $3, $4)",
            [login_id, order_id, now_ms, expires_at_ms]
        )
        .map(|_| ())
    }

    async fn reservation_of_login(
        &self,
        login_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<String>> {
        fetch_optional!(
            self,
            "SELECT order_id AS v FROM reservation_logins WHERE login_id = $1 AND expires_at > $2",
            [login_id, now_ms],
            one_string
        )
    }

    async fn remember_area_mobile(
        &self,
        session_id: &str,
        mobile: &str,
        checkout: bool,
        now_ms: i64,
    ) -> StoreResult<()> {
        exec!(
            self,
            "INSERT INTO area_login_numbers (session_id, mobile, checkout, created_at) VALUES ($1, $2, $3, $4) \
             ON CONFLICT (session_id) DO UPDATE SET mobile = excluded.mobile, checkout = excluded.checkout, \
               created_at = excluded.created_at",
            [session_id, mobile, checkout, now_ms]
        )
        .map(|_| ())
    }

    async fn area_mobile(&self, session_id: &str) -> StoreResult<Option<(String, bool)>> {
        fetch_optional!(
            self,
            "SELECT mobile, checkout FROM area_login_numbers WHERE session_id = $1",
            [session_id],
            area_number
        )
    }

    async fn forget_area_mobile(&self, session_id: &str) -> StoreResult<()> {
        exec!(
            self,
            "DELETE FROM area_login_numbers WHERE session_id = $1",
            [session_id]
        )
        .map(|_| ())
    }

    async fn set_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool> {
        exec!(
            self,
            "UPDATE customers SET mobile = $2 WHERE id = $1 AND mobile = '' \
             AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.mobile = $2)",
            [customer_id, mobile]
        )
        .map(|n| n == 1)
    }

    async fn end_logins_of_customer(&self, customer_id: i64) -> StoreResult<u64> {
        exec!(
            self,
            "DELETE FROM session_customers WHERE customer_id = $1",
            [customer_id]
        )
    }

    async fn change_customer_email(
        &self,
        customer_id: i64,
        email: &str,
        now_ms: i64,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            let mut tx = crate::BeginWrite::begin_write(p).await.map_err(db_err)?;
            let n = sqlx::query(
                "UPDATE customers SET email = $2 WHERE id = $1 \
                 AND NOT EXISTS (SELECT 1 FROM customers o WHERE lower(o.email) = $2 AND o.id <> $1)",
            )
            .bind(customer_id)
            .bind(email)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?
            .rows_affected();
            if n == 1 {
                // The code proved the new address: a password logs in with it at once.
                sqlx::query(
                    "UPDATE customer_passwords SET email_verified_at = $2 WHERE customer_id = $1",
                )
                .bind(customer_id)
                .bind(now_ms)
                .execute(&mut *tx)
                .await
                .map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            Ok(n == 1)
        })
    }

    async fn change_customer_mobile(&self, customer_id: i64, mobile: &str) -> StoreResult<bool> {
        exec!(
            self,
            "UPDATE customers SET mobile = $2 WHERE id = $1 \
             AND NOT EXISTS (SELECT 1 FROM customers o WHERE o.mobile = $2 AND o.id <> $1)",
            [customer_id, mobile]
        )
        .map(|n| n == 1)
    }
}
