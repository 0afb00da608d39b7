//! The checkout's customer details: which fields the site asks for and requires, the spec's
//! validation rules (section 5) and normalisations (section 4). Errors name each field with the
//! rule it broke, so the web app can show the Hebrew message next to it.

use std::collections::BTreeMap;

use kupa_domain::customer::{MobileNumber, clean_address};
use kupa_domain::ids::IsraeliId;
use serde::{Deserialize, Serialize};

use crate::site_config::{FieldOption, SiteConfig};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct CustomerInfo {
    #[cfg_attr(feature = "openapi", schema(max_length = 50))]
    pub first_name: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 50))]
    pub last_name: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 254))]
    pub email: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 254))]
    pub verify_email_address: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 100))]
    pub address1: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 100))]
    pub address2: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 50))]
    pub city: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub postal_code: String,
    /// YYYY-MM-DD.
    #[cfg_attr(feature = "openapi", schema(max_length = 10))]
    pub date_of_birth: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub mobile_number: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub verify_mobile_number: String,
    /// Branch (location id) the customer belongs to.
    pub location: Option<i64>,
    /// Israeli ID number.
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub ssn: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub intl_phone: String,
    /// Ids of the terms the buyer accepted.
    #[cfg_attr(feature = "openapi", schema(max_items = 20))]
    pub accepted_terms: Vec<i64>,
    pub mailing_allowed: bool,
    pub invoice_requested: bool,
    #[cfg_attr(feature = "openapi", schema(max_length = 100))]
    pub invoice_name: String,
    #[serde(rename = "invoiceSSN")]
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub invoice_ssn: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 100))]
    pub invoice_address: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 50))]
    pub invoice_city: String,
    #[cfg_attr(feature = "openapi", schema(max_length = 20))]
    pub invoice_postal_code: String,
}

/// Rule names: the web app's catalogue has a message for each (spec section 5).
pub mod rule {
    pub const REQUIRED: &str = "required";
    pub const ALPHA: &str = "alpha";
    pub const EMAIL: &str = "email";
    pub const NUMERIC: &str = "numeric";
    pub const MIN: &str = "min";
    pub const MAX: &str = "max";
    pub const CONFIRMATION: &str = "confirmation";
    pub const ID_NUMBER: &str = "idNumber";
    pub const MOBILE: &str = "mobile";
    pub const TERMS: &str = "terms";
}

/// The longest value each text field may hold, whether the site shows the field or not: the hard
/// bounds of what the server stores (the form's own rules, like a 7-digit postal code, come on
/// top). Written in the OpenAPI document as each field's `maxLength` (a test keeps them equal) and
/// mirrored by the web app's `MAX_LENGTHS`; over it, the field breaks the `max` rule.
pub const MAX_LENGTHS: &[(&str, usize)] = &[
    ("firstName", 50),
    ("lastName", 50),
    ("email", kupa_domain::customer::EMAIL_MAX_LEN),
    ("verifyEmailAddress", kupa_domain::customer::EMAIL_MAX_LEN),
    ("address1", 100),
    ("address2", 100),
    ("city", 50),
    ("postalCode", 20),
    ("dateOfBirth", 10),
    ("mobileNumber", 20),
    ("verifyMobileNumber", 20),
    ("ssn", 20),
    ("intlPhone", 20),
    ("invoiceName", 100),
    ("invoiceSSN", 20),
    ("invoiceAddress", 100),
    ("invoiceCity", 50),
    ("invoicePostalCode", 20),
];

/// At most this many accepted terms.
pub const MAX_ACCEPTED_TERMS: usize = 20;

fn is_email(s: &str) -> bool {
    kupa_domain::customer::is_email_address(s)
}

pub(crate) fn is_name(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'' || c == '"' || c == '.')
}

/// "+972 52-123 4567" → "0521234567" (the domain's Israeli mobile); anything that is not an
/// Israeli mobile stays as typed and fails the mobile rule.
fn normalise_mobile(raw: &str) -> String {
    MobileNumber::parse(raw)
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| raw.trim().to_owned())
}

fn is_israeli_mobile(s: &str) -> bool {
    MobileNumber::parse(s).is_some()
}

impl CustomerInfo {
    /// A text field by its name on the wire.
    fn text(&self, field: &str) -> &str {
        match field {
            "firstName" => &self.first_name,
            "lastName" => &self.last_name,
            "email" => &self.email,
            "verifyEmailAddress" => &self.verify_email_address,
            "address1" => &self.address1,
            "address2" => &self.address2,
            "city" => &self.city,
            "postalCode" => &self.postal_code,
            "dateOfBirth" => &self.date_of_birth,
            "mobileNumber" => &self.mobile_number,
            "verifyMobileNumber" => &self.verify_mobile_number,
            "ssn" => &self.ssn,
            "intlPhone" => &self.intl_phone,
            "invoiceName" => &self.invoice_name,
            "invoiceSSN" => &self.invoice_ssn,
            "invoiceAddress" => &self.invoice_address,
            "invoiceCity" => &self.invoice_city,
            "invoicePostalCode" => &self.invoice_postal_code,
            _ => "",
        }
    }

    /// The spec's normalisations: mobiles in local form, '#' in addresses replaced by a space,
    /// surrounding white space trimmed.
    pub fn normalised(mut self) -> CustomerInfo {
        for s in [
            &mut self.first_name,
            &mut self.last_name,
            &mut self.email,
            &mut self.verify_email_address,
            &mut self.city,
            &mut self.postal_code,
            &mut self.ssn,
        ] {
            *s = s.trim().to_owned();
        }
        self.email = self.email.to_lowercase();
        self.verify_email_address = self.verify_email_address.trim().to_lowercase();
        self.mobile_number = normalise_mobile(&self.mobile_number);
        self.verify_mobile_number = normalise_mobile(&self.verify_mobile_number);
        for a in [
            &mut self.address1,
            &mut self.address2,
            &mut self.invoice_address,
        ] {
            *a = clean_address(a);
        }
        self
    }

    /// Every broken rule, field by field (empty when the details are acceptable).
    pub fn problems(&self, config: &SiteConfig) -> BTreeMap<&'static str, &'static str> {
        let o = &config.customer_info;
        let mut p = BTreeMap::new();
        let mut check =
            |field: &'static str, opt: FieldOption, value: &str, rule: Option<&'static str>| {
                if !opt.is_included {
                    return;
                }
                if value.is_empty() {
                    if opt.is_required {
                        p.insert(field, rule::REQUIRED);
                    }
                } else if let Some(r) = rule {
                    p.insert(field, r);
                }
            };
        check(
            "firstName",
            o.first_name,
            &self.first_name,
            (!is_name(&self.first_name)).then_some(rule::ALPHA),
        );
        check(
            "lastName",
            o.last_name,
            &self.last_name,
            (!is_name(&self.last_name)).then_some(rule::ALPHA),
        );
        check(
            "email",
            o.email,
            &self.email,
            (!is_email(&self.email)).then_some(rule::EMAIL),
        );
        if o.email.is_included && o.verify_email_address.is_included && config.verify_email {
            let confirm = FieldOption {
                is_required: o.email.is_required,
                is_included: true,
            };
            check(
                "verifyEmailAddress",
                confirm,
                &self.verify_email_address,
                (self.verify_email_address != self.email).then_some(rule::CONFIRMATION),
            );
        }
        check(
            "mobileNumber",
            o.mobile_number,
            &self.mobile_number,
            (!is_israeli_mobile(&self.mobile_number)).then_some(rule::MOBILE),
        );
        if o.mobile_number.is_included
            && (o.verify_mobile_number.is_included || config.verify_mobile_number)
        {
            let confirm = FieldOption {
                is_required: o.mobile_number.is_required,
                is_included: true,
            };
            check(
                "verifyMobileNumber",
                confirm,
                &self.verify_mobile_number,
                (self.verify_mobile_number != self.mobile_number).then_some(rule::CONFIRMATION),
            );
        }
        check(
            "address1",
            o.address1,
            &self.address1,
            (self.address1.chars().count() > 100).then_some(rule::MAX),
        );
        check(
            "address2",
            o.address2,
            &self.address2,
            (self.address2.chars().count() > 100).then_some(rule::MAX),
        );
        check(
            "city",
            o.city,
            &self.city,
            (!is_name(&self.city)).then_some(rule::ALPHA),
        );
        check(
            "postalCode",
            o.postal_code,
            &self.postal_code,
            (!self.postal_code.bytes().all(|b| b.is_ascii_digit()))
                .then_some(rule::NUMERIC)
                .or((self.postal_code.len() != 7).then_some(rule::MIN)),
        );
        check(
            "dateOfBirth",
            o.date_of_birth,
            &self.date_of_birth,
            self.date_of_birth
                .parse::<jiff::civil::Date>()
                .is_err()
                .then_some(rule::REQUIRED),
        );
        check(
            "ssn",
            o.ssn,
            &self.ssn,
            IsraeliId::parse(&self.ssn)
                .is_none()
                .then_some(rule::ID_NUMBER),
        );
        let location = self.location.map(|l| l.to_string()).unwrap_or_default();
        check("location", o.location, &location, None);
        if self.invoice_requested {
            let required = FieldOption {
                is_required: true,
                is_included: true,
            };
            check("invoiceName", required, self.invoice_name.trim(), None);
            check(
                "invoiceSSN",
                required,
                self.invoice_ssn.trim(),
                (!self.invoice_ssn.trim().bytes().all(|b| b.is_ascii_digit()))
                    .then_some(rule::NUMERIC),
            );
        }
        let missing_terms = config.terms.iter().any(|t| {
            (t.is_required || config.terms_required && config.terms.len() == 1)
                && !self.accepted_terms.contains(&t.id)
        });
        if missing_terms {
            p.insert("terms", rule::TERMS);
        }
        for (field, max) in MAX_LENGTHS {
            if self.text(field).chars().count() > *max {
                p.insert(field, rule::MAX);
            }
        }
        if self.accepted_terms.len() > MAX_ACCEPTED_TERMS {
            p.insert("terms", rule::MAX);
        }
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::site_config::Term;

    fn config() -> SiteConfig {
        SiteConfig {
            terms: vec![Term {
                id: 1,
                text: "תקנון".into(),
                text_en: "Terms".into(),
                is_required: true,
                is_mailing_consent: false,
            }],
            ..SiteConfig::default()
        }
    }

    fn good() -> CustomerInfo {
        CustomerInfo {
            first_name: "דנה".into(),
            last_name: "כהן-לוי".into(),
            email: "Dana@Example.com ".into(),
            verify_email_address: "dana@example.com".into(),
            mobile_number: "+972 52-123-4567".into(),
            accepted_terms: vec![1],
            ..CustomerInfo::default()
        }
        .normalised()
    }

    #[test]
    fn good_details_pass_after_normalising() {
        let c = good();
        assert_eq!(c.mobile_number, "0521234567", "+972 becomes 0");
        assert_eq!(c.email, "dana@example.com");
        assert!(
            c.problems(&config()).is_empty(),
            "{:?}",
            c.problems(&config())
        );
    }

    #[test]
    fn each_broken_rule_is_named_by_field() {
        let c = CustomerInfo {
            first_name: "D4na".into(),
            email: "not-an-email".into(),
            verify_email_address: "x@y.z".into(),
            mobile_number: "12345".into(),
            ..CustomerInfo::default()
        }
        .normalised();
        let p = c.problems(&config());
        assert_eq!(p.get("firstName"), Some(&rule::ALPHA));
        assert_eq!(p.get("lastName"), Some(&rule::REQUIRED));
        assert_eq!(p.get("email"), Some(&rule::EMAIL));
        assert_eq!(p.get("verifyEmailAddress"), Some(&rule::CONFIRMATION));
        assert_eq!(p.get("mobileNumber"), Some(&rule::MOBILE));
        assert_eq!(p.get("terms"), Some(&rule::TERMS));
    }

    #[test]
    fn the_id_number_is_checked_when_the_site_asks_for_it() {
        let mut cfg = config();
        cfg.customer_info.ssn = FieldOption {
            is_required: true,
            is_included: true,
        };
        let mut c = good();
        assert_eq!(c.problems(&cfg).get("ssn"), Some(&rule::REQUIRED));
        c.ssn = "123456789".into();
        assert_eq!(c.problems(&cfg).get("ssn"), Some(&rule::ID_NUMBER));
        c.ssn = "123456782".into();
        assert!(c.problems(&cfg).is_empty());
    }

    #[test]
    fn a_hash_in_the_address_becomes_a_space() {
        let c = CustomerInfo {
            address1: "הרצל 12 #4".into(),
            ..CustomerInfo::default()
        }
        .normalised();
        assert_eq!(c.address1, "הרצל 12 4");
    }
}
