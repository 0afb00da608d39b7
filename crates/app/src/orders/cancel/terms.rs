//! The cancellation's terms from configuration (the service charge, the window, the methods that
//! cannot be refunded online), what the buyer asks to cancel, and why a cancellation is refused.

use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, ErrorCode};

use crate::orders::model::PaymentMethod;

/// How a cancellation service charge is counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum FeeAmount {
    Fixed(Money),
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
            "fixed" => FeeAmount::Fixed(Money(
                value
                    .parse::<i64>()
                    .ok()
                    .filter(|v| *v >= 0)
                    .ok_or_else(|| {
                        format!("cancellation fee {s:?}: agorot must be a whole number")
                    })?,
            )),
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
    /// A refund taken as voucher credit is good for this many days (KUPA_CREDIT_VALIDITY_DAYS;
    /// decision 0034).
    pub credit_validity_days: i64,
}

/// The default validity of a refund taken as voucher credit: a year, as a gift card.
pub const DEFAULT_CREDIT_VALIDITY_DAYS: i64 = 365;

impl Default for CancellationPolicy {
    fn default() -> CancellationPolicy {
        CancellationPolicy {
            fee: Some(CancellationFee {
                amount: FeeAmount::Fixed(Money(500)),
                scope: FeeScope::PerTicket,
            }),
            window_minutes: 120,
            not_refundable_online: Vec::new(),
            credit_validity_days: DEFAULT_CREDIT_VALIDITY_DAYS,
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
    /// Refund the payment's part as this new voucher instead of back to the payment
    /// (`refundToTransactionCredit`, decision 0034); drawn by the use case, issued by the store
    /// in the cancellation's transaction.
    pub credit: Option<CreditVoucher>,
}

/// The value voucher a refund as credit becomes: its reference and code id drawn as a sold
/// voucher's are (decision 0033), owned by the order's customer. Its balance is the refund's
/// payment part, known only under the order's lock.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreditVoucher {
    pub reference: String,
    pub code_id: i64,
    /// The catalogue's value voucher class it is issued on (its "by code" ticket).
    pub class_id: i64,
    pub ticket_id: i64,
    pub customer_id: i64,
    /// Local days, inclusive (YYYY-MM-DD).
    pub valid_from: String,
    pub valid_to: String,
    /// Its name in the customer area's list and on the code.
    pub label: String,
    pub label_en: String,
}

impl CreditVoucher {
    /// The code key it is redeemed by.
    pub fn code_key(&self) -> String {
        kupa_domain::tickets::normalise_code(&self.reference)
    }
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
