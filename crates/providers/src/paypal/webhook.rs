//! PayPal's webhook, `POST /pay/paypal/webhook` (decision 0065). An event is believed only when
//! PayPal's `POST /v1/notifications/verify-webhook-signature` answers `verification_status:
//! SUCCESS` for its transmission headers (`PAYPAL-TRANSMISSION-ID`, `-TIME`, `-SIG`,
//! `PAYPAL-CERT-URL`, `PAYPAL-AUTH-ALGO`), the shop's webhook id and the event's own bytes.
//! - `CHECKOUT.ORDER.APPROVED`: the buyer approved; Kupa reads the order and captures it
//!   ([`PayPal::settle`]), as on the buyer's return.
//! - `PAYMENT.CAPTURE.COMPLETED`, `PAYMENT.CAPTURE.DENIED`: the capture's word (checked to be
//!   this payment's, for its amount).
//!
//! Everything is recorded through `OrderService::payment_callback`, the one path to a reservation
//! (decision 0009), so a repeated event changes nothing. A forged or altered event (PayPal answers
//! `FAILURE`) gets 400 and records nothing. When PayPal cannot be asked (to verify, to read, to
//! capture) the answer is 503: PayPal delivers the event again (it retries a non-2xx answer), and
//! nothing is recorded meanwhile.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use kupa_app::orders::{OrderService, PaymentUpdate};
use kupa_app::ports::DealRef;
use serde_json::Value;

use super::{PayPal, SettleError, WEBHOOK_PATH};

#[derive(Clone)]
pub struct Webhook {
    pub orders: Arc<OrderService>,
    pub paypal: Arc<PayPal>,
}

pub fn router(state: Webhook) -> Router {
    Router::new()
        .route(WEBHOOK_PATH, post(received))
        .with_state(state)
}

/// The transmission headers PayPal signs an event with.
#[derive(Debug, Clone)]
pub struct Transmission {
    pub transmission_id: String,
    pub transmission_time: String,
    pub transmission_sig: String,
    pub cert_url: String,
    pub auth_algo: String,
}

impl Transmission {
    pub fn from_headers(headers: &HeaderMap) -> Option<Transmission> {
        let get = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .map(str::trim)
                .filter(|v| !v.is_empty() && v.len() <= 500)
                .map(str::to_owned)
        };
        Some(Transmission {
            transmission_id: get("paypal-transmission-id")?,
            transmission_time: get("paypal-transmission-time")?,
            transmission_sig: get("paypal-transmission-sig")?,
            cert_url: get("paypal-cert-url")?,
            auth_algo: get("paypal-auth-algo")?,
        })
    }
}

/// Our payment and PayPal's order named by an event, and the capture it carries (capture
/// events), or None for an event Kupa does not act on.
fn event_subject(event: &Value) -> Option<(String, Option<String>, Option<Value>)> {
    let resource = &event["resource"];
    match event["event_type"].as_str()? {
        "CHECKOUT.ORDER.APPROVED" => {
            let unit = &resource["purchase_units"][0];
            let payment = unit["custom_id"]
                .as_str()
                .or(unit["reference_id"].as_str())?;
            Some((
                payment.to_owned(),
                resource["id"].as_str().map(str::to_owned),
                None,
            ))
        }
        "PAYMENT.CAPTURE.COMPLETED" | "PAYMENT.CAPTURE.DENIED" => Some((
            resource["custom_id"].as_str()?.to_owned(),
            resource["supplementary_data"]["related_ids"]["order_id"]
                .as_str()
                .map(str::to_owned),
            Some(resource.clone()),
        )),
        _ => None,
    }
}

async fn received(State(w): State<Webhook>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let Some(transmission) = Transmission::from_headers(&headers) else {
        return StatusCode::BAD_REQUEST;
    };
    let Ok(event) = serde_json::from_slice::<Value>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    match w.paypal.verify_webhook(&transmission, &body).await {
        Ok(true) => {}
        Ok(false) => {
            tracing::warn!(
                transmission = %transmission.transmission_id,
                "a PayPal webhook event PayPal does not verify: refused"
            );
            return StatusCode::BAD_REQUEST;
        }
        Err(e) => {
            tracing::warn!(error = ?e, "a PayPal webhook event could not be verified now: PayPal will deliver it again");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    }
    let Some((payment_id, order_id, capture)) = event_subject(&event) else {
        // A verified event of another kind: nothing to do, and nothing to deliver again.
        return StatusCode::OK;
    };
    let payment = match w.orders.payment(&payment_id).await {
        Ok(p) => p,
        Err(kupa_app::AppError::Rejected {
            code: kupa_app::ErrorCode::NotFound,
            ..
        }) => {
            tracing::warn!("a verified PayPal event for no payment of this shop: ignored");
            return StatusCode::OK;
        }
        Err(e) => {
            tracing::error!(error = %e, "a PayPal event's payment could not be read: PayPal will deliver it again");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    };
    // The event's order must be the one opened for the payment.
    let opened = match w.paypal.deals.kept(DealRef::Page, &payment.id).await {
        Ok(o) => o,
        Err(e) => {
            tracing::error!(payment = %payment.id, error = %e, "the payment's PayPal order could not be read");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    };
    if opened.is_none() || (order_id.is_some() && order_id != opened) {
        tracing::warn!(payment = %payment.id, "a PayPal event whose order is not the payment's: refused");
        return StatusCode::BAD_REQUEST;
    }
    let word: Result<Option<PaymentUpdate>, SettleError> = match &capture {
        Some(capture) => w.paypal.take_capture(&payment, capture).await,
        None => w.paypal.settle(&payment).await,
    };
    let update = match word {
        Ok(Some(update)) => update,
        // No word yet (a pending capture): PayPal sends the capture's event later.
        Ok(None) => return StatusCode::OK,
        Err(SettleError::Mismatch(why)) => {
            tracing::warn!(payment = %payment.id, %why, "a PayPal event that does not match its payment: refused");
            return StatusCode::BAD_REQUEST;
        }
        Err(SettleError::Call(e)) => {
            tracing::warn!(payment = %payment.id, error = ?e, "PayPal could not be asked about an event's order now: it will deliver it again");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    };
    match w.orders.payment_callback(&payment.id, update).await {
        Ok(outcome) => {
            tracing::info!(payment = %payment.id, ?outcome, "PayPal's word recorded");
            StatusCode::OK
        }
        Err(e) => {
            tracing::error!(payment = %payment.id, error = %e, "PayPal's word could not be recorded: it will deliver it again");
            StatusCode::SERVICE_UNAVAILABLE
        }
    }
}
