//! The waiver of a children's voucher (issue 15 item 6, decision 0041): the kids' film club
//! (class 5, ages 4–12) sold only with a signed waiver whose children are of its ages, stored
//! with the order, shown back masked to its buyer, read whole by a manager of its business
//! only, never logged, deleted with the account and by the sweeper; on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::logs::Logs;
use crate::common::paying::*;
use crate::common::staff::{add, get as staff_get, staff_login};
use crate::common::*;
use axum::http::StatusCode;
use base64::Engine;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const EMAIL: &str = "kids.club@example.com";
const MOBILE: &str = "0524318876";
/// A child's name and the signer's: looked for in the logs.
const CHILD: &str = "Yael Shapiro";
const SIGNER: &str = "Michal Shapiro";

/// A small real PNG (a 1×1 image): what a canvas's `toDataURL()` gives, only smaller.
fn signature() -> String {
    const PNG: &[u8] = &[
        0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44,
        0x52, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f,
        0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0x60,
        0x60, 0x60, 0xf8, 0x0f, 0x00, 0x01, 0x04, 0x01, 0x00, 0x5f, 0xe5, 0xc3, 0x4b, 0x00, 0x00,
        0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82,
    ];
    format!(
        "data:image/png;base64,{}",
        base64::engine::general_purpose::STANDARD.encode(PNG)
    )
}

fn customer() -> Value {
    json!({ "firstName": "מיכל", "lastName": "שפירא", "email": EMAIL, "verifyEmailAddress": EMAIL,
            "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] })
}

fn waiver(children: &[(&str, &str)]) -> Value {
    json!({
        "children": children.iter().map(|(n, b)| json!({ "name": n, "birthDate": b })).collect::<Vec<_>>(),
        "signature": signature(),
        "signerName": SIGNER,
    })
}

fn kids_club(waiver: Option<Value>) -> Value {
    let mut c = json!({
        "vouchers": [{ "SystemVoucherId": 5, "Prices": [{ "SystemVoucherPriceId": 51, "selectedQuantity": 1 }] }],
        "customerInfo": customer(),
    });
    if let Some(w) = waiver {
        c["waiver"] = w;
    }
    c
}

async fn commit(app: &TestApp, who: &str) -> Reply {
    let body = json!({ "cart": { "vouchers": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

/// The kids' club bought with `children` on the waiver, paid by card and committed: the order id.
async fn bought(app: &TestApp, who: &str, children: &[(&str, &str)]) -> String {
    let r = cart(app, who, kids_club(Some(waiver(children)))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["total"], 12000);
    let form = pay_form(app, who, "vouchers", 12000).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let r = pay_card(app, who, &id, "4242+4242+4242+4242").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    let r = commit(app, who).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["reservationIdentifier"].as_str().unwrap().to_owned()
}

async fn waivers(db: &TestDb) -> Vec<String> {
    rows(db, "SELECT order_id FROM order_waivers ORDER BY order_id").await
}

api_tests! {
    async fn the_kids_club_is_listed_with_its_waiver(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let r = app.get("/api/system-vouchers").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let club = r.body["systemVouchers"].as_array().unwrap().iter().find(|c| c["id"] == 5).cloned().unwrap();
        assert_eq!((club["waiver"]["minAge"].as_i64(), club["waiver"]["maxAge"].as_i64()), (Some(4), Some(12)));
        assert!(club["waiver"]["textEn"].as_str().unwrap().contains("parent"));
        let gift_card = r.body["systemVouchers"].as_array().unwrap().iter().find(|c| c["id"] == 2).cloned().unwrap();
        assert!(gift_card["waiver"].is_null(), "{gift_card}");
    }

    async fn a_waiver_voucher_is_sold_with_its_waiver_stored_and_shown_back_masked(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        let logs = Logs::capture();
        let order = bought(&app, &who, &[(CHILD, "2020-05-05"), ("Dan Shapiro", "2024-01-31")]).await;
        assert_eq!(waivers(db).await, vec![order.clone()]);
        let stored = rows(db, "SELECT children || '|' || signer_name || '|' || keep_until FROM order_waivers").await;
        assert!(stored[0].contains(CHILD) && stored[0].contains("2024-01-31") && stored[0].contains(SIGNER), "{stored:?}");
        // 180 days of the voucher from 2030-06-12, then 90 more.
        assert!(stored[0].ends_with("|2031-03-09"), "{stored:?}");
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        assert_eq!(back.body["waiver"]["children"], json!([
            { "firstName": "Yael", "birthYear": 2020 },
            { "firstName": "Dan", "birthYear": 2024 },
        ]));
        for hidden in ["Shapiro", "2020-05-05", "data:image", SIGNER] {
            assert!(!back.text.contains(hidden), "{hidden} shown back: {}", back.text);
        }
        assert_eq!(back.body["systemVouchers"][0]["benefitTickets"], 5);
        // Nothing of the waiver is logged, though the whole flow ran.
        let text = logs.text();
        assert!(text.contains("request"), "the capture works: {text}");
        for secret in [CHILD, "Dan Shapiro", SIGNER, "2020-05-05", signature().as_str(), "iVBORw0KGgo"] {
            assert!(!text.contains(secret), "{secret} logged");
        }
        // A gift card's order has no waiver.
        let other = app.call_as(&who, "GET", "/api/gift-orders/nope", None).await;
        assert_eq!(other.status, StatusCode::NOT_FOUND);
    }

    async fn a_waiver_voucher_without_a_good_waiver_is_refused(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        let field = |r: &Reply| r.body["error"]["params"]["fields"][0].as_str().unwrap_or_default().to_owned();
        let r = cart(&app, &who, kids_club(None)).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        assert_eq!(field(&r), "waiver");
        let r = cart(&app, &who, kids_club(Some(waiver(&[])))).await;
        assert_eq!((code(&r), field(&r).as_str()), ("formValidation", "waiver.children"), "{}", r.text);
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Dan", "2020-05-05"), ("Yael", "not a date")])))).await;
        assert_eq!((code(&r), field(&r).as_str()), ("formValidation", "waiver.children[1].birthDate"), "{}", r.text);
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Dan", "2031-01-01")])))).await;
        assert_eq!((code(&r), field(&r).as_str()), ("formValidation", "waiver.children[0].birthDate"), "{}", r.text);
        let mut w = waiver(&[("Dan", "2020-05-05")]);
        w["signature"] = json!("data:image/jpeg;base64,/9j/4AAQSkZJRg==");
        let r = cart(&app, &who, kids_club(Some(w))).await;
        assert_eq!((code(&r), field(&r).as_str()), ("formValidation", "waiver.signature"), "{}", r.text);
        let mut w = waiver(&[("Dan", "2020-05-05")]);
        w["signature"] = json!(format!("data:image/png;base64,{}", "A".repeat(50_000)));
        let r = cart(&app, &who, kids_club(Some(w))).await;
        // Over the document's maxLength: refused at the edge (decision 0017's bounds), in its shape.
        assert_eq!((code(&r), &r.body["error"]["params"]["fields"]["signature"]), ("formValidation", &json!("max")), "{}", r.text);
        // A waiver is for a voucher that asks for one.
        let r = cart(&app, &who, json!({
            "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }],
            "waiver": waiver(&[("Dan", "2020-05-05")]),
        })).await;
        assert_eq!((code(&r), field(&r).as_str()), ("formValidation", "waiver"), "{}", r.text);
        assert!(waivers(db).await.is_empty(), "nothing kept of a refused cart");
    }

    async fn a_child_too_young_or_too_old_refuses_the_voucher_by_name(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        // Today is 2030-06-12 in Jerusalem: born 2028-03-01 is 2; born 2017-06-12 turned 13 today.
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Dan", "2020-05-05"), ("Noa", "2028-03-01")])))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        let p = &r.body["error"]["params"];
        assert_eq!(p["reason"], "waiverAge");
        assert_eq!((p["child"].as_str(), p["childIndex"].as_i64(), p["age"].as_i64()), (Some("Noa"), Some(1), Some(2)));
        assert_eq!((p["minAge"].as_i64(), p["maxAge"].as_i64()), (Some(4), Some(12)));
        assert_eq!(p["fields"][0], "waiver.children[1].birthDate");
        assert_eq!(r.body["error"]["message"], "This voucher is for ages 4–12; Noa is 2.");
        example_of(&app, "postCart-waiverAge", "postCart", "ErrorBody", &r);
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Omer", "2017-06-12")])))).await;
        assert_eq!((code(&r), r.body["error"]["params"]["age"].as_i64()), ("formValidation", Some(13)), "{}", r.text);
        // Twelve until the day before the thirteenth birthday.
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Omer", "2017-06-13")])))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(waivers(db).await.len(), 1);
        // A new cart of the session replaces the pending order, and its waiver with it.
        let r = cart(&app, &who, kids_club(Some(waiver(&[("Omer", "2018-01-01")])))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(waivers(db).await.len(), 1, "the replaced cart's waiver is gone");
        let kept = rows(db, "SELECT children FROM order_waivers").await;
        assert!(kept[0].contains("2018-01-01"), "{kept:?}");
    }

    async fn only_a_manager_of_the_vouchers_business_reads_the_waiver(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        let order = bought(&app, &who, &[(CHILD, "2020-05-05")]).await;
        add(&app, "boss@kupa.example", Role::Manager, &[1], false).await;
        add(&app, "haifa.boss@kupa.example", Role::Manager, &[2], false).await;
        add(&app, "door@kupa.example", Role::Usher, &[1], false).await;
        let uri = format!("/api/staff/waivers/{order}");
        let boss = staff_login(&app, "boss@kupa.example").await;
        let logs = Logs::capture();
        let r = staff_get(&app, &boss, &uri).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["children"], json!([{ "name": CHILD, "birthDate": "2020-05-05" }]));
        assert_eq!(r.body["signerName"], SIGNER);
        assert_eq!(r.body["signature"], signature());
        assert_eq!((r.body["systemVoucherId"].as_i64(), r.body["businessId"].as_i64()), (Some(5), Some(1)));
        let text = logs.text();
        assert!(text.contains("staff read a waiver"), "the read is logged: {text}");
        assert!(!text.contains(CHILD) && !text.contains(SIGNER), "{text}");
        let haifa = staff_login(&app, "haifa.boss@kupa.example").await;
        let r = staff_get(&app, &haifa, &uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
        let door = staff_login(&app, "door@kupa.example").await;
        let r = staff_get(&app, &door, &uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{}", r.text);
        let r = app.call_as(&who, "GET", &uri, None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "the buyer is no staff: {}", r.text);
        let r = staff_get(&app, &boss, "/api/staff/waivers/no-such-order").await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
    }

    async fn deleting_the_account_deletes_its_waivers(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        bought(&app, &who, &[(CHILD, "2020-05-05")]).await;
        assert_eq!(waivers(db).await.len(), 1);
        let r = app.call_as(&who, "DELETE", "/api/customer-area/account", Some(r#"{"confirm": true}"#)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert!(waivers(db).await.is_empty(), "the waiver went with the account");
    }

    async fn the_sweeper_deletes_unpaid_waivers_after_a_day_and_paid_ones_90_days_past_the_vouchers(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), MOBILE).await;
        let paid = bought(&app, &who, &[(CHILD, "2020-05-05")]).await;
        let unpaid_buyer = log_in(&app, &buyer(2), "0507712345").await;
        let r = cart(&app, &unpaid_buyer, kids_club(Some(waiver(&[("Dan", "2020-05-05")])))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(waivers(db).await.len(), 2);
        assert_eq!(app.state.orders.sweep_waivers().await.unwrap(), 0, "nothing due yet");
        app.clock.advance_ms(25 * 3_600_000);
        assert_eq!(app.state.orders.sweep_waivers().await.unwrap(), 1);
        assert_eq!(waivers(db).await, vec![paid.clone()], "the unpaid cart's waiver is gone, the paid one kept");
        // Kept to 2031-03-09 (the voucher's last day 2030-12-09, and 90 days more); gone the day after.
        app.clock.advance_ms(269 * 86_400_000);
        assert_eq!(app.state.orders.sweep_waivers().await.unwrap(), 0, "kept through its last day");
        app.clock.advance_ms(86_400_000);
        assert_eq!(app.state.orders.sweep_waivers().await.unwrap(), 1);
        assert!(waivers(db).await.is_empty());
    }
}
