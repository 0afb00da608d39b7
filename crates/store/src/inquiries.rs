//! The marketing pages' forms (decision 0051): kept, then marked once mailed to the chain.

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::marketing::{Inquiry, InquiryKind, InquiryStore, StoredInquiry};
use serde::{Deserialize, Serialize};

use crate::rows::Get;
use crate::{Db, db_err};

/// The `details` column: what only one kind of form has.
#[derive(Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase", default)]
struct Details {
    #[serde(skip_serializing_if = "String::is_empty")]
    party_date: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    guests: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    child_age: Option<i64>,
    #[serde(skip_serializing_if = "String::is_empty")]
    position: String,
}

fn kind(s: &str) -> Result<InquiryKind, sqlx::Error> {
    match s {
        "contact" => Ok(InquiryKind::Contact),
        "birthday" => Ok(InquiryKind::Birthday),
        "job" => Ok(InquiryKind::Job),
        _ => Err(sqlx::Error::Decode("an inquiry's kind is unknown".into())),
    }
}

fn stored(r: &impl Get) -> Result<StoredInquiry, sqlx::Error> {
    // Never put the column's text in the error: it is personal data.
    let d: Details = serde_json::from_str(&r.s("details")?)
        .map_err(|_| sqlx::Error::Decode("an inquiry's details are not the JSON written".into()))?;
    Ok(StoredInquiry {
        id: r.i("id")?,
        inquiry: Inquiry {
            kind: kind(&r.s("kind")?)?,
            full_name: r.s("full_name")?,
            email: r.s("email")?,
            mobile_number: r.s("mobile")?,
            location_id: r.oi("location_id")?,
            message: r.s("message")?,
            party_date: d.party_date,
            guests: d.guests,
            child_age: d.child_age,
            position: d.position,
        },
        locale: r.s("locale")?,
        created_at_ms: r.i("created_at")?,
        mailed_at_ms: r.oi("mailed_at")?,
    })
}

fn id(r: &impl Get) -> Result<i64, sqlx::Error> {
    r.i("id")
}

#[async_trait]
impl InquiryStore for Db {
    async fn save_inquiry(&self, q: &Inquiry, locale: &str, now_ms: i64) -> StoreResult<i64> {
        let details = serde_json::to_string(&Details {
            party_date: q.party_date.clone(),
            guests: q.guests,
            child_age: q.child_age,
            position: q.position.clone(),
        })
        .map_err(StoreError::other)?;
        let id: Option<i64> = fetch_optional!(
            self,
            "INSERT INTO inquiries (kind, location_id, full_name, email, mobile, message, details, locale, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id",
            [
                q.kind.as_str(),
                q.location_id,
                q.full_name.as_str(),
                q.email.as_str(),
                q.mobile_number.as_str(),
                q.message.as_str(),
                details.as_str(),
                locale,
                now_ms
            ],
            id
        )?;
        id.ok_or_else(|| StoreError::other("the inquiries table returned no id"))
    }

    async fn mark_inquiry_mailed(&self, id: i64, now_ms: i64) -> StoreResult<()> {
        crate::on_pool!(self, |p| sqlx::query(
            "UPDATE inquiries SET mailed_at = $1 WHERE id = $2 AND mailed_at IS NULL"
        )
        .bind(now_ms)
        .bind(id)
        .execute(p)
        .await
        .map(|_| ())
        .map_err(db_err))
    }

    async fn recent_inquiries(&self, limit: i64) -> StoreResult<Vec<StoredInquiry>> {
        fetch_all!(
            self,
            "SELECT * FROM inquiries ORDER BY id DESC LIMIT $1",
            [limit],
            stored
        )
    }

    async fn forget_inquiries(&self, before_ms: i64) -> StoreResult<u64> {
        crate::on_pool!(self, |p| sqlx::query(
            "DELETE FROM inquiries WHERE created_at < $1"
        )
        .bind(before_ms)
        .execute(p)
        .await
        .map(|r| r.rows_affected())
        .map_err(db_err))
    }
}
