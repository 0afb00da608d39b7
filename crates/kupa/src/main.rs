//! The kupa binary: configuration and start-up only (the parts are put together in `kupa-wiring`).
//! `kupa serve`, `kupa migrate`, `kupa seed`, `kupa catalogue import`, `kupa openapi`, `kupa staff`,
//! `kupa check-config`, `kupa outbox`.

mod background;
mod captcha_config;
mod catalogue_cmd;
mod config;
mod delivery_cmd;
mod staff_cmd;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use kupa_app::catalogue_file;
use kupa_app::ports::{CatalogueStore, Clock};
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

use crate::config::FileConfig;

/// The demo cinema chain (docs/catalogue.md describes the format).
const DEMO_CHAIN: &str = include_str!("../../../demo/chain.json");

#[derive(Parser)]
#[command(name = "kupa", version, about = "Kupa: cinema and event ticketing")]
struct Cli {
    /// A TOML configuration file; flags and environment variables override it.
    #[arg(long, env = "KUPA_CONFIG", global = true)]
    config: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Args, Clone)]
struct DbArgs {
    /// sqlite:path/to/file.db (default sqlite:data/kupa.db) or postgres://user@host/db.
    #[arg(long, env = "KUPA_DATABASE_URL", global = true)]
    database_url: Option<String>,
    /// Connections in the pool.
    #[arg(long, env = "KUPA_MAX_CONNECTIONS", global = true)]
    max_connections: Option<u32>,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API and the web app.
    Serve {
        /// Address to listen on (default 127.0.0.1:8080).
        #[arg(long, env = "KUPA_ADDR")]
        addr: Option<String>,
        #[command(flatten)]
        db: DbArgs,
        /// Load the demo cinema chain if the database has no catalogue yet.
        #[arg(long)]
        demo: bool,
        /// Test mode: accept the captcha test token, let tests move the clock and shorten timers.
        #[arg(long, env = "KUPA_TEST_MODE")]
        test_mode: bool,
        /// Hosts a /http... route may redirect to (comma separated).
        #[arg(long, env = "KUPA_REDIRECT_ALLOW_LIST", value_delimiter = ',')]
        redirect_allow_list: Option<Vec<String>>,
        /// Mini-sites' validation keys (decision 0048), comma separated `url=SHA-256 of the key in
        /// hex`; with --test-mode and none given, the demo festival's key is
        /// `kupa-demo-festival-key`.
        #[arg(long, env = "KUPA_MINI_SITE_KEYS", value_delimiter = ',')]
        mini_site_keys: Option<Vec<String>>,
        /// Enabled interface locales (comma separated; default he,en).
        #[arg(long, env = "KUPA_LOCALES", value_delimiter = ',')]
        locales: Option<Vec<String>>,
        /// Tenant wording: a JSON file of locale → {catalogue key: text} laid over the
        /// interface's words (checked at start; docs/configuration.md).
        #[arg(long, env = "KUPA_WORDING")]
        wording: Option<PathBuf>,
        /// Abuse limits: `off`, or rules like `lock.session=60/1m,sms.address=30/10m` over the
        /// defaults (docs/configuration.md).
        #[arg(long, env = "KUPA_RATE_LIMITS")]
        rate_limits: Option<String>,
        /// Seats held at once per client address and per logged-in customer across sessions, and
        /// the ceiling of one session's holds: `off`, or `address=40,customer=20,ceiling=45m`
        /// over the defaults (docs/configuration.md).
        #[arg(long, env = "KUPA_HOLD_LIMITS")]
        hold_limits: Option<String>,
        /// Take the client's address for the limits from X-Forwarded-For (only behind a load
        /// balancer that sets it).
        #[arg(long, env = "KUPA_TRUST_FORWARDED_FOR")]
        trust_forwarded_for: bool,
        #[command(flatten)]
        http: Box<config::HttpArgs>,
        #[command(flatten)]
        cancellation: config::CancellationArgs,
        /// The captcha provider (its keys in KUPA_CAPTCHA_*), or `off` to run without one
        /// knowingly. Without it (or --demo, --test-mode) serve refuses to start (decisions 0017,
        /// 0062).
        #[arg(long, env = "KUPA_CAPTCHA", value_enum)]
        captcha: Option<config::CaptchaSetting>,
    },
    /// Bring the database schema up to date.
    Migrate {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Load a catalogue into an empty database.
    Seed {
        #[command(flatten)]
        db: DbArgs,
        /// The demo cinema chain.
        #[arg(long, conflicts_with = "catalogue")]
        demo: bool,
        /// A catalogue file (docs/catalogue.md).
        #[arg(long)]
        catalogue: Option<PathBuf>,
    },
    /// The catalogue of a live database (`kupa catalogue import FILE [--dry-run]`).
    Catalogue {
        #[command(flatten)]
        db: DbArgs,
        #[command(subcommand)]
        command: catalogue_cmd::CatalogueCommand,
    },
    /// Print the OpenAPI document.
    Openapi,
    /// The outboxes as a queue: how many text messages and mails are in each status, and the
    /// oldest of each (docs/operations.md, "Text messages and mail").
    Outbox {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Say which real providers (captcha, SMS, mail) the environment configures; with --probe,
    /// whether each answers (a check of a token that cannot pass, a login to the mail server, a
    /// read of the Twilio account: nothing is sent).
    CheckConfig {
        #[arg(long)]
        probe: bool,
    },
    /// Staff users (`kupa staff add`, `disable`, `password`).
    Staff {
        #[command(flatten)]
        db: DbArgs,
        #[command(subcommand)]
        command: staff_cmd::StaffCommand,
    },
}

fn init_logs(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter =
        EnvFilter::try_from_env("KUPA_LOG").unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_target(false);
    if json {
        builder.json().init()
    } else {
        builder.init()
    }
}

async fn open_db(args: &DbArgs, file: &FileConfig) -> anyhow::Result<Db> {
    let url = args
        .database_url
        .clone()
        .or_else(|| file.database_url.clone())
        .unwrap_or_else(|| config::DEFAULT_DATABASE_URL.into());
    let max = args
        .max_connections
        .or(file.max_connections)
        .unwrap_or(config::DEFAULT_MAX_CONNECTIONS);
    let db = Db::connect(&url, max).await.with_context(|| {
        format!(
            "cannot open the database ({})",
            kupa_store::redact_url(&url)
        )
    })?;
    db.migrate().await?;
    tracing::info!(backend = ?db.backend(), url = %kupa_store::redact_url(&url), "database ready");
    Ok(db)
}

fn today_in_jerusalem(clock: &dyn Clock) -> jiff::civil::Date {
    kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(clock.now_ms()))
}

async fn load_catalogue(db: &Db, json: &str, clock: &dyn Clock) -> anyhow::Result<usize> {
    let file = catalogue_file::parse(json)?;
    let data = catalogue_file::expand(file, today_in_jerusalem(clock))?;
    db.load_catalogue(&data).await?;
    Ok(data.presentations.len())
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let file = FileConfig::load(cli.config.as_deref())?;
    let json_logs = std::env::var("KUPA_LOG_FORMAT")
        .ok()
        .or(file.log_format.clone())
        .is_some_and(|f| f == "json");
    match cli.command {
        Command::CheckConfig { probe } => delivery_cmd::check_config(probe, file.captcha).await,
        Command::Outbox { db } => {
            init_logs(json_logs);
            let db = open_db(&db, &file).await?;
            delivery_cmd::outbox_status(&db).await?;
            db.close().await;
            Ok(())
        }
        Command::Openapi => {
            println!("{}", kupa_api::openapi().to_pretty_json()?);
            Ok(())
        }
        Command::Staff { db, command } => {
            init_logs(json_logs);
            let db = open_db(&db, &file).await?;
            match command {
                staff_cmd::StaffCommand::Add(a) => staff_cmd::add(db, a).await,
                staff_cmd::StaffCommand::Disable { email } => staff_cmd::disable(db, &email).await,
                staff_cmd::StaffCommand::Password { email } => {
                    staff_cmd::set_password(db, &email).await
                }
            }
        }
        Command::Catalogue { db, command } => {
            init_logs(json_logs);
            catalogue_cmd::run(open_db(&db, &file).await?, command).await
        }
        Command::Migrate { db } => {
            init_logs(json_logs);
            open_db(&db, &file).await?.close().await;
            Ok(())
        }
        Command::Seed {
            db,
            demo,
            catalogue,
        } => {
            init_logs(json_logs);
            let json = match (demo, catalogue) {
                (true, _) => DEMO_CHAIN.to_owned(),
                (false, Some(path)) => std::fs::read_to_string(&path)
                    .with_context(|| format!("cannot read {}", path.display()))?,
                (false, None) => {
                    anyhow::bail!("say what to load: --demo or --catalogue <file.json>")
                }
            };
            let db = open_db(&db, &file).await?;
            anyhow::ensure!(
                db.is_catalogue_empty().await?,
                "the database already has a catalogue; seed loads into an empty database only"
            );
            let n = load_catalogue(&db, &json, &ServerClock::new()).await?;
            tracing::info!(presentations = n, "catalogue loaded");
            db.close().await;
            Ok(())
        }
        Command::Serve {
            addr,
            db,
            demo,
            test_mode,
            redirect_allow_list,
            mini_site_keys,
            locales,
            wording,
            rate_limits,
            hold_limits,
            trust_forwarded_for,
            http,
            cancellation,
            captcha,
        } => {
            init_logs(json_logs);
            let test_mode = test_mode || file.test_mode.unwrap_or(false);
            let captcha_provider =
                captcha_config::start(captcha.or(file.captcha), demo, test_mode)?;
            let settings = config::api_settings(
                &file.web,
                redirect_allow_list,
                locales,
                wording.as_deref(),
                test_mode,
            )?;
            let settings = kupa_api::ApiSettings {
                gateway_secret: config::gateway_secret(&file)?,
                callback_window_s: config::callback_window(&file)?,
                rate_limits: config::rate_limits(rate_limits.as_deref())?,
                hold_limits: config::hold_limits(hold_limits.as_deref())?,
                cancellation: config::cancellation(&cancellation)?,
                voucher_replacement_days: config::voucher_replacement_days(&cancellation)?,
                cleaning_gap_minutes: config::cleaning_gap_minutes(&cancellation)?,
                loyalty: config::loyalty(&cancellation)?,
                trust_forwarded_for,
                max_body_bytes: http
                    .max_body_bytes
                    .or(file.http.max_body_bytes)
                    .unwrap_or(kupa_api::state::DEFAULT_MAX_BODY_BYTES),
                max_event_streams_per_address: http
                    .max_event_streams_per_address
                    .or(file.http.max_event_streams_per_address)
                    .unwrap_or(kupa_api::state::DEFAULT_MAX_EVENT_STREAMS_PER_ADDRESS),
                ..settings
            };
            let db_pool = db
                .max_connections
                .or(file.max_connections)
                .unwrap_or(config::DEFAULT_MAX_CONNECTIONS);
            let limits = config::serve_limits(&http, &file.http, trust_forwarded_for, db_pool)?;
            let addr: SocketAddr = addr
                .or_else(|| file.addr.clone())
                .unwrap_or_else(|| config::DEFAULT_ADDR.into())
                .parse()
                .context("the listen address must look like 127.0.0.1:8080")?;
            let public_url = std::env::var("KUPA_PUBLIC_URL")
                .ok()
                .filter(|u| !u.is_empty())
                .unwrap_or_else(|| format!("http://{addr}"));
            let mini_site_keys = match mini_site_keys {
                Some(items) => items
                    .iter()
                    .filter(|i| !i.trim().is_empty())
                    .map(|i| kupa_api::MiniSiteKey::parse(i))
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(|e| anyhow::anyhow!("KUPA_MINI_SITE_KEYS: {e}"))?,
                None if settings.test_mode => vec![kupa_api::MiniSiteKey::of_plain(
                    "festival",
                    "kupa-demo-festival-key",
                )],
                None => Vec::new(),
            };
            let settings = kupa_api::ApiSettings {
                public_url: public_url.trim_end_matches('/').to_owned(),
                mini_site_keys,
                captcha_site: captcha_provider
                    .as_ref()
                    .map(|c| kupa_api::state::CaptchaSite {
                        mode: c.provider.as_str(),
                        site_key: c.site_key.clone(),
                    }),
                ..settings
            };
            serve(addr, db, &file, demo, settings, limits, captcha_provider).await
        }
    }
}

async fn serve(
    addr: SocketAddr,
    db_args: DbArgs,
    file: &FileConfig,
    demo: bool,
    settings: kupa_api::ApiSettings,
    limits: kupa_wiring::serve::ServeLimits,
    captcha: Option<kupa_providers::captcha::SiteVerifyConfig>,
) -> anyhow::Result<()> {
    let clock = Arc::new(ServerClock::new());
    let db = open_db(&db_args, file).await?;
    let mut demo_loaded = false;
    if db.is_catalogue_empty().await? {
        if demo {
            let n = load_catalogue(&db, DEMO_CHAIN, clock.as_ref()).await?;
            tracing::info!(presentations = n, "demo cinema chain loaded");
            demo_loaded = true;
        } else {
            tracing::warn!(
                "the database has no catalogue: load one with `kupa seed --catalogue <file>` (or `--demo`)"
            );
        }
    } else if demo {
        tracing::info!("the database already has a catalogue; the demo was not loaded");
    }
    // Without test mode the captcha's state was logged when the settings were read.
    if settings.test_mode {
        tracing::warn!(
            "TEST MODE IS ON: the captcha accepts only the test token, and tests may move the clock and shorten timers. Never run a real box office like this."
        );
    }
    let settings = kupa_api::ApiSettings {
        session_key: kupa_wiring::session_key(&db, clock.now_ms()).await?,
        link_key: kupa_wiring::link_key(&db, clock.now_ms()).await?,
        ..settings
    };
    let db = Arc::new(db);
    if demo_loaded {
        staff_cmd::add_demo_staff(&db, clock.clone(), settings.test_mode).await?;
        let started = std::time::Instant::now();
        let history = kupa_store::seed_demo_history(&db, clock.now_ms()).await?;
        tracing::info!(
            presentations = history.presentations,
            orders = history.orders,
            tickets = history.tickets,
            ms = started.elapsed().as_millis() as u64,
            "demo sales of the past 14 days written"
        );
    }
    let delivery = config::delivery()?;
    let cardcom_config = kupa_providers::cardcom::CardComConfig::from_lookup(
        &|n| std::env::var(n).ok(),
        &settings.public_url,
    )
    .map_err(|e| anyhow::anyhow!("{e} (docs/configuration.md, \"Card payments\")"))?;
    if let Some(c) = &cardcom_config {
        tracing::info!(gateway = %c.summary(), "card payments");
    }
    let payu_config = kupa_providers::payu::PayUConfig::from_lookup(
        &|n| std::env::var(n).ok(),
        &settings.public_url,
    )
    .map_err(|e| anyhow::anyhow!("{e} (docs/configuration.md, \"PayU and Blik\")"))?;
    if let Some(c) = &payu_config {
        tracing::info!(gateway = %c.summary(), "PayU and Blik payments");
    }
    let paypal_config = kupa_providers::paypal::PayPalConfig::from_lookup(
        &|n| std::env::var(n).ok(),
        &settings.public_url,
    )
    .map_err(|e| anyhow::anyhow!("{e} (docs/configuration.md, \"PayPal\")"))?;
    if let Some(c) = &paypal_config {
        tracing::info!(gateway = %c.summary(), "PayPal payments");
    }
    let settings = kupa_api::ApiSettings {
        payment_page_origin: cardcom_config.as_ref().map(|c| c.page_origin()),
        ..settings
    };
    let (providers, cardcom) =
        kupa_wiring::Providers::built_in(&db, clock.clone(), settings.test_mode)
            .with_captcha(captcha)
            .map_err(|e| anyhow::anyhow!(e))?
            .with_cardcom(&db, cardcom_config)
            .map_err(|e| anyhow::anyhow!(e))?;
    let (providers, payu) = providers
        .with_payu(&db, payu_config)
        .map_err(|e| anyhow::anyhow!(e))?;
    let (providers, paypal) = providers
        .with_paypal(&db, paypal_config)
        .map_err(|e| anyhow::anyhow!(e))?;
    let (providers, outbox_worker) = providers.with_delivery(&db, &delivery);
    let state = kupa_wiring::app_state(db.clone(), providers, settings);
    if let Some(worker) = outbox_worker {
        // Each node runs one; the database's leases keep two from sending the same message.
        tokio::spawn(worker.run(std::time::Duration::from_secs(5)));
    }
    // Confirmations (the PDF and the mail) are made here, after the buyer's answer (decision
    // 0061), with or without a real mail server.
    tokio::spawn(kupa_wiring::run_confirmations(
        state.clone(),
        std::time::Duration::from_secs(5),
    ));
    background::spawn_sweeper(db.clone(), state.booking.clone(), clock.clone());
    background::spawn_seat_event_relay(&db, &state.seat_events);
    background::spawn_payment_sweeper(state.orders.clone());
    if let Some(cardcom) = &cardcom {
        // Open CardCom payments nobody reads are asked about (decision 0066); each node runs one.
        tokio::spawn(kupa_wiring::run_cardcom_reconciliation(
            state.orders.clone(),
            cardcom.clone(),
            std::time::Duration::from_secs(30),
        ));
    }
    let hub = state.seat_events.clone();
    let app = kupa_wiring::site_with_routes(
        state,
        kupa_wiring::ProviderRoutes::default()
            .cardcom(cardcom)
            .payu(payu)
            .paypal(paypal),
    );
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    tracing::info!("Kupa is serving on http://{}", listener.local_addr()?);
    tracing::info!(
        header_timeout = ?limits.header_timeout,
        body_timeout = ?limits.body_timeout,
        idle_timeout = ?limits.idle_timeout,
        max_connections = limits.max_connections,
        max_connections_per_address = limits.max_connections_per_address,
        "connection limits"
    );
    kupa_wiring::serve::serve(listener, app, limits, async move {
        shutdown_signal().await;
        // Open seat maps' event streams would hold the graceful shutdown open for ever.
        hub.close_all();
    })
    .await?;
    db.close().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_demo_chain_loads() {
        let file = kupa_app::catalogue_file::parse(super::DEMO_CHAIN).unwrap();
        assert!(kupa_app::catalogue_file::expand(file, jiff::civil::date(2026, 11, 22)).is_ok());
    }
}
