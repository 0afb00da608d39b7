//! CardCom's server-to-server notification (its `WebHookUrl`), `POST /pay/cardcom/notify`.
//! Nothing in the post is believed: Kupa takes the `LowProfileId` from it, asks CardCom's
//! `LowProfile/GetLpResult` itself, checks that the deal is this terminal's, this payment's
//! (`ReturnValue`) and for its amount, and records CardCom's word through
//! `OrderService::payment_callback`, the one path to a reservation (decision 0009). A forged
//! post names a LowProfileId CardCom does not know, or another payment's: refused (400). A
//! repeated post records the same word again, which changes nothing. When CardCom cannot be asked,
//! the answer is 503, so CardCom posts again later, and nothing is recorded meanwhile.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::post;
use kupa_app::orders::OrderService;
use serde_json::Value;

use super::{CallError, CardCom, NOTIFY_PATH, judge};

#[derive(Clone)]
pub struct Notify {
    pub orders: Arc<OrderService>,
    pub cardcom: Arc<CardCom>,
}

pub fn router(state: Notify) -> Router {
    Router::new()
        .route(NOTIFY_PATH, post(notified))
        .with_state(state)
}

/// The LowProfileId of the post: a JSON body (`LowProfileId`), or a form (`lowprofilecode`, the
/// older pages' name, or `LowProfileId`).
fn low_profile_id(headers: &HeaderMap, body: &[u8]) -> Option<String> {
    let json = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    let id = if json {
        serde_json::from_slice::<Value>(body)
            .ok()?
            .get("LowProfileId")?
            .as_str()?
            .to_owned()
    } else {
        serde_urlencoded::from_bytes::<Vec<(String, String)>>(body)
            .ok()?
            .into_iter()
            .find(|(k, _)| k.eq_ignore_ascii_case("lowprofileid") || k == "lowprofilecode")?
            .1
    };
    let id = id.trim().to_owned();
    (!id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .then_some(id)
}

async fn notified(State(n): State<Notify>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let Some(lp) = low_profile_id(&headers, &body) else {
        return StatusCode::BAD_REQUEST;
    };
    let result = match n.cardcom.lp_result(&lp).await {
        Ok(r) => r,
        Err(CallError::NoResponse(why)) => {
            tracing::warn!(%why, "CardCom notified, but could not be asked about the deal: it will post again");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
        Err(CallError::Refused(code, _)) => {
            tracing::warn!(
                code,
                "CardCom notified, but its GetLpResult failed: it will post again"
            );
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    };
    let Some(payment_id) = result.return_value.clone().filter(|v| !v.is_empty()) else {
        tracing::warn!(
            code = result.response_code,
            "a CardCom notification CardCom does not confirm: refused"
        );
        return StatusCode::BAD_REQUEST;
    };
    let payment = match n.orders.payment(&payment_id).await {
        Ok(p) => p,
        Err(_) => {
            tracing::warn!("a CardCom notification for no payment of this shop: refused");
            return StatusCode::BAD_REQUEST;
        }
    };
    let update = match judge(&payment, n.cardcom.config().terminal, &result) {
        Ok(u) => u,
        Err(why) => {
            tracing::warn!(payment = %payment.id, %why, "a CardCom notification that does not match its payment: refused");
            return StatusCode::BAD_REQUEST;
        }
    };
    // The deal's id (for refunds) and, with ChargeAndCreateToken, the saved card and CardCom's
    // token of it (decision 0066) are kept before the word is recorded.
    if update.status == kupa_app::orders::PaymentStatus::Authorized
        && let Err(e) = n.cardcom.confirmed(&payment, &result).await
    {
        tracing::error!(payment = %payment.id, error = %e, "CardCom's deal could not be kept: it will post again");
        return StatusCode::SERVICE_UNAVAILABLE;
    }
    match n.orders.payment_callback(&payment.id, update).await {
        Ok(outcome) => {
            tracing::info!(payment = %payment.id, ?outcome, "CardCom's word recorded");
            StatusCode::OK
        }
        Err(e) => {
            tracing::error!(payment = %payment.id, error = %e, "CardCom's word could not be recorded: it will post again");
            StatusCode::SERVICE_UNAVAILABLE
        }
    }
}
