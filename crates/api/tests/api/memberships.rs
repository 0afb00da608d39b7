//! Memberships sold (issue 15, decision 0037): the list on sale, the membership cart and its
//! refusals, the payment through the test gateway's pages, the members created (or topped up)
//! by the one finalisation and used as a membershipLoyaltyId, on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const EMAIL: &str = "member.buyer@example.com";
/// Customer 1 of the demo (Dana): club member 100001, 10-film pass 200001 (₪231 left).
const DANA: &str = "0524318876";
/// A valid Israeli ID number (check digit 2).
const SSN: &str = "123456782";
const TEST_SECRET: &str = "kupa-test-gateway-secret";

fn customer(ssn: Option<&str>) -> Value {
    let mut c = json!({ "firstName": "דנה", "lastName": "כהן", "email": EMAIL, "verifyEmailAddress": EMAIL,
                        "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] });
    if let Some(ssn) = ssn {
        c["ssn"] = json!(ssn);
    }
    c
}

/// A cart of `memberships` with the buyer's details (and ID number).
async fn membership_cart(app: &TestApp, who: &str, memberships: Value) -> Reply {
    cart(
        app,
        who,
        json!({ "memberships": memberships, "customerInfo": customer(Some(SSN)) }),
    )
    .await
}

async fn commit(app: &TestApp, who: &str) -> Reply {
    let body = json!({ "cart": { "memberships": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

/// Prices `memberships` for `who`, pays `total` by card and commits: the commit's answer and the
/// payment's id.
async fn bought(app: &TestApp, who: &str, memberships: Value, total: i64) -> (Reply, String) {
    let r = membership_cart(app, who, memberships).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["cart"]["total"], total, "{}", r.text);
    let form = pay_form(app, who, "memberships", total).await;
    assert_eq!(form.status, StatusCode::OK, "{}", form.text);
    let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
    let r = pay_card(app, who, &id, "4242+4242+4242+4242").await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    assert!(
        location(&r).starts_with("/memberships?paymentId="),
        "{}",
        location(&r)
    );
    let r = commit(app, who).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    (r, id)
}

async fn members(db: &TestDb) -> usize {
    rows(db, "SELECT member_number FROM members").await.len()
}

async fn balance_of_200001(db: &TestDb) -> i64 {
    rows(
        db,
        "SELECT CAST(balance AS TEXT) FROM members WHERE member_number = '200001'",
    )
    .await[0]
        .parse()
        .unwrap()
}

/// The member cards the customer area lists.
async fn area_members(app: &TestApp, who: &str) -> Vec<Value> {
    let r = app
        .call_as(who, "GET", "/api/customer-area/customerAreaData", None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["customer"]["Members"]
        .as_array()
        .or_else(|| r.body["customer"]["members"].as_array())
        .unwrap_or_else(|| panic!("no members in {}", r.text))
        .clone()
}

fn sign(body: &str) -> String {
    sign_with(TEST_SECRET, body)
}

async fn callback(app: &TestApp, payment: &str) -> Reply {
    use kupa_app::ports::Clock;
    let body = json!({ "timestamp": app.clock.now_ms() / 1000, "paymentId": payment, "status": "authorized",
                       "cardBrand": "visa", "cardLast4": "4242" })
    .to_string();
    let req = Request::post("/api/payment/callback")
        .header("content-type", "application/json")
        .header("x-kupa-signature", sign(&body));
    app.send(req.body(Body::from(body)).unwrap()).await
}

api_tests! {
    async fn the_memberships_on_sale_are_listed_with_their_prices(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let r = app.get("/api/memberships").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["maxQuantityForMembership"], 1);
        let list = r.body["memberships"].as_array().unwrap();
        let ids: Vec<i64> = list.iter().map(|m| m["MembershipId"].as_i64().unwrap()).collect();
        assert_eq!(ids, vec![1, 2, 3, 4], "the seated membership last");
        // The club card's one implicit price.
        assert_eq!(list[0]["prices"], json!([{ "MembershipPriceId": 100, "PriceCode": "CLUB", "Price": 9900, "value": 9900,
            "currency": { "CurrencyId": 1, "CurrencySymbol": "₪", "CurrencyCode": "ILS" }, "references": [] }]));
        assert_eq!((list[0]["validMonths"].as_i64(), list[0]["topUp"].as_bool()), (Some(12), Some(false)));
        // The pass: a series with two prices, their values, topped up.
        assert_eq!(list[1]["MembershipTypeId"], 2);
        assert_eq!(list[1]["topUp"], true);
        assert_eq!((list[1]["prices"][0]["Price"].as_i64(), list[1]["prices"][0]["value"].as_i64()), (Some(33000), Some(35000)));
        assert_eq!((list[1]["prices"][1]["Price"].as_i64(), list[1]["prices"][1]["value"].as_i64()), (Some(17500), Some(17500)));
        // The student card asks for a student card number.
        assert_eq!(list[2]["prices"][0]["references"], json!([{ "key": "reference1", "label": "מספר תעודת סטודנט",
            "labelEn": "Student card number", "pattern": "^[0-9]{5,10}$" }]));
        assert!(!list[2]["terms"]["textEn"].as_str().unwrap().is_empty());
        example(&app, "membershipCatalogue", "MembershipCatalogueResponse", &r);
    }

    async fn a_club_card_bought_makes_a_member_in_the_area_who_gets_member_tickets(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), DANA).await;
        let before = members(db).await;
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 1 }] }])).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let priced = &r.body["cart"];
        assert_eq!((priced["orderType"].as_str(), priced["total"].as_i64(), priced["serviceCharge"].as_i64()), (Some("memberships"), Some(9900), Some(0)));
        let until = app.today.checked_add(jiff::ToSpan::months(12)).unwrap().checked_sub(jiff::ToSpan::days(1)).unwrap().to_string();
        let today = app.today.to_string();
        assert_eq!(priced["memberships"][0]["validFrom"], today.as_str());
        assert_eq!(priced["memberships"][0]["validTo"], until.as_str());
        assert_eq!(priced["memberships"][0]["topUpMemberNumber"], Value::Null);
        assert!(priced["memberships"][0].get("memberNumber").is_none(), "the number comes with the payment");
        example_of(&app, "postCart-memberships", "postCart", "CartResponse", &r);
        let form = pay_form(&app, &who, "memberships", 9900).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.text);
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        let r = commit(&app, &who).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(members(db).await, before + 1, "one member, created by the finalisation");
        let member = r.body["members"][0].clone();
        let number = member["memberNumber"].as_str().unwrap().to_owned();
        assert!(number.len() == 8 && number.chars().all(|c| c.is_ascii_digit()), "{number}");
        assert_eq!((member["membershipId"].as_i64(), member["balance"].as_i64(), member["topUp"].as_bool()), (Some(1), Some(0), Some(false)));
        assert_eq!((member["startDate"].as_str(), member["endDate"].as_str()), (Some(today.as_str()), Some(until.as_str())));
        example_of(&app, "commit-memberships", "commit", "CommitResponse", &r);
        // The confirmation reads back, with the member.
        let order = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        assert_eq!(back.body["orderType"], "memberships");
        assert_eq!(back.body["members"][0]["memberNumber"], number.as_str());
        example_of(&app, "giftOrder-memberships", "giftOrder", "GiftOrderResponse", &back);
        // In the customer area at once, the order's customer's.
        let cards = area_members(&app, &who).await;
        let card = cards.iter().find(|c| c["memberNumber"] == number.as_str()).unwrap_or_else(|| panic!("{cards:?}"));
        assert_eq!((card["isAvailable"].as_bool(), card["topUp"].as_bool()), (Some(true), Some(false)));
        let pass = cards.iter().find(|c| c["memberNumber"] == "200001").unwrap();
        assert_eq!(pass["topUp"], true, "a series that can be topped up says so");
        // The mail names the member number.
        let mail = app.get(&format!("/api/test/outbox/mail?to={EMAIL}")).await;
        let text = mail.body["messages"][0]["text"].as_str().unwrap_or_default();
        assert!(text.contains(&number), "{}", mail.text);
        // The new number is a membershipLoyaltyId: member tickets are listed.
        let k = priced_cart_at(&app, &buyer(9), 0, None, "he").await;
        let groups = app.get(&format!("/api/presentations/{}/ticketGroups?membershipLoyaltyId={number}", k.presentation["id"])).await;
        assert_eq!(groups.status, StatusCode::OK, "{}", groups.text);
        let tickets: Vec<Value> = groups.body["ticketGroups"].as_array().unwrap().iter().flat_map(|g| g["tickets"].as_array().unwrap().clone()).collect();
        assert!(tickets.iter().any(|t| t["memberOnly"] == true), "{}", groups.text);
        // A second commit is refused.
        let again = commit(&app, &who).await;
        assert_eq!((again.status, code(&again)), (StatusCode::CONFLICT, "ORDER_ALREADY_PAID"), "{}", again.text);
    }

    async fn a_series_pass_gets_its_value_as_balance_and_a_top_up_adds_to_it(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), DANA).await;
        let (r, _) = bought(&app, &who, json!([{ "MembershipId": 2, "prices": [{ "MembershipPriceId": 201, "selectedQuantity": 1 }] }]), 33000).await;
        let member = &r.body["members"][0];
        assert_eq!((member["membershipTypeId"].as_i64(), member["balance"].as_i64()), (Some(2), Some(35000)), "{}", r.text);
        // Two top-ups of ₪175 on the pass Dana already has.
        let before = balance_of_200001(db).await;
        let count = members(db).await;
        let top_up = json!([{ "MembershipId": 2, "topups": { "200001": [{ "MembershipPriceId": 202, "selectedQuantity": 2 }] } }]);
        let priced = membership_cart(&app, &who, top_up.clone()).await;
        assert_eq!(priced.status, StatusCode::OK, "{}", priced.text);
        let lines = priced.body["cart"]["memberships"].as_array().unwrap();
        assert_eq!(lines.len(), 2, "one line per unit");
        assert_eq!((lines[0]["topUpMemberNumber"].as_str(), lines[0]["validFrom"].clone()), (Some("200001"), Value::Null));
        let (r, _) = bought(&app, &who, top_up, 35000).await;
        assert_eq!(balance_of_200001(db).await, before + 35000);
        assert_eq!(members(db).await, count, "a top-up makes no member");
        assert_eq!(r.body["members"].as_array().unwrap().len(), 1, "{}", r.text);
        assert_eq!((r.body["members"][0]["memberNumber"].as_str(), r.body["members"][0]["topUp"].as_bool()), (Some("200001"), Some(true)));
        assert_eq!(r.body["members"][0]["balance"].as_i64(), Some(before + 35000));
    }

    async fn a_declined_payment_makes_no_member_and_a_retried_callback_makes_one(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), DANA).await;
        let before = members(db).await;
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 1 }] }])).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let form = pay_form(&app, &who, "memberships", 9900).await;
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, kupa_providers::test_gateway::cards::DECLINED).await;
        let r = commit(&app, &who).await;
        assert_eq!((r.status, code(&r)), (StatusCode::PAYMENT_REQUIRED, "paymentError"), "{}", r.text);
        assert_eq!(members(db).await, before, "nothing created");
        // Paid on a second try; the gateway's callback comes again, twice: still one member.
        let form = pay_form(&app, &who, "memberships", 9900).await;
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        for _ in 0..2 {
            let r = callback(&app, &id).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        assert_eq!(members(db).await, before + 1);
        let r = commit(&app, &who).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(members(db).await, before + 1, "the commit reads the member the callback made");
        assert_eq!(r.body["members"].as_array().unwrap().len(), 1);
    }

    async fn membership_carts_refuse_what_cannot_be_sold(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let refused = |r: &Reply| (r.status, code(r).to_owned());
        let club = json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 1 }] }]);
        // A member is a customer's: log in first, before anything else is looked at.
        let r = membership_cart(&app, &buyer(1), json!([])).await;
        assert_eq!(refused(&r), (StatusCode::UNAUTHORIZED, "loginError".into()), "{}", r.text);
        let who = log_in(&app, &buyer(1), DANA).await;
        let r = membership_cart(&app, &who, json!([])).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "mustSelectMemberships".into()), "{}", r.text);
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 0 }] }])).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "mustSelectMemberships".into()));
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 9, "prices": [{ "MembershipPriceId": 900, "selectedQuantity": 1 }] }])).await;
        assert_eq!(refused(&r), (StatusCode::NOT_FOUND, "notFound".into()), "{}", r.text);
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 201, "selectedQuantity": 1 }] }])).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "priceNotFound".into()));
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "selectedQuantity": 1 }] }])).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "getPrice".into()));
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 2 }] }])).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["max"], 1, "maxQuantityForMembership");
        // The student card's number: required, and digits.
        for answer in [json!(null), json!("12ab5"), json!("123")] {
            let r = membership_cart(&app, &who, json!([{ "MembershipId": 3, "prices": [{ "MembershipPriceId": 301, "selectedQuantity": 1, "reference1": answer }] }])).await;
            assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "validateReferences".into()), "{answer}: {}", r.text);
            assert_eq!(r.body["error"]["params"]["fields"], json!(["reference1"]));
        }
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 3, "prices": [{ "MembershipPriceId": 301, "selectedQuantity": 1, "reference1": "4567890" }] }])).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(r.body["cart"]["memberships"][0]["reference1"], "4567890");
        // Top-ups: only of the buyer's own, unexpired member, of a membership that allows it.
        let top_up = |membership: i64, number: &str, n: i64| json!([{ "MembershipId": membership, "topups": { number: [{ "MembershipPriceId": if membership == 2 { 202 } else { 100 }, "selectedQuantity": n }] } }]);
        let r = membership_cart(&app, &who, top_up(2, "200002", 1)).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "memberNotFound".into()), "another customer's: {}", r.text);
        let r = membership_cart(&app, &who, top_up(2, "100001", 1)).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "memberNotFound".into()), "a club member is no pass: {}", r.text);
        let r = membership_cart(&app, &who, top_up(1, "100001", 1)).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["reason"], "topUp");
        let r = membership_cart(&app, &who, top_up(2, "200001", 11)).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["max"], 10);
        execute(db, "UPDATE members SET end_date = '2000-01-01' WHERE member_number = '200001'").await;
        let r = membership_cart(&app, &who, top_up(2, "200001", 1)).await;
        assert_eq!(refused(&r), (StatusCode::CONFLICT, "memberExpired".into()), "{}", r.text);
        // The total the buyer was shown.
        let r = cart(&app, &who, json!({ "memberships": club, "customerInfo": customer(Some(SSN)), "total": 5000 })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "priceMismatch".into()));
        // One order type per cart, no products.
        let r = cart(&app, &who, json!({ "memberships": club, "donations": [{ "id": 1, "donationDetails": [{ "id": 11, "selectedQuantity": 1 }] }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()));
        let r = cart(&app, &who, json!({ "memberships": club, "products": [{ "id": 3, "quantity": 1 }] })).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()));
        // The payment needs the buyer's ID number.
        let r = cart(&app, &who, json!({ "memberships": club, "customerInfo": customer(None) })).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let r = pay_form(&app, &who, "memberships", 9900).await;
        assert_eq!(refused(&r), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation".into()), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["fields"]["ssn"], "idNumber");
    }

    async fn nothing_on_sale_is_no_memberships(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), DANA).await;
        execute(db, "UPDATE memberships SET doc = REPLACE(doc, '\"onSale\":true', '\"onSale\":false')").await;
        let r = app.get("/api/memberships").await;
        assert_eq!(r.body["memberships"], json!([]), "{}", r.text);
        let r = membership_cart(&app, &who, json!([{ "MembershipId": 1, "prices": [{ "MembershipPriceId": 100, "selectedQuantity": 1 }] }])).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "noMemberships"), "{}", r.text);
        // Its members still see their cards.
        assert!(!area_members(&app, &who).await.is_empty());
    }

    async fn a_student_card_number_is_one_valid_members(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let student = |number: &str| json!([{ "MembershipId": 3, "prices": [{ "MembershipPriceId": 301, "selectedQuantity": 1, "reference1": number }] }]);
        let dana = log_in(&app, &buyer(1), DANA).await;
        let (done, _) = bought(&app, &dana, student("4567890"), 4900).await;
        let number = done.body["members"][0]["memberNumber"].as_str().unwrap().to_owned();
        // Another buyer with the same card number: refused; with another number: priced.
        let noa = log_in(&app, &buyer(2), "0533398761").await;
        let r = membership_cart(&app, &noa, student(" 4567890 ")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "codeAlreadyEntered"), "{}", r.text);
        assert_eq!(r.body["error"]["params"]["fields"], json!(["reference1"]));
        let r = membership_cart(&app, &noa, student("4567891")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        // Once that member has expired, the card number may be a new member's.
        execute(db, "UPDATE members SET end_date = '2000-01-01' WHERE membership_id = 3").await;
        let r = membership_cart(&app, &noa, student("4567890")).await;
        assert_eq!(r.status, StatusCode::OK, "{} ({number} expired)", r.text);
    }
}
