//! PayPal's wire: why a call failed, amounts as its decimal strings, and what its orders and
//! captures say of a payment.

use kupa_app::orders::{Payment, PaymentStatus, PaymentUpdate, payment_codes};
use serde_json::Value;

use crate::http;

/// Why a call to PayPal came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: `errorResponse`, with the HTTP status and PayPal's first
    /// `details[].issue` (or its `name`).
    Refused(u16, String),
}

impl From<http::NoAnswer> for CallError {
    fn from(e: http::NoAnswer) -> CallError {
        CallError::NoResponse(e.to_string())
    }
}

/// Why PayPal's word on a payment was not taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SettleError {
    /// PayPal could not be asked, or refused the call: ask again later.
    Call(CallError),
    /// PayPal's answer is not this payment's (another order, amount or currency).
    Mismatch(String),
}

impl From<CallError> for SettleError {
    fn from(e: CallError) -> SettleError {
        SettleError::Call(e)
    }
}

/// Minor units as PayPal's `value`: "12.34" (two decimals, exact).
pub fn value_of(minor: i64) -> String {
    let sign = if minor < 0 { "-" } else { "" };
    let m = minor.unsigned_abs();
    format!("{sign}{}.{:02}", m / 100, m % 100)
}

/// PayPal's `value` back in minor units, exactly: "12.34", "12.3", "12" (no more than two
/// decimals); None for anything else.
pub fn minor_of(value: &str) -> Option<i64> {
    let (whole, frac) = value.split_once('.').unwrap_or((value, ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || frac.len() > 2
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let cents = match frac.len() {
        0 => 0,
        1 => frac.parse::<i64>().ok()? * 10,
        _ => frac.parse::<i64>().ok()?,
    };
    whole
        .parse::<i64>()
        .ok()?
        .checked_mul(100)?
        .checked_add(cents)
}

/// PayPal's page language for a Kupa locale (BCP 47, as `experience_context.locale` takes it).
pub(super) fn paypal_locale(locale: &str) -> &'static str {
    match locale {
        "he" => "he-IL",
        "pl" => "pl-PL",
        "ru" => "ru-RU",
        _ => "en-US",
    }
}

/// PayPal's `amount` object is this payment's: the same currency and value.
pub(super) fn same_amount(p: &Payment, amount: &Value) -> bool {
    amount["currency_code"].as_str() == Some(p.currency.as_str())
        && amount["value"].as_str().and_then(minor_of) == Some(p.amount.minor())
}

pub(super) fn declined(note: String, code: &str) -> PaymentUpdate {
    PaymentUpdate {
        status: PaymentStatus::Declined,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        failure_code: Some(code.to_owned()),
        decline_reason: None,
        note,
    }
}

/// What a PayPal capture (an order's `purchase_units[0].payments.captures[0]`, or the resource of
/// a `PAYMENT.CAPTURE.*` event) says of `p`: paid (with the capture's id, for refunds), declined,
/// or no word yet (`PENDING`). `Err`: a capture that is not this payment's.
pub fn judge_capture(
    p: &Payment,
    capture: &Value,
) -> Result<Option<(PaymentUpdate, String)>, String> {
    if let Some(custom) = capture["custom_id"].as_str()
        && custom != p.id
    {
        return Err("the capture is another payment's".into());
    }
    let id = capture["id"]
        .as_str()
        .filter(|i| !i.is_empty())
        .ok_or("a capture without an id")?
        .to_owned();
    match capture["status"].as_str() {
        Some("COMPLETED") => {
            if !same_amount(p, &capture["amount"]) {
                return Err(format!(
                    "the capture's amount {} is not the payment's {} {}",
                    capture["amount"],
                    p.amount.minor(),
                    p.currency
                ));
            }
            Ok(Some((
                PaymentUpdate {
                    status: PaymentStatus::Authorized,
                    card_brand: None,
                    card_last4: None,
                    card_bin: None,
                    failure_code: None,
                    decline_reason: None,
                    note: format!("paypal capture {id}"),
                },
                id,
            )))
        }
        Some("DECLINED") | Some("FAILED") => Ok(Some((
            declined(
                format!("paypal capture {id} declined"),
                payment_codes::PAYMENT_ERROR,
            ),
            id,
        ))),
        // PENDING (an eCheck, a review): PayPal sends PAYMENT.CAPTURE.COMPLETED or DENIED later.
        _ => Ok(None),
    }
}

/// An id from PayPal or the store put into a path: letters, digits, `-` and `_` only.
pub(super) fn path_segment(id: &str) -> Result<&str, CallError> {
    if !id.is_empty()
        && id.len() <= 64
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        Ok(id)
    } else {
        Err(CallError::Refused(400, "an id that is not PayPal's".into()))
    }
}

/// The order PayPal answered is the one opened for `p`: its id, our payment in `custom_id`, and
/// the payment's amount.
pub(super) fn check_order(p: &Payment, order_id: &str, order: &Value) -> Result<(), SettleError> {
    let unit = &order["purchase_units"][0];
    if order["id"].as_str() != Some(order_id) {
        return Err(SettleError::Mismatch("another order's answer".into()));
    }
    if unit["custom_id"].as_str() != Some(p.id.as_str())
        && unit["reference_id"].as_str() != Some(p.id.as_str())
    {
        return Err(SettleError::Mismatch(
            "the order is not this payment's".into(),
        ));
    }
    if !unit["amount"].is_null() && !same_amount(p, &unit["amount"]) {
        return Err(SettleError::Mismatch(
            "the order's amount is not the payment's".into(),
        ));
    }
    Ok(())
}
