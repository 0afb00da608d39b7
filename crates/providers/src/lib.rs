//! Default adapters for the app's ports, all working offline.

pub mod captcha;
pub mod clock;
pub mod outbox;
pub mod test_gateway;
