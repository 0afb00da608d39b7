//! Group commit for the seat arbiter (decision 0059): one writer task per node writes every
//! waiting hold and release in one transaction and answers each caller once it is committed.

use std::sync::Arc;

use tokio::sync::{mpsc, oneshot};

use crate::error::{StoreError, StoreResult};
use crate::ports::{ClaimOp, ClaimStore};

/// Writes waiting for the writer at most; a batch takes everything waiting, up to this.
const BATCH_MAX: usize = 512;

type Reply = oneshot::Sender<StoreResult<u64>>;

/// Group commit: every hold and release of the node goes through one writer task, which writes
/// whatever is waiting in one transaction (one savepoint per operation) and answers each caller
/// once its batch is committed.
pub(super) struct ClaimWriter {
    store: Arc<dyn ClaimStore>,
    queue: std::sync::OnceLock<mpsc::UnboundedSender<(ClaimOp, Reply)>>,
}

impl ClaimWriter {
    pub(super) fn new(store: Arc<dyn ClaimStore>) -> ClaimWriter {
        ClaimWriter {
            store,
            queue: std::sync::OnceLock::new(),
        }
    }

    /// The queue, the writer task started on first use (inside the runtime).
    fn queue(&self) -> &mpsc::UnboundedSender<(ClaimOp, Reply)> {
        self.queue.get_or_init(|| {
            let (tx, rx) = mpsc::unbounded_channel();
            tokio::spawn(write_batches(self.store.clone(), rx));
            tx
        })
    }

    /// Queues the operation (in the order of calls) and returns where its answer comes.
    pub(super) fn submit(&self, op: ClaimOp) -> oneshot::Receiver<StoreResult<u64>> {
        let (tx, rx) = oneshot::channel();
        if let Err(mpsc::error::SendError((_, reply))) = self.queue().send((op, tx)) {
            let _ = reply.send(Err(StoreError::Other(
                "the claim writer has stopped".into(),
            )));
        }
        rx
    }
}

async fn write_batches(
    store: Arc<dyn ClaimStore>,
    mut rx: mpsc::UnboundedReceiver<(ClaimOp, Reply)>,
) {
    let mut batch: Vec<(ClaimOp, Reply)> = Vec::new();
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < BATCH_MAX {
            match rx.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let (ops, replies): (Vec<ClaimOp>, Vec<Reply>) = batch.drain(..).unzip();
        let results = store.apply_claim_ops(&ops).await;
        let down = results.iter().find_map(|r| match r {
            Err(StoreError::Unavailable(m)) => Some(m.clone()),
            _ => None,
        });
        for (reply, result) in replies.into_iter().zip(results) {
            let _ = reply.send(result);
        }
        // The database was unreachable for that whole batch (the pool waited its timeout):
        // whatever queued meanwhile is answered so at once instead of waiting a timeout of its
        // own behind it, so no call waits for two (decision 0059). Nothing of it was written.
        if let Some(m) = down {
            while let Ok((_, reply)) = rx.try_recv() {
                let _ = reply.send(Err(StoreError::Unavailable(m.clone())));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};

    use async_trait::async_trait;
    use kupa_domain::ids::{PresentationId, SessionId};
    use tokio::sync::Notify;

    use super::*;
    use crate::model::Claim;
    use crate::ports::SeatAddress;

    /// A database that is down: every batch waits (here: until the test lets it go, as the pool
    /// waits its timeout) and then fails as unavailable.
    #[derive(Default)]
    struct Down {
        batches: AtomicUsize,
        entered: Notify,
        release: Notify,
    }

    #[async_trait]
    impl ClaimStore for Down {
        async fn claims(&self, _: PresentationId) -> StoreResult<Vec<Claim>> {
            unreachable!("the writer only writes batches")
        }
        async fn session_claims(
            &self,
            _: PresentationId,
            _: &SessionId,
        ) -> StoreResult<Vec<Claim>> {
            unreachable!("the writer only writes batches")
        }
        async fn hold(
            &self,
            _: PresentationId,
            _: &[SeatAddress],
            _: &SessionId,
            _: i64,
            _: i64,
        ) -> StoreResult<bool> {
            unreachable!("the writer only writes batches")
        }
        async fn release(
            &self,
            _: PresentationId,
            _: &[SeatAddress],
            _: &SessionId,
        ) -> StoreResult<u64> {
            unreachable!("the writer only writes batches")
        }
        async fn extend(
            &self,
            _: PresentationId,
            _: &SessionId,
            _: i64,
            _: i64,
        ) -> StoreResult<u64> {
            unreachable!("the writer only writes batches")
        }
        async fn sweep_expired(&self, _: i64) -> StoreResult<Vec<Claim>> {
            unreachable!("the writer only writes batches")
        }
        async fn apply_claim_ops(&self, ops: &[ClaimOp]) -> Vec<StoreResult<u64>> {
            if self.batches.fetch_add(1, Ordering::SeqCst) == 0 {
                self.entered.notify_one();
                self.release.notified().await;
            }
            ops.iter()
                .map(|_| Err(StoreError::Unavailable("pool timed out".into())))
                .collect()
        }
    }

    fn hold(session: &str) -> ClaimOp {
        ClaimOp::Hold {
            presentation_id: PresentationId(1),
            places: vec![SeatAddress {
                section_id: 1,
                x: 1,
                y: 1,
            }],
            session_id: SessionId::new(session),
            now_ms: 0,
            expires_at_ms: 1,
        }
    }

    #[tokio::test]
    async fn what_queued_behind_a_batch_the_database_refused_is_answered_without_a_wait_of_its_own()
    {
        let store = Arc::new(Down::default());
        let writer = ClaimWriter::new(store.clone());
        let first = writer.submit(hold("a"));
        store.entered.notified().await;
        // These arrive while the first batch waits for a connection that will not come.
        let behind = [writer.submit(hold("b")), writer.submit(hold("c"))];
        store.release.notify_one();
        assert!(matches!(first.await, Ok(Err(StoreError::Unavailable(_)))));
        for answer in behind {
            assert!(matches!(answer.await, Ok(Err(StoreError::Unavailable(_)))));
        }
        assert_eq!(
            store.batches.load(Ordering::SeqCst),
            1,
            "the calls behind the refused batch waited for a batch of their own"
        );
    }
}
