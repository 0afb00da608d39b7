//! The captcha checked on the server by its provider (decision 0062), through a real protected
//! call (`PUT /api/seats/lock-seat`) against a local fake of the provider's `siteverify`, on
//! SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.
//!
//! The fake follows the providers' public documentation:
//! - https://developers.google.com/recaptcha/docs/verify: `POST /recaptcha/api/siteverify`, form
//!   fields `secret` (required), `response` (required), `remoteip` (optional); JSON answer
//!   `success`, `challenge_ts`, `hostname`, `error-codes`; the error codes
//!   `missing-input-secret`, `invalid-input-secret`, `missing-input-response`,
//!   `invalid-input-response`, `bad-request`, `timeout-or-duplicate` (a token is valid for two
//!   minutes and can be verified once).
//! - https://developers.google.com/recaptcha/docs/v3: v3 answers also carry `score` (1.0 very
//!   likely a person, 0.0 very likely a bot) and `action` (the name the page gave
//!   `grecaptcha.execute`), which the server should check against what it expects.
//! - https://developers.cloudflare.com/turnstile/get-started/server-side-validation/: the same
//!   request and answer shape (with `action` and `cdata`), `internal-error` besides.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Request, StatusCode};
use axum::routing::post;
use kupa_api::ApiSettings;
use kupa_providers::captcha::{CaptchaProvider, SiteVerifyConfig};
use kupa_providers::clock::ServerClock;
use kupa_providers::delivery::secret::Secret;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

use crate::common::*;

const SECRET: &str = "6LcKupaTestSecret-0123456789";
const SITE_KEY: &str = "6LcKupaTestSiteKey-0123456789";
const BUYER_IP: &str = "203.0.113.7";

/// A token the fake's widget handed a page: its score (v3) and action, and whether it was used.
struct Issued {
    score: Option<f64>,
    action: Option<&'static str>,
    used: bool,
}

#[derive(Default)]
struct FakeState {
    issued: Mutex<HashMap<String, Issued>>,
    /// Each request's form fields, in order.
    seen: Mutex<Vec<Vec<(String, String)>>>,
    /// Each answer waits this long (a provider too slow to wait for).
    delay_ms: AtomicU64,
    next: AtomicUsize,
}

struct FakeSiteVerify {
    url: String,
    state: Arc<FakeState>,
}

impl FakeSiteVerify {
    async fn start() -> FakeSiteVerify {
        let state = Arc::new(FakeState::default());
        let app = Router::new()
            .route("/recaptcha/api/siteverify", post(siteverify))
            .with_state(state.clone());
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://{}/recaptcha/api/siteverify",
            listener.local_addr().unwrap()
        );
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        FakeSiteVerify { url, state }
    }

    /// What the widget gives a page: a fresh token for `action` with `score` (None: v2).
    fn issue(&self, score: Option<f64>, action: Option<&'static str>) -> String {
        let n = self.state.next.fetch_add(1, Ordering::SeqCst);
        let token = format!("03AFcWeA{n:04}-fake-token");
        self.state.issued.lock().unwrap().insert(
            token.clone(),
            Issued {
                score,
                action,
                used: false,
            },
        );
        token
    }

    fn seen(&self) -> Vec<Vec<(String, String)>> {
        self.state.seen.lock().unwrap().clone()
    }

    fn config(&self, provider: CaptchaProvider) -> SiteVerifyConfig {
        SiteVerifyConfig {
            provider,
            site_key: SITE_KEY.into(),
            secret: Secret::new(SECRET),
            min_score: 0.5,
            verify_url: self.url.clone(),
            timeout: Duration::from_millis(400),
        }
    }
}

fn form_fields(body: &str) -> Vec<(String, String)> {
    serde_urlencoded::from_str(body).unwrap()
}

fn failure(codes: &[&str]) -> axum::Json<Value> {
    axum::Json(json!({ "success": false, "error-codes": codes }))
}

async fn siteverify(
    State(st): State<Arc<FakeState>>,
    headers: HeaderMap,
    body: String,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let delay = st.delay_ms.load(Ordering::SeqCst);
    if delay > 0 {
        tokio::time::sleep(Duration::from_millis(delay)).await;
    }
    let form_post = headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/x-www-form-urlencoded"));
    if !form_post {
        return failure(&["bad-request"]).into_response();
    }
    let form = form_fields(&body);
    st.seen.lock().unwrap().push(form.clone());
    let field = |k: &str| form.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone());
    match field("secret") {
        None => return failure(&["missing-input-secret"]).into_response(),
        Some(s) if s != SECRET => return failure(&["invalid-input-secret"]).into_response(),
        Some(_) => {}
    }
    let Some(token) = field("response").filter(|t| !t.is_empty()) else {
        return failure(&["missing-input-response"]).into_response();
    };
    let mut issued = st.issued.lock().unwrap();
    let Some(t) = issued.get_mut(&token) else {
        return failure(&["invalid-input-response"]).into_response();
    };
    if t.used {
        return failure(&["timeout-or-duplicate"]).into_response();
    }
    t.used = true;
    let mut answer = json!({
        "success": true,
        "challenge_ts": "2030-06-12T06:00:00Z",
        "hostname": "kupa.example",
    });
    if let Some(score) = t.score {
        answer["score"] = json!(score);
    }
    if let Some(action) = t.action {
        answer["action"] = json!(action);
    }
    axum::Json(answer).into_response()
}

/// Another node of `app`'s database whose captcha is the provider's check at `config`, behind a
/// trusted load balancer (so the buyer's address comes from X-Forwarded-For).
fn guarded(db: &TestDb, app: &TestApp, config: SiteVerifyConfig) -> TestApp {
    let clock = Arc::new(ServerClock::starting_at(kupa_app::ports::Clock::now_ms(
        app.clock.as_ref(),
    )));
    let db_arc = Arc::new(db.db.clone());
    let mut providers = kupa_wiring::Providers::built_in(&db_arc, clock.clone(), true)
        .with_captcha(Some(config))
        .unwrap();
    let gateway = Arc::new(kupa_providers::test_gateway::TestGateway::default());
    providers.gateway = gateway.clone();
    let settings = ApiSettings {
        session_key: kupa_api::session::SessionKey::for_tests(),
        trust_forwarded_for: true,
        ..test_settings()
    };
    let state = kupa_wiring::app_state(db_arc, providers, settings);
    TestApp {
        router: kupa_wiring::site(state.clone()),
        state,
        writes_examples: false,
        clock,
        today: app.today,
        gateway,
        worker: None,
    }
}

/// PUT /api/seats/lock-seat from the buyer's address, with `token`.
async fn lock(app: &TestApp, who: &str, body: &Value, token: &str) -> Reply {
    let body = with(body.clone(), json!({ "recaptchaToken": token }));
    app.send(
        Request::put("/api/seats/lock-seat")
            .header("uuid", who)
            .header("content-type", "application/json")
            .header("x-forwarded-for", BUYER_IP)
            .body(Body::from(body.to_string()))
            .unwrap(),
    )
    .await
}

/// A presentation on sale and two plain seats of it, found through the test-mode node.
async fn two_seats(app: &TestApp) -> (Value, Value) {
    let p = app.on_sale_in(1).await;
    let plan = app.seat_plan(&p).await;
    let seats: Vec<SeatAddress> = plan
        .seats
        .iter()
        .filter(|s| !s.hc && !s.lv && s.sf.is_none())
        .map(|s| s.key())
        .collect();
    (seat_body(&p, seats[10]), seat_body(&p, seats[11]))
}

api_tests! {
async fn a_lock_passes_with_an_accepted_token_and_the_provider_hears_secret_token_and_address(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let guarded = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV3));
    let (seat, _) = two_seats(&app).await;

    let token = fake.issue(Some(0.9), Some("lockSeat"));
    let r = lock(&guarded, &buyer(1), &seat, &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    let mut fields = seen[0].clone();
    fields.sort();
    assert_eq!(
        fields,
        vec![
            ("remoteip".to_owned(), BUYER_IP.to_owned()),
            ("response".to_owned(), token),
            ("secret".to_owned(), SECRET.to_owned()),
        ]
    );
}

async fn a_low_score_is_refused_recaptcha_and_holds_nothing(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let guarded = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV3));
    let (seat, _) = two_seats(&app).await;

    let r = lock(&guarded, &buyer(1), &seat, &fake.issue(Some(0.3), Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(code(&r), "recaptcha");
    // Nothing was held: another buyer with a good token takes the seat.
    let r = lock(&guarded, &buyer(2), &seat, &fake.issue(Some(0.7), Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn a_token_made_for_another_action_is_refused_recaptcha(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let guarded = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV3));
    let (seat, _) = two_seats(&app).await;

    let r = lock(&guarded, &buyer(1), &seat, &fake.issue(Some(0.9), Some("login"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(code(&r), "recaptcha");
    // A token the provider never issued.
    let r = lock(&guarded, &buyer(1), &seat, "forged-token").await;
    assert_eq!(code(&r), "recaptcha");
    // No token at all is refused without asking the provider.
    let asked = fake.seen().len();
    let r = lock(&guarded, &buyer(1), &seat, "").await;
    assert_eq!(code(&r), "recaptcha");
    assert_eq!(fake.seen().len(), asked);
}

async fn a_token_used_twice_is_refused_recaptcha_repeated(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let guarded = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV3));
    let (seat, other) = two_seats(&app).await;

    let token = fake.issue(Some(0.9), Some("lockSeat"));
    let r = lock(&guarded, &buyer(1), &seat, &token).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let r = lock(&guarded, &buyer(1), &other, &token).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(code(&r), "recaptcha_repeated");
    // The second seat was not held: another buyer takes it.
    let r = lock(&guarded, &buyer(2), &other, &fake.issue(Some(0.9), Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn a_provider_that_does_not_answer_refuses_invalid_captcha_and_the_buyer_may_retry(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let guarded_app = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV3));
    let (seat, _) = two_seats(&app).await;

    // Too slow: the check gives up after its timeout, and the seat is not held.
    fake.state.delay_ms.store(2_000, Ordering::SeqCst);
    let r = lock(&guarded_app, &buyer(1), &seat, &fake.issue(Some(0.9), Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text);
    assert_eq!(code(&r), "invalid_captcha");
    // Unreachable: nothing listens at the address.
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}/recaptcha/api/siteverify", l.local_addr().unwrap())
    };
    let unreachable = guarded(db, &app, SiteVerifyConfig {
        verify_url: closed,
        ..fake.config(CaptchaProvider::RecaptchaV3)
    });
    let r = lock(&unreachable, &buyer(1), &seat, &fake.issue(Some(0.9), Some("lockSeat"))).await;
    assert_eq!(code(&r), "invalid_captcha");
    // A server whose secret the provider refuses never passes a token either.
    fake.state.delay_ms.store(0, Ordering::SeqCst);
    let wrong_secret = guarded(db, &app, SiteVerifyConfig {
        secret: Secret::new("not-the-secret"),
        ..fake.config(CaptchaProvider::RecaptchaV3)
    });
    let r = lock(&wrong_secret, &buyer(1), &seat, &fake.issue(Some(0.9), Some("lockSeat"))).await;
    assert_eq!(code(&r), "invalid_captcha");
    // The provider is back: the buyer's next try, with a fresh token, holds the seat.
    let r = lock(&guarded_app, &buyer(1), &seat, &fake.issue(Some(0.9), Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn recaptcha_v2_and_turnstile_go_through_the_same_check(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let fake = FakeSiteVerify::start().await;
    let (seat, other) = two_seats(&app).await;

    // v2 answers carry no score and no action.
    let v2 = guarded(db, &app, fake.config(CaptchaProvider::RecaptchaV2));
    let r = lock(&v2, &buyer(1), &seat, &fake.issue(None, None)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // Turnstile: no score, but the action is checked.
    let turnstile = guarded(db, &app, fake.config(CaptchaProvider::Turnstile));
    let r = lock(&turnstile, &buyer(2), &other, &fake.issue(None, Some("payment"))).await;
    assert_eq!(code(&r), "recaptcha");
    let r = lock(&turnstile, &buyer(2), &other, &fake.issue(None, Some("lockSeat"))).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn the_site_config_names_the_provider_and_its_public_key_only(db: &TestDb) {
    let settings = ApiSettings {
        test_mode: false,
        captcha_site: Some(kupa_api::state::CaptchaSite {
            mode: "recaptcha-v3",
            site_key: SITE_KEY.into(),
        }),
        ..test_settings()
    };
    let app = TestApp::new(db, settings).await;
    let r = app.get("/api/config").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(
        r.body["captcha"],
        json!({ "mode": "recaptcha-v3", "testToken": null, "siteKey": SITE_KEY })
    );
    assert!(!r.text.contains(SECRET));
    // The pages may load the provider's script and frames, and nothing else is opened up.
    let csp = r.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/;"), "{csp}");
    assert!(csp.contains("connect-src 'self';"), "{csp}");
    // Test mode keeps its test token and names no provider.
    let r = app.another_node(db, test_settings()).await.get("/api/config").await;
    assert_eq!(
        r.body["captcha"],
        json!({ "mode": "test", "testToken": "kupa-test-captcha", "siteKey": null })
    );
    let csp = r.headers["content-security-policy"].to_str().unwrap();
    assert!(csp.contains("script-src 'self';"), "{csp}");
}
}
