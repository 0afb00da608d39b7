//! The built-in test payment gateway (docs/decisions/0008): its adapter for the PaymentGateway
//! port (here), its rules as pure functions (the card form's in `card`, the other steps' in
//! `answers`, with the test cards and codes below), and its hosted pages under /pay/ ([`pages`],
//! with their HTML in `html`). Real code paths, offline: a payment can be declined, need 3-D Secure,
//! wait for a bank app, be called back twice, time out, or be refunded.

mod answers;
mod card;
mod html;
pub mod pages;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::error::AppResult;
use kupa_app::orders::{GatewayRefund, Payment, PaymentGateway, PaymentUpdate};
use kupa_domain::checkout::PAYMENT_WINDOW_SECONDS;

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
        let amount = refund.amount.minor();
        if amount <= 0 || book.total() + amount > payment.amount.minor() {
            return Err(AppError::internal(format!(
                "test gateway: refund {} of {} would exceed the {} paid ({} back already)",
                refund.key,
                amount,
                payment.amount.minor(),
                book.total()
            )));
        }
        book.by_key.insert(refund.key.clone(), amount);
        tracing::info!(payment = %payment.id, refund = %refund.key, amount, "test gateway: refund issued");
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

pub use answers::*;
pub use card::*;

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
