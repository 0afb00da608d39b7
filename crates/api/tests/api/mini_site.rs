//! Mini-sites (issue 19 item 1, decision 0050) over HTTP, on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: the mini-site with its own look and only its
//! presentations; every order call limited to what it shows; an order through it is the
//! mini-site's (channel and referralMiniSiteId), through to the reservation.

use crate::common::paying::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// The demo festival: features 1, 5, 11 and 13 at the Jerusalem complex (location 3).
const FESTIVAL_FEATURES: [i64; 4] = [1, 5, 11, 13];

fn shown_by_festival(p: &Value) -> bool {
    p["locationId"] == 3 && FESTIVAL_FEATURES.contains(&p["featureId"].as_i64().unwrap())
}

/// A screening on sale in the festival's big hall (venue 4), and one in Tel Aviv's big hall
/// (venue 1) the festival does not show.
async fn screenings(app: &TestApp) -> (Value, Value) {
    let list = app.get("/api/presentations/").await;
    let all = list.body["presentations"].as_array().unwrap().clone();
    let on_sale_in = |venue: i64, festival: bool| {
        all.iter()
            .find(|p| {
                p["venueId"] == venue && p["isOnSale"] == true && shown_by_festival(p) == festival
            })
            .cloned()
            .unwrap_or_else(|| panic!("a screening on sale in venue {venue}"))
    };
    (on_sale_in(4, true), on_sale_in(1, false))
}

async fn commit_through(app: &TestApp, who: &str, presentation: &Value, site: &str) -> Reply {
    let body = json!({ "cart": { "presentations": [{ "presentationId": presentation["id"] }] },
                       "recaptchaToken": CAPTCHA_TEST_TOKEN, "miniSiteUrl": site });
    app.call_as(who, "POST", "/api/payment/commit", Some(&body.to_string()))
        .await
}

async fn pay_by_card(app: &TestApp, who: &str, k: &Paying) {
    let payment = start_payment_with(app, who, k, "card", "he", 1, false).await;
    let form = card_form("4242+4242+4242+4242", &good_expiry(app), "987");
    let r = app
        .form_as(who, "POST", &format!("/pay/{payment}/card"), Some(&form))
        .await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
}

api_tests! {

async fn a_mini_site_shows_its_look_and_only_its_presentations(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let r = app.get("/api/mini-site/festival").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let site = &r.body["miniSite"];
    assert_eq!((site["id"].as_i64(), site["URL"].as_str()), (Some(1), Some("festival")));
    assert_eq!(site["titleEn"], "Israeli Film Festival – Jerusalem");
    assert_eq!(site["imageUrl"], "/mini-sites/festival.svg");
    assert_eq!(site["colors"]["primary"], "#8a1538");
    assert!(!site["description"].as_str().unwrap().is_empty());
    let list = site["PresentationList"].as_array().unwrap();
    assert!(list.len() >= 4, "the festival's screenings: {}", list.len());
    assert!(list.iter().all(shown_by_festival), "only the festival's features at its complex");
    let starts: Vec<&str> = list.iter().map(|p| p["dateTime"].as_str().unwrap()).collect();
    assert!(starts.windows(2).all(|w| w[0] <= w[1]), "in start order");
    // The same as the presentation list of the mini-site.
    let same = app.get("/api/presentations/?miniSiteUrl=festival").await;
    assert_eq!(same.body["presentations"].as_array().unwrap().len(), list.len());
    example(&app, "miniSite", "MiniSiteResponse", &r);
    // Every feature of the kids' mini-site, anywhere.
    let kids = app.get("/api/mini-site/kids").await;
    assert!(kids.body["miniSite"]["PresentationList"].as_array().unwrap().iter()
        .all(|p| [3, 7, 10, 12].contains(&p["featureId"].as_i64().unwrap())), "{}", kids.text);
    let r = app.get("/api/mini-site/nowhere").await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
}

async fn every_order_call_through_a_mini_site_sees_only_its_screenings(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let (festival, other) = screenings(&app).await;
    let (fid, oid) = (festival["id"].as_i64().unwrap(), other["id"].as_i64().unwrap());
    for (uri, id) in [
        ("/api/presentations/{id}/ticketGroups?miniSiteUrl=festival", 0),
        ("/api/presentations/{id}?miniSiteUrl=festival", 0),
        ("/api/seats/seats-statusV2?presentationId={id}&venueTypeId=1&isReserved=true&miniSiteUrl=festival", 0),
        ("/api/seats/best-available?presentationId={id}&quantity=2&isLock=0&miniSiteUrl=festival", 1),
    ] {
        let call = |p: i64| {
            let mut u = uri.replace("{id}", &p.to_string());
            if id == 1 { u.push_str(&format!("&recaptchaToken={CAPTCHA_TEST_TOKEN}")); }
            u
        };
        let r = app.call_as(&who, "GET", &call(fid), None).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text);
        let r = app.call_as(&who, "GET", &call(oid), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "noEvent"), "{uri}: {}", r.text);
        let r = app.call_as(&who, "GET", &call(fid).replace("festival", "nowhere"), None).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{uri}: {}", r.text);
    }
    // Best available by feature: a feature the festival does not show, another complex.
    let by_feature = |f: i64, extra: &str| format!(
        "/api/seats/best-available?featureId={f}&quantity=2&isLock=0&miniSiteUrl=festival&recaptchaToken={CAPTCHA_TEST_TOKEN}{extra}");
    let r = app.call_as(&who, "GET", &by_feature(festival["featureId"].as_i64().unwrap(), ""), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(r.body["matches"].as_array().unwrap().iter().all(|m| m["presentationId"].as_i64().is_some()));
    let r = app.call_as(&who, "GET", &by_feature(3, ""), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "noEvent"), "{}", r.text);
    let r = app.call_as(&who, "GET", &by_feature(festival["featureId"].as_i64().unwrap(), "&locationId=2"), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "noEvent"), "{}", r.text);
}

async fn an_order_through_a_mini_site_is_the_mini_sites(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let (festival, _) = screenings(&app).await;
    let through = json!({ "miniSiteUrl": "festival", "referralMiniSiteId": 1 });
    let k = priced_cart_with(&app, &who, festival.clone(), 0, through).await;
    pay_by_card(&app, &who, &k).await;
    // The commit names another mini-site: refused, nothing committed; then the right one.
    let r = commit_through(&app, &who, &festival, "kids").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    let r = commit_through(&app, &who, &festival, "festival").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let id = r.body["reservationIdentifier"].as_str().unwrap().to_owned();
    let reservation = app.call_as(&who, "GET", &format!("/api/reservations/{id}"), None).await;
    let res = &reservation.body["reservation"];
    assert_eq!((res["channel"].as_str(), res["referralMiniSiteId"].as_i64()), (Some("miniSite"), Some(1)), "{}", reservation.text);
    let stored = rows(db, "SELECT channel || ':' || CAST(referral_mini_site_id AS TEXT) FROM orders WHERE status = 'paid'").await;
    assert_eq!(stored, vec!["miniSite:1"]);
    // The same screening bought on the web shop is the web's.
    let web = buyer(2);
    let k = priced_cart_with(&app, &web, festival.clone(), 1, json!({})).await;
    pay_by_card(&app, &web, &k).await;
    let done = app.commit(&web, festival["id"].as_i64().unwrap()).await.ok();
    let res = app.reservation(&web, &done.reservation_identifier).await.ok().reservation;
    assert_eq!((res.channel.as_str(), res.referral_mini_site_id), ("web", None));
}

async fn a_cart_through_a_mini_site_is_refused_what_it_does_not_show(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let (festival, other) = screenings(&app).await;
    // Each refusal on a cart that is otherwise good (the seats held, the tickets right).
    let k = priced_cart_with(&app, &buyer(1), festival.clone(), 0, json!({})).await;
    let refusals = [
        (json!({ "miniSiteUrl": "nowhere" }), StatusCode::NOT_FOUND, "notFound"),
        (json!({ "miniSiteUrl": "kids" }), StatusCode::NOT_FOUND, "noEvent"),
        (json!({ "miniSiteUrl": "festival", "referralMiniSiteId": 2 }), StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
        (json!({ "referralMiniSiteId": 1 }), StatusCode::UNPROCESSABLE_ENTITY, "formValidation"),
    ];
    for (extra, status, expected) in refusals {
        let r = cart(&app, &buyer(1), cart_of(&k, &app, extra.clone()).await).await;
        assert_eq!((r.status, code(&r)), (status, expected), "{extra}: {}", r.text);
    }
    // Another complex's screening through the festival.
    let k = priced_cart_with(&app, &buyer(2), other, 0, json!({})).await;
    let r = cart(&app, &buyer(2), cart_of(&k, &app, json!({ "miniSiteUrl": "festival" })).await).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "noEvent"), "{}", r.text);
    // A gift cart is never a mini-site's.
    let r = cart(&app, &buyer(3), json!({ "donations": [{ "id": 1, "donationDetails": [{ "id": 11, "selectedQuantity": 1 }] }], "miniSiteUrl": "festival" })).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
}

}

/// The cart `k` was priced with (its held seats on regular tickets), with `extra` fields.
async fn cart_of(k: &Paying, app: &TestApp, extra: Value) -> Value {
    let id = k.presentation["id"].as_i64().unwrap();
    let seats = regular_lines(app, k).await;
    let mut c = json!({ "presentations": [{ "presentationId": id, "seats": seats }] });
    c.as_object_mut()
        .unwrap()
        .extend(extra.as_object().unwrap().clone());
    c
}
