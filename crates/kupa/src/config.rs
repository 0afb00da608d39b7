//! Configuration: command-line flags, then KUPA_* environment variables, then an optional TOML
//! file (--config / KUPA_CONFIG), then defaults. docs/configuration.md lists every setting.

use std::path::Path;

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
    #[serde(default)]
    pub web: WebFileConfig,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebFileConfig {
    pub redirect_allow_list: Option<Vec<String>>,
    pub enabled_locales: Option<Vec<String>>,
    pub default_locale: Option<String>,
    pub routes: Option<RoutePaths>,
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
        test_mode,
        gateway_secret: None,
        // Set from KUPA_PUBLIC_URL (or the listen address) by `serve`.
        public_url: ApiSettings::default().public_url,
        ..ApiSettings::default()
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

/// The key reservation links are signed with: the one place it comes from. For now a random key
/// made at start, so links signed by this process stop working when it restarts and are not
/// accepted by other nodes; a key kept in the database and shared by every node replaces it.
pub fn link_key() -> kupa_api::state::LinkKey {
    kupa_api::state::LinkKey::random()
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

/// `off`, or `class.scope=N/period` rules over the defaults (docs/configuration.md).
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
