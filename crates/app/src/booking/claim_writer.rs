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
        for (reply, result) in replies.into_iter().zip(results) {
            let _ = reply.send(result);
        }
    }
}
