//! The node's HTTP/1.1 serving loop (decision 0016): accepts connections on a listener and serves
//! the site on each, with the limits a server facing the internet needs and `axum::serve` lacks:
//!
//! - a deadline for a request's head (from the connection's first byte, or the first byte of a
//!   later request), for its body (from the end of its head), and for an idle keep-alive
//!   connection (from the end of the last answer); a connection past its deadline is closed;
//! - a cap on the node's open connections and on one client address's, which refuses early
//!   (a short 503 or 429 in the JSON error shape, then close) instead of running out of file
//!   descriptors;
//! - a graceful shutdown that stops accepting, lets answers in flight finish (the caller's
//!   shutdown future ends the event streams first) and closes what is left after a grace period.
//!
//! The binary (`kupa serve`) and the serving tests both call [`serve`].

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Notify, Semaphore};
use tokio::time::Instant;
use tower::ServiceExt;

/// The serving loop's limits; [`ServeLimits::default`] is what a single node facing browsers
/// directly wants (docs/configuration.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ServeLimits {
    /// A request's head must be complete this long after its first byte (or the connection's
    /// opening, for the first request).
    pub header_timeout: Duration,
    /// A request's body must be complete this long after its head.
    pub body_timeout: Duration,
    /// A keep-alive connection with no request in flight is closed after this long.
    pub idle_timeout: Duration,
    /// Open connections on the node; past it, new ones get a quick 503 and are closed.
    pub max_connections: usize,
    /// Open connections of one client (peer) address; past it, a quick 429. 0: no cap.
    pub max_connections_per_address: usize,
    /// How long a shutdown waits for answers in flight before it closes their connections.
    pub shutdown_grace: Duration,
}

pub const DEFAULT_HEADER_TIMEOUT: Duration = Duration::from_secs(10);
pub const DEFAULT_BODY_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_IDLE_TIMEOUT: Duration = Duration::from_secs(30);
pub const DEFAULT_MAX_CONNECTIONS: usize = 10_000;
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 256;
pub const DEFAULT_SHUTDOWN_GRACE: Duration = Duration::from_secs(10);

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            header_timeout: DEFAULT_HEADER_TIMEOUT,
            body_timeout: DEFAULT_BODY_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            max_connections_per_address: DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            shutdown_grace: DEFAULT_SHUTDOWN_GRACE,
        }
    }
}

/// File descriptors the process may open (the soft `RLIMIT_NOFILE`), where the system says
/// (Linux's /proc/self/limits); the connection cap must stay below it, or the node dies at it.
pub fn open_files_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Serves `app` on `listener` until `shutdown` completes, then shuts down gracefully. Each
/// request carries `ConnectInfo<SocketAddr>` (the peer), as `axum::serve` would give it.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ServeLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> io::Result<()> {
    let limits = Arc::new(limits);
    let node = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let addresses = Arc::new(AddressCounts::default());
    let graceful = hyper_util::server::graceful::GracefulShutdown::new();
    let refusals = Arc::new(Refusals::default());
    let mut http = hyper::server::conn::http1::Builder::new();
    // Our own deadlines (below) replace hyper's header timer, which would also cut keep-alive.
    http.header_read_timeout(None).keep_alive(true);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors (or another passing failure): wait a little
                    // instead of spinning; connections that close give descriptors back.
                    refusals.note(&format!("accept error: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(node_permit) = node.clone().try_acquire_owned() else {
            refusals.note("the node's connection cap is reached; refusing");
            refuse(
                stream,
                "503 Service Unavailable",
                "serviceUnavailable",
                "This server is full; try again shortly.",
            );
            continue;
        };
        let Some(address_permit) =
            addresses.try_take(peer.ip(), limits.max_connections_per_address)
        else {
            refusals.note("an address's connection cap is reached; refusing");
            refuse(
                stream,
                "429 Too Many Requests",
                "tooManyRequests",
                "Too many connections from this address; close some and try again.",
            );
            continue;
        };
        let _ = stream.set_nodelay(true);
        let watch = Arc::new(Watch::new(limits.clone()));
        let io = TokioIo::new(Watched {
            inner: stream,
            watch: watch.clone(),
        });
        let service = {
            let (app, watch) = (app.clone(), watch.clone());
            hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
                let (app, watch) = (app.clone(), watch.clone());
                async move { Ok::<_, Infallible>(handle(app, watch, peer, req).await) }
            })
        };
        let conn = graceful.watch(http.serve_connection(io, service));
        tokio::spawn(async move {
            let _permits = (node_permit, address_permit);
            tokio::select! {
                done = conn => {
                    if let Err(e) = done {
                        tracing::debug!(%peer, error = %e, "connection ended with an error");
                    }
                }
                () = watch.expired() => {
                    tracing::debug!(%peer, "connection closed: past its deadline");
                }
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            grace = ?limits.shutdown_grace,
            "connections still open after the shutdown grace period; closing them"
        );
    }
    Ok(())
}

/// One request through the site, with the connection's deadlines following it: the body's until
/// it has been read (or dropped), none while the answer is made and sent, the idle one after.
async fn handle(
    app: Router,
    watch: Arc<Watch>,
    peer: SocketAddr,
    req: hyper::Request<Incoming>,
) -> axum::response::Response {
    use axum::body::HttpBody;
    let has_body = !req.body().is_end_stream();
    watch.request_started(has_body);
    let (mut parts, body) = req.into_parts();
    parts.extensions.insert(ConnectInfo(peer));
    let body = if has_body {
        let done = BodyDone(watch.clone());
        // The closure owns the marker: it goes when the body is read to its end and dropped.
        Body::new(body.map_frame(move |f| {
            let _ = &done;
            f
        }))
    } else {
        Body::new(body)
    };
    let response = app
        .oneshot(axum::http::Request::from_parts(parts, body))
        .await
        .unwrap_or_else(|never| match never {});
    let done = AnswerDone(watch);
    response.map(move |b| {
        Body::new(b.map_frame(move |f| {
            let _ = &done;
            f
        }))
    })
}

/// A quick answer on a connection that will not be served, then close. Never waits: the
/// answer fits the socket's empty send buffer, and what the client sent is read away first so
/// the close is a FIN the client can read the answer before, not a reset.
fn refuse(stream: TcpStream, status: &str, code: &str, message: &str) {
    let body = serde_json::json!({
        "error": { "code": code, "message": message, "params": { "retryAfterSeconds": 1 } }
    })
    .to_string();
    let answer = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\
         retry-after: 1\r\nx-content-type-options: nosniff\r\nconnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut scratch = [0u8; 4096];
    let _ = stream.try_read(&mut scratch);
    let _ = stream.try_write(answer.as_bytes());
    let _ = stream.try_read(&mut scratch);
}

/// Refusals and accept errors come in floods; the log hears of them once a second.
#[derive(Default)]
struct Refusals {
    last: Mutex<Option<(Instant, u64)>>,
}

impl Refusals {
    fn note(&self, what: &str) {
        let now = Instant::now();
        let mut last = self.last.lock().expect("refusal log poisoned");
        match &mut *last {
            Some((at, n)) if now.duration_since(*at) < Duration::from_secs(1) => *n += 1,
            _ => {
                let before = last.map(|(_, n)| n).unwrap_or(0);
                tracing::warn!(also_since_last = before, "{what}");
                *last = Some((now, 0));
            }
        }
    }
}

/// Open connections per client address.
#[derive(Default)]
struct AddressCounts {
    counts: Mutex<HashMap<IpAddr, usize>>,
}

struct AddressPermit {
    address: IpAddr,
    counts: Arc<AddressCounts>,
}

impl AddressCounts {
    fn try_take(self: &Arc<Self>, address: IpAddr, cap: usize) -> Option<Option<AddressPermit>> {
        if cap == 0 {
            return Some(None);
        }
        let mut counts = self.counts.lock().expect("address counts poisoned");
        let n = counts.entry(address).or_insert(0);
        if *n >= cap {
            return None;
        }
        *n += 1;
        Some(Some(AddressPermit {
            address,
            counts: self.clone(),
        }))
    }
}

impl Drop for AddressPermit {
    fn drop(&mut self) {
        let mut counts = self.counts.counts.lock().expect("address counts poisoned");
        if let Some(n) = counts.get_mut(&self.address) {
            *n -= 1;
            if *n == 0 {
                counts.remove(&self.address);
            }
        }
    }
}

/// A connection's deadline, moved by what happens on it (see [`serve`]).
struct Watch {
    limits: Arc<ServeLimits>,
    state: Mutex<WatchState>,
    changed: Notify,
}

struct WatchState {
    /// When the connection is closed unless something moves this; None while an answer is made.
    deadline: Option<Instant>,
    /// Requests whose answer is not yet sent.
    requests: usize,
    /// Requests whose body is not yet read.
    bodies: usize,
}

impl Watch {
    fn new(limits: Arc<ServeLimits>) -> Watch {
        let deadline = Some(Instant::now() + limits.header_timeout);
        Watch {
            limits,
            state: Mutex::new(WatchState {
                deadline,
                requests: 0,
                bodies: 0,
            }),
            changed: Notify::new(),
        }
    }

    fn update(&self, f: impl FnOnce(&mut WatchState, Instant, &ServeLimits)) {
        let mut s = self.state.lock().expect("connection watch poisoned");
        let before = s.deadline;
        f(&mut s, Instant::now(), &self.limits);
        let earlier = match (before, s.deadline) {
            (_, None) => false,
            (None, Some(_)) => true,
            (Some(b), Some(a)) => a < b,
        };
        drop(s);
        if earlier {
            self.changed.notify_one();
        }
    }

    /// Bytes came in: with no request in flight they begin a request's head, which has the
    /// header timeout from now (never more than the deadline it already has).
    fn bytes_read(&self) {
        self.update(|s, now, l| {
            if s.requests == 0 {
                let head = now + l.header_timeout;
                s.deadline = Some(s.deadline.map_or(head, |d| d.min(head)));
            }
        });
    }

    fn request_started(&self, has_body: bool) {
        self.update(|s, now, l| {
            s.requests += 1;
            if has_body {
                s.bodies += 1;
                s.deadline = Some(now + l.body_timeout);
            } else if s.bodies == 0 {
                s.deadline = None;
            }
        });
    }

    fn body_done(&self) {
        self.update(|s, now, l| {
            s.bodies = s.bodies.saturating_sub(1);
            if s.bodies == 0 {
                s.deadline = (s.requests == 0).then(|| now + l.idle_timeout);
            }
        });
    }

    fn answer_done(&self) {
        self.update(|s, now, l| {
            s.requests = s.requests.saturating_sub(1);
            if s.requests == 0 && s.bodies == 0 {
                s.deadline = Some(now + l.idle_timeout);
            }
        });
    }

    /// Completes once the connection is past its deadline.
    async fn expired(&self) {
        loop {
            let changed = self.changed.notified();
            let deadline = self
                .state
                .lock()
                .expect("connection watch poisoned")
                .deadline;
            match deadline {
                None => changed.await,
                Some(at) => {
                    tokio::select! {
                        () = tokio::time::sleep_until(at) => {
                            let now = Instant::now();
                            let s = self.state.lock().expect("connection watch poisoned");
                            if s.deadline.is_some_and(|d| d <= now) {
                                return;
                            }
                        }
                        () = changed => {}
                    }
                }
            }
        }
    }
}

struct BodyDone(Arc<Watch>);

impl Drop for BodyDone {
    fn drop(&mut self) {
        self.0.body_done();
    }
}

struct AnswerDone(Arc<Watch>);

impl Drop for AnswerDone {
    fn drop(&mut self) {
        self.0.answer_done();
    }
}

/// The connection's socket, telling its watch when bytes come in.
struct Watched {
    inner: TcpStream,
    watch: Arc<Watch>,
}

impl AsyncRead for Watched {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.watch.bytes_read();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}
