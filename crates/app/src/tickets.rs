//! Tickets by code (`GET /presentations/{id}/ticket`), member lookups, and the bridge from the
//! catalogue's rows to the pure ticket rules of [`kupa_domain::tickets`], which the cart calls:
//! [`ticket_type`], [`code_rule`], [`member_info`] and [`ref_option`] turn rows into the rules'
//! types, and a [`TicketRuleError`] becomes an [`AppError`] with its catalogue code and params.

use std::sync::Arc;

use jiff::civil::Date;
use kupa_domain::pricing::{ServiceChargeRule, ticket_service_charge};
use kupa_domain::tickets::{
    self, MemberInfo, RefOption, TicketCodeRule, TicketRuleError, TicketType, normalise_code,
};

use crate::catalogue::{CatalogueService, Channel};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::*;
use crate::ports::{Captcha, CatalogueStore, Clock, TicketStore};

/// The ticket-by-code call's parameters (spec section 7).
#[derive(Debug, Clone, Default)]
pub struct CodeTicketQuery<'a> {
    pub presentation_id: PresentationId,
    /// The seat's section: its ticket group is the one asked for.
    pub section_id: Option<i64>,
    pub ticket_group_id: Option<i64>,
    pub ticket_code: &'a str,
    /// The ticket the buyer picked (a voucher ticket button); the code must unlock it.
    pub ticket_id: Option<i64>,
    /// Tickets the client already has for this code; the answer must be another.
    pub ignore_ticket_ids: &'a [i64],
    pub recaptcha_token: &'a str,
    pub mini_site_url: Option<&'a str>,
}

/// A ticket reached by a code, with the code.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeTicket {
    pub ticket: Ticket,
    pub code: TicketCode,
    /// None: unlimited.
    pub uses_left: Option<i64>,
}

pub struct TicketService {
    catalogue: Arc<CatalogueService>,
    store: Arc<dyn CatalogueStore>,
    tickets: Arc<dyn TicketStore>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
}

impl TicketService {
    pub fn new(
        catalogue: Arc<CatalogueService>,
        store: Arc<dyn CatalogueStore>,
        tickets: Arc<dyn TicketStore>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
    ) -> TicketService {
        TicketService {
            catalogue,
            store,
            tickets,
            captcha,
            clock,
        }
    }

    /// Today in Asia/Jerusalem, the day codes and memberships are judged by.
    pub fn today(&self) -> Date {
        kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()))
    }

    /// The ticket a code unlocks for a presentation on sale now: the captcha, the code (known,
    /// valid today, uses and balance left), then the ticket (sold in the presentation, of the
    /// group asked for, the one asked for, not one the client already has).
    pub async fn ticket_by_code(&self, q: &CodeTicketQuery<'_>) -> AppResult<CodeTicket> {
        crate::ports::require_captcha(self.captcha.as_ref(), q.recaptcha_token).await?;
        let channel = self.catalogue.channel(q.mini_site_url).await?;
        let detail = self
            .catalogue
            .presentation(q.presentation_id, &channel)
            .await?;
        detail.info.require_on_sale()?;
        let p = &detail.info.view.presentation;
        let sections = crate::prices::sections_of(self.store.as_ref(), p).await?;
        let asked_group = match q.section_id {
            None => q.ticket_group_id,
            Some(sid) => {
                let section = sections.iter().find(|s| s.id == sid).ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::NotFound,
                        format!("section {sid} is not in this presentation"),
                    )
                })?;
                if q.ticket_group_id
                    .is_some_and(|g| g != section.ticket_group_id)
                {
                    return Err(AppError::rejected(
                        ErrorCode::FormValidation,
                        format!(
                            "section {sid} does not sell ticket group {:?}",
                            q.ticket_group_id
                        ),
                    ));
                }
                Some(section.ticket_group_id)
            }
        };

        let key = normalise_code(q.ticket_code);
        let code = if key.is_empty() {
            None
        } else {
            self.tickets.ticket_code(&key).await?
        }
        .ok_or_else(|| AppError::from(TicketRuleError::CodeNotFound))?;
        let rule = code_rule(&code)?;
        rule.check_redeemable(self.today())?;

        let mut group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        group_ids.sort_unstable();
        group_ids.dedup();
        let not_found = || {
            AppError::from(TicketRuleError::TicketNotFound {
                ticket_id: code.ticket_id,
            })
        };
        let mut ticket = crate::prices::ticket_groups_of(self.store.as_ref(), p, &group_ids)
            .await?
            .into_iter()
            .flat_map(|(_, ts)| ts)
            .find(|t| t.id == code.ticket_id)
            .ok_or_else(not_found)?;
        let charge = detail.service_charge.clone();
        charge_as_sold(&mut ticket, charge.as_ref());
        if asked_group.is_some_and(|g| g != ticket.ticket_group_id)
            || q.ticket_id.is_some_and(|t| t != ticket.id)
            || q.ignore_ticket_ids.contains(&ticket.id)
        {
            return Err(not_found());
        }
        Ok(CodeTicket {
            ticket,
            uses_left: rule.uses_left(),
            code,
        })
    }

    /// A member by loyalty id (the member number on the card), valid today: known, started, not
    /// expired, with benefits left.
    pub async fn member(&self, membership_loyalty_id: &str) -> AppResult<(Member, Membership)> {
        let number = membership_loyalty_id.trim();
        let found = if number.is_empty() {
            None
        } else {
            self.tickets.member_by_number(number).await?
        };
        let info = found
            .as_ref()
            .map(|(m, ms)| member_info(m, ms))
            .transpose()?;
        tickets::check_member(info.as_ref(), self.today())?;
        Ok(found.expect("a checked member was found"))
    }

    /// The ticket groups of a presentation; with a loyalty id, the member is checked and
    /// member-only tickets are listed too.
    pub async fn ticket_groups(
        &self,
        presentation_id: PresentationId,
        channel: &Channel,
        membership_loyalty_id: Option<&str>,
    ) -> AppResult<(Vec<(TicketGroup, Vec<Ticket>)>, Option<ServiceCharge>)> {
        let member = membership_loyalty_id
            .map(str::trim)
            .filter(|m| !m.is_empty());
        let listed = self
            .catalogue
            .ticket_groups(presentation_id, channel, member.is_some())
            .await?;
        // Pass tickets (paid from a series pass's balance) only for a series pass.
        let mut series = false;
        if let Some(m) = member {
            series = self.member(m).await?.1.type_id == tickets::SERIES_MEMBERSHIP_TYPE;
        }
        let (mut groups, charge) = listed;
        for (_, tickets) in &mut groups {
            tickets.retain(|t| series || t.member_balance_price.is_none());
            for t in tickets {
                charge_as_sold(t, charge.as_ref());
            }
        }
        Ok((groups, charge))
    }

    /// The references each of these tickets accepts (for [`tickets::check_order`]).
    pub async fn ref_options(&self, ticket_ids: &[i64]) -> AppResult<Vec<RefOption>> {
        let mut out = Vec::new();
        for &id in ticket_ids {
            out.extend(
                self.tickets
                    .ref_prompt_options(id)
                    .await?
                    .iter()
                    .map(ref_option),
            );
        }
        Ok(out)
    }

    /// The codes (as typed) that exist, as rules; unknown ones are left out, so the rules answer
    /// `codeNotFound` for them.
    pub async fn code_rules(&self, codes: &[&str]) -> AppResult<Vec<(TicketCode, TicketCodeRule)>> {
        let mut out: Vec<(TicketCode, TicketCodeRule)> = Vec::new();
        for raw in codes {
            let key = normalise_code(raw);
            if key.is_empty() || out.iter().any(|(_, r)| r.code == key) {
                continue;
            }
            if let Some(c) = self.tickets.ticket_code(&key).await? {
                let rule = code_rule(&c)?;
                out.push((c, rule));
            }
        }
        Ok(out)
    }

    /// Members (as rules) for these member numbers; unknown ones are left out.
    pub async fn member_infos(&self, numbers: &[&str]) -> AppResult<Vec<MemberInfo>> {
        let mut out: Vec<MemberInfo> = Vec::new();
        for n in numbers.iter().map(|n| n.trim()).filter(|n| !n.is_empty()) {
            if out.iter().any(|m| m.member_number == n) {
                continue;
            }
            if let Some((m, ms)) = self.tickets.member_by_number(n).await? {
                out.push(member_info(&m, &ms)?);
            }
        }
        Ok(out)
    }
}

fn day(what: &str, s: &str) -> AppResult<Date> {
    s.parse::<Date>()
        .map_err(|e| AppError::internal(format!("{what} {s:?} is not a date: {e}")))
}

/// The business's service-charge rule, as the pricing sees it.
pub fn charge_rule(c: &ServiceCharge) -> ServiceChargeRule {
    ServiceChargeRule {
        amount: c.amount,
        percent_bp: c.percent_bp,
        per_ticket: c.per_ticket,
    }
}

/// Sets a listed ticket's service charge to what one such ticket is charged: its own, or the
/// business's per-ticket charge (a per-order charge is the order's, shown apart). So every price
/// shown from the tickets step on is the price the cart will charge.
pub fn charge_as_sold(t: &mut Ticket, charge: Option<&ServiceCharge>) {
    let rule = charge.map(charge_rule);
    t.service_charge = ticket_service_charge(t.price, t.service_charge, rule.as_ref());
}

/// A catalogue ticket as the rules see it.
pub fn ticket_type(t: &Ticket) -> TicketType {
    TicketType {
        id: t.id,
        ticket_group_id: t.ticket_group_id,
        price: t.price,
        service_charge: t.service_charge,
        min_quantity: t.min_quantity,
        max_quantity: t.max_quantity,
        requires_ticket_id: t.requires_ticket_id,
        member_only: t.member_only,
        needs_senior_id: t.needs_senior_id,
        has_ref_prompt: !t.ref_prompt.trim().is_empty(),
        loyalty_points_price: t.loyalty_points_price,
        member_balance_price: t.member_balance_price,
        multiply_factor: t.multiply_factor,
        by_code_only: t.by_code_only,
        seat_kind: t.seat_kind.clone(),
    }
}

/// A stored code as the rules see it.
pub fn code_rule(c: &TicketCode) -> AppResult<TicketCodeRule> {
    let opt_day = |what: &str, d: &Option<String>| d.as_deref().map(|s| day(what, s)).transpose();
    Ok(TicketCodeRule {
        code: normalise_code(&c.code),
        kind: c.kind,
        ticket_id: c.ticket_id,
        valid_from: opt_day("validFrom", &c.valid_from)?,
        valid_to: opt_day("validTo", &c.valid_to)?,
        usage_limit: c.usage_limit,
        used_count: c.used_count,
        balance: c.balance,
        min_tickets: c.min_tickets,
        card_prefix: c.card_prefix.clone(),
    })
}

/// A stored member as the rules see it.
pub fn member_info(m: &Member, ms: &Membership) -> AppResult<MemberInfo> {
    Ok(MemberInfo {
        member_number: m.member_number.clone(),
        membership_type_id: ms.type_id,
        balance: m.balance,
        points_balance: m.points_balance,
        start_date: day("startDate", &m.start_date)?,
        end_date: day("endDate", &m.end_date)?,
        max_discounted_tickets: ms.max_discounted_tickets,
    })
}

pub fn ref_option(o: &RefPromptOption) -> RefOption {
    RefOption {
        ticket_id: o.ticket_id,
        reference: o.reference.clone(),
        reference2: o.reference2.clone(),
        quantity: o.quantity,
    }
}

/// A broken ticket rule is rejected with its code and the numbers its words need (the HTTP
/// layer gives each code its one status).
impl From<TicketRuleError> for AppError {
    fn from(e: TicketRuleError) -> AppError {
        let code = e.code();
        let params = e.params();
        if params.is_empty() {
            AppError::rejected(code, &e)
        } else {
            let map: serde_json::Map<String, serde_json::Value> = params
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.into()))
                .collect();
            AppError::rejected_with(code, &e, serde_json::Value::Object(map))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rejected(e: AppError) -> (String, Option<serde_json::Value>) {
        match e {
            AppError::Rejected {
                code,
                params,
                message,
            } => {
                assert!(!message.is_empty());
                (code.as_str().to_owned(), params)
            }
            other => panic!("not a rejection: {other}"),
        }
    }

    #[test]
    fn a_rule_error_keeps_its_code_and_params() {
        let (code, params) =
            rejected(TicketRuleError::CouponNeedsMoreTickets { missing: 2 }.into());
        assert_eq!(code, "couponNeedsMoreTickets");
        assert_eq!(params, Some(serde_json::json!({"missing": 2})));
        let (code, params) = rejected(TicketRuleError::MemberExpired.into());
        assert_eq!((code.as_str(), params), ("memberExpired", None));
    }

    #[test]
    fn stored_codes_become_rules_with_dates() {
        let c = TicketCode {
            code: " Kupa10 ".into(),
            valid_from: Some("2026-11-01".into()),
            ..TicketCode::default()
        };
        let r = code_rule(&c).unwrap();
        assert_eq!(r.code, "kupa10");
        assert_eq!(r.valid_from, Some(jiff::civil::date(2026, 11, 1)));
        assert!(r.valid_to.is_none());
    }
}
