//! The logged-in customer's saved cards (the spec's MagCards): GET /customer/saved-cards and
//! DELETE /customer/saved-cards/{token}. A card is saved by the payment gateway when a card
//! payment with `saveCard` is captured; it holds no card number and no security code.

use axum::extract::State;
use kupa_app::saved_cards::SavedCard;
use kupa_domain::time::ms_to_rfc3339;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::customer::SuccessResponse;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(saved_cards))
        .routes(routes!(delete_saved_card))
}

/// A saved card, as the customer may see it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedCardDto {
    /// Picks the card when paying with `method=savedCard`.
    pub token: String,
    /// visa, mastercard, amex, diners, discover, jcb, isracard.
    pub brand: String,
    pub last4: String,
    /// 1 to 12.
    pub expiry_month: u32,
    pub expiry_year: i32,
    /// Past its expiry month (Israel time): it cannot pay.
    pub is_expired: bool,
    /// Always false here: deleted cards are not listed.
    pub is_deleted: bool,
    /// RFC 3339.
    pub created_at: String,
}

impl SavedCardDto {
    pub(crate) fn new(c: &SavedCard, now_ms: i64) -> SavedCardDto {
        SavedCardDto {
            token: c.token.clone(),
            brand: c.brand.clone(),
            last4: c.last4.clone(),
            expiry_month: c.expiry_month,
            expiry_year: c.expiry_year,
            is_expired: c.is_expired(now_ms),
            is_deleted: c.deleted_at_ms.is_some(),
            created_at: ms_to_rfc3339(c.created_at_ms),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SavedCardsResponse {
    /// Oldest first.
    pub saved_cards: Vec<SavedCardDto>,
}

/// The saved cards of the customer logged in on this buyer session.
#[utoipa::path(get, operation_id = "customerSavedCards", path = "/customer/saved-cards", tag = "customer",
    responses((status = 200, description = "The customer's saved cards (none deleted)", body = SavedCardsResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody)))]
async fn saved_cards(
    State(state): State<AppState>,
    session: BuyerSession,
) -> ApiResult<axum::Json<SavedCardsResponse>> {
    let cards = state.saved_cards.list(session.login()).await?;
    let now = state.clock.now_ms();
    Ok(axum::Json(SavedCardsResponse {
        saved_cards: cards.iter().map(|c| SavedCardDto::new(c, now)).collect(),
    }))
}

/// Deletes one of the logged-in customer's saved cards; it is never offered again.
#[utoipa::path(delete, operation_id = "deleteSavedCard", path = "/customer/saved-cards/{token}", tag = "customer",
    params(("token" = String, Path, description = "The saved card's token")),
    responses((status = 200, description = "Deleted", body = SuccessResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 404, description = "notFound: the customer has no such card", body = ErrorBody)))]
async fn delete_saved_card(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(token): Path<String>,
) -> ApiResult<axum::Json<SuccessResponse>> {
    state.saved_cards.delete(session.login(), &token).await?;
    Ok(axum::Json(SuccessResponse { success: true }))
}
