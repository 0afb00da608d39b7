//! PayU as a `PaymentGateway`: its offer (PayU, Blik), its order page, status questions, refunds.

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentUpdate, payment_codes,
};
use kupa_app::ports::{DealRef, MethodOffer};
use serde_json::json;

use super::{CURRENCIES, CallError, PayU};

fn page_error(code: &str, message: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::PaymentError,
        message.to_owned(),
        json!({ "failureCode": code }),
    )
}

#[async_trait]
impl PaymentGateway for PayU {
    /// PayU's redirect and Blik, for orders in złoty only.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        match method {
            PaymentMethod::Payu | PaymentMethod::Blik => MethodOffer::Only(CURRENCIES),
            _ => MethodOffer::No,
        }
    }

    /// PayU's pages are opened by a call; this address is never handed out.
    fn form_url(&self, _payment: &Payment) -> String {
        String::new()
    }

    /// PayU: order create, and the buyer goes to PayU's page. Blik: Kupa's own page for the
    /// code ([`notify`]), which creates the order with it.
    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        match payment.method {
            PaymentMethod::Blik => Ok(format!("/pay/payu/{}/blik", payment.id)),
            PaymentMethod::Payu => {
                // The buyer's address is not known here: PayU takes the shop's for a redirect.
                let created = self.create_order(payment, "127.0.0.1", None).await;
                match created {
                    // PayU's page may not be framed: the payment dialog's frame shows Kupa's
                    // page, whose button takes the whole window to PayU ([`notify`]).
                    Ok((Some(url), _)) => Ok(format!(
                        "/pay/payu/{}/go?{}",
                        payment.id,
                        serde_urlencoded::to_string([("to", url.as_str())].as_slice())
                            .unwrap_or_default()
                    )),
                    Ok((None, _)) => Err(page_error(
                        payment_codes::PAYU_ERROR,
                        "PayU gave no page to pay on: please try again",
                    )),
                    Err(e) => {
                        tracing::warn!(payment = %payment.id, error = ?e, "PayU did not open an order");
                        Err(match e {
                            CallError::NoResponse(_) => page_error(
                                payment_codes::ERROR_NO_RESPONSE,
                                "PayU did not answer: please try again",
                            ),
                            e if e.is_three_ds() => page_error(
                                payment_codes::PAYU_3DS_ERROR,
                                "PayU refused the card's 3-D Secure check",
                            ),
                            _ => page_error(payment_codes::PAYU_ERROR, "PayU refused the payment"),
                        })
                    }
                }
            }
            _ => Err(page_error(
                payment_codes::FORM_VALIDATION,
                "this payment method is not offered with PayU",
            )),
        }
    }

    /// The status query for the payment's PayU order: its word when it has one.
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        let order_id = self.deals.kept(DealRef::Page, &payment.id).await.ok()??;
        let order = match self.order(&order_id).await {
            Ok(o) => o,
            Err(e) => {
                tracing::info!(payment = %payment.id, error = ?e, "PayU could not be asked about an order");
                return None;
            }
        };
        self.settle(payment, &order).await.ok()?
    }

    /// A refund of the payment's PayU order, its key as `extRefundId`; a key already made
    /// answers at once, so a refund asked twice gives the money once.
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        if self.deals.refund_made(&payment.id, &refund.key).await? {
            return Ok(());
        }
        let order_id = match self.deals.kept(DealRef::Deal, &payment.id).await? {
            Some(o) => o,
            None => self
                .deals
                .kept(DealRef::Page, &payment.id)
                .await?
                .ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::PaymentError,
                        "no PayU order is known for this payment",
                    )
                })?,
        };
        let whole = refund.amount >= payment.amount;
        if let Err(e) = self
            .refund_order(&order_id, refund.amount.minor(), whole, &refund.key)
            .await
        {
            tracing::warn!(payment = %payment.id, error = ?e, "PayU did not confirm a refund");
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "PayU did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount.minor(), whole, "PayU refund made");
        Ok(())
    }
}
