//! Configuration: command-line flags, then KUPA_* environment variables, then an optional TOML
//! file (--config / KUPA_CONFIG), then defaults. docs/configuration.md lists every setting.

use std::path::Path;

use kupa_api::wording::Wording;
use kupa_api::{ApiSettings, RoutePaths};
use serde::Deserialize;

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub addr: Option<String>,
    pub database_url: Option<String>,
    pub max_connections: Option<u32>,
    pub test_mode: Option<bool>,
    pub log_format: Option<String>,
    /// The payment gateway's callback secret (also KUPA_GATEWAY_SECRET).
    pub gateway_secret: Option<kupa_api::state::GatewaySecret>,
    /// How far a signed callback's timestamp may be from the clock (also KUPA_CALLBACK_WINDOW_SECONDS).
    pub callback_window_seconds: Option<i64>,
    /// The captcha provider, or `off` to run without one knowingly (also KUPA_CAPTCHA, --captcha).
    pub captcha: Option<CaptchaSetting>,
    #[serde(default)]
    pub web: WebFileConfig,
    #[serde(default)]
    pub http: HttpFileConfig,
}

/// The `[http]` table: the serving loop's deadlines and caps (docs/configuration.md).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HttpFileConfig {
    pub header_timeout: Option<String>,
    pub body_timeout: Option<String>,
    pub idle_timeout: Option<String>,
    pub max_connections: Option<usize>,
    pub max_connections_per_address: Option<usize>,
    pub max_event_streams_per_address: Option<usize>,
    pub max_body_bytes: Option<usize>,
}

/// The same settings as flags and KUPA_* variables, which win over the file.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct HttpArgs {
    /// How long a request's head may take from its first byte, e.g. 10s or 500ms (default 10s).
    #[arg(long, env = "KUPA_HEADER_TIMEOUT")]
    pub header_timeout: Option<String>,
    /// How long a request's body may take after its head (default 30s).
    #[arg(long, env = "KUPA_BODY_TIMEOUT")]
    pub body_timeout: Option<String>,
    /// How long a keep-alive connection may wait idle for its next request (default 30s).
    #[arg(long, env = "KUPA_IDLE_TIMEOUT")]
    pub idle_timeout: Option<String>,
    /// Open connections on this node; more get a quick 503 (default 10000, kept below the
    /// process's open-files limit).
    #[arg(long, env = "KUPA_MAX_HTTP_CONNECTIONS")]
    pub max_http_connections: Option<usize>,
    /// Open connections from one peer address; more get a quick 429 (default 256; 0 = no cap;
    /// no cap by default with --trust-forwarded-for, where the peer is the load balancer).
    #[arg(long, env = "KUPA_MAX_CONNECTIONS_PER_ADDRESS")]
    pub max_connections_per_address: Option<usize>,
    /// Seat event streams open from one client address; more answer 429 (default 32; 0 = no cap).
    #[arg(long, env = "KUPA_MAX_EVENT_STREAMS_PER_ADDRESS")]
    pub max_event_streams_per_address: Option<usize>,
    /// The largest request body taken, in bytes; larger ones answer 413 (default 65536).
    #[arg(long, env = "KUPA_MAX_BODY_BYTES")]
    pub max_body_bytes: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebFileConfig {
    pub redirect_allow_list: Option<Vec<String>>,
    pub enabled_locales: Option<Vec<String>>,
    pub default_locale: Option<String>,
    pub routes: Option<RoutePaths>,
    /// Tenant wording: a JSON file of locale → {key: text} (also KUPA_WORDING, --wording).
    pub wording: Option<std::path::PathBuf>,
}

impl FileConfig {
    pub fn load(path: Option<&Path>) -> anyhow::Result<FileConfig> {
        let Some(path) = path else {
            return Ok(FileConfig::default());
        };
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", path.display()))?;
        toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))
    }
}

pub const DEFAULT_ADDR: &str = "127.0.0.1:8080";
pub const DEFAULT_DATABASE_URL: &str = "sqlite:data/kupa.db";
pub const DEFAULT_MAX_CONNECTIONS: u32 = 8;

/// Checks the web settings once at start, so a typo fails loudly instead of 404-ing every page.
pub fn api_settings(
    file: &WebFileConfig,
    redirect_allow_list: Option<Vec<String>>,
    enabled_locales: Option<Vec<String>>,
    wording: Option<&Path>,
    test_mode: bool,
) -> anyhow::Result<ApiSettings> {
    let defaults = ApiSettings::default();
    let enabled = enabled_locales
        .or_else(|| file.enabled_locales.clone())
        .unwrap_or(defaults.enabled_locales);
    for l in &enabled {
        anyhow::ensure!(
            kupa_domain::locale::is_supported(l),
            "locale {l:?} is not one of {:?}",
            kupa_domain::locale::SUPPORTED
        );
    }
    let default_locale = file
        .default_locale
        .clone()
        .unwrap_or(defaults.default_locale);
    anyhow::ensure!(
        enabled.contains(&default_locale),
        "the default locale {default_locale:?} must be enabled"
    );
    let wording = match wording.or(file.wording.as_deref()) {
        Some(path) => load_wording(path)?,
        None => Wording::default(),
    };
    let routes = file.routes.clone().unwrap_or_default();
    for key in ["vod", "systemVouchers", "memberships", "miniSite"] {
        let p = routes.by_key(key).unwrap_or_default();
        anyhow::ensure!(
            p.starts_with('/') && p.len() > 1 && !p.ends_with('/'),
            "route {key} must look like /name, got {p:?}"
        );
    }
    Ok(ApiSettings {
        routes,
        redirect_allow_list: redirect_allow_list
            .or_else(|| file.redirect_allow_list.clone())
            .unwrap_or_default(),
        enabled_locales: enabled,
        default_locale,
        wording: std::sync::Arc::new(wording),
        test_mode,
        gateway_secret: None,
        // Set from KUPA_PUBLIC_URL (or the listen address) by `serve`.
        public_url: ApiSettings::default().public_url,
        ..ApiSettings::default()
    })
}

/// The tenant wording file, checked against the catalogue: a key it does not have, a text with
/// other placeholders, or a locale that is none stops the start with every problem named.
pub fn load_wording(path: &Path) -> anyhow::Result<Wording> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| anyhow::anyhow!("cannot read the wording file {}: {e}", path.display()))?;
    Wording::parse(&text).map_err(|problems| {
        anyhow::anyhow!(
            "the wording file {} is refused (docs/configuration.md, \"Tenant wording\"):\n{problems}",
            path.display()
        )
    })
}

/// The payment gateway's callback secret: `KUPA_GATEWAY_SECRET`, else `gateway_secret` in the
/// file. Never a flag (flags show in the process list). A configured secret must be at least 16
/// characters; none at all means callbacks are refused (test mode uses a fixed test secret).
pub fn gateway_secret(file: &FileConfig) -> anyhow::Result<Option<kupa_api::state::GatewaySecret>> {
    let secret = std::env::var("KUPA_GATEWAY_SECRET")
        .ok()
        .filter(|s| !s.is_empty())
        .map(kupa_api::state::GatewaySecret)
        .or_else(|| file.gateway_secret.clone());
    if let Some(s) = &secret {
        anyhow::ensure!(
            s.0.len() >= 16,
            "the gateway secret (KUPA_GATEWAY_SECRET) must be at least 16 characters"
        );
    }
    Ok(secret)
}

/// How far a signed payment callback's timestamp may be from the server's clock, either way:
/// `KUPA_CALLBACK_WINDOW_SECONDS`, else `callback_window_seconds` in the file, else five minutes.
pub fn callback_window(file: &FileConfig) -> anyhow::Result<i64> {
    let seconds = match std::env::var("KUPA_CALLBACK_WINDOW_SECONDS")
        .ok()
        .filter(|s| !s.is_empty())
    {
        Some(s) => s.trim().parse::<i64>().map_err(|_| {
            anyhow::anyhow!("KUPA_CALLBACK_WINDOW_SECONDS must be a number of seconds")
        })?,
        None => file
            .callback_window_seconds
            .unwrap_or(kupa_app::orders::CALLBACK_WINDOW_SECONDS),
    };
    anyhow::ensure!(
        (10..=3600).contains(&seconds),
        "the callback window (KUPA_CALLBACK_WINDOW_SECONDS) must be 10 to 3600 seconds"
    );
    Ok(seconds)
}

/// The cancellation rules (docs/configuration.md, decision 0022).
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CancellationArgs {
    /// The cancellation service charge, kept and never refunded: `none`, `fixed:<agorot>:<scope>`
    /// or `percent:<percent>:<scope>`, scope `perTicket` or `perOrder` (default fixed:500:perTicket).
    #[arg(long, env = "KUPA_CANCELLATION_FEE")]
    pub cancellation_fee: Option<String>,
    /// Cancellations close this many minutes before an event starts, unless its presentation says
    /// otherwise in the catalogue (default 120).
    #[arg(long, env = "KUPA_CANCELLATION_WINDOW_MINUTES")]
    pub cancellation_window_minutes: Option<i64>,
    /// Payment methods that cannot be refunded online, comma separated (card, savedCard, paypal,
    /// blik, payu, voucher): cancelling such an order answers BALANCE_IS_DUE (default none).
    #[arg(long, env = "KUPA_NOT_REFUNDABLE_ONLINE", value_delimiter = ',')]
    pub not_refundable_online: Option<Vec<String>>,
    /// A system voucher turned into a replacement voucher is good for this many days (default 90).
    #[arg(long, env = "KUPA_VOUCHER_REPLACEMENT_DAYS")]
    pub voucher_replacement_days: Option<i64>,
    /// Agorot of money paid per loyalty point its member earns (default 1000, a point for every
    /// ₪10; 0 earns none).
    #[arg(long, env = "KUPA_LOYALTY_AGOROT_PER_POINT")]
    pub loyalty_agorot_per_point: Option<i64>,
    /// A refund taken as voucher credit (refundToTransactionCredit) is good for this many days
    /// (default 365).
    #[arg(long, env = "KUPA_CREDIT_VALIDITY_DAYS")]
    pub credit_validity_days: Option<i64>,
    /// Minutes a hall is kept free after each screening's runtime, for cleaning and seating; the
    /// programme refuses a screening inside them (default 15).
    #[arg(long, env = "KUPA_CLEANING_GAP_MINUTES")]
    pub cleaning_gap_minutes: Option<i64>,
}

/// KUPA_CLEANING_GAP_MINUTES, checked.
pub fn cleaning_gap_minutes(args: &CancellationArgs) -> anyhow::Result<i64> {
    let m = args
        .cleaning_gap_minutes
        .unwrap_or(kupa_app::programme::DEFAULT_CLEANING_GAP_MINUTES);
    anyhow::ensure!(
        (0..=240).contains(&m),
        "KUPA_CLEANING_GAP_MINUTES must be 0 to 240"
    );
    Ok(m)
}

/// KUPA_LOYALTY_AGOROT_PER_POINT, checked.
pub fn loyalty(args: &CancellationArgs) -> anyhow::Result<kupa_app::orders::LoyaltyRule> {
    let mut rule = kupa_app::orders::LoyaltyRule::default();
    if let Some(n) = args.loyalty_agorot_per_point {
        anyhow::ensure!(n >= 0, "KUPA_LOYALTY_AGOROT_PER_POINT must be 0 or more");
        rule.agorot_per_point = n;
    }
    Ok(rule)
}

/// KUPA_VOUCHER_REPLACEMENT_DAYS, checked.
pub fn voucher_replacement_days(args: &CancellationArgs) -> anyhow::Result<i64> {
    let days = args
        .voucher_replacement_days
        .unwrap_or(kupa_api::state::DEFAULT_VOUCHER_REPLACEMENT_DAYS);
    anyhow::ensure!(
        (1..=3650).contains(&days),
        "KUPA_VOUCHER_REPLACEMENT_DAYS must be 1 to 3650"
    );
    Ok(days)
}

pub fn cancellation(
    args: &CancellationArgs,
) -> anyhow::Result<kupa_app::orders::CancellationPolicy> {
    use kupa_app::orders::{CancellationFee, CancellationPolicy, PaymentMethod};
    let mut policy = CancellationPolicy::default();
    if let Some(fee) = &args.cancellation_fee {
        policy.fee = CancellationFee::parse(fee)
            .map_err(|e| anyhow::anyhow!("KUPA_CANCELLATION_FEE: {e}"))?;
    }
    if let Some(m) = args.cancellation_window_minutes {
        anyhow::ensure!(m >= 0, "KUPA_CANCELLATION_WINDOW_MINUTES must be 0 or more");
        policy.window_minutes = m;
    }
    if let Some(methods) = &args.not_refundable_online {
        policy.not_refundable_online = methods
            .iter()
            .map(|m| m.trim())
            .filter(|m| !m.is_empty())
            .map(|m| {
                PaymentMethod::parse(m).ok_or_else(|| {
                    anyhow::anyhow!("KUPA_NOT_REFUNDABLE_ONLINE: unknown method {m:?}")
                })
            })
            .collect::<anyhow::Result<_>>()?;
    }
    if let Some(days) = args.credit_validity_days {
        anyhow::ensure!(
            (1..=3650).contains(&days),
            "KUPA_CREDIT_VALIDITY_DAYS must be 1 to 3650"
        );
        policy.credit_validity_days = days;
    }
    Ok(policy)
}

/// `off`, or `class.scope=N/period` rules over the defaults (docs/configuration.md).
pub fn hold_limits(text: Option<&str>) -> anyhow::Result<kupa_app::booking::HoldLimits> {
    use kupa_app::booking::HoldLimits;
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(HoldLimits::default()),
        Some(t) => HoldLimits::parse(t).map_err(|e| anyhow::anyhow!("KUPA_HOLD_LIMITS: {e}")),
    }
}

pub fn rate_limits(text: Option<&str>) -> anyhow::Result<kupa_api::rate_limit::RateLimits> {
    use kupa_api::rate_limit::RateLimits;
    match text.map(str::trim).filter(|t| !t.is_empty()) {
        None => Ok(RateLimits::default()),
        Some(t) => RateLimits::parse(t)
            .map(|l| {
                if l.rules.is_empty() {
                    l
                } else {
                    l.over_defaults()
                }
            })
            .map_err(|e| anyhow::anyhow!("KUPA_RATE_LIMITS: {e}")),
    }
}

/// `10s`, `500ms`, `2m`, or a bare number of seconds.
pub fn parse_duration(name: &str, text: &str) -> anyhow::Result<std::time::Duration> {
    let t = text.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (n, unit) = t.split_at(split);
    let n: u64 = n
        .parse()
        .map_err(|_| anyhow::anyhow!("{name}: {text:?} is not a duration like 10s or 500ms"))?;
    let d = match unit.trim() {
        "" | "s" => std::time::Duration::from_secs(n),
        "ms" => std::time::Duration::from_millis(n),
        "m" => std::time::Duration::from_secs(n * 60),
        _ => anyhow::bail!("{name}: {text:?} is not a duration like 10s or 500ms"),
    };
    anyhow::ensure!(!d.is_zero(), "{name} must be more than 0");
    Ok(d)
}

/// Descriptors kept back from the connection cap: the database pool, the log, files, sockets.
const RESERVED_FILES: u64 = 64;

/// The serving loop's limits: flags and variables, then the file, then the defaults. The node's
/// connection cap is kept below the process's open-files limit, where it would otherwise die.
pub fn serve_limits(
    args: &HttpArgs,
    file: &HttpFileConfig,
    trust_forwarded_for: bool,
    db_pool: u32,
) -> anyhow::Result<kupa_wiring::serve::ServeLimits> {
    use kupa_wiring::serve::{self, ServeLimits};
    let duration = |name: &str, flag: &Option<String>, file: &Option<String>, default| match flag
        .as_ref()
        .or(file.as_ref())
    {
        Some(t) => parse_duration(name, t),
        None => Ok(default),
    };
    let mut max_connections = args
        .max_http_connections
        .or(file.max_connections)
        .unwrap_or(serve::DEFAULT_MAX_CONNECTIONS);
    anyhow::ensure!(
        max_connections > 0,
        "the connection cap must be more than 0"
    );
    if let Some(files) = serve::open_files_limit() {
        let room = files
            .saturating_sub(RESERVED_FILES + u64::from(db_pool))
            .max(16) as usize;
        if max_connections > room {
            tracing::warn!(
                configured = max_connections,
                open_files_limit = files,
                cap = room,
                "the connection cap is above what the open-files limit allows; lowered (raise `ulimit -n` or LimitNOFILE to serve more)"
            );
            max_connections = room;
        }
    }
    let per_address_default = if trust_forwarded_for {
        0
    } else {
        serve::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS
    };
    Ok(ServeLimits {
        header_timeout: duration(
            "KUPA_HEADER_TIMEOUT",
            &args.header_timeout,
            &file.header_timeout,
            serve::DEFAULT_HEADER_TIMEOUT,
        )?,
        body_timeout: duration(
            "KUPA_BODY_TIMEOUT",
            &args.body_timeout,
            &file.body_timeout,
            serve::DEFAULT_BODY_TIMEOUT,
        )?,
        idle_timeout: duration(
            "KUPA_IDLE_TIMEOUT",
            &args.idle_timeout,
            &file.idle_timeout,
            serve::DEFAULT_IDLE_TIMEOUT,
        )?,
        max_connections,
        max_connections_per_address: args
            .max_connections_per_address
            .or(file.max_connections_per_address)
            .unwrap_or(per_address_default),
        shutdown_grace: serve::DEFAULT_SHUTDOWN_GRACE,
    })
}

pub use crate::captcha_config::{CaptchaSetting, CaptchaStart, captcha};

/// The real SMS provider and mail server from KUPA_* variables (docs/configuration.md, "SMS and
/// mail"); nothing set keeps both on the outbox. What is configured is logged, never
/// a secret.
pub fn delivery() -> anyhow::Result<kupa_providers::delivery::Delivery> {
    let settings = delivery_settings()?;
    let summary = settings.summary();
    tracing::info!(sms = %summary.sms, mail = %summary.mail, "text messages and mail");
    settings.delivery().map_err(|e| anyhow::anyhow!(e))
}

pub fn delivery_settings() -> anyhow::Result<kupa_providers::delivery::config::DeliverySettings> {
    kupa_providers::delivery::config::DeliverySettings::from_lookup(&|name| {
        std::env::var(name).ok()
    })
    .map_err(|e| anyhow::anyhow!("{e} (docs/configuration.md, \"SMS and mail\")"))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    #[test]
    fn durations_read_as_people_write_them() {
        let d = |t| super::parse_duration("x", t);
        assert_eq!(d("10s").unwrap(), Duration::from_secs(10));
        assert_eq!(d("500ms").unwrap(), Duration::from_millis(500));
        assert_eq!(d("2m").unwrap(), Duration::from_secs(120));
        assert_eq!(d("15").unwrap(), Duration::from_secs(15));
        for bad in ["", "0s", "ten", "5h", "-1s"] {
            assert!(d(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn flags_win_over_the_file_and_a_proxy_turns_the_address_cap_off() {
        let file: super::FileConfig = toml::from_str(
            "[http]\nheader_timeout = \"5s\"\nidle_timeout = \"1m\"\nmax_connections_per_address = 9\n",
        )
        .unwrap();
        let args = super::HttpArgs {
            header_timeout: Some("2s".into()),
            ..Default::default()
        };
        let l = super::serve_limits(&args, &file.http, false, 8).unwrap();
        assert_eq!(l.header_timeout, Duration::from_secs(2));
        assert_eq!(l.idle_timeout, Duration::from_secs(60));
        assert_eq!(l.body_timeout, kupa_wiring::serve::DEFAULT_BODY_TIMEOUT);
        assert_eq!(l.max_connections_per_address, 9);
        let behind_proxy =
            super::serve_limits(&Default::default(), &Default::default(), true, 8).unwrap();
        assert_eq!(behind_proxy.max_connections_per_address, 0);
        let direct =
            super::serve_limits(&Default::default(), &Default::default(), false, 8).unwrap();
        assert_eq!(direct.max_connections_per_address, 256);
    }

    use super::*;

    #[test]
    fn a_wording_file_with_an_unknown_key_stops_the_start_naming_it() {
        let dir = std::env::temp_dir().join(format!("kupa-wording-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let good = dir.join("good.json");
        std::fs::write(&good, r#"{"en": {"whatsOn.title": "Now showing"}}"#).unwrap();
        let s = api_settings(&WebFileConfig::default(), None, None, Some(&good), false).unwrap();
        assert_eq!(s.wording.0["en"]["whatsOn.title"], "Now showing");
        let bad = dir.join("bad.json");
        std::fs::write(&bad, r#"{"en": {"whatsOn.titel": "Now showing"}}"#).unwrap();
        let e = api_settings(&WebFileConfig::default(), None, None, Some(&bad), false)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("bad.json") && e.contains("en whatsOn.titel: no such key"),
            "{e}"
        );
        assert!(load_wording(&dir.join("missing.json")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_file_may_say_captcha_off() {
        let f: FileConfig = toml::from_str("captcha = \"off\"").unwrap();
        assert_eq!(f.captcha, Some(CaptchaSetting::Off));
        assert!(toml::from_str::<FileConfig>("captcha = \"on\"").is_err());
        let f: FileConfig = toml::from_str("captcha = \"recaptcha-v3\"").unwrap();
        assert_eq!(f.captcha, Some(CaptchaSetting::RecaptchaV3));
    }
}
