//! The arithmetic of a cancellation, pure: what is cancelled, the charge kept, and the refund split
//! back to where the money came from, as ledger rows keyed by the cancellation (docs/api.md,
//! "Cancellation and refunds", writes it out with a worked example).

use kupa_domain::ids::ReservationId;
use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

use super::terms::{
    CancelRefusal, CancelRequest, CancellationFee, CreditVoucher, FeeAmount, FeeScope,
};
use crate::orders::model::{Order, OrderStatus, OrderTicket, Payment, PaymentMethod};

/// Where a refund goes back to.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "to")]
pub enum RefundTarget {
    /// The order's payment at its provider (card, saved card, PayPal, Blik, PayU).
    Payment { payment_id: String },
    /// A voucher's balance (order_vouchers), by its normalised code.
    Voucher { code: String },
    /// The payment's part given as a new value voucher of the order's customer instead
    /// (`refundToTransactionCredit`, decision 0034): issued in the cancellation's transaction,
    /// done at once, never sent to the provider. It counts against the payment it replaces.
    Credit {
        payment_id: String,
        reference: String,
        code: String,
    },
}

impl RefundTarget {
    /// The payment whose money this part is: the payment itself, or credit given in its stead.
    pub fn paid_from(&self) -> Option<&str> {
        match self {
            RefundTarget::Payment { payment_id } | RefundTarget::Credit { payment_id, .. } => {
                Some(payment_id)
            }
            RefundTarget::Voucher { .. } => None,
        }
    }
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
    /// `{cancellation id}:payment`, `{cancellation id}:voucher:{code}` or
    /// `{cancellation id}:credit`; the provider's idempotency key too.
    pub id: String,
    pub cancellation_id: String,
    pub order_id: ReservationId,
    pub target: RefundTarget,
    pub amount: Money,
    pub status: RefundStatus,
    pub attempts: i64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// A cancellation as written (or, for a dry run, as it would be).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cancellation {
    pub id: String,
    pub order_id: ReservationId,
    /// Ticket lines cancelled, main tickets with their sub tickets.
    pub lines: Vec<i64>,
    /// Nothing of the order is left after it.
    pub whole: bool,
    /// Price and own service charge of the tickets cancelled, plus (with the last ticket) the
    /// products and the order's per-order service charge.
    pub value: Money,
    /// The cancellation service charge kept.
    pub fee: Money,
    /// `value - fee`, split over `refunds`.
    pub refund: Money,
    pub refunds: Vec<Refund>,
    pub created_at_ms: i64,
    pub dry_run: bool,
}

impl Cancellation {
    /// The voucher credit it gave (reference, amount), if the refund was taken as credit.
    pub fn credit(&self) -> Option<(&str, Money)> {
        self.refunds.iter().find_map(|r| match &r.target {
            RefundTarget::Credit { reference, .. } => Some((reference.as_str(), r.amount)),
            _ => None,
        })
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
    pub fee_charged: Money,
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
        |g: &Vec<&OrderTicket>| -> Money { g.iter().map(|t| t.price + t.service_charge).sum() };
    let tickets_value: Money = chosen.iter().map(|g| group_value(g)).sum();
    // The products and the per-order part of the service charge go back with the last ticket.
    let extras = if whole {
        let own: Money = order.tickets.iter().map(|t| t.service_charge).sum();
        order.products_total + (order.service_charge_total - own).max(Money::ZERO)
    } else {
        Money::ZERO
    };
    let value = tickets_value + extras;
    let fee = match fee {
        None => Money::ZERO,
        Some(CancellationFee {
            amount,
            scope: FeeScope::PerTicket,
        }) => chosen
            .iter()
            .map(|g| match amount {
                FeeAmount::Fixed(a) => a,
                FeeAmount::PercentBp(bp) => group_value(g).percent_bp(bp),
            })
            .sum(),
        Some(CancellationFee {
            amount,
            scope: FeeScope::PerOrder,
        }) => {
            let whole_fee = match amount {
                FeeAmount::Fixed(a) => a,
                FeeAmount::PercentBp(bp) => order.total.percent_bp(bp),
            };
            (whole_fee - facts.fee_charged).max(Money::ZERO)
        }
    }
    .min(value);
    let refund = value - fee;
    let refunds = split_refund(facts, refund, request.credit.as_ref(), id, now_ms);
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
/// first. Neither ever gets back more than it paid. With `credit`, the payment's part becomes
/// that voucher's balance instead (done at once); the vouchers' parts go back to them as ever.
fn split_refund(
    facts: &CancelFacts<'_>,
    refund: Money,
    credit: Option<&CreditVoucher>,
    id: &str,
    now_ms: i64,
) -> Vec<Refund> {
    if refund <= Money::ZERO {
        return Vec::new();
    }
    let order = facts.order;
    let paid_by_payment = facts
        .payment
        .filter(|p| p.method != PaymentMethod::Voucher)
        .map_or(Money::ZERO, |p| p.amount);
    let back_to = |target: &RefundTarget| -> Money {
        facts
            .previous
            .iter()
            .filter(|r| &r.target == target)
            .map(|r| r.amount)
            .sum()
    };
    let refunded_before: Money = facts.previous.iter().map(|r| r.amount).sum();
    let mut out = Vec::new();
    let make = |target: RefundTarget, amount: Money, suffix: String| Refund {
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
    let mut to_payment = Money::ZERO;
    let payment_target = facts.payment.map(|p| RefundTarget::Payment {
        payment_id: p.id.clone(),
    });
    // What went back to the payment before, as money or as credit in its stead.
    let payment_back = |pid: &str| -> Money {
        facts
            .previous
            .iter()
            .filter(|r| r.target.paid_from() == Some(pid))
            .map(|r| r.amount)
            .sum()
    };
    let payment_left = match &payment_target {
        Some(RefundTarget::Payment { payment_id }) if paid_by_payment > Money::ZERO => {
            paid_by_payment - payment_back(payment_id)
        }
        _ => Money::ZERO,
    };
    if payment_left > Money::ZERO && order.total > Money::ZERO {
        let share = Money(half_up_div(
            (refunded_before + refund).minor() as i128 * paid_by_payment.minor() as i128,
            order.total.minor() as i128,
        )) - (paid_by_payment - payment_left);
        to_payment = share.clamp(Money::ZERO, payment_left.min(refund));
    }
    let mut rest = refund - to_payment;
    for v in order.vouchers.iter().rev() {
        if rest == Money::ZERO {
            break;
        }
        let target = RefundTarget::Voucher {
            code: v.code.clone(),
        };
        let left = v.amount - back_to(&target);
        let take = rest.min(left).max(Money::ZERO);
        if take > Money::ZERO {
            out.push(make(target, take, format!("voucher:{}", v.code)));
            rest -= take;
        }
    }
    // Rounding left an agora or two the vouchers cannot take: the payment takes it, if it can.
    if rest > Money::ZERO && payment_left > to_payment {
        let more = rest.min(payment_left - to_payment);
        to_payment += more;
    }
    if to_payment > Money::ZERO
        && let Some(RefundTarget::Payment { payment_id }) = payment_target
    {
        match credit {
            Some(c) => {
                let target = RefundTarget::Credit {
                    payment_id,
                    reference: c.reference.clone(),
                    code: c.code_key(),
                };
                let mut r = make(target, to_payment, "credit".into());
                r.status = RefundStatus::Done;
                out.insert(0, r);
            }
            None => out.insert(
                0,
                make(
                    RefundTarget::Payment { payment_id },
                    to_payment,
                    "payment".into(),
                ),
            ),
        }
    }
    out
}

fn half_up_div(n: i128, d: i128) -> i64 {
    ((2 * n + d) / (2 * d)) as i64
}
