//! The marketing pages (issue 19 item 3, decision 0051): the contact, birthday and job forms are
//! checked with the spec's rules, kept, and mailed to the chain's address; search finds features
//! and complexes by Hebrew or English name whatever the niqqud and case; the complexes carry
//! parking, accessibility and a map link. On SQLite and (when KUPA_TEST_POSTGRES_URL is set)
//! PostgreSQL.

use crate::common::*;
use axum::http::StatusCode;
use kupa_api::rate_limit::RateLimits;
use kupa_app::marketing::{InquiryKind, InquiryStore};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// The demo chain's office (siteConfig.chainEmail).
const CHAIN: &str = "service@kupa.example";

async fn send(app: &TestApp, who: &str, body: Value) -> Reply {
    let body = with(
        json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "locale": "he" }),
        body,
    );
    app.call_as(who, "POST", "/api/inquiries", Some(&body.to_string()))
        .await
}

fn fields(r: &Reply) -> &Value {
    &r.body["error"]["params"]["fields"]
}

api_tests! {
async fn a_contact_message_is_checked_kept_and_mailed_to_the_chain(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = send(&app, &buyer(1), json!({ "kind": "contact" })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    assert_eq!(fields(&r), &json!({ "fullName": "required", "email": "required", "message": "required" }));
    let r = send(&app, &buyer(1), json!({
        "kind": "contact", "fullName": "Dana 7", "email": "dana@", "mobileNumber": "123",
        "message": "hello", "locationId": 1
    })).await;
    assert_eq!(fields(&r), &json!({
        "fullName": "alpha", "email": "email", "mobileNumber": "mobile",
        // Location 1 is the head office, not a complex.
        "locationId": "required"
    }), "{}", r.text);
    // Over the document's bounds: refused by the same rule before anything else is read.
    let r = send(&app, &buyer(1), json!({
        "kind": "contact", "fullName": "Dana Levi", "email": "dana@example.com",
        "message": "x".repeat(2001)
    })).await;
    assert_eq!(fields(&r), &json!({ "message": "max" }), "{}", r.text);
    // The captcha first.
    let r = app.call_as(&buyer(1), "POST", "/api/inquiries",
        Some(&json!({ "kind": "contact", "recaptchaToken": "wrong" }).to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"));
    assert!(db.db.recent_inquiries(10).await.unwrap().is_empty(), "nothing refused is kept");

    let r = send(&app, &buyer(1), json!({
        "kind": "contact", "fullName": " דנה לוי ", "email": "dana.levi@example.com",
        "mobileNumber": "+972 52-431-8876", "locationId": 2,
        "message": "האם יש חניה <נגישה>?"
    })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "postInquiry", "InquiryResponse", &r);
    let id = r.body["inquiryId"].as_i64().unwrap();
    let kept = db.db.recent_inquiries(10).await.unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].id, id);
    assert_eq!(kept[0].inquiry.kind, InquiryKind::Contact);
    assert_eq!(kept[0].inquiry.full_name, "דנה לוי");
    assert_eq!(kept[0].inquiry.mobile_number, "0524318876");
    assert_eq!(kept[0].locale, "he");
    assert!(kept[0].mailed_at_ms.is_some(), "marked mailed");

    let mail = app.get(&format!("/api/test/outbox/mail?to={CHAIN}&limit=1")).await;
    let m = &mail.body["messages"][0];
    assert_eq!(m["kind"], "inquiry");
    assert_eq!(m["reference"], format!("inquiry-{id}"));
    let text = m["text"].as_str().unwrap();
    assert!(text.contains("דנה לוי") && text.contains("dana.levi@example.com"), "{text}");
    assert!(text.contains("Kupa Tel Aviv Port"), "the complex by name: {text}");
    assert!(m["html"].as_str().unwrap().contains("&lt;נגישה&gt;"), "escaped in the HTML");
}

async fn a_birthday_and_a_job_application_need_their_own_fields(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = send(&app, &buyer(1), json!({
        "kind": "birthday", "fullName": "Dana Levi", "email": "dana.levi@example.com"
    })).await;
    assert_eq!(fields(&r), &json!({
        "mobileNumber": "required", "locationId": "required", "partyDate": "required",
        "guests": "required"
    }), "{}", r.text);
    let today = app.today;
    let r = send(&app, &buyer(1), json!({
        "kind": "birthday", "fullName": "Dana Levi", "email": "dana.levi@example.com",
        "mobileNumber": "0524318876", "locationId": 3, "partyDate": today.to_string(),
        "guests": 101, "childAge": 0
    })).await;
    assert_eq!(fields(&r), &json!({ "partyDate": "min", "guests": "max", "childAge": "min" }), "{}", r.text);
    let party = today.checked_add(jiff::Span::new().days(20)).unwrap();
    let r = send(&app, &buyer(1), json!({
        "kind": "birthday", "fullName": "Dana Levi", "email": "dana.levi@example.com",
        "mobileNumber": "0524318876", "locationId": 3, "partyDate": party.to_string(),
        "guests": 24, "childAge": 8, "position": "ignored for a birthday"
    })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let kept = &db.db.recent_inquiries(1).await.unwrap()[0];
    assert_eq!((kept.inquiry.guests, kept.inquiry.child_age), (Some(24), Some(8)));
    assert_eq!(kept.inquiry.party_date, party.to_string());
    assert_eq!(kept.inquiry.position, "", "a birthday keeps no position");

    let r = send(&app, &buyer(2), json!({
        "kind": "job", "fullName": "Yossi Cohen", "email": "yossi.cohen@example.com",
        "mobileNumber": "0507712345"
    })).await;
    assert_eq!(fields(&r), &json!({ "position": "required" }), "{}", r.text);
    let r = send(&app, &buyer(2), json!({
        "kind": "job", "fullName": "Yossi Cohen", "email": "yossi.cohen@example.com",
        "mobileNumber": "0507712345", "position": "Projectionist", "locale": "en"
    })).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let mail = app.get(&format!("/api/test/outbox/mail?to={CHAIN}&limit=2")).await;
    let subjects: Vec<&str> = mail.body["messages"].as_array().unwrap().iter()
        .map(|m| m["subject"].as_str().unwrap()).collect();
    assert!(subjects[0].contains("Job application") && subjects[1].contains("Birthday"), "{subjects:?}");
    let kept = &db.db.recent_inquiries(1).await.unwrap()[0];
    assert_eq!((kept.inquiry.kind, kept.locale.as_str()), (InquiryKind::Job, "en"));
    assert_eq!(db.db.recent_inquiries(10).await.unwrap().len(), 2, "refused forms are not kept");
}

async fn kept_forms_are_deleted_after_their_year(db: &TestDb) {
    use kupa_app::marketing::{INQUIRY_KEPT_MS, Inquiry};
    let day = 24 * 3_600_000;
    let t0 = 1_900_000_000_000;
    let form = |name: &str| Inquiry {
        kind: InquiryKind::Job,
        full_name: name.into(),
        email: "someone@example.com".into(),
        mobile_number: "0524318876".into(),
        position: "Projectionist".into(),
        ..Inquiry::default()
    };
    db.db.save_inquiry(&form("Old Applicant"), "he", t0).await.unwrap();
    db.db.save_inquiry(&form("New Applicant"), "he", t0 + 2 * day).await.unwrap();
    // A year and a day after the first: only the first is past its year.
    let now = t0 + INQUIRY_KEPT_MS + day;
    assert_eq!(db.db.forget_inquiries(now - INQUIRY_KEPT_MS).await.unwrap(), 1);
    let kept = db.db.recent_inquiries(10).await.unwrap();
    assert_eq!(kept.iter().map(|k| k.inquiry.full_name.as_str()).collect::<Vec<_>>(), ["New Applicant"]);
    assert_eq!(db.db.forget_inquiries(now - INQUIRY_KEPT_MS).await.unwrap(), 0, "nothing twice");
}

async fn the_forms_are_rate_limited(db: &TestDb) {
    let settings = kupa_api::ApiSettings {
        rate_limits: RateLimits::parse("form.session=2/10m").unwrap().over_defaults(),
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;
    let body = json!({ "kind": "contact", "fullName": "Dana Levi",
        "email": "dana.levi@example.com", "message": "hello" });
    for _ in 0..2 {
        assert_eq!(send(&app, &buyer(1), body.clone()).await.status, StatusCode::OK);
    }
    let r = send(&app, &buyer(1), body).await;
    assert_eq!((r.status, code(&r)), (StatusCode::TOO_MANY_REQUESTS, "tooManyRequests"));
    assert_eq!(db.db.recent_inquiries(10).await.unwrap().len(), 2);
}

async fn search_finds_features_and_complexes_whatever_the_niqqud_and_case(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let ids = |r: &Reply, list: &str| -> Vec<i64> {
        r.body[list].as_array().unwrap().iter().map(|f| f["id"].as_i64().unwrap()).collect()
    };
    // The demo names feature 13 with niqqud: "שְׁקִיעָה בַּכִּנֶּרֶת".
    let r = app.get("/api/search?q=%D7%A9%D7%A7%D7%99%D7%A2%D7%94").await; // שקיעה
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "search", "SearchResponse", &r);
    assert_eq!(ids(&r, "features"), vec![13]);
    assert_eq!(r.body["features"][0]["originalLanguage"], "עברית");
    assert_eq!(r.body["features"][0]["classificationEn"].as_str().map(|s| !s.is_empty()), Some(true));
    // Niqqud in the query, none in the name: "הַדָּג" finds "הדג שרצה לעוף".
    let r = app.get("/api/search?q=%D7%94%D6%B7%D7%93%D6%B8%D6%BC%D7%92").await;
    assert_eq!(ids(&r, "features"), vec![3]);
    let r = app.get("/api/search?q=OPERATION%20mid").await;
    assert_eq!(ids(&r, "features"), vec![4]);
    // Complexes by name or city, in either language; the head office is no complex.
    let r = app.get("/api/search?q=haifa").await;
    assert_eq!((ids(&r, "features"), ids(&r, "complexes")), (vec![], vec![4]));
    let r = app.get("/api/search?q=%D7%A7%D7%95%D7%A4%D7%94").await; // קופה
    assert_eq!(ids(&r, "complexes"), vec![2, 3, 4]);
    let r = app.get("/api/search?q=%20").await;
    assert_eq!((ids(&r, "features"), ids(&r, "complexes")), (vec![], vec![]));
    let r = app.get(&format!("/api/search?q={}", "a".repeat(401))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
}

async fn the_complexes_carry_parking_accessibility_and_a_map_link(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get("/api/locations").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "complexes", "ComplexesResponse", &r);
    let all = r.body["complexes"].as_array().unwrap();
    assert_eq!(all.iter().map(|c| c["id"].as_i64().unwrap()).collect::<Vec<_>>(), vec![2, 3, 4]);
    for c in all {
        for field in ["address", "addressEn", "parking", "parkingEn", "accessibility", "accessibilityEn"] {
            assert!(!c[field].as_str().unwrap().is_empty(), "{field} of {c}");
        }
        assert!(c["mapUrl"].as_str().unwrap().starts_with("https://www.openstreetmap.org/search?query="));
    }
}
}
