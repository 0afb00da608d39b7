//! Pricing a cart: every seat held by the buyer, the seating rules, each seat's ticket under the
//! ticket rules (and the kind of seat it is tied to), products, the customer's details; the
//! result is the session's pending order.

use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::HashSet;

use kupa_domain::checkout::Step;
use kupa_domain::money::{DEFAULT_CURRENCY, Money};
use kupa_domain::pricing::{self, ProductLine, TicketLine};
use kupa_domain::seating::{self, SeatAddress};

use crate::catalogue::PresentationInfo;
use crate::customer_info::CustomerInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::seat_plan::plan_seat;

use super::*;
use crate::error::constraint;

mod enroll;
mod tickets;
use tickets::{Plan, order_tickets};

const MAX_PRODUCT_QUANTITY: i64 = 20;

/// The mini-site that refers the order: the channel's. The spec's cart may repeat its id
/// (`referralMiniSiteId`), never name another one or one without its `miniSiteUrl`.
fn referral(channel: &crate::catalogue::Channel, repeated: Option<i64>) -> AppResult<Option<i64>> {
    let site = channel.mini_site.as_ref().map(|m| m.id);
    match repeated {
        Some(id) if site != Some(id) => Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "referralMiniSiteId must be the id of the mini-site named by miniSiteUrl",
            serde_json::json!({ "fields": ["referralMiniSiteId"] }),
        )),
        _ => Ok(site),
    }
}

impl OrderService {
    /// Validates the whole cart against the session's holds and the rules, prices it on the
    /// server, and keeps it as the session's pending order. The steps, in order: the holds, the
    /// seating rules, the tickets, the products, the totals (and the client's amounts), the
    /// customer's details, then the order is written and the checkout moves on.
    pub async fn price_cart(
        &self,
        session: &SessionId,
        login: Option<&str>,
        cart: CartInput,
    ) -> AppResult<PricedCart> {
        let now = self.clock.now_ms();
        let config = self.catalogue.site_config().await?;
        let ids: Vec<PresentationId> = cart
            .presentations
            .iter()
            .map(|p| p.presentation_id)
            .collect();
        self.check_cart_presentations(&ids).await?;
        let channel = self
            .catalogue
            .channel(cart.mini_site_url.as_deref())
            .await?;
        let referral = referral(&channel, cart.referral_mini_site_id)?;
        let mut parts = Vec::new();
        for part in &cart.presentations {
            let info = self.sellable_in(part.presentation_id, &channel).await?;
            if part.seats.is_empty() {
                return Err(invalid(ErrorCode::FormValidation, "the cart has no seats"));
            }
            let p = &info.view.presentation;
            self.check_holds(session, p.id, &part.seats, now).await?;
            let plan = Plan {
                sections: crate::prices::sections_of(self.store.as_ref(), p).await?,
                seats: self.store.seats(p.seatplan_id).await?,
                presentation: p.clone(),
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
        let mut enrollment = None;
        if let Some(choice) = &cart.enrollment {
            let (lines, e) = self.price_enrollment(login, choice, &cart).await?;
            priced = lines;
            enrollment = Some(e);
        } else {
            for (part, (_, plan)) in cart.presentations.iter().zip(&parts) {
                priced.extend(self.price_tickets(login, &part.seats, plan).await?);
            }
        }
        // The first presentation's complex sells the products; one business charges the service.
        let (first, _) = &parts[0];
        let (product_lines, products) = self.products(first, &cart.products).await?;
        let charge =
            crate::prices::service_charge_of(self.store.as_ref(), &first.view.presentation).await?;
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
            id: token().into(),
            reservation_number: reservation_number(),
            session_id: session.to_owned(),
            presentations: ids.clone(),
            status: OrderStatus::Pending,
            // The web shop's, or the mini-site's that referred it (partners set theirs).
            channel: if referral.is_some() {
                Channel::MiniSite
            } else {
                Channel::Web
            },
            referral_mini_site_id: referral,
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
            tickets_total: totals.tickets,
            products_total: totals.products,
            service_charge_total: totals.service_charge,
            service_charge_name: charge
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_else(|| "דמי טיפול".into()),
            total: totals.total,
            currency: DEFAULT_CURRENCY.into(),
            payment_id: None,
            created_at_ms: now,
            paid_at_ms: None,
            committed_at_ms: None,
            tickets,
            products,
            vouchers: self
                .voucher_lines(session, &cart.vouchers, totals.total)
                .await?,
            kind: OrderKind::Tickets,
            system_vouchers: Vec::new(),
            donations: Vec::new(),
            memberships: Vec::new(),
            points_member: None,
            points_earned: 0,
            enrollment,
            waiver: None,
        };
        order.points_member =
            earning_member(&order.tickets, self.valid_card_of(login).await?.as_deref());
        if order.points_member.is_some() {
            order.points_earned = self.loyalty.earned(&order);
        }
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
        if order.enrollment.is_some() {
            // A season ticket on a wheelchair place, ...: refused now rather than at payment.
            self.check_tickets_fit(&order).await?;
        }
        self.save_pending(&mut order, now).await?;
        if order.customer_id.is_none() {
            self.customers
                .note_verified_mobile(order.id.as_str(), login, &order.customer.mobile_number)
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
        session: &SessionId,
        presentation_id: PresentationId,
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
        session: &SessionId,
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
                unit_price: product.price,
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
                Ok(Err(Shortfall::VoucherBalance { .. })) => {
                    break Err(AppError::rejected(
                        ErrorCode::VoucherBalance,
                        "the voucher's balance is held by another order now: לא נותרה יתרה למימוש הטבה",
                    ));
                }
                Ok(Err(Shortfall::Points { .. })) => {
                    break Err(AppError::rejected(
                        ErrorCode::MemberNoneAvailable,
                        "the member's points are held by another order now",
                    ));
                }
                Ok(Err(Shortfall::PassBalance { .. })) => {
                    break Err(AppError::rejected(
                        ErrorCode::MemberNoneAvailable,
                        "the pass's balance is held by another order now",
                    ));
                }
                Ok(Ok(())) => break Ok(()),
                Err(e) => break Err(e.into()),
            }
        }
    }

    /// The presentation a ticket order is for: one, for now. Several are checked for the spec's
    /// cart rule first (one auth profile, one business) and then refused, so a buyer learns the
    /// stricter reason when there is one.
    pub async fn the_order_presentation(
        &self,
        presentation_ids: &[PresentationId],
    ) -> AppResult<PresentationId> {
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
    async fn check_cart_presentations(&self, ids: &[PresentationId]) -> AppResult<()> {
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
    pub async fn check_compatible(&self, presentation_ids: &[PresentationId]) -> AppResult<()> {
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

/// The client's amounts, if sent, must be the server's.
fn check_client_amounts(
    seats: &[CartSeat],
    total: Option<Money>,
    totals: &pricing::Totals,
) -> AppResult<()> {
    for (c, (price, _)) in seats.iter().zip(&totals.lines) {
        if c.amount.is_some_and(|a| a != *price) {
            return Err(AppError::rejected_with(
                ErrorCode::PriceMismatch,
                "a ticket's price is not what you were shown",
                serde_json::json!({ "ticketId": c.ticket_id, "price": price.minor() }),
            ));
        }
    }
    if total.is_some_and(|t| t != totals.total) {
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
