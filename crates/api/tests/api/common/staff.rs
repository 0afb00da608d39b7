//! Staff in the API tests: users added as `kupa staff add` does, their login and calls with the
//! `kupa_staff` cookie, and orders bought the real way for their figures to count.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::staff::{Role, StaffSignup};
use serde_json::{Value, json};

use super::paying::*;
use super::*;

pub const PASSWORD: &str = "a long staff password";

pub async fn add(
    app: &TestApp,
    email: &str,
    role: Role,
    businesses: &[i64],
    totp: bool,
) -> Option<String> {
    app.state
        .staff
        .add_user(&StaffSignup {
            email: email.into(),
            first_name: "Test".into(),
            last_name: "Staff".into(),
            role,
            business_ids: businesses.to_vec(),
            password: PASSWORD.into(),
            with_totp: totp,
        })
        .await
        .unwrap()
        .totp_secret
}

pub async fn login_reply(app: &TestApp, body: Value, origin: Option<&str>) -> Reply {
    let mut req = Request::post("/api/staff/login").header("content-type", "application/json");
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    app.send(req.body(Body::from(body.to_string())).unwrap())
        .await
}

/// Logs in; answers the `kupa_staff` cookie's value.
pub async fn staff_login(app: &TestApp, email: &str) -> String {
    let r = login_reply(app, json!({ "email": email, "password": PASSWORD }), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    set_cookie(&r, "kupa_staff")
        .expect("the staff cookie")
        .to_owned()
}

pub async fn staff_call(
    app: &TestApp,
    cookie: &str,
    method: &str,
    uri: &str,
    body: Option<Value>,
    origin: Option<&str>,
) -> Reply {
    let mut req = Request::builder()
        .method(method)
        .uri(uri)
        .header("cookie", format!("kupa_staff={cookie}"));
    if let Some(o) = origin {
        req = req.header("origin", o);
    }
    if body.is_some() {
        req = req.header("content-type", "application/json");
    }
    app.send(
        req.body(Body::from(body.map(|b| b.to_string()).unwrap_or_default()))
            .unwrap(),
    )
    .await
}

pub async fn get(app: &TestApp, cookie: &str, uri: &str) -> Reply {
    staff_call(app, cookie, "GET", uri, None, None).await
}

pub fn ok(r: &Reply) -> &Value {
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    &r.body
}

/// Two seats bought by card on a presentation of the big hall (location 2, business 1); answers
/// the presentation's JSON.
pub async fn buy_two(app: &TestApp, who: &str, row: usize) -> Value {
    buy_with_refs(app, who, row, [None, None]).await.0
}

/// A reservation bought by card and committed: the presentation's JSON and the commit's answer.
pub struct Bought {
    pub presentation: Value,
    pub reservation_id: String,
    pub reservation_number: String,
}

/// Two seats bought by card, each whose `refs` entry is given on a hotel guest ticket naming
/// that room; answers the presentation's JSON and the reservation.
pub async fn buy_with_refs(
    app: &TestApp,
    who: &str,
    row: usize,
    refs: [Option<&str>; 2],
) -> (Value, Bought) {
    let k = priced_cart_with_refs(app, who, row, refs).await;
    let paid = pay_by_card(app, who, k).await;
    let bought = Bought {
        presentation: paid.k.presentation.clone(),
        reservation_id: paid.reservation,
        reservation_number: paid.reservation_number,
    };
    (paid.k.presentation, bought)
}

pub fn date_of(p: &Value) -> String {
    let at: jiff::Timestamp = p["dateTime"].as_str().unwrap().parse().unwrap();
    kupa_app::staff::live::business_date(at.as_millisecond()).to_string()
}
