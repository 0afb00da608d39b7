//! The cart and the payment around it (spec section 7 "Cart and payment"): POST /cart and
//! POST /cart/token here; GET /payment/form/{locale}, POST /payment/commit and
//! GET /payment/voucher in [`payment`].

mod payment;

pub use crate::dto::cart::{CommitBody, CommitResponse, PaymentFormResponse, PricedProduct};
use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;

use axum::extract::State;
use kupa_app::customer_info::CustomerInfo;
use kupa_app::orders::{
    CartInput, CartPresentation as AppCartPresentation, CartSeat, GiftCartInput, GiftCartLines,
    Order, PaymentMethod, StartPayment,
};
use kupa_app::{AppError, ErrorCode};
use kupa_domain::checkout::Step;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path, Query};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_cart))
        .routes(routes!(payment::payment_form))
        .routes(routes!(payment::commit))
        .routes(routes!(payment::payment_voucher))
        .routes(routes!(cart_token))
}

/// A cart line's ticket, as the spec's client sends it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartTicket {
    pub ticket_id: i64,
    /// The price the buyer was shown (agorot); refused with `priceMismatch` when it is not the server's.
    #[serde(default)]
    pub amount: Option<i64>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub code: Option<String>,
    #[serde(default)]
    pub ref1: Option<String>,
    #[serde(default)]
    pub ref2: Option<String>,
    #[serde(default)]
    #[schema(max_length = 32)]
    pub member_number: Option<String>,
    /// A senior citizen's Israeli ID number (senior tickets).
    #[serde(default)]
    #[schema(max_length = 20)]
    pub senior_id: Option<String>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct CartSeatIn {
    pub XCoordinate: i64,
    pub YCoordinate: i64,
    /// The seat's section (the spec's client also repeats it inside the ticket as sectionId).
    pub VenueSectionId: i64,
    pub ticket: CartTicket,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartPresentation {
    pub presentation_id: i64,
    /// The held seats, one ticket each (at least one).
    #[schema(min_items = 1, max_items = 100)]
    pub seats: Vec<CartSeatIn>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartProduct {
    pub id: i64,
    pub quantity: i64,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cart {
    /// A ticket order's presentations (empty for a voucher or donation order; the server also
    /// takes it left out).
    #[serde(default)]
    #[schema(max_items = 10, required = true)]
    pub presentations: Vec<CartPresentation>,
    /// A voucher order's vouchers (spec section 3, System voucher). One order type per cart:
    /// tickets, vouchers or donations.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub vouchers: Option<Vec<crate::vouchers::CartVoucherIn>>,
    /// A donation order's donations (spec section 3, Donation).
    #[serde(default)]
    #[schema(max_items = 10)]
    pub donations: Option<Vec<crate::vouchers::CartDonationIn>>,
    /// A membership order's memberships (spec section 3, Membership; decision 0037): new
    /// members and top-ups, for the customer logged in.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub memberships: Option<Vec<crate::memberships::CartMembershipIn>>,
    /// A ticket cart that enrols a member in a membership season (decision 0040): one seat in
    /// each chosen presentation of the season, priced by the season.
    #[serde(default)]
    pub enrollment: Option<crate::enroll::CartEnrollmentIn>,
    /// The waiver a children's voucher needs (decision 0041; only with `vouchers`, and only when
    /// a class chosen has a `waiver`).
    #[serde(default)]
    pub waiver: Option<crate::waivers::CartWaiverIn>,
    #[serde(default)]
    #[schema(max_items = 50)]
    pub products: Vec<CartProduct>,
    #[serde(default)]
    pub customer_info: Option<CustomerInfo>,
    /// Vouchers paying part (or all) of the order, applied in this order.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub voucher_payments: Vec<CartVoucher>,
    /// The total the buyer was shown (agorot); refused with `priceMismatch` when it is not the server's.
    #[serde(default)]
    pub total: Option<i64>,
    /// The mini-site the buyer orders through (decision 0050): a ticket cart of its presentations
    /// only (`noEvent` otherwise), and the order is the mini-site's. Empty: the web shop.
    #[serde(default)]
    #[schema(max_length = 200)]
    pub mini_site_url: Option<String>,
    /// The spec's cart repeats the mini-site's id; when given it must be `miniSiteUrl`'s (422).
    #[serde(default)]
    pub referral_mini_site_id: Option<i64>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartVoucher {
    /// The voucher's code.
    #[schema(max_length = 64)]
    pub reference: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartBody {
    pub cart: Cart,
    /// The step the buyer is entering: tickets, products or customerInfo (default tickets).
    #[serde(default)]
    #[schema(max_length = 32, pattern = "^(tickets|products|customerInfo)$")]
    pub step: Option<String>,
    /// The interface language of the order (tickets and mails are written in it).
    #[serde(default)]
    #[schema(max_length = 5)]
    pub locale: Option<String>,
    /// The spec's client repeats its session id here; the session comes from the cookie or header.
    #[serde(default)]
    #[allow(dead_code)] // part of the spec's call
    #[schema(max_length = 64)]
    pub uuid: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedTicket {
    /// The presentation this ticket is for (a cart may hold several).
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub section_name: String,
    pub row_name: String,
    pub seat_name: String,
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    /// Agorot.
    pub price: i64,
    /// Agorot.
    pub service_charge: i64,
    pub is_multiply_factor_sub_ticket: bool,
    pub code: Option<String>,
    /// The line's member number and references, as sent: a later cart post repeats them.
    pub member_number: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    /// Agorot this ticket takes from its member's series pass (a pass ticket, an enrolment's
    /// MembershipPayableAmount), beside its price in money.
    pub member_balance: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedCartDto {
    /// The cart's first presentation.
    pub presentation_id: i64,
    /// Every presentation of the cart, in the order chosen (one order, one payment, one
    /// reservation).
    pub presentation_ids: Vec<i64>,
    pub tickets: Vec<PricedTicket>,
    pub products: Vec<PricedProduct>,
    pub tickets_total: i64,
    pub products_total: i64,
    /// The service charge's name (default "דמי טיפול") and total, in agorot.
    pub service_charge_name: String,
    pub service_charge: i64,
    pub total: i64,
    /// The lines every screen shows, adding up to `total`.
    pub price_breakdown: crate::dto::PriceBreakdown,
    /// What the vouchers pay (agorot), in the order applied.
    pub voucher_payments: Vec<PricedVoucher>,
    /// What is left to pay after the vouchers (agorot).
    pub amount_due: i64,
    pub currency: String,
    /// tickets, vouchers, donations or memberships.
    pub order_type: String,
    /// A voucher order's vouchers.
    pub system_vouchers: Vec<crate::vouchers::PricedSystemVoucher>,
    /// A donation order's donations.
    pub donations: Vec<crate::vouchers::PricedDonation>,
    /// A membership order's units, one per new member or top-up (decision 0037).
    pub memberships: Vec<crate::memberships::PricedMembership>,
    /// The season this ticket order enrols its member in; null for other orders.
    pub enrollment: Option<crate::enroll::EnrollmentDto>,
    /// Agorot the order's tickets take from series passes, beside the total in money.
    pub member_balance_total: i64,
    /// A seated membership's seats, one in each screening of its season (decision 0043); `[]`
    /// for other orders (a ticket order's seats are its `tickets`).
    pub seats: Vec<crate::dto::cart::MembershipSeatDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedVoucher {
    pub reference: String,
    pub amount: i64,
}

impl PricedCartDto {
    pub fn new(o: &Order) -> PricedCartDto {
        PricedCartDto {
            presentation_id: o.first_presentation().unwrap_or_default().get(),
            presentation_ids: o.presentations.iter().map(|p| p.get()).collect(),
            tickets: o
                .tickets
                .iter()
                .map(|t| PricedTicket {
                    presentation_id: t.presentation_id.get(),
                    section_id: t.section_id,
                    x: t.x,
                    y: t.y,
                    section_name: t.section_name.clone(),
                    row_name: t.row_name.clone(),
                    seat_name: t.seat_name.clone(),
                    ticket_id: t.ticket_id,
                    ticket_name: t.ticket_name.clone(),
                    ticket_name_en: t.ticket_name_en.clone(),
                    price: t.price.minor(),
                    service_charge: t.service_charge.minor(),
                    is_multiply_factor_sub_ticket: t.is_sub_ticket,
                    code: t.code.clone(),
                    member_number: t.member_number.clone(),
                    ref1: t.ref1.clone(),
                    ref2: t.ref2.clone(),
                    member_balance: t.member_balance.minor(),
                })
                .collect(),
            products: PricedProduct::of(o),
            tickets_total: o.tickets_total.minor(),
            products_total: o.products_total.minor(),
            service_charge_name: o.service_charge_name.clone(),
            service_charge: o.service_charge_total.minor(),
            total: o.total.minor(),
            price_breakdown: o.price_breakdown().into(),
            voucher_payments: o
                .vouchers
                .iter()
                .map(|v| PricedVoucher {
                    reference: v.code.clone(),
                    amount: v.amount.minor(),
                })
                .collect(),
            amount_due: o.amount_due().minor(),
            currency: o.currency.clone(),
            order_type: o.kind.as_str().to_owned(),
            system_vouchers: crate::vouchers::PricedSystemVoucher::of(o),
            donations: crate::vouchers::PricedDonation::of(o),
            memberships: crate::memberships::PricedMembership::of(o),
            enrollment: o.enrollment.as_ref().map(crate::enroll::EnrollmentDto::of),
            member_balance_total: o
                .tickets
                .iter()
                .map(|t| t.member_balance)
                .sum::<Money>()
                .minor(),
            seats: Vec::new(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartResponse {
    pub cart: PricedCartDto,
    /// The holds now last until this time (UTC): the step the buyer entered has its own timer.
    pub expires_at: String,
    pub step: String,
    pub server_time: String,
}

impl CartSeatIn {
    fn to_app(&self) -> CartSeat {
        CartSeat {
            section_id: self.VenueSectionId,
            x: self.XCoordinate,
            y: self.YCoordinate,
            ticket_id: self.ticket.ticket_id,
            amount: self.ticket.amount.map(Money),
            code: self.ticket.code.clone(),
            ref1: self.ticket.ref1.clone(),
            ref2: self.ticket.ref2.clone(),
            member_number: self.ticket.member_number.clone(),
            senior_id: self.ticket.senior_id.clone(),
        }
    }
}

/// Validates the whole cart (every seat held by this buyer, one ticket per seat, the seating and
/// ticket rules) and prices it on the server. The priced cart becomes the buyer's pending order.
/// A cart may hold several presentations of one auth profile and one business (one order, one
/// payment, one reservation); a video-on-demand presentation of venue type 101 or 102 is bought
/// on its own.
#[utoipa::path(post, operation_id = "postCart", path = "/cart", tag = "order", request_body = CartBody,
    responses((status = 200, description = "The priced cart", body = CartResponse),
              (status = 401, description = "loginError: a cart of vouchers or memberships needs a customer logged in (decisions 0035, 0037); a member ticket its member", body = ErrorBody),
              (status = 404, description = "noEvent; notFound (a voucher, donation or membership not on sale)", body = ErrorBody),
              (status = 409, description = "lock_seat_error (a seat is not held by you), ticket_sale_not_yet_started, ticketing_ended, timeExpired; memberExpired (a top-up of an expired member)", body = ErrorBody),
              (status = 422, description = "formValidation (with params.fields; a children's voucher's waiver: fields waiver, waiver.children, waiver.children[i].name or .birthDate, waiver.signature, waiver.signerName, and a child outside the class's ages params.reason waiverAge with child, childIndex, age, minAge, maxAge), priceMismatch, ticketNotFound, cartSeatsMismatch, noValidMember, a seating rule, Incompatible AuthProfile, Incompatible Business, onePresentationPerOrder (a video-on-demand presentation with others); memberships: mustSelectMemberships, noMemberships, priceNotFound, getPrice, validateReferences, memberNotFound", body = ErrorBody)))]
async fn post_cart(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<CartBody>,
) -> ApiResult<axum::Json<CartResponse>> {
    let step = match body.step.as_deref() {
        None => None,
        Some(s) => Some(
            Step::parse(s)
                .filter(|s| matches!(s, Step::Tickets | Step::Products | Step::CustomerInfo))
                .ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::FormValidation,
                        "step must be tickets, products or customerInfo",
                    )
                })?,
        ),
    };
    let locale = body
        .locale
        .clone()
        .filter(|l| kupa_domain::locale::is_supported(l))
        .unwrap_or_else(|| state.settings.default_locale.clone());
    if let Some(lines) = gift_lines(&body.cart)? {
        let priced = state
            .orders
            .price_gift_cart(
                session.id(),
                session.login(),
                GiftCartInput {
                    lines,
                    customer: body.cart.customer_info,
                    step,
                    locale,
                    total: body.cart.total.map(Money),
                    products: body
                        .cart
                        .products
                        .iter()
                        .map(|p| (p.id, p.quantity))
                        .collect(),
                    waiver: body.cart.waiver.as_ref().map(|w| w.to_app()),
                },
            )
            .await?;
        let mut cart = PricedCartDto::new(&priced.order);
        cart.seats = crate::membership_seats::order_seats(&state, &priced.order).await?;
        return Ok(axum::Json(CartResponse {
            cart,
            expires_at: ms_to_rfc3339(priced.expires_at_ms),
            step: priced.step.as_str().to_owned(),
            server_time: ms_to_rfc3339(state.orders.now_ms()),
        }));
    }
    let input = CartInput {
        presentations: body
            .cart
            .presentations
            .iter()
            .map(|p| AppCartPresentation {
                presentation_id: PresentationId(p.presentation_id),
                seats: p.seats.iter().map(CartSeatIn::to_app).collect(),
            })
            .collect(),
        products: body
            .cart
            .products
            .iter()
            .map(|p| (p.id, p.quantity))
            .collect(),
        customer: body.cart.customer_info,
        vouchers: body
            .cart
            .voucher_payments
            .iter()
            .map(|v| v.reference.clone())
            .collect(),
        step,
        locale,
        total: body.cart.total.map(Money),
        enrollment: body.cart.enrollment.as_ref().map(|e| e.to_app()),
        mini_site_url: body.cart.mini_site_url.clone(),
        referral_mini_site_id: body.cart.referral_mini_site_id,
    };
    let priced = state
        .orders
        .price_cart(session.id(), session.login(), input)
        .await?;
    Ok(axum::Json(CartResponse {
        cart: PricedCartDto::new(&priced.order),
        expires_at: ms_to_rfc3339(priced.expires_at_ms),
        step: priced.step.as_str().to_owned(),
        server_time: ms_to_rfc3339(state.orders.now_ms()),
    }))
}

/// The order type of a cart: tickets (None here), vouchers, donations or memberships; one type
/// per cart (spec section 4: switching order types clears the other carts).
fn gift_lines(cart: &Cart) -> ApiResult<Option<GiftCartLines>> {
    let one_type = |what: &str| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            format!("one order type per cart: {what}"),
            serde_json::json!({ "fields": ["cart"] }),
        )
    };
    let kinds = [
        cart.vouchers.is_some(),
        cart.donations.is_some(),
        cart.memberships.is_some(),
    ]
    .into_iter()
    .filter(|k| *k)
    .count();
    if kinds == 0 {
        return if cart.presentations.is_empty() {
            Err(AppError::rejected(
                ErrorCode::FormValidation,
                "the cart is empty: send presentations, vouchers, donations or memberships",
            )
            .into())
        } else {
            Ok(None)
        };
    }
    if kinds > 1 {
        return Err(one_type("vouchers, donations or memberships, one of them").into());
    }
    if !cart.presentations.is_empty() {
        return Err(one_type("tickets, vouchers, donations or memberships").into());
    }
    if cart.waiver.is_some() && cart.vouchers.is_none() {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "only a voucher order has a waiver",
            serde_json::json!({ "fields": ["waiver"] }),
        )
        .into());
    }
    if !cart.voucher_payments.is_empty() {
        return Err(one_type("only a ticket order is paid by vouchers").into());
    }
    if cart.mini_site_url.as_deref().is_some_and(|u| !u.is_empty())
        || cart.referral_mini_site_id.is_some()
    {
        return Err(one_type("a mini-site sells tickets only").into());
    }
    Ok(Some(
        match (&cart.vouchers, &cart.donations, &cart.memberships) {
            (Some(v), _, _) => GiftCartLines::Vouchers(crate::vouchers::voucher_choices(v)),
            (_, Some(d), _) => GiftCartLines::Donations(crate::vouchers::donation_choices(d)),
            (_, _, Some(m)) => {
                GiftCartLines::Memberships(crate::memberships::membership_choices(m))
            }
            (None, None, None) => return Ok(None),
        },
    ))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartTokenBody {
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CartTokenResponse {
    /// The buyer's session id, which the cart carries as its `uuid`.
    pub uuid: String,
}

/// Checks the captcha before a cart is built and answers the session id the cart carries.
#[utoipa::path(post, operation_id = "cartToken", path = "/cart/token", tag = "order", request_body = CartTokenBody,
    responses((status = 200, description = "The cart's session id", body = CartTokenResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 422, description = "formValidation: not a JSON body, or a token longer than the document allows", body = ErrorBody)))]
async fn cart_token(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(body): Json<CartTokenBody>,
) -> ApiResult<axum::Json<CartTokenResponse>> {
    state
        .orders
        .cart_token(body.recaptcha_token.as_deref().unwrap_or_default())
        .await?;
    Ok(axum::Json(CartTokenResponse {
        uuid: session.id().as_str().to_owned(),
    }))
}
