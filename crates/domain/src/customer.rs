//! Customers as the spec's login and customer area see them: Israeli mobile numbers (the login
//! key), the address rule, and whether a member's period is running on a given day.

use std::fmt;

use jiff::civil::Date;

/// An Israeli mobile number in its local form: ten digits starting with 05 ("0521234567").
///
/// Spec section 4: stored numbers starting +972 are rewritten to start with 0, so there is one
/// spelling to compare, to look customers up by, and to send codes to.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct MobileNumber(String);

/// Marks that right-to-left pages and copy-paste put around numbers; never part of the number.
fn is_invisible_mark(c: char) -> bool {
    matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

impl MobileNumber {
    /// Accepts "0521234567", "052-123-4567", "052 1234567", "(052) 123 4567", "+972521234567",
    /// "+972-52-123-4567", "972 52 123 4567", "00972521234567" and "+972 (0)52 123 4567".
    /// Refuses landlines, short or long numbers, letters, and other countries.
    pub fn parse(raw: &str) -> Option<MobileNumber> {
        let mut digits = String::with_capacity(16);
        let mut plus = false;
        for (i, c) in raw
            .trim()
            .chars()
            .filter(|c| !is_invisible_mark(*c))
            .enumerate()
        {
            match c {
                '0'..='9' => digits.push(c),
                '+' if i == 0 => plus = true,
                ' ' | '-' | '.' | '(' | ')' => {}
                _ => return None,
            }
        }
        let national = if let Some(rest) = digits.strip_prefix("00972") {
            rest
        } else if let Some(rest) = digits.strip_prefix("972") {
            rest
        } else if plus {
            // A "+" with any other country code is not an Israeli number.
            return None;
        } else {
            return Self::local(&digits);
        };
        // "+972 (0)52..." keeps the trunk zero; "+97252..." drops it.
        let national = national.strip_prefix('0').unwrap_or(national);
        Self::local(&format!("0{national}"))
    }

    fn local(digits: &str) -> Option<MobileNumber> {
        (digits.len() == 10
            && digits.starts_with("05")
            && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| MobileNumber(digits.to_owned()))
    }

    /// The local form, "0521234567".
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The international form an SMS provider wants, "+972521234567".
    pub fn international(&self) -> String {
        format!("+972{}", &self.0[1..])
    }

    /// For logs and screens that must not show the whole number: "052*****67".
    pub fn masked(&self) -> String {
        format!("{}*****{}", &self.0[..3], &self.0[8..])
    }
}

impl fmt::Display for MobileNumber {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Spec section 4: '#' in an address is replaced by a space. Runs of white space become one
/// space, and the ends are trimmed, so "Herzl 5#3" reads "Herzl 5 3".
pub fn clean_address(raw: &str) -> String {
    raw.replace('#', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// An Israeli ID number shown with all but its last 4 digits hidden: "*****8711".
pub fn masked_id_number(ssn: &str) -> String {
    let n = ssn.chars().count();
    if n <= 4 {
        return "*".repeat(n);
    }
    let tail: String = ssn.chars().skip(n - 4).collect();
    format!("{}{tail}", "*".repeat(n - 4))
}

/// An email address as logins compare it: trimmed and lower-cased. Refuses what cannot be an
/// address (no '@', an empty side, no dot in the domain, white space, over 254 characters).
pub fn normalise_email(raw: &str) -> Option<String> {
    let e = raw.trim().to_lowercase();
    let (local, domain) = e.split_once('@')?;
    let ok = e.len() <= 254
        && !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && !domain.starts_with('.')
        && !domain.ends_with('.')
        && !e.chars().any(|c| c.is_whitespace() || c.is_control());
    ok.then_some(e)
}

/// A reservation number as the box office reads it out, "1234-5678": exactly eight digits, with
/// or without the dash or spaces. Anything else is refused (never matched loosely).
pub fn normalise_reservation_number(raw: &str) -> Option<String> {
    let digits: String = raw
        .trim()
        .chars()
        .filter(|c| !matches!(c, '-' | ' ') && !is_invisible_mark(*c))
        .collect();
    (digits.len() == 8 && digits.bytes().all(|b| b.is_ascii_digit()))
        .then(|| format!("{}-{}", &digits[..4], &digits[4..]))
}

/// The shortest and longest password taken (characters). Long passphrases are welcome; the cap
/// only bounds the hashing work one request can ask for.
pub const PASSWORD_MIN_CHARS: usize = 8;
pub const PASSWORD_MAX_CHARS: usize = 128;

/// Whether a new password is acceptable: its length, and not only digits nor one repeated
/// character. Says which rule failed.
pub fn password_problem(pw: &str) -> Option<&'static str> {
    let n = pw.chars().count();
    if n < PASSWORD_MIN_CHARS {
        return Some("tooShort");
    }
    if n > PASSWORD_MAX_CHARS {
        return Some("tooLong");
    }
    let first = pw.chars().next();
    if pw.chars().all(|c| Some(c) == first) || pw.chars().all(|c| c.is_ascii_digit()) {
        return Some("tooSimple");
    }
    None
}

/// Where a member stands on a day: before its period, in it, or after it (both ends inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MemberStanding {
    NotStarted,
    Active,
    Expired,
}

impl MemberStanding {
    pub fn on(start: Date, end: Date, today: Date) -> MemberStanding {
        if today < start {
            MemberStanding::NotStarted
        } else if today > end {
            MemberStanding::Expired
        } else {
            MemberStanding::Active
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn local_and_international_spellings_become_the_local_form() {
        for raw in [
            "0521234567",
            "052-123-4567",
            "052 123 4567",
            "052.123.4567",
            "(052) 123-4567",
            "+972521234567",
            "+972-52-123-4567",
            "972 52 123 4567",
            "972521234567",
            "00972521234567",
            "+972 (0)52 123 4567",
            " 0521234567 ",
            "\u{200e}+972 52-123-4567\u{200e}",
            "\u{2066}052-1234567\u{2069}",
        ] {
            assert_eq!(
                MobileNumber::parse(raw).map(|m| m.as_str().to_owned()),
                Some("0521234567".to_owned()),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn other_numbers_are_refused() {
        for raw in [
            "",
            "05212345",        // short
            "05212345678",     // long
            "0312345678",      // a Jerusalem landline
            "021234567",       // a landline, 9 digits
            "+44521234567",    // another country
            "+1 052 123 4567", // another country with a local-looking rest
            "052123456a",
            "052-123-456#",
            "0521234567 ext 3",
            "+97231234567", // landline in international form
            "++972521234567",
            "05+21234567",
            "٠٥٢١٢٣٤٥٦٧", // Arabic-Indic digits are not accepted
        ] {
            assert_eq!(MobileNumber::parse(raw), None, "{raw:?}");
        }
    }

    #[test]
    fn every_mobile_prefix_is_accepted() {
        for p in 0..=9 {
            assert!(MobileNumber::parse(&format!("05{p}1234567")).is_some());
        }
    }

    #[test]
    fn international_and_masked_forms() {
        let m = MobileNumber::parse("052-431-8876").unwrap();
        assert_eq!(m.international(), "+972524318876");
        assert_eq!(m.masked(), "052*****76");
        assert!(!m.masked().contains("4318"));
        assert_eq!(m.to_string(), "0524318876");
    }

    #[test]
    fn parsing_the_local_form_again_gives_the_same_number() {
        let m = MobileNumber::parse("+972 54 882 3109").unwrap();
        assert_eq!(MobileNumber::parse(m.as_str()), Some(m.clone()));
        assert_eq!(MobileNumber::parse(&m.international()), Some(m));
    }

    #[test]
    fn hash_in_an_address_becomes_a_space() {
        assert_eq!(clean_address("Herzl 5#3"), "Herzl 5 3");
        assert_eq!(
            clean_address("רחוב דיזנגוף 210 # דירה 4"),
            "רחוב דיזנגוף 210 דירה 4"
        );
        assert_eq!(clean_address("#12  Main   St#"), "12 Main St");
        assert_eq!(clean_address("no hash"), "no hash");
        assert_eq!(clean_address("###"), "");
    }

    #[test]
    fn id_numbers_show_only_their_last_four_digits() {
        assert_eq!(masked_id_number("034528711"), "*****8711");
        assert_eq!(masked_id_number("123"), "***");
        assert_eq!(masked_id_number(""), "");
    }

    #[test]
    fn a_member_period_includes_both_ends() {
        let (start, end) = (date(2026, 1, 10), date(2026, 12, 31));
        assert_eq!(
            MemberStanding::on(start, end, date(2026, 1, 9)),
            MemberStanding::NotStarted
        );
        assert_eq!(
            MemberStanding::on(start, end, date(2026, 1, 10)),
            MemberStanding::Active
        );
        assert_eq!(
            MemberStanding::on(start, end, date(2026, 12, 31)),
            MemberStanding::Active
        );
        assert_eq!(
            MemberStanding::on(start, end, date(2027, 1, 1)),
            MemberStanding::Expired
        );
    }
}

/// The longest email address SMTP carries (RFC 5321's 256-octet path less its angle brackets).
pub const EMAIL_MAX_LEN: usize = 254;

/// An email address as RFC 5322's `addr-spec` in its dot-atom form: `local@domain`, the local part
/// up to 64 characters of atoms (letters, digits and ``!#$%&'*+-/=?^_`{|}~``) joined by single
/// dots, the domain a host name of at least two labels (letters, digits and inner hyphens, 1-63
/// each, the last not all digits), at most [`EMAIL_MAX_LEN`] in all. Quoted local parts, comments,
/// address literals and non-ASCII addresses are refused: no mail a box office sends needs them,
/// and each is a way to smuggle markup or spaces into a message (decision 0017).
pub fn is_email_address(s: &str) -> bool {
    fn dot_atoms(s: &str, ok: impl Fn(&str) -> bool) -> bool {
        s.split('.').all(|atom| !atom.is_empty() && ok(atom))
    }
    let atext = |c: u8| c.is_ascii_alphanumeric() || b"!#$%&'*+-/=?^_`{|}~".contains(&c);
    let label = |l: &str| {
        l.len() <= 63
            && l.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    s.len() <= EMAIL_MAX_LEN
        && local.len() <= 64
        && dot_atoms(local, |a| a.bytes().all(atext))
        && domain.contains('.')
        && dot_atoms(domain, label)
        && domain
            .rsplit('.')
            .next()
            .is_some_and(|tld| !tld.bytes().all(|c| c.is_ascii_digit()))
}

#[cfg(test)]
mod email_tests {
    use super::*;

    #[test]
    fn addresses_of_the_dot_atom_form_pass() {
        for ok in [
            "dana@example.com",
            "a.b+tag@sub.example.co.il",
            "o'brien@example.ie",
            "x_y-z@a-b.example",
            "1@2.io",
            "!#$%&'*+-/=?^_`{|}~@example.com",
        ] {
            assert!(is_email_address(ok), "{ok}");
        }
    }

    #[test]
    fn markup_spaces_and_malformed_addresses_are_refused() {
        let long_local = format!("{}@example.com", "a".repeat(65));
        let long_label = format!("a@{}.com", "b".repeat(64));
        let long_all = format!("a@{}.com", vec!["b".repeat(60); 5].join("."));
        for bad in [
            "<b>x</b>@example.com",
            "a b@example.com",
            "\"a b\"@example.com",
            "a@b",
            "a@.b.co",
            "a@b.co.",
            "@b.co",
            "a@",
            "a@b@c.co",
            "a..b@c.co",
            ".a@c.co",
            "a.@c.co",
            "a@-b.co",
            "a@b-.co",
            "a@b_c.co",
            "a@[127.0.0.1]",
            "a@1.2.3.4",
            "דנה@example.com",
            "a@example.com\n",
            "a(comment)@example.com",
            &long_local,
            &long_label,
            &long_all,
        ] {
            assert!(!is_email_address(bad), "{bad:?}");
        }
    }

    #[test]
    fn emails_are_compared_trimmed_and_lower_cased() {
        assert_eq!(
            normalise_email(" Dana.Levi@Example.COM "),
            Some("dana.levi@example.com".into())
        );
        for bad in [
            "",
            "dana",
            "@example.com",
            "dana@",
            "dana@example",
            "da na@example.com",
            "a@b@c.com",
            "dana@.com",
            "dana@example.com.",
        ] {
            assert_eq!(normalise_email(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn reservation_numbers_take_eight_digits_exactly() {
        for ok in ["1234-5678", "12345678", " 1234 5678 ", "\u{200e}1234-5678"] {
            assert_eq!(
                normalise_reservation_number(ok).as_deref(),
                Some("1234-5678"),
                "{ok:?}"
            );
        }
        for bad in ["1234-567", "123456789", "1234-567a", "", "1234_5678"] {
            assert_eq!(normalise_reservation_number(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn passwords_need_length_and_some_variety() {
        assert_eq!(password_problem("short1"), Some("tooShort"));
        assert_eq!(password_problem("12345678"), Some("tooSimple"));
        assert_eq!(password_problem("aaaaaaaaaa"), Some("tooSimple"));
        assert_eq!(password_problem(&"ab".repeat(65)), Some("tooLong"));
        assert_eq!(password_problem("סיסמה ארוכה"), None);
        assert_eq!(password_problem("correct horse"), None);
    }
}
