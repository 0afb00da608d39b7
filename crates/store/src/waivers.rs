//! The waivers signed for children's vouchers (decision 0041). They are written with the pending
//! order (`save_gift_lines!` in `orders/gifts.rs`) and deleted with the account (`delete_account`
//! in `customer_area.rs`); here they are read back and swept.

use async_trait::async_trait;
use jiff::civil::Date;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::vouchers::waiver::{OrderWaiver, StoredWaiver, WaiverChild, WaiverStore};
use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::rows::Get;
use crate::{Db, db_err};

#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ChildDoc {
    name: String,
    birth_date: String,
}

/// The `children` column: `[{"name", "birthDate"}]`.
pub(crate) fn children_json(w: &OrderWaiver) -> String {
    let docs: Vec<ChildDoc> = w
        .children
        .iter()
        .map(|c| ChildDoc {
            name: c.name.clone(),
            birth_date: c.birth_date.to_string(),
        })
        .collect();
    serde_json::to_string(&docs).unwrap_or_else(|_| "[]".into())
}

fn children(json: &str) -> StoreResult<Vec<WaiverChild>> {
    // Never put the column's text in the error: it is personal data.
    let docs: Vec<ChildDoc> = serde_json::from_str(json)
        .map_err(|_| StoreError::other("a waiver's children are not the JSON written"))?;
    docs.into_iter()
        .map(|d| {
            Ok(WaiverChild {
                name: d.name,
                birth_date: d
                    .birth_date
                    .parse()
                    .map_err(|_| StoreError::other("a waiver child's birth date is not a date"))?,
            })
        })
        .collect()
}

const WAIVER: &str = "SELECT w.*, o.reservation_number, o.status FROM order_waivers w \
     JOIN orders o ON o.id = w.order_id WHERE w.order_id = $1";

#[async_trait]
impl WaiverStore for Db {
    async fn order_waiver(&self, order_id: &str) -> StoreResult<Option<StoredWaiver>> {
        crate::on_pool!(self, |p| {
            let Some(r) = sqlx::query(WAIVER)
                .bind(order_id)
                .fetch_optional(p)
                .await
                .map_err(db_err)?
            else {
                return Ok(None);
            };
            let signature_png: Vec<u8> = r.try_get("signature").map_err(db_err)?;
            let keep_until: Date = r
                .s("keep_until")
                .map_err(db_err)?
                .parse()
                .map_err(|_| StoreError::other("a waiver's keep_until is not a date"))?;
            Ok(Some(StoredWaiver {
                order_id: r.s("order_id").map_err(db_err)?,
                reservation_number: r.s("reservation_number").map_err(db_err)?,
                paid: r.s("status").map_err(db_err)? == "paid",
                waiver: OrderWaiver {
                    class_id: r.i("class_id").map_err(db_err)?,
                    business_id: r.i("business_id").map_err(db_err)?,
                    children: children(&r.s("children").map_err(db_err)?)?,
                    signature_png,
                    signer_name: r.s("signer_name").map_err(db_err)?,
                    signed_at_ms: r.i("signed_at").map_err(db_err)?,
                    keep_until,
                },
            }))
        })
    }

    async fn sweep_waivers(&self, today: Date, unpaid_before_ms: i64) -> StoreResult<u64> {
        crate::on_pool!(self, |p| {
            sqlx::query(
                "DELETE FROM order_waivers WHERE keep_until < $1 OR order_id IN \
                 (SELECT id FROM orders WHERE status <> 'paid' AND created_at < $2)",
            )
            .bind(today.to_string())
            .bind(unpaid_before_ms)
            .execute(p)
            .await
            .map(|r| r.rows_affected())
            .map_err(db_err)
        })
    }
}
