//! Staff accounts after `kupa staff add` (decision 0026): `kupa staff disable` ends every login
//! of the user at once and `kupa staff password` replaces the password and ends the old logins,
//! on SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL, through the service the
//! commands call, seen over HTTP.

use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::json;

async fn login_status(app: &TestApp, email: &str, password: &str) -> (StatusCode, String) {
    let r = login_reply(app, json!({ "email": email, "password": password }), None).await;
    let code = r.body["error"]["code"].as_str().unwrap_or_default();
    (r.status, code.to_owned())
}

api_tests! {

async fn a_disabled_staff_users_logins_end_at_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "manager@chain.example", Role::Manager, &[1], false).await;
    add(&app, "other@chain.example", Role::Manager, &[1], false).await;
    let desk = staff_login(&app, "manager@chain.example").await;
    let phone = staff_login(&app, "manager@chain.example").await;
    let other = staff_login(&app, "other@chain.example").await;
    assert_eq!(get(&app, &desk, "/api/staff/me").await.status, StatusCode::OK);

    app.state.staff.disable_user("Manager@Chain.example").await.unwrap();
    // Both of the user's logins end now; another user's goes on.
    for cookie in [&desk, &phone] {
        let r = get(&app, cookie, "/api/staff/me").await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
        let r = get(&app, cookie, "/api/PRES-live/getCinemaFilterData").await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(get(&app, &other, "/api/staff/me").await.status, StatusCode::OK);
    // The right password logs in no more (the one answer of every failed login).
    assert_eq!(login_status(&app, "manager@chain.example", PASSWORD).await, (StatusCode::UNAUTHORIZED, "LOGIN_FAILED".into()));
    // Twice is fine; an unknown address is told.
    app.state.staff.disable_user("manager@chain.example").await.unwrap();
    let e = app.state.staff.disable_user("nobody@chain.example").await.unwrap_err();
    assert!(e.to_string().contains("NotFound"), "{e}");
}

async fn a_new_staff_password_ends_the_old_logins_and_lifts_the_lock(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    add(&app, "agent@chain.example", Role::TicketReferenceAgent, &[1], false).await;
    let old = staff_login(&app, "agent@chain.example").await;
    // Locked by five wrong passwords.
    for _ in 0..5 {
        assert_eq!(login_status(&app, "agent@chain.example", "not the password").await.1, "LOGIN_FAILED");
    }
    assert_eq!(login_status(&app, "agent@chain.example", PASSWORD).await.1, "tooManyLoginAttempts");

    let short = app.state.staff.set_password("agent@chain.example", "short").await.unwrap_err();
    assert!(short.to_string().contains("FormValidation"), "{short}");
    app.state.staff.set_password("agent@chain.example", "a brand new passphrase").await.unwrap();
    let r = get(&app, &old, "/api/staff/me").await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNAUTHORIZED, "loginError"));
    assert_eq!(login_status(&app, "agent@chain.example", PASSWORD).await.1, "LOGIN_FAILED");
    assert_eq!(login_status(&app, "agent@chain.example", "a brand new passphrase").await.0, StatusCode::OK);
    let e = app.state.staff.set_password("nobody@chain.example", "a brand new passphrase").await.unwrap_err();
    assert!(e.to_string().contains("NotFound"), "{e}");
}

}
