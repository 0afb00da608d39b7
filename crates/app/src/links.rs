//! Signed links to a reservation (decision 0018): what lets someone who is not the buyer's
//! session open the reservation's tickets, as the links in the confirmation mail, the text
//! message and the calendar file do. A link names the reservation and carries its expiry and an
//! HMAC-SHA256 over both, as query parameters: `?exp=<Unix seconds>&sig=<hex>`. It is good until
//! the end of the day after the event (Asia/Jerusalem), and only with the key that signed it.

use hmac::{Hmac, KeyInit, Mac};
use jiff::ToSpan;
use kupa_domain::time::{local_date, local_day_range_ms, ms_to_timestamp};
use rand::Rng;
use sha2::{Digest, Sha256};

/// The key reservation links are signed with. Every node that answers a link must hold the same
/// key; it never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq)]
pub struct LinkKey([u8; 32]);

impl LinkKey {
    pub const fn new(bytes: [u8; 32]) -> LinkKey {
        LinkKey(bytes)
    }

    /// A fresh random key: links it signs die with the process that holds it.
    pub fn random() -> LinkKey {
        LinkKey(rand::rng().random())
    }

    fn mac(&self, purpose: &[u8], subject: &str, exp: i64) -> Hmac<Sha256> {
        let mut mac =
            Hmac::<Sha256>::new_from_slice(&self.0).expect("HMAC takes a key of any length");
        // A purpose in front, so a signature made for anything else never passes for a link.
        mac.update(purpose);
        mac.update(subject.as_bytes());
        mac.update(b"\n");
        mac.update(exp.to_string().as_bytes());
        mac
    }

    /// The link proof for a reservation, good until `exp` (Unix seconds).
    pub fn sign(&self, reservation_id: &str, exp: i64) -> LinkProof {
        self.sign_for(RESERVATION_LINK, reservation_id, exp)
    }

    /// A proof for `subject` signed for `purpose` (one of this module's purposes): it never
    /// passes for another purpose's.
    pub fn sign_for(&self, purpose: &[u8], subject: &str, exp: i64) -> LinkProof {
        let tag = self.mac(purpose, subject, exp).finalize().into_bytes();
        LinkProof {
            exp,
            sig: hex(&tag[..SIG_BYTES]),
        }
    }

    /// Whether `proof` was signed with this key for this reservation and is still good at `now_ms`.
    pub fn verify(&self, reservation_id: &str, proof: &LinkProof, now_ms: i64) -> bool {
        now_ms < proof.exp.saturating_mul(1000)
            && self.signed_for(RESERVATION_LINK, reservation_id, proof)
    }

    /// Whether `proof` was signed with this key for `purpose` and `subject`, whatever its expiry
    /// (the caller judges that, so an expired link can be told from a forged one). The signature
    /// is compared in constant time.
    pub fn signed_for(&self, purpose: &[u8], subject: &str, proof: &LinkProof) -> bool {
        let Some(sig) = unhex(&proof.sig) else {
            return false;
        };
        if sig.len() != SIG_BYTES {
            return false;
        }
        self.mac(purpose, subject, proof.exp)
            .verify_truncated_left(&sig)
            .is_ok()
    }
}

impl std::fmt::Debug for LinkKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LinkKey(***)")
    }
}

/// The purpose of a reservation's links (mail, text message, calendar file).
pub const RESERVATION_LINK: &[u8] = b"kupa reservation link\n";
/// The purpose of a video-on-demand play session's stream link (decision 0053).
pub const VOD_PLAY_LINK: &[u8] = b"kupa vod play session\n";

/// 128 bits of the HMAC: as strong as the reservation id itself, and short enough for a text message.
const SIG_BYTES: usize = 16;

/// What a signed link carries besides the reservation's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkProof {
    /// When the link stops working, Unix seconds.
    pub exp: i64,
    /// Hex of the truncated HMAC-SHA256.
    pub sig: String,
}

impl LinkProof {
    /// `exp=…&sig=…`, for a link's query.
    pub fn query(&self) -> String {
        format!("exp={}&sig={}", self.exp, self.sig)
    }
}

/// When a reservation's links stop working: the end of the day after its event, in
/// Asia/Jerusalem (Unix seconds), so the buyer can still open the tickets the morning after.
pub fn link_expiry(event_starts_ms: i64) -> i64 {
    let day_after = local_date(ms_to_timestamp(event_starts_ms))
        .checked_add(1.day())
        .expect("an event date far from the end of time");
    local_day_range_ms(day_after).1 / 1000
}

/// The reservation's confirmation page on the site (the web app's `/reservation/:reservationId`):
/// its tickets with their QR codes, the PDF and the calendar file. Signed, it is the one link the
/// mail, the text message and the calendar file give the buyer.
pub fn confirmation_path(reservation_id: &str) -> String {
    format!("/reservation/{reservation_id}")
}

/// The reservation's tickets (PDF), under the API's root.
pub fn tickets_pdf_path(reservation_id: &str) -> String {
    format!("/api/reservations/{reservation_id}/tickets.pdf")
}

/// The reservation's calendar file, under the API's root.
pub fn calendar_path(reservation_id: &str) -> String {
    format!("/api/reservations/{reservation_id}/calendar.ics")
}

/// A calendar entry's UID for a reservation: stable, so downloading the file again updates the
/// entry, but a one-way hash, so the file never carries the reservation's id itself.
pub fn calendar_uid(reservation_id: &str) -> String {
    let digest = Sha256::digest(format!("kupa calendar uid\n{reservation_id}").as_bytes());
    format!("{}@kupa", hex(&digest[..16]))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: LinkKey = LinkKey::new([7; 32]);
    const ID: &str = "0123456789abcdef0123456789abcdef";

    fn ms(rfc3339: &str) -> i64 {
        rfc3339.parse::<jiff::Timestamp>().unwrap().as_millisecond()
    }

    #[test]
    fn a_link_is_good_until_the_end_of_the_day_after_the_event_in_jerusalem() {
        // Thursday 14 May 2026, 20:30 in Jerusalem (summer time, UTC+3).
        let exp = link_expiry(ms("2026-05-14T17:30:00Z"));
        assert_eq!(
            exp * 1000,
            ms("2026-05-15T21:00:00Z"),
            "midnight ending Friday 15 May"
        );
        // A screening after midnight belongs to the next day.
        let exp = link_expiry(ms("2026-11-22T22:30:00Z"));
        assert_eq!(exp * 1000, ms("2026-11-24T22:00:00Z"));
    }

    #[test]
    fn a_signed_link_opens_its_reservation_only_until_it_expires() {
        let exp = link_expiry(ms("2026-05-14T17:30:00Z"));
        let proof = KEY.sign(ID, exp);
        assert_eq!(proof.sig.len(), 32);
        assert!(KEY.verify(ID, &proof, ms("2026-05-15T20:59:59Z")));
        assert!(!KEY.verify(ID, &proof, exp * 1000), "not at its expiry");
        assert!(
            !KEY.verify("fedcba9876543210fedcba9876543210", &proof, 0),
            "another reservation"
        );
        assert!(!LinkKey::new([8; 32]).verify(ID, &proof, 0), "another key");
        let later = LinkProof {
            exp: exp + 86_400,
            ..proof.clone()
        };
        assert!(!KEY.verify(ID, &later, 0), "the expiry is signed too");
        for sig in [
            "",
            "zz",
            &proof.sig[..30],
            &proof.sig.to_uppercase(),
            &format!("{}00", proof.sig),
        ] {
            let bad = LinkProof {
                sig: sig.to_owned(),
                ..proof.clone()
            };
            assert_eq!(
                KEY.verify(ID, &bad, 0),
                sig == proof.sig.to_uppercase(),
                "{sig:?}"
            );
        }
        assert_eq!(proof.query(), format!("exp={exp}&sig={}", proof.sig));
        assert_eq!(format!("{KEY:?}"), "LinkKey(***)");
    }

    #[test]
    fn a_calendar_uid_is_stable_and_does_not_carry_the_id() {
        let uid = calendar_uid(ID);
        assert_eq!(uid, calendar_uid(ID));
        assert!(
            !uid.contains(ID) && uid.ends_with("@kupa") && uid.len() == 32 + 5,
            "{uid}"
        );
        assert_ne!(uid, calendar_uid("fedcba9876543210fedcba9876543210"));
    }
}
