//! Mail through a real SMTP server (decision 0057): aiosmtpd (PyPI; `python3 -m pip install
//! aiosmtpd`, as .ci/run does) started by the test on a loopback port, with STARTTLS required
//! and a login, its certificate signed by a CA the test makes with the openssl command. The
//! confirmation of a real paid order is queued, survives the server being down, and arrives
//! once, multipart with the text, the HTML and the tickets PDF. On SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use base64::Engine;
use kupa_providers::delivery::Delivery;
use kupa_providers::delivery::config::DeliverySettings;
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;

use crate::common::paying::*;
use crate::common::*;

const USER: &str = "kupa-mailer";
const PASSWORD: &str = "smtp-pass-91c2";

/// aiosmtpd with STARTTLS required and a login; each mail it takes is written to
/// `mail-N.eml` in its directory, headed by whether it came over TLS and its envelope recipients.
const SERVER: &str = r#"
import os, pathlib, ssl, sys, warnings
warnings.simplefilter("ignore")
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword

port, certs, out, user, password = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
tls.load_cert_chain(os.path.join(certs, "server.pem"), os.path.join(certs, "server.key"))

class Keep:
    n = 0
    async def handle_DATA(self, server, session, envelope):
        Keep.n += 1
        head = "X-Test-TLS: %s\r\nX-Test-Rcpt: %s\r\n" % ("yes" if session.ssl else "no", ",".join(envelope.rcpt_tos))
        path = pathlib.Path(out) / ("mail-%d.eml" % Keep.n)
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(head.encode() + envelope.content)
        tmp.rename(path)
        return "250 2.0.0 Ok: queued"

def login(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == user.encode() and auth_data.password == password.encode()
    return AuthResult(success=ok)

c = Controller(Keep(), hostname="127.0.0.1", port=port, tls_context=tls, require_starttls=True,
               authenticator=login, auth_require_tls=True)
c.start()
print("READY", flush=True)
sys.stdin.read()
c.stop()
"#;

fn run(cmd: &mut Command) {
    let out = cmd.output().expect("the openssl command");
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A CA, and a certificate for localhost signed by it.
fn make_certificates(dir: &Path) {
    let p = |f: &str| dir.join(f);
    run(Command::new("openssl")
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-days",
            "2",
            "-subj",
            "/CN=Kupa test CA",
        ])
        .arg("-keyout")
        .arg(p("ca.key"))
        .arg("-out")
        .arg(p("ca.pem")));
    run(Command::new("openssl")
        .args([
            "req",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
            "-nodes",
            "-subj",
            "/CN=localhost",
        ])
        .arg("-keyout")
        .arg(p("server.key"))
        .arg("-out")
        .arg(p("server.csr")));
    std::fs::write(p("ext.cnf"), "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n").unwrap();
    run(Command::new("openssl")
        .args(["x509", "-req", "-days", "2", "-CAcreateserial"])
        .arg("-in")
        .arg(p("server.csr"))
        .arg("-CA")
        .arg(p("ca.pem"))
        .arg("-CAkey")
        .arg(p("ca.key"))
        .arg("-extfile")
        .arg(p("ext.cnf"))
        .arg("-out")
        .arg(p("server.pem")));
}

struct SmtpServer {
    child: Child,
}

impl SmtpServer {
    fn start(dir: &Path, port: u16) -> SmtpServer {
        std::fs::write(dir.join("server.py"), SERVER).unwrap();
        let mut child = Command::new("python3")
            .arg(dir.join("server.py"))
            .arg(port.to_string())
            .arg(dir)
            .arg(dir)
            .arg(USER)
            .arg(PASSWORD)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("python3");
        let mut line = String::new();
        BufReader::new(child.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(
            line.trim(),
            "READY",
            "aiosmtpd did not start: is it installed? (python3 -m pip install aiosmtpd)"
        );
        SmtpServer { child }
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn delivery(dir: &Path, port: u16) -> Delivery {
    std::fs::write(dir.join("password"), format!("{PASSWORD}\n")).unwrap();
    let (password_file, ca) = (
        dir.join("password").display().to_string(),
        dir.join("ca.pem").display().to_string(),
    );
    let lookup = move |name: &str| -> Option<String> {
        Some(match name {
            "KUPA_SMTP_HOST" => "localhost".into(),
            "KUPA_SMTP_PORT" => port.to_string(),
            "KUPA_MAIL_FROM" => "Kupa Cinemas <tickets@kupa.example>".into(),
            "KUPA_SMTP_USERNAME" => USER.into(),
            "KUPA_SMTP_PASSWORD_FILE" => password_file.clone(),
            "KUPA_SMTP_CA_FILE" => ca.clone(),
            _ => return None,
        })
    };
    DeliverySettings::from_lookup(&lookup)
        .unwrap()
        .delivery()
        .unwrap()
}

fn mails(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "eml"))
        .collect();
    found.sort();
    found
}

/// The MIME part whose headers contain `marker`: its headers and its body.
fn part<'a>(raw: &'a str, marker: &str) -> (&'a str, &'a str) {
    let p = raw
        .split("\r\n--")
        .find(|p| {
            p.split("\r\n\r\n")
                .next()
                .is_some_and(|h| h.contains(marker))
        })
        .unwrap_or_else(|| panic!("no part with {marker} in:\n{raw}"));
    // A multipart part's headers end where its own first boundary begins.
    p.split_once("\r\n\r\n").unwrap_or((p, ""))
}

api_tests! {
async fn a_paid_orders_confirmation_reaches_a_real_smtp_server_with_its_pdf_once(db: &TestDb) {
    let dir = std::env::temp_dir().join(format!("kupa-smtp-{}-{}", std::process::id(), db.name));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    make_certificates(&dir);
    let port = free_port();
    let app = TestApp::with_delivery(db, test_settings(), &delivery(&dir, port)).await;
    let worker = app.worker.clone().unwrap();

    let who = buyer(5);
    let k = priced_cart_at(&app, &who, 0, None, "he").await;
    let payment = start_payment_with(&app, &who, &k, "card", "he", 1, false).await;
    let r = app.form_as(&who, "POST", &format!("/pay/{payment}/card"), Some(&card_form(cards::APPROVED_VISA, &good_expiry(&app), "123"))).await;
    assert!(location(&r).contains("status=captured"), "{}", r.text);
    let number = rows(db, "SELECT reservation_number FROM orders WHERE status = 'paid'").await.remove(0);
    // The payment made a confirmation job (decision 0061); the node's worker makes the mail.
    assert!(rows(db, "SELECT status FROM mail_outbox").await.is_empty(), "no mail made in the request");
    let made = app.state.orders.make_confirmations().await.unwrap();
    assert_eq!(made.made, 1);
    let queued = rows(db, "SELECT status || '|' || kind || '|' || attachments FROM mail_outbox").await;
    assert_eq!(queued.len(), 1, "{queued:?}");
    assert!(queued[0].starts_with("queued|orderConfirmation|"), "{queued:?}");
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM mail_outbox_attachments").await, ["1"], "the PDF waits with its mail");

    // The mail server is down: nothing is lost, the mail waits for its retry.
    let r = worker.run_once().await.unwrap();
    assert_eq!((r.sent, r.retrying), (0, 1));
    let waiting = rows(db, "SELECT status || '|' || attempts || '|' || last_error FROM mail_outbox").await.remove(0);
    assert!(waiting.starts_with("queued|1|smtp "), "{waiting}");
    assert!(!waiting.contains("dana"), "no address in the error: {waiting}");

    let _server = SmtpServer::start(&dir, port);
    app.clock.advance_ms(30_000);
    let r = worker.run_once().await.unwrap();
    assert_eq!((r.sent, r.retrying, r.failed), (1, 0, 0));
    let found = mails(&dir);
    assert_eq!(found.len(), 1, "{found:?}");
    let raw = String::from_utf8(std::fs::read(&found[0]).unwrap()).unwrap();
    assert!(raw.starts_with("X-Test-TLS: yes\r\nX-Test-Rcpt: dana@example.com\r\n"), "over STARTTLS, to the buyer: {}", &raw[..200.min(raw.len())]);
    let (head, _) = raw.split_once("\r\n\r\n").unwrap();
    assert!(head.contains("From: \"Kupa Cinemas\" <tickets@kupa.example>") || head.contains("From: Kupa Cinemas <tickets@kupa.example>"), "{head}");
    assert!(head.contains("Content-Type: multipart/mixed"), "{head}");
    let row = rows(db, "SELECT status || '|' || attempts || '|' || provider_id || '|' || attachments FROM mail_outbox").await.remove(0);
    let message_id = row.split('|').nth(2).unwrap().to_owned();
    assert!(message_id.starts_with("<kupa.") && message_id.ends_with("@kupa.example>"), "{row}");
    assert!(head.contains(&format!("Message-ID: {message_id}")), "the same Message-ID on every attempt: {head}");
    assert!(row.starts_with("sent|2|"), "{row}");

    assert!(part(&raw, "multipart/alternative").0.contains("multipart/alternative"));
    let (_, text) = part(&raw, "text/plain");
    assert!(!text.trim().is_empty());
    let (html_head, _) = part(&raw, "text/html");
    assert!(html_head.contains("text/html"));
    let (pdf_head, pdf_body) = part(&raw, "application/pdf");
    assert!(pdf_head.contains(&format!("filename=\"tickets-{number}.pdf\"")), "{pdf_head}");
    assert!(pdf_head.contains("Content-Disposition: attachment"), "{pdf_head}");
    let b64: String = pdf_body.chars().filter(|c| !c.is_whitespace()).collect();
    let pdf = base64::engine::general_purpose::STANDARD.decode(&b64).unwrap();
    assert!(pdf.starts_with(b"%PDF-"), "a PDF");
    let kept: serde_json::Value = serde_json::from_str(row.splitn(4, '|').nth(3).unwrap()).unwrap();
    assert_eq!(kept[0]["size"].as_u64(), Some(pdf.len() as u64), "the whole PDF arrived");
    assert!(pdf_text(&pdf).contains(&number), "the tickets of this reservation");
    assert_eq!(rows(db, "SELECT CAST(COUNT(*) AS TEXT) FROM mail_outbox_attachments").await, ["0"], "a sent mail's PDF is not kept");

    // Sent once: later rounds send nothing more.
    app.clock.advance_ms(6 * 3_600_000);
    assert_eq!(worker.run_once().await.unwrap(), Default::default());
    assert_eq!(mails(&dir).len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}
}
