//! The door (issue 17 item 2, decision 0044): an usher (or a manager) chooses the presentation
//! they guard and checks each ticket shown to them, by the e-document's QR code or by a typed
//! ticket number, and the ticket is marked scanned exactly once.
//!
//! What a ticket's holder shows: the QR code of the e-document carries its link
//! (`{public url}/edocument/{document key}`); the PDF prints the reservation number and "ticket n
//! of N", so the typed ticket number is `RRRR-RRRR-n` (a reservation of one ticket: its number
//! alone). The answer follows from the ticket, the presentation guarded and the time
//! ([`judge`], pure), and "valid" is only said by the one conditional UPDATE that marked the
//! ticket: two doors scanning one ticket at the same moment get one "valid" and one "already
//! scanned". A late arrival keeps the seat: nothing here reassigns one.

use kupa_domain::ids::PresentationId;
use std::sync::Arc;

use async_trait::async_trait;

use super::live::{business_date, business_range_ms};
use super::{Access, Caller};
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::ports::Clock;
use crate::tickets_out::ENTRANCE_BEFORE_MS;

/// Doors open this long before the screening: the entrance time the e-document and the PDF print.
pub const DOOR_OPENS_BEFORE_MS: i64 = ENTRANCE_BEFORE_MS;

/// A presentation as the door shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoorPresentation {
    pub id: PresentationId,
    pub business_id: i64,
    /// What a mini-site shows is chosen by feature and location (its validation asks).
    pub feature_id: i64,
    pub location_id: i64,
    pub starts_at_ms: i64,
    /// The feature's runtime in minutes: the screening ends at start + runtime.
    pub runtime_minutes: i64,
    pub feature_name: String,
    pub feature_name_en: String,
    pub location_name: String,
    pub location_name_en: String,
    pub venue_name: String,
    pub venue_name_en: String,
}

impl DoorPresentation {
    pub fn entrance_at_ms(&self) -> i64 {
        self.starts_at_ms - DOOR_OPENS_BEFORE_MS
    }

    pub fn ends_at_ms(&self) -> i64 {
        self.starts_at_ms + self.runtime_minutes * 60_000
    }
}

/// The state of an order as the door cares about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DoorOrderState {
    Paid,
    /// Cancelled after payment: every ticket of it is void.
    Cancelled,
    /// Not paid (a hold not yet paid, a payment that failed or is still open).
    Unpaid,
}

/// One ticket line of an order, with what the door shows of it (never the buyer).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DoorTicket {
    pub order_id: String,
    pub line: i64,
    pub order_state: DoorOrderState,
    pub reservation_number: String,
    pub presentation: DoorPresentation,
    pub section_name: String,
    pub section_name_en: String,
    /// Empty for general admission.
    pub row_name: String,
    pub seat_name: String,
    pub ticket_name: String,
    pub ticket_name_en: String,
    /// The ticket's references (a hotel guest ticket's room): what a mini-site's validation
    /// matches.
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub scanned_at_ms: Option<i64>,
    pub cancelled_at_ms: Option<i64>,
}

/// A ticket with its place in the order: the PDF's "ticket n of N".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberedTicket {
    pub ticket: DoorTicket,
    pub number: usize,
    pub count: usize,
}

impl NumberedTicket {
    /// The typed ticket number: `RRRR-RRRR-n`.
    pub fn ticket_number(&self) -> String {
        format!("{}-{}", self.ticket.reservation_number, self.number)
    }
}

/// The door's reads and its one write (the store implements it).
#[async_trait]
pub trait DoorStore: Send + Sync {
    /// The order and line of a ticket's e-document key.
    async fn line_of_document_key(&self, key: &str) -> StoreResult<Option<(String, i64)>>;
    /// The order of a reservation number.
    async fn order_of_reservation_number(&self, number: &str) -> StoreResult<Option<String>>;
    /// Every ticket line of an order, by line (the PDF's order).
    async fn door_tickets(&self, order_id: &str) -> StoreResult<Vec<DoorTicket>>;
    async fn door_presentation(&self, id: PresentationId) -> StoreResult<Option<DoorPresentation>>;
    /// Presentations starting in [from, to), by start.
    async fn door_presentations(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<DoorPresentation>>;
    /// Marks the line scanned unless it was scanned or cancelled already, in one conditional
    /// UPDATE; true when this call marked it. `user_id`: the staff user who scanned (None: a
    /// mini-site by its key).
    async fn mark_scanned(
        &self,
        order_id: &str,
        line: i64,
        now_ms: i64,
        user_id: Option<i64>,
    ) -> StoreResult<bool>;
}

/// What was shown at the door, parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TicketRef {
    /// An e-document key (the QR code's link, or the key alone).
    DocumentKey(String),
    /// A reservation number (`RRRR-RRRR`) and the ticket's number in it; without one, the
    /// reservation must hold a single ticket.
    Number {
        reservation: String,
        n: Option<usize>,
    },
}

/// Reads a scanned QR code or a typed number. Anything else is `None` (not found).
pub fn parse_code(raw: &str) -> Option<TicketRef> {
    let s = raw.trim();
    if s.is_empty() || s.len() > 300 {
        return None;
    }
    let is_key =
        |k: &str| (16..=64).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_alphanumeric());
    if let Some((_, after)) = s.rsplit_once("/edocument/") {
        let key = after.split(['?', '#', '/']).next().unwrap_or_default();
        return is_key(key).then(|| TicketRef::DocumentKey(key.to_owned()));
    }
    // Digits with any of - / . space between groups: 1234-5678-2, 12345678/2, 1234 5678.
    let groups: Vec<&str> = s
        .split(|c: char| c == '-' || c == '/' || c == '.' || c.is_whitespace())
        .filter(|g| !g.is_empty())
        .collect();
    if !groups.is_empty() && groups.iter().all(|g| g.bytes().all(|b| b.is_ascii_digit())) {
        let (reservation, n) = match groups.as_slice() {
            [a, b] if a.len() == 4 && b.len() == 4 => (format!("{a}-{b}"), None),
            [ab] if ab.len() == 8 => (format!("{}-{}", &ab[..4], &ab[4..]), None),
            [a, b, n] if a.len() == 4 && b.len() == 4 && n.len() <= 3 => {
                (format!("{a}-{b}"), Some(n.parse().ok()?))
            }
            [ab, n] if ab.len() == 8 && n.len() <= 3 => {
                (format!("{}-{}", &ab[..4], &ab[4..]), Some(n.parse().ok()?))
            }
            _ => return None,
        };
        return Some(TicketRef::Number { reservation, n });
    }
    is_key(s).then(|| TicketRef::DocumentKey(s.to_owned()))
}

/// The door's answer about one ticket.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Admitted now (this scan marked it).
    Valid,
    AlreadyScanned {
        at_ms: i64,
    },
    Cancelled,
    /// The ticket is for another presentation: this one.
    WrongPresentation,
    /// Before the entrance time.
    TooEarly {
        entrance_at_ms: i64,
    },
    /// After the screening's end.
    TooLate {
        ended_at_ms: i64,
    },
    /// The order is not paid.
    NotPaid,
    NotFound,
}

impl Verdict {
    pub fn as_str(&self) -> &'static str {
        match self {
            Verdict::Valid => "valid",
            Verdict::AlreadyScanned { .. } => "alreadyScanned",
            Verdict::Cancelled => "cancelled",
            Verdict::WrongPresentation => "wrongPresentation",
            Verdict::TooEarly { .. } => "tooEarly",
            Verdict::TooLate { .. } => "tooLate",
            Verdict::NotPaid => "notPaid",
            Verdict::NotFound => "notFound",
        }
    }
}

/// What the ticket may be, before the scan: `None` means it may be admitted (the conditional
/// UPDATE then decides between valid and already scanned). The order of the checks is what an
/// usher needs first: a void ticket, then the wrong door, then one used already, then the time.
pub fn judge(t: &DoorTicket, guarded: PresentationId, now_ms: i64) -> Option<Verdict> {
    match t.order_state {
        DoorOrderState::Unpaid => return Some(Verdict::NotPaid),
        DoorOrderState::Cancelled => return Some(Verdict::Cancelled),
        DoorOrderState::Paid => {}
    }
    if t.cancelled_at_ms.is_some() {
        return Some(Verdict::Cancelled);
    }
    if t.presentation.id != guarded {
        return Some(Verdict::WrongPresentation);
    }
    if let Some(at_ms) = t.scanned_at_ms {
        return Some(Verdict::AlreadyScanned { at_ms });
    }
    let p = &t.presentation;
    if now_ms < p.entrance_at_ms() {
        return Some(Verdict::TooEarly {
            entrance_at_ms: p.entrance_at_ms(),
        });
    }
    if now_ms >= p.ends_at_ms() {
        return Some(Verdict::TooLate {
            ended_at_ms: p.ends_at_ms(),
        });
    }
    None
}

/// A scan's outcome: the verdict and (unless not found) the ticket as it is after the scan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scan {
    pub verdict: Verdict,
    pub ticket: Option<NumberedTicket>,
}

pub struct DoorService {
    pub(super) store: Arc<dyn DoorStore>,
    pub(super) clock: Arc<dyn Clock>,
}

impl DoorService {
    pub fn new(store: Arc<dyn DoorStore>, clock: Arc<dyn Clock>) -> DoorService {
        DoorService { store, clock }
    }

    /// The presentations of the caller's businesses in the current business day (05:00 to
    /// 05:00 Jerusalem, so after midnight yesterday evening's late screenings are still there).
    pub async fn presentations(&self, caller: &Caller) -> AppResult<Vec<DoorPresentation>> {
        caller.require(Access::Door)?;
        let today = business_date(self.clock.now_ms());
        let (from, to) = business_range_ms(today, today);
        Ok(self
            .store
            .door_presentations(from, to)
            .await?
            .into_iter()
            .filter(|p| caller.sees(p.business_id))
            .collect())
    }

    /// Checks a ticket at the door of `presentation_id` and, when it may enter, marks it
    /// scanned. A presentation not of the caller's businesses is 404; a ticket of another
    /// business is "not found", as if it did not exist.
    pub async fn scan(
        &self,
        caller: &Caller,
        presentation_id: PresentationId,
        code: &str,
    ) -> AppResult<Scan> {
        caller.require(Access::Door)?;
        self.store
            .door_presentation(presentation_id)
            .await?
            .filter(|p| caller.sees(p.business_id))
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::NotFound, "no such presentation of this user's")
            })?;
        let not_found = Scan {
            verdict: Verdict::NotFound,
            ticket: None,
        };
        let Some(found) = self.find(code).await? else {
            tracing::info!(
                user_id = caller.user.id,
                presentation_id = presentation_id.get(),
                "door: ticket not found"
            );
            return Ok(not_found);
        };
        if !caller.sees(found.ticket.presentation.business_id) {
            tracing::info!(
                user_id = caller.user.id,
                presentation_id = presentation_id.get(),
                "door: another business's ticket"
            );
            return Ok(not_found);
        }
        let now = self.clock.now_ms();
        if let Some(verdict) = judge(&found.ticket, presentation_id, now) {
            tracing::info!(
                user_id = caller.user.id,
                presentation_id = presentation_id.get(),
                verdict = verdict.as_str(),
                "door: refused"
            );
            return Ok(Scan {
                verdict,
                ticket: Some(found),
            });
        }
        let t = &found.ticket;
        if self
            .store
            .mark_scanned(&t.order_id, t.line, now, Some(caller.user.id))
            .await?
        {
            tracing::info!(user_id = caller.user.id, presentation_id = presentation_id.get(), order_id = %t.order_id, line = t.line, "door: admitted");
            let mut found = found;
            found.ticket.scanned_at_ms = Some(now);
            return Ok(Scan {
                verdict: Verdict::Valid,
                ticket: Some(found),
            });
        }
        // Another door marked it (or it was cancelled) between the read and the UPDATE.
        let again = self
            .numbered(&t.order_id, |x| x.line == t.line)
            .await?
            .ok_or_else(|| AppError::Internal("a scanned ticket line vanished".into()))?;
        let verdict = match (again.ticket.cancelled_at_ms, again.ticket.scanned_at_ms) {
            (Some(_), _) => Verdict::Cancelled,
            (None, Some(at_ms)) => Verdict::AlreadyScanned { at_ms },
            (None, None) => return Err(AppError::Internal("a ticket left unmarked".into())),
        };
        tracing::info!(
            user_id = caller.user.id,
            presentation_id = presentation_id.get(),
            verdict = verdict.as_str(),
            "door: lost the race"
        );
        Ok(Scan {
            verdict,
            ticket: Some(again),
        })
    }

    pub(super) async fn find(&self, code: &str) -> AppResult<Option<NumberedTicket>> {
        match parse_code(code) {
            None => Ok(None),
            Some(TicketRef::DocumentKey(key)) => {
                let Some((order, line)) = self.store.line_of_document_key(&key).await? else {
                    return Ok(None);
                };
                self.numbered(&order, |t| t.line == line).await
            }
            Some(TicketRef::Number { reservation, n }) => {
                let Some(order) = self.store.order_of_reservation_number(&reservation).await?
                else {
                    return Ok(None);
                };
                let lines = self.store.door_tickets(&order).await?;
                let count = lines.len();
                let index = match n {
                    Some(n) if n >= 1 => n - 1,
                    None if count == 1 => 0,
                    _ => return Ok(None),
                };
                Ok(lines.into_iter().nth(index).map(|ticket| NumberedTicket {
                    ticket,
                    number: index + 1,
                    count,
                }))
            }
        }
    }

    pub(super) async fn numbered(
        &self,
        order_id: &str,
        pick: impl Fn(&DoorTicket) -> bool,
    ) -> AppResult<Option<NumberedTicket>> {
        let lines = self.store.door_tickets(order_id).await?;
        let count = lines.len();
        Ok(lines
            .into_iter()
            .enumerate()
            .find(|(_, t)| pick(t))
            .map(|(i, ticket)| NumberedTicket {
                ticket,
                number: i + 1,
                count,
            }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> String {
        "0123456789abcdef0123456789abcdef".into()
    }

    #[test]
    fn codes_parse_as_qr_links_keys_or_ticket_numbers() {
        let k = TicketRef::DocumentKey(key());
        assert_eq!(
            parse_code(&format!("https://kupa.example/edocument/{}", key())),
            Some(k.clone())
        );
        assert_eq!(
            parse_code(&format!(" https://x/edocument/{}?lang=en ", key())),
            Some(k.clone())
        );
        assert_eq!(parse_code(&key()), Some(k));
        let n = |r: &str, n: Option<usize>| {
            Some(TicketRef::Number {
                reservation: r.into(),
                n,
            })
        };
        assert_eq!(parse_code("1234-5678-2"), n("1234-5678", Some(2)));
        assert_eq!(parse_code("12345678/2"), n("1234-5678", Some(2)));
        assert_eq!(parse_code("1234 5678 12"), n("1234-5678", Some(12)));
        assert_eq!(parse_code("1234-5678"), n("1234-5678", None));
        for bad in [
            "",
            "123-5678-1",
            "1234-5678-1234",
            "https://x/edocument/short",
            "hello",
            "1234-5678-x",
        ] {
            assert_eq!(parse_code(bad), None, "{bad}");
        }
    }

    fn ticket(starts_at_ms: i64) -> DoorTicket {
        DoorTicket {
            order_id: "o".into(),
            line: 1,
            order_state: DoorOrderState::Paid,
            reservation_number: "1234-5678".into(),
            presentation: DoorPresentation {
                id: PresentationId(7),
                business_id: 1,
                feature_id: 1,
                location_id: 2,
                starts_at_ms,
                runtime_minutes: 100,
                feature_name: String::new(),
                feature_name_en: String::new(),
                location_name: String::new(),
                location_name_en: String::new(),
                venue_name: String::new(),
                venue_name_en: String::new(),
            },
            section_name: String::new(),
            section_name_en: String::new(),
            row_name: "3".into(),
            seat_name: "4".into(),
            ticket_name: String::new(),
            ticket_name_en: String::new(),
            ref1: None,
            ref2: None,
            scanned_at_ms: None,
            cancelled_at_ms: None,
        }
    }

    #[test]
    fn a_ticket_may_enter_from_its_entrance_time_to_its_screenings_end() {
        let start = 10 * 3_600_000;
        let t = ticket(start);
        let entrance = start - DOOR_OPENS_BEFORE_MS;
        let end = start + 100 * 60_000;
        assert_eq!(
            judge(&t, PresentationId(7), entrance - 1),
            Some(Verdict::TooEarly {
                entrance_at_ms: entrance
            })
        );
        assert_eq!(judge(&t, PresentationId(7), entrance), None);
        assert_eq!(
            judge(&t, PresentationId(7), end - 1),
            None,
            "a late arrival still enters"
        );
        assert_eq!(
            judge(&t, PresentationId(7), end),
            Some(Verdict::TooLate { ended_at_ms: end })
        );
        assert_eq!(
            judge(&t, PresentationId(8), start),
            Some(Verdict::WrongPresentation)
        );
        let scanned = DoorTicket {
            scanned_at_ms: Some(5),
            ..t.clone()
        };
        assert_eq!(
            judge(&scanned, PresentationId(7), start),
            Some(Verdict::AlreadyScanned { at_ms: 5 })
        );
        assert_eq!(
            judge(&scanned, PresentationId(8), start),
            Some(Verdict::WrongPresentation),
            "the wrong door first"
        );
        let cancelled = DoorTicket {
            cancelled_at_ms: Some(1),
            ..t.clone()
        };
        assert_eq!(
            judge(&cancelled, PresentationId(8), start),
            Some(Verdict::Cancelled)
        );
        let unpaid = DoorTicket {
            order_state: DoorOrderState::Unpaid,
            ..t.clone()
        };
        assert_eq!(
            judge(&unpaid, PresentationId(7), start),
            Some(Verdict::NotPaid)
        );
        let void = DoorTicket {
            order_state: DoorOrderState::Cancelled,
            ..t
        };
        assert_eq!(
            judge(&void, PresentationId(7), start),
            Some(Verdict::Cancelled)
        );
    }
}
