//! Saved cards and the credit-card-benefit check at the built-in test payment gateway, over HTTP:
//! a card saved on a captured payment of a logged-in customer pays a second order with its
//! security code, is listed and deleted; nothing is saved without a login; an expired saved card
//! is refused; an order with a credit-card benefit code takes only its issuer's cards. On SQLite
//! and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;

use kupa_app::saved_cards::{SavedCard, SavedCardStore};
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::json;

/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";
const DANA_ID: i64 = 1;

async fn priced_cart(app: &TestApp, who: &str, row: usize, code: Option<&str>) -> Paying {
    priced_cart_at(app, who, row, code, "en").await
}

async fn start_payment(
    app: &TestApp,
    who: &str,
    k: &Paying,
    method: &str,
    save_card: bool,
) -> String {
    start_payment_with(app, who, k, method, "en", 1, save_card).await
}

const SAVED_TEXT: &str = "SELECT token || '|' || CAST(customer_id AS TEXT) || '|' || brand || '|' || COALESCE(bin, '') || '|' || last4 || '|' \
     || CAST(expiry_month AS TEXT) || '/' || CAST(expiry_year AS TEXT) || '|' || COALESCE(CAST(deleted_at AS TEXT), '') FROM saved_cards";
const PAYMENT_TEXT: &str = "SELECT id || '|' || method || '|' || status || '|' || COALESCE(card_brand, '') || '|' \
     || COALESCE(card_last4, '') || '|' || COALESCE(card_bin, '') || '|' || COALESCE(failure_code, '') FROM payments";
const EVENT_TEXT: &str = "SELECT payment_id || '|' || kind || '|' || detail FROM payment_events";

/// A saved card of Dana's put straight into the store.
async fn saved(
    db: &TestDb,
    token_byte: u8,
    bin: &str,
    last4: &str,
    year: i32,
    month: u32,
) -> String {
    let token = format!("{token_byte:02x}").repeat(16);
    db.db
        .insert_saved_card(&SavedCard {
            token: token.clone(),
            customer_id: DANA_ID,
            brand: "visa".into(),
            bin: Some(bin.into()),
            last4: last4.into(),
            expiry_year: year,
            expiry_month: month,
            created_at_ms: 0,
            deleted_at_ms: None,
        })
        .await
        .unwrap();
    token
}

api_tests! {
async fn a_card_saved_on_a_captured_payment_pays_a_second_order_and_is_deleted(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let r = app.call_as(&who, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    example(&app, "customerSavedCards", "ErrorBody", &r);
    let who = log_in(&app, &who, DANA).await;

    let k = priced_cart(&app, &who, 0, None).await;
    let id = start_payment(&app, &who, &k, "card", true).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "987"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=captured"), "{}", location(&r));

    let r = app.call_as(&who, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "customerSavedCards", "SavedCardsResponse", &r);
    let list = r.body["savedCards"].as_array().unwrap();
    assert_eq!(list.len(), 1, "{}", r.text);
    let card = &list[0];
    assert_eq!((card["brand"].as_str(), card["last4"].as_str(), card["expiryMonth"].as_i64(), card["expiryYear"].as_i64()),
               (Some("visa"), Some("4242"), Some(12), Some(i64::from(app.today.year()) + 2)));
    assert_eq!((card["isExpired"].as_bool(), card["isDeleted"].as_bool()), (Some(false), Some(false)));
    let token = card["token"].as_str().unwrap().to_owned();
    assert_eq!(token.len(), 32);

    // A second order, paid with the saved card and its security code.
    let k2 = priced_cart(&app, &who, 1, None).await;
    let id2 = start_payment(&app, &who, &k2, "savedCard", false).await;
    let r = app.form_as(&who, "GET", &format!("/pay/{id2}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("VISA •••• 4242") && r.text.contains(&format!("value=\"{token}\"")) && r.text.contains("<label for=\"cvv\">"), "{}", r.text);
    let r = app.form_as(&who, "POST", &format!("/pay/{id2}/saved-card"), Some(&format!("card={token}&cvv=12"))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text);
    assert!(r.text.contains("cvv-error"));
    let r = app.form_as(&who, "POST", &format!("/pay/{id2}/saved-card"), Some(&format!("card={}&cvv=123", "ab".repeat(16)))).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "an unknown card: {}", r.text);
    assert!(r.text.contains("card-error"));
    assert_eq!(status(&app, &who, &id2).await.body["status"], "created");
    let r = app.form_as(&who, "POST", &format!("/pay/{id2}/saved-card"), Some(&format!("card={token}&cvv=321"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let r = status(&app, &who, &id2).await;
    assert_eq!((r.body["status"].as_str(), r.body["method"].as_str(), r.body["cardLast4"].as_str()), (Some("captured"), Some("savedCard"), Some("4242")));

    // Another buyer (not logged in) cannot list or delete it.
    let r = app.call_as(&buyer(2), "DELETE", &format!("/api/customer/saved-cards/{token}"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));

    // The card number and the security codes are in no table.
    let stored = [rows(db, SAVED_TEXT).await, rows(db, PAYMENT_TEXT).await, rows(db, EVENT_TEXT).await].concat().join("\n");
    assert!(stored.contains("|visa|424242|4242|"), "{stored}");
    for secret in [cards::APPROVED_VISA, "4242 4242 4242 4242", "|987", "|321", " 987", " 321"] {
        assert!(!stored.contains(secret), "{secret} in {stored}");
    }

    let r = app.call_as(&who, "DELETE", &format!("/api/customer/saved-cards/{token}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, json!({ "success": true }));
    example(&app, "deleteSavedCard", "SuccessResponse", &r);
    let r = app.call_as(&who, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!(r.body["savedCards"], json!([]));
    let r = app.call_as(&who, "DELETE", &format!("/api/customer/saved-cards/{token}"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    example(&app, "deleteSavedCard", "ErrorBody", &r);
    assert!(rows(db, SAVED_TEXT).await[0].rsplit('|').next().is_some_and(|d| !d.is_empty()), "the row stays, marked deleted");
}

async fn without_a_login_no_card_is_saved_and_a_saved_card_cannot_pay(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(3);
    let k = priced_cart(&app, &who, 0, None).await;
    let id = start_payment(&app, &who, &k, "card", true).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "987"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    assert!(rows(db, SAVED_TEXT).await.is_empty(), "nobody was logged in");

    let k2 = priced_cart(&app, &who, 1, None).await;
    let id2 = start_payment(&app, &who, &k2, "savedCard", false).await;
    let r = app.form_as(&who, "GET", &format!("/pay/{id2}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("Please log in") && r.text.contains("failureCode=paymentError"), "{}", r.text);
    let r = status(&app, &who, &id2).await;
    assert_eq!((r.body["status"].as_str(), r.body["failureCode"].as_str()), (Some("failed"), Some("paymentError")));
}

async fn an_expired_saved_card_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(4);
    let who = log_in(&app, &who, DANA).await;
    let last_year = i32::from(app.today.year()) - 1;
    let token = saved(db, 0x11, "424242", "4242", last_year, 12).await;
    let k = priced_cart(&app, &who, 0, None).await;
    let id = start_payment(&app, &who, &k, "savedCard", false).await;
    let r = app.form_as(&who, "GET", &format!("/pay/{id}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.text.contains("(expired)") && r.text.contains(" disabled>"), "{}", r.text);
    let r = app.call_as(&who, "GET", "/api/customer/saved-cards", None).await;
    assert_eq!(r.body["savedCards"][0]["isExpired"], true);
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/saved-card"), Some(&format!("card={token}&cvv=123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=declined&failureCode=paymentError"), "{}", location(&r));
    assert!(rows(db, EVENT_TEXT).await.iter().any(|e| e.contains("expiredCard")));
}

async fn a_credit_card_benefit_takes_only_its_issuers_cards(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(5);
    let k = priced_cart(&app, &who, 0, Some("CARD4580")).await;
    let id = start_payment(&app, &who, &k, "card", false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=declined&failureCode=paymentError"), "{}", location(&r));
    assert!(rows(db, EVENT_TEXT).await.iter().any(|e| e.starts_with(&id) && e.contains("cardNotEligible")), "{:?}", rows(db, EVENT_TEXT).await);

    // A saved card that does not start 4580 is declined the same way.
    let who = log_in(&app, &who, DANA).await;
    let other = saved(db, 0x22, "424242", "4242", i32::from(app.today.year()) + 2, 12).await;
    let id = start_payment(&app, &who, &k, "savedCard", false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/saved-card"), Some(&format!("card={other}&cvv=123"))).await;
    assert!(location(&r).contains("status=declined&failureCode=paymentError"), "{}", location(&r));
    assert!(rows(db, EVENT_TEXT).await.iter().any(|e| e.starts_with(&id) && e.contains("cardNotEligible")));

    // The issuer's card pays.
    let id = start_payment(&app, &who, &k, "card", false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_ISRAELI_VISA, &good_expiry(&app), "123"))).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let stored = [rows(db, PAYMENT_TEXT).await, rows(db, EVENT_TEXT).await].concat().join("\n");
    assert!(!stored.contains(cards::APPROVED_ISRAELI_VISA), "{stored}");
}

async fn a_saved_card_of_the_issuer_pays_a_credit_card_benefit(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(6);
    let who = log_in(&app, &who, DANA).await;
    let token = saved(db, 0x33, "458045", "4580", i32::from(app.today.year()) + 2, 12).await;
    let k = priced_cart(&app, &who, 0, Some("CARD4580")).await;
    let id = start_payment(&app, &who, &k, "savedCard", false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{id}/saved-card"), Some(&format!("card={token}&cvv=123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
}
}
