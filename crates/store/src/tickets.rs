//! Ticket codes, the references tickets accept, and members by number (migration 0004).

use async_trait::async_trait;
use kupa_app::error::StoreResult;
use kupa_app::model::*;
use kupa_app::ports::TicketStore;
use kupa_domain::tickets::{CodeKind, normalise_code};

use crate::rows::{self, Get};
use crate::{Db, db_err};

/// The catalogue's codes and reference options, run inside the catalogue's one transaction.
macro_rules! insert_ticket_codes {
    ($tx:expr, $d:expr) => {{
        let tx = &mut *$tx;
        for c in &$d.ticket_codes {
            sqlx::query(
                "INSERT INTO ticket_codes (id, code, code_key, kind, ticket_id, valid_from, valid_to, usage_limit, \
                 used_count, balance, min_tickets, card_prefix, label, label_en) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            )
            .bind(c.id).bind(c.code.trim()).bind(kupa_domain::tickets::normalise_code(&c.code)).bind(c.kind.as_str())
            .bind(c.ticket_id).bind(&c.valid_from).bind(&c.valid_to).bind(c.usage_limit).bind(c.used_count)
            .bind(c.balance).bind(c.min_tickets).bind(&c.card_prefix).bind(&c.label).bind(&c.label_en)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for (sort, o) in $d.ref_prompt_options.iter().enumerate() {
            sqlx::query(
                "INSERT INTO ticket_ref_options (ticket_id, reference, reference2, quantity, sort) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(o.ticket_id).bind(&o.reference).bind(&o.reference2).bind(o.quantity).bind(sort as i64)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
    }};
}
pub(crate) use insert_ticket_codes;

fn ticket_code(r: &impl Get) -> Result<TicketCode, sqlx::Error> {
    let kind = r.s("kind")?;
    Ok(TicketCode {
        id: r.i("id")?,
        code: r.s("code")?,
        kind: CodeKind::parse(&kind)
            .ok_or_else(|| sqlx::Error::Decode(format!("ticket code kind {kind:?}").into()))?,
        ticket_id: r.i("ticket_id")?,
        valid_from: r.os("valid_from")?,
        valid_to: r.os("valid_to")?,
        usage_limit: r.oi("usage_limit")?,
        used_count: r.i("used_count")?,
        balance: r.om("balance")?,
        min_tickets: r.i("min_tickets")?,
        card_prefix: r.s("card_prefix")?,
        label: r.s("label")?,
        label_en: r.s("label_en")?,
    })
}

fn ref_prompt_option(r: &impl Get) -> Result<RefPromptOption, sqlx::Error> {
    Ok(RefPromptOption {
        ticket_id: r.i("ticket_id")?,
        reference: r.s("reference")?,
        reference2: r.s("reference2")?,
        quantity: r.i("quantity")?,
    })
}

#[async_trait]
impl TicketStore for Db {
    async fn ticket_code(&self, code_key: &str) -> StoreResult<Option<TicketCode>> {
        let key = normalise_code(code_key);
        fetch_optional!(
            self,
            "SELECT * FROM ticket_codes WHERE code_key = $1",
            [key],
            ticket_code
        )
    }

    async fn ref_prompt_options(&self, ticket_id: i64) -> StoreResult<Vec<RefPromptOption>> {
        fetch_all!(
            self,
            "SELECT * FROM ticket_ref_options WHERE ticket_id = $1 ORDER BY sort",
            [ticket_id],
            ref_prompt_option
        )
    }

    async fn member_by_number(
        &self,
        member_number: &str,
    ) -> StoreResult<Option<(Member, Membership)>> {
        fetch_optional!(
            self,
            "SELECT m.*, ms.id AS ms_id, ms.type_id AS ms_type_id, ms.name AS ms_name, ms.name_en AS ms_name_en, \
             ms.code AS ms_code, ms.class_name AS ms_class_name, ms.price AS ms_price, \
             ms.max_discounted_tickets AS ms_max_discounted_tickets, ms.doc AS ms_doc \
             FROM members m JOIN memberships ms ON ms.id = m.membership_id WHERE m.member_number = $1",
            [member_number],
            rows::member_with_membership
        )
    }
}
