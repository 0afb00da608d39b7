//! Single ticket rules, usable on their own: members, senior citizens, auto-assignment, the
//! multiply factor's sub-tickets, and codes applied to or removed from an order.

use std::collections::BTreeMap;

use jiff::civil::Date;

use super::*;
use crate::ids::IsraeliId;

// ---------------------------------------------------------------------------------------------
// Single rules, usable on their own.

/// A member found (or not) by loyalty id or member number, judged on `today`.
pub fn check_member(
    found: Option<&MemberInfo>,
    today: Date,
) -> Result<&MemberInfo, TicketRuleError> {
    let m = found.ok_or(TicketRuleError::MemberNotFound)?;
    if today < m.start_date {
        return Err(TicketRuleError::MemberNotStarted);
    }
    if today > m.end_date {
        return Err(TicketRuleError::MemberExpired);
    }
    if !m.has_benefits_left() {
        return Err(TicketRuleError::MemberNoneAvailable);
    }
    Ok(m)
}

/// A senior citizen's ID: missing or not up to 9 digits is `invalidSSN`; digits whose check digit
/// fails are `ilSenior_error`.
pub fn check_senior_id(raw: Option<&str>) -> Result<IsraeliId, TicketRuleError> {
    let raw = raw.map(str::trim).unwrap_or_default();
    if raw.is_empty() || raw.len() > 9 || !raw.bytes().all(|b| b.is_ascii_digit()) {
        return Err(TicketRuleError::InvalidSsn);
    }
    IsraeliId::parse(raw).ok_or(TicketRuleError::IlSeniorError)
}

/// The senior citizen ticket of a ticket group (the buyer's "senior citizen" button).
pub fn senior_ticket(
    tickets: &[TicketType],
    ticket_group_id: i64,
) -> Result<&TicketType, TicketRuleError> {
    tickets
        .iter()
        .find(|t| t.ticket_group_id == ticket_group_id && t.needs_senior_id && !t.by_code_only)
        .ok_or(TicketRuleError::IlSeniorTicketNotFound { ticket_group_id })
}

/// Spec section 4: a ticket is put on a seat by itself only if it covers one seat, asks for no
/// reference, and, in an unpaid hold, is not a system voucher.
pub fn auto_assignable(ticket: &TicketType, is_system_voucher: bool, is_hold: bool) -> bool {
    ticket.multiply_factor <= 1 && !ticket.has_ref_prompt && !(is_hold && is_system_voucher)
}

/// Which lines are sub-tickets: lines carrying a ticket of factor N are taken in order, N at a
/// time; the first of each N is the ticket, the others are seats it covers. `Some(i)` names the
/// covering line.
pub fn sub_tickets(lines: &[OrderLine], tickets: &[TicketType]) -> Vec<Option<usize>> {
    let mut seen: BTreeMap<i64, (usize, usize)> = BTreeMap::new();
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let factor = tickets
                .iter()
                .find(|t| t.id == l.ticket_id)
                .map_or(1, TicketType::factor);
            let (count, main) = seen.entry(l.ticket_id).or_insert((0, i));
            let position = *count % factor;
            *count += 1;
            if position == 0 {
                *main = i;
                None
            } else {
                Some(*main)
            }
        })
        .collect()
}

pub(super) fn same_code(a: &str, b: &str) -> bool {
    normalise_code(a) == normalise_code(b)
}

pub(super) fn filled(s: &Option<String>) -> Option<&str> {
    s.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// Fills the order's seats of the code's ticket group that have no code with the code's ticket
/// (spec section 4), remembering each seat's previous ticket. A factor-N ticket takes N seats at
/// a time; a code with uses left fills at most that many tickets.
pub fn apply_code(
    lines: &[OrderLine],
    code: &TicketCodeRule,
    tickets: &[TicketType],
    today: Date,
) -> Result<Vec<OrderLine>, TicketRuleError> {
    code.check_redeemable_in_order(today)?;
    if lines
        .iter()
        .any(|l| l.code.as_deref().is_some_and(|c| same_code(c, &code.code)))
    {
        return Err(TicketRuleError::CouponAlreadyUsed);
    }
    let ticket =
        tickets
            .iter()
            .find(|t| t.id == code.ticket_id)
            .ok_or(TicketRuleError::TicketNotFound {
                ticket_id: code.ticket_id,
            })?;
    let seats = lines.len() as i64;
    if seats < code.min_tickets {
        return Err(TicketRuleError::CouponNeedsMoreTickets {
            missing: code.min_tickets - seats,
        });
    }
    let free: Vec<usize> = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.ticket_group_id == ticket.ticket_group_id && filled(&l.code).is_none())
        .map(|(i, _)| i)
        .collect();
    let factor = ticket.factor();
    let mut tickets_to_fill = free.len() / factor;
    if let Some(left) = code.uses_left() {
        tickets_to_fill = tickets_to_fill.min(left as usize);
    }
    if tickets_to_fill == 0 {
        return Err(TicketRuleError::CouponNoTickets);
    }
    let mut out = lines.to_vec();
    for &i in &free[..tickets_to_fill * factor] {
        let l = &mut out[i];
        l.previous_ticket_id = Some(l.previous_ticket_id.unwrap_or(l.ticket_id));
        l.ticket_id = ticket.id;
        l.code = Some(code.code.clone());
    }
    Ok(out)
}

/// Takes a code off the order: its seats get their previous tickets back.
pub fn remove_code(lines: &[OrderLine], code: &str) -> Vec<OrderLine> {
    lines
        .iter()
        .map(|l| match &l.code {
            Some(c) if same_code(c, code) => OrderLine {
                ticket_id: l.previous_ticket_id.unwrap_or(l.ticket_id),
                code: None,
                previous_ticket_id: None,
                ..l.clone()
            },
            _ => l.clone(),
        })
        .collect()
}
