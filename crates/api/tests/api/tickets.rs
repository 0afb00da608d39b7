//! Tickets by code and member checks over HTTP: GET /presentations/{id}/ticket and the member
//! codes of GET /presentations/{id}/ticketGroups, on SQLite and (when KUPA_TEST_POSTGRES_URL is
//! set) PostgreSQL, against the demo chain's codes and members (docs/catalogue.md).

use crate::common::*;
use axum::http::StatusCode;
use kupa_store::testing::TestDb;

/// An on-sale presentation in the Grand Hall (venue 1: sections 11–13, ticket group 1, which takes codes).
async fn on_sale_in_grand_hall(app: &TestApp) -> i64 {
    app.on_sale_in(1).await.id
}

fn listed_ticket_ids(groups: &TicketGroupsResponse) -> Vec<i64> {
    groups
        .ticket_groups
        .iter()
        .flat_map(|g| g.tickets.iter().map(|t| t.id))
        .collect()
}

api_tests! {
async fn a_discount_code_unlocks_its_ticket_whatever_its_case_and_spaces(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_by_code(p, "ticketCode=%20kupa10%20&ticketGroupId=1&sectionId=11").await;
    let found = r.ok();
    let t = &found.ticket;
    assert_eq!((t.id, t.ticket_id, t.ticket_group_id), (112, 112, 1));
    assert_eq!((t.price, t.currency.as_str()), (3500, "ILS"));
    assert_eq!(t.code.as_deref(), Some("KUPA10"));
    assert_eq!(t.balance, None, "a discount code has no balance");
    assert_eq!(found.msg, "קוד הנחה – 35 ₪ לכרטיס");
    assert_eq!(found.msg_en, "Discount code – ₪35 a ticket");
    assert_eq!(found.ticket_code.kind, "discountCode");
    assert_eq!(found.ticket_code.uses_left, Some(463));
    example(&app, "ticketByCode", "TicketByCodeResponse", &r);
}

async fn a_value_voucher_shows_its_balance_and_a_card_benefit_its_issuer_prefix(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let voucher = app.ticket_by_code(p, "ticketCode=VALUE-5000").await.ok();
    assert_eq!((voucher.ticket.balance, voucher.ticket_code.balance), (Some(5000), Some(5000)));
    assert_eq!(voucher.ticket_code.kind, "voucher");
    assert_eq!(voucher.ticket_code.uses_left, None, "no usage limit");
    let card = app.ticket_by_code(p, "ticketCode=card4580").await.ok().ticket_code;
    assert_eq!((card.card_prefix.as_str(), card.kind.as_str()), ("4580", "creditCardBenefit"));
    let bank = app.ticket_by_code(p, "ticketCode=BANKCLUB").await.ok().ticket_code;
    assert_eq!(bank.kind, "bankCard");
    let coupon = app.ticket_by_code(p, "ticketCode=DUO2").await.ok().ticket_code;
    assert_eq!(coupon.min_tickets, 2);
}

async fn an_unknown_or_empty_code_is_code_not_found(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_by_code(p, "ticketCode=NO-SUCH-CODE").await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "codeNotFound"));
    example(&app, "ticketByCode", "ErrorBody", &r);
    let r = app.ticket_by_code(p, "ticketCode=%20%20").await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "codeNotFound"));
    let r = app.ticket_by_code(p, "ticketGroupId=1").await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "ticketCode is required");
}

async fn an_expired_voucher_is_voucher_expired(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_by_code(p, "ticketCode=GIFT-EXPIRED").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "voucherExpired"));
    example(&app, "ticketByCode", "ErrorBody", &r);
}

async fn a_voucher_with_no_balance_left_is_voucher_balance(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_by_code(p, "ticketCode=VALUE-EMPTY").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "voucherBalance"));
}

async fn a_used_up_voucher_is_over_its_usage_limit(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_by_code(p, "ticketCode=GIFT-USED").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "codeUsageLimitExceeded"));
    let single_use = app.ticket_by_code(p, "ticketCode=GIFT-2026").await.expect("a single-use voucher not yet used");
    assert_eq!(single_use.ticket_code.uses_left, Some(1));
}

async fn a_code_whose_ticket_is_not_of_the_group_asked_for_is_ticket_not_found(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    for query in ["ticketCode=KUPA10&ticketGroupId=2", "ticketCode=KUPA10&ticketId=101", "ticketCode=KUPA10&ignoreTicketIds=113,112"] {
        let r = app.ticket_by_code(p, query).await;
        assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"), "{query}");
    }
    let r = app.ticket_by_code(p, "ticketCode=KUPA10&ignoreTicketIds=1,x").await;
    assert_eq!(r.refused().1, "formValidation");
    let r = app.ticket_by_code(p, "ticketCode=KUPA10&sectionId=21").await;
    assert_eq!(r.refused(), (StatusCode::NOT_FOUND, "notFound"), "section 21 is another hall's");

    // The VIP sofa hall sells only ticket group 2, where no code ticket is sold.
    let vip = app.on_sale_in(2).await.id;
    let r = app.ticket_by_code(vip, "ticketCode=KUPA10").await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"));
}

async fn the_ticket_call_checks_the_captcha_first(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.get(&format!("/api/presentations/{p}/ticket?ticketCode=KUPA10")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"));
    example(&app, "ticketByCode", "ErrorBody", &r);
    let r = app.get("/api/presentations/99999999/ticket?ticketCode=KUPA10&recaptchaToken=wrong").await;
    assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"));
}

async fn codes_unlock_tickets_only_inside_the_sale_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let premiere = app.not_yet_on_sale().await.id;
    let r = app.ticket_by_code(premiere, "ticketCode=KUPA10").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ticket_sale_not_yet_started"));
    let past_day = app.today.checked_sub(jiff::ToSpan::days(2)).unwrap();
    let past = app.presentations_on(past_day).await.into_iter().find(|p| p.venue_id == 1).unwrap().id;
    let r = app.ticket_by_code(past, "ticketCode=KUPA10").await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "ticketing_ended"));
    let r = app.ticket_by_code(99999999, "ticketCode=KUPA10").await;
    assert_eq!(r.refused(), (StatusCode::NOT_FOUND, "noEvent"));
    let r = app.ticket_by_code(premiere, "ticketCode=KUPA10&miniSiteUrl=no-such-site").await;
    assert_eq!(r.refused(), (StatusCode::NOT_FOUND, "notFound"));
}

async fn tickets_sold_only_by_code_are_never_in_the_ticket_list(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let groups = app.ticket_groups(p, Some("100001")).await.ok();
    let ids = listed_ticket_ids(&groups);
    assert!(ids.contains(&101) && ids.contains(&105), "regular and member tickets: {ids:?}");
    assert!(ids.iter().all(|id| !(110..=115).contains(id)), "code tickets are hidden: {ids:?}");
    assert!(groups.ticket_groups[0].tickets[0].code.is_none(), "listed tickets carry no code");
}

async fn a_membership_loyalty_id_is_checked_before_member_tickets_are_listed(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.ticket_groups(p, Some("999999")).await;
    assert_eq!(r.refused(), (StatusCode::UNPROCESSABLE_ENTITY, "memberNotFound"));
    example(&app, "ticketGroups", "ErrorBody", &r);
    let r = app.ticket_groups(p, Some("100002")).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "memberExpired"));
    example(&app, "ticketGroups", "ErrorBody", &r);
    let r = app.ticket_groups(p, Some("300001")).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "memberNotStarted"));
    let r = app.ticket_groups(p, Some("200003")).await;
    assert_eq!(r.refused(), (StatusCode::CONFLICT, "memberNoneAvailable"), "a 10-film pass with nothing left");
    app.ticket_groups(p, Some("%20100001%20")).await.expect("spaces around the id are not part of it");
    let groups = app.ticket_groups(p, Some("")).await.expect("an empty id is no id");
    assert!(!listed_ticket_ids(&groups).contains(&105), "and lists no member tickets");
}
}
