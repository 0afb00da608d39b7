//! The staff side's SQL (decision 0026): staff users and their logins, and the reads of live
//! monitoring. The figures are read, never kept: sold and held seats from the seat claims (a held
//! seat is an unexpired hold), money from the paid, not cancelled ticket lines.

mod door;
mod history;
mod reports;
mod sales_reads;

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::staff::live::{LiveRow, SoldLine};
use kupa_app::staff::refs::RefOption;
use kupa_app::staff::summary::{DaySales, SalesCell, SalesFilter, TicketDaySales};
use kupa_app::staff::{NewStaffUser, Role, StaffAccount, StaffStore, StaffUser};
use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;

use crate::rows::Get;
use crate::{Db, db_err};

pub use history::{HistoryReport, seed_demo_history, seed_history};

macro_rules! user_columns {
    () => {
        "u.id, u.email, u.first_name, u.last_name, u.role, u.business_ids, u.password_hash, u.totp_secret, u.disabled_at"
    };
}

fn account(r: &impl Get) -> Result<StaffAccount, sqlx::Error> {
    let role = r.s("role")?;
    let business_ids: Vec<i64> = serde_json::from_str(&r.s("business_ids")?)
        .map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    let totp_secret = r.os("totp_secret")?;
    Ok(StaffAccount {
        user: StaffUser {
            id: r.i("id")?,
            email: r.s("email")?,
            first_name: r.s("first_name")?,
            last_name: r.s("last_name")?,
            role: Role::parse(&role)
                .ok_or_else(|| sqlx::Error::Decode(format!("unknown staff role {role}").into()))?,
            business_ids,
            has_totp: totp_secret.is_some(),
        },
        password_hash: r.s("password_hash")?,
        totp_secret,
        disabled: r.oi("disabled_at")?.is_some(),
    })
}

fn user(r: &impl Get) -> Result<StaffUser, sqlx::Error> {
    account(r).map(|a| a.user)
}

macro_rules! live_rows {
    ($where:literal) => {
        concat!("SELECT p.id AS presentation_id, p.starts_at, p.business_id, p.seatplan_id, \
     l.id AS location_id, l.name AS location_name, l.name_en AS location_name_en, \
     v.id AS venue_id, v.name AS venue_name, v.name_en AS venue_name_en, \
     f.id AS feature_id, f.name AS feature_name, f.name_en AS feature_name_en, f.category_id AS feature_category_id, \
     CAST(COALESCE((SELECT SUM(s.capacity) FROM sections s WHERE s.seatplan_id = p.seatplan_id), 0) AS BIGINT) AS capacity, \
     (SELECT COUNT(*) FROM seat_claims c WHERE c.presentation_id = p.id AND c.state = 'sold') AS sold, \
     (SELECT COUNT(*) FROM seat_claims c WHERE c.presentation_id = p.id AND c.state = 'held' AND ", live_hold!("c", "$3"), ") AS held, \
     CAST(COALESCE((SELECT SUM(s.revenue) FROM sales_summary s WHERE s.presentation_id = p.id), 0) AS BIGINT) AS revenue \
     FROM presentations p JOIN venues v ON v.id = p.venue_id JOIN locations l ON l.id = v.location_id \
     JOIN features f ON f.id = p.feature_id \
     WHERE v.venue_type_id < 101 AND ", $where, " ORDER BY p.starts_at, p.id")
    };
}

/// The columns of [`live_rows!`], in [`PackedRow`]'s order.
macro_rules! packed_columns {
    () => {
        "r.presentation_id, r.starts_at, r.business_id, r.seatplan_id, r.location_id, r.location_name, \
         r.location_name_en, r.venue_id, r.venue_name, r.venue_name_en, r.feature_id, r.feature_name, \
         r.feature_name_en, r.feature_category_id, r.capacity, r.sold, r.held, r.revenue"
    };
}

/// [`live_rows!`] of a range, read as one JSON array of arrays made by the database
/// (`json_group_array` on SQLite, `json_agg` on PostgreSQL) instead of thousands of rows: a
/// month is ~4,000 screenings, and the drivers' per-row cost (on SQLite a hand-off between the
/// driver's thread and ours for each row) was most of a month-long report's time.
macro_rules! packed_live_rows {
    ($db:expr, $where:literal, [$($arg:expr),*]) => {{
        let packed: String = match &$db.pool {
            crate::Pool::Sqlite(p) => sqlx::query_scalar(concat!(
                "SELECT json_group_array(json_array(", packed_columns!(), ")) FROM (",
                live_rows!($where), ") r"
            ))
            $(.bind($arg))*
            .fetch_one(p)
            .await
            .map_err(db_err)?,
            crate::Pool::Postgres(p) => sqlx::query_scalar(concat!(
                "SELECT CAST(COALESCE(json_agg(json_build_array(", packed_columns!(), ")), '[]') AS TEXT) FROM (",
                live_rows!($where), ") r"
            ))
            $(.bind($arg))*
            .fetch_one(p)
            .await
            .map_err(db_err)?,
        };
        unpack_live_rows(&packed)
    }};
}

/// One row of [`packed_live_rows!`]: a JSON array in [`packed_columns!`]'s order.
#[derive(serde::Deserialize)]
struct PackedRow(
    i64,
    i64,
    i64,
    i64,
    i64,
    String,
    String,
    i64,
    String,
    String,
    i64,
    String,
    String,
    i64,
    i64,
    i64,
    i64,
    i64,
);

fn unpack_live_rows(packed: &str) -> StoreResult<Vec<LiveRow>> {
    let rows: Vec<PackedRow> = serde_json::from_str(packed).map_err(StoreError::other)?;
    let mut rows: Vec<LiveRow> = rows
        .into_iter()
        .map(|r| LiveRow {
            presentation_id: PresentationId(r.0),
            starts_at_ms: r.1,
            business_id: r.2,
            seatplan_id: r.3,
            location_id: r.4,
            location_name: r.5,
            location_name_en: r.6,
            venue_id: r.7,
            venue_name: r.8,
            venue_name_en: r.9,
            feature_id: r.10,
            feature_name: r.11,
            feature_name_en: r.12,
            feature_category_id: r.13,
            capacity: r.14,
            sold: r.15,
            held: r.16,
            revenue: Money(r.17),
        })
        .collect();
    // An aggregate's order is the subquery's in practice, but not promised by either database.
    rows.sort_by_key(|r| (r.starts_at_ms, r.presentation_id));
    Ok(rows)
}

fn feature_business(r: &impl Get) -> Result<(i64, String, String, i64), sqlx::Error> {
    Ok((
        r.i("id")?,
        r.s("name")?,
        r.s("name_en")?,
        r.i("business_id")?,
    ))
}

fn live_row(r: &impl Get) -> Result<LiveRow, sqlx::Error> {
    Ok(LiveRow {
        presentation_id: r.p("presentation_id")?,
        starts_at_ms: r.i("starts_at")?,
        business_id: r.i("business_id")?,
        location_id: r.i("location_id")?,
        location_name: r.s("location_name")?,
        location_name_en: r.s("location_name_en")?,
        venue_id: r.i("venue_id")?,
        venue_name: r.s("venue_name")?,
        venue_name_en: r.s("venue_name_en")?,
        feature_id: r.i("feature_id")?,
        feature_name: r.s("feature_name")?,
        feature_name_en: r.s("feature_name_en")?,
        feature_category_id: r.i("feature_category_id")?,
        seatplan_id: r.i("seatplan_id")?,
        capacity: r.i("capacity")?,
        sold: r.i("sold")?,
        held: r.i("held")?,
        revenue: r.m("revenue")?,
    })
}

/// The sold lines that carry a reference. They are few beside all the lines sold: the read starts
/// from them (the partial index `order_tickets_ref_idx`; SQLite takes a CROSS JOIN's left table
/// first) rather than from a range's screenings, which would walk every line of a year.
macro_rules! sold_lines {
    ($where:literal) => {
        concat!("SELECT o.id AS order_id, o.reservation_number, o.paid_at, o.customer_id, \
     t.presentation_id, p.starts_at, p.business_id, \
     l.id AS location_id, l.name AS location_name, l.name_en AS location_name_en, \
     f.id AS feature_id, f.name AS feature_name, f.name_en AS feature_name_en, f.category_id AS feature_category_id, \
     t.ticket_id, t.ticket_name, t.ticket_name_en, CAST(COALESCE(tk.price_policy_id, 0) AS BIGINT) AS price_policy_id, \
     t.price, t.service_charge, t.ref1, t.ref2 \
     FROM order_tickets t CROSS JOIN orders o CROSS JOIN presentations p \
     JOIN venues v ON v.id = p.venue_id JOIN locations l ON l.id = v.location_id \
     JOIN features f ON f.id = p.feature_id LEFT JOIN tickets tk ON tk.id = t.ticket_id \
     WHERE o.id = t.order_id AND p.id = t.presentation_id \
     AND o.status = 'paid' AND t.cancelled_at IS NULL AND t.ref1 IS NOT NULL ", $where)
    };
}

fn sold_line(r: &impl Get) -> Result<SoldLine, sqlx::Error> {
    Ok(SoldLine {
        order_id: r.s("order_id")?,
        reservation_number: r.s("reservation_number")?,
        presentation_id: r.p("presentation_id")?,
        starts_at_ms: r.i("starts_at")?,
        paid_at_ms: r.oi("paid_at")?.unwrap_or_default(),
        business_id: r.i("business_id")?,
        location_id: r.i("location_id")?,
        location_name: r.s("location_name")?,
        location_name_en: r.s("location_name_en")?,
        feature_id: r.i("feature_id")?,
        feature_name: r.s("feature_name")?,
        feature_name_en: r.s("feature_name_en")?,
        feature_category_id: r.i("feature_category_id")?,
        ticket_id: r.i("ticket_id")?,
        ticket_name: r.s("ticket_name")?,
        ticket_name_en: r.s("ticket_name_en")?,
        price_policy_id: r.i("price_policy_id")?,
        price: r.m("price")?,
        service_charge: r.m("service_charge")?,
        ref1: r.os("ref1")?,
        ref2: r.os("ref2")?,
        customer_id: r.oi("customer_id")?,
    })
}

fn ref_option(r: &impl Get) -> Result<RefOption, sqlx::Error> {
    Ok(RefOption {
        ticket_id: r.i("ticket_id")?,
        ticket_name: r.s("ticket_name")?,
        ticket_name_en: r.s("ticket_name_en")?,
        price_policy_id: r.i("price_policy_id")?,
        row: r.i("sort")?,
        reference: r.s("reference")?,
        reference2: r.s("reference2")?,
        quantity: r.i("quantity")?,
    })
}

fn category(r: &impl Get) -> Result<String, sqlx::Error> {
    r.s("category")
}

/// Ends every login of the staff user with `email`: after a change that must log them out.
macro_rules! end_logins_of {
    ($p:expr, $email:expr) => {
        sqlx::query(
            "DELETE FROM staff_logins WHERE user_id IN (SELECT id FROM staff_users WHERE email = $1)",
        )
        .bind($email)
        .execute($p)
        .await
        .map_err(db_err)?
    };
}

#[async_trait]
impl StaffStore for Db {
    async fn create_staff_user(&self, u: &NewStaffUser, now_ms: i64) -> StoreResult<Option<i64>> {
        if self.staff_account_by_email(&u.email).await?.is_some() {
            return Ok(None);
        }
        let business_ids =
            serde_json::to_string(&u.business_ids).map_err(kupa_app::StoreError::other)?;
        let id: i64 = crate::on_pool!(self, |p| {
            sqlx::query_scalar(
            "INSERT INTO staff_users (id, email, first_name, last_name, role, business_ids, password_hash, totp_secret, created_at) \
             SELECT COALESCE(MAX(id), 0) + 1, $1, $2, $3, $4, $5, $6, $7, $8 FROM staff_users RETURNING id"
        )
        .bind(&u.email)
        .bind(&u.first_name)
        .bind(&u.last_name)
        .bind(u.role.as_str())
        .bind(&business_ids)
        .bind(&u.password_hash)
        .bind(u.totp_secret.as_deref())
        .bind(now_ms)
        .fetch_one(p)
        .await
        .map_err(db_err)
        })?;
        Ok(Some(id))
    }

    async fn staff_account_by_email(&self, email: &str) -> StoreResult<Option<StaffAccount>> {
        fetch_optional!(
            self,
            concat!(
                "SELECT ",
                user_columns!(),
                " FROM staff_users u WHERE u.email = $1"
            ),
            [email],
            account
        )
    }

    async fn staff_users(&self) -> StoreResult<Vec<StaffUser>> {
        fetch_all!(
            self,
            concat!(
                "SELECT ",
                user_columns!(),
                " FROM staff_users u ORDER BY u.id"
            ),
            [],
            user
        )
    }

    async fn use_totp_step(&self, user_id: i64, step: i64) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE staff_users SET totp_last_step = $2 \
             WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2)"
        )
        .bind(user_id)
        .bind(step)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }

    async fn bind_staff_login(
        &self,
        login_hash: &str,
        user_id: i64,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()> {
        crate::on_pool!(self, |p| {
            // Expired logins of this user go with each new one.
            sqlx::query("DELETE FROM staff_logins WHERE user_id = $1 AND expires_at <= $2")
                .bind(user_id)
                .bind(now_ms)
                .execute(p)
                .await
                .map_err(db_err)?;
            sqlx::query(
                "INSERT INTO staff_logins (login_hash, user_id, logged_in_at, expires_at) VALUES ($1, $2, $3, $4)",
            )
            .bind(login_hash)
            .bind(user_id)
            .bind(now_ms)
            .bind(expires_at_ms)
            .execute(p)
            .await
            .map(|_| ())
            .map_err(db_err)
        })
    }

    async fn staff_of_login(
        &self,
        login_hash: &str,
        now_ms: i64,
    ) -> StoreResult<Option<StaffUser>> {
        fetch_optional!(
            self,
            concat!(
                "SELECT ",
                user_columns!(),
                " FROM staff_logins s JOIN staff_users u ON u.id = s.user_id \
                 WHERE s.login_hash = $1 AND s.expires_at > $2 AND u.disabled_at IS NULL"
            ),
            [login_hash, now_ms],
            user
        )
    }

    async fn end_staff_login(&self, login_hash: &str) -> StoreResult<()> {
        crate::on_pool!(self, |p| sqlx::query(
            "DELETE FROM staff_logins WHERE login_hash = $1"
        )
        .bind(login_hash)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err))
    }

    async fn disable_staff_user(&self, email: &str, now_ms: i64) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            // Disabled first: from this statement on no login of the user reads as live
            // (staff_of_login checks disabled_at), whatever happens to the delete below.
            let found = sqlx::query(
                "UPDATE staff_users SET disabled_at = COALESCE(disabled_at, $2) WHERE email = $1",
            )
            .bind(email)
            .bind(now_ms)
            .execute(p)
            .await
            .map_err(db_err)?
            .rows_affected()
                == 1;
            end_logins_of!(p, email);
            Ok(found)
        })
    }

    async fn set_staff_password(&self, email: &str, password_hash: &str) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            let found = sqlx::query("UPDATE staff_users SET password_hash = $2 WHERE email = $1")
                .bind(email)
                .bind(password_hash)
                .execute(p)
                .await
                .map_err(db_err)?
                .rows_affected()
                == 1;
            end_logins_of!(p, email);
            Ok(found)
        })
    }

    async fn live_rows(&self, from_ms: i64, to_ms: i64, now_ms: i64) -> StoreResult<Vec<LiveRow>> {
        packed_live_rows!(
            self,
            "p.starts_at >= $1 AND p.starts_at < $2",
            [from_ms, to_ms, now_ms]
        )
    }

    async fn feature_live_rows(
        &self,
        from_ms: i64,
        to_ms: i64,
        now_ms: i64,
        feature_id: i64,
    ) -> StoreResult<Vec<LiveRow>> {
        packed_live_rows!(
            self,
            "p.starts_at >= $1 AND p.starts_at < $2 AND p.feature_id = $4",
            [from_ms, to_ms, now_ms, feature_id]
        )
    }

    async fn features_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<(i64, String, String, i64)>> {
        fetch_all!(
            self,
            "SELECT DISTINCT f.id, f.name, f.name_en, CAST(p.business_id AS BIGINT) AS business_id \
             FROM presentations p JOIN venues v ON v.id = p.venue_id JOIN features f ON f.id = p.feature_id \
             WHERE v.venue_type_id < 101 AND p.starts_at >= $1 AND p.starts_at < $2 ORDER BY f.id",
            [from_ms, to_ms],
            feature_business
        )
    }

    async fn live_row(
        &self,
        presentation_id: PresentationId,
        now_ms: i64,
    ) -> StoreResult<Option<LiveRow>> {
        // $2 is unused here; the held count reads $3.
        fetch_optional!(
            self,
            live_rows!("p.id = $1 AND $2 = $2"),
            [presentation_id, 0i64, now_ms],
            live_row
        )
    }

    async fn ref_lines(
        &self,
        from_ms: i64,
        to_ms: i64,
        by_sale: bool,
    ) -> StoreResult<Vec<SoldLine>> {
        if by_sale {
            fetch_all!(
                self,
                sold_lines!(
                    "AND o.paid_at >= $1 AND o.paid_at < $2 ORDER BY o.paid_at, t.order_id, t.line"
                ),
                [from_ms, to_ms],
                sold_line
            )
        } else {
            fetch_all!(
                self,
                sold_lines!(
                    "AND p.starts_at >= $1 AND p.starts_at < $2 ORDER BY p.starts_at, t.order_id, t.line"
                ),
                [from_ms, to_ms],
                sold_line
            )
        }
    }

    async fn day_sales(&self, first: &str, last: &str) -> StoreResult<Vec<SalesCell>> {
        sales_reads::day_sales(self, first, last).await
    }

    async fn sales_by_day(
        &self,
        from_ms: i64,
        to_ms: i64,
        filter: &SalesFilter,
    ) -> StoreResult<Vec<DaySales>> {
        sales_reads::sales_by_day(self, from_ms, to_ms, filter).await
    }

    async fn presentation_cells(
        &self,
        presentation_id: PresentationId,
    ) -> StoreResult<Vec<TicketDaySales>> {
        sales_reads::presentation_cells(self, presentation_id).await
    }

    async fn product_classes(&self) -> StoreResult<Vec<String>> {
        fetch_all!(
            self,
            "SELECT DISTINCT category FROM products ORDER BY category",
            [],
            category
        )
    }

    async fn ref_options(&self) -> StoreResult<Vec<RefOption>> {
        fetch_all!(
            self,
            "SELECT o.ticket_id, o.reference, o.reference2, o.quantity, o.sort, \
             t.name AS ticket_name, t.name_en AS ticket_name_en, t.price_policy_id \
             FROM ticket_ref_options o JOIN tickets t ON t.id = o.ticket_id \
             ORDER BY o.ticket_id, o.sort",
            [],
            ref_option
        )
    }

    async fn set_ref_option_quantity(
        &self,
        ticket_id: i64,
        row: i64,
        reference: &str,
        reference2: &str,
        quantity: i64,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE ticket_ref_options SET quantity = $5 \
             WHERE ticket_id = $1 AND sort = $2 AND reference = $3 AND reference2 = $4"
        )
        .bind(ticket_id)
        .bind(row)
        .bind(reference)
        .bind(reference2)
        .bind(quantity)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }
}
