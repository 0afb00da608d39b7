//! The captcha port: one check every protected call makes, and what the HTTP layer tells the
//! provider about the call (the caller's address, the call's expected action) without every use
//! case carrying it (decision 0062).

use async_trait::async_trait;

use crate::error::AppResult;

/// The captcha token the test mode accepts and the web app sends in test mode.
pub const CAPTCHA_TEST_TOKEN: &str = "kupa-test-captcha";

/// The captcha check of lock, login, payment and best-available calls.
///
/// `Ok(true)` passes, `Ok(false)` is refused with `recaptcha`. An adapter may refuse with its own
/// code instead: `recaptcha_repeated` (the provider says the token was used before or is too
/// old) or `invalid_captcha` (the provider could not be asked; the buyer may try again). It
/// never passes a token it could not check.
#[async_trait]
pub trait Captcha: Send + Sync {
    async fn verify(&self, token: &str) -> AppResult<bool>;
}

/// Refuses the call with `recaptcha` (HTTP 400, as the spec's client expects) unless the captcha
/// accepts the token: the one check every protected call makes.
pub async fn require_captcha(captcha: &dyn Captcha, token: &str) -> AppResult<()> {
    if captcha.verify(token).await? {
        Ok(())
    } else {
        Err(crate::AppError::rejected(
            crate::ErrorCode::Recaptcha,
            "the captcha token was not accepted",
        ))
    }
}

/// What the provider is told besides the token: the buyer's address (reCAPTCHA's and
/// Turnstile's `remoteip`) and the action the call expects (reCAPTCHA v3 and Turnstile send the
/// action the page named back with the verdict). Set by the HTTP layer around each request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaptchaCall {
    pub remote_ip: Option<String>,
    /// The action names the page may use for this call; empty when the call has none.
    pub actions: &'static [&'static str],
}

tokio::task_local! {
    static CAPTCHA_CALL: CaptchaCall;
}

/// Runs `f` (one request) with `call` as what its captcha checks tell the provider.
pub async fn with_captcha_call<F: std::future::Future>(call: CaptchaCall, f: F) -> F::Output {
    CAPTCHA_CALL.scope(call, f).await
}

/// The call being served, as [`with_captcha_call`] set it; the default outside a request.
pub fn current_captcha_call() -> CaptchaCall {
    CAPTCHA_CALL.try_with(Clone::clone).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_call_is_seen_inside_its_scope_only() {
        assert_eq!(current_captcha_call(), CaptchaCall::default());
        let call = CaptchaCall {
            remote_ip: Some("203.0.113.9".into()),
            actions: &["lockSeat"],
        };
        let seen = with_captcha_call(call.clone(), async { current_captcha_call() }).await;
        assert_eq!(seen, call);
        assert_eq!(current_captcha_call(), CaptchaCall::default());
    }
}
