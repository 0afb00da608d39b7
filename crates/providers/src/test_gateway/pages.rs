//! The built-in test payment gateway's hosted pages, outside /api: the card form and its 3-D
//! Secure step, the Blik code and the bank app (the buyer's phone), and stand-ins for PayU's and
//! PayPal's pages. Server-rendered HTML in the payment's language, usable in an iframe.
//!
//! Each step records the provider's word through `OrderService::payment_callback`, the same
//! function an external provider's webhook reaches (`POST /api/payment/callback`, in the shop's
//! HTTP crate), so an authorized payment finalises its order on the one path. The decisions
//! themselves are the pure rules of [`crate::test_gateway`]. Only the buyer session that started
//! a payment may act on it; the bank-app page is the phone, so it is the exception.
//!
//! The pages are a router of their own ([`router`]), which the wiring mounts beside the shop's
//! routes and under the same layers (the buyer session, the limits, compression). What the pages
//! need of the shop's HTTP code comes in through [`Shop`], so this crate needs none of it.

/// A page's step, or the response that ends the request early (a `?` for page answers).
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(response) => return response,
        }
    };
}

mod card;
mod wallets;

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, LOCATION, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use kupa_app::AppError;
use kupa_app::orders::{OrderService, Payment, PaymentMethod, PaymentStatus, PaymentUpdate};
use kupa_app::saved_cards::SavedCardService;
use kupa_domain::ids::Token;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use super::html::{self, Lang};
use crate::test_gateway as gw;

/// What the pages ask of the shop they are mounted in. The wiring hands it in, so the gateway
/// knows nothing of the shop's HTTP code and the shop's HTTP code nothing of the gateway.
pub trait Shop: Send + Sync {
    /// The buyer session of a request, as the shop's session layer found or issued it.
    fn buyer_session(&self, request: &Parts) -> Option<String>;
    /// The status the shop answers an error of a use case with; logs it once when it is the
    /// shop's own failure (a page never shows what went wrong inside).
    fn error_status(&self, error: AppError) -> StatusCode;
}

/// What the pages work with: the use cases they call, and the shop around them.
#[derive(Clone)]
pub struct GatewayPages {
    pub orders: Arc<OrderService>,
    pub saved_cards: Arc<SavedCardService>,
    /// The language of a page about no payment it can read (not found, a failure).
    pub default_locale: String,
    pub shop: Arc<dyn Shop>,
}

/// The pages under /pay/, ready to merge beside the shop's routes.
pub fn router(pages: GatewayPages) -> Router {
    Router::new()
        .route("/pay/{id}", get(form_page))
        .route("/pay/{id}/card", post(card::card))
        .route("/pay/{id}/saved-card", post(card::saved_card))
        .route(
            "/pay/{id}/3ds",
            get(card::three_ds_page).post(card::three_ds),
        )
        .route("/pay/{id}/blik", post(wallets::blik))
        .route(
            "/pay/{id}/bank-app",
            get(wallets::bank_app_page).post(wallets::bank_app),
        )
        .route(
            "/pay/{id}/payu",
            get(wallets::payu_page).post(wallets::payu),
        )
        .route(
            "/pay/{id}/paypal",
            get(wallets::paypal_page).post(wallets::paypal),
        )
        .route("/pay/{id}/result", get(result))
        .with_state(pages)
}

/// The buyer session of the request, from the shop (see [`Shop::buyer_session`]).
struct Buyer(String);

impl Buyer {
    fn id(&self) -> &str {
        &self.0
    }
}

impl FromRequestParts<GatewayPages> for Buyer {
    type Rejection = Response;

    async fn from_request_parts(
        parts: &mut Parts,
        pages: &GatewayPages,
    ) -> Result<Self, Self::Rejection> {
        match pages.shop.buyer_session(parts) {
            Some(id) => Ok(Buyer(id)),
            None => Err(failure(
                pages,
                Lang::of(&pages.default_locale),
                AppError::internal("the shop's session layer is not installed"),
            )),
        }
    }
}

/// Inline styles and scripts only; nothing from elsewhere; framed only by this site.
const CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'self'";

fn with_headers(mut response: Response) -> Response {
    let h = response.headers_mut();
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.insert("content-security-policy", HeaderValue::from_static(CSP));
    h.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    response
}

fn page(status: StatusCode, html: String) -> Response {
    with_headers((status, [(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response())
}

fn see_other(location: &str) -> Response {
    match HeaderValue::from_str(location) {
        Ok(v) => with_headers((StatusCode::SEE_OTHER, [(LOCATION, v)]).into_response()),
        Err(_) => with_headers(
            (
                StatusCode::SEE_OTHER,
                [(LOCATION, HeaderValue::from_static("/"))],
            )
                .into_response(),
        ),
    }
}

fn not_found(lang: Lang) -> Response {
    page(StatusCode::NOT_FOUND, html::not_found(lang))
}

fn closed(p: &Payment) -> Response {
    page(StatusCode::CONFLICT, html::closed(Lang::of(&p.locale), p))
}

/// A form posted with a mistake: its page again, with the mistake said.
fn refused(html: String) -> Response {
    page(StatusCode::UNPROCESSABLE_ENTITY, html)
}

/// The buyer's payment by `method`, while it is still open to this page: created (or, where
/// `redirected_too`, sent on to the provider's page); else the "closed" page.
async fn open_payment(
    state: &GatewayPages,
    session: &Buyer,
    id: &str,
    method: PaymentMethod,
    redirected_too: bool,
) -> Result<Payment, Response> {
    let p = load(state, id, Some(session)).await?;
    let open = p.status == PaymentStatus::Created
        || (redirected_too && p.status == PaymentStatus::Redirected);
    if p.method != method || !open {
        return Err(closed(&p));
    }
    Ok(p)
}

/// A failure of the store or a bug: logged once (by the shop), a plain page for the buyer.
fn failure(pages: &GatewayPages, lang: Lang, e: AppError) -> Response {
    let status = pages.shop.error_status(e);
    if status == StatusCode::NOT_FOUND {
        return not_found(lang);
    }
    page(status, html::error(lang))
}

/// Form posts: every field optional, so missing ones come out empty and fail their check by name.
fn parse_form<T: DeserializeOwned + Default>(body: &Bytes) -> T {
    serde_urlencoded::from_bytes(body).unwrap_or_default()
}

/// The payment a page is about. An unknown id, or another buyer's payment (when `buyer` is
/// given), is the same 404 page, so a page never tells whether a payment exists.
async fn load(state: &GatewayPages, id: &str, buyer: Option<&Buyer>) -> Result<Payment, Response> {
    let lang = Lang::of(&state.default_locale);
    if Token::parse(id).is_none() {
        return Err(not_found(lang));
    }
    let payment = state
        .orders
        .payment(id)
        .await
        .map_err(|e| failure(state, lang, e))?;
    if buyer.is_some_and(|b| b.id() != payment.session_id.as_str()) {
        return Err(not_found(lang));
    }
    state
        .orders
        .expire_if_due(payment)
        .await
        .map_err(|e| failure(state, lang, e))
}

/// Records the provider's word (finalising the order when the money is authorized) and returns
/// the payment as it is now.
async fn record(
    state: &GatewayPages,
    payment: &Payment,
    update: PaymentUpdate,
) -> Result<Payment, Response> {
    let lang = Lang::of(&payment.locale);
    state
        .orders
        .payment_callback(&payment.id, update)
        .await
        .map_err(|e| failure(state, lang, e))?;
    let now = state
        .orders
        .payment(&payment.id)
        .await
        .map_err(|e| failure(state, lang, e))?;
    tracing::info!(payment = %now.id, method = now.method.as_str(), status = now.status.as_str(), "test gateway: provider answered");
    Ok(now)
}

/// Only a path of this site: anything else (another host, `//host`, `/\host`) becomes `/`.
fn safe_path(url: &str) -> &str {
    let ok = url.starts_with('/')
        && !url.starts_with("//")
        && !url.starts_with("/\\")
        && !url.chars().any(|c| c.is_control() || c == '\\');
    if ok { url } else { "/" }
}

/// The payment's return address with `paymentId`, `status` and (when not paid) `failureCode`.
fn return_url(p: &Payment) -> String {
    let base = safe_path(&p.return_url);
    let (path, fragment) = match base.split_once('#') {
        Some((path, f)) => (path, format!("#{f}")),
        None => (base, String::new()),
    };
    let mut params = vec![
        ("paymentId", p.id.clone()),
        ("status", p.status.as_str().to_owned()),
    ];
    if let Some(code) = p.failure_code_for_buyer() {
        params.push(("failureCode", code));
    }
    let query = serde_urlencoded::to_string(&params).unwrap_or_default();
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{query}{fragment}")
}

/// The end of a payment: a 303 to the payment's return address. Inside an iframe
/// (`Sec-Fetch-Dest: iframe`) a page instead, which posts
/// `{type: "kupa-payment", paymentId, status, failureCode}` to the parent (same origin) and links on.
fn finish(p: &Payment, headers: &HeaderMap) -> Response {
    let url = return_url(p);
    if headers.get("sec-fetch-dest").is_some_and(|v| v == "iframe") {
        page(
            StatusCode::OK,
            html::done_in_frame(Lang::of(&p.locale), p, &url),
        )
    } else {
        see_other(&url)
    }
}

#[derive(Deserialize)]
struct LocaleQuery {
    locale: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(default)]
/// A one-time code as posted: the 3-D Secure code or the Blik code.
struct CodeForm {
    code: String,
}

/// GET /pay/{id}: the form for the payment's method, or where the payment stands.
async fn form_page(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    Query(q): Query<LocaleQuery>,
    headers: HeaderMap,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    let locale = q
        .locale
        .filter(|l| l == "he" || l == "en")
        .unwrap_or_else(|| p.locale.clone());
    let lang = Lang::of(&locale);
    match p.status {
        PaymentStatus::Created | PaymentStatus::Redirected => match p.method {
            PaymentMethod::Card => page(
                StatusCode::OK,
                html::card_form(lang, &p, &[], &html::CardKept::default()),
            ),
            PaymentMethod::Blik => page(StatusCode::OK, html::blik_form(lang, &p, &[])),
            PaymentMethod::Payu | PaymentMethod::Paypal => {
                page(StatusCode::OK, html::redirect_intro(lang, &p))
            }
            PaymentMethod::SavedCard => card::saved_card_page(&state, &p, lang, &[]).await,
            // Vouchers are not the test gateway's: the payment fails at once.
            PaymentMethod::Voucher => {
                let p = tri!(
                    record(&state, &p, gw::unsupported_method_answer(p.method.as_str())).await
                );
                finish(&p, &headers)
            }
        },
        PaymentStatus::Challenge => see_other(&format!("/pay/{}/3ds", p.id)),
        PaymentStatus::AwaitingBank => page(StatusCode::OK, html::waiting(lang, &p)),
        _ => closed(&p),
    }
}

/// GET /pay/{id}/result: back to the shop once the payment has ended.
async fn result(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    if p.status.is_open() {
        see_other(&format!("/pay/{}", p.id))
    } else {
        finish(&p, &headers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment(return_url: &str, status: PaymentStatus, failure: Option<&str>) -> Payment {
        Payment {
            id: "ab".repeat(16),
            order_id: "o".into(),
            amount: kupa_domain::money::Money(100),
            status,
            failure_code: failure.map(str::to_owned),
            return_url: return_url.into(),
            ..crate::testing::payment()
        }
    }

    #[test]
    fn the_return_address_gets_the_outcome_and_stays_on_this_site() {
        let id = "ab".repeat(16);
        let p = payment("/order/12", PaymentStatus::Captured, Some("paymentError"));
        assert_eq!(
            return_url(&p),
            format!("/order/12?paymentId={id}&status=captured"),
            "no failure code once paid"
        );
        let p = payment(
            "/order/12?lang=en#pay",
            PaymentStatus::Declined,
            Some("paymentError"),
        );
        assert_eq!(
            return_url(&p),
            format!(
                "/order/12?lang=en&paymentId={id}&status=declined&failureCode=paymentError#pay"
            )
        );
        for evil in [
            "https://evil.example/x",
            "//evil.example",
            "/\\evil.example",
            "javascript:alert(1)",
            "/a\r\nSet-Cookie: x=1",
        ] {
            assert!(
                return_url(&payment(evil, PaymentStatus::Captured, None))
                    .starts_with("/?paymentId="),
                "{evil}"
            );
        }
    }
}
