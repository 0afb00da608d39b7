//! System vouchers and donations (spec sections 2, 3 and 4; issue 14): what the catalogue offers
//! ([`model`]), the order lines a voucher or donation cart becomes, and the rules that price them.
//! The orders room keeps the session's cart, the payment and the one finalisation; this room
//! says what may be bought and what it costs, and nothing here writes.

mod document;
pub mod model;
mod service;
pub mod waiver;

use jiff::ToSpan;
use jiff::civil::Date;
use kupa_domain::money::Money;
use rand::Rng;

use crate::error::{AppError, AppResult, ErrorCode};
pub use document::{VoucherOrder, vouchers_document};
pub use model::*;
pub use service::*;
pub use waiver::{OrderWaiver, WaiverInput};

/// At most this many vouchers in one order (spec section 9: maxQuantityForVouchers 10).
pub const MAX_QUANTITY_FOR_VOUCHERS: i64 = 10;
/// At most this many donation lines in one order.
pub const MAX_DONATION_LINES: i64 = 10;

/// A system voucher sold: one line per voucher. Its reference and the id of the code it becomes
/// are drawn when the cart is priced; the finalisation that sells the order writes the code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderSystemVoucher {
    pub line: i64,
    pub class_id: i64,
    /// None: the class's open price.
    pub price_id: Option<i64>,
    pub name: String,
    pub name_en: String,
    /// Paid.
    pub price: Money,
    /// What the voucher is worth; None for a benefit voucher.
    pub value: Option<Money>,
    /// Tickets a benefit voucher unlocks; None for a value voucher.
    pub benefit_tickets: Option<i64>,
    /// The "by code" ticket the voucher unlocks when redeemed.
    pub ticket_id: i64,
    /// What the buyer types to redeem it: unguessable, printed on its PDF and QR.
    pub reference: String,
    pub code_id: i64,
    /// Local days, inclusive (YYYY-MM-DD).
    pub valid_from: String,
    pub valid_to: String,
}

/// A donation given: one line per amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderDonation {
    pub line: i64,
    pub donation_id: i64,
    pub detail_id: i64,
    pub name: String,
    pub name_en: String,
    pub amount: Money,
}

/// A voucher the buyer chose: a class, one of its prices (or the open price with an amount), and
/// how many.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoucherChoice {
    pub class_id: i64,
    /// None: the open price, with `amount`.
    pub price_id: Option<i64>,
    /// The open price's amount.
    pub amount: Option<Money>,
    pub quantity: i64,
}

/// A donation the donor chose: a donation, one of its amounts (or the custom amount with
/// `amount`), and how many times.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DonationChoice {
    pub donation_id: i64,
    pub detail_id: i64,
    /// The custom amount.
    pub amount: Option<Money>,
    pub quantity: i64,
}

fn refused(code: ErrorCode, message: impl std::fmt::Display) -> AppError {
    AppError::rejected(code, message)
}

fn field(message: impl std::fmt::Display, field: &str, extra: serde_json::Value) -> AppError {
    let mut params = serde_json::json!({ "fields": [field] });
    if let (Some(p), Some(e)) = (params.as_object_mut(), extra.as_object()) {
        p.extend(e.clone());
    }
    AppError::rejected_with(ErrorCode::FormValidation, message, params)
}

/// Whether a class is on sale online today: its sale days, and not box office only.
pub fn on_sale_online(class: &SystemVoucherClass, today: Date) -> bool {
    let day = today.to_string();
    !class.box_office_only
        && class.sale_from.as_deref().is_none_or(|f| f <= day.as_str())
        && class.sale_to.as_deref().is_none_or(|t| t >= day.as_str())
}

/// An unguessable voucher reference, 80 random bits written as four groups of Crockford base32
/// ("KV-7Q2M-XT4D-9HRA-C3WN" less the prefix's ambiguity): what a buyer types or the QR carries.
pub fn new_reference() -> String {
    const ALPHABET: &[u8] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let mut rng = rand::rng();
    let chars: Vec<char> = (0..16)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect();
    let groups: Vec<String> = chars.chunks(4).map(|c| c.iter().collect()).collect();
    format!("KV-{}", groups.join("-"))
}

/// The id of the code a voucher becomes: random in a range the catalogue file never uses (its
/// ids are small), so codes issued on several nodes at once never collide.
pub fn new_code_id() -> i64 {
    rand::rng().random_range((1_i64 << 40)..(1_i64 << 62))
}

/// Prices the vouchers chosen into order lines: each class on sale online, each price its own,
/// an open price a whole number of shekels between its bounds, and at most
/// [`MAX_QUANTITY_FOR_VOUCHERS`] vouchers.
pub fn voucher_lines(
    classes: &[SystemVoucherClass],
    choices: &[VoucherChoice],
    today: Date,
) -> AppResult<Vec<OrderSystemVoucher>> {
    if !classes.iter().any(|c| on_sale_online(c, today)) {
        return Err(refused(
            ErrorCode::NoVouchers,
            "no voucher is on sale online now",
        ));
    }
    let quantity: i64 = choices.iter().map(|c| c.quantity.max(0)).sum();
    if choices.is_empty() || quantity == 0 {
        return Err(refused(
            ErrorCode::MustSelectVouchers,
            "choose at least one voucher",
        ));
    }
    if choices.iter().any(|c| c.quantity < 0) {
        return Err(field(
            "a quantity cannot be negative",
            "quantity",
            serde_json::json!({}),
        ));
    }
    if quantity > MAX_QUANTITY_FOR_VOUCHERS {
        return Err(field(
            format!("at most {MAX_QUANTITY_FOR_VOUCHERS} vouchers in one order"),
            "quantity",
            serde_json::json!({ "max": MAX_QUANTITY_FOR_VOUCHERS }),
        ));
    }
    let mut lines = Vec::new();
    for choice in choices.iter().filter(|c| c.quantity > 0) {
        let class = classes
            .iter()
            .find(|c| c.id == choice.class_id)
            .ok_or_else(|| refused(ErrorCode::NotFound, "no such voucher"))?;
        if class.box_office_only {
            return Err(refused(
                ErrorCode::SystemVoucherNotSoldInOutlet,
                "this voucher is sold at the box office only",
            ));
        }
        if !on_sale_online(class, today) {
            return Err(refused(
                ErrorCode::NoVouchers,
                "this voucher is not on sale now",
            ));
        }
        let (price, value) = match choice.price_id {
            Some(price_id) => {
                let p = class
                    .prices
                    .iter()
                    .find(|p| p.id == price_id)
                    .ok_or_else(|| {
                        refused(ErrorCode::PriceNotFound, "no such price of this voucher")
                    })?;
                (p.price, p.value.unwrap_or(p.price))
            }
            None => {
                let open = class.open_price.ok_or_else(|| {
                    refused(
                        ErrorCode::GetPrice,
                        "this voucher has no open price: choose one of its prices",
                    )
                })?;
                let amount = choice.amount.ok_or_else(|| {
                    refused(
                        ErrorCode::GetPrice,
                        "give the amount of this open-price voucher",
                    )
                })?;
                if amount < open.min || amount > open.max || amount.minor() % 100 != 0 {
                    return Err(field(
                        "the amount must be whole shekels between the voucher's minimum and maximum",
                        "amount",
                        serde_json::json!({ "min": open.min, "max": open.max }),
                    ));
                }
                (amount, amount)
            }
        };
        let valid_from = today;
        let valid_to = today
            .checked_add(class.valid_days.max(1).days())
            .map_err(|e| AppError::internal(format!("voucher validity: {e}")))?;
        for _ in 0..choice.quantity {
            lines.push(OrderSystemVoucher {
                line: lines.len() as i64,
                class_id: class.id,
                price_id: choice.price_id,
                name: class.name.clone(),
                name_en: class.name_en.clone(),
                price,
                value: class.is_value().then_some(value),
                benefit_tickets: (!class.is_value()).then(|| class.benefit_tickets()),
                ticket_id: class.ticket_id,
                reference: new_reference(),
                code_id: new_code_id(),
                valid_from: valid_from.to_string(),
                valid_to: valid_to.to_string(),
            });
        }
    }
    Ok(lines)
}

/// Prices the donations chosen into order lines: each amount of its donation, a custom amount a
/// whole number of shekels between its bounds.
pub fn donation_lines(
    donations: &[Donation],
    choices: &[DonationChoice],
) -> AppResult<Vec<OrderDonation>> {
    if donations.is_empty() {
        return Err(refused(ErrorCode::NoDonations, "no donation is open now"));
    }
    let count: i64 = choices.iter().map(|c| c.quantity.max(0)).sum();
    if choices.is_empty() || count == 0 {
        return Err(refused(
            ErrorCode::MustSelectDonations,
            "choose an amount to donate",
        ));
    }
    if choices.iter().any(|c| c.quantity < 0) || count > MAX_DONATION_LINES {
        return Err(field(
            format!("1 to {MAX_DONATION_LINES} donations in one order"),
            "quantity",
            serde_json::json!({ "max": MAX_DONATION_LINES }),
        ));
    }
    let mut lines = Vec::new();
    for choice in choices.iter().filter(|c| c.quantity > 0) {
        let donation = donations
            .iter()
            .find(|d| d.id == choice.donation_id)
            .ok_or_else(|| refused(ErrorCode::NotFound, "no such donation"))?;
        let detail = donation
            .details
            .iter()
            .find(|d| d.id == choice.detail_id)
            .ok_or_else(|| refused(ErrorCode::PriceNotFound, "no such amount of this donation"))?;
        let amount = if detail.custom_amount {
            let amount = choice.amount.unwrap_or(Money::ZERO);
            let min = detail.min.max(Money(100));
            if amount < min || amount > detail.max || amount.minor() % 100 != 0 {
                return Err(field(
                    "the amount must be whole shekels between the minimum and the maximum",
                    "amount",
                    serde_json::json!({ "min": min, "max": detail.max }),
                ));
            }
            amount
        } else {
            detail.amount
        };
        for _ in 0..choice.quantity {
            lines.push(OrderDonation {
                line: lines.len() as i64,
                donation_id: donation.id,
                detail_id: detail.id,
                name: donation.name.clone(),
                name_en: donation.name_en.clone(),
                amount,
            });
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests;
