//! Every login beside the checkout's SMS code, over HTTP (decision 0023): email and password with
//! registration and a mailed confirmation, password reset by a mailed link, member number and ID
//! number, reservation number and the order's contact (a guest's login and a customer's claim),
//! the mailed link and code, and the customer area's mobile login with its update branch. For
//! each: success, the wrong secret, expired, reused, the attempt limit, and the rotation of the
//! buyer session at login. Codes and links are read from the test-mode outbox, as a customer
//! reads their mail. On SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::logs::Logs;
use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana Levi, customer 1 of the demo chain: member cards 100001 and 200001, ID 034528711.
const DANA: &str = "0524318876";
const DANA_EMAIL: &str = "dana.levi@example.com";
const DANA_SSN: &str = "034528711";
/// Yossi Cohen, customer 2.
const YOSSI: &str = "0507712345";

async fn post(app: &TestApp, who: &str, path: &str, body: Value) -> Reply {
    app.call_as(who, "POST", path, Some(&body.to_string()))
        .await
}

/// The newest mail to an address, as the test-mode outbox lists it.
async fn newest_mail(app: &TestApp, to: &str) -> Value {
    let r = app.get(&format!("/api/test/outbox/mail?to={to}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["messages"][0].clone()
}

async fn mail_count(app: &TestApp, to: &str) -> usize {
    let r = app.get(&format!("/api/test/outbox/mail?to={to}")).await;
    r.body["messages"].as_array().map_or(0, Vec::len)
}

/// The token of the link in the newest mail to the address.
async fn mailed_token(app: &TestApp, to: &str) -> String {
    let text = newest_mail(app, to).await["text"]
        .as_str()
        .unwrap()
        .to_owned();
    let at = text
        .find("token=")
        .unwrap_or_else(|| panic!("no link in {text:?}"))
        + 6;
    text[at..at + 64].to_owned()
}

/// The buyer as they go on after a login answer: the rotated session and the new login cookie.
fn after_login(r: &Reply, before: &str) -> String {
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let session = r.headers["uuid"].to_str().unwrap();
    assert_ne!(
        session,
        who_parts(before).0,
        "the login rotates the buyer session"
    );
    let login = set_cookie(r, "kupa_login").expect("the login sets its cookie");
    format!("{session};{login}")
}

async fn me(app: &TestApp, who: &str) -> Reply {
    app.call_as(who, "GET", "/api/customer/me", None).await
}

/// The login is on the new session and cookie; the old session id carries nothing.
async fn assert_rotated(app: &TestApp, old: &str, new: &str, customer_id: i64) {
    let r = me(app, new).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["customerInfo"]["CustomerId"], customer_id);
    let r = me(app, who_parts(old).0).await;
    assert_eq!(
        (r.status, code(&r)),
        (StatusCode::UNAUTHORIZED, "loginError")
    );
}

fn password_body(email: &str, password: &str) -> Value {
    json!({ "email": email, "password": password, "recaptchaToken": CAPTCHA_TEST_TOKEN, "includeMemberships": true })
}

async fn register(app: &TestApp, email: &str, password: &str, mobile: &str) -> Reply {
    post(
        app,
        &app.new_buyer().await,
        "/api/customer/register",
        json!({
            "firstName": "נועה", "lastName": "ברק", "email": email, "password": password,
            "mobileNumber": mobile, "recaptchaToken": CAPTCHA_TEST_TOKEN,
        }),
    )
    .await
}

/// A paid order of a guest (no login), with Dana's mobile and dana@example.com on it; its
/// reservation number and id.
async fn paid_guest_order(app: &TestApp, db: &TestDb, who: &str) -> (String, String) {
    let k = priced_cart_at(app, who, 0, None, "he").await;
    let id = start_payment_with(app, who, &k, "card", "he", 1, false).await;
    let r = app
        .form_as(
            who,
            "POST",
            &format!("/pay/{id}/card"),
            Some(&card_form(cards::APPROVED_VISA, &good_expiry(app), "987")),
        )
        .await;
    assert!(location(&r).contains("status=captured"), "{}", r.text);
    let row = rows(
        db,
        "SELECT reservation_number || '|' || id FROM orders WHERE status = 'paid'",
    )
    .await;
    let (number, id) = row[0].split_once('|').unwrap();
    (number.to_owned(), id.to_owned())
}

api_tests! {
    async fn registrations_at_the_same_moment_all_succeed(db: &TestDb) {
        // Each draws the next customer id (read, then write): on SQLite a transaction begun as a
        // reader failed at once with "database is locked" when another had just written (a 500
        // seen in an e2e run); begun as a writer it waits its turn.
        let app = TestApp::new(db, test_settings()).await;
        let logs = Logs::capture();
        let emails: Vec<String> = (0..8).map(|i| format!("rush{i}@example.com")).collect();
        let mobiles: Vec<String> = (0..8).map(|i| format!("05277{i:05}")).collect();
        let replies = futures_util::future::join_all(
            emails.iter().zip(&mobiles).map(|(e, m)| register(&app, e, "סיסמה ארוכה 7", m)),
        )
        .await;
        for r in &replies {
            assert_eq!(r.status, StatusCode::OK, "{} {}", r.text, logs.text());
        }
        let ids = rows(db, "SELECT CAST(id AS TEXT) FROM customers WHERE email LIKE 'rush%'").await;
        assert_eq!(ids.len(), 8, "{ids:?}");
    }


async fn a_customer_registers_confirms_by_the_mailed_link_and_logs_in_by_password(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let email = "Noa.Barak@Example.com";
    let r = register(&app, email, "1234567", "").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    assert_eq!(r.body["error"]["params"]["reason"], "tooShort");
    let r = register(&app, email, "correct horse 7", "").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "customerRegister", "SuccessResponse", &r);
    let mail = newest_mail(&app, "noa.barak@example.com").await;
    assert_eq!(mail["kind"], "verifyEmail");
    assert!(mail["text"].as_str().unwrap().contains("/customer-area/verify-email?token="));

    // The password does nothing before the address is confirmed, and says why only when right.
    let who = app.new_buyer().await;
    let r = post(&app, &who, "/api/customer/login", password_body(email, "correct horse 7")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "emailNotVerified"));
    let r = post(&app, &who, "/api/customer/login", password_body(email, "wrong horse 7")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));

    let token = mailed_token(&app, "noa.barak@example.com").await;
    let r = post(&app, &who, "/api/customer/verify-email", json!({ "token": token })).await;
    let confirmed = after_login(&r, &who);
    let id = r.body["customerInfo"]["CustomerId"].as_i64().unwrap();
    assert!(id >= 1_000_000, "registered customers' ids stay clear of the chain's own");
    assert_eq!(r.body["customerInfo"]["EmailAddress1"], "noa.barak@example.com");
    assert_rotated(&app, &who, &confirmed, id).await;
    let r = post(&app, &who, "/api/customer/verify-email", json!({ "token": token })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_REDEEMED"));
    assert!(r.body["error"]["params"]["redeemedAt"].as_str().is_some_and(|d| d.ends_with('Z')), "{}", r.text);

    let who = app.new_buyer().await;
    let r = post(&app, &who, "/api/customer/login", password_body(" noa.barak@EXAMPLE.com ", "correct horse 7")).await;
    let logged = after_login(&r, &who);
    example(&app, "customerLogin", "CustomerLoginResponse", &r);
    assert_rotated(&app, &who, &logged, id).await;

    // Registering the address again tells the form nothing and mails the owner instead.
    let r = register(&app, email, "another pass 9", "").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(newest_mail(&app, "noa.barak@example.com").await["kind"], "accountExists");

    // The password is stored as argon2id, never in clear, and nothing logs it.
    let stored = rows(db, "SELECT password_hash FROM customer_passwords").await.join("\n");
    assert!(stored.starts_with("$argon2id$") && !stored.contains("correct horse"), "{stored}");
}

async fn wrong_passwords_lock_the_account_and_the_address_for_a_while(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    register(&app, "lock@example.com", "right password 1", "").await;
    let token = mailed_token(&app, "lock@example.com").await;
    post(&app, &app.new_buyer().await, "/api/customer/verify-email", json!({ "token": token })).await;

    let who = app.new_buyer().await;
    for i in 0..5 {
        let r = post(&app, &who, "/api/customer/login", password_body("lock@example.com", &format!("wrong password {i}"))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"), "attempt {i}");
    }
    let r = post(&app, &who, "/api/customer/login", password_body("lock@example.com", "right password 1")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"), "even the right password waits");
    let wait = r.body["error"]["params"]["retryAfterSeconds"].as_i64().unwrap();
    assert!((1..=900).contains(&wait), "{wait}");
    example(&app, "customerLogin", "ErrorBody", &r);
    // An unknown address fails the same way, with the same code.
    let r = post(&app, &who, "/api/customer/login", password_body("nobody@example.com", "whatever 12")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));

    app.advance_clock_ms(15 * 60_000 + 1_000).await;
    let r = post(&app, &who, "/api/customer/login", password_body("lock@example.com", "right password 1")).await;
    assert_eq!(r.status, StatusCode::OK, "the window is over: {}", r.text);
}

async fn a_mailed_link_resets_the_password_once_and_ends_the_other_logins(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let phone = log_in(&app, &app.new_buyer().await, DANA).await;
    let who = app.new_buyer().await;
    let ask = |email: &'static str| json!({ "email": email, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = post(&app, &who, "/api/customer/password-reset", ask("nobody@example.com")).await;
    assert_eq!(r.status, StatusCode::OK, "the same answer for an unknown address");
    assert_eq!(mail_count(&app, "nobody@example.com").await, 0);
    let r = post(&app, &who, "/api/customer/password-reset", ask(DANA_EMAIL)).await;
    assert_eq!(r.status, StatusCode::OK);
    let first = mailed_token(&app, DANA_EMAIL).await;
    post(&app, &who, "/api/customer/password-reset", ask(DANA_EMAIL)).await;
    let token = mailed_token(&app, DANA_EMAIL).await;
    assert_ne!(first, token);

    let confirm = |token: &str, password: &str| json!({ "token": token, "password": password });
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&first, "new password 1")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"), "a newer link replaced it");
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&token, "12345678")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&"0".repeat(64), "new password 1")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"));
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&token, "new password 1")).await;
    let logged = after_login(&r, &who);
    assert_rotated(&app, &who, &logged, 1).await;
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&token, "new password 2")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_REDEEMED"));
    assert_eq!(me(&app, &phone).await.status, StatusCode::UNAUTHORIZED, "the reset ends Dana's other logins");

    let r = post(&app, &app.new_buyer().await, "/api/customer/login", password_body(DANA_EMAIL, "new password 1")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["customerInfo"]["Members"].as_array().map(Vec::len), Some(2), "includeMemberships");
    let mut body = password_body(DANA_EMAIL, "new password 1");
    body["includeMemberships"] = json!(false);
    let r = post(&app, &app.new_buyer().await, "/api/customer/login", body).await;
    assert_eq!(r.body["customerInfo"]["Members"], json!([]));

    // A link an hour and a minute old has expired, and says when.
    post(&app, &who, "/api/customer/password-reset", ask(DANA_EMAIL)).await;
    let late = mailed_token(&app, DANA_EMAIL).await;
    app.advance_clock_ms(61 * 60_000).await;
    let r = post(&app, &who, "/api/customer/password-reset/confirm", confirm(&late, "new password 3")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"));
    assert!(r.body["error"]["params"]["expiredAt"].as_str().is_some(), "{}", r.text);
    let tokens = rows(db, "SELECT token_hash FROM customer_tokens").await.join(",");
    assert!(!tokens.contains(&late) && !tokens.contains(&token), "tokens are stored hashed");
}

async fn a_member_logs_in_by_member_number_and_id_number(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = app.new_buyer().await;
    let body = |number: &str, ssn: &str| json!({ "memberNumber": number, "ssn": ssn, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = post(&app, &who, "/api/customer/member-login", body("100001", "034528712")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_ssn"), "the check digit fails");
    let r = post(&app, &who, "/api/customer/member-login", body("100001", "025813478")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"), "Yossi's ID is not Dana's");
    let r = post(&app, &who, "/api/customer/member-login", body("999999", DANA_SSN)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));
    let r = post(&app, &who, "/api/customer/member-login", body("100001", "34528711")).await;
    let logged = after_login(&r, &who);
    example(&app, "customerMemberLogin", "CustomerLoginResponse", &r);
    assert_eq!(r.body["customerInfo"]["SSN"], "*****8711", "masked");
    assert_eq!(r.body["customerInfo"]["MobileNumber1"], DANA);
    assert_rotated(&app, &who, &logged, 1).await;

    for i in 0..5 {
        let r = post(&app, &who, "/api/customer/member-login", body("100002", DANA_SSN)).await;
        assert_eq!(code(&r), "LOGIN_FAILED", "attempt {i}");
    }
    let r = post(&app, &who, "/api/customer/member-login", body("100002", "025813478")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"));
}

async fn a_reservation_number_and_its_contact_log_a_guest_in_to_that_order_only(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let buyer_session = app.new_buyer().await;
    let (number, order_id) = paid_guest_order(&app, db, &buyer_session).await;
    let path = format!("/api/reservations/{order_id}");
    let stranger = app.new_buyer().await;
    assert_ne!(app.call_as(&stranger, "GET", &path, None).await.status, StatusCode::OK);

    let body = |n: &str, contact: &str| json!({ "reservationNumber": n, "contact": contact, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let digits: String = number.chars().filter(char::is_ascii_digit).collect();
    let last = digits.chars().last().unwrap().to_digit(10).unwrap();
    let typo = format!("{}{}", &digits[..7], (last + 1) % 10);
    for (n, contact) in [(typo.as_str(), DANA), (number.as_str(), YOSSI), (number.as_str(), "other@example.com")] {
        let r = post(&app, &stranger, "/api/customer/reservation-login", body(n, contact)).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"), "{n} {contact}");
    }
    let r = post(&app, &stranger, "/api/customer/reservation-login", body(&digits, "DANA@example.com")).await;
    let guest = after_login(&r, &stranger);
    example(&app, "customerReservationLogin", "ReservationLoginResponse", &r);
    assert_eq!((r.body["reservationIdentifier"].as_str(), r.body["claimed"].as_bool()), (Some(order_id.as_str()), Some(false)));
    let r = app.call_as(&guest, "GET", &path, None).await;
    assert_eq!(r.status, StatusCode::OK, "the guest reads that reservation: {}", r.text);
    assert_eq!(me(&app, &guest).await.status, StatusCode::UNAUTHORIZED, "a guest is no customer");
    assert_ne!(app.call_as(who_parts(&guest).0, "GET", &path, None).await.status, StatusCode::OK, "the cookie, not the session, carries it");

    // A logged-in customer claims it into their account; nobody else can after that.
    let yossi = log_in(&app, &app.new_buyer().await, YOSSI).await;
    let r = post(&app, &yossi, "/api/customer/reservation-login", body(&number, "+972-52-431-8876")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["claimed"], true);
    assert_eq!(rows(db, "SELECT CAST(customer_id AS TEXT) FROM orders WHERE status = 'paid'").await, vec!["2".to_owned()]);
    assert_eq!(app.call_as(&yossi, "GET", &path, None).await.status, StatusCode::OK);
    let dana = log_in(&app, &app.new_buyer().await, DANA).await;
    let r = post(&app, &dana, "/api/customer/reservation-login", body(&number, DANA)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "orderAlreadyClaimed"));

    // Guessing is limited per reservation number.
    let other = app.new_buyer().await;
    for _ in 0..5 {
        post(&app, &other, "/api/customer/reservation-login", body(&number, "0500000000")).await;
    }
    let r = post(&app, &other, "/api/customer/reservation-login", body(&number, DANA)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"));
    assert!(r.body["error"]["params"]["retryAfterSeconds"].as_i64().is_some());
}

async fn a_mailed_link_and_a_mailed_code_log_in_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = app.new_buyer().await;
    let ask = |kind: &str| json!({ "email": DANA_EMAIL, "kind": kind, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = post(&app, &who, "/api/customer/mail-login", ask("link")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(newest_mail(&app, DANA_EMAIL).await["kind"], "loginLink");
    let token = mailed_token(&app, DANA_EMAIL).await;
    let r = post(&app, &who, "/api/customer/token-login", json!({ "token": token })).await;
    let logged = after_login(&r, &who);
    example(&app, "customerTokenLogin", "CustomerLoginResponse", &r);
    assert_rotated(&app, &who, &logged, 1).await;
    let r = post(&app, &who, "/api/customer/token-login", json!({ "token": token })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_REDEEMED"));
    example(&app, "customerTokenLogin", "ErrorBody", &r);
    let r = post(&app, &who, "/api/customer/token-login", json!({ "token": "not-a-token" })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"));
    post(&app, &who, "/api/customer/mail-login", ask("link")).await;
    let late = mailed_token(&app, DANA_EMAIL).await;
    app.advance_clock_ms(21 * 60_000).await;
    let r = post(&app, &who, "/api/customer/token-login", json!({ "token": late })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"));
    assert!(r.body["error"]["params"]["expiredAt"].as_str().is_some());

    // The 6-digit code.
    let r = post(&app, &who, "/api/customer/mail-login", ask("code")).await;
    assert_eq!(r.status, StatusCode::OK);
    let mail = newest_mail(&app, DANA_EMAIL).await;
    assert_eq!(mail["kind"], "loginCode");
    let code6 = six_digits(mail["text"].as_str().unwrap()).unwrap();
    let wrong = format!("{:06}", (code6.parse::<u32>().unwrap() + 1) % 1_000_000);
    let try_code = |c: &str| json!({ "email": DANA_EMAIL, "code": c });
    let r = post(&app, &who, "/api/customer/mail-code-login", try_code(&wrong)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "LOGIN_FAILED"));
    let r = post(&app, &who, "/api/customer/mail-code-login", try_code(&code6)).await;
    let logged = after_login(&r, &who);
    assert_rotated(&app, &who, &logged, 1).await;
    let r = post(&app, &who, "/api/customer/mail-code-login", try_code(&code6)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_REDEEMED"));
    post(&app, &who, "/api/customer/mail-login", ask("code")).await;
    let code6 = six_digits(newest_mail(&app, DANA_EMAIL).await["text"].as_str().unwrap()).unwrap();
    app.advance_clock_ms(11 * 60_000).await;
    let r = post(&app, &who, "/api/customer/mail-code-login", try_code(&code6)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"));
    for _ in 0..5 {
        post(&app, &who, "/api/customer/mail-code-login", try_code("000000")).await;
    }
    let r = post(&app, &who, "/api/customer/mail-code-login", try_code("000001")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"));
    let stored = rows(db, "SELECT token_hash FROM customer_tokens").await.join(",");
    assert!(!stored.contains(&code6) && !stored.contains(&token));
}

async fn the_customer_area_mobile_login_remembers_the_number_for_the_session(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = app.new_buyer().await;
    let send = |m: &str| json!({ "mobileNumber": m, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": "123456" })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"), "no code was sent on this session");
    let r = post(&app, &who, "/api/customer-area/mobile-login", send("0529990000")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));
    let r = post(&app, &who, "/api/customer-area/mobile-login", send("+972524318876")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get(&format!("/api/test/outbox/sms?to={DANA}")).await;
    let code6 = six_digits(sms.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let wrong = format!("{:06}", (code6.parse::<u32>().unwrap() + 1) % 1_000_000);
    let r = post(&app, &buyer(77), "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    assert_eq!(code(&r), "INVALID_SMS_CODE", "another session has no number remembered");
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": wrong })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"));
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    let logged = after_login(&r, &who);
    example(&app, "customerAreaMobileLoginValidation", "AreaLoginResponse", &r);
    assert_eq!(r.body["customerAreaInfo"]["MobileNumber1"], DANA, "stored numbers read with a leading 0");
    assert_eq!(r.body["customerAreaInfo"]["Address1"], "רחוב דיזנגוף 210");
    assert_rotated(&app, &who, &logged, 1).await;
    let r = post(&app, &logged, "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    assert_eq!(code(&r), "INVALID_SMS_CODE", "used once");

    // At checkout, a number no customer has gets a code too.
    let who = app.new_buyer().await;
    let r = post(&app, &who, "/api/customer-area/mobile-login?checkout", send("0529990000")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get("/api/test/outbox/sms?to=0529990000").await;
    let code6 = six_digits(sms.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    after_login(&r, &who);
    assert_eq!(r.body["customerAreaInfo"], Value::Null);
}

async fn a_customer_without_a_mobile_adds_one_by_its_code(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    register(&app, "nomobile@example.com", "good password 1", "").await;
    let token = mailed_token(&app, "nomobile@example.com").await;
    let who = app.new_buyer().await;
    let r = post(&app, &who, "/api/customer/verify-email", json!({ "token": token })).await;
    let who = after_login(&r, &who);
    assert_eq!(r.body["customerInfo"]["MobileNumber1"], "");
    let send = |m: &str| json!({ "mobileNumber": m, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    let r = post(&app, &who, "/api/customer-area/mobile-login", send(YOSSI)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "mobileNumberTaken"));
    let r = post(&app, &who, "/api/customer-area/mobile-login", send("0541112233")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get("/api/test/outbox/sms?to=0541112233").await;
    let code6 = six_digits(sms.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    let after = after_login(&r, &who);
    assert_eq!(r.body["mobileNumberUpdated"], true, "{}", r.text);
    assert_eq!(r.body["customerAreaInfo"]["MobileNumber1"], "0541112233");
    assert_eq!(me(&app, &after).await.body["customerInfo"]["MobileNumber1"], "0541112233");
}

async fn a_guest_order_joins_an_account_only_when_its_checkout_proved_the_number(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // A guest who paid without proving the number: nobody's order but by a claim.
    let plain = app.new_buyer().await;
    paid_guest_order(&app, db, &plain).await;
    // Dana's number proven by SMS at checkout... but Dana is a customer: her order anyway.
    // So the proving guest is a number no customer has yet, who registers later.
    execute(db, "UPDATE customers SET mobile = '0521110000' WHERE id = 1").await;
    let who = app.new_buyer().await;
    let r = post(&app, &who, "/api/customer-area/mobile-login?checkout", json!({ "mobileNumber": DANA, "recaptchaToken": CAPTCHA_TEST_TOKEN })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get(&format!("/api/test/outbox/sms?to={DANA}")).await;
    let code6 = six_digits(sms.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let r = post(&app, &who, "/api/customer-area/mobile-login-validation", json!({ "smsCode": code6 })).await;
    let proven = after_login(&r, &who);
    let k = priced_cart_at(&app, &proven, 1, None, "he").await;
    let id = start_payment_with(&app, &proven, &k, "card", "he", 1, false).await;
    let r = app.form_as(&proven, "POST", &format!("/pay/{id}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "987"))).await;
    assert!(location(&r).contains("status=captured"));
    let owners = || rows(db, "SELECT COALESCE(CAST(customer_id AS TEXT), '-') || '|' || COALESCE(verified_mobile, '-') FROM orders WHERE status = 'paid' ORDER BY created_at");
    assert_eq!(owners().await, vec!["-|-".to_owned(), format!("-|{DANA}")]);

    // The number comes back to Dana's account; her next SMS login proves it again.
    execute(db, "UPDATE customers SET mobile = '0524318876' WHERE id = 1").await;
    log_in(&app, &app.new_buyer().await, DANA).await;
    assert_eq!(owners().await, vec!["-|-".to_owned(), format!("1|{DANA}")], "only the proven order joined");
}

async fn no_password_code_token_or_id_number_reaches_the_log(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let logs = Logs::capture();
    register(&app, "quiet@example.com", "secret words 42", "").await;
    let verify = mailed_token(&app, "quiet@example.com").await;
    let who = app.new_buyer().await;
    post(&app, &who, "/api/customer/verify-email", json!({ "token": verify })).await;
    post(&app, &who, "/api/customer/login", password_body("quiet@example.com", "secret words 42")).await;
    post(&app, &who, "/api/customer/login", password_body("quiet@example.com", "wrong words 43")).await;
    post(&app, &who, "/api/customer/mail-login", json!({ "email": DANA_EMAIL, "kind": "code", "recaptchaToken": CAPTCHA_TEST_TOKEN })).await;
    let code6 = six_digits(newest_mail(&app, DANA_EMAIL).await["text"].as_str().unwrap()).unwrap();
    post(&app, &who, "/api/customer/mail-code-login", json!({ "email": DANA_EMAIL, "code": code6 })).await;
    let r = post(&app, &who, "/api/customer/member-login", json!({ "memberNumber": "100001", "ssn": DANA_SSN, "recaptchaToken": CAPTCHA_TEST_TOKEN })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let text = logs.text();
    assert!(text.contains("customer logged in"), "{text}");
    for secret in ["secret words 42", "wrong words 43", verify.as_str(), code6.as_str(), DANA_SSN, "34528711"] {
        assert!(!text.contains(secret), "{secret:?} in the log: {text}");
    }
}

}
