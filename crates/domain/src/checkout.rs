//! The checkout steps and their timers. Each step has its own length (the site's timer mode, by
//! key); entering a later step starts its timer; a step may be extended once; paying gets a fixed
//! window so a slow 3-D Secure check does not lose the seats. Pure: time comes in as `now_ms`.

use crate::codes::ErrorCode;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Step {
    Seats,
    Tickets,
    Products,
    CustomerInfo,
    Payment,
}

impl Step {
    pub fn as_str(self) -> &'static str {
        match self {
            Step::Seats => "seats",
            Step::Tickets => "tickets",
            Step::Products => "products",
            Step::CustomerInfo => "customerInfo",
            Step::Payment => "payment",
        }
    }

    pub fn parse(s: &str) -> Option<Step> {
        [
            Step::Seats,
            Step::Tickets,
            Step::Products,
            Step::CustomerInfo,
            Step::Payment,
        ]
        .into_iter()
        .find(|st| st.as_str() == s)
    }
}

/// Seconds per step, from the site config's timer mode (keys, not positions), and the payment window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StepTimers {
    pub choose_seats_s: i64,
    pub choose_tickets_s: i64,
    pub choose_products_s: i64,
    pub customer_info_s: i64,
    pub payment_window_s: i64,
    /// The most a chain of checkouts of one session and presentation may hold seats before
    /// paying, however its steps, extensions and restarts go (0: no ceiling). The payment window
    /// comes on top of it, once.
    pub ceiling_s: i64,
}

/// How long a started payment keeps the seats, whatever the step timers say.
pub const PAYMENT_WINDOW_SECONDS: i64 = 15 * 60;

impl StepTimers {
    pub fn seconds(&self, step: Step) -> i64 {
        match step {
            Step::Seats => self.choose_seats_s,
            Step::Tickets => self.choose_tickets_s,
            Step::Products => self.choose_products_s,
            Step::CustomerInfo => self.customer_info_s,
            Step::Payment => self.payment_window_s,
        }
        .max(1)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckoutState {
    pub step: Step,
    pub deadline_ms: i64,
    pub extended: bool,
    /// When the chain of checkouts began (a restart after expiry within the ceiling continues it).
    pub started_ms: i64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum StepError {
    #[error("the time for this step has run out")]
    Expired,
    #[error("this step was already extended once")]
    AlreadyExtended,
    #[error("a payment in progress cannot be extended")]
    PaymentNotExtendable,
    #[error("these holds have been renewed as long as they may be")]
    Ceiling,
}

impl StepError {
    pub fn code(self) -> ErrorCode {
        match self {
            StepError::Expired => ErrorCode::TimeExpired,
            StepError::AlreadyExtended | StepError::PaymentNotExtendable => {
                ErrorCode::ExtensionNotAllowed
            }
            StepError::Ceiling => ErrorCode::HoldLimitReached,
        }
    }
}

impl StepTimers {
    /// The end of the ceiling of a chain that began at `started_ms`, if there is a ceiling.
    fn ceiling_end(&self, started_ms: i64) -> Option<i64> {
        (self.ceiling_s > 0).then(|| started_ms + self.ceiling_s * 1000)
    }

    /// A deadline before paying, cut at the chain's ceiling.
    fn capped(&self, started_ms: i64, deadline_ms: i64) -> i64 {
        self.ceiling_end(started_ms)
            .map_or(deadline_ms, |end| deadline_ms.min(end))
    }
}

impl CheckoutState {
    /// A new checkout: choosing seats, with that step's full time.
    pub fn start(now_ms: i64, timers: &StepTimers) -> CheckoutState {
        CheckoutState {
            step: Step::Seats,
            deadline_ms: now_ms + timers.seconds(Step::Seats) * 1000,
            extended: false,
            started_ms: now_ms,
        }
    }

    /// The checkout that new holds of the session join at `now_ms`, after `earlier` (the
    /// session's last checkout of the presentation, if any): the earlier one while it is live; a
    /// restart that continues its chain while the chain is within the ceiling; `Ceiling` from the
    /// ceiling's end until as long again has passed; then a new chain.
    pub fn resume(
        earlier: Option<CheckoutState>,
        now_ms: i64,
        timers: &StepTimers,
    ) -> Result<(CheckoutState, bool), StepError> {
        let Some(earlier) = earlier else {
            return Ok((CheckoutState::start(now_ms, timers), true));
        };
        if earlier.is_live(now_ms) {
            return Ok((earlier, false));
        }
        match timers.ceiling_end(earlier.started_ms) {
            Some(end) if now_ms < end => {
                let fresh = CheckoutState::start(now_ms, timers);
                Ok((
                    CheckoutState {
                        started_ms: earlier.started_ms,
                        deadline_ms: timers.capped(earlier.started_ms, fresh.deadline_ms),
                        ..fresh
                    },
                    true,
                ))
            }
            Some(end) if now_ms < end + timers.ceiling_s * 1000 => Err(StepError::Ceiling),
            _ => Ok((CheckoutState::start(now_ms, timers), true)),
        }
    }

    pub fn is_live(&self, now_ms: i64) -> bool {
        now_ms < self.deadline_ms
    }

    /// Enters `to`: a later step gets its own full time (cut at the chain's ceiling before
    /// paying); the same or an earlier step changes nothing (going back to add a seat must not
    /// buy more time).
    pub fn advance(
        self,
        to: Step,
        now_ms: i64,
        timers: &StepTimers,
    ) -> Result<CheckoutState, StepError> {
        if !self.is_live(now_ms) {
            return Err(StepError::Expired);
        }
        if to <= self.step {
            return Ok(self);
        }
        let deadline_ms = now_ms + timers.seconds(to) * 1000;
        Ok(CheckoutState {
            step: to,
            deadline_ms: if to == Step::Payment {
                deadline_ms
            } else {
                timers.capped(self.started_ms, deadline_ms)
            },
            extended: false,
            started_ms: self.started_ms,
        })
    }

    /// The "Time expired" dialog's extension: once per step, before the deadline, never while
    /// paying, never past the chain's ceiling.
    pub fn extend(self, now_ms: i64, timers: &StepTimers) -> Result<CheckoutState, StepError> {
        if !self.is_live(now_ms) {
            return Err(StepError::Expired);
        }
        if self.step == Step::Payment {
            return Err(StepError::PaymentNotExtendable);
        }
        if self.extended {
            return Err(StepError::AlreadyExtended);
        }
        let deadline_ms = timers.capped(
            self.started_ms,
            self.deadline_ms + timers.seconds(self.step) * 1000,
        );
        if deadline_ms <= self.deadline_ms {
            return Err(StepError::Ceiling);
        }
        Ok(CheckoutState {
            deadline_ms,
            extended: true,
            ..self
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: StepTimers = StepTimers {
        choose_seats_s: 600,
        choose_tickets_s: 300,
        choose_products_s: 120,
        customer_info_s: 400,
        payment_window_s: 900,
        ceiling_s: 0,
    };

    /// A ceiling of 20 minutes.
    const C: StepTimers = StepTimers {
        ceiling_s: 1200,
        ..T
    };

    #[test]
    fn holds_are_not_renewed_past_the_ceiling() {
        // Steps and extensions are cut at the ceiling; paying still gets its whole window.
        let s = CheckoutState::start(0, &C).extend(1_000, &C).unwrap();
        assert_eq!(s.deadline_ms, 1_200_000);
        let s = s.advance(Step::Tickets, 1_100_000, &C).unwrap();
        assert_eq!(s.deadline_ms, 1_200_000, "cut at the ceiling");
        assert_eq!(s.extend(1_150_000, &C), Err(StepError::Ceiling));
        let paying = s.advance(Step::Payment, 1_190_000, &C).unwrap();
        assert_eq!(paying.deadline_ms, 2_090_000);
        // A restart after expiry continues the chain until the ceiling...
        let lapsed = CheckoutState::start(0, &C);
        let (again, new) = CheckoutState::resume(Some(lapsed), 700_000, &C).unwrap();
        assert!(new);
        assert_eq!((again.started_ms, again.deadline_ms), (0, 1_200_000));
        // ...then holds are refused for as long again...
        assert_eq!(
            CheckoutState::resume(Some(s), 1_200_000, &C),
            Err(StepError::Ceiling)
        );
        assert_eq!(
            CheckoutState::resume(Some(s), 2_399_999, &C),
            Err(StepError::Ceiling)
        );
        // ...and then a new chain begins.
        let (fresh, _) = CheckoutState::resume(Some(s), 2_400_000, &C).unwrap();
        assert_eq!(
            (fresh.started_ms, fresh.deadline_ms),
            (2_400_000, 3_000_000)
        );
        // Without a ceiling a restart is always a new chain; a live checkout is joined.
        let (fresh, _) = CheckoutState::resume(Some(s), 5_000_000, &T).unwrap();
        assert_eq!(fresh.started_ms, 5_000_000);
        assert_eq!(CheckoutState::resume(Some(s), 10, &C), Ok((s, false)));
    }

    #[test]
    fn each_step_gets_its_own_timer_by_key() {
        let s = CheckoutState::start(0, &T);
        assert_eq!(s.deadline_ms, 600_000);
        let s = s.advance(Step::Tickets, 100_000, &T).unwrap();
        assert_eq!((s.step, s.deadline_ms), (Step::Tickets, 400_000));
        let s = s.advance(Step::CustomerInfo, 200_000, &T).unwrap();
        assert_eq!(s.deadline_ms, 600_000);
        let s = s.advance(Step::Payment, 300_000, &T).unwrap();
        assert_eq!(s.deadline_ms, 1_200_000, "paying gets the fixed window");
    }

    #[test]
    fn going_back_buys_no_time_and_an_expired_checkout_cannot_move() {
        let s = CheckoutState::start(0, &T)
            .advance(Step::Tickets, 10_000, &T)
            .unwrap();
        assert_eq!(s.advance(Step::Seats, 20_000, &T).unwrap(), s);
        assert_eq!(
            s.advance(Step::Products, 310_000, &T),
            Err(StepError::Expired)
        );
    }

    #[test]
    fn a_step_extends_once_and_never_while_paying() {
        let s = CheckoutState::start(0, &T);
        let e = s.extend(500_000, &T).unwrap();
        assert_eq!(e.deadline_ms, 1_200_000);
        assert_eq!(e.extend(600_000, &T), Err(StepError::AlreadyExtended));
        let next = e.advance(Step::Tickets, 700_000, &T).unwrap();
        assert!(!next.extended, "a new step may be extended again");
        assert!(next.extend(701_000, &T).is_ok());
        assert_eq!(
            s.extend(600_000, &T),
            Err(StepError::Expired),
            "at the deadline it is too late"
        );
        let paying = next.advance(Step::Payment, 702_000, &T).unwrap();
        assert_eq!(
            paying.extend(703_000, &T),
            Err(StepError::PaymentNotExtendable)
        );
    }

    #[test]
    fn steps_round_trip_their_names() {
        for s in [
            Step::Seats,
            Step::Tickets,
            Step::Products,
            Step::CustomerInfo,
            Step::Payment,
        ] {
            assert_eq!(Step::parse(s.as_str()), Some(s));
        }
        assert_eq!(Step::parse("nope"), None);
    }
}
