//! Watchers of `GET /api/seats/events?presentationId=N` (server-sent events): `event: seats` with
//! `data: {"presentationId":N,"emittedAtMs":…,"changes":[{"sectionId","x","y","state"}]}`,
//! `event: resync` (refetch the status), and `: ping` comments.

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio::sync::watch;

use crate::api::Hall;
use crate::stats::{DelaySummary, MsHistogram};
use kupa_http_client::{EventStream, Opened};

pub fn path(presentation_id: i64) -> String {
    format!("/api/seats/events?presentationId={presentation_id}")
}

pub enum Probe {
    Available,
    /// The server answered this status instead of an event stream.
    Unavailable(u16),
}

/// Whether the node serves the event stream at all (it is being built in parallel).
pub async fn probe(addr: SocketAddr, presentation_id: i64) -> anyhow::Result<Probe> {
    let opened = tokio::time::timeout(
        Duration::from_secs(10),
        EventStream::open(addr, &path(presentation_id)),
    )
    .await??;
    Ok(match opened {
        Opened::Stream(_) => Probe::Available,
        Opened::Refused { status } => Probe::Unavailable(status),
    })
}

pub fn now_ms() -> i64 {
    jiff::Timestamp::now().as_millisecond()
}

/// `"emittedAtMs":123` read off the data without parsing the whole message: a thousand
/// watchers parse every event, on the same two cores as the server.
pub fn emitted_at(data: &str) -> Option<i64> {
    let key = "\"emittedAtMs\":";
    let start = data.find(key)? + key.len();
    let digits: String = data[start..]
        .trim_start()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == '-')
        .collect();
    digits.parse().ok()
}

#[derive(Default)]
pub struct WatchCounters {
    pub connected: AtomicU64,
    pub messages: AtomicU64,
    pub changes: AtomicU64,
    pub resyncs: AtomicU64,
    pub other_events: AtomicU64,
    pub without_emitted_at: AtomicU64,
    pub negative_delays: AtomicU64,
    pub connect_errors: AtomicU64,
    pub refused: AtomicU64,
    pub dropped: AtomicU64,
    pub resubscribes: AtomicU64,
    pub unavailable: AtomicBool,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FanoutSummary {
    pub watchers: usize,
    /// Watchers whose first subscription was answered with a stream.
    pub connected: u64,
    /// `seats` messages received, over all watchers, and the seat changes in them.
    pub messages: u64,
    pub changes: u64,
    pub messages_per_watcher: f64,
    pub resyncs: u64,
    /// Streams the server closed (a slow watcher dropped, say) or that broke.
    pub dropped: u64,
    pub connect_errors: u64,
    /// Re-subscriptions when the buyers moved on to the next hall.
    pub resubscribes: u64,
    pub messages_without_emitted_at: u64,
    /// Receive time − emittedAtMs, per message.
    pub delay: DelaySummary,
}

impl WatchCounters {
    pub fn summary(&self, watchers: usize, hist: &MsHistogram) -> FanoutSummary {
        let messages = self.messages.load(Ordering::Relaxed);
        FanoutSummary {
            watchers,
            connected: self.connected.load(Ordering::Relaxed),
            messages,
            changes: self.changes.load(Ordering::Relaxed),
            messages_per_watcher: crate::stats::round1(messages as f64 / watchers.max(1) as f64),
            resyncs: self.resyncs.load(Ordering::Relaxed),
            dropped: self.dropped.load(Ordering::Relaxed),
            connect_errors: self.connect_errors.load(Ordering::Relaxed),
            resubscribes: self.resubscribes.load(Ordering::Relaxed),
            messages_without_emitted_at: self.without_emitted_at.load(Ordering::Relaxed),
            delay: hist.summary(self.negative_delays.load(Ordering::Relaxed)),
        }
    }
}

/// One watcher: follows the hall the buyers are selling (re-subscribing when they move on) until
/// `until`, adding each message's fan-out delay to `hist`.
pub async fn watcher(
    addr: SocketAddr,
    halls: Arc<Vec<Arc<Hall>>>,
    mut current: watch::Receiver<usize>,
    counters: Arc<WatchCounters>,
    hist: Arc<MsHistogram>,
    until: Instant,
) {
    let mut first = true;
    // Once the sale is over nobody moves the hall any more (the sender is gone).
    let mut hall_can_change = true;
    while Instant::now() < until {
        let idx = *current.borrow_and_update();
        let Some(hall) = halls.get(idx) else { return };
        let p = path(hall.presentation_id);
        let opened = tokio::select! {
            o = EventStream::open(addr, &p) => o,
            _ = tokio::time::sleep_until(until.into()) => return,
        };
        let mut stream = match opened {
            Ok(Opened::Stream(s)) => s,
            Ok(Opened::Refused { status }) => {
                counters.refused.fetch_add(1, Ordering::Relaxed);
                if status == 404 || status == 405 {
                    counters.unavailable.store(true, Ordering::Relaxed);
                    return;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
            Err(_) => {
                counters.connect_errors.fetch_add(1, Ordering::Relaxed);
                tokio::time::sleep(Duration::from_millis(200)).await;
                continue;
            }
        };
        if first {
            counters.connected.fetch_add(1, Ordering::Relaxed);
            first = false;
        }
        loop {
            tokio::select! {
                m = stream.next() => match m {
                    Ok(m) => {
                        let received = now_ms();
                        match m.event.as_str() {
                            "seats" => {
                                counters.messages.fetch_add(1, Ordering::Relaxed);
                                let changes = m.data.matches("\"state\"").count() as u64;
                                counters.changes.fetch_add(changes, Ordering::Relaxed);
                                match emitted_at(&m.data) {
                                    Some(e) => {
                                        if received < e {
                                            counters.negative_delays.fetch_add(1, Ordering::Relaxed);
                                        }
                                        hist.add(received - e);
                                    }
                                    None => {
                                        counters.without_emitted_at.fetch_add(1, Ordering::Relaxed);
                                    }
                                }
                            }
                            "resync" => {
                                counters.resyncs.fetch_add(1, Ordering::Relaxed);
                            }
                            _ => {
                                counters.other_events.fetch_add(1, Ordering::Relaxed);
                            }
                        }
                    }
                    Err(_) => {
                        if Instant::now() < until {
                            counters.dropped.fetch_add(1, Ordering::Relaxed);
                            tokio::time::sleep(Duration::from_millis(100)).await;
                        }
                        break;
                    }
                },
                changed = current.changed(), if hall_can_change => {
                    if changed.is_ok() {
                        counters.resubscribes.fetch_add(1, Ordering::Relaxed);
                        break;
                    }
                    hall_can_change = false;
                }
                _ = tokio::time::sleep_until(until.into()) => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_emit_time_is_read_off_the_data() {
        assert_eq!(
            emitted_at(r#"{"presentationId":7,"emittedAtMs":1763820397453,"changes":[]}"#),
            Some(1763820397453)
        );
        assert_eq!(emitted_at(r#"{"emittedAtMs": 12}"#), Some(12));
        assert_eq!(emitted_at("{}"), None);
    }
}
