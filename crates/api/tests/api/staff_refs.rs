//! The ticket-reference prompt admin with real references (decision 0026) and its SMS resend
//! (decision 0032), on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: hotel guest
//! tickets naming a room are bought the real way (seats locked, cart priced, card paid,
//! committed), and the detail and ticket-sales calls count what the orders hold; a manager or
//! agent of the reservation's business resends its tickets to the order's own number, a few times
//! an hour at most.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::staff::Role;
use kupa_app::staff::resend::RESENDS_PER_RESERVATION;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const MOBILE: &str = "0524318876";

async fn sms_to(app: &TestApp) -> Vec<Value> {
    app.get(&format!("/api/test/outbox/sms?to={MOBILE}"))
        .await
        .body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn resend_uri(reservation: &str) -> String {
    format!("/api/pres-live/reservations/{reservation}/sendTickets")
}

async fn resend(app: &TestApp, cookie: &str, reservation: &str) -> Reply {
    staff_call(app, cookie, "POST", &resend_uri(reservation), None, None).await
}

/// The rows of a reference-prompt call, as (Reference1, Quantity, Revenue) sorted.
fn by_reference(r: &Reply) -> Vec<(String, i64, i64)> {
    let mut out: Vec<(String, i64, i64)> = ok(r)["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| {
            (
                row["Reference1"].as_str().unwrap().to_owned(),
                row["Quantity"].as_i64().unwrap(),
                row["Revenue"].as_i64().unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

api_tests! {

async fn the_reference_admin_counts_hotel_guest_tickets_bought_the_real_way(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Manager, &[2], false).await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;
    // Three reservations: rooms 101 and 102 together, 101 with a regular ticket, 201 alone.
    let (p, first) = buy_with_refs(&app, &buyer(1), 0, [Some("101"), Some("102")]).await;
    buy_with_refs(&app, &buyer(2), 1, [Some("101"), None]).await;
    buy_with_refs(&app, &buyer(3), 2, [Some("201"), None]).await;
    let presentation = p["id"].as_i64().unwrap();
    let guest: i64 = rows(db, "SELECT CAST(price AS TEXT) FROM order_tickets WHERE ref1 = '201'").await[0]
        .parse().unwrap();
    assert!(guest > 0);

    // The options: what is left and what was used (101 had 2: both used now).
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdmin/data").await;
    let option = |reference: &str| ok(&r)["options"].as_array().unwrap().iter()
        .find(|o| o["Reference1"] == reference).unwrap().clone();
    assert_eq!((option("101")["UsedQuantity"].as_i64(), option("101")["Quantity"].as_i64()), (Some(2), Some(0)));
    assert_eq!(option("102")["UsedQuantity"], 1);
    assert_eq!(option("201")["UsedQuantity"], 1);
    assert_eq!(option("301")["UsedQuantity"], 0);

    // The detail: per presentation and reference, all dates; the money is the tickets' prices.
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data").await;
    assert_eq!(by_reference(&r), vec![
        ("101".into(), 2, 2 * guest), ("102".into(), 1, guest), ("201".into(), 1, guest),
    ]);
    assert!(ok(&r)["rows"].as_array().unwrap().iter().all(|row| row["PresentationId"] == presentation));
    // `data` narrows to one Reference1; isDetail gives one row per ticket with its reservation.
    let r = get(&app, &agent, "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data?data=101&isDetail=true").await;
    let rows_101 = ok(&r)["rows"].as_array().unwrap().clone();
    assert_eq!(rows_101.len(), 2);
    assert!(rows_101.iter().all(|row| row["Reference1"] == "101" && row["Quantity"] == 1));
    assert!(rows_101.iter().any(|row| row["ReservationNumber"] == first.reservation_number.as_str()));
    // Narrowed by presentation and ticket: the same three; another presentation: none.
    let r = get(&app, &agent, &format!(
        "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data?presentationId={presentation}&ticketId={}",
        rows_101[0]["TicketId"])).await;
    assert_eq!(by_reference(&r).len(), 3);
    let r = get(&app, &agent, &format!(
        "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data?presentationId={}", presentation + 1)).await;
    assert!(by_reference(&r).is_empty());

    // The ticket sales: by default the last month by presentation date (dateType 2), per
    // presentation and reference (detailLevel 1); detailLevel 2 per ticket.
    let sales = "/api/pres-live/monitors/TicketReferencePromptAdminTicketSales/data";
    let today = app.today;
    let r = get(&app, &agent, sales).await;
    let shown_day = date_of(&p);
    let in_default_month = shown_day <= today.to_string();
    assert_eq!(by_reference(&r).len(), if in_default_month { 3 } else { 0 }, "presentation on {shown_day}");
    let ahead = today.checked_add(jiff::Span::new().days(20)).unwrap();
    let r = get(&app, &agent, &format!("{sales}?startDate={today}&endDate={ahead}")).await;
    assert_eq!(by_reference(&r), vec![
        ("101".into(), 2, 2 * guest), ("102".into(), 1, guest), ("201".into(), 1, guest),
    ]);
    let r = get(&app, &agent, &format!("{sales}?startDate={today}&endDate={ahead}&detailLevel=2")).await;
    assert_eq!(by_reference(&r).len(), 4, "one row per ticket");
    // By the day paid (dateType 1): today, in the default month.
    let r = get(&app, &agent, &format!("{sales}?dateType=1")).await;
    assert_eq!(by_reference(&r).iter().map(|x| x.1).sum::<i64>(), 4);
    let yesterday = today.checked_sub(jiff::Span::new().days(1)).unwrap();
    let r = get(&app, &agent, &format!("{sales}?dateType=1&startDate={yesterday}&endDate={yesterday}")).await;
    assert!(by_reference(&r).is_empty());
    // Another business's manager sees none of it.
    let r = get(&app, &haifa, &format!("{sales}?startDate={today}&endDate={ahead}")).await;
    assert!(by_reference(&r).is_empty());
    let r = get(&app, &haifa, "/api/pres-live/monitors/TicketReferencePromptAdminDetail/data").await;
    assert!(by_reference(&r).is_empty());
}

async fn staff_resend_a_reservations_tickets_to_its_own_number(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "manager@chain.example", Role::Manager, &[1], false).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    add(&app, "haifa@chain.example", Role::Manager, &[2], false).await;
    let manager = staff_login(&app, "manager@chain.example").await;
    let agent = staff_login(&app, "agent@chain.example").await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let haifa = staff_login(&app, "haifa@chain.example").await;
    let (_, bought) = buy_with_refs(&app, &buyer(1), 0, [None, None]).await;
    let before = sms_to(&app).await.len();

    // No login; an usher; another business's manager; no such reservation: nothing is sent.
    let r = app.post(&resend_uri(&bought.reservation_id), "").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    let r = resend(&app, &usher, &bought.reservation_id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    let r = resend(&app, &haifa, &bought.reservation_id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let r = resend(&app, &haifa, &bought.reservation_number).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let r = resend(&app, &manager, "NO-SUCH-RESERVATION").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    // From another site's page: refused.
    let r = staff_call(&app, &manager, "POST", &resend_uri(&bought.reservation_id), None, Some("https://evil.example")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"));
    assert_eq!(sms_to(&app).await.len(), before);

    // The manager by the reservation identifier, the agent by the number the customer reads out.
    let r = resend(&app, &manager, &bought.reservation_id).await;
    assert_eq!(ok(&r), &json!({ "success": true }));
    example(&app, "staffSendTickets", "StaffSuccess", &r);
    let sent = sms_to(&app).await;
    assert_eq!(sent.len(), before + 1);
    let text = sent[0]["body"].as_str().unwrap();
    assert!(text.contains(&bought.reservation_number) && text.contains("/edocument/"), "{text}");
    assert_eq!(sent[0]["kind"], "tickets");
    let r = resend(&app, &agent, &bought.reservation_number).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Three an hour per reservation, whoever asks; then 429 with the wait; an hour later again.
    for _ in 2..RESENDS_PER_RESERVATION {
        let r = resend(&app, &agent, &bought.reservation_id).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let r = resend(&app, &manager, &bought.reservation_id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyRequests"));
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(wait > 0 && wait <= 3600, "{wait}");
    assert_eq!(sms_to(&app).await.len(), before + RESENDS_PER_RESERVATION as usize);
    app.advance_clock_ms(3_600_000).await;
    let r = resend(&app, &manager, &bought.reservation_id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn a_reservation_without_a_mobile_number_is_not_resent(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "manager@chain.example", Role::Manager, &[1], false).await;
    let manager = staff_login(&app, "manager@chain.example").await;
    let (_, bought) = buy_with_refs(&app, &buyer(1), 0, [None, None]).await;
    // The order as a box office sale without a number would leave it.
    execute(db, "UPDATE orders SET customer = REPLACE(customer, '0524318876', '')").await;
    let before = sms_to(&app).await.len();
    let r = resend(&app, &manager, &bought.reservation_id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "CUSTOMER_NO_MOBILE"));
    assert_eq!(sms_to(&app).await.len(), before);
}

}
