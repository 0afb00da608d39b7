//! Seat events: every change of a seat's state (held, released, sold, expired) is published, so
//! open seat maps update without a reload (decision 0010). The use cases publish through
//! `SeatEventSink`; `api` fans events out to browsers, and on PostgreSQL to the other nodes.

use crate::model::Claim;
use crate::ports::SeatAddress;
use kupa_domain::ids::PresentationId;

/// What happened to a place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SeatChangeKind {
    /// A buyer's session holds it now.
    Held,
    /// Its holder let it go.
    Released,
    /// A paid order took it.
    Sold,
    /// Its hold ran out and a sweeper removed it.
    Expired,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatChange {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub state: SeatChangeKind,
}

/// Changes on one presentation, published together (a sofa, an order's seats, a sweep).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SeatEvent {
    pub presentation_id: PresentationId,
    /// The publishing node's system clock (not the test mode's moved clock), so a watcher on the
    /// same machine can measure how long the event took to reach it.
    pub emitted_at_ms: i64,
    pub changes: Vec<SeatChange>,
}

impl SeatEvent {
    pub fn new(
        presentation_id: PresentationId,
        state: SeatChangeKind,
        places: impl IntoIterator<Item = SeatAddress>,
    ) -> SeatEvent {
        SeatEvent {
            presentation_id,
            emitted_at_ms: system_now_ms(),
            changes: places
                .into_iter()
                .map(|p| SeatChange {
                    section_id: p.section_id,
                    x: p.x,
                    y: p.y,
                    state,
                })
                .collect(),
        }
    }

    /// One event per presentation for the claims a sweeper removed.
    pub fn expired(claims: &[Claim]) -> Vec<SeatEvent> {
        let mut by_presentation: std::collections::BTreeMap<PresentationId, Vec<SeatAddress>> =
            Default::default();
        for c in claims {
            by_presentation
                .entry(c.presentation_id)
                .or_default()
                .push(SeatAddress {
                    section_id: c.section_id,
                    x: c.x,
                    y: c.y,
                });
        }
        by_presentation
            .into_iter()
            .map(|(p, places)| SeatEvent::new(p, SeatChangeKind::Expired, places))
            .collect()
    }
}

/// Milliseconds since the Unix epoch by the system clock.
pub fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Where the use cases publish seat events. Publishing never blocks and never fails the call
/// that changed the seat: the database is the truth, events only tell watchers sooner.
pub trait SeatEventSink: Send + Sync {
    fn publish(&self, event: SeatEvent);
}

/// Publishes nowhere (tools and tests that watch nothing).
pub struct NoSeatEvents;

impl SeatEventSink for NoSeatEvents {
    fn publish(&self, _event: SeatEvent) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sweep_becomes_one_event_per_presentation() {
        let claim = |p, x| Claim {
            presentation_id: p,
            section_id: 1,
            x,
            y: 2,
            session_id: "s".into(),
            sold: false,
            expires_at_ms: 0,
        };
        let events = SeatEvent::expired(&[
            claim(PresentationId(7), 1),
            claim(PresentationId(8), 1),
            claim(PresentationId(7), 2),
        ]);
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].presentation_id, PresentationId(7));
        assert_eq!(events[0].changes.len(), 2);
        assert!(
            events[0]
                .changes
                .iter()
                .all(|c| c.state == SeatChangeKind::Expired)
        );
        assert_eq!(
            events[1].changes,
            vec![SeatChange {
                section_id: 1,
                x: 1,
                y: 2,
                state: SeatChangeKind::Expired
            }]
        );
    }

    #[test]
    fn the_wire_form_is_camel_case() {
        let e = SeatEvent {
            presentation_id: PresentationId(5),
            emitted_at_ms: 9,
            changes: vec![SeatChange {
                section_id: 1,
                x: 2,
                y: 3,
                state: SeatChangeKind::Held,
            }],
        };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"presentationId":5,"emittedAtMs":9,"changes":[{"sectionId":1,"x":2,"y":3,"state":"held"}]}"#
        );
    }
}
