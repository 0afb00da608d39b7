//! A screening's own settings and a sold screening's seats moved onto a plan with the same seats
//! (issue 18 items 2 and 5, decision 0070), on SQLite and (when KUPA_TEST_POSTGRES_URL is set)
//! PostgreSQL: the ticket group chosen when a screening is added is what its tickets step lists
//! and its cart prices, and stays once a seat is held or sold; a mini-site's lock is judged by
//! the mini-site's switch, not the web shop's; one screening closed to one channel; a move onto a
//! twin hall takes the held and the paid seats to their places of the same name (the old places
//! free in the arbiter, the new ones taken in the seat status), and is refused when a seat is
//! missing there; managers of the business only, every change in the audit.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use jiff::ToSpan;
use kupa_app::staff::Role;
use kupa_domain::catalogue::SeatState;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// The demo's premium group (₪65 a seat) and its ticket.
const PREMIUM_GROUP: i64 = 2;
const PREMIUM: i64 = 201;
const REGULAR: i64 = 101;

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

async fn call(app: &TestApp, m: &str, method: &str, uri: &str, body: Option<Value>) -> Reply {
    staff_call(app, m, method, uri, body, None).await
}

fn day(app: &TestApp, n: i64) -> String {
    app.today.checked_add(n.days()).unwrap().to_string()
}

async fn presentation(app: &TestApp, id: i64) -> Presentation {
    app.presentations()
        .await
        .into_iter()
        .find(|p| p.id == id)
        .expect("listed")
}

async fn count(db: &TestDb, sql: &str) -> i64 {
    let sql = format!("SELECT CAST(({sql}) AS TEXT)");
    rows(db, Box::leak(sql.into_boxed_str())).await[0]
        .parse()
        .unwrap()
}

async fn run(db: &TestDb, sql: String) {
    execute(db, Box::leak(sql.into_boxed_str())).await;
}

/// The group ids the presentation's tickets step lists.
async fn listed_groups(app: &TestApp, id: i64) -> Vec<i64> {
    listed_ticket_groups(app, id)
        .await
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

/// Prices `who`'s held seats `seats` of presentation `id` on ticket `ticket`.
async fn price(app: &TestApp, who: &str, id: i64, seats: &[&SeatShort], ticket: i64) -> Reply {
    let lines: Vec<Value> = seats
        .iter()
        .map(|s| json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si, "ticket": { "ticketId": ticket } }))
        .collect();
    let cart = json!({ "cart": { "presentations": [{ "presentationId": id, "seats": lines }] }, "step": "tickets", "locale": "he" });
    app.call_as(who, "POST", "/api/cart", Some(&cart.to_string()))
        .await
}

/// A twin of the port's big hall (plan 1) in the same complex: hall `venue` selling plan `plan`,
/// its sections numbered anew (`+ offset`), every seat one grid cell to the right, and the seats
/// of `without` (row, seat) left out. Written straight into the catalogue, as a plan editor would.
async fn twin_hall(db: &TestDb, venue: i64, plan: i64, offset: i64, without: Option<(&str, &str)>) {
    run(db, format!("INSERT INTO venues (id, location_id, name, name_en, venue_type_id) VALUES ({venue}, 2, 'אולם תאום {venue}', 'Twin hall {venue}', 1)")).await;
    run(db, format!("INSERT INTO seatplans (id, venue_id, name, width, height, screen_label, screen_label_en, best_x, best_y) \
                     SELECT {plan}, {venue}, name, width + 1, height, screen_label, screen_label_en, best_x + 1, best_y FROM seatplans WHERE id = 1")).await;
    run(db, format!("INSERT INTO sections (id, seatplan_id, name, name_en, kind, capacity, ticket_group_id, price_level, sort) \
                     SELECT id + {offset}, {plan}, name, name_en, kind, capacity, ticket_group_id, price_level, sort FROM sections WHERE seatplan_id = 1")).await;
    run(db, format!("INSERT INTO seats (seatplan_id, section_id, x, y, row_name, seat_name, group_id, premium, handicap, companion, limited_view, sofa_id, attributes) \
                     SELECT {plan}, section_id + {offset}, x + 1, y, row_name, seat_name, group_id, premium, handicap, companion, limited_view, sofa_id, attributes \
                     FROM seats WHERE seatplan_id = 1")).await;
    if let Some((row, seat)) = without {
        run(db, format!("DELETE FROM seats WHERE seatplan_id = {plan} AND row_name = '{row}' AND seat_name = '{seat}'")).await;
    }
    run(
        db,
        "UPDATE catalogue_version SET version = version + 1 WHERE id = 1".into(),
    )
    .await;
}

api_tests! {

async fn a_ticket_group_chosen_when_adding_is_what_the_screening_sells_until_a_seat_is_taken(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let choices = call(&app, &m, "GET", "/api/staff/programme/choices", None).await;
    let groups: Vec<i64> = choices.body["ticketGroups"].as_array().unwrap().iter().map(|g| g["id"].as_i64().unwrap()).collect();
    assert!(groups.contains(&PREMIUM_GROUP) && !groups.contains(&9), "groups sold online only: {groups:?}");
    let body = json!({ "featureId": 3, "venueId": 1, "date": day(&app, 7), "time": "08:00", "ticketGroupId": PREMIUM_GROUP });
    let r = call(&app, &m, "POST", "/api/staff/programme/screenings", Some(body)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["screening"]["ticketGroupId"], PREMIUM_GROUP);
    let id = r.body["screening"]["id"].as_i64().unwrap();
    // Its tickets step lists the premium group in place of the hall's standard one; the press
    // seats' box-office group stays theirs.
    let listed = listed_groups(&app, id).await;
    assert!(listed.contains(&PREMIUM_GROUP) && !listed.contains(&1), "{listed:?}");
    // Its seat plan, asked for the screening, says so seat by seat.
    let p = presentation(&app, id).await;
    let r = app.post(&format!("/api/seats/seatplanV2?venueId=1&seatplanId=1&presentationId={id}"), &json!({ "recaptchaToken": kupa_app::ports::CAPTCHA_TEST_TOKEN }).to_string()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let tgs: std::collections::BTreeSet<i64> = r.body["seatplan"]["seats"].as_array().unwrap().iter().map(|s| s["tg"].as_i64().unwrap()).collect();
    assert_eq!(tgs.into_iter().collect::<Vec<_>>(), [PREMIUM_GROUP, 9]);
    // The cart prices it: a premium ticket is sold, a regular one is not this screening's.
    let plan = app.seat_plan(&p).await;
    let (a, b) = row_end_pair(&plan, 0);
    let who = buyer(61);
    for s in [a, b] {
        app.lock(&who, &p, s.key()).await.ok();
    }
    let r = price(&app, &who, id, &[a, b], REGULAR).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"), "{}", r.text);
    let r = price(&app, &who, id, &[a, b], PREMIUM).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["tickets"][0]["price"], 6500);
    // Held: the group stays.
    let uri = format!("/api/staff/programme/screenings/{id}/ticketGroup");
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "ticketGroupId": null }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "screeningHasSales"), "{}", r.text);
    assert_eq!((r.body["error"]["params"]["sold"].as_i64(), r.body["error"]["params"]["held"].as_i64()), (Some(0), Some(2)));
    // Let go, it may change (back to the hall's); an unknown group is refused in words.
    for s in [a, b] {
        app.unlock(&who, &p, s.key()).await.ok();
    }
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "ticketGroupId": 999 }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "ticketGroupId": null }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["screening"]["ticketGroupId"], Value::Null);
    assert!(listed_groups(&app, id).await.contains(&1));
    // Sold: it stays for good.
    let k = priced_cart_for(&app, &buyer(62), serde_json::to_value(&p).unwrap(), 0, None, "he").await;
    pay_by_card(&app, &buyer(62), k).await;
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "ticketGroupId": PREMIUM_GROUP }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "screeningHasSales"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["sold"], 2);
    // Recorded: the addition with its group, then the one change made.
    let h = call(&app, &m, "GET", &format!("/api/staff/programme/screenings/{id}/changes"), None).await;
    let kinds: Vec<&str> = h.body["changes"].as_array().unwrap().iter().map(|c| c["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["added", "ticketGroup"]);
    assert_eq!(h.body["changes"][0]["after"]["ticketGroupId"], PREMIUM_GROUP);
    assert_eq!((&h.body["changes"][1]["before"]["ticketGroupId"], &h.body["changes"][1]["after"]["ticketGroupId"]), (&json!(PREMIUM_GROUP), &Value::Null));
}

async fn a_mini_sites_lock_is_judged_by_the_mini_sites_switch(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // Film 3 plays in the port's big hall; the kids' mini-site shows it.
    let p = app.presentations().await.into_iter()
        .find(|p| p.venue_id == 1 && p.feature_id == 3 && p.is_on_sale && app.starts_after(p, 24)).expect("film 3 on sale");
    let plan = app.seat_plan(&p).await;
    let (a, b) = row_end_pair(&plan, 0);
    let set = |channel: &'static str, open: bool| {
        json!({ "locationId": p.location_id, "channel": channel, "offline": false, "advanceSales": true, "open": open })
    };
    // The web shop's channel closed: the web shop's lock is refused, the mini-site's is not.
    assert_eq!(call(&app, &m, "PUT", "/api/staff/salesSwitches", Some(set("web", false))).await.status, StatusCode::OK);
    assert_eq!(app.lock(&buyer(71), &p, a.key()).await.refused(), (StatusCode::CONFLICT, "noTicketsInChannel"));
    let through_kids = with(seat_body(&p, a.key()), json!({ "miniSiteUrl": "kids" }));
    app.lock_with(&buyer(71), &through_kids).await.ok();
    let best = app.best_available(&buyer(72), p.id, "quantity=2&isLock=0&miniSiteUrl=kids").await;
    assert_eq!(best.status, StatusCode::OK, "{}", best.text);
    let best = app.best_available(&buyer(72), p.id, "quantity=2&isLock=0").await;
    assert_eq!(best.refused(), (StatusCode::CONFLICT, "noTicketsInChannel"));
    // And the other way round.
    assert_eq!(call(&app, &m, "PUT", "/api/staff/salesSwitches", Some(set("web", true))).await.status, StatusCode::OK);
    assert_eq!(call(&app, &m, "PUT", "/api/staff/salesSwitches", Some(set("miniSite", false))).await.status, StatusCode::OK);
    let through_kids = with(seat_body(&p, b.key()), json!({ "miniSiteUrl": "kids" }));
    assert_eq!(app.lock_with(&buyer(73), &through_kids).await.refused(), (StatusCode::CONFLICT, "noTicketsInChannel"));
    app.lock(&buyer(73), &p, b.key()).await.ok();
    // A screening the mini-site does not show is not its to lock.
    let other = app.presentations().await.into_iter()
        .find(|x| x.venue_id == 1 && x.feature_id == 9 && x.is_on_sale).expect("film 9 on sale");
    let seat = row_end_pair(&app.seat_plan(&other).await, 0).0.key();
    let r = app.lock_with(&buyer(74), &with(seat_body(&other, seat), json!({ "miniSiteUrl": "kids" }))).await;
    assert_eq!(r.refused(), (StatusCode::NOT_FOUND, "noEvent"));
}

async fn one_screening_closed_to_one_channel_refuses_it_there_only(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let p = app.presentations().await.into_iter()
        .find(|p| p.venue_id == 1 && p.feature_id == 3 && p.is_on_sale && app.starts_after(p, 24)).expect("film 3 on sale");
    let sibling = app.presentations().await.into_iter()
        .find(|x| x.venue_id == 1 && x.feature_id == 3 && x.is_on_sale && x.id != p.id).expect("another");
    let seat = row_end_pair(&app.seat_plan(&p).await, 0).0.key();
    let other = app.another_node(db, test_settings()).await;
    assert!(other.presentations().await.iter().any(|x| x.id == p.id && x.is_on_sale));
    let uri = format!("/api/staff/programme/screenings/{}/channels", p.id);
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "channel": "web", "open": false }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["screening"]["closedChannels"], json!(["web"]));
    // Closed on the web: locks, What's on; the mini-site still sells it, the sibling sells.
    assert_eq!(app.lock(&buyer(81), &p, seat).await.refused(), (StatusCode::CONFLICT, "noTicketsInChannel"));
    let listed = app.presentations().await;
    let shown = listed.iter().find(|x| x.id == p.id).unwrap();
    assert_eq!((shown.sales_closed.as_deref(), shown.is_on_sale), (Some("noTicketsInChannel"), false));
    assert!(listed.iter().any(|x| x.id == sibling.id && x.sales_closed.is_none()));
    app.lock_with(&buyer(82), &with(seat_body(&p, seat), json!({ "miniSiteUrl": "kids" }))).await.ok();
    // The other node within a second.
    tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
    let shown = other.presentations().await.into_iter().find(|x| x.id == p.id).unwrap();
    assert_eq!(shown.sales_closed.as_deref(), Some("noTicketsInChannel"));
    // Opened again.
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "channel": "web", "open": true }))).await;
    assert_eq!(r.body["screening"]["closedChannels"], json!([]));
    assert!(app.presentations().await.iter().any(|x| x.id == p.id && x.sales_closed.is_none()));
    // Bad input; roles and business.
    let r = call(&app, &m, "PUT", &uri, Some(json!({ "channel": "kiosk", "open": false }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let stranger = manager(&app, "m@other.example", &[2]).await;
    let body = json!({ "channel": "web", "open": false });
    assert_eq!(call(&app, &usher, "PUT", &uri, Some(body.clone())).await.status, StatusCode::FORBIDDEN);
    assert_eq!(call(&app, &stranger, "PUT", &uri, Some(body.clone())).await.status, StatusCode::NOT_FOUND);
    let group = format!("/api/staff/programme/screenings/{}/ticketGroup", p.id);
    assert_eq!(call(&app, &stranger, "PUT", &group, Some(json!({ "ticketGroupId": null }))).await.status, StatusCode::NOT_FOUND);
    assert_eq!(call(&app, &usher, "PUT", &group, Some(json!({ "ticketGroupId": null }))).await.status, StatusCode::FORBIDDEN);
    // The two changes in the audit: closed, then opened.
    let docs = rows(db, "SELECT before_doc || '|' || after_doc FROM backoffice_audit WHERE kind = 'screeningChannel' ORDER BY id").await;
    assert_eq!(docs.len(), 2);
    let (before, after) = docs[0].split_once('|').unwrap();
    assert_eq!(serde_json::from_str::<Value>(before).unwrap()["open"], true);
    assert_eq!(serde_json::from_str::<Value>(after).unwrap(), json!({ "presentationId": p.id, "channel": "web", "open": false }));
}

async fn a_move_onto_a_twin_hall_takes_held_and_paid_seats_to_their_namesakes(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    twin_hall(db, 10, 200, 5000, None).await;
    // A buyer paid for two seats; another holds two, priced but unpaid.
    let dana = log_in(&app, &buyer(91), "0524318876").await;
    let paid = pay_by_card(&app, &dana, priced_cart_at(&app, &dana, 0, None, "he").await).await;
    let pid = paid.k.presentation["id"].as_i64().unwrap();
    let holder = buyer(92);
    let held = priced_cart_for(&app, &holder, paid.k.presentation.clone(), 1, None, "he").await;
    let name = |s: &Value| (s["r"].as_str().unwrap().to_owned(), s["n"].as_str().unwrap().to_owned());
    let old_paid: Vec<SeatAddress> = paid.k.seats.iter().map(|s| SeatAddress::new(s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap())).collect();
    let old_held: Vec<SeatAddress> = held.seats.iter().map(|s| SeatAddress::new(s["si"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap())).collect();
    // Each seat's place in the twin: the same names; section + 5000, one cell to the right.
    let twin = |a: &SeatAddress| SeatAddress::new(a.section_id + 5000, a.x + 1, a.y);

    let uri = format!("/api/staff/programme/screenings/{pid}/move");
    let r = call(&app, &m, "POST", &uri, Some(json!({ "venueId": 10, "date": day(&app, 20), "time": "18:15" }))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["seatsMoved"].as_i64(), r.body["ordersTold"].as_i64()), (Some(4), Some(1)));
    assert_eq!((r.body["screening"]["venueId"].as_i64(), r.body["screening"]["seatplanId"].as_i64()), (Some(10), Some(200)));
    assert_eq!((r.body["screening"]["sold"].as_i64(), r.body["screening"]["held"].as_i64()), (Some(2), Some(2)));

    // The seat status of the new plan: the paid seats sold, the held ones the holder's.
    for a in &old_paid {
        assert_eq!(app.seat_state(&buyer(93), pid, twin(a)).await.s, "sold");
    }
    for a in &old_held {
        assert_eq!(app.seat_state(&holder, pid, twin(a)).await.s, "heldByMe");
        assert_eq!(app.seat_state(&buyer(93), pid, twin(a)).await.s, "heldByOther");
    }
    // The arbiter: the old places free, the new ones taken.
    let arbiter = app.state.booking.arbiter();
    let now = kupa_app::ports::Clock::now_ms(app.clock.as_ref());
    let states = arbiter.with_view(kupa_domain::ids::PresentationId(pid), &"someone".into(), now, |view| {
        (old_paid.iter().chain(&old_held).map(view).collect::<Vec<_>>(),
         old_paid.iter().chain(&old_held).map(|a| view(&twin(a))).collect::<Vec<_>>())
    }).await.unwrap();
    assert!(states.0.iter().all(|s| *s == SeatState::Available), "{states:?}");
    assert_eq!(states.1, [SeatState::Sold, SeatState::Sold, SeatState::HeldByOther, SeatState::HeldByOther]);
    // Another buyer cannot take a moved seat, and can take a free one of the twin.
    let p = presentation(&app, pid).await;
    assert_eq!((p.venue_id, p.seatplan_id), (10, 200));
    assert_eq!(app.lock(&buyer(94), &p, twin(&old_paid[0])).await.refused().1, "lock_seat_error");
    // The paid tickets name the same seats; the holder's hold follows: they price and pay it.
    let res = app.call_as(&dana, "GET", &format!("/api/reservations/{}", paid.reservation), None).await;
    let seats = res.body["reservation"]["seats"].as_array().unwrap().clone();
    let names: Vec<(String, String)> = seats.iter().map(|s| (s["row"].as_str().unwrap_or_default().to_owned(), s["seat"].as_str().unwrap_or_default().to_owned())).collect();
    assert_eq!(names, paid.k.seats.iter().map(name).collect::<Vec<_>>(), "{}", res.text);
    let moved: Vec<SeatAddress> = seats.iter().map(|s| SeatAddress::new(s["sectionId"].as_i64().unwrap(), s["x"].as_i64().unwrap(), s["y"].as_i64().unwrap())).collect();
    assert_eq!(moved, old_paid.iter().map(twin).collect::<Vec<_>>());
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM order_tickets WHERE presentation_id = {pid} AND section_id > 5000")).await, 4);
    let plan = app.seat_plan(&p).await;
    let mine: Vec<&SeatShort> = old_held.iter().map(|a| plan.seats.iter().find(|s| s.key() == twin(a)).expect("in the twin")).collect();
    let r = price(&app, &holder, pid, &mine, REGULAR).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {pid} AND section_id < 5000")).await, 0);

    // A twin missing a sold seat: the move is refused, naming it, and nothing moves.
    let (row, seat) = name(&paid.k.seats[0]);
    twin_hall(db, 11, 201, 6000, Some((&row, &seat))).await;
    let r = call(&app, &m, "POST", &uri, Some(json!({ "venueId": 11, "date": day(&app, 20), "time": "18:15" }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "seatPlanDiffers"), "{}", r.text);
    let missing = r.body["error"]["params"]["missing"].as_array().unwrap().clone();
    assert_eq!(missing.len(), 1, "{}", r.text);
    assert_eq!((missing[0]["row"].as_str(), missing[0]["seat"].as_str()), (Some(row.as_str()), Some(seat.as_str())));
    assert_eq!(presentation(&app, pid).await.seatplan_id, 200);
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {pid} AND section_id > 6000")).await, 0);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit WHERE kind = 'moved'").await, 1);
}

}
