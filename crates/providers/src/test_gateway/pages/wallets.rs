//! The other methods' pages: the Blik code and the bank app (the buyer's phone), and the
//! stand-ins for PayU's and PayPal's pages.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use kupa_app::orders::{PaymentMethod, PaymentStatus};
use serde::Deserialize;

use super::{
    Buyer, CodeForm, GatewayPages, finish, gw, load, open_payment, page, parse_form, record,
    refused, see_other,
};
use crate::test_gateway::html::{self, BankMessage, Lang};

/// POST /pay/{id}/blik: the code goes to the bank; then the buyer confirms in the bank app.
pub(super) async fn blik(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(open_payment(&state, &session, &id, PaymentMethod::Blik, false).await);
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
        Err(bad) => refused(html::blik_form(Lang::of(&p.locale), &p, &bad.0)),
    }
}

/// GET /pay/{id}/bank-app: the buyer's phone, asked to approve. No session check: the phone is
/// not the browser that started the payment (the payment id is 128 random bits).
pub(super) async fn bank_app_page(
    State(state): State<GatewayPages>,
    Path(id): Path<String>,
) -> Response {
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
pub(super) async fn bank_app(
    State(state): State<GatewayPages>,
    Path(id): Path<String>,
    body: Bytes,
) -> Response {
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
        _ => return refused(html::bank_app(lang, &p)),
    };
    let p = tri!(record(&state, &p, gw::bank_app_answer(approve)).await);
    let message = match (approve, p.status.is_paid()) {
        (false, _) => BankMessage::Rejected,
        (true, true) => BankMessage::Approved,
        (true, false) => BankMessage::NotCompleted,
    };
    page(StatusCode::OK, html::bank_app_message(lang, message))
}

/// GET /pay/{id}/payu: PayU's page (the buyer is now "redirected").
pub(super) async fn payu_page(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
) -> Response {
    let mut p = tri!(open_payment(&state, &session, &id, PaymentMethod::Payu, true).await);
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
pub(super) async fn payu(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(open_payment(&state, &session, &id, PaymentMethod::Payu, true).await);
    let Some(choice) = gw::PayuChoice::parse(&parse_form::<OutcomeForm>(&body).outcome) else {
        return refused(html::payu_page(Lang::of(&p.locale), &p, true));
    };
    let p = tri!(record(&state, &p, gw::payu_answer(choice)).await);
    finish(&p, &headers)
}

/// GET /pay/{id}/paypal: PayPal's approval page.
pub(super) async fn paypal_page(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
) -> Response {
    let mut p = tri!(open_payment(&state, &session, &id, PaymentMethod::Paypal, true).await);
    if p.status == PaymentStatus::Created {
        p = tri!(record(&state, &p, gw::redirected("paypal")).await);
    }
    page(
        StatusCode::OK,
        html::paypal_page(Lang::of(&p.locale), &p, false),
    )
}

/// POST /pay/{id}/paypal: approve (authorized) or cancel (`paymentError`).
pub(super) async fn paypal(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(open_payment(&state, &session, &id, PaymentMethod::Paypal, true).await);
    let approve = match parse_form::<DecisionForm>(&body).decision.as_str() {
        "approve" => true,
        "cancel" => false,
        _ => {
            return refused(html::paypal_page(Lang::of(&p.locale), &p, true));
        }
    };
    let p = tri!(record(&state, &p, gw::paypal_answer(approve)).await);
    finish(&p, &headers)
}
