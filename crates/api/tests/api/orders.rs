//! A whole ticket order over HTTP, and the ways it can go wrong, on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL. The payment provider's word reaches the server
//! through the same callback function the gateway's pages and webhook use.

use crate::common::paying::lock_body;
use crate::common::picked::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::orders::{OrderStore, PaymentStatus, PaymentUpdate};
use kupa_app::ports::{CAPTCHA_TEST_TOKEN, Clock};
use kupa_domain::ids::PresentationId;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

api_tests! {
async fn a_whole_order_is_priced_paid_committed_and_its_tickets_come_out(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(7);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let cart = &r.body["cart"];
    let (regular, child, popcorn) = (k.regular["price"].as_i64().unwrap(), k.child["price"].as_i64().unwrap(), k.popcorn["price"].as_i64().unwrap());
    assert_eq!(cart["ticketsTotal"].as_i64().unwrap(), regular + child);
    assert_eq!(cart["productsTotal"].as_i64().unwrap(), popcorn);
    let charge = cart["serviceCharge"].as_i64().unwrap();
    assert!(charge > 0, "the demo business charges a handling fee");
    assert_eq!(cart["serviceChargeName"], "דמי טיפול");
    let total = cart["total"].as_i64().unwrap();
    assert_eq!(total, regular + child + popcorn + charge);
    assert_eq!(r.body["step"], "customerInfo");
    example(&app, "postCart", "CartResponse", &r);

    let r = start_payment(&app, &who, &k, total).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    assert!(r.body["paymentFormURL"].as_str().unwrap().starts_with(&format!("/pay/{payment_id}")));
    assert_eq!(r.body["amount"].as_i64(), Some(total));
    example(&app, "paymentForm", "PaymentFormResponse", &r);

    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "paymentPending"), "the payment is still open: {}", r.text);

    // Paying through the test gateway's pages with its 3-D Secure card: the challenge, then the
    // gateway's callback finalises the order before the buyer even commits.
    let card = format!("cardNumber=4000000000003220&expiry=12%2F{:02}&cvv=123&holderId=", (app.today.year() + 2) % 100);
    let r = app.form_as(&who, "POST", &format!("/pay/{payment_id}/card"), Some(&card)).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert_eq!(r.headers["location"], format!("/pay/{payment_id}/3ds"));
    let r = app.form_as(&who, "POST", &format!("/pay/{payment_id}/3ds"), Some("code=1234")).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(r.headers["location"].to_str().unwrap().contains("status=captured"), "{:?}", r.headers["location"]);
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let reservation = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
    assert_eq!(r.body["ticketIdentifiers"].as_array().unwrap().len(), 2);
    example(&app, "commit", "CommitResponse", &r);

    // The seats are sold, to nobody else.
    for s in &k.seats {
        let st = app.call_as(&buyer(8), "GET", &format!("/api/seats/seats-statusV2?presentationId={}", k.presentation["id"]), None).await;
        let seat = st.body["seats"].as_array().unwrap().iter().find(|x| x["x"] == s["x"] && x["y"] == s["y"] && x["si"] == s["si"]).unwrap().clone();
        assert_eq!(seat["s"], "sold");
        let r = app.call_as(&buyer(8), "PUT", "/api/seats/lock-seat", Some(&lock_body(&k.presentation, s))).await;
        assert_eq!(code(&r), "lock_seat_error");
    }

    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ORDER_ALREADY_PAID"), "a second commit is refused");

    let r = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["reservation"]["total"].as_i64(), Some(total));
    assert_eq!(r.body["reservation"]["seats"].as_array().unwrap().len(), 2);
    example(&app, "getReservation", "ReservationResponse", &r);

    let pdf = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}/tickets.pdf?lang=he"), None).await;
    assert_eq!(pdf.status, StatusCode::OK);
    assert_eq!(pdf.headers["content-type"], "application/pdf");
    let text = pdf_text(&body_bytes(&app, &who, &format!("/api/reservations/{reservation}/tickets.pdf?lang=he")).await);
    let feature = k.presentation["featureName"].as_str().unwrap();
    assert!(text.contains(feature), "the Hebrew feature name in logical order: {feature:?} in {text}");
    for s in &k.seats {
        assert!(text.contains(s["n"].as_str().unwrap()) && text.contains(s["r"].as_str().unwrap()), "seat {} row {}", s["n"], s["r"]);
    }

    let ics = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}/calendar.ics"), None).await;
    assert_eq!(ics.status, StatusCode::OK);
    assert!(ics.text.starts_with("BEGIN:VCALENDAR\r\n") && ics.text.contains("BEGIN:VEVENT") && ics.text.contains("DTSTART:"));

    let key = app.call_as(&who, "GET", &format!("/api/reservations/{reservation}"), None).await.body["reservation"]["seats"][0]["documentKey"].as_str().unwrap().to_owned();
    let r = app.get(&format!("/api/edocument/{key}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["state"], "valid");
    assert!(!r.body["section"].as_str().unwrap().is_empty() && r.body["sectionEn"].as_str().unwrap().is_ascii() && !r.body["sectionEn"].as_str().unwrap().is_empty(), "the section in Hebrew and English: {}", r.text);
    assert!(r.body["qrSvg"].as_str().unwrap().contains("<svg"), "param 670 shows the QR");
    example(&app, "edocument", "EDocument", &r);
    // The confirmation mail went out with the PDF; the tickets go out by text on request.
    let mail = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    assert_eq!(mail.status, StatusCode::OK, "{}", mail.text);
    assert!(mail.text.contains("orderConfirmation") && mail.text.contains(".pdf"), "{}", mail.text);
    let body = json!({ "mobileNumber": "052-765-4321" }).to_string();
    let r = app.call_as(&buyer(99), "POST", &format!("/api/reservations/{reservation}/sendTickets"), Some(&body)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "only the buyer's own reservation");
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{reservation}/sendTickets"), Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "sendTickets", "SendTicketsResponse", &r);
    let sms = app.get("/api/test/outbox/sms?to=0527654321").await;
    assert!(sms.text.contains(&format!("/edocument/{key}")), "{}", sms.text);
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{reservation}/sendTickets"), Some(r#"{"mobileNumber": "123"}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "invalid_mobileNumber"));
    let r = app.get("/api/edocument/00000000000000000000000000000000").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
}

async fn prices_come_from_the_server_and_a_different_amount_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(9);
    let k = two_seats_held(&app, &who).await;
    let mut cheap = k.regular.clone();
    cheap["price"] = json!(100);
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&cheap, &k.child], true, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch"), "{}", r.text);
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({ "total": 1 })))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch"));
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let total = r.body["cart"]["total"].as_i64().unwrap();
    let r = start_payment(&app, &who, &k, total - 1).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch"), "the payment form checks the total too");
}

async fn a_cart_must_hold_every_seat_and_valid_customer_details(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let k = two_seats_held(&app, &buyer(10)).await;
    let r = app.call_as(&buyer(11), "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "lock_seat_error"), "another buyer's seats: {}", r.text);
    let mut body: Value = serde_json::from_str(&cart_body(&k, [&k.regular, &k.child], true, json!({}))).unwrap();
    body["cart"]["customerInfo"]["email"] = json!("not-an-email");
    body["cart"]["customerInfo"]["firstName"] = json!("");
    let r = app.call_as(&buyer(10), "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"));
    assert_eq!(r.body["error"]["params"]["fields"]["email"], "email");
    assert_eq!(r.body["error"]["params"]["fields"]["firstName"], "required");
    example(&app, "postCart", "ErrorBody", &r);
    let r = app.call_as(&buyer(10), "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], false, json!({})))).await;
    assert_eq!(r.status, StatusCode::OK, "details may come later: {}", r.text);
    let r = start_payment(&app, &buyer(10), &k, r.body["cart"]["total"].as_i64().unwrap()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "but not later than paying");
}

async fn a_cart_refuses_overlong_details_and_markup_for_an_email(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let k = two_seats_held(&app, &buyer(12)).await;
    let (app, k) = (&app, &k);
    let send = |info: Value| async move {
        let mut body: Value = serde_json::from_str(&cart_body(k, [&k.regular, &k.child], true, json!({}))).unwrap();
        for (field, value) in info.as_object().unwrap() {
            body["cart"]["customerInfo"][field] = value.clone();
        }
        app.call_as(&buyer(12), "POST", "/api/cart", Some(&body.to_string())).await
    };
    let r = send(json!({ "firstName": "א".repeat(10_000) })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", &r.text[..r.text.len().min(300)]);
    assert_eq!(r.body["error"]["params"]["fields"]["firstName"], "max");
    let r = send(json!({ "firstName": "א".repeat(50), "city": "ת".repeat(50) })).await;
    assert_eq!(r.status, StatusCode::OK, "at the bound: {}", r.text);
    let r = send(json!({ "email": "<b>x</b>@example.com", "verifyEmailAddress": "<b>x</b>@example.com" })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["fields"]["email"], "email");
    // A field the site does not ask for is still bounded.
    let r = send(json!({ "invoiceAddress": "x".repeat(101) })).await;
    assert_eq!(r.body["error"]["params"]["fields"]["invoiceAddress"], "max", "{}", r.text);
}

async fn a_hold_lost_before_payment_completes_fails_whole_and_is_refunded(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(12);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let total = r.body["cart"]["total"].as_i64().unwrap();
    let r = start_payment(&app, &who, &k, total).await;
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    // The payment window (15 minutes) passes; another buyer takes one of the seats.
    app.post("/api/test/clock", r#"{"advanceMs": 960000}"#).await;
    let r = app.call_as(&buyer(13), "PUT", "/api/seats/lock-seat", Some(&lock_body(&k.presentation, &k.seats[1]))).await;
    assert_eq!(r.status, StatusCode::OK, "the expired hold is free: {}", r.text);
    authorize(&app, db, &payment_id, PaymentStatus::Authorized).await;
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "lastCommit"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["refunded"], true);
    let payment = db.db.payment(&payment_id).await.unwrap().unwrap();
    assert_eq!(payment.status, PaymentStatus::Refunded);
    // Nothing was half-written: the first seat was not sold either.
    let st = app.call_as(&buyer(14), "GET", &format!("/api/seats/seats-statusV2?presentationId={}", k.presentation["id"]), None).await;
    let first = st.body["seats"].as_array().unwrap().iter().find(|x| x["x"] == k.seats[0]["x"] && x["y"] == k.seats[0]["y"] && x["si"] == k.seats[0]["si"]).unwrap().clone();
    assert_eq!(first["s"], "available");
}

async fn a_duplicate_or_late_callback_creates_no_second_reservation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(15);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let r = start_payment(&app, &who, &k, r.body["cart"]["total"].as_i64().unwrap()).await;
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    authorize(&app, db, &payment_id, PaymentStatus::Authorized).await;
    let (a, b) = tokio::join!(db.db.finalise(&payment_id, app.clock.now_ms()), db.db.finalise(&payment_id, app.clock.now_ms()));
    let (a, b) = (a.unwrap(), b.unwrap());
    let orders = |f: &kupa_app::orders::Finalised| match f {
        kupa_app::orders::Finalised::Paid(o) | kupa_app::orders::Finalised::AlreadyPaid(o) => o.id.clone(),
        other => panic!("expected paid, got {other:?}"),
    };
    assert!(
        matches!((&a, &b), (kupa_app::orders::Finalised::Paid(_), kupa_app::orders::Finalised::AlreadyPaid(_)) | (kupa_app::orders::Finalised::AlreadyPaid(_), kupa_app::orders::Finalised::Paid(_))),
        "exactly one finalisation wrote: {a:?} / {b:?}"
    );
    assert_eq!(orders(&a), orders(&b), "both finalisations name the same reservation");
    // A late 'declined' from a confused provider does not undo the capture.
    authorize(&app, db, &payment_id, PaymentStatus::Declined).await;
    assert_eq!(db.db.payment(&payment_id).await.unwrap().unwrap().status, PaymentStatus::Captured);
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The finalisations above went to the store directly, past the use case that announces the
    // sale: tell the node's seat status what the event would have.
    app.state.catalogue.forget_claims(k.presentation["id"].as_i64().map(PresentationId));
    let sold = app.call_as(&buyer(16), "GET", &format!("/api/seats/seats-statusV2?presentationId={}", k.presentation["id"]), None).await;
    assert_eq!(sold.body["seats"].as_array().unwrap().iter().filter(|s| s["s"] == "sold").count(), 2);
}

async fn a_declined_payment_is_not_committed(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(17);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let r = start_payment(&app, &who, &k, r.body["cart"]["total"].as_i64().unwrap()).await;
    let payment_id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    authorize(&app, db, &payment_id, PaymentStatus::Declined).await;
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYMENT_REQUIRED, "paymentError"));
    let r = app.call_as(&who, "GET", &format!("/api/seats/my-holds?presentationId={}", k.presentation["id"]), None).await;
    assert_eq!(r.body["seats"].as_array().unwrap().len(), 2, "the seats stay held for another try");
}

async fn presentations_of_different_auth_profiles_or_businesses_are_not_bought_together(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let list = app.get("/api/presentations/").await.body["presentations"].as_array().unwrap().clone();
    let on_sale = |f: &dyn Fn(&Value) -> bool| list.iter().find(|p| p["isOnSale"] == true && p["isVod"] == false && f(p)).unwrap().clone();
    let base = on_sale(&|p| p["authProfileId"] == 1 && p["businessId"] == 1);
    let other_profile = on_sale(&|p| p["authProfileId"] != 1 && p["businessId"] == 1);
    let other_business = on_sale(&|p| p["authProfileId"] == 1 && p["businessId"] != 1);
    for (other, want) in [(&other_profile, "Incompatible AuthProfile"), (&other_business, "Incompatible Business")] {
        let body = json!({ "cart": { "presentations": [
            { "presentationId": base["id"], "seats": [] }, { "presentationId": other["id"], "seats": [] } ] } });
        let r = app.call_as(&buyer(20), "POST", "/api/cart", Some(&body.to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, want), "{}", r.text);
    }
}

async fn a_code_prices_its_ticket_and_a_single_use_voucher_is_spent_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (a, b) = (buyer(30), buyer(31));
    let ka = two_seats_held(&app, &a).await;
    let r = code_ticket(&app, "KUPA10", &ka).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let discounted = r.body["ticket"].clone();
    // The code fills both seats (one code, two of its uses).
    let mut body: Value = serde_json::from_str(&cart_body(&ka, [&discounted, &discounted], true, json!({}))).unwrap();
    body["cart"]["presentations"][0]["seats"][0]["ticket"]["code"] = json!("kupa10");
    body["cart"]["presentations"][0]["seats"][1]["ticket"]["code"] = json!("KUPA10");
    let r = app.call_as(&a, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["tickets"][0]["price"], discounted["price"], "the code's ticket, at its price");
    assert_eq!(r.body["cart"]["tickets"][0]["code"], "kupa10");
    assert_eq!(r.body["cart"]["tickets"][1]["price"], discounted["price"], "on both seats");

    // Two buyers price carts with the same single-use voucher; only the first payment spends it.
    let kb = two_seats_held(&app, &b).await;
    let gift_a = code_ticket(&app, "GIFT-2026", &ka).await.body["ticket"].clone();
    let gift_b = code_ticket(&app, "GIFT-2026", &kb).await.body["ticket"].clone();
    let mut totals = Vec::new();
    for (who, k, gift) in [(&a, &ka, &gift_a), (&b, &kb, &gift_b)] {
        let mut body: Value = serde_json::from_str(&cart_body(k, [gift, &k.regular], true, json!({}))).unwrap();
        body["cart"]["presentations"][0]["seats"][0]["ticket"]["code"] = json!("GIFT-2026");
        let r = app.call_as(who, "POST", "/api/cart", Some(&body.to_string())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        totals.push(r.body["cart"]["total"].as_i64().unwrap());
    }
    let pa = start_payment(&app, &a, &ka, totals[0]).await.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let pb = start_payment(&app, &b, &kb, totals[1]).await.body["paymentIdentifier"].as_str().unwrap().to_owned();
    authorize(&app, db, &pa, PaymentStatus::Authorized).await;
    authorize(&app, db, &pb, PaymentStatus::Authorized).await;
    let r = app.call_as(&a, "POST", "/api/payment/commit", Some(&commit_body(&ka))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.call_as(&b, "POST", "/api/payment/commit", Some(&commit_body(&kb))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "couponAlreadyUsed"), "{}", r.text);
    assert_eq!(db.db.payment(&pb).await.unwrap().unwrap().status, PaymentStatus::Refunded);
    let r = code_ticket(&app, "GIFT-2026", &ka).await;
    assert_eq!(code(&r), "codeUsageLimitExceeded", "the voucher is spent");
}

async fn a_voucher_pays_the_smaller_of_the_total_and_its_balance(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(40);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let total = r.body["cart"]["total"].as_i64().unwrap();
    let voucher = |reference: &str| format!("/api/payment/voucher?reference={reference}&presentationId={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", k.presentation["id"]);
    let r = app.call_as(&who, "GET", &voucher("VALUE-5000"), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["payment"]["balance"], 5000);
    assert_eq!(r.body["payment"]["amount"].as_i64(), Some(total.min(5000)));
    example(&app, "paymentVoucher", "VoucherResponse", &r);
    let r = app.call_as(&who, "GET", &voucher("VALUE-EMPTY"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
    let r = app.call_as(&who, "GET", &voucher("GIFT-EXPIRED"), None).await;
    assert_eq!(code(&r), "codeNotFound", "a voucher without a balance is not a way to pay: {}", r.text);
    let r = app.call_as(&who, "GET", &voucher("NO-SUCH-VOUCHER"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "codeNotFound"));
    let r = app.call_as(&who, "GET", "/api/payment/voucher?reference=VALUE-5000&recaptchaToken=nope", None).await;
    assert_eq!(code(&r), "recaptcha");

    let r = app.call_as(&who, "POST", "/api/cart/token", Some(&json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string())).await;
    assert_eq!((r.status, r.body["uuid"].as_str()), (StatusCode::OK, Some(who.as_str())));
    let r = app.call_as(&who, "POST", "/api/cart/token", Some(r#"{"recaptchaToken": "nope"}"#)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"));
}

async fn coupons_are_checked_in_the_cart(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(41);
    let k = two_seats_held(&app, &who).await;
    // DUO2 needs two tickets: with one seat, one more is missing.
    let unlock = lock_body(&k.presentation, &k.seats[1]);
    let r = app.call_as(&who, "PUT", "/api/seats/unlock-seat", Some(&unlock)).await;
    assert_eq!(r.status, StatusCode::OK);
    let duo = code_ticket(&app, "DUO2", &k).await.body["ticket"].clone();
    let mut body: Value = serde_json::from_str(&cart_body(&k, [&duo, &k.child], true, json!({}))).unwrap();
    let seats = body["cart"]["presentations"][0]["seats"].as_array_mut().unwrap();
    seats.truncate(1);
    seats[0]["ticket"]["code"] = json!("DUO2");
    let r = app.call_as(&who, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "couponNeedsMoreTickets"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["missing"], 1);
    // A used-up voucher inside an order: "coupon code already used, try another".
    let used = code_ticket(&app, "GIFT-2026", &k).await.body["ticket"].clone();
    body["cart"]["presentations"][0]["seats"][0]["ticket"] = json!({ "ticketId": used["id"], "code": "GIFT-USED" });
    let r = app.call_as(&who, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "couponAlreadyUsed"), "{}", r.text);
}

async fn vouchers_pay_part_or_all_of_an_order_and_their_balance_goes_down(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // Part: VALUE-5000 (₪50) on a bigger order; the card pays the rest.
    let a = buyer(50);
    let k = two_seats_held(&app, &a).await;
    let mut body: Value = serde_json::from_str(&cart_body(&k, [&k.regular, &k.child], true, json!({}))).unwrap();
    body["cart"]["voucherPayments"] = json!([{ "reference": "value-5000" }]);
    let r = app.call_as(&a, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let total = r.body["cart"]["total"].as_i64().unwrap();
    assert!(total > 5000);
    assert_eq!(r.body["cart"]["voucherPayments"][0]["amount"], 5000);
    assert_eq!(r.body["cart"]["amountDue"].as_i64(), Some(total - 5000));
    let r = start_payment(&app, &a, &k, total).await;
    assert_eq!((r.body["amount"].as_i64(), r.body["paid"].as_bool()), (Some(total - 5000), Some(false)), "{}", r.text);
    let payment = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    authorize(&app, db, &payment, PaymentStatus::Authorized).await;
    let r = app.call_as(&a, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // The voucher is spent: nothing left to redeem.
    let r = app.call_as(&a, "GET", &format!("/api/payment/voucher?reference=VALUE-5000&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
    // An empty voucher in a cart is refused and not added.
    let b = buyer(51);
    let kb = two_seats_held(&app, &b).await;
    let mut body: Value = serde_json::from_str(&cart_body(&kb, [&kb.regular, &kb.child], true, json!({}))).unwrap();
    body["cart"]["voucherPayments"] = json!([{ "reference": "VALUE-5000" }]);
    let r = app.call_as(&b, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
}

async fn a_voucher_worth_more_than_the_order_pays_it_all_without_a_card(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(52);
    let k = two_seats_held(&app, &who).await;
    // Only one seat (a child ticket) and no popcorn, so ₪50 covers it all.
    let r = app.call_as(&who, "PUT", "/api/seats/unlock-seat", Some(&lock_body(&k.presentation, &k.seats[1]))).await;
    assert_eq!(r.status, StatusCode::OK);
    let mut body: Value = serde_json::from_str(&cart_body(&k, [&k.child, &k.child], true, json!({}))).unwrap();
    body["cart"]["presentations"][0]["seats"].as_array_mut().unwrap().truncate(1);
    body["cart"]["products"] = json!([]);
    body["cart"]["voucherPayments"] = json!([{ "reference": "VALUE-5000" }]);
    let r = app.call_as(&who, "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let total = r.body["cart"]["total"].as_i64().unwrap();
    assert!(total <= 5000, "a child ticket and its fee: {total}");
    assert_eq!(r.body["cart"]["amountDue"], 0);
    let r = start_payment(&app, &who, &k, total).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["paid"], true, "no gateway: the vouchers paid");
    let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&commit_body(&k))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = app.call_as(&who, "GET", &format!("/api/payment/voucher?reference=VALUE-5000&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
    assert_eq!(r.body["payment"]["balance"].as_i64(), Some(5000 - total), "{}", r.text);
}

async fn a_buyer_who_closes_the_tab_after_paying_still_gets_the_reservation(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // Two buyers pay and never come back to commit, and no callback finalises: their payments are
    // only marked authorized, stamped with the server's (test-moved) clock.
    let authorized = PaymentUpdate { status: PaymentStatus::Authorized, card_brand: None, card_last4: None, card_bin: None, failure_code: None, decline_reason: None, note: "test".into() };
    let (keeps, loses) = (buyer(60), buyer(61));
    // The second buyer's holds lapse (the 15-minute payment window passes) and another buyer takes a seat.
    let kl = two_seats_held(&app, &loses).await;
    let r = app.call_as(&loses, "POST", "/api/cart", Some(&cart_body(&kl, [&kl.regular, &kl.child], true, json!({})))).await;
    let r = start_payment(&app, &loses, &kl, r.body["cart"]["total"].as_i64().unwrap()).await;
    let lost = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    app.post("/api/test/clock", r#"{"advanceMs": 960000}"#).await;
    let r = app.call_as(&buyer(62), "PUT", "/api/seats/lock-seat", Some(&lock_body(&kl.presentation, &kl.seats[0]))).await;
    assert_eq!(r.status, StatusCode::OK, "the second buyer's hold expired: {}", r.text);
    db.db.update_payment(&lost, &authorized, app.clock.now_ms()).await.unwrap();
    // The first buyer pays now, with live holds.
    let kk = two_seats_held(&app, &keeps).await;
    let r = app.call_as(&keeps, "POST", "/api/cart", Some(&cart_body(&kk, [&kk.regular, &kk.child], true, json!({})))).await;
    let r = start_payment(&app, &keeps, &kk, r.body["cart"]["total"].as_i64().unwrap()).await;
    let kept = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    db.db.update_payment(&kept, &authorized, app.clock.now_ms()).await.unwrap();
    assert_eq!(app.state.orders.sweep_stranded_payments().await.unwrap(), 0, "a fresh authorization may still be finalised by its callback");
    app.post("/api/test/clock", r#"{"advanceMs": 61000}"#).await;
    assert_eq!(app.state.orders.sweep_stranded_payments().await.unwrap(), 2);
    assert_eq!(db.db.payment(&kept).await.unwrap().unwrap().status, PaymentStatus::Captured, "finalised by the sweeper");
    assert_eq!(db.db.payment(&lost).await.unwrap().unwrap().status, PaymentStatus::Refunded, "its seats were gone: refunded");
    assert_eq!(app.state.orders.sweep_stranded_payments().await.unwrap(), 0, "nothing left to sweep");
    // The buyer who kept the seats finds the reservation when they come back.
    let r = app.call_as(&keeps, "POST", "/api/payment/commit", Some(&commit_body(&kk))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}


async fn member_tickets_need_the_member_logged_in(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(70);
    let k = two_seats_held(&app, &who).await;
    let groups = app.get(&format!("/api/presentations/{}/ticketGroups?membershipLoyaltyId=100001", k.presentation["id"])).await;
    let member = groups.body["ticketGroups"].as_array().unwrap().iter().flat_map(|g| g["tickets"].as_array().unwrap().clone())
        .find(|t| t["memberOnly"] == true && t["ticketGroupId"] == k.seats[0]["tg"] && t["loyaltyPointsPrice"].is_null()).expect("a member ticket in the big hall's group");
    let cart = |number: &str| {
        let mut body: Value = serde_json::from_str(&cart_body(&k, [&member, &k.regular], true, json!({}))).unwrap();
        body["cart"]["presentations"][0]["seats"][0]["ticket"]["memberNumber"] = json!(number);
        body.to_string()
    };
    // Dana (0524318876) owns member 100001; 100002 is another customer's.
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart("100001"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
    let who = log_in(&app, &who, "0524318876").await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart("100002"))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "memberNotFound"), "{}", r.text);
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart("100001"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["tickets"][0]["ticketId"], member["id"]);
}

async fn a_second_order_in_one_session_starts_a_fresh_checkout(db: &TestDb) {
    use crate::common::paying::{card_form, good_expiry, location, priced_cart_at, row_end_pair, start_payment_with};
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(31);
    let card = card_form(kupa_providers::test_gateway::cards::APPROVED_VISA, &good_expiry(&app), "123");
    let ms = |t: &str| t.parse::<jiff::Timestamp>().unwrap().as_millisecond();
    // The first order: two seats, paid by card, committed.
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let p: client::Presentation = serde_json::from_value(k.presentation.clone()).unwrap();
    let pay = start_payment_with(&app, &who, &k, "card", "he", 1, false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{pay}/card"), Some(&card)).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let one = app.commit(&who, p.id).await.expect("the first order commits").reservation_identifier;

    // A minute later the same buyer, in the same session, takes another seat of the screening:
    // a new checkout, choosing seats, with that step's own ten minutes.
    app.advance_clock_ms(60_000).await;
    let plan = app.seat_plan(&p).await;
    let (seat, _) = row_end_pair(&plan, 1);
    let lock = app.lock(&who, &p, seat.key()).await.expect("a new seat");
    assert_eq!(lock.step, "seats", "not the finished payment's step");
    let left = ms(&lock.expires_at) - ms(&lock.server_time);
    assert!((599_000..=600_000).contains(&left), "the seats step's own ten minutes, not what was left of the payment window: {left} ms");
    let mine = app.my_holds(&who, p.id).await.ok();
    assert_eq!(mine.step.as_deref(), Some("seats"));
    let extended = app.extend(&who, p.id).await.expect("a new checkout's step may be extended");
    assert_eq!((extended.step.as_str(), extended.extended), ("seats", true));
    assert_eq!(ms(&extended.expires_at), ms(&lock.expires_at) + 600_000);

    // And the second order goes through like the first, to a reservation of its own.
    let k2 = priced_cart_at(&app, &who, 1, None, "he").await;
    let pay2 = start_payment_with(&app, &who, &k2, "card", "he", 1, false).await;
    assert_ne!(pay2, pay);
    let r = app.form_as(&who, "POST", &format!("/pay/{pay2}/card"), Some(&card)).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let two = app.commit(&who, p.id).await.expect("the second order commits").reservation_identifier;
    assert_ne!(two, one);
    assert_eq!(crate::common::paying::rows(db, "SELECT id FROM orders WHERE status = 'paid'").await.len(), 2);
}

async fn a_reservation_opens_for_its_buyer_or_a_signed_link_only(db: &TestDb) {
    use crate::common::paying::{card_form, good_expiry, location, priced_cart_at, start_payment_with};
    let public = "https://tickets.example";
    let app = TestApp::new(db, kupa_api::ApiSettings { public_url: public.into(), ..test_settings() }).await;
    let (who, stranger) = (buyer(41), buyer(42));
    let k = priced_cart_at(&app, &who, 0, None, "en").await;
    let pay = start_payment_with(&app, &who, &k, "card", "en", 1, false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{pay}/card"), Some(&card_form(kupa_providers::test_gateway::cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", location(&r));
    let id = app.commit(&who, k.presentation["id"].as_i64().unwrap()).await.ok().reservation_identifier;
    let app = &app;
    let read = |as_who: &str, uri: String| {
        let as_who = as_who.to_owned();
        async move { app.call_as(&as_who, "GET", &uri, None).await }
    };

    // Its buyer's session reads the reservation and its files; someone else holding only the id
    // is told what anyone is told of a reservation that does not exist.
    let files = [format!("/api/reservations/{id}"), format!("/api/reservations/{id}/tickets.pdf"), format!("/api/reservations/{id}/calendar.ics")];
    for uri in &files {
        assert_eq!(read(&who, uri.clone()).await.status, StatusCode::OK, "{uri}");
        let r = read(&stranger, uri.clone()).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{uri}: {}", r.text);
        let r = app.get(uri).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "no session at all: {uri}");
    }

    // The read-back's links are signed: they open from anywhere, without the buyer's session.
    let res = app.reservation(&who, &id).await.ok().reservation;
    assert!(res.pdf_url.starts_with(&format!("/api/reservations/{id}/tickets.pdf?exp=")) && res.pdf_url.contains("&sig="), "{}", res.pdf_url);
    let pdf = read(&stranger, format!("{}&lang=he", res.pdf_url)).await;
    assert_eq!((pdf.status, pdf.headers["content-type"].to_str().unwrap()), (StatusCode::OK, "application/pdf"));
    let ics = read(&stranger, res.calendar_url.clone()).await;
    assert_eq!(ics.status, StatusCode::OK, "{}", ics.text);
    let query = res.pdf_url.split_once('?').unwrap().1.to_owned();
    assert_eq!(read(&stranger, format!("/api/reservations/{id}?{query}")).await.status, StatusCode::OK);
    // A signature that is not the server's, or an expiry moved on, opens nothing.
    let (exp, sig) = query.split_once("&sig=").unwrap();
    let exp: i64 = exp.trim_start_matches("exp=").parse().unwrap();
    let flipped = format!("{}{}", if sig.starts_with('0') { '1' } else { '0' }, &sig[1..]);
    for bad in [format!("exp={exp}&sig={flipped}"), format!("exp={}&sig={sig}", exp + 86_400), format!("exp={exp}"), format!("sig={sig}")] {
        let r = read(&stranger, format!("/api/reservations/{id}/tickets.pdf?{bad}")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{bad}");
    }

    // The calendar file links to the signed confirmation page at the configured public address,
    // whatever host the request named, and carries the reservation's id nowhere else.
    let req = axum::http::Request::get(format!("/api/reservations/{id}/calendar.ics"))
        .header("uuid", &who).header("host", "evil.example").header("x-forwarded-host", "evil.example").header("x-forwarded-proto", "https")
        .body(axum::body::Body::empty()).unwrap();
    let ics = app.send(req).await;
    assert_eq!(ics.status, StatusCode::OK);
    let unfolded = ics.text.replace("\r\n ", "");
    assert!(!unfolded.contains("evil.example"), "{unfolded}");
    let url = unfolded.lines().find_map(|l| l.strip_prefix("URL:")).expect("a URL line").to_owned();
    assert_eq!(url, format!("{public}/reservation/{id}?exp={exp}&sig={sig}&lang=en"), "the confirmation page, signed");
    assert_eq!(unfolded.matches(id.as_str()).count(), 1, "the id only inside the signed link: {unfolded}");
    // The page passes its own exp and sig to the read-back and the files.
    let res_read = read(&stranger, format!("/api/reservations/{id}?exp={exp}&sig={sig}")).await;
    assert_eq!(res_read.status, StatusCode::OK, "the calendar's link opens the reservation: {}", res_read.text);
    assert_eq!(res.confirmation_url, format!("/reservation/{id}?exp={exp}&sig={sig}"));
    let pdf = read(&stranger, format!("{}&lang=en", res.pdf_url)).await;
    assert_eq!(pdf.status, StatusCode::OK);
    let url = format!("/api/reservations/{id}/tickets.pdf?exp={exp}&sig={sig}");

    // The confirmation mail and the text message carry the same signed link to the page.
    let signed = format!("{public}/reservation/{id}?exp={exp}&sig={sig}&lang=en");
    let mail = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    assert!(mail.body["messages"][0]["text"].as_str().unwrap().contains(&signed), "{}", mail.text);
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/sendTickets"), Some(r#"{"mobileNumber": "052-765-4321"}"#)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get("/api/test/outbox/sms?to=0527654321").await;
    assert!(sms.body["messages"][0]["body"].as_str().unwrap().contains(&signed), "{}", sms.text);
    assert!(!mail.text.contains("evil.example") && !sms.text.contains("evil.example"));

    // An order that names its customer (the cart names none yet) also opens for that customer
    // logged in on another session, and for no other customer.
    crate::common::paying::execute(db, "UPDATE orders SET customer_id = 1 WHERE status = 'paid'").await;
    let (dana, someone) = (buyer(43), buyer(44));
    let dana = log_in(app, &dana, "0524318876").await;
    assert_eq!(read(&dana, files[1].clone()).await.status, StatusCode::OK, "customer 1 on another device");
    let someone = log_in(app, &someone, "0507712345").await;
    assert_eq!(read(&someone, files[1].clone()).await.status, StatusCode::NOT_FOUND, "another customer");

    // The link is good until the end of the day after the screening (Jerusalem), then dead;
    // the buyer's own session still reads the reservation.
    let now = app.clock.now_ms();
    app.advance_clock_ms(exp * 1000 - now - 1_000).await;
    assert_eq!(read(&stranger, url.clone()).await.status, StatusCode::OK, "a second before its end");
    app.advance_clock_ms(1_000).await;
    let r = read(&stranger, url.clone()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "expired");
    assert_eq!(read(&who, files[0].clone()).await.status, StatusCode::OK);
}

async fn the_confirmation_mail_shows_every_seat_and_signed_links_in_the_buyers_language(db: &TestDb) {
    use crate::common::paying::{card_form, good_expiry, location, priced_cart_at, start_payment_with};
    let public = "https://tickets.example";
    let app = TestApp::new(db, kupa_api::ApiSettings { public_url: public.into(), ..test_settings() }).await;
    for (n, lang) in [(0usize, "he"), (1, "en")] {
        let who = buyer(61 + n as u32);
        let k = priced_cart_at(&app, &who, n, None, lang).await;
        let pay = start_payment_with(&app, &who, &k, "card", lang, 1, false).await;
        let r = app.form_as(&who, "POST", &format!("/pay/{pay}/card"), Some(&card_form(kupa_providers::test_gateway::cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
        assert!(location(&r).contains("status=captured"), "{}", location(&r));
        let id = app.commit(&who, k.presentation["id"].as_i64().unwrap()).await.ok().reservation_identifier;
        let res = app.reservation(&who, &id).await.ok().reservation;

        let outbox = app.get("/api/test/outbox/mail?to=dana@example.com").await;
        let mail = &outbox.body["messages"][0];
        assert_eq!((mail["kind"].as_str(), mail["reference"].as_str()), (Some("orderConfirmation"), Some(id.as_str())), "{}", outbox.text);
        let (subject, text, html) = (mail["subject"].as_str().unwrap(), mail["text"].as_str().unwrap(), mail["html"].as_str().unwrap());
        assert_eq!(mail["attachments"][0]["name"], format!("tickets-{}.pdf", res.reservation_number), "the PDF is attached");

        // In the order's language, Hebrew right to left; inline styles only, as mail clients need.
        let feature = if lang == "he" { &res.presentation.feature_name } else { &res.presentation.feature_name_en };
        assert!(subject.contains(feature.as_str()) && subject.contains(&res.reservation_number), "{subject}");
        if lang == "he" {
            assert!(html.contains(r#"<html lang="he" dir="rtl">"#) && html.contains("text-align:right"), "{html}");
            assert!(subject.starts_with("הכרטיסים שלך") && text.contains("לצפייה בכרטיסים"), "{subject}\n{text}");
        } else {
            assert!(html.contains(r#"<html lang="en" dir="ltr">"#) && !html.contains(r#"dir="rtl""#), "{html}");
            assert!(subject.starts_with("Your tickets") && text.contains("View your tickets"), "{subject}\n{text}");
            assert!(text.starts_with("Hello ") && text.contains("Doors open"), "{text}");
        }
        assert!(!html.contains("<style") && !html.contains("<script") && !html.contains(" class="), "inline styles only: {html}");

        // Every seat with its row, seat, ticket and price; the total; each ticket's e-document.
        assert_eq!(res.seats.len(), 2);
        let (row, seat) = if lang == "he" { ("שורה", "מושב") } else { ("Row", "Seat") };
        for s in &res.seats {
            let place = format!("{row} {} · {seat} {}", s.row, s.seat);
            let price = kupa_domain::money::Money(s.price + s.service_charge).display_ils();
            let edocument = format!("{public}/edocument/{}", s.document_key);
            assert_eq!(s.edocument_url, format!("/edocument/{}", s.document_key));
            assert!(s.qr_svg.as_deref().is_some_and(|q| q.contains("<svg")), "the read-back carries each ticket's QR");
            for body in [text, html] {
                assert!(body.contains(&place) && body.contains(&price) && body.contains(&edocument), "{place} {price} {edocument} in {body}");
            }
        }
        let total = kupa_domain::money::Money(res.total).display_ils();
        assert!(text.contains(&total) && html.contains(&total), "the total {total}");

        // The links are the signed ones: the confirmation page (the buyer's language) and the PDF.
        let query = res.confirmation_url.split_once('?').unwrap().1.to_owned();
        let page = format!("{public}/reservation/{id}?{query}&lang={lang}");
        let pdf = format!("{public}/api/reservations/{id}/tickets.pdf?{query}&lang={lang}");
        for link in [&page, &pdf] {
            assert!(text.contains(link.as_str()), "{link} in {text}");
            assert!(html.contains(&format!("href=\"{}\"", link.replace('&', "&amp;"))), "{link} in {html}");
        }
        // On another device, without the buyer's session, the mail's link opens the reservation.
        let r = app.call_as(&buyer(70), "GET", &format!("/api/reservations/{id}?{query}"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(app.get(&format!("/api/reservations/{id}")).await.status, StatusCode::NOT_FOUND);
    }
    // The test mode's outbox page shows the mail's text and HTML parts.
    let page = app.get("/dev/outbox?to=dana@example.com").await;
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text.contains("<summary>Text</summary>") && page.text.contains("srcdoc=\"&lt;!doctype html&gt;"), "{}", page.text);
}

async fn racing_finalisations_of_a_lost_order_refund_exactly_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(80);
    let k = two_seats_held(&app, &who).await;
    let r = app.call_as(&who, "POST", "/api/cart", Some(&cart_body(&k, [&k.regular, &k.child], true, json!({})))).await;
    let r = start_payment(&app, &who, &k, r.body["cart"]["total"].as_i64().unwrap()).await;
    let payment = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    app.post("/api/test/clock", r#"{"advanceMs": 960000}"#).await;
    let r = app.call_as(&buyer(81), "PUT", "/api/seats/lock-seat", Some(&lock_body(&k.presentation, &k.seats[0]))).await;
    assert_eq!(r.status, StatusCode::OK);
    // The gateway's callback, the buyer's commit and a sweeper all reach finalisation at once.
    let authorized = || PaymentUpdate { status: PaymentStatus::Authorized, card_brand: None, card_last4: None, card_bin: None, failure_code: None, decline_reason: None, note: "test".into() };
    let orders = &app.state.orders;
    let (a, b, c) = tokio::join!(orders.payment_callback(&payment, authorized()), orders.payment_callback(&payment, authorized()), orders.payment_callback(&payment, authorized()));
    for outcome in [a, b, c] {
        outcome.unwrap();
    }
    assert_eq!(db.db.payment(&payment).await.unwrap().unwrap().status, PaymentStatus::Refunded);
    let refunds = crate::common::paying::rows(db, "SELECT kind FROM payment_events WHERE kind = 'refunded'").await;
    assert_eq!(refunds.len(), 1, "one refund, whoever got there first");
}
}

async fn code_ticket(app: &TestApp, code: &str, k: &Picked) -> Reply {
    let url = format!(
        "/api/presentations/{}/ticket?sectionId={}&ticketGroupId={}&ticketCode={code}&recaptchaToken={CAPTCHA_TEST_TOKEN}",
        k.presentation["id"], k.seats[0]["si"], k.seats[0]["tg"]
    );
    app.get(&url).await
}
