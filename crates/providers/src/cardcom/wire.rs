//! CardCom's wire: the answers Kupa reads, why a call failed, shekels and page languages.

use serde::{Deserialize, Serialize};

use crate::http;

/// Why a call to CardCom came to nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CallError {
    /// No answer (timeout, connection): `errorNoResponse`.
    NoResponse(String),
    /// An answer, not a success: `errorResponse`, with CardCom's `ResponseCode`.
    Refused(i64, String),
}

impl From<http::NoAnswer> for CallError {
    fn from(e: http::NoAnswer) -> CallError {
        CallError::NoResponse(e.to_string())
    }
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Created {
    pub(super) response_code: i64,
    #[serde(default)]
    pub(super) description: Option<String>,
    #[serde(default)]
    pub(super) low_profile_id: Option<String>,
    #[serde(default)]
    pub(super) url: Option<String>,
}

/// GetLpResult's answer: the fields Kupa reads.
#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct LpResult {
    pub response_code: i64,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub terminal_number: Option<i64>,
    #[serde(default)]
    pub low_profile_id: Option<String>,
    #[serde(default)]
    pub tranzaction_id: Option<i64>,
    #[serde(default)]
    pub return_value: Option<String>,
    #[serde(default)]
    pub tranzaction_info: Option<TranzactionInfo>,
    /// With `ChargeAndCreateToken`: the card's token at CardCom.
    #[serde(default)]
    pub token_info: Option<TokenInfo>,
}

/// GetLpResult's `TokenInfo`. Its `Token` charges the card: never logged (masked in `Debug`).
#[derive(Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct TokenInfo {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub card_year: Option<i64>,
    #[serde(default)]
    pub card_month: Option<i64>,
}

impl std::fmt::Debug for TokenInfo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TokenInfo")
            .field("token", &self.token.as_ref().map(|_| "[redacted]"))
            .field("card_year", &self.card_year)
            .field("card_month", &self.card_month)
            .finish()
    }
}

#[derive(Debug, Clone, Deserialize, Serialize, Default)]
#[serde(rename_all = "PascalCase")]
pub struct TranzactionInfo {
    pub response_code: i64,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub tranzaction_id: Option<i64>,
    #[serde(default)]
    pub terminal_number: Option<i64>,
    #[serde(default)]
    pub first_card_digits: Option<i64>,
    #[serde(default)]
    pub amount: Option<f64>,
    #[serde(default)]
    pub coin_id: Option<i64>,
    #[serde(default)]
    pub last4_card_digits_string: Option<String>,
    #[serde(default)]
    pub number_of_payments: Option<i64>,
    #[serde(default)]
    pub brand: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(super) struct Refunded {
    pub(super) response_code: i64,
    #[serde(default)]
    pub(super) description: Option<String>,
}

/// Shekels with agorot, as CardCom's `Amount` (a JSON number: 12.36).
pub(super) fn shekels(minor: i64) -> f64 {
    minor as f64 / 100.0
}

/// CardCom's page languages (he, en, ru, sp); any other locale gets English.
pub(super) fn page_language(locale: &str) -> &'static str {
    match locale {
        "he" => "he",
        "ru" => "ru",
        _ => "en",
    }
}
