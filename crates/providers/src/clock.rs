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

    pub fn advance_ms(&self, by_ms: i64) {
        self.offset_ms.fetch_add(by_ms, Ordering::SeqCst);
    }

    pub fn offset_ms(&self) -> i64 {
        self.offset_ms.load(Ordering::SeqCst)
    }
}

impl Clock for ServerClock {
    fn now_ms(&self) -> i64 {
        let wall = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as i64)
            .unwrap_or(0);
        wall + self.offset_ms()
    }
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
}
