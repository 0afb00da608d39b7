//! Who is enrolled in a membership season (decision 0040): a member whose enrolment order is
//! paid and still has a ticket not cancelled; and which membership references (a student card
//! number) a member still valid holds.

use kupa_app::error::StoreResult;

use crate::{Db, db_err};

impl Db {
    pub(super) async fn enrolled(
        &self,
        season_id: i64,
        member_ids: &[i64],
    ) -> StoreResult<Vec<i64>> {
        if member_ids.is_empty() {
            return Ok(Vec::new());
        }
        let list = member_ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        // The ids are integers, written out: no text of the caller's reaches the statement.
        let sql = format!(
            "SELECT DISTINCT e.member_id FROM order_enrollments e JOIN orders o ON o.id = e.order_id \
             WHERE e.season_id = $1 AND e.member_id IN ({list}) AND o.status = 'paid' \
             AND EXISTS (SELECT 1 FROM order_tickets t WHERE t.order_id = o.id AND t.cancelled_at IS NULL) \
             ORDER BY e.member_id"
        );
        crate::on_pool!(self, |p| {
            sqlx::query_scalar(sqlx::AssertSqlSafe(sql.clone()))
                .bind(season_id)
                .fetch_all(p)
                .await
                .map_err(db_err)
        })
    }

    /// A paid order's new member of `membership_id` bought with `reference` as its reference1,
    /// still valid on `today`.
    pub(super) async fn reference_taken(
        &self,
        membership_id: i64,
        reference: &str,
        today: &str,
    ) -> StoreResult<bool> {
        crate::on_pool!(self, |p| {
            let n: i64 = sqlx::query_scalar(
                "SELECT COUNT(*) FROM order_memberships om JOIN orders o ON o.id = om.order_id \
                 JOIN members m ON m.member_number = om.member_number \
                 WHERE om.membership_id = $1 AND om.reference1 = $2 AND o.status = 'paid' AND m.end_date >= $3",
            )
            .bind(membership_id)
            .bind(reference)
            .bind(today)
            .fetch_one(p)
            .await
            .map_err(db_err)?;
            Ok(n > 0)
        })
    }
}
