//! Kupa's HTTP API as a buyer uses it (docs/api.md): the catalogue calls that find the big hall's
//! presentations, the seat plan and status, lock and unlock, best available, and the order's
//! cart, payment form, the test gateway's card page and the commit.

use std::net::SocketAddr;

use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};

use serde_json::{Value, json};

use crate::stats::{Outcome, Recorder};
use kupa_http_client::{Conn, Request, Response};

pub use crate::halls::*;

/// The captcha token test mode accepts (docs/api.md §9).
pub const CAPTCHA: &str = "kupa-test-captcha";
/// An approved Visa with no 3-D Secure step (crates/providers/src/test_gateway.rs).
pub const CARD: &str = "4242424242424242";

/// Asks the server for a new buyer session, as a browser's first page load gets one (the server
/// mints session ids; a made-up one is never adopted). Not recorded among the measured calls.
pub async fn new_session(conn: &mut Conn) -> String {
    for _ in 0..3 {
        let r = conn
            .send(&Request {
                method: "GET",
                path: "/api/health",
                session: None,
                body: None,
            })
            .await;
        if let Ok(Response {
            session: Some(s), ..
        }) = r
        {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The server did not answer: a session it will replace; the calls will show the failure.
    String::new()
}

/// A one-off call outside the measured runs (setup, discovery).
pub async fn get_json(addr: SocketAddr, path: &str) -> anyhow::Result<Value> {
    let mut c = Conn::new(addr);
    let r = c
        .send(&Request {
            method: "GET",
            path,
            session: None,
            body: None,
        })
        .await?;
    if r.status != 200 {
        bail!(
            "GET {path}: HTTP {} {}",
            r.status,
            String::from_utf8_lossy(&r.body)
        );
    }
    Ok(r.json())
}

pub async fn send_json(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: &Value,
) -> anyhow::Result<Response> {
    let mut c = Conn::new(addr);
    let body = serde_json::to_vec(body)?;
    c.send(&Request {
        method,
        path,
        session: None,
        body: Some(("application/json", &body)),
    })
    .await
}

/// Shortens (or restores) the seat-choosing step on every node: the timer override lives in
/// each node's memory (POST /api/test/timer-mode).
pub async fn set_hold_seconds(addrs: &[SocketAddr], seconds: u64) -> anyhow::Result<()> {
    let body = json!({ "chooseSeatsInSeconds": seconds, "chooseTicketsInSeconds": 120,
                       "chooseProductsInSeconds": 120, "customerInfoInSeconds": 120 });
    for &a in addrs {
        let r = send_json(a, "POST", "/api/test/timer-mode", &body).await?;
        if r.status != 200 {
            bail!(
                "POST /api/test/timer-mode on {a}: HTTP {} {}",
                r.status,
                String::from_utf8_lossy(&r.body)
            );
        }
    }
    Ok(())
}

/// The codes that mean "taken by someone else" and "no seats left".
fn classify(call: &str, r: &Response) -> (Outcome, Option<String>) {
    match r.status {
        200..=299 => (Outcome::Ok, None),
        303 if call == "pay-card" => {
            let loc = r.location.as_deref().unwrap_or_default();
            if loc.contains("status=captured") {
                (Outcome::Ok, None)
            } else {
                (Outcome::Rejected, Some(format!("payment redirect {loc}")))
            }
        }
        s if s >= 500 => (
            Outcome::ServerError,
            Some(r.error_code().unwrap_or_else(|| format!("HTTP {s}"))),
        ),
        s => {
            let code = r.error_code().unwrap_or_else(|| format!("HTTP {s}"));
            let outcome = match code.as_str() {
                "lock_seat_error" | "unlock_seat_error" => Outcome::Conflict,
                "NOT_ENOUGH_SEATS"
                | "res_not_enough_seats"
                | "section_not_enough_seats"
                | "ga_not_enough_seats" => Outcome::SoldOut,
                _ => Outcome::Rejected,
            };
            (outcome, Some(code))
        }
    }
}

/// A buyer's connection to one node, recording each call.
pub struct Client {
    pub conn: Conn,
    pub rec: Recorder,
    /// Calls that end after this are not counted (the run is over).
    pub until: Instant,
}

pub struct Answer {
    pub outcome: Outcome,
    pub code: Option<String>,
    pub response: Option<Response>,
}

impl Client {
    pub fn new(addr: SocketAddr, until: Instant) -> Client {
        Client {
            conn: Conn::new(addr),
            rec: Recorder::default(),
            until,
        }
    }

    pub async fn call(
        &mut self,
        name: &'static str,
        method: &str,
        path: &str,
        session: &str,
        body: Option<(&str, &[u8])>,
    ) -> Answer {
        let started = Instant::now();
        let r = self
            .conn
            .send(&Request {
                method,
                path,
                session: Some(session),
                body,
            })
            .await;
        let ended = Instant::now();
        let (outcome, code, response) = match r {
            Ok(r) => {
                let (o, c) = classify(name, &r);
                (o, c, Some(r))
            }
            Err(e) => (
                Outcome::Transport,
                Some(e.to_string().chars().take(60).collect()),
                None,
            ),
        };
        if ended <= self.until {
            self.rec
                .record(name, ended - started, outcome, code.as_deref());
        }
        if outcome == Outcome::Transport {
            // Don't spin on a dead server.
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        Answer {
            outcome,
            code,
            response,
        }
    }

    pub async fn status(&mut self, hall: &Hall, session: &str) -> Answer {
        let path = format!(
            "/api/seats/seats-statusV2?presentationId={}",
            hall.presentation_id
        );
        self.call("seat-status", "GET", &path, session, None).await
    }

    pub async fn seat_map(&mut self, hall: &Hall, session: &str) -> Answer {
        let path = format!(
            "/api/seats/seatplanV2?venueId={}&seatplanId={}",
            hall.plan.venue_id, hall.plan.seatplan_id
        );
        let body = format!("{{\"recaptchaToken\":\"{CAPTCHA}\"}}");
        self.call(
            "seat-map",
            "POST",
            &path,
            session,
            Some(("application/json", body.as_bytes())),
        )
        .await
    }

    pub async fn lock(&mut self, hall: &Hall, seat: &PlanSeat, session: &str) -> Answer {
        let body = hall.lock_body(seat);
        self.call(
            "lock-seat",
            "PUT",
            "/api/seats/lock-seat",
            session,
            Some(("application/json", &body)),
        )
        .await
    }

    pub async fn unlock(&mut self, hall: &Hall, seat: &PlanSeat, session: &str) -> Answer {
        let body = hall.lock_body(seat);
        self.call(
            "unlock-seat",
            "PUT",
            "/api/seats/unlock-seat",
            session,
            Some(("application/json", &body)),
        )
        .await
    }

    /// Best available with isLock=1: the seats now held, or None.
    pub async fn best_available(
        &mut self,
        hall: &Hall,
        n: usize,
        session: &str,
    ) -> (Answer, Vec<PlanSeat>) {
        let path = format!(
            "/api/seats/best-available?presentationId={}&quantity={n}&isLock=1&recaptchaToken={CAPTCHA}",
            hall.presentation_id
        );
        let mut a = self
            .call("best-available", "GET", &path, session, None)
            .await;
        let mut held = Vec::new();
        if a.outcome == Outcome::Ok
            && let Some(r) = &a.response
        {
            let v = r.json();
            if let Some(m) = v["matches"]
                .as_array()
                .and_then(|m| m.iter().find(|m| m["isLocked"] == true))
            {
                for s in m["seats"].as_array().into_iter().flatten() {
                    if let (Some(si), Some(x), Some(y)) =
                        (s["sectionId"].as_i64(), s["x"].as_i64(), s["y"].as_i64())
                        && let Some(seat) = hall.seat(si, x, y)
                    {
                        held.push(seat.clone());
                    }
                }
            }
            if held.is_empty() {
                a.outcome = Outcome::SoldOut;
            }
        }
        (a, held)
    }

    /// The whole order of the held seats: cart, payment form, the gateway's card page, commit.
    /// The reservation id on success.
    pub async fn buy(
        &mut self,
        hall: &Hall,
        seats: &[PlanSeat],
        session: &str,
        card_expiry: &str,
    ) -> anyhow::Result<String> {
        let lines: Vec<Value> = seats
            .iter()
            .map(|s| {
                json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si,
                        "ticket": { "ticketId": hall.ticket_of_group.get(&s.tg) } })
            })
            .collect();
        let cart = json!({
            "cart": {
                "presentations": [{ "presentationId": hall.presentation_id, "seats": lines }],
                "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "bench@example.com",
                                  "verifyEmailAddress": "bench@example.com", "mobileNumber": "+972524318876",
                                  "acceptedTerms": [1, 2, 3] },
            },
            "step": "customerInfo",
            "locale": "he",
        });
        let body = serde_json::to_vec(&cart)?;
        let a = self
            .call(
                "cart",
                "POST",
                "/api/cart",
                session,
                Some(("application/json", &body)),
            )
            .await;
        let total = ok_json(&a, "cart")?["cart"]["total"]
            .as_i64()
            .context("cart total")?;
        let path = format!(
            "/api/payment/form/he?presentationId={}&total={total}&method=card&numberOfPayments=1&saveCard=false&recaptchaToken={CAPTCHA}",
            hall.presentation_id
        );
        let a = self.call("payment-form", "GET", &path, session, None).await;
        let payment = ok_json(&a, "payment form")?["paymentIdentifier"]
            .as_str()
            .context("paymentIdentifier")?
            .to_owned();
        let form = format!(
            "cardNumber={CARD}&expiry={}&cvv=123&holderId=",
            kupa_http_client::encode(card_expiry)
        );
        let a = self
            .call(
                "pay-card",
                "POST",
                &format!("/pay/{payment}/card"),
                session,
                Some(("application/x-www-form-urlencoded", form.as_bytes())),
            )
            .await;
        if a.outcome != Outcome::Ok {
            bail!("card payment: {:?} {:?}", a.outcome, a.code);
        }
        let body = serde_json::to_vec(&json!({
            "cart": { "presentations": [{ "presentationId": hall.presentation_id }] },
            "recaptchaToken": CAPTCHA,
        }))?;
        let a = self
            .call(
                "commit",
                "POST",
                "/api/payment/commit",
                session,
                Some(("application/json", &body)),
            )
            .await;
        let r = ok_json(&a, "commit")?;
        Ok(r["reservationIdentifier"]
            .as_str()
            .context("reservationIdentifier")?
            .to_owned())
    }
}

fn ok_json(a: &Answer, what: &str) -> anyhow::Result<Value> {
    match (&a.outcome, &a.response) {
        (Outcome::Ok, Some(r)) => Ok(r.json()),
        _ => Err(anyhow!("{what}: {:?} {:?}", a.outcome, a.code)),
    }
}

/// A card expiry two years ahead, MM/YY.
pub fn card_expiry() -> String {
    let year = jiff::Zoned::now().year() + 2;
    format!("12/{:02}", year % 100)
}

/// A browser's copy of a presentation's status in the compact form (decision 0060): the letters
/// of the last full answer with every later change applied, and the version to ask `since`.
#[derive(Default)]
pub struct CompactView {
    letters: Vec<u8>,
    version: Option<String>,
}

impl CompactView {
    /// The compact status call, with `since` once there is a version.
    pub fn path(&self, hall: &Hall) -> String {
        match &self.version {
            Some(v) => format!(
                "/api/seats/seats-statusV2/compact?presentationId={}&since={v}",
                hall.presentation_id
            ),
            None => format!(
                "/api/seats/seats-statusV2/compact?presentationId={}",
                hall.presentation_id
            ),
        }
    }

    /// Takes an answer in: a full one replaces the letters, a delta patches them.
    pub fn apply(&mut self, body: &[u8]) {
        let Ok(v) = serde_json::from_slice::<Value>(body) else {
            return;
        };
        if v["full"] == true {
            self.letters = v["seats"].as_str().unwrap_or_default().as_bytes().to_vec();
        } else {
            for ch in v["changes"].as_array().into_iter().flatten() {
                if let (Some(i), Some(s)) = (ch["i"].as_u64(), ch["s"].as_str())
                    && let Some(slot) = self.letters.get_mut(i as usize)
                {
                    *slot = s.as_bytes().first().copied().unwrap_or(b'o');
                }
            }
        }
        self.version = v["version"].as_str().map(str::to_owned);
    }

    /// Which seats of the plan are free (None before the first answer, or when the answer's
    /// seats are not the plan's).
    pub fn free(&self, hall: &Hall) -> Option<Vec<bool>> {
        (self.letters.len() == hall.plan.seats.len() && !self.letters.is_empty())
            .then(|| self.letters.iter().map(|&l| l == b'a').collect())
    }
}
