//! The buyer's session: a random 128-bit `uuid` the server issues on the first call, kept in a
//! cookie and echoed by the web app in the `uuid` header. Calls that change state check that what
//! they touch belongs to it.

use axum::extract::{FromRequestParts, Request};
use axum::http::HeaderValue;
use axum::http::header::{COOKIE, SET_COOKIE};
use axum::http::request::Parts;
use axum::middleware::Next;
use axum::response::Response;
use kupa_domain::ids::Token;
use rand::Rng;

pub const COOKIE_NAME: &str = "kupa_uuid";
pub const HEADER_NAME: &str = "uuid";
/// A session cookie lives a month; holds and carts end far sooner on their own.
const MAX_AGE_SECONDS: u32 = 30 * 24 * 3600;

#[derive(Debug, Clone)]
pub struct BuyerSession(pub Token);

impl BuyerSession {
    pub fn id(&self) -> &str {
        self.0.as_str()
    }
}

fn from_cookie(parts: &Parts) -> Option<Token> {
    parts
        .headers
        .get_all(COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|kv| {
            let (k, v) = kv.trim().split_once('=')?;
            (k == COOKIE_NAME).then(|| Token::parse(v)).flatten()
        })
}

fn from_header(parts: &Parts) -> Option<Token> {
    parts
        .headers
        .get(HEADER_NAME)
        .and_then(|v| v.to_str().ok())
        .and_then(Token::parse)
}

/// Finds the session in the header or the cookie, or issues a new one, and makes it known to the
/// browser (cookie) and to the client code (`uuid` response header).
pub async fn middleware(request: Request, next: Next) -> Response {
    let (mut parts, body) = request.into_parts();
    let found = from_header(&parts).or_else(|| from_cookie(&parts));
    let had_cookie = from_cookie(&parts).is_some();
    // Behind a TLS-terminating load balancer the cookie must be Secure.
    let https = parts
        .headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        == Some("https");
    let token = found.unwrap_or_else(|| Token::from_bytes(rand::rng().random()));
    parts.extensions.insert(BuyerSession(token.clone()));
    let mut response = next.run(Request::from_parts(parts, body)).await;
    if let Ok(v) = HeaderValue::from_str(token.as_str()) {
        response.headers_mut().insert(HEADER_NAME, v);
    }
    if !had_cookie {
        // Readable by the page script on purpose: the spec's client sends it back in the header.
        let secure = if https { "; Secure" } else { "" };
        let cookie = format!(
            "{COOKIE_NAME}={token}; Path=/; Max-Age={MAX_AGE_SECONDS}; SameSite=Lax{secure}"
        );
        if let Ok(v) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(SET_COOKIE, v);
        }
    }
    response
}

impl<S: Send + Sync> FromRequestParts<S> for BuyerSession {
    type Rejection = crate::error::ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<BuyerSession>()
            .cloned()
            .ok_or_else(|| {
                crate::error::ApiError::from(kupa_app::AppError::internal(
                    "session middleware not installed",
                ))
            })
    }
}
