//! Pricing a cart: every seat held by the buyer, the seating rules, each seat's ticket under the
//! ticket rules (and the kind of seat it is tied to), products, the customer's details; the
//! result is the session's pending order.

use std::collections::HashSet;

use kupa_domain::checkout::Step;
use kupa_domain::money::{DEFAULT_CURRENCY, Money};
use kupa_domain::pricing::{self, ProductLine, TicketLine};
use kupa_domain::seating::{self, SeatAddress};

use crate::catalogue::PresentationInfo;
use crate::customer_info::CustomerInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Seat, Ticket};
use crate::seat_plan::plan_seat;
use kupa_domain::tickets::{
    Buyer, OrderLine, PricedLine, TicketCatalogue, TicketCodeRule, TicketType,
};

use super::*;
use crate::error::constraint;

const MAX_PRODUCT_QUANTITY: i64 = 20;

impl OrderService {
    /// Validates the whole cart against the session's holds and the rules, prices it on the
    /// server, and keeps it as the session's pending order. The steps, in order: the holds, the
    /// seating rules, the tickets, the products, the totals (and the client's amounts), the
    /// customer's details, then the order is written and the checkout moves on.
    pub async fn price_cart(
        &self,
        session: &str,
        login: Option<&str>,
        cart: CartInput,
    ) -> AppResult<PricedCart> {
        let now = self.clock.now_ms();
        let config = self.catalogue.site_config().await?;
        let ids: Vec<i64> = cart
            .presentations
            .iter()
            .map(|p| p.presentation_id)
            .collect();
        self.check_cart_presentations(&ids).await?;
        let mut parts = Vec::new();
        for part in &cart.presentations {
            let info = self.sellable(part.presentation_id).await?;
            if part.seats.is_empty() {
                return Err(invalid(ErrorCode::FormValidation, "the cart has no seats"));
            }
            let p = &info.view.presentation;
            self.check_holds(session, p.id, &part.seats, now).await?;
            let plan = Plan {
                sections: self.store.sections(p.seatplan_id).await?,
                seats: self.store.seats(p.seatplan_id).await?,
            };
            self.check_seating(session, &info, &part.seats, &plan)
                .await?;
            parts.push((info, plan));
        }
        let all_seats: Vec<CartSeat> = cart.seats().cloned().collect();
        seating::check_max_seats(
            all_seats.len(),
            config.max_seats_per_transaction.max(1) as usize,
        )
        .map_err(|v| AppError::rejected(v.code(), v.to_string()))?;
        let mut priced = Vec::new();
        for (part, (_, plan)) in cart.presentations.iter().zip(&parts) {
            priced.extend(self.price_tickets(login, &part.seats, plan).await?);
        }
        // The first presentation's complex sells the products; one business charges the service.
        let (first, _) = &parts[0];
        let (product_lines, products) = self.products(first, &cart.products).await?;
        let charge = self
            .store
            .service_charge(first.view.presentation.business_id)
            .await?;
        let lines: Vec<TicketLine> = priced
            .iter()
            .map(|(pl, _)| TicketLine {
                price: pl.price,
                own_service_charge: pl.service_charge,
                is_sub_ticket: pl.is_sub_ticket,
            })
            .collect();
        let totals = pricing::totals(
            &lines,
            &product_lines,
            charge.as_ref().map(crate::tickets::charge_rule).as_ref(),
        );
        check_client_amounts(&all_seats, cart.total, &totals)?;
        let customer = customer_details(cart.customer.clone(), &config)?;
        let mut tickets = Vec::new();
        let mut priced_rest = priced.as_slice();
        let mut totals_rest = totals.lines.as_slice();
        for (part, (_, plan)) in cart.presentations.iter().zip(&parts) {
            let n = part.seats.len();
            tickets.extend(order_tickets(
                part.presentation_id,
                tickets.len(),
                &part.seats,
                &priced_rest[..n],
                &totals_rest[..n],
                plan,
            ));
            priced_rest = &priced_rest[n..];
            totals_rest = &totals_rest[n..];
        }

        let mut order = Order {
            id: token(),
            reservation_number: reservation_number(),
            session_id: session.to_owned(),
            presentations: ids.clone(),
            status: OrderStatus::Pending,
            // Every sale today is the web shop's; mini-sites and partners set theirs.
            channel: Channel::Web,
            referral_mini_site_id: None,
            is_hold: false,
            // The customer logged in (login cookie) when the cart was priced: their order, read
            // back on their other devices and, later, in their customer area.
            customer_id: self
                .customers
                .customer_of_login(login)
                .await?
                .map(|a| a.customer.id),
            customer,
            locale: cart.locale.clone(),
            tickets_total: totals.tickets.minor(),
            products_total: totals.products.minor(),
            service_charge_total: totals.service_charge.minor(),
            service_charge_name: charge
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_else(|| "דמי טיפול".into()),
            total: totals.total.minor(),
            currency: DEFAULT_CURRENCY.into(),
            payment_id: None,
            created_at_ms: now,
            paid_at_ms: None,
            committed_at_ms: None,
            tickets,
            products,
            vouchers: self
                .voucher_lines(&cart.vouchers, totals.total.minor())
                .await?,
            kind: OrderKind::Tickets,
            system_vouchers: Vec::new(),
            donations: Vec::new(),
        };
        // Moving on (ticket choice, products, details) restarts the step timer of every
        // presentation of the cart; the holds follow. The cart's clock is the earliest of them.
        let step = cart.step.unwrap_or(Step::Tickets);
        let mut clock: Option<(i64, Step)> = None;
        for id in &ids {
            let checkout = self.booking.advance(session, *id, step).await?;
            if clock.is_none_or(|(deadline, _)| checkout.deadline_ms < deadline) {
                clock = Some((checkout.deadline_ms, checkout.step));
            }
        }
        let (expires_at_ms, step) = clock.unwrap_or((now, step));
        self.save_pending(&mut order, now).await?;
        if order.customer_id.is_none() {
            self.customers
                .note_verified_mobile(&order.id, login, &order.customer.mobile_number)
                .await?;
        }
        Ok(PricedCart {
            order,
            expires_at_ms,
            step,
        })
    }

    /// Every seat of the cart is held, live, by this session, and every such hold is in the cart.
    async fn check_holds(
        &self,
        session: &str,
        presentation_id: i64,
        seats: &[CartSeat],
        now: i64,
    ) -> AppResult<()> {
        let claims = self.claims.claims(presentation_id).await?;
        let mine: HashSet<SeatAddress> = claims
            .iter()
            .filter(|c| c.view().is_live_hold_of(session, now))
            .map(|c| c.address())
            .collect();
        let wanted: HashSet<SeatAddress> = seats.iter().map(CartSeat::address).collect();
        if wanted.len() != seats.len() {
            return Err(invalid(
                ErrorCode::FormValidation,
                "a seat appears twice in the cart; one ticket per seat",
            ));
        }
        if let Some(lost) = wanted.iter().find(|k| !mine.contains(k)) {
            return Err(AppError::rejected_with(
                ErrorCode::LockSeatError,
                "a seat in the cart is not held by you (its hold may have expired)",
                serde_json::json!({ "sectionId": lost.section_id, "x": lost.x, "y": lost.y }),
            ));
        }
        if mine.len() != wanted.len() {
            return Err(invalid(
                ErrorCode::CartSeatsMismatch,
                "the cart must have a ticket for every seat you hold",
            ));
        }
        Ok(())
    }

    /// The seating rules on one presentation's selection: no single empty seat, sofas whole, one
    /// price level (the configured most seats is checked on the whole cart).
    async fn check_seating(
        &self,
        session: &str,
        info: &PresentationInfo,
        cart_seats: &[CartSeat],
        plan: &Plan,
    ) -> AppResult<()> {
        let p = &info.view.presentation;
        let status = self
            .catalogue
            .seat_status(p.id, None, Some(session), &Default::default())
            .await?;
        let statuses = crate::seat_plan::rule_statuses(&status.seats, &plan.sections);
        let rule = |v: seating::SeatingViolation| AppError::rejected(v.code(), v.to_string());
        seating::check_single_seat_gap(p.seating_policy_id, &statuses).map_err(rule)?;
        seating::check_sofas(&statuses).map_err(rule)?;
        let chosen: Vec<_> = cart_seats
            .iter()
            .filter_map(|c| plan.seat(c.section_id, c.x, c.y))
            .map(|s| plan_seat(s, &plan.sections))
            .collect();
        seating::check_price_level(&chosen).map_err(rule)
    }

    /// Tickets: each from its seat's section's ticket group, under the spec's ticket rules (the
    /// kind of seat a ticket is tied to, codes, members, senior IDs, references, companions,
    /// multiply factors), priced here. Each line with the catalogue ticket it sells.
    async fn price_tickets(
        &self,
        login: Option<&str>,
        cart_seats: &[CartSeat],
        plan: &Plan,
    ) -> AppResult<Vec<(PricedLine, Ticket)>> {
        let group_ids: Vec<i64> = plan.sections.iter().map(|s| s.ticket_group_id).collect();
        let groups = self.store.ticket_groups(&group_ids).await?;
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

    /// Products sold at this complex, in sane quantities: the pricing's lines and the order's.
    async fn products(
        &self,
        info: &PresentationInfo,
        wanted: &[(i64, i64)],
    ) -> AppResult<(Vec<ProductLine>, Vec<OrderProduct>)> {
        let menu = self
            .store
            .products_for_location(info.view.location.id)
            .await?;
        let mut product_lines = Vec::new();
        let mut order_products = Vec::new();
        let mut seen = HashSet::new();
        for (id, qty) in wanted.iter().filter(|(_, q)| *q != 0) {
            if !(1..=MAX_PRODUCT_QUANTITY).contains(qty) || !seen.insert(*id) {
                return Err(invalid(
                    ErrorCode::FormValidation,
                    format!("product {id}: quantity must be 1 to {MAX_PRODUCT_QUANTITY}, once"),
                ));
            }
            let product = menu.iter().find(|m| m.id == *id).ok_or_else(|| {
                invalid(
                    ErrorCode::FormValidation,
                    format!("product {id} is not sold here"),
                )
            })?;
            product_lines.push(ProductLine {
                unit_price: Money(product.price),
                quantity: *qty,
            });
            order_products.push(OrderProduct {
                product_id: product.id,
                name: product.name.clone(),
                name_en: product.name_en.clone(),
                quantity: *qty,
                unit_price: product.price,
            });
        }
        Ok((product_lines, order_products))
    }

    /// Writes the pending order. Reservation numbers are short and random: on the rare
    /// collision, draw another.
    pub(super) async fn save_pending(&self, order: &mut Order, now: i64) -> AppResult<()> {
        let mut attempts = 0;
        loop {
            match self.orders.save_pending_order(order, now).await {
                Err(e)
                    if e.is_conflict_on(constraint::ORDERS_RESERVATION_NUMBER) && attempts < 5 =>
                {
                    attempts += 1;
                    order.reservation_number = reservation_number();
                }
                other => break Ok(other?),
            }
        }
    }

    /// Every ticket of a priced order still fits its seat (a wheelchair ticket on a wheelchair
    /// place, ...): checked again before the payment starts and when it is finalised, so an order
    /// priced under other rules (an older server, a catalogue changed since) never sells below price.
    pub(super) async fn check_tickets_fit(&self, order: &Order) -> AppResult<()> {
        for presentation_id in &order.presentations {
            let tickets: Vec<&OrderTicket> = order.tickets_of(*presentation_id).collect();
            self.check_presentation_tickets_fit(*presentation_id, &tickets)
                .await?;
        }
        Ok(())
    }

    async fn check_presentation_tickets_fit(
        &self,
        presentation_id: i64,
        tickets: &[&OrderTicket],
    ) -> AppResult<()> {
        let info = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info;
        let plan_id = info.view.presentation.seatplan_id;
        let sections = self.store.sections(plan_id).await?;
        let seats = self.store.seats(plan_id).await?;
        let group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
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

    /// The presentation a ticket order is for: one, for now. Several are checked for the spec's
    /// cart rule first (one auth profile, one business) and then refused, so a buyer learns the
    /// stricter reason when there is one.
    pub async fn the_order_presentation(&self, presentation_ids: &[i64]) -> AppResult<i64> {
        match presentation_ids {
            [one] => Ok(*one),
            [] => Err(invalid(
                ErrorCode::FormValidation,
                "the cart has no presentation",
            )),
            many => {
                self.check_compatible(many).await?;
                Err(invalid(
                    ErrorCode::OnePresentationPerOrder,
                    "buy one presentation per order",
                ))
            }
        }
    }

    /// The presentations of a cart: at least one, each once, and together under the spec's cart
    /// rule (one auth profile, one business).
    async fn check_cart_presentations(&self, ids: &[i64]) -> AppResult<()> {
        if ids.is_empty() {
            return Err(invalid(
                ErrorCode::FormValidation,
                "the cart has no presentation",
            ));
        }
        if ids.iter().enumerate().any(|(i, id)| ids[..i].contains(id)) {
            return Err(invalid(
                ErrorCode::FormValidation,
                "a presentation appears twice in the cart",
            ));
        }
        self.check_compatible(ids).await?;
        // Choosing a video-on-demand presentation of venue type 101 or 102 empties the cart of
        // the others (spec section 4); a cart that still mixes them is refused.
        if ids.len() > 1 {
            for id in ids {
                let info = self
                    .catalogue
                    .presentation(*id, &Default::default())
                    .await?
                    .info;
                if kupa_domain::catalogue::vod_clears_cart(info.view.venue.venue_type_id) {
                    return Err(AppError::rejected_with(
                        ErrorCode::OnePresentationPerOrder,
                        "a video-on-demand presentation is bought on its own",
                        serde_json::json!({ "presentationId": id }),
                    ));
                }
            }
        }
        Ok(())
    }

    /// The spec's cart rule: presentations of one cart must share their auth profile and business.
    pub async fn check_compatible(&self, presentation_ids: &[i64]) -> AppResult<()> {
        let mut first: Option<PresentationInfo> = None;
        for id in presentation_ids {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            if let Some(f) = &first {
                if f.view.presentation.auth_profile_id != info.view.presentation.auth_profile_id {
                    return Err(invalid(
                        ErrorCode::IncompatibleAuthProfile,
                        "these presentations cannot be bought together (auth profile)",
                    ));
                }
                if f.view.presentation.business_id != info.view.presentation.business_id {
                    return Err(invalid(
                        ErrorCode::IncompatibleBusiness,
                        "these presentations cannot be bought together (business)",
                    ));
                }
            } else {
                first = Some(info);
            }
        }
        Ok(())
    }
}

/// A presentation's seat plan: its sections and seats.
struct Plan {
    sections: Vec<crate::model::Section>,
    seats: Vec<Seat>,
}

impl Plan {
    fn seat(&self, section_id: i64, x: i64, y: i64) -> Option<&Seat> {
        self.seats
            .iter()
            .find(|s| s.section_id == section_id && s.x == x && s.y == y)
    }

    fn section(&self, id: i64) -> Option<&crate::model::Section> {
        self.sections.iter().find(|s| s.id == id)
    }
}

/// The client's amounts, if sent, must be the server's.
fn check_client_amounts(
    seats: &[CartSeat],
    total: Option<i64>,
    totals: &pricing::Totals,
) -> AppResult<()> {
    for (c, (price, _)) in seats.iter().zip(&totals.lines) {
        if c.amount.is_some_and(|a| a != price.minor()) {
            return Err(AppError::rejected_with(
                ErrorCode::PriceMismatch,
                "a ticket's price is not what you were shown",
                serde_json::json!({ "ticketId": c.ticket_id, "price": price.minor() }),
            ));
        }
    }
    if total.is_some_and(|t| t != totals.total.minor()) {
        return Err(AppError::rejected_with(
            ErrorCode::PriceMismatch,
            "the total is not what you were shown",
            serde_json::json!({ "total": totals.total.minor() }),
        ));
    }
    Ok(())
}

/// The customer's details, when sent, are the configured checkout fields, valid.
pub(super) fn customer_details(
    customer: Option<CustomerInfo>,
    config: &crate::site_config::SiteConfig,
) -> AppResult<CustomerInfo> {
    let Some(c) = customer else {
        return Ok(CustomerInfo::default());
    };
    let c = c.normalised();
    let problems = c.problems(config);
    if !problems.is_empty() {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "some details are missing or not valid",
            serde_json::json!({ "fields": problems }),
        ));
    }
    Ok(c)
}

/// The order's tickets: each seat with its ticket, price and service charge, and a new
/// e-document key.
fn order_tickets(
    presentation_id: i64,
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
                price: price.minor(),
                service_charge: charge.minor(),
                is_sub_ticket: pl.is_sub_ticket,
                code: pl.code.clone(),
                ref1: c.ref1.clone().filter(|x| !x.is_empty()),
                ref2: c.ref2.clone().filter(|x| !x.is_empty()),
                member_number: c.member_number.clone().filter(|x| !x.is_empty()),
                document_key: token(),
                scanned_at_ms: None,
                cancelled_at_ms: None,
            }
        })
        .collect()
}
