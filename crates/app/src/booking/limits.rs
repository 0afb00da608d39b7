//! The limits that follow the buyer rather than the session (decision 0019): seats held at once
//! per client address and per logged-in customer across all their sessions, and the ceiling of
//! one session's holds of a presentation (in the step timers, `StepTimers::ceiling_s`).

use super::*;
use kupa_domain::ids::SessionId;

/// The limits that follow the buyer rather than the session (a client can always ask for another
/// session): seats held live at once per client address and per logged-in customer, across all
/// their sessions, and the ceiling of a session's holds of one presentation (steps, extensions and
/// restarts together; the payment window comes on top). None: no limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HoldLimits {
    pub per_address: Option<u32>,
    pub per_customer: Option<u32>,
    pub ceiling_seconds: Option<u32>,
}

impl Default for HoldLimits {
    /// A box office's defaults: an office or a campus shares one address, so the address limit is
    /// a few families' worth; a customer needs no more than two full transactions.
    fn default() -> HoldLimits {
        HoldLimits {
            per_address: Some(40),
            per_customer: Some(20),
            ceiling_seconds: Some(45 * 60),
        }
    }
}

impl HoldLimits {
    pub fn off() -> HoldLimits {
        HoldLimits {
            per_address: None,
            per_customer: None,
            ceiling_seconds: None,
        }
    }

    /// `off`, or rules like `address=40,customer=20,ceiling=45m` over the defaults (a rule
    /// `address=off` lifts one limit; the ceiling takes s, m or h).
    pub fn parse(text: &str) -> Result<HoldLimits, String> {
        let text = text.trim();
        if text == "off" {
            return Ok(HoldLimits::off());
        }
        let mut limits = HoldLimits::default();
        for rule in text.split(',').map(str::trim).filter(|r| !r.is_empty()) {
            let (key, value) = rule
                .split_once('=')
                .ok_or_else(|| format!("{rule:?}: write key=value"))?;
            let value = value.trim();
            let number = |v: &str| -> Result<Option<u32>, String> {
                if v == "off" {
                    return Ok(None);
                }
                v.parse::<u32>()
                    .ok()
                    .filter(|n| *n > 0)
                    .map(Some)
                    .ok_or_else(|| format!("{rule:?}: a positive number or off"))
            };
            match key.trim() {
                "address" => limits.per_address = number(value)?,
                "customer" => limits.per_customer = number(value)?,
                "ceiling" => {
                    limits.ceiling_seconds = if value == "off" {
                        None
                    } else {
                        let (n, unit) = value.split_at(value.len().saturating_sub(1));
                        let scale = match unit {
                            "s" => 1,
                            "m" => 60,
                            "h" => 3600,
                            _ => return Err(format!("{rule:?}: a time like 45m")),
                        };
                        Some(number(n)?.ok_or_else(|| format!("{rule:?}: a time"))? * scale)
                    }
                }
                other => {
                    return Err(format!(
                        "{other:?}: not a hold limit (address, customer, ceiling)"
                    ));
                }
            }
        }
        Ok(limits)
    }
}

/// Who is holding, for the limits that follow the buyer: the client address and the customer
/// logged in (if any).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Holder {
    pub address: String,
    pub customer_id: Option<i64>,
}

impl BookingService {
    /// Refuses `new` more seats when the buyer's address or customer would then hold more than
    /// allowed across all their sessions (`holdLimitReached`); records who the session holds for.
    /// Two locks of one buyer at the same instant may both pass: the limit can be passed by the
    /// seats of calls in flight, never more.
    pub(super) async fn check_hold_limits(
        &self,
        session: &SessionId,
        holder: &Holder,
        new: usize,
        now: i64,
    ) -> AppResult<()> {
        let Some(holders) = &self.holders else {
            return Ok(());
        };
        if new == 0 || (self.limits.per_address.is_none() && self.limits.per_customer.is_none()) {
            return Ok(());
        }
        holders
            .record_holder(session, &holder.address, holder.customer_id, now)
            .await?;
        let refuse = |scope: &str, limit: u32, held: i64| {
            tracing::info!(scope, limit, held, "hold limit reached");
            AppError::rejected_with(
                ErrorCode::HoldLimitReached,
                format!(
                    "you already hold {held} seats, and at most {limit} may be held at once; complete an order or release seats"
                ),
                serde_json::json!({ "scope": scope, "limit": limit, "held": held }),
            )
        };
        if let Some(limit) = self.limits.per_address {
            let held = holders.live_holds_of_address(&holder.address, now).await?;
            if held + new as i64 > i64::from(limit) {
                return Err(refuse("address", limit, held));
            }
        }
        if let (Some(limit), Some(customer)) = (self.limits.per_customer, holder.customer_id) {
            let held = holders.live_holds_of_customer(customer, now).await?;
            if held + new as i64 > i64::from(limit) {
                return Err(refuse("customer", limit, held));
            }
        }
        Ok(())
    }
}
