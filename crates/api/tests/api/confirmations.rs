//! Confirmations out of the request (decision 0061): the payment's commit answers with the job
//! written and no mail made; a worker makes the mail, its tickets PDF attached, exactly once: after
//! a worker died holding the job (its lease runs out), and with two nodes racing for the jobs. On
//! SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use kupa_app::orders::{CONFIRMATION_LEASE_MS, ConfirmationRound};
use kupa_app::ports::{Clock, ConfirmationStore, Mail, MailEntry, OutboxLease};
use kupa_store::testing::TestDb;

use crate::common::paying::*;
use crate::common::*;

/// The confirmation mails of one reservation in the outbox, without making any.
async fn confirmations_of(app: &TestApp, reservation: &str) -> Vec<kupa_app::ports::OutboxMail> {
    app.state
        .outbox
        .mail_outbox(None, 100)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.kind == "orderConfirmation" && m.reference.as_deref() == Some(reservation))
        .collect()
}

async fn job_states(db: &TestDb, reservation: &str) -> Vec<String> {
    db.db
        .confirmation_jobs(reservation)
        .await
        .unwrap()
        .into_iter()
        .map(|j| format!("{}|{}|{}", j.kind.as_str(), j.status, j.attempts))
        .collect()
}

/// A tickets order of `who` (two seats in row `row` of the big hall), paid and committed.
async fn paid(app: &TestApp, who: &str, row: usize) -> String {
    let k = priced_cart_at(app, who, row, None, "he").await;
    pay_by_card(app, who, k).await.reservation
}

api_tests! {
async fn the_commit_answers_with_the_job_written_and_the_worker_mails_the_pdf_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(61);
    let reservation = paid(&app, &who, 0).await;

    // Answered: the job waits, no mail was made in the request.
    assert_eq!(job_states(db, &reservation).await, ["orderConfirmation|queued|0"]);
    assert!(confirmations_of(&app, &reservation).await.is_empty(), "no mail before the worker runs");
    // The confirmation page and the tickets PDF do not wait for the job.
    let page = app.reservation(&who, &reservation).await.ok();
    assert_eq!(page.reservation.reservation_identifier, reservation);
    let pdf = body_bytes(&app, &who, &format!("/api/reservations/{reservation}/tickets.pdf")).await;
    assert!(pdf.starts_with(b"%PDF-"), "the tickets PDF is made on demand");

    let round = app.state.orders.make_confirmations().await.unwrap();
    assert_eq!(round, ConfirmationRound { made: 1, ..Default::default() });
    let mails = confirmations_of(&app, &reservation).await;
    assert_eq!(mails.len(), 1, "one confirmation");
    assert_eq!(mails[0].recipient, "dana@example.com");
    assert_eq!(mails[0].attachments.len(), 1, "{:?}", mails[0].attachments);
    assert!(mails[0].attachments[0].name.starts_with("tickets-") && mails[0].attachments[0].content_type == "application/pdf");
    assert!(mails[0].attachments[0].size > 1_000, "a whole PDF: {:?}", mails[0].attachments[0]);
    assert_eq!(job_states(db, &reservation).await, ["orderConfirmation|done|1"]);

    // Done is done: later rounds, and the lease's end, make nothing more.
    app.clock.advance_ms(CONFIRMATION_LEASE_MS * 10);
    assert_eq!(app.state.orders.make_confirmations().await.unwrap(), ConfirmationRound::default());
    assert_eq!(confirmations_of(&app, &reservation).await.len(), 1);
}

async fn a_worker_that_dies_holding_the_job_leaves_it_to_another_and_it_mails_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(62);
    let reservation = paid(&app, &who, 0).await;

    // A worker claims the job and dies before it writes anything.
    let now = app.clock.now_ms();
    let dead = OutboxLease { token: "dead-worker".into(), now_ms: now, until_ms: now + CONFIRMATION_LEASE_MS };
    let job = db.db.claim_confirmation(&dead).await.unwrap().expect("the job is due");
    assert_eq!(job.order_id, reservation.as_str());
    assert_eq!(job_states(db, &reservation).await, ["orderConfirmation|making|1"]);

    // While its lease holds, nobody else takes the job, on this node or another.
    let other = app.another_node(db, test_settings()).await;
    assert_eq!(other.state.orders.make_confirmations().await.unwrap(), ConfirmationRound::default());
    assert!(confirmations_of(&app, &reservation).await.is_empty());

    // The lease runs out: the other node takes the job and mails once.
    other.clock.advance_ms(CONFIRMATION_LEASE_MS + 1);
    let round = other.state.orders.make_confirmations().await.unwrap();
    assert_eq!(round, ConfirmationRound { made: 1, ..Default::default() });
    assert_eq!(confirmations_of(&app, &reservation).await.len(), 1);
    assert_eq!(job_states(db, &reservation).await, ["orderConfirmation|done|2"]);

    // The first worker comes back and finishes its attempt: its lease is gone, nothing is written.
    let late = Mail { to: "dana@example.com".into(), kind: "orderConfirmation".into(), reference: Some(reservation.clone()), ..Default::default() };
    let written = db.db.complete_confirmation(job.id, "dead-worker", &[late], MailEntry::Recorded, other.clock.now_ms()).await.unwrap();
    assert!(!written, "a lost lease writes no mail");
    assert_eq!(confirmations_of(&app, &reservation).await.len(), 1, "mailed once");
}

async fn two_nodes_racing_for_the_jobs_mail_each_order_once(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let mut reservations = Vec::new();
    for (n, row) in [(63, 0), (64, 1), (65, 2), (66, 3)] {
        reservations.push(paid(&app, &buyer(n), row).await);
    }
    let other = app.another_node(db, test_settings()).await;
    let (a, b) = tokio::join!(
        app.state.orders.make_confirmations(),
        other.state.orders.make_confirmations()
    );
    let (a, b) = (a.unwrap(), b.unwrap());
    assert_eq!(a.made + b.made, 4, "{a:?} {b:?}");
    assert_eq!(a.lost + b.lost, 0, "{a:?} {b:?}");
    for r in &reservations {
        assert_eq!(confirmations_of(&app, r).await.len(), 1, "{r} mailed once");
        assert_eq!(job_states(db, r).await, ["orderConfirmation|done|1"]);
    }
}

async fn the_test_outbox_makes_the_due_confirmations_before_it_answers(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let reservation = paid(&app, &buyer(67), 0).await;
    assert!(confirmations_of(&app, &reservation).await.is_empty());
    let r = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    let kinds: Vec<&str> = r.body["messages"].as_array().unwrap().iter().filter_map(|m| m["kind"].as_str()).collect();
    assert_eq!(kinds, ["orderConfirmation"], "{}", r.text);
    assert_eq!(job_states(db, &reservation).await, ["orderConfirmation|done|1"]);
}
}
