//! The door's SQL (decision 0044): the ticket lines an usher checks, the presentations they
//! guard, and the one conditional UPDATE that marks a ticket scanned.

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::staff::door::{DoorOrderState, DoorPresentation, DoorStore, DoorTicket};
use kupa_domain::ids::PresentationId;

use crate::rows::Get;
use crate::{Db, db_err};

macro_rules! presentation_columns {
    () => {
        "p.id AS presentation_id, p.business_id, p.starts_at, f.runtime, f.id AS feature_id, l.id AS location_id, \
         f.name AS feature_name, f.name_en AS feature_name_en, \
         l.name AS location_name, l.name_en AS location_name_en, \
         v.name AS venue_name, v.name_en AS venue_name_en"
    };
}

macro_rules! presentation_joins {
    () => {
        " JOIN features f ON f.id = p.feature_id \
          JOIN venues v ON v.id = p.venue_id \
          JOIN locations l ON l.id = v.location_id"
    };
}

fn presentation(r: &impl Get) -> Result<DoorPresentation, sqlx::Error> {
    Ok(DoorPresentation {
        id: r.p("presentation_id")?,
        business_id: r.i("business_id")?,
        feature_id: r.i("feature_id")?,
        location_id: r.i("location_id")?,
        starts_at_ms: r.i("starts_at")?,
        runtime_minutes: r.i("runtime")?,
        feature_name: r.s("feature_name")?,
        feature_name_en: r.s("feature_name_en")?,
        location_name: r.s("location_name")?,
        location_name_en: r.s("location_name_en")?,
        venue_name: r.s("venue_name")?,
        venue_name_en: r.s("venue_name_en")?,
    })
}

fn ticket(r: &impl Get) -> Result<DoorTicket, sqlx::Error> {
    let status = r.s("status")?;
    let paid_at = r.oi("paid_at")?;
    Ok(DoorTicket {
        order_id: r.s("order_id")?,
        line: r.i("line")?,
        order_state: match (status.as_str(), paid_at) {
            ("paid", _) => DoorOrderState::Paid,
            ("cancelled", Some(_)) => DoorOrderState::Cancelled,
            _ => DoorOrderState::Unpaid,
        },
        reservation_number: r.s("reservation_number")?,
        presentation: presentation(r)?,
        section_name: r.s("section_name")?,
        section_name_en: r.s("section_name_en")?,
        row_name: r.s("row_name")?,
        seat_name: r.s("seat_name")?,
        ticket_name: r.s("ticket_name")?,
        ticket_name_en: r.s("ticket_name_en")?,
        ref1: r.os("ref1")?,
        ref2: r.os("ref2")?,
        scanned_at_ms: r.oi("scanned_at")?,
        cancelled_at_ms: r.oi("cancelled_at")?,
    })
}

fn line_of(r: &impl Get) -> Result<(String, i64), sqlx::Error> {
    Ok((r.s("order_id")?, r.i("line")?))
}

fn order_id(r: &impl Get) -> Result<String, sqlx::Error> {
    r.s("id")
}

#[async_trait]
impl DoorStore for Db {
    async fn line_of_document_key(&self, key: &str) -> StoreResult<Option<(String, i64)>> {
        fetch_optional!(
            self,
            "SELECT order_id, line FROM order_tickets WHERE document_key = $1",
            [key],
            line_of
        )
    }

    async fn order_of_reservation_number(&self, number: &str) -> StoreResult<Option<String>> {
        fetch_optional!(
            self,
            "SELECT id FROM orders WHERE reservation_number = $1",
            [number],
            order_id
        )
    }

    async fn door_tickets(&self, order: &str) -> StoreResult<Vec<DoorTicket>> {
        fetch_all!(
            self,
            concat!(
                "SELECT t.order_id, t.line, o.status, o.paid_at, o.reservation_number, ",
                presentation_columns!(),
                ", t.section_name, t.section_name_en, t.row_name, t.seat_name, t.ticket_name, \
                 t.ticket_name_en, t.ref1, t.ref2, t.scanned_at, t.cancelled_at \
                 FROM order_tickets t JOIN orders o ON o.id = t.order_id \
                 JOIN presentations p ON p.id = t.presentation_id",
                presentation_joins!(),
                " WHERE t.order_id = $1 ORDER BY t.line"
            ),
            [order],
            ticket
        )
    }

    async fn door_presentation(&self, id: PresentationId) -> StoreResult<Option<DoorPresentation>> {
        fetch_optional!(
            self,
            concat!(
                "SELECT ",
                presentation_columns!(),
                " FROM presentations p",
                presentation_joins!(),
                " WHERE p.id = $1"
            ),
            [id],
            presentation
        )
    }

    async fn door_presentations(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<DoorPresentation>> {
        fetch_all!(
            self,
            concat!(
                "SELECT ",
                presentation_columns!(),
                " FROM presentations p",
                presentation_joins!(),
                " WHERE p.starts_at >= $1 AND p.starts_at < $2 ORDER BY p.starts_at, l.id, v.id"
            ),
            [from_ms, to_ms],
            presentation
        )
    }

    /// One statement, so the database arbitrates two doors: on PostgreSQL the second UPDATE waits
    /// for the first's row lock and then finds `scanned_at` set; on SQLite writers take turns.
    async fn mark_scanned(
        &self,
        order: &str,
        line: i64,
        now_ms: i64,
        user_id: Option<i64>,
    ) -> StoreResult<bool> {
        let done = crate::on_pool!(self, |p| {
            sqlx::query(
            "UPDATE order_tickets SET scanned_at = $3, scanned_by = $4 \
             WHERE order_id = $1 AND line = $2 AND scanned_at IS NULL AND cancelled_at IS NULL \
             AND EXISTS (SELECT 1 FROM orders o WHERE o.id = order_tickets.order_id AND o.status = 'paid')"
        )
        .bind(order)
        .bind(line)
        .bind(now_ms)
        .bind(user_id)
        .execute(p)
        .await
        .map_err(db_err)?
        .rows_affected()
        });
        Ok(done == 1)
    }
}
