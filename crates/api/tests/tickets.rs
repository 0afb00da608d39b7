//! Tickets by code and member checks over HTTP: GET /presentations/{id}/ticket and the member
//! codes of GET /presentations/{id}/ticketGroups, on SQLite and (when KUPA_TEST_POSTGRES_URL is
//! set) PostgreSQL, against the demo chain's codes and members (docs/catalogue.md).

mod common;

use axum::http::StatusCode;
use common::*;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::Value;

/// An on-sale presentation in the Grand Hall (venue 1: sections 11–13, ticket group 1, which takes codes).
async fn on_sale_in_grand_hall(app: &TestApp) -> i64 {
    let r = app.get("/api/presentations/").await;
    r.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["venueId"] == 1 && p["isOnSale"] == true && app.starts_after_hours(p, 24))
        .expect("a presentation on sale in venue 1")["id"]
        .as_i64()
        .unwrap()
}

async fn ticket(app: &TestApp, presentation: i64, query: &str) -> Reply {
    app.get(&format!(
        "/api/presentations/{presentation}/ticket?recaptchaToken={CAPTCHA_TEST_TOKEN}&{query}"
    ))
    .await
}

async fn groups(app: &TestApp, presentation: i64, member: &str) -> Reply {
    app.get(&format!(
        "/api/presentations/{presentation}/ticketGroups?membershipLoyaltyId={member}"
    ))
    .await
}

fn listed_ticket_ids(r: &Reply) -> Vec<i64> {
    r.body["ticketGroups"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|g| {
            g["tickets"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t["id"].as_i64().unwrap())
        })
        .collect()
}

api_tests! {
async fn a_discount_code_unlocks_its_ticket_whatever_its_case_and_spaces(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=%20kupa10%20&ticketGroupId=1&sectionId=11").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let t = &r.body["ticket"];
    assert_eq!((t["id"].as_i64(), t["ticketId"].as_i64(), t["ticketGroupId"].as_i64()), (Some(112), Some(112), Some(1)));
    assert_eq!((t["price"].as_i64(), t["currency"].as_str()), (Some(3500), Some("ILS")));
    assert_eq!(t["code"], "KUPA10");
    assert!(t.get("balance").is_none(), "a discount code has no balance");
    assert_eq!(r.body["msg"], "קוד הנחה – 35 ₪ לכרטיס");
    assert_eq!(r.body["msgEn"], "Discount code – ₪35 a ticket");
    assert_eq!(r.body["ticketCode"]["kind"], "discountCode");
    assert_eq!(r.body["ticketCode"]["usesLeft"], 463);
    example(&app, "ticketByCode", "TicketByCodeResponse", &r);
}

async fn a_value_voucher_shows_its_balance_and_a_card_benefit_its_issuer_prefix(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=VALUE-5000").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["ticket"]["balance"].as_i64(), r.body["ticketCode"]["balance"].as_i64()), (Some(5000), Some(5000)));
    assert_eq!(r.body["ticketCode"]["kind"], "voucher");
    assert!(r.body["ticketCode"]["usesLeft"].is_null(), "no usage limit");
    let r = ticket(&app, p, "ticketCode=card4580").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["ticketCode"]["cardPrefix"], "4580");
    assert_eq!(r.body["ticketCode"]["kind"], "creditCardBenefit");
    let r = ticket(&app, p, "ticketCode=BANKCLUB").await;
    assert_eq!((r.status, r.body["ticketCode"]["kind"].as_str()), (StatusCode::OK, Some("bankCard")));
    let r = ticket(&app, p, "ticketCode=DUO2").await;
    assert_eq!(r.body["ticketCode"]["minTickets"], 2, "{}", r.text);
}

async fn an_unknown_or_empty_code_is_code_not_found(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=NO-SUCH-CODE").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "codeNotFound"));
    example(&app, "ticketByCode", "ErrorBody", &r);
    let r = ticket(&app, p, "ticketCode=%20%20").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "codeNotFound"));
    let r = ticket(&app, p, "ticketGroupId=1").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "ticketCode is required");
}

async fn an_expired_voucher_is_voucher_expired(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=GIFT-EXPIRED").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherExpired"));
    example(&app, "ticketByCode", "ErrorBody", &r);
}

async fn a_voucher_with_no_balance_left_is_voucher_balance(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=VALUE-EMPTY").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"));
}

async fn a_used_up_voucher_is_over_its_usage_limit(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = ticket(&app, p, "ticketCode=GIFT-USED").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "codeUsageLimitExceeded"));
    let r = ticket(&app, p, "ticketCode=GIFT-2026").await;
    assert_eq!(r.status, StatusCode::OK, "a single-use voucher not yet used: {}", r.text);
    assert_eq!(r.body["ticketCode"]["usesLeft"], 1);
}

async fn a_code_whose_ticket_is_not_of_the_group_asked_for_is_ticket_not_found(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    for query in ["ticketCode=KUPA10&ticketGroupId=2", "ticketCode=KUPA10&ticketId=101", "ticketCode=KUPA10&ignoreTicketIds=113,112"] {
        let r = ticket(&app, p, query).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"), "{query}");
    }
    let r = ticket(&app, p, "ticketCode=KUPA10&ignoreTicketIds=1,x").await;
    assert_eq!(code(&r), "formValidation");
    let r = ticket(&app, p, "ticketCode=KUPA10&sectionId=21").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "section 21 is another hall's");

    // The VIP sofa hall sells only ticket group 2, where no code ticket is sold.
    let r = app.get("/api/presentations/").await;
    let vip = r.body["presentations"].as_array().unwrap().iter().find(|p| p["venueId"] == 2 && p["isOnSale"] == true && app.starts_after_hours(p, 24)).unwrap()["id"].as_i64().unwrap();
    let r = ticket(&app, vip, "ticketCode=KUPA10").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"));
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
    let r = app.get("/api/presentations/").await;
    let premiere = r.body["presentations"].as_array().unwrap().iter().find(|p| p["saleState"] == "notYetStarted").unwrap()["id"].as_i64().unwrap();
    let r = ticket(&app, premiere, "ticketCode=KUPA10").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticket_sale_not_yet_started"));
    let past_day = app.today.checked_sub(jiff::ToSpan::days(2)).unwrap();
    let r = app.get(&format!("/api/seats/presentations?date={past_day}")).await;
    let past = r.body["presentations"].as_array().unwrap().iter().find(|p| p["venueId"] == 1).unwrap()["id"].as_i64().unwrap();
    let r = ticket(&app, past, "ticketCode=KUPA10").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticketing_ended"));
    let r = ticket(&app, 99999999, "ticketCode=KUPA10").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "noEvent"));
    let r = ticket(&app, premiere, "ticketCode=KUPA10&miniSiteUrl=no-such-site").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
}

async fn tickets_sold_only_by_code_are_never_in_the_ticket_list(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = app.get(&format!("/api/presentations/{p}/ticketGroups?membershipLoyaltyId=100001")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let ids = listed_ticket_ids(&r);
    assert!(ids.contains(&101) && ids.contains(&105), "regular and member tickets: {ids:?}");
    assert!(ids.iter().all(|id| !(110..=115).contains(id)), "code tickets are hidden: {ids:?}");
    let group: &Value = &r.body["ticketGroups"][0];
    assert!(group["tickets"][0].get("code").is_none(), "listed tickets carry no code");
}

async fn a_membership_loyalty_id_is_checked_before_member_tickets_are_listed(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = on_sale_in_grand_hall(&app).await;
    let r = groups(&app, p, "999999").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "memberNotFound"));
    example(&app, "ticketGroups", "ErrorBody", &r);
    let r = groups(&app, p, "100002").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "memberExpired"));
    example(&app, "ticketGroups", "ErrorBody", &r);
    let r = groups(&app, p, "300001").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "memberNotStarted"));
    let r = groups(&app, p, "200003").await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "memberNoneAvailable"), "a 10-film pass with nothing left");
    let r = groups(&app, p, "%20100001%20").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = groups(&app, p, "").await;
    assert_eq!(r.status, StatusCode::OK, "an empty id is no id");
    assert!(!listed_ticket_ids(&r).contains(&105), "and lists no member tickets");
}
}
