//! Default adapters for the app's ports, all working offline.

pub mod captcha;
pub mod clock;
