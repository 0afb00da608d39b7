//! The other steps' answers: 3-D Secure, Blik and the bank app, PayU, PayPal, time-outs, and
//! the refusals before the issuer is asked.

use kupa_app::orders::{DeclineReason, PaymentStatus, PaymentUpdate};

use super::{BLIK_REFUSED_CODE, InvalidFields, PAYMENT_WINDOW_MS, THREE_DS_CODE, codes};

fn word(
    status: PaymentStatus,
    failure: Option<&'static str>,
    note: impl Into<String>,
) -> PaymentUpdate {
    PaymentUpdate {
        status,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        failure_code: failure.map(str::to_owned),
        decline_reason: None,
        note: note.into(),
    }
}

/// The 3-D Secure step: [`THREE_DS_CODE`] passes, any other code declines (`paymentError`).
/// An empty code is `formValidation` (`code`).
pub fn check_three_ds(code: &str) -> Result<PaymentUpdate, InvalidFields> {
    let code = code.trim();
    if code.is_empty() || code.len() > 12 {
        return Err(InvalidFields(vec!["code"]));
    }
    Ok(if code == THREE_DS_CODE {
        word(
            PaymentStatus::Authorized,
            None,
            "3-D Secure passed; card approved",
        )
    } else {
        word(
            PaymentStatus::Declined,
            Some(codes::PAYMENT_ERROR),
            "card declined: threeDSecureFailed",
        )
        .because(DeclineReason::ThreeDSecureFailed)
    })
}

/// A Blik code: 6 digits (spaces ignored). [`BLIK_REFUSED_CODE`] is refused by the bank at once
/// (`blikError`); any other code waits for the buyer to confirm in the bank's app.
pub fn check_blik_code(code: &str) -> Result<PaymentUpdate, InvalidFields> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|c| c.is_ascii_digit()) {
        return Err(InvalidFields(vec!["code"]));
    }
    Ok(if code == BLIK_REFUSED_CODE {
        word(
            PaymentStatus::Declined,
            Some(codes::BLIK_ERROR),
            "blik refused by the bank: refusedByBank",
        )
        .because(DeclineReason::Declined)
    } else {
        word(
            PaymentStatus::AwaitingBank,
            None,
            "blik code accepted; waiting for the bank app",
        )
    })
}

/// The buyer's answer in the bank's app: approve authorizes, reject declines (`blikError`).
pub fn bank_app_answer(approve: bool) -> PaymentUpdate {
    if approve {
        word(
            PaymentStatus::Authorized,
            None,
            "blik approved in the bank app",
        )
    } else {
        word(
            PaymentStatus::Declined,
            Some(codes::BLIK_ERROR),
            "blik declined: rejectedInBankApp",
        )
        .because(DeclineReason::RejectedInBankApp)
    }
}

/// The buyer arrived on a provider's page (PayU, PayPal).
pub fn redirected(provider: &str) -> PaymentUpdate {
    word(
        PaymentStatus::Redirected,
        None,
        format!("buyer on the {provider} page"),
    )
}

/// The choices on PayU's page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PayuChoice {
    /// Pays: authorized.
    Pay,
    /// The card's 3-D Secure fails: declined, `payU_3DS_error`.
    ThreeDsFails,
    /// PayU reports an error: failed, `payUerror`.
    Error,
}

impl PayuChoice {
    pub fn parse(s: &str) -> Option<PayuChoice> {
        match s {
            "pay" => Some(PayuChoice::Pay),
            "3ds" => Some(PayuChoice::ThreeDsFails),
            "error" => Some(PayuChoice::Error),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            PayuChoice::Pay => "pay",
            PayuChoice::ThreeDsFails => "3ds",
            PayuChoice::Error => "error",
        }
    }
}

pub fn payu_answer(choice: PayuChoice) -> PaymentUpdate {
    match choice {
        PayuChoice::Pay => word(PaymentStatus::Authorized, None, "payu paid"),
        PayuChoice::ThreeDsFails => word(
            PaymentStatus::Declined,
            Some(codes::PAYU_3DS_ERROR),
            "payu declined: threeDSecureFailed",
        )
        .because(DeclineReason::ThreeDSecureFailed),
        PayuChoice::Error => word(
            PaymentStatus::Failed,
            Some(codes::PAYU_ERROR),
            "payu failed: providerError",
        ),
    }
}

/// PayPal's approval page: approve authorizes; cancel declines (`paymentError`).
pub fn paypal_answer(approve: bool) -> PaymentUpdate {
    if approve {
        word(PaymentStatus::Authorized, None, "paypal approved")
    } else {
        word(
            PaymentStatus::Declined,
            Some(codes::PAYMENT_ERROR),
            "paypal declined: cancelledByBuyer",
        )
        .because(DeclineReason::CancelledByBuyer)
    }
}

/// Whether an open payment has outlived its window at `now_ms`.
pub fn timed_out(created_at_ms: i64, status: PaymentStatus, now_ms: i64) -> bool {
    status.is_open() && now_ms >= created_at_ms + PAYMENT_WINDOW_MS
}

/// The gateway's word for a payment that timed out: expired, `errorNoResponse`.
pub fn timed_out_answer() -> PaymentUpdate {
    word(
        PaymentStatus::Expired,
        Some(codes::ERROR_NO_RESPONSE),
        "expired: the payment window passed",
    )
}

/// The gateway's word for a method it does not take (vouchers): failed, `paymentError`.
pub fn unsupported_method_answer(method: &str) -> PaymentUpdate {
    word(
        PaymentStatus::Failed,
        Some(codes::PAYMENT_ERROR),
        format!("failed: the test gateway does not take {method}"),
    )
}

/// A card the order's credit-card benefit does not accept (its number does not start with the
/// code's issuer prefix): declined before the issuer is asked, `paymentError`, reason
/// `cardNotEligible` in the payment's event. Keeps what the update knew of the card.
pub fn not_eligible_answer(card: &PaymentUpdate) -> PaymentUpdate {
    PaymentUpdate {
        status: PaymentStatus::Declined,
        card_brand: card.card_brand.clone(),
        card_last4: card.card_last4.clone(),
        card_bin: card.card_bin.clone(),
        failure_code: Some(codes::PAYMENT_ERROR.to_owned()),
        decline_reason: Some(DeclineReason::CardNotEligible),
        note: format!(
            "card declined: {CARD_NOT_ELIGIBLE} ({} last4 {})",
            card.card_brand.as_deref().unwrap_or("card"),
            card.card_last4.as_deref().unwrap_or("????")
        ),
    }
}

/// The reason a card is refused for an order with a credit-card benefit code.
pub const CARD_NOT_ELIGIBLE: &str = "cardNotEligible";

/// A saved-card payment without a logged-in customer: failed, `paymentError`.
pub fn login_needed_answer() -> PaymentUpdate {
    word(
        PaymentStatus::Failed,
        Some(codes::PAYMENT_ERROR),
        "failed: savedCard needs a logged-in customer",
    )
}

/// How `amount` splits into `count` monthly payments: the first carries the remainder.
/// Returns (first, each of the others).
pub fn installment_plan(amount: i64, count: i64) -> (i64, i64) {
    let count = count.max(1);
    let each = amount / count;
    (amount - each * (count - 1), each)
}
