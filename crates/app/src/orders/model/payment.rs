//! A payment: its method and status, how a provider's word moves it, and what finalisation
//! answers.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use serde::{Deserialize, Serialize};

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentMethodValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentMethod {
    Card,
    SavedCard,
    Paypal,
    Blik,
    Payu,
    Voucher,
}

impl PaymentMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "card",
            PaymentMethod::SavedCard => "savedCard",
            PaymentMethod::Paypal => "paypal",
            PaymentMethod::Blik => "blik",
            PaymentMethod::Payu => "payu",
            PaymentMethod::Voucher => "voucher",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentMethod> {
        [
            PaymentMethod::Card,
            PaymentMethod::SavedCard,
            PaymentMethod::Paypal,
            PaymentMethod::Blik,
            PaymentMethod::Payu,
            PaymentMethod::Voucher,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

/// Where a payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentStatusValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentStatus {
    Created,
    /// The card's 3-D Secure check is waiting.
    Challenge,
    /// Blik: waiting for the buyer to confirm in the bank's app.
    AwaitingBank,
    /// PayU or PayPal: the buyer is on the provider's page.
    Redirected,
    Authorized,
    /// Paid: the order is a reservation.
    Captured,
    Declined,
    Failed,
    Refunded,
    Expired,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Created => "created",
            PaymentStatus::Challenge => "challenge",
            PaymentStatus::AwaitingBank => "awaitingBank",
            PaymentStatus::Redirected => "redirected",
            PaymentStatus::Authorized => "authorized",
            PaymentStatus::Captured => "captured",
            PaymentStatus::Declined => "declined",
            PaymentStatus::Failed => "failed",
            PaymentStatus::Refunded => "refunded",
            PaymentStatus::Expired => "expired",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentStatus> {
        use PaymentStatus::*;
        [
            Created,
            Challenge,
            AwaitingBank,
            Redirected,
            Authorized,
            Captured,
            Declined,
            Failed,
            Refunded,
            Expired,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }

    /// Still waiting for the buyer or the provider.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            PaymentStatus::Created
                | PaymentStatus::Challenge
                | PaymentStatus::AwaitingBank
                | PaymentStatus::Redirected
        )
    }

    /// The money is there: a payment is "paid" once authorized, before it is captured.
    pub fn is_paid(self) -> bool {
        matches!(self, PaymentStatus::Authorized | PaymentStatus::Captured)
    }
}

/// What a provider's word does to a payment as it stands. A payment only moves forward: while
/// open it takes any later word; once it has ended (authorized, captured, declined, failed,
/// expired, refunded) a word changes nothing, with one exception: money authorized for a payment
/// that had already ended without it is given straight back ([`PaymentMove::VoidLate`]), never
/// captured, so a buyer is never charged for seats the shop stopped holding for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PaymentMove {
    /// The payment takes the word's status.
    To(PaymentStatus),
    /// An authorization that came after the payment had expired, been declined or failed: the
    /// payment is refunded at once (`failure_code` [`payment_codes::LATE_AUTHORIZATION`]).
    VoidLate,
    /// Nothing changes: a duplicate, a word that would move backwards, or a word after the end.
    Stay,
}

/// How long a signed callback stays good: a callback whose own time stamp is further than this
/// from the server's clock (either way) is refused, so a captured one cannot be replayed later.
pub const CALLBACK_WINDOW_SECONDS: i64 = 5 * 60;

/// Whether a callback stamped `sent_at_s` (Unix seconds) is inside `window_s` of `now_ms`.
pub fn callback_in_window(sent_at_s: i64, now_ms: i64, window_s: i64) -> bool {
    let gap_ms = now_ms.saturating_sub(sent_at_s.saturating_mul(1000));
    gap_ms.saturating_abs() <= window_s.max(0).saturating_mul(1000)
}

/// How the word `word` moves a payment that is `current` (see [`PaymentMove`]).
pub fn payment_move(current: PaymentStatus, word: PaymentStatus) -> PaymentMove {
    use PaymentStatus::*;
    match (current, word) {
        // Back to the start, or to a state only the shop itself writes (captured, refunded).
        (_, Created | Captured | Refunded) => PaymentMove::Stay,
        (c, w) if c.is_open() => {
            if c == w {
                PaymentMove::Stay
            } else {
                PaymentMove::To(w)
            }
        }
        (Declined | Failed | Expired, Authorized) => PaymentMove::VoidLate,
        _ => PaymentMove::Stay,
    }
}

/// The spec's payment codes (section 8), as stored in `failure_code`: what a provider may say a
/// payment failed with, whichever provider it is.
pub mod payment_codes {
    pub const PAYMENT_ERROR: &str = "paymentError";
    pub const BLIK_ERROR: &str = "blikError";
    pub const PAYU_ERROR: &str = "payUerror";
    pub const PAYU_3DS_ERROR: &str = "payU_3DS_error";
    pub const ERROR_NO_RESPONSE: &str = "errorNoResponse";
    pub const ERROR_RESPONSE: &str = "errorResponse";
    pub const FORM_VALIDATION: &str = "formValidation";
    /// Not a provider's code: money authorized after the payment had ended, given back at once.
    pub const LATE_AUTHORIZATION: &str = "lateAuthorization";
    /// Every code a payment may fail with.
    pub const ALL: [&str; 6] = [
        PAYMENT_ERROR,
        BLIK_ERROR,
        PAYU_ERROR,
        PAYU_3DS_ERROR,
        ERROR_NO_RESPONSE,
        ERROR_RESPONSE,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: String,
    pub order_id: ReservationId,
    pub session_id: SessionId,
    /// The customer logged in (login cookie) when the payment started: whose saved cards it may
    /// use, and who a card it saves belongs to.
    pub customer_id: Option<i64>,
    pub method: PaymentMethod,
    pub amount: Money,
    pub currency: String,
    pub installments: i64,
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub save_card: bool,
    pub failure_code: Option<String>,
    /// Why it was declined, when the provider said (see [`DeclineReason`]).
    pub decline_reason: Option<crate::orders::DeclineReason>,
    pub locale: String,
    pub return_url: String,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

impl Payment {
    /// The failure code to tell the buyer: none once paid (a code from an earlier try is history).
    pub fn failure_code_for_buyer(&self) -> Option<String> {
        if self.status.is_paid() {
            None
        } else {
            self.failure_code.clone()
        }
    }

    /// The decline reason to tell the buyer: none once paid.
    pub fn decline_reason_for_buyer(&self) -> Option<crate::orders::DeclineReason> {
        if self.status.is_paid() {
            None
        } else {
            self.decline_reason
        }
    }
}

/// What a payment provider reports back about a payment (the callback's content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentUpdate {
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub failure_code: Option<String>,
    /// Why it was declined, when the provider said; only with declined or failed.
    pub decline_reason: Option<crate::orders::DeclineReason>,
    /// For the payment's event log; never card data.
    pub note: String,
}

impl PaymentUpdate {
    /// The same word, with the provider's reason for a decline.
    pub fn because(mut self, reason: crate::orders::DeclineReason) -> PaymentUpdate {
        self.decline_reason = Some(reason);
        self
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finalised {
    /// Turned paid now, by this call.
    Paid(Order),
    /// Paid earlier by this same payment (a callback arriving twice, or the commit after it).
    AlreadyPaid(Order),
    /// The payment is not (or no longer) authorized.
    NotAuthorized(PaymentStatus),
    /// A held seat was lost (its hold expired and another buyer took it): nothing was written.
    HoldsLost,
    /// A code's uses, or a reference option's places, ran out before this order was paid:
    /// nothing was written.
    CodeUsedUp,
    /// The order was already paid by another payment.
    PaidByAnother(Order),
    /// A ticket of the order does not fit its seat (a wheelchair ticket on an ordinary seat):
    /// nothing was written, and the payment was refunded.
    TicketsRefused,
}

/// What a provider is asked to give back: an amount of a captured payment, under a key that makes
/// asking twice give it once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GatewayRefund {
    pub key: String,
    pub amount: Money,
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
    use super::PaymentStatus::*;
    use super::*;

    #[test]
    fn a_callback_is_good_within_its_window_either_way() {
        let now = 1_900_000_000_000;
        assert!(callback_in_window(1_900_000_000, now, 300));
        assert!(callback_in_window(1_900_000_000 - 300, now, 300));
        assert!(
            callback_in_window(1_900_000_000 + 300, now, 300),
            "a gateway's clock a little ahead"
        );
        assert!(!callback_in_window(1_900_000_000 - 301, now, 300));
        assert!(!callback_in_window(1_900_000_000 + 301, now, 300));
        assert!(!callback_in_window(i64::MIN, now, 300));
        assert!(!callback_in_window(i64::MAX, now, 300));
        assert!(!callback_in_window(0, now, 300));
    }

    #[test]
    fn an_open_payment_takes_any_later_word() {
        for open in [Created, Challenge, AwaitingBank, Redirected] {
            for word in [Authorized, Declined, Failed, Expired] {
                assert_eq!(
                    payment_move(open, word),
                    PaymentMove::To(word),
                    "{open:?} {word:?}"
                );
            }
            assert_eq!(
                payment_move(open, Created),
                PaymentMove::Stay,
                "never back to the start"
            );
        }
        assert_eq!(payment_move(Created, Challenge), PaymentMove::To(Challenge));
        assert_eq!(payment_move(Challenge, Challenge), PaymentMove::Stay);
    }

    #[test]
    fn an_ended_payment_stays_ended_and_a_late_authorization_is_voided() {
        for ended in [Declined, Failed, Expired] {
            assert_eq!(
                payment_move(ended, Authorized),
                PaymentMove::VoidLate,
                "{ended:?}"
            );
            for word in [
                Created,
                Challenge,
                AwaitingBank,
                Redirected,
                Declined,
                Failed,
                Expired,
            ] {
                assert_eq!(
                    payment_move(ended, word),
                    PaymentMove::Stay,
                    "{ended:?} {word:?}"
                );
            }
        }
        for paid in [Authorized, Captured, Refunded] {
            for word in [
                Created,
                Challenge,
                AwaitingBank,
                Redirected,
                Authorized,
                Declined,
                Failed,
                Expired,
            ] {
                assert_eq!(
                    payment_move(paid, word),
                    PaymentMove::Stay,
                    "{paid:?} {word:?}"
                );
            }
        }
    }
}
