//! What every answer gets at the edge (decision 0016): the browser hardening headers on every kind
//! of answer, 413 `payloadTooLarge` in the JSON error shape for bodies over the limit, axum's own
//! rejections in the JSON shape, and `Retry-After` on every 429 the server gives. On SQLite and
//! (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use std::net::SocketAddr;

use crate::common::*;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use kupa_api::ApiSettings;
use kupa_api::rate_limit::RateLimits;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::json;
use tower::ServiceExt;

/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";

fn header<'a>(r: &'a Reply, name: &str) -> &'a str {
    r.headers
        .get(name)
        .map(|v| v.to_str().unwrap())
        .unwrap_or_default()
}

/// The shop's hardening: a policy without inline script that no one may frame, nosniff, and a
/// referrer policy that keeps paths on this site.
fn assert_hardened(what: &str, r: &Reply) {
    let csp = header(r, "content-security-policy");
    let script_src = csp
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("script-src") || d.starts_with("default-src"))
        .unwrap_or_else(|| panic!("{what}: no script policy in {csp:?}"));
    assert!(
        !csp.contains("'unsafe-inline'") && !csp.contains("'unsafe-eval'"),
        "{what}: {csp}"
    );
    assert!(script_src.contains("'self'"), "{what}: {csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp}");
    assert_eq!(header(r, "x-frame-options"), "DENY", "{what}");
    assert_eq!(header(r, "x-content-type-options"), "nosniff", "{what}");
    assert!(
        [
            "strict-origin-when-cross-origin",
            "same-origin",
            "no-referrer",
            "strict-origin"
        ]
        .contains(&header(r, "referrer-policy")),
        "{what}: referrer policy {:?}",
        header(r, "referrer-policy")
    );
    assert_eq!(
        header(r, "strict-transport-security"),
        "",
        "{what}: HSTS over plain http"
    );
}

fn retry_after(r: &Reply) -> u64 {
    let header = r
        .headers
        .get("retry-after")
        .unwrap_or_else(|| panic!("no Retry-After on {} {}", r.status, r.text))
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(header >= 1, "Retry-After {header}");
    header
}

/// A GET of the seat events of `presentation` from `address`, its answer's head, and its body
/// kept open (dropping it ends the stream).
async fn open_stream(
    app: &TestApp,
    presentation: i64,
    address: &str,
) -> (StatusCode, axum::http::HeaderMap, Body) {
    let mut req = Request::get(format!("/api/seats/events?presentationId={presentation}"))
        .body(Body::empty())
        .unwrap();
    let peer: SocketAddr = format!("{address}:40000").parse().unwrap();
    req.extensions_mut().insert(ConnectInfo(peer));
    let res = app.router.clone().oneshot(req).await.unwrap();
    let (parts, body) = res.into_parts();
    (parts.status, parts.headers, body)
}

api_tests! {
async fn every_kind_of_answer_carries_the_hardening_headers(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let p = app.presentations().await[0].id;
    for (what, r) in [
        ("the shop's page", app.get("/").await),
        ("an order page", app.get(&format!("/order/{p}/1")).await),
        ("the e-document page", app.get("/edocument/abc").await),
        ("a page that does not exist", app.get("/no/such/page").await),
        ("an API call", app.get("/api/health").await),
        ("an API 404", app.get("/api/nope").await),
        ("an API 405", app.get("/api/seats/seatplanV2").await),
        ("an API refusal", app.get("/api/presentations/987654321").await),
        ("a malformed body", app.post("/api/cart", "{").await),
        ("the OpenAPI document", app.get("/api/openapi.json").await),
    ] {
        assert_hardened(what, &r);
    }
    // The test outbox shows mails' own HTML: inline styles, but no script, and never framed.
    let r = app.get("/dev/outbox").await;
    assert_eq!(r.status, StatusCode::OK);
    let csp = header(&r, "content-security-policy");
    assert!(csp.contains("default-src 'none'") && !csp.contains("script-src"), "{csp}");
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(header(&r, "x-frame-options"), "DENY");
    assert_eq!(header(&r, "x-content-type-options"), "nosniff");
    assert!(!r.text.contains("<script"), "the outbox page has a script");
    // The test gateway's pages keep their own policy: the shop frames them.
    let r = app.get("/pay/no-such-payment").await;
    let csp = header(&r, "content-security-policy");
    assert!(csp.contains("frame-ancestors 'self'"), "{csp}");
    assert_eq!(header(&r, "x-frame-options"), "", "a DENY would break the payment dialog");
    assert_eq!(header(&r, "x-content-type-options"), "nosniff");
}

async fn hsts_is_sent_only_over_https(db: &TestDb) {
    let https_proxy = |proto: &str| {
        Request::get("/api/health")
            .header("x-forwarded-proto", proto)
            .body(Body::empty())
            .unwrap()
    };
    // Behind a trusted proxy, its word on the scheme counts.
    let trusted = TestApp::new(db, ApiSettings { trust_forwarded_for: true, ..test_settings() }).await;
    let r = trusted.send(https_proxy("https")).await;
    assert!(header(&r, "strict-transport-security").starts_with("max-age="), "{:?}", r.headers);
    assert_eq!(header(&trusted.send(https_proxy("http")).await, "strict-transport-security"), "");
    // Without one, anyone could say it.
    let direct = trusted.another_node(db, test_settings()).await;
    assert_eq!(header(&direct.send(https_proxy("https")).await, "strict-transport-security"), "");
    // A public address on https means every answer went out over https.
    let public = trusted.another_node(db, ApiSettings { public_url: "https://tickets.example".into(), ..test_settings() }).await;
    for uri in ["/", "/api/health", "/api/nope"] {
        let r = public.get(uri).await;
        assert!(header(&r, "strict-transport-security").starts_with("max-age="), "{uri}");
    }
}

async fn bodies_over_the_limit_answer_413_in_the_json_shape(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let five_mb = format!("{{\"x\":\"{}\"}}", "a".repeat(5 * 1024 * 1024));
    for uri in ["/api/cart", "/api/payment/callback", "/api/customer/mobile-login", "/api/seats/seatplanV2"] {
        let r = app.post(uri, &five_mb).await;
        assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"), "{uri}: {}", &r.text[..r.text.len().min(200)]);
        assert!(header(&r, "content-type").starts_with("application/json"), "{uri}");
    }
    // A provider's form post (the test gateway's card page) reads the raw body too.
    let form = format!("number={}", "4".repeat(5 * 1024 * 1024));
    let r = app.form_as(&buyer(1), "POST", "/pay/no-such-payment/card", Some(&form)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"), "{}", &r.text[..r.text.len().min(200)]);
    // The limit is a setting.
    let small = app.another_node(db, ApiSettings { max_body_bytes: 1024, ..test_settings() }).await;
    let two_kb = format!("{{\"x\":\"{}\"}}", "a".repeat(2048));
    let r = small.post("/api/cart", &two_kb).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"));
    // Without a Content-Length (chunked), the limit still holds.
    let chunks = futures_util_stream(two_kb.into_bytes());
    let r = small.send(Request::post("/api/cart").header("content-type", "application/json").body(chunks).unwrap()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"));
}

async fn axums_own_rejections_answer_in_the_json_shape(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let no_content_type = app
        .send(Request::post("/api/cart").body(Body::from("{}")).unwrap())
        .await;
    for (what, r) in [
        ("bad JSON", app.post("/api/cart", "{\"seats\": [").await),
        ("a body of the wrong shape", app.post("/api/cart", "[1, 2]").await),
        ("no content type", no_content_type),
        ("a bad query", app.get("/api/seats/events?presentationId=abc").await),
        ("a bad path segment", app.get("/api/presentations/abc").await),
    ] {
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{what}: {}", r.text);
        assert!(header(&r, "content-type").starts_with("application/json"), "{what}");
        assert!(!r.body["error"]["message"].as_str().unwrap().is_empty(), "{what}");
    }
}

async fn every_429_carries_retry_after(db: &TestDb) {
    let settings = ApiSettings {
        rate_limits: RateLimits::parse("lock.session=1/1m").unwrap().over_defaults(),
        max_event_streams_per_address: 2,
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;

    // The abuse limits.
    let lock = json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": 1, "VenueId": 1, "VenueSeatplanId": 1, "VenueSectionId": 999_999,
        "TicketGroupId": 1, "XCoordinate": 1, "YCoordinate": 1 } }).to_string();
    app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&lock)).await;
    let r = app.call_as(&buyer(1), "PUT", "/api/seats/lock-seat", Some(&lock)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyRequests"));
    let wait = retry_after(&r);
    assert!((1..=60).contains(&wait), "{wait}");
    assert_eq!(r.body["error"]["params"]["retryAfterSeconds"].as_u64(), Some(wait));

    // A new login code too soon after the last.
    let ask = json!({ "mobileNumber": DANA, "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.call_as(&buyer(2), "POST", "/api/customer/mobile-login", Some(&ask)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.call_as(&buyer(2), "POST", "/api/customer/mobile-login", Some(&ask)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "smsResendTooSoon"));
    let wait = retry_after(&r);
    assert!((1..=30).contains(&wait), "{wait}");
    assert_eq!(r.body["error"]["params"]["retryAfterSeconds"].as_u64(), Some(wait));

    // A code whose attempts are used up: the wait is until a new code may be asked for.
    let inbox = app.get(&format!("/api/test/outbox/sms?to={DANA}")).await;
    let right = six_digits(inbox.body["messages"][0]["body"].as_str().unwrap()).unwrap();
    let wrong = if right == "000000" { "111111" } else { "000000" };
    let check = |code: &str| json!({ "smsCode": code, "mobileNumber": DANA }).to_string();
    for _ in 0..5 {
        let r = app.call_as(&buyer(2), "POST", "/api/customer/mobile-login-validation-area", Some(&check(wrong))).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text);
    }
    let r = app.call_as(&buyer(2), "POST", "/api/customer/mobile-login-validation-area", Some(&check(&right))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "loginValidation"));
    let wait = retry_after(&r);
    assert!((1..=30).contains(&wait), "{wait}");
    assert_eq!(r.body["error"]["params"]["retryAfterSeconds"].as_u64(), Some(wait));

    // Seat event streams past the per-address cap; a stream that ends frees its place.
    let p = app.presentations().await[0].id;
    let (s1, _, first) = open_stream(&app, p, "10.1.1.1").await;
    let (s2, _, _second) = open_stream(&app, p, "10.1.1.1").await;
    assert_eq!((s1, s2), (StatusCode::OK, StatusCode::OK));
    let (s3, headers, body) = open_stream(&app, p, "10.1.1.1").await;
    assert_eq!(s3, StatusCode::TOO_MANY_REQUESTS);
    let wait: u64 = headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!(wait >= 1);
    let text = body.collect().await.unwrap().to_bytes();
    let error: serde_json::Value = serde_json::from_slice(&text).unwrap();
    assert_eq!(error["error"]["code"], "tooManyRequests");
    let (other, _, _third) = open_stream(&app, p, "10.1.1.2").await;
    assert_eq!(other, StatusCode::OK, "another address has its own cap");
    drop(first);
    let (again, _, _fourth) = open_stream(&app, p, "10.1.1.1").await;
    assert_eq!(again, StatusCode::OK, "a closed stream frees its place");
}
}

/// A body sent in chunks, with no Content-Length.
fn futures_util_stream(bytes: Vec<u8>) -> Body {
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        bytes.chunks(256).map(|c| Ok(c.to_vec())).collect();
    Body::from_stream(futures_util::stream::iter(chunks))
}
