//! The interface languages. The spec accepts ten locales; a deployment enables some of them.

pub const SUPPORTED: [&str; 10] = ["he", "en", "ru", "ar", "pl", "sk", "ro", "bg", "cs", "hu"];
pub const RTL: [&str; 2] = ["he", "ar"];
pub const DEFAULT: &str = "he";

pub fn is_supported(code: &str) -> bool {
    SUPPORTED.contains(&code)
}

pub fn is_rtl(code: &str) -> bool {
    RTL.contains(&code)
}
