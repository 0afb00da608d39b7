//! Errors the web app reports from the buyer's browser (spec section 8, "Errors are classified
//! for reporting"): how grave each is, and what of its words may be written to the log: no
//! numbers long enough to be a phone, card or reservation number, no e-mail addresses. (The
//! addresses in a report are reduced to their route templates by the API layer, which knows them.)

use std::fmt;

/// The spec's classification: 500 and above critical, 401/403 high, 404 medium, other 4xx low.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Critical,
    High,
    Medium,
    Low,
}

impl Severity {
    /// The severity of an error with this HTTP status; `None` is an error in the page's own
    /// script (nothing answered), which breaks the page like a server fault: critical.
    /// Statuses below 400 are no errors.
    pub fn of_status(status: Option<u16>) -> Option<Severity> {
        match status {
            None => Some(Severity::Critical),
            Some(s) if s >= 500 => Some(Severity::Critical),
            Some(401 | 403) => Some(Severity::High),
            Some(404) => Some(Severity::Medium),
            Some(400..=499) => Some(Severity::Low),
            Some(_) => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Critical => "critical",
            Severity::High => "high",
            Severity::Medium => "medium",
            Severity::Low => "low",
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A message as the log may keep it: one line, at most 300 characters, with e-mail addresses
/// and runs of four or more digits (phones, cards, reservation and login codes) masked.
pub fn scrub_message(raw: &str) -> String {
    let mut out = String::new();
    for word in raw.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        if word.contains('@') {
            out.push_str("[email]");
            continue;
        }
        let mut digits = 0usize;
        let mut piece = String::new();
        for c in word.chars() {
            if c.is_ascii_digit() {
                digits += 1;
                piece.push(c);
            } else {
                flush_digits(&mut out, &mut piece, digits);
                digits = 0;
                if !c.is_control() {
                    out.push(c);
                }
            }
        }
        flush_digits(&mut out, &mut piece, digits);
    }
    truncate(&out, 300)
}

fn flush_digits(out: &mut String, piece: &mut String, digits: usize) {
    if digits >= 4 {
        out.push('#');
    } else {
        out.push_str(piece);
    }
    piece.clear();
}

/// An error code as the web app names it (`lock_seat_error`, `ORDER_ALREADY_PAID`): letters,
/// digits and `_`, at most 64; anything else is not a code.
pub fn is_error_code(code: &str) -> bool {
    !code.is_empty()
        && code.len() <= 64
        && code
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

fn truncate(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &text[..i]),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_classified_as_the_spec_says() {
        assert_eq!(Severity::of_status(Some(500)), Some(Severity::Critical));
        assert_eq!(Severity::of_status(Some(503)), Some(Severity::Critical));
        assert_eq!(Severity::of_status(Some(401)), Some(Severity::High));
        assert_eq!(Severity::of_status(Some(403)), Some(Severity::High));
        assert_eq!(Severity::of_status(Some(404)), Some(Severity::Medium));
        assert_eq!(Severity::of_status(Some(409)), Some(Severity::Low));
        assert_eq!(Severity::of_status(Some(422)), Some(Severity::Low));
        assert_eq!(Severity::of_status(None), Some(Severity::Critical));
        assert_eq!(Severity::of_status(Some(200)), None);
        assert_eq!(Severity::of_status(Some(302)), None);
    }

    #[test]
    fn messages_lose_numbers_and_addresses() {
        assert_eq!(
            scrub_message("Failed for 0521234567 and dana@example.com at\nstep 3"),
            "Failed for # and [email] at step 3"
        );
        assert_eq!(scrub_message("card 4580-1234-5678-9012"), "card #-#-#-#");
        assert_eq!(scrub_message(&"x".repeat(400)).chars().count(), 301);
    }

    #[test]
    fn codes_are_words() {
        assert!(is_error_code("lock_seat_error"));
        assert!(is_error_code("ORDER_ALREADY_PAID"));
        assert!(!is_error_code("a b"));
        assert!(!is_error_code(""));
        assert!(!is_error_code(&"x".repeat(65)));
    }
}
