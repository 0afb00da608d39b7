//! What a serving node runs beside its HTTP server: the sweeper of expired holds (and of old login
//! codes and marketing forms), the payment sweeper, and the seat events' relay between nodes.

use std::sync::Arc;

use kupa_app::ports::Clock;
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

/// Payments that were authorized but never finalised (the buyer closed the tab and the callback
/// was lost) are finalised, or refunded when their seats are gone, every ten seconds; refunds of
/// cancellations the provider did not confirm are retried on the same beat.
pub(crate) fn spawn_payment_sweeper(orders: Arc<kupa_app::orders::OrderService>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(10));
        loop {
            tick.tick().await;
            // Refunds a provider did not confirm are asked for again (each at most every 30 s).
            match orders.sweep_pending_refunds().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(refunds = n, "pending refunds confirmed"),
                Err(e) => tracing::warn!(error = %e, "retrying pending refunds failed; will retry"),
            }
            // Unpaid holds past their time (30 minutes before the event): the seat-claim sweeper
            // frees their seats on the second; here the orders are cancelled (decision 0028).
            match orders.sweep_released_holds().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(holds = n, "unpaid holds released"),
                Err(e) => tracing::warn!(error = %e, "releasing unpaid holds failed; will retry"),
            }
            // Waivers past their time, and those of voucher orders never paid (decision 0041).
            match orders.sweep_waivers().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(waivers = n, "waivers deleted"),
                Err(e) => tracing::warn!(error = %e, "deleting waivers failed; will retry"),
            }
            match orders.sweep_stranded_payments().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(payments = n, "stranded payments finalised or refunded"),
                Err(e) => {
                    tracing::warn!(error = %e, "sweeping stranded payments failed; will retry")
                }
            }
        }
    });
}

/// On PostgreSQL, seat events cross nodes: this node NOTIFYs what it publishes and LISTENs for
/// the others' (decision 0010). On SQLite there is one node and nothing to relay.
/// On PostgreSQL, this node's seat events go to the other nodes and theirs come here
/// (LISTEN/NOTIFY); on SQLite (one node) nothing to do.
pub(crate) fn spawn_seat_event_relay(db: &Db, hub: &Arc<kupa_api::seat_event_hub::SeatEventHub>) {
    let Some(pool) = kupa_store::seat_events::postgres_pool(db) else {
        return;
    };
    let node = format!("{:016x}", rand::random::<u64>());
    tracing::info!(node = %node, "seat events cross nodes through PostgreSQL LISTEN/NOTIFY");
    if let Some(rx) = hub.attach_relay() {
        tokio::spawn(kupa_store::seat_events::run_notifier(
            pool.clone(),
            node.clone(),
            rx,
        ));
    }
    let (heard, gap) = (hub.clone(), hub.clone());
    tokio::spawn(kupa_store::seat_events::run_listener(
        pool,
        node,
        move |e| heard.deliver_remote(&e),
        move || gap.resync_all(),
    ));
}

/// Releases expired holds every second. Expired holds are already free to claim (the lock
/// statement takes them over); this keeps the table small and, later, tells watchers.
/// Several nodes may sweep at once: each expired row is deleted, and reported, by one of them.
/// Also forgets old login codes (once a minute) and marketing forms past their year (hourly).
pub(crate) fn spawn_sweeper(
    db: Arc<Db>,
    booking: Arc<kupa_app::booking::BookingService>,
    clock: Arc<ServerClock>,
) {
    use kupa_app::ports::OutboxStore;
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(1));
        let mut seconds: u64 = 0;
        loop {
            tick.tick().await;
            seconds += 1;
            match booking.sweep_expired_holds().await {
                Ok(0) => {}
                Ok(n) => tracing::info!(released = n, "expired holds released"),
                Err(e) => tracing::warn!(error = %e, "sweeping expired holds failed; will retry"),
            }
            // Login codes live 5 minutes; after 10 the outbox forgets them (checked once a minute).
            if seconds.is_multiple_of(60)
                && let Err(e) = db.redact_login_codes(clock.now_ms() - 600_000).await
            {
                tracing::warn!(error = %e, "redacting old login codes failed; will retry");
            }
            // The marketing forms are kept a year (decision 0051), checked once an hour.
            if seconds % 3600 == 60 {
                use kupa_app::marketing::{INQUIRY_KEPT_MS, InquiryStore};
                match db.forget_inquiries(clock.now_ms() - INQUIRY_KEPT_MS).await {
                    Ok(0) => {}
                    Ok(n) => tracing::info!(deleted = n, "marketing forms past their year deleted"),
                    Err(e) => {
                        tracing::warn!(error = %e, "deleting old marketing forms failed; will retry")
                    }
                }
            }
        }
    });
}
