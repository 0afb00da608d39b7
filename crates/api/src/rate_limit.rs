//! Abuse limits on the calls a bot would hammer: seat locks and best-available (holding a hall
//! hostage), SMS sends (cost, and harassing a number), login code checks (guessing), and the
//! lookups of ticket codes and vouchers and the cart that prices them (guessing codes). Each call
//! class is limited per buyer session and per client address with token buckets; over the limit
//! the answer is 429 `tooManyRequests` with a Retry-After header, before the call does anything.
//!
//! Limits are per node (in memory): with N nodes behind a balancer a client gets at most N times
//! the limit, which is still a limit. Configured by `KUPA_RATE_LIMITS` (docs/configuration.md).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Request, State};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::buyer_session::BuyerSession;
use crate::error::ApiError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Class {
    /// PUT /seats/lock-seat and GET /seats/best-available.
    Lock,
    /// POST /customer/mobile-login and POST /reservations/{id}/sendTickets: text messages.
    Sms,
    /// POST /customer/mobile-login-validation-area: login code checks.
    Login,
    /// GET /presentations/{id}/ticket and GET /payment/voucher: ticket code and voucher lookups,
    /// each an answer to "does this code exist?".
    Code,
    /// POST /cart: it prices ticket codes, vouchers and member numbers, so it answers the same.
    Cart,
    /// POST /staff/door/scan (decision 0044): checked by the call itself, its "session" being the
    /// staff user (an usher's scans, from whichever browser), so a stolen staff login cannot walk
    /// the reservation numbers.
    Door,
    /// GET /mini-site/validate/{url} (decision 0048): checked by the call itself, its "session"
    /// being the mini-site, so its key (or a guess at it) cannot walk the ticket numbers.
    Validate,
    /// POST /inquiries: the marketing pages' forms, each kept and mailed to the chain
    /// (decision 0051), so a bot cannot fill the table or the chain's mailbox.
    Form,
    /// POST /client-errors: the web app's error reports (decision 0055), written to the log, so
    /// a page in a loop or a bot cannot flood it.
    Report,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Scope {
    Session,
    Address,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    pub class: Class,
    pub scope: Scope,
    /// Calls allowed in one period (also the burst).
    pub limit: u32,
    pub period: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RateLimits {
    pub rules: Vec<Rule>,
}

impl Default for RateLimits {
    /// What a box office runs with unless told otherwise: a buyer clicking seats, even fast, stays
    /// far below these; an address may be a whole office or a phone carrier's NAT.
    fn default() -> Self {
        RateLimits::parse(
            "lock.session=60/1m,lock.address=600/1m,sms.session=5/10m,sms.address=30/10m,\
             login.session=10/10m,login.address=100/10m,code.session=20/10m,\
             code.address=200/10m,cart.session=60/10m,cart.address=600/10m,\
             door.session=120/1m,door.address=600/1m,\
             validate.session=120/1m,validate.address=300/1m,\
             form.session=5/10m,form.address=30/10m,\
             report.session=30/10m,report.address=300/10m",
        )
        .expect("the default limits parse")
    }
}

impl RateLimits {
    /// No limits at all (benchmarks): `KUPA_RATE_LIMITS=off`.
    pub fn off() -> RateLimits {
        RateLimits { rules: Vec::new() }
    }

    /// `off`, or comma-separated `class.scope=N/period` (class lock, sms or login; scope session
    /// or address; period like 10s, 1m, 1h). Rules not given keep their defaults.
    pub fn parse(text: &str) -> Result<RateLimits, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("off") {
            return Ok(RateLimits::off());
        }
        let mut rules: Vec<Rule> = Vec::new();
        for item in text.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (key, value) = item
                .split_once('=')
                .ok_or_else(|| format!("`{item}`: expected class.scope=N/period"))?;
            let (class, scope) = key
                .trim()
                .split_once('.')
                .ok_or_else(|| format!("`{key}`: expected class.scope, e.g. lock.session"))?;
            let class = match class {
                "lock" => Class::Lock,
                "sms" => Class::Sms,
                "login" => Class::Login,
                "code" => Class::Code,
                "cart" => Class::Cart,
                "door" => Class::Door,
                "validate" => Class::Validate,
                "form" => Class::Form,
                "report" => Class::Report,
                other => {
                    return Err(format!(
                        "unknown call class `{other}` (lock, sms, login, code, cart, door, validate, form, report)"
                    ));
                }
            };
            let scope = match scope {
                "session" => Scope::Session,
                "address" => Scope::Address,
                other => return Err(format!("unknown scope `{other}` (session, address)")),
            };
            let (limit, period) = value
                .trim()
                .split_once('/')
                .ok_or_else(|| format!("`{value}`: expected N/period, e.g. 60/1m"))?;
            let limit: u32 = limit
                .parse()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("`{limit}`: the limit must be a positive number"))?;
            let period = parse_period(period)?;
            rules.retain(|r| !(r.class == class && r.scope == scope));
            rules.push(Rule {
                class,
                scope,
                limit,
                period,
            });
        }
        Ok(RateLimits { rules })
    }

    /// These rules over the defaults (a rule given replaces the default of its class and scope).
    pub fn over_defaults(self) -> RateLimits {
        let mut all = RateLimits::default().rules;
        for r in self.rules {
            all.retain(|d| !(d.class == r.class && d.scope == r.scope));
            all.push(r);
        }
        RateLimits { rules: all }
    }
}

fn parse_period(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (n, unit) = s.split_at(s.find(|c: char| !c.is_ascii_digit()).unwrap_or(s.len()));
    let n: u64 = if n.is_empty() {
        1
    } else {
        n.parse().map_err(|_| format!("bad period `{s}`"))?
    };
    let seconds = match unit {
        "s" => n,
        "m" => n * 60,
        "h" => n * 3600,
        _ => return Err(format!("bad period `{s}` (use s, m or h, e.g. 10s, 1m)")),
    };
    if seconds == 0 {
        return Err(format!("bad period `{s}`"));
    }
    Ok(Duration::from_secs(seconds))
}

pub fn class_of(method: &Method, path: &str) -> Option<Class> {
    match (method, path) {
        (&Method::PUT, "/api/seats/lock-seat") | (&Method::GET, "/api/seats/best-available") => {
            Some(Class::Lock)
        }
        // Calls that send a text message or a mail.
        (
            &Method::POST,
            "/api/customer/mobile-login"
            | "/api/customer-area/mobile-login"
            | "/api/customer/register"
            | "/api/customer/password-reset"
            | "/api/customer/mail-login"
            | "/api/customer-area/email-change"
            | "/api/customer-area/mobile-change",
        ) => Some(Class::Sms),
        (&Method::POST, p)
            if p.starts_with("/api/reservations/") && p.ends_with("/sendTickets") =>
        {
            Some(Class::Sms)
        }
        // Calls that check a secret (a code, a password, a token, a reservation's contact).
        (
            &Method::POST,
            "/api/customer/mobile-login-validation-area"
            | "/api/customer-area/mobile-login-validation"
            | "/api/customer/login"
            | "/api/customer/member-login"
            | "/api/customer/reservation-login"
            | "/api/customer/token-login"
            | "/api/customer/mail-code-login"
            | "/api/customer/verify-email"
            | "/api/customer/password-reset/confirm"
            | "/api/customer-area/email-change/confirm"
            | "/api/customer-area/mobile-change/confirm",
        ) => Some(Class::Login),
        (&Method::GET, "/api/payment/voucher") => Some(Class::Code),
        (&Method::GET, p) if p.starts_with("/api/presentations/") && p.ends_with("/ticket") => {
            Some(Class::Code)
        }
        (&Method::POST, "/api/cart") => Some(Class::Cart),
        (&Method::POST, "/api/inquiries") => Some(Class::Form),
        (&Method::POST, "/api/client-errors") => Some(Class::Report),
        _ => None,
    }
}

struct Bucket {
    tokens: f64,
    at: Instant,
}

const SHARDS: usize = 16;
/// Buckets kept per shard before idle ones are forgotten.
const SHARD_SOFT_CAP: usize = 50_000;

pub struct RateLimiter {
    limits: RateLimits,
    shards: Vec<Mutex<HashMap<(usize, String), Bucket>>>,
}

impl RateLimiter {
    pub fn new(limits: RateLimits) -> RateLimiter {
        RateLimiter {
            limits,
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    /// Takes one call from every bucket that applies; on refusal, how long until one is free.
    /// A refused call takes nothing (so a client that waits as told gets through).
    pub fn check(
        &self,
        class: Class,
        session: &str,
        address: &str,
        now: Instant,
    ) -> Result<(), Duration> {
        let mut wait = Duration::ZERO;
        let applicable: Vec<(usize, &Rule, &str)> = self
            .limits
            .rules
            .iter()
            .enumerate()
            .filter(|(_, r)| r.class == class)
            .map(|(i, r)| {
                let key = match r.scope {
                    Scope::Session => session,
                    Scope::Address => address,
                };
                (i, r, key)
            })
            .collect();
        // First look, then take: a refusal by one rule must not spend another's tokens.
        for (i, rule, key) in &applicable {
            if let Some(w) = self.with_bucket(*i, rule, key, now, |b, _| {
                if b.tokens >= 1.0 {
                    None
                } else {
                    Some(b.tokens)
                }
            }) {
                let per_token = rule.period.as_secs_f64() / rule.limit as f64;
                wait = wait.max(Duration::from_secs_f64((1.0 - w) * per_token));
            }
        }
        if wait > Duration::ZERO {
            return Err(wait);
        }
        for (i, rule, key) in &applicable {
            self.with_bucket(*i, rule, key, now, |b, _| {
                b.tokens -= 1.0;
                None::<()>
            });
        }
        Ok(())
    }

    fn with_bucket<T>(
        &self,
        rule_index: usize,
        rule: &Rule,
        key: &str,
        now: Instant,
        f: impl FnOnce(&mut Bucket, &Rule) -> Option<T>,
    ) -> Option<T> {
        let shard = {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (rule_index, key).hash(&mut h);
            (h.finish() as usize) % SHARDS
        };
        let mut map = self.shards[shard].lock().expect("rate limiter poisoned");
        let capacity = rule.limit as f64;
        let rate = capacity / rule.period.as_secs_f64();
        if map.len() > SHARD_SOFT_CAP {
            // Forget buckets that have refilled: they hold no state worth keeping.
            map.retain(|(i, _), b| {
                let r = &self.limits.rules[*i];
                let refill = r.limit as f64 / r.period.as_secs_f64();
                b.tokens + now.saturating_duration_since(b.at).as_secs_f64() * refill
                    < r.limit as f64
            });
        }
        let b = map.entry((rule_index, key.to_owned())).or_insert(Bucket {
            tokens: capacity,
            at: now,
        });
        let elapsed = now.saturating_duration_since(b.at).as_secs_f64();
        b.tokens = (b.tokens + elapsed * rate).min(capacity);
        b.at = now;
        f(b, rule)
    }
}

/// What the limits layer works with: the node's buckets (the client's address comes with the
/// buyer session, which the session layer found as the trust in X-Forwarded-For says).
#[derive(Clone)]
pub struct Gate {
    pub limiter: Arc<RateLimiter>,
}

pub async fn middleware(State(gate): State<Gate>, req: Request, next: Next) -> Response {
    let Some(class) = class_of(req.method(), req.uri().path()) else {
        return next.run(req).await;
    };
    let (session, address) = req
        .extensions()
        .get::<BuyerSession>()
        .map(|s| (s.id().as_str().to_owned(), s.address().to_owned()))
        .unwrap_or_default();
    match gate
        .limiter
        .check(class, &session, &address, Instant::now())
    {
        Ok(()) => next.run(req).await,
        Err(wait) => {
            tracing::warn!(?class, address = %address, "rate limit reached");
            let seconds = wait.as_secs_f64().ceil().max(1.0) as u64;
            ApiError::retry_later(
                kupa_app::ErrorCode::TooManyRequests,
                format!("too many calls of this kind; try again in {seconds} s"),
                seconds,
            )
            .into_response()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_parse_and_bad_ones_are_refused() {
        let l = RateLimits::parse("lock.session=3/10s, sms.address=2/1h").unwrap();
        assert_eq!(
            l.rules,
            vec![
                Rule {
                    class: Class::Lock,
                    scope: Scope::Session,
                    limit: 3,
                    period: Duration::from_secs(10)
                },
                Rule {
                    class: Class::Sms,
                    scope: Scope::Address,
                    limit: 2,
                    period: Duration::from_secs(3600)
                },
            ]
        );
        assert_eq!(RateLimits::parse("off").unwrap().rules, vec![]);
        let merged = l.over_defaults();
        assert_eq!(merged.rules.len(), 18);
        assert!(merged.rules.contains(&Rule {
            class: Class::Lock,
            scope: Scope::Session,
            limit: 3,
            period: Duration::from_secs(10)
        }));
        for bad in [
            "lock=3/1m",
            "seat.session=3/1m",
            "lock.session=0/1m",
            "lock.session=3/1d",
            "lock.session=3",
        ] {
            assert!(RateLimits::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_bucket_refuses_past_its_limit_and_refills_with_time() {
        let r =
            RateLimiter::new(RateLimits::parse("lock.session=3/3s,lock.address=5/10s").unwrap());
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(r.check(Class::Lock, "a", "1.2.3.4", t0).is_ok());
        }
        let wait = r.check(Class::Lock, "a", "1.2.3.4", t0).unwrap_err();
        assert!(
            wait <= Duration::from_secs(1) && wait > Duration::ZERO,
            "{wait:?}"
        );
        // Another session from the same address still has room, up to the address's 5.
        assert!(r.check(Class::Lock, "b", "1.2.3.4", t0).is_ok());
        assert!(r.check(Class::Lock, "b", "1.2.3.4", t0).is_ok());
        assert!(
            r.check(Class::Lock, "b", "1.2.3.4", t0).is_err(),
            "the address's limit"
        );
        assert!(
            r.check(Class::Lock, "c", "5.6.7.8", t0).is_ok(),
            "other addresses are not affected"
        );
        // Other classes are not limited by these rules.
        assert!(r.check(Class::Sms, "a", "1.2.3.4", t0).is_ok());
        // Time refills: after 2.1 s session a has 2 calls (3 per 3 s) but the address only 1 (5 per 10 s).
        let later = t0 + Duration::from_millis(2_100);
        assert!(r.check(Class::Lock, "a", "1.2.3.4", later).is_ok());
        assert!(r.check(Class::Lock, "a", "1.2.3.4", later).is_err());
    }

    #[test]
    fn the_limited_calls_are_the_ones_a_bot_would_hammer() {
        assert_eq!(
            class_of(&Method::PUT, "/api/seats/lock-seat"),
            Some(Class::Lock)
        );
        assert_eq!(
            class_of(&Method::GET, "/api/seats/best-available"),
            Some(Class::Lock)
        );
        assert_eq!(
            class_of(&Method::POST, "/api/customer/mobile-login"),
            Some(Class::Sms)
        );
        assert_eq!(
            class_of(&Method::POST, "/api/reservations/ABC/sendTickets"),
            Some(Class::Sms)
        );
        assert_eq!(
            class_of(&Method::POST, "/api/customer/mobile-login-validation-area"),
            Some(Class::Login)
        );
        assert_eq!(
            class_of(&Method::PUT, "/api/seats/unlock-seat"),
            None,
            "letting seats go is never limited"
        );
        assert_eq!(class_of(&Method::GET, "/api/seats/seats-statusV2"), None);
    }

    #[test]
    fn code_and_voucher_lookups_are_limited_and_so_is_the_cart_that_prices_codes() {
        assert_eq!(
            class_of(&Method::GET, "/api/presentations/12/ticket"),
            Some(Class::Code)
        );
        assert_eq!(
            class_of(&Method::GET, "/api/payment/voucher"),
            Some(Class::Code)
        );
        assert_eq!(class_of(&Method::POST, "/api/cart"), Some(Class::Cart));
        assert_eq!(class_of(&Method::GET, "/api/presentations/12"), None);
        assert_eq!(
            class_of(&Method::GET, "/api/presentations/12/ticketGroups"),
            None
        );
        let l = RateLimits::parse("code.session=3/10m,cart.address=9/1h").unwrap();
        assert_eq!(l.rules[0].class, Class::Code);
        assert_eq!(l.rules[1].class, Class::Cart);
    }
}
