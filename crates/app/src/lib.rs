//! Use cases and the ports they need. No HTTP, no SQL: `api` calls in, `store` and `providers`
//! implement the ports.

pub mod booking;
pub mod catalogue;
pub mod catalogue_file;
pub mod error;
pub mod model;
pub mod ports;
pub mod site_config;

pub use error::{AppError, ErrorCode};
