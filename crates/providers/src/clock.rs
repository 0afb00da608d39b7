use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use kupa_app::ports::Clock;

/// The system clock plus an offset that only the test mode may move, so end-to-end tests and
/// benchmarks can jump past a hold's expiry instead of sitting out real minutes.
#[derive(Debug, Default)]
pub struct ServerClock {
    offset_ms: AtomicI64,
}

impl ServerClock {
    pub fn new() -> ServerClock {
        ServerClock::default()
    }

    /// A clock whose now is `ms` at this moment and runs on at the system clock's pace: tests
    /// start every app at the same instant, so what they find on sale never hangs on the hour
    /// they run at.
    pub fn starting_at(ms: i64) -> ServerClock {
        let c = ServerClock::new();
        c.advance_ms(ms - system_ms());
        c
    }

    pub fn advance_ms(&self, by_ms: i64) {
        self.offset_ms.fetch_add(by_ms, Ordering::SeqCst);
    }

    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }
}

impl Clock for ServerClock {
    fn now_ms(&self) -> i64 {
        system_ms() + self.offset_ms()
    }
}

fn system_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

impl kupa_app::ports::AdjustableClock for ServerClock {
    fn advance_ms(&self, by_ms: i64) {
        ServerClock::advance_ms(self, by_ms)
    }
    fn offset_ms(&self) -> i64 {
        ServerClock::offset_ms(self)
    }
}

/// A clock that stands still until told to move: for unit and store tests.
#[derive(Debug)]
pub struct FixedClock(AtomicI64);

impl FixedClock {
    pub fn at_ms(ms: i64) -> FixedClock {
        FixedClock(AtomicI64::new(ms))
    }

    pub fn set_ms(&self, ms: i64) {
        self.0.store(ms, Ordering::SeqCst);
    }
}

impl Clock for FixedClock {
    fn now_ms(&self) -> i64 {
        self.0.load(Ordering::SeqCst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn advancing_moves_now_forward_by_that_much() {
        let c = ServerClock::new();
        let before = c.now_ms();
        c.advance_ms(3_600_000);
        let after = c.now_ms();
        assert!(after - before >= 3_600_000 && after - before < 3_660_000);
    }

    #[test]
    fn a_clock_started_at_an_instant_runs_on_from_it() {
        let start = 1_907_474_400_000; // 2030-06-12T06:00:00Z
        let c = ServerClock::starting_at(start);
        let now = c.now_ms();
        assert!((start..start + 60_000).contains(&now), "{now}");
        c.advance_ms(1_000);
        assert!(c.now_ms() >= now + 1_000);
    }
}
