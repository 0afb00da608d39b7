//! Kupa's HTTP API as a buyer uses it (docs/api.md): the catalogue calls that find the big hall's
//! presentations, the seat plan and status, lock and unlock, best available, and the order's
//! cart, payment form, the test gateway's card page and the commit.

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, anyhow, bail};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::stats::{Outcome, Recorder};
use kupa_http_client::{Conn, Request, Response};

/// The captcha token test mode accepts (docs/api.md §9).
pub const CAPTCHA: &str = "kupa-test-captcha";
/// An approved Visa with no 3-D Secure step (crates/providers/src/test_gateway.rs).
pub const CARD: &str = "4242424242424242";

#[derive(Clone, Debug)]
pub struct PlanSeat {
    pub si: i64,
    pub x: i64,
    pub y: i64,
    pub tg: i64,
    /// A plain seat a buyer may click without confirmations or a sofa partner, of a group sold
    /// online.
    pub eligible: bool,
}

#[derive(Debug)]
pub struct Plan {
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub seats: Vec<PlanSeat>,
    pub index: HashMap<(i64, i64, i64), usize>,
    /// Seat indexes of each (section, row y), in x order.
    pub rows: Vec<Vec<usize>>,
}

/// One presentation of the big hall: the unit the bench sells out and moves on from.
#[derive(Debug)]
pub struct Hall {
    pub presentation_id: i64,
    pub plan: Arc<Plan>,
    /// The ticket a buyer takes for a seat of each ticket group.
    pub ticket_of_group: HashMap<i64, i64>,
}

impl Hall {
    /// The body of lock-seat and unlock-seat (the same shape).
    pub fn lock_body(&self, seat: &PlanSeat) -> Vec<u8> {
        let v = json!({ "recaptchaToken": CAPTCHA, "seat": {
            "PresentationId": self.presentation_id, "VenueId": self.plan.venue_id,
            "VenueSeatplanId": self.plan.seatplan_id, "VenueSectionId": seat.si,
            "TicketGroupId": seat.tg, "XCoordinate": seat.x, "YCoordinate": seat.y } });
        serde_json::to_vec(&v).expect("json")
    }

    pub fn seat(&self, si: i64, x: i64, y: i64) -> Option<&PlanSeat> {
        self.plan
            .index
            .get(&(si, x, y))
            .map(|&i| &self.plan.seats[i])
    }
}

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

/// The big hall's presentations (venue 1, 486 seats in the demo) on sale and starting at least a
/// day from now, earliest first: each is a fresh, empty hall.
pub async fn discover_halls(addr: SocketAddr) -> anyhow::Result<Vec<Arc<Hall>>> {
    let list = get_json(addr, "/api/presentations/").await?;
    let now: jiff::Timestamp = list["serverTime"].as_str().context("serverTime")?.parse()?;
    let day_ahead = now.as_millisecond() + 24 * 3_600_000;
    let mut picked: Vec<(i64, i64, i64, i64)> = list["presentations"]
        .as_array()
        .context("presentations")?
        .iter()
        .filter(|p| p["venueId"] == 1 && p["isOnSale"] == true && p["isVod"] != true)
        .filter_map(|p| {
            let starts: jiff::Timestamp = p["dateTime"].as_str()?.parse().ok()?;
            (starts.as_millisecond() >= day_ahead).then(|| {
                (
                    starts.as_millisecond(),
                    p["id"].as_i64().unwrap_or_default(),
                    p["venueId"].as_i64().unwrap_or_default(),
                    p["seatplanId"].as_i64().unwrap_or_default(),
                )
            })
        })
        .collect();
    picked.sort();
    if picked.is_empty() {
        bail!("no presentation of the big hall (venue 1) on sale a day or more ahead");
    }
    let mut plans: HashMap<(i64, i64), Arc<Plan>> = HashMap::new();
    let mut halls = Vec::new();
    for (_, id, venue, seatplan) in picked {
        let groups = get_json(addr, &format!("/api/presentations/{id}/ticketGroups")).await?;
        let ticket_of_group = pick_tickets(&groups);
        let plan = match plans.get(&(venue, seatplan)) {
            Some(p) => p.clone(),
            None => {
                let p = Arc::new(load_plan(addr, venue, seatplan, &ticket_of_group).await?);
                plans.insert((venue, seatplan), p.clone());
                p
            }
        };
        halls.push(Arc::new(Hall {
            presentation_id: id,
            plan,
            ticket_of_group,
        }));
    }
    Ok(halls)
}

/// For each ticket group, its regular ticket (or the first plain one): no code, member, ID
/// number, reference, companion or particular kind of seat needed, one seat each.
fn pick_tickets(groups: &Value) -> HashMap<i64, i64> {
    let mut out = HashMap::new();
    for g in groups["ticketGroups"].as_array().into_iter().flatten() {
        let plain: Vec<&Value> = g["tickets"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|t| {
                t["memberOnly"] != true
                    && t["needsSeniorId"] != true
                    && t["requiresTicketId"].is_null()
                    && t["seatKind"].is_null()
                    && t["refPrompt"].as_str().unwrap_or_default().is_empty()
                    && t["multiplyFactor"].as_i64().unwrap_or(1) == 1
                    && t["minQuantity"].as_i64().unwrap_or(0) <= 1
            })
            .collect();
        let regular = plain
            .iter()
            .find(|t| {
                t["nameEn"]
                    .as_str()
                    .unwrap_or_default()
                    .to_lowercase()
                    .contains("regular")
            })
            .or(plain.first());
        if let (Some(gid), Some(t)) = (g["id"].as_i64(), regular)
            && let Some(tid) = t["id"].as_i64()
        {
            out.insert(gid, tid);
        }
    }
    out
}

async fn load_plan(
    addr: SocketAddr,
    venue: i64,
    seatplan: i64,
    online: &HashMap<i64, i64>,
) -> anyhow::Result<Plan> {
    let r = send_json(
        addr,
        "POST",
        &format!("/api/seats/seatplanV2?venueId={venue}&seatplanId={seatplan}"),
        &json!({ "recaptchaToken": CAPTCHA }),
    )
    .await?;
    if r.status != 200 {
        bail!("seat plan {seatplan}: HTTP {}", r.status);
    }
    let plan = r.json();
    let plan = &plan["seatplan"];
    let mut seats = Vec::new();
    for s in plan["seats"].as_array().context("seats")? {
        let (Some(si), Some(x), Some(y), Some(tg)) = (
            s["si"].as_i64(),
            s["x"].as_i64(),
            s["y"].as_i64(),
            s["tg"].as_i64(),
        ) else {
            continue;
        };
        let eligible = s["hc"] != true
            && s["lv"] != true
            && s["co"] != true
            && s["sf"].is_null()
            && online.contains_key(&tg);
        seats.push(PlanSeat {
            si,
            x,
            y,
            tg,
            eligible,
        });
    }
    let index = seats
        .iter()
        .enumerate()
        .map(|(i, s)| ((s.si, s.x, s.y), i))
        .collect();
    let mut by_row: BTreeMap<(i64, i64), Vec<usize>> = BTreeMap::new();
    for (i, s) in seats.iter().enumerate() {
        by_row.entry((s.si, s.y)).or_default().push(i);
    }
    let rows = by_row
        .into_values()
        .map(|mut r| {
            r.sort_by_key(|&i| seats[i].x);
            r
        })
        .collect();
    Ok(Plan {
        venue_id: venue,
        seatplan_id: seatplan,
        seats,
        index,
        rows,
    })
}

#[derive(Deserialize)]
struct StatusBody {
    seats: Vec<StatusSeat>,
}

#[derive(Deserialize)]
struct StatusSeat {
    x: i64,
    y: i64,
    si: i64,
    s: String,
}

/// Which seats of the plan are free, from a seats-statusV2 answer.
pub fn free_seats(hall: &Hall, body: &[u8]) -> anyhow::Result<Vec<bool>> {
    let status: StatusBody = serde_json::from_slice(body)?;
    let mut free = vec![false; hall.plan.seats.len()];
    for s in status.seats {
        if s.s == "available"
            && let Some(&i) = hall.plan.index.get(&(s.si, s.x, s.y))
        {
            free[i] = true;
        }
    }
    Ok(free)
}

/// The blocks of `n` side-by-side free, plain seats that leave no single free seat beside them
/// in their run (seating policy 3), as the first seat index of each block within its row.
pub fn candidate_blocks(plan: &Plan, free: &[bool], n: usize) -> Vec<(usize, usize)> {
    let ok_rest = |r: usize| r == 0 || r >= 2;
    let mut out = Vec::new();
    for (ri, row) in plan.rows.iter().enumerate() {
        let mut i = 0;
        while i < row.len() {
            if !free[row[i]] {
                i += 1;
                continue;
            }
            // A run of free seats with consecutive x (a jump in x is an aisle: a wall).
            let mut j = i + 1;
            while j < row.len()
                && free[row[j]]
                && plan.seats[row[j]].x == plan.seats[row[j - 1]].x + 1
            {
                j += 1;
            }
            let len = j - i;
            if len >= n {
                for start in 0..=len - n {
                    if ok_rest(start)
                        && ok_rest(len - start - n)
                        && (i + start..i + start + n).all(|k| plan.seats[row[k]].eligible)
                    {
                        out.push((ri, i + start));
                    }
                }
            }
            i = j;
        }
    }
    out
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
