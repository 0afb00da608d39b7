//! The captcha setting (KUPA_CAPTCHA, `--captcha`, `captcha = "…"` in the file) and the
//! provider's keys (KUPA_CAPTCHA_*), decisions 0017 and 0062.

use kupa_providers::captcha::config as provider_config;
use kupa_providers::captcha::{CaptchaProvider, SiteVerifyConfig};
use serde::Deserialize;

/// The captcha as configured: a provider checked on the server, or `off`, the explicit word that
/// lets a box office run without one (decision 0017).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "kebab-case")]
pub enum CaptchaSetting {
    Off,
    RecaptchaV2,
    RecaptchaV3,
    Turnstile,
}

impl CaptchaSetting {
    fn provider(self) -> Option<CaptchaProvider> {
        match self {
            CaptchaSetting::Off => None,
            CaptchaSetting::RecaptchaV2 => Some(CaptchaProvider::RecaptchaV2),
            CaptchaSetting::RecaptchaV3 => Some(CaptchaProvider::RecaptchaV3),
            CaptchaSetting::Turnstile => Some(CaptchaProvider::Turnstile),
        }
    }
}

/// How the captcha runs, and why it may.
#[derive(Debug, Clone)]
pub enum CaptchaStart {
    /// Test mode: only the test token passes.
    TestToken,
    /// Every token passes; the text says who chose that, for the log.
    Off(&'static str),
    /// A provider checks each token on the server.
    Provider(SiteVerifyConfig),
}

/// Production refuses to start with the captcha off unless a setting says so: `--captcha off`
/// (KUPA_CAPTCHA=off, `captcha = "off"` in the file), or `--demo` or `--test-mode`, which are
/// never a real box office. Test mode keeps its test token whatever is configured.
pub fn captcha(
    setting: Option<CaptchaSetting>,
    demo: bool,
    test_mode: bool,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<CaptchaStart> {
    if test_mode {
        return Ok(CaptchaStart::TestToken);
    }
    match (setting, demo) {
        (Some(CaptchaSetting::Off), _) => Ok(CaptchaStart::Off(
            "the captcha is off (KUPA_CAPTCHA=off): every captcha token is accepted",
        )),
        (Some(s), _) => {
            let provider = s.provider().expect("not off");
            provider_config::from_lookup(provider, lookup)
                .map(CaptchaStart::Provider)
                .map_err(|e| anyhow::anyhow!("{e} (docs/configuration.md, \"Captcha\")"))
        }
        (None, true) => Ok(CaptchaStart::Off(
            "the captcha is off for the demo (--demo): every captcha token is accepted",
        )),
        (None, false) => anyhow::bail!(
            "no captcha provider is configured, so the captcha would accept any token. Kupa will \
             not start like this: set KUPA_CAPTCHA to recaptcha-v2, recaptcha-v3 or turnstile \
             with its keys, or KUPA_CAPTCHA=off (or --captcha off) to run without a captcha \
             knowingly (docs/configuration.md)"
        ),
    }
}

/// `kupa serve`'s captcha from its settings and the environment, logged: the provider to check
/// tokens with, or None (off, logged loudly; or test mode).
pub fn start(
    setting: Option<CaptchaSetting>,
    demo: bool,
    test_mode: bool,
) -> anyhow::Result<Option<SiteVerifyConfig>> {
    Ok(
        match captcha(setting, demo, test_mode, &|n| std::env::var(n).ok())? {
            CaptchaStart::Off(why) => {
                tracing::warn!("{why}");
                None
            }
            CaptchaStart::TestToken => None,
            CaptchaStart::Provider(c) => {
                tracing::info!(captcha = %provider_config::summary(&c), "the captcha");
                Some(c)
            }
        },
    )
}

/// KUPA_CAPTCHA as `kupa check-config` reads it (serve reads it through its flags).
pub fn setting_from_env(
    lookup: &dyn Fn(&str) -> Option<String>,
) -> anyhow::Result<Option<CaptchaSetting>> {
    use clap::ValueEnum;
    match lookup("KUPA_CAPTCHA").map(|v| v.trim().to_owned()) {
        None => Ok(None),
        Some(v) if v.is_empty() => Ok(None),
        Some(v) => CaptchaSetting::from_str(&v, false).map(Some).map_err(|_| {
            anyhow::anyhow!(
                "KUPA_CAPTCHA: {v:?} is not one of off, recaptcha-v2, recaptcha-v3, turnstile"
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nothing(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn the_captcha_is_off_only_when_a_setting_says_so() {
        assert!(
            captcha(None, false, false, &nothing).is_err(),
            "production, nothing said"
        );
        assert!(matches!(
            captcha(None, false, true, &nothing).unwrap(),
            CaptchaStart::TestToken
        ));
        assert!(
            matches!(
                captcha(Some(CaptchaSetting::Off), true, true, &nothing).unwrap(),
                CaptchaStart::TestToken
            ),
            "test mode keeps its test token"
        );
        assert!(matches!(
            captcha(Some(CaptchaSetting::Off), false, false, &nothing).unwrap(),
            CaptchaStart::Off(why) if why.contains("KUPA_CAPTCHA=off")
        ));
        assert!(matches!(
            captcha(None, true, false, &nothing).unwrap(),
            CaptchaStart::Off(why) if why.contains("--demo")
        ));
    }

    #[test]
    fn a_provider_starts_only_with_its_keys() {
        let e = captcha(Some(CaptchaSetting::RecaptchaV3), false, false, &nothing)
            .unwrap_err()
            .to_string();
        assert!(e.contains("KUPA_CAPTCHA_SITE_KEY"), "{e}");
        let keys = |k: &str| match k {
            "KUPA_CAPTCHA_SITE_KEY" => Some("0x4AAAAAAAKupaSiteKey".to_owned()),
            "KUPA_CAPTCHA_SECRET" => Some("0x4AAAAAAAKupaSecret".to_owned()),
            _ => None,
        };
        assert!(matches!(
            captcha(Some(CaptchaSetting::Turnstile), false, false, &keys).unwrap(),
            CaptchaStart::Provider(c) if c.provider == CaptchaProvider::Turnstile
        ));
        assert_eq!(
            setting_from_env(&|_| Some("recaptcha-v2".into())).unwrap(),
            Some(CaptchaSetting::RecaptchaV2)
        );
        assert!(setting_from_env(&|_| Some("on".into())).is_err());
    }
}
