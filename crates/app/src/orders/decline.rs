//! Why a payment was declined, as the buyer is told it: a provider's own reason codes
//! (Tranzila's, CreditGuard's, PayU's ...) mapped by its adapter to this small vocabulary, so the
//! payment dialog can say what happened and what to do. Stored beside the payment's
//! `failure_code` (the spec's code, which stays the answer's code); never card data.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum DeclineReason {
    /// The issuer refused without saying why.
    Declined,
    InsufficientFunds,
    ExpiredCard,
    /// Blocked, lost or stolen: this card cannot pay.
    CardBlocked,
    /// The issuer asks the card holder to call them before it approves.
    CallIssuer,
    /// The card's 3-D Secure (the bank's extra check) failed.
    ThreeDSecureFailed,
    /// The card cannot be used for this price (a promotion for another issuer's cards).
    CardNotEligible,
    /// Blik: the buyer rejected the payment in the bank's app.
    RejectedInBankApp,
    /// The buyer cancelled on the provider's page (PayPal, PayU).
    CancelledByBuyer,
}

impl DeclineReason {
    pub const ALL: [DeclineReason; 9] = [
        DeclineReason::Declined,
        DeclineReason::InsufficientFunds,
        DeclineReason::ExpiredCard,
        DeclineReason::CardBlocked,
        DeclineReason::CallIssuer,
        DeclineReason::ThreeDSecureFailed,
        DeclineReason::CardNotEligible,
        DeclineReason::RejectedInBankApp,
        DeclineReason::CancelledByBuyer,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DeclineReason::Declined => "declined",
            DeclineReason::InsufficientFunds => "insufficientFunds",
            DeclineReason::ExpiredCard => "expiredCard",
            DeclineReason::CardBlocked => "cardBlocked",
            DeclineReason::CallIssuer => "callIssuer",
            DeclineReason::ThreeDSecureFailed => "threeDSecureFailed",
            DeclineReason::CardNotEligible => "cardNotEligible",
            DeclineReason::RejectedInBankApp => "rejectedInBankApp",
            DeclineReason::CancelledByBuyer => "cancelledByBuyer",
        }
    }

    pub fn parse(s: &str) -> Option<DeclineReason> {
        DeclineReason::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_match_the_wire() {
        for r in DeclineReason::ALL {
            assert_eq!(DeclineReason::parse(r.as_str()), Some(r));
            let json = serde_json::to_string(&r).unwrap();
            assert_eq!(json, format!("\"{}\"", r.as_str()));
        }
        assert_eq!(DeclineReason::parse("Declined"), None);
        assert_eq!(DeclineReason::parse(""), None);
    }
}
