//! The key that signs buyer session ids (decision 0019): the session layer mints and verifies ids
//! with it, the settings carry it.

use hmac::{Hmac, KeyInit, Mac};
use kupa_domain::ids::Token;
use rand::Rng;
use sha2::Sha256;

/// The key that signs buyer session ids: shared by every node (drawn once and kept in the
/// database, see the wiring); never printed.
#[derive(Clone)]
pub struct SessionKey([u8; 32]);

impl std::fmt::Debug for SessionKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SessionKey(***)")
    }
}

impl SessionKey {
    pub fn new(bytes: [u8; 32]) -> SessionKey {
        SessionKey(bytes)
    }

    /// The fixed key of the in-process tests (their buyers are signed with it).
    pub fn for_tests() -> SessionKey {
        SessionKey(*b"kupa test session key, not real!")
    }

    /// A key of its own, for a process that keeps no database secret (never shared by nodes).
    pub fn random() -> SessionKey {
        SessionKey(rand::rng().random())
    }

    fn tag(&self, random_hex: &str) -> String {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&self.0)
            .expect("HMAC takes a key of any length");
        mac.update(b"kupa buyer session ");
        mac.update(random_hex.as_bytes());
        let tag = mac.finalize().into_bytes();
        let mut half = [0u8; 16];
        half.copy_from_slice(&tag[..16]);
        Token::from_bytes(half).to_string()
    }

    /// A new buyer session id from these 16 random bytes.
    pub fn sign(&self, random: [u8; 16]) -> String {
        let random = Token::from_bytes(random).to_string();
        let tag = self.tag(&random);
        format!("{random}{tag}")
    }

    /// A new buyer session id.
    pub fn mint(&self) -> String {
        self.sign(rand::rng().random())
    }

    /// True when the server signed this id (the exact shape, and the tag in constant time).
    pub fn verify(&self, id: &str) -> bool {
        if id.len() != 64 {
            return false;
        }
        let (random, tag) = id.split_at(32);
        if Token::parse(random).is_none() || Token::parse(tag).is_none() {
            return false;
        }
        let expected = self.tag(random);
        expected
            .bytes()
            .zip(tag.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}
