//! The card pages: a new card (and its 3-D Secure step), or one of the customer's saved cards,
//! with the credit-card benefit checked before the issuer is asked.

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus, PaymentUpdate};
use kupa_app::saved_cards::{CardToSave, SavedCard};
use serde::Deserialize;

use super::{
    Buyer, CodeForm, GatewayPages, closed, failure, finish, gw, load, open_payment, page,
    parse_form, record, refused, return_url, see_other,
};
use crate::test_gateway::html::{self, CardKept, Lang, SavedCardChoice, SavedCardMessage};

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
pub(super) async fn card(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(open_payment(&state, &session, &id, PaymentMethod::Card, false).await);
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
            return refused(html::card_form(Lang::of(&p.locale), &p, &bad.0, &kept));
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
    state: &GatewayPages,
    p: &Payment,
) -> Result<Vec<kupa_domain::tickets::TicketCodeRule>, Response> {
    state
        .saved_cards
        .benefit_rules(&p.order_id)
        .await
        .map_err(|e| failure(state, Lang::of(&p.locale), e))
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
async fn remember_card(state: &GatewayPages, p: &Payment, card: &CardToSave) {
    if !p.save_card || p.status != PaymentStatus::Captured {
        return;
    }
    if let Err(e) = state.saved_cards.remember(p, card).await {
        tracing::warn!(payment = %p.id, error = %e, "card not saved");
    }
}

/// The logged-in customer of the buyer session that started the payment, with their cards.
async fn customer_cards(
    state: &GatewayPages,
    p: &Payment,
) -> Result<Option<(i64, Vec<SavedCard>)>, Response> {
    let lang = Lang::of(&p.locale);
    let Some(customer) = p.customer_id else {
        return Ok(None);
    };
    let cards = state
        .saved_cards
        .cards_of(customer)
        .await
        .map_err(|e| failure(state, lang, e))?;
    Ok(Some((customer, cards)))
}

/// A saved-card payment that cannot go on: it fails (`paymentError`) and the page says why.
async fn saved_card_unavailable(
    state: &GatewayPages,
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
pub(super) async fn saved_card_page(
    state: &GatewayPages,
    p: &Payment,
    lang: Lang,
    errors: &[&str],
) -> Response {
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
pub(super) async fn saved_card(
    State(state): State<GatewayPages>,
    session: Buyer,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let p = tri!(open_payment(&state, &session, &id, PaymentMethod::SavedCard, false).await);
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
            .map_err(|e| failure(&state, lang, e))
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

/// GET /pay/{id}/3ds: the bank's challenge.
pub(super) async fn three_ds_page(
    State(state): State<GatewayPages>,
    session: Buyer,
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
pub(super) async fn three_ds(
    State(state): State<GatewayPages>,
    session: Buyer,
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
        Err(bad) => refused(html::three_ds_form(Lang::of(&p.locale), &p, &bad.0)),
    }
}
