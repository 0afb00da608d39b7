//! The buyer's session and the login, the one session mechanism every login uses (decision 0019).
//!
//! - The buyer session id is minted by the server only: 128 random bits and a 128-bit HMAC tag
//!   under the nodes' shared session key, 64 hex characters. It travels in the `kupa_uuid` cookie
//!   and, as the spec's client does, in the `uuid` header; an id the server did not sign (made
//!   up, planted, malformed) is never adopted: the request gets a new one.
//! - A login lives in the HttpOnly `kupa_login` cookie, a random id drawn at every login and
//!   dropped at logout; the buyer session id alone never acts as a logged-in customer. At login
//!   and logout the buyer session id is rotated too (its holds and orders move with it), so an id
//!   someone planted before the login is worth nothing after it.
//! - A state-changing call whose `Origin` is another site's is refused (`forbidden`): the
//!   cookies ride along on cross-site requests, the `Origin` check is what stops them.

use axum::extract::{Request, State};
use axum::http::header::{COOKIE, HOST, ORIGIN, SET_COOKIE};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use kupa_app::ErrorCode;
use kupa_domain::ids::{SessionId, Token};
use rand::Rng;

use crate::error::ApiError;

pub use crate::buyer_session::BuyerSession;
pub use crate::session_key::SessionKey;

pub const COOKIE_NAME: &str = "kupa_uuid";
pub const LOGIN_COOKIE_NAME: &str = "kupa_login";
pub const HEADER_NAME: &str = "uuid";
/// A session cookie lives a month; holds and carts end far sooner on their own.
const MAX_AGE_SECONDS: u32 = 30 * 24 * 3600;
/// The login cookie lives as long as the login does (`accounts::LOGIN_TTL_MS`).
const LOGIN_MAX_AGE_SECONDS: i64 = kupa_app::accounts::LOGIN_TTL_MS / 1000;

impl BuyerSession {
    /// The buyer as the limits that follow them see it: the address and the logged-in customer.
    pub async fn holder(
        &self,
        state: &crate::state::AppState,
    ) -> Result<kupa_app::booking::Holder, ApiError> {
        let customer_id = state
            .customers
            .customer_of_login(self.login())
            .await?
            .map(|a| a.customer.id);
        Ok(kupa_app::booking::Holder {
            address: self.address().to_owned(),
            customer_id,
        })
    }
}

/// What a handler asks the session layer to do to the cookies on its answer: a login sets a
/// fresh login cookie, a logout clears it, and both rotate the buyer session id.
#[derive(Debug, Clone)]
pub struct SessionChange {
    /// The new buyer session id (its state already moved to it).
    pub rotated_to: SessionId,
    /// Some(id): set the login cookie to it; None: clear it.
    pub login: Option<String>,
}

impl SessionChange {
    /// Adds the change to a handler's answer.
    pub fn apply(self, response: impl IntoResponse) -> Response {
        let mut response = response.into_response();
        response.extensions_mut().insert(self);
        response
    }
}

/// A new login id (the `kupa_login` cookie's value).
pub fn new_login_id() -> String {
    Token::from_bytes(rand::rng().random()).to_string()
}

fn cookie_values<'a>(headers: &'a HeaderMap, name: &'a str) -> impl Iterator<Item = &'a str> {
    headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(move |kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == name).then_some(v)
        })
}

/// The layer's settings: the signing key, whether to believe X-Forwarded-For, and the site's own
/// origin (besides the request's own host) that state-changing calls may come from.
#[derive(Clone)]
pub struct SessionGate {
    pub key: SessionKey,
    pub trust_forwarded_for: bool,
    pub public_origin: String,
}

/// The origin (scheme://host[:port]) of a URL.
pub fn origin_of(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let host = rest.split('/').next().unwrap_or_default();
            format!(
                "{}://{}",
                scheme.to_ascii_lowercase(),
                host.to_ascii_lowercase()
            )
        }
        None => url.to_ascii_lowercase(),
    }
}

/// A state-changing call from another site's page: its `Origin` is neither the configured public
/// origin nor the origin of the host it was sent to. Calls without `Origin` (other programs,
/// old browsers on same-origin requests) pass: they carry no cookies a page could abuse.
fn cross_site(parts: &Parts, public_origin: &str) -> bool {
    if matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return false;
    }
    let Some(origin) = parts.headers.get(ORIGIN) else {
        return false;
    };
    let Ok(origin) = origin.to_str() else {
        return true;
    };
    let origin = origin.trim().to_ascii_lowercase();
    if origin == public_origin {
        return false;
    }
    let host = parts
        .headers
        .get(HOST)
        .and_then(|h| h.to_str().ok())
        .map(str::to_ascii_lowercase);
    // Same origin: the page was served by the host the call goes to.
    let same_host = host.is_some_and(|h| {
        origin
            .split_once("://")
            .is_some_and(|(_, authority)| authority == h)
    });
    !same_host
}

/// Finds the buyer session (cookie first, then the `uuid` header) when the server signed it, or
/// issues a new one, and makes it known to the browser (cookie) and to the client code (`uuid`
/// response header); reads the login cookie; refuses cross-site state changes.
pub async fn middleware(State(gate): State<SessionGate>, request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    if cross_site(&parts, &gate.public_origin) {
        tracing::warn!(path = %parts.uri.path(), "cross-site state change refused");
        // `reason` tells this refusal from a role's: the page says to reload, not to ask a manager.
        return ApiError {
            params: Some(serde_json::json!({ "reason": "crossSite" })),
            ..ApiError::new(
                ErrorCode::Forbidden,
                "This call came from another site's page and was refused.",
            )
        }
        .into_response();
    }
    let signed = |v: &str| gate.key.verify(v).then(|| v.to_owned());
    let from_cookie = cookie_values(&parts.headers, COOKIE_NAME).find_map(signed);
    let from_header = parts
        .headers
        .get(HEADER_NAME)
        .and_then(|v| v.to_str().ok())
        .and_then(signed);
    let login = cookie_values(&parts.headers, LOGIN_COOKIE_NAME)
        .find_map(Token::parse)
        .map(|t| t.to_string());
    // The cookie is what the server last set (a rotation reaches it at once); the header is how
    // clients without cookies carry their session.
    let had_cookie = from_cookie.is_some();
    let id = from_cookie
        .or(from_header)
        .unwrap_or_else(|| gate.key.mint());
    let address = crate::client_address::address_of(&parts, gate.trust_forwarded_for);
    parts.extensions.insert(BuyerSession::new(
        SessionId::new(id.clone()),
        login,
        address,
    ));
    // Behind a TLS-terminating load balancer the cookies must be Secure.
    let https = parts
        .headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        == Some("https")
        || gate.public_origin.starts_with("https://");
    let secure = if https { "; Secure" } else { "" };
    let mut response = next.run(Request::from_parts(parts, body)).await;
    let change = response.extensions_mut().remove::<SessionChange>();
    let (id, set_cookie) = match &change {
        Some(c) => (c.rotated_to.as_str().to_owned(), true),
        None => (id, !had_cookie),
    };
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&id) {
        headers.insert(HEADER_NAME, v);
    }
    let mut cookies = Vec::new();
    if set_cookie {
        // Readable by the page script on purpose: the spec's client sends it back in the header.
        cookies.push(format!(
            "{COOKIE_NAME}={id}; Path=/; Max-Age={MAX_AGE_SECONDS}; SameSite=Lax{secure}"
        ));
    }
    if let Some(c) = change {
        cookies.push(match c.login {
            Some(login) => format!(
                "{LOGIN_COOKIE_NAME}={login}; Path=/; Max-Age={LOGIN_MAX_AGE_SECONDS}; HttpOnly; SameSite=Lax{secure}"
            ),
            None => format!(
                "{LOGIN_COOKIE_NAME}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax{secure}"
            ),
        });
    }
    for cookie in cookies {
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            headers.append(SET_COOKIE, v);
        }
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_ids_the_key_signed_pass() {
        let key = SessionKey::for_tests();
        let id = key.mint();
        assert_eq!(id.len(), 64);
        assert!(key.verify(&id));
        assert!(!SessionKey::random().verify(&id), "another key's id");
        assert!(!key.verify(&"0".repeat(64)));
        assert!(!key.verify(&"0".repeat(32)), "the old unsigned shape");
        let mut forged = id.clone().into_bytes();
        forged[63] = if forged[63] == b'0' { b'1' } else { b'0' };
        assert!(!key.verify(std::str::from_utf8(&forged).unwrap()));
        assert!(!key.verify(&id.to_uppercase()));
    }

    #[test]
    fn origins_are_scheme_and_authority() {
        assert_eq!(
            origin_of("https://Tickets.Example/"),
            "https://tickets.example"
        );
        assert_eq!(origin_of("http://127.0.0.1:8080"), "http://127.0.0.1:8080");
    }
}
