//! Orders of several presentations (one cart, one payment, one reservation) and changing the
//! seats of a paid order (POST /reservations/{id}/modify), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::client::*;
use crate::common::paying::{regular_ticket, row_end_pair};
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::orders::{OrderStore, PaymentStatus};
use kupa_app::ports::Clock;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

fn customer() -> Value {
    json!({ "firstName": "דנה", "lastName": "כהן", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
            "mobileNumber": "+972521234567", "acceptedTerms": [1, 2, 3] })
}

/// Two presentations on sale in the big hall, a day away or more: the first, and the first of
/// the others `goes_with` it.
async fn first_and(
    app: &TestApp,
    goes_with: impl Fn(&Presentation, &Presentation) -> bool,
    what: &str,
) -> (Presentation, Presentation) {
    let list = app.presentations().await;
    let on_sale: Vec<&Presentation> = list
        .iter()
        .filter(|p| p.venue_id == 1 && p.is_on_sale && !p.is_vod && app.starts_after(p, 24))
        .collect();
    let first = on_sale[0];
    let second = on_sale
        .iter()
        .filter(|p| goes_with(first, p))
        .min_by_key(|p| starts_ms(p))
        .unwrap_or_else(|| panic!("{what}"));
    let copy = |p: &Presentation| -> Presentation {
        serde_json::from_value(serde_json::to_value(p).unwrap()).unwrap()
    };
    (copy(first), copy(second))
}

/// Two presentations of one auth profile and one business (orders may join them).
fn compatible(a: &Presentation, b: &Presentation) -> bool {
    a.auth_profile_id == b.auth_profile_id && a.business_id == b.business_id
}

/// Two presentations on sale in the big hall, of one auth profile and one business.
async fn two_compatible(app: &TestApp) -> (Presentation, Presentation) {
    first_and(
        app,
        |a, b| a.id != b.id && compatible(a, b),
        "two compatible presentations",
    )
    .await
}

/// `who` holds the `row`th row-end pair of `p`; the cart part for them, with regular tickets, and
/// the regular ticket's price.
async fn hold_pair(
    app: &TestApp,
    who: &str,
    p: &Presentation,
    row: usize,
) -> (Value, i64, Vec<SeatAddress>) {
    let plan = app.seat_plan(p).await;
    let (a, b) = row_end_pair(&plan, row);
    for s in [a, b] {
        app.lock(who, p, s.key()).await.expect("the seat is free");
    }
    let groups = app.ticket_groups(p.id, None).await.ok();
    let regular = regular_ticket(&groups, Some(a.tg));
    let seats: Vec<Value> = [a, b]
        .iter()
        .map(|s| {
            json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si,
                         "ticket": { "ticketId": regular.id, "amount": regular.price } })
        })
        .collect();
    (
        json!({ "presentationId": p.id, "seats": seats }),
        regular.price,
        vec![a.key(), b.key()],
    )
}

async fn authorize(app: &TestApp, db: &TestDb, payment_id: &str) {
    crate::common::picked::authorize(app, db, payment_id, PaymentStatus::Authorized).await;
}

/// A paid reservation of `who`: the `row`th pair of `p`, through cart, payment and commit.
async fn bought(
    app: &TestApp,
    db: &TestDb,
    who: &str,
    p: &Presentation,
    row: usize,
) -> Reservation {
    let (part, _, _) = hold_pair(app, who, p, row).await;
    paid(app, db, who, p, part).await
}

/// The held seats of `part` paid for: cart, payment and commit; the reservation read back.
async fn paid(app: &TestApp, db: &TestDb, who: &str, p: &Presentation, part: Value) -> Reservation {
    let cart = json!({ "cart": { "presentations": [part], "customerInfo": customer() }, "step": "customerInfo", "locale": "he" });
    let priced = app.post_cart(who, &cart).await.ok();
    let form = app
        .payment_form(who, "he", p.id, priced.cart.total, "")
        .await
        .ok();
    authorize(app, db, &form.payment_identifier).await;
    let done = app.commit(who, p.id).await.ok();
    app.reservation(who, &done.reservation_identifier)
        .await
        .ok()
        .reservation
}

/// A plain free seat of `p`'s regular tickets' group, far from the row ends the tests buy.
async fn free_seat(app: &TestApp, p: &Presentation, nth: usize) -> SeatAddress {
    let plan = app.seat_plan(p).await;
    let (a, _) = row_end_pair(&plan, 8 + nth);
    a.key()
}

fn modify_body(r: &Reservation, from: &ReservedSeat, to: SeatAddress) -> Value {
    json!({ "resId": r.reservation_identifier, "lastTransactionId": r.last_transaction_id,
            "tickets": [{ "presentationId": from.presentation_id, "sectionId": from.section_id, "x": from.x, "y": from.y,
                          "newSeat": { "sectionId": to.section_id, "x": to.x, "y": to.y } }] })
}

async fn modify(app: &TestApp, who: &str, r: &Reservation, body: &Value) -> Reply {
    app.call_as(
        who,
        "POST",
        &format!("/api/reservations/{}/modify", r.reservation_identifier),
        Some(&body.to_string()),
    )
    .await
}

fn at(s: &ReservedSeat) -> SeatAddress {
    SeatAddress::new(s.section_id, s.x, s.y)
}

/// The mails of the outbox that carry `reservation`'s tickets.
async fn mails_of(app: &TestApp, reservation: &str) -> usize {
    let r = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    r.body["messages"].as_array().map_or(0, |m| {
        m.iter().filter(|m| m["reference"] == reservation).count()
    })
}

/// Two compatible presentations on different days in Jerusalem, the later second (each screening's
/// date is then its own in every message, and a link must outlive the later one).
async fn two_on_different_days(app: &TestApp) -> (Presentation, Presentation) {
    first_and(
        app,
        |a, b| compatible(a, b) && starts_ms(b) > starts_ms(a) && local_day(b) != local_day(a),
        "a compatible presentation on another day",
    )
    .await
}

fn starts_ms(p: &Presentation) -> i64 {
    p.date_time
        .parse::<jiff::Timestamp>()
        .unwrap()
        .as_millisecond()
}

fn local_day(p: &Presentation) -> String {
    kupa_app::tickets_out::local_date(starts_ms(p), "he")
}

api_tests! {
async fn a_cart_of_two_presentations_is_one_order_one_payment_one_reservation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let (p1, p2) = two_compatible(&app).await;
    let (part1, price1, seats1) = hold_pair(&app, &who, &p1, 0).await;
    let (part2, price2, seats2) = hold_pair(&app, &who, &p2, 1).await;
    let cart = json!({ "cart": { "presentations": [part1, part2], "customerInfo": customer() }, "step": "customerInfo", "locale": "he" });
    let priced = app.post_cart(&who, &cart).await.expect("two presentations in one cart");
    assert_eq!(priced.cart.presentation_ids, vec![p1.id, p2.id]);
    assert_eq!(priced.cart.tickets.len(), 4);
    assert_eq!(priced.cart.tickets.iter().map(|t| t.presentation_id).collect::<Vec<_>>(), vec![p1.id, p1.id, p2.id, p2.id]);
    assert_eq!(priced.cart.tickets_total, 2 * price1 + 2 * price2);
    assert_eq!(priced.cart.total, priced.cart.tickets_total + priced.cart.service_charge, "one total, one service charge");
    assert!(priced.cart.service_charge > 0);

    // One payment for the whole cart, found by either presentation.
    let form = app.payment_form(&who, "he", p2.id, priced.cart.total, "").await.expect("the payment of the whole cart");
    assert_eq!(form.amount, priced.cart.total);
    authorize(&app, db, &form.payment_identifier).await;
    let done = app.commit(&who, p1.id).await.expect("one commit");
    assert_eq!(done.ticket_identifiers.len(), 4);
    assert_eq!(app.commit(&who, p2.id).await.refused(), (StatusCode::CONFLICT, "ORDER_ALREADY_PAID"), "one reservation, committed once");

    let r = app.reservation(&who, &done.reservation_identifier).await.ok().reservation;
    assert_eq!(r.presentations.iter().map(|p| p.id).collect::<Vec<_>>(), vec![p1.id, p2.id]);
    assert_eq!(r.presentation.id, p1.id);
    assert_eq!(r.seats.len(), 4);
    assert_eq!(r.total, priced.cart.total);
    for (p, seats) in [(&p1, &seats1), (&p2, &seats2)] {
        for s in seats.iter() {
            assert_eq!(app.seat_state(&buyer(2), p.id, *s).await.s, "sold", "{s} of {} is sold", p.id);
        }
    }
    // Each ticket's e-document (what the door scans) shows its own presentation.
    for seat in &r.seats {
        let doc = app.get(&format!("/api/edocument/{}", seat.document_key)).await;
        assert_eq!(doc.status, StatusCode::OK, "{}", doc.text);
        assert_eq!(doc.body["presentation"]["id"].as_i64(), Some(seat.presentation_id));
    }
    // The store carried both presentations over: the order reads back with them.
    let order = db.db.order(&r.reservation_identifier.as_str().into()).await.unwrap().unwrap();
    assert_eq!(order.presentations, [p1.id, p2.id].map(kupa_domain::ids::PresentationId));
}

async fn a_cart_refuses_a_presentation_twice_and_video_on_demand_with_others(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(3);
    let (p1, _) = two_compatible(&app).await;
    let (part, _, _) = hold_pair(&app, &who, &p1, 2).await;
    let body = json!({ "cart": { "presentations": [part.clone(), part] } });
    let r = app.post_cart(&who, &body).await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    let list = app.presentations().await;
    if let Some(vod) = list.iter().find(|p| p.is_vod && p.is_on_sale && (p.venue_type_id == 101 || p.venue_type_id == 102)
        && p.auth_profile_id == p1.auth_profile_id && p.business_id == p1.business_id)
    {
        let body = json!({ "cart": { "presentations": [{ "presentationId": p1.id, "seats": [] }, { "presentationId": vod.id, "seats": [] }] } });
        let r = app.post_cart(&who, &body).await;
        assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "onePresentationPerOrder"), "{}", r.text);
    }
}

async fn a_paid_ticket_moves_to_a_free_seat_and_the_old_one_is_on_sale_again(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(4);
    let (p, _) = two_compatible(&app).await;
    let r = bought(&app, db, &who, &p, 3).await;
    let to = free_seat(&app, &p, 0).await;
    let old: ReservedSeat = serde_json::from_value(serde_json::to_value(&r.seats[0]).unwrap()).unwrap();
    let reply = modify(&app, &who, &r, &modify_body(&r, &old, to)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    example(&app, "modifyReservation", "ModifyResponse", &reply);
    let after = app.reservation(&who, &r.reservation_identifier).await.ok().reservation;
    assert_eq!(at(&after.seats[0]), to);
    assert_ne!(after.seats[0].document_key, old.document_key, "the old ticket no longer admits");
    assert_eq!(at(&after.seats[1]), at(&r.seats[1]), "the other ticket stays");
    assert_eq!(after.total, r.total, "the price does not change");
    assert_eq!(app.seat_state(&buyer(5), p.id, to).await.s, "sold");
    assert!(app.seat_state(&buyer(5), p.id, at(&old)).await.is_available, "the old seat is on sale again");
    // The read it was made from is now stale for anything but the new state.
    let again = modify(&app, &who, &r, &modify_body(&r, &old, free_seat(&app, &p, 1).await)).await;
    assert_eq!((again.status, code(&again)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "the old seat is no longer a ticket: {}", again.text);
    // Someone else cannot move it.
    let stranger = modify(&app, &buyer(6), &after, &modify_body(&after, &after.seats[0], free_seat(&app, &p, 1).await)).await;
    assert_eq!(stranger.status, StatusCode::NOT_FOUND);
    // A wrong last transaction changes nothing.
    let mut stale = modify_body(&after, &after.seats[0], free_seat(&app, &p, 1).await);
    stale["lastTransactionId"] = json!("not-the-last-one");
    let reply = modify(&app, &who, &after, &stale).await;
    assert_eq!((reply.status, code(&reply)), (StatusCode::CONFLICT, "reservationChanged"), "{}", reply.text);
    assert_eq!(app.seat_state(&buyer(5), p.id, to).await.s, "sold");
}

async fn a_taken_seat_leaves_the_reservation_as_it_was(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(7);
    let (p, _) = two_compatible(&app).await;
    let r = bought(&app, db, &who, &p, 4).await;
    // Another buyer holds the seat; a third bought one.
    let held = free_seat(&app, &p, 2).await;
    app.lock(&buyer(8), &p, held).await.expect("free");
    let other = bought(&app, db, &buyer(9), &p, 5).await;
    for taken in [held, at(&other.seats[0])] {
        let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], taken)).await;
        assert_eq!((reply.status, code(&reply)), (StatusCode::CONFLICT, "lock_seat_error"), "{}", reply.text);
        let after = app.reservation(&who, &r.reservation_identifier).await.ok().reservation;
        assert_eq!(at(&after.seats[0]), at(&r.seats[0]), "the ticket keeps its seat");
        assert_eq!(after.seats[0].document_key, r.seats[0].document_key);
        assert_eq!(app.seat_state(&buyer(10), p.id, at(&r.seats[0])).await.s, "sold", "the old seat is still sold");
    }
    assert_eq!(app.seat_state(&buyer(10), p.id, held).await.s, "heldByOther", "the other buyer's hold stands");
    // The buyer's own hold is a seat they may move into.
    let mine = free_seat(&app, &p, 3).await;
    app.lock(&who, &p, mine).await.expect("free");
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[1], mine)).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(app.seat_state(&buyer(10), p.id, mine).await.s, "sold");
}

async fn two_reservations_racing_for_one_seat_one_wins_and_neither_loses_its_own(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (a, b) = (buyer(11), buyer(12));
    let (p, _) = two_compatible(&app).await;
    let ra = bought(&app, db, &a, &p, 6).await;
    let rb = bought(&app, db, &b, &p, 7).await;
    let to = free_seat(&app, &p, 4).await;
    let (body_a, body_b) = (modify_body(&ra, &ra.seats[0], to), modify_body(&rb, &rb.seats[0], to));
    let (x, y) = tokio::join!(modify(&app, &a, &ra, &body_a), modify(&app, &b, &rb, &body_b));
    let wins = [&x, &y].iter().filter(|r| r.status == StatusCode::OK).count();
    assert_eq!(wins, 1, "exactly one gets the seat: {} / {}", x.text, y.text);
    let loser = if x.status == StatusCode::OK { (&b, &rb, &y) } else { (&a, &ra, &x) };
    assert_eq!(code(loser.2), "lock_seat_error");
    let after = app.reservation(loser.0, &loser.1.reservation_identifier).await.ok().reservation;
    assert_eq!(at(&after.seats[0]), at(&loser.1.seats[0]), "the loser keeps its seat");
    assert_eq!(app.seat_state(&buyer(13), p.id, at(&loser.1.seats[0])).await.s, "sold");
    assert_eq!(app.seat_state(&buyer(13), p.id, to).await.s, "sold");
    // The seat is sold once: one order's claim.
    let owners = crate::common::paying::rows(db, "SELECT order_id FROM seat_claims WHERE state = 'sold'").await;
    let orders: std::collections::HashSet<&String> = owners.iter().collect();
    assert_eq!(owners.len(), 4, "four tickets, four sold seats");
    assert_eq!(orders.len(), 2);
}

async fn seat_changes_are_offered_to_the_buyer_until_the_presentation_starts(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(14);
    let (p, _) = two_compatible(&app).await;
    let r = bought(&app, db, &who, &p, 8).await;
    assert!(r.seat_change.changeable, "a paid order of reserved seats, before the start");
    assert_eq!(r.seat_change.presentations.len(), 1);
    assert_eq!(r.seat_change.presentations[0].presentation_id, p.id);
    assert_eq!(r.seat_change.presentations[0].until, p.date_time, "until the presentation starts");
    // A signed link reads the reservation but changes nothing.
    let (exp, sig) = signed_query(&r.confirmation_url);
    let by_link = app.call_as(&buyer(15), "GET", &format!("/api/reservations/{}?exp={exp}&sig={sig}", r.reservation_identifier), None).await;
    assert_eq!(by_link.status, StatusCode::OK, "{}", by_link.text);
    assert_eq!(by_link.body["reservation"]["seatChange"]["changeable"], false);
    // Once it started: neither offered nor done.
    let starts = p.date_time.parse::<jiff::Timestamp>().expect("a time").as_millisecond();
    app.clock.advance_ms(starts - app.clock.now_ms() + 1);
    let later = app.reservation(&who, &r.reservation_identifier).await.ok().reservation;
    assert!(!later.seat_change.changeable);
    let to = free_seat(&app, &p, 5).await;
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], to)).await;
    assert_eq!(code(&reply), "ticketing_ended", "{}", reply.text);
    assert_eq!(at(&app.reservation(&who, &r.reservation_identifier).await.ok().reservation.seats[0]), at(&r.seats[0]));
}

async fn a_seat_change_keeps_the_halls_rules_and_mails_the_new_tickets(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(16);
    let (p, _) = two_compatible(&app).await;
    let r = bought(&app, db, &who, &p, 9).await;
    assert_eq!(mails_of(&app, &r.reservation_identifier).await, 1, "the confirmation");
    let plan = app.seat_plan(&p).await;
    // The second seat of a free row end would leave the row's end seat alone (policy 3).
    let (end, second) = row_end_pair(&plan, 15);
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], second.key())).await;
    assert_eq!((reply.status, code(&reply)), (StatusCode::UNPROCESSABLE_ENTITY, "singleSeatGap"), "{}", reply.text);
    assert!(app.seat_state(&buyer(17), p.id, second.key()).await.is_available, "nothing claimed");
    // A seat of other tickets (another ticket group) is not this ticket's.
    let other_group = plan.seats.iter().find(|s| s.tg != r_group(&plan, &r)).expect("a seat of other tickets");
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], other_group.key())).await;
    assert_eq!((reply.status, code(&reply)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", reply.text);
    // A ticket already admitted at the door changes seats at the box office only.
    crate::common::paying::execute(db, "UPDATE order_tickets SET scanned_at = 1 WHERE line = 2").await;
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[1], end.key())).await;
    assert_eq!((reply.status, code(&reply)), (StatusCode::CONFLICT, "ticketing_ended"), "{}", reply.text);
    assert_eq!(reply.body["error"]["params"]["reason"], "admitted");
    assert_eq!(mails_of(&app, &r.reservation_identifier).await, 1, "no change, no mail");
    // The row's end seat itself is fine; the buyer gets the tickets again.
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], end.key())).await;
    assert_eq!(reply.status, StatusCode::OK, "{}", reply.text);
    assert_eq!(mails_of(&app, &r.reservation_identifier).await, 2, "the tickets with the new seat");
}

async fn a_seat_change_never_splits_a_sofa(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(18);
    let p = app.presentations().await.into_iter()
        .find(|p| p.venue_id == 2 && p.is_on_sale && !p.is_vod && app.starts_after(p, 24))
        .expect("a screening of the sofa hall on sale");
    let plan = app.seat_plan(&p).await;
    let partner = |s: &SeatShort| plan.seats.iter().find(|o| o.sf == s.sf && o.key() != s.key());
    let beside = |s: &SeatShort, dx: i64| plan.seats.iter().any(|o| o.si == s.si && o.y == s.y && o.x == s.x + dx);
    // Sofas (a seat and its partner) whose partner has another seat beside it, so that taking
    // one seat of it leaves no single empty seat: only the sofa rule speaks.
    let sofas: Vec<(&SeatShort, &SeatShort)> = plan.seats.iter()
        .filter(|s| s.sf.is_some())
        .filter_map(|s| {
            let other = partner(s)?;
            let dx = other.x - s.x;
            (dx.abs() == 1 && beside(other, dx)).then_some((s, other))
        })
        .collect();
    let (a, b) = sofas[0];
    for s in [a, b] {
        app.lock(&who, &p, s.key()).await.expect("the sofa is free");
    }
    let groups = app.ticket_groups(p.id, None).await.ok();
    let premium = groups.ticket_groups.iter()
        .filter(|g| g.id == a.tg).flat_map(|g| &g.tickets)
        .find(|t| t.name_en == "Premium").expect("the premium ticket");
    let seats: Vec<Value> = [a, b].iter()
        .map(|s| json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si, "ticket": { "ticketId": premium.id, "amount": premium.price } }))
        .collect();
    let r = paid(&app, db, &who, &p, json!({ "presentationId": p.id, "seats": seats })).await;
    // One seat of another sofa, in another row: the old sofa and the new one would be split.
    let (c, _) = sofas.iter().find(|(c, _)| c.y != a.y).expect("a sofa in another row");
    let reply = modify(&app, &who, &r, &modify_body(&r, &r.seats[0], c.key())).await;
    assert_eq!((reply.status, code(&reply)), (StatusCode::UNPROCESSABLE_ENTITY, "sofaSplit"), "{}", reply.text);
    assert!(app.seat_state(&buyer(19), p.id, c.key()).await.is_available, "nothing claimed");
}

async fn the_mail_the_text_and_the_calendar_show_each_screening_with_its_own_seats(db: &TestDb) {
    use kupa_app::tickets_out::{local_date, local_time};
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(14);
    let (p1, p2) = two_on_different_days(&app).await;
    let (part1, _, _) = hold_pair(&app, &who, &p1, 10).await;
    let (part2, _, _) = hold_pair(&app, &who, &p2, 11).await;
    let cart = json!({ "cart": { "presentations": [part1, part2], "customerInfo": customer() }, "step": "customerInfo", "locale": "he" });
    let priced = app.post_cart(&who, &cart).await.ok();
    let form = app.payment_form(&who, "he", p1.id, priced.cart.total, "").await.ok();
    authorize(&app, db, &form.payment_identifier).await;
    let id = app.commit(&who, p1.id).await.ok().reservation_identifier;
    let r = app.reservation(&who, &id).await.ok().reservation;
    let seats_of = |p: &Presentation| -> Vec<&ReservedSeat> { r.seats.iter().filter(|s| s.presentation_id == p.id).collect() };
    let when = |p: &Presentation| format!("תאריך: {}\nשעה: {}", local_date(starts_ms(p), "he"), local_time(starts_ms(p)));

    // The mail: each screening's film, hall, date and time, then its own seats and e-documents.
    let mail = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    let m = &mail.body["messages"][0];
    let (text, html, subject) = (m["text"].as_str().unwrap(), m["html"].as_str().unwrap(), m["subject"].as_str().unwrap());
    assert!(text.contains("בהזמנה 2 הקרנות"), "{text}");
    let at1 = text.find(&when(&p1)).unwrap_or_else(|| panic!("the first screening's date and time: {text}"));
    let at2 = text.find(&when(&p2)).unwrap_or_else(|| panic!("the second screening's date and time: {text}"));
    assert!(at1 < at2, "in the order bought");
    for (p, from, to) in [(&p1, at1, at2), (&p2, at2, text.len())] {
        let part = &text[from..to];
        assert!(text[..from].ends_with(&format!("{}\nקולנוע ואולם: {} – {}\n", p.feature_name, p.location_name, p.venue_name)), "{} headed by its film and hall: {text}", p.id);
        for s in seats_of(p) {
            assert!(part.contains(&format!("שורה {} · מושב {}", s.row, s.seat)) && part.contains(&s.edocument_url), "seat {} {} under its screening: {part}", s.row, s.seat);
        }
        assert_eq!(part.matches("/edocument/").count(), 2, "only its own tickets: {part}");
        assert!(html.contains(&local_date(starts_ms(p), "he")) && html.contains(&p.venue_name), "the HTML part shows {} too", p.id);
    }
    assert!(subject.contains(&p1.feature_name) && (p1.feature_name == p2.feature_name || subject.contains(&p2.feature_name)), "{subject}");
    // The links outlive the later screening (the end of the day after it).
    let exp = kupa_app::links::link_expiry(starts_ms(&p2));
    assert!(text.contains(&format!("exp={exp}&")), "the links last until the day after the second screening: {text}");

    // The calendar file: one event per screening, each with its own seats.
    let ics = app.call_as(&who, "GET", &format!("/api/reservations/{id}/calendar.ics"), None).await;
    assert_eq!(ics.status, StatusCode::OK, "{}", ics.text);
    let unfolded = ics.text.replace("\r\n ", "");
    let events: Vec<&str> = unfolded.split("BEGIN:VEVENT").skip(1).collect();
    assert_eq!(events.len(), 2, "{unfolded}");
    let uids: std::collections::HashSet<&str> = events.iter().filter_map(|e| e.lines().find(|l| l.starts_with("UID:"))).collect();
    assert_eq!(uids.len(), 2, "each event its own UID");
    for (event, p) in events.iter().zip([&p1, &p2]) {
        let start = jiff::Timestamp::from_millisecond(starts_ms(p)).unwrap().strftime("%Y%m%dT%H%M%SZ").to_string();
        assert!(event.contains(&format!("DTSTART:{start}")), "{event}");
        for s in seats_of(p) {
            assert!(event.contains(&format!("שורה {} מושב {}", s.row, s.seat)), "{event}");
        }
        assert_eq!(event.matches("מושב").count(), 2, "only its own two seats: {event}");
    }

    // The text message: each screening by its film and time with its own e-documents.
    let body = json!({ "mobileNumber": "052-765-4321" }).to_string();
    let sent = app.call_as(&who, "POST", &format!("/api/reservations/{id}/sendTickets"), Some(&body)).await;
    assert_eq!(sent.status, StatusCode::OK, "{}", sent.text);
    let sms = app.get("/api/test/outbox/sms?to=0527654321").await;
    let sms = sms.body["messages"][0]["body"].as_str().unwrap().to_owned();
    let (s1, s2) = (sms.find(&local_date(starts_ms(&p1), "he")).expect("the first date"), sms.find(&local_date(starts_ms(&p2), "he")).expect("the second date"));
    assert!(s1 < s2, "{sms}");
    for s in seats_of(&p1) {
        let at = sms.find(&s.edocument_url).unwrap();
        assert!(s1 < at && at < s2, "{sms}");
    }
    for s in seats_of(&p2) {
        assert!(sms.find(&s.edocument_url).unwrap() > s2, "{sms}");
    }
    assert!(sms.contains(&format!("exp={exp}&")), "{sms}");
}

async fn in_english_the_mail_names_each_screening_with_its_own_hall_date_and_seats(db: &TestDb) {
    use kupa_app::tickets_out::{local_date, local_time};
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(15);
    let (p1, p2) = two_on_different_days(&app).await;
    let (part1, _, _) = hold_pair(&app, &who, &p1, 12).await;
    let (part2, _, _) = hold_pair(&app, &who, &p2, 13).await;
    let cart = json!({ "cart": { "presentations": [part1, part2], "customerInfo": customer() }, "step": "customerInfo", "locale": "en" });
    let priced = app.post_cart(&who, &cart).await.ok();
    let form = app.payment_form(&who, "en", p1.id, priced.cart.total, "").await.ok();
    authorize(&app, db, &form.payment_identifier).await;
    let id = app.commit(&who, p1.id).await.ok().reservation_identifier;
    let r = app.reservation(&who, &id).await.ok().reservation;
    let mail = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    let m = &mail.body["messages"][0];
    let (text, html) = (m["text"].as_str().unwrap(), m["html"].as_str().unwrap());
    assert!(text.contains("This order has 2 screenings, each with its own tickets:"), "{text}");
    assert!(html.contains("<html lang=\"en\" dir=\"ltr\">"));
    let head = |p: &Presentation| {
        format!(
            "{}\nCinema and hall: {} – {}\nDate: {}\nTime: {}\n",
            p.feature_name_en,
            p.location_name_en,
            p.venue_name_en,
            local_date(starts_ms(p), "en"),
            local_time(starts_ms(p))
        )
    };
    let at1 = text.find(&head(&p1)).unwrap_or_else(|| panic!("the first screening in English: {text}"));
    let at2 = text.find(&head(&p2)).unwrap_or_else(|| panic!("the second screening in English: {text}"));
    assert!(at1 < at2);
    for (p, from, to) in [(&p1, at1, at2), (&p2, at2, text.len())] {
        for s in r.seats.iter().filter(|s| s.presentation_id == p.id) {
            let line = format!("Row {} · Seat {}", s.row, s.seat);
            assert!(text[from..to].contains(&line), "{line} under its screening: {text}");
        }
    }
}
}

/// The ticket group of the reservation's first seat.
fn r_group(plan: &SeatplanV2, r: &Reservation) -> i64 {
    let s = &r.seats[0];
    plan.seats
        .iter()
        .find(|p| p.key() == at(s))
        .expect("the seat is the plan's")
        .tg
}

/// The `exp` and `sig` of a signed path.
fn signed_query(path: &str) -> (String, String) {
    let query = path.split_once('?').expect("a signed path").1;
    let get = |k: &str| {
        query
            .split('&')
            .find_map(|p| p.strip_prefix(&format!("{k}=")))
            .unwrap_or_default()
            .to_owned()
    };
    (get("exp"), get("sig"))
}
