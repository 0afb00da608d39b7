//! Prices that hold, over HTTP on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL:
//! a ticket tied to a kind of seat (wheelchair, companion, sofa) sells only on such a seat, at
//! the cart, when the payment starts and at finalisation; and one order's total is the same
//! agora in the cart, the payment form, the reservation, the PDF and the mail.

use crate::common::paying::{card_form, execute, good_expiry, rows};
use crate::common::picked::seatplan_of;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const WHEELCHAIR: i64 = 108;
const COMPANION: i64 = 109;
const REGULAR: i64 = 101;
const SENIOR: i64 = 104;
const COUPLE_ON_A_SOFA: i64 = 202;

/// The grand hall (venue 1) screening on sale at least a day ahead, and its seat plan's seats.
async fn grand_hall(app: &TestApp, venue: i64) -> (Value, Vec<Value>) {
    let list = app.get("/api/presentations/").await;
    let p = list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["venueId"] == venue && p["isOnSale"] == true && app.starts_after_hours(p, 24))
        .unwrap_or_else(|| panic!("a presentation on sale in venue {venue}"))
        .clone();
    let plan = seatplan_of(app, &p).await;
    (p, plan["seats"].as_array().unwrap().clone())
}

fn at<'a>(seats: &'a [Value], s: &Value, dx: i64) -> Option<&'a Value> {
    seats
        .iter()
        .find(|o| o["si"] == s["si"] && o["y"] == s["y"] && o["x"] == s["x"].as_i64().unwrap() + dx)
}

fn ordinary(s: &Value) -> bool {
    s["hc"] == false && s["co"] == false && s["lv"] == false && s["sf"].is_null()
}

/// Two ordinary seats side by side at a row's end (so the single-seat rule holds), the `nth` such pair.
fn two_ordinary_seats(seats: &[Value], nth: usize) -> [Value; 2] {
    let first = seats
        .iter()
        .filter(|s| {
            ordinary(s)
                && at(seats, s, -1).is_none()
                && at(seats, s, 1).is_some_and(ordinary)
                && at(seats, s, 2).is_some()
                && at(seats, s, 3).is_some()
        })
        .nth(nth)
        .expect("an ordinary pair at a row's end");
    [first.clone(), at(seats, first, 1).unwrap().clone()]
}

/// A wheelchair place at a row's end and the companion seat beside it.
fn wheelchair_and_companion(seats: &[Value]) -> [Value; 2] {
    let place = seats
        .iter()
        .find(|s| {
            s["hc"] == true
                && at(seats, s, -1).is_none()
                && at(seats, s, 1).is_some_and(|c| c["co"] == true)
        })
        .expect("a wheelchair place at a row's end with a companion seat beside it");
    [place.clone(), at(seats, place, 1).unwrap().clone()]
}

async fn lock(app: &TestApp, who: &str, p: &Value, s: &Value) {
    let body = json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "confirmWheelchair": s["hc"] == true,
        "confirmLimitedView": s["lv"] == true, "seat": {
        "PresentationId": p["id"], "VenueId": p["venueId"], "VenueSeatplanId": p["seatplanId"],
        "VenueSectionId": s["si"], "TicketGroupId": s["tg"], "XCoordinate": s["x"], "YCoordinate": s["y"] } });
    let r = app
        .call_as(who, "PUT", "/api/seats/lock-seat", Some(&body.to_string()))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

fn cart(p: &Value, seats: &[Value], tickets: &[i64], with_customer: bool) -> String {
    let mut cart = json!({
        "presentations": [{ "presentationId": p["id"], "seats": seats.iter().zip(tickets).map(|(s, t)| json!({
            "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "RowName": s["r"], "SeatName": s["n"],
            "ticket": { "ticketId": t } })).collect::<Vec<_>>() }],
        "products": [],
    });
    if with_customer {
        cart["customerInfo"] = json!({ "firstName": "נועה", "lastName": "לוי", "email": "noa@example.com",
            "verifyEmailAddress": "noa@example.com", "mobileNumber": "0521234567", "acceptedTerms": [1, 2, 3] });
    }
    json!({ "cart": cart, "step": if with_customer { "customerInfo" } else { "tickets" }, "locale": "he" }).to_string()
}

async fn post_cart(app: &TestApp, who: &str, p: &Value, seats: &[Value], tickets: &[i64]) -> Reply {
    app.call_as(
        who,
        "POST",
        "/api/cart",
        Some(&cart(p, seats, tickets, true)),
    )
    .await
}

async fn payment_form(app: &TestApp, who: &str, p: &Value, total: i64) -> Reply {
    app.call_as(who, "GET", &format!("/api/payment/form/he?presentationId={}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]), None).await
}

/// "₪44.00" as every document writes an amount of agorot.
fn ils(agorot: i64) -> String {
    format!("₪{}.{:02}", agorot / 100, agorot % 100)
}

api_tests! {
async fn wheelchair_and_companion_tickets_on_two_ordinary_seats_are_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(901);
    let pair = two_ordinary_seats(&seats, 0);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    // The trial's case: ₪34 and ₪0 on two ordinary seats instead of two regular tickets.
    let r = post_cart(&app, &who, &p, &pair, &[WHEELCHAIR, COMPANION]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["ticketId"], WHEELCHAIR);
    // Two wheelchair tickets on the same ordinary seats.
    let r = post_cart(&app, &who, &p, &pair, &[WHEELCHAIR, WHEELCHAIR]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "{}", r.text);
    // A companion ticket beside an ordinary seat, with a regular ticket.
    let r = post_cart(&app, &who, &p, &pair, &[REGULAR, COMPANION]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "{}", r.text);
    // Nothing was kept as the session's order: no payment can start.
    let r = payment_form(&app, &who, &p, 4400).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    // Regular tickets are what these seats sell.
    let r = post_cart(&app, &who, &p, &pair, &[REGULAR, REGULAR]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["total"], 2 * (4200 + 500));
}

async fn my_holds_say_which_seat_kinds_each_held_seat_serves(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(902);
    let place = seats.iter().find(|s| s["hc"] == true && at(&seats, s, -1).is_none()).unwrap().clone();
    let next = at(&seats, &place, 1).unwrap().clone();
    lock(&app, &who, &p, &place).await;
    lock(&app, &who, &p, &next).await;
    let r = app.call_as(&who, "GET", &format!("/api/seats/my-holds?presentationId={}", p["id"]), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let kinds = |s: &Value| -> Vec<String> {
        r.body["seats"].as_array().unwrap().iter()
            .find(|h| h["x"] == s["x"] && h["y"] == s["y"] && h["sectionId"] == s["si"]).unwrap()["seatKinds"]
            .as_array().unwrap().iter().map(|k| k.as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(kinds(&place), vec!["wheelchair"]);
    assert_eq!(kinds(&next), vec!["companion"], "a companion seat beside a held wheelchair place");
    // The ticket list says which kind of seat each tied ticket needs.
    let groups = app.get(&format!("/api/presentations/{}/ticketGroups", p["id"])).await;
    let ticket = |id: i64| groups.body["ticketGroups"].as_array().unwrap().iter()
        .flat_map(|g| g["tickets"].as_array().unwrap().clone()).find(|t| t["id"] == id).unwrap();
    assert_eq!(ticket(WHEELCHAIR)["seatKind"], "wheelchair");
    assert_eq!(ticket(COMPANION)["seatKind"], "companion");
    assert!(ticket(REGULAR)["seatKind"].is_null());
    // The service charge each ticket pays, from the tickets step on: the free companion ticket
    // pays the business's per-ticket charge like any other.
    assert_eq!((ticket(REGULAR)["serviceCharge"].as_i64(), ticket(COMPANION)["serviceCharge"].as_i64()), (Some(500), Some(500)));
}

async fn a_wheelchair_ticket_with_its_companion_is_priced_and_every_total_agrees(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(903);
    let pair = wheelchair_and_companion(&seats);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    // More companions than wheelchair tickets is a ticket combination rule.
    let r = post_cart(&app, &who, &p, &pair, &[COMPANION, COMPANION]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "a wheelchair place is no companion seat: {}", r.text);
    let r = post_cart(&app, &who, &p, &pair, &[WHEELCHAIR, COMPANION]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // ₪34 + ₪5 service charge, and ₪0 + ₪5: ₪44.00.
    let total = 3400 + 500 + 500;
    let cart = &r.body["cart"];
    assert_eq!(cart["total"], total);
    assert_eq!(cart["priceBreakdown"], json!({ "tickets": total, "ticketsServiceCharge": 1000, "orderServiceCharge": 0, "products": 0, "total": total }));
    assert_eq!((cart["tickets"][0]["price"].as_i64(), cart["tickets"][0]["serviceCharge"].as_i64()), (Some(3400), Some(500)));

    let r = payment_form(&app, &who, &p, total).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["amount"], total);
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let page = app.form_as(&who, "GET", &format!("/pay/{payment_id}?locale=he"), None).await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("44.00"), "the gateway's page asks for ₪44.00: {}", page.text);
    let r = app.form_as(&who, "POST", &format!("/pay/{payment_id}/card"), Some(&card_form("4242424242424242", &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let commit = json!({ "cart": { "presentations": [{ "presentationId": p["id"] }] }, "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let reservation = r.body["reservationIdentifier"].as_str().unwrap().to_owned();

    let r = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["reservation"]["total"], total);
    assert_eq!(r.body["reservation"]["priceBreakdown"]["total"], total);
    assert_eq!(rows(db, "SELECT channel FROM orders WHERE status = 'paid'").await, vec!["web".to_owned()], "sold on the web shop");

    // The PDF: each ticket at its full price with the service charge it includes, and the total.
    let pdf = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}/tickets.pdf?lang=en"), None).await;
    assert_eq!(pdf.status, StatusCode::OK);
    let bytes = body_bytes(&app, &who, &format!("/api/reservations/{reservation}/tickets.pdf?lang=en")).await;
    let text = pdf_text(&bytes);
    assert!(text.contains(&ils(3900)) && text.contains(&ils(500)), "₪39.00 incl. ₪5.00: {text}");
    assert!(text.contains("incl. ₪5.00 service charge"), "{text}");
    assert!(text.contains(&ils(total)), "the order total ₪44.00: {text}");
    assert!(!text.contains(&ils(4700)) && !text.contains(&ils(3400)), "no other price: {text}");

    // The mail: the same lines and the same total.
    let mail = app.get("/api/test/outbox/mail?to=noa@example.com").await;
    assert_eq!(mail.status, StatusCode::OK, "{}", mail.text);
    assert!(mail.text.contains(&format!("{} (כולל דמי טיפול {})", ils(3900), ils(500))), "{}", mail.text);
    assert!(mail.text.contains(&format!("{} (כולל דמי טיפול {})", ils(500), ils(500))), "the companion: {}", mail.text);
    assert!(mail.text.contains(&format!("סה״כ: {}", ils(total))), "{}", mail.text);
}

async fn a_couple_ticket_sells_only_on_a_sofa(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // Venue 5's premium section sells the couple ticket's group on ordinary seats too.
    let (p, seats) = grand_hall(&app, 5).await;
    let who = buyer(904);
    let premium: Vec<Value> = seats.iter().filter(|s| s["tg"] == 2).cloned().collect();
    let pair = two_ordinary_seats(&premium, 0);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    let r = post_cart(&app, &who, &p, &pair, &[COUPLE_ON_A_SOFA, COUPLE_ON_A_SOFA]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["ticketId"], COUPLE_ON_A_SOFA);
}

async fn one_senior_id_number_buys_one_senior_ticket(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(907);
    let pair = two_ordinary_seats(&seats, 3);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    let with_ids = |a: &str, b: &str| {
        let mut body: Value = serde_json::from_str(&cart(&p, &pair, &[SENIOR, SENIOR], false)).unwrap();
        body["cart"]["presentations"][0]["seats"][0]["ticket"]["seniorId"] = json!(a);
        body["cart"]["presentations"][0]["seats"][1]["ticket"]["seniorId"] = json!(b);
        body.to_string()
    };
    // One senior's ID, written twice (once without its leading zero), for two senior tickets.
    let r = app.call_as(&who, "POST", "/api/cart", Some(&with_ids("012347811", "12347811"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ilSenior_balance"), "{}", r.text);
    let r = app.call_as(&who, "POST", "/api/cart", Some(&with_ids("012347811", "000000018"))).await;
    assert_eq!(r.status, StatusCode::OK, "two seniors, two senior tickets: {}", r.text);
}

async fn an_order_priced_before_the_rule_is_refused_when_its_payment_starts(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(905);
    let pair = two_ordinary_seats(&seats, 1);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    let r = post_cart(&app, &who, &p, &pair, &[REGULAR, REGULAR]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // As an older server priced it: wheelchair tickets on the ordinary seats.
    execute(db, "UPDATE order_tickets SET ticket_id = 108, price = 3400").await;
    execute(db, "UPDATE orders SET tickets_total = 6800, total = 7800").await;
    let r = payment_form(&app, &who, &p, 7800).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketSeatKind"), "{}", r.text);
    assert!(rows(db, "SELECT id FROM payments").await.is_empty(), "no payment was started");
}

async fn an_order_whose_tickets_no_longer_fit_is_refunded_at_finalisation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, seats) = grand_hall(&app, 1).await;
    let who = buyer(906);
    let pair = two_ordinary_seats(&seats, 2);
    for s in &pair {
        lock(&app, &who, &p, s).await;
    }
    let r = post_cart(&app, &who, &p, &pair, &[REGULAR, REGULAR]).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = payment_form(&app, &who, &p, r.body["cart"]["total"].as_i64().unwrap()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    // While the buyer is on the gateway's page, the order's tickets change under it.
    execute(db, "UPDATE order_tickets SET ticket_id = 108").await;
    let r = app.form_as(&who, "POST", &format!("/pay/{payment_id}/card"), Some(&card_form("4242424242424242", &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let status = rows(db, "SELECT status FROM payments").await;
    assert_eq!(status, vec!["refunded".to_owned()], "the money went back");
    assert!(rows(db, "SELECT id FROM orders WHERE status = 'paid'").await.is_empty(), "nothing was sold");
    let refunds = rows(db, "SELECT kind FROM payment_events WHERE kind = 'refunded'").await;
    assert_eq!(refunds.len(), 1);
}
}
