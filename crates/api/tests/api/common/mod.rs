//! The test harness of the API tests: the real router on a fresh database with the demo chain,
//! requests through `oneshot`, and a macro that runs each check on SQLite and PostgreSQL.
//!
//! Every app's clock starts at the same instant ([`START`]) and the demo chain is laid out around
//! that day, so a test finds the same screenings on sale whatever the hour it runs at.
#![allow(dead_code)] // each test file uses a different part

pub mod client;
pub mod logs;
pub mod paying;
pub mod picked;
pub mod sse;
pub mod staff;

#[allow(unused_imports)] // each test file uses a different part
pub use client::*;

use std::sync::Arc;

use axum::Router;
use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use http_body_util::BodyExt;
use kupa_api::{ApiSettings, AppState};
use kupa_app::catalogue_file;
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_app::ports::{CatalogueStore, Clock};
use kupa_providers::clock::ServerClock;
use kupa_store::Db;
use kupa_store::testing::TestDb;
use kupa_wiring::{ProviderRoutes, Providers};
use serde_json::{Value, json};
use tower::ServiceExt;

pub const DEMO: &str = include_str!("../../../../../demo/chain.json");

/// Where every test app's clock starts, in Jerusalem: a Wednesday morning, an hour from the
/// nearest screening (10:30) and from the day's sale openings and on-demand releases (10:00), far
/// from a change of summer time. In the future, so calls that still take the system clock's now
/// (orders.rs finalises at it) fall inside holds made at the test clock's. KUPA_TEST_START
/// (`YYYY-MM-DDTHH:MM`, Jerusalem time) starts the suite elsewhere, e.g. late in the evening.
pub const START: &str = "2030-06-12T09:00";

/// [`START`], or KUPA_TEST_START, in milliseconds since the epoch.
pub fn start_ms() -> i64 {
    let local = std::env::var("KUPA_TEST_START").unwrap_or_else(|_| START.to_owned());
    let at: jiff::civil::DateTime = local
        .parse()
        .unwrap_or_else(|e| panic!("KUPA_TEST_START {local:?}: {e}"));
    at.to_zoned(kupa_domain::time::zone())
        .unwrap()
        .timestamp()
        .as_millisecond()
}

pub struct TestApp {
    pub router: Router,
    /// The use cases behind the router, for what no HTTP call triggers (the sweepers).
    pub state: AppState,
    /// Only one backend writes docs/api-examples, so two runs never write one file at once.
    pub writes_examples: bool,
    pub clock: Arc<ServerClock>,
    pub today: jiff::civil::Date,
    /// The test payment gateway behind this app: its books of refunds, and its failure switch.
    pub gateway: Arc<kupa_providers::test_gateway::TestGateway>,
    /// The outbox worker, when the app was made [`TestApp::with_delivery`].
    pub worker: Option<Arc<kupa_providers::delivery::OutboxWorker>>,
}

/// The built-in providers as they are, with no routes of their own: [`TestApp::node_at`]'s
/// `wire` for every node but a real provider's.
fn built_in(_: &Arc<Db>, providers: Providers) -> (Providers, ProviderRoutes) {
    (providers, ProviderRoutes::default())
}

pub struct Reply {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Value,
    pub text: String,
    /// The body as sent (a file's bytes).
    pub bytes: Vec<u8>,
}

impl TestApp {
    pub async fn new(db: &TestDb, settings: ApiSettings) -> TestApp {
        TestApp::with_sms(db, settings, None).await
    }

    /// The test app with another SMS sender than the outbox (a failing one, say).
    pub async fn with_sms(
        db: &TestDb,
        settings: ApiSettings,
        sms: Option<Arc<dyn kupa_app::ports::SmsSender>>,
    ) -> TestApp {
        let app = TestApp::node(db, settings, sms).await;
        app.load(db, DEMO).await;
        app
    }

    /// A node of `db` whose payments go through a real provider's adapter (at a local fake, in
    /// its test file): `with` adds it to the built-in providers as the binary does
    /// (`Providers::with_payu` ...), `routes` its routes to the site (`ProviderRoutes::payu`
    /// ...); cards the provider does not take go to the test gateway. The chain `catalogue` is
    /// loaded. The adapter is answered too, for what the test asks of it directly.
    pub async fn with_provider<P>(
        db: &TestDb,
        settings: ApiSettings,
        catalogue: &str,
        with: impl FnOnce(Providers, &Arc<Db>) -> Result<(Providers, Option<Arc<P>>), String>,
        routes: impl FnOnce(ProviderRoutes, Option<Arc<P>>) -> ProviderRoutes,
    ) -> (TestApp, Arc<P>) {
        let mut made = None;
        let wire = |db: &Arc<Db>, providers: Providers| {
            let (providers, provider) = with(providers, db).unwrap();
            made.clone_from(&provider);
            (providers, routes(ProviderRoutes::default(), provider))
        };
        let app = TestApp::node_at(db, settings, None, None, start_ms(), wire).await;
        app.load(db, catalogue).await;
        (app, made.expect("the provider is configured"))
    }

    /// Loads the chain `catalogue` (the demo's JSON, or a variant of it) around the app's today.
    async fn load(&self, db: &TestDb, catalogue: &str) {
        let data =
            catalogue_file::expand(catalogue_file::parse(catalogue).unwrap(), self.today).unwrap();
        db.db.load_catalogue(&data).await.unwrap();
    }

    /// Another node on the same database, whose catalogue this one loaded: its own use cases,
    /// clock and seat event hub, as a second `kupa serve` process would have; its clock starts
    /// at this one's now, as two machines' synchronised clocks would.
    pub async fn another_node(&self, db: &TestDb, settings: ApiSettings) -> TestApp {
        TestApp::node_at(db, settings, None, None, self.clock.now_ms(), built_in).await
    }

    async fn node(
        db: &TestDb,
        settings: ApiSettings,
        sms: Option<Arc<dyn kupa_app::ports::SmsSender>>,
    ) -> TestApp {
        TestApp::node_at(db, settings, sms, None, start_ms(), built_in).await
    }

    /// The test app with a real SMS provider and mail server (decision 0057) in place of the
    /// outbox adapters, for the channels `delivery` configures; its outbox worker in `worker`.
    pub async fn with_delivery(
        db: &TestDb,
        settings: ApiSettings,
        delivery: &kupa_providers::delivery::Delivery,
    ) -> TestApp {
        let app = TestApp::node_at(db, settings, None, Some(delivery), start_ms(), built_in).await;
        app.load(db, DEMO).await;
        app
    }

    /// Another node of this one's database with its own worker for `delivery`.
    pub async fn another_delivering_node(
        &self,
        db: &TestDb,
        settings: ApiSettings,
        delivery: &kupa_providers::delivery::Delivery,
    ) -> TestApp {
        TestApp::node_at(
            db,
            settings,
            None,
            Some(delivery),
            self.clock.now_ms(),
            built_in,
        )
        .await
    }

    /// A node of `db`: its clock started at `start_ms`, the built-in providers with the test
    /// gateway taking cards, then `sms`, `delivery` and `wire` in their place where given.
    async fn node_at(
        db: &TestDb,
        settings: ApiSettings,
        sms: Option<Arc<dyn kupa_app::ports::SmsSender>>,
        delivery: Option<&kupa_providers::delivery::Delivery>,
        start_ms: i64,
        wire: impl FnOnce(&Arc<Db>, Providers) -> (Providers, ProviderRoutes),
    ) -> TestApp {
        let clock = Arc::new(ServerClock::starting_at(start_ms));
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(clock.now_ms()));
        let db_arc = Arc::new(db.db.clone());
        let mut providers = Providers::built_in(&db_arc, clock.clone(), settings.test_mode);
        if let Some(sms) = sms {
            providers.sms = sms;
        }
        let gateway = Arc::new(kupa_providers::test_gateway::TestGateway::default());
        providers.gateway = gateway.clone();
        let (providers, worker) = match delivery {
            Some(d) => providers.with_delivery(&db_arc, d),
            None => (providers, None),
        };
        let (providers, routes) = wire(&db_arc, providers);
        // Every test app signs sessions with the one test key, so `buyer(n)` is known to all.
        let settings = ApiSettings {
            session_key: kupa_api::session::SessionKey::for_tests(),
            ..settings
        };
        let state = kupa_wiring::app_state(db_arc, providers, settings);
        TestApp {
            router: kupa_wiring::site_with_routes(state.clone(), routes),
            state,
            writes_examples: db.name == "sqlite",
            clock,
            today,
            gateway,
            worker,
        }
    }

    /// A new buyer as a browser becomes one: the session the server mints on a first call.
    pub async fn new_buyer(&self) -> String {
        let r = self.get("/api/health").await;
        r.headers["uuid"].to_str().unwrap().to_owned()
    }

    pub async fn send(&self, req: Request<Body>) -> Reply {
        let resp = self.router.clone().oneshot(req).await.unwrap();
        let status = resp.status();
        let headers = resp.headers().clone();
        let bytes = resp.into_body().collect().await.unwrap().to_bytes();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let body = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        Reply {
            status,
            headers,
            body,
            text,
            bytes: bytes.to_vec(),
        }
    }

    pub async fn get(&self, uri: &str) -> Reply {
        self.send(Request::get(uri).body(Body::empty()).unwrap())
            .await
    }

    /// The presentation starts at least `hours` after the server's now: tests that move the clock
    /// pick such a presentation, so its sale window cannot close under them whatever the hour.
    pub fn starts_after_hours(&self, p: &Value, hours: i64) -> bool {
        let start: jiff::Timestamp = p["dateTime"].as_str().unwrap().parse().unwrap();
        start.as_millisecond() > self.clock.now_ms() + hours * 3_600_000
    }

    /// A call as the buyer `who` ([`buyer`], or what [`log_in`] gave): the session id in the
    /// `uuid` header, and the login cookie when the buyer logged in.
    pub async fn call_as(&self, who: &str, method: &str, uri: &str, json: Option<&str>) -> Reply {
        let (session, login) = who_parts(who);
        let mut req = Request::builder()
            .method(method)
            .uri(uri)
            .header("uuid", session);
        if let Some(login) = login {
            req = req.header("cookie", format!("kupa_login={login}"));
        }
        if json.is_some() {
            req = req.header("content-type", "application/json");
        }
        self.send(
            req.body(Body::from(json.unwrap_or_default().to_owned()))
                .unwrap(),
        )
        .await
    }

    /// A browser form post (or page load) as the buyer `who`: the session (and login) cookies.
    pub async fn form_as(&self, who: &str, method: &str, uri: &str, form: Option<&str>) -> Reply {
        let (session, login) = who_parts(who);
        let cookie = match login {
            Some(login) => format!("kupa_uuid={session}; kupa_login={login}"),
            None => format!("kupa_uuid={session}"),
        };
        let mut req = Request::builder()
            .method(method)
            .uri(uri)
            .header("cookie", cookie);
        if form.is_some() {
            req = req.header("content-type", "application/x-www-form-urlencoded");
        }
        self.send(
            req.body(Body::from(form.unwrap_or_default().to_owned()))
                .unwrap(),
        )
        .await
    }

    pub async fn post(&self, uri: &str, json: &str) -> Reply {
        self.send(
            Request::post(uri)
                .header("content-type", "application/json")
                .body(Body::from(json.to_owned()))
                .unwrap(),
        )
        .await
    }
}

/// The key the test apps sign reservation links with.
pub const TEST_LINK_KEY: kupa_api::state::LinkKey = kupa_api::state::LinkKey::new([0x4b; 32]);

/// The kids' mini-site's validation key in the test apps.
pub const TEST_MINI_SITE_KEY: &str = "kids-partner-test-key";

pub fn test_settings() -> ApiSettings {
    ApiSettings {
        test_mode: true,
        redirect_allow_list: vec!["partner.example".into()],
        // The limits have their own tests (rate_limits.rs); the others call freely.
        rate_limits: kupa_api::rate_limit::RateLimits::off(),
        hold_limits: kupa_app::booking::HoldLimits::off(),
        // A fixed key, so signed links (and the examples written from them) are the same each run.
        link_key: TEST_LINK_KEY,
        // The kids' mini-site's validation key (its SHA-256 kept, as in production).
        mini_site_keys: vec![kupa_api::MiniSiteKey::of_plain("kids", TEST_MINI_SITE_KEY)],
        ..ApiSettings::default()
    }
}

/// Writes a trimmed copy of a real response to docs/api-examples when KUPA_WRITE_EXAMPLES is set
/// (`make gen-api`); the web suite validates each against the OpenAPI schema it names.
pub fn example(app: &TestApp, operation: &str, schema: &str, reply: &Reply) {
    example_of(app, operation, operation, schema, reply);
}

/// [`example`] in a file of its own (`{name}.json`): a second example of an operation, such as
/// the cart of another order type.
pub fn example_of(app: &TestApp, name: &str, operation: &str, schema: &str, reply: &Reply) {
    if !app.writes_examples || std::env::var("KUPA_WRITE_EXAMPLES").is_err() {
        return;
    }
    fn trim(v: &Value) -> Value {
        match v {
            Value::Array(a) => Value::Array(a.iter().take(2).map(trim).collect()),
            Value::Object(o) => {
                Value::Object(o.iter().map(|(k, v)| (k.clone(), trim(v))).collect())
            }
            other => other.clone(),
        }
    }
    let doc = serde_json::json!({ "operationId": operation, "status": reply.status.as_u16(), "schema": schema, "body": trim(&reply.body) });
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/api-examples");
    std::fs::create_dir_all(&dir).unwrap();
    let file = if reply.status.is_success() {
        format!("{name}.json")
    } else {
        format!("{name}-{}.json", reply.status.as_u16())
    };
    std::fs::write(
        dir.join(file),
        serde_json::to_string_pretty(&doc).unwrap() + "\n",
    )
    .unwrap();
}

pub fn code(r: &Reply) -> &str {
    r.body["error"]["code"]
        .as_str()
        .unwrap_or_else(|| panic!("no error code in {} {}", r.status, r.text))
}

#[macro_export]
macro_rules! api_tests {
    ($(async fn $name:ident($db:ident: &TestDb) $body:block)*) => {
        $(async fn $name($db: &TestDb) $body)*
        mod sqlite {
            $(#[tokio::test]
            async fn $name() {
                let t = kupa_store::testing::TestDb::sqlite().await;
                super::$name(&t).await;
                t.cleanup().await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $name() {
                let Some(url) = kupa_store::testing::postgres_url() else {
                    eprintln!("KUPA_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
                    return;
                };
                let t = kupa_store::testing::TestDb::postgres(&url).await;
                super::$name(&t).await;
                t.cleanup().await;
            })*
        }
    };
}

/// A buyer session id distinct per `n`, signed with the test apps' session key as the server
/// signs the ones it mints (an unsigned id is never adopted; `http.rs` tests that).
pub fn buyer(n: u32) -> String {
    kupa_api::session::SessionKey::for_tests().sign(u128::from(n).to_be_bytes())
}

/// A buyer as the tests carry it: the session id, and `;login` after a login.
pub fn who_parts(who: &str) -> (&str, Option<&str>) {
    match who.split_once(';') {
        Some((session, login)) => (session, Some(login)),
        None => (who, None),
    }
}

/// The value of a cookie the answer sets, if it sets it.
pub fn set_cookie<'a>(reply: &'a Reply, name: &str) -> Option<&'a str> {
    reply
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|c| {
            let (k, rest) = c.split_once('=')?;
            (k == name).then(|| rest.split(';').next().unwrap_or_default())
        })
}

/// The first run of exactly six digits in a text (an SMS code).
pub fn six_digits(s: &str) -> Option<String> {
    let b = s.as_bytes();
    (0..b.len().saturating_sub(5))
        .find(|&i| {
            b[i..i + 6].iter().all(u8::is_ascii_digit)
                && (i == 0 || !b[i - 1].is_ascii_digit())
                && b.get(i + 6).is_none_or(|c| !c.is_ascii_digit())
        })
        .map(|i| s[i..i + 6].to_owned())
}

/// Logs the customer with this mobile in as the buyer `who`, with the code read from the SMS
/// outbox (test mode), and answers the buyer as they go on: the rotated session id and the
/// login cookie (`session;login`).
pub async fn log_in(app: &TestApp, who: &str, mobile: &str) -> String {
    log_in_asking(app, who, mobile, json!({})).await
}

/// [`log_in`], the code asked for with `extra` fields too (e.g. a number no account has, with
/// `sendSmsRegardlessOfCustomerExistence`).
pub async fn log_in_asking(app: &TestApp, who: &str, mobile: &str, extra: Value) -> String {
    let mut body = json!({ "mobileNumber": mobile, "recaptchaToken": CAPTCHA_TEST_TOKEN });
    if let (Some(b), Some(e)) = (body.as_object_mut(), extra.as_object()) {
        b.extend(e.clone());
    }
    let body = body.to_string();
    let r = app
        .call_as(who, "POST", "/api/customer/mobile-login", Some(&body))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let inbox = app.get(&format!("/api/test/outbox/sms?to={mobile}")).await;
    let sms = inbox.body["messages"][0]["body"]
        .as_str()
        .unwrap()
        .to_owned();
    let code = six_digits(&sms).unwrap();
    let body = json!({ "smsCode": code, "mobileNumber": mobile }).to_string();
    let r = app
        .call_as(
            who,
            "POST",
            "/api/customer/mobile-login-validation-area",
            Some(&body),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let session = r.headers["uuid"].to_str().unwrap();
    assert_ne!(
        session,
        who_parts(who).0,
        "the login rotates the buyer session"
    );
    let login = set_cookie(&r, "kupa_login").expect("the login sets its cookie");
    format!("{session};{login}")
}

/// The bytes of a GET's answer (a PDF, a calendar file) as the buyer whose session is `who`.
pub async fn body_bytes(app: &TestApp, who: &str, uri: &str) -> Vec<u8> {
    use tower::ServiceExt;
    let (session, login) = who_parts(who);
    let mut req = Request::get(uri).header("uuid", session);
    if let Some(login) = login {
        req = req.header("cookie", format!("kupa_login={login}"));
    }
    let resp = app
        .router
        .clone()
        .oneshot(req.body(Body::empty()).unwrap())
        .await
        .unwrap();
    resp.into_body()
        .collect()
        .await
        .unwrap()
        .to_bytes()
        .to_vec()
}

/// A PDF's text as poppler extracts it (CI installs poppler-utils; missing, the test fails).
pub fn pdf_text(pdf: &[u8]) -> String {
    static N: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("kupa-test-{}-{n}.pdf", std::process::id()));
    std::fs::write(&path, pdf).unwrap();
    let out = std::process::Command::new("pdftotext")
        .arg(&path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils) must be installed");
    let _ = std::fs::remove_file(&path);
    String::from_utf8_lossy(&out.stdout).into_owned()
}
