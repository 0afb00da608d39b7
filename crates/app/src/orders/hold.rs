//! Unpaid hold orders ("reserve and pay later", the cart's `isHold`; spec sections 1, 3, 4 and
//! 9; decision 0028).
//!
//! A logged-in customer with an active membership turns the session's priced cart into a hold
//! instead of paying it. The hold is the same pending order, marked `is_hold`, whose seats move
//! from the buyer session to the hold's own owner key (`hold:<order id>`) and stay claimed until
//! `hold_until`, the event's start less [`HOLD_CLOSES_BEFORE_EVENT_MS`]. Paying it later (from
//! the customer area or the confirmation) starts a payment of that order and goes through the one
//! finalisation path like any order: the claims move from held-by-the-hold to sold in the same
//! transaction. At `hold_until` the seat-claim sweeper frees the seats (announced on the seat
//! event stream) and [`OrderService::sweep_released_holds`] cancels the order, freeing and
//! announcing whatever is left; a payment that comes after that finds its seats gone and is
//! refunded by the finalisation, as any payment that lost its seats.
//!
//! Rules (spec section 4 "Order type"): login (`loginError`), an active membership
//! (`noValidMember`), no premium seat (`holdPremiumSeat`, whose params offer the regular order),
//! no system voucher spread over seats by auto-assignment (`holdSystemVoucher`, spec section 4's
//! auto-assignment rule for hold orders), and time left to pay and collect (`holdTooLate`).

use async_trait::async_trait;
use kupa_domain::customer::MemberStanding;
use kupa_domain::ids::ReservationId;
use kupa_domain::ids::{PresentationId, SessionId};
use kupa_domain::seating::SeatAddress;
use kupa_domain::tickets::CodeKind;
use serde::{Deserialize, Serialize};

use crate::accounts::CustomerAccount;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};

use super::*;

/// A hold must be paid and collected at least this long before the event (spec section 9).
pub const HOLD_CLOSES_BEFORE_EVENT_MS: i64 = 30 * 60_000;

/// The claim owner of a hold's seats: never a buyer session's id (those are random tokens), so no
/// session's unlock, extension or new cart touches them.
pub fn hold_owner(order_id: &ReservationId) -> SessionId {
    SessionId::new(format!("hold:{order_id}"))
}

/// When a hold on an event starting at `starts_at_ms` is released: 30 minutes before it.
pub fn hold_deadline(starts_at_ms: i64) -> i64 {
    starts_at_ms - HOLD_CLOSES_BEFORE_EVENT_MS
}

/// Where a hold stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum HoldState {
    /// Seats claimed, waiting to be paid until `hold_until`.
    Open,
    /// Paid: an ordinary reservation now.
    Paid,
    /// Not paid in time (or given up): the seats went back to sale.
    Released,
}

/// A hold with what the customer needs to see and pay it.
#[derive(Debug, Clone, PartialEq)]
pub struct HoldView {
    pub order: Order,
    /// Until when it may be paid; for a hold its customer gave up, when they did.
    pub hold_until_ms: i64,
    pub state: HoldState,
    /// Released because its customer gave it up, before its time ran out.
    pub given_up: bool,
    pub presentation: crate::catalogue::PresentationInfo,
}

/// A hold the sweeper released: its order and, for one of its presentations, the places it freed
/// there (those the seat-claim sweeper had not freed already). A hold of several presentations is
/// reported once per presentation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReleasedHold {
    pub order_id: ReservationId,
    pub presentation_id: PresentationId,
    pub freed: Vec<SeatAddress>,
}

/// The store of holds (the rest of a hold is an order, in the [`OrderStore`]).
#[async_trait]
pub trait HoldStore: Send + Sync {
    /// In one transaction: the session's pending order `order_id` becomes a hold of `customer_id`
    /// until `until`, owned by [`hold_owner`]; each of its tickets' live claims held by the session
    /// moves to that owner with `expires_at = until`; the order's open payments expire; the
    /// session's checkout of the presentation ends. False, with nothing written, when the order is
    /// no longer the session's pending order or a seat's claim was lost.
    async fn make_hold(
        &self,
        order: &Order,
        customer_id: i64,
        until: i64,
        now_ms: i64,
    ) -> StoreResult<bool>;

    /// `hold_until` of a hold order; None for an order that is not a hold.
    async fn hold_until(&self, order_id: &ReservationId) -> StoreResult<Option<i64>>;

    /// The ids of a customer's holds (any state), newest first, at most `limit`.
    async fn customer_holds(&self, customer_id: i64, limit: i64)
    -> StoreResult<Vec<ReservationId>>;

    /// Cancels every pending hold whose `hold_until` has passed and frees the claims it still
    /// has, each hold in its own transaction (the order's row lock first, as the finalisation
    /// takes it). Each is reported by exactly one caller, however many sweep at once.
    async fn release_due_holds(&self, now_ms: i64) -> StoreResult<Vec<ReleasedHold>>;
    /// Releases one hold now, whatever its `hold_until` (the customer gives it up): the same
    /// transaction as the sweeper's for one hold, which also sets `hold_until` to `now_ms` (when
    /// it ended). None, with nothing written, when it is no pending hold any more (paid, or
    /// released first by someone else).
    async fn release_hold(
        &self,
        order_id: &ReservationId,
        now_ms: i64,
    ) -> StoreResult<Option<Vec<ReleasedHold>>>;
}

fn hold_store(s: &OrderService) -> AppResult<&Arc<dyn HoldStore>> {
    s.holds
        .as_ref()
        .ok_or_else(|| AppError::internal("hold orders are not wired"))
}

impl OrderService {
    /// With the store of hold orders (the wiring gives it; without it a hold is refused).
    pub fn with_holds(mut self, holds: Arc<dyn HoldStore>) -> OrderService {
        self.holds = Some(holds);
        self
    }

    /// The logged-in customer, if their membership is active: who may hold an order.
    async fn holder(&self, login: Option<&str>) -> AppResult<CustomerAccount> {
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::LoginError, "log in to reserve and pay later")
            })?;
        if !account
            .members
            .iter()
            .any(|m| m.standing == MemberStanding::Active)
        {
            return Err(AppError::rejected(
                ErrorCode::NoValidMember,
                "reserving to pay later needs an active membership",
            ));
        }
        Ok(account)
    }

    /// The spec's commit with `isHold`: the session's priced cart becomes an unpaid hold of the
    /// logged-in member, its seats kept until 30 minutes before the event.
    pub async fn make_hold(
        &self,
        session: &SessionId,
        login: Option<&str>,
        presentation_id: PresentationId,
        captcha_token: &str,
    ) -> AppResult<Order> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let holds = hold_store(self)?;
        let account = self.holder(login).await?;
        let now = self.clock.now_ms();
        let order = self
            .orders
            .pending_order(session, CartKey::Presentation(presentation_id))
            .await?
            .ok_or_else(|| {
                invalid(
                    ErrorCode::NotFound,
                    "there is no priced cart to hold: send the cart first",
                )
            })?;
        if order.customer.email.is_empty() && order.customer.mobile_number.is_empty() {
            return Err(invalid(
                ErrorCode::FormValidation,
                "the customer details are missing: send them with the cart",
            ));
        }
        if order.presentations.len() > 1 {
            // A hold's time, premium seats and release are a screening's: an order of several
            // is paid now.
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "an unpaid hold is for one screening; pay now for an order of several",
                serde_json::json!({ "offer": "regularOrder" }),
            ));
        }
        let info = self.sellable(presentation_id).await?;
        let until = hold_deadline(info.view.presentation.starts_at_ms);
        if now >= until {
            return Err(AppError::rejected_with(
                ErrorCode::HoldTooLate,
                "a hold must be paid and collected at least 30 minutes before the event; pay now instead",
                serde_json::json!({ "payBy": kupa_domain::time::ms_to_rfc3339(until), "offer": "regularOrder" }),
            ));
        }
        self.check_no_premium(&order, &info).await?;
        self.check_no_spread_system_voucher(&order).await?;
        self.check_tickets_fit(&order).await?;
        // Through the seat arbiter (decision 0059): the seats are the hold's owner's in memory,
        // until the hold's own deadline, as soon as the hold is written.
        let places: Vec<(PresentationId, SeatAddress)> = order
            .tickets
            .iter()
            .map(|t| (t.presentation_id, t.address()))
            .collect();
        let owner = hold_owner(&order.id);
        let made = self
            .booking
            .settle(
                &places,
                None,
                None,
                holds.make_hold(&order, account.customer.id, until, now),
                |made| {
                    if !*made {
                        return Vec::new();
                    }
                    places
                        .iter()
                        .map(|(pid, p)| {
                            let held = crate::booking::Settled::HeldFor {
                                session: owner.clone(),
                                expires_at_ms: until,
                            };
                            (*pid, *p, held)
                        })
                        .collect()
                },
            )
            .await?;
        if !made {
            return Err(AppError::rejected(
                ErrorCode::LockSeatError,
                "a seat of the cart is no longer held by you (its hold may have expired)",
            ));
        }
        tracing::info!(order = %order.id, hold_until = until, "order held unpaid");
        self.orders
            .order(&order.id)
            .await?
            .ok_or_else(|| AppError::internal("a hold vanished"))
    }

    /// Spec section 4: a hold cannot include a premium seat; the answer names the seats and
    /// offers the regular (paid) order instead.
    async fn check_no_premium(
        &self,
        order: &Order,
        info: &crate::catalogue::PresentationInfo,
    ) -> AppResult<()> {
        let seats = self.store.seats(info.view.presentation.seatplan_id).await?;
        let premium: Vec<serde_json::Value> = order
            .tickets
            .iter()
            .filter(|t| {
                seats
                    .iter()
                    .any(|s| s.premium && s.section_id == t.section_id && s.x == t.x && s.y == t.y)
            })
            .map(|t| {
                serde_json::json!({ "sectionId": t.section_id, "x": t.x, "y": t.y,
                                    "rowName": t.row_name, "seatName": t.seat_name })
            })
            .collect();
        if premium.is_empty() {
            return Ok(());
        }
        Err(AppError::rejected_with(
            ErrorCode::HoldPremiumSeat,
            "a premium seat cannot be held unpaid; pay now (a regular order) or choose other seats",
            serde_json::json!({ "seats": premium, "offer": "regularOrder" }),
        ))
    }

    /// Spec section 4's auto-assignment rule for hold orders: a system voucher is never put on
    /// several seats by itself in a hold, so a hold whose voucher code covers more than one seat
    /// is refused (the buyer applies it to one seat, or pays now).
    async fn check_no_spread_system_voucher(&self, order: &Order) -> AppResult<()> {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for t in order.tickets.iter().filter(|t| !t.is_sub_ticket) {
            if let Some(c) = t.code.as_deref() {
                *counts.entry(c).or_default() += 1;
            }
        }
        let spread: Vec<&str> = counts
            .iter()
            .filter(|(_, n)| **n > 1)
            .map(|(c, _)| *c)
            .collect();
        if spread.is_empty() {
            return Ok(());
        }
        let rules = self.tickets.code_rules(&spread).await?;
        if let Some((_, rule)) = rules.iter().find(|(_, r)| r.kind == CodeKind::Voucher) {
            return Err(AppError::rejected_with(
                ErrorCode::HoldSystemVoucher,
                "in a hold a system voucher pays for one seat only; pay now to use it on several",
                serde_json::json!({ "code": rule.code, "offer": "regularOrder" }),
            ));
        }
        Ok(())
    }

    /// A hold of the logged-in customer, with its state. Another customer's hold, an order that is
    /// no hold, or none: `notFound`, alike.
    pub async fn hold(&self, login: Option<&str>, id: &ReservationId) -> AppResult<HoldView> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such hold");
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in to see your holds"))?;
        let holds = hold_store(self)?;
        let until = holds.hold_until(id).await?.ok_or_else(no_such)?;
        let order = self.orders.order(id).await?.ok_or_else(no_such)?;
        if order.customer_id != Some(account.customer.id) || !order.is_hold {
            return Err(no_such());
        }
        self.hold_view(order, until).await
    }

    async fn hold_view(&self, order: Order, hold_until_ms: i64) -> AppResult<HoldView> {
        let state = match order.status {
            OrderStatus::Paid => HoldState::Paid,
            OrderStatus::Pending if self.clock.now_ms() < hold_until_ms => HoldState::Open,
            OrderStatus::Cancelled if order.paid_at_ms.is_some() => HoldState::Paid,
            _ => HoldState::Released,
        };
        let first = order
            .first_presentation()
            .ok_or_else(|| AppError::internal("a hold without a presentation"))?;
        let presentation = self
            .catalogue
            .presentation(first, &Default::default())
            .await?
            .info;
        let given_up = state == HoldState::Released
            && hold_until_ms < hold_deadline(presentation.view.presentation.starts_at_ms);
        Ok(HoldView {
            order,
            hold_until_ms,
            state,
            given_up,
            presentation,
        })
    }

    /// The logged-in customer's holds, newest first: open ones to pay, and the recent released or
    /// paid ones for the record.
    pub async fn customer_holds(&self, login: Option<&str>) -> AppResult<Vec<HoldView>> {
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in to see your holds"))?;
        let holds = hold_store(self)?;
        let mut out = Vec::new();
        for id in holds.customer_holds(account.customer.id, 20).await? {
            let (Some(until), Some(order)) =
                (holds.hold_until(&id).await?, self.orders.order(&id).await?)
            else {
                continue;
            };
            out.push(self.hold_view(order, until).await?);
        }
        Ok(out)
    }

    /// Switches a hold to paid: starts a payment of the hold's order for its customer, through
    /// the same gateway and the same finalisation as any order. Refused once the hold is released
    /// (`holdReleased`) or paid (`ORDER_ALREADY_PAID`).
    pub async fn pay_hold(
        &self,
        session: &SessionId,
        login: Option<&str>,
        id: &ReservationId,
        request: StartPayment,
    ) -> AppResult<(Payment, String, i64)> {
        crate::ports::require_captcha(self.captcha.as_ref(), &request.captcha_token).await?;
        let view = self.hold(login, id).await?;
        let until = view.hold_until_ms;
        let order = view.order;
        match view.state {
            HoldState::Open => {}
            HoldState::Paid => {
                return Err(AppError::rejected(
                    ErrorCode::OrderAlreadyPaid,
                    "this hold is paid already",
                ));
            }
            HoldState::Released => {
                return Err(AppError::rejected_with(
                    ErrorCode::HoldReleased,
                    "this hold was not paid in time and its seats went back to sale",
                    serde_json::json!({ "holdUntil": kupa_domain::time::ms_to_rfc3339(view.hold_until_ms) }),
                ));
            }
        }
        if request.total.is_some_and(|t| t != order.total) {
            return Err(AppError::rejected_with(
                ErrorCode::PriceMismatch,
                "the total is not what you were shown",
                serde_json::json!({ "total": order.total }),
            ));
        }
        Self::check_installments(request.installments)?;
        self.check_tickets_fit(&order).await?;
        let (payment, url) = self
            .open_payment(
                &order,
                session,
                order.customer_id,
                request,
                "hold paid in full by vouchers",
            )
            .await?;
        if payment.status.is_paid() {
            return Ok((payment, url, until));
        }
        tracing::info!(order = %order.id, payment = %payment.id, "hold payment started");
        Ok((payment, url, until))
    }

    /// The customer gives an open hold up before its time: the order is cancelled (nothing was
    /// paid, so nothing is refunded) and its seats go back to sale at once, announced on the seat
    /// event stream. A payment of the hold racing this is decided by the order's lock: if the
    /// finalisation came first the hold is paid (`ORDER_ALREADY_PAID`); if the release came first
    /// a payment that still authorizes is refunded once by the finalisation (`holdsLost`), as at
    /// the release by time. A hold released already answers `holdReleased`.
    pub async fn release_hold(
        &self,
        login: Option<&str>,
        id: &ReservationId,
    ) -> AppResult<HoldView> {
        let view = self.hold(login, id).await?;
        let settled = |view: &HoldView| match view.state {
            HoldState::Open => None,
            HoldState::Paid => Some(AppError::rejected(
                ErrorCode::OrderAlreadyPaid,
                "this hold is paid: it is a reservation now, cancelled as one",
            )),
            HoldState::Released => Some(AppError::rejected_with(
                ErrorCode::HoldReleased,
                "this hold was released already and its seats went back to sale",
                serde_json::json!({ "holdUntil": kupa_domain::time::ms_to_rfc3339(view.hold_until_ms) }),
            )),
        };
        if let Some(refused) = settled(&view) {
            return Err(refused);
        }
        let touch: Vec<(PresentationId, SeatAddress)> = view
            .order
            .tickets
            .iter()
            .map(|t| (t.presentation_id, t.address()))
            .collect();
        let released = self
            .booking
            .settle(
                &touch,
                None,
                None,
                hold_store(self)?.release_hold(id, self.clock.now_ms()),
                |released| freed_holds(released.iter().flatten()),
            )
            .await?;
        let Some(released) = released else {
            // Someone came first under the order's lock: a payment's finalisation, or another
            // release. Say which.
            let now = self.hold(login, id).await?;
            return Err(settled(&now)
                .unwrap_or_else(|| AppError::internal("a hold neither released nor settled")));
        };
        tracing::info!(order = %id, "unpaid hold given up by its customer");
        for r in &released {
            self.booking.publish(
                r.presentation_id,
                crate::seat_events::SeatChangeKind::Released,
                r.freed.iter().copied(),
            );
        }
        self.hold(login, id).await
    }

    /// Releases the holds whose time ran out (30 minutes before their event): the order is
    /// cancelled and the seats it still claims go back to sale, announced on the seat event
    /// stream. Returns how many holds it released.
    pub async fn sweep_released_holds(&self) -> AppResult<usize> {
        let Some(holds) = self.holds.as_ref() else {
            return Ok(0);
        };
        let released = holds.release_due_holds(self.clock.now_ms()).await?;
        self.booking.settled(freed_holds(released.iter()));
        for r in &released {
            tracing::info!(order = %r.order_id, seats = r.freed.len(), "unpaid hold released");
            self.booking.publish(
                r.presentation_id,
                crate::seat_events::SeatChangeKind::Expired,
                r.freed.iter().copied(),
            );
        }
        let mut orders: Vec<&str> = released.iter().map(|r| r.order_id.as_str()).collect();
        orders.dedup();
        Ok(orders.len())
    }
}

/// The seats released holds freed, for the seat arbiter.
fn freed_holds<'a>(
    released: impl Iterator<Item = &'a ReleasedHold>,
) -> Vec<(PresentationId, SeatAddress, crate::booking::Settled)> {
    released
        .flat_map(|r| {
            r.freed
                .iter()
                .map(|p| (r.presentation_id, *p, crate::booking::Settled::Freed))
        })
        .collect()
}
