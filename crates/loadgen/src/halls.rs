//! The halls a run sells: the big hall's presentations found through the catalogue calls, each
//! one's seat plan, the tickets it sells, and reading which of its seats are free (docs/api.md).

use std::collections::{BTreeMap, HashMap};
use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::{Context, bail};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::api::{CAPTCHA, get_json, send_json};

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
