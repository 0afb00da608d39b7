//! The built-in test payment gateway (docs/decisions/0008): its adapter for the PaymentGateway
//! port, its rules as pure functions (below), and its hosted pages under /pay/ ([`pages`], with
//! their HTML in `html`). Real code paths, offline: a payment can be declined, need 3-D Secure,
//! wait for a bank app, be called back twice, time out, or be refunded.

mod html;
pub mod pages;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::error::AppResult;
use kupa_app::orders::{GatewayRefund, Payment, PaymentGateway};

/// The test gateway, with its own books of what it has given back: each payment's refunds by
/// key, never more than the payment's amount, and a key asked twice gives the money once. The
/// books live in the process (a real provider keeps its own, elsewhere); tests read them, and
/// may make the next refunds fail to see a refund stay pending and be retried.
#[derive(Debug, Default)]
pub struct TestGateway {
    books: Mutex<HashMap<String, RefundBook>>,
    refunds_fail: AtomicBool,
}

#[derive(Debug, Default, Clone)]
struct RefundBook {
    by_key: HashMap<String, i64>,
}

impl RefundBook {
    fn total(&self) -> i64 {
        self.by_key.values().sum()
    }
}

impl TestGateway {
    /// While on, every refund fails as a provider that does not answer would.
    pub fn fail_refunds(&self, on: bool) {
        self.refunds_fail.store(on, Ordering::SeqCst);
    }

    /// What the gateway has given back of a payment.
    pub fn refunded(&self, payment_id: &str) -> i64 {
        self.books
            .lock()
            .expect("the books' lock")
            .get(payment_id)
            .map_or(0, RefundBook::total)
    }

    /// How many distinct refunds the gateway made of a payment.
    pub fn refund_count(&self, payment_id: &str) -> usize {
        self.books
            .lock()
            .expect("the books' lock")
            .get(payment_id)
            .map_or(0, |b| b.by_key.len())
    }
}

#[async_trait]
impl PaymentGateway for TestGateway {
    fn form_url(&self, payment: &Payment) -> String {
        format!("/pay/{}?locale={}", payment.id, payment.locale)
    }

    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        if self.refunds_fail.load(Ordering::SeqCst) {
            tracing::warn!(payment = %payment.id, refund = %refund.key, "test gateway: refund failed (told to fail)");
            return Err(AppError::Unavailable(
                "the test gateway did not answer the refund".into(),
            ));
        }
        let mut books = self.books.lock().expect("the books' lock");
        let book = books.entry(payment.id.clone()).or_default();
        if book.by_key.contains_key(&refund.key) {
            return Ok(());
        }
        if refund.amount <= 0 || book.total() + refund.amount > payment.amount {
            return Err(AppError::internal(format!(
                "test gateway: refund {} of {} would exceed the {} paid ({} back already)",
                refund.key,
                refund.amount,
                payment.amount,
                book.total()
            )));
        }
        book.by_key.insert(refund.key.clone(), refund.amount);
        tracing::info!(payment = %payment.id, refund = %refund.key, amount = refund.amount, "test gateway: refund issued");
        Ok(())
    }

    fn timed_out(&self, payment: &Payment, now_ms: i64) -> Option<PaymentUpdate> {
        timed_out(payment.created_at_ms, payment.status, now_ms).then(timed_out_answer)
    }
}

// ------------------------------------------------------------------------------------------
// The gateway's rules: what the hosted pages (`pages`) decide, as pure functions.
// Each returns the provider's word as a `PaymentUpdate` for `OrderService::payment_callback`.
// Card input goes in, and only the brand, the BIN and the last four digits come out: the number
// and the security code are never kept, logged or written into a note.

use std::fmt;

use kupa_app::orders::{DeclineReason, PaymentStatus, PaymentUpdate};
use kupa_domain::checkout::PAYMENT_WINDOW_SECONDS;
use kupa_domain::ids::IsraeliId;

/// The documented test cards (docs/api.md, "The test payment gateway").
pub mod cards {
    /// Approved (Visa).
    pub const APPROVED_VISA: &str = "4242424242424242";
    /// Approved (an Israeli-issued Visa).
    pub const APPROVED_ISRAELI_VISA: &str = "4580458045804580";
    /// Approved (Mastercard).
    pub const APPROVED_MASTERCARD: &str = "5555555555554444";
    /// Approved (American Express: a 4-digit security code).
    pub const APPROVED_AMEX: &str = "378282246310005";
    /// Approved (an Isracard private-label card: 9 digits, Isracard's own check digit).
    pub const APPROVED_ISRACARD: &str = "123456789";
    /// Declined by the issuer: `paymentError`, reason `declined`.
    pub const DECLINED: &str = "4000000000000002";
    /// Declined for insufficient funds: `paymentError`, reason `insufficientFunds`.
    pub const INSUFFICIENT_FUNDS: &str = "4000000000009995";
    /// Declined as expired by the issuer: `paymentError`, reason `expiredCard`.
    pub const EXPIRED_CARD: &str = "4000000000000069";
    /// Declined as lost (blocked) by the issuer: `paymentError`, reason `cardBlocked`.
    pub const CARD_BLOCKED: &str = "4000000000009987";
    /// Asks for 3-D Secure: the code [`super::THREE_DS_CODE`] passes, anything else declines.
    pub const THREE_D_SECURE: &str = "4000000000003220";
    /// The issuer never answers: failed, `errorNoResponse`.
    pub const NO_RESPONSE: &str = "4000000000000119";
}

/// The one 3-D Secure code that passes.
pub const THREE_DS_CODE: &str = "1234";
/// The Blik code the bank refuses at once (`blikError`).
pub const BLIK_REFUSED_CODE: &str = "777777";
/// An open payment (form, 3-D Secure, bank app, provider page) times out after the payment
/// window, the same window that keeps the seats held while paying.
pub const PAYMENT_WINDOW_MS: i64 = PAYMENT_WINDOW_SECONDS * 1000;

/// The spec's payment codes (section 8), as stored in `failure_code`.
pub use kupa_app::orders::payment_codes as codes;

/// Malformed input (`formValidation`): the names of the fields to fix, in form order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InvalidFields(pub Vec<&'static str>);

impl InvalidFields {
    pub fn code(&self) -> &'static str {
        codes::FORM_VALIDATION
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardBrand {
    Visa,
    Mastercard,
    Amex,
    Diners,
    Discover,
    Jcb,
    /// Isracard's Israeli private-label cards (8 or 9 digits).
    Isracard,
}

impl CardBrand {
    pub fn as_str(self) -> &'static str {
        match self {
            CardBrand::Visa => "visa",
            CardBrand::Mastercard => "mastercard",
            CardBrand::Amex => "amex",
            CardBrand::Diners => "diners",
            CardBrand::Discover => "discover",
            CardBrand::Jcb => "jcb",
            CardBrand::Isracard => "isracard",
        }
    }

    /// The brand a card number belongs to, from its prefix and length (digits only).
    pub fn of(digits: &str) -> Option<CardBrand> {
        let len = digits.len();
        let prefix = |n: usize| {
            digits
                .get(..n)
                .and_then(|p| p.parse::<u32>().ok())
                .unwrap_or(0)
        };
        if (8..=9).contains(&len) {
            return Some(CardBrand::Isracard);
        }
        let brand = match (prefix(1), prefix(2), prefix(3), prefix(4)) {
            (4, ..) => CardBrand::Visa,
            (_, 34 | 37, ..) => CardBrand::Amex,
            (_, 51..=55, ..) | (.., 2221..=2720) => CardBrand::Mastercard,
            (_, 36 | 38 | 39, ..) | (_, _, 300..=305, _) => CardBrand::Diners,
            (_, 65, ..) | (_, _, 644..=649, _) | (.., 6011) => CardBrand::Discover,
            (.., 3528..=3589) => CardBrand::Jcb,
            _ => return None,
        };
        let lengths: &[usize] = match brand {
            CardBrand::Visa => &[13, 16, 19],
            CardBrand::Amex => &[15],
            CardBrand::Mastercard => &[16],
            CardBrand::Diners => &[14, 15, 16, 17, 18, 19],
            CardBrand::Discover | CardBrand::Jcb => &[16, 17, 18, 19],
            CardBrand::Isracard => &[8, 9],
        };
        lengths.contains(&len).then_some(brand)
    }

    fn cvv_len(self) -> usize {
        if self == CardBrand::Amex { 4 } else { 3 }
    }
}

/// The Luhn (mod 10) check of international card numbers.
pub fn luhn(digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let d = u32::from(c - b'0');
            if i % 2 == 1 {
                let d = d * 2;
                if d > 9 { d - 9 } else { d }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Isracard's check of its 8- and 9-digit private-label numbers: padded to 9 digits, the digits
/// weighted 9 down to 1 sum to a multiple of 11.
pub fn isracard_check(digits: &str) -> bool {
    if !(8..=9).contains(&digits.len()) || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let padded = format!("{digits:0>9}");
    let sum: u32 = padded
        .bytes()
        .enumerate()
        .map(|(i, c)| u32::from(c - b'0') * (9 - i as u32))
        .sum();
    sum.is_multiple_of(11) && padded != "000000000"
}

/// "MM/YY" (also "MM/YYYY", "MMYY", "MM-YY", spaces ignored) → (year, month).
pub fn parse_expiry(raw: &str) -> Option<(i32, u32)> {
    let s: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let (mm, yy) = match s.split_once(['/', '-']) {
        Some((m, y)) => (m.to_owned(), y.to_owned()),
        None if s.len() == 4 => (s[..2].to_owned(), s[2..].to_owned()),
        None => return None,
    };
    if !(1..=2).contains(&mm.len())
        || !mm.bytes().all(|c| c.is_ascii_digit())
        || !yy.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let month: u32 = mm.parse().ok()?;
    let year: i32 = match yy.len() {
        2 => 2000 + yy.parse::<i32>().ok()?,
        4 => yy.parse().ok()?,
        _ => return None,
    };
    (1..=12).contains(&month).then_some((year, month))
}

/// A card is good through the last day of its expiry month (in Israel), and no card is issued
/// for more than 20 years.
pub fn expiry_ok(year: i32, month: u32, now_ms: i64) -> bool {
    let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
    let now = i32::from(today.year()) * 12 + i32::from(today.month());
    let exp = year * 12 + month as i32;
    exp >= now && exp <= now + 20 * 12
}

/// What the buyer typed into the card form. Its `Debug` shows no card data.
pub struct CardInput<'a> {
    pub number: &'a str,
    /// MM/YY.
    pub expiry: &'a str,
    pub cvv: &'a str,
    /// The holder's Israeli ID; empty when not given.
    pub holder_id: &'a str,
}

impl fmt::Debug for CardInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CardInput { .. }")
    }
}

/// What may be kept of a card: brand, BIN (first six) and last four. An Isracard number is too
/// short to show both without showing nearly all of it, so it keeps no BIN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFacts {
    pub brand: CardBrand,
    pub bin: Option<String>,
    pub last4: String,
}

impl CardFacts {
    fn describe(&self) -> String {
        match &self.bin {
            Some(bin) => format!("{} bin {bin} last4 {}", self.brand.as_str(), self.last4),
            None => format!("{} last4 {}", self.brand.as_str(), self.last4),
        }
    }

    fn update(
        &self,
        status: PaymentStatus,
        failure: Option<&'static str>,
        note: String,
    ) -> PaymentUpdate {
        PaymentUpdate {
            status,
            card_brand: Some(self.brand.as_str().to_owned()),
            card_last4: Some(self.last4.clone()),
            card_bin: self.bin.clone(),
            failure_code: failure.map(str::to_owned),
            decline_reason: None,
            note,
        }
    }
}

fn digits_of(raw: &str) -> Option<String> {
    let kept: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (!kept.is_empty() && kept.bytes().all(|c| c.is_ascii_digit())).then_some(kept)
}

/// Checks the card form and decides as the issuer would: approved (authorized), a 3-D Secure
/// challenge, or declined. Malformed fields are `formValidation` with their names
/// (`cardNumber`, `expiry`, `cvv`, `holderId`).
pub fn check_card(input: &CardInput, now_ms: i64) -> Result<PaymentUpdate, InvalidFields> {
    let mut bad = Vec::new();
    let number = digits_of(input.number);
    let brand = number.as_deref().and_then(|n| {
        let brand = CardBrand::of(n)?;
        let checked = if brand == CardBrand::Isracard {
            isracard_check(n)
        } else {
            luhn(n)
        };
        checked.then_some(brand)
    });
    if brand.is_none() {
        bad.push("cardNumber");
    }
    if !parse_expiry(input.expiry).is_some_and(|(y, m)| expiry_ok(y, m, now_ms)) {
        bad.push("expiry");
    }
    let cvv = input.cvv.trim();
    let cvv_len_ok = match brand {
        Some(b) => cvv.len() == b.cvv_len(),
        None => (3..=4).contains(&cvv.len()),
    };
    if !cvv_len_ok || !cvv.bytes().all(|c| c.is_ascii_digit()) {
        bad.push("cvv");
    }
    let id = input.holder_id.trim();
    if !id.is_empty() && IsraeliId::parse(id).is_none() {
        bad.push("holderId");
    }
    let (Some(number), Some(brand), true) = (number, brand, bad.is_empty()) else {
        return Err(InvalidFields(bad));
    };
    let facts = CardFacts {
        brand,
        bin: (brand != CardBrand::Isracard).then(|| number[..6].to_owned()),
        last4: number[number.len() - 4..].to_owned(),
    };
    let card = facts.describe();
    Ok(match number.as_str() {
        cards::DECLINED => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: declined ({card})"),
            )
            .because(DeclineReason::Declined),
        cards::INSUFFICIENT_FUNDS => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: insufficientFunds ({card})"),
            )
            .because(DeclineReason::InsufficientFunds),
        cards::EXPIRED_CARD => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: expiredCard ({card})"),
            )
            .because(DeclineReason::ExpiredCard),
        cards::CARD_BLOCKED => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: cardBlocked ({card})"),
            )
            .because(DeclineReason::CardBlocked),
        cards::NO_RESPONSE => facts.update(
            PaymentStatus::Failed,
            Some(codes::ERROR_NO_RESPONSE),
            format!("card failed: the issuer did not answer ({card})"),
        ),
        cards::THREE_D_SECURE => facts.update(
            PaymentStatus::Challenge,
            None,
            format!("card needs 3-D Secure ({card})"),
        ),
        _ => facts.update(
            PaymentStatus::Authorized,
            None,
            format!("card approved ({card})"),
        ),
    })
}

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

/// What is kept of a saved card, as the saved-card page pays with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCardFacts<'a> {
    pub brand: &'a str,
    pub bin: Option<&'a str>,
    pub last4: &'a str,
    pub expiry_year: i32,
    pub expiry_month: u32,
}

/// Paying with a saved card: its security code (4 digits for Amex, else 3) is checked, an
/// expired card is declined (`paymentError`, `expiredCard`), and any other is approved.
pub fn check_saved_card(
    card: &SavedCardFacts,
    cvv: &str,
    now_ms: i64,
) -> Result<PaymentUpdate, InvalidFields> {
    let cvv = cvv.trim();
    let len = if card.brand == CardBrand::Amex.as_str() {
        4
    } else {
        3
    };
    if cvv.len() != len || !cvv.bytes().all(|c| c.is_ascii_digit()) {
        return Err(InvalidFields(vec!["cvv"]));
    }
    let described = format!("saved {} last4 {}", card.brand, card.last4);
    let update = |status, failure: Option<&str>, note: String| PaymentUpdate {
        status,
        card_brand: Some(card.brand.to_owned()),
        card_last4: Some(card.last4.to_owned()),
        card_bin: card.bin.map(str::to_owned),
        failure_code: failure.map(str::to_owned),
        decline_reason: None,
        note,
    };
    let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
    let now = i32::from(today.year()) * 12 + i32::from(today.month());
    if card.expiry_year * 12 + (card.expiry_month as i32) < now {
        return Ok(update(
            PaymentStatus::Declined,
            Some(codes::PAYMENT_ERROR),
            format!("card declined: expiredCard ({described})"),
        )
        .because(DeclineReason::ExpiredCard));
    }
    Ok(update(
        PaymentStatus::Authorized,
        None,
        format!("card approved ({described})"),
    ))
}

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

#[cfg(test)]
mod rules {
    use super::*;

    /// 2026-05-10 12:00 UTC.
    const NOW: i64 = 1_778_414_400_000;

    fn card<'a>(number: &'a str, expiry: &'a str, cvv: &'a str, id: &'a str) -> CardInput<'a> {
        CardInput {
            number,
            expiry,
            cvv,
            holder_id: id,
        }
    }

    #[test]
    fn the_test_cards_pass_their_checks() {
        for n in [
            cards::APPROVED_VISA,
            cards::APPROVED_ISRAELI_VISA,
            cards::APPROVED_MASTERCARD,
            cards::APPROVED_AMEX,
            cards::DECLINED,
            cards::INSUFFICIENT_FUNDS,
            cards::THREE_D_SECURE,
            cards::NO_RESPONSE,
        ] {
            assert!(luhn(n), "{n}");
            assert!(CardBrand::of(n).is_some(), "{n}");
        }
        assert!(isracard_check(cards::APPROVED_ISRACARD));
        assert!(!luhn("4242424242424241"));
        assert!(!luhn(""));
        assert!(!isracard_check("123456780"));
        assert!(!isracard_check("000000000"));
    }

    #[test]
    fn brands_come_from_the_number() {
        assert_eq!(CardBrand::of("4242424242424242"), Some(CardBrand::Visa));
        assert_eq!(
            CardBrand::of("5555555555554444"),
            Some(CardBrand::Mastercard)
        );
        assert_eq!(
            CardBrand::of("2223003122003222"),
            Some(CardBrand::Mastercard)
        );
        assert_eq!(CardBrand::of("378282246310005"), Some(CardBrand::Amex));
        assert_eq!(CardBrand::of("30569309025904"), Some(CardBrand::Diners));
        assert_eq!(CardBrand::of("6011111111111117"), Some(CardBrand::Discover));
        assert_eq!(CardBrand::of("3530111333300000"), Some(CardBrand::Jcb));
        assert_eq!(CardBrand::of("123456789"), Some(CardBrand::Isracard));
        assert_eq!(CardBrand::of("9999999999999995"), None);
        assert_eq!(
            CardBrand::of("42424242424242"),
            None,
            "a Visa has 13, 16 or 19 digits"
        );
    }

    #[test]
    fn an_approved_card_keeps_only_brand_bin_and_last_four() {
        let u = check_card(&card("4242 4242 4242 4242", "12/30", "123", ""), NOW).unwrap();
        assert_eq!(u.status, PaymentStatus::Authorized);
        assert_eq!(
            (
                u.card_brand.as_deref(),
                u.card_bin.as_deref(),
                u.card_last4.as_deref()
            ),
            (Some("visa"), Some("424242"), Some("4242"))
        );
        assert_eq!(u.failure_code, None);
        assert!(
            !u.note.contains("4242424242424242") && !u.note.contains("123 "),
            "{}",
            u.note
        );
        let u = check_card(
            &card(cards::APPROVED_ISRAELI_VISA, "05/26", "999", "000000018"),
            NOW,
        )
        .unwrap();
        assert_eq!(
            u.status,
            PaymentStatus::Authorized,
            "a card is good through its expiry month"
        );
        let u = check_card(&card(cards::APPROVED_ISRACARD, "0129", "123", ""), NOW).unwrap();
        assert_eq!(
            (
                u.card_brand.as_deref(),
                u.card_bin.as_deref(),
                u.card_last4.as_deref()
            ),
            (Some("isracard"), None, Some("6789"))
        );
        let u = check_card(&card(cards::APPROVED_AMEX, "01/2029", "1234", ""), NOW).unwrap();
        assert_eq!(u.card_brand.as_deref(), Some("amex"));
    }

    #[test]
    fn special_cards_decline_fail_or_challenge() {
        let u = check_card(&card(cards::DECLINED, "12/30", "123", ""), NOW).unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert!(u.note.contains("declined"));
        let u = check_card(&card(cards::INSUFFICIENT_FUNDS, "12/30", "123", ""), NOW).unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert!(u.note.contains("insufficientFunds"));
        let u = check_card(&card(cards::NO_RESPONSE, "12/30", "123", ""), NOW).unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Failed, Some("errorNoResponse"))
        );
        let u = check_card(&card(cards::THREE_D_SECURE, "12/30", "123", ""), NOW).unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref(), u.card_last4.as_deref()),
            (PaymentStatus::Challenge, None, Some("3220"))
        );
        assert!(!u.note.contains(cards::THREE_D_SECURE));
    }

    #[test]
    fn malformed_card_fields_are_named() {
        let e = check_card(
            &card("4242 4242 4242 4241", "13/30", "12", "123456789"),
            NOW,
        )
        .unwrap_err();
        assert_eq!(e.0, vec!["cardNumber", "expiry", "cvv", "holderId"]);
        assert_eq!(e.code(), "formValidation");
        assert_eq!(
            check_card(&card("", "", "", ""), NOW).unwrap_err().0,
            vec!["cardNumber", "expiry", "cvv"]
        );
        assert_eq!(
            check_card(&card("4242x242424242424", "12/30", "123", ""), NOW)
                .unwrap_err()
                .0,
            vec!["cardNumber"]
        );
        assert_eq!(
            check_card(&card(cards::APPROVED_VISA, "04/26", "123", ""), NOW)
                .unwrap_err()
                .0,
            vec!["expiry"],
            "expired last month"
        );
        assert_eq!(
            check_card(&card(cards::APPROVED_VISA, "12/99", "123", ""), NOW)
                .unwrap_err()
                .0,
            vec!["expiry"],
            "too far ahead"
        );
        assert_eq!(
            check_card(&card(cards::APPROVED_VISA, "12/30", "1234", ""), NOW)
                .unwrap_err()
                .0,
            vec!["cvv"],
            "a Visa code has 3 digits"
        );
        assert_eq!(
            check_card(&card(cards::APPROVED_AMEX, "12/30", "123", ""), NOW)
                .unwrap_err()
                .0,
            vec!["cvv"],
            "an Amex code has 4"
        );
        assert_eq!(
            check_card(&card(cards::APPROVED_VISA, "12/30", "12a", ""), NOW)
                .unwrap_err()
                .0,
            vec!["cvv"]
        );
        assert_eq!(
            check_card(
                &card(cards::APPROVED_VISA, "12/30", "123", "12345678a"),
                NOW
            )
            .unwrap_err()
            .0,
            vec!["holderId"]
        );
    }

    #[test]
    fn card_input_debug_shows_no_card_data() {
        let shown = format!(
            "{:?}",
            card(cards::APPROVED_VISA, "12/30", "123", "000000018")
        );
        assert!(!shown.contains("4242") && !shown.contains("123"), "{shown}");
    }

    #[test]
    fn expiry_forms() {
        assert_eq!(parse_expiry("12/30"), Some((2030, 12)));
        assert_eq!(parse_expiry(" 1 / 2031 "), Some((2031, 1)));
        assert_eq!(parse_expiry("0128"), Some((2028, 1)));
        assert_eq!(parse_expiry("01-28"), Some((2028, 1)));
        assert_eq!(parse_expiry("00/28"), None);
        assert_eq!(parse_expiry("13/28"), None);
        assert_eq!(parse_expiry("1/2"), None);
        assert_eq!(parse_expiry("ab/cd"), None);
        assert!(expiry_ok(2026, 5, NOW));
        assert!(!expiry_ok(2026, 4, NOW));
    }

    #[test]
    fn three_d_secure_passes_only_with_its_code() {
        assert_eq!(
            check_three_ds("1234").unwrap().status,
            PaymentStatus::Authorized
        );
        let u = check_three_ds("0000").unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert_eq!(check_three_ds(" ").unwrap_err().0, vec!["code"]);
    }

    #[test]
    fn blik_codes() {
        assert_eq!(
            check_blik_code("123 456").unwrap().status,
            PaymentStatus::AwaitingBank
        );
        let u = check_blik_code("777777").unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("blikError"))
        );
        for bad in ["12345", "1234567", "12345a", ""] {
            assert_eq!(check_blik_code(bad).unwrap_err().0, vec!["code"], "{bad}");
        }
        assert_eq!(bank_app_answer(true).status, PaymentStatus::Authorized);
        let u = bank_app_answer(false);
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("blikError"))
        );
    }

    #[test]
    fn payu_and_paypal_answers() {
        assert_eq!(PayuChoice::parse("pay"), Some(PayuChoice::Pay));
        assert_eq!(PayuChoice::parse("nope"), None);
        assert_eq!(
            payu_answer(PayuChoice::Pay).status,
            PaymentStatus::Authorized
        );
        let u = payu_answer(PayuChoice::ThreeDsFails);
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("payU_3DS_error"))
        );
        let u = payu_answer(PayuChoice::Error);
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Failed, Some("payUerror"))
        );
        assert_eq!(paypal_answer(true).status, PaymentStatus::Authorized);
        let u = paypal_answer(false);
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert_eq!(redirected("payu").status, PaymentStatus::Redirected);
    }

    #[test]
    fn open_payments_time_out_after_the_window() {
        assert!(!timed_out(
            NOW,
            PaymentStatus::Created,
            NOW + PAYMENT_WINDOW_MS - 1
        ));
        assert!(timed_out(
            NOW,
            PaymentStatus::Challenge,
            NOW + PAYMENT_WINDOW_MS
        ));
        assert!(
            !timed_out(NOW, PaymentStatus::Captured, NOW + PAYMENT_WINDOW_MS * 2),
            "only open payments time out"
        );
        let u = timed_out_answer();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Expired, Some("errorNoResponse"))
        );
        assert_eq!(
            unsupported_method_answer("savedCard").status,
            PaymentStatus::Failed
        );
    }

    #[test]
    fn saved_cards_check_their_code_and_expiry() {
        let visa = SavedCardFacts {
            brand: "visa",
            bin: Some("424242"),
            last4: "4242",
            expiry_year: 2026,
            expiry_month: 5,
        };
        let u = check_saved_card(&visa, "123", NOW).unwrap();
        assert_eq!(
            (u.status, u.card_last4.as_deref(), u.card_bin.as_deref()),
            (PaymentStatus::Authorized, Some("4242"), Some("424242"))
        );
        assert_eq!(
            check_saved_card(&visa, "12", NOW).unwrap_err().0,
            vec!["cvv"]
        );
        assert_eq!(
            check_saved_card(&visa, "1234", NOW).unwrap_err().0,
            vec!["cvv"]
        );
        let old = SavedCardFacts {
            expiry_month: 4,
            ..visa.clone()
        };
        let u = check_saved_card(&old, "123", NOW).unwrap();
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert!(u.note.contains("expiredCard"));
        let amex = SavedCardFacts {
            brand: "amex",
            ..visa
        };
        assert!(check_saved_card(&amex, "1234", NOW).is_ok());
        let u = not_eligible_answer(&check_saved_card(&amex, "1234", NOW).unwrap());
        assert_eq!(
            (u.status, u.failure_code.as_deref()),
            (PaymentStatus::Declined, Some("paymentError"))
        );
        assert!(u.note.contains("cardNotEligible"), "{}", u.note);
        assert_eq!(
            login_needed_answer().failure_code.as_deref(),
            Some("paymentError")
        );
    }

    #[test]
    fn installments_put_the_remainder_first() {
        assert_eq!(installment_plan(4200, 1), (4200, 4200));
        assert_eq!(installment_plan(10_000, 3), (3334, 3333));
        assert_eq!(installment_plan(4200, 0), (4200, 4200));
    }
}
