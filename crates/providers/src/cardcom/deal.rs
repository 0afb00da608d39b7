//! What CardCom's word on a deal or a token charge means for a payment; what of a card is saved.

use kupa_app::orders::{Payment, PaymentStatus, PaymentUpdate, payment_codes};
use kupa_app::saved_cards::CardToSave;

use super::{LpResult, TokenInfo, TranzactionInfo};

/// What CardCom's word on a deal is for the payment `expected`, or why it is not to be believed.
/// `Err` is a result that does not belong to this payment (another terminal, payment or amount).
pub fn judge(expected: &Payment, terminal: i64, r: &LpResult) -> Result<PaymentUpdate, String> {
    if r.terminal_number.is_some_and(|t| t != terminal) {
        return Err("another terminal's deal".into());
    }
    if r.return_value.as_deref() != Some(expected.id.as_str()) {
        return Err("the deal is not this payment's".into());
    }
    // No deal on the page yet (the buyer is still there, or left it): nothing to record.
    let Some(info) = r.tranzaction_info.clone() else {
        return Err(format!(
            "no deal on the page (response code {})",
            r.response_code
        ));
    };
    judge_deal(expected, r.response_code == 0, &info, r.tranzaction_id)
}

/// What CardCom's word on a token charge (`Transactions/Transaction`, or its status query by
/// `ExternalUniqTranId`) is for the payment `expected`; `Err` when it is not this terminal's or
/// not for this payment's amount.
pub fn judge_charge(
    expected: &Payment,
    terminal: i64,
    info: &TranzactionInfo,
) -> Result<PaymentUpdate, String> {
    if info.terminal_number.is_some_and(|t| t != terminal) {
        return Err("another terminal's deal".into());
    }
    if info.response_code == 0 && info.tranzaction_id.is_none() {
        return Err("a charge without a deal id".into());
    }
    judge_deal(expected, true, info, None)
}

fn judge_deal(
    expected: &Payment,
    page_ok: bool,
    info: &TranzactionInfo,
    page_deal: Option<i64>,
) -> Result<PaymentUpdate, String> {
    let paid = page_ok && info.response_code == 0;
    if paid {
        let amount = info.amount.map(|a| (a * 100.0).round() as i64);
        if amount != Some(expected.amount.minor()) {
            return Err(format!(
                "the deal's amount {amount:?} is not the payment's {}",
                expected.amount.minor()
            ));
        }
        if expected.currency == "ILS" && info.coin_id.is_some_and(|c| c != 1) {
            return Err("the deal's currency is not the payment's".into());
        }
    }
    let tran = info.tranzaction_id.or(page_deal);
    let note = match tran {
        Some(t) => format!("cardcom deal {t}"),
        None => "cardcom: no deal".into(),
    };
    Ok(PaymentUpdate {
        status: if paid {
            PaymentStatus::Authorized
        } else {
            PaymentStatus::Declined
        },
        card_brand: paid.then(|| info.brand.clone()).flatten(),
        card_last4: paid
            .then(|| info.last4_card_digits_string.clone())
            .flatten()
            .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_digit())),
        card_bin: paid.then(|| bin_of(info)).flatten(),
        failure_code: (!paid).then(|| payment_codes::PAYMENT_ERROR.to_owned()),
        decline_reason: None,
        note,
    })
}

/// The card's first six digits, from CardCom's `FirstCardDigits`.
fn bin_of(info: &TranzactionInfo) -> Option<String> {
    info.first_card_digits
        .map(|d| d.to_string())
        .filter(|d| d.len() == 6)
}

/// What may be saved of a card CardCom tokenised: brand, BIN, last four and the expiry of
/// `TokenInfo` (a two-digit year is this century's).
pub(super) fn card_to_save(info: &TranzactionInfo, token: &TokenInfo) -> Option<CardToSave> {
    let month = u32::try_from(token.card_month?)
        .ok()
        .filter(|m| (1..=12).contains(m))?;
    let year = i32::try_from(token.card_year?).ok()?;
    let year = if year < 100 { 2000 + year } else { year };
    let last4 = info
        .last4_card_digits_string
        .clone()
        .filter(|d| d.len() == 4 && d.bytes().all(|b| b.is_ascii_digit()))?;
    Some(CardToSave {
        brand: info
            .brand
            .as_deref()
            .map(|b| b.trim().to_ascii_lowercase())
            .filter(|b| !b.is_empty())
            .unwrap_or_else(|| "card".into()),
        bin: bin_of(info),
        last4,
        expiry_year: year,
        expiry_month: month,
    })
}

/// CardCom's `CardExpirationMMYY` of a saved card: "1027" for October 2027.
pub fn expiration_mmyy(year: i32, month: u32) -> String {
    format!("{month:02}{:02}", year.rem_euclid(100))
}
