//! Memberships (issue 15, decision 0037): what is sold (GET /memberships: Kupa's own, the spec's
//! client reads its Membership entity from it), the lines of a membership cart as POST /cart
//! takes them (spec section 3: MembershipId, prices with MembershipPriceId, selectedQuantity,
//! reference1 and reference2, topups keyed by member number), and the members a paid membership
//! order made, as the commit and GET /gift-orders/{id} answer them.

use std::collections::BTreeMap;

use axum::extract::State;
use kupa_app::memberships::{
    self, MembershipChoice, PriceChoice, TopUpChoice, currency_of, prices_of, value_of,
};
use kupa_app::model::{Membership, ReferencePrompt};
use kupa_app::orders::Order;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiResult;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(membership_catalogue))
}

// ---- What is sold

/// A currency as the spec's Membership price carries it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct CurrencyDto {
    /// 1 for ILS (2 EUR, 3 USD; 0 for any other).
    pub CurrencyId: i64,
    pub CurrencySymbol: String,
    pub CurrencyCode: String,
}

impl CurrencyDto {
    fn of(code: &str) -> CurrencyDto {
        let (id, symbol) = match code {
            "ILS" => (1, "₪"),
            "EUR" => (2, "€"),
            "USD" => (3, "$"),
            other => (0, other),
        };
        CurrencyDto {
            CurrencyId: id,
            CurrencySymbol: symbol.to_owned(),
            CurrencyCode: code.to_owned(),
        }
    }
}

/// What a price asks the buyer to type (spec: references reference1 and reference2).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReferenceDto {
    /// reference1 or reference2: the cart line's field that answers it.
    pub key: String,
    pub label: String,
    pub label_en: String,
    /// A regular expression the whole answer must match; null: anything not blank.
    pub pattern: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct MembershipPriceDto {
    pub MembershipPriceId: i64,
    pub PriceCode: String,
    /// Agorot.
    pub Price: i64,
    /// Agorot of balance a series member gets (or a top-up adds); the price unless the
    /// catalogue says otherwise. Only a series (MembershipTypeId 2) carries a balance.
    pub value: i64,
    pub currency: CurrencyDto,
    /// Each must be answered in the cart line (and match its pattern).
    pub references: Vec<ReferenceDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TermsDto {
    pub terms_id: i64,
    pub text: String,
    pub text_en: String,
}

/// A membership on sale (spec section 3, Membership).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct MembershipDto {
    pub MembershipId: i64,
    /// 2 means a series (a balance of tickets' worth).
    pub MembershipTypeId: i64,
    pub Name: String,
    pub NameEn: String,
    pub Code: String,
    pub ClassName: String,
    pub Description: String,
    pub DescriptionEn: String,
    pub prices: Vec<MembershipPriceDto>,
    /// A new member is good from the day of payment for this many months (the last day is a
    /// day short of the same date then).
    #[serde(rename = "validMonths")]
    pub valid_months: i64,
    /// Its prices can be bought again for a member of the buyer's, adding to the balance.
    #[serde(rename = "topUp")]
    pub top_up: bool,
    pub terms: TermsDto,
    /// A seated membership (decision 0043): its price includes one seat, the same, in every
    /// screening of this season, chosen when it is bought; null for other memberships.
    pub seats: Option<crate::membership_seats::MembershipSeatsDto>,
}

fn references(r1: &Option<ReferencePrompt>, r2: &Option<ReferencePrompt>) -> Vec<ReferenceDto> {
    [("reference1", r1), ("reference2", r2)]
        .into_iter()
        .filter_map(|(key, p)| {
            p.as_ref().map(|p| ReferenceDto {
                key: key.to_owned(),
                label: p.label.clone(),
                label_en: p.label_en.clone(),
                pattern: p.pattern.clone(),
            })
        })
        .collect()
}

impl MembershipDto {
    pub fn of(m: &Membership) -> MembershipDto {
        MembershipDto {
            MembershipId: m.id,
            MembershipTypeId: m.type_id,
            Name: m.name.clone(),
            NameEn: m.name_en.clone(),
            Code: m.code.clone(),
            ClassName: m.class_name.clone(),
            Description: m.description.clone(),
            DescriptionEn: m.description_en.clone(),
            prices: prices_of(m)
                .iter()
                .map(|p| MembershipPriceDto {
                    MembershipPriceId: p.id,
                    PriceCode: p.price_code.clone(),
                    Price: p.price.minor(),
                    value: value_of(p).minor(),
                    currency: CurrencyDto::of(currency_of(p)),
                    references: references(&p.reference1, &p.reference2),
                })
                .collect(),
            valid_months: m.valid_months,
            top_up: m.top_up && m.is_series(),
            terms: TermsDto {
                terms_id: m.id,
                text: m.terms.clone(),
                text_en: m.terms_en.clone(),
            },
            seats: None,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MembershipCatalogueResponse {
    pub memberships: Vec<MembershipDto>,
    /// At most this many new members of one membership in one order (spec:
    /// maxQuantityForMembership).
    pub max_quantity_for_membership: i64,
}

/// The memberships on sale (spec section 2, "choose memberships"), by their order. One that is
/// not on sale is not listed (its members still see it in the customer area), nor a seated one
/// whose season has closed.
#[utoipa::path(get, operation_id = "membershipCatalogue", path = "/memberships", tag = "memberships",
    responses((status = 200, description = "The memberships on sale", body = MembershipCatalogueResponse)))]
async fn membership_catalogue(
    State(state): State<AppState>,
) -> ApiResult<axum::Json<MembershipCatalogueResponse>> {
    let mut listed = Vec::new();
    for m in state.orders.memberships_on_sale().await? {
        let seats = match state.enroll.seats_of(&m).await {
            Ok(seats) => seats,
            Err(kupa_app::error::AppError::Rejected {
                code: kupa_app::error::ErrorCode::NotFound,
                ..
            }) => continue,
            Err(e) => return Err(e.into()),
        };
        let mut dto = MembershipDto::of(&m);
        dto.seats = seats
            .as_ref()
            .map(crate::membership_seats::MembershipSeatsDto::of);
        listed.push(dto);
    }
    Ok(axum::Json(MembershipCatalogueResponse {
        memberships: listed,
        max_quantity_for_membership: memberships::MAX_QUANTITY_FOR_MEMBERSHIP,
    }))
}

// ---- What the cart takes

/// A membership of the cart: new members per price, and top-ups of the buyer's members.
#[derive(Debug, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct CartMembershipIn {
    pub MembershipId: i64,
    #[serde(default)]
    #[schema(max_items = 10)]
    pub prices: Vec<CartMembershipPriceIn>,
    /// Top-ups keyed by the member number they add to (a series with topUp only).
    #[serde(default)]
    pub topups: Option<BTreeMap<String, Vec<CartTopUpIn>>>,
}

#[allow(non_snake_case)]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CartMembershipPriceIn {
    /// One of the membership's prices (missing: getPrice).
    #[serde(default)]
    pub MembershipPriceId: Option<i64>,
    #[schema(minimum = 0, maximum = 10)]
    pub selectedQuantity: i64,
    /// The answer to the price's first reference prompt, when it has one.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub reference1: Option<String>,
    #[serde(default)]
    #[schema(max_length = 64)]
    pub reference2: Option<String>,
}

#[allow(non_snake_case)]
#[derive(Debug, Deserialize, ToSchema)]
pub struct CartTopUpIn {
    #[serde(default)]
    pub MembershipPriceId: Option<i64>,
    #[schema(minimum = 0, maximum = 10)]
    pub selectedQuantity: i64,
}

pub fn membership_choices(lines: &[CartMembershipIn]) -> Vec<MembershipChoice> {
    lines
        .iter()
        .map(|m| MembershipChoice {
            membership_id: m.MembershipId,
            prices: m
                .prices
                .iter()
                .map(|p| PriceChoice {
                    price_id: p.MembershipPriceId,
                    quantity: p.selectedQuantity,
                    reference1: p.reference1.clone(),
                    reference2: p.reference2.clone(),
                })
                .collect(),
            top_ups: m
                .topups
                .iter()
                .flatten()
                .flat_map(|(number, prices)| {
                    prices.iter().map(|p| TopUpChoice {
                        member_number: number.trim().to_owned(),
                        price_id: p.MembershipPriceId,
                        quantity: p.selectedQuantity,
                    })
                })
                .collect(),
        })
        .collect()
}

// ---- What the cart answers

/// A membership unit of a priced cart: a new member (its number comes with the payment) or a
/// top-up of a member's balance.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedMembership {
    pub membership_id: i64,
    pub membership_price_id: i64,
    pub name: String,
    pub name_en: String,
    pub membership_type_id: i64,
    /// Agorot paid.
    pub price: i64,
    /// The price's value (agorot): a series member's balance, or what a top-up adds.
    pub value: i64,
    /// A top-up: the member whose balance grows; null for a new member.
    pub top_up_member_number: Option<String>,
    pub reference1: Option<String>,
    pub reference2: Option<String>,
    /// A new member's first and last day if paid today (Asia/Jerusalem, YYYY-MM-DD, inclusive;
    /// counted from the day of payment); null for a top-up.
    pub valid_from: Option<String>,
    pub valid_to: Option<String>,
}

impl PricedMembership {
    pub fn of(o: &Order) -> Vec<PricedMembership> {
        o.memberships
            .iter()
            .map(|m| PricedMembership {
                membership_id: m.membership_id,
                membership_price_id: m.price_id,
                name: m.name.clone(),
                name_en: m.name_en.clone(),
                membership_type_id: m.type_id,
                price: m.price.minor(),
                value: m.value.minor(),
                top_up_member_number: m.top_up_member_number.clone(),
                reference1: m.reference1.clone(),
                reference2: m.reference2.clone(),
                valid_from: m.valid_from.clone(),
                valid_to: m.valid_to.clone(),
            })
            .collect()
    }
}
