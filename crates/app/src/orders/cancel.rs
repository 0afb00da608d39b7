//! Cancelling a paid reservation, whole or in part (spec: POST /reservations/{id}/cancel), and
//! the refunds it owes. Decision 0022 says why it is shaped so; docs/api.md, "Cancellation and
//! refunds", writes the arithmetic out with a worked example.
//!
//! The arithmetic ([`plan`]) is pure and runs inside the store's cancellation transaction, on the
//! order, its payment and its earlier refunds as read under the order's lock: two cancels (or a
//! cancel and a finalisation) take turns, so the money goes back once.

use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult, ErrorCode};

use super::*;

/// How a cancellation service charge is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FeeAmount {
    /// Agorot.
    Fixed(i64),
    /// Basis points (1 % = 100) of the value cancelled (per ticket) or of the order's total (per
    /// order), rounded half up to the agora.
    PercentBp(i64),
}

/// Whether the charge applies to each ticket cancelled or once to the order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FeeScope {
    PerTicket,
    PerOrder,
}

/// The cancellation service charge (spec section 9): kept by the cinema, never refunded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CancellationFee {
    pub amount: FeeAmount,
    pub scope: FeeScope,
}

impl CancellationFee {
    /// "fixed:500:perTicket", "percent:10:perOrder" (percent with up to two decimals), or "none".
    pub fn parse(s: &str) -> Result<Option<CancellationFee>, String> {
        let s = s.trim();
        if s.eq_ignore_ascii_case("none") || s.is_empty() {
            return Ok(None);
        }
        let parts: Vec<&str> = s.split(':').collect();
        let [kind, value, scope] = parts[..] else {
            return Err(format!(
                "cancellation fee {s:?}: expected kind:value:scope, e.g. fixed:500:perTicket"
            ));
        };
        let amount = match kind {
            "fixed" => {
                FeeAmount::Fixed(value.parse::<i64>().ok().filter(|v| *v >= 0).ok_or_else(
                    || format!("cancellation fee {s:?}: agorot must be a whole number"),
                )?)
            }
            "percent" => FeeAmount::PercentBp(
                percent_bp(value)
                    .filter(|bp| (0..=10_000).contains(bp))
                    .ok_or_else(|| {
                        format!(
                            "cancellation fee {s:?}: percent must be 0 to 100, two decimals at most"
                        )
                    })?,
            ),
            other => return Err(format!("cancellation fee {s:?}: unknown kind {other:?}")),
        };
        let scope = match scope {
            "perTicket" => FeeScope::PerTicket,
            "perOrder" => FeeScope::PerOrder,
            other => return Err(format!("cancellation fee {s:?}: unknown scope {other:?}")),
        };
        Ok(Some(CancellationFee { amount, scope }))
    }
}

/// "12.5" → 1250 basis points.
fn percent_bp(s: &str) -> Option<i64> {
    let (whole, frac) = s.split_once('.').unwrap_or((s, ""));
    if frac.len() > 2 || whole.is_empty() || !whole.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac = format!("{frac:0<2}");
    Some(whole.parse::<i64>().ok()? * 100 + frac.parse::<i64>().ok()?)
}

/// The configured cancellation rules.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CancellationPolicy {
    /// None: no charge.
    pub fee: Option<CancellationFee>,
    /// Cancellations close this many minutes before the event starts, unless the presentation
    /// sets its own window (`cancellationWindowMinutes` in the catalogue file).
    pub window_minutes: i64,
    /// Payments made with these cannot be refunded online (BALANCE_IS_DUE).
    pub not_refundable_online: Vec<PaymentMethod>,
}

impl Default for CancellationPolicy {
    fn default() -> CancellationPolicy {
        CancellationPolicy {
            fee: Some(CancellationFee {
                amount: FeeAmount::Fixed(500),
                scope: FeeScope::PerTicket,
            }),
            window_minutes: 120,
            not_refundable_online: Vec::new(),
        }
    }
}

/// What the buyer asks to cancel.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CancelRequest {
    /// Ticket lines (`seats[].line` of the reservation); None: the whole order.
    pub lines: Option<Vec<i64>>,
    /// Compute and answer, write nothing (the dialog's preview).
    pub dry_run: bool,
}

/// Where a refund goes back to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "to")]
pub enum RefundTarget {
    /// The order's payment at its provider (card, saved card, PayPal, Blik, PayU).
    Payment { payment_id: String },
    /// A voucher's balance (order_vouchers), by its normalised code.
    Voucher { code: String },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum RefundStatus {
    /// Not yet confirmed by the provider: retried by the sweeper.
    Pending,
    Done,
}

impl RefundStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            RefundStatus::Pending => "pending",
            RefundStatus::Done => "done",
        }
    }
    pub fn parse(s: &str) -> Option<RefundStatus> {
        match s {
            "pending" => Some(RefundStatus::Pending),
            "done" => Some(RefundStatus::Done),
            _ => None,
        }
    }
}

/// One row of the refund ledger, keyed by its cancellation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    /// `{cancellation id}:payment` or `{cancellation id}:voucher:{code}`; the provider's
    /// idempotency key too.
    pub id: String,
    pub cancellation_id: String,
    pub order_id: String,
    pub target: RefundTarget,
    pub amount: i64,
    pub status: RefundStatus,
    pub attempts: i64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// A cancellation as written (or, for a dry run, as it would be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cancellation {
    pub id: String,
    pub order_id: String,
    /// Ticket lines cancelled, main tickets with their sub tickets.
    pub lines: Vec<i64>,
    /// Nothing of the order is left after it.
    pub whole: bool,
    /// Price and own service charge of the tickets cancelled, plus (with the last ticket) the
    /// products and the order's per-order service charge.
    pub value: i64,
    /// The cancellation service charge kept.
    pub fee: i64,
    /// `value - fee`, split over `refunds`.
    pub refund: i64,
    pub refunds: Vec<Refund>,
    pub created_at_ms: i64,
    pub dry_run: bool,
}

/// Why the arithmetic refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CancelRefusal {
    /// No line left to cancel (all cancelled already, or none named).
    NothingToCancel,
    /// A named line is not a ticket of this order.
    UnknownLine(i64),
    /// A ticket already admitted at the door: only the box office can take it back.
    BoxOfficeOnly(Vec<i64>),
    /// The order is not paid (pending, failed).
    NotPaid,
}

impl From<CancelRefusal> for AppError {
    fn from(r: CancelRefusal) -> AppError {
        match r {
            CancelRefusal::NothingToCancel => AppError::rejected(
                ErrorCode::NothingToCancel,
                "nothing of this reservation is left to cancel",
            ),
            CancelRefusal::NotPaid => AppError::rejected(
                ErrorCode::NothingToCancel,
                "this reservation is not paid; there is nothing to cancel",
            ),
            CancelRefusal::UnknownLine(line) => AppError::rejected_with(
                ErrorCode::FormValidation,
                format!("line {line} is not a ticket of this reservation"),
                serde_json::json!({ "line": line }),
            ),
            CancelRefusal::BoxOfficeOnly(lines) => AppError::rejected_with(
                ErrorCode::TicketCancellationsAreNoLongerPossible,
                "a ticket already admitted at the door can be cancelled only at the box office",
                serde_json::json!({ "reason": "boxOfficeOnly", "lines": lines }),
            ),
        }
    }
}

/// Everything [`plan`] reads, as the store read it under the order's lock.
#[derive(Debug, Clone)]
pub struct CancelFacts<'a> {
    pub order: &'a Order,
    /// The payment that paid the order (None when vouchers paid all of it).
    pub payment: Option<&'a Payment>,
    /// Every refund of the order so far.
    pub previous: &'a [Refund],
    /// The per-order charge already kept by earlier cancellations.
    pub fee_charged: i64,
}

/// The lines of each ticket: a main ticket and the sub tickets its multiply factor made, which
/// follow it. A partial cancel takes or leaves a group whole.
pub fn ticket_groups(tickets: &[OrderTicket]) -> Vec<Vec<&OrderTicket>> {
    let mut groups: Vec<Vec<&OrderTicket>> = Vec::new();
    for t in tickets {
        match groups.last_mut() {
            Some(g) if t.is_sub_ticket => g.push(t),
            _ => groups.push(vec![t]),
        }
    }
    groups
}

/// The cancellation the request makes of the order as it stands: which lines, the value, the fee
/// and where each agora of the refund goes. Pure; the store runs it inside its transaction.
pub fn plan(
    facts: &CancelFacts<'_>,
    request: &CancelRequest,
    fee: Option<CancellationFee>,
    id: &str,
    now_ms: i64,
) -> Result<Cancellation, CancelRefusal> {
    let order = facts.order;
    if order.status != OrderStatus::Paid {
        return if order.status == OrderStatus::Cancelled && order.paid_at_ms.is_some() {
            Err(CancelRefusal::NothingToCancel)
        } else {
            Err(CancelRefusal::NotPaid)
        };
    }
    let groups = ticket_groups(&order.tickets);
    if let Some(lines) = &request.lines
        && let Some(bad) = lines
            .iter()
            .find(|l| !order.tickets.iter().any(|t| t.line == **l))
    {
        return Err(CancelRefusal::UnknownLine(*bad));
    }
    let live = |g: &&Vec<&OrderTicket>| g.iter().all(|t| t.cancelled_at_ms.is_none());
    // A group is taken when any of its lines is named: a ticket with a multiply factor is never split.
    let chosen: Vec<&Vec<&OrderTicket>> = groups
        .iter()
        .filter(live)
        .filter(|g| match &request.lines {
            None => true,
            Some(lines) => g.iter().any(|t| lines.contains(&t.line)),
        })
        .collect();
    if chosen.is_empty() {
        return Err(CancelRefusal::NothingToCancel);
    }
    let admitted: Vec<i64> = chosen
        .iter()
        .flat_map(|g| g.iter())
        .filter(|t| t.scanned_at_ms.is_some())
        .map(|t| t.line)
        .collect();
    if !admitted.is_empty() {
        return Err(CancelRefusal::BoxOfficeOnly(admitted));
    }
    let left = groups.iter().filter(live).count();
    let whole = chosen.len() == left;
    let group_value =
        |g: &Vec<&OrderTicket>| -> i64 { g.iter().map(|t| t.price + t.service_charge).sum() };
    let tickets_value: i64 = chosen.iter().map(|g| group_value(g)).sum();
    // The products and the per-order part of the service charge go back with the last ticket.
    let extras = if whole {
        let own: i64 = order.tickets.iter().map(|t| t.service_charge).sum();
        order.products_total + (order.service_charge_total - own).max(0)
    } else {
        0
    };
    let value = tickets_value + extras;
    let fee = match fee {
        None => 0,
        Some(CancellationFee {
            amount,
            scope: FeeScope::PerTicket,
        }) => chosen
            .iter()
            .map(|g| match amount {
                FeeAmount::Fixed(a) => a,
                FeeAmount::PercentBp(bp) => Money(group_value(g)).percent_bp(bp).minor(),
            })
            .sum(),
        Some(CancellationFee {
            amount,
            scope: FeeScope::PerOrder,
        }) => {
            let whole_fee = match amount {
                FeeAmount::Fixed(a) => a,
                FeeAmount::PercentBp(bp) => Money(order.total).percent_bp(bp).minor(),
            };
            (whole_fee - facts.fee_charged).max(0)
        }
    }
    .min(value);
    let refund = value - fee;
    let refunds = split_refund(facts, refund, id, now_ms);
    let mut lines: Vec<i64> = chosen
        .iter()
        .flat_map(|g| g.iter().map(|t| t.line))
        .collect();
    lines.sort_unstable();
    Ok(Cancellation {
        id: id.to_owned(),
        order_id: order.id.clone(),
        lines,
        whole,
        value,
        fee,
        refund,
        refunds,
        created_at_ms: now_ms,
        dry_run: request.dry_run,
    })
}

/// Each part of a refund goes back where it came from, in proportion: the payment's share of all
/// refunded so far (this refund included) is `refunded × paid by payment / order total`, rounded
/// half up, less what the payment got back before; vouchers take the rest, the last applied
/// first. Neither ever gets back more than it paid.
fn split_refund(facts: &CancelFacts<'_>, refund: i64, id: &str, now_ms: i64) -> Vec<Refund> {
    if refund <= 0 {
        return Vec::new();
    }
    let order = facts.order;
    let paid_by_payment = facts
        .payment
        .filter(|p| p.method != PaymentMethod::Voucher)
        .map_or(0, |p| p.amount);
    let back_to = |target: &RefundTarget| -> i64 {
        facts
            .previous
            .iter()
            .filter(|r| &r.target == target)
            .map(|r| r.amount)
            .sum()
    };
    let refunded_before: i64 = facts.previous.iter().map(|r| r.amount).sum();
    let mut out = Vec::new();
    let make = |target: RefundTarget, amount: i64, suffix: String| Refund {
        id: format!("{id}:{suffix}"),
        cancellation_id: id.to_owned(),
        order_id: order.id.clone(),
        target,
        amount,
        status: RefundStatus::Pending,
        attempts: 0,
        created_at_ms: now_ms,
        updated_at_ms: now_ms,
    };
    let mut to_payment = 0;
    let payment_target = facts.payment.map(|p| RefundTarget::Payment {
        payment_id: p.id.clone(),
    });
    let payment_left = match &payment_target {
        Some(t) if paid_by_payment > 0 => paid_by_payment - back_to(t),
        _ => 0,
    };
    if payment_left > 0 && order.total > 0 {
        let share = half_up_div(
            (refunded_before + refund) as i128 * paid_by_payment as i128,
            order.total as i128,
        ) - (paid_by_payment - payment_left);
        to_payment = share.clamp(0, payment_left.min(refund));
    }
    let mut rest = refund - to_payment;
    for v in order.vouchers.iter().rev() {
        if rest == 0 {
            break;
        }
        let target = RefundTarget::Voucher {
            code: v.code.clone(),
        };
        let left = v.amount - back_to(&target);
        let take = rest.min(left).max(0);
        if take > 0 {
            out.push(make(target, take, format!("voucher:{}", v.code)));
            rest -= take;
        }
    }
    // Rounding left an agora or two the vouchers cannot take: the payment takes it, if it can.
    if rest > 0 && payment_left > to_payment {
        let more = rest.min(payment_left - to_payment);
        to_payment += more;
    }
    if to_payment > 0
        && let Some(t) = payment_target
    {
        out.insert(0, make(t, to_payment, "payment".into()));
    }
    out
}

fn half_up_div(n: i128, d: i128) -> i64 {
    ((2 * n + d) / (2 * d)) as i64
}

/// Who asks to cancel: only the reservation's own buyer session, or the customer it belongs to,
/// logged in. A signed link (a forwarded mail) may read the reservation but not cancel it.
#[derive(Debug, Clone, Copy)]
pub struct Canceller<'a> {
    pub session: &'a str,
    pub login: Option<&'a str>,
}

/// How long after a failed attempt the sweeper tries a pending refund again.
pub const REFUND_RETRY_AFTER_MS: i64 = 30_000;

impl OrderService {
    /// The window and payment rules, then the cancellation in one store transaction, then the
    /// seats announced free and the provider asked for the money back. A dry run answers the
    /// same figures and writes nothing.
    pub async fn cancel(
        &self,
        id: &str,
        who: Canceller<'_>,
        request: CancelRequest,
        refund_to_credit: bool,
    ) -> AppResult<Cancellation> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such reservation");
        let order = self.orders.order(id).await?.ok_or_else(no_such)?;
        if !self.may_cancel(&order, who).await? {
            tracing::info!(reservation = %order.id, "cancel refused: not its buyer");
            return Err(no_such());
        }
        if order.paid_at_ms.is_none() {
            return Err(no_such());
        }
        if refund_to_credit {
            return Err(AppError::rejected(
                ErrorCode::RefundToCreditUnavailable,
                "a refund as voucher credit is not offered yet; cancel without it to be refunded to the way you paid",
            ));
        }
        let now = self.clock.now_ms();
        // An order of several presentations closes with the earliest of them.
        let mut until = i64::MAX;
        for id in &order.presentations {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            until = until.min(self.cancellable_until(&info));
        }
        if now >= until {
            return Err(AppError::rejected_with(
                ErrorCode::TicketCancellationsAreNoLongerPossible,
                "cancellations of this event are closed",
                serde_json::json!({ "until": kupa_domain::time::ms_to_rfc3339(until) }),
            ));
        }
        let payment = match &order.payment_id {
            Some(payment_id) => self.orders.payment(payment_id).await?,
            None => None,
        };
        if let Some(p) = payment
            && self.cancellation.not_refundable_online.contains(&p.method)
        {
            return Err(AppError::rejected_with(
                ErrorCode::BalanceIsDue,
                "this payment method cannot be refunded online; please contact the box office",
                serde_json::json!({ "method": p.method.as_str() }),
            ));
        }
        let cancellation_id = token();
        let done = self
            .orders
            .cancel(
                &order.id,
                &request,
                self.cancellation.fee,
                &cancellation_id,
                now,
            )
            .await??;
        if done.dry_run {
            return Ok(done);
        }
        tracing::info!(reservation = %order.id, cancellation = %done.id, lines = done.lines.len(), refund = done.refund, fee = done.fee, "reservation cancelled");
        for id in &order.presentations {
            self.booking.publish(
                *id,
                crate::seat_events::SeatChangeKind::Released,
                order
                    .tickets_of(*id)
                    .filter(|t| done.lines.contains(&t.line))
                    .map(OrderTicket::address),
            );
        }
        let mut done = done;
        for r in done.refunds.iter_mut() {
            if r.status == RefundStatus::Pending && self.try_refund(r).await? {
                r.status = RefundStatus::Done;
            }
        }
        Ok(done)
    }

    /// Whether `who` may cancel the order: its buyer session, or the customer it belongs to.
    pub async fn may_cancel_order(&self, order: &Order, who: Canceller<'_>) -> AppResult<bool> {
        self.may_cancel(order, who).await
    }

    async fn may_cancel(&self, order: &Order, who: Canceller<'_>) -> AppResult<bool> {
        if order.session_id == who.session {
            return Ok(true);
        }
        let Some(owner) = order.customer_id else {
            return Ok(false);
        };
        Ok(self
            .customers
            .customer_of_login(who.login)
            .await?
            .is_some_and(|c| c.customer.id == owner))
    }

    /// When cancellations of the presentation close: its own window, or the configured one,
    /// before the start.
    pub fn cancellable_until(&self, info: &PresentationInfo) -> i64 {
        let p = &info.view.presentation;
        let minutes = p
            .cancellation_window_minutes
            .unwrap_or(self.cancellation.window_minutes);
        p.starts_at_ms - minutes * 60_000
    }

    /// The cancellation rules in force (the reservation page shows the fee before confirming).
    pub fn cancellation_policy(&self) -> &CancellationPolicy {
        &self.cancellation
    }

    /// The order's cancellations with their refunds, oldest first.
    pub async fn cancellations(&self, order_id: &str) -> AppResult<Vec<Cancellation>> {
        Ok(self.orders.cancellations(order_id).await?)
    }

    /// Asks the provider for one pending refund; true when it confirmed (and the row is done).
    /// A failure is recorded on the row and left for the sweeper.
    async fn try_refund(&self, r: &Refund) -> AppResult<bool> {
        let now = self.clock.now_ms();
        let RefundTarget::Payment { payment_id } = &r.target else {
            return Ok(false);
        };
        let Some(payment) = self.orders.payment(payment_id).await? else {
            return Err(AppError::internal(format!(
                "refund {} names no payment",
                r.id
            )));
        };
        let ask = GatewayRefund {
            key: r.id.clone(),
            amount: r.amount,
        };
        match self.gateway.refund(&payment, &ask).await {
            Ok(()) => {
                self.orders.settle_refund(&r.id, true, now).await?;
                tracing::info!(refund = %r.id, amount = r.amount, "refund confirmed by the provider");
                Ok(true)
            }
            Err(e) => {
                self.orders.settle_refund(&r.id, false, now).await?;
                tracing::warn!(refund = %r.id, amount = r.amount, error = %e, "refund not confirmed by the provider; pending, will retry");
                Ok(false)
            }
        }
    }

    /// Retries refunds the provider has not confirmed, each at most every
    /// [`REFUND_RETRY_AFTER_MS`]. Returns how many it confirmed.
    pub async fn sweep_pending_refunds(&self) -> AppResult<usize> {
        let due = self
            .orders
            .pending_refunds(self.clock.now_ms() - REFUND_RETRY_AFTER_MS)
            .await?;
        let mut confirmed = 0;
        for r in &due {
            match self.try_refund(r).await {
                Ok(true) => confirmed += 1,
                Ok(false) => {}
                Err(e) => {
                    tracing::error!(refund = %r.id, error = %e, "a pending refund could not be retried")
                }
            }
        }
        Ok(confirmed)
    }
}

/// What a provider is asked to give back: an amount of a captured payment, under a key that makes
/// asking twice give it once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayRefund {
    pub key: String,
    pub amount: i64,
}

impl GatewayRefund {
    /// All of a payment, once (a void after a failed finalisation).
    pub fn whole(payment: &Payment) -> GatewayRefund {
        GatewayRefund {
            key: format!("{}:void", payment.id),
            amount: payment.amount,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fees_parse_from_configuration() {
        assert_eq!(CancellationFee::parse("none"), Ok(None));
        assert_eq!(
            CancellationFee::parse("fixed:500:perTicket"),
            Ok(Some(CancellationFee {
                amount: FeeAmount::Fixed(500),
                scope: FeeScope::PerTicket
            }))
        );
        assert_eq!(
            CancellationFee::parse("percent:12.5:perOrder"),
            Ok(Some(CancellationFee {
                amount: FeeAmount::PercentBp(1250),
                scope: FeeScope::PerOrder
            }))
        );
        for bad in [
            "percent:101:perOrder",
            "percent:1.234:perTicket",
            "fixed:-1:perTicket",
            "fixed:5",
            "odd:1:perOrder",
            "fixed:1:perSeat",
        ] {
            assert!(CancellationFee::parse(bad).is_err(), "{bad}");
        }
    }

    fn ticket(line: i64, price: i64, charge: i64, sub: bool) -> OrderTicket {
        OrderTicket {
            line,
            presentation_id: 1,
            section_id: 1,
            x: line,
            y: 1,
            section_name: String::new(),
            section_name_en: String::new(),
            row_name: "1".into(),
            seat_name: line.to_string(),
            ticket_id: 1,
            ticket_name: String::new(),
            ticket_name_en: String::new(),
            price,
            service_charge: charge,
            is_sub_ticket: sub,
            code: None,
            ref1: None,
            ref2: None,
            member_number: None,
            document_key: format!("doc{line}"),
            scanned_at_ms: None,
            cancelled_at_ms: None,
        }
    }

    fn order(
        tickets: Vec<OrderTicket>,
        vouchers: Vec<OrderVoucher>,
        per_order_charge: i64,
    ) -> Order {
        let tickets_total: i64 = tickets.iter().map(|t| t.price).sum();
        let charges: i64 = tickets.iter().map(|t| t.service_charge).sum::<i64>() + per_order_charge;
        Order {
            id: "o".into(),
            reservation_number: "0000-0001".into(),
            session_id: "s".into(),
            presentations: vec![1],
            status: OrderStatus::Paid,
            channel: Channel::Web,
            referral_mini_site_id: None,
            is_hold: false,
            customer_id: None,
            customer: Default::default(),
            locale: "he".into(),
            tickets_total,
            products_total: 0,
            service_charge_total: charges,
            service_charge_name: String::new(),
            total: tickets_total + charges,
            currency: "ILS".into(),
            payment_id: Some("p".into()),
            created_at_ms: 0,
            paid_at_ms: Some(1),
            committed_at_ms: None,
            tickets,
            products: Vec::new(),
            vouchers,
            kind: OrderKind::Tickets,
            system_vouchers: Vec::new(),
            donations: Vec::new(),
        }
    }

    #[test]
    fn an_order_reads_as_typed_lines_over_its_presentations() {
        let mut second = ticket(3, 3000, 0, false);
        second.presentation_id = 2;
        let mut o = order(
            vec![
                ticket(1, 4200, 500, false),
                ticket(2, 4200, 500, false),
                second,
            ],
            Vec::new(),
            0,
        );
        o.presentations = Order::presentations_of(&o.tickets);
        o.products.push(OrderProduct {
            product_id: 9,
            name: String::new(),
            name_en: String::new(),
            quantity: 2,
            unit_price: 1500,
        });
        assert_eq!(o.presentations, vec![1, 2]);
        assert_eq!(o.first_presentation(), Some(1));
        assert_eq!(o.tickets_of(2).map(|t| t.line).collect::<Vec<_>>(), vec![3]);
        let kinds: Vec<LineKind> = o.lines().map(|l| l.kind()).collect();
        assert_eq!(
            kinds,
            vec![
                LineKind::Ticket,
                LineKind::Ticket,
                LineKind::Ticket,
                LineKind::Product
            ]
        );
        assert_eq!(
            o.lines().map(|l| l.amount()).collect::<Vec<_>>(),
            vec![4700, 4700, 3000, 3000]
        );
        assert_eq!(
            o.lines().map(|l| l.presentation_id()).collect::<Vec<_>>(),
            vec![Some(1), Some(1), Some(2), None]
        );
        let no_tickets = order(Vec::new(), Vec::new(), 0);
        assert_eq!(
            Order::presentations_of(&no_tickets.tickets),
            Vec::<i64>::new()
        );
    }

    fn card(amount: i64) -> Payment {
        Payment {
            id: "p".into(),
            order_id: "o".into(),
            session_id: "s".into(),
            customer_id: None,
            method: PaymentMethod::Card,
            amount,
            currency: "ILS".into(),
            installments: 1,
            status: PaymentStatus::Captured,
            card_brand: None,
            card_last4: None,
            card_bin: None,
            save_card: false,
            failure_code: None,
            decline_reason: None,
            locale: "he".into(),
            return_url: String::new(),
            created_at_ms: 0,
            updated_at_ms: 0,
        }
    }

    fn fee(s: &str) -> Option<CancellationFee> {
        CancellationFee::parse(s).unwrap()
    }

    fn run(
        o: &Order,
        p: &Payment,
        previous: &[Refund],
        charged: i64,
        lines: Option<Vec<i64>>,
        f: &str,
    ) -> Cancellation {
        let facts = CancelFacts {
            order: o,
            payment: Some(p),
            previous,
            fee_charged: charged,
        };
        plan(
            &facts,
            &CancelRequest {
                lines,
                dry_run: false,
            },
            fee(f),
            "c1",
            5,
        )
        .unwrap()
    }

    #[test]
    fn a_percent_charge_per_ticket_rounds_each_ticket_half_up() {
        // 4150 * 12.5 % = 518.75 -> 519; 4100 * 12.5 % = 512.5 -> 513 (half up); 3999 * 12.5 % = 499.875 -> 500.
        let o = order(
            vec![
                ticket(1, 4000, 150, false),
                ticket(2, 4000, 100, false),
                ticket(3, 3999, 0, false),
            ],
            vec![],
            0,
        );
        let c = run(&o, &card(o.total), &[], 0, None, "percent:12.5:perTicket");
        assert_eq!(
            (c.value, c.fee, c.refund),
            (12249, 519 + 513 + 500, 12249 - 1532)
        );
        // Fixed per ticket: one charge per ticket, whatever its price.
        let c = run(
            &o,
            &card(o.total),
            &[],
            0,
            Some(vec![2]),
            "fixed:500:perTicket",
        );
        assert_eq!(
            (c.value, c.fee, c.refund, c.whole),
            (4100, 500, 3600, false)
        );
    }

    #[test]
    fn a_per_order_charge_is_kept_once_over_partial_cancels() {
        let o = order(
            vec![ticket(1, 4000, 0, false), ticket(2, 4000, 0, false)],
            vec![],
            300,
        );
        let c = run(
            &o,
            &card(o.total),
            &[],
            0,
            Some(vec![1]),
            "fixed:700:perOrder",
        );
        assert_eq!((c.value, c.fee, c.refund), (4000, 700, 3300));
        let mut o2 = o.clone();
        o2.tickets[0].cancelled_at_ms = Some(5);
        let c2 = run(
            &o2,
            &card(o.total),
            &c.refunds,
            700,
            None,
            "fixed:700:perOrder",
        );
        // The last ticket brings back the per-order service charge (300) too; no second charge.
        assert_eq!(
            (c2.value, c2.fee, c2.refund, c2.whole),
            (4300, 0, 4300, true)
        );
        assert_eq!(c.refund + c2.refund, o.total - 700);
        // A percent per order is of the order's total: 10 % of 8300 = 830, kept once.
        let c = run(
            &o,
            &card(o.total),
            &[],
            0,
            Some(vec![1]),
            "percent:10:perOrder",
        );
        assert_eq!(c.fee, 830);
        // A charge never exceeds what is cancelled.
        let c = run(
            &o,
            &card(o.total),
            &[],
            0,
            Some(vec![1]),
            "fixed:9000:perOrder",
        );
        assert_eq!((c.fee, c.refund, c.refunds.len()), (4000, 0, 0));
    }

    #[test]
    fn a_ticket_with_a_multiply_factor_is_never_split() {
        let o = order(
            vec![
                ticket(1, 9000, 0, false),
                ticket(2, 0, 0, true),
                ticket(3, 4000, 0, false),
            ],
            vec![],
            0,
        );
        let c = run(
            &o,
            &card(o.total),
            &[],
            0,
            Some(vec![2]),
            "fixed:500:perTicket",
        );
        assert_eq!(
            (c.lines.clone(), c.value, c.fee),
            (vec![1, 2], 9000, 500),
            "naming the sub ticket takes its main ticket"
        );
        assert!(!c.whole);
    }

    #[test]
    fn vouchers_and_the_card_get_back_in_proportion_and_never_more_than_they_paid() {
        // 10000 paid: 3000 by voucher, 7000 by card.
        let o = order(
            vec![ticket(1, 5000, 0, false), ticket(2, 5000, 0, false)],
            vec![OrderVoucher {
                code: "v".into(),
                amount: 3000,
            }],
            0,
        );
        let p = card(7000);
        let c = run(&o, &p, &[], 0, Some(vec![1]), "fixed:333:perTicket");
        // 4667 back: card round(4667 * 0.7) = 3267, voucher 1400.
        let amounts: Vec<(RefundTarget, i64)> = c
            .refunds
            .iter()
            .map(|r| (r.target.clone(), r.amount))
            .collect();
        assert_eq!(
            amounts,
            vec![
                (
                    RefundTarget::Payment {
                        payment_id: "p".into()
                    },
                    3267
                ),
                (RefundTarget::Voucher { code: "v".into() }, 1400),
            ]
        );
        let mut o2 = o.clone();
        o2.tickets[0].cancelled_at_ms = Some(5);
        let c2 = run(&o2, &p, &c.refunds, 333, None, "fixed:333:perTicket");
        let card_back: i64 = c
            .refunds
            .iter()
            .chain(&c2.refunds)
            .filter(|r| matches!(r.target, RefundTarget::Payment { .. }))
            .map(|r| r.amount)
            .sum();
        let voucher_back: i64 = c
            .refunds
            .iter()
            .chain(&c2.refunds)
            .filter(|r| matches!(r.target, RefundTarget::Voucher { .. }))
            .map(|r| r.amount)
            .sum();
        assert_eq!(card_back + voucher_back, 10000 - 666);
        assert!(card_back <= 7000 && voucher_back <= 3000);
        assert_eq!(
            card_back,
            (9334 * 7 + 5) / 10,
            "cumulative proportion, rounded half up"
        );
    }

    #[test]
    fn nothing_left_or_an_unknown_line_is_refused() {
        let mut o = order(vec![ticket(1, 5000, 0, false)], vec![], 0);
        let p = card(o.total);
        let facts = CancelFacts {
            order: &o,
            payment: Some(&p),
            previous: &[],
            fee_charged: 0,
        };
        assert_eq!(
            plan(
                &facts,
                &CancelRequest {
                    lines: Some(vec![7]),
                    dry_run: false
                },
                None,
                "c",
                1
            ),
            Err(CancelRefusal::UnknownLine(7))
        );
        o.tickets[0].cancelled_at_ms = Some(1);
        let facts = CancelFacts {
            order: &o,
            payment: Some(&p),
            previous: &[],
            fee_charged: 0,
        };
        assert_eq!(
            plan(&facts, &CancelRequest::default(), None, "c", 1),
            Err(CancelRefusal::NothingToCancel)
        );
    }

    #[test]
    fn the_worked_example_of_the_api_document() {
        let o = order(
            vec![ticket(1, 4200, 300, false), ticket(2, 4200, 300, false)],
            vec![OrderVoucher {
                code: "v".into(),
                amount: 3000,
            }],
            200,
        );
        assert_eq!(o.total, 9200);
        let p = card(6200);
        let parts = |c: &Cancellation| -> Vec<i64> { c.refunds.iter().map(|r| r.amount).collect() };
        let c1 = run(&o, &p, &[], 0, Some(vec![1]), "percent:12.5:perTicket");
        assert_eq!(
            (c1.value, c1.fee, c1.refund, parts(&c1)),
            (4500, 563, 3937, vec![2653, 1284])
        );
        let mut o2 = o.clone();
        o2.tickets[0].cancelled_at_ms = Some(5);
        let c2 = run(&o2, &p, &c1.refunds, c1.fee, None, "percent:12.5:perTicket");
        assert_eq!(
            (c2.value, c2.fee, c2.refund, parts(&c2)),
            (4700, 563, 4137, vec![2788, 1349])
        );
        let c1 = run(&o, &p, &[], 0, Some(vec![1]), "fixed:700:perOrder");
        let c2 = run(&o2, &p, &c1.refunds, c1.fee, None, "fixed:700:perOrder");
        assert_eq!((c1.fee, c2.fee), (700, 0));
    }
}
