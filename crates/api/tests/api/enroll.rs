//! Enrolment in a membership season (issue 15, decision 0040): the season open for enrolment,
//! the member seat held in every presentation at once (all or none, raced), a seat changed in one
//! presentation, the enrolment bought as a ticket order priced by the season (part of it from the
//! series pass), the member enrolled once and refused the second time, and each refusal, on SQLite
//! and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// Dana: 10-film pass 200001 (₪231 left). Noa (customer 5): pass 200002 (₪99). Ronit (customer
/// 7): pass 200003 (₪0).
const DANA: &str = "0524318876";
const NOA: &str = "0533398761";
const RONIT: &str = "0501472583";
/// Dana's ID number (docs/catalogue.md).
const DANA_SSN: &str = "034528711";
/// The demo season: membership 2 (the pass), presentations 901 and 902 required, 903 optional,
/// in the Studio hall (venue 6, plan 6, section 61).
const PASS: i64 = 2;
const SEASON: i64 = 1;

fn seat(x: i64, y: i64, presentation: Option<i64>, member: &str) -> Value {
    json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "memberNumber": member, "venueId": 6, "seatplanId": 6,
            "sectionId": 61, "x": x, "y": y, "ticketGroupId": 10, "seasonId": SEASON,
            "presentationId": presentation, "selections": [] })
}

async fn lock(app: &TestApp, who: &str, body: &Value) -> Reply {
    app.call_as(
        who,
        "PUT",
        &format!("/api/enroll/{PASS}/lock-seat"),
        Some(&body.to_string()),
    )
    .await
}

async fn unlock(app: &TestApp, who: &str, body: &Value) -> Reply {
    app.call_as(
        who,
        "PUT",
        &format!("/api/enroll/{PASS}/unlock-seat"),
        Some(&body.to_string()),
    )
    .await
}

fn customer() -> Value {
    json!({ "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
            "mobileNumber": DANA, "ssn": DANA_SSN, "acceptedTerms": [1, 2, 3] })
}

/// An enrolment cart for `member` over `seats` ((presentation, x, y), one each), ticket 1001.
async fn enrol_cart(
    app: &TestApp,
    who: &str,
    member: &str,
    seats: &[(i64, i64, i64)],
    extra: Value,
) -> Reply {
    let presentations: Vec<Value> = seats
        .iter()
        .map(|(p, x, y)| json!({ "presentationId": p, "seats": [{ "XCoordinate": x, "YCoordinate": y, "VenueSectionId": 61,
                                                                   "ticket": { "ticketId": 1001 } }] }))
        .collect();
    let mut cart = json!({ "enrollment": { "membershipId": PASS, "seasonId": SEASON, "memberNumber": member },
                           "presentations": presentations, "customerInfo": customer() });
    if let (Some(c), Some(e)) = (cart.as_object_mut(), extra.as_object()) {
        c.extend(e.clone());
    }
    let body = json!({ "cart": cart, "step": "customerInfo", "locale": "he" });
    app.call_as(who, "POST", "/api/cart", Some(&body.to_string()))
        .await
}

async fn balance(db: &TestDb, number: &'static str) -> i64 {
    let sql: &'static str = match number {
        "200001" => "SELECT CAST(balance AS TEXT) FROM members WHERE member_number = '200001'",
        _ => "SELECT CAST(balance AS TEXT) FROM members WHERE member_number = '200002'",
    };
    rows(db, sql).await[0].parse().unwrap()
}

api_tests! {
    async fn a_member_enrols_with_a_member_seat_changes_one_and_pays_once(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let who = log_in(&app, &buyer(1), DANA).await;
        // The season, and Dana's pass not enrolled yet.
        let r = app.call_as(&who, "GET", &format!("/api/enroll/{PASS}"), None).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let s = &r.body["enrollMembership"];
        assert_eq!((s["SeasonId"].as_i64(), s["IsSkipMemberSeat"].as_bool(), s["DefaultTicketGroupId"].as_i64()), (Some(1), Some(false), Some(10)));
        let ids: Vec<(i64, bool)> = s["Presentations"].as_array().unwrap().iter()
            .map(|p| (p["PresentationId"].as_i64().unwrap(), p["IsRequired"].as_bool().unwrap())).collect();
        assert_eq!(ids, vec![(901, true), (902, true), (903, false)]);
        assert_eq!(s["PresentationDetail"]["901"]["10"]["1001"], json!({ "IsPriceOverride": true, "Price": 3000, "MembershipPayableAmount": 1500 }));
        assert_eq!(s["PresentationDetail"]["901"]["10"]["1002"], json!({ "IsPriceOverride": false, "Price": 2900, "MembershipPayableAmount": 1500 }));
        assert_eq!(r.body["members"], json!([{ "memberNumber": "200001", "name": "כרטיסייה – 10 סרטים", "nameEn": "10-film pass",
            "balance": 23100, "startDate": r.body["members"][0]["startDate"], "endDate": r.body["members"][0]["endDate"],
            "isAvailable": true, "enrolled": false }]));
        example(&app, "enrollSeason", "EnrollSeasonResponse", &r);

        // The member seat: row 3 seat at x 5, held in all three presentations at once.
        let r = lock(&app, &who, &seat(5, 3, None, "200001")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(selections_held(&r), vec![(901, 5, 3), (902, 5, 3), (903, 5, 3)]);
        example(&app, "enrollLockSeat", "SelectionsResponse", &r);
        // Another buyer's map shows it taken in every presentation, and the member-seat map too.
        let other = log_in(&app, &buyer(2), NOA).await;
        let map = app.call_as(&other, "GET", &format!("/api/enroll/{PASS}/seatplan?seasonId={SEASON}"), None).await;
        assert_eq!(map.status, StatusCode::OK, "{}", map.text);
        let state = |m: &Reply, x: i64, y: i64| m.body["seats"].as_array().unwrap().iter()
            .find(|s| s["x"] == x && s["y"] == y).map(|s| s["isAvailable"].as_bool().unwrap()).unwrap();
        assert!(!state(&map, 5, 3), "held by Dana");
        assert!(state(&map, 6, 3));
        example(&app, "enrollSeatplan", "EnrollSeatplanResponse", &map);
        let status = app.get("/api/seats/seats-statusV2?presentationId=903").await;
        let s903 = status.body["seats"].as_array().unwrap().iter().find(|s| s["x"] == 5 && s["y"] == 3).unwrap().clone();
        assert_eq!(s903["isAvailable"], false, "the same claim table as any seat");

        // A seat taken in one presentation by someone else: the member seat there is refused,
        // nothing is held anywhere, and Dana's first seat stays.
        let lone = app.call_as(&other, "PUT", "/api/seats/lock-seat", Some(&json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN,
            "seat": { "PresentationId": 903, "VenueId": 6, "VenueSeatplanId": 6, "VenueSectionId": 61, "XCoordinate": 7, "YCoordinate": 3 } }).to_string())).await;
        assert_eq!(lone.status, StatusCode::OK, "{}", lone.text);
        let r = lock(&app, &who, &seat(7, 3, None, "200001")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "lock_seat_error"), "{}", r.text);
        let mine = app.call_as(&who, "GET", &format!("/api/enroll/{PASS}/seatplan?seasonId={SEASON}&presentationId=901"), None).await;
        assert_eq!(selections_held(&mine), vec![(901, 5, 3), (902, 5, 3), (903, 5, 3)], "all or none");
        let free_901 = app.get("/api/seats/seats-statusV2?presentationId=901").await;
        assert!(free_901.body["seats"].as_array().unwrap().iter().any(|s| s["x"] == 7 && s["y"] == 3 && s["isAvailable"] == true),
            "the seat taken in 901 on the way was given back");

        // Another seat in 902 only: the old one there gives way.
        let r = lock(&app, &who, &seat(6, 4, Some(902), "200001")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(selections_held(&r), vec![(901, 5, 3), (902, 6, 4), (903, 5, 3)]);
        // The optional one left out: released there.
        let mut body = seat(5, 3, Some(903), "200001");
        body.as_object_mut().unwrap().remove("seasonId");
        let r = unlock(&app, &who, &body).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        assert_eq!(selections_held(&r), vec![(901, 5, 3), (902, 6, 4)]);

        // The enrolment cart: priced by the season, ₪15 money and ₪15 from the pass a ticket.
        let before = balance(db, "200001").await;
        let r = enrol_cart(&app, &who, "200001", &[(901, 5, 3), (902, 6, 4)], json!({})).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let c = &r.body["cart"];
        let charge = c["serviceCharge"].as_i64().unwrap();
        assert_eq!((c["ticketsTotal"].as_i64(), c["memberBalanceTotal"].as_i64()), (Some(3000), Some(3000)), "{}", r.text);
        assert_eq!(c["total"].as_i64(), Some(3000 + charge));
        assert_eq!(c["tickets"][0]["memberBalance"], 1500);
        assert_eq!(c["enrollment"]["memberNumber"], "200001");
        example_of(&app, "postCart-enrollment", "postCart", "CartResponse", &r);
        let total = c["total"].as_i64().unwrap();
        let form = app.call_as(&who, "GET", &format!("/api/payment/form/he?presentationId=901&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}"), None).await;
        assert_eq!(form.status, StatusCode::OK, "{}", form.text);
        let id = form.body["paymentIdentifier"].as_str().unwrap().to_owned();
        pay_card(&app, &who, &id, "4242+4242+4242+4242").await;
        let body = json!({ "cart": { "presentations": [{ "presentationId": 901 }] }, "recaptchaToken": CAPTCHA_TEST_TOKEN });
        let r = app.call_as(&who, "POST", "/api/payment/commit", Some(&body.to_string())).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let order = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
        assert_eq!(balance(db, "200001").await, before - 3000, "the pass paid its part");
        let back = app.call_as(&who, "GET", &format!("/api/reservations/{order}"), None).await;
        assert_eq!(back.status, StatusCode::OK, "{}", back.text);
        let reservation = &back.body["reservation"];
        assert_eq!((reservation["enrollment"]["seasonId"].as_i64(), reservation["memberBalanceSpent"].as_i64()), (Some(1), Some(3000)), "{}", back.text);
        assert_eq!(reservation["presentations"].as_array().unwrap().len(), 2);

        // Enrolled: listed so, and refused a second time, at the season, the lock and the cart.
        let r = app.call_as(&who, "GET", &format!("/api/enroll/{PASS}"), None).await;
        assert_eq!(r.body["members"][0]["enrolled"], true, "{}", r.text);
        let r = app.call_as(&who, "GET", &format!("/api/enroll/{PASS}?memberNumber=200001"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ALREADY_ENROLLED"), "{}", r.text);
        let r = lock(&app, &who, &seat(1, 2, None, "200001")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ALREADY_ENROLLED"), "{}", r.text);
    }

    async fn two_members_racing_for_one_member_seat_one_wins_in_every_presentation(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let dana = log_in(&app, &buyer(1), DANA).await;
        let noa = log_in(&app, &buyer(2), NOA).await;
        for round in 0..3 {
            let x = 2 + round;
            let (for_dana, for_noa) = (seat(x, 6, None, "200001"), seat(x, 6, None, "200002"));
            let (a, b) = tokio::join!(lock(&app, &dana, &for_dana), lock(&app, &noa, &for_noa));
            let won: Vec<&Reply> = [&a, &b].into_iter().filter(|r| r.status == StatusCode::OK).collect();
            assert_eq!(won.len(), 1, "round {round}: {} / {}", a.text, b.text);
            let lost = if a.status == StatusCode::OK { &b } else { &a };
            assert_eq!(code(lost), "lock_seat_error", "{}", lost.text);
            assert_eq!(selections_held(won[0]).iter().filter(|(_, hx, hy)| (*hx, *hy) == (x, 6)).count(), 3, "{}", won[0].text);
            // The loser holds that seat nowhere.
            let loser = if a.status == StatusCode::OK { &noa } else { &dana };
            let r = app.call_as(loser, "GET", &format!("/api/enroll/{PASS}/seatplan?seasonId={SEASON}"), None).await;
            assert!(!selections_held(&r).iter().any(|(_, hx, hy)| (*hx, *hy) == (x, 6)), "{}", r.text);
            // Free again for the next round.
            let winner = if a.status == StatusCode::OK { &dana } else { &noa };
            let mut body = seat(x, 6, None, "200001");
            body.as_object_mut().unwrap().remove("memberNumber");
            let r = unlock(&app, winner, &body).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        }
        let claims = rows(db, "SELECT presentation_id FROM seat_claims WHERE presentation_id IN (901, 902, 903) AND y = 6").await;
        assert!(claims.is_empty(), "{claims:?}");
    }

    async fn every_refusal_of_an_enrolment(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        // Nobody logged in.
        let r = app.call_as(&buyer(3), "GET", &format!("/api/enroll/{PASS}"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"), "{}", r.text);
        let dana = log_in(&app, &buyer(1), DANA).await;
        // A membership with no season open.
        let r = app.call_as(&dana, "GET", "/api/enroll/1", None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
        // Someone else's member.
        let r = app.call_as(&dana, "GET", &format!("/api/enroll/{PASS}?memberNumber=200002"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"), "{}", r.text);
        let r = lock(&app, &dana, &seat(1, 2, None, "200002")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "CUSTOMER_NOT_FOUND"), "{}", r.text);
        // A presentation not of the season.
        let r = lock(&app, &dana, &seat(1, 2, Some(1), "200001")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
        // The cart: a required presentation missing, two seats in one, a ticket not of the season,
        // products with it.
        let r = lock(&app, &dana, &seat(1, 2, None, "200001")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let r = enrol_cart(&app, &dana, "200001", &[(901, 1, 2)], json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
        assert_eq!(r.body["error"]["params"], json!({ "reason": "requiredPresentations", "missing": [902] }));
        let r = enrol_cart(&app, &dana, "200001", &[(901, 1, 2), (902, 1, 2), (903, 1, 2)], json!({ "products": [{ "id": 1, "quantity": 1 }] })).await;
        assert_eq!(r.body["error"]["params"]["reason"], "enrollment", "{}", r.text);
        let parts: Vec<Value> = [901, 902, 903].iter().map(|p| json!({ "presentationId": p, "seats": [
            { "XCoordinate": 1, "YCoordinate": 2, "VenueSectionId": 61, "ticket": { "ticketId": 101 } }] })).collect();
        let body = json!({ "cart": { "enrollment": { "membershipId": PASS, "seasonId": SEASON, "memberNumber": "200001" },
            "presentations": parts }, "locale": "he" });
        let r = app.call_as(&dana, "POST", "/api/cart", Some(&body.to_string())).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "ticketNotFound"), "{}", r.text);
        let r = lock(&app, &dana, &seat(2, 2, Some(901), "200001")).await;
        assert_eq!(selections_held(&r).len(), 3, "still one seat in each: {}", r.text);
        // A pass without the balance the season takes from it.
        let ronit = log_in(&app, &buyer(4), RONIT).await;
        let r = lock(&app, &ronit, &seat(1, 8, None, "200003")).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let r = enrol_cart(&app, &ronit, "200003", &[(901, 1, 8), (902, 1, 8), (903, 1, 8)], json!({})).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "memberNoneAvailable"), "{}", r.text);
        // An expired pass.
        let noa = log_in(&app, &buyer(5), NOA).await;
        execute(db, "UPDATE members SET end_date = '2020-01-01' WHERE member_number = '200002'").await;
        let r = app.call_as(&noa, "GET", &format!("/api/enroll/{PASS}?memberNumber=200002"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "memberExpired"), "{}", r.text);
        // A customer with no mobile number for the tickets.
        execute(db, "UPDATE members SET end_date = '2099-01-01' WHERE member_number = '200002'").await;
        execute(db, "UPDATE customers SET mobile = '' WHERE id = 5").await;
        let r = app.call_as(&noa, "GET", &format!("/api/enroll/{PASS}?memberNumber=200002"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "CUSTOMER_NO_MOBILE"), "{}", r.text);
    }
}
