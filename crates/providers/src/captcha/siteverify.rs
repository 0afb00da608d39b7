//! A captcha token checked on the server with its provider's `siteverify` call (decision 0062).
//! reCAPTCHA (v2 and v3) and Cloudflare Turnstile take the same request: a form POST of `secret`,
//! `response` (the token) and `remoteip` (optional), answered with JSON `success`,
//! `challenge_ts`, `hostname`, `error-codes`, and for v3 `score` and `action`, for Turnstile
//! `action` and `cdata`. Docs: https://developers.google.com/recaptcha/docs/verify,
//! https://developers.google.com/recaptcha/docs/v3,
//! https://developers.cloudflare.com/turnstile/get-started/server-side-validation/.

use std::time::Duration;

use async_trait::async_trait;
use kupa_app::ErrorCode;
use kupa_app::error::{AppError, AppResult};
use kupa_app::ports::{Captcha, current_captcha_call};
use serde::Deserialize;

use crate::delivery::secret::Secret;
use crate::http;

/// Which provider's widget the page runs and whose `siteverify` checks its tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaptchaProvider {
    /// reCAPTCHA v2 (the checkbox, or invisible): pass or fail, no score.
    RecaptchaV2,
    /// reCAPTCHA v3: a score from 0.0 (a bot) to 1.0 and the action the page named.
    RecaptchaV3,
    /// Cloudflare Turnstile: pass or fail, and the action the page named.
    Turnstile,
}

impl CaptchaProvider {
    /// The word of the configuration and of the site config's `captcha.mode`.
    pub fn as_str(self) -> &'static str {
        match self {
            CaptchaProvider::RecaptchaV2 => "recaptcha-v2",
            CaptchaProvider::RecaptchaV3 => "recaptcha-v3",
            CaptchaProvider::Turnstile => "turnstile",
        }
    }

    pub fn default_verify_url(self) -> &'static str {
        match self {
            CaptchaProvider::RecaptchaV2 | CaptchaProvider::RecaptchaV3 => {
                "https://www.google.com/recaptcha/api/siteverify"
            }
            CaptchaProvider::Turnstile => {
                "https://challenges.cloudflare.com/turnstile/v0/siteverify"
            }
        }
    }
}

#[derive(Debug, Clone)]
pub struct SiteVerifyConfig {
    pub provider: CaptchaProvider,
    /// Public: the page's widget is made with it (GET /config's `captcha.siteKey`).
    pub site_key: String,
    pub secret: Secret,
    /// reCAPTCHA v3: the lowest score that passes (Google suggests 0.5 to start with).
    pub min_score: f64,
    /// The provider's siteverify address; another only for a local fake in tests, or a proxy.
    pub verify_url: String,
    /// How long one check may take before the call is refused `invalid_captcha`.
    pub timeout: Duration,
}

/// The provider's answer, as its docs give it.
#[derive(Debug, Deserialize, Default)]
pub struct Answer {
    pub success: bool,
    #[serde(default)]
    pub score: Option<f64>,
    #[serde(default)]
    pub action: Option<String>,
    #[serde(default, rename = "error-codes")]
    pub error_codes: Vec<String>,
}

/// What one check comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    Pass,
    /// Not accepted (`recaptcha`): the reason is for the log.
    Refused(String),
    /// Checked before, or too old (`timeout-or-duplicate`): `recaptcha_repeated`.
    Repeated,
    /// The provider could not say (`invalid_captcha`): never a pass.
    Unavailable(String),
}

/// The provider's error codes that are the server's trouble or the provider's, not the token's.
const NOT_THE_TOKENS_FAULT: &[&str] = &[
    "missing-input-secret",
    "invalid-input-secret",
    "bad-request",
    "internal-error",
];

/// Judges an answer: the provider's verdict, then (v3) the score, then (v3, Turnstile) the
/// action, when the call names the actions its token may carry.
pub fn judge(
    provider: CaptchaProvider,
    min_score: f64,
    expected_actions: &[&str],
    answer: &Answer,
) -> Verdict {
    if !answer.success {
        let codes = answer.error_codes.join(",");
        if answer
            .error_codes
            .iter()
            .any(|c| c == "timeout-or-duplicate")
        {
            return Verdict::Repeated;
        }
        if answer
            .error_codes
            .iter()
            .any(|c| NOT_THE_TOKENS_FAULT.contains(&c.as_str()))
        {
            return Verdict::Unavailable(format!("the provider refused the request: {codes}"));
        }
        return Verdict::Refused(format!("not accepted: {codes}"));
    }
    if provider == CaptchaProvider::RecaptchaV3 {
        match answer.score {
            None => return Verdict::Refused("a v3 answer without a score".into()),
            Some(s) if s < min_score => {
                return Verdict::Refused(format!("score {s} is below {min_score}"));
            }
            Some(_) => {}
        }
    }
    if provider != CaptchaProvider::RecaptchaV2 && !expected_actions.is_empty() {
        let action = answer.action.as_deref().unwrap_or("");
        if !expected_actions.contains(&action) {
            return Verdict::Refused(format!(
                "action {action:?} is not this call's ({expected_actions:?})"
            ));
        }
    }
    Verdict::Pass
}

pub struct SiteVerify {
    config: SiteVerifyConfig,
    client: reqwest::Client,
}

impl SiteVerify {
    pub fn new(config: SiteVerifyConfig) -> Result<SiteVerify, String> {
        let client = http::client("the captcha", config.timeout)?;
        Ok(SiteVerify { config, client })
    }

    pub fn config(&self) -> &SiteVerifyConfig {
        &self.config
    }

    async fn ask(&self, token: &str, remote_ip: Option<&str>) -> Result<Answer, String> {
        let mut form = vec![("secret", self.config.secret.expose()), ("response", token)];
        if let Some(ip) = remote_ip {
            form.push(("remoteip", ip));
        }
        let answer = http::send(self.client.post(&self.config.verify_url).form(&form))
            .await
            .map_err(|e| e.to_string())?;
        if answer.status != 200 {
            return Err(format!("HTTP {}", answer.status));
        }
        answer
            .json()
            .ok_or_else(|| "an answer that is not its JSON".to_owned())
    }

    /// One token checked, as the call being served describes itself.
    pub async fn check(&self, token: &str) -> Verdict {
        if token.is_empty() {
            return Verdict::Refused("no token".into());
        }
        let call = current_captcha_call();
        match self.ask(token, call.remote_ip.as_deref()).await {
            Ok(answer) => judge(
                self.config.provider,
                self.config.min_score,
                call.actions,
                &answer,
            ),
            Err(e) => Verdict::Unavailable(e),
        }
    }

    /// `kupa check-config --probe`: a check of a token that cannot pass. The provider answers
    /// `invalid-input-response` when it knows the secret, `invalid-input-secret` when not.
    pub async fn probe(&self) -> Result<String, String> {
        let answer = self
            .ask("kupa-check-config-probe", None)
            .await
            .map_err(|e| format!("no answer: {e}"))?;
        if answer.success {
            return Ok("it answers (a test key: every token passes)".into());
        }
        let codes = answer.error_codes.join(",");
        if answer
            .error_codes
            .iter()
            .any(|c| c == "invalid-input-secret" || c == "missing-input-secret")
        {
            return Err(format!("the secret key is refused ({codes})"));
        }
        Ok(format!("it answers and knows the secret key ({codes})"))
    }
}

#[async_trait]
impl Captcha for SiteVerify {
    async fn verify(&self, token: &str) -> AppResult<bool> {
        let provider = self.config.provider.as_str();
        match self.check(token).await {
            Verdict::Pass => Ok(true),
            Verdict::Refused(why) => {
                tracing::info!(provider, %why, "captcha refused");
                Ok(false)
            }
            Verdict::Repeated => Err(AppError::rejected(
                ErrorCode::RecaptchaRepeated,
                "the captcha token was checked before or is too old: refresh the page",
            )),
            Verdict::Unavailable(why) => {
                tracing::warn!(provider, %why, "the captcha provider could not check a token");
                Err(AppError::rejected(
                    ErrorCode::InvalidCaptcha,
                    "the captcha could not be checked just now: please try again",
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use CaptchaProvider::*;

    fn answer(json: &str) -> Answer {
        serde_json::from_str(json).unwrap()
    }

    #[test]
    fn a_v3_answer_passes_on_its_score_and_action() {
        let good = answer(
            r#"{"success":true,"score":0.9,"action":"lockSeat","challenge_ts":"2026-11-26T20:00:00Z","hostname":"kupa.example"}"#,
        );
        assert_eq!(judge(RecaptchaV3, 0.5, &["lockSeat"], &good), Verdict::Pass);
        assert!(matches!(
            judge(RecaptchaV3, 0.95, &["lockSeat"], &good),
            Verdict::Refused(_)
        ));
        assert!(matches!(
            judge(RecaptchaV3, 0.5, &["login"], &good),
            Verdict::Refused(_)
        ));
        // A call that names no action takes any.
        assert_eq!(judge(RecaptchaV3, 0.5, &[], &good), Verdict::Pass);
        let no_score = answer(r#"{"success":true,"action":"lockSeat"}"#);
        assert!(matches!(
            judge(RecaptchaV3, 0.5, &["lockSeat"], &no_score),
            Verdict::Refused(_)
        ));
    }

    #[test]
    fn v2_has_no_score_or_action_and_turnstile_has_an_action() {
        let v2 = answer(r#"{"success":true,"hostname":"kupa.example"}"#);
        assert_eq!(judge(RecaptchaV2, 0.5, &["lockSeat"], &v2), Verdict::Pass);
        let ts = answer(r#"{"success":true,"action":"login","cdata":""}"#);
        assert_eq!(judge(Turnstile, 0.5, &["login"], &ts), Verdict::Pass);
        assert!(matches!(
            judge(Turnstile, 0.5, &["lockSeat"], &ts),
            Verdict::Refused(_)
        ));
    }

    #[test]
    fn the_error_codes_say_whose_fault_a_failure_is() {
        let repeated = answer(r#"{"success":false,"error-codes":["timeout-or-duplicate"]}"#);
        assert_eq!(judge(RecaptchaV3, 0.5, &[], &repeated), Verdict::Repeated);
        let bad_token = answer(r#"{"success":false,"error-codes":["invalid-input-response"]}"#);
        assert!(matches!(
            judge(RecaptchaV2, 0.5, &[], &bad_token),
            Verdict::Refused(_)
        ));
        for ours in ["invalid-input-secret", "bad-request", "internal-error"] {
            let a = answer(&format!(r#"{{"success":false,"error-codes":["{ours}"]}}"#));
            assert!(
                matches!(judge(Turnstile, 0.5, &[], &a), Verdict::Unavailable(_)),
                "{ours}"
            );
        }
    }
}
