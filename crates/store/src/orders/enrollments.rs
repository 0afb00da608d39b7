//! Who is enrolled in a membership season (decision 0040): a member whose enrolment order is
//! paid and still has a ticket not cancelled.

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
}
