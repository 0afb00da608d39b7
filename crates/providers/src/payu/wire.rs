//! PayU's wire: why a call failed, the answers Kupa reads, and what an order's status means for
//! a payment.

use kupa_app::orders::{
    DeclineReason, Payment, PaymentMethod, PaymentStatus, PaymentUpdate, payment_codes,
};
use serde::Deserialize;

use crate::http;

/// Why a call to PayU came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: PayU's `status.statusCode` and `codeLiteral` (when given).
    Refused {
        status_code: String,
        code_literal: String,
    },
}

impl From<http::NoAnswer> for CallError {
    fn from(e: http::NoAnswer) -> CallError {
        CallError::NoResponse(e.to_string())
    }
}

impl CallError {
    pub(super) fn refused(status_code: impl Into<String>) -> CallError {
        CallError::Refused {
            status_code: status_code.into(),
            code_literal: String::new(),
        }
    }

    /// PayU refused the Blik code itself (a wrong, expired or used code).
    pub fn is_blik_code_refused(&self) -> bool {
        match self {
            CallError::Refused {
                status_code,
                code_literal,
            } => {
                status_code == "ERROR_VALUE_INVALID"
                    || code_literal.starts_with("AUTH_CODE")
                    || code_literal.contains("AUTHORIZATION_CODE")
            }
            CallError::NoResponse(_) => false,
        }
    }

    /// A 3-D Secure failure by PayU's words.
    pub fn is_three_ds(&self) -> bool {
        matches!(self, CallError::Refused { status_code, code_literal }
            if status_code.contains("3DS") || code_literal.contains("3DS"))
    }
}

/// PayU's `status` object.
#[derive(Debug, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub(super) struct Status {
    #[serde(default)]
    pub(super) status_code: String,
    #[serde(default)]
    pub(super) code_literal: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Created {
    #[serde(default)]
    pub(super) status: Status,
    #[serde(default)]
    pub(super) redirect_uri: Option<String>,
    #[serde(default)]
    pub(super) order_id: Option<String>,
}

/// An order as PayU tells it (notification `order`, or `orders[0]` of the status query).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PayUOrder {
    #[serde(default)]
    pub order_id: String,
    #[serde(default)]
    pub ext_order_id: Option<String>,
    #[serde(default)]
    pub total_amount: Option<String>,
    #[serde(default)]
    pub currency_code: Option<String>,
    #[serde(default)]
    pub status: String,
    #[serde(default)]
    pub merchant_pos_id: Option<String>,
}

#[derive(Debug, Deserialize)]
pub(super) struct Orders {
    #[serde(default)]
    pub(super) orders: Vec<PayUOrder>,
    #[serde(default)]
    pub(super) status: Status,
}

#[derive(Debug, Deserialize)]
pub(super) struct Token {
    pub(super) access_token: String,
    #[serde(default)]
    pub(super) expires_in: Option<u64>,
}

/// What PayU's word on an order is for the payment `expected`: `Ok(None)` while it is still
/// open (`NEW`, `PENDING`), `Err` when the order is not this payment's (another POS, payment,
/// amount or currency).
pub fn judge(
    expected: &Payment,
    pos_id: &str,
    order: &PayUOrder,
) -> Result<Option<PaymentUpdate>, String> {
    if order
        .merchant_pos_id
        .as_deref()
        .is_some_and(|p| p != pos_id)
    {
        return Err("another POS's order".into());
    }
    if order.ext_order_id.as_deref() != Some(expected.id.as_str()) {
        return Err("the order is not this payment's".into());
    }
    let amount = order
        .total_amount
        .as_deref()
        .and_then(|a| a.trim().parse::<i64>().ok());
    if amount != Some(expected.amount.minor()) {
        return Err(format!(
            "the order's amount {amount:?} is not the payment's {}",
            expected.amount.minor()
        ));
    }
    if order.currency_code.as_deref() != Some(expected.currency.as_str()) {
        return Err("the order's currency is not the payment's".into());
    }
    let note = format!("payu order {} {}", order.order_id, order.status);
    let word = |status, failure: Option<&str>| PaymentUpdate {
        status,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        failure_code: failure.map(str::to_owned),
        decline_reason: None,
        note: note.clone(),
    };
    Ok(match order.status.as_str() {
        // WAITING_FOR_CONFIRMATION is authorized money Kupa captures (auto-receive off).
        "COMPLETED" | "WAITING_FOR_CONFIRMATION" => Some(word(PaymentStatus::Authorized, None)),
        "CANCELED" => Some(
            word(
                PaymentStatus::Declined,
                Some(if expected.method == PaymentMethod::Blik {
                    payment_codes::BLIK_ERROR
                } else {
                    payment_codes::PAYU_ERROR
                }),
            )
            .because(DeclineReason::Declined),
        ),
        _ => None,
    })
}

/// Why PayU's word could not be acted on.
#[derive(Debug)]
pub enum SettleError {
    /// The order is not this payment's: refused.
    NotOurs(String),
    /// PayU could not be asked (capture): try again later.
    Call(CallError),
    Store(String),
}
