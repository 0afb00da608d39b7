//! What the server logs on one test's thread, at every level, from [`Logs::capture`] on: the
//! login tests read it to check that no code or secret is ever logged.
//!
//! One global subscriber (one per test binary) writes each line to the buffer of the thread that
//! logged it: scoped subscribers race with the other tests over tracing's per-callsite cache and
//! miss lines. A thread that is not capturing formats nothing: a dynamic filter asks the thread at
//! every event (a plain `filter_fn` is cached per callsite, and the first test to log a line
//! would decide for all), so the other tests of the binary run as if there were no subscriber.

use std::cell::RefCell;
use std::sync::{Arc, Mutex};

use tracing_subscriber::filter::{LevelFilter, dynamic_filter_fn};
use tracing_subscriber::prelude::*;

thread_local! {
    static CAPTURE: RefCell<Option<Arc<Mutex<Vec<u8>>>>> = const { RefCell::new(None) };
}

fn capturing() -> bool {
    CAPTURE.with(|c| c.borrow().is_some())
}

struct ThreadWriter;

impl std::io::Write for ThreadWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        CAPTURE.with(|c| {
            if let Some(b) = &*c.borrow() {
                b.lock().unwrap().extend_from_slice(buf);
            }
        });
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[derive(Clone)]
pub struct Logs(Arc<Mutex<Vec<u8>>>);

impl Logs {
    pub fn capture() -> Logs {
        static INIT: std::sync::Once = std::sync::Once::new();
        INIT.call_once(|| {
            let layer = tracing_subscriber::fmt::layer()
                .with_writer(|| ThreadWriter)
                .with_ansi(false)
                .with_filter(LevelFilter::TRACE)
                .with_filter(dynamic_filter_fn(|_, _| capturing()));
            tracing_subscriber::registry()
                .with(layer)
                .try_init()
                .expect("no other global subscriber in this test binary");
        });
        let buf = Arc::new(Mutex::new(Vec::new()));
        CAPTURE.with(|c| *c.borrow_mut() = Some(buf.clone()));
        Logs(buf)
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}
