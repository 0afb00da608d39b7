//! Abuse limits over HTTP: lock-seat, best-available, SMS, login, code lookup and cart calls answer 429
//! `tooManyRequests` with Retry-After past their per-session and per-address limits, before the
//! call does anything; other sessions and other calls are not affected.

use crate::common::*;
use axum::http::StatusCode;
use kupa_api::ApiSettings;
use kupa_api::rate_limit::RateLimits;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::json;

fn limited(rules: &str) -> ApiSettings {
    ApiSettings {
        rate_limits: RateLimits::parse(rules).unwrap().over_defaults(),
        ..test_settings()
    }
}

/// A lock of a seat that does not exist: refused by the call itself (formValidation) unless the
/// limit refuses it first.
async fn lock_nothing(app: &TestApp, who: &str) -> Reply {
    let body = json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": 1, "VenueId": 1, "VenueSeatplanId": 1, "VenueSectionId": 999_999,
        "TicketGroupId": 1, "XCoordinate": 1, "YCoordinate": 1 } });
    app.call_as(who, "PUT", "/api/seats/lock-seat", Some(&body.to_string()))
        .await
}

api_tests! {
async fn lock_calls_are_limited_per_session_and_per_address(db: &TestDb) {
    let app = TestApp::new(db, limited("lock.session=3/1m,lock.address=5/1m")).await;
    let (a, b, c) = (buyer(1), buyer(2), buyer(3));
    for _ in 0..3 {
        let r = lock_nothing(&app, &a).await;
        assert_ne!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    }
    let r = lock_nothing(&app, &a).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    assert_eq!(code(&r), "tooManyRequests");
    let wait: u64 = r.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&wait), "retry after {wait} s");
    // Best-available is the same class.
    let r = app.call_as(&a, "GET", &format!("/api/seats/best-available?presentationId=1&quantity=2&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
    assert_eq!(code(&r), "tooManyRequests", "{}", r.text);
    // Unlocking and reading the status are never limited.
    let r = app.call_as(&a, "PUT", "/api/seats/unlock-seat", Some("{}")).await;
    assert_ne!(r.status, StatusCode::TOO_MANY_REQUESTS);
    let r = app.call_as(&a, "GET", "/api/seats/seats-statusV2?presentationId=1", None).await;
    assert_ne!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // Another session from the same address has what is left of the address's 5.
    for _ in 0..2 {
        assert_ne!(lock_nothing(&app, &b).await.status, StatusCode::TOO_MANY_REQUESTS);
    }
    assert_eq!(code(&lock_nothing(&app, &b).await), "tooManyRequests");
    assert_eq!(code(&lock_nothing(&app, &c).await), "tooManyRequests", "the address is spent");
}

async fn sms_and_login_calls_are_limited(db: &TestDb) {
    let app = TestApp::new(db, limited("sms.session=1/10m,login.session=2/10m")).await;
    let who = buyer(1);
    let send = json!({ "mobileNumber": "0501234567", "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.call_as(&who, "POST", "/api/customer/mobile-login", Some(&send)).await;
    assert_ne!(code_or_none(&r), Some("tooManyRequests"), "{}", r.text);
    let r = app.call_as(&who, "POST", "/api/customer/mobile-login", Some(&send)).await;
    assert_eq!(code(&r), "tooManyRequests", "{}", r.text);
    let check = json!({ "mobileNumber": "0501234567", "code": "000000", "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    for _ in 0..2 {
        let r = app.call_as(&who, "POST", "/api/customer/mobile-login-validation-area", Some(&check)).await;
        assert_ne!(code_or_none(&r), Some("tooManyRequests"), "{}", r.text);
    }
    let r = app.call_as(&who, "POST", "/api/customer/mobile-login-validation-area", Some(&check)).await;
    assert_eq!(code(&r), "tooManyRequests", "{}", r.text);
}

async fn code_and_voucher_lookups_are_limited_per_session_and_per_address(db: &TestDb) {
    let app = TestApp::new(db, limited("code.session=3/10m,code.address=5/10m")).await;
    let p = app.presentations().await.into_iter().next().unwrap();
    let guess = |n: u32| format!("/api/presentations/{}/ticket?ticketCode=GUESS{n}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p.id);
    let voucher = format!("/api/payment/voucher?reference=GUESS&recaptchaToken={CAPTCHA_TEST_TOKEN}");
    let (a, b, c) = (buyer(1), buyer(2), buyer(3));
    for n in 0..3 {
        let r = app.call_as(&a, "GET", &guess(n), None).await;
        assert_ne!(code_or_none(&r), Some("tooManyRequests"), "{}", r.text);
    }
    let r = app.call_as(&a, "GET", &guess(3), None).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text);
    assert_eq!(code(&r), "tooManyRequests");
    assert!(r.headers.contains_key("retry-after"));
    // A voucher's balance answers the same question: the same class.
    let r = app.call_as(&a, "GET", &voucher, None).await;
    assert_eq!(code(&r), "tooManyRequests", "{}", r.text);
    // Fresh sessions from the same address share the address's 5.
    for n in 0..2 {
        let r = app.call_as(&b, "GET", &guess(10 + n), None).await;
        assert_ne!(code_or_none(&r), Some("tooManyRequests"), "{}", r.text);
    }
    assert_eq!(code(&app.call_as(&b, "GET", &voucher, None).await), "tooManyRequests");
    assert_eq!(code(&app.call_as(&c, "GET", &guess(20), None).await), "tooManyRequests", "the address is spent");
    // The catalogue is not limited.
    let r = app.call_as(&c, "GET", &format!("/api/presentations/{}", p.id), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn the_cart_which_prices_codes_is_limited_too(db: &TestDb) {
    let app = TestApp::new(db, limited("cart.session=2/10m")).await;
    let who = buyer(1);
    let cart = json!({ "cart": { "presentations": [] } }).to_string();
    for _ in 0..2 {
        let r = app.call_as(&who, "POST", "/api/cart", Some(&cart)).await;
        assert_ne!(code_or_none(&r), Some("tooManyRequests"), "{}", r.text);
    }
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart)).await;
    assert_eq!(code(&r), "tooManyRequests", "{}", r.text);
    let r = app.call_as(&buyer(2), "POST", "/api/cart", Some(&cart)).await;
    assert_ne!(code_or_none(&r), Some("tooManyRequests"), "another session: {}", r.text);
}

async fn limits_switched_off_limit_nothing(db: &TestDb) {
    let app = TestApp::new(db, ApiSettings { rate_limits: RateLimits::off(), ..test_settings() }).await;
    for _ in 0..200 {
        assert_ne!(lock_nothing(&app, &buyer(1)).await.status, StatusCode::TOO_MANY_REQUESTS);
    }
}
}

fn code_or_none(r: &Reply) -> Option<&str> {
    r.body["error"]["code"].as_str()
}
