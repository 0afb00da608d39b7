//! The captcha: off, the test mode's one token, or a real provider's server-side check
//! ([`siteverify`]: reCAPTCHA v2 and v3, Cloudflare Turnstile; decision 0062).

pub mod config;
pub mod siteverify;

use async_trait::async_trait;
use kupa_app::error::AppResult;
use kupa_app::ports::Captcha;

pub use kupa_app::ports::CAPTCHA_TEST_TOKEN as TEST_TOKEN;
pub use siteverify::{CaptchaProvider, SiteVerify, SiteVerifyConfig};

/// The captcha check as configured.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CaptchaMode {
    /// No captcha provider configured: every call passes. Logged loudly at start.
    Off,
    /// Test mode: only [`TEST_TOKEN`] passes, so tests can also see a rejection.
    Test,
}

pub struct ConfiguredCaptcha {
    mode: CaptchaMode,
}

impl ConfiguredCaptcha {
    pub fn new(mode: CaptchaMode) -> ConfiguredCaptcha {
        ConfiguredCaptcha { mode }
    }

    pub fn mode(&self) -> &CaptchaMode {
        &self.mode
    }
}

#[async_trait]
impl Captcha for ConfiguredCaptcha {
    async fn verify(&self, token: &str) -> AppResult<bool> {
        Ok(match self.mode {
            CaptchaMode::Off => true,
            CaptchaMode::Test => token == TEST_TOKEN,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn test_mode_accepts_only_the_test_token() {
        let c = ConfiguredCaptcha::new(CaptchaMode::Test);
        assert!(c.verify(TEST_TOKEN).await.unwrap());
        assert!(!c.verify("").await.unwrap());
        assert!(!c.verify("something-else").await.unwrap());
        assert!(
            ConfiguredCaptcha::new(CaptchaMode::Off)
                .verify("")
                .await
                .unwrap()
        );
    }
}
