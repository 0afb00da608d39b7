//! Adapters for the app's ports: the defaults, all working offline, and the real SMS provider
//! and mail server ([`delivery`]).

pub mod by_method;
pub mod captcha;
pub mod cardcom;
pub mod clock;
pub mod delivery;
pub mod http;
pub mod outbox;
pub mod paypal;
pub mod payu;
pub mod test_gateway;
#[cfg(test)]
mod testing;
