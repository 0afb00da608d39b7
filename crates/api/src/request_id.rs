//! A request id on every request: in the log span, and in the `x-request-id` response header so
//! a buyer's complaint can be matched to the log. Only the path is logged, never the query
//! (it may carry tokens) nor bodies.

use std::time::Instant;

use axum::extract::{MatchedPath, Request};
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;
use rand::Rng;
use tracing::Instrument;

pub const HEADER: &str = "x-request-id";

pub async fn middleware(request: Request, next: Next) -> Response {
    let id = format!("{:016x}", rand::rng().random::<u64>());
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map(|m| m.as_str().to_owned());
    let path = route.unwrap_or_else(|| request.uri().path().to_owned());
    let method = request.method().clone();
    let span = tracing::info_span!("request", request_id = %id, %method, %path);
    let started = Instant::now();
    let mut response = next.run(request).instrument(span.clone()).await;
    let status = response.status().as_u16();
    let micros = started.elapsed().as_micros() as u64;
    span.in_scope(|| {
        if status >= 500 {
            tracing::error!(status, micros, "request failed");
        } else {
            tracing::info!(status, micros, "request");
        }
    });
    if let Ok(v) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, v);
    }
    response
}
