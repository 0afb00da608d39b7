//! POST /api/client-errors (decision 0055): the web app's error reports are classified as the
//! spec says, logged with the failed call's request id and nothing personal, capped in size and
//! rate-limited.

use crate::common::logs::Logs;
use crate::common::*;
use axum::http::StatusCode;
use kupa_api::ApiSettings;
use kupa_api::rate_limit::RateLimits;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

async fn report(app: &TestApp, who: &str, body: &Value) -> Reply {
    app.call_as(who, "POST", "/api/client-errors", Some(&body.to_string()))
        .await
}

fn api_error(status: u16) -> Value {
    json!({ "kind": "api", "status": status, "code": "noEvent", "message": "gone",
            "page": "/order/12", "apiPath": "/api/presentations/12", "requestId": "00ff00ff00ff00ff" })
}

/// The lines the reports wrote (the request lines of the calls are not reports).
fn report_lines(logs: &Logs) -> Vec<String> {
    logs.text()
        .lines()
        .filter(|l| l.contains("client error"))
        .map(str::to_owned)
        .collect()
}

api_tests! {
async fn a_report_is_logged_with_the_request_id_and_nothing_personal(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let logs = Logs::capture();
    let body = json!({
        "kind": "api", "status": 500, "code": "serverError",
        "message": "POST failed for 0521234567 dana@example.com reservation 88231144",
        "page": "/reservation/ZQXWVU/seats?token=s3cr3t&lang=he",
        "apiPath": "/api/reservations/ZQXWVU/sendTickets?mobileNumber=0521234567",
        "requestId": "0123456789abcdef", "lang": "he"
    });
    let r = report(&app, &buyer(1), &body).await;
    assert_eq!(r.status, StatusCode::NO_CONTENT, "{}", r.text);
    let lines = report_lines(&logs);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let line = &lines[0];
    assert!(line.contains("ERROR"), "critical is logged as an error: {line}");
    for part in [
        "severity=critical",
        "kind=\"api\"",
        "status=500",
        "code=\"serverError\"",
        "page=/reservation/:reservationId/seats",
        "api=\"/reservations/{resId}/sendTickets\"",
        "text=POST failed for # [email] reservation #",
        "failed_request_id=\"0123456789abcdef\"",
        "request_id=",
        "lang=\"he\"",
    ] {
        assert!(line.contains(part), "{part} in {line}");
    }
    for secret in ["0521234567", "dana@", "example.com", "88231144", "ZQXWVU", "s3cr3t", "token", "mobileNumber"] {
        assert!(!logs.text().contains(secret), "{secret} leaked: {}", logs.text());
    }
}

async fn reports_are_classified_as_the_spec_says(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let logs = Logs::capture();
    for status in [503, 401, 403, 404, 409] {
        let r = report(&app, &buyer(1), &api_error(status)).await;
        assert_eq!(r.status, StatusCode::NO_CONTENT, "{status}: {}", r.text);
    }
    let script = json!({ "kind": "script", "code": "TypeError", "message": "x is undefined", "page": "/" });
    assert_eq!(report(&app, &buyer(1), &script).await.status, StatusCode::NO_CONTENT);
    let severities: Vec<String> = report_lines(&logs)
        .iter()
        .map(|l| l.split("severity=").nth(1).unwrap().split(' ').next().unwrap().to_owned())
        .collect();
    assert_eq!(severities, ["critical", "high", "high", "medium", "low", "critical"]);
    assert!(report_lines(&logs)[5].contains("page=/ "), "{:?}", report_lines(&logs));

    // What is no error, or no report, is refused.
    for bad in [
        api_error(200),
        json!({ "kind": "api", "page": "/" }),
        json!({ "kind": "script", "status": 500, "page": "/" }),
        json!({ "kind": "api", "status": 500, "code": "no code!", "page": "/" }),
        json!({ "kind": "script", "page": "/", "email": "dana@example.com" }),
        json!({ "kind": "script", "page": "/", "message": "x".repeat(1001) }),
    ] {
        let r = report(&app, &buyer(1), &bad).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{bad}: {}", r.text);
        assert_eq!(code(&r), "formValidation");
    }
    assert_eq!(report_lines(&logs).len(), 6, "refused reports are not logged");
}

async fn a_report_over_four_kilobytes_is_refused_unread(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let mut body = api_error(500);
    body["message"] = json!("x".repeat(900));
    body["page"] = json!(format!("/{}", "p".repeat(490)));
    body["apiPath"] = json!(format!("/{}", "a".repeat(490)));
    let fits = report(&app, &buyer(1), &body).await;
    assert_eq!(fits.status, StatusCode::NO_CONTENT, "{}", fits.text);
    let mut big = api_error(500);
    big["message"] = json!("x".repeat(5000));
    let r = report(&app, &buyer(1), &big).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.text);
    assert_eq!(code(&r), "payloadTooLarge");
}

async fn reports_are_rate_limited_per_session_and_per_address(db: &TestDb) {
    let settings = ApiSettings {
        rate_limits: RateLimits::parse("report.session=3/10m,report.address=5/10m").unwrap().over_defaults(),
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;
    for _ in 0..3 {
        assert_eq!(report(&app, &buyer(1), &api_error(404)).await.status, StatusCode::NO_CONTENT);
    }
    let r = report(&app, &buyer(1), &api_error(404)).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(code(&r), "tooManyRequests");
    for _ in 0..2 {
        assert_eq!(report(&app, &buyer(2), &api_error(404)).await.status, StatusCode::NO_CONTENT);
    }
    assert_eq!(report(&app, &buyer(3), &api_error(404)).await.status, StatusCode::TOO_MANY_REQUESTS, "the address is spent");
}
}
