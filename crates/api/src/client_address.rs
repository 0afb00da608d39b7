//! The client's address as the session layer records it for the limits that follow a buyer across
//! sessions.

use std::net::SocketAddr;

use axum::extract::ConnectInfo;

/// The client's address: the connection's peer, or (behind a trusted load balancer,
/// `KUPA_TRUST_FORWARDED_FOR`) the last address the balancer added to X-Forwarded-For.
pub(crate) fn address_of(parts: &axum::http::request::Parts, trust_forwarded_for: bool) -> String {
    address_from(&parts.headers, &parts.extensions, trust_forwarded_for)
}

fn address_from(
    headers: &axum::http::HeaderMap,
    extensions: &axum::http::Extensions,
    trust_forwarded_for: bool,
) -> String {
    if trust_forwarded_for
        && let Some(last) = headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.rsplit(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    {
        return last.to_owned();
    }
    extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}
