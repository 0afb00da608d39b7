//! System vouchers and donations sold (issue 14): the lists, the voucher and donation carts and
//! their codes, the payment through the test gateway's pages, the vouchers issued by the one
//! finalisation and redeemed on a ticket order, on SQLite and (when KUPA_TEST_POSTGRES_URL is
//! set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const EMAIL: &str = "gift.buyer@example.com";

fn customer(ssn: Option<&str>) -> Value {
    let mut c = json!({ "firstName": "נועה", "lastName": "ברק", "email": EMAIL, "verifyEmailAddress": EMAIL,
                        "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] });
    if let Some(ssn) = ssn {
        c["ssn"] = json!(ssn);
    }
    c
}

async fn commit(app: &TestApp, who: &str, what: &str) -> Reply {
    let body = json!({ "cart": { what: [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

/// Two ₪100 gift cards and one of ₪150 at the open price: the cart, paid by card, committed.
async fn bought_gift_cards(app: &TestApp, who: &str) -> Reply {
    let r = cart(
        app,
        who,
        json!({ "vouchers": [
            { "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 22, "selectedQuantity": 2 }] },
            { "SystemVoucherId": 3, "Prices": [{ "Price": 15000, "selectedQuantity": 1 }] }
        ], "customerInfo": customer(None) }),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["orderType"], "vouchers");
    assert_eq!(r.body["cart"]["total"], 35000);
    assert_eq!(
        r.body["cart"]["serviceCharge"], 0,
        "no service charge on vouchers"
    );
    assert_eq!(
        r.body["cart"]["systemVouchers"].as_array().unwrap().len(),
        3
    );
    assert_eq!(r.body["cart"]["systemVouchers"][2]["value"], 15000);
    assert!(
        r.body["cart"]["systemVouchers"][0]
            .get("reference")
            .is_none(),
        "no reference before the payment"
    );
    let form = pay_form(app, who, "vouchers", 35000).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    assert_eq!(form.body["amount"], 35000);
    let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let r = pay_card(app, who, &id, "4242+4242+4242+4242").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(
        location(&r).starts_with("/system-vouchers?paymentId="),
        "{}",
        location(&r)
    );
    let r = commit(app, who, "vouchers").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r
}

/// A login by SMS code that proves a mobile number no customer account has (the checkout's login).
async fn log_in_without_account(app: &TestApp, who: &str, mobile: &str) -> String {
    log_in_asking(
        app,
        who,
        mobile,
        json!({ "sendSmsRegardlessOfCustomerExistence": true }),
    )
    .await
}

async fn ticket_codes(db: &TestDb) -> usize {
    rows(db, "SELECT code FROM ticket_codes").await.len()
}

api_tests! {
    async fn the_vouchers_and_donations_on_offer_are_listed(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let r = app.get("/api/system-vouchers").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["maxQuantityForVouchers"], 10);
        let ids: Vec<i64> = r.body["systemVouchers"].as_array().unwrap().iter().map(|c| c["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![1, 2, 3, 4, 5]);
        assert_eq!(r.body["systemVouchers"][3]["boxOfficeOnly"], true);
        assert_eq!(r.body["systemVouchers"][2]["openPrice"], json!({ "min": 3000, "max": 50000 }));
        example(&app, "systemVoucherClasses", "VoucherClassesResponse", &r);
        let r = app.get("/api/donations").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["donations"][0]["details"].as_array().unwrap().len(), 4);
        example(&app, "donations", "DonationsResponse", &r);
    }

    async fn gift_cards_are_sold_paid_issued_and_redeemed_on_a_ticket_order(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), "0524318876").await;
        let before = ticket_codes(db).await;
        let r = bought_gift_cards(&app, &who).await;
        let vouchers = r.body["systemVouchers"].as_array().unwrap().clone();
        assert_eq!(vouchers.len(), 3);
        assert_eq!(ticket_codes(db).await, before + 3, "one code per voucher, written by the finalisation");
        let refs: Vec<String> = vouchers.iter().map(|v| v["reference"].as_str().unwrap().to_owned()).collect();
        assert!(refs.iter().all(|r| r.len() == 22 && r.starts_with("KV-")), "{refs:?}");
        assert_ne!(refs[0], refs[1]);
        assert_eq!(r.body["ticketIdentifiers"], json!([]));
        // The confirmation reads back for its buyer, and for no one else.
        let order = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        assert_eq!(back.body["systemVouchers"][1]["reference"], refs[1].as_str());
        assert_eq!(back.body["orderType"], "vouchers");
        // It is no ticket reservation: not read, nor cancelled, as one.
        let as_ticket = app.call_as(&who, "GET", &format!("/api/reservations/{order}"), None).await;
        assert_eq!((as_ticket.status, code(&as_ticket)), (StatusCode::NOT_FOUND, "notFound"), "{}", as_ticket.text);
        // Its vouchers are cancelled one by one (POST /system-vouchers/{ref}/cancel).
        let as_ticket = app.call_as(&who, "POST", &format!("/api/reservations/{order}/cancel"), Some("{}")).await;
        assert_eq!((as_ticket.status, code(&as_ticket)), (StatusCode::CONFLICT, "NOTHING_TO_CANCEL"), "{}", as_ticket.text);
        let other = app.call_as(&buyer(2), "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!((other.status, code(&other)), (StatusCode::NOT_FOUND, "notFound"));
        // The mail carries every reference.
        let mail = app.get(&format!("/api/test/outbox/mail?to={EMAIL}")).await;
        let text = mail.body["messages"][0]["text"].as_str().unwrap().to_owned();
        for reference in &refs {
            assert!(text.contains(reference.as_str()), "{text}");
        }
        // The vouchers come as a PDF, one page each with its QR: attached to the mail, and from
        // the confirmation for its buyer only.
        let pdf_name = format!("vouchers-{}.pdf", r.body["reservationNumber"].as_str().unwrap());
        assert_eq!(mail.body["messages"][0]["attachments"][0]["name"], pdf_name.as_str(), "{}", mail.text);
        let pdf = body_bytes(&app, &who, &format!("/api/gift-orders/{order}/vouchers.pdf?lang=he")).await;
        assert!(pdf.starts_with(b"%PDF"), "a PDF");
        // Without the bidirectional marks poppler writes around right-to-left runs.
        let text: String = pdf_text(&pdf).chars().filter(|c| !matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')).collect();
        for reference in &refs {
            assert!(text.contains(reference.as_str()), "{reference} in {text}");
        }
        assert!(text.contains("מתוך 3") && text.contains("כרטיס מתנה"), "{text}");
        let english = pdf_text(&body_bytes(&app, &who, &format!("/api/gift-orders/{order}/vouchers.pdf?lang=en")).await);
        assert!(english.contains("Voucher 3 of 3") && english.contains("Gift card"), "{english}");
        let stranger = app.call_as(&buyer(2), "GET", &format!("/api/gift-orders/{order}/vouchers.pdf"), None).await;
        assert_eq!(stranger.status, StatusCode::NOT_FOUND);
        // A second commit is refused.
        let again = commit(&app, &who, "vouchers").await;
        assert_eq!((again.status, code(&again)), (StatusCode::CONFLICT, "ORDER_ALREADY_PAID"), "{}", again.text);
        // The ₪150 card pays a ticket order: its balance is the smaller of the total and 150.
        let r = app.call_as(&who, "GET", &format!("/api/payment/voucher?reference={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", refs[2].to_lowercase()), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["payment"]["balance"], 15000);
        let buyer3 = buyer(3);
        let k = priced_cart_at(&app, &buyer3, 0, None, "he").await;
        let p = &k.presentation;
        let seats: Vec<Value> = k.seats.iter().map(|s| json!({ "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "ticket": { "ticketId": 101 } })).collect();
        let body = json!({ "cart": { "presentations": [{ "presentationId": p["id"], "seats": seats }],
                                     "voucherPayments": [{ "reference": refs[0] }],
                                     "customerInfo": customer(None) }, "step": "customerInfo", "locale": "he" });
        let r = app.call_as(&buyer3, "POST", "/api/cart", Some(&body.to_string())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let total = r.body["cart"]["total"].as_i64().unwrap();
        assert_eq!(r.body["cart"]["voucherPayments"][0]["amount"].as_i64(), Some(total.min(10000)));
        let r = app.call_as(&buyer3, "GET", &format!("/api/payment/form/he?presentationId={}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["amount"].as_i64(), Some(total - total.min(10000)), "the card pays the rest");
        let id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
        if r.body["paid"] != true {
            let r = pay_card(&app, &buyer3, &id, "4242+4242+4242+4242").await;
            assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
        }
        let r = app.call_as(&buyer3, "GET", &format!("/api/payment/voucher?reference={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", refs[0]), None).await;
        let left = 10000 - total.min(10000);
        if left == 0 {
            assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
        } else {
            assert_eq!(r.body["payment"]["balance"].as_i64(), Some(left), "{}", r.text);
        }
    }

    async fn a_declined_payment_issues_no_voucher(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), "0524318876").await;
        let before = ticket_codes(db).await;
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 1, "Prices": [{ "SystemVoucherPriceId": 11, "selectedQuantity": 1 }] }], "customerInfo": customer(None) })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["cart"]["systemVouchers"][0]["benefitTickets"], 2, "the popcorn is not a ticket");
        let form = pay_form(&app, &who, "vouchers", 7900).await;
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        let r = pay_card(&app, &who, &id, kupa_providers::test_gateway::cards::DECLINED).await;
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
        let r = commit(&app, &who, "vouchers").await;
        assert_eq!((r.status, code(&r)), (StatusCode::PAYMENT_REQUIRED, "paymentError"), "{}", r.text);
        assert_eq!(ticket_codes(db).await, before, "nothing issued");
        // Paid on a second try, the benefit voucher unlocks its two tickets.
        let form = pay_form(&app, &who, "vouchers", 7900).await;
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        let r = commit(&app, &who, "vouchers").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let reference = r.body["systemVouchers"][0]["reference"].as_str().unwrap().to_owned();
        let limits = rows(db, "SELECT CAST(usage_limit AS TEXT) || ':' || CAST(ticket_id AS TEXT) FROM ticket_codes WHERE code LIKE 'KV-%'").await;
        assert_eq!(limits, vec!["2:113".to_owned()], "{reference}");
    }

    async fn voucher_carts_refuse_what_cannot_be_sold(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        // A voucher lives in its buyer's customer area: an anonymous buyer is asked to log in first.
        let refused = |r: &Reply| (r.status, code(r).to_owned());
        let one = json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }], "customerInfo": customer(None) });
        let r = cart(&app, &buyer(1), one.clone()).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "anonymous: {}", r.text);
        assert_eq!(code(&r), "loginError");
        let r = pay_form(&app, &buyer(1), "vouchers", 5000).await;
        assert_eq!(refused(&r), (StatusCode::NOT_FOUND, "notFound".into()), "nothing was kept to pay");
        // A login that proved a mobile number no customer account has is no customer either.
        let stranger = log_in_without_account(&app, &buyer(4), "0529999999").await;
        let r = cart(&app, &stranger, one).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "a login with no account: {}", r.text);
        assert_eq!(code(&r), "loginError");
        let who = log_in(&app, &buyer(1), "0524318876").await;
        let r = cart(&app, &who, json!({ "vouchers": [] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "mustSelectVouchers".into()), "{}", r.text);
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 0 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "mustSelectVouchers".into()));
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 6 }, { "SystemVoucherPriceId": 22, "selectedQuantity": 5 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "11 > maxQuantityForVouchers");
        assert_eq!(r.body["error"]["params"]["max"], 10);
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 4, "Prices": [{ "SystemVoucherPriceId": 41, "selectedQuantity": 1 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "SYSTEM_VOUCHER_NOT_SOLD_IN_OUTLET".into()));
        for amount in [2900, 50100, 4550] {
            let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 3, "Prices": [{ "Price": amount, "selectedQuantity": 1 }] }] })).await;
            assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{amount}");
            assert_eq!((r.body["error"]["params"]["min"].as_i64(), r.body["error"]["params"]["max"].as_i64()), (Some(3000), Some(50000)));
        }
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 99, "selectedQuantity": 1 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "priceNotFound".into()));
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 3, "Prices": [{ "selectedQuantity": 1 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "getPrice".into()), "an open price without its amount");
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }], "total": 4000 })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch".into()));
        // One order type per cart.
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }],
                                         "donations": [{ "id": 1, "donationDetails": [{ "id": 11, "selectedQuantity": 1 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()));
        let r = cart(&app, &who, json!({ "vouchers": [{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }],
                                         "voucherPayments": [{ "reference": "VALUE-5000" }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "vouchers are not bought with vouchers");
        let r = cart(&app, &who, json!({})).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()));
        // Nothing to pay without a cart of that type.
        let r = pay_form(&app, &buyer(2), "vouchers", 5000).await;
        assert_eq!(refused(&r), (StatusCode::NOT_FOUND, "notFound".into()));
        let r = app.call_as(&who, "GET", &format!("/api/payment/form/he?total=5000&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "no cart named");
    }

    async fn a_donation_of_a_custom_amount_needs_the_donors_id_number(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = buyer(1);
        let r = cart(&app, &who, json!({ "donations": [] })).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "mustSelectDonations"));
        let r = cart(&app, &who, json!({ "donations": [{ "id": 1, "donationDetails": [{ "id": 14, "amount": 500, "customAmount": true, "selectedQuantity": 1 }] }] })).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "below the minimum");
        assert_eq!(r.body["error"]["params"]["min"], 1000);
        let r = cart(&app, &who, json!({ "donations": [{ "id": 1, "donationDetails": [{ "id": 14, "amount": 7200, "customAmount": true, "selectedQuantity": 1 }] }],
                                         "customerInfo": customer(None) })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!((r.body["cart"]["orderType"].as_str(), r.body["cart"]["total"].as_i64()), (Some("donations"), Some(7200)));
        assert_eq!(r.body["cart"]["donations"][0]["amount"], 7200);
        let r = pay_form(&app, &who, "donations", 7200).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["fields"]["ssn"], "idNumber");
        // With a valid ID number (check digit 2).
        let r = cart(&app, &who, json!({ "donations": [{ "id": 1, "donationDetails": [{ "id": 14, "amount": 7200, "customAmount": true, "selectedQuantity": 1 }] }],
                                         "customerInfo": customer(Some("123456782")) })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let form = pay_form(&app, &who, "donations", 7200).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.text);
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        let r = pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        assert!(location(&r).starts_with("/donations?paymentId="), "{}", location(&r));
        let r = commit(&app, &who, "donations").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let order = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!((back.body["orderType"].as_str(), back.body["total"].as_i64()), (Some("donations"), Some(7200)), "{}", back.text);
        let mail = app.get(&format!("/api/test/outbox/mail?to={EMAIL}")).await;
        let text = mail.body["messages"][0]["text"].as_str().unwrap();
        assert!(text.contains("72.00") || text.contains("72"), "{text}");
        assert!(!text.contains("123456782"), "no ID number in the mail");
    }

    async fn a_voucher_order_carries_chain_wide_snacks_prepaid_and_prints_them(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        // The products step offers what every cinema sells, in menu order (not product 11, sold
        // at one cinema only).
        let offer = app.get("/api/system-vouchers").await;
        let ids: Vec<i64> = offer.body["products"].as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect();
        assert_eq!(ids, (1..=10).collect::<Vec<i64>>(), "{}", offer.text);
        assert_eq!(offer.body["products"][2]["img"], "/api/products/3/image");
        let who = log_in(&app, &buyer(1), "0524318876").await;
        let refused = |r: &Reply| (r.status, code(r).to_owned());
        let gift = json!([{ "SystemVoucherId": 2, "Prices": [{ "SystemVoucherPriceId": 21, "selectedQuantity": 1 }] }]);
        let r = cart(&app, &who, json!({ "vouchers": gift, "products": [{ "id": 11, "quantity": 1 }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "one cinema's product: {}", r.text);
        let r = cart(&app, &who, json!({ "vouchers": gift, "products": [{ "id": 3, "quantity": 21 }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["max"], 20);
        let r = cart(&app, &who, json!({ "vouchers": gift, "products": [{ "id": 3, "quantity": 1 }, { "id": 3, "quantity": 1 }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "twice: {}", r.text);
        let r = cart(&app, &buyer(2), json!({ "donations": [{ "id": 1, "donationDetails": [{ "id": 11, "selectedQuantity": 1 }] }],
                                              "products": [{ "id": 3, "quantity": 1 }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "a donation has no products: {}", r.text);
        // A ₪50 gift card with two large popcorns (₪29) and a water (₪10), at the catalogue's prices.
        let r = cart(&app, &who, json!({ "vouchers": gift, "products": [{ "id": 3, "quantity": 2 }, { "id": 7, "quantity": 1 }],
                                         "customerInfo": customer(None), "total": 11800 })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!((r.body["cart"]["total"].as_i64(), r.body["cart"]["productsTotal"].as_i64()), (Some(11800), Some(6800)));
        assert_eq!((r.body["cart"]["products"][0]["id"].as_i64(), r.body["cart"]["products"][0]["amount"].as_i64()), (Some(3), Some(5800)));
        let form = pay_form(&app, &who, "vouchers", 11800).await;
        assert_eq!(form.body["amount"], 11800, "{}", form.text);
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        let done = commit(&app, &who, "vouchers").await;
        assert_eq!(done.status, StatusCode::OK, "{}", done.text);
        let order = done.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let reference = done.body["systemVouchers"][0]["reference"].as_str().unwrap().to_owned();
        // Kept on the order, read back with it.
        let kept = rows(db, "SELECT order_id || ':' || CAST(product_id AS TEXT) || ':' || CAST(quantity AS TEXT) || ':' || CAST(unit_price AS TEXT) FROM order_products ORDER BY product_id").await;
        assert_eq!(kept, vec![format!("{order}:3:2:2900"), format!("{order}:7:1:1000")]);
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        assert_eq!(back.body["total"], 11800);
        assert_eq!(back.body["products"].as_array().unwrap().len(), 2, "{}", back.text);
        assert_eq!((back.body["products"][1]["nameEn"].as_str(), back.body["products"][1]["quantity"].as_i64()), (Some("Mineral water"), Some(1)));
        example(&app, "giftOrder", "GiftOrderResponse", &back);
        // The voucher still carries its own value; the snacks are printed on it.
        let r = app.call_as(&who, "GET", &format!("/api/payment/voucher?reference={reference}&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
        assert_eq!(r.body["payment"]["balance"], 5000, "{}", r.text);
        let english = pdf_text(&body_bytes(&app, &who, &format!("/api/gift-orders/{order}/vouchers.pdf?lang=en")).await);
        assert!(english.contains("Large popcorn") && english.contains("Mineral water"), "{english}");
        // And in the confirmation mail, with the voucher that collects them.
        let mail = app.get(&format!("/api/test/outbox/mail?to={EMAIL}")).await;
        let text = mail.body["messages"][0]["text"].as_str().unwrap();
        assert!(text.contains("2 × פופקורן גדול, 1 × מים מינרליים") && text.contains(&format!("עם שובר: {reference}")), "{text}");
    }

    async fn a_logged_in_buyers_vouchers_are_theirs(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let dana = log_in(&app, &buyer(1), "0524318876").await;
        bought_gift_cards(&app, &dana).await;
        let owners = rows(db, "SELECT CAST(customer_id AS TEXT) FROM system_vouchers").await;
        assert_eq!(owners.len(), 3);
        assert!(owners.iter().all(|o| !o.is_empty()), "{owners:?}");
        // The customer area still reads (a voucher order is not a ticket order).
        let r = app.call_as(&dana, "GET", "/api/customer-area/customerAreaData", None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let listed = r.body["customer"]["SystemVouchers"].as_array().unwrap();
        assert_eq!(listed.len(), 3, "{}", r.text);
        assert_eq!(listed[0]["status"], "active");
    }

    async fn the_owner_lists_traces_and_replaces_a_voucher_and_no_one_else_can(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let r = app.call_as(&buyer(5), "GET", "/api/customer-area/system-vouchers", None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
        let dana = log_in(&app, &buyer(1), "0524318876").await;
        let bought = bought_gift_cards(&app, &dana).await;
        let order = bought.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let r = app.call_as(&dana, "GET", "/api/customer-area/system-vouchers", None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let list = r.body["systemVouchers"].as_array().unwrap().clone();
        assert_eq!(list.len(), 3);
        assert!(list.iter().all(|v| v["status"] == "active" && v["reservationIdentifier"] == order.as_str()), "{list:?}");
        example(&app, "myVouchers", "MyVouchersResponse", &r);
        // Another buyer redeems ₪30 of the ₪150 card at the box office... here, online.
        let card = list.iter().find(|v| v["value"] == 15000).unwrap()["reference"].as_str().unwrap().to_owned();
        let other = buyer(3);
        let k = priced_cart_at(&app, &other, 0, None, "he").await;
        let p = &k.presentation;
        let seats: Vec<Value> = k.seats.iter().map(|s| json!({ "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "ticket": { "ticketId": 101 } })).collect();
        let body = json!({ "cart": { "presentations": [{ "presentationId": p["id"], "seats": seats }], "voucherPayments": [{ "reference": card }],
                                     "customerInfo": customer(None) }, "step": "customerInfo", "locale": "he" });
        let r = app.call_as(&other, "POST", "/api/cart", Some(&body.to_string())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let total = r.body["cart"]["total"].as_i64().unwrap();
        let paid_by_card = total.min(15000);
        let r = app.call_as(&other, "GET", &format!("/api/payment/form/he?presentationId={}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]), None).await;
        let id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
        if r.body["paid"] != true {
            pay_card(&app, &other, &id, "4242+4242+4242+4242").await;
        }
        // The owner sees it partly redeemed, and where.
        let r = app.call_as(&dana, "GET", &format!("/api/system-vouchers/{card}/history"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let history = r.body["history"].as_array().unwrap().clone();
        assert_eq!(history.len(), 2, "{history:?}");
        assert_eq!((history[0]["kind"].as_str(), history[0]["amount"].as_i64()), (Some("purchased"), Some(15000)));
        assert_eq!((history[1]["kind"].as_str(), history[1]["amount"].as_i64()), (Some("redeemed"), Some(paid_by_card)));
        assert_eq!(r.body["systemVoucher"]["balance"].as_i64(), Some(15000 - paid_by_card));
        let expected = if paid_by_card == 15000 { "redeemed" } else { "partiallyRedeemed" };
        assert_eq!(r.body["systemVoucher"]["status"], expected);
        example(&app, "systemVoucherHistory", "VoucherHistoryResponse", &r);
        // Strangers learn nothing: not the other buyer who used the code, not a guess.
        for (who, reference) in [(other.as_str(), card.as_str()), (dana.as_str(), "KV-0000-0000-0000-0000")] {
            let r = app.call_as(who, "GET", &format!("/api/system-vouchers/{reference}/history"), None).await;
            assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "SYSTEM_VOUCHER_NOT_FOUND"), "{}", r.text);
        }
        // A replacement: named with its own reservation, once.
        let active = list.iter().find(|v| v["value"] == 10000).unwrap()["reference"].as_str().unwrap().to_owned();
        let replace = |reservation: &str| json!({ "reservationIdentifier": reservation }).to_string();
        let r = app.call_as(&dana, "POST", &format!("/api/system-vouchers/{active}/replacement"), Some(&replace("nope"))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "SYSTEM_VOUCHER_NOT_FOUND"));
        let r = app.call_as(&other, "POST", &format!("/api/system-vouchers/{active}/replacement"), Some(&replace(&order))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "SYSTEM_VOUCHER_NOT_FOUND"), "not the owner");
        let r = app.call_as(&dana, "POST", &format!("/api/system-vouchers/{}/replacement", active.to_lowercase()), Some(&replace(&order))).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let until = app.today.checked_add(jiff::ToSpan::days(90)).unwrap().to_string();
        assert_eq!((r.body["systemVoucher"]["status"].as_str(), r.body["systemVoucher"]["endDate"].as_str()), (Some("replacement"), Some(until.as_str())));
        example(&app, "systemVoucherReplacement", "VoucherActionResponse", &r);
        let r = app.call_as(&dana, "POST", &format!("/api/system-vouchers/{active}/replacement"), Some(&replace(&order))).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "SYSTEM_VOUCHER_ALREADY_FOR_REPLACEMENT"));
        // The replacement still pays, until its new last day.
        let r = app.call_as(&dana, "GET", &format!("/api/payment/voucher?reference={active}&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
        assert_eq!(r.body["payment"]["balance"], 10000, "{}", r.text);
    }

    async fn an_untouched_voucher_is_cancelled_and_refunded_once_a_used_one_only_replaced(db: &TestDb) {
        use kupa_app::orders::OrderStore;
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), "0524318876").await;
        let bought = bought_gift_cards(&app, &who).await;
        let order = bought.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let payment = db.db.order(&order.as_str().into()).await.unwrap().unwrap().payment_id.unwrap();
        let refs: Vec<String> = bought.body["systemVouchers"].as_array().unwrap().iter().map(|v| v["reference"].as_str().unwrap().to_owned()).collect();
        let body = json!({ "reservationIdentifier": order }).to_string();
        let cancel = |reference: String, who: String| {
            let (app, body) = (&app, body.clone());
            async move { app.call_as(&who, "POST", &format!("/api/system-vouchers/{reference}/cancel"), Some(&body)).await }
        };
        // Not the owner's to cancel.
        let r = cancel(refs[0].clone(), buyer(2)).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "SYSTEM_VOUCHER_NOT_FOUND"));
        // Two cancels at once: one refund.
        let (a, b) = tokio::join!(cancel(refs[0].clone(), who.clone()), cancel(refs[0].clone(), who.clone()));
        let ok = [&a, &b].iter().filter(|r| r.status == StatusCode::OK).count();
        assert_eq!(ok, 1, "{} / {}", a.text, b.text);
        let done = if a.status == StatusCode::OK { &a } else { &b };
        let lost = if a.status == StatusCode::OK { &b } else { &a };
        assert_eq!((lost.status, code(lost)), (StatusCode::CONFLICT, "SYSTEM_VOUCHER_NOT_ACTIVE"));
        assert_eq!((done.body["refund"].as_i64(), done.body["refundPending"].as_bool()), (Some(10000), Some(false)), "{}", done.text);
        assert_eq!(done.body["systemVoucher"]["status"], "cancelled");
        assert_eq!((app.gateway.refund_count(&payment), app.gateway.refunded(&payment)), (1, 10000));
        example(&app, "systemVoucherCancel", "VoucherCancelResponse", done);
        // Its history says so.
        let h = app.call_as(&who, "GET", &format!("/api/system-vouchers/{}/history", refs[0]), None).await;
        let kinds: Vec<&str> = h.body["history"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, vec!["purchased", "cancelled"], "{}", h.text);
        // A cancelled voucher pays for nothing.
        let r = app.call_as(&buyer(3), "GET", &format!("/api/payment/voucher?reference={}&recaptchaToken={CAPTCHA_TEST_TOKEN}", refs[0]), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "voucherBalance"), "{}", r.text);
        // A partly used one is replaced, not refunded.
        let other = buyer(3);
        let k = priced_cart_at(&app, &other, 0, None, "he").await;
        let p = &k.presentation;
        let seats: Vec<Value> = k.seats.iter().map(|s| json!({ "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "ticket": { "ticketId": 101 } })).collect();
        let cart_body = json!({ "cart": { "presentations": [{ "presentationId": p["id"], "seats": seats }], "voucherPayments": [{ "reference": refs[2] }],
                                          "customerInfo": customer(None) }, "step": "customerInfo", "locale": "he" });
        let r = app.call_as(&other, "POST", "/api/cart", Some(&cart_body.to_string())).await;
        let total = r.body["cart"]["total"].as_i64().unwrap();
        let r = app.call_as(&other, "GET", &format!("/api/payment/form/he?presentationId={}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}", p["id"]), None).await;
        if r.body["paid"] != true {
            pay_card(&app, &other, r.body["paymentIdentifier"].as_str().unwrap(), "4242+4242+4242+4242").await;
        }
        let r = cancel(refs[2].clone(), who.clone()).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "SYSTEM_VOUCHER_NOT_ACTIVE"), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["offer"], "replacement");
        assert_eq!(app.gateway.refund_count(&payment), 1, "nothing more given back");
        // The second untouched card is cancelled too; the payment never gets back more than it paid.
        let r = cancel(refs[1].clone(), who.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(app.gateway.refunded(&payment), 20000);
    }
}
