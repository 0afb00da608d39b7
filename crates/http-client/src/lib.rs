//! A small HTTP/1.1 client over tokio's TCP stream, for talking to our own server on loopback: the
//! load generator's buyers and watchers, and the fault tests' (through [`blocking`]).
//! Keep-alive, Content-Length and chunked bodies, and a server-sent-events reader. No client
//! stack in the build (hyper's client features would rebuild the server's tree), and cheap per
//! request: one connection reuses its buffers, which matters when the load generator shares two
//! cores with the server it measures.

use std::net::SocketAddr;
use std::time::Duration;

use anyhow::{Context, anyhow, bail};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// How long one request may take before it counts as a transport error, unless the connection
/// says otherwise ([`Conn::with_timeout`]).
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

pub struct Response {
    pub status: u16,
    pub location: Option<String>,
    /// The buyer session id the server issued or kept (its `uuid` header): a client gets its
    /// session from the server, as a browser does, and sends it back.
    pub session: Option<String>,
    pub body: Vec<u8>,
}

impl Response {
    /// The body as text (lossy: an answer that is not UTF-8 still reads).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The error code of an API error body (`{"error": {"code": …}}`), if any.
    pub fn error_code(&self) -> Option<String> {
        // Error bodies are small: a full parse is fine here.
        let v: serde_json::Value = serde_json::from_slice(&self.body).ok()?;
        v["error"]["code"].as_str().map(str::to_owned)
    }
}

/// One keep-alive connection to one server (a browser tab, roughly).
pub struct Conn {
    addr: SocketAddr,
    stream: Option<BufReader<TcpStream>>,
    /// Scratch buffer for the request head and body, reused across requests.
    out: Vec<u8>,
    line: String,
    timeout: Duration,
}

pub struct Request<'a> {
    pub method: &'a str,
    pub path: &'a str,
    /// The buyer session id, sent as the `uuid` header and the `kupa_uuid` cookie.
    pub session: Option<&'a str>,
    /// (content type, body)
    pub body: Option<(&'a str, &'a [u8])>,
}

impl Conn {
    pub fn new(addr: SocketAddr) -> Conn {
        Conn {
            addr,
            stream: None,
            out: Vec::with_capacity(1024),
            line: String::with_capacity(256),
            timeout: REQUEST_TIMEOUT,
        }
    }

    /// The same connection, whose requests time out after `timeout` (connecting included).
    pub fn with_timeout(self, timeout: Duration) -> Conn {
        Conn { timeout, ..self }
    }

    /// Sends one request and reads the whole answer, within the connection's timeout. A request
    /// on a reused connection that the server had already closed is retried once on a new one.
    pub async fn send(&mut self, req: &Request<'_>) -> anyhow::Result<Response> {
        match tokio::time::timeout(self.timeout, self.send_inner(req)).await {
            Ok(r) => r,
            Err(_) => {
                self.stream = None;
                Err(anyhow!("timed out after {:?}", self.timeout))
            }
        }
    }

    async fn send_inner(&mut self, req: &Request<'_>) -> anyhow::Result<Response> {
        self.out.clear();
        write_head(&mut self.out, req);
        let reused = self.stream.is_some();
        match self.round_trip().await {
            Ok(r) => Ok(r),
            Err(e) if reused && e.downcast_ref::<StaleConnection>().is_some() => {
                self.stream = None;
                self.round_trip().await
            }
            Err(e) => {
                self.stream = None;
                Err(e)
            }
        }
    }

    async fn round_trip(&mut self) -> anyhow::Result<Response> {
        if self.stream.is_none() {
            let s = TcpStream::connect(self.addr)
                .await
                .with_context(|| format!("connect {}", self.addr))?;
            s.set_nodelay(true)?;
            self.stream = Some(BufReader::with_capacity(16 * 1024, s));
        }
        let stream = self.stream.as_mut().expect("connected");
        if let Err(e) = stream.get_mut().write_all(&self.out).await {
            return Err(anyhow::Error::new(StaleConnection).context(e));
        }
        self.line.clear();
        let n = stream.read_line(&mut self.line).await?;
        if n == 0 {
            return Err(anyhow::Error::new(StaleConnection));
        }
        let status = parse_status(&self.line)?;
        let head = read_headers(stream, &mut self.line).await?;
        let body = if head.chunked {
            read_chunked(stream, &mut self.line).await?
        } else if let Some(len) = head.content_length {
            let mut body = vec![0; len];
            stream.read_exact(&mut body).await?;
            body
        } else if status == 204 || status == 304 {
            Vec::new()
        } else {
            // Body until close.
            let mut body = Vec::new();
            stream.read_to_end(&mut body).await?;
            self.stream = None;
            body
        };
        if head.close {
            self.stream = None;
        }
        Ok(Response {
            status,
            location: head.location,
            session: head.session,
            body,
        })
    }
}

#[derive(Debug)]
struct StaleConnection;

impl std::fmt::Display for StaleConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the server closed the connection")
    }
}

impl std::error::Error for StaleConnection {}

fn write_head(out: &mut Vec<u8>, req: &Request<'_>) {
    use std::io::Write;
    let _ = write!(
        out,
        "{} {} HTTP/1.1\r\nHost: 127.0.0.1\r\n",
        req.method, req.path
    );
    if let Some(s) = req.session {
        let _ = write!(out, "uuid: {s}\r\nCookie: kupa_uuid={s}\r\n");
    }
    match req.body {
        Some((ct, body)) => {
            let _ = write!(
                out,
                "Content-Type: {ct}\r\nContent-Length: {}\r\n\r\n",
                body.len()
            );
            out.extend_from_slice(body);
        }
        None if req.method == "POST" || req.method == "PUT" => {
            out.extend_from_slice(b"Content-Length: 0\r\n\r\n");
        }
        None => out.extend_from_slice(b"\r\n"),
    }
}

fn parse_status(line: &str) -> anyhow::Result<u16> {
    let mut parts = line.split_ascii_whitespace();
    let version = parts.next().unwrap_or_default();
    if !version.starts_with("HTTP/1.") {
        bail!("not an HTTP/1 answer: {line:?}");
    }
    parts
        .next()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| anyhow!("bad status line {line:?}"))
}

#[derive(Default)]
struct Head {
    content_length: Option<usize>,
    chunked: bool,
    close: bool,
    location: Option<String>,
    session: Option<String>,
    content_type: Option<String>,
}

async fn read_headers(
    stream: &mut BufReader<TcpStream>,
    line: &mut String,
) -> anyhow::Result<Head> {
    let mut head = Head::default();
    loop {
        line.clear();
        if stream.read_line(line).await? == 0 {
            bail!("connection closed in the headers");
        }
        let l = line.trim_end();
        if l.is_empty() {
            return Ok(head);
        }
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            head.content_length = Some(value.parse().context("content-length")?);
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            head.chunked = value.eq_ignore_ascii_case("chunked");
        } else if name.eq_ignore_ascii_case("connection") {
            head.close = value.eq_ignore_ascii_case("close");
        } else if name.eq_ignore_ascii_case("uuid") {
            head.session = Some(value.to_owned());
        } else if name.eq_ignore_ascii_case("location") {
            head.location = Some(value.to_owned());
        } else if name.eq_ignore_ascii_case("content-type") {
            head.content_type = Some(value.to_owned());
        }
    }
}

async fn read_chunk_size(
    stream: &mut BufReader<TcpStream>,
    line: &mut String,
) -> anyhow::Result<usize> {
    line.clear();
    if stream.read_line(line).await? == 0 {
        bail!("connection closed in a chunked body");
    }
    let size = line.trim_end().split(';').next().unwrap_or_default();
    usize::from_str_radix(size.trim(), 16).with_context(|| format!("chunk size {line:?}"))
}

async fn read_chunked(
    stream: &mut BufReader<TcpStream>,
    line: &mut String,
) -> anyhow::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let size = read_chunk_size(stream, line).await?;
        if size == 0 {
            // Trailers, then the empty line.
            loop {
                line.clear();
                if stream.read_line(line).await? == 0 || line.trim_end().is_empty() {
                    return Ok(body);
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        stream.read_exact(&mut body[start..]).await?;
        let mut crlf = [0u8; 2];
        stream.read_exact(&mut crlf).await?;
    }
}

/// One message of an event stream.
pub struct SseMessage {
    pub event: String,
    pub data: String,
}

/// A server-sent-events subscription: the answer's head is read by [`EventStream::open`], then
/// [`EventStream::next`] yields each message (comments such as `: ping` are skipped).
pub struct EventStream {
    stream: BufReader<TcpStream>,
    chunked: bool,
    /// Bytes of the current chunk not yet read (chunked bodies).
    chunk_left: usize,
    line: String,
    pending: Vec<u8>,
}

pub enum Opened {
    Stream(EventStream),
    /// The server answered, but not with an event stream (e.g. 404: not built yet).
    Refused {
        status: u16,
    },
}

impl EventStream {
    pub async fn open(addr: SocketAddr, path: &str) -> anyhow::Result<Opened> {
        let s = TcpStream::connect(addr)
            .await
            .with_context(|| format!("connect {addr}"))?;
        s.set_nodelay(true)?;
        let mut stream = BufReader::with_capacity(8 * 1024, s);
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n"
        );
        stream.get_mut().write_all(head.as_bytes()).await?;
        let mut line = String::new();
        if stream.read_line(&mut line).await? == 0 {
            bail!("connection closed before the answer");
        }
        let status = parse_status(&line)?;
        let head = read_headers(&mut stream, &mut line).await?;
        let is_stream = head
            .content_type
            .as_deref()
            .is_some_and(|c| c.starts_with("text/event-stream"));
        if status != 200 || !is_stream {
            return Ok(Opened::Refused { status });
        }
        Ok(Opened::Stream(EventStream {
            stream,
            chunked: head.chunked,
            chunk_left: 0,
            line,
            pending: Vec::with_capacity(1024),
        }))
    }

    /// Reads one line of the body (without its line end) into `self.pending`.
    async fn read_body_line(&mut self) -> anyhow::Result<()> {
        self.pending.clear();
        loop {
            if self.chunked && self.chunk_left == 0 {
                let size = read_chunk_size(&mut self.stream, &mut self.line).await?;
                if size == 0 {
                    bail!("the event stream ended");
                }
                self.chunk_left = size;
            }
            let buf = self.stream.fill_buf().await?;
            if buf.is_empty() {
                bail!("the event stream closed");
            }
            let limit = if self.chunked {
                buf.len().min(self.chunk_left)
            } else {
                buf.len()
            };
            let window = &buf[..limit];
            let (take, done) = match window.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (limit, false),
            };
            self.pending.extend_from_slice(&window[..take]);
            self.stream.consume(take);
            if self.chunked {
                self.chunk_left -= take;
                if self.chunk_left == 0 {
                    let mut crlf = [0u8; 2];
                    self.stream.read_exact(&mut crlf).await?;
                }
            }
            if done {
                while matches!(self.pending.last(), Some(b'\n' | b'\r')) {
                    self.pending.pop();
                }
                return Ok(());
            }
        }
    }

    /// The next message (event name, default `message`, and its data lines joined by `\n`).
    pub async fn next(&mut self) -> anyhow::Result<SseMessage> {
        let mut event = String::new();
        let mut data = String::new();
        let mut has_data = false;
        loop {
            self.read_body_line().await?;
            let l = &self.pending;
            if l.is_empty() {
                if has_data || !event.is_empty() {
                    if event.is_empty() {
                        event.push_str("message");
                    }
                    return Ok(SseMessage { event, data });
                }
                continue;
            }
            if l[0] == b':' {
                continue;
            }
            let text = String::from_utf8_lossy(l);
            let (field, value) = match text.split_once(':') {
                Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
                None => (text.as_ref(), ""),
            };
            match field {
                "event" => {
                    event.clear();
                    event.push_str(value);
                }
                "data" => {
                    if has_data {
                        data.push('\n');
                    }
                    data.push_str(value);
                    has_data = true;
                }
                _ => {}
            }
        }
    }
}

/// Percent-encodes a form or query value.
pub fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// For callers on plain threads, such as the fault tests' buyers.
pub mod blocking {
    use std::net::SocketAddr;
    use std::time::Duration;

    use super::{Conn, Request, Response};

    thread_local! {
        /// Each calling thread's own small runtime, built at its first call.
        static RUNTIME: tokio::runtime::Runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a runtime for blocking calls");
    }

    /// Sends one request on a new connection, closed after the answer, within `timeout`. A fresh
    /// connection is never retried, so a call reaches the server at most once, and a server
    /// killed between two calls leaves no stale connection behind. Not from inside a runtime.
    pub fn send_once(
        addr: SocketAddr,
        req: &Request<'_>,
        timeout: Duration,
    ) -> anyhow::Result<Response> {
        RUNTIME.with(|rt| rt.block_on(Conn::new(addr).with_timeout(timeout).send(req)))
    }
}

#[cfg(test)]
mod tests {
    use std::io::{BufRead, BufReader as StdBufReader, Write};
    use std::net::{SocketAddr, TcpListener};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    /// A server on loopback that plays `script`: for each connection it accepts, the answers
    /// (raw bytes) to write, one per request read; after them it closes the connection.
    fn server(script: Vec<Vec<&'static str>>) -> (SocketAddr, Arc<AtomicUsize>) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let accepted = Arc::new(AtomicUsize::new(0));
        let count = accepted.clone();
        std::thread::spawn(move || {
            for answers in script {
                let (stream, _) = listener.accept().unwrap();
                count.fetch_add(1, Ordering::SeqCst);
                let mut reader = StdBufReader::new(stream.try_clone().unwrap());
                let mut out = stream;
                for answer in answers {
                    // A request without a body: its head ends with an empty line.
                    let mut line = String::new();
                    loop {
                        line.clear();
                        if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                            break;
                        }
                    }
                    out.write_all(answer.as_bytes()).unwrap();
                }
            }
        });
        (addr, accepted)
    }

    fn get(path: &str) -> Request<'_> {
        Request {
            method: "GET",
            path,
            session: Some("0123"),
            body: None,
        }
    }

    #[tokio::test]
    async fn chunked_and_sized_answers_read_whole_on_one_kept_alive_connection() {
        let (addr, accepted) = server(vec![vec![
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
            "HTTP/1.1 303 See Other\r\nLocation: /next\r\nContent-Length: 2\r\n\r\n{}",
        ]]);
        let mut conn = Conn::new(addr);
        let first = conn.send(&get("/a")).await.unwrap();
        assert_eq!(
            (first.status, first.text()),
            (200, "hello world".to_owned())
        );
        let second = conn.send(&get("/b")).await.unwrap();
        assert_eq!(second.status, 303);
        assert_eq!(second.location.as_deref(), Some("/next"));
        assert_eq!(
            accepted.load(Ordering::SeqCst),
            1,
            "one connection for both"
        );
    }

    #[tokio::test]
    async fn a_kept_alive_connection_the_server_closed_is_retried_once_on_a_new_one() {
        let ok = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
        // The first connection answers one request, then closes (an idle timeout, say).
        let (addr, accepted) = server(vec![vec![ok], vec![ok]]);
        let mut conn = Conn::new(addr);
        assert_eq!(conn.send(&get("/a")).await.unwrap().status, 200);
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert_eq!(conn.send(&get("/b")).await.unwrap().status, 200);
        assert_eq!(accepted.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_blocking_call_reaches_the_server_at_most_once() {
        // The server reads the request and closes without answering.
        let (addr, accepted) = server(vec![vec![""]]);
        let r = blocking::send_once(addr, &get("/a"), Duration::from_secs(5));
        assert!(r.is_err(), "no answer is an error");
        std::thread::sleep(Duration::from_millis(50));
        assert_eq!(accepted.load(Ordering::SeqCst), 1, "not retried");
    }
}
