//! The built-in test payment gateway's hosted pages, outside /api: the card form and its 3-D
//! Secure step, the Blik code and the bank app (the buyer's phone), and stand-ins for PayU's and
//! PayPal's pages. Server-rendered HTML in the payment's language, usable in an iframe.
//!
//! Each step records the provider's word through `OrderService::payment_callback`, the same
//! function an external provider's webhook reaches (`POST /api/payment/callback`, in `api`), so
//! an authorized payment finalises its order on the one path. The decisions themselves are pure
//! rules in `kupa_providers::test_gateway`. Only the buyer session that started a payment may act
//! on it; the bank-app page is the phone, so it is the exception.

mod api;
mod html;

use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_TYPE, LOCATION, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use kupa_app::error::AppResult;
use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus, PaymentUpdate};
use kupa_app::saved_cards::{CardToSave, SavedCard};
use kupa_domain::ids::Token;
use kupa_providers::test_gateway as gw;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::session::BuyerSession;
use crate::state::AppState;
use html::{BankMessage, CardKept, Lang, SavedCardChoice, SavedCardMessage};

pub use api::router as api_router;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/pay/{id}", get(form_page))
        .route("/pay/{id}/card", axum::routing::post(card))
        .route("/pay/{id}/saved-card", axum::routing::post(saved_card))
        .route("/pay/{id}/3ds", get(three_ds_page).post(three_ds))
        .route("/pay/{id}/blik", axum::routing::post(blik))
        .route("/pay/{id}/bank-app", get(bank_app_page).post(bank_app))
        .route("/pay/{id}/payu", get(payu_page).post(payu))
        .route("/pay/{id}/paypal", get(paypal_page).post(paypal))
        .route("/pay/{id}/result", get(result))
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

/// A failure of the store or a bug: logged once (by the conversion), a plain page for the buyer.
fn failure(lang: Lang, e: kupa_app::AppError) -> Response {
    let e = ApiError::from(e);
    if e.status == StatusCode::NOT_FOUND {
        return not_found(lang);
    }
    page(e.status, html::error(lang))
}

/// Form posts: every field optional, so missing ones come out empty and fail their check by name.
fn parse_form<T: DeserializeOwned + Default>(body: &Bytes) -> T {
    serde_urlencoded::from_bytes(body).unwrap_or_default()
}

/// The paid or refused outcome is never before the money: a payment is "paid" once authorized.
fn is_paid(status: PaymentStatus) -> bool {
    matches!(status, PaymentStatus::Authorized | PaymentStatus::Captured)
}

/// The failure code to tell the buyer: none once paid (a code from an earlier try is history).
pub(crate) fn failure_code_of(p: &Payment) -> Option<String> {
    if is_paid(p.status) {
        None
    } else {
        p.failure_code.clone()
    }
}

/// An open payment past its window times out (expired, `errorNoResponse`) the first time anyone
/// looks at it: the gateway's own word, through the same callback.
pub(crate) async fn expire_if_due(state: &AppState, payment: Payment) -> AppResult<Payment> {
    if !gw::timed_out(payment.created_at_ms, payment.status, state.orders.now_ms()) {
        return Ok(payment);
    }
    state
        .orders
        .payment_callback(&payment.id, gw::timed_out_answer())
        .await?;
    tracing::info!(payment = %payment.id, "test gateway: payment timed out");
    state.orders.payment(&payment.id).await
}

/// The payment a page is about. An unknown id, or another buyer's payment (when `buyer` is
/// given), is the same 404 page, so a page never tells whether a payment exists.
async fn load(
    state: &AppState,
    id: &str,
    buyer: Option<&BuyerSession>,
) -> Result<Payment, Response> {
    let lang = Lang::of(&state.settings.default_locale);
    if Token::parse(id).is_none() {
        return Err(not_found(lang));
    }
    let payment = state
        .orders
        .payment(id)
        .await
        .map_err(|e| failure(lang, e))?;
    if buyer.is_some_and(|b| b.id() != payment.session_id) {
        return Err(not_found(lang));
    }
    expire_if_due(state, payment)
        .await
        .map_err(|e| failure(lang, e))
}

/// Records the provider's word (finalising the order when the money is authorized) and returns
/// the payment as it is now.
async fn record(
    state: &AppState,
    payment: &Payment,
    update: PaymentUpdate,
) -> Result<Payment, Response> {
    let lang = Lang::of(&payment.locale);
    state
        .orders
        .payment_callback(&payment.id, update)
        .await
        .map_err(|e| failure(lang, e))?;
    let now = state
        .orders
        .payment(&payment.id)
        .await
        .map_err(|e| failure(lang, e))?;
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
    if let Some(code) = failure_code_of(p) {
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

macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(response) => return response,
        }
    };
}

#[derive(Deserialize)]
struct LocaleQuery {
    locale: Option<String>,
}

/// GET /pay/{id}: the form for the payment's method, or where the payment stands.
async fn form_page(
    State(state): State<AppState>,
    session: BuyerSession,
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
                html::card_form(lang, &p, &[], &CardKept::default()),
            ),
            PaymentMethod::Blik => page(StatusCode::OK, html::blik_form(lang, &p, &[])),
            PaymentMethod::Payu | PaymentMethod::Paypal => {
                page(StatusCode::OK, html::redirect_intro(lang, &p))
            }
            PaymentMethod::SavedCard => saved_card_page(&state, &p, lang, &[]).await,
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
    State(state): State<AppState>,
    session: BuyerSession,
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

/// The card form as posted. Deliberately not `Debug`: it holds the card number and code.
#[derive(Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct CardForm {
    card_number: String,
    expiry: String,
    cvv: String,
    holder_id: String,
}

/// POST /pay/{id}/card: approved, declined, or on to 3-D Secure.
async fn card(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    if p.method != PaymentMethod::Card || p.status != PaymentStatus::Created {
        return closed(&p);
    }
    let form: CardForm = parse_form(&body);
    let input = gw::CardInput {
        number: &form.card_number,
        expiry: &form.expiry,
        cvv: &form.cvv,
        holder_id: &form.holder_id,
    };
    let update = match gw::check_card(&input, state.orders.now_ms()) {
        Ok(update) => update,
        Err(bad) => {
            let kept = CardKept {
                expiry: &form.expiry,
                holder_id: &form.holder_id,
            };
            return page(
                StatusCode::UNPROCESSABLE_ENTITY,
                html::card_form(Lang::of(&p.locale), &p, &bad.0, &kept),
            );
        }
    };
    // A credit-card benefit on the order takes only its issuer's cards: any other is declined
    // before the issuer is asked.
    let rules = tri!(benefit_rules(&state, &p).await);
    let update = if rules.iter().all(|r| r.card_accepted(&form.card_number)) {
        update
    } else {
        gw::not_eligible_answer(&update)
    };
    let to_save = card_to_save(&update, &form.expiry);
    drop(form);
    let p = tri!(record(&state, &p, update).await);
    if let Some(card) = to_save {
        remember_card(&state, &p, &card).await;
    }
    if p.status == PaymentStatus::Challenge {
        see_other(&format!("/pay/{}/3ds", p.id))
    } else {
        finish(&p, &headers)
    }
}

/// The credit-card-benefit codes of the order the payment pays.
async fn benefit_rules(
    state: &AppState,
    p: &Payment,
) -> Result<Vec<kupa_domain::tickets::TicketCodeRule>, Response> {
    state
        .saved_cards
        .benefit_rules(&p.order_id)
        .await
        .map_err(|e| failure(Lang::of(&p.locale), e))
}

/// What may be saved of an approved card: brand, BIN, last four and expiry.
fn card_to_save(update: &PaymentUpdate, expiry: &str) -> Option<CardToSave> {
    let (year, month) = gw::parse_expiry(expiry)?;
    Some(CardToSave {
        brand: update.card_brand.clone()?,
        bin: update.card_bin.clone(),
        last4: update.card_last4.clone()?,
        expiry_year: year,
        expiry_month: month,
    })
}

/// Saves the card of a captured payment that asked for it (for a logged-in customer). The
/// payment stands whatever happens here: a failure is logged.
async fn remember_card(state: &AppState, p: &Payment, card: &CardToSave) {
    if !p.save_card || p.status != PaymentStatus::Captured {
        return;
    }
    if let Err(e) = state.saved_cards.remember(p, card).await {
        tracing::warn!(payment = %p.id, error = %e, "card not saved");
    }
}

/// The logged-in customer of the buyer session that started the payment, with their cards.
async fn customer_cards(
    state: &AppState,
    p: &Payment,
) -> Result<Option<(i64, Vec<SavedCard>)>, Response> {
    let lang = Lang::of(&p.locale);
    let Some(customer) = state
        .saved_cards
        .customer_id(&p.session_id)
        .await
        .map_err(|e| failure(lang, e))?
    else {
        return Ok(None);
    };
    let cards = state
        .saved_cards
        .list(&p.session_id)
        .await
        .map_err(|e| failure(lang, e))?;
    Ok(Some((customer, cards)))
}

/// A saved-card payment that cannot go on: it fails (`paymentError`) and the page says why.
async fn saved_card_unavailable(
    state: &AppState,
    p: &Payment,
    lang: Lang,
    why: SavedCardMessage,
) -> Response {
    let answer = match why {
        SavedCardMessage::LogIn => gw::login_needed_answer(),
        SavedCardMessage::NoCards => {
            gw::unsupported_method_answer("savedCard without a saved card")
        }
    };
    let p = tri!(record(state, p, answer).await);
    page(
        StatusCode::OK,
        html::saved_card_unavailable(lang, &p, why, &return_url(&p)),
    )
}

/// GET /pay/{id} of a saved-card payment: the customer's cards and the security code.
async fn saved_card_page(state: &AppState, p: &Payment, lang: Lang, errors: &[&str]) -> Response {
    let Some((_, cards)) = tri!(customer_cards(state, p).await) else {
        return saved_card_unavailable(state, p, lang, SavedCardMessage::LogIn).await;
    };
    if cards.is_empty() {
        return saved_card_unavailable(state, p, lang, SavedCardMessage::NoCards).await;
    }
    let now = state.orders.now_ms();
    let choices: Vec<SavedCardChoice> = cards
        .iter()
        .map(|c| SavedCardChoice {
            token: &c.token,
            brand: &c.brand,
            last4: &c.last4,
            expiry_month: c.expiry_month,
            expiry_year: c.expiry_year,
            expired: c.is_expired(now),
        })
        .collect();
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    page(status, html::saved_card_form(lang, p, &choices, errors))
}

/// The saved-card form as posted: the card's token and its security code.
#[derive(Default, Deserialize)]
#[serde(default)]
struct SavedCardForm {
    card: String,
    cvv: String,
}

/// POST /pay/{id}/saved-card: pays with one of the logged-in customer's saved cards. An expired
/// card is declined, as is a card the order's credit-card benefit does not take.
async fn saved_card(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    if p.method != PaymentMethod::SavedCard || p.status != PaymentStatus::Created {
        return closed(&p);
    }
    let lang = Lang::of(&p.locale);
    let Some((customer, _)) = tri!(customer_cards(&state, &p).await) else {
        return saved_card_unavailable(&state, &p, lang, SavedCardMessage::LogIn).await;
    };
    let form: SavedCardForm = parse_form(&body);
    let card = tri!(
        state
            .saved_cards
            .card_of(customer, form.card.trim())
            .await
            .map_err(|e| failure(lang, e))
    );
    let Some(card) = card else {
        return saved_card_page(&state, &p, lang, &["card"]).await;
    };
    let facts = gw::SavedCardFacts {
        brand: &card.brand,
        bin: card.bin.as_deref(),
        last4: &card.last4,
        expiry_year: card.expiry_year,
        expiry_month: card.expiry_month,
    };
    let update = match gw::check_saved_card(&facts, &form.cvv, state.orders.now_ms()) {
        Ok(update) => update,
        Err(bad) => return saved_card_page(&state, &p, lang, &bad.0).await,
    };
    drop(form);
    let rules = tri!(benefit_rules(&state, &p).await);
    let update = if rules.iter().all(|r| card.accepted_by(r)) {
        update
    } else {
        gw::not_eligible_answer(&update)
    };
    let p = tri!(record(&state, &p, update).await);
    finish(&p, &headers)
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct CodeForm {
    code: String,
}

/// GET /pay/{id}/3ds: the bank's challenge.
async fn three_ds_page(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    match p.status {
        PaymentStatus::Challenge => page(
            StatusCode::OK,
            html::three_ds_form(Lang::of(&p.locale), &p, &[]),
        ),
        PaymentStatus::Created => see_other(&format!("/pay/{}", p.id)),
        _ => closed(&p),
    }
}

/// POST /pay/{id}/3ds: the code passes (authorized) or the card is declined.
async fn three_ds(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    if p.status != PaymentStatus::Challenge {
        return closed(&p);
    }
    let form: CodeForm = parse_form(&body);
    match gw::check_three_ds(&form.code) {
        Ok(update) => {
            let p = tri!(record(&state, &p, update).await);
            finish(&p, &headers)
        }
        Err(bad) => page(
            StatusCode::UNPROCESSABLE_ENTITY,
            html::three_ds_form(Lang::of(&p.locale), &p, &bad.0),
        ),
    }
}

/// POST /pay/{id}/blik: the code goes to the bank; then the buyer confirms in the bank app.
async fn blik(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(load(&state, &id, Some(&session)).await);
    if p.method != PaymentMethod::Blik || p.status != PaymentStatus::Created {
        return closed(&p);
    }
    let form: CodeForm = parse_form(&body);
    match gw::check_blik_code(&form.code) {
        Ok(update) => {
            let p = tri!(record(&state, &p, update).await);
            if p.status == PaymentStatus::AwaitingBank {
                see_other(&format!("/pay/{}", p.id))
            } else {
                finish(&p, &headers)
            }
        }
        Err(bad) => page(
            StatusCode::UNPROCESSABLE_ENTITY,
            html::blik_form(Lang::of(&p.locale), &p, &bad.0),
        ),
    }
}

/// GET /pay/{id}/bank-app: the buyer's phone, asked to approve. No session check: the phone is
/// not the browser that started the payment (the payment id is 128 random bits).
async fn bank_app_page(State(state): State<AppState>, Path(id): Path<String>) -> Response {
    let p = tri!(load(&state, &id, None).await);
    let lang = Lang::of(&p.locale);
    if p.method == PaymentMethod::Blik && p.status == PaymentStatus::AwaitingBank {
        page(StatusCode::OK, html::bank_app(lang, &p))
    } else {
        page(
            StatusCode::CONFLICT,
            html::bank_app_message(lang, BankMessage::Nothing),
        )
    }
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct DecisionForm {
    decision: String,
}

/// POST /pay/{id}/bank-app: approve (authorized) or reject (`blikError`).
async fn bank_app(State(state): State<AppState>, Path(id): Path<String>, body: Bytes) -> Response {
    let p = tri!(load(&state, &id, None).await);
    let lang = Lang::of(&p.locale);
    if p.method != PaymentMethod::Blik || p.status != PaymentStatus::AwaitingBank {
        return page(
            StatusCode::CONFLICT,
            html::bank_app_message(lang, BankMessage::Nothing),
        );
    }
    let approve = match parse_form::<DecisionForm>(&body).decision.as_str() {
        "approve" => true,
        "reject" => false,
        _ => return page(StatusCode::UNPROCESSABLE_ENTITY, html::bank_app(lang, &p)),
    };
    let p = tri!(record(&state, &p, gw::bank_app_answer(approve)).await);
    let message = match (approve, is_paid(p.status)) {
        (false, _) => BankMessage::Rejected,
        (true, true) => BankMessage::Approved,
        (true, false) => BankMessage::NotCompleted,
    };
    page(StatusCode::OK, html::bank_app_message(lang, message))
}

/// A provider's page may be shown while the payment is new or the buyer is already on it.
async fn provider_payment(
    state: &AppState,
    session: &BuyerSession,
    id: &str,
    method: PaymentMethod,
) -> Result<Payment, Response> {
    let p = load(state, id, Some(session)).await?;
    if p.method != method || !matches!(p.status, PaymentStatus::Created | PaymentStatus::Redirected)
    {
        return Err(closed(&p));
    }
    Ok(p)
}

/// GET /pay/{id}/payu: PayU's page (the buyer is now "redirected").
async fn payu_page(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> Response {
    let mut p = tri!(provider_payment(&state, &session, &id, PaymentMethod::Payu).await);
    if p.status == PaymentStatus::Created {
        p = tri!(record(&state, &p, gw::redirected("payu")).await);
    }
    page(
        StatusCode::OK,
        html::payu_page(Lang::of(&p.locale), &p, false),
    )
}

#[derive(Default, Deserialize)]
#[serde(default)]
struct OutcomeForm {
    outcome: String,
}

/// POST /pay/{id}/payu: pay, 3-D Secure fails (`payU_3DS_error`), or error (`payUerror`).
async fn payu(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(provider_payment(&state, &session, &id, PaymentMethod::Payu).await);
    let Some(choice) = gw::PayuChoice::parse(&parse_form::<OutcomeForm>(&body).outcome) else {
        return page(
            StatusCode::UNPROCESSABLE_ENTITY,
            html::payu_page(Lang::of(&p.locale), &p, true),
        );
    };
    let p = tri!(record(&state, &p, gw::payu_answer(choice)).await);
    finish(&p, &headers)
}

/// GET /pay/{id}/paypal: PayPal's approval page.
async fn paypal_page(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> Response {
    let mut p = tri!(provider_payment(&state, &session, &id, PaymentMethod::Paypal).await);
    if p.status == PaymentStatus::Created {
        p = tri!(record(&state, &p, gw::redirected("paypal")).await);
    }
    page(
        StatusCode::OK,
        html::paypal_page(Lang::of(&p.locale), &p, false),
    )
}

/// POST /pay/{id}/paypal: approve (authorized) or cancel (`paymentError`).
async fn paypal(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(provider_payment(&state, &session, &id, PaymentMethod::Paypal).await);
    let approve = match parse_form::<DecisionForm>(&body).decision.as_str() {
        "approve" => true,
        "cancel" => false,
        _ => {
            return page(
                StatusCode::UNPROCESSABLE_ENTITY,
                html::paypal_page(Lang::of(&p.locale), &p, true),
            );
        }
    };
    let p = tri!(record(&state, &p, gw::paypal_answer(approve)).await);
    finish(&p, &headers)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn payment(return_url: &str, status: PaymentStatus, failure: Option<&str>) -> Payment {
        Payment {
            id: "ab".repeat(16),
            order_id: "o".into(),
            session_id: "s".into(),
            method: PaymentMethod::Card,
            amount: 100,
            currency: "ILS".into(),
            installments: 1,
            status,
            card_brand: None,
            card_last4: None,
            card_bin: None,
            save_card: false,
            failure_code: failure.map(str::to_owned),
            locale: "he".into(),
            return_url: return_url.into(),
            created_at_ms: 0,
            updated_at_ms: 0,
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
