//! What the catalogue sells besides tickets (spec section 3 "System voucher" and "Donation"), as
//! the catalogue file and the store hold them.

use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

/// A class of system voucher the chain sells: a gift card of a value, or a bundle of benefits
/// ("2 tickets + popcorn"), at fixed prices or an open price between a minimum and a maximum.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SystemVoucherClass {
    /// The spec's SystemVoucherId (one class, one id) and SystemVoucherClassId.
    pub id: i64,
    /// The spec's SystemVoucherSuperClassId: the family the class belongs to (gift cards, benefits).
    pub super_class_id: i64,
    pub business_id: i64,
    pub name: String,
    pub name_en: String,
    pub description: String,
    pub description_en: String,
    /// The ticket a voucher of this class unlocks when it is redeemed (a "by code" ticket of the
    /// catalogue): a value voucher pays with its balance, a benefit voucher takes this ticket
    /// once per benefit.
    pub ticket_id: i64,
    /// Fixed prices; empty when the class has only an open price.
    pub prices: Vec<SystemVoucherPrice>,
    /// The buyer names the amount, between these (agorot).
    pub open_price: Option<OpenPrice>,
    /// What a benefit voucher gives; empty for a value voucher.
    pub benefits: Vec<VoucherBenefit>,
    /// A voucher is good for this many days from its purchase.
    pub valid_days: i64,
    /// Sold from this local day, until this one (inclusive, YYYY-MM-DD); None: open. Relative days
    /// ("today+30") in the catalogue file.
    pub sale_from: Option<String>,
    pub sale_to: Option<String>,
    /// Sold at the box office only: listed, never sold online (SYSTEM_VOUCHER_NOT_SOLD_IN_OUTLET).
    pub box_office_only: bool,
    pub terms: String,
    pub terms_en: String,
    pub sort: i64,
    /// A waiver the buyer signs for the children who will use the voucher (decision 0041): the
    /// ages it is for and the text signed. None: no waiver.
    pub waiver: Option<WaiverTerms>,
}

/// What a class's waiver asks (spec section 3 "waiver"; decision 0041): each child named is
/// between these ages (whole years, inclusive) on the day of purchase, and the parent signs the
/// text.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct WaiverTerms {
    pub min_age: i64,
    pub max_age: i64,
    pub text: String,
    pub text_en: String,
}

/// One fixed price of a class: what the buyer pays, and the value the voucher carries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SystemVoucherPrice {
    /// The spec's SystemVoucherPriceId.
    pub id: i64,
    /// Agorot paid.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub price: Money,
    /// Agorot the voucher is worth when redeemed; None: the price (a gift card of its price).
    /// A benefit voucher carries its benefits, not a value.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub value: Option<Money>,
}

/// An open price: the buyer chooses the amount (whole shekels), between these (agorot).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct OpenPrice {
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub min: Money,
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub max: Money,
}

/// One benefit of a benefit voucher: its name and how many times it can be redeemed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct VoucherBenefit {
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    /// A product collected at the counter with the voucher (popcorn), not a ticket: shown on
    /// the voucher, never redeemed online.
    pub product: bool,
}

impl SystemVoucherClass {
    /// A value voucher (a gift card) has no benefits.
    pub fn is_value(&self) -> bool {
        self.benefits.is_empty()
    }

    /// How many tickets a benefit voucher unlocks: the sum of its ticket benefits' quantities.
    pub fn benefit_tickets(&self) -> i64 {
        self.benefits
            .iter()
            .filter(|b| !b.product)
            .map(|b| b.quantity)
            .sum()
    }
}

/// A cause the chain collects for (spec: Donation id, Code, donationDetails).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Donation {
    pub id: i64,
    pub code: String,
    pub business_id: i64,
    pub name: String,
    pub name_en: String,
    pub description: String,
    pub description_en: String,
    /// The amounts offered; one of them may be the custom amount.
    pub details: Vec<DonationDetail>,
    pub sort: i64,
}

/// One amount of a donation: fixed, or the donor's own (customAmount) between a minimum and a
/// maximum.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct DonationDetail {
    pub id: i64,
    /// Agorot; 0 for the custom amount.
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub amount: Money,
    pub custom_amount: bool,
    /// Bounds of the custom amount (agorot).
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub min: Money,
    #[cfg_attr(feature = "openapi", schema(value_type = i64))]
    pub max: Money,
}
