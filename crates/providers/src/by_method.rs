//! Payments routed by method (decision 0064): one [`PaymentGateway`] in front of the providers,
//! sending each call to the gateway of the payment's method. Cards and saved cards (and every
//! method with no provider of its own configured) go to the card gateway (the test gateway or
//! CardCom) exactly as before; PayPal to the PayPal gateway when one is configured; PayU and
//! Blik to PayU when it is configured. With nothing configured, nothing changes.
//!
//! PayU takes Polish złoty only: with PayU configured, a Blik or PayU payment of an order in
//! another currency is refused (`formValidation`) before any provider is called.

use std::sync::Arc;

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentUpdate, SavedCardCharge,
    payment_codes,
};
use serde_json::json;

/// The currency PayU's methods (PayU, Blik) are offered in.
pub const PAYU_CURRENCY: &str = "PLN";

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

/// Whether `method` is offered for an order in `currency`, given whether PayU is configured:
/// PayU's methods only in złoty when PayU takes them (the test gateway's simulated PayU and Blik
/// stay offered in every currency, as before).
pub fn offered(method: PaymentMethod, currency: &str, payu_configured: bool) -> bool {
    match method {
        PaymentMethod::Payu | PaymentMethod::Blik if payu_configured => currency == PAYU_CURRENCY,
        _ => true,
    }
}

#[async_trait]
impl PaymentGateway for ByMethod {
    fn form_url(&self, payment: &Payment) -> String {
        self.of(payment.method).form_url(payment)
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        if !offered(payment.method, &payment.currency, self.payu.is_some()) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "PayU and Blik take Polish złoty (PLN) only: choose another payment method",
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

    #[test]
    fn payus_methods_are_offered_in_zloty_only_when_payu_takes_them() {
        assert!(offered(PaymentMethod::Blik, "ILS", false));
        assert!(offered(PaymentMethod::Payu, "ILS", false));
        assert!(!offered(PaymentMethod::Blik, "ILS", true));
        assert!(!offered(PaymentMethod::Payu, "EUR", true));
        assert!(offered(PaymentMethod::Payu, "PLN", true));
        assert!(offered(PaymentMethod::Card, "ILS", true));
        assert!(offered(PaymentMethod::Paypal, "ILS", true));
    }
}
