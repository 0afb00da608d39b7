//! The site configuration of spec section 3: numbered params, step timers, currencies, custom
//! seat attributes, and the server-side options. Stored as one document; every field has the
//! default a new cinema would start from.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SiteConfig {
    /// Numbered params as strings: 665 timer mode (JSON), 64 loyalty login, 66 invoice option, 670 show QR.
    pub params: std::collections::BTreeMap<String, String>,
    pub timer_mode: TimerMode,
    pub currencies: Vec<Currency>,
    pub custom_seat_attributes: Vec<CustomSeatAttribute>,
    pub max_seats_per_transaction: i64,
    pub customer_info: CustomerInfoOptions,
    pub default_mailing_allowed: bool,
    pub terms_confirmed: bool,
    pub terms_required: bool,
    pub verify_mobile_number: bool,
    pub verify_email: bool,
    pub allow_save_member_card: bool,
    pub terms: Vec<Term>,
    pub presentation_info: PresentationInfoOptions,
    pub confirmation: ConfirmationOptions,
    /// The customer area's first login method (spec: customerAreaLoginMethod): byPhone (mobile
    /// number and SMS code), byEmailAndPassword, byMemberNumberAndSsn, byReservationNumber or
    /// byMailedLink.
    pub customer_area_login_method: String,
    /// How a member logs in (spec: memberLoginMethod): byMemberNumberAndSsn.
    pub member_login_method: String,
    /// Every login method the login page offers (decision 0023), the first one first.
    pub customer_login_methods: Vec<String>,
    /// The chain's address: the marketing pages' forms (contact, birthdays, jobs) are mailed
    /// there (decision 0051). Empty: the forms are kept, not mailed.
    pub chain_email: String,
}

/// The login methods of the customer area's login page, in their usual order.
pub const LOGIN_METHODS: &[&str] = &[
    "byPhone",
    "byEmailAndPassword",
    "byMemberNumberAndSsn",
    "byReservationNumber",
    "byMailedLink",
];

/// Seconds each checkout step may take (spec: timerMode; param 665 holds the same as JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TimerMode {
    pub choose_seats_in_seconds: i64,
    pub choose_tickets_in_seconds: i64,
    pub choose_products_in_seconds: i64,
    pub customer_info_in_seconds: i64,
}

impl Default for TimerMode {
    fn default() -> Self {
        TimerMode {
            choose_seats_in_seconds: 600,
            choose_tickets_in_seconds: 600,
            choose_products_in_seconds: 300,
            customer_info_in_seconds: 600,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
#[allow(non_snake_case)]
pub struct Currency {
    pub CurrencyId: i64,
    pub CurrencyCode: String,
    pub CurrencySymbol: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct CustomSeatAttribute {
    pub code: String,
    pub name: String,
    pub name_en: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FieldOption {
    pub is_required: bool,
    pub is_included: bool,
}

impl FieldOption {
    const fn required() -> FieldOption {
        FieldOption {
            is_required: true,
            is_included: true,
        }
    }
    const fn optional() -> FieldOption {
        FieldOption {
            is_required: false,
            is_included: true,
        }
    }
    const fn hidden() -> FieldOption {
        FieldOption {
            is_required: false,
            is_included: false,
        }
    }
}

/// Which customer-info fields the checkout shows and requires (spec section 3 and 5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct CustomerInfoOptions {
    pub first_name: FieldOption,
    pub last_name: FieldOption,
    pub email: FieldOption,
    pub verify_email_address: FieldOption,
    pub mobile_number: FieldOption,
    pub verify_mobile_number: FieldOption,
    pub address1: FieldOption,
    pub address2: FieldOption,
    pub city: FieldOption,
    pub postal_code: FieldOption,
    pub date_of_birth: FieldOption,
    pub location: FieldOption,
    pub ssn: FieldOption,
    pub intl_phone: FieldOption,
}

impl Default for CustomerInfoOptions {
    fn default() -> Self {
        CustomerInfoOptions {
            first_name: FieldOption::required(),
            last_name: FieldOption::required(),
            email: FieldOption::required(),
            verify_email_address: FieldOption::required(),
            mobile_number: FieldOption::required(),
            verify_mobile_number: FieldOption::hidden(),
            address1: FieldOption::hidden(),
            address2: FieldOption::hidden(),
            city: FieldOption::optional(),
            postal_code: FieldOption::hidden(),
            date_of_birth: FieldOption::hidden(),
            location: FieldOption::hidden(),
            ssn: FieldOption::hidden(),
            intl_phone: FieldOption::optional(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Term {
    pub id: i64,
    pub text: String,
    pub text_en: String,
    pub is_required: bool,
    /// This term is the buyer's consent to marketing mail and SMS: its box is the details form's
    /// mailing opt-in (the customer's `mailingAllowed`), so the form asks only once.
    pub is_mailing_consent: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PresentationInfoOptions {
    pub date_format: String,
}

impl Default for PresentationInfoOptions {
    fn default() -> Self {
        PresentationInfoOptions {
            date_format: "MMM D".into(),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ConfirmationOptions {
    pub order_terms: String,
    pub order_terms_en: String,
    /// The terms of a video-on-demand order (how long and how often it may be watched, on what);
    /// empty: the order terms serve it too.
    pub vod_terms: String,
    pub vod_terms_en: String,
}

impl ConfirmationOptions {
    /// The terms an order is confirmed with: in Hebrew or English (every other language reads the
    /// English), those of video on demand for a film watched at home when the chain wrote them.
    pub fn terms(&self, lang: &str, is_vod: bool) -> &str {
        let (he, en) = if is_vod && !(self.vod_terms.is_empty() && self.vod_terms_en.is_empty()) {
            (&self.vod_terms, &self.vod_terms_en)
        } else {
            (&self.order_terms, &self.order_terms_en)
        };
        if lang == "he" || en.is_empty() {
            he
        } else {
            en
        }
    }
}

impl Default for SiteConfig {
    fn default() -> Self {
        let timer_mode = TimerMode::default();
        let mut params = std::collections::BTreeMap::new();
        params.insert(
            "665".into(),
            serde_json::to_string(&timer_mode).expect("plain struct"),
        );
        params.insert("64".into(), "0".into());
        params.insert("66".into(), "0".into());
        params.insert("670".into(), "1".into());
        SiteConfig {
            params,
            timer_mode,
            currencies: vec![Currency {
                CurrencyId: 1,
                CurrencyCode: "ILS".into(),
                CurrencySymbol: "₪".into(),
            }],
            custom_seat_attributes: Vec::new(),
            customer_area_login_method: "byPhone".into(),
            member_login_method: "byMemberNumberAndSsn".into(),
            customer_login_methods: LOGIN_METHODS.iter().map(|m| m.to_string()).collect(),
            max_seats_per_transaction: 10,
            customer_info: CustomerInfoOptions::default(),
            default_mailing_allowed: false,
            terms_confirmed: false,
            terms_required: true,
            verify_mobile_number: false,
            verify_email: true,
            allow_save_member_card: true,
            terms: Vec::new(),
            presentation_info: PresentationInfoOptions::default(),
            confirmation: ConfirmationOptions::default(),
            chain_email: String::new(),
        }
    }
}

impl SiteConfig {
    /// Param 665 carries the timer mode as JSON; the typed field is the source, so keep them equal.
    pub fn normalised(mut self) -> SiteConfig {
        self.params.insert(
            "665".into(),
            serde_json::to_string(&self.timer_mode).expect("plain struct"),
        );
        self
    }

    pub fn param_on(&self, number: &str) -> bool {
        self.params
            .get(number)
            .is_some_and(|v| v == "1" || v == "true")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_document_gets_the_defaults_and_param_665_follows_the_timers() {
        let c: SiteConfig =
            serde_json::from_str(r#"{"timerMode": {"chooseSeatsInSeconds": 90}}"#).unwrap();
        let c = c.normalised();
        assert_eq!(c.timer_mode.choose_seats_in_seconds, 90);
        assert_eq!(c.timer_mode.customer_info_in_seconds, 600);
        let p665: TimerMode = serde_json::from_str(&c.params["665"]).unwrap();
        assert_eq!(p665, c.timer_mode);
        assert!(c.terms_required && !c.verify_mobile_number && c.verify_email);
        assert!(c.param_on("670") && !c.param_on("66"));
    }

    #[test]
    fn unknown_options_are_refused() {
        assert!(serde_json::from_str::<SiteConfig>(r#"{"timerModes": {}}"#).is_err());
    }
}
