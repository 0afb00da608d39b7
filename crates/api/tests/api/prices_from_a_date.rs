//! Prices and service charges from a date (issue 18 item 2, decision 0070), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a price scheduled from a day is the price of the
//! business's screenings of that day on — the storefront's ticket list, the cart and the paid
//! order agree — and not of the day before; an order priced before the change keeps its price;
//! a day in the past is refused, as is a second change of one ticket from one day; a withdrawn
//! change is gone at once; the service charge from a day likewise; another node follows within a
//! second; managers of the business only, every change in the audit.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use jiff::ToSpan;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// The demo's regular ticket (group 1): ₪42 with its own ₪5 service charge.
const REGULAR: i64 = 101;

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

fn day(app: &TestApp, n: i64) -> String {
    app.today.checked_add(n.days()).unwrap().to_string()
}

/// A screening of film 3 added in the port's big hall (business 1) on day `n` at 08:00.
async fn screening_on(app: &TestApp, m: &str, n: i64) -> Presentation {
    let body = json!({ "featureId": 3, "venueId": 1, "date": day(app, n), "time": "08:00" });
    let r = staff_call(
        app,
        m,
        "POST",
        "/api/staff/programme/screenings",
        Some(body),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["screening"]["id"].as_i64().unwrap();
    app.presentations()
        .await
        .into_iter()
        .find(|p| p.id == id)
        .expect("listed")
}

async fn schedule(app: &TestApp, m: &str, body: Value) -> Reply {
    staff_call(
        app,
        m,
        "POST",
        "/api/staff/prices/tickets",
        Some(body),
        None,
    )
    .await
}

/// The regular ticket's price in the presentation's ticket list, as the tickets step shows it.
async fn listed_price(app: &TestApp, id: i64) -> i64 {
    listed_ticket_groups(app, id)
        .await
        .iter()
        .flat_map(|g| g["tickets"].as_array().unwrap().iter())
        .find(|t| t["id"] == REGULAR)
        .and_then(|t| t["price"].as_i64())
        .expect("the regular ticket")
}

/// `who` holds the `row`th plain pair of seats of `p` and prices them on regular tickets at
/// `amount` each (what the client believes the price is).
async fn cart_at(
    app: &TestApp,
    who: &str,
    p: &Presentation,
    row: usize,
    amount: i64,
) -> (Reply, Paying) {
    let plan = app.seat_plan(p).await;
    let (a, b) = row_end_pair(&plan, row);
    for s in [a, b] {
        app.lock(who, p, s.key()).await.ok();
    }
    let lines: Vec<Value> = [a, b]
        .iter()
        .map(|s| {
            json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si,
                         "ticket": { "ticketId": REGULAR, "amount": amount } })
        })
        .collect();
    let cart = json!({
        "cart": {
            "presentations": [{ "presentationId": p.id, "seats": lines }],
            "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
                              "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] },
        },
        "step": "customerInfo",
        "locale": "he",
    });
    let r = app
        .call_as(who, "POST", "/api/cart", Some(&cart.to_string()))
        .await;
    let total = r.body["cart"]["total"].as_i64().unwrap_or_default();
    let paying = Paying {
        presentation: serde_json::to_value(p).unwrap(),
        seats: vec![
            serde_json::to_value(a).unwrap(),
            serde_json::to_value(b).unwrap(),
        ],
        total,
    };
    (r, paying)
}

async fn count(db: &TestDb, sql: &str) -> i64 {
    let sql = format!("SELECT CAST(({sql}) AS TEXT)");
    rows(db, Box::leak(sql.into_boxed_str())).await[0]
        .parse()
        .unwrap()
}

api_tests! {

async fn a_price_from_a_day_sells_that_days_screenings_and_the_cart_and_order_agree(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let before = screening_on(&app, &m, 5).await;
    let after = screening_on(&app, &m, 6).await;
    // Priced before the change: this buyer's order keeps ₪42 a ticket.
    let (early, early_cart) = cart_at(&app, &buyer(41), &after, 0, 4200).await;
    assert_eq!(early.status, StatusCode::OK, "{}", early.text);

    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": 4700 })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let change = r.body["change"].clone();
    assert_eq!((change["ticketId"].as_i64(), change["price"].as_i64()), (Some(REGULAR), Some(4700)));
    assert_eq!(change["effectiveFrom"], day(&app, 6));

    // The storefront: the day before keeps the catalogue's price, the day itself sells the new one.
    assert_eq!(listed_price(&app, before.id).await, 4200);
    assert_eq!(listed_price(&app, after.id).await, 4700);
    // The cart agrees: the old amount is refused as a changed price, the new one is charged.
    let (r, _) = cart_at(&app, &buyer(42), &after, 1, 4200).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch"), "{}", r.text);
    let (r, k) = cart_at(&app, &buyer(42), &after, 1, 4700).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["tickets"][0]["price"], 4700);
    assert_eq!(k.total, 2 * (4700 + 500));
    let (r, k_before) = cart_at(&app, &buyer(43), &before, 0, 4200).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(k_before.total, 2 * (4200 + 500));
    // The order's total is the new price; the order priced before pays what it was priced at.
    let paid = pay_by_card(&app, &buyer(42), k).await;
    let res = app.call_as(&buyer(42), "GET", &format!("/api/reservations/{}", paid.reservation), None).await;
    assert_eq!(res.body["reservation"]["total"], 2 * (4700 + 500), "{}", res.text);
    let old = pay_by_card(&app, &buyer(41), early_cart).await;
    let res = app.call_as(&buyer(41), "GET", &format!("/api/reservations/{}", old.reservation), None).await;
    assert_eq!(res.body["reservation"]["total"], 2 * (4200 + 500), "{}", res.text);
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM order_tickets ot JOIN orders o ON o.id = ot.order_id WHERE o.status = 'paid' AND ot.presentation_id = {} AND ot.price = 4200", after.id)).await, 2);
}

async fn a_past_day_a_second_change_of_a_day_and_a_withdrawal_are_handled_and_audited(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let later = screening_on(&app, &m, 6).await;
    // Never from a day in the past; bad input in words.
    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, -1), "price": 4700 })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["field"], "effectiveFrom");
    for (body, field) in [
        (json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": -1 }), "price"),
        (json!({ "businessId": 1, "ticketId": 99999, "effectiveFrom": day(&app, 6), "price": 100 }), "ticketId"),
        (json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": "next week", "price": 100 }), "effectiveFrom"),
    ] {
        let r = schedule(&app, &m, body).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["field"], field);
    }
    // Today is not the past.
    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 0), "price": 4300 })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": 4700 })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["change"]["id"].as_i64().unwrap();
    // One change of a ticket from one day.
    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": 5000 })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "priceChangeExists"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["id"], id);
    assert_eq!(listed_price(&app, later.id).await, 4700);
    // The list: today's price, what is scheduled.
    let list = get(&app, &m, "/api/staff/prices?businessId=1").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let regular = list.body["ticketGroups"].as_array().unwrap().iter()
        .flat_map(|g| g["tickets"].as_array().unwrap().iter()).find(|t| t["id"] == REGULAR).unwrap().clone();
    assert_eq!((regular["price"].as_i64(), regular["priceToday"].as_i64()), (Some(4200), Some(4300)));
    let days: Vec<&str> = list.body["ticketChanges"].as_array().unwrap().iter().map(|c| c["effectiveFrom"].as_str().unwrap()).collect();
    assert_eq!(days, [day(&app, 0), day(&app, 6)]);
    // Withdrawn: the screening of day 6 sells at today's change's price again, at once.
    let r = staff_call(&app, &m, "POST", &format!("/api/staff/prices/tickets/{id}/withdraw"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(listed_price(&app, later.id).await, 4300);
    let r = staff_call(&app, &m, "POST", &format!("/api/staff/prices/tickets/{id}/withdraw"), None, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    // Each change in the audit, the business's (no complex), with who and what.
    let audit = get(&app, &m, "/api/staff/audit?kind=priceScheduled").await;
    let changes = audit.body["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{}", audit.text);
    assert_eq!((changes[0]["businessId"].as_i64(), &changes[0]["locationId"]), (Some(1), &Value::Null));
    assert_eq!(changes[0]["after"]["price"], 4700);
    assert_eq!(changes[0]["before"], Value::Null);
    let withdrawn = get(&app, &m, "/api/staff/audit?kind=priceWithdrawn").await;
    assert_eq!(withdrawn.body["changes"][0]["before"]["price"], 4700);
    assert_eq!(withdrawn.body["changes"][0]["after"], json!({ "id": id, "withdrawn": true }));
    assert_eq!(withdrawn.body["changes"][0]["by"], "Test Staff");
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit WHERE kind LIKE 'price%'").await, 3);
}

async fn a_service_charge_from_a_day_is_charged_on_that_days_screenings(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let before = screening_on(&app, &m, 5).await;
    let after = screening_on(&app, &m, 6).await;
    // 10 % of the tickets, once per order, from day 6 (the regular ticket keeps its own ₪5).
    let body = json!({ "businessId": 1, "effectiveFrom": day(&app, 6), "percentBp": 1000, "perTicket": false });
    let r = staff_call(&app, &m, "POST", "/api/staff/prices/serviceCharges", Some(body), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!(r.body["change"]["serviceCharge"], json!({ "amount": null, "percentBp": 1000, "perTicket": false }));
    let detail = app.get(&format!("/api/presentations/{}/ticketGroups", after.id)).await;
    assert_eq!(detail.body["serviceCharge"]["percentBp"], 1000, "{}", detail.text);
    let (r, _) = cart_at(&app, &buyer(51), &after, 0, 4200).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["priceBreakdown"]["orderServiceCharge"], 840);
    let (r, _) = cart_at(&app, &buyer(52), &before, 0, 4200).await;
    assert_eq!(r.body["cart"]["priceBreakdown"]["orderServiceCharge"], 0);
    // Both kinds at once, or neither: refused.
    let body = json!({ "businessId": 1, "effectiveFrom": day(&app, 7), "amount": 300, "percentBp": 1000, "perTicket": true });
    let r = staff_call(&app, &m, "POST", "/api/staff/prices/serviceCharges", Some(body), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    // Withdrawn: gone from day 6 too.
    let id = get(&app, &m, "/api/staff/prices?businessId=1").await.body["serviceChargeChanges"][0]["id"].as_i64().unwrap();
    let r = staff_call(&app, &m, "POST", &format!("/api/staff/prices/serviceCharges/{id}/withdraw"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let detail = app.get(&format!("/api/presentations/{}/ticketGroups", after.id)).await;
    assert_eq!(detail.body["serviceCharge"]["percentBp"], Value::Null, "{}", detail.text);
}

async fn a_price_set_on_one_node_is_sold_by_another_within_a_second(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let later = screening_on(&app, &m, 6).await;
    let other = app.another_node(db, test_settings()).await;
    assert_eq!(listed_price(&other, later.id).await, 4200);
    let r = schedule(&app, &m, json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": 4700 })).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
    assert_eq!(listed_price(&other, later.id).await, 4700);
}

async fn prices_are_a_managers_of_their_own_business(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let stranger = manager(&app, "m@other.example", &[2]).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let body = json!({ "businessId": 1, "ticketId": REGULAR, "effectiveFrom": day(&app, 6), "price": 4700 });
    let r = schedule(&app, &usher, body.clone()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    assert_eq!(get(&app, &usher, "/api/staff/prices?businessId=1").await.status, StatusCode::FORBIDDEN);
    let r = schedule(&app, &stranger, body.clone()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    assert_eq!(get(&app, &stranger, "/api/staff/prices?businessId=1").await.status, StatusCode::NOT_FOUND);
    // The other business's manager may not withdraw this business's change either.
    let id = schedule(&app, &m, body).await.body["change"]["id"].as_i64().unwrap();
    let r = staff_call(&app, &stranger, "POST", &format!("/api/staff/prices/tickets/{id}/withdraw"), None, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    // Its own business's prices are its own: business 1's change is not business 2's price.
    let list = get(&app, &stranger, "/api/staff/prices?businessId=2").await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    assert_eq!(list.body["ticketChanges"], json!([]));
    assert_eq!(app.get("/api/staff/prices?businessId=1").await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit").await, 1, "only the one change");
}

}
