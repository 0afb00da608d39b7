//! The tickets of a cart: each seat's ticket priced under the ticket rules (codes, members and
//! their points, references, the kind of seat), checked again before payment, and written out as
//! the order's ticket lines.

use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use kupa_domain::seating::SeatAddress;
use kupa_domain::tickets::{
    Buyer, OrderLine, PricedLine, TicketCatalogue, TicketCodeRule, TicketType,
};

use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Seat, Ticket};

use super::super::*;

impl OrderService {
    /// Tickets: each from its seat's section's ticket group, under the spec's ticket rules (the
    /// kind of seat a ticket is tied to, codes, members, senior IDs, references, companions,
    /// multiply factors), priced here. Each line with the catalogue ticket it sells.
    pub(super) async fn price_tickets(
        &self,
        login: Option<&str>,
        cart_seats: &[CartSeat],
        plan: &Plan,
    ) -> AppResult<Vec<(PricedLine, Ticket)>> {
        let group_ids: Vec<i64> = plan.sections.iter().map(|s| s.ticket_group_id).collect();
        // At the prices in force for the screening: the same rule as the tickets step's list.
        let groups =
            crate::prices::ticket_groups_of(self.store.as_ref(), &plan.presentation, &group_ids)
                .await?;
        let all_tickets: Vec<&Ticket> = groups.iter().flat_map(|(_, ts)| ts.iter()).collect();
        let types: Vec<TicketType> = all_tickets
            .iter()
            .map(|t| crate::tickets::ticket_type(t))
            .collect();
        let places: Vec<SeatAddress> = cart_seats.iter().map(CartSeat::address).collect();
        let mut seat_kinds = crate::seat_plan::seat_kinds_of(&places, &plan.seats).into_iter();
        let mut order_lines = Vec::new();
        for c in cart_seats {
            let section = plan
                .sections
                .iter()
                .find(|s| s.id == c.section_id)
                .ok_or_else(|| invalid(ErrorCode::FormValidation, "unknown section"))?;
            order_lines.push(OrderLine {
                seat: SeatAddress {
                    section_id: c.section_id,
                    x: c.x,
                    y: c.y,
                },
                ticket_group_id: section.ticket_group_id,
                ticket_id: c.ticket_id,
                code: c.code.clone().filter(|x| !x.trim().is_empty()),
                ref1: c.ref1.clone().filter(|x| !x.trim().is_empty()),
                ref2: c.ref2.clone().filter(|x| !x.trim().is_empty()),
                member_number: c.member_number.clone().filter(|x| !x.trim().is_empty()),
                senior_id: c.senior_id.clone().filter(|x| !x.trim().is_empty()),
                previous_ticket_id: None,
                seat_kinds: seat_kinds.next().unwrap_or_default(),
            });
        }
        // The codes the buyer entered, each once: a code filling several seats is one code.
        let mut entered: Vec<String> = Vec::new();
        for code in order_lines.iter().filter_map(|l| l.code.as_deref()) {
            let key = kupa_domain::tickets::normalise_code(code);
            if !entered.contains(&key) {
                entered.push(key);
            }
        }
        let entered_refs: Vec<&str> = entered.iter().map(String::as_str).collect();
        let codes: Vec<TicketCodeRule> = self
            .tickets
            .code_rules(&entered_refs)
            .await?
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let numbers: Vec<&str> = order_lines
            .iter()
            .filter_map(|l| l.member_number.as_deref())
            .collect();
        self.check_members_are_the_buyers(login, &numbers).await?;
        let members = self.tickets.member_infos(&numbers).await?;
        let ref_ticket_ids: Vec<i64> = all_tickets
            .iter()
            .filter(|t| !t.ref_prompt.is_empty())
            .map(|t| t.id)
            .collect();
        let ref_options = self.tickets.ref_options(&ref_ticket_ids).await?;
        let priced_lines = kupa_domain::tickets::check_order(
            &order_lines,
            &TicketCatalogue {
                tickets: &types,
                codes: &codes,
                ref_options: &ref_options,
            },
            &Buyer {
                member_number: None,
                members: &members,
                entered_codes: &entered,
            },
            self.tickets.today(),
        )
        .map_err(AppError::from)?;
        priced_lines
            .into_iter()
            .map(|pl| {
                let t = all_tickets
                    .iter()
                    .find(|t| t.id == pl.ticket_id)
                    .map(|t| (*t).clone())
                    .ok_or_else(|| AppError::internal("a priced ticket vanished"))?;
                Ok((pl, t))
            })
            .collect()
    }

    /// A member's benefits are the member's: member numbers need the member logged in (mobile
    /// and SMS code; the login cookie came with the request).
    async fn check_members_are_the_buyers(
        &self,
        login: Option<&str>,
        numbers: &[&str],
    ) -> AppResult<()> {
        if numbers.is_empty() {
            return Ok(());
        }
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::LoginError, "log in to use member tickets")
            })?;
        if let Some(n) = numbers.iter().find(|n| {
            !account
                .members
                .iter()
                .any(|m| m.member.member_number == n.trim())
        }) {
            return Err(AppError::rejected(
                ErrorCode::MemberNotFound,
                format!("member {n} is not yours"),
            ));
        }
        Ok(())
    }

    /// The logged-in buyer's first member card valid today: where an order with no member ticket
    /// earns its points.
    pub(super) async fn valid_card_of(&self, login: Option<&str>) -> AppResult<Option<String>> {
        Ok(self
            .customers
            .customer_of_login(login)
            .await?
            .and_then(|account| {
                account
                    .members
                    .into_iter()
                    .find(|m| m.standing == kupa_domain::customer::MemberStanding::Active)
                    .map(|m| m.member.member_number)
            }))
    }

    /// Every ticket of a priced order still fits its seat (a wheelchair ticket on a wheelchair
    /// place, ...): checked again before the payment starts and when it is finalised, so an order
    /// priced under other rules (an older server, a catalogue changed since) never sells below price.
    pub(in crate::orders) async fn check_tickets_fit(&self, order: &Order) -> AppResult<()> {
        // An enrolment's tickets come from its season's ticket groups (decision 0040).
        let mut extra_groups = Vec::new();
        if let Some(e) = &order.enrollment
            && let Some(season) = self
                .store
                .seasons()
                .await?
                .into_iter()
                .find(|s| s.id == e.season_id)
        {
            extra_groups = season.ticket_groups();
        }
        for presentation_id in &order.presentations {
            let tickets: Vec<&OrderTicket> = order.tickets_of(*presentation_id).collect();
            self.check_presentation_tickets_fit(*presentation_id, &tickets, &extra_groups)
                .await?;
        }
        Ok(())
    }

    async fn check_presentation_tickets_fit(
        &self,
        presentation_id: PresentationId,
        tickets: &[&OrderTicket],
        extra_groups: &[i64],
    ) -> AppResult<()> {
        let info = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info;
        let plan_id = info.view.presentation.seatplan_id;
        let sections =
            crate::prices::sections_of(self.store.as_ref(), &info.view.presentation).await?;
        let seats = self.store.seats(plan_id).await?;
        let mut group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        group_ids.extend_from_slice(extra_groups);
        let groups = self.store.ticket_groups(&group_ids).await?;
        let types: Vec<TicketType> = groups
            .iter()
            .flat_map(|(_, ts)| ts.iter().map(crate::tickets::ticket_type))
            .collect();
        let places: Vec<SeatAddress> = tickets.iter().map(|t| t.address()).collect();
        let kinds = crate::seat_plan::seat_kinds_of(&places, &seats);
        let lines: Vec<OrderLine> = tickets
            .iter()
            .zip(kinds)
            .map(|(t, seat_kinds)| OrderLine {
                seat: t.address(),
                ticket_id: t.ticket_id,
                seat_kinds,
                ..OrderLine::default()
            })
            .collect();
        let chosen: Vec<&TicketType> = lines
            .iter()
            .map(|l| {
                types.iter().find(|t| t.id == l.ticket_id).ok_or_else(|| {
                    AppError::from(kupa_domain::tickets::TicketRuleError::TicketNotFound {
                        ticket_id: l.ticket_id,
                    })
                })
            })
            .collect::<AppResult<_>>()?;
        kupa_domain::tickets::check_seat_kinds(&lines, &chosen).map_err(AppError::from)
    }
}

/// A presentation's seat plan: its sections (each with the ticket group the screening sells
/// there) and seats, and the presentation its prices are in force for.
pub(super) struct Plan {
    pub(super) sections: Vec<crate::model::Section>,
    pub(super) seats: Vec<Seat>,
    pub(super) presentation: crate::model::Presentation,
}

impl Plan {
    pub(super) fn seat(&self, section_id: i64, x: i64, y: i64) -> Option<&Seat> {
        self.seats
            .iter()
            .find(|s| s.section_id == section_id && s.x == x && s.y == y)
    }

    pub(super) fn section(&self, id: i64) -> Option<&crate::model::Section> {
        self.sections.iter().find(|s| s.id == id)
    }
}

/// The order's tickets: each seat with its ticket, price and service charge, and a new
/// e-document key.
pub(super) fn order_tickets(
    presentation_id: PresentationId,
    lines_before: usize,
    cart_seats: &[CartSeat],
    priced: &[(PricedLine, Ticket)],
    prices: &[(Money, Money)],
    plan: &Plan,
) -> Vec<OrderTicket> {
    cart_seats
        .iter()
        .zip(priced)
        .zip(prices)
        .enumerate()
        .map(|(i, ((c, (pl, t)), (price, charge)))| {
            let seat = plan.seat(c.section_id, c.x, c.y);
            let section = plan.section(c.section_id);
            OrderTicket {
                line: (lines_before + i) as i64 + 1,
                presentation_id,
                section_id: c.section_id,
                x: c.x,
                y: c.y,
                section_name: section.map(|s| s.name.clone()).unwrap_or_default(),
                section_name_en: section.map(|s| s.name_en.clone()).unwrap_or_default(),
                row_name: seat.map(|s| s.row_name.clone()).unwrap_or_default(),
                seat_name: seat
                    .map(|s| s.seat_name.clone())
                    .unwrap_or_else(|| c.x.to_string()),
                ticket_id: t.id,
                ticket_name: t.name.clone(),
                ticket_name_en: t.name_en.clone(),
                price: *price,
                service_charge: *charge,
                is_sub_ticket: pl.is_sub_ticket,
                code: pl.code.clone(),
                ref1: c.ref1.clone().filter(|x| !x.is_empty()),
                ref2: c.ref2.clone().filter(|x| !x.is_empty()),
                member_number: pl
                    .member_number
                    .clone()
                    .or_else(|| c.member_number.clone().filter(|x| !x.is_empty())),
                points: pl.loyalty_points.unwrap_or(0),
                member_balance: pl.member_balance.unwrap_or(Money::ZERO),
                document_key: token(),
                scanned_at_ms: None,
                cancelled_at_ms: None,
            }
        })
        .collect()
}
