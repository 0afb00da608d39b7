//! `kupa staff add`, `kupa staff password EMAIL` and `kupa staff disable EMAIL` as an operator
//! runs them, on a fresh SQLite file; what they leave is read back through the staff login.

use std::process::{Command, Output, Stdio};
use std::sync::Arc;

use kupa_app::staff::StaffService;
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

fn kupa(url: &str, args: &[&str], password: Option<&str>) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kupa"));
    cmd.arg("staff")
        .args(args)
        .env("KUPA_DATABASE_URL", url)
        .env_remove("KUPA_CONFIG")
        .env_remove("KUPA_STAFF_PASSWORD")
        .stdin(Stdio::null());
    if let Some(p) = password {
        cmd.env("KUPA_STAFF_PASSWORD", p);
    }
    cmd.output().unwrap()
}

async fn logs_in(url: &str, password: &str) -> bool {
    let db = Arc::new(Db::connect(url, 2).await.unwrap());
    let staff = StaffService::new(db.clone(), db.clone(), Arc::new(ServerClock::new()));
    let ok = staff
        .login("ops@chain.example", password, None, "127.0.0.1")
        .await
        .is_ok();
    db.close().await;
    ok
}

#[tokio::test]
async fn an_operator_adds_resets_and_disables_a_staff_user() {
    let dir = std::env::temp_dir().join(format!(
        "kupa-staff-cmd-{}-{}",
        std::process::id(),
        rand::random::<u32>()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite:{}", dir.join("kupa.db").display());
    let add = [
        "add",
        "--email",
        "ops@chain.example",
        "--first-name",
        "Dana",
        "--last-name",
        "Cohen",
        "--role",
        "manager",
        "--business-ids",
        "1",
    ];
    assert!(
        kupa(&url, &add, Some("the first long password"))
            .status
            .success()
    );
    assert!(logs_in(&url, "the first long password").await);

    let out = kupa(
        &url,
        &["password", "ops@chain.example"],
        Some("the second long password"),
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!logs_in(&url, "the first long password").await);
    assert!(logs_in(&url, "the second long password").await);
    // Too short, or nobody: refused, nothing changed.
    assert!(
        !kupa(&url, &["password", "ops@chain.example"], Some("short"))
            .status
            .success()
    );
    assert!(
        !kupa(
            &url,
            &["password", "nobody@chain.example"],
            Some("a long enough one")
        )
        .status
        .success()
    );

    let out = kupa(&url, &["disable", "ops@chain.example"], None);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("disabled"));
    assert!(!logs_in(&url, "the second long password").await);
    assert!(
        !kupa(&url, &["disable", "nobody@chain.example"], None)
            .status
            .success()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
