//! The seat status's versioned snapshot of one presentation (decision 0060): the seats every
//! viewer sees alike (sold, held and by which session), a version that goes up by one whenever
//! that changes, and a bounded log of which seats each recent version changed, so a client that
//! names its version is told only those seats.
//!
//! The snapshot is rebuilt from the claims when something says it may be out of date: a seat
//! event of the presentation (this node's or, relayed, another's), a live hold's deadline passing
//! (the hold then reads as free at once, before any sweeper removes it), or `CLAIMS_TTL_MS`
//! without news. A rebuild that finds the same seats keeps the version; one that finds others
//! bumps it and logs the seats that differ. Versions are counted per node and per snapshot life:
//! `epoch` is drawn at random when a node first builds a presentation's snapshot, so a version
//! from another node (or an earlier process) never matches and gets the full answer.

use std::collections::{BTreeSet, HashMap, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use kupa_domain::catalogue::SeatState;
use kupa_domain::seating::SeatAddress;

use crate::model::Claim;

/// How many versions' changes a presentation keeps for `since` answers; a client further behind
/// gets the whole status.
pub const CHANGE_LOG_VERSIONS: usize = 256;

/// A seat's state as every viewer shares it (a free seat has none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SharedSeat {
    /// Held by this buyer session, and the hold still live.
    Held(Arc<str>),
    Sold,
}

/// A version of a presentation's seat status on this node.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct StatusVersion {
    /// Drawn when this node built the presentation's first snapshot.
    pub epoch: u32,
    /// 1 for the first snapshot, one more for each that differed from the one before.
    pub version: u64,
}

impl StatusVersion {
    /// The wire form: `<epoch in hex>.<version>`, e.g. `9f3a01c2.17`.
    pub fn token(&self) -> String {
        format!("{:08x}.{}", self.epoch, self.version)
    }

    pub fn parse(token: &str) -> Option<StatusVersion> {
        let (epoch, version) = token.split_once('.')?;
        if epoch.len() != 8 {
            return None;
        }
        Some(StatusVersion {
            epoch: u32::from_str_radix(epoch, 16).ok()?,
            version: version.parse().ok()?,
        })
    }
}

/// One presentation's shared seat states at one version.
#[derive(Debug)]
pub struct Snapshot {
    pub version: StatusVersion,
    /// Sold seats and live holds; every other seat of the plan is free.
    pub taken: HashMap<SeatAddress, SharedSeat>,
    /// The earliest deadline of a live hold (`i64::MAX` when there is none): from then on the
    /// snapshot is out of date, since that hold reads as free.
    pub next_deadline_ms: i64,
}

impl Snapshot {
    /// A seat as `viewer` sees it: their own live holds are theirs.
    pub fn state_for(&self, place: &SeatAddress, viewer: Option<&str>) -> SeatState {
        match self.taken.get(place) {
            None => SeatState::Available,
            Some(SharedSeat::Sold) => SeatState::Sold,
            Some(SharedSeat::Held(s)) if Some(&**s) == viewer => SeatState::HeldByMe,
            Some(SharedSeat::Held(_)) => SeatState::HeldByOther,
        }
    }

    /// The seats `viewer` holds, in order (part of what makes their answer theirs).
    pub fn held_by(&self, viewer: Option<&str>) -> BTreeSet<SeatAddress> {
        let Some(viewer) = viewer else {
            return BTreeSet::new();
        };
        self.taken
            .iter()
            .filter(|(_, s)| matches!(s, SharedSeat::Held(h) if &**h == viewer))
            .map(|(a, _)| *a)
            .collect()
    }
}

/// The claims as every viewer sees them at `now_ms` (an expired hold is free), and the earliest
/// deadline of the live holds.
fn shared_states(claims: &[Claim], now_ms: i64) -> (HashMap<SeatAddress, SharedSeat>, i64) {
    let mut sessions: HashMap<&str, Arc<str>> = HashMap::new();
    let mut taken = HashMap::with_capacity(claims.len());
    let mut next_deadline_ms = i64::MAX;
    for c in claims {
        let state = if c.sold {
            SharedSeat::Sold
        } else if c.view().is_live_hold(now_ms) {
            next_deadline_ms = next_deadline_ms.min(c.expires_at_ms);
            let s = sessions
                .entry(c.session_id.as_str())
                .or_insert_with(|| Arc::from(c.session_id.as_str()));
            SharedSeat::Held(s.clone())
        } else {
            continue;
        };
        taken.insert(c.address(), state);
    }
    (taken, next_deadline_ms)
}

/// A presentation's snapshot, its change log and what says it may be out of date.
pub(super) struct Entry {
    current: Option<Arc<Snapshot>>,
    epoch: u32,
    /// False once a change is announced: the next read builds a new snapshot.
    fresh: bool,
    /// When the claims of `current` began to be read: an older read never replaces it.
    read_started: Instant,
    /// Bumped by every announced change: a read that began before one does not make the entry
    /// fresh.
    pub(super) generation: u64,
    /// The seats each recent version changed, oldest first.
    log: VecDeque<(u64, Vec<SeatAddress>)>,
    /// Held while a read rebuilds the snapshot, so the readers who find it out of date at once
    /// wait for one read of the claims instead of each making their own.
    pub(super) rebuild: Arc<tokio::sync::Mutex<()>>,
}

impl Entry {
    pub(super) fn new() -> Entry {
        Entry {
            current: None,
            epoch: rand::random(),
            fresh: false,
            read_started: Instant::now(),
            generation: 0,
            log: VecDeque::new(),
            rebuild: Arc::new(tokio::sync::Mutex::new(())),
        }
    }

    /// Something changed (or may have): the next read builds the snapshot again.
    pub(super) fn changed(&mut self) {
        self.generation += 1;
        self.fresh = false;
    }

    /// The snapshot, if it can be served as it is at `now_ms`.
    pub(super) fn serve(&self, now_ms: i64, ttl_ms: u64) -> Option<Arc<Snapshot>> {
        let s = self.current.as_ref()?;
        (self.fresh
            && self.read_started.elapsed().as_millis() < u128::from(ttl_ms)
            && now_ms < s.next_deadline_ms)
            .then(|| s.clone())
    }

    /// The snapshot, if its claims were read from `asked` on and no hold has run out since.
    pub(super) fn read_since(&self, asked: Instant, now_ms: i64) -> Option<Arc<Snapshot>> {
        let s = self.current.as_ref()?;
        (self.read_started >= asked && now_ms < s.next_deadline_ms).then(|| s.clone())
    }

    /// How long ago the snapshot's claims were read (for evicting idle entries).
    pub(super) fn age_ms(&self) -> u128 {
        self.read_started.elapsed().as_millis()
    }

    /// Installs the claims read from `started` on (while the entry was at `generation`), as
    /// seen at `now_ms`, and returns the snapshot to answer with: the new one, or the current
    /// one when it was read later than these claims.
    pub(super) fn install(
        &mut self,
        claims: &[Claim],
        now_ms: i64,
        started: Instant,
        generation: u64,
    ) -> Arc<Snapshot> {
        if let Some(current) = &self.current
            && started < self.read_started
        {
            return current.clone();
        }
        let (taken, next_deadline_ms) = shared_states(claims, now_ms);
        let version = match &self.current {
            None => 1,
            Some(old) => {
                let mut changed: Vec<SeatAddress> = old
                    .taken
                    .iter()
                    .filter(|(a, s)| taken.get(a) != Some(s))
                    .map(|(a, _)| *a)
                    .chain(taken.keys().filter(|a| !old.taken.contains_key(a)).copied())
                    .collect();
                if changed.is_empty() {
                    old.version.version
                } else {
                    changed.sort();
                    let v = old.version.version + 1;
                    self.log.push_back((v, changed));
                    while self.log.len() > CHANGE_LOG_VERSIONS {
                        self.log.pop_front();
                    }
                    v
                }
            }
        };
        let snapshot = Arc::new(Snapshot {
            version: StatusVersion {
                epoch: self.epoch,
                version,
            },
            taken,
            next_deadline_ms,
        });
        self.current = Some(snapshot.clone());
        self.read_started = started;
        self.fresh = generation == self.generation;
        snapshot
    }

    /// The seats that changed after `since` up to `current`, or None when that cannot be told
    /// (another epoch, a version not yet reached, or one older than the log reaches).
    pub(super) fn changes_since(
        &self,
        since: StatusVersion,
        current: &Snapshot,
    ) -> Option<Vec<SeatAddress>> {
        let now = current.version;
        if since.epoch != now.epoch || since.version > now.version || since.version == 0 {
            return None;
        }
        if since.version == now.version {
            return Some(Vec::new());
        }
        // Every version after `since` must still be in the log.
        let oldest = self.log.front()?.0;
        if since.version + 1 < oldest {
            return None;
        }
        let mut seats: BTreeSet<SeatAddress> = BTreeSet::new();
        for (v, changed) in &self.log {
            if *v > since.version && *v <= now.version {
                seats.extend(changed.iter().copied());
            }
        }
        Some(seats.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn claim(x: i64, session: &str, sold: bool, expires_at_ms: i64) -> Claim {
        Claim {
            presentation_id: crate::model::PresentationId(1),
            section_id: 1,
            x,
            y: 1,
            session_id: session.into(),
            sold,
            expires_at_ms,
        }
    }

    fn at(x: i64) -> SeatAddress {
        SeatAddress::new(1, x, 1)
    }

    #[test]
    fn the_same_seats_keep_the_version_and_a_change_bumps_it_and_is_logged() {
        let mut e = Entry::new();
        let t = Instant::now();
        let s1 = e.install(&[claim(1, "a", false, 100)], 0, t, 0);
        assert_eq!(s1.version.version, 1);
        let s2 = e.install(&[claim(1, "a", false, 100)], 10, Instant::now(), 0);
        assert_eq!(s2.version, s1.version, "nothing changed");
        let s3 = e.install(
            &[claim(1, "b", false, 100), claim(2, "a", true, 0)],
            10,
            Instant::now(),
            0,
        );
        assert_eq!(s3.version.version, 2);
        assert_eq!(e.changes_since(s1.version, &s3), Some(vec![at(1), at(2)]));
        assert_eq!(e.changes_since(s3.version, &s3), Some(vec![]));
        assert_eq!(s3.state_for(&at(1), Some("a")), SeatState::HeldByOther);
        assert_eq!(s3.state_for(&at(1), Some("b")), SeatState::HeldByMe);
        assert_eq!(s3.state_for(&at(2), Some("a")), SeatState::Sold);
        assert_eq!(s3.state_for(&at(3), None), SeatState::Available);
    }

    #[test]
    fn an_expired_hold_is_free_and_the_snapshot_is_stale_at_its_deadline() {
        let mut e = Entry::new();
        let s = e.install(&[claim(1, "a", false, 100)], 0, Instant::now(), 0);
        assert_eq!(s.next_deadline_ms, 100);
        assert!(e.serve(99, 1_000).is_some());
        assert!(e.serve(100, 1_000).is_none(), "the hold ran out");
        let s2 = e.install(&[claim(1, "a", false, 100)], 100, Instant::now(), 0);
        assert_eq!(s2.state_for(&at(1), Some("a")), SeatState::Available);
        assert_eq!(s2.version.version, 2, "the expiry is a change");
        assert_eq!(e.changes_since(s.version, &s2), Some(vec![at(1)]));
    }

    #[test]
    fn an_announced_change_makes_the_next_read_rebuild() {
        let mut e = Entry::new();
        e.install(&[], 0, Instant::now(), 0);
        assert!(e.serve(0, 1_000).is_some());
        e.changed();
        assert!(e.serve(0, 1_000).is_none());
        // A read that began before the change answers but leaves the entry stale.
        e.install(&[], 0, Instant::now(), 0);
        assert!(e.serve(0, 1_000).is_none());
        e.install(&[], 0, Instant::now(), e.generation);
        assert!(e.serve(0, 1_000).is_some());
    }

    #[test]
    fn a_reader_takes_a_rebuild_that_read_after_it_asked_even_if_stale_since() {
        let mut e = Entry::new();
        let asked = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(2));
        e.install(&[claim(1, "a", false, 100)], 0, Instant::now(), 0);
        e.changed();
        assert!(
            e.serve(0, 1_000).is_none(),
            "stale for a reader who asks now"
        );
        assert!(
            e.read_since(asked, 0).is_some(),
            "new enough for one who asked before it"
        );
        assert!(e.read_since(Instant::now(), 0).is_none());
        assert!(
            e.read_since(asked, 100).is_none(),
            "not past a hold's deadline"
        );
    }

    #[test]
    fn an_older_read_never_replaces_a_newer_one() {
        let mut e = Entry::new();
        let early = Instant::now();
        std::thread::sleep(std::time::Duration::from_millis(2));
        let newer = e.install(&[claim(1, "a", false, 100)], 0, Instant::now(), 0);
        let got = e.install(&[], 0, early, 0);
        assert_eq!(got.version, newer.version);
        assert!(got.taken.contains_key(&at(1)));
    }

    #[test]
    fn a_version_of_another_epoch_or_past_the_log_gets_no_changes() {
        let mut e = Entry::new();
        let first = e.install(&[], 0, Instant::now(), 0);
        let mut last = first.clone();
        for x in 0..(CHANGE_LOG_VERSIONS as i64 + 2) {
            last = e.install(&[claim(x, "a", true, 0)], 0, Instant::now(), 0);
        }
        assert_eq!(
            e.changes_since(first.version, &last),
            None,
            "older than the log"
        );
        let recent = StatusVersion {
            version: last.version.version - 1,
            ..last.version
        };
        assert_eq!(e.changes_since(recent, &last).map(|c| c.len()), Some(2));
        let other_node = StatusVersion {
            epoch: last.version.epoch.wrapping_add(1),
            ..recent
        };
        assert_eq!(e.changes_since(other_node, &last), None);
        let ahead = StatusVersion {
            version: last.version.version + 1,
            ..last.version
        };
        assert_eq!(e.changes_since(ahead, &last), None);
    }

    #[test]
    fn the_version_token_reads_back() {
        let v = StatusVersion {
            epoch: 0x9f3a01c2,
            version: 17,
        };
        assert_eq!(v.token(), "9f3a01c2.17");
        assert_eq!(StatusVersion::parse("9f3a01c2.17"), Some(v));
        assert_eq!(StatusVersion::parse("9f3a01c2"), None);
        assert_eq!(StatusVersion::parse("zz.1"), None);
    }
}
