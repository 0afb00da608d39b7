//! The payment's two API calls: `GET /payment/status/{paymentId}`, which the payment dialog
//! polls, and `POST /payment/callback`, the webhook an external gateway calls, signed with
//! HMAC-SHA256. The built-in test gateway's own pages (/pay/...) live beside its rules, in
//! `kupa_providers::test_gateway::pages`.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::HeaderMap;
use hmac::{Hmac, KeyInit, Mac};
use kupa_app::orders::payment_codes as codes;
use kupa_app::orders::{DeclineReason, Payment, PaymentMethod, PaymentStatus, PaymentUpdate};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::ids::Token;
use serde::{Deserialize, Serialize};
use sha2::Sha256;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Path;
use crate::session::BuyerSession;
use crate::state::AppState;

/// The callback secret in test mode when none is configured. Outside test mode there is no
/// default: without `KUPA_GATEWAY_SECRET` every callback is refused.
pub const TEST_GATEWAY_SECRET: &str = "kupa-test-gateway-secret";
/// The callback's signature: lowercase or uppercase hex of HMAC-SHA256(secret, raw body).
pub const SIGNATURE_HEADER: &str = "x-kupa-signature";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(payment_status))
        .routes(routes!(payment_callback))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentStatusResponse {
    pub payment_id: String,
    pub status: PaymentStatus,
    /// Why a payment did not go through (null once paid): `paymentError`, `blikError`,
    /// `payUerror`, `payU_3DS_error`, `errorNoResponse` (timed out), `errorResponse`; for a
    /// refund after the seats were lost, `holdsLost`.
    pub failure_code: Option<String>,
    /// Why the payment was declined, when the provider said (null otherwise, and once paid):
    /// what the payment dialog tells the buyer happened and what to do.
    pub decline_reason: Option<DeclineReason>,
    pub method: PaymentMethod,
    /// Agorot.
    pub amount: i64,
    pub currency: String,
    /// visa, mastercard, amex, diners, discover, jcb, isracard; null before a card is known.
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
}

impl PaymentStatusResponse {
    fn new(p: &Payment) -> PaymentStatusResponse {
        PaymentStatusResponse {
            payment_id: p.id.clone(),
            status: p.status,
            failure_code: p.failure_code_for_buyer(),
            decline_reason: p.decline_reason_for_buyer(),
            method: p.method,
            amount: p.amount.minor(),
            currency: p.currency.clone(),
            card_brand: p.card_brand.clone(),
            card_last4: p.card_last4.clone(),
        }
    }
}

fn no_such_payment() -> ApiError {
    AppError::rejected(ErrorCode::NotFound, "no such payment").into()
}

/// Where the buyer's payment stands, for the payment dialog to poll. Only the buyer session that
/// started the payment sees it. An open payment past its window is reported (and recorded) as
/// expired with `errorNoResponse`.
#[utoipa::path(get, operation_id = "paymentStatus", path = "/payment/status/{paymentId}", tag = "payment",
    params(("paymentId" = String, Path, description = "The payment's identifier (paymentIdentifier of GET /payment/form)")),
    responses((status = 200, description = "Where the payment stands", body = PaymentStatusResponse),
              (status = 404, description = "notFound: no such payment for this buyer", body = ErrorBody)))]
async fn payment_status(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(payment_id): Path<String>,
) -> ApiResult<axum::Json<PaymentStatusResponse>> {
    if Token::parse(&payment_id).is_none() {
        return Err(no_such_payment());
    }
    let payment = state.orders.payment(&payment_id).await?;
    if &payment.session_id != session.id() {
        return Err(no_such_payment());
    }
    let payment = state.orders.expire_if_due(payment).await?;
    Ok(axum::Json(PaymentStatusResponse::new(&payment)))
}

/// What a gateway reports about a payment.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentCallbackBody {
    pub payment_id: String,
    /// When the gateway sent the callback, in Unix seconds. Inside the signed body, so a callback
    /// cannot be replayed once it is older than the window (five minutes either way).
    pub timestamp: i64,
    /// authorized, declined, failed, expired, challenge, awaitingBank or redirected.
    pub status: String,
    /// visa, mastercard, amex, ... (letters and digits, at most 20).
    #[serde(default)]
    pub card_brand: Option<String>,
    /// Exactly four digits. The card number itself is never sent or kept.
    #[serde(default)]
    pub card_last4: Option<String>,
    /// For declined, failed or expired: paymentError (the default), blikError, payUerror,
    /// payU_3DS_error, errorNoResponse or errorResponse.
    #[serde(default)]
    pub failure_code: Option<String>,
    /// For declined or failed, when the provider knows why: declined, insufficientFunds,
    /// expiredCard, cardBlocked, callIssuer, threeDSecureFailed, cardNotEligible,
    /// rejectedInBankApp or cancelledByBuyer (the provider's own codes mapped to these).
    #[serde(default)]
    pub decline_reason: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PaymentCallbackResponse {
    /// The payment's status after the callback: `captured` once the order is paid, also when
    /// the same callback arrives again.
    pub status: PaymentStatus,
}

/// The secret callbacks must be signed with, if any.
fn gateway_secret(state: &AppState) -> Option<&str> {
    match &state.settings.gateway_secret {
        Some(s) => Some(s.0.as_str()),
        None if state.settings.test_mode => Some(TEST_GATEWAY_SECRET),
        None => None,
    }
}

fn hex_decode(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(s.get(i..i + 2)?, 16).ok())
        .collect()
}

/// Whether `signature` (hex) is HMAC-SHA256(secret, body); compared in constant time.
fn signature_ok(secret: &str, body: &[u8], signature: &str) -> bool {
    let Some(sig) = hex_decode(signature.trim()) else {
        return false;
    };
    let Ok(mut mac) = Hmac::<Sha256>::new_from_slice(secret.as_bytes()) else {
        return false;
    };
    mac.update(body);
    mac.verify_slice(&sig).is_ok()
}

fn unauthorized(message: &str) -> ApiError {
    AppError::rejected(ErrorCode::InvalidSignature, message).into()
}

fn invalid(message: impl std::fmt::Display) -> ApiError {
    AppError::rejected(ErrorCode::FormValidation, message).into()
}

/// Turns a callback into the provider's word, or says which field is wrong.
fn update_of(cb: &PaymentCallbackBody) -> ApiResult<PaymentUpdate> {
    let status = PaymentStatus::parse(&cb.status)
        .filter(|s| {
            matches!(
                s,
                PaymentStatus::Authorized
                    | PaymentStatus::Declined
                    | PaymentStatus::Failed
                    | PaymentStatus::Expired
                    | PaymentStatus::Challenge
                    | PaymentStatus::AwaitingBank
                    | PaymentStatus::Redirected
            )
        })
        .ok_or_else(|| invalid("status must be authorized, declined, failed, expired, challenge, awaitingBank or redirected"))?;
    if cb.card_brand.as_deref().is_some_and(|b| {
        b.is_empty() || b.len() > 20 || !b.bytes().all(|c| c.is_ascii_alphanumeric())
    }) {
        return Err(invalid("cardBrand must be letters and digits, at most 20"));
    }
    if cb
        .card_last4
        .as_deref()
        .is_some_and(|l| l.len() != 4 || !l.bytes().all(|c| c.is_ascii_digit()))
    {
        return Err(invalid("cardLast4 must be four digits"));
    }
    let failed = matches!(
        status,
        PaymentStatus::Declined | PaymentStatus::Failed | PaymentStatus::Expired
    );
    let failure_code = match (&cb.failure_code, failed) {
        (Some(code), true) if codes::ALL.contains(&code.as_str()) => Some(code.clone()),
        (Some(_), true) => {
            return Err(invalid(format!(
                "failureCode must be one of {}",
                codes::ALL.join(", ")
            )));
        }
        (Some(_), false) => {
            return Err(invalid(
                "failureCode belongs to declined, failed or expired",
            ));
        }
        (None, true) if status == PaymentStatus::Expired => {
            Some(codes::ERROR_NO_RESPONSE.to_owned())
        }
        (None, true) => Some(codes::PAYMENT_ERROR.to_owned()),
        (None, false) => None,
    };
    let decline_reason = match cb.decline_reason.as_deref() {
        None => None,
        Some(_) if !matches!(status, PaymentStatus::Declined | PaymentStatus::Failed) => {
            return Err(invalid("declineReason belongs to declined or failed"));
        }
        Some(name) => Some(DeclineReason::parse(name).ok_or_else(|| {
            let names: Vec<&str> = DeclineReason::ALL.iter().map(|r| r.as_str()).collect();
            invalid(format!("declineReason must be one of {}", names.join(", ")))
        })?),
    };
    Ok(PaymentUpdate {
        status,
        card_brand: cb.card_brand.as_ref().map(|b| b.to_ascii_lowercase()),
        card_last4: cb.card_last4.clone(),
        card_bin: None,
        failure_code,
        decline_reason,
        note: format!("callback: {}", status.as_str()),
    })
}

/// The webhook an external gateway calls with its word about a payment. The raw body is signed:
/// header `x-kupa-signature` is the hex HMAC-SHA256 of the body with the configured gateway
/// secret (`KUPA_GATEWAY_SECRET`), compared in constant time; the body's `timestamp` must be
/// within the window of the server's clock. `authorized` finalises the order (held seats sold,
/// order paid, payment captured). A payment only moves forward: a duplicate, or a word older than
/// the payment's state, answers 200 with the status unchanged; an `authorized` for a payment that
/// already expired, was declined or failed is refunded at once, never captured.
#[utoipa::path(post, operation_id = "paymentCallback", path = "/payment/callback", tag = "payment", request_body = PaymentCallbackBody,
    params(("x-kupa-signature" = String, Header, description = "Hex HMAC-SHA256 of the raw request body with the gateway secret")),
    responses((status = 200, description = "Recorded (also when it was a duplicate)", body = PaymentCallbackResponse),
              (status = 401, description = "invalidSignature: missing or wrong signature, a timestamp outside the window, or no gateway secret configured", body = ErrorBody),
              (status = 404, description = "notFound: no such payment", body = ErrorBody),
              (status = 422, description = "formValidation: a malformed body", body = ErrorBody)))]
async fn payment_callback(
    State(state): State<AppState>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<axum::Json<PaymentCallbackResponse>> {
    let Some(secret) = gateway_secret(&state) else {
        tracing::warn!(
            "payment callback refused: no gateway secret is configured (KUPA_GATEWAY_SECRET)"
        );
        return Err(unauthorized(
            "no gateway secret is configured; callbacks are refused",
        ));
    };
    let signature = headers
        .get(SIGNATURE_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    if !signature_ok(secret, &body, signature) {
        tracing::warn!("payment callback refused: bad signature");
        return Err(unauthorized("the signature does not match the body"));
    }
    let cb: PaymentCallbackBody = serde_json::from_slice(&body)
        .map_err(|e| invalid(format!("the body is not a payment callback: {e}")))?;
    if !kupa_app::orders::callback_in_window(
        cb.timestamp,
        state.orders.now_ms(),
        state.settings.callback_window_s,
    ) {
        tracing::warn!(
            timestamp = cb.timestamp,
            "payment callback refused: its timestamp is outside the window"
        );
        return Err(unauthorized(&format!(
            "the callback's timestamp is more than {} seconds from the server's clock",
            state.settings.callback_window_s
        )));
    }
    let update = update_of(&cb)?;
    if Token::parse(&cb.payment_id).is_none() {
        return Err(no_such_payment());
    }
    state
        .orders
        .payment_callback(&cb.payment_id, update)
        .await?;
    let payment = state.orders.payment(&cb.payment_id).await?;
    tracing::info!(payment = %payment.id, status = payment.status.as_str(), "payment callback recorded");
    Ok(axum::Json(PaymentCallbackResponse {
        status: payment.status,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_hmac_sha256_in_hex() {
        // RFC 4231 test case 2.
        let sig = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assert!(signature_ok("Jefe", b"what do ya want for nothing?", sig));
        assert!(signature_ok(
            "Jefe",
            b"what do ya want for nothing?",
            &sig.to_uppercase()
        ));
        assert!(!signature_ok("Jefe", b"what do ya want for nothing!", sig));
        assert!(!signature_ok("jefe", b"what do ya want for nothing?", sig));
        assert!(!signature_ok(
            "Jefe",
            b"what do ya want for nothing?",
            &sig[..62]
        ));
        assert!(!signature_ok("Jefe", b"what do ya want for nothing?", ""));
        assert!(!signature_ok("Jefe", b"what do ya want for nothing?", "zz"));
    }

    fn body(status: &str, failure: Option<&str>) -> PaymentCallbackBody {
        PaymentCallbackBody {
            payment_id: "ab".repeat(16),
            timestamp: 1_900_000_000,
            status: status.into(),
            card_brand: Some("VISA".into()),
            card_last4: Some("4242".into()),
            failure_code: failure.map(str::to_owned),
            decline_reason: None,
        }
    }

    #[test]
    fn callbacks_are_checked_field_by_field() {
        let u = update_of(&body("authorized", None)).unwrap();
        assert_eq!(
            (u.status, u.card_brand.as_deref(), u.failure_code),
            (PaymentStatus::Authorized, Some("visa"), None)
        );
        assert_eq!(
            update_of(&body("declined", None))
                .unwrap()
                .failure_code
                .as_deref(),
            Some("paymentError")
        );
        assert_eq!(
            update_of(&body("failed", Some("payUerror")))
                .unwrap()
                .failure_code
                .as_deref(),
            Some("payUerror")
        );
        assert_eq!(
            update_of(&body("expired", None))
                .unwrap()
                .failure_code
                .as_deref(),
            Some("errorNoResponse")
        );
        for bad in [
            body("captured", None),
            body("refunded", None),
            body("nope", None),
            body("declined", Some("madeUp")),
            body("authorized", Some("paymentError")),
        ] {
            assert!(update_of(&bad).is_err(), "{bad:?}");
        }
        let reasoned = |status: &str, reason: &str| {
            let mut b = body(status, None);
            b.decline_reason = Some(reason.into());
            update_of(&b)
        };
        assert_eq!(
            reasoned("declined", "insufficientFunds")
                .unwrap()
                .decline_reason,
            Some(DeclineReason::InsufficientFunds)
        );
        assert_eq!(
            reasoned("failed", "callIssuer").unwrap().decline_reason,
            Some(DeclineReason::CallIssuer)
        );
        assert!(reasoned("declined", "stolenProbably").is_err());
        assert!(reasoned("authorized", "declined").is_err());
        assert!(reasoned("expired", "declined").is_err());
        let mut b = body("authorized", None);
        b.card_last4 = Some("4242424242424242".into());
        assert!(
            update_of(&b).is_err(),
            "a card number is refused, never kept"
        );
    }
}
