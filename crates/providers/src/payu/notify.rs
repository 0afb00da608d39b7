//! PayU's routes on the site (decision 0064):
//! - `POST /pay/payu/notify`: PayU's notification. Its `OpenPayu-Signature` header must carry the
//!   hash (MD5 or SHA-256, as `algorithm` says) of the body followed by the POS's second key,
//!   compared in constant time; a post without a good signature is refused (400) and records
//!   nothing. The order must then be this POS's, name our payment (`extOrderId`), and carry its
//!   amount and currency; its word is recorded through `OrderService::payment_callback`, the one
//!   path to a reservation (decision 0009). A repeat records the same word, which changes
//!   nothing. When the word cannot be acted on (a capture PayU does not answer, the database),
//!   the answer is 503 and PayU posts again.
//! - `GET`, `POST /pay/payu/{id}/blik`: Kupa's page for the Blik code. A code that is not 6
//!   digits is refused there (`blikError`) before PayU is called; otherwise PayU's order is made
//!   with the code, and the payment waits for the buyer's bank app (`awaitingBank`) until PayU
//!   notifies; a code PayU refuses declines the payment with `blikError`.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use kupa_app::orders::{
    DeclineReason, OrderService, PaymentMethod, PaymentStatus, PaymentUpdate, payment_codes,
};
use md5::Md5;
use serde::Deserialize;
use sha2::{Digest, Sha256};

use super::{CallError, NOTIFY_PATH, PayU, PayUOrder, SettleError};

#[derive(Clone)]
pub struct Notify {
    pub orders: Arc<OrderService>,
    pub payu: Arc<PayU>,
    /// The shop around the pages: the buyer session of a request (only the buyer who started
    /// a payment sees its Blik page).
    pub shop: Arc<dyn crate::test_gateway::pages::Shop>,
}

pub fn router(state: Notify) -> Router {
    Router::new()
        .route(NOTIFY_PATH, post(notified))
        .route("/pay/payu/{id}/blik", get(blik_page).post(blik_code_sent))
        .route("/pay/payu/{id}/go", get(to_payu))
        .with_state(state)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Equal strings, compared in a time that does not depend on where they differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

/// Whether the `OpenPayu-Signature` header signs `body` with `second_key`.
pub fn signature_holds(header: &str, body: &[u8], second_key: &str) -> bool {
    let mut signature = None;
    let mut algorithm = None;
    for part in header.split(';') {
        match part.trim().split_once('=') {
            Some(("signature", v)) => signature = Some(v.trim().to_ascii_lowercase()),
            Some(("algorithm", v)) => algorithm = Some(v.trim().to_ascii_uppercase()),
            _ => {}
        }
    }
    let (Some(signature), Some(algorithm)) = (signature, algorithm) else {
        return false;
    };
    let mut signed = body.to_vec();
    signed.extend_from_slice(second_key.as_bytes());
    let expected = match algorithm.as_str() {
        "MD5" => hex(&Md5::digest(&signed)),
        "SHA256" | "SHA-256" => hex(&Sha256::digest(&signed)),
        _ => return false,
    };
    same(expected.as_bytes(), signature.as_bytes())
}

#[derive(Deserialize)]
struct Notification {
    /// A refund's notification carries `refund` instead; nothing to record for it.
    #[serde(default)]
    order: Option<PayUOrder>,
}

async fn notified(State(n): State<Notify>, headers: HeaderMap, body: Bytes) -> StatusCode {
    let signature = headers
        .get("openpayu-signature")
        .or_else(|| headers.get("x-openpayu-signature"))
        .and_then(|v| v.to_str().ok());
    let Some(signature) = signature else {
        tracing::warn!("a PayU notification without a signature: refused");
        return StatusCode::BAD_REQUEST;
    };
    if !signature_holds(signature, &body, n.payu.config().second_key.expose()) {
        tracing::warn!("a PayU notification whose signature does not hold: refused");
        return StatusCode::BAD_REQUEST;
    }
    let Ok(notification) = serde_json::from_slice::<Notification>(&body) else {
        return StatusCode::BAD_REQUEST;
    };
    let Some(order) = notification.order else {
        // A refund's status: PayU is answered, nothing to record.
        return StatusCode::OK;
    };
    let Some(payment_id) = order.ext_order_id.clone().filter(|v| !v.is_empty()) else {
        return StatusCode::BAD_REQUEST;
    };
    let payment = match n.orders.payment(&payment_id).await {
        Ok(p) => p,
        Err(_) => {
            tracing::warn!("a PayU notification for no payment of this shop: refused");
            return StatusCode::BAD_REQUEST;
        }
    };
    let update = match n.payu.settle(&payment, &order).await {
        Ok(Some(u)) => u,
        // PENDING, NEW: nothing to record yet.
        Ok(None) => return StatusCode::OK,
        Err(SettleError::NotOurs(why)) => {
            tracing::warn!(payment = %payment.id, %why, "a PayU notification that does not match its payment: refused");
            return StatusCode::BAD_REQUEST;
        }
        Err(e) => {
            tracing::warn!(payment = %payment.id, error = ?e, "PayU's word could not be acted on: it will post again");
            return StatusCode::SERVICE_UNAVAILABLE;
        }
    };
    match n.orders.payment_callback(&payment.id, update).await {
        Ok(outcome) => {
            tracing::info!(payment = %payment.id, ?outcome, "PayU's word recorded");
            StatusCode::OK
        }
        Err(e) => {
            tracing::error!(payment = %payment.id, error = %e, "PayU's word could not be recorded: it will post again");
            StatusCode::SERVICE_UNAVAILABLE
        }
    }
}

fn page(status: StatusCode, body: &str) -> Response {
    let html = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\"><title>BLIK</title></head><body><main>{body}</main></body></html>"
    );
    (status, Html(html)).into_response()
}

fn blik_form(payment_id: &str, error: bool) -> String {
    let error = if error {
        "<p role=\"alert\" data-code=\"blikError\">A BLIK code has 6 digits.</p>"
    } else {
        ""
    };
    format!(
        "<h1>Pay with BLIK</h1><p>Open your bank's app, create a BLIK code and enter it here.</p>{error}<form method=\"post\" action=\"/pay/payu/{payment_id}/blik\"><label>BLIK code (6 digits) <input name=\"code\" inputmode=\"numeric\" autocomplete=\"one-time-code\" maxlength=\"7\" required></label><button type=\"submit\">Pay</button></form>"
    )
}

/// The open Blik payment of this id and of this buyer, or the page to answer instead (another
/// buyer's payment is answered as an unknown one).
async fn open_blik(
    n: &Notify,
    request: &Parts,
    id: &str,
) -> Result<kupa_app::orders::Payment, Response> {
    let not_found = || page(StatusCode::NOT_FOUND, "<h1>No such payment</h1>");
    let payment = n.orders.payment(id).await.map_err(|_| not_found())?;
    if n.shop.buyer_session(request).as_deref() != Some(payment.session_id.as_str()) {
        return Err(not_found());
    }
    if payment.method != PaymentMethod::Blik || payment.status != PaymentStatus::Created {
        return Err(page(
            StatusCode::CONFLICT,
            "<h1>This payment is not waiting for a BLIK code</h1>",
        ));
    }
    Ok(payment)
}

async fn blik_page(State(n): State<Notify>, request: Parts, Path(id): Path<String>) -> Response {
    match open_blik(&n, &request, &id).await {
        Ok(p) => page(StatusCode::OK, &blik_form(&p.id, false)),
        Err(r) => r,
    }
}

#[derive(Deserialize)]
struct To {
    #[serde(default)]
    to: String,
}

fn attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The way to PayU's page (the order is made): a button that takes the whole window there, since
/// PayU's page may not be framed. Only the payment's buyer sees it, and only to PayU's pages.
async fn to_payu(
    State(n): State<Notify>,
    request: Parts,
    Path(id): Path<String>,
    axum::extract::Query(to): axum::extract::Query<To>,
) -> Response {
    let not_found = || page(StatusCode::NOT_FOUND, "<h1>No such payment</h1>");
    let Ok(payment) = n.orders.payment(&id).await else {
        return not_found();
    };
    if n.shop.buyer_session(&request).as_deref() != Some(payment.session_id.as_str())
        || payment.method != PaymentMethod::Payu
    {
        return not_found();
    }
    if !super::is_payus_page(&to.to, &n.payu.config().base_url) {
        return page(StatusCode::BAD_REQUEST, "<h1>Not a PayU page</h1>");
    }
    page(
        StatusCode::OK,
        &format!(
            "<h1>Pay with PayU</h1><p>PayU's page opens in this window; you come back here when it is done.</p><p><a href=\"{}\" target=\"_top\" rel=\"noopener\">Continue to PayU</a></p>",
            attribute(&to.to)
        ),
    )
}

#[derive(Deserialize)]
struct CodeForm {
    #[serde(default)]
    code: String,
}

fn word(status: PaymentStatus, failure: Option<&str>, note: &str) -> PaymentUpdate {
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

/// The buyer's address as the site's proxy gives it (the first `X-Forwarded-For`), for PayU's
/// `customerIp`.
fn customer_ip(headers: &HeaderMap) -> String {
    headers
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .map(str::trim)
        .filter(|ip| ip.parse::<std::net::IpAddr>().is_ok())
        .unwrap_or("127.0.0.1")
        .to_owned()
}

async fn blik_code_sent(
    State(n): State<Notify>,
    request: Parts,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
    let headers = &request.headers;
    let payment = match open_blik(&n, &request, &id).await {
        Ok(p) => p,
        Err(r) => return r,
    };
    let form: CodeForm = serde_urlencoded::from_bytes(&body).unwrap_or(CodeForm {
        code: String::new(),
    });
    // Not 6 digits: refused here, PayU is not called, and the buyer may type it again.
    let Some(code) = super::blik_code(&form.code) else {
        return page(StatusCode::BAD_REQUEST, &blik_form(&payment.id, true));
    };
    let back = crate::http::back_url(&n.payu.config().public_url, &payment, "");
    let update = match n
        .payu
        .create_order(&payment, &customer_ip(headers), Some(&code))
        .await
    {
        Ok(_) => word(
            PaymentStatus::AwaitingBank,
            None,
            "blik code sent to PayU; waiting for the bank app",
        ),
        Err(e) if e.is_blik_code_refused() => word(
            PaymentStatus::Declined,
            Some(payment_codes::BLIK_ERROR),
            "blik code refused by PayU",
        )
        .because(DeclineReason::Declined),
        Err(CallError::NoResponse(why)) => {
            // PayU may have the order: its notification (or the status query) settles it.
            tracing::warn!(payment = %payment.id, %why, "PayU did not answer a Blik order");
            return page(
                StatusCode::SERVICE_UNAVAILABLE,
                "<h1>PayU did not answer</h1><p data-code=\"errorNoResponse\">Wait a moment: if your bank app asks, confirm the payment there.</p>",
            );
        }
        Err(e) => {
            tracing::warn!(payment = %payment.id, error = ?e, "PayU refused a Blik order");
            word(
                PaymentStatus::Failed,
                Some(payment_codes::PAYU_ERROR),
                "PayU refused the Blik order",
            )
        }
    };
    if let Err(e) = n.orders.payment_callback(&payment.id, update).await {
        tracing::error!(payment = %payment.id, error = %e, "a Blik answer could not be recorded");
        return page(StatusCode::SERVICE_UNAVAILABLE, "<h1>Please try again</h1>");
    }
    (StatusCode::SEE_OTHER, [(header::LOCATION, back)]).into_response()
}
