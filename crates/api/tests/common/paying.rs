//! Paying in the API tests: an order made the real way (seats locked, the cart priced, the
//! payment started), and the test gateway's forms.

use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

use super::{Reply, TestApp};

pub struct Paying {
    pub presentation: Value,
    pub seats: Vec<Value>,
    pub total: i64,
}

pub fn lock_body(p: &Value, s: &Value) -> String {
    json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": p["id"], "VenueId": p["venueId"], "VenueSeatplanId": p["seatplanId"],
        "VenueSectionId": s["si"], "TicketGroupId": s["tg"], "XCoordinate": s["x"], "YCoordinate": s["y"] } })
    .to_string()
}

/// Two seats at a row end (the `row`th suitable one, of a presentation a day ahead in the big hall),
/// held by `who` and priced into a cart with regular tickets (the first with `code`, if any) and the
/// customer's details: ready for GET /payment/form.
pub async fn priced_cart_at(
    app: &TestApp,
    who: &str,
    row: usize,
    code: Option<&str>,
    locale: &str,
) -> Paying {
    let list = app.get("/api/presentations/").await;
    let p = list.body["presentations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["venueId"] == 1 && p["isOnSale"] == true)
        .unwrap()
        .clone();
    priced_cart_for(app, who, p, row, code, locale).await
}

/// As `priced_cart_at`, on the given presentation of venue 1.
pub async fn priced_cart_for(
    app: &TestApp,
    who: &str,
    p: Value,
    row: usize,
    code: Option<&str>,
    locale: &str,
) -> Paying {
    let plan = app
        .post(
            &format!(
                "/api/seats/seatplanV2?venueId={}&seatplanId={}",
                p["venueId"], p["seatplanId"]
            ),
            &json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN }).to_string(),
        )
        .await
        .body["seatplan"]
        .clone();
    let seats = plan["seats"].as_array().unwrap();
    let plain =
        |s: &Value| s["hc"] == false && s["lv"] == false && s["sf"].is_null() && s["tg"] == 1;
    let first = seats
        .iter()
        .filter(|s| plain(s))
        .filter(|s| {
            let (si, x, y) = (&s["si"], s["x"].as_i64().unwrap(), &s["y"]);
            let at = |dx: i64| {
                seats
                    .iter()
                    .find(|o| &o["si"] == si && &o["y"] == y && o["x"] == x + dx)
            };
            at(-1).is_none() && at(1).is_some_and(plain) && at(2).is_some() && at(3).is_some()
        })
        .nth(row)
        .unwrap()
        .clone();
    let second = seats
        .iter()
        .find(|o| {
            o["si"] == first["si"]
                && o["y"] == first["y"]
                && o["x"] == first["x"].as_i64().unwrap() + 1
        })
        .unwrap()
        .clone();
    for s in [&first, &second] {
        let r = app
            .call_as(who, "PUT", "/api/seats/lock-seat", Some(&lock_body(&p, s)))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    }
    let groups = app
        .get(&format!("/api/presentations/{}/ticketGroups", p["id"]))
        .await;
    let regular = groups.body["ticketGroups"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["id"] == first["tg"])
        .flat_map(|g| g["tickets"].as_array().unwrap().clone())
        .find(|t| {
            t["nameEn"]
                .as_str()
                .unwrap()
                .to_lowercase()
                .contains("regular")
        })
        .unwrap();
    let mut tickets = [
        json!({ "ticketId": regular["id"], "amount": regular["price"] }),
        json!({ "ticketId": regular["id"], "amount": regular["price"] }),
    ];
    if let Some(code) = code {
        let r = app
            .get(&format!(
                "/api/presentations/{}/ticket?sectionId={}&ticketGroupId={}&ticketCode={code}&recaptchaToken={CAPTCHA_TEST_TOKEN}",
                p["id"], first["si"], first["tg"]
            ))
            .await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text);
        let t = &r.body["ticket"];
        tickets[0] = json!({ "ticketId": t["ticketId"], "amount": t["price"], "code": code });
    }
    let lines: Vec<Value> = [&first, &second]
        .iter()
        .zip(&tickets)
        .map(|(s, t)| json!({ "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"], "ticket": t }))
        .collect();
    let cart = json!({
        "cart": {
            "presentations": [{ "presentationId": p["id"], "seats": lines }],
            "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
                              "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] },
        },
        "step": "customerInfo",
        "locale": locale,
    });
    let r = app
        .call_as(who, "POST", "/api/cart", Some(&cart.to_string()))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    Paying {
        presentation: p,
        seats: vec![first, second],
        total: r.body["cart"]["total"].as_i64().unwrap(),
    }
}

/// Starts a payment of the buyer's priced cart; returns its id.
pub async fn start_payment_with(
    app: &TestApp,
    who: &str,
    k: &Paying,
    method: &str,
    locale: &str,
    installments: i64,
    save_card: bool,
) -> String {
    let r = app
        .call_as(
            who,
            "GET",
            &format!(
                "/api/payment/form/{locale}?presentationId={}&total={}&method={method}&numberOfPayments={installments}&saveCard={save_card}&recaptchaToken={CAPTCHA_TEST_TOKEN}",
                k.presentation["id"], k.total
            ),
            None,
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let id = r.body["paymentIdentifier"].as_str().unwrap().to_owned();
    assert_eq!(
        r.body["paymentFormURL"],
        format!("/pay/{id}?locale={locale}")
    );
    id
}

pub fn location(r: &Reply) -> String {
    r.headers
        .get("location")
        .unwrap_or_else(|| panic!("no Location in {} {}", r.status, r.text))
        .to_str()
        .unwrap()
        .to_owned()
}

/// A card expiry two years ahead, MM/YY.
pub fn good_expiry(app: &TestApp) -> String {
    format!("12/{:02}", (app.today.year() + 2) % 100)
}

pub fn card_form(number: &str, expiry: &str, cvv: &str) -> String {
    format!(
        "cardNumber={number}&expiry={}&cvv={cvv}&holderId=",
        expiry.replace('/', "%2F")
    )
}

pub async fn status(app: &TestApp, who: &str, id: &str) -> Reply {
    app.call_as(who, "GET", &format!("/api/payment/status/{id}"), None)
        .await
}

/// Text read straight from the database: one string per row.
pub async fn rows(db: &TestDb, sql: &'static str) -> Vec<String> {
    if db.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
        let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows.into_iter().map(|r| r.0).collect()
    } else {
        let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
        let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(&pool).await.unwrap();
        pool.close().await;
        rows.into_iter().map(|r| r.0).collect()
    }
}
