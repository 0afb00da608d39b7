//! The customer area (migration 0015): the profile, the customer's orders (those that were paid:
//! a priced cart that was given up is `cancelled` too, but never had money), and the deletion of
//! an account in one transaction (decision 0024).

use async_trait::async_trait;
use kupa_app::customer_area::{AccountDeletion, CustomerAreaStore, Profile, ProfileUpdate};
use kupa_app::error::StoreResult;
use kupa_app::orders::{Order, OrderStore};

use crate::rows::Get;
use crate::{Db, Pool, db_err};

fn profile(r: &impl Get) -> Result<Profile, sqlx::Error> {
    Ok(Profile {
        customer_id: r.i("id")?,
        first_name: r.s("first_name")?,
        last_name: r.s("last_name")?,
        ssn: r.s("ssn")?,
        email: r.s("email")?,
        mobile: r.s("mobile")?,
        address1: r.s("address1")?,
        address2: r.s("address2")?,
        city: r.s("city")?,
        postal_code: r.s("postal_code")?,
        date_of_birth: r.s("date_of_birth")?,
        license_plate_number: r.s("license_plate_number")?,
        is_sms_allowed: r.b("is_sms_allowed")?,
        is_mailing_allowed: r.b("is_mailing_allowed")?,
        is_email_allowed: r.b("is_email_allowed")?,
        location_id: r.oi("location_id")?,
    })
}

const PROFILE: &str = "SELECT id, first_name, last_name, ssn, email, mobile, address1, address2, city, \
     postal_code, date_of_birth, license_plate_number, is_sms_allowed, is_mailing_allowed, \
     is_email_allowed, location_id FROM customers WHERE id = $1 AND deleted_at IS NULL";

/// The tombstone: every personal field blanked. Only the id stays (member cards point at it).
const TOMBSTONE: &str = "UPDATE customers SET first_name = '', last_name = '', ssn = '', email = '', \
     mobile = '', city = '', address1 = '', address2 = '', postal_code = '', date_of_birth = '', \
     license_plate_number = '', is_sms_allowed = $2, is_mailing_allowed = $2, is_email_allowed = $2, \
     location_id = NULL, updated_at = $3, deleted_at = $3 WHERE id = $1 AND deleted_at IS NULL";

/// Runs `$body` (which yields `Option<T>`: None rolls back) in one write transaction.
macro_rules! delete_tx {
    ($db:expr, |$tx:ident| $body:expr) => {
        match &$db.pool {
            Pool::Sqlite(p) => {
                let mut $tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                let out = $body;
                if out.is_some() {
                    $tx.commit().await.map_err(db_err)?
                } else {
                    $tx.rollback().await.map_err(db_err)?
                }
                Ok(out)
            }
            Pool::Postgres(p) => {
                let mut $tx = p.begin().await.map_err(db_err)?;
                let out = $body;
                if out.is_some() {
                    $tx.commit().await.map_err(db_err)?
                } else {
                    $tx.rollback().await.map_err(db_err)?
                }
                Ok(out)
            }
        }
    };
}

macro_rules! exec {
    ($tx:expr, $sql:expr, [$($arg:expr),*]) => {
        sqlx::query($sql)$(.bind($arg))*.execute(&mut *$tx).await.map_err(db_err)?.rows_affected()
    };
}

#[async_trait]
impl CustomerAreaStore for Db {
    async fn profile(&self, customer_id: i64) -> StoreResult<Option<Profile>> {
        fetch_optional!(self, PROFILE, [customer_id], profile)
    }

    async fn update_profile(
        &self,
        customer_id: i64,
        u: &ProfileUpdate,
        now_ms: i64,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE customers SET first_name = $2, last_name = $3, address1 = $4, address2 = $5, \
             city = $6, postal_code = $7, date_of_birth = $8, license_plate_number = $9, \
             is_sms_allowed = $10, is_mailing_allowed = $11, is_email_allowed = $12, \
             location_id = $13, updated_at = $14 WHERE id = $1 AND deleted_at IS NULL"
        )
        .bind(customer_id)
        .bind(&u.first_name)
        .bind(&u.last_name)
        .bind(&u.address1)
        .bind(&u.address2)
        .bind(&u.city)
        .bind(&u.postal_code)
        .bind(&u.date_of_birth)
        .bind(&u.license_plate_number)
        .bind(u.is_sms_allowed)
        .bind(u.is_mailing_allowed)
        .bind(u.is_email_allowed)
        .bind(u.location_id)
        .bind(now_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected() == 1)
        .map_err(db_err))
    }

    async fn orders_of_customer(&self, customer_id: i64, limit: i64) -> StoreResult<Vec<Order>> {
        let ids: Vec<String> = crate::on_pool!(self, |p| {
            sqlx::query_scalar(
                "SELECT id FROM orders WHERE customer_id = $1 AND paid_at IS NOT NULL AND kind = 'tickets' \
             AND status NOT IN ('pending', 'failed') ORDER BY created_at DESC, id LIMIT $2",
            )
            .bind(customer_id)
            .bind(limit)
            .fetch_all(p)
            .await
            .map_err(db_err)
        })?;
        let mut orders = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(o) = self.order(&id.into()).await? {
                orders.push(o);
            }
        }
        Ok(orders)
    }

    async fn delete_account(
        &self,
        customer_id: i64,
        scrubbed_contact: &str,
        now_ms: i64,
    ) -> StoreResult<Option<AccountDeletion>> {
        delete_tx!(self, |tx| {
            // The customer's number and address, for the codes and messages sent to them.
            let contact: Option<(String, String)> = sqlx::query_as(
                "SELECT mobile, email FROM customers WHERE id = $1 AND deleted_at IS NULL",
            )
            .bind(customer_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            match contact {
                None => None,
                Some((mobile, email)) => {
                    // First: it takes the row's lock, so a second deletion waits and then finds
                    // nothing to delete.
                    if exec!(tx, TOMBSTONE, [customer_id, false, now_ms]) == 0 {
                        None
                    } else {
                        // The messages about the customer's orders (the confirmation mail goes
                        // to the order's own address, which may not be the account's).
                        exec!(
                            tx,
                            "DELETE FROM mail_outbox WHERE reference IN (SELECT id FROM orders WHERE customer_id = $1)",
                            [customer_id]
                        );
                        exec!(
                            tx,
                            "DELETE FROM sms_outbox WHERE reference IN (SELECT id FROM orders WHERE customer_id = $1)",
                            [customer_id]
                        );
                        // The logins of the account (decision 0023): its password, its mailed
                        // tokens, guests' logins to its orders, and the number its checkout proved.
                        exec!(
                            tx,
                            "DELETE FROM customer_passwords WHERE customer_id = $1",
                            [customer_id]
                        );
                        exec!(
                            tx,
                            "DELETE FROM customer_tokens WHERE customer_id = $1",
                            [customer_id]
                        );
                        exec!(
                            tx,
                            "DELETE FROM reservation_logins WHERE order_id IN (SELECT id FROM orders WHERE customer_id = $1)",
                            [customer_id]
                        );
                        exec!(
                            tx,
                            "UPDATE orders SET verified_mobile = NULL WHERE customer_id = $1",
                            [customer_id]
                        );
                        // The waivers the customer signed for their children (decision 0041).
                        exec!(
                            tx,
                            "DELETE FROM order_waivers WHERE order_id IN (SELECT id FROM orders WHERE customer_id = $1)",
                            [customer_id]
                        );
                        let orders_anonymised = exec!(
                            tx,
                            "UPDATE orders SET customer_id = NULL, customer = $2, updated_at = $3 WHERE customer_id = $1",
                            [customer_id, scrubbed_contact, now_ms]
                        );
                        exec!(
                            tx,
                            "UPDATE payments SET customer_id = NULL WHERE customer_id = $1",
                            [customer_id]
                        );
                        exec!(
                            tx,
                            "UPDATE hold_owners SET customer_id = NULL WHERE customer_id = $1",
                            [customer_id]
                        );
                        // A voucher is a bearer code: it stays good, no longer anyone's.
                        exec!(
                            tx,
                            "UPDATE system_vouchers SET customer_id = NULL WHERE customer_id = $1",
                            [customer_id]
                        );
                        let saved_cards_deleted = exec!(
                            tx,
                            "DELETE FROM saved_cards WHERE customer_id = $1",
                            [customer_id]
                        );
                        let logins_ended = exec!(
                            tx,
                            "DELETE FROM session_customers WHERE customer_id = $1",
                            [customer_id]
                        );
                        if !mobile.is_empty() {
                            exec!(
                                tx,
                                "DELETE FROM session_customers WHERE mobile = $1",
                                [&mobile]
                            );
                            exec!(tx, "DELETE FROM login_codes WHERE mobile = $1", [&mobile]);
                            exec!(
                                tx,
                                "DELETE FROM area_login_numbers WHERE mobile = $1",
                                [&mobile]
                            );
                            exec!(tx, "DELETE FROM sms_outbox WHERE recipient = $1", [&mobile]);
                        }
                        if !email.is_empty() {
                            exec!(tx, "DELETE FROM mail_outbox WHERE recipient = $1", [&email]);
                        }
                        Some(AccountDeletion {
                            orders_anonymised,
                            saved_cards_deleted,
                            logins_ended,
                        })
                    }
                }
            }
        })
    }
}
