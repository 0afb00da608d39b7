//! The catalogue API over HTTP, against the demo chain, on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL. The router is the real one; requests go through
//! `oneshot`, so nothing is mocked but the network.

use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_api::ApiSettings;
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, Clock};
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

api_tests! {
async fn every_input_is_bounded_as_the_document_says(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let long = "x".repeat(10_000);
    // A query parameter, a body field and a path parameter, each over its bound.
    let r = app.get(&format!("/api/presentations/1/ticket?ticketCode={long}&recaptchaToken={CAPTCHA_TEST_TOKEN}")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", &r.text[..r.text.len().min(200)]);
    assert_eq!(r.body["error"]["params"]["fields"]["ticketCode"], "max");
    let body = json!({ "mobileNumber": long, "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.post("/api/customer/mobile-login", &body).await;
    assert_eq!(r.body["error"]["params"]["fields"]["mobileNumber"], "max", "{}", &r.text[..r.text.len().min(200)]);
    let r = app.get(&format!("/api/reservations/{}", "R".repeat(300))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let ids = vec!["1"; 600].join(",");
    let r = app.get(&format!("/api/presentations/?featureIds={ids}")).await;
    assert_eq!(r.body["error"]["params"]["fields"]["featureIds"], "max");
    // The bounds are in the document.
    let doc = app.get("/api/openapi.json").await.body;
    let params = doc["paths"]["/presentations/{id}/ticket"]["get"]["parameters"].as_array().unwrap().clone();
    let code_param = params.iter().find(|p| p["name"] == "ticketCode").unwrap();
    assert_eq!(code_param["schema"]["maxLength"], 64);
    assert_eq!(doc["components"]["schemas"]["CustomerInfo"]["properties"]["firstName"]["maxLength"], 50);
    // In test mode the served document pins the captcha to the test token, and requires it.
    let token = params.iter().find(|p| p["name"] == "recaptchaToken").unwrap();
    assert_eq!((token["required"].clone(), token["schema"]["enum"][0].clone()), (json!(true), json!(CAPTCHA_TEST_TOKEN)));
}

async fn a_landing_page_carries_its_first_data_and_posters_in_its_html(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    const OPEN: &str = r#"<script type="application/json" id="kupa-landing">"#;
    let landing = |html: &str| -> Option<Value> {
        let start = html.find(OPEN)? + OPEN.len();
        let end = start + html[start..].find("</script>")?;
        Some(serde_json::from_str(&html[start..end]).expect("the landing data is JSON"))
    };
    // The index: the configuration and today's schedule, the very bodies of those calls.
    let page = app.get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    let data = landing(&page.text).expect("the index carries its data");
    let day = app.get("/api/seats/presentations").await.body;
    assert!(!day["presentations"].as_array().unwrap().is_empty());
    assert_eq!(data["presentationsByDate"]["date"], day["date"]);
    assert_eq!(data["presentationsByDate"]["presentations"], day["presentations"]);
    assert_eq!(data["presentationsByDate"]["saleDates"], day["saleDates"]);
    let config = app.get("/api/config").await.body;
    assert_eq!(data["config"]["locale"], config["locale"]);
    assert_eq!(data["config"]["routes"], config["routes"]);
    // The first card's poster comes with the HTML: the feature of the day's first showtime.
    let mut by_time: Vec<&Value> = day["presentations"].as_array().unwrap().iter().collect();
    by_time.sort_by_key(|p| (p["dateTime"].as_str().unwrap().to_owned(), p["id"].as_i64().unwrap()));
    let poster = format!("/api/features/{}/placeholderImage", by_time[0]["featureId"]);
    assert!(page.text.contains(&format!(r#"<link rel="preload" as="image" fetchpriority="high" href="{poster}">"#)), "{poster}");
    let english = app.get("/?lang=en").await.text;
    assert!(english.contains(&format!(r#"href="{poster}?lang=en""#)), "{poster}");
    // Another day asked by ?date= is that day's.
    let next = day["saleDates"][1].as_str().unwrap();
    let data = landing(&app.get(&format!("/?date={next}")).await.text).unwrap();
    assert_eq!(data["presentationsByDate"]["date"], next);
    // An order page: its presentation, as GET /presentations/{id} has it; not a mini-site's.
    let data = landing(&app.get("/order/1000").await.text).expect("an order page carries its data");
    assert_eq!(data["presentation"]["presentation"], app.get("/api/presentations/1000").await.body["presentation"]);
    assert_eq!(data["config"]["locale"], config["locale"]);
    let data = landing(&app.get("/order/1000?miniSiteUrl=festival").await.text).unwrap();
    assert!(data.get("presentation").is_none());
    // Other pages, and a 404, carry none.
    for uri in ["/terms", "/customer-area", "/order/999999", "/nope"] {
        assert!(landing(&app.get(uri).await.text).is_none(), "{uri}");
    }
}

async fn every_test_app_starts_at_the_same_instant_whatever_the_hour(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let start = start_ms();
    let r = app.get("/api/config").await;
    let server_time: jiff::Timestamp = r.body["serverTime"].as_str().unwrap().parse().unwrap();
    assert!((start..start + 60_000).contains(&server_time.as_millisecond()), "{server_time} is not the start ({start})");
    assert_eq!(app.today, kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(start)), "the chain is laid out around the start's day");
}

async fn every_catalogue_call_answers_with_the_spec_fields(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;

    let r = app.get("/api/config").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for field in ["params", "timerMode", "currencies", "customSeatAttributes", "locale", "routes", "serverTime", "maxSeatsPerTransaction"] {
        assert!(!r.body[field].is_null(), "config lacks {field}");
    }
    assert_eq!(r.body["maxSeatsPerTransaction"], 10);
    assert_eq!(r.body["locale"]["default"], "he");
    let p665: Value = serde_json::from_str(r.body["params"]["665"].as_str().unwrap()).unwrap();
    assert_eq!(p665, r.body["timerMode"], "param 665 carries the timer mode");
    assert_eq!(r.body["captcha"]["testToken"], CAPTCHA_TEST_TOKEN);
    example(&app, "getConfig", "ConfigResponse", &r);

    let r = app.get(&format!("/api/seats/presentations?date={}", app.today)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let list = r.body["presentations"].as_array().unwrap();
    assert!(list.len() > 10, "a demo day has many presentations");
    let p = &list.iter().find(|p| p["venueTypeId"] == 1).unwrap();
    for field in ["id", "venueId", "seatplanId", "venueTypeId", "featureCategoryId", "featureId", "featureName", "featureCategoryName", "locationId", "locationName", "dateTime", "authProfileId", "businessId", "isReserved", "isGA", "seatingPolicyId", "seatingMode", "hasReservedSection", "hasGASection", "hasMultiGASections", "newBookingUrl", "isOnSale", "isVod"] {
        assert!(p.get(field).is_some(), "presentation lacks {field}");
    }
    assert!(p["dateTime"].as_str().unwrap().ends_with('Z'), "times are UTC");
    let starts: Vec<&str> = list.iter().map(|p| p["dateTime"].as_str().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "in start order");
    example(&app, "presentationsByDate", "PresentationsByDateResponse", &r);

    let id = list.iter().find(|p| p["seatingMode"] == "reserved" && p["venueTypeId"] == 1).unwrap()["id"].as_i64().unwrap();
    let r = app.get(&format!("/api/presentations/{id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.body["error"].is_null());
    assert!(!r.body["serverTime"].is_null());
    let pres = &r.body["presentation"];
    assert!(!pres["products"].as_array().unwrap().is_empty(), "concessions come with the presentation");
    assert!(pres["products"][0]["price"].is_i64(), "money is integer agorot");
    assert!(!pres["serviceCharge"].is_null());
    example(&app, "getPresentation", "PresentationResponse", &r);
    let venue_id = pres["venueId"].as_i64().unwrap();
    let seatplan_id = pres["seatplanId"].as_i64().unwrap();
    let feature_id = pres["featureId"].as_i64().unwrap();

    let r = app.get(&format!("/api/presentations/?featureIds={feature_id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let upcoming = r.body["presentations"].as_array().unwrap();
    assert!(!upcoming.is_empty() && upcoming.iter().all(|p| p["featureId"] == feature_id));
    assert!(upcoming.iter().all(|p| p["saleState"] != "ended"), "upcoming lists only what can still be bought");
    assert!(r.body["hasReserved"].is_boolean() && r.body["hasGA"].is_boolean());
    example(&app, "presentationList", "PresentationListResponse", &r);

    let r = app.get(&format!("/api/presentations/{id}/ticketGroups")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let tickets: Vec<&Value> = r.body["ticketGroups"].as_array().unwrap().iter().flat_map(|g| g["tickets"].as_array().unwrap()).collect();
    assert!(tickets.len() >= 3);
    assert!(tickets.iter().all(|t| t["memberOnly"] == false), "member tickets need a membership id");
    example(&app, "ticketGroups", "TicketGroupsResponse", &r);
    let r = app.get(&format!("/api/presentations/{id}/ticketGroups?membershipLoyaltyId=100001")).await;
    let with_members = r.body["ticketGroups"].as_array().unwrap().iter().flat_map(|g| g["tickets"].as_array().unwrap().clone()).collect::<Vec<_>>();
    assert!(with_members.iter().any(|t| t["memberOnly"] == true));

    let r = app.get("/api/features/").await;
    assert_eq!(r.status, StatusCode::OK);
    let features = r.body["features"].as_array().unwrap();
    assert!(features.len() >= 12);
    assert!(features.iter().all(|f| !f["name"].as_str().unwrap().is_empty() && !f["nameEn"].as_str().unwrap().is_empty()));
    example(&app, "featureList", "FeatureListResponse", &r);
    let r = app.get(&format!("/api/features?featureIds={feature_id}")).await;
    assert_eq!(r.body["features"].as_array().unwrap().len(), 1);

    let r = app.get(&format!("/api/features/{feature_id}/placeholderImage")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"));
    assert_eq!(r.headers["cache-control"], "public, max-age=3600");
    assert!(r.text.contains("<svg"));
    let hebrew_letter = |s: &str| s.chars().any(|c| ('\u{0590}'..='\u{05FF}').contains(&c));
    assert!(hebrew_letter(&r.text), "a Hebrew page's poster is titled in Hebrew");
    let r = app.get(&format!("/api/features/{feature_id}/placeholderImage?lang=en")).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(!hebrew_letter(&r.text), "an English page's poster has no Hebrew: {}", r.text);
    let r = app.get("/api/products/1/image").await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["cache-control"], "public, max-age=3600");
    assert!(r.text.contains("<svg"));

    let r = app.post(&format!("/api/seats/seatplanV2?venueId={venue_id}&seatplanId={seatplan_id}"), &format!(r#"{{"recaptchaToken":"{CAPTCHA_TEST_TOKEN}"}}"#)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let seats = r.body["seatplan"]["seats"].as_array().unwrap();
    assert!(seats.len() > 50);
    for field in ["x", "y", "r", "n", "si", "gi", "pi", "vi", "sp", "tg", "ai", "m", "pr", "hc", "co", "lv"] {
        assert!(seats[0].get(field).is_some(), "short seat lacks {field}");
    }
    example(&app, "seatplanV2", "SeatplanV2Response", &r);

    let r = app.get(&format!("/api/seats/seatplan?seatplanId={seatplan_id}&venueId={venue_id}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    for field in ["XCoordinate", "YCoordinate", "VenueId", "VenueSeatplanId", "VenueSectionId", "VenueSectionSeatGroupId", "TicketGroupId", "AllocationId", "SectionName", "RowName", "SeatName"] {
        assert!(r.body["seatplan"]["seats"][0].get(field).is_some(), "long seat lacks {field}");
    }
    example(&app, "seatplan", "SeatplanLongResponse", &r);

    let r = app.get(&format!("/api/seats/seats-statusV2?presentationId={id}&venueTypeId=1&isReserved=1")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let states = r.body["seats"].as_array().unwrap();
    assert_eq!(states.len(), seats.len(), "one state per seat");
    assert!(states.iter().all(|s| s["s"] == "available" && s["isAvailable"] == true && s["isSelected"] == false));
    assert!(r.body["sections"].as_array().unwrap().iter().all(|s| s["soldOut"] == false));
    example(&app, "seatsStatusV2", "SeatsStatusV2Response", &r);
    let section = r.body["sections"][0]["id"].as_i64().unwrap();
    let r = app.get(&format!("/api/seats/seats-statusV2?presentationId={id}&sectionId={section}")).await;
    assert!(r.body["seats"].as_array().unwrap().iter().all(|s| s["si"] == section));

    let r = app.get(&format!("/api/seats/seats-status?presentationId={id}&venueTypeId=1&isReserved=1&recaptchaToken={CAPTCHA_TEST_TOKEN}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["seats"][0]["Status"], "available");
    example(&app, "seatsStatus", "SeatsStatusResponse", &r);

    let ts = app.clock.now_ms();
    let r = app.get(&format!("/api/integration?TS={ts}&ret=https://partner.example/back&key=partner-demo")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["integration"]["key"], "partner-demo");
    example(&app, "getIntegration", "IntegrationResponse", &r);
}

async fn bad_input_gets_a_coded_4xx_and_never_a_500(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let cases: &[(&str, StatusCode, &str)] = &[
        ("/api/presentations/abc", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/presentations/99999999", StatusCode::NOT_FOUND, "noEvent"),
        ("/api/presentations/99999999/ticketGroups", StatusCode::NOT_FOUND, "noEvent"),
        ("/api/presentations/?featureIds=1,x", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/presentations/?locationId=abc", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/presentations/?miniSiteUrl=no-such-site", StatusCode::NOT_FOUND, "notFound"),
        ("/api/seats/presentations?date=2026-02-30", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/features/999/placeholderImage", StatusCode::NOT_FOUND, "notFound"),
        ("/api/products/999/image", StatusCode::NOT_FOUND, "notFound"),
        ("/api/seats/seatplan?seatplanId=1", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/seats/seatplan?seatplanId=1&venueId=2", StatusCode::NOT_FOUND, "notFound"),
        ("/api/seats/seats-statusV2?presentationId=99999999", StatusCode::NOT_FOUND, "noEvent"),
        ("/api/seats/seats-statusV2?presentationId=1&sectionId=0", StatusCode::NOT_FOUND, "notFound"),
        ("/api/seats/seats-status?presentationId=1000&recaptchaToken=wrong", StatusCode::BAD_REQUEST, "recaptcha"),
        ("/api/integration?TS=0&ret=&key=partner-demo", StatusCode::FORBIDDEN, "integrationError"),
        ("/api/integration?TS=0&key=nobody", StatusCode::FORBIDDEN, "integrationError"),
        ("/api/integration?key=partner-demo", StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        ("/api/no/such/call", StatusCode::NOT_FOUND, "notFound"),
    ];
    for (uri, status, want) in cases {
        let r = app.get(uri).await;
        assert_eq!((r.status, code(&r)), (*status, *want), "{uri}: {}", r.text);
        assert!(r.headers["content-type"].to_str().unwrap().starts_with("application/json"), "{uri}");
    }
    let r = app.post("/api/config", "{}").await;
    assert_eq!((r.status, code(&r)), (StatusCode::METHOD_NOT_ALLOWED, "methodNotAllowed"));
    let r = app.post("/api/seats/seatplanV2?venueId=1&seatplanId=1", "{not json").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    let r = app.post("/api/seats/seatplanV2?venueId=1&seatplanId=1", r#"{"recaptchaToken":"guess"}"#).await;
    assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"), "test mode accepts only the test token");
    example(&app, "seatplanV2", "ErrorBody", &r);
}

async fn the_sale_dates_reach_the_last_day_with_a_screening_on_sale(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get(&format!("/api/seats/presentations?date={}", app.today)).await;
    let dates: Vec<String> = serde_json::from_value(r.body["saleDates"].clone()).unwrap();
    assert_eq!(dates.first().map(String::as_str), Some(app.today.to_string().as_str()));
    // The demo chain's schedule runs to today + 14: fifteen days, one more than a fortnight;
    // then the enrolment season's three evenings, on sale already (today + 16, 23 and 30), and the
    // seated membership's (today + 17, 24 and 31).
    let day = |n: i64| app.today.checked_add(jiff::ToSpan::days(n)).unwrap().to_string();
    let last = day(14);
    let mut expected: Vec<String> = (0..=14).map(day).collect();
    expected.extend([16, 17, 23, 24, 30, 31].map(day));
    assert_eq!(dates, expected);
    let r = app.get(&format!("/api/seats/presentations?date={last}")).await;
    let on_sale = r.body["presentations"].as_array().unwrap().iter().filter(|p| p["isOnSale"] == true).count();
    assert!(on_sale > 10, "the last day has screenings on sale ({on_sale})");
}

async fn sale_windows_follow_the_server_clock(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // The demo's premiere opens its sale days after the day of seeding.
    let r = app.get("/api/presentations/?featureIds=").await;
    let not_yet: Vec<&Value> = r.body["presentations"].as_array().unwrap().iter().filter(|p| p["saleState"] == "notYetStarted").collect();
    assert!(!not_yet.is_empty(), "the premiere is listed before its sale opens");
    assert!(not_yet.iter().all(|p| p["isOnSale"] == false));
    let premiere = not_yet[0]["id"].as_i64().unwrap();
    // A minute after its sale opens (a fixed number of days could land after it closed,
    // depending on the time of day the test runs).
    let opens: jiff::Timestamp = not_yet[0]["saleStartsAt"].as_str().unwrap().parse().unwrap();
    let advance = opens.as_millisecond() - kupa_app::ports::Clock::now_ms(app.clock.as_ref()) + 60_000;
    let r = app.post("/api/test/clock", &format!(r#"{{"advanceMs": {advance}}}"#)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.get(&format!("/api/presentations/{premiere}")).await;
    assert_eq!(r.body["presentation"]["saleState"], "onSale", "{}", r.text);
    // A day in the past has only ended sales.
    let past = app.today.checked_sub(jiff::ToSpan::days(3)).unwrap();
    let r = app.get(&format!("/api/seats/presentations?date={past}")).await;
    let list = r.body["presentations"].as_array().unwrap();
    assert!(list.iter().filter(|p| p["isVod"] == false).all(|p| p["saleState"] == "ended"));
}
}

#[tokio::test]
async fn the_buyer_gets_a_session_once_and_keeps_it() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, ApiSettings::default()).await;
    let r = app.get("/api/config").await;
    let cookie = r.headers["set-cookie"].to_str().unwrap().to_owned();
    let uuid = r.headers["uuid"].to_str().unwrap().to_owned();
    assert!(
        cookie.starts_with(&format!("kupa_uuid={uuid};")),
        "{cookie}"
    );
    assert!(
        uuid.len() == 64 && kupa_api::session::SessionKey::for_tests().verify(&uuid),
        "128 random bits and the server's 128-bit signature, as 64 hex characters: {uuid}"
    );
    let again = app
        .send(
            Request::get("/api/config")
                .header("uuid", &uuid)
                .header("cookie", format!("kupa_uuid={uuid}"))
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(again.headers["uuid"].to_str().unwrap(), uuid);
    assert!(
        again.headers.get("set-cookie").is_none(),
        "no new cookie for a known session"
    );
    let forged = app
        .send(
            Request::get("/api/config")
                .header("uuid", "not-a-session")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_ne!(
        forged.headers["uuid"].to_str().unwrap(),
        "not-a-session",
        "a malformed id is replaced, never adopted"
    );
    let other = app.get("/api/config").await;
    assert_ne!(
        other.headers["uuid"].to_str().unwrap(),
        uuid,
        "each new browser gets its own session"
    );
    assert!(r.headers.get("x-request-id").is_some());
    t.cleanup().await;
}

#[tokio::test]
async fn pages_answer_404_for_unknown_routes_and_disabled_languages() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, test_settings()).await;
    for (uri, status) in [
        ("/", StatusCode::OK),
        ("/?lang=en", StatusCode::OK),
        ("/?lang=he", StatusCode::OK),
        ("/order/1000?lang=en", StatusCode::OK),
        ("/PRES-live", StatusCode::OK),
        ("/vod", StatusCode::OK),
        ("/edocument/abc", StatusCode::OK),
        ("/?lang=xx", StatusCode::NOT_FOUND),
        ("/?lang=ru", StatusCode::NOT_FOUND), // supported, but not enabled here
        ("/nope", StatusCode::NOT_FOUND),
        ("/order/1/extra", StatusCode::NOT_FOUND),
        ("/https://evil.example/steal", StatusCode::NOT_FOUND),
        ("/../Cargo.toml", StatusCode::NOT_FOUND),
        ("/assets/../../../Cargo.toml", StatusCode::NOT_FOUND),
    ] {
        let r = app.get(uri).await;
        assert_eq!(r.status, status, "{uri}");
        assert!(
            r.headers["content-type"]
                .to_str()
                .unwrap()
                .starts_with("text/html"),
            "{uri}"
        );
    }
    let r = app.get("/https://partner.example/back?x=1").await;
    assert_eq!(r.status, StatusCode::FOUND);
    assert_eq!(r.headers["location"], "https://partner.example/back?x=1");
    t.cleanup().await;
}

#[tokio::test]
async fn an_order_page_of_a_presentation_that_does_not_exist_is_a_404() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, test_settings()).await;
    for (uri, status) in [
        ("/order/1000", StatusCode::OK),
        ("/order/1000/", StatusCode::OK),
        ("/order/999999", StatusCode::NOT_FOUND),
        ("/order/999999?lang=en", StatusCode::NOT_FOUND),
        ("/order/abc", StatusCode::NOT_FOUND),
    ] {
        let r = app.get(uri).await;
        assert_eq!(r.status, status, "{uri}");
    }
    t.cleanup().await;
}

#[tokio::test]
async fn a_page_comes_in_the_language_and_direction_it_asks_for_even_a_404() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, test_settings()).await;
    for (uri, status, html) in [
        (
            "/https://evil.example/steal?lang=en",
            StatusCode::NOT_FOUND,
            r#"<html lang="en" dir="ltr">"#,
        ),
        (
            "/http://evil.example?lang=en",
            StatusCode::NOT_FOUND,
            r#"<html lang="en" dir="ltr">"#,
        ),
        (
            "/nope?lang=en",
            StatusCode::NOT_FOUND,
            r#"<html lang="en" dir="ltr">"#,
        ),
        ("/?lang=en", StatusCode::OK, r#"<html lang="en" dir="ltr">"#),
        ("/", StatusCode::OK, r#"<html lang="he" dir="rtl">"#),
        (
            "/?lang=xx",
            StatusCode::NOT_FOUND,
            r#"<html lang="en" dir="ltr">"#,
        ),
    ] {
        let r = app.get(uri).await;
        assert_eq!(r.status, status, "{uri}");
        assert!(
            r.text.contains(html),
            "{uri}: {}",
            &r.text[..r.text.len().min(200)]
        );
    }
    t.cleanup().await;
}

#[tokio::test]
async fn test_mode_routes_do_not_exist_outside_test_mode() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, ApiSettings::default()).await;
    let before = app.clock.now_ms();
    let r = app
        .post("/api/test/clock", r#"{"advanceMs": 86400000}"#)
        .await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    assert!(
        app.clock.now_ms() - before < 60_000,
        "the clock did not move"
    );
    let r = app.get("/api/config").await;
    assert_eq!(r.body["testMode"], false);
    assert_eq!(r.body["captcha"]["mode"], "off");
    assert!(r.body["captcha"]["testToken"].is_null());
    t.cleanup().await;
}

#[tokio::test]
async fn test_mode_can_shorten_the_step_timers() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, test_settings()).await;
    let r = app.post("/api/test/timer-mode", r#"{"chooseSeatsInSeconds": 5, "chooseTicketsInSeconds": 5, "chooseProductsInSeconds": 5, "customerInfoInSeconds": 5}"#).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.get("/api/config").await;
    assert_eq!(r.body["timerMode"]["chooseSeatsInSeconds"], 5);
    let p665: Value = serde_json::from_str(r.body["params"]["665"].as_str().unwrap()).unwrap();
    assert_eq!(p665["chooseSeatsInSeconds"], 5);
    // The holds follow the shortened timer too, not only what /config reports.
    let list = app.get("/api/presentations/").await;
    let p = list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["venueId"] == 1 && p["isOnSale"] == true && app.starts_after_hours(p, 24))
        .unwrap()
        .clone();
    let plan = app
        .get(&format!(
            "/api/seats/seatplan?venueId={}&seatplanId={}",
            p["venueId"], p["seatplanId"]
        ))
        .await;
    let seat = plan.body["seatplan"]["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["IsHandicap"] == false && s["IsLimitedView"] == false && s["SofaId"].is_null())
        .unwrap()
        .clone();
    let body = serde_json::json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": p["id"], "VenueId": p["venueId"], "VenueSeatplanId": p["seatplanId"], "VenueSectionId": seat["VenueSectionId"],
        "TicketGroupId": seat["TicketGroupId"], "XCoordinate": seat["XCoordinate"], "YCoordinate": seat["YCoordinate"] } });
    let r = app
        .call_as(
            &buyer(1),
            "PUT",
            "/api/seats/lock-seat",
            Some(&body.to_string()),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let expires: jiff::Timestamp = r.body["expiresAt"].as_str().unwrap().parse().unwrap();
    let now: jiff::Timestamp = r.body["serverTime"].as_str().unwrap().parse().unwrap();
    let seconds = expires.as_second() - now.as_second();
    assert!(
        (4..=6).contains(&seconds),
        "the hold lasts the shortened 5 s, not {seconds} s"
    );
    t.cleanup().await;
}

#[tokio::test]
async fn answers_are_gzipped_for_clients_that_ask() {
    let t = TestDb::sqlite().await;
    let app = TestApp::new(&t, ApiSettings::default()).await;
    let plain = app.get("/api/config").await;
    assert!(plain.headers.get("content-encoding").is_none());
    let r = app
        .send(
            Request::get("/api/config")
                .header("accept-encoding", "gzip")
                .body(Body::empty())
                .unwrap(),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers["content-encoding"], "gzip");
    t.cleanup().await;
}

/// The committed OpenAPI document (from which the web app's types are generated) must be the
/// one the code describes; `make gen-api` rewrites it.
#[test]
fn the_committed_openapi_document_matches_the_code() {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/src/lib/api/openapi.json");
    let committed = std::fs::read_to_string(&path).expect("web/src/lib/api/openapi.json exists");
    let current = kupa_api::openapi().to_pretty_json().unwrap();
    assert!(
        committed.trim() == current.trim(),
        "the OpenAPI document drifted from the code: run `make gen-api` and commit the result"
    );
}
