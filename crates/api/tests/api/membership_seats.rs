//! A seated membership (issue 15, decision 0043): its card lists the season's screenings, the
//! member seat is held in every screening at once (all or none, raced) through
//! `/membership/lock-seat`, the cart refuses the membership without it, and the one finalisation
//! sells the seats with the new member, who is then enrolled in the season; on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana (customer 1) and Noa (customer 5) of the demo chain.
const DANA: &str = "0524318876";
const NOA: &str = "0533398761";
/// A valid Israeli ID number (check digit 2).
const SSN: &str = "123456782";
/// The demo's seated membership: "Studio evenings", season 2, screenings 911, 912 and 913 in the
/// Studio hall (venue 6, plan 6, section 61); its one price is 400 (id × 100), ₪240.
const SEATED: i64 = 4;
const PRICE_ID: i64 = 400;
const SCREENINGS: [i64; 3] = [911, 912, 913];

fn seat(x: i64, y: i64) -> Value {
    json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "membershipId": SEATED, "venueId": 6, "seatplanId": 6,
            "sectionId": 61, "x": x, "y": y, "selections": [] })
}

async fn lock(app: &TestApp, who: &str, x: i64, y: i64) -> Reply {
    let body = seat(x, y).to_string();
    app.call_as(who, "PUT", "/api/membership/lock-seat", Some(&body))
        .await
}

async fn unlock(app: &TestApp, who: &str, x: i64, y: i64) -> Reply {
    let body = seat(x, y).to_string();
    app.call_as(who, "PUT", "/api/membership/unlock-seat", Some(&body))
        .await
}

fn everywhere(x: i64, y: i64) -> Vec<(i64, i64, i64)> {
    SCREENINGS.iter().map(|p| (*p, x, y)).collect()
}

async fn seated_cart(app: &TestApp, who: &str) -> Reply {
    let email = "seated@example.com";
    cart(
        app,
        who,
        json!({ "memberships": [{ "MembershipId": SEATED, "prices": [{ "MembershipPriceId": PRICE_ID, "selectedQuantity": 1 }] }],
                "customerInfo": { "firstName": "דנה", "lastName": "כהן", "email": email, "verifyEmailAddress": email,
                                  "mobileNumber": "+972524318876", "ssn": SSN, "acceptedTerms": [1, 2, 3] } }),
    )
    .await
}

/// Whether seat (x, y) of `presentation` is available on the public seat status.
async fn available(app: &TestApp, presentation: i64, x: i64, y: i64) -> bool {
    let r = app
        .get(&format!(
            "/api/seats/seats-statusV2?presentationId={presentation}"
        ))
        .await;
    r.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["x"] == x && s["y"] == y)
        .map(|s| s["isAvailable"] == true)
        .unwrap()
}

api_tests! {
    async fn a_seated_membership_is_bought_with_its_seat_in_every_screening(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        // The card: the season's three screenings.
        let list = app.get("/api/memberships").await;
        let card = list.body["memberships"].as_array().unwrap().iter()
            .find(|m| m["MembershipId"] == SEATED).cloned().unwrap_or_else(|| panic!("{}", list.text));
        assert_eq!(card["seats"]["seasonId"], 2, "{}", list.text);
        let ids: Vec<i64> = card["seats"]["presentations"].as_array().unwrap().iter()
            .map(|p| p["PresentationId"].as_i64().unwrap()).collect();
        assert_eq!(ids, SCREENINGS.to_vec());
        assert!(list.body["memberships"].as_array().unwrap().iter().filter(|m| m["MembershipId"] != SEATED).all(|m| m["seats"].is_null()));

        let who = log_in(&app, &buyer(1), DANA).await;
        let map = app.call_as(&who, "GET", &format!("/api/membership/seatplan?membershipId={SEATED}"), None).await;
        assert_eq!(map.status, StatusCode::OK, "{}", map.text);
        assert_eq!(map.body["seasonId"], 2);
        assert!(map.body["seats"].as_array().unwrap().len() > 10);
        example(&app, "membershipSeatplan", "MembershipSeatplanResponse", &map);

        // The seat, held in the three screenings at once; another seat takes its place.
        let r = lock(&app, &who, 4, 2).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(selections_held(&r), everywhere(4, 2));
        let r = lock(&app, &who, 5, 2).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(selections_held(&r), everywhere(5, 2), "one seat: the first gave way");
        example(&app, "membershipLockSeat", "SelectionsResponse", &r);
        for p in SCREENINGS {
            assert!(available(&app, p, 4, 2).await, "released in {p}");
            assert!(!available(&app, p, 5, 2).await, "held in {p}");
        }

        // The cart sells the seats with the membership, included in its price.
        let r = seated_cart(&app, &who).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let c = &r.body["cart"];
        assert_eq!((c["total"].as_i64(), c["orderType"].as_str()), (Some(24000), Some("memberships")), "{}", r.text);
        let seats: Vec<(i64, String)> = c["seats"].as_array().unwrap().iter()
            .map(|s| (s["presentationId"].as_i64().unwrap(), s["seatName"].as_str().unwrap().to_owned())).collect();
        assert_eq!(seats.len(), 3, "{}", r.text);
        assert_eq!(seats.iter().map(|s| s.0).collect::<Vec<_>>(), SCREENINGS.to_vec());
        assert!(c["tickets"].as_array().unwrap().iter().all(|t| t["price"] == 0 && t["ticketId"] == 1101), "{}", r.text);
        assert!(!c["seats"][0]["featureNameEn"].as_str().unwrap().is_empty());

        // Paid: the member is made, the seats are sold, the member is enrolled in the season.
        let form = pay_form(&app, &who, "memberships", 24000).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.text);
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        let paid = pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        assert_eq!(paid.status, StatusCode::SEE_OTHER, "{}", paid.text);
        let body = json!({ "cart": { "memberships": [{}] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
        let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&body.to_string())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let number = r.body["members"][0]["memberNumber"].as_str().unwrap().to_owned();
        assert_eq!(r.body["seats"].as_array().unwrap().len(), 3, "{}", r.text);
        let order = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
        let sold = rows(db, "SELECT CAST(presentation_id AS TEXT) FROM seat_claims WHERE state = 'sold' AND x = 5 AND y = 2 AND presentation_id IN (911, 912, 913) ORDER BY presentation_id").await;
        assert_eq!(sold, vec!["911", "912", "913"]);
        let back = app.call_as(&who, "GET", &format!("/api/gift-orders/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        assert_eq!(back.body["seats"].as_array().unwrap().len(), 3, "{}", back.text);
        assert_eq!(back.body["members"][0]["memberNumber"], number.as_str());
        // Each seat has its e-document, for the door.
        let key = back.body["seats"][1]["documentKey"].as_str().unwrap().to_owned();
        let doc = app.get(&format!("/api/edocument/{key}")).await;
        assert_eq!(doc.status, StatusCode::OK, "{}", doc.text);
        assert_eq!((doc.body["state"].as_str(), doc.body["presentation"]["id"].as_i64()), (Some("valid"), Some(912)), "{}", doc.text);
        let season = app.call_as(&who, "GET", &format!("/api/enroll/{SEATED}"), None).await;
        assert_eq!(season.status, StatusCode::OK, "{}", season.text);
        let me = season.body["members"].as_array().unwrap().iter().find(|m| m["memberNumber"] == number.as_str()).cloned().unwrap();
        assert_eq!(me["enrolled"], true, "{}", season.text);
        // The mail lists the seats (made by the confirmation worker after the answer).
        app.state.orders.make_confirmations().await.unwrap();
        let mail = rows(db, "SELECT text_body FROM mail_outbox WHERE recipient = 'seated@example.com'").await;
        assert!(mail.iter().any(|m| m.contains(&number) && m.matches("מושב").count() >= 3 && m.contains(&format!("/edocument/{key}"))), "{mail:?}");
    }

    async fn two_buyers_racing_for_one_subscription_seat_one_holds_it_everywhere(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let dana = log_in(&app, &buyer(1), DANA).await;
        let noa = log_in(&app, &buyer(2), NOA).await;
        for round in 0..3 {
            let x = 3 + round;
            let (a, b) = tokio::join!(lock(&app, &dana, x, 7), lock(&app, &noa, x, 7));
            let won: Vec<&Reply> = [&a, &b].into_iter().filter(|r| r.status == StatusCode::OK).collect();
            assert_eq!(won.len(), 1, "round {round}: {} / {}", a.text, b.text);
            let lost = if a.status == StatusCode::OK { &b } else { &a };
            assert_eq!(code(lost), "lock_seat_error", "{}", lost.text);
            assert_eq!(selections_held(won[0]), everywhere(x, 7));
            let loser = if a.status == StatusCode::OK { &noa } else { &dana };
            let r = app.call_as(loser, "GET", &format!("/api/membership/seatplan?membershipId={SEATED}"), None).await;
            assert!(selections_held(&r).is_empty(), "the loser holds nothing: {}", r.text);
            let winner = if a.status == StatusCode::OK { &dana } else { &noa };
            let r = unlock(&app, winner, x, 7).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            assert!(selections_held(&r).is_empty());
        }
        let claims = rows(db, "SELECT CAST(presentation_id AS TEXT) FROM seat_claims WHERE presentation_id IN (911, 912, 913) AND y = 7").await;
        assert!(claims.is_empty(), "{claims:?}");
    }

    async fn every_refusal_of_a_seated_membership(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let nobody = buyer(3);
        let r = app.call_as(&nobody, "GET", &format!("/api/membership/seatplan?membershipId={SEATED}"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
        let r = lock(&app, &nobody, 1, 1).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
        let dana = log_in(&app, &buyer(1), DANA).await;
        // A membership without seats, and one that does not exist.
        for id in [1, 99] {
            let r = app.call_as(&dana, "GET", &format!("/api/membership/seatplan?membershipId={id}"), None).await;
            assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
        }
        // The captcha.
        let mut body = seat(1, 1);
        body["recaptchaToken"] = json!("wrong");
        let r = app.call_as(&dana, "PUT", "/api/membership/lock-seat", Some(&body.to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::BAD_REQUEST, "recaptcha"), "{}", r.text);
        // No seat: the cart names the screenings without one.
        let r = seated_cart(&app, &dana).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        assert_eq!(r.body["error"]["params"], json!({ "reason": "membershipSeats", "membershipId": SEATED, "missing": SCREENINGS }));
        // Taken in one screening by an ordinary buyer: refused, nothing new held, the earlier seat stays.
        let r = lock(&app, &dana, 2, 3).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let other = buyer(4);
        let lone = app.call_as(&other, "PUT", "/api/seats/lock-seat", Some(&json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN,
            "seat": { "PresentationId": 913, "VenueId": 6, "VenueSeatplanId": 6, "VenueSectionId": 61, "XCoordinate": 8, "YCoordinate": 3 } }).to_string())).await;
        assert_eq!(lone.status, StatusCode::OK, "{}", lone.text);
        let r = lock(&app, &dana, 8, 3).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "lock_seat_error"), "{}", r.text);
        let mine = app.call_as(&dana, "GET", &format!("/api/membership/seatplan?membershipId={SEATED}"), None).await;
        assert_eq!(selections_held(&mine), everywhere(2, 3), "all or none");
        assert!(available(&app, 911, 8, 3).await, "the seat taken in 911 on the way was given back");
        // The member-seat map shows 8/3 taken (taken in 913), 2/3 as Dana's.
        let seat_of = |m: &Reply, x: i64, y: i64| m.body["seats"].as_array().unwrap().iter()
            .find(|s| s["x"] == x && s["y"] == y).cloned().unwrap();
        assert_eq!(seat_of(&mine, 8, 3)["isAvailable"], false);
        // A seat not held: unlock refused.
        let r = unlock(&app, &dana, 9, 9).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "unlock_seat_error"), "{}", r.text);
        // A second buyer's seat in one screening of Dana's own: the cart says one seat each.
        let extra = app.call_as(&dana, "PUT", "/api/seats/lock-seat", Some(&json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN,
            "seat": { "PresentationId": 912, "VenueId": 6, "VenueSeatplanId": 6, "VenueSectionId": 61, "XCoordinate": 10, "YCoordinate": 3 } }).to_string())).await;
        assert_eq!(extra.status, StatusCode::OK, "{}", extra.text);
        let r = seated_cart(&app, &dana).await;
        assert_eq!(r.body["error"]["params"]["reason"], "oneSeatPerPresentation", "{}", r.text);
    }
}
