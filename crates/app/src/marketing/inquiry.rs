//! The marketing pages' three forms (decision 0051): a contact message, a birthday party request
//! and a job application. One shape for the three; each kind requires its own fields. Problems
//! are named per field with the customer details' rule names (`customer_info::rule`), so the web
//! app shows the spec's messages (section 5) beside each field.

use std::collections::BTreeMap;

use jiff::civil::Date;
use kupa_domain::customer::{EMAIL_MAX_LEN, MobileNumber, is_email_address};
use serde::{Deserialize, Serialize};

use crate::customer_info::{is_name, rule};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum InquiryKind {
    /// The contact form: a message to the chain.
    #[default]
    Contact,
    /// A birthday party at a complex: date, guests, the child's age.
    Birthday,
    /// A job application: the position, at a complex or anywhere.
    Job,
}

impl InquiryKind {
    pub fn as_str(self) -> &'static str {
        match self {
            InquiryKind::Contact => "contact",
            InquiryKind::Birthday => "birthday",
            InquiryKind::Job => "job",
        }
    }
}

/// The bounds behind the forms' min and max rules (the web app shows them in the messages).
pub mod bounds {
    pub const FULL_NAME_MAX: usize = 100;
    pub const MESSAGE_MAX: usize = 2000;
    pub const POSITION_MAX: usize = 100;
    pub const GUESTS_MIN: i64 = 5;
    pub const GUESTS_MAX: i64 = 100;
    pub const CHILD_AGE_MIN: i64 = 1;
    pub const CHILD_AGE_MAX: i64 = 18;
    /// A party can be asked for from tomorrow up to this many days ahead.
    pub const PARTY_DAYS_AHEAD_MAX: i64 = 365;
}

/// One form as sent (text trimmed by [`Inquiry::normalised`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Inquiry {
    pub kind: InquiryKind,
    pub full_name: String,
    pub email: String,
    /// Local form ("05…") once normalised; may be empty for a contact message.
    pub mobile_number: String,
    pub location_id: Option<i64>,
    pub message: String,
    /// Birthday: YYYY-MM-DD, local.
    pub party_date: String,
    pub guests: Option<i64>,
    pub child_age: Option<i64>,
    /// Job: the position applied for.
    pub position: String,
}

impl Inquiry {
    pub fn normalised(mut self) -> Inquiry {
        for s in [
            &mut self.full_name,
            &mut self.email,
            &mut self.message,
            &mut self.party_date,
            &mut self.position,
        ] {
            *s = s.trim().to_owned();
        }
        self.mobile_number = MobileNumber::parse(&self.mobile_number)
            .map(|m| m.as_str().to_owned())
            .unwrap_or_else(|| self.mobile_number.trim().to_owned());
        self
    }

    /// Every broken rule, field by field (empty when the form is acceptable). `today` is the
    /// local date; `locations` the complexes a form may name.
    pub fn problems(&self, today: Date, locations: &[i64]) -> BTreeMap<&'static str, &'static str> {
        use bounds::*;
        let mut p = BTreeMap::new();
        let kind = self.kind;
        let chars = |s: &str| s.chars().count();
        if self.full_name.is_empty() {
            p.insert("fullName", rule::REQUIRED);
        } else if !is_name(&self.full_name) {
            p.insert("fullName", rule::ALPHA);
        } else if chars(&self.full_name) > FULL_NAME_MAX {
            p.insert("fullName", rule::MAX);
        }
        if self.email.is_empty() {
            p.insert("email", rule::REQUIRED);
        } else if self.email.len() > EMAIL_MAX_LEN || !is_email_address(&self.email) {
            p.insert("email", rule::EMAIL);
        }
        if self.mobile_number.is_empty() {
            if kind != InquiryKind::Contact {
                p.insert("mobileNumber", rule::REQUIRED);
            }
        } else if MobileNumber::parse(&self.mobile_number).is_none() {
            p.insert("mobileNumber", rule::MOBILE);
        }
        match self.location_id {
            None if kind == InquiryKind::Birthday => {
                p.insert("locationId", rule::REQUIRED);
            }
            // Not one of the list: as good as none chosen.
            Some(id) if !locations.contains(&id) => {
                p.insert("locationId", rule::REQUIRED);
            }
            _ => {}
        }
        if self.message.is_empty() {
            if kind == InquiryKind::Contact {
                p.insert("message", rule::REQUIRED);
            }
        } else if chars(&self.message) > MESSAGE_MAX {
            p.insert("message", rule::MAX);
        }
        if kind == InquiryKind::Birthday {
            match self.party_date.parse::<Date>() {
                _ if self.party_date.is_empty() => {
                    p.insert("partyDate", rule::REQUIRED);
                }
                Err(_) => {
                    p.insert("partyDate", rule::REQUIRED);
                }
                Ok(d) if d <= today => {
                    p.insert("partyDate", rule::MIN);
                }
                Ok(d) if (d - today).get_days() as i64 > PARTY_DAYS_AHEAD_MAX => {
                    p.insert("partyDate", rule::MAX);
                }
                Ok(_) => {}
            }
            range(&mut p, "guests", self.guests, true, GUESTS_MIN, GUESTS_MAX);
            range(
                &mut p,
                "childAge",
                self.child_age,
                false,
                CHILD_AGE_MIN,
                CHILD_AGE_MAX,
            );
        }
        if kind == InquiryKind::Job {
            if self.position.is_empty() {
                p.insert("position", rule::REQUIRED);
            } else if chars(&self.position) > POSITION_MAX {
                p.insert("position", rule::MAX);
            }
        }
        p
    }

    /// The fields this kind has no use for, dropped before the form is kept.
    pub fn only_its_fields(mut self) -> Inquiry {
        if self.kind != InquiryKind::Birthday {
            self.party_date.clear();
            self.guests = None;
            self.child_age = None;
        }
        if self.kind != InquiryKind::Job {
            self.position.clear();
        }
        self
    }
}

fn range(
    p: &mut BTreeMap<&'static str, &'static str>,
    field: &'static str,
    value: Option<i64>,
    required: bool,
    min: i64,
    max: i64,
) {
    match value {
        None if required => {
            p.insert(field, rule::REQUIRED);
        }
        Some(v) if v < min => {
            p.insert(field, rule::MIN);
        }
        Some(v) if v > max => {
            p.insert(field, rule::MAX);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn today() -> Date {
        "2026-11-26".parse().unwrap()
    }

    fn contact() -> Inquiry {
        Inquiry {
            kind: InquiryKind::Contact,
            full_name: " Dana Levi ".into(),
            email: "dana.levi@example.com".into(),
            message: "Is there parking?".into(),
            ..Inquiry::default()
        }
        .normalised()
    }

    #[test]
    fn a_contact_message_needs_a_name_an_email_and_a_message() {
        assert!(contact().problems(today(), &[2]).is_empty());
        let p = Inquiry::default().normalised().problems(today(), &[2]);
        assert_eq!(p.get("fullName"), Some(&rule::REQUIRED));
        assert_eq!(p.get("email"), Some(&rule::REQUIRED));
        assert_eq!(p.get("message"), Some(&rule::REQUIRED));
        assert_eq!(p.get("mobileNumber"), None);
        let bad = Inquiry {
            full_name: "Dana 2".into(),
            email: "dana@".into(),
            mobile_number: "12345".into(),
            location_id: Some(99),
            message: "x".repeat(bounds::MESSAGE_MAX + 1),
            ..contact()
        };
        let p = bad.problems(today(), &[2]);
        assert_eq!(p.get("fullName"), Some(&rule::ALPHA));
        assert_eq!(p.get("email"), Some(&rule::EMAIL));
        assert_eq!(p.get("mobileNumber"), Some(&rule::MOBILE));
        assert_eq!(p.get("locationId"), Some(&rule::REQUIRED));
        assert_eq!(p.get("message"), Some(&rule::MAX));
    }

    #[test]
    fn a_birthday_needs_a_complex_a_future_date_and_guests_in_range() {
        let b = Inquiry {
            kind: InquiryKind::Birthday,
            mobile_number: "+972 52-123-4567".into(),
            location_id: Some(2),
            message: String::new(),
            party_date: "2026-12-10".into(),
            guests: Some(20),
            child_age: Some(7),
            ..contact()
        }
        .normalised();
        assert_eq!(b.mobile_number, "0521234567");
        assert!(b.problems(today(), &[2]).is_empty());
        let p = Inquiry {
            location_id: None,
            party_date: "2026-11-26".into(),
            guests: Some(4),
            child_age: Some(19),
            ..b.clone()
        }
        .problems(today(), &[2]);
        assert_eq!(p.get("locationId"), Some(&rule::REQUIRED));
        assert_eq!(p.get("partyDate"), Some(&rule::MIN));
        assert_eq!(p.get("guests"), Some(&rule::MIN));
        assert_eq!(p.get("childAge"), Some(&rule::MAX));
        let p = Inquiry {
            party_date: "2028-01-01".into(),
            guests: None,
            mobile_number: String::new(),
            ..b
        }
        .problems(today(), &[2]);
        assert_eq!(p.get("partyDate"), Some(&rule::MAX));
        assert_eq!(p.get("guests"), Some(&rule::REQUIRED));
        assert_eq!(p.get("mobileNumber"), Some(&rule::REQUIRED));
    }

    #[test]
    fn a_job_application_needs_a_position_and_a_mobile_number() {
        let j = Inquiry {
            kind: InquiryKind::Job,
            message: String::new(),
            party_date: "whatever".into(),
            ..contact()
        };
        let p = j.problems(today(), &[2]);
        assert_eq!(p.get("position"), Some(&rule::REQUIRED));
        assert_eq!(p.get("mobileNumber"), Some(&rule::REQUIRED));
        assert_eq!(p.get("message"), None);
        assert_eq!(p.get("partyDate"), None);
        assert!(j.only_its_fields().party_date.is_empty());
    }
}
