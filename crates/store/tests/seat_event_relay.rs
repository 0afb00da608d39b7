//! Seat events cross nodes through PostgreSQL LISTEN/NOTIFY: what one node's notifier sends,
//! another node's listener hears, and no node hears its own. Runs when KUPA_TEST_POSTGRES_URL is
//! set (SQLite is one node: there is nothing to relay).

use kupa_domain::ids::PresentationId;
use std::time::Duration;

use kupa_app::ports::SeatAddress;
use kupa_app::seat_events::{SeatChangeKind, SeatEvent};
use kupa_store::seat_events::{postgres_pool, run_listener, run_notifier};
use kupa_store::testing::{TestDb, postgres_url};
use tokio::sync::mpsc;

fn held(presentation: i64, x: i64) -> SeatEvent {
    SeatEvent::new(
        PresentationId(presentation),
        SeatChangeKind::Held,
        [SeatAddress {
            section_id: 1,
            x,
            y: 1,
        }],
    )
}

#[tokio::test]
async fn events_reach_the_other_node_and_not_their_own() {
    let Some(url) = postgres_url() else {
        eprintln!("KUPA_TEST_POSTGRES_URL is not set: the PostgreSQL relay is not tested");
        return;
    };
    let t = TestDb::postgres(&url).await;
    let pool = postgres_pool(&t.db).expect("a PostgreSQL database");
    let (heard_a_tx, mut heard_a) = mpsc::unbounded_channel();
    let (heard_b_tx, mut heard_b) = mpsc::unbounded_channel();
    for (node, tx) in [("a", heard_a_tx), ("b", heard_b_tx)] {
        tokio::spawn(run_listener(
            pool.clone(),
            node.into(),
            move |e| {
                let _ = tx.send(e);
            },
            || {},
        ));
    }
    let (send_a, rx_a) = mpsc::channel(16);
    tokio::spawn(run_notifier(pool.clone(), "a".into(), rx_a));
    // LISTEN takes a moment; keep publishing until node b hears one.
    let mut got = None;
    for x in 0..50 {
        send_a.send(held(7, x)).await.unwrap();
        if let Ok(Some(e)) = tokio::time::timeout(Duration::from_millis(100), heard_b.recv()).await
        {
            got = Some(e);
            break;
        }
    }
    let e = got.expect("node b never heard node a");
    assert_eq!(
        (e.presentation_id, e.changes[0].state),
        (PresentationId(7), SeatChangeKind::Held)
    );
    // Everything after that arrives too, in order.
    let x = e.changes[0].x;
    for n in 1..=20 {
        send_a.send(held(7, x + n)).await.unwrap();
    }
    for n in 1..=20 {
        let e = tokio::time::timeout(Duration::from_secs(2), heard_b.recv())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(e.changes[0].x, x + n);
    }
    assert!(heard_a.try_recv().is_err(), "node a heard its own event");
    t.cleanup().await;
}
