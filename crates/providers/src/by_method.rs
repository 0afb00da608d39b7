//! Payments routed by method (decision 0064): one [`PaymentGateway`] in front of the providers,
//! sending each call to the gateway of the payment's method. Cards and saved cards (and every
//! method with no provider of its own configured) go to the card gateway (the test gateway or
//! CardCom) exactly as before; PayPal to the PayPal gateway when one is configured; PayU and
//! Blik to PayU when it is configured. With nothing configured, nothing changes.
//!
//! Each method is offered where the gateway it goes to takes it ([`PaymentGateway::offer`]):
//! PayU takes Polish złoty only, CardCom cards only; a payment by a method not offered for its
//! order's currency is refused (`formValidation`) before any provider is called.

use std::sync::Arc;

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, MethodOffer, Payment, PaymentGateway, PaymentMethod, PaymentUpdate,
    SavedCardCharge, payment_codes,
};
use serde_json::json;

pub struct ByMethod {
    card: Arc<dyn PaymentGateway>,
    paypal: Option<Arc<dyn PaymentGateway>>,
    payu: Option<Arc<dyn PaymentGateway>>,
}

impl ByMethod {
    /// Every method to `card` until another gateway is added.
    pub fn new(card: Arc<dyn PaymentGateway>) -> ByMethod {
        ByMethod {
            card,
            paypal: None,
            payu: None,
        }
    }

    /// PayU for PayU and Blik payments.
    pub fn with_payu(self, payu: Option<Arc<dyn PaymentGateway>>) -> ByMethod {
        ByMethod { payu, ..self }
    }

    /// A PayPal gateway for PayPal payments.
    pub fn with_paypal(self, paypal: Option<Arc<dyn PaymentGateway>>) -> ByMethod {
        ByMethod { paypal, ..self }
    }

    pub fn has_payu(&self) -> bool {
        self.payu.is_some()
    }

    /// The gateway of a method: its own when configured, else the card gateway.
    fn of(&self, method: PaymentMethod) -> &Arc<dyn PaymentGateway> {
        let own = match method {
            PaymentMethod::Payu | PaymentMethod::Blik => self.payu.as_ref(),
            PaymentMethod::Paypal => self.paypal.as_ref(),
            _ => None,
        };
        own.unwrap_or(&self.card)
    }
}

#[async_trait]
impl PaymentGateway for ByMethod {
    fn form_url(&self, payment: &Payment) -> String {
        self.of(payment.method).form_url(payment)
    }

    /// A method is offered where the gateway it goes to takes it: PayU's methods in złoty when
    /// PayU takes them (the test gateway's simulated PayU and Blik stay offered in every
    /// currency, as before), and nothing but cards with CardCom alone.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        self.of(method).offer(method)
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        // The order service refuses a method not offered before it calls (`offers`); asked
        // anyway, the same answer here before any provider is called.
        if !self.offers(payment.method, &payment.currency) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "this payment method is not offered for this currency: choose another",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        self.of(payment.method).open_page(payment).await
    }

    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        self.of(payment.method).refund(payment, refund).await
    }

    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        self.of(payment.method).ask_provider(payment).await
    }

    /// A saved card is the card gateway's (CardCom charges it by its token, decision 0066).
    async fn charge_saved_card(
        &self,
        payment: &Payment,
        card_token: &str,
    ) -> AppResult<SavedCardCharge> {
        self.of(payment.method)
            .charge_saved_card(payment, card_token)
            .await
    }

    fn timed_out(&self, payment: &Payment, now_ms: i64) -> Option<PaymentUpdate> {
        self.of(payment.method).timed_out(payment, now_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A gateway taking one method in one currency, and nothing else.
    struct Only(PaymentMethod, &'static [&'static str]);

    #[async_trait]
    impl PaymentGateway for Only {
        fn offer(&self, method: PaymentMethod) -> MethodOffer {
            if method == self.0 {
                MethodOffer::Only(self.1)
            } else {
                MethodOffer::No
            }
        }
        fn form_url(&self, _payment: &Payment) -> String {
            String::new()
        }
        async fn refund(&self, _payment: &Payment, _refund: &GatewayRefund) -> AppResult<()> {
            Ok(())
        }
    }

    #[test]
    fn each_method_is_offered_where_its_own_gateway_takes_it() {
        let cards: Arc<dyn PaymentGateway> = Arc::new(Only(PaymentMethod::Card, &["ILS"]));
        let payu: Arc<dyn PaymentGateway> = Arc::new(Only(PaymentMethod::Blik, &["PLN"]));
        let routed = ByMethod::new(cards.clone()).with_payu(Some(payu));
        assert!(routed.offers(PaymentMethod::Blik, "PLN"));
        assert!(!routed.offers(PaymentMethod::Blik, "ILS"));
        assert!(
            !routed.offers(PaymentMethod::Payu, "PLN"),
            "PayU's gateway does not take it"
        );
        assert!(routed.offers(PaymentMethod::Card, "ILS"));
        assert!(!routed.offers(PaymentMethod::Card, "PLN"));
        // No PayPal gateway: PayPal goes to (and is offered as) the card gateway says.
        assert!(!routed.offers(PaymentMethod::Paypal, "ILS"));
        let alone = ByMethod::new(cards);
        assert!(!alone.offers(PaymentMethod::Blik, "PLN"));
    }
}
