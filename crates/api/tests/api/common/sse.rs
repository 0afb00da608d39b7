//! A server-sent event stream read frame by frame, as a browser's EventSource reads it.

use std::time::Duration;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use super::TestApp;

pub struct EventStream {
    body: Body,
    buffer: String,
}

impl EventStream {
    /// Opens the stream; it must answer 200 with `text/event-stream`.
    pub async fn open(app: &TestApp, req: Request<Body>) -> EventStream {
        let res = app.router.clone().oneshot(req).await.unwrap();
        assert_eq!(res.status(), StatusCode::OK);
        assert_eq!(res.headers()["content-type"], "text/event-stream");
        EventStream {
            body: res.into_body(),
            buffer: String::new(),
        }
    }

    /// The next event's name and data; fails after two seconds of silence.
    pub async fn next(&mut self) -> (String, Value) {
        self.within(Duration::from_secs(2))
            .await
            .expect("no event within 2 s")
    }

    /// The next event within `wait`, or None when none came (keep-alive comments skipped).
    pub async fn within(&mut self, wait: Duration) -> Option<(String, Value)> {
        let until = tokio::time::Instant::now() + wait;
        loop {
            if let Some(event) = take_event(&mut self.buffer) {
                return Some(event);
            }
            let frame = tokio::time::timeout_at(until, self.body.frame())
                .await
                .ok()?;
            let frame = frame.expect("the event stream ended").unwrap();
            if let Ok(bytes) = frame.into_data() {
                self.buffer.push_str(std::str::from_utf8(&bytes).unwrap());
            }
        }
    }

    /// Whether the stream has ended (within `wait`).
    pub async fn ends_within(&mut self, wait: Duration) -> bool {
        let until = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(until, self.body.frame()).await {
                Err(_) => return false,
                Ok(None) => return true,
                Ok(Some(_)) => continue,
            }
        }
    }
}

/// Takes the first whole event (its name and data) off the front of `buffer`, keep-alive comments
/// skipped; None while no whole event has come.
pub fn take_event(buffer: &mut String) -> Option<(String, Value)> {
    loop {
        let end = buffer.find("\n\n")?;
        let block: String = buffer.drain(..end + 2).collect();
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(v) = line.strip_prefix("event: ") {
                name = v.to_owned();
            } else if let Some(v) = line.strip_prefix("data: ") {
                data.push_str(v);
            }
        }
        if name.is_empty() {
            continue; // a comment (keep-alive)
        }
        return Some((name, serde_json::from_str(&data).unwrap()));
    }
}
