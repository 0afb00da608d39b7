//! The whole order: every ticket rule checked, each line priced.

use jiff::civil::Date;

use super::rules::filled;
use super::*;
use crate::ids::IsraeliId;
use crate::money::Money;
use crate::seat_kinds;
use crate::seating;

// ---------------------------------------------------------------------------------------------
// The whole order.

/// Checks every ticket rule on the order and prices its lines, in line order. The first broken
/// rule is answered, in this order: tickets are sold in their seats' sections and fit their kinds
/// of seat ([`check_seat_kinds`]); the multiply factor covers the seats
/// exactly; codes; minimum and maximum per ticket; required tickets; members; senior IDs;
/// references.
pub fn check_order(
    lines: &[OrderLine],
    catalogue: &TicketCatalogue<'_>,
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<PricedLine>, TicketRuleError> {
    // Each seat's ticket exists and is sold in the seat's section.
    let mut chosen: Vec<&TicketType> = Vec::with_capacity(lines.len());
    for l in lines {
        let t = catalogue
            .ticket(l.ticket_id)
            .filter(|t| t.ticket_group_id == l.ticket_group_id)
            .ok_or(TicketRuleError::TicketNotFound {
                ticket_id: l.ticket_id,
            })?;
        chosen.push(t);
    }
    check_seat_kinds(lines, &chosen)?;

    // The multiply factor: which lines are covered by another's ticket, and whether the tickets
    // cover exactly the seats.
    let covered_by = sub_tickets(lines, catalogue.tickets);
    let mains: Vec<usize> = (0..lines.len())
        .filter(|&i| covered_by[i].is_none())
        .collect();
    let factors: Vec<i64> = mains.iter().map(|&i| chosen[i].multiply_factor).collect();
    seating::check_ticket_count(&factors, lines.len()).map_err(TicketRuleError::Seating)?;

    let codes = check_codes(lines, &chosen, &mains, catalogue, buyer, today)?;
    check_quantities(&chosen, &mains)?;
    let members = check_members(lines, &chosen, &mains, buyer, today)?;
    // Each senior ticket is a senior's own: one ID number, one senior ticket.
    let mut senior_ids: Vec<IsraeliId> = Vec::new();
    for &i in &mains {
        if chosen[i].needs_senior_id {
            let id = check_senior_id(lines[i].senior_id.as_deref())?;
            if senior_ids.contains(&id) {
                return Err(TicketRuleError::IlSeniorBalance);
            }
            senior_ids.push(id);
        }
    }
    check_references(lines, &chosen, &mains, catalogue)?;

    Ok(lines
        .iter()
        .enumerate()
        .map(|(i, l)| match covered_by[i] {
            Some(main) => PricedLine {
                seat: l.seat,
                ticket_id: chosen[main].id,
                price: Money::ZERO,
                service_charge: Money::ZERO,
                loyalty_points: None,
                member_balance: None,
                is_sub_ticket: true,
                covered_by: Some(main),
                code: codes[main].clone(),
                member_number: None,
            },
            None => PricedLine {
                seat: l.seat,
                ticket_id: chosen[i].id,
                price: chosen[i].price,
                service_charge: chosen[i].service_charge,
                loyalty_points: chosen[i].loyalty_points_price,
                member_balance: chosen[i].member_balance_price,
                is_sub_ticket: false,
                covered_by: None,
                code: codes[i].clone(),
                member_number: members[i].clone(),
            },
        })
        .collect())
}

/// Every line's ticket fits its seat: a ticket tied to a kind of seat is sold only on a seat that
/// serves that kind in this order (the line's `seat_kinds`). `chosen` is each line's ticket.
pub fn check_seat_kinds(
    lines: &[OrderLine],
    chosen: &[&TicketType],
) -> Result<(), TicketRuleError> {
    for (l, t) in lines.iter().zip(chosen) {
        if !seat_kinds::fits(t.seat_kind.as_ref(), &l.seat_kinds) {
            return Err(TicketRuleError::TicketNotForSeat {
                ticket_id: t.id,
                seat_kind: t.seat_kind.clone().expect("only a tied ticket can misfit"),
            });
        }
    }
    Ok(())
}

/// Codes on lines and entered for the order; returns each line's normalised code.
fn check_codes(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    catalogue: &TicketCatalogue<'_>,
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<Option<String>>, TicketRuleError> {
    let mut codes: Vec<Option<String>> = vec![None; lines.len()];
    // Tickets per code, in order of first use.
    let mut uses: Vec<(&TicketCodeRule, i64)> = Vec::new();
    for &i in mains {
        let Some(raw) = filled(&lines[i].code) else {
            if chosen[i].by_code_only {
                return Err(TicketRuleError::TicketNotFound {
                    ticket_id: chosen[i].id,
                });
            }
            continue;
        };
        let code = catalogue.code(raw).ok_or(TicketRuleError::CodeNotFound)?;
        if code.ticket_id != chosen[i].id {
            return Err(TicketRuleError::TicketNotFound {
                ticket_id: chosen[i].id,
            });
        }
        codes[i] = Some(code.code.clone());
        match uses.iter_mut().find(|(c, _)| c.code == code.code) {
            Some((_, n)) => *n += 1,
            None => uses.push((code, 1)),
        }
    }
    let mut entered: Vec<String> = Vec::new();
    for raw in buyer.entered_codes {
        let key = normalise_code(raw);
        if entered.contains(&key) {
            return Err(TicketRuleError::CouponAlreadyUsed);
        }
        let code = catalogue.code(&key).ok_or(TicketRuleError::CodeNotFound)?;
        if !uses.iter().any(|(c, _)| c.code == code.code) {
            return Err(TicketRuleError::CouponNoTickets);
        }
        entered.push(key);
    }
    let seats = lines.len() as i64;
    for (code, n) in uses {
        code.check_redeemable_in_order(today)?;
        if code.uses_left().is_some_and(|left| n > left) {
            return Err(TicketRuleError::CouponAlreadyUsed);
        }
        if seats < code.min_tickets {
            return Err(TicketRuleError::CouponNeedsMoreTickets {
                missing: code.min_tickets - seats,
            });
        }
    }
    Ok(codes)
}

fn count_by_ticket(chosen: &[&TicketType], mains: &[usize]) -> Vec<(i64, i64)> {
    let mut counts: Vec<(i64, i64)> = Vec::new();
    for &i in mains {
        match counts.iter_mut().find(|(id, _)| *id == chosen[i].id) {
            Some((_, n)) => *n += 1,
            None => counts.push((chosen[i].id, 1)),
        }
    }
    counts
}

/// Minimum and maximum per ticket type, then tickets that need another.
fn check_quantities(chosen: &[&TicketType], mains: &[usize]) -> Result<(), TicketRuleError> {
    let counts = count_by_ticket(chosen, mains);
    let count_of = |id: i64| counts.iter().find(|(t, _)| *t == id).map_or(0, |(_, n)| *n);
    let ticket = |id: i64| chosen.iter().find(|t| t.id == id).copied();
    for &(id, n) in &counts {
        let t = ticket(id).expect("counted tickets are chosen");
        if t.max_quantity > 0 && n > t.max_quantity {
            return Err(TicketRuleError::TicketMaxExceeded {
                ticket_id: id,
                max: t.max_quantity,
            });
        }
        if n < t.min_quantity {
            return Err(TicketRuleError::TicketMinNotReached {
                ticket_id: id,
                min: t.min_quantity,
                missing: t.min_quantity - n,
            });
        }
    }
    for &(id, n) in &counts {
        let t = ticket(id).expect("counted tickets are chosen");
        if let Some(required) = t.requires_ticket_id {
            let have = count_of(required);
            if have < n {
                return Err(TicketRuleError::RequiredTicketMissing {
                    ticket_id: id,
                    required_ticket_id: required,
                    missing: n - have,
                });
            }
        }
    }
    Ok(())
}

/// Member-only tickets: each needs a valid member; a member's points must cover the points
/// tickets and a series pass's balance its pass tickets (a pass ticket needs a series pass), and
/// a member may take at most the membership's number of discounted tickets.
/// Returns each line's member number.
fn check_members(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    buyer: &Buyer<'_>,
    today: Date,
) -> Result<Vec<Option<String>>, TicketRuleError> {
    let mut numbers: Vec<Option<String>> = vec![None; lines.len()];
    // Per member: tickets, points and pass balance taken.
    let mut taken: Vec<(&MemberInfo, i64, i64, Money)> = Vec::new();
    for &i in mains {
        let t = chosen[i];
        // A points or pass ticket is paid from a member's points or balance: it needs its member
        // like a member ticket.
        if !t.member_only && t.loyalty_points_price.is_none() && t.member_balance_price.is_none() {
            continue;
        }
        let number = filled(&lines[i].member_number)
            .or(buyer.member_number.map(str::trim).filter(|s| !s.is_empty()))
            .ok_or(TicketRuleError::NoValidMember)?;
        let found = buyer.members.iter().find(|m| m.member_number == number);
        let member = check_member(found, today)?;
        numbers[i] = Some(member.member_number.clone());
        let points = t.loyalty_points_price.unwrap_or(0);
        let balance = t.member_balance_price.unwrap_or(Money::ZERO);
        if t.member_balance_price.is_some() && member.membership_type_id != SERIES_MEMBERSHIP_TYPE {
            return Err(TicketRuleError::MemberNoneAvailable);
        }
        match taken
            .iter_mut()
            .find(|(m, _, _, _)| m.member_number == member.member_number)
        {
            Some((_, n, p, b)) => {
                *n += 1;
                *p += points;
                *b += balance;
            }
            None => taken.push((member, 1, points, balance)),
        }
    }
    for (member, n, points, balance) in taken {
        if let Some(max) = member.max_discounted_tickets
            && n > max
        {
            return Err(TicketRuleError::MemberTicketsMax { max });
        }
        if points > member.points_balance || balance > member.balance {
            return Err(TicketRuleError::MemberNoneAvailable);
        }
    }
    Ok(numbers)
}

fn same_reference(a: &str, b: &str) -> bool {
    a.trim().to_lowercase() == b.trim().to_lowercase()
}

/// Tickets with a reference prompt: a reference is given, sensible, and (when the ticket lists
/// its accepted references) one of them, named by no more tickets than its quantity.
fn check_references(
    lines: &[OrderLine],
    chosen: &[&TicketType],
    mains: &[usize],
    catalogue: &TicketCatalogue<'_>,
) -> Result<(), TicketRuleError> {
    let mut used: Vec<(&RefOption, i64)> = Vec::new();
    for &i in mains {
        let t = chosen[i];
        if !t.has_ref_prompt {
            continue;
        }
        let ref1 = filled(&lines[i].ref1).ok_or(TicketRuleError::RefPromptOptError)?;
        let ref2 = filled(&lines[i].ref2).unwrap_or_default();
        let sensible =
            |s: &str| s.chars().count() <= MAX_REFERENCE_CHARS && !s.chars().any(char::is_control);
        if !sensible(ref1) || !sensible(ref2) {
            return Err(TicketRuleError::RefPromptOptError);
        }
        let mut options = catalogue
            .ref_options
            .iter()
            .filter(|o| o.ticket_id == t.id)
            .peekable();
        if options.peek().is_none() {
            continue;
        }
        let option = options
            .find(|o| {
                same_reference(&o.reference, ref1)
                    && (o.reference2.trim().is_empty() || same_reference(&o.reference2, ref2))
            })
            .ok_or(TicketRuleError::RefPromptOptNotFound)?;
        let n = match used.iter_mut().find(|(o, _)| std::ptr::eq(*o, option)) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                used.push((option, 1));
                1
            }
        };
        if n > option.quantity {
            return Err(if option.quantity <= 0 {
                TicketRuleError::RefPromptOptNotFound
            } else {
                TicketRuleError::RefPromptOptUsedUp {
                    available: option.quantity,
                }
            });
        }
    }
    Ok(())
}
