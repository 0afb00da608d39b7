//! Changing the email address and the mobile number from the customer area (decision 0031): the
//! new one proven first (a mailed code, an SMS code), refused when another account has it, the
//! codes single use, expiring and attempt-limited, the old address told. On SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";
const DANA_MAIL: &str = "dana.levi@example.com";
/// Yossi Cohen, customer 2.
const YOSSI: &str = "0507712345";
const YOSSI_MAIL: &str = "yossi.cohen@example.com";

async fn post(app: &TestApp, who: &str, path: &str, body: Value) -> Reply {
    app.call_as(who, "POST", path, Some(&body.to_string()))
        .await
}

async fn ask_email(app: &TestApp, who: &str, email: &str) -> Reply {
    post(
        app,
        who,
        "/api/customer-area/email-change",
        json!({ "email": email, "recaptchaToken": CAPTCHA_TEST_TOKEN }),
    )
    .await
}

async fn confirm_email(app: &TestApp, who: &str, email: &str, code: &str) -> Reply {
    post(
        app,
        who,
        "/api/customer-area/email-change/confirm",
        json!({ "email": email, "code": code }),
    )
    .await
}

async fn ask_mobile(app: &TestApp, who: &str, mobile: &str) -> Reply {
    post(
        app,
        who,
        "/api/customer-area/mobile-change",
        json!({ "mobileNumber": mobile, "recaptchaToken": CAPTCHA_TEST_TOKEN }),
    )
    .await
}

async fn confirm_mobile(app: &TestApp, who: &str, mobile: &str, code: &str) -> Reply {
    post(
        app,
        who,
        "/api/customer-area/mobile-change/confirm",
        json!({ "mobileNumber": mobile, "smsCode": code }),
    )
    .await
}

/// The newest mail to `to`: (kind, text).
async fn last_mail(app: &TestApp, to: &str) -> (String, String) {
    let r = app
        .get(&format!("/api/test/outbox/mail?to={to}&limit=1"))
        .await;
    let m = &r.body["messages"][0];
    (
        m["kind"].as_str().unwrap_or_default().to_owned(),
        m["text"].as_str().unwrap_or_default().to_owned(),
    )
}

async fn last_sms_code(app: &TestApp, to: &str) -> String {
    let r = app
        .get(&format!("/api/test/outbox/sms?to={to}&limit=1"))
        .await;
    six_digits(r.body["messages"][0]["body"].as_str().expect("an SMS")).unwrap()
}

async fn area(app: &TestApp, who: &str) -> Value {
    app.call_as(who, "GET", "/api/customer-area/customerAreaData", None)
        .await
        .body["customer"]
        .clone()
}

/// A code that is not `code`.
fn other_than(code: &str) -> String {
    if code == "000000" {
        "000001".into()
    } else {
        "000000".into()
    }
}

api_tests! {
async fn a_new_email_address_is_the_accounts_only_after_the_mailed_code_proves_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = ask_email(&app, &buyer(1), "dana.new@example.com").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
    let dana = log_in(&app, &buyer(1), DANA).await;
    let r = ask_email(&app, &dana, DANA_MAIL).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "unchanged: {}", r.text);
    let r = ask_email(&app, &dana, "not an address").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));

    let r = ask_email(&app, &dana, "Dana.New@Example.com").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "requestEmailChange", "SuccessResponse", &r);
    let (kind, text) = last_mail(&app, "dana.new@example.com").await;
    assert_eq!(kind, "changeEmailCode");
    let code_sent = six_digits(&text).expect("a code in the mail");
    // Nothing changes before the code comes back.
    assert_eq!(area(&app, &dana).await["EmailAddress1"], DANA_MAIL);
    // A wrong code, or the right code for another address, proves nothing.
    let r = confirm_email(&app, &dana, "dana.new@example.com", &other_than(&code_sent)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["reason"], "wrong");
    let r = confirm_email(&app, &dana, "someone.else@example.com", &code_sent).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"), "{}", r.text);
    // Another customer cannot use Dana's code.
    let yossi = log_in(&app, &buyer(2), YOSSI).await;
    let r = confirm_email(&app, &yossi, "dana.new@example.com", &code_sent).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"));

    let r = confirm_email(&app, &dana, "dana.new@example.com", &code_sent).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "confirmEmailChange", "ContactResponse", &r);
    assert_eq!(r.body["EmailAddress1"], "dana.new@example.com");
    assert_eq!(r.body["MobileNumber1"], DANA);
    assert_eq!(area(&app, &dana).await["EmailAddress1"], "dana.new@example.com");
    // The old address is told, without the whole new one.
    let (kind, text) = last_mail(&app, DANA_MAIL).await;
    assert_eq!(kind, "contactChanged");
    assert!(text.contains("d***@example.com") && !text.contains("dana.new@"), "{text}");
    // Used once.
    let r = confirm_email(&app, &dana, "dana.new@example.com", &code_sent).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_REDEEMED"), "{}", r.text);
    assert!(r.body["error"]["params"]["redeemedAt"].is_string());
    // The new address logs in by a mailed code; the old one no longer does.
    let r = post(&app, &buyer(3), "/api/customer/mail-login", json!({ "email": "dana.new@example.com", "kind": "code", "recaptchaToken": CAPTCHA_TEST_TOKEN })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(last_mail(&app, "dana.new@example.com").await.0, "loginCode");
}

async fn an_email_code_expires_and_an_address_of_another_account_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    let r = ask_email(&app, &dana, YOSSI_MAIL).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "emailTaken"), "{}", r.text);
    example(&app, "requestEmailChange", "ErrorBody", &r);
    assert_eq!(last_mail(&app, YOSSI_MAIL).await.0, "", "nothing is mailed to another account's address");

    ask_email(&app, &dana, "dana.late@example.com").await;
    let late = six_digits(&last_mail(&app, "dana.late@example.com").await.1).unwrap();
    app.clock.advance_ms(31 * 60_000);
    let r = confirm_email(&app, &dana, "dana.late@example.com", &late).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"), "{}", r.text);
    assert!(r.body["error"]["params"]["expiredAt"].is_string());

    // Taken between the two steps: refused, nothing changed.
    let dana = log_in(&app, &buyer(4), DANA).await;
    ask_email(&app, &dana, "shared@example.com").await;
    let shared = six_digits(&last_mail(&app, "shared@example.com").await.1).unwrap();
    crate::common::paying::execute(db, "UPDATE customers SET email = 'shared@example.com' WHERE id = 2").await;
    let r = confirm_email(&app, &dana, "shared@example.com", &shared).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "emailTaken"), "{}", r.text);
    assert_eq!(area(&app, &dana).await["EmailAddress1"], DANA_MAIL);
}

async fn wrong_email_codes_lock_the_change_for_the_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    ask_email(&app, &dana, "dana.new@example.com").await;
    let right = six_digits(&last_mail(&app, "dana.new@example.com").await.1).unwrap();
    let wrong = other_than(&right);
    for _ in 0..5 {
        let r = confirm_email(&app, &dana, "dana.new@example.com", &wrong).await;
        assert_eq!(code(&r), "CUSTOMER_TOKEN_ERROR", "{}", r.text);
    }
    let r = confirm_email(&app, &dana, "dana.new@example.com", &right).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyLoginAttempts"), "the right code too, until the window ends: {}", r.text);
    assert!(r.body["error"]["params"]["retryAfterSeconds"].as_i64().unwrap() > 0);
    assert_eq!(area(&app, &dana).await["EmailAddress1"], DANA_MAIL);
    app.clock.advance_ms(16 * 60_000);
    ask_email(&app, &dana, "dana.new@example.com").await;
    let fresh = six_digits(&last_mail(&app, "dana.new@example.com").await.1).unwrap();
    let r = confirm_email(&app, &dana, "dana.new@example.com", &fresh).await;
    assert_eq!(r.status, StatusCode::OK, "after the window, a new code works: {}", r.text);
}

async fn a_new_mobile_number_is_the_accounts_only_after_its_sms_code_proves_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    // Stored in the international form (as a box office may have typed it), shown with a leading 0.
    crate::common::paying::execute(db, "UPDATE customers SET mobile = '+972524318876' WHERE id = 1").await;
    assert_eq!(area(&app, &dana).await["MobileNumber1"], DANA);
    let r = ask_mobile(&app, &dana, "+972 52-431-8876").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "unchanged: {}", r.text);
    let r = ask_mobile(&app, &dana, "02-6234567").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"));
    let r = ask_mobile(&app, &dana, YOSSI).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "mobileNumberTaken"), "{}", r.text);

    let r = ask_mobile(&app, &dana, "052-111-2233").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "requestMobileChange", "SuccessResponse", &r);
    let sent = last_sms_code(&app, "0521112233").await;
    assert_eq!(area(&app, &dana).await["MobileNumber1"], DANA, "nothing changes before the code");
    let r = confirm_mobile(&app, &dana, "0521112233", &other_than(&sent)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["reason"], "wrong");
    let r = confirm_mobile(&app, &dana, "0521112233", &sent).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "confirmMobileChange", "ContactResponse", &r);
    assert_eq!(r.body["MobileNumber1"], "0521112233");
    assert_eq!(area(&app, &dana).await["MobileNumber1"], "0521112233");
    let (kind, text) = last_mail(&app, DANA_MAIL).await;
    assert_eq!(kind, "contactChanged");
    assert!(text.contains("052*****33") && !text.contains("0521112233"), "{text}");
    // Used once.
    let r = confirm_mobile(&app, &dana, "0521112233", &sent).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["reason"], "none");
    // The new number logs her in; the old one is nobody's.
    let again = log_in(&app, &buyer(2), "0521112233").await;
    assert_eq!(area(&app, &again).await["CustomerId"], 1);
    let r = post(&app, &buyer(3), "/api/customer/mobile-login", json!({ "mobileNumber": DANA, "recaptchaToken": CAPTCHA_TEST_TOKEN })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));
}

async fn an_sms_code_for_a_new_number_expires_and_dies_after_five_attempts(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    ask_mobile(&app, &dana, "0521112244").await;
    let first = last_sms_code(&app, "0521112244").await;
    app.clock.advance_ms(6 * 60_000);
    let r = confirm_mobile(&app, &dana, "0521112244", &first).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["reason"], "expired");

    let r = ask_mobile(&app, &dana, "0521112244").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let right = last_sms_code(&app, "0521112244").await;
    for _ in 0..5 {
        let r = confirm_mobile(&app, &dana, "0521112244", &other_than(&right)).await;
        assert_eq!(code(&r), "INVALID_SMS_CODE", "{}", r.text);
    }
    let r = confirm_mobile(&app, &dana, "0521112244", &right).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "loginValidation"), "{}", r.text);
    assert_eq!(area(&app, &dana).await["MobileNumber1"], DANA);
    // Taken between the two steps: refused.
    app.clock.advance_ms(60_000);
    ask_mobile(&app, &dana, "0521112255").await;
    let code_sent = last_sms_code(&app, "0521112255").await;
    crate::common::paying::execute(db, "UPDATE customers SET mobile = '0521112255' WHERE id = 2").await;
    let r = confirm_mobile(&app, &dana, "0521112255", &code_sent).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "mobileNumberTaken"), "{}", r.text);
    assert_eq!(area(&app, &dana).await["MobileNumber1"], DANA);
}
}
