//! A captcha provider's settings from KUPA_CAPTCHA_* variables (docs/configuration.md,
//! "Captcha"). The secret comes from the variable or from a file named by `<NAME>_FILE`.

use std::time::Duration;

use super::siteverify::{CaptchaProvider, SiteVerifyConfig};
use crate::delivery::secret::Secret;

/// One check may take this long before the call is refused `invalid_captcha` (the buyer is
/// waiting on it).
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(5);

/// reCAPTCHA v3's passing score unless KUPA_CAPTCHA_MIN_SCORE says otherwise (Google's docs start
/// at 0.5).
pub const DEFAULT_MIN_SCORE: f64 = 0.5;

/// The settings of `provider`, read and checked.
pub fn from_lookup(
    provider: CaptchaProvider,
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<SiteVerifyConfig, String> {
    let site_key = lookup("KUPA_CAPTCHA_SITE_KEY")
        .map(|k| k.trim().to_owned())
        .filter(|k| !k.is_empty())
        .ok_or("KUPA_CAPTCHA_SITE_KEY must be set (the provider's public site key)")?;
    // The page takes only such keys (web/src/lib/captcha.ts); Google's and Cloudflare's are.
    if !(10..=100).contains(&site_key.len())
        || !site_key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err("KUPA_CAPTCHA_SITE_KEY must be 10 to 100 letters, digits, _ or -".into());
    }
    let secret = Secret::from_env_or_file("KUPA_CAPTCHA_SECRET", lookup)?
        .ok_or("KUPA_CAPTCHA_SECRET (or KUPA_CAPTCHA_SECRET_FILE) must be set")?;
    let min_score = match lookup("KUPA_CAPTCHA_MIN_SCORE").filter(|v| !v.trim().is_empty()) {
        None => DEFAULT_MIN_SCORE,
        Some(v) => {
            if provider != CaptchaProvider::RecaptchaV3 {
                return Err("KUPA_CAPTCHA_MIN_SCORE is for recaptcha-v3 only".into());
            }
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|s| (0.0..=1.0).contains(s))
                .ok_or_else(|| format!("KUPA_CAPTCHA_MIN_SCORE: {v:?} is not 0.0 to 1.0"))?
        }
    };
    let verify_url = lookup("KUPA_CAPTCHA_VERIFY_URL")
        .map(|u| u.trim().to_owned())
        .filter(|u| !u.is_empty())
        .unwrap_or_else(|| provider.default_verify_url().to_owned());
    if !(verify_url.starts_with("https://") || verify_url.starts_with("http://127.0.0.1")) {
        return Err("KUPA_CAPTCHA_VERIFY_URL must be https:// (or a local test address)".into());
    }
    Ok(SiteVerifyConfig {
        provider,
        site_key,
        secret,
        min_score,
        verify_url,
        timeout: CHECK_TIMEOUT,
    })
}

/// One line for the start-up log and `kupa check-config`; never the secret.
pub fn summary(c: &SiteVerifyConfig) -> String {
    let score = match c.provider {
        CaptchaProvider::RecaptchaV3 => format!(", passing score {}", c.min_score),
        _ => String::new(),
    };
    format!(
        "{} with site key {}…{score}, checked at {}",
        c.provider.as_str(),
        &c.site_key[..8.min(c.site_key.len())],
        c.verify_url
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k| {
            pairs
                .iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| v.to_string())
        }
    }

    #[test]
    fn a_provider_needs_its_site_key_and_secret() {
        let none = vars(&[]);
        assert!(from_lookup(CaptchaProvider::RecaptchaV3, &none).is_err());
        let no_secret = vars(&[("KUPA_CAPTCHA_SITE_KEY", "6LcKupaSiteKey000000")]);
        assert!(
            from_lookup(CaptchaProvider::Turnstile, &no_secret)
                .unwrap_err()
                .contains("KUPA_CAPTCHA_SECRET")
        );
        let both = vars(&[
            ("KUPA_CAPTCHA_SITE_KEY", "6LcKupaSiteKey000000"),
            ("KUPA_CAPTCHA_SECRET", "s3cret-value"),
        ]);
        let c = from_lookup(CaptchaProvider::RecaptchaV3, &both).unwrap();
        assert_eq!(c.min_score, DEFAULT_MIN_SCORE);
        assert_eq!(
            c.verify_url,
            "https://www.google.com/recaptcha/api/siteverify"
        );
        assert!(!format!("{c:?}").contains("s3cret"));
        assert!(!summary(&c).contains("s3cret"));
    }

    #[test]
    fn the_score_is_for_v3_and_between_zero_and_one() {
        let high = vars(&[
            ("KUPA_CAPTCHA_SITE_KEY", "6LcKupaSiteKey000000"),
            ("KUPA_CAPTCHA_SECRET", "x"),
            ("KUPA_CAPTCHA_MIN_SCORE", "1.5"),
        ]);
        assert!(from_lookup(CaptchaProvider::RecaptchaV3, &high).is_err());
        let fine = vars(&[
            ("KUPA_CAPTCHA_SITE_KEY", "6LcKupaSiteKey000000"),
            ("KUPA_CAPTCHA_SECRET", "x"),
            ("KUPA_CAPTCHA_MIN_SCORE", "0.7"),
        ]);
        assert_eq!(
            from_lookup(CaptchaProvider::RecaptchaV3, &fine)
                .unwrap()
                .min_score,
            0.7
        );
        assert!(from_lookup(CaptchaProvider::RecaptchaV2, &fine).is_err());
    }
}
