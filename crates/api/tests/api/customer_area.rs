//! The customer area over HTTP (decision 0024): GET /customer-area/customerAreaData shows the
//! logged-in customer's own orders only (never a guest's with the same number, never another
//! customer's), masked; the profile is checked and saved; deleting the account removes the
//! personal data, the saved cards and every login and keeps the orders anonymised; tickets go by
//! SMS for the order's owner only. On SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;

use kupa_app::saved_cards::{SavedCard, SavedCardStore};
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana Levi, customer 1 of the demo chain (ID number 034528711, two member cards).
const DANA: &str = "0524318876";
/// Yossi, customer 2.
const YOSSI: &str = "0507712345";

const AREA: &str = "/api/customer-area/customerAreaData";

/// Two seats of the `row`th row end bought and paid by `who`; the reservation identifier.
async fn buy(app: &TestApp, who: &str, row: usize) -> String {
    let k = priced_cart_at(app, who, row, None, "he").await;
    let id = start_payment_with(app, who, &k, "card", "he", 1, false).await;
    let r = pay_card(app, who, &id, cards::APPROVED_VISA).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    app.commit(who, k.presentation["id"].as_i64().unwrap())
        .await
        .ok()
        .reservation_identifier
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|o| o["ReservationIdentifier"].as_str().unwrap().to_owned())
        .collect()
}

async fn area(app: &TestApp, who: &str) -> Value {
    let r = app.call_as(who, "GET", AREA, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["customer"].clone()
}

api_tests! {
async fn the_area_shows_only_the_logged_in_customers_orders_masked(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.call_as(&buyer(1), "GET", AREA, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    example(&app, "customerAreaData", "ErrorBody", &r);

    // A guest's order with Dana's very number and name: not hers until she claims it.
    let guest = buy(&app, &buyer(2), 0).await;
    // Yossi's order.
    let yossi = log_in(&app, &buyer(3), YOSSI).await;
    let his = buy(&app, &yossi, 1).await;
    // Dana's.
    let dana = log_in(&app, &buyer(4), DANA).await;
    let hers = buy(&app, &dana, 2).await;
    // A cart of hers priced and given up (pending, then superseded: cancelled) was never paid.
    priced_cart_at(&app, &dana, 3, None, "he").await;
    execute(db, "UPDATE orders SET status = 'cancelled' WHERE status = 'pending'").await;

    let r = app.call_as(&dana, "GET", AREA, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "customerAreaData", "CustomerAreaDataResponse", &r);
    let c = &r.body["customer"];
    assert_eq!(ids(&c["Tickets"]), vec![hers.clone()], "{}", r.text);
    assert_eq!(ids(&c["PastReservations"]), Vec::<String>::new());
    assert!(!r.text.contains(&guest) && !r.text.contains(&his), "{}", r.text);
    let t = &c["Tickets"][0];
    assert_eq!(t["status"], "paid");
    assert_eq!(t["seats"].as_array().unwrap().len(), 2);
    assert!(t["seats"].as_array().unwrap().iter().all(|s| s["state"] == "valid" && s["documentKey"].as_str().is_some_and(|k| !k.is_empty())));
    assert!(t["pdfUrl"].as_str().unwrap().starts_with(&format!("/api/reservations/{hers}/tickets.pdf?exp=")), "{t}");
    assert!(t["calendarUrl"].as_str().unwrap().contains("/calendar.ics?exp="), "{t}");
    assert_eq!(t["reservationUrl"], format!("/reservation/{hers}"));
    // Masked and in local form; the whole ID number is nowhere in the answer.
    assert_eq!(c["SSN"], "*****8711");
    assert!(!r.text.contains("034528711"));
    assert_eq!(c["MobileNumber1"], DANA);
    assert_eq!(c["FirstName"], "דנה");
    assert_eq!(c["Members"].as_array().unwrap().len(), 2, "{}", c["Members"]);
    assert_eq!(c["SystemVouchers"], json!([]));
    assert_eq!(c["VODTickets"], json!([]));
    assert_eq!(c["MagCards"], json!([]));

    // The PDF link opens the tickets; the reservation page reads for her login in a new session.
    let r = app.call_as(&dana, "GET", &format!("/api/reservations/{hers}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);

    // Yossi sees his own and not hers.
    let y = area(&app, &yossi).await;
    assert_eq!(ids(&y["Tickets"]), vec![his.clone()]);
    assert_eq!(y["SSN"], "*****3478");

    // After the screening has begun, the order moves to the past reservations.
    app.advance_clock_ms(40 * 24 * 3_600_000).await;
    let dana2 = log_in(&app, &buyer(5), DANA).await;
    let c = area(&app, &dana2).await;
    assert_eq!(ids(&c["Tickets"]), Vec::<String>::new());
    assert_eq!(ids(&c["PastReservations"]), vec![hers]);
}

async fn the_profile_is_checked_then_saved(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let good = json!({
        "firstName": "דנה", "lastName": "לוי-כהן", "address1": "דיזנגוף 210 #4", "address2": "",
        "city": "תל אביב-יפו", "postalCode": "6311712", "dateOfBirth": "1986-04-17",
        "licensePlateNumber": "12-345-67", "isSMSAllowed": false, "isMailingAllowed": true,
        "isEmailAllowed": true, "location": 2
    });
    let r = app.call_as(&buyer(1), "PUT", "/api/customer-area/profile", Some(&good.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    let dana = log_in(&app, &buyer(1), DANA).await;

    let mut bad = good.clone();
    bad["lastName"] = json!("L3vi");
    bad["postalCode"] = json!("123");
    bad["dateOfBirth"] = json!("2999-01-01");
    bad["licensePlateNumber"] = json!("ABC");
    bad["location"] = json!(999);
    let r = app.call_as(&dana, "PUT", "/api/customer-area/profile", Some(&bad.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    example(&app, "updateCustomerProfile", "ErrorBody", &r);
    assert_eq!(r.body["error"]["params"]["fields"], json!({
        "lastName": "alpha", "postalCode": "min", "dateOfBirth": "date",
        "licensePlateNumber": "plate", "location": "location"
    }));
    let before = area(&app, &dana).await;
    assert_eq!((before["LastName"].as_str(), before["IsSMSAllowed"].as_bool()), (Some("לוי"), Some(true)), "nothing was written");

    // Email and mobile are not the profile's to change.
    let mut sneaky = good.clone();
    sneaky["emailAddress1"] = json!("evil@example.com");
    let r = app.call_as(&dana, "PUT", "/api/customer-area/profile", Some(&sneaky.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);

    let r = app.call_as(&dana, "PUT", "/api/customer-area/profile", Some(&good.to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "updateCustomerProfile", "ProfileResponse", &r);
    let c = area(&app, &dana).await;
    assert_eq!(c["LastName"], "לוי-כהן");
    assert_eq!(c["Address1"], "דיזנגוף 210 4", "'#' replaced");
    assert_eq!(c["LicensePlateNumber"], "1234567");
    assert_eq!((c["IsSMSAllowed"].as_bool(), c["IsEmailAllowed"].as_bool(), c["Location"].as_i64()), (Some(false), Some(true), Some(2)));
    assert_eq!((c["DateOfBirth"].as_str(), c["EmailAddress1"].as_str()), (Some("1986-04-17"), Some("dana.levi@example.com")));

    let r = app.get("/api/customer/locations").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "customerLocations", "LocationsResponse", &r);
    assert!(r.body["locations"].as_array().unwrap().iter().any(|l| l["id"] == 2 && !l["nameEn"].as_str().unwrap().is_empty()));
}

async fn deleting_the_account_removes_personal_data_and_logs_out(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    let hers = buy(&app, &dana, 0).await;
    // A second login of hers, elsewhere.
    app.advance_clock_ms(31_000).await;
    let elsewhere = log_in(&app, &buyer(2), DANA).await;
    db.db.insert_saved_card(&SavedCard {
        token: "ab".repeat(16), customer_id: 1, brand: "visa".into(), bin: Some("424242".into()),
        last4: "4242".into(), expiry_year: 2040, expiry_month: 1, created_at_ms: 0, deleted_at_ms: None,
    }).await.unwrap();
    assert_eq!(area(&app, &dana).await["MagCards"].as_array().unwrap().len(), 1);
    // A password-reset link of hers waits in the mail (decision 0023's tokens).
    let ask = json!({ "email": "dana.levi@example.com", "recaptchaToken": kupa_app::ports::CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.call_as(&buyer(4), "POST", "/api/customer/password-reset", Some(&ask)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(rows(db, "SELECT purpose FROM customer_tokens WHERE customer_id = 1").await, vec!["resetPassword"]);

    let r = app.call_as(&dana, "DELETE", "/api/customer-area/account", Some(r#"{"confirm": false}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    example(&app, "deleteCustomerAccount", "ErrorBody", &r);
    let r = app.call_as(&dana, "DELETE", "/api/customer-area/account", Some(r#"{"confirm": true}"#)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "deleteCustomerAccount", "SuccessResponse", &r);
    assert_eq!(set_cookie(&r, "kupa_login"), Some(""), "the login cookie is cleared");

    // Every login of hers has ended.
    for who in [&dana, &elsewhere] {
        let r = app.call_as(who, "GET", AREA, None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    }
    let r = app.call_as(&dana, "DELETE", "/api/customer-area/account", Some(r#"{"confirm": true}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    // Her number logs no one in any more.
    let body = json!({ "mobileNumber": DANA, "recaptchaToken": kupa_app::ports::CAPTCHA_TEST_TOKEN }).to_string();
    let r = app.call_as(&buyer(3), "POST", "/api/customer/mobile-login", Some(&body)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"));

    // What the database keeps: no personal data of hers anywhere it was.
    let customer = rows(db, "SELECT first_name || '|' || last_name || '|' || ssn || '|' || email || '|' || mobile || '|' || city || '|' || address1 || '|' || postal_code || '|' || date_of_birth || '|' || CAST(deleted_at IS NOT NULL AS TEXT) FROM customers WHERE id = 1").await;
    assert!(customer[0].starts_with("|||||||||"), "{customer:?}");
    let orders = rows(db, "SELECT id || '|' || COALESCE(CAST(customer_id AS TEXT), '-') || '|' || customer || '|' || status || '|' || CAST(total AS TEXT) FROM orders WHERE status = 'paid'").await;
    assert_eq!(orders.len(), 1, "{orders:?}");
    assert!(orders[0].starts_with(&format!("{hers}|-|")) && orders[0].contains("|paid|"), "{orders:?}");
    let everything = [
        orders.clone(),
        rows(db, "SELECT token FROM saved_cards").await,
        rows(db, "SELECT session_id FROM session_customers").await,
        rows(db, "SELECT recipient || body FROM sms_outbox").await,
        rows(db, "SELECT recipient || text_body FROM mail_outbox").await,
        rows(db, "SELECT COALESCE(CAST(customer_id AS TEXT), '-') FROM payments WHERE customer_id IS NOT NULL").await,
    ].concat().join("\n");
    for personal in ["דנה", "לוי", "dana", DANA, "524318876", "034528711", &"ab".repeat(16)] {
        assert!(!everything.contains(personal), "{personal} in {everything}");
    }
    // Her login secrets are gone with her.
    assert!(rows(db, "SELECT token_hash FROM customer_tokens WHERE customer_id = 1").await.is_empty());
    assert!(rows(db, "SELECT password_hash FROM customer_passwords WHERE customer_id = 1").await.is_empty());
    // Her member cards stay, with their balances, tied to no one's personal data.
    assert_eq!(rows(db, "SELECT member_number FROM members WHERE customer_id = 1 ORDER BY id").await, vec!["100001", "200001"]);
    // The tickets she paid for still open by their signed link.
    let link = rows(db, "SELECT document_key FROM order_tickets").await;
    let r = app.get(&format!("/api/edocument/{}", link[0])).await;
    assert_eq!((r.status, r.body["state"].as_str()), (StatusCode::OK, Some("valid")), "{}", r.text);
}

async fn tickets_go_by_sms_for_the_orders_owner_only(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    let hers = buy(&app, &dana, 0).await;
    let send = |to: &str| json!({ "mobileNumber": to }).to_string();
    let path = format!("/api/reservations/{hers}/sendTickets");

    // Not logged in, on another session: not hers to send.
    let r = app.call_as(&buyer(7), "POST", &path, Some(&send("0541234567"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    // Another customer: not his.
    let yossi = log_in(&app, &buyer(8), YOSSI).await;
    let r = app.call_as(&yossi, "POST", &path, Some(&send("0541234567"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let outbox = app.get("/api/test/outbox/sms?to=0541234567").await;
    assert_eq!(outbox.body["messages"], json!([]));

    // Dana, logged in again on another device (the order's session is not this one).
    app.advance_clock_ms(31_000).await;
    let phone = log_in(&app, &buyer(9), DANA).await;
    let r = app.call_as(&phone, "POST", &path, Some(&send("+972541234567"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body, json!({ "success": true }));
    let outbox = app.get("/api/test/outbox/sms?to=0541234567").await;
    let text = outbox.body["messages"][0]["body"].as_str().unwrap_or_default();
    assert!(text.contains("/reservation/") && text.contains("sig=") && text.contains("/edocument/"), "{text}");
    assert!(!text.contains(&hers) || text.contains("sig="), "the bare id never travels without its signature");

    // A bad number is refused before anything is sent.
    let r = app.call_as(&phone, "POST", &path, Some(&send("123"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"));
}

async fn the_area_logout_ends_the_login_and_rotates_the_session(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    let r = app.call_as(&dana, "POST", "/api/customer-area/logout", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "customerAreaLogout", "SuccessResponse", &r);
    assert_eq!(set_cookie(&r, "kupa_login"), Some(""));
    assert_ne!(r.headers["uuid"].to_str().unwrap(), who_parts(&dana).0, "the session is rotated");
    let r = app.call_as(&dana, "GET", AREA, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
}
}
