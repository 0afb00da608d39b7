//! Text messages through Twilio's Programmable Messaging REST API (decision 0057):
//! `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP basic auth (the Account SID and
//! its Auth Token), a form body with `To` (E.164), `From` (a Twilio number or an alphanumeric
//! sender ID such as the chain's name) and `Body`. A created message answers 201 with JSON whose
//! `sid` names it; an error answers 4xx/5xx with JSON `{code, message, more_info, status}`.
//! Docs: https://www.twilio.com/docs/messaging/api/message-resource#create-a-message-resource,
//! https://www.twilio.com/docs/usage/twilios-response, https://www.twilio.com/docs/api/errors.

use std::time::Duration;

use async_trait::async_trait;
use kupa_app::ports::Sms;
use serde::Deserialize;

use super::secret::Secret;
use super::{SendError, SmsProvider};
use crate::http::{self, NoAnswer};

pub const DEFAULT_API_URL: &str = "https://api.twilio.com";

#[derive(Debug, Clone)]
pub struct TwilioConfig {
    /// "AC" and 32 hex digits.
    pub account_sid: String,
    pub auth_token: Secret,
    /// The sender: a number in E.164 or an alphanumeric sender ID (up to 11 letters, digits and
    /// spaces, at least one letter), where the destination country allows one (Israel does, once
    /// registered with Twilio).
    pub from: String,
    /// https://api.twilio.com; another only for a local fake in tests.
    pub api_url: String,
    pub timeout: Duration,
}

/// Checks a sender as Twilio takes it: an E.164 number or an alphanumeric sender ID.
pub fn sender_problem(from: &str) -> Option<&'static str> {
    if let Some(digits) = from.strip_prefix('+') {
        let ok = (8..=15).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        return (!ok).then_some("a sender number must be + and 8 to 15 digits (E.164)");
    }
    let ok = (1..=11).contains(&from.len())
        && from.bytes().all(|b| b.is_ascii_alphanumeric() || b == b' ')
        && from.bytes().any(|b| b.is_ascii_alphabetic());
    (!ok).then_some(
        "an alphanumeric sender ID must be 1 to 11 letters, digits or spaces, with a letter",
    )
}

pub struct TwilioSms {
    config: TwilioConfig,
    client: reqwest::Client,
}

#[derive(Deserialize)]
struct Created {
    sid: String,
}

/// Twilio's error body. `message` is left unread: it may quote the recipient's number.
#[derive(Deserialize)]
struct Refused {
    code: Option<i64>,
}

impl TwilioSms {
    pub fn new(config: TwilioConfig) -> Result<TwilioSms, String> {
        let client = http::build(
            "Twilio",
            reqwest::Client::builder()
                .timeout(config.timeout)
                .connect_timeout(Duration::from_secs(10)),
        )?;
        Ok(TwilioSms { config, client })
    }

    fn messages_url(&self) -> String {
        format!(
            "{}/2010-04-01/Accounts/{}/Messages.json",
            self.config.api_url.trim_end_matches('/'),
            self.config.account_sid
        )
    }

    /// A read of the account itself (`GET /2010-04-01/Accounts/{AccountSid}.json`): proves the
    /// credentials without sending anything. Test credentials answer 403 here (they may only
    /// send), which says the credentials are known.
    pub async fn check(&self) -> Result<String, String> {
        let url = format!(
            "{}/2010-04-01/Accounts/{}.json",
            self.config.api_url.trim_end_matches('/'),
            self.config.account_sid
        );
        let r = self
            .client
            .get(url)
            .basic_auth(
                &self.config.account_sid,
                Some(self.config.auth_token.expose()),
            )
            .send()
            .await
            .map_err(|e| format!("no answer: {}", NoAnswer::of(&e)))?;
        match r.status().as_u16() {
            200 => Ok("the account answers (live credentials)".into()),
            403 => Ok("the credentials are known (test credentials may only send)".into()),
            401 => Err("401: the Account SID or Auth Token is wrong".into()),
            s => Err(format!("HTTP {s}")),
        }
    }
}

#[async_trait]
impl SmsProvider for TwilioSms {
    async fn deliver(&self, sms: &Sms) -> Result<String, SendError> {
        let to = sms.to.international();
        let form = [
            ("To", to.as_str()),
            ("From", self.config.from.as_str()),
            ("Body", sms.text.as_str()),
        ];
        let r = self
            .client
            .post(self.messages_url())
            .basic_auth(
                &self.config.account_sid,
                Some(self.config.auth_token.expose()),
            )
            .form(&form)
            .send()
            .await
            .map_err(|e| SendError::transient(format!("twilio: {}", NoAnswer::of(&e))))?;
        let status = r.status().as_u16();
        let body = r
            .bytes()
            .await
            .map_err(|e| SendError::transient(format!("twilio {status}: {}", NoAnswer::of(&e))))?;
        if status == 200 || status == 201 {
            return serde_json::from_slice::<Created>(&body)
                .map(|c| c.sid)
                // Taken, but the answer is unreadable: recorded as sent, never sent again.
                .or_else(|_| Ok(format!("twilio-{status}-unread")));
        }
        let code = serde_json::from_slice::<Refused>(&body)
            .ok()
            .and_then(|r| r.code);
        let reason = match code {
            Some(c) => format!("twilio {status} code {c}"),
            None => format!("twilio {status}"),
        };
        Err(classify(status, reason))
    }
}

/// Which refusals are worth retrying: throttling (429), Twilio's own trouble (5xx) and refused
/// credentials (401/403: an operator fixes the keys, and the queued messages still go). Any
/// other 4xx names something wrong with the message itself (21211 an invalid `To`, 21610 an
/// unsubscribed recipient, 21408 a country not enabled …): sending it again cannot help.
fn classify(status: u16, reason: String) -> SendError {
    match status {
        401 | 403 | 408 | 429 | 500..=599 => SendError::transient(reason),
        _ => SendError::permanent(reason),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn senders_are_numbers_or_short_alphanumeric_names() {
        assert_eq!(sender_problem("+972501234567"), None);
        assert_eq!(sender_problem("Kupa"), None);
        assert_eq!(sender_problem("Cinema City"), None);
        assert!(sender_problem("+97250abc").is_some());
        assert!(sender_problem("Twelve chars").is_some());
        assert!(
            sender_problem("12345").is_some(),
            "a sender ID needs a letter"
        );
        assert!(sender_problem("").is_some());
    }

    #[test]
    fn throttling_outages_and_credentials_are_retried_bad_numbers_are_not() {
        for s in [401, 403, 429, 500, 503] {
            assert!(!classify(s, String::new()).permanent, "{s}");
        }
        for s in [400, 404, 422] {
            assert!(classify(s, String::new()).permanent, "{s}");
        }
    }
}
