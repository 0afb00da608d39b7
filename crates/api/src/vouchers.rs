//! System vouchers and donations (issue 14): what is offered (GET /system-vouchers,
//! GET /donations: Kupa's own, the spec does not show how its client reads them), the lines of a
//! voucher or donation cart as POST /cart takes them (spec section 3: SystemVoucherId, Prices,
//! SystemVoucherPriceId, Price, selectedQuantity; donation id, Code, donationDetails), and a paid
//! voucher or donation order read back (GET /gift-orders/{id}: Kupa's own).

use axum::extract::State;
use kupa_app::orders::{Order, OrderKind, ReservationReader};
use kupa_app::vouchers::{self, DonationChoice, VoucherChoice};
use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::cart::IssuedVoucher;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(voucher_classes))
        .routes(routes!(donation_list))
        .routes(routes!(gift_order))
        .routes(routes!(vouchers_pdf))
        .routes(routes!(my_vouchers))
        .routes(routes!(voucher_history))
        .routes(routes!(voucher_replacement))
        .routes(routes!(voucher_cancel))
}

// ---- What the cart takes

/// A voucher of the cart: its class and, per price, how many.
#[derive(Debug, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct CartVoucherIn {
    /// The class (spec: SystemVoucherId).
    pub SystemVoucherId: i64,
    #[schema(min_items = 1, max_items = 10)]
    pub Prices: Vec<CartVoucherPriceIn>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct CartVoucherPriceIn {
    /// One of the class's prices; absent for its open price.
    #[serde(default)]
    pub SystemVoucherPriceId: Option<i64>,
    /// The open price's amount (agorot, whole shekels between the class's min and max).
    #[serde(default)]
    pub Price: Option<i64>,
    #[schema(minimum = 0, maximum = 10)]
    pub selectedQuantity: i64,
}

/// A donation of the cart: the donation and, per amount, how many times.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartDonationIn {
    pub id: i64,
    #[serde(default, rename = "Code")]
    #[allow(dead_code)] // part of the spec's entity: the id decides
    #[schema(max_length = 32)]
    pub code: Option<String>,
    #[schema(min_items = 1, max_items = 10)]
    pub donation_details: Vec<CartDonationDetailIn>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CartDonationDetailIn {
    pub id: i64,
    /// The custom amount (agorot, whole shekels); ignored for a fixed amount.
    #[serde(default)]
    pub amount: Option<i64>,
    /// Accepted as the spec's entity has it; the detail decides.
    #[serde(default)]
    #[allow(dead_code)]
    pub custom_amount: Option<bool>,
    #[schema(minimum = 0, maximum = 10)]
    pub selected_quantity: i64,
}

pub fn voucher_choices(lines: &[CartVoucherIn]) -> Vec<VoucherChoice> {
    lines
        .iter()
        .flat_map(|v| {
            v.Prices.iter().map(|p| VoucherChoice {
                class_id: v.SystemVoucherId,
                price_id: p.SystemVoucherPriceId,
                amount: p.Price.map(Money),
                quantity: p.selectedQuantity,
            })
        })
        .collect()
}

pub fn donation_choices(lines: &[CartDonationIn]) -> Vec<DonationChoice> {
    lines
        .iter()
        .flat_map(|d| {
            d.donation_details.iter().map(|x| DonationChoice {
                donation_id: d.id,
                detail_id: x.id,
                amount: x.amount.map(Money),
                quantity: x.selected_quantity,
            })
        })
        .collect()
}

// ---- What the cart answers

/// A voucher of a priced cart (its reference comes with the payment).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedSystemVoucher {
    pub system_voucher_id: i64,
    pub system_voucher_price_id: Option<i64>,
    pub name: String,
    pub name_en: String,
    /// Agorot paid.
    pub price: i64,
    /// Agorot it is worth (a value voucher); null for a benefit voucher.
    pub value: Option<i64>,
    /// Tickets a benefit voucher unlocks; null for a value voucher.
    pub benefit_tickets: Option<i64>,
    /// Its last day (Asia/Jerusalem, YYYY-MM-DD).
    pub valid_to: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedDonation {
    pub id: i64,
    pub detail_id: i64,
    pub name: String,
    pub name_en: String,
    pub amount: i64,
}

impl PricedSystemVoucher {
    pub fn of(o: &Order) -> Vec<PricedSystemVoucher> {
        o.system_vouchers
            .iter()
            .map(|v| PricedSystemVoucher {
                system_voucher_id: v.class_id,
                system_voucher_price_id: v.price_id,
                name: v.name.clone(),
                name_en: v.name_en.clone(),
                price: v.price.minor(),
                value: v.value.map(Money::minor),
                benefit_tickets: v.benefit_tickets,
                valid_to: v.valid_to.clone(),
            })
            .collect()
    }
}

impl PricedDonation {
    pub fn of(o: &Order) -> Vec<PricedDonation> {
        o.donations
            .iter()
            .map(|d| PricedDonation {
                id: d.donation_id,
                detail_id: d.detail_id,
                name: d.name.clone(),
                name_en: d.name_en.clone(),
                amount: d.amount.minor(),
            })
            .collect()
    }
}

// ---- The calls

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoucherClassesResponse {
    pub system_vouchers: Vec<vouchers::SystemVoucherClass>,
    /// At most this many vouchers in one order (spec: maxQuantityForVouchers).
    pub max_quantity_for_vouchers: i64,
    /// The products step's offer: snacks sold at every cinema, prepaid with the vouchers and
    /// collected at any cinema's bar with the order's first voucher (decision 0035).
    pub products: Vec<crate::dto::Product>,
}

/// The system vouchers on sale (spec section 2, "choose vouchers"), in their order. Classes sold
/// at the box office only are listed with `boxOfficeOnly`, never sold online.
#[utoipa::path(get, operation_id = "systemVoucherClasses", path = "/system-vouchers", tag = "vouchers",
    responses((status = 200, description = "The voucher classes", body = VoucherClassesResponse)))]
async fn voucher_classes(
    State(state): State<AppState>,
) -> ApiResult<axum::Json<VoucherClassesResponse>> {
    Ok(axum::Json(VoucherClassesResponse {
        system_vouchers: state.orders.voucher_classes().await?,
        max_quantity_for_vouchers: vouchers::MAX_QUANTITY_FOR_VOUCHERS,
        products: state
            .orders
            .gift_products()
            .await?
            .iter()
            .map(crate::dto::Product::from)
            .collect(),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DonationsResponse {
    pub donations: Vec<vouchers::Donation>,
}

/// The donations offered (spec section 2, "choose donations"), in their order.
#[utoipa::path(get, operation_id = "donations", path = "/donations", tag = "vouchers",
    responses((status = 200, description = "The donations", body = DonationsResponse)))]
async fn donation_list(State(state): State<AppState>) -> ApiResult<axum::Json<DonationsResponse>> {
    Ok(axum::Json(DonationsResponse {
        donations: state.orders.donation_list().await?,
    }))
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GiftOrderResponse {
    pub reservation_identifier: String,
    pub reservation_number: String,
    /// vouchers, donations or memberships.
    pub order_type: String,
    pub total: i64,
    pub currency: String,
    /// When it was paid (UTC).
    pub paid_at: Option<String>,
    pub system_vouchers: Vec<IssuedVoucher>,
    pub donations: Vec<PricedDonation>,
    /// A voucher order's prepaid products, collected with its first voucher (decision 0035).
    pub products: Vec<crate::dto::cart::PricedProduct>,
    /// A membership order's members, as they are now (`[]` for other orders; decision 0037).
    pub members: Vec<crate::dto::cart::IssuedMember>,
    /// A children's voucher order's waiver, masked (decision 0041); null for other orders.
    pub waiver: Option<crate::waivers::MaskedWaiverDto>,
    /// A seated membership's seats (decision 0043); `[]` for other orders.
    pub seats: Vec<crate::dto::cart::MembershipSeatDto>,
}

/// A paid voucher, donation or membership order, for its buyer (the session that paid it, or the customer
/// logged in whose order it is): the confirmation, with the vouchers' references.
#[utoipa::path(get, operation_id = "giftOrder", path = "/gift-orders/{id}", tag = "vouchers",
    params(("id" = String, Path, max_length = 64, description = "The order's reservation identifier")),
    responses((status = 200, description = "The order", body = GiftOrderResponse),
              (status = 404, description = "notFound: no such paid order of yours", body = ErrorBody)))]
async fn gift_order(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<GiftOrderResponse>> {
    let reader = ReservationReader {
        session: session.id(),
        login: session.login(),
        link: None,
    };
    let order = state.orders.gift_order(&id.into(), reader).await?;
    let members = state.orders.members_of_order(&order).await?;
    let mut response = GiftOrderResponse::of(&order, &members);
    response.seats = crate::membership_seats::order_seats(&state, &order).await?;
    response.waiver = state
        .orders
        .masked_waiver(&order)
        .await?
        .as_ref()
        .map(crate::waivers::MaskedWaiverDto::of);
    Ok(axum::Json(response))
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PdfQuery {
    /// he (default: the order's language) or en.
    #[param(max_length = 5)]
    pub lang: Option<String>,
}

/// A paid voucher order's vouchers as a PDF, one page each with the QR of its reference: for the
/// session that paid it or its logged-in customer (also attached to the confirmation mail).
#[utoipa::path(get, operation_id = "vouchersPdf", path = "/gift-orders/{id}/vouchers.pdf", tag = "vouchers",
    params(("id" = String, Path, max_length = 64, description = "The order's reservation identifier"), PdfQuery),
    responses((status = 200, description = "The vouchers", content_type = "application/pdf", body = Vec<u8>),
              (status = 404, description = "notFound: no such paid voucher order of yours", body = ErrorBody)))]
async fn vouchers_pdf(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    crate::extract::Query(q): crate::extract::Query<PdfQuery>,
) -> ApiResult<axum::response::Response> {
    use axum::http::header::{CACHE_CONTROL, CONTENT_DISPOSITION, CONTENT_TYPE};
    use axum::response::IntoResponse;
    let reader = ReservationReader {
        session: session.id(),
        login: session.login(),
        link: None,
    };
    let (order, pdf) = state
        .orders
        .voucher_order_pdf(&id.into(), reader, q.lang.as_deref())
        .await?;
    Ok((
        [
            (CONTENT_TYPE, "application/pdf".to_owned()),
            (
                CONTENT_DISPOSITION,
                format!(
                    "inline; filename=\"vouchers-{}.pdf\"",
                    order.reservation_number
                ),
            ),
            (CACHE_CONTROL, "private, no-store".to_owned()),
        ],
        pdf,
    )
        .into_response())
}

impl GiftOrderResponse {
    pub fn of(o: &Order, members: &[kupa_app::memberships::OrderMember]) -> GiftOrderResponse {
        GiftOrderResponse {
            reservation_identifier: o.id.to_string(),
            reservation_number: o.reservation_number.clone(),
            order_type: o.kind.as_str().to_owned(),
            total: o.total.minor(),
            currency: o.currency.clone(),
            paid_at: o.paid_at_ms.map(kupa_domain::time::ms_to_rfc3339),
            system_vouchers: IssuedVoucher::of(o),
            donations: if o.kind == OrderKind::Donations {
                PricedDonation::of(o)
            } else {
                Vec::new()
            },
            products: crate::dto::cart::PricedProduct::of(o),
            members: crate::dto::cart::IssuedMember::of(members),
            waiver: None,
            seats: Vec::new(),
        }
    }
}

// ---- The vouchers a buyer owns

/// A voucher sold, as its owner sees it (spec section 3: on a customer, Reference,
/// IsForReplacement, StartDate, EndDate, DateTimeCreated, balance, benefits, status).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OwnedVoucher {
    pub reference: String,
    /// The order that bought it (what cancel and replacement name).
    pub reservation_identifier: String,
    pub reservation_number: String,
    pub system_voucher_id: i64,
    pub name: String,
    pub name_en: String,
    /// active, partiallyRedeemed, redeemed, expired, cancelled or replacement.
    pub status: kupa_app::vouchers::VoucherStatus,
    pub price: i64,
    /// A value voucher: what it was worth and what is left (agorot).
    pub value: Option<i64>,
    pub balance: Option<i64>,
    /// A benefit voucher: the tickets it gives and how many were taken.
    pub benefit_tickets: Option<i64>,
    pub redeemed_tickets: i64,
    pub is_for_replacement: bool,
    /// `sale` (bought), or `credit`: given as the refund of a cancelled reservation
    /// (refundToTransactionCredit; `reservationIdentifier` is that reservation, `price` 0, `value`
    /// the credit). Credit is spent, never refunded.
    pub source: String,
    /// First and last day (Asia/Jerusalem, YYYY-MM-DD).
    pub start_date: String,
    pub end_date: String,
    /// When it was bought (UTC).
    pub date_time_created: String,
}

impl OwnedVoucher {
    fn of(v: &vouchers::SoldVoucher, today: jiff::civil::Date) -> OwnedVoucher {
        OwnedVoucher {
            reference: v.reference.clone(),
            reservation_identifier: v.order_id.to_string(),
            reservation_number: v.reservation_number.clone(),
            system_voucher_id: v.class_id,
            name: v.name.clone(),
            name_en: v.name_en.clone(),
            status: v.status(today),
            price: v.price.minor(),
            value: v.value.map(Money::minor),
            balance: v.balance.map(Money::minor),
            benefit_tickets: v.benefit_tickets,
            redeemed_tickets: if v.benefit_tickets.is_some() {
                v.used_count
            } else {
                0
            },
            is_for_replacement: v.is_for_replacement,
            source: if v.is_credit { "credit" } else { "sale" }.into(),
            start_date: v.valid_from.clone(),
            end_date: v.valid_to.clone(),
            date_time_created: kupa_domain::time::ms_to_rfc3339(v.created_at_ms),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MyVouchersResponse {
    pub system_vouchers: Vec<OwnedVoucher>,
}

/// The logged-in customer's vouchers, as the area shows them.
pub async fn owned_vouchers(state: &AppState, login: Option<&str>) -> ApiResult<Vec<OwnedVoucher>> {
    let today = state.vouchers.today();
    let list = state.vouchers.customer_vouchers(login).await?;
    Ok(list.iter().map(|v| OwnedVoucher::of(v, today)).collect())
}

fn reader(session: &BuyerSession) -> vouchers::VoucherReader<'_> {
    vouchers::VoucherReader {
        session: session.id(),
        login: session.login(),
    }
}

/// The logged-in customer's system vouchers, newest first (the customer area's list; Kupa's own
/// call: the spec's customer carries SystemVouchers).
#[utoipa::path(get, operation_id = "myVouchers", path = "/customer-area/system-vouchers", tag = "vouchers",
    responses((status = 200, description = "The customer's vouchers", body = MyVouchersResponse),
              (status = 401, description = "loginError", body = ErrorBody)))]
async fn my_vouchers(
    State(state): State<AppState>,
    session: BuyerSession,
) -> ApiResult<axum::Json<MyVouchersResponse>> {
    Ok(axum::Json(MyVouchersResponse {
        system_vouchers: owned_vouchers(&state, session.login()).await?,
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoucherHistoryResponse {
    pub system_voucher: OwnedVoucher,
    /// Oldest first: purchased, each redemption, replacement.
    pub history: Vec<vouchers::VoucherEvent>,
}

/// A voucher's history (spec: GET /system-vouchers/{ref}/history), for its owner only.
#[utoipa::path(get, operation_id = "systemVoucherHistory", path = "/system-vouchers/{ref}/history", tag = "vouchers",
    params(("ref" = String, Path, max_length = 64, description = "The voucher's reference")),
    responses((status = 200, description = "The voucher and its history", body = VoucherHistoryResponse),
              (status = 404, description = "SYSTEM_VOUCHER_NOT_FOUND (none, or not yours)", body = ErrorBody)))]
async fn voucher_history(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(reference): Path<String>,
) -> ApiResult<axum::Json<VoucherHistoryResponse>> {
    let (v, history) = state.vouchers.history(&reference, reader(&session)).await?;
    Ok(axum::Json(VoucherHistoryResponse {
        system_voucher: OwnedVoucher::of(&v, state.vouchers.today()),
        history,
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VoucherActionBody {
    /// The order that bought the voucher.
    #[schema(max_length = 64)]
    pub reservation_identifier: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoucherActionResponse {
    pub system_voucher: OwnedVoucher,
}

/// Turns a voucher into a replacement voucher, good for KUPA_VOUCHER_REPLACEMENT_DAYS from today
/// (spec: POST /system-vouchers/{ref}/replacement); a partly redeemed voucher, which cannot be
/// refunded, can be replaced. For its owner only.
#[utoipa::path(post, operation_id = "systemVoucherReplacement", path = "/system-vouchers/{ref}/replacement", tag = "vouchers",
    params(("ref" = String, Path, max_length = 64, description = "The voucher's reference")),
    request_body = VoucherActionBody,
    responses((status = 200, description = "The voucher, now a replacement voucher", body = VoucherActionResponse),
              (status = 404, description = "SYSTEM_VOUCHER_NOT_FOUND (none, not yours, or not of this reservation)", body = ErrorBody),
              (status = 409, description = "SYSTEM_VOUCHER_ALREADY_FOR_REPLACEMENT, SYSTEM_VOUCHER_NOT_ACTIVE (cancelled, used up or expired)", body = ErrorBody)))]
async fn voucher_replacement(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(reference): Path<String>,
    Json(body): Json<VoucherActionBody>,
) -> ApiResult<axum::Json<VoucherActionResponse>> {
    let v = state
        .vouchers
        .replace(&reference, &body.reservation_identifier, reader(&session))
        .await?;
    Ok(axum::Json(VoucherActionResponse {
        system_voucher: OwnedVoucher::of(&v, state.vouchers.today()),
    }))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VoucherCancelResponse {
    pub system_voucher: OwnedVoucher,
    /// Agorot given back to the payment it was bought with.
    pub refund: i64,
    /// False while the payment provider has not confirmed the refund (it is retried).
    pub refund_pending: bool,
}

/// Cancels a voucher nothing of which was used, refunding its price to the payment it was bought
/// with (spec: POST /system-vouchers/{ref}/cancel); a partly used one answers
/// `SYSTEM_VOUCHER_NOT_ACTIVE` with `params.offer: "replacement"`. For its owner only; once.
#[utoipa::path(post, operation_id = "systemVoucherCancel", path = "/system-vouchers/{ref}/cancel", tag = "vouchers",
    params(("ref" = String, Path, max_length = 64, description = "The voucher's reference")),
    request_body = VoucherActionBody,
    responses((status = 200, description = "The voucher, cancelled, and its refund", body = VoucherCancelResponse),
              (status = 404, description = "SYSTEM_VOUCHER_NOT_FOUND (none, not yours, or not of this reservation)", body = ErrorBody),
              (status = 409, description = "SYSTEM_VOUCHER_NOT_ACTIVE (used, partly used, replaced, cancelled or expired), BALANCE_IS_DUE (a payment not refunded online)", body = ErrorBody),
              (status = 422, description = "SYSTEM_VOUCHER_NOT_SOLD_IN_OUTLET", body = ErrorBody)))]
async fn voucher_cancel(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(reference): Path<String>,
    Json(body): Json<VoucherActionBody>,
) -> ApiResult<axum::Json<VoucherCancelResponse>> {
    let (after, done) = state
        .orders
        .cancel_system_voucher(&reference, &body.reservation_identifier, reader(&session))
        .await?;
    Ok(axum::Json(VoucherCancelResponse {
        system_voucher: OwnedVoucher::of(&after, state.vouchers.today()),
        refund: done.refund.minor(),
        refund_pending: !done.refund_done,
    }))
}
