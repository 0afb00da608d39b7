//! Use cases and the ports they need. No HTTP, no SQL: `api` calls in, `store` and `providers`
//! implement the ports.

pub mod accounts;
pub mod backoffice;
pub mod booking;
pub mod catalogue;
pub mod catalogue_cache;
pub mod catalogue_file;
pub mod customer_area;
pub mod customer_info;
pub mod error;
pub mod links;
pub mod logins;
pub mod marketing;
pub mod memberships;
pub mod model;
pub mod orders;
pub mod ports;
pub mod prices;
pub mod programme;
pub mod sales_switches;
pub mod saved_cards;
pub mod seat_events;
pub mod seat_plan;
pub mod seat_plans;
pub mod site_config;
pub mod tickets;
pub mod tickets_out;
pub mod vod;
pub mod vouchers;

pub use error::{AppError, ErrorCode, StoreError, StoreResult};
pub mod staff;
