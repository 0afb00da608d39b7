//! Paying the priced cart: GET /payment/form/{locale} (where the buyer pays),
//! POST /payment/commit (the reservation, once paid) and GET /payment/voucher (a voucher's
//! balance before it pays).

use super::*;
use kupa_app::orders::{CartKey, OrderKind};
use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct PaymentFormQuery {
    /// The presentation whose priced cart is paid (a ticket order).
    pub presentation_id: Option<i64>,
    /// Kupa's own: which cart is paid when it has no presentation: vouchers, donations or
    /// memberships.
    #[param(
        max_length = 16,
        pattern = "^(tickets|vouchers|donations|memberships)$"
    )]
    pub order_type: Option<String>,
    /// The total the buyer sees (agorot); refused with `priceMismatch` when it differs.
    pub total: Option<i64>,
    /// card (default), savedCard, paypal, blik, payu.
    #[param(max_length = 32, pattern = "^(card|savedCard|paypal|blik|payu)$")]
    pub method: Option<String>,
    /// Installments, 1 to 12 (default 1).
    #[param(minimum = 1, maximum = 12)]
    pub number_of_payments: Option<i64>,
    #[serde(default)]
    pub save_card: bool,
    /// Kupa's own: with `savedCard`, the saved card to charge (its `token` from
    /// `/api/customer/saved-cards`). A provider that keeps its own token for the card (CardCom)
    /// charges it at once, without a page; the test gateway lets the buyer choose on its page.
    #[param(max_length = 64, pattern = "^[0-9a-f]{32}$")]
    pub saved_card_token: Option<String>,
    #[param(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// Where the payment page sends the buyer back (a path of this site; default the order page).
    #[param(max_length = 500)]
    pub return_path: Option<String>,
    /// Accepted for the spec's client.
    #[allow(dead_code)] // part of the spec's call
    #[param(max_length = 20)]
    pub ssn: Option<String>,
    #[allow(dead_code)] // part of the spec's call
    pub location_id: Option<i64>,
    #[allow(dead_code)] // part of the spec's call
    pub auth_profile_id: Option<i64>,
}

/// Starts paying the buyer's priced cart: the holds get the payment window, and the gateway a payment.
#[utoipa::path(get, operation_id = "paymentForm", path = "/payment/form/{locale}", tag = "order",
    params(("locale" = String, Path, pattern = r"^(he|en|ru|ar|pl|sk|ro|bg|cs|hu)$", description = "An enabled locale: he, en, ru, ar, pl, sk, ro, bg, cs or hu"), PaymentFormQuery),
    responses((status = 200, description = "Where to pay (with savedCardToken charged by token: `paid`, or still open when the provider did not answer)", body = PaymentFormResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 402, description = "paymentError: the provider could not open its page, or declined the saved card (params.failureCode)", body = ErrorBody),
              (status = 404, description = "notFound: no priced cart of this buyer for the presentation (send the cart first)", body = ErrorBody),
              (status = 409, description = "timeExpired", body = ErrorBody),
              (status = 422, description = "formValidation, priceMismatch", body = ErrorBody)))]
pub(super) async fn payment_form(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(locale): Path<String>,
    Query(q): Query<PaymentFormQuery>,
) -> ApiResult<axum::Json<PaymentFormResponse>> {
    if !kupa_domain::locale::is_supported(&locale) {
        return Err(AppError::rejected(ErrorCode::FormValidation, "unknown locale").into());
    }
    let method = match q.method.as_deref() {
        None => PaymentMethod::Card,
        Some(m) => PaymentMethod::parse(m)
            .filter(|m| *m != PaymentMethod::Voucher)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::FormValidation, "unknown payment method")
            })?,
    };
    let cart = cart_key(q.presentation_id, q.order_type.as_deref())?;
    let default_return = match cart {
        CartKey::Presentation(id) => format!("/order/{id}"),
        CartKey::Kind(OrderKind::Donations) => "/donations".to_owned(),
        CartKey::Kind(OrderKind::Memberships) => "/memberships".to_owned(),
        CartKey::Kind(_) => "/system-vouchers".to_owned(),
    };
    let return_path = q
        .return_path
        .filter(|p| p.starts_with('/') && !p.starts_with("//"))
        .unwrap_or(default_return);
    let (payment, url, expires) = state
        .orders
        .start_payment(
            session.id(),
            session.login(),
            cart,
            StartPayment {
                method,
                installments: q.number_of_payments.unwrap_or(1),
                save_card: q.save_card,
                saved_card: q.saved_card_token,
                total: q.total.map(Money),
                locale,
                return_url: return_path,
                captcha_token: q.recaptcha_token.unwrap_or_default(),
            },
        )
        .await?;
    Ok(axum::Json(PaymentFormResponse {
        payment_form_url: url,
        paid: payment.status == kupa_app::orders::PaymentStatus::Captured,
        payment_identifier: payment.id,
        amount: payment.amount.minor(),
        currency: payment.currency,
        expires_at: ms_to_rfc3339(expires),
        server_time: ms_to_rfc3339(state.orders.now_ms()),
    }))
}

/// Which of the session's carts a call means: a ticket order by its presentation, the others by
/// their order type.
fn cart_key(presentation_id: Option<i64>, order_type: Option<&str>) -> ApiResult<CartKey> {
    match (presentation_id, order_type.and_then(OrderKind::parse)) {
        (Some(id), None | Some(OrderKind::Tickets)) => Ok(CartKey::Presentation(PresentationId(id))),
        (None, Some(kind)) if kind != OrderKind::Tickets => Ok(CartKey::Kind(kind)),
        _ => Err(AppError::rejected(
            ErrorCode::FormValidation,
            "name the cart: presentationId for tickets, or orderType vouchers, donations or memberships",
        )
        .into()),
    }
}

/// The buyer's commit after paying: the reservation, once. The same finalisation the gateway's
/// callback runs, so a reservation exists even if this call never comes.
#[utoipa::path(post, operation_id = "commit", path = "/payment/commit", tag = "order", request_body = CommitBody,
    responses((status = 200, description = "The reservation", body = CommitResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 402, description = "paymentError (declined or not paid)", body = ErrorBody),
              (status = 401, description = "loginError (a hold needs a logged-in customer)", body = ErrorBody),
              (status = 409, description = "ORDER_ALREADY_PAID (a second commit), lastCommit (nothing to commit, or seats lost and refunded), paymentPending, couponAlreadyUsed (refunded); with isHold: holdTooLate, lock_seat_error", body = ErrorBody),
              (status = 422, description = "formValidation; with isHold: noValidMember, holdPremiumSeat, holdSystemVoucher", body = ErrorBody)))]
pub(super) async fn commit(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<CommitBody>,
) -> ApiResult<axum::Json<CommitResponse>> {
    let cart = match (
        body.cart.presentations.first(),
        &body.cart.vouchers,
        &body.cart.donations,
        &body.cart.memberships,
    ) {
        (Some(first), None, None, None) => {
            CartKey::Presentation(PresentationId(first.presentation_id))
        }
        (None, Some(_), None, None) => CartKey::Kind(OrderKind::Vouchers),
        (None, None, Some(_), None) => CartKey::Kind(OrderKind::Donations),
        (None, None, None, Some(_)) => CartKey::Kind(OrderKind::Memberships),
        _ => {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "the cart names no order: its presentations, or its vouchers, donations or memberships",
            )
            .into());
        }
    };
    if body.cart.is_hold {
        let CartKey::Presentation(presentation_id) = cart else {
            return Err(AppError::rejected(
                ErrorCode::FormValidation,
                "only tickets are held unpaid",
            )
            .into());
        };
        return crate::holds::commit_hold(&state, &session, presentation_id.get(), &body).await;
    }
    let order = state
        .orders
        .commit(
            session.id(),
            cart,
            body.recaptcha_token.as_deref().unwrap_or_default(),
            body.mini_site_url.as_deref(),
        )
        .await?;
    Ok(axum::Json(CommitResponse {
        reservation_identifier: order.id.to_string(),
        ticket_identifiers: order
            .tickets
            .iter()
            .map(|t| t.document_key.clone())
            .collect(),
        reservation_number: order.reservation_number.clone(),
        system_vouchers: crate::dto::cart::IssuedVoucher::of(&order),
        members: crate::dto::cart::IssuedMember::of(&state.orders.members_of_order(&order).await?),
        seats: crate::membership_seats::order_seats(&state, &order).await?,
        error: None,
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct VoucherQuery {
    /// The voucher's code.
    #[param(max_length = 64)]
    pub reference: String,
    #[param(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// With a priced cart on this presentation, the amount the voucher would pay is given too.
    pub presentation_id: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoucherPaymentDto {
    pub reference: String,
    /// Agorot left on the voucher.
    pub balance: i64,
    /// The smaller of the cart's total and the balance (agorot); null without a priced cart.
    pub amount: Option<i64>,
    pub currency: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VoucherResponse {
    pub payment: VoucherPaymentDto,
}

/// A voucher's balance, and what it would pay of the buyer's priced cart.
#[utoipa::path(get, operation_id = "paymentVoucher", path = "/payment/voucher", tag = "order", params(VoucherQuery),
    responses((status = 200, description = "The voucher", body = VoucherResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 409, description = "voucherBalance (no balance left), voucherExpired, codeUsageLimitExceeded", body = ErrorBody),
              (status = 422, description = "codeNotFound", body = ErrorBody)))]
pub(super) async fn payment_voucher(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<VoucherQuery>,
) -> ApiResult<axum::Json<VoucherResponse>> {
    let v = state
        .orders
        .voucher_payment(
            session.id(),
            q.presentation_id.map(PresentationId),
            &q.reference,
            q.recaptcha_token.as_deref().unwrap_or_default(),
        )
        .await?;
    Ok(axum::Json(VoucherResponse {
        payment: VoucherPaymentDto {
            reference: v.reference,
            balance: v.balance.minor(),
            amount: v.amount.map(Money::minor),
            currency: "ILS".into(),
        },
    }))
}
