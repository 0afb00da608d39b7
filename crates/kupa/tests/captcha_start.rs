//! `kupa serve` outside test mode and the demo, with no captcha provider configured: it refuses to
//! start unless a setting says the captcha is off on purpose (decision 0017).

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

fn scratch_db(name: &str) -> (PathBuf, String) {
    let dir = std::env::temp_dir().join(format!(
        "kupa-captcha-{name}-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite:{}", dir.join("kupa.db").display());
    (dir, url)
}

/// `kupa serve` on a free port of a fresh SQLite database, with `env` set.
fn serve(name: &str, args: &[&str], env: &[(&str, &str)]) -> (std::process::Child, PathBuf) {
    let (dir, url) = scratch_db(name);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kupa"));
    cmd.args(["serve", "--addr", "127.0.0.1:0"])
        .args(args)
        .env("KUPA_DATABASE_URL", url)
        .env("KUPA_LOG", "info")
        .env_remove("KUPA_CONFIG")
        .env_remove("KUPA_CAPTCHA")
        .env_remove("KUPA_TEST_MODE")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    (cmd.spawn().unwrap(), dir)
}

/// The output lines of the child (stdout and stderr), until it exits or `until` matches one.
fn read_until(child: &mut std::process::Child, until: &str) -> (Vec<String>, bool) {
    let (tx, rx) = mpsc::channel();
    for pipe in [
        Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
        Box::new(child.stderr.take().unwrap()),
    ] {
        let tx = tx.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let _ = tx.send(line);
            }
        });
    }
    drop(tx);
    let mut lines = Vec::new();
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(60)) {
        let done = line.contains(until);
        lines.push(line);
        if done {
            return (lines, true);
        }
    }
    (lines, false)
}

#[test]
fn serve_without_a_captcha_or_a_word_that_it_may_be_off_refuses_to_start() {
    let (mut child, dir) = serve("refused", &[], &[]);
    let (lines, served) = read_until(&mut child, "Kupa is serving");
    if served {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let _ = std::fs::remove_dir_all(dir);
    assert!(
        !served,
        "it served without a captcha:\n{}",
        lines.join("\n")
    );
    assert!(!status.success());
    let text = lines.join("\n");
    assert!(text.contains("KUPA_CAPTCHA=off"), "{text}");
}

#[test]
fn captcha_off_on_purpose_starts_and_says_so_in_the_log() {
    for (name, args, env) in [
        ("env", vec![], vec![("KUPA_CAPTCHA", "off")]),
        ("flag", vec!["--captcha", "off"], vec![]),
        ("demo", vec!["--demo"], vec![]),
    ] {
        let (mut child, dir) = serve(name, &args, &env);
        let (lines, served) = read_until(&mut child, "Kupa is serving");
        let _ = child.kill();
        let _ = child.wait();
        let _ = std::fs::remove_dir_all(dir);
        let text = lines.join("\n");
        assert!(served, "{name}: it did not start:\n{text}");
        assert!(text.contains("the captcha is off"), "{name}: {text}");
    }
}
