//! Holding seats over HTTP: lock, unlock, sofas, special seats, general admission, sale windows,
//! step timers and expiry, on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::*;
use axum::http::StatusCode;
use kupa_store::testing::TestDb;
use serde_json::json;

/// An on-sale presentation in the given venue, with its seat plan.
async fn on_sale_in_venue(app: &TestApp, venue_id: i64) -> (Presentation, SeatplanV2) {
    let p = app.on_sale_in(venue_id).await;
    let plan = app.seat_plan(&p).await;
    (p, plan)
}

/// Seats with nothing special: no wheelchair place, a full view, no sofa.
fn plain_seats(plan: &SeatplanV2) -> Vec<&SeatShort> {
    plan.seats
        .iter()
        .filter(|s| !s.hc && !s.lv && s.sf.is_none())
        .collect()
}

/// The seat `dx` places along the row from `at`.
fn along(at: SeatAddress, dx: i64) -> SeatAddress {
    SeatAddress { x: at.x + dx, ..at }
}

api_tests! {
async fn a_seat_held_by_one_buyer_is_refused_to_another_until_released(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seat = plain_seats(&plan)[40].key();
    let (a, b) = (buyer(1), buyer(2));

    let r = app.lock(&a, &p, seat).await;
    let lock = r.ok();
    assert_eq!(lock.locked_seat.key(), seat);
    assert_eq!(lock.step, "seats");
    assert!(lock.expires_at > lock.server_time);
    example(&app, "lockSeat", "LockResponse", &r);

    assert_eq!(app.seat_state(&a, p.id, seat).await.s, "heldByMe");
    assert!(app.seat_state(&a, p.id, seat).await.is_selected);
    assert_eq!(app.seat_state(&b, p.id, seat).await.s, "heldByOther");

    let r = app.lock(&b, &p, seat).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "lock_seat_error"));
    example(&app, "lockSeat", "ErrorBody", &r);
    let r = app.unlock(&b, &p, seat).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "unlock_seat_error"), "a buyer cannot release another's seat");

    let r = app.unlock(&a, &p, seat).await;
    assert_eq!(r.ok().unlocked_seats.len(), 1);
    example(&app, "unlockSeat", "UnlockResponse", &r);
    app.lock(&b, &p, seat).await.expect("released seats are free again");

    let r = app.my_holds(&b, p.id).await;
    let holds = r.ok();
    assert_eq!(holds.seats.iter().map(Placed::key).collect::<Vec<_>>(), [seat]);
    assert_eq!(holds.step.as_deref(), Some("seats"));
    example(&app, "myHolds", "MyHoldsResponse", &r);
}

async fn a_sofa_is_held_and_released_whole(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 2).await;
    let sofa_seat = plan.seats.iter().find(|s| s.sf.is_some()).unwrap();
    let sofa: Vec<&SeatShort> = plan.seats.iter().filter(|s| s.sf == sofa_seat.sf).collect();
    assert!(sofa.len() >= 2);
    let lock = app.lock(&buyer(1), &p, sofa_seat.key()).await.ok();
    assert_eq!(lock.locked_seats.len(), sofa.len(), "the whole sofa is held");
    let partner = sofa.iter().find(|s| s.x != sofa_seat.x).unwrap().key();
    let r = app.lock(&buyer(2), &p, partner).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "lock_seat_error"), "the partner seat went with the sofa");
    let unlocked = app.unlock(&buyer(1), &p, partner).await.ok();
    assert_eq!(unlocked.unlocked_seats.len(), sofa.len());
}

async fn wheelchair_and_limited_view_seats_need_a_confirmation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 4).await;
    let wheelchair = plan.seats.iter().find(|s| s.hc && s.sf.is_none()).expect("venue 4 has a wheelchair place");
    let limited_view = plan.seats.iter().find(|s| s.lv && s.sf.is_none()).expect("venue 4 has a limited-view seat");
    for (seat, confirm) in [(wheelchair, "confirmWheelchair"), (limited_view, "confirmLimitedView")] {
        let at = seat.key();
        let r = app.lock(&buyer(1), &p, at).await;
        assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "seatConfirmationRequired"), "{confirm}");
        app.lock_with(&buyer(1), &with(seat_body(&p, at), json!({ confirm: true }))).await.expect(confirm);
    }
}

async fn a_buyer_may_hold_at_most_the_configured_number_of_seats(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seats = plain_seats(&plan);
    for s in seats.iter().take(10) {
        app.lock(&buyer(1), &p, s.key()).await.ok();
    }
    let eleventh = seats[10].key();
    let r = app.lock(&buyer(1), &p, eleventh).await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "tooManySeats"));
    app.lock(&buyer(2), &p, eleventh).await.expect("the limit is per buyer");
}

async fn general_admission_places_are_numbered_and_never_oversold(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 8).await;
    let section = plan.sections.iter().filter(|s| s.kind == "ga").min_by_key(|s| s.capacity).unwrap();
    let (si, capacity) = (section.id, section.capacity);
    // Any place of the section: the server numbers them.
    let anywhere = SeatAddress { section_id: si, x: 0, y: 0 };
    let mut numbers = std::collections::BTreeSet::new();
    for i in 0..capacity {
        let who = buyer(100 + (i / 10) as u32);
        let lock = app.lock(&who, &p, anywhere).await.expect(&format!("place {i}"));
        assert!(numbers.insert(lock.locked_seat.x), "each place once");
    }
    assert_eq!(numbers, (1..=capacity).collect(), "places 1..=capacity");
    let r = app.lock(&buyer(999), &p, anywhere).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ga_not_enough_seats"));
    let status = app.seat_status(&buyer(999), p.id).await;
    let sec = status.sections.iter().find(|s| s.id == si).unwrap();
    assert_eq!((sec.remaining, sec.sold_out), (0, true));
}

async fn seats_are_sold_only_inside_the_sale_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let premiere = app.not_yet_on_sale().await;
    let seat = app.seat_plan(&premiere).await.seats[0].key();
    let r = app.lock(&buyer(1), &premiere, seat).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ticket_sale_not_yet_started"));
    let past_day = app.today.checked_sub(jiff::ToSpan::days(2)).unwrap();
    let past = app.presentations_on(past_day).await.into_iter().find(|p| p.venue_id == premiere.venue_id).unwrap();
    let r = app.lock(&buyer(1), &past, seat).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ticketing_ended"));
}

async fn an_expired_hold_is_free_for_another_buyer_and_cannot_be_extended(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seat = plain_seats(&plan)[5].key();
    app.lock(&buyer(1), &p, seat).await.ok();
    let r = app.extend(&buyer(1), p.id).await;
    assert!(r.ok().extended);
    example(&app, "extendHold", "CheckoutResponse", &r);
    let r = app.extend(&buyer(1), p.id).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "extensionNotAllowed"), "once per step");

    // 10 minutes of choosing seats, extended once: 20 minutes and one more second.
    app.advance_clock_ms(1_201_000).await;
    assert_eq!(app.seat_state(&buyer(2), p.id, seat).await.s, "available");
    app.lock(&buyer(2), &p, seat).await.expect("the expired hold is free at once");
    let r = app.extend(&buyer(1), p.id).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "timeExpired"));
    let holds = app.my_holds(&buyer(1), p.id).await.ok();
    assert!(holds.seats.is_empty() && holds.step.is_none());
}

async fn policy_three_blocks_the_seat_that_would_leave_a_single_gap(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    assert_eq!(p.seating_policy_id, 3);
    // Three seats side by side in one row, away from aisles: hold the left one; the seat two
    // to its right would strand the seat between them, so it is blocked for this buyer.
    let exists = |at: SeatAddress| plan.seats.iter().any(|s| s.key() == at);
    let start = plan.seats.iter().map(Placed::key).find(|&at| (1..=3).all(|d| exists(along(at, d))) && exists(along(at, -1))).unwrap();
    app.lock(&buyer(1), &p, start).await.ok();
    let stranding = app.seat_state(&buyer(1), p.id, along(start, 2)).await;
    assert!(stranding.is_blocked, "would strand x+1");
    assert_eq!(stranding.block_reason, Some(SeatBlockReason::SingleSeat), "the map can say why");
    let beside = app.seat_state(&buyer(1), p.id, along(start, 1)).await;
    assert!(!beside.is_blocked);
    assert_eq!(beside.block_reason, None);
    // Another buyer taking x+2 would strand x+1 just the same; x+3 strands nothing.
    assert!(!app.seat_state(&buyer(2), p.id, along(start, 3)).await.is_blocked);
}

async fn lock_and_unlock_refuse_a_wrong_captcha_with_400(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let seat = plain_seats(&plan)[0].key();
    let wrong = with(seat_body(&p, seat), json!({ "recaptchaToken": "nope" }));
    assert_eq!(app.lock_with(&buyer(1), &wrong).await.refused(), (StatusCode::BAD_REQUEST, "recaptcha"));
    assert_eq!(app.unlock_with(&buyer(1), &wrong).await.refused(), (StatusCode::BAD_REQUEST, "recaptcha"));
    let r = app.lock_with(&buyer(1), &json!({ "seat": { "PresentationId": "x" } })).await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let nowhere = SeatAddress { x: 999, y: 999, ..seat };
    let r = app.lock(&buyer(1), &p, nowhere).await;
    assert_eq!(r.refused(), (StatusCode::NOT_FOUND, "notFound"), "no seat there: the request is well formed, the seat does not exist");
}

async fn best_available_finds_contiguous_seats_and_can_hold_them_at_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, _) = on_sale_in_venue(&app, 1).await;
    let r = app.best_available(&buyer(1), p.id, "quantity=3&maxMatches=5").await;
    let best = r.ok();
    assert_eq!(best.matches.len(), 5);
    for m in &best.matches {
        assert_eq!(m.seats.len(), 3);
        assert!(m.seats.windows(2).all(|w| w[1].key() == along(w[0].key(), 1)), "side by side: {m:?}");
        assert!(!m.is_locked);
    }
    example(&app, "bestAvailable", "BestAvailableResponse", &r);
    let held = app.best_available(&buyer(1), p.id, "quantity=2&isLock=1").await.ok().matches.remove(0);
    assert!(held.is_locked);
    for s in &held.seats {
        assert_eq!(app.seat_state(&buyer(1), p.id, s.key()).await.s, "heldByMe");
    }
    // Another buyer asking the same gets other seats.
    let other = app.best_available(&buyer(2), p.id, "quantity=2&isLock=1").await.ok().matches.remove(0);
    let keys = |m: &BestMatchDto| m.seats.iter().map(Placed::key).collect::<Vec<_>>();
    assert_ne!(keys(&other), keys(&held));
}

async fn best_available_says_why_there_are_not_enough_seats(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let who = buyer(1);
    let r = app.best_available(&who, p.id, "quantity=1000").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "res_not_enough_seats"));
    let longest_row = plan.seats.iter().fold(std::collections::HashMap::<(i64, i64), i64>::new(), |mut m, s| {
        *m.entry((s.si, s.y)).or_default() += 1;
        m
    }).into_values().max().unwrap();
    let r = app.best_available(&who, p.id, &format!("quantity={}", longest_row + 1)).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "NOT_ENOUGH_SEATS"), "no row is that long");
    let section = &plan.sections[0];
    let r = app.best_available(&who, p.id, &format!("quantity={}&sectionId={}", section.capacity + 1, section.id)).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "section_not_enough_seats"));
    let (ga, ga_plan) = on_sale_in_venue(&app, 3).await;
    let r = app.best_available(&who, ga.id, &format!("quantity={}", ga_plan.sections[0].capacity + 1)).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ga_not_enough_seats"));
    let r = app.get(&format!("/api/seats/best-available?presentationId={}&quantity=2&recaptchaToken=wrong", p.id)).await;
    assert_eq!(code(&r), "recaptcha");
}

async fn seats_without_an_online_price_are_refused_with_no_price_policy(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (p, plan) = on_sale_in_venue(&app, 1).await;
    let press = plan.seats.iter().find(|s| s.tg == 9).expect("the big hall has press seats").key();
    let r = app.lock(&buyer(1), &p, press).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "no_price_policy"));
    let shown = app.seat_state(&buyer(1), p.id, press).await;
    assert!(shown.is_blocked, "the seat map shows it as not selectable");
    assert_eq!(shown.block_reason, Some(SeatBlockReason::BoxOffice), "sold at the box office only");
}
}
