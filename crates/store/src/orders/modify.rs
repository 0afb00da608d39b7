//! Changing the seats of a paid order (`OrderStore::move_seats`): the macro runs inside a write
//! transaction the caller opened, on either database, under the order's lock.

/// Claims a new seat as sold for an order: a free place, a hold that has expired, or the asking
/// session's own hold. Never a live hold of another session, never a sold seat.
pub(super) const CLAIM_SOLD: &str = concat!(
    "INSERT INTO seat_claims (presentation_id, section_id, x, y, session_id, state, expires_at, order_id, updated_at) \
     VALUES ($1, $2, $3, $4, $5, 'sold', $6, $7, $6) \
     ON CONFLICT (presentation_id, section_id, x, y) DO UPDATE \
     SET session_id = excluded.session_id, state = 'sold', expires_at = excluded.expires_at, order_id = excluded.order_id, updated_at = excluded.updated_at \
     WHERE seat_claims.state = 'held' AND (",
    expired_hold!("seat_claims", "$6"),
    " OR seat_claims.session_id = excluded.session_id)"
);

/// Releases an order's sold seat.
pub(super) const RELEASE_SOLD: &str = "DELETE FROM seat_claims \
     WHERE presentation_id = $1 AND section_id = $2 AND x = $3 AND y = $4 AND state = 'sold' AND order_id = $5";

/// See `OrderStore::move_seats`. Yields (commit?, answer): only a whole move commits. Every new
/// seat is claimed first (in the claims' key order); only then are the old seats released, so a
/// seat taken meanwhile leaves the order exactly as it was.
macro_rules! move_seats_in {
    ($tx:expr, $order_id:expr, $last_payment:expr, $session:expr, $moves:expr, $now:expr) => {{
        let order_id: &ReservationId = $order_id;
        let moves: &[SeatMove] = $moves;
        let now: i64 = $now;
        match load_order!($tx, "SELECT * FROM orders WHERE id = $1", order_id) {
            None => (false, Err(MoveRefusal::NotPaid)),
            Some(order) if order.status != OrderStatus::Paid => (false, Err(MoveRefusal::NotPaid)),
            Some(order) if order.payment_id.as_deref() != Some($last_payment) => (false, Err(MoveRefusal::Stale)),
            Some(order) => {
                let mut refusal = None;
                // Each old seat is still this order's live ticket.
                for m in moves {
                    let live = order.tickets.iter().any(|t| {
                        t.line == m.line && t.presentation_id == m.presentation_id && t.address() == m.from
                            && t.cancelled_at_ms.is_none()
                    });
                    if !live {
                        refusal = Some(MoveRefusal::Stale);
                        break;
                    }
                }
                let mut in_key_order: Vec<&SeatMove> = moves.iter().collect();
                in_key_order.sort_by_key(|m| (m.presentation_id, m.to.section_id, m.to.y, m.to.x));
                for m in in_key_order {
                    if refusal.is_some() {
                        break;
                    }
                    let claimed = sqlx::query(CLAIM_SOLD)
                        .bind(m.presentation_id)
                        .bind(m.to.section_id)
                        .bind(m.to.x)
                        .bind(m.to.y)
                        .bind($session)
                        .bind(now)
                        .bind(order_id)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?
                        .rows_affected();
                    if claimed != 1 {
                        refusal = Some(MoveRefusal::SeatTaken { presentation_id: m.presentation_id, seat: m.to });
                    }
                }
                for m in moves {
                    if refusal.is_some() {
                        break;
                    }
                    let released = sqlx::query(RELEASE_SOLD)
                        .bind(m.presentation_id)
                        .bind(m.from.section_id)
                        .bind(m.from.x)
                        .bind(m.from.y)
                        .bind(order_id)
                        .execute(&mut *$tx)
                        .await
                        .map_err(db_err)?
                        .rows_affected();
                    if released != 1 {
                        refusal = Some(MoveRefusal::Stale);
                        break;
                    }
                    sqlx::query(
                        "UPDATE order_tickets SET section_id = $3, x = $4, y = $5, section_name = $6, section_name_en = $7, \
                         row_name = $8, seat_name = $9, document_key = $10 WHERE order_id = $1 AND line = $2",
                    )
                    .bind(order_id)
                    .bind(m.line)
                    .bind(m.to.section_id)
                    .bind(m.to.x)
                    .bind(m.to.y)
                    .bind(&m.section_name)
                    .bind(&m.section_name_en)
                    .bind(&m.row_name)
                    .bind(&m.seat_name)
                    .bind(&m.document_key)
                    .execute(&mut *$tx)
                    .await
                    .map_err(db_err)?;
                }
                match refusal {
                    Some(r) => (false, Err(r)),
                    None => {
                        sqlx::query("UPDATE orders SET updated_at = $2 WHERE id = $1")
                            .bind(order_id)
                            .bind(now)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                        let moved = load_order!($tx, "SELECT * FROM orders WHERE id = $1", order_id)
                            .ok_or_else(|| StoreError::other("order vanished"))?;
                        // The tickets again, with the new seats: made after the answer, with the
                        // move or not at all (decision 0061).
                        if let Some(c) = kupa_app::orders::confirmation_to_make(&moved) {
                            sqlx::query(
                                "INSERT INTO confirmation_jobs (order_id, lang, what, max_attempts, next_attempt_at, created_at) \
                                 VALUES ($1, $2, $3, $4, $5, $5)",
                            )
                            .bind(&moved.id)
                            .bind(c.lang)
                            .bind(c.kind.as_str())
                            .bind(c.max_attempts)
                            .bind(now)
                            .execute(&mut *$tx)
                            .await
                            .map_err(db_err)?;
                        }
                        (true, Ok(moved))
                    }
                }
            }
        }
    }};
}
