//! The serving loop over real sockets (crates/wiring/src/serve.rs): each deadline closes what it
//! should and nothing else, and the connection caps refuse early in the JSON error shape.
//! A tiny site stands in for Kupa's: the loop does not care what it serves.

use std::io::{ErrorKind, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::ConnectInfo;
use axum::routing::{get, post};
use kupa_wiring::serve::{ServeLimits, serve};

fn limits() -> ServeLimits {
    ServeLimits {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        idle_timeout: Duration::from_millis(900),
        max_connections: 100,
        max_connections_per_address: 0,
        shutdown_grace: Duration::from_secs(1),
    }
}

fn site() -> Router {
    Router::new()
        .route("/", get(|| async { "ok" }))
        .route(
            "/peer",
            get(|ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.ip().to_string() }),
        )
        .route(
            "/slow",
            get(|| async {
                tokio::time::sleep(Duration::from_millis(800)).await;
                "slow but fine"
            }),
        )
        .route("/echo", post(|body: String| async move { body }))
}

/// A node with these limits on a free port of 127.0.0.1; stops when the test's runtime ends.
async fn start(limits: ServeLimits) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, site(), limits, std::future::pending()));
    addr
}

fn connect(addr: SocketAddr) -> TcpStream {
    let s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s
}

/// A connection from another loopback address (any 127.x works on Linux).
fn connect_from(local: &str, addr: SocketAddr) -> TcpStream {
    let s = tokio::task::block_in_place(|| {
        tokio::runtime::Handle::current().block_on(async {
            let sock = tokio::net::TcpSocket::new_v4().unwrap();
            sock.bind(format!("{local}:0").parse().unwrap()).unwrap();
            sock.connect(addr).await.unwrap().into_std().unwrap()
        })
    });
    s.set_nonblocking(false).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    s
}

/// Reads until the server closes; how long that took and what it said.
fn read_to_close(s: &mut TcpStream) -> (Duration, String) {
    let started = Instant::now();
    let mut all = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => all.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == ErrorKind::ConnectionReset => break,
            Err(e) => panic!("still open after {:?}: {e}", started.elapsed()),
        }
    }
    (
        started.elapsed(),
        String::from_utf8_lossy(&all).into_owned(),
    )
}

/// One answer on a keep-alive connection (the tiny site's answers are short and whole).
fn answer(s: &mut TcpStream, request: &str) -> String {
    s.write_all(request.as_bytes()).unwrap();
    let mut buf = [0u8; 4096];
    let n = s.read(&mut buf).unwrap();
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

const GET: &str = "GET / HTTP/1.1\r\nHost: kupa\r\n\r\n";

#[tokio::test(flavor = "multi_thread")]
async fn a_connection_that_sends_nothing_is_closed_at_the_header_timeout() {
    let addr = start(limits()).await;
    let mut s = connect(addr);
    let (took, said) = read_to_close(&mut s);
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert_eq!(said, "");
}

#[tokio::test(flavor = "multi_thread")]
async fn headers_that_trickle_in_are_cut_at_the_header_timeout() {
    let addr = start(limits()).await;
    let mut s = connect(addr);
    s.write_all(b"GET / HTTP/1.1\r\nHost: kupa\r\n").unwrap();
    let started = Instant::now();
    let mut closed = false;
    for i in 0..40 {
        std::thread::sleep(Duration::from_millis(50));
        if s.write_all(format!("X-{i}: y\r\n").as_bytes()).is_err() {
            closed = true;
            break;
        }
    }
    let (_, said) = read_to_close(&mut s);
    assert!(closed || started.elapsed() < Duration::from_millis(2500));
    assert!(!said.contains("200 OK"), "{said}");
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_half_sent_body_is_cut_at_the_body_timeout() {
    let addr = start(limits()).await;
    let mut s = connect(addr);
    s.write_all(b"POST /echo HTTP/1.1\r\nHost: kupa\r\nContent-Length: 100\r\n\r\nonly ten..")
        .unwrap();
    let (took, said) = read_to_close(&mut s);
    assert!(took < Duration::from_millis(1500), "{took:?}");
    assert!(!said.contains("200 OK"), "{said}");
}

#[tokio::test(flavor = "multi_thread")]
async fn an_idle_keep_alive_connection_lasts_the_idle_timeout_and_no_longer() {
    let addr = start(limits()).await;
    let mut s = connect(addr);
    assert!(answer(&mut s, GET).starts_with("HTTP/1.1 200"));
    // Longer than the header timeout, shorter than the idle one: still open.
    std::thread::sleep(Duration::from_millis(500));
    assert!(answer(&mut s, GET).starts_with("HTTP/1.1 200"));
    let (took, _) = read_to_close(&mut s);
    assert!(
        took > Duration::from_millis(600) && took < Duration::from_millis(2000),
        "{took:?}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn a_slow_answer_and_a_whole_body_are_not_cut() {
    let addr = start(limits()).await;
    let mut s = connect(addr);
    let said = answer(&mut s, "GET /slow HTTP/1.1\r\nHost: kupa\r\n\r\n");
    assert!(
        said.starts_with("HTTP/1.1 200") && said.ends_with("slow but fine"),
        "{said}"
    );
    let said = answer(
        &mut s,
        "POST /echo HTTP/1.1\r\nHost: kupa\r\nContent-Length: 5\r\n\r\nhello",
    );
    assert!(said.ends_with("hello"), "{said}");
    let said = answer(&mut s, "GET /peer HTTP/1.1\r\nHost: kupa\r\n\r\n");
    assert!(
        said.ends_with("127.0.0.1"),
        "the peer reaches the site: {said}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn past_the_node_cap_a_connection_gets_a_quick_503() {
    let addr = start(ServeLimits {
        header_timeout: Duration::from_secs(30),
        max_connections: 3,
        ..limits()
    })
    .await;
    let held: Vec<TcpStream> = (0..3).map(|_| connect(addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut s = connect(addr);
    let (took, said) = read_to_close(&mut s);
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert!(said.starts_with("HTTP/1.1 503"), "{said}");
    assert!(said.contains("retry-after: 1"), "{said}");
    assert!(said.contains("\"code\":\"serviceUnavailable\""), "{said}");
    drop(held);
    std::thread::sleep(Duration::from_millis(100));
    let mut s = connect(addr);
    assert!(
        answer(&mut s, GET).starts_with("HTTP/1.1 200"),
        "room again"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn past_its_cap_an_address_gets_a_quick_429_and_others_are_served() {
    let addr = start(ServeLimits {
        header_timeout: Duration::from_secs(30),
        max_connections_per_address: 2,
        ..limits()
    })
    .await;
    let _held: Vec<TcpStream> = (0..2).map(|_| connect_from("127.0.0.2", addr)).collect();
    std::thread::sleep(Duration::from_millis(100));
    let mut s = connect_from("127.0.0.2", addr);
    let (_, said) = read_to_close(&mut s);
    assert!(said.starts_with("HTTP/1.1 429"), "{said}");
    assert!(said.contains("\"code\":\"tooManyRequests\""), "{said}");
    let mut s = connect(addr);
    assert!(
        answer(&mut s, GET).starts_with("HTTP/1.1 200"),
        "127.0.0.1 has its own cap"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn shutdown_ends_the_loop_and_closes_idle_connections() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let served = tokio::spawn(serve(
        listener,
        site(),
        ServeLimits {
            idle_timeout: Duration::from_secs(30),
            ..limits()
        },
        async move {
            let _ = stopped.await;
        },
    ));
    let mut s = connect(addr);
    assert!(answer(&mut s, GET).starts_with("HTTP/1.1 200"));
    stop.send(()).unwrap();
    let (took, _) = read_to_close(&mut s);
    assert!(took < Duration::from_millis(1500), "{took:?}");
    tokio::time::timeout(Duration::from_secs(3), served)
        .await
        .expect("the loop ended")
        .unwrap()
        .unwrap();
}
