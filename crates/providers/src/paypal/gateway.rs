//! PayPal as a `PaymentGateway`: its offer, its order page, status questions and refunds.

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentUpdate, payment_codes,
};
use kupa_app::ports::{DealRef, MethodOffer};
use serde_json::json;

use super::{CURRENCIES, CallError, PROVIDER, PayPal};

#[async_trait]
impl PaymentGateway for PayPal {
    /// PayPal, in the currencies its REST API takes with two decimals.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        match method {
            PaymentMethod::Paypal => MethodOffer::Only(CURRENCIES),
            _ => MethodOffer::No,
        }
    }

    /// PayPal's orders are opened by a call ([`PaymentGateway::open_page`]).
    fn form_url(&self, _payment: &Payment) -> String {
        String::new()
    }

    /// The payment's PayPal order read (and captured when approved): how a payment is settled
    /// when the buyer returns, or when a webhook is late or lost. No word when PayPal cannot be
    /// asked: the next look asks again.
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        match self.settle(payment).await {
            Ok(word) => word,
            Err(e) => {
                tracing::warn!(payment = %payment.id, error = ?e, "PayPal could not settle the payment now");
                None
            }
        }
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        if payment.method != PaymentMethod::Paypal {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "this payment method is not paid through PayPal",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        if !CURRENCIES.contains(&payment.currency.as_str()) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "PayPal does not take this currency",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        let (order, link) = self.create_order(payment).await.map_err(|e| {
            let (code, why) = match &e {
                CallError::NoResponse(why) => (payment_codes::ERROR_NO_RESPONSE, why.clone()),
                CallError::Refused(status, issue) => (
                    payment_codes::ERROR_RESPONSE,
                    format!("HTTP {status} {issue}"),
                ),
            };
            tracing::warn!(payment = %payment.id, %why, "PayPal did not open an order");
            AppError::rejected_with(
                ErrorCode::PaymentError,
                "PayPal could not be opened: please try again",
                json!({ "failureCode": code }),
            )
        })?;
        self.deals
            .keep(
                DealRef::Page,
                &payment.id,
                PROVIDER,
                &order,
                self.clock.now_ms(),
            )
            .await?;
        Ok(link)
    }

    /// A refund of the payment's capture (kept when PayPal confirmed it). A key already made
    /// answers at once; a key PayPal has seen (an answer lost) is answered by PayPal with the
    /// first refund, through `PayPal-Request-Id`: a refund asked twice gives the money once.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        if self.deals.refund_made(&payment.id, &refund.key).await? {
            return Ok(());
        }
        let capture = self
            .deals
            .kept(DealRef::Deal, &payment.id)
            .await?
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::PaymentError,
                    "no PayPal capture is known for this payment",
                )
            })?;
        if let Err(e) = self
            .refund_capture(
                &capture,
                refund.amount.minor(),
                &payment.currency,
                &refund.key,
            )
            .await
        {
            tracing::warn!(payment = %payment.id, error = ?e, "PayPal did not confirm a refund");
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "PayPal did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount.minor(), "PayPal refund made");
        Ok(())
    }
}
