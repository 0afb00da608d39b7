//! Customer login by mobile number and SMS code over HTTP, with the code read from the SMS outbox
//! as a buyer would read their phone; the test-mode outbox routes and page. On SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use std::sync::Arc;

use crate::common::logs::Logs;
use crate::common::*;
use async_trait::async_trait;
use axum::http::StatusCode;
use kupa_app::AppError;
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, Mail, Mailer, Sms, SmsSender};
use kupa_providers::outbox::OutboxMailer;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana Levi, customer 1 of the demo chain: two member cards, both running.
const DANA: &str = "0524318876";
/// Yossi Cohen, customer 2: his club card expired.
const YOSSI: &str = "0507712345";
/// Customer 3: a student card that starts in ten days.
const NOAM: &str = "0548823109";
/// No customer has this number.
const STRANGER: &str = "0529990000";

const FIVE_MINUTES_MS: i64 = 5 * 60_000;

fn login_body(mobile: &str, regardless: bool) -> String {
    json!({ "mobileNumber": mobile, "recaptchaToken": CAPTCHA_TEST_TOKEN, "sendSmsRegardlessOfCustomerExistence": regardless }).to_string()
}

fn validation_body(mobile: &str, code: &str) -> String {
    json!({ "smsCode": code, "mobileNumber": mobile }).to_string()
}

async fn request_code(app: &TestApp, session: &str, mobile: &str) -> Reply {
    app.call_as(
        session,
        "POST",
        "/api/customer/mobile-login",
        Some(&login_body(mobile, false)),
    )
    .await
}

async fn validate(app: &TestApp, session: &str, mobile: &str, code: &str) -> Reply {
    app.call_as(
        session,
        "POST",
        "/api/customer/mobile-login-validation-area",
        Some(&validation_body(mobile, code)),
    )
    .await
}

async fn me(app: &TestApp, session: &str) -> Reply {
    app.call_as(session, "GET", "/api/customer/me", None).await
}

/// The SMS messages to a number, newest first, as the test-mode outbox route lists them.
async fn inbox(app: &TestApp, mobile: &str) -> Vec<Value> {
    let r = app.get(&format!("/api/test/outbox/sms?to={mobile}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["messages"].as_array().unwrap().clone()
}

/// The six digits of the newest SMS to the number: what the buyer reads on their phone.
async fn code_from_phone(app: &TestApp, mobile: &str) -> String {
    let messages = inbox(app, mobile).await;
    let body = messages
        .first()
        .unwrap_or_else(|| panic!("no SMS to {mobile}"))["body"]
        .as_str()
        .unwrap()
        .to_owned();
    six_digits(&body).unwrap_or_else(|| panic!("no code in {body:?}"))
}

fn other_code(code: &str) -> String {
    format!("{:06}", (code.parse::<u32>().unwrap() + 1) % 1_000_000)
}

async fn advance(app: &TestApp, ms: i64) {
    let r = app
        .post("/api/test/clock", &json!({ "advanceMs": ms }).to_string())
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

/// Every text column of every login_codes row, read straight from the database.
async fn login_code_rows(db: &TestDb) -> Vec<Vec<String>> {
    const SQL: &str = "SELECT mobile, code_hash, salt FROM login_codes";
    let rows: Vec<(String, String, String)> = if db.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
        let rows = sqlx::query_as(SQL).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows
    } else {
        let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
        let rows = sqlx::query_as(SQL).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows
    };
    rows.into_iter().map(|(a, b, c)| vec![a, b, c]).collect()
}

/// An SMS provider that is down.
struct BrokenSms;

#[async_trait]
impl SmsSender for BrokenSms {
    async fn send_sms(&self, _: &Sms) -> Result<(), AppError> {
        Err(AppError::Unavailable(
            "the SMS provider did not answer".into(),
        ))
    }
}

/// The test app with another SMS sender.
async fn app_with_sms(db: &TestDb, sms: Arc<dyn SmsSender>) -> TestApp {
    TestApp::with_sms(db, test_settings(), Some(sms)).await
}

/// The buyer as they go on after a login answered `r`: the rotated session and the login cookie.
fn logged_in_as(r: &Reply) -> String {
    let session = r.headers["uuid"].to_str().unwrap();
    let login = set_cookie(r, "kupa_login").expect("a login cookie");
    format!("{session};{login}")
}

api_tests! {
async fn a_demo_customer_logs_in_with_the_code_from_the_outbox(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (buyer_a, buyer_b) = (buyer(1), buyer(2));

    let r = me(&app, &buyer_a).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    example(&app, "customerMe", "ErrorBody", &r);

    // The number as a buyer might type it; the outbox keeps the local form.
    let r = app.call_as(&buyer_a, "POST", "/api/customer/mobile-login", Some(&login_body("+972-52-431-8876", false))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, json!({ "success": true }));
    example(&app, "mobileLogin", "SuccessResponse", &r);
    let messages = inbox(&app, DANA).await;
    assert_eq!(messages.len(), 1);
    assert_eq!((messages[0]["to"].as_str(), messages[0]["kind"].as_str()), (Some(DANA), Some("loginCode")));
    let sms_code = code_from_phone(&app, DANA).await;

    let r = validate(&app, &buyer_a, "052-431-8876", &sms_code).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let info = &r.body["customerInfo"];
    assert_eq!(info["CustomerId"], 1);
    assert_eq!((info["FirstName"].as_str(), info["LastName"].as_str()), (Some("דנה"), Some("לוי")));
    assert_eq!(info["SSN"], "*****8711", "the ID number is masked but for its last 4 digits");
    assert_eq!(info["MobileNumber1"], DANA);
    assert_eq!(info["EmailAddress1"], "dana.levi@example.com");
    assert_eq!(info["IsSMSAllowed"], true);
    let members = info["Members"].as_array().unwrap();
    assert_eq!(members.iter().map(|m| m["memberNumber"].as_str().unwrap()).collect::<Vec<_>>(), vec!["100001", "200001"]);
    assert_eq!((members[0]["isAvailable"].as_bool(), members[0]["isExpired"].as_bool(), members[0]["isNotStarted"].as_bool()), (Some(true), Some(false), Some(false)));
    assert_eq!((members[1]["membershipTypeId"].as_i64(), members[1]["balance"].as_i64(), members[1]["currency"].as_str()), (Some(2), Some(23100), Some("ILS")));
    assert_eq!(members[0]["pointsBalance"], 1250);
    assert_eq!(r.body["mobileNumber"], DANA);
    assert!(r.body["expiresAt"].as_str().unwrap() > r.body["loggedInAt"].as_str().unwrap());
    example(&app, "mobileLoginValidationArea", "CustomerLoginResponse", &r);
    let old_a = buyer_a.clone();
    let buyer_a = logged_in_as(&r);
    assert_eq!(me(&app, &old_a).await.status, StatusCode::UNAUTHORIZED, "the session id before the login logs no one in");

    let r = me(&app, &buyer_a).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["customerInfo"]["CustomerId"], 1);
    example(&app, "customerMe", "CustomerLoginResponse", &r);
    let r = me(&app, &buyer_b).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "the login belongs to the session that validated the code");

    let r = validate(&app, &buyer_b, DANA, &sms_code).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"), "a code logs in once");
    assert_eq!(me(&app, &buyer_b).await.status, StatusCode::UNAUTHORIZED);

    let r = app.call_as(&buyer_a, "POST", "/api/customer/logout", None).await;
    assert_eq!((r.status, &r.body), (StatusCode::OK, &json!({ "success": true })));
    example(&app, "customerLogout", "SuccessResponse", &r);
    assert_eq!(me(&app, &buyer_a).await.status, StatusCode::UNAUTHORIZED);
    let buyer_a = who_parts(&buyer_a).0.to_owned();
    let r = app.call_as(&buyer_a, "POST", "/api/customer/logout", None).await;
    assert_eq!(r.status, StatusCode::OK, "logging out twice is fine");
}

async fn a_login_ends_two_hours_after_it_began(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    assert_eq!(request_code(&app, &buyer(1), DANA).await.status, StatusCode::OK);
    let c = code_from_phone(&app, DANA).await;
    let r = validate(&app, &buyer(1), DANA, &c).await;
    assert_eq!(r.status, StatusCode::OK);
    let who = logged_in_as(&r);
    advance(&app, 2 * 3_600_000 - 60_000).await;
    assert_eq!(me(&app, &who).await.status, StatusCode::OK);
    advance(&app, 60_000).await;
    let r = me(&app, &who).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
}

async fn member_cards_say_whether_they_run_today(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    for (n, mobile, expired, not_started) in [(1, YOSSI, true, false), (2, NOAM, false, true)] {
        let session = buyer(n);
        assert_eq!(request_code(&app, &session, mobile).await.status, StatusCode::OK);
        let c = code_from_phone(&app, mobile).await;
        let r = validate(&app, &session, mobile, &c).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let m = &r.body["customerInfo"]["Members"][0];
        assert_eq!((m["isExpired"].as_bool(), m["isNotStarted"].as_bool(), m["isAvailable"].as_bool()), (Some(expired), Some(not_started), Some(false)), "{mobile}");
    }
}

async fn a_wrong_code_is_refused_and_five_attempts_kill_the_code(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let session = buyer(1);
    assert_eq!(request_code(&app, &session, DANA).await.status, StatusCode::OK);
    let right = code_from_phone(&app, DANA).await;
    let wrong = other_code(&right);
    for left in (0..5).rev() {
        let r = validate(&app, &session, DANA, &wrong).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"));
        assert_eq!((r.body["error"]["params"]["reason"].as_str(), r.body["error"]["params"]["attemptsLeft"].as_i64()), (Some("wrong"), Some(left)));
        if left == 4 {
            example(&app, "mobileLoginValidationArea", "ErrorBody", &r);
        }
    }
    let r = validate(&app, &session, DANA, &right).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "loginValidation"), "the right code comes too late: {}", r.text);
    example(&app, "mobileLoginValidationArea", "ErrorBody", &r);
    assert_eq!(me(&app, &session).await.status, StatusCode::UNAUTHORIZED);

    // Malformed codes cannot be right and cost no attempt.
    let r = validate(&app, &session, DANA, "12ab").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"));

    // A new code, once the resend wait is over, starts afresh.
    let r = request_code(&app, &session, DANA).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "smsResendTooSoon"));
    let wait = r.body["error"]["params"]["retryAfterSeconds"].as_i64().unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    example(&app, "mobileLogin", "ErrorBody", &r);
    assert_eq!(inbox(&app, DANA).await.len(), 1, "no second SMS");
    advance(&app, 30_000).await;
    assert_eq!(request_code(&app, &session, DANA).await.status, StatusCode::OK);
    let fresh = code_from_phone(&app, DANA).await;
    assert_eq!(inbox(&app, DANA).await.len(), 2);
    let r = validate(&app, &session, DANA, &right).await;
    if fresh != right {
        assert_eq!(code(&r), "INVALID_SMS_CODE", "a new code replaces the old one");
    }
    let r = validate(&app, &session, DANA, &fresh).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn an_expired_code_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    assert_eq!(request_code(&app, &buyer(1), DANA).await.status, StatusCode::OK);
    let c = code_from_phone(&app, DANA).await;
    advance(&app, FIVE_MINUTES_MS).await;
    let r = validate(&app, &buyer(1), DANA, &c).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE"));
    assert_eq!(r.body["error"]["params"]["reason"], "expired");
    assert_eq!(me(&app, &buyer(1)).await.status, StatusCode::UNAUTHORIZED);

    let r = validate(&app, &buyer(1), YOSSI, "123456").await;
    assert_eq!((r.status, code(&r), r.body["error"]["params"]["reason"].as_str()), (StatusCode::UNAUTHORIZED, "INVALID_SMS_CODE", Some("none")), "no code was sent to that number");
}

async fn an_unknown_number_gets_a_code_only_when_asked_to_regardless(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = request_code(&app, &buyer(1), STRANGER).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));
    example(&app, "mobileLogin", "ErrorBody", &r);
    assert!(inbox(&app, STRANGER).await.is_empty());

    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login", Some(&login_body(STRANGER, true))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let c = code_from_phone(&app, STRANGER).await;
    let r = validate(&app, &buyer(1), STRANGER, &c).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((&r.body["customerInfo"], r.body["mobileNumber"].as_str()), (&Value::Null, Some(STRANGER)), "a proven number, no customer");
    let r = me(&app, &logged_in_as(&r)).await;
    assert_eq!((r.status, r.body["mobileNumber"].as_str()), (StatusCode::OK, Some(STRANGER)));
}

async fn malformed_numbers_and_bodies_are_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    for bad in ["0312345678", "05243188", "+44 7700 900123", "dana", ""] {
        let r = request_code(&app, &buyer(1), bad).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"), "{bad:?}");
        if bad.is_empty() {
            example(&app, "mobileLogin", "ErrorBody", &r);
        }
        let r = validate(&app, &buyer(1), bad, "123456").await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"), "{bad:?}");
    }
    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login", Some("{}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login-validation-area", Some(r#"{"mobileNumber": "0524318876"}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
}

async fn a_rejected_captcha_sends_nothing(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    for body in [
        json!({ "mobileNumber": DANA }),
        json!({ "mobileNumber": DANA, "recaptchaToken": "" }),
        json!({ "mobileNumber": DANA, "recaptchaToken": "forged" }),
    ] {
        let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login", Some(&body.to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"), "{body}");
        example(&app, "mobileLogin", "ErrorBody", &r);
    }
    assert!(inbox(&app, DANA).await.is_empty());
    assert!(login_code_rows(db).await.is_empty(), "no code was made");
}

async fn the_code_is_kept_hashed_and_never_logged(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let logs = Logs::capture();
    assert_eq!(request_code(&app, &buyer(1), DANA).await.status, StatusCode::OK);
    let c = code_from_phone(&app, DANA).await;

    let rows = login_code_rows(db).await;
    assert_eq!(rows.len(), 1);
    let (mobile, hash, salt) = (&rows[0][0], &rows[0][1], &rows[0][2]);
    assert_eq!(mobile, DANA);
    assert_eq!(hash.len(), 64, "a SHA-256 in hex");
    assert!(hash.bytes().all(|b| b.is_ascii_hexdigit()) && salt.len() == 32);
    assert!(rows[0].iter().all(|col| !col.contains(&c)), "the code is nowhere in the table");

    assert_eq!(validate(&app, &buyer(1), DANA, &other_code(&c)).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(validate(&app, &buyer(1), DANA, &c).await.status, StatusCode::OK);
    assert!(login_code_rows(db).await.is_empty(), "a used code is gone");

    let text = logs.text();
    assert!(text.contains("login code sent") && text.contains("SMS written to the outbox") && text.contains("loginCode"), "{text}");
    assert!(text.contains("052*****76"), "the number is logged masked: {text}");
    assert!(!text.contains(&c) && !text.contains(&other_code(&c)), "a code in the log: {text}");
    assert!(!text.contains(DANA), "the whole number in the log: {text}");
}

async fn an_sms_failure_is_reported_and_the_buyer_may_try_again_at_once(db: &TestDb) {
    let app = app_with_sms(db, Arc::new(BrokenSms)).await;
    for _ in 0..2 {
        let r = request_code(&app, &buyer(1), DANA).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "SMS_FAILED"), "not smsResendTooSoon: nobody got the first code");
    }
    assert!(login_code_rows(db).await.is_empty(), "no code waits for an SMS that never left");
}

async fn the_outbox_routes_and_page_exist_only_in_test_mode(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    assert_eq!(request_code(&app, &buyer(1), DANA).await.status, StatusCode::OK);
    assert_eq!(request_code(&app, &buyer(1), YOSSI).await.status, StatusCode::OK);
    let all = app.get("/api/test/outbox/sms").await;
    assert_eq!(all.body["messages"].as_array().unwrap().iter().map(|m| m["to"].as_str().unwrap()).collect::<Vec<_>>(), vec![YOSSI, DANA], "newest first");
    assert_eq!(app.get("/api/test/outbox/sms?limit=1").await.body["messages"].as_array().unwrap().len(), 1);
    let r = app.get("/api/test/outbox/sms?to=abc").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"));

    let mailer = OutboxMailer::new(Arc::new(db.db.clone()), app.clock.clone());
    mailer.send_mail(&Mail {
        to: "dana.levi@example.com".into(),
        subject: "הכרטיסים שלך <3".into(),
        text: "שלום דנה".into(),
        html: "<p>שלום דנה</p><script>alert(1)</script>".into(),
        kind: "tickets".into(),
        reference: Some("R-1".into()),
        attachments: vec![kupa_app::ports::Attachment { name: "tickets.pdf".into(), content_type: "application/pdf".into(), bytes: vec![1, 2, 3] }],
    }).await.unwrap();
    let r = app.get("/api/test/outbox/mail?to=dana.levi@example.com").await;
    let m = &r.body["messages"][0];
    assert_eq!((m["subject"].as_str(), m["reference"].as_str(), m["attachments"][0]["size"].as_i64()), (Some("הכרטיסים שלך <3"), Some("R-1"), Some(3)));

    let page = app.get("/dev/outbox").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.headers["content-type"].to_str().unwrap().starts_with("text/html"));
    assert!(page.text.contains(r#"dir="rtl""#) && page.text.contains(DANA) && page.text.contains(YOSSI));
    assert!(page.text.contains(&code_from_phone(&app, DANA).await), "the page shows what the buyer's phone shows");
    assert!(page.text.contains("הכרטיסים שלך &lt;3") && page.text.contains("tickets.pdf"));
    assert!(!page.text.contains("<script>alert"), "mail HTML is escaped into a sandboxed frame");
    let filtered = app.get(&format!("/dev/outbox?to={YOSSI}")).await;
    assert!(filtered.text.contains(YOSSI) && !filtered.text.contains(DANA));

    let prod_db = TestDb::sqlite().await;
    let prod = TestApp::new(&prod_db, Default::default()).await;
    for path in ["/api/test/outbox/sms", "/api/test/outbox/mail"] {
        let r = prod.get(path).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{path}");
    }
    let r = prod.get("/dev/outbox").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(!r.text.contains("Outbox"));
    prod_db.cleanup().await;
}
}
