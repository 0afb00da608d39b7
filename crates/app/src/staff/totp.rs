//! The staff login's second factor: time-based one-time passwords (RFC 6238, the codes an
//! authenticator app shows): HMAC-SHA1 over the 30-second time step, six digits, one step of
//! clock drift either way. The secret travels as base32 (RFC 4648, no padding), as the apps read it.

use hmac::{Hmac, KeyInit, Mac};
use rand::Rng;
use sha1::Sha1;

pub const STEP_SECONDS: i64 = 30;
pub const DIGITS: u32 = 6;
/// Steps of drift taken either side of the current one.
pub const DRIFT_STEPS: i64 = 1;

const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

pub fn base32_encode(bytes: &[u8]) -> String {
    let mut out = String::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for &b in bytes {
        buffer = (buffer << 8) | u32::from(b);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(ALPHABET[((buffer >> bits) & 31) as usize] as char);
        }
    }
    if bits > 0 {
        out.push(ALPHABET[((buffer << (5 - bits)) & 31) as usize] as char);
    }
    out
}

pub fn base32_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let (mut buffer, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| !matches!(c, b' ' | b'=' | b'-')) {
        let v = ALPHABET.iter().position(|a| *a == c.to_ascii_uppercase())? as u32;
        buffer = (buffer << 5) | v;
        bits += 5;
        if bits >= 8 {
            bits -= 8;
            out.push((buffer >> bits) as u8);
        }
    }
    (!out.is_empty()).then_some(out)
}

/// A new secret: 160 random bits (RFC 4226's recommended length), base32.
pub fn new_secret() -> String {
    base32_encode(&rand::rng().random::<[u8; 20]>())
}

/// The code of one time step (RFC 4226 HOTP with the step as the counter).
pub fn code_at_step(secret: &[u8], step: i64) -> u32 {
    let mut mac =
        <Hmac<Sha1> as KeyInit>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(&step.to_be_bytes());
    let h = mac.finalize().into_bytes();
    let offset = (h[h.len() - 1] & 0x0f) as usize;
    let bin = (u32::from(h[offset]) & 0x7f) << 24
        | u32::from(h[offset + 1]) << 16
        | u32::from(h[offset + 2]) << 8
        | u32::from(h[offset + 3]);
    bin % 10u32.pow(DIGITS)
}

pub fn step_of(now_ms: i64) -> i64 {
    now_ms.div_euclid(1000) / STEP_SECONDS
}

/// The code an app shows now, six digits with leading zeros.
pub fn code_now(secret_b32: &str, now_ms: i64) -> Option<String> {
    let secret = base32_decode(secret_b32)?;
    Some(format!("{:06}", code_at_step(&secret, step_of(now_ms))))
}

/// The time step this code belongs to (within the drift), if it is right. The caller records the
/// step so the same code cannot log in twice.
pub fn matching_step(secret_b32: &str, code: &str, now_ms: i64) -> Option<i64> {
    let code = code.trim();
    if code.len() != DIGITS as usize || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let wanted: u32 = code.parse().ok()?;
    let secret = base32_decode(secret_b32)?;
    let now = step_of(now_ms);
    (now - DRIFT_STEPS..=now + DRIFT_STEPS).find(|s| code_at_step(&secret, *s) == wanted)
}

/// The address an authenticator app reads (as a QR code or pasted).
pub fn otpauth_uri(secret_b32: &str, email: &str) -> String {
    let label: String = email
        .bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'.' | b'-' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect();
    format!("otpauth://totp/Kupa:{label}?secret={secret_b32}&issuer=Kupa&digits=6&period=30")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rfc6238_sha1_vectors() {
        // RFC 6238 appendix B, SHA-1, 8 digits; the last six of each are what six digits give.
        let secret = b"12345678901234567890";
        for (t, expected) in [
            (59i64, 94287082u32),
            (1111111109, 7081804),
            (1111111111, 14050471),
            (1234567890, 89005924),
            (2000000000, 69279037),
            (20000000000, 65353130),
        ] {
            assert_eq!(code_at_step(secret, t / 30), expected % 1_000_000, "t={t}");
        }
    }

    #[test]
    fn base32_round_trips_and_matches_rfc4648() {
        assert_eq!(base32_encode(b"foobar"), "MZXW6YTBOI");
        assert_eq!(base32_decode("MZXW6YTBOI").unwrap(), b"foobar");
        assert_eq!(
            base32_encode(b"12345678901234567890"),
            "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
        );
        assert!(base32_decode("not base32!").is_none());
    }

    #[test]
    fn codes_match_within_one_step_only() {
        let s = new_secret();
        let now = 1_800_000_000_000;
        let code = code_now(&s, now).unwrap();
        assert_eq!(matching_step(&s, &code, now), Some(step_of(now)));
        assert_eq!(matching_step(&s, &code, now + 30_000), Some(step_of(now)));
        assert_eq!(matching_step(&s, &code, now + 95_000), None);
        assert_eq!(matching_step(&s, "12345", now), None);
        assert_eq!(matching_step(&s, "abcdef", now), None);
    }
}
