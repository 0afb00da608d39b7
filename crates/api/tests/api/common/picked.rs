//! An order's pieces for the order tests: two seats held in the big hall with their tickets and
//! the complex's popcorn, a cart of them, its payment and commit.

use axum::http::StatusCode;
use kupa_app::orders::{OrderStore, PaymentStatus, PaymentUpdate};
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, Clock};
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

use super::paying::lock_body;
use super::*;

pub struct Picked {
    pub presentation: Value,
    pub seats: Vec<Value>,
    pub regular: Value,
    pub child: Value,
    pub popcorn: Value,
}

/// POST /api/seats/seatplanV2: the `seatplan` of a presentation as listed (its JSON).
pub async fn seatplan_of(app: &TestApp, p: &Value) -> Value {
    app.post(
        &format!(
            "/api/seats/seatplanV2?venueId={}&seatplanId={}",
            p["venueId"], p["seatplanId"]
        ),
        &json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string(),
    )
    .await
    .body["seatplan"]
        .clone()
}

/// The ticket whose English name says `word` (in any case).
fn ticket_named(tickets: &[Value], word: &str) -> Value {
    tickets
        .iter()
        .find(|t| t["nameEn"].as_str().unwrap().to_lowercase().contains(word))
        .unwrap()
        .clone()
}

/// Two side-by-side seats of an on-sale presentation in the big hall, held by `who`, with the
/// regular and child tickets of their group and the popcorn of the complex.
pub async fn two_seats_held(app: &TestApp, who: &str) -> Picked {
    two_seats_held_at(app, who, 0).await
}

/// The same, in the `nth` such presentation (a second order of one session).
pub async fn two_seats_held_at(app: &TestApp, who: &str, nth: usize) -> Picked {
    let list = app.get("/api/presentations/").await;
    let p = list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["venueId"] == 1 && p["isOnSale"] == true && app.starts_after_hours(p, 24))
        .nth(nth)
        .unwrap()
        .clone();
    let plan = seatplan_of(app, &p).await;
    let status = app
        .call_as(
            who,
            "GET",
            &format!("/api/seats/seats-statusV2?presentationId={}", p["id"]),
            None,
        )
        .await;
    let free: std::collections::HashSet<(i64, i64, i64)> = status.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["s"] == "available")
        .map(|s| {
            (
                s["si"].as_i64().unwrap(),
                s["x"].as_i64().unwrap(),
                s["y"].as_i64().unwrap(),
            )
        })
        .collect();
    // Only seats still free for this buyer, so several buyers can each find their own pair.
    let all_seats: Vec<Value> = plan["seats"].as_array().unwrap().clone();
    let seats: Vec<&Value> = all_seats
        .iter()
        .filter(|s| {
            free.contains(&(
                s["si"].as_i64().unwrap(),
                s["x"].as_i64().unwrap(),
                s["y"].as_i64().unwrap(),
            ))
        })
        .collect();
    let seats = &seats;
    // The two seats of a row's left end, so the single-seat rule is satisfied.
    let first = seats
        .iter()
        .filter(|s| s["hc"] == false && s["lv"] == false && s["sf"].is_null())
        .find(|s| {
            let (si, x, y) = (&s["si"], s["x"].as_i64().unwrap(), &s["y"]);
            // A row's end with at least four seats in a run, so two taken leave two free together.
            let at = |dx: i64| {
                seats
                    .iter()
                    .find(|o| &o["si"] == si && &o["y"] == y && o["x"] == x + dx)
            };
            at(-1).is_none()
                && at(1).is_some_and(|o| o["hc"] == false && o["lv"] == false)
                && at(2).is_some()
                && at(3).is_some()
        })
        .copied()
        .unwrap();
    let second = seats
        .iter()
        .find(|o| {
            o["si"] == first["si"]
                && o["y"] == first["y"]
                && o["x"] == first["x"].as_i64().unwrap() + 1
        })
        .copied()
        .unwrap();
    let (first, second): (Value, Value) = (first.clone(), second.clone());
    for s in [&first, &second] {
        let r = app
            .call_as(who, "PUT", "/api/seats/lock-seat", Some(&lock_body(&p, s)))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let groups = app
        .get(&format!("/api/presentations/{}/ticketGroups", p["id"]))
        .await;
    let tickets: Vec<Value> = groups.body["ticketGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"] == first["tg"])
        .flat_map(|g| g["tickets"].as_array().unwrap().clone())
        .collect();
    let regular = ticket_named(&tickets, "regular");
    let child = ticket_named(&tickets, "child");
    let detail = app.get(&format!("/api/presentations/{}", p["id"])).await;
    let popcorn = detail.body["presentation"]["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| {
            x["nameEn"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("popcorn")
        })
        .unwrap()
        .clone();
    Picked {
        presentation: p,
        seats: vec![first, second],
        regular,
        child,
        popcorn,
    }
}

pub fn customer() -> Value {
    json!({ "firstName": "דנה", "lastName": "כהן", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
            "mobileNumber": "+972521234567", "acceptedTerms": [1, 2, 3] })
}

pub fn cart_body(k: &Picked, tickets: [&Value; 2], with_customer: bool, extra: Value) -> String {
    let mut cart = json!({
        "presentations": [{ "presentationId": k.presentation["id"], "seats": k.seats.iter().zip(tickets).map(|(s, t)| json!({
            "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "RowName": s["r"], "SeatName": s["n"],
            "ticket": { "ticketId": t["id"], "amount": t["price"] } })).collect::<Vec<_>>() }],
        "products": [{ "id": k.popcorn["id"], "quantity": 1 }],
    });
    if with_customer {
        cart["customerInfo"] = customer();
    }
    if let (Some(c), Some(e)) = (cart.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    json!({ "cart": cart, "step": "customerInfo", "locale": "he" }).to_string()
}

pub async fn authorize(app: &TestApp, db: &TestDb, payment_id: &str, status: PaymentStatus) {
    let update = PaymentUpdate {
        status,
        card_brand: Some("visa".into()),
        card_last4: Some("4242".into()),
        card_bin: Some("424242".into()),
        failure_code: None,
        decline_reason: None,
        note: "test".into(),
    };
    db.db
        .update_payment(payment_id, &update, app.clock.now_ms())
        .await
        .unwrap();
}

pub async fn start_payment(app: &TestApp, who: &str, k: &Picked, total: i64) -> Reply {
    app.call_as(who, "GET", &format!("/api/payment/form/he?presentationId={}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}", k.presentation["id"]), None).await
}

pub fn commit_body(k: &Picked) -> String {
    json!({ "cart": { "presentations": [{ "presentationId": k.presentation["id"] }] }, "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string()
}
