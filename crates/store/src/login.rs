//! Login codes of the mobile login and the sessions they log in. Each step that could race is one
//! statement: issuing (replace unless too soon), counting an attempt, using a code once.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::model::Customer;
use kupa_app::ports::{CodeLimits, LoginCode, LoginStore, SessionLogin};

use crate::rows::{self, Get};
use crate::{Db, db_err};

/// Insert the number's code, or replace the standing one unless it is younger than the resend
/// wait ($6: the latest creation time that may be replaced) or the window's sends are used up
/// ($7: the window start before which a window is over; $8: codes per window).
const ISSUE: &str = "INSERT INTO login_codes (mobile, code_hash, salt, created_at, expires_at, attempts, window_started_at, sends_in_window) \
     VALUES ($1, $2, $3, $4, $5, 0, $4, 1) \
     ON CONFLICT (mobile) DO UPDATE SET \
       code_hash = excluded.code_hash, salt = excluded.salt, created_at = excluded.created_at, \
       expires_at = excluded.expires_at, attempts = 0, \
       window_started_at = CASE WHEN login_codes.window_started_at <= $7 THEN excluded.created_at ELSE login_codes.window_started_at END, \
       sends_in_window = CASE WHEN login_codes.window_started_at <= $7 THEN 1 ELSE login_codes.sends_in_window + 1 END \
     WHERE login_codes.created_at <= $6 \
       AND (login_codes.window_started_at <= $7 OR login_codes.sends_in_window < $8)";

fn code(r: &impl Get) -> Result<LoginCode, sqlx::Error> {
    Ok(LoginCode {
        mobile: r.s("mobile")?,
        code_hash: r.s("code_hash")?,
        salt: r.s("salt")?,
        created_at_ms: r.i("created_at")?,
        expires_at_ms: r.i("expires_at")?,
        attempts: r.i("attempts")?,
        window_started_at_ms: r.i("window_started_at")?,
        sends_in_window: r.i("sends_in_window")?,
    })
}

fn login(r: &impl Get) -> Result<SessionLogin, sqlx::Error> {
    Ok(SessionLogin {
        session_id: r.s("session_id")?,
        customer_id: r.oi("customer_id")?,
        mobile: r.s("mobile")?,
        logged_in_at_ms: r.i("logged_in_at")?,
        expires_at_ms: r.i("expires_at")?,
    })
}

#[async_trait]
impl LoginStore for Db {
    async fn issue_login_code(
        &self,
        c: &LoginCode,
        limits: &CodeLimits,
    ) -> StoreResult<Option<LoginCode>> {
        let replace_before = c.created_at_ms - limits.resend_after_ms;
        let window_over_before = c.created_at_ms - limits.window_ms;
        // A refused issue reads the standing code to say how long to wait; should that code
        // vanish in between (used or dropped), the issue is simply tried again.
        for _ in 0..3 {
            let issued = crate::on_pool!(self, |p| sqlx::query(ISSUE)
                .bind(&c.mobile)
                .bind(&c.code_hash)
                .bind(&c.salt)
                .bind(c.created_at_ms)
                .bind(c.expires_at_ms)
                .bind(replace_before)
                .bind(window_over_before)
                .bind(limits.max_per_window)
                .execute(p)
                .await
                .map(|r| r.rows_affected() == 1)
                .map_err(db_err))?;
            if issued {
                return Ok(None);
            }
            let standing: Option<LoginCode> = fetch_optional!(
                self,
                "SELECT mobile, code_hash, salt, created_at, expires_at, attempts, window_started_at, sends_in_window \
                 FROM login_codes WHERE mobile = $1",
                [c.mobile.as_str()],
                code
            )?;
            if standing.is_some() {
                return Ok(standing);
            }
        }
        Err(kupa_app::StoreError::other(
            "a login code kept vanishing while being issued",
        ))
    }

    async fn attempt_login_code(&self, mobile: &str) -> StoreResult<Option<LoginCode>> {
        // The count goes up in the same statement that reads the code, so two guesses at once
        // get two different counts: never more than the limit get through.
        fetch_optional!(
            self,
            "UPDATE login_codes SET attempts = attempts + 1 WHERE mobile = $1 \
             RETURNING mobile, code_hash, salt, created_at, expires_at, attempts, window_started_at, sends_in_window",
            [mobile],
            code
        )
    }

    async fn consume_login_code(&self, mobile: &str, code_hash: &str) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "DELETE FROM login_codes WHERE mobile = $1 AND code_hash = $2"
        )
        .bind(mobile)
        .bind(code_hash)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }

    async fn bind_session(&self, l: &SessionLogin) -> StoreResult<()> {
        crate::on_pool!(self, |p| {
            sqlx::query(
            "INSERT INTO session_customers (session_id, customer_id, mobile, logged_in_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (session_id) DO UPDATE SET customer_id = excluded.customer_id, \
               mobile = excluded.mobile, logged_in_at = excluded.logged_in_at, expires_at = excluded.expires_at"
        )
        .bind(&l.session_id)
        .bind(l.customer_id)
        .bind(&l.mobile)
        .bind(l.logged_in_at_ms)
        .bind(l.expires_at_ms)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err)
        })
    }

    async fn session_login(
        &self,
        session_id: &str,
        now_ms: i64,
    ) -> StoreResult<Option<SessionLogin>> {
        fetch_optional!(
            self,
            "SELECT session_id, customer_id, mobile, logged_in_at, expires_at FROM session_customers \
             WHERE session_id = $1 AND expires_at > $2",
            [session_id, now_ms],
            login
        )
    }

    async fn end_session_login(&self, session_id: &str) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "DELETE FROM session_customers WHERE session_id = $1"
        )
        .bind(session_id)
        .execute(p)
        .await
        .map(|r| r.rows_affected() > 0)
        .map_err(db_err))
    }

    async fn customer_by_id(&self, id: i64) -> StoreResult<Option<Customer>> {
        fetch_optional!(
            self,
            "SELECT * FROM customers WHERE id = $1",
            [id],
            rows::customer
        )
    }
}
