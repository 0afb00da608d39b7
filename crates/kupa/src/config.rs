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
    /// `off`: run without a captcha, knowingly (also KUPA_CAPTCHA, --captcha).
    pub captcha: Option<CaptchaSetting>,
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

/// The captcha as configured. Kupa has no captcha provider adapter yet, so the one setting is
/// `off`: the explicit word that lets a box office run without one (decision 0017).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum CaptchaSetting {
    Off,
}

/// How the captcha runs, and why it may.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptchaStart {
    /// Test mode: only the test token passes.
    TestToken,
    /// Every token passes; the text says who chose that, for the log.
    Off(&'static str),
}

/// Production refuses to start with the captcha off unless a setting says so: `--captcha off`
/// (KUPA_CAPTCHA=off, `captcha = "off"` in the file), or `--demo` or `--test-mode`, which are
/// never a real box office.
pub fn captcha(
    setting: Option<CaptchaSetting>,
    demo: bool,
    test_mode: bool,
) -> anyhow::Result<CaptchaStart> {
    match (test_mode, setting, demo) {
        (true, _, _) => Ok(CaptchaStart::TestToken),
        (false, Some(CaptchaSetting::Off), _) => Ok(CaptchaStart::Off(
            "the captcha is off (KUPA_CAPTCHA=off): every captcha token is accepted",
        )),
        (false, None, true) => Ok(CaptchaStart::Off(
            "the captcha is off for the demo (--demo): every captcha token is accepted",
        )),
        (false, None, false) => anyhow::bail!(
            "no captcha provider is configured, so the captcha would accept any token. Kupa will \
             not start like this: set KUPA_CAPTCHA=off (or --captcha off) to run without a \
             captcha knowingly (docs/configuration.md)"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_captcha_is_off_only_when_a_setting_says_so() {
        assert!(
            captcha(None, false, false).is_err(),
            "production, nothing said"
        );
        assert_eq!(captcha(None, false, true).unwrap(), CaptchaStart::TestToken);
        assert_eq!(
            captcha(Some(CaptchaSetting::Off), true, true).unwrap(),
            CaptchaStart::TestToken,
            "test mode keeps its test token"
        );
        assert!(matches!(
            captcha(Some(CaptchaSetting::Off), false, false).unwrap(),
            CaptchaStart::Off(why) if why.contains("KUPA_CAPTCHA=off")
        ));
        assert!(matches!(
            captcha(None, true, false).unwrap(),
            CaptchaStart::Off(why) if why.contains("--demo")
        ));
    }

    #[test]
    fn the_file_may_say_captcha_off() {
        let f: FileConfig = toml::from_str("captcha = \"off\"").unwrap();
        assert_eq!(f.captcha, Some(CaptchaSetting::Off));
        assert!(toml::from_str::<FileConfig>("captcha = \"on\"").is_err());
    }
}
