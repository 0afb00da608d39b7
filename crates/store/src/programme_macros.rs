//! The macros every programme write shares (decision 0058): raise `catalogue_version`, read a
//! screening's audit snapshot, write its audit row. Each runs inside the caller's transaction and
//! names what it needs at the call site (`db_err`, `Get`, `Change`).

/// The screening's programme fields as the audit keeps them (JSON), read in the transaction.
macro_rules! snapshot {
    ($tx:expr, $id:expr) => {{
        let row = sqlx::query(
            "SELECT feature_id, venue_id, seatplan_id, starts_at, sale_starts_at, sale_ends_at, cancelled_at, ticket_group_id \
             FROM presentations WHERE id = $1",
        )
        .bind($id)
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_err)?;
        let ms = |c: &str| -> Result<String, sqlx::Error> {
            Ok(kupa_domain::time::ms_to_rfc3339(row.i(c)?))
        };
        serde_json::json!({
            "featureId": row.i("feature_id").map_err(db_err)?,
            "venueId": row.i("venue_id").map_err(db_err)?,
            "seatplanId": row.i("seatplan_id").map_err(db_err)?,
            "startsAt": ms("starts_at").map_err(db_err)?,
            "saleStartsAt": ms("sale_starts_at").map_err(db_err)?,
            "saleEndsAt": ms("sale_ends_at").map_err(db_err)?,
            "cancelledAt": row.oi("cancelled_at").map_err(db_err)?.map(kupa_domain::time::ms_to_rfc3339),
            "ticketGroupId": row.oi("ticket_group_id").map_err(db_err)?,
        })
        .to_string()
    }};
}

/// One row of `backoffice_audit` for a screening (decision 0067), in the change's transaction:
/// its business and complex read from the screening as it is now.
macro_rules! record {
    ($tx:expr, $id:expr, $kind:expr, $by:expr, $before:expr, $after:expr) => {{
        let by: Change = $by;
        let before: Option<String> = $before;
        let kind: &str = $kind;
        sqlx::query(
            "INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc) \
             SELECT $2, p.business_id, v.location_id, p.id, $3, $4, $5, $6 \
             FROM presentations p JOIN venues v ON v.id = p.venue_id WHERE p.id = $1",
        )
        .bind($id)
        .bind(kind)
        .bind(by.staff_user_id)
        .bind(by.at_ms)
        .bind(before)
        .bind($after)
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

macro_rules! bump_version {
    ($tx:expr) => {
        sqlx::query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1")
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?
    };
}

pub(crate) use {bump_version, record, snapshot};
