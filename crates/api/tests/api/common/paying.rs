//! Paying in the API tests: an order made the real way (seats locked, the cart priced, the
//! payment started), and the test gateway's forms.

use axum::http::StatusCode;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

use super::client::{
    Placed, Presentation, SeatAddress, SeatShort, SeatplanV2, Ticket, TicketGroupsResponse,
};
use super::{Reply, TestApp, buyer};

/// An order ready to pay. Its presentation and seats are the JSON the API answered, as the
/// tests not yet on the typed client read them.
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

/// Two seats at a row end (the `row`th suitable one, of the first presentation on sale in the big
/// hall), held by `who` and priced into a cart with regular tickets (the first with `code`, if
/// any) and the customer's details: ready for GET /payment/form.
pub async fn priced_cart_at(
    app: &TestApp,
    who: &str,
    row: usize,
    code: Option<&str>,
    locale: &str,
) -> Paying {
    let p = big_hall_on_sale(app).await;
    priced_cart_of(app, who, p, row, code, locale, [None, None], json!({})).await
}

/// The first presentation on sale in the big hall (venue 1).
async fn big_hall_on_sale(app: &TestApp) -> Presentation {
    app.presentations()
        .await
        .into_iter()
        .find(|p| p.venue_id == 1 && p.is_on_sale)
        .expect("a presentation on sale in the big hall")
}

/// As `priced_cart_at`, each seat whose `refs` entry is given on a hotel guest ticket naming that
/// room (the ticket-reference prompt's Reference1), the others on regular tickets.
pub async fn priced_cart_with_refs(
    app: &TestApp,
    who: &str,
    row: usize,
    refs: [Option<&str>; 2],
) -> Paying {
    let p = big_hall_on_sale(app).await;
    priced_cart_of(app, who, p, row, None, "he", refs, json!({})).await
}

/// As `priced_cart_at`, on the given presentation of venue 1 (as the API answered it).
pub async fn priced_cart_for(
    app: &TestApp,
    who: &str,
    p: Value,
    row: usize,
    code: Option<&str>,
    locale: &str,
) -> Paying {
    let p: Presentation = serde_json::from_value(p).expect("a presentation");
    priced_cart_of(app, who, p, row, code, locale, [None, None], json!({})).await
}

/// As `priced_cart_for`, with more fields in the cart (`{"miniSiteUrl": "festival"}`).
pub async fn priced_cart_with(
    app: &TestApp,
    who: &str,
    p: Value,
    row: usize,
    extra: Value,
) -> Paying {
    let p: Presentation = serde_json::from_value(p).expect("a presentation");
    priced_cart_of(app, who, p, row, None, "he", [None, None], extra).await
}

#[allow(clippy::too_many_arguments)]
async fn priced_cart_of(
    app: &TestApp,
    who: &str,
    p: Presentation,
    row: usize,
    code: Option<&str>,
    locale: &str,
    refs: [Option<&str>; 2],
    extra: Value,
) -> Paying {
    let plan = app.seat_plan(&p).await;
    let (first, second) = row_end_pair(&plan, row);
    for s in [first, second] {
        app.lock(who, &p, s.key()).await.ok();
    }
    let groups = app.ticket_groups(p.id, None).await.ok();
    let regular = regular_ticket(&groups, Some(first.tg));
    let mut tickets = refs.map(|r| match r {
        None => json!({ "ticketId": regular.id, "amount": regular.price }),
        Some(room) => {
            let guest = groups
                .ticket_groups
                .iter()
                .filter(|g| g.id == first.tg)
                .flat_map(|g| &g.tickets)
                .find(|t| t.name_en == "Hotel guest")
                .expect("a hotel guest ticket");
            json!({ "ticketId": guest.id, "amount": guest.price, "ref1": room })
        }
    });
    if let Some(code) = code {
        let query = format!(
            "sectionId={}&ticketGroupId={}&ticketCode={code}",
            first.si, first.tg
        );
        let t = app.ticket_by_code(p.id, &query).await.ok().ticket;
        tickets[0] = json!({ "ticketId": t.ticket_id, "amount": t.price, "code": code });
    }
    let lines: Vec<Value> = [first, second]
        .iter()
        .zip(&tickets)
        .map(|(s, t)| json!({ "XCoordinate": s.x, "YCoordinate": s.y, "VenueSectionId": s.si, "ticket": t }))
        .collect();
    let mut cart = json!({
        "cart": {
            "presentations": [{ "presentationId": p.id, "seats": lines }],
            "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com", "verifyEmailAddress": "dana@example.com",
                              "mobileNumber": "+972524318876", "acceptedTerms": [1, 2, 3] },
        },
        "step": "customerInfo",
        "locale": locale,
    });
    if let (Some(fields), Some(c)) = (extra.as_object(), cart["cart"].as_object_mut()) {
        c.extend(fields.clone());
    }
    let priced = app.post_cart(who, &cart).await.ok();
    Paying {
        presentation: serde_json::to_value(&p).unwrap(),
        seats: vec![
            serde_json::to_value(first).unwrap(),
            serde_json::to_value(second).unwrap(),
        ],
        total: priced.cart.total,
    }
}

/// The `row`th row end with two plain seats side by side (regular tickets' group, no wheelchair,
/// limited view or sofa) and two more beyond them, so taking the pair leaves no single seat.
pub fn row_end_pair(plan: &SeatplanV2, row: usize) -> (&SeatShort, &SeatShort) {
    let plain = |s: &SeatShort| !s.hc && !s.lv && s.sf.is_none() && s.tg == 1;
    let at = |key: SeatAddress, dx: i64| {
        plan.seats.iter().find(|o| {
            o.key()
                == SeatAddress {
                    x: key.x + dx,
                    ..key
                }
        })
    };
    let first = plan
        .seats
        .iter()
        .filter(|s| plain(s))
        .filter(|s| {
            let k = s.key();
            at(k, -1).is_none()
                && at(k, 1).is_some_and(plain)
                && at(k, 2).is_some()
                && at(k, 3).is_some()
        })
        .nth(row)
        .expect("a row end with two plain seats");
    (first, at(first.key(), 1).unwrap())
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
    let presentation = k.presentation["id"].as_i64().unwrap();
    let query = format!("method={method}&numberOfPayments={installments}&saveCard={save_card}");
    let form = app
        .payment_form(who, locale, presentation, k.total, &query)
        .await
        .ok();
    let id = form.payment_identifier;
    assert_eq!(form.payment_form_url, format!("/pay/{id}?locale={locale}"));
    id
}

/// The (presentation, x, y) of each of an answer's `selections` (the seats an enrolment holds).
pub fn selections_held(r: &Reply) -> Vec<(i64, i64, i64)> {
    r.body["selections"]
        .as_array()
        .unwrap_or_else(|| panic!("no selections in {} {}", r.status, r.text))
        .iter()
        .map(|s| {
            (
                s["presentationId"].as_i64().unwrap(),
                s["x"].as_i64().unwrap(),
                s["y"].as_i64().unwrap(),
            )
        })
        .collect()
}

/// The regular ticket among a presentation's ticket groups (of the group `group` when given).
pub fn regular_ticket(groups: &TicketGroupsResponse, group: Option<i64>) -> &Ticket {
    groups
        .ticket_groups
        .iter()
        .filter(|g| group.is_none_or(|id| g.id == id))
        .flat_map(|g| &g.tickets)
        .find(|t| t.name_en.to_lowercase().contains("regular"))
        .expect("a regular ticket")
}

/// The cart's lines of `k`'s held seats, each on the presentation's regular ticket.
pub async fn regular_lines(app: &TestApp, k: &Paying) -> Vec<Value> {
    let groups = app
        .ticket_groups(k.presentation["id"].as_i64().unwrap(), None)
        .await
        .ok();
    let regular = regular_ticket(&groups, None);
    k.seats
        .iter()
        .map(|s| {
            json!({ "XCoordinate": s["x"], "YCoordinate": s["y"], "VenueSectionId": s["si"],
                    "ticket": { "ticketId": regular.id, "amount": regular.price } })
        })
        .collect()
}

/// What a stranger's seat map says of one of the cart's seats now (`s` of the seat status:
/// `sold`, `heldByOther`, ...).
pub async fn seat_state(app: &TestApp, k: &Paying, s: &Value) -> Value {
    let st = app
        .call_as(
            &buyer(99),
            "GET",
            &format!(
                "/api/seats/seats-statusV2?presentationId={}",
                k.presentation["id"]
            ),
            None,
        )
        .await;
    st.body["seats"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["x"] == s["x"] && x["y"] == s["y"] && x["si"] == s["si"])
        .unwrap()["s"]
        .clone()
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

/// GET /api/presentations/{id}/ticketGroups: the groups the presentation's tickets step lists.
pub async fn listed_ticket_groups(app: &TestApp, id: i64) -> Vec<Value> {
    let r = app
        .get(&format!("/api/presentations/{id}/ticketGroups"))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["ticketGroups"].as_array().unwrap().clone()
}

/// The test gateway's callback signature of `body` with `secret`: HMAC-SHA256, lower-case hex.
pub fn sign_with(secret: &str, body: &str) -> String {
    use hmac::{Hmac, KeyInit, Mac};
    let mut mac = Hmac::<sha2::Sha256>::new_from_slice(secret.as_bytes()).unwrap();
    mac.update(body.as_bytes());
    mac.finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// GET /api/reservations/{id} as `who`: the reservation.
pub async fn reservation_as(app: &TestApp, who: &str, id: &str) -> Value {
    let r = app
        .call_as(who, "GET", &format!("/api/reservations/{id}"), None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["reservation"].clone()
}

/// Runs one statement straight on the database (what no call can do yet).
pub async fn execute(db: &TestDb, sql: &'static str) {
    if db.url.starts_with("sqlite:") {
        let pool = sqlx::SqlitePool::connect(&db.url).await.unwrap();
        sqlx::query(sql).execute(&pool).await.unwrap();
        pool.close().await;
    } else {
        let pool = sqlx::PgPool::connect(&db.url).await.unwrap();
        sqlx::query(sql).execute(&pool).await.unwrap();
        pool.close().await;
    }
}

/// Prices `who`'s cart of vouchers, donations or memberships (`cart` is the cart object).
pub async fn cart(app: &TestApp, who: &str, cart: Value) -> Reply {
    let body = json!({ "cart": cart, "step": "customerInfo", "locale": "he" });
    app.call_as(who, "POST", "/api/cart", Some(&body.to_string()))
        .await
}

/// Starts paying `who`'s cart of `order_type` (vouchers, donations, memberships).
pub async fn pay_form(app: &TestApp, who: &str, order_type: &str, total: i64) -> Reply {
    app.call_as(
        who,
        "GET",
        &format!("/api/payment/form/he?orderType={order_type}&total={total}&recaptchaToken={CAPTCHA_TEST_TOKEN}"),
        None,
    )
    .await
}

/// Pays the payment on the test gateway's card page with `card`.
pub async fn pay_card(app: &TestApp, who: &str, payment: &str, card: &str) -> Reply {
    app.form_as(
        who,
        "POST",
        &format!("/pay/{payment}/card"),
        Some(&card_form(card, &good_expiry(app), "123")),
    )
    .await
}

/// An order paid by card and committed: its priced cart, payment and reservation.
pub struct PaidCart {
    pub k: Paying,
    pub payment: String,
    pub reservation: String,
    pub reservation_number: String,
}

/// Pays the priced cart `k` with the approved test Visa and commits it.
pub async fn pay_by_card(app: &TestApp, who: &str, k: Paying) -> PaidCart {
    let payment = start_payment_with(app, who, &k, "card", "he", 1, false).await;
    let r = app
        .form_as(
            who,
            "POST",
            &format!("/pay/{payment}/card"),
            Some(&card_form("4242+4242+4242+4242", &good_expiry(app), "987")),
        )
        .await;
    assert_eq!(r.status, axum::http::StatusCode::SEE_OTHER, "{}", r.text);
    let committed = app
        .commit(who, k.presentation["id"].as_i64().unwrap())
        .await
        .ok();
    PaidCart {
        k,
        payment,
        reservation: committed.reservation_identifier,
        reservation_number: committed.reservation_number,
    }
}
