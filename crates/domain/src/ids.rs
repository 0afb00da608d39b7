//! Identifiers. Catalogue ids are numbers (as the spec's fields are); ids a buyer could guess
//! to reach someone else's data (sessions, reservations, e-documents) are random 128-bit tokens.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A presentation's (a screening's) id: the catalogue's number for it. What the seat, cart and
/// order calls name a screening by; the wire and the database see the bare number.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize,
)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
#[serde(transparent)]
pub struct PresentationId(pub i64);

impl PresentationId {
    pub fn get(self) -> i64 {
        self.0
    }
}

impl fmt::Display for PresentationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// A buyer session's id (the `kupa_uuid` cookie): the one key of a buyer's holds, checkouts and
/// pending orders. Minted and checked by the HTTP layer; the rules only compare it. Not shown in
/// logs (no `Display`): it is as good as the buyer's cart.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
#[serde(transparent)]
pub struct SessionId(String);

impl SessionId {
    pub fn new(id: impl Into<String>) -> SessionId {
        SessionId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SessionId(***)")
    }
}

impl From<String> for SessionId {
    fn from(id: String) -> SessionId {
        SessionId(id)
    }
}

impl From<&str> for SessionId {
    fn from(id: &str) -> SessionId {
        SessionId(id.to_owned())
    }
}

impl PartialEq<str> for SessionId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for SessionId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// An order's id, the spec's `reservationIdentifier`: a random token (not the short reservation
/// number printed on tickets). Whoever has it reaches the order, so it travels only to its buyer.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "sqlx", derive(sqlx::Type), sqlx(transparent))]
#[serde(transparent)]
pub struct ReservationId(String);

impl ReservationId {
    pub fn new(id: impl Into<String>) -> ReservationId {
        ReservationId(id.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn into_string(self) -> String {
        self.0
    }
}

impl fmt::Display for ReservationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for ReservationId {
    fn from(id: String) -> ReservationId {
        ReservationId(id)
    }
}

impl From<&str> for ReservationId {
    fn from(id: &str) -> ReservationId {
        ReservationId(id.to_owned())
    }
}

impl PartialEq<str> for ReservationId {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

impl PartialEq<&str> for ReservationId {
    fn eq(&self, other: &&str) -> bool {
        self.0 == *other
    }
}

/// A random 128-bit token rendered as 32 lowercase hex characters.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Token(String);

impl Token {
    /// Builds a token from 16 random bytes the caller drew (the domain has no randomness of its own).
    pub fn from_bytes(bytes: [u8; 16]) -> Token {
        let mut s = String::with_capacity(32);
        for b in bytes {
            s.push_str(&format!("{b:02x}"));
        }
        Token(s)
    }

    /// Accepts only the exact shape we issue, so a header or cookie cannot smuggle anything else.
    pub fn parse(s: &str) -> Option<Token> {
        let ok = s.len() == 32
            && s.bytes()
                .all(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(&c));
        ok.then(|| Token(s.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// An Israeli identity number (Teudat Zehut): up to 9 digits, left-padded, with a Luhn-style check digit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IsraeliId(String);

impl IsraeliId {
    pub fn parse(raw: &str) -> Option<IsraeliId> {
        let digits: String = raw.trim().to_owned();
        if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let padded = format!("{digits:0>9}");
        let sum: u32 = padded
            .bytes()
            .enumerate()
            .map(|(i, c)| {
                let d = u32::from(c - b'0') * if i % 2 == 0 { 1 } else { 2 };
                if d > 9 { d - 9 } else { d }
            })
            .sum();
        (sum.is_multiple_of(10) && padded != "000000000").then_some(IsraeliId(padded))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_round_trips_and_rejects_other_shapes() {
        let t = Token::from_bytes([0xab; 16]);
        assert_eq!(t.as_str().len(), 32);
        assert_eq!(Token::parse(t.as_str()), Some(t));
        assert_eq!(Token::parse("ABABABABABABABABABABABABABABABAB"), None);
        assert_eq!(Token::parse("short"), None);
        assert_eq!(Token::parse("abababababababababababababababa; x=1"), None);
    }

    #[test]
    fn israeli_id_check_digit() {
        assert!(IsraeliId::parse("000000018").is_some());
        assert!(IsraeliId::parse("18").is_some());
        assert!(IsraeliId::parse("123456782").is_some());
        assert!(IsraeliId::parse("123456789").is_none());
        assert!(IsraeliId::parse("000000000").is_none());
        assert!(IsraeliId::parse("12345678a").is_none());
        assert!(IsraeliId::parse("1234567890").is_none());
    }
}
