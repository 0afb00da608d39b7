//! The cart's and the payment's wire shapes that more than one room answers with (spec section 7
//! "Cart and payment"): where to pay, the commit and what it answers, and the lines of an order
//! shown back (products, vouchers sold, members made, a membership's seats). Data only: the
//! handlers in `cart`, `holds`, `vouchers`, `memberships` and `membership_seats` fill them.

use kupa_app::memberships::OrderMember;
use kupa_app::orders::Order;
use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PaymentFormResponse {
    /// The gateway's page for this payment (open it in the payment dialog).
    #[serde(rename = "paymentFormURL")]
    pub payment_form_url: String,
    pub payment_identifier: String,
    /// True when vouchers paid the whole order: nothing to pay at the gateway; commit next.
    pub paid: bool,
    pub amount: i64,
    pub currency: String,
    /// The holds now last until this time: the payment window.
    pub expires_at: String,
    pub server_time: String,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitBody {
    pub cart: CommitCart,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    /// The mini-site the order was priced through (422 `formValidation` when it was not).
    #[serde(default)]
    #[schema(max_length = 200)]
    pub mini_site_url: Option<String>,
}

/// The cart as the commit repeats it; the server trusts only its own priced order.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitCart {
    /// The cart's presentations; the first finds the session's order (which holds them all).
    /// Empty for a voucher or donation order.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub presentations: Vec<CommitPresentation>,
    /// A voucher order's vouchers, as sent to POST /cart (only their presence counts: the server
    /// commits its own priced order).
    #[serde(default)]
    #[schema(max_items = 10)]
    pub vouchers: Option<Vec<serde_json::Value>>,
    /// A donation order's donations, as sent to POST /cart.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub donations: Option<Vec<serde_json::Value>>,
    /// A membership order's memberships, as sent to POST /cart.
    #[serde(default)]
    #[schema(max_items = 10)]
    pub memberships: Option<Vec<serde_json::Value>>,
    /// An unpaid hold instead of a paid order ("reserve and pay later"; a logged-in member only;
    /// see GET /reservations/{id}/hold and POST /reservations/{id}/pay).
    #[serde(default)]
    pub is_hold: bool,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitPresentation {
    pub presentation_id: i64,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CommitResponse {
    pub reservation_identifier: String,
    /// The tickets' e-document keys, line order.
    pub ticket_identifiers: Vec<String>,
    pub reservation_number: String,
    /// A voucher order's vouchers, with their references (empty for other orders).
    pub system_vouchers: Vec<IssuedVoucher>,
    /// A membership order's members: each new member (with its number) and each member topped
    /// up, as they are after the payment (empty for other orders).
    pub members: Vec<IssuedMember>,
    /// A seated membership's seats (decision 0043); `[]` for other orders.
    pub seats: Vec<MembershipSeatDto>,
    /// Always null on success.
    pub error: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PricedProduct {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub unit_price: i64,
    pub amount: i64,
}

impl PricedProduct {
    pub fn of(o: &Order) -> Vec<PricedProduct> {
        o.products
            .iter()
            .map(|p| PricedProduct {
                id: p.product_id,
                name: p.name.clone(),
                name_en: p.name_en.clone(),
                quantity: p.quantity,
                unit_price: p.unit_price.minor(),
                amount: (p.unit_price * p.quantity).minor(),
            })
            .collect()
    }
}

/// A voucher sold: what its buyer types (or scans) to redeem it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IssuedVoucher {
    /// The voucher's reference (spec: Reference).
    pub reference: String,
    pub system_voucher_id: i64,
    pub name: String,
    pub name_en: String,
    pub price: i64,
    pub value: Option<i64>,
    pub benefit_tickets: Option<i64>,
    pub valid_from: String,
    pub valid_to: String,
}

impl IssuedVoucher {
    pub fn of(o: &Order) -> Vec<IssuedVoucher> {
        if o.status != kupa_app::orders::OrderStatus::Paid {
            return Vec::new();
        }
        o.system_vouchers
            .iter()
            .map(|v| IssuedVoucher {
                reference: v.reference.clone(),
                system_voucher_id: v.class_id,
                name: v.name.clone(),
                name_en: v.name_en.clone(),
                price: v.price.minor(),
                value: v.value.map(Money::minor),
                benefit_tickets: v.benefit_tickets,
                valid_from: v.valid_from.clone(),
                valid_to: v.valid_to.clone(),
            })
            .collect()
    }
}

/// A member a paid order made (or topped up), as it is now.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IssuedMember {
    /// 8 digits: what the member types as membershipLoyaltyId and logs in with.
    pub member_number: String,
    pub membership_id: i64,
    pub membership_type_id: i64,
    pub name: String,
    pub name_en: String,
    /// Agorot (a series' balance; 0 for other memberships), after this order.
    pub balance: i64,
    /// First and last day (Asia/Jerusalem, YYYY-MM-DD, inclusive).
    pub start_date: String,
    pub end_date: String,
    /// True: this order topped up an existing member (its days unchanged, `balance` the new
    /// total); false: this order made the member.
    pub top_up: bool,
}

impl IssuedMember {
    pub fn of(members: &[OrderMember]) -> Vec<IssuedMember> {
        members
            .iter()
            .map(|m| IssuedMember {
                member_number: m.member_number.clone(),
                membership_id: m.membership_id,
                membership_type_id: m.membership_type_id,
                name: m.name.clone(),
                name_en: m.name_en.clone(),
                balance: m.balance.minor(),
                start_date: m.start_date.clone(),
                end_date: m.end_date.clone(),
                top_up: m.top_up,
            })
            .collect()
    }
}

/// A seat an order sold with its membership, with its screening.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MembershipSeatDto {
    pub presentation_id: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    /// UTC.
    pub date_time: String,
    pub venue_name: String,
    pub venue_name_en: String,
    pub section_id: i64,
    pub section_name: String,
    pub section_name_en: String,
    pub row_name: String,
    pub seat_name: String,
    /// The seat's e-document (`GET /edocument/{documentKey}`, the page `/edocument/{documentKey}`):
    /// its QR is what the door scans.
    pub document_key: String,
}
