//! The node's hub of live seat events (decision 0010), which the SSE call `GET /seats/events`
//! (in `events`) subscribes to.
//!
//! One `SeatEventHub` per node fans events out in memory: one broadcast channel per watched
//! presentation, each event serialised once and shared by every watcher. A watcher that falls
//! behind by more than `BACKLOG` events is dropped (its browser reconnects and reloads the status)
//! rather than slowing the others. On PostgreSQL the hub also hands its events to a relay that
//! NOTIFYs the other nodes, and delivers what their relays heard (`deliver_remote`).

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use kupa_app::seat_events::{SeatEvent, SeatEventSink};
use kupa_domain::ids::PresentationId;
use tokio::sync::{broadcast, mpsc};

/// How many events a watcher may fall behind before it is dropped.
const BACKLOG: usize = 1024;
/// How many events wait for the cross-node relay before new ones are dropped (and counted).
pub const RELAY_QUEUE: usize = 16_384;

/// What a watcher receives: the SSE event name and its JSON data, serialised once.
#[derive(Debug)]
pub struct Outgoing {
    pub name: &'static str,
    pub data: String,
}

/// Told of every change before the watchers: `Some(presentation)`, or `None` for "anything may
/// have changed" (the cross-node listener lost its connection).
pub type ChangeHook = Arc<dyn Fn(Option<PresentationId>) + Send + Sync>;

/// Told of every event itself, local or relayed, before the watchers (the seat arbiter follows
/// them); `None` as for [`ChangeHook`].
pub type EventHook = Arc<dyn Fn(Option<&SeatEvent>) + Send + Sync>;

pub struct SeatEventHub {
    channels: Mutex<HashMap<PresentationId, broadcast::Sender<Arc<Outgoing>>>>,
    relay: OnceLock<mpsc::Sender<SeatEvent>>,
    relay_dropped: std::sync::atomic::AtomicU64,
    on_change: OnceLock<ChangeHook>,
    on_event: OnceLock<EventHook>,
    /// Set when the node shuts down: streams end, and new ones end at once.
    closed: std::sync::atomic::AtomicBool,
    /// Open streams per client address, for the per-address cap.
    streams_by_address: Arc<Mutex<HashMap<String, usize>>>,
    /// Every change of any presentation, for the staff figures stream: `Some(presentation)`, or
    /// `None` for "anything may have changed". Taken (so its watchers end) when the node closes.
    all: Mutex<Option<broadcast::Sender<Option<PresentationId>>>>,
}

/// One open stream of a client address; the count goes down when the stream ends.
pub struct StreamPermit {
    address: String,
    counts: Arc<Mutex<HashMap<String, usize>>>,
}

impl Drop for StreamPermit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().expect("seat event hub poisoned");
        if let Some(n) = counts.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

impl Default for SeatEventHub {
    fn default() -> Self {
        SeatEventHub {
            channels: Mutex::new(HashMap::new()),
            relay: OnceLock::new(),
            relay_dropped: Default::default(),
            on_change: OnceLock::new(),
            on_event: OnceLock::new(),
            closed: Default::default(),
            streams_by_address: Default::default(),
            all: Mutex::new(Some(broadcast::channel(BACKLOG).0)),
        }
    }
}

impl SeatEventHub {
    pub fn new() -> SeatEventHub {
        SeatEventHub::default()
    }

    /// Starts handing every locally published event to the cross-node relay; returns the
    /// receiving end for it. Once per hub.
    pub fn attach_relay(&self) -> Option<mpsc::Receiver<SeatEvent>> {
        let (tx, rx) = mpsc::channel(RELAY_QUEUE);
        self.relay.set(tx).ok().map(|_| rx)
    }

    /// Runs `hook` on every change, local or relayed, before the watchers hear of it (the seat
    /// status cache forgets the presentation). Once per hub.
    pub fn on_change(&self, hook: ChangeHook) {
        let _ = self.on_change.set(hook);
    }

    /// Runs `hook` on every event, local or relayed, before the watchers hear of it (the seat
    /// arbiter follows what other paths and nodes change). Once per hub.
    pub fn on_event(&self, hook: EventHook) {
        let _ = self.on_event.set(hook);
    }

    /// Ends every stream (the node is shutting down: a graceful shutdown waits for open
    /// responses, and an event stream never ends by itself). Browsers reconnect to another node.
    pub fn close_all(&self) {
        self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
        // Dropping the senders ends every receiver's stream.
        self.channels
            .lock()
            .expect("seat event hub poisoned")
            .clear();
        self.all.lock().expect("seat event hub poisoned").take();
    }

    /// A watcher of every presentation's changes (which presentation, not what changed): the
    /// staff figures stream, which re-reads the figures of the days and places it touches.
    pub fn subscribe_all(&self) -> broadcast::Receiver<Option<PresentationId>> {
        match self.all.lock().expect("seat event hub poisoned").as_ref() {
            Some(all) => all.subscribe(),
            None => broadcast::channel(1).1,
        }
    }

    fn tell_all(&self, presentation: Option<PresentationId>) {
        if let Some(all) = self.all.lock().expect("seat event hub poisoned").as_ref() {
            // No watcher is not an error.
            let _ = all.send(presentation);
        }
    }

    /// Counts a new stream of `address` unless it already has `cap` open (0: no cap); the
    /// permit is held for as long as the stream lasts.
    pub fn open_stream(&self, address: &str, cap: usize) -> Option<StreamPermit> {
        let mut counts = self
            .streams_by_address
            .lock()
            .expect("seat event hub poisoned");
        let n = counts.entry(address.to_owned()).or_insert(0);
        if cap > 0 && *n >= cap {
            return None;
        }
        *n += 1;
        Some(StreamPermit {
            address: address.to_owned(),
            counts: self.streams_by_address.clone(),
        })
    }

    /// A watcher of one presentation.
    pub fn subscribe(&self, presentation_id: PresentationId) -> broadcast::Receiver<Arc<Outgoing>> {
        let mut channels = self.channels.lock().expect("seat event hub poisoned");
        if self.closed.load(std::sync::atomic::Ordering::SeqCst) {
            // A receiver whose sender is gone: its stream ends at once.
            return broadcast::channel(1).1;
        }
        channels
            .entry(presentation_id)
            .or_insert_with(|| broadcast::channel(BACKLOG).0)
            .subscribe()
    }

    /// Delivers an event to this node's watchers only (events heard from other nodes).
    pub fn deliver_remote(&self, event: &SeatEvent) {
        self.deliver_local(event);
    }

    fn deliver_local(&self, event: &SeatEvent) {
        if let Some(hook) = self.on_event.get() {
            hook(Some(event));
        }
        if let Some(hook) = self.on_change.get() {
            hook(Some(event.presentation_id));
        }
        self.tell_all(Some(event.presentation_id));
        let sender = {
            let mut channels = self.channels.lock().expect("seat event hub poisoned");
            match channels.get(&event.presentation_id) {
                Some(s) if s.receiver_count() == 0 => {
                    // Nobody watches any more: forget the channel.
                    channels.remove(&event.presentation_id);
                    None
                }
                Some(s) => Some(s.clone()),
                None => None,
            }
        };
        if let Some(sender) = sender {
            let data = serde_json::to_string(event).expect("a seat event serialises");
            let _ = sender.send(Arc::new(Outgoing {
                name: "seats",
                data,
            }));
        }
    }

    /// Tells every watcher to reload the status: events may have been missed (the cross-node
    /// listener lost its connection).
    pub fn resync_all(&self) {
        if let Some(hook) = self.on_event.get() {
            hook(None);
        }
        if let Some(hook) = self.on_change.get() {
            hook(None);
        }
        self.tell_all(None);
        let senders: Vec<_> = {
            let channels = self.channels.lock().expect("seat event hub poisoned");
            channels.values().cloned().collect()
        };
        let resync = Arc::new(Outgoing {
            name: "resync",
            data: "{}".into(),
        });
        for s in senders {
            let _ = s.send(resync.clone());
        }
    }
}

impl SeatEventSink for SeatEventHub {
    fn publish(&self, event: SeatEvent) {
        self.deliver_local(&event);
        if let Some(relay) = self.relay.get()
            && relay.try_send(event).is_err()
        {
            let n = self
                .relay_dropped
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if n.is_power_of_two() {
                tracing::warn!(
                    dropped = n + 1,
                    "the cross-node seat event relay is behind; events dropped (other nodes' maps catch up by polling)"
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kupa_app::seat_events::SeatChangeKind;

    fn event(p: i64) -> SeatEvent {
        SeatEvent::new(
            PresentationId(p),
            SeatChangeKind::Held,
            [kupa_app::ports::SeatAddress {
                section_id: 1,
                x: 2,
                y: 3,
            }],
        )
    }

    #[tokio::test]
    async fn watchers_get_their_presentations_events_only() {
        let hub = SeatEventHub::new();
        let mut a = hub.subscribe(PresentationId(1));
        let mut b = hub.subscribe(PresentationId(2));
        hub.publish(event(1));
        let got = a.recv().await.unwrap();
        assert_eq!(got.name, "seats");
        assert!(got.data.contains("\"presentationId\":1"), "{}", got.data);
        assert!(
            b.try_recv().is_err(),
            "presentation 2's watcher heard presentation 1"
        );
    }

    #[tokio::test]
    async fn a_slow_watcher_falls_behind_without_holding_up_a_fast_one() {
        let hub = SeatEventHub::new();
        let mut slow = hub.subscribe(PresentationId(1));
        let mut fast = hub.subscribe(PresentationId(1));
        for _ in 0..(BACKLOG + 10) {
            hub.publish(event(1));
            fast.recv().await.unwrap();
        }
        assert!(matches!(
            slow.recv().await,
            Err(broadcast::error::RecvError::Lagged(_))
        ));
    }

    #[tokio::test]
    async fn local_events_go_to_the_relay_and_remote_ones_do_not() {
        let hub = SeatEventHub::new();
        let mut relay = hub.attach_relay().unwrap();
        assert!(hub.attach_relay().is_none(), "one relay per hub");
        let mut w = hub.subscribe(PresentationId(1));
        hub.publish(event(1));
        assert_eq!(
            relay.recv().await.unwrap().presentation_id,
            PresentationId(1)
        );
        hub.deliver_remote(&event(1));
        assert!(relay.try_recv().is_err(), "a remote event went back out");
        w.recv().await.unwrap();
        w.recv().await.unwrap();
        hub.resync_all();
        assert_eq!(w.recv().await.unwrap().name, "resync");
    }

    #[test]
    fn an_address_gets_streams_up_to_its_cap_and_a_closed_one_frees_its_place() {
        let hub = SeatEventHub::new();
        let a1 = hub.open_stream("10.0.0.1", 2).unwrap();
        let _a2 = hub.open_stream("10.0.0.1", 2).unwrap();
        assert!(hub.open_stream("10.0.0.1", 2).is_none());
        assert!(hub.open_stream("10.0.0.2", 2).is_some(), "another address");
        drop(a1);
        assert!(hub.open_stream("10.0.0.1", 2).is_some());
        assert!(hub.open_stream("10.0.0.1", 0).is_some(), "0 is no cap");
    }

    #[tokio::test]
    async fn the_all_watcher_hears_every_presentation_and_resyncs() {
        let hub = SeatEventHub::new();
        let mut all = hub.subscribe_all();
        hub.publish(event(1));
        hub.deliver_remote(&event(2));
        hub.resync_all();
        assert_eq!(all.recv().await.unwrap(), Some(PresentationId(1)));
        assert_eq!(all.recv().await.unwrap(), Some(PresentationId(2)));
        assert_eq!(all.recv().await.unwrap(), None);
        hub.close_all();
        assert!(matches!(
            all.recv().await,
            Err(broadcast::error::RecvError::Closed)
        ));
    }

    #[tokio::test]
    async fn closing_ends_every_stream_and_refuses_new_ones() {
        let hub = SeatEventHub::new();
        let mut w = hub.subscribe(PresentationId(1));
        hub.close_all();
        assert!(matches!(
            w.recv().await,
            Err(broadcast::error::RecvError::Closed)
        ));
        let mut late = hub.subscribe(PresentationId(1));
        assert!(matches!(
            late.recv().await,
            Err(broadcast::error::RecvError::Closed)
        ));
    }
}
