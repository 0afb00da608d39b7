//! Pure rules and types of Kupa. No I/O, no clock: time comes in as an argument.

pub mod catalogue;
pub mod checkout;
pub mod client_error;
pub mod codes;
pub mod colour;
pub mod customer;
pub mod html;
pub mod ids;
pub mod locale;
pub mod money;
pub mod pricing;
pub mod search;
pub mod seat_kinds;
pub mod seating;
pub mod tickets;
pub mod time;
pub mod vod;

pub use money::Money;
