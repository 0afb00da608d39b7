//! The card form's rules: brands and their checks, expiry, and what the issuer answers for a
//! card typed in or saved. Only the brand, the BIN and the last four digits come out.

use std::fmt;

use kupa_app::orders::{DeclineReason, PaymentStatus, PaymentUpdate};
use kupa_domain::ids::IsraeliId;

use super::{InvalidFields, cards, codes};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardBrand {
    Visa,
    Mastercard,
    Amex,
    Diners,
    Discover,
    Jcb,
    /// Isracard's Israeli private-label cards (8 or 9 digits).
    Isracard,
}

impl CardBrand {
    pub fn as_str(self) -> &'static str {
        match self {
            CardBrand::Visa => "visa",
            CardBrand::Mastercard => "mastercard",
            CardBrand::Amex => "amex",
            CardBrand::Diners => "diners",
            CardBrand::Discover => "discover",
            CardBrand::Jcb => "jcb",
            CardBrand::Isracard => "isracard",
        }
    }

    /// The brand a card number belongs to, from its prefix and length (digits only).
    pub fn of(digits: &str) -> Option<CardBrand> {
        let len = digits.len();
        let prefix = |n: usize| {
            digits
                .get(..n)
                .and_then(|p| p.parse::<u32>().ok())
                .unwrap_or(0)
        };
        if (8..=9).contains(&len) {
            return Some(CardBrand::Isracard);
        }
        let brand = match (prefix(1), prefix(2), prefix(3), prefix(4)) {
            (4, ..) => CardBrand::Visa,
            (_, 34 | 37, ..) => CardBrand::Amex,
            (_, 51..=55, ..) | (.., 2221..=2720) => CardBrand::Mastercard,
            (_, 36 | 38 | 39, ..) | (_, _, 300..=305, _) => CardBrand::Diners,
            (_, 65, ..) | (_, _, 644..=649, _) | (.., 6011) => CardBrand::Discover,
            (.., 3528..=3589) => CardBrand::Jcb,
            _ => return None,
        };
        let lengths: &[usize] = match brand {
            CardBrand::Visa => &[13, 16, 19],
            CardBrand::Amex => &[15],
            CardBrand::Mastercard => &[16],
            CardBrand::Diners => &[14, 15, 16, 17, 18, 19],
            CardBrand::Discover | CardBrand::Jcb => &[16, 17, 18, 19],
            CardBrand::Isracard => &[8, 9],
        };
        lengths.contains(&len).then_some(brand)
    }

    fn cvv_len(self) -> usize {
        if self == CardBrand::Amex { 4 } else { 3 }
    }
}

/// The Luhn (mod 10) check of international card numbers.
pub fn luhn(digits: &str) -> bool {
    if digits.is_empty() || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let sum: u32 = digits
        .bytes()
        .rev()
        .enumerate()
        .map(|(i, c)| {
            let d = u32::from(c - b'0');
            if i % 2 == 1 {
                let d = d * 2;
                if d > 9 { d - 9 } else { d }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

/// Isracard's check of its 8- and 9-digit private-label numbers: padded to 9 digits, the digits
/// weighted 9 down to 1 sum to a multiple of 11.
pub fn isracard_check(digits: &str) -> bool {
    if !(8..=9).contains(&digits.len()) || !digits.bytes().all(|c| c.is_ascii_digit()) {
        return false;
    }
    let padded = format!("{digits:0>9}");
    let sum: u32 = padded
        .bytes()
        .enumerate()
        .map(|(i, c)| u32::from(c - b'0') * (9 - i as u32))
        .sum();
    sum.is_multiple_of(11) && padded != "000000000"
}

/// "MM/YY" (also "MM/YYYY", "MMYY", "MM-YY", spaces ignored) → (year, month).
pub fn parse_expiry(raw: &str) -> Option<(i32, u32)> {
    let s: String = raw.chars().filter(|c| !c.is_whitespace()).collect();
    let (mm, yy) = match s.split_once(['/', '-']) {
        Some((m, y)) => (m.to_owned(), y.to_owned()),
        None if s.len() == 4 => (s[..2].to_owned(), s[2..].to_owned()),
        None => return None,
    };
    if !(1..=2).contains(&mm.len())
        || !mm.bytes().all(|c| c.is_ascii_digit())
        || !yy.bytes().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let month: u32 = mm.parse().ok()?;
    let year: i32 = match yy.len() {
        2 => 2000 + yy.parse::<i32>().ok()?,
        4 => yy.parse().ok()?,
        _ => return None,
    };
    (1..=12).contains(&month).then_some((year, month))
}

/// A card is good through the last day of its expiry month (in Israel), and no card is issued
/// for more than 20 years.
pub fn expiry_ok(year: i32, month: u32, now_ms: i64) -> bool {
    let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
    let now = i32::from(today.year()) * 12 + i32::from(today.month());
    let exp = year * 12 + month as i32;
    exp >= now && exp <= now + 20 * 12
}

/// What the buyer typed into the card form. Its `Debug` shows no card data.
pub struct CardInput<'a> {
    pub number: &'a str,
    /// MM/YY.
    pub expiry: &'a str,
    pub cvv: &'a str,
    /// The holder's Israeli ID; empty when not given.
    pub holder_id: &'a str,
}

impl fmt::Debug for CardInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CardInput { .. }")
    }
}

/// What may be kept of a card: brand, BIN (first six) and last four. An Isracard number is too
/// short to show both without showing nearly all of it, so it keeps no BIN.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFacts {
    pub brand: CardBrand,
    pub bin: Option<String>,
    pub last4: String,
}

impl CardFacts {
    fn describe(&self) -> String {
        match &self.bin {
            Some(bin) => format!("{} bin {bin} last4 {}", self.brand.as_str(), self.last4),
            None => format!("{} last4 {}", self.brand.as_str(), self.last4),
        }
    }

    fn update(
        &self,
        status: PaymentStatus,
        failure: Option<&'static str>,
        note: String,
    ) -> PaymentUpdate {
        PaymentUpdate {
            status,
            card_brand: Some(self.brand.as_str().to_owned()),
            card_last4: Some(self.last4.clone()),
            card_bin: self.bin.clone(),
            failure_code: failure.map(str::to_owned),
            decline_reason: None,
            note,
        }
    }
}

fn digits_of(raw: &str) -> Option<String> {
    let kept: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    (!kept.is_empty() && kept.bytes().all(|c| c.is_ascii_digit())).then_some(kept)
}

/// Checks the card form and decides as the issuer would: approved (authorized), a 3-D Secure
/// challenge, or declined. Malformed fields are `formValidation` with their names
/// (`cardNumber`, `expiry`, `cvv`, `holderId`).
pub fn check_card(input: &CardInput, now_ms: i64) -> Result<PaymentUpdate, InvalidFields> {
    let mut bad = Vec::new();
    let number = digits_of(input.number);
    let brand = number.as_deref().and_then(|n| {
        let brand = CardBrand::of(n)?;
        let checked = if brand == CardBrand::Isracard {
            isracard_check(n)
        } else {
            luhn(n)
        };
        checked.then_some(brand)
    });
    if brand.is_none() {
        bad.push("cardNumber");
    }
    if !parse_expiry(input.expiry).is_some_and(|(y, m)| expiry_ok(y, m, now_ms)) {
        bad.push("expiry");
    }
    let cvv = input.cvv.trim();
    let cvv_len_ok = match brand {
        Some(b) => cvv.len() == b.cvv_len(),
        None => (3..=4).contains(&cvv.len()),
    };
    if !cvv_len_ok || !cvv.bytes().all(|c| c.is_ascii_digit()) {
        bad.push("cvv");
    }
    let id = input.holder_id.trim();
    if !id.is_empty() && IsraeliId::parse(id).is_none() {
        bad.push("holderId");
    }
    let (Some(number), Some(brand), true) = (number, brand, bad.is_empty()) else {
        return Err(InvalidFields(bad));
    };
    let facts = CardFacts {
        brand,
        bin: (brand != CardBrand::Isracard).then(|| number[..6].to_owned()),
        last4: number[number.len() - 4..].to_owned(),
    };
    let card = facts.describe();
    Ok(match number.as_str() {
        cards::DECLINED => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: declined ({card})"),
            )
            .because(DeclineReason::Declined),
        cards::INSUFFICIENT_FUNDS => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: insufficientFunds ({card})"),
            )
            .because(DeclineReason::InsufficientFunds),
        cards::EXPIRED_CARD => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: expiredCard ({card})"),
            )
            .because(DeclineReason::ExpiredCard),
        cards::CARD_BLOCKED => facts
            .update(
                PaymentStatus::Declined,
                Some(codes::PAYMENT_ERROR),
                format!("card declined: cardBlocked ({card})"),
            )
            .because(DeclineReason::CardBlocked),
        cards::NO_RESPONSE => facts.update(
            PaymentStatus::Failed,
            Some(codes::ERROR_NO_RESPONSE),
            format!("card failed: the issuer did not answer ({card})"),
        ),
        cards::THREE_D_SECURE => facts.update(
            PaymentStatus::Challenge,
            None,
            format!("card needs 3-D Secure ({card})"),
        ),
        _ => facts.update(
            PaymentStatus::Authorized,
            None,
            format!("card approved ({card})"),
        ),
    })
}

/// What is kept of a saved card, as the saved-card page pays with it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SavedCardFacts<'a> {
    pub brand: &'a str,
    pub bin: Option<&'a str>,
    pub last4: &'a str,
    pub expiry_year: i32,
    pub expiry_month: u32,
}

/// Paying with a saved card: its security code (4 digits for Amex, else 3) is checked, an
/// expired card is declined (`paymentError`, `expiredCard`), and any other is approved.
pub fn check_saved_card(
    card: &SavedCardFacts,
    cvv: &str,
    now_ms: i64,
) -> Result<PaymentUpdate, InvalidFields> {
    let cvv = cvv.trim();
    let len = if card.brand == CardBrand::Amex.as_str() {
        4
    } else {
        3
    };
    if cvv.len() != len || !cvv.bytes().all(|c| c.is_ascii_digit()) {
        return Err(InvalidFields(vec!["cvv"]));
    }
    let described = format!("saved {} last4 {}", card.brand, card.last4);
    let update = |status, failure: Option<&str>, note: String| PaymentUpdate {
        status,
        card_brand: Some(card.brand.to_owned()),
        card_last4: Some(card.last4.to_owned()),
        card_bin: card.bin.map(str::to_owned),
        failure_code: failure.map(str::to_owned),
        decline_reason: None,
        note,
    };
    let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(now_ms));
    let now = i32::from(today.year()) * 12 + i32::from(today.month());
    if card.expiry_year * 12 + (card.expiry_month as i32) < now {
        return Ok(update(
            PaymentStatus::Declined,
            Some(codes::PAYMENT_ERROR),
            format!("card declined: expiredCard ({described})"),
        )
        .because(DeclineReason::ExpiredCard));
    }
    Ok(update(
        PaymentStatus::Authorized,
        None,
        format!("card approved ({described})"),
    ))
}
