//! Text messages through a real SMS provider (decision 0057), against a local fake of Twilio's
//! Messages API started on a loopback port, on SQLite and (when KUPA_TEST_POSTGRES_URL is set)
//! PostgreSQL: the outbox worker retries through an outage and sends once, two nodes racing
//! send each message once, a node that dies mid-attempt loses nothing, and a login code is tried
//! once within its request.
//!
//! The fake follows Twilio's public documentation:
//! - https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource
//!   (`POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, form fields `To`, `From`, `Body`;
//!   201 with the Message resource as JSON, its `sid` "SM" and 32 hex digits, `status` "queued")
//! - https://www.twilio.com/docs/usage/requests-to-twilio (HTTP basic auth: the Account SID and
//!   the Auth Token)
//! - https://www.twilio.com/docs/usage/twilios-response (errors as JSON `code`, `message`,
//!   `more_info`, `status`)
//! - https://www.twilio.com/docs/api/errors: 20003 (401, authenticate), 20429 (429, too many
//!   requests), 20500 (500, internal server error), 21211 (400, invalid `To`), 21212 (400,
//!   invalid `From`), 21602 (400, the body is required).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use base64::Engine;
use kupa_app::ports::{
    Clock, DeliveryOutcome, OutboxChannel, OutboxLease, Queueing, Sms, message_kind,
};
use kupa_domain::customer::MobileNumber;
use kupa_providers::delivery::config::DeliverySettings;
use kupa_providers::delivery::{Delivery, LOGIN_CODE_NOT_KEPT, RetryPolicy};
use kupa_store::testing::TestDb;
use serde_json::json;

use crate::common::paying::rows;
use crate::common::*;

const SID: &str = "AC0123456789abcdef0123456789abcdef";
const TOKEN: &str = "fake-auth-token-7f3a";
const SENDER: &str = "Kupa";
const DANA: &str = "0524318876";

/// One message the fake took: To, From, Body.
type Taken = (String, String, String);

#[derive(Default)]
struct FakeState {
    /// The next this many well-formed requests fail as an outage would (429, then 500s).
    failures_left: AtomicUsize,
    requests: AtomicUsize,
    taken: Mutex<Vec<Taken>>,
    /// How long each answer takes, so racing senders overlap.
    delay_ms: u64,
}

struct FakeTwilio {
    url: String,
    state: Arc<FakeState>,
}

impl FakeTwilio {
    async fn start(failures: usize, delay_ms: u64) -> FakeTwilio {
        let state = Arc::new(FakeState {
            failures_left: AtomicUsize::new(failures),
            delay_ms,
            ..FakeState::default()
        });
        let app = Router::new()
            .route(
                "/2010-04-01/Accounts/{sid}/Messages.json",
                post(create_message),
            )
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeTwilio { url, state }
    }

    fn taken(&self) -> Vec<Taken> {
        self.state.taken.lock().unwrap().clone()
    }

    fn requests(&self) -> usize {
        self.state.requests.load(Ordering::SeqCst)
    }

    /// Kupa's delivery settings pointed at this fake, as an operator would set them.
    fn delivery(&self) -> Delivery {
        let url = self.url.clone();
        let lookup = move |name: &str| -> Option<String> {
            match name {
                "KUPA_SMS_PROVIDER" => Some("twilio".into()),
                "KUPA_TWILIO_ACCOUNT_SID" => Some(SID.into()),
                "KUPA_TWILIO_AUTH_TOKEN" => Some(TOKEN.into()),
                "KUPA_SMS_FROM" => Some(SENDER.into()),
                "KUPA_TWILIO_API_URL" => Some(url.clone()),
                _ => None,
            }
        };
        DeliverySettings::from_lookup(&lookup)
            .unwrap()
            .delivery()
            .unwrap()
    }
}

fn twilio_error(status: StatusCode, code: i64, message: &str) -> Response {
    let body = json!({
        "code": code, "message": message,
        "more_info": format!("https://www.twilio.com/docs/errors/{code}"), "status": status.as_u16(),
    });
    (status, axum::Json(body)).into_response()
}

/// application/x-www-form-urlencoded, decoded.
fn form_fields(body: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let bytes = s.replace('+', " ").into_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' && i + 2 < bytes.len() {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap();
                out.push(u8::from_str_radix(hex, 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    }
    body.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (decode(k), decode(v))
        })
        .collect()
}

async fn create_message(
    State(st): State<Arc<FakeState>>,
    Path(sid): Path<String>,
    headers: HeaderMap,
    body: String,
) -> Response {
    st.requests.fetch_add(1, Ordering::SeqCst);
    tokio::time::sleep(std::time::Duration::from_millis(st.delay_ms)).await;
    let expected = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{SID}:{TOKEN}"))
    );
    let authorised = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v == expected);
    if sid != SID || !authorised {
        return twilio_error(StatusCode::UNAUTHORIZED, 20003, "Authenticate");
    }
    let form = form_fields(&body);
    let field = |k: &str| {
        form.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let (to, from, text) = (field("To"), field("From"), field("Body"));
    let e164 = to.len() > 2
        && to.starts_with('+')
        && to[1..].bytes().all(|b| b.is_ascii_digit())
        && to.len() <= 16;
    if !e164 {
        return twilio_error(
            StatusCode::BAD_REQUEST,
            21211,
            "The 'To' number is not a valid phone number.",
        );
    }
    if from != SENDER {
        return twilio_error(
            StatusCode::BAD_REQUEST,
            21212,
            "The 'From' number is not a valid phone number, shortcode, or alphanumeric sender ID.",
        );
    }
    if text.is_empty() {
        return twilio_error(StatusCode::BAD_REQUEST, 21602, "Message body is required.");
    }
    // An outage: first throttled, then Twilio's own errors.
    let left = st.failures_left.load(Ordering::SeqCst);
    if left > 0
        && st
            .failures_left
            .compare_exchange(left, left - 1, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    {
        return if st.requests.load(Ordering::SeqCst) == 1 {
            twilio_error(StatusCode::TOO_MANY_REQUESTS, 20429, "Too Many Requests")
        } else {
            twilio_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                20500,
                "Internal Server Error",
            )
        };
    }
    let mut taken = st.taken.lock().unwrap();
    taken.push((to.clone(), from.clone(), text.clone()));
    let sid = format!("SM{:032x}", taken.len());
    (
        StatusCode::CREATED,
        axum::Json(json!({
            "sid": sid, "account_sid": SID, "to": to, "from": from, "body": text,
            "status": "queued", "num_segments": "1", "direction": "outbound-api",
            "api_version": "2010-04-01", "error_code": null, "error_message": null,
            "uri": format!("/2010-04-01/Accounts/{SID}/Messages/{sid}.json"),
        })),
    )
        .into_response()
}

fn tickets_sms(n: usize) -> Sms {
    Sms {
        to: MobileNumber::parse(DANA).unwrap(),
        kind: message_kind::TICKETS.into(),
        reference: Some(format!("order-{n}")),
        text: format!("Kupa: your tickets, message {n}"),
    }
}

async fn outbox_row(db: &TestDb, id: i64) -> String {
    let sql = format!(
        "SELECT status || '|' || attempts || '|' || COALESCE(last_error, '') || '|' || COALESCE(provider_id, '') || '|' || COALESCE(sent_at, 0) FROM sms_outbox WHERE id = {id}"
    );
    rows(db, Box::leak(sql.into_boxed_str())).await.remove(0) // a test's few queries: leaked
}

api_tests! {
async fn an_sms_is_retried_with_backoff_through_a_provider_outage_and_sent_once(db: &TestDb) {
    let fake = FakeTwilio::start(3, 0).await;
    let app = TestApp::with_delivery(db, test_settings(), &fake.delivery()).await;
    let worker = app.worker.clone().unwrap();
    app.state.sms.send_sms(&tickets_sms(1)).await.unwrap();
    let id: i64 = rows(db, "SELECT CAST(id AS TEXT) FROM sms_outbox").await[0].parse().unwrap();
    // The port only queues: whatever the provider's state, the request is done.
    assert!(outbox_row(db, id).await.starts_with("queued|0|"), "{}", outbox_row(db, id).await);

    let policy = RetryPolicy::default();
    let first = worker.run_once().await.unwrap();
    assert_eq!((first.sent, first.retrying), (0, 1));
    assert_eq!(outbox_row(db, id).await, "queued|1|twilio 429 code 20429||0");
    // Not due yet: a round now asks the provider nothing.
    worker.run_once().await.unwrap();
    assert_eq!(fake.requests(), 1);
    for attempt in 1..=2 {
        app.clock.advance_ms(policy.backoff_ms(attempt));
        let r = worker.run_once().await.unwrap();
        assert_eq!((r.sent, r.retrying), (0, 1), "attempt {}", attempt + 1);
        assert!(outbox_row(db, id).await.starts_with(&format!("queued|{}|twilio 500 code 20500|", attempt + 1)));
    }
    // The test clock also runs in real time: a second of slack either side.
    app.clock.advance_ms(policy.backoff_ms(3) - 1_000);
    worker.run_once().await.unwrap();
    assert_eq!(fake.requests(), 3, "the fourth attempt waits its full backoff (two minutes)");
    app.clock.advance_ms(1_000);
    assert_eq!(worker.run_once().await.unwrap().sent, 1);
    let row = outbox_row(db, id).await;
    let parts: Vec<&str> = row.split('|').collect();
    assert_eq!(&parts[..3], ["sent", "4", ""], "{row}");
    assert!(parts[3].starts_with("SM") && parts[3].len() == 34, "Twilio's sid is kept: {row}");
    let sent_at: i64 = parts[4].parse().unwrap();
    assert!((app.clock.now_ms() - 5_000..=app.clock.now_ms()).contains(&sent_at), "{row}");

    // Much later, nothing is sent again.
    app.clock.advance_ms(24 * 3_600_000);
    assert_eq!(worker.run_once().await.unwrap(), Default::default());
    assert_eq!(fake.taken(), vec![("+972524318876".to_owned(), SENDER.to_owned(), "Kupa: your tickets, message 1".to_owned())]);
    assert_eq!(fake.requests(), 4);
}

async fn two_nodes_racing_send_each_queued_message_exactly_once(db: &TestDb) {
    let fake = FakeTwilio::start(0, 2).await;
    let delivery = fake.delivery();
    let a = TestApp::with_delivery(db, test_settings(), &delivery).await;
    let b = a.another_delivering_node(db, test_settings(), &delivery).await;
    const MESSAGES: usize = 40;
    for n in 0..MESSAGES {
        let node = if n % 2 == 0 { &a } else { &b };
        node.state.sms.send_sms(&tickets_sms(n)).await.unwrap();
    }
    // Four rounds at once on each node: eight claimers asking the database together.
    let (wa, wb) = (a.worker.clone().unwrap(), b.worker.clone().unwrap());
    let rounds: Vec<_> = (0..4)
        .flat_map(|_| [wa.clone(), wb.clone()])
        .map(|w| tokio::spawn(async move { w.run_once().await.unwrap() }))
        .collect();
    let mut sent = Vec::new();
    for r in rounds {
        sent.push(r.await.unwrap().sent);
    }
    assert_eq!(sent.iter().sum::<u64>(), MESSAGES as u64, "{sent:?}");
    assert!(sent.iter().filter(|&&n| n > 0).count() > 1, "several claimers sent, racing: {sent:?}");
    let mut bodies: Vec<String> = fake.taken().into_iter().map(|t| t.2).collect();
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), MESSAGES, "each message once");
    assert_eq!(fake.requests(), MESSAGES, "and no message twice");
    assert_eq!(rows(db, "SELECT status || ':' || attempts FROM sms_outbox GROUP BY status, attempts").await, vec!["sent:1"]);
}

async fn a_message_whose_sender_died_mid_attempt_is_sent_by_another_after_its_lease(db: &TestDb) {
    let fake = FakeTwilio::start(0, 0).await;
    let app = TestApp::with_delivery(db, test_settings(), &fake.delivery()).await;
    app.state.sms.send_sms(&tickets_sms(1)).await.unwrap();
    let policy = RetryPolicy::default();
    // A node claims it and dies before recording anything.
    let now = app.clock.now_ms();
    let dead = OutboxLease { token: "dead-node".into(), now_ms: now, until_ms: now + policy.lease_ms };
    let claimed = app.state.outbox.claim_sms(&dead).await.unwrap().expect("due at once");
    let worker = app.worker.clone().unwrap();
    assert_eq!(worker.run_once().await.unwrap(), Default::default(), "held by its lease");
    app.clock.advance_ms(policy.lease_ms + 1);
    assert_eq!(worker.run_once().await.unwrap().sent, 1);
    assert_eq!(outbox_row(db, claimed.id).await.split('|').take(2).collect::<Vec<_>>(), ["sent", "2"]);
    // The dead node's late word changes nothing.
    let late = DeliveryOutcome::Failed { error: "late".into() };
    assert!(!app.state.outbox.finish_delivery(OutboxChannel::Sms, claimed.id, "dead-node", &late, app.clock.now_ms()).await.unwrap());
    assert!(outbox_row(db, claimed.id).await.starts_with("sent|2||SM"));
    assert_eq!(fake.taken().len(), 1);
}

async fn a_login_code_whose_node_died_mid_attempt_is_given_up_not_sent_later(db: &TestDb) {
    let fake = FakeTwilio::start(0, 0).await;
    let app = TestApp::with_delivery(db, test_settings(), &fake.delivery()).await;
    let policy = RetryPolicy::default();
    let now = app.clock.now_ms();
    let lease = OutboxLease { token: "died".into(), now_ms: now, until_ms: now + policy.lease_ms };
    let code = Sms { kind: message_kind::LOGIN_CODE.into(), text: LOGIN_CODE_NOT_KEPT.into(), ..tickets_sms(1) };
    let id = app.state.outbox.queue_sms(&code, &Queueing { now_ms: now, max_attempts: 1, claimed: Some(lease) }).await.unwrap();
    let worker = app.worker.clone().unwrap();
    assert_eq!(worker.run_once().await.unwrap(), Default::default(), "its request may still be sending it");
    app.clock.advance_ms(policy.lease_ms + 1);
    assert_eq!(worker.run_once().await.unwrap().failed, 1);
    assert_eq!(outbox_row(db, id).await, "failed|1|the sender stopped during the last attempt||0");
    assert_eq!(fake.requests(), 0, "a login code is never sent after its request");
    let counts: Vec<(String, i64)> = app.state.outbox.outbox_counts().await.unwrap().into_iter()
        .map(|c| (format!("{}:{}", c.channel.as_str(), c.status), c.count)).collect();
    assert_eq!(counts, [("sms:failed".to_owned(), 1)]);
}

async fn a_refused_number_is_given_up_at_once_and_the_reason_keeps_no_personal_data(db: &TestDb) {
    let fake = FakeTwilio::start(0, 0).await;
    let app = TestApp::with_delivery(db, test_settings(), &fake.delivery()).await;
    // A row the fake refuses (an empty body is Twilio's 21602), written as the port would.
    let empty = Sms { text: String::new(), ..tickets_sms(1) };
    let id = app.state.outbox.queue_sms(&empty, &Queueing { now_ms: app.clock.now_ms(), max_attempts: 12, claimed: None }).await.unwrap();
    let r = app.worker.clone().unwrap().run_once().await.unwrap();
    assert_eq!((r.sent, r.retrying, r.failed), (0, 0, 1));
    assert_eq!(outbox_row(db, id).await, "failed|1|twilio 400 code 21602||0");
    app.clock.advance_ms(3_600_000);
    app.worker.clone().unwrap().run_once().await.unwrap();
    assert_eq!(fake.requests(), 1);
}

async fn a_login_code_is_tried_once_in_its_request_and_its_text_is_not_kept(db: &TestDb) {
    let fake = FakeTwilio::start(1, 0).await;
    let app = TestApp::with_delivery(db, test_settings(), &fake.delivery()).await;
    let logs = crate::common::logs::Logs::capture();
    let body = json!({ "mobileNumber": DANA, "recaptchaToken": kupa_app::ports::CAPTCHA_TEST_TOKEN, "sendSmsRegardlessOfCustomerExistence": false }).to_string();
    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login", Some(&body)).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "SMS_FAILED"), "{}", r.text);
    assert_eq!(fake.requests(), 1);
    assert_eq!(rows(db, "SELECT status || '|' || attempts || '|' || max_attempts || '|' || body FROM sms_outbox").await,
        vec![format!("failed|1|1|{LOGIN_CODE_NOT_KEPT}")]);
    // The worker never tries it again: the buyer asks for a new code.
    app.clock.advance_ms(3_600_000);
    app.worker.clone().unwrap().run_once().await.unwrap();
    assert_eq!(fake.requests(), 1);

    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login", Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let taken = fake.taken();
    assert_eq!(taken.len(), 1);
    let code_sent = taken[0].2.split(|c: char| !c.is_ascii_digit()).find(|run| run.len() == 6).unwrap_or_default().to_owned();
    assert_eq!(code_sent.len(), 6, "the code went to the provider: {:?}", taken[0].2);
    let kept = rows(db, "SELECT status || '|' || body FROM sms_outbox ORDER BY id").await;
    assert_eq!(kept[1], format!("sent|{LOGIN_CODE_NOT_KEPT}"));
    assert!(kept.iter().all(|k| !k.contains(&code_sent)), "the code is not in the outbox: {kept:?}");
    let r = app.call_as(&buyer(1), "POST", "/api/customer/mobile-login-validation-area", Some(&json!({ "smsCode": code_sent, "mobileNumber": DANA }).to_string())).await;
    assert_eq!(r.status, StatusCode::OK, "the code the provider carried logs in: {}", r.text);
    let text = logs.text();
    assert!(!text.contains(&code_sent) && !text.contains(TOKEN) && !text.contains(DANA), "a code, the token or a whole number in the log: {text}");
}
}

/// Sixteen claimers on four threads empty one queue of 200 messages: each message is claimed by
/// exactly one of them (the lease is one conditional UPDATE; on PostgreSQL `SKIP LOCKED`).
async fn every_queued_message_is_claimed_by_exactly_one_of_many_racing_claimers(db: &TestDb) {
    use kupa_app::ports::OutboxStore;
    const QUEUED: usize = 200;
    for n in 0..QUEUED {
        let q = Queueing {
            now_ms: 0,
            max_attempts: 12,
            claimed: None,
        };
        db.db.queue_sms(&tickets_sms(n), &q).await.unwrap();
    }
    let claimers: Vec<_> = (0..16)
        .map(|c| {
            let store = db.db.clone();
            tokio::spawn(async move {
                let mut mine = Vec::new();
                let lease = OutboxLease {
                    token: format!("claimer-{c}"),
                    now_ms: 1_000,
                    until_ms: 121_000,
                };
                while let Some(m) = store.claim_sms(&lease).await.unwrap() {
                    mine.push(m.id);
                }
                mine
            })
        })
        .collect();
    let mut all = Vec::new();
    let mut busy = 0;
    for c in claimers {
        let mine = c.await.unwrap();
        busy += usize::from(!mine.is_empty());
        all.extend(mine);
    }
    assert!(busy > 1, "the claimers raced");
    let claimed = all.len();
    all.sort();
    all.dedup();
    assert_eq!(
        (claimed, all.len()),
        (QUEUED, QUEUED),
        "every message claimed, none twice"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sqlite_racing_claimers_claim_each_message_once() {
    let t = TestDb::sqlite().await;
    every_queued_message_is_claimed_by_exactly_one_of_many_racing_claimers(&t).await;
    t.cleanup().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn postgres_racing_claimers_claim_each_message_once() {
    let Some(url) = kupa_store::testing::postgres_url() else {
        eprintln!("KUPA_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
        return;
    };
    let t = TestDb::postgres(&url).await;
    every_queued_message_is_claimed_by_exactly_one_of_many_racing_claimers(&t).await;
    t.cleanup().await;
}
