//! Cancelling a paid reservation, whole or in part (spec: POST /reservations/{id}/cancel), and
//! the refunds it owes. Decision 0022 says why it is shaped so; docs/api.md, "Cancellation and
//! refunds", writes the arithmetic out with a worked example.
//!
//! The arithmetic ([`plan`]) is pure and runs inside the store's cancellation transaction, on the
//! order, its payment and its earlier refunds as read under the order's lock: two cancels (or a
//! cancel and a finalisation) take turns, so the money goes back once.
//!
//! Its rooms: the configured terms and what the buyer asks (`terms`), the ledger arithmetic
//! (`ledger`), the use case that checks and carries a cancellation out (`service`), and the
//! provider refunds with their retry (`refund_retry`).

mod cinema;
pub mod ledger;
mod refund_retry;
mod service;
pub mod terms;
#[cfg(test)]
pub(crate) mod tests;

pub use ledger::*;
pub use refund_retry::*;
pub use service::*;
pub use terms::*;
