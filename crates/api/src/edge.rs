//! What every answer of the site gets on its way out, whatever made it (a handler, a 404, an
//! extractor's rejection, a limit, a payment provider's page): the browser hardening headers, and
//! the JSON error shape for a body over the limit (decision 0016).

use axum::extract::{Request, State};
use axum::http::header::{
    CONTENT_SECURITY_POLICY, CONTENT_TYPE, REFERRER_POLICY, STRICT_TRANSPORT_SECURITY,
    X_CONTENT_TYPE_OPTIONS, X_FRAME_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The shop's policy: scripts, styles, fonts and calls from this origin only, no inline script
/// or `<style>` (the web build has none; React sets styles through the DOM, which CSP allows),
/// images also as `data:`/`blob:` (QR codes), fonts also as `data:` (the web build inlines its
/// small font subsets into the CSS), frames of this origin only (the payment dialog
/// frames /pay/...), and never framed itself.
pub const SHOP_CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
img-src 'self' data: blob:; font-src 'self' data:; connect-src 'self'; frame-src 'self'; \
object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/// The shop's policy with a captcha provider's widget allowed: its script and its frames, from
/// the addresses the providers' docs name (reCAPTCHA's FAQ, "Content Security Policy";
/// Cloudflare Turnstile's "Content Security Policy" page). `mode` is the site config's
/// `captcha.mode`; any other (off, test) keeps [`SHOP_CSP`].
/// `payment_frame`: the origin of a card provider's hosted page, which the payment dialog frames
/// (CardCom's, decision 0063).
pub fn shop_csp(mode: Option<&str>, payment_frame: Option<&str>) -> String {
    let base = match payment_frame {
        Some(origin) => SHOP_CSP.replace("frame-src 'self'", &format!("frame-src 'self' {origin}")),
        None => SHOP_CSP.to_owned(),
    };
    let (scripts, frames) = match mode {
        Some("recaptcha-v2" | "recaptcha-v3") => (
            "https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/",
            "https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/",
        ),
        Some("turnstile") => (
            "https://challenges.cloudflare.com",
            "https://challenges.cloudflare.com",
        ),
        _ => return base,
    };
    base.replace("script-src 'self'", &format!("script-src 'self' {scripts}"))
        .replace("frame-src 'self'", &format!("frame-src 'self' {frames}"))
}

/// A year; no includeSubDomains or preload, which are the operator's to choose (in the proxy).
const HSTS: &str = "max-age=31536000";

/// Whether the site is served over HTTPS: its configured public address is https, or (behind a
/// trusted proxy, `KUPA_TRUST_FORWARDED_FOR`) the proxy says the request came over https.
#[derive(Clone)]
pub struct Https {
    pub public_url_is_https: bool,
    pub trust_forwarded: bool,
    /// The policy pages get unless they set their own ([`shop_csp`]).
    pub csp: HeaderValue,
}

impl Https {
    fn applies(&self, headers: &HeaderMap) -> bool {
        self.public_url_is_https
            || (self.trust_forwarded
                && headers
                    .get("x-forwarded-proto")
                    .and_then(|v| v.to_str().ok())
                    .and_then(|v| v.rsplit(',').next())
                    .is_some_and(|p| p.trim().eq_ignore_ascii_case("https")))
    }
}

/// Adds the hardening headers an answer does not set itself: a page with a policy of its own
/// (the test gateway's pages, the test outbox) keeps it, and states its own framing with it.
pub async fn security_headers(State(https): State<Https>, req: Request, next: Next) -> Response {
    let over_https = https.applies(req.headers());
    let mut response = next.run(req).await;
    let h = response.headers_mut();
    if !h.contains_key(CONTENT_SECURITY_POLICY) {
        h.insert(CONTENT_SECURITY_POLICY, https.csp.clone());
        h.entry(X_FRAME_OPTIONS)
            .or_insert(HeaderValue::from_static("DENY"));
    }
    h.entry(X_CONTENT_TYPE_OPTIONS)
        .or_insert(HeaderValue::from_static("nosniff"));
    h.entry(REFERRER_POLICY)
        .or_insert(HeaderValue::from_static("strict-origin-when-cross-origin"));
    if over_https {
        h.entry(STRICT_TRANSPORT_SECURITY)
            .or_insert(HeaderValue::from_static(HSTS));
    }
    response
}

/// The calls that take an upload larger than the site's limit, and their own limit (their
/// route's extractor has it too): a film's poster and a product's picture (decision 0069).
fn upload_limit(req: &Request) -> Option<usize> {
    let path = req.uri().path();
    let upload = (path.starts_with("/api/staff/films/") && path.ends_with("/poster"))
        || (path.starts_with("/api/staff/products/") && path.ends_with("/image"));
    (req.method() == axum::http::Method::PUT && upload)
        .then_some(kupa_app::backoffice::MAX_POSTER_BYTES)
}

/// A body over the limit answers 413 `payloadTooLarge` in the JSON error shape: at once when its
/// Content-Length says so (before any other check of the request), and also where an extractor
/// outside this crate (axum's `Bytes` in a provider's form post or the payment callback) wrote
/// axum's plain-text 413 for a chunked body that grew past the limit.
pub async fn body_limit(State(max): State<usize>, req: Request, next: Next) -> Response {
    let max = upload_limit(&req).unwrap_or(max);
    // The body's known size: its Content-Length on the wire.
    if axum::body::HttpBody::size_hint(req.body()).lower() > max as u64 {
        return crate::extract::too_large().into_response();
    }
    let response = next.run(req).await;
    let is_json = response
        .headers()
        .get(CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if response.status() == StatusCode::PAYLOAD_TOO_LARGE && !is_json {
        return crate::extract::too_large().into_response();
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_captcha_provider_adds_its_script_and_frames_and_nothing_else() {
        assert_eq!(shop_csp(None, None), SHOP_CSP);
        assert_eq!(shop_csp(Some("test"), None), SHOP_CSP);
        let v3 = shop_csp(Some("recaptcha-v3"), None);
        assert!(v3.contains("script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/;"));
        assert!(v3.contains("frame-src 'self' https://www.google.com/recaptcha/ https://recaptcha.google.com/recaptcha/;"));
        assert!(v3.contains("connect-src 'self';") && v3.contains("frame-ancestors 'none'"));
        let ts = shop_csp(Some("turnstile"), None);
        assert!(ts.contains("script-src 'self' https://challenges.cloudflare.com;"));
        assert!(HeaderValue::from_str(&ts).is_ok());
    }

    #[test]
    fn a_card_providers_page_may_be_framed_beside_the_captchas() {
        let both = shop_csp(Some("turnstile"), Some("https://secure.cardcom.solutions"));
        assert!(both.contains(
            "frame-src 'self' https://challenges.cloudflare.com https://secure.cardcom.solutions;"
        ));
        assert!(both.contains("frame-ancestors 'none'"));
    }
}
