//! Mini-site ticket validation (spec sections 3 "Mini-site ticket validation result" and 7
//! `GET /mini-site/validate/{url}`; issue 17 item 3, decision 0048): a mini-site's partner (a
//! festival's own door, a hotel's desk) asks whether a ticket sold for one of the mini-site's
//! screenings is good (`check`), or uses it (`use`): the door's one conditional UPDATE marks it
//! scanned, so a ticket used at the partner's door is "already scanned" at the cinema's and the
//! other way round. Who may ask is the HTTP layer's (the mini-site's key, or an usher's session).

use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::MiniSite;
use kupa_domain::ids::PresentationId;

use super::Caller;
use super::door::{DoorOrderState, DoorService, NumberedTicket};

/// What the partner asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValidateMode {
    /// Read only.
    Check,
    /// Mark the ticket used, once.
    Use,
}

impl ValidateMode {
    pub fn parse(s: Option<&str>) -> Option<ValidateMode> {
        match s.map(str::trim).unwrap_or("check") {
            "" | "check" => Some(ValidateMode::Check),
            "use" => Some(ValidateMode::Use),
            _ => None,
        }
    }
}

/// The spec's result: the ticket, what is left of it (1 good for entry, 0 used or void), its
/// references; and (Kupa's own) whether this call used it and when it was used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Validation {
    /// The typed ticket number `RRRR-RRRR-n`.
    pub ticket_id: String,
    pub balance: i64,
    pub reference1: Option<String>,
    pub reference2: Option<String>,
    pub used_now: bool,
    pub scanned_at_ms: Option<i64>,
    pub presentation_id: PresentationId,
}

/// Who validates: the mini-site's partner by its key, or an usher (their businesses only).
pub enum Validator<'a> {
    Key,
    Usher(&'a Caller),
}

fn not_found() -> AppError {
    AppError::rejected(ErrorCode::NotFound, "no such ticket on this mini-site")
}

fn balance(t: &NumberedTicket) -> i64 {
    let x = &t.ticket;
    i64::from(
        x.order_state == DoorOrderState::Paid
            && x.cancelled_at_ms.is_none()
            && x.scanned_at_ms.is_none(),
    )
}

/// A reference asked must be the ticket's (trimmed; none asked: not checked).
fn matches(asked: Option<&str>, has: Option<&str>) -> bool {
    match asked.map(str::trim).filter(|a| !a.is_empty()) {
        None => true,
        Some(a) => has.map(str::trim) == Some(a),
    }
}

impl DoorService {
    /// Validates a ticket for `site`: the ticket (by e-document key or typed number) of a
    /// screening the mini-site shows, whose references match those asked, else `notFound`
    /// (never telling which). With [`ValidateMode::Use`], a ticket with balance 1 is marked used
    /// by the door's conditional UPDATE; one with nothing left is `ticket_balance_error` (409).
    pub async fn validate(
        &self,
        site: &MiniSite,
        by: Validator<'_>,
        code: &str,
        reference1: Option<&str>,
        reference2: Option<&str>,
        mode: ValidateMode,
    ) -> AppResult<Validation> {
        let found = self.find(code).await?.ok_or_else(not_found)?;
        let p = &found.ticket.presentation;
        let shown = (site.feature_ids.is_empty() || site.feature_ids.contains(&p.feature_id))
            && site.location_id.is_none_or(|l| l == p.location_id);
        let usher_sees = match &by {
            Validator::Key => true,
            Validator::Usher(caller) => {
                caller.require(super::Access::Door)?;
                caller.sees(p.business_id)
            }
        };
        if !shown
            || !usher_sees
            || !matches(reference1, found.ticket.ref1.as_deref())
            || !matches(reference2, found.ticket.ref2.as_deref())
        {
            tracing::info!(mini_site = site.id, "mini-site validation: not found");
            return Err(not_found());
        }
        let answer = |t: &NumberedTicket, used_now: bool| Validation {
            ticket_id: t.ticket_number(),
            balance: balance(t),
            reference1: t.ticket.ref1.clone(),
            reference2: t.ticket.ref2.clone(),
            used_now,
            scanned_at_ms: t.ticket.scanned_at_ms,
            presentation_id: t.ticket.presentation.id,
        };
        if mode == ValidateMode::Check {
            return Ok(answer(&found, false));
        }
        let user = match by {
            Validator::Key => None,
            Validator::Usher(caller) => Some(caller.user.id),
        };
        let t = &found.ticket;
        let now = self.clock.now_ms();
        if balance(&found) == 1
            && self
                .store
                .mark_scanned(&t.order_id, t.line, now, user)
                .await?
        {
            tracing::info!(mini_site = site.id, order_id = %t.order_id, line = t.line, "mini-site validation: used");
            let mut used = found.clone();
            used.ticket.scanned_at_ms = Some(now);
            return Ok(answer(&used, true));
        }
        // Nothing left, or another door used it between the read and the UPDATE.
        let again = self
            .numbered(&t.order_id, |x| x.line == t.line)
            .await?
            .ok_or_else(not_found)?;
        let reason = match (again.ticket.order_state, again.ticket.cancelled_at_ms) {
            (DoorOrderState::Paid, None) => "scanned",
            (DoorOrderState::Unpaid, _) => "notPaid",
            _ => "cancelled",
        };
        Err(AppError::rejected_with(
            ErrorCode::TicketBalanceError,
            "this ticket has nothing left to use",
            serde_json::json!({
                "reason": reason,
                "scannedAt": again.ticket.scanned_at_ms.map(kupa_domain::time::ms_to_rfc3339),
            }),
        ))
    }
}
