//! The API tests: the real router on a fresh database with the demo chain, each check on SQLite
//! and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL. One test binary (one link, the harness
//! compiled once); each file is a module, named for what it tests.

#[macro_use]
mod common;

mod arbiter;
mod backoffice_catalogue;
mod cancel;
mod captcha;
mod cardcom;
mod catalogue_import;
mod client_errors;
mod confirmations;
mod contact_change;
mod customer_area;
mod delivery_mail;
mod delivery_sms;
mod door_scan;
mod doors;
mod edge;
mod enroll;
mod first_screen;
mod gifts;
mod holds;
mod http;
mod login;
mod logins;
mod loyalty;
mod marketing;
mod membership_seats;
mod memberships;
mod mini_site;
mod mini_site_validate;
mod orders;
mod payments;
mod paypal;
mod payu;
mod prices;
mod prices_from_a_date;
mod programme;
mod races;
mod rate_limits;
mod sales_switches;
mod saved_cards;
mod screening_settings;
mod seat_events;
mod seat_plans;
mod seat_status;
mod seats;
mod several;
mod staff;
mod staff_accounts;
mod staff_events;
mod staff_refs;
mod staff_reports;
mod tickets;
mod vod;
mod waiver;
