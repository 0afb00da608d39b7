//! The real SMS provider and mail server from KUPA_* variables (docs/configuration.md,
//! "SMS and mail"). Nothing set: both stay on the offline outbox. Secrets come from
//! the variable or from a file named by `<NAME>_FILE`.

use std::sync::Arc;
use std::time::Duration;

use super::secret::Secret;
use super::smtp::{SmtpConfig, SmtpMailer, SmtpSecurity};
use super::twilio::{self, TwilioConfig, TwilioSms};
use super::{Delivery, RetryPolicy};

/// How long one attempt may take: below the worker's lease, so a slow attempt is never claimed
/// again while it runs.
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(30);

/// What is configured, for the start-up log and `kupa check-config`: one line per channel.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DeliverySummary {
    pub sms: String,
    pub mail: String,
}

/// The providers' settings, read and checked; the adapters not built yet.
#[derive(Debug, Clone, Default)]
pub struct DeliverySettings {
    pub twilio: Option<TwilioConfig>,
    pub smtp: Option<SmtpConfig>,
}

fn required(lookup: &dyn Fn(&str) -> Option<String>, name: &str) -> Result<String, String> {
    lookup(name)
        .filter(|v| !v.trim().is_empty())
        .map(|v| v.trim().to_owned())
        .ok_or_else(|| format!("{name} must be set"))
}

impl DeliverySettings {
    pub fn from_lookup(
        lookup: &dyn Fn(&str) -> Option<String>,
    ) -> Result<DeliverySettings, String> {
        Ok(DeliverySettings {
            twilio: twilio_settings(lookup)?,
            smtp: smtp_settings(lookup)?,
        })
    }

    pub fn summary(&self) -> DeliverySummary {
        DeliverySummary {
            sms: match &self.twilio {
                Some(t) => format!(
                    "Twilio, account {}…, sender {:?}",
                    &t.account_sid[..6.min(t.account_sid.len())],
                    t.from
                ),
                None => "not configured: text messages go to the outbox table only".into(),
            },
            mail: match &self.smtp {
                Some(s) => format!(
                    "SMTP {}:{} ({}), from {}{}",
                    s.host,
                    s.port,
                    match s.security {
                        SmtpSecurity::StartTls => "STARTTLS",
                        SmtpSecurity::Tls => "TLS",
                    },
                    s.from,
                    if s.username.is_some() {
                        ", with a login"
                    } else {
                        ""
                    }
                ),
                None => "not configured: mail goes to the outbox table only".into(),
            },
        }
    }

    /// The adapters, ready for [`Delivery::build`].
    pub fn delivery(&self) -> Result<Delivery, String> {
        let sms = match &self.twilio {
            Some(t) => Some(Arc::new(TwilioSms::new(t.clone())?) as Arc<dyn super::SmsProvider>),
            None => None,
        };
        let mail = match &self.smtp {
            Some(s) => Some(Arc::new(SmtpMailer::new(s.clone())?) as Arc<dyn super::MailProvider>),
            None => None,
        };
        Ok(Delivery {
            sms,
            mail,
            policy: RetryPolicy::default(),
        })
    }
}

fn twilio_settings(
    lookup: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<TwilioConfig>, String> {
    match lookup("KUPA_SMS_PROVIDER").as_deref().map(str::trim) {
        None | Some("") | Some("outbox") => return Ok(None),
        Some("twilio") => {}
        Some(other) => {
            return Err(format!(
                "KUPA_SMS_PROVIDER: {other:?} is not one of outbox, twilio"
            ));
        }
    }
    let account_sid = required(lookup, "KUPA_TWILIO_ACCOUNT_SID")?;
    if !(account_sid.len() == 34
        && account_sid.starts_with("AC")
        && account_sid[2..].bytes().all(|b| b.is_ascii_hexdigit()))
    {
        return Err("KUPA_TWILIO_ACCOUNT_SID must be AC and 32 hex digits".into());
    }
    let auth_token = Secret::from_env_or_file("KUPA_TWILIO_AUTH_TOKEN", lookup)?
        .ok_or("KUPA_TWILIO_AUTH_TOKEN (or KUPA_TWILIO_AUTH_TOKEN_FILE) must be set")?;
    let from = required(lookup, "KUPA_SMS_FROM")?;
    if let Some(problem) = twilio::sender_problem(&from) {
        return Err(format!("KUPA_SMS_FROM: {problem}"));
    }
    Ok(Some(TwilioConfig {
        account_sid,
        auth_token,
        from,
        api_url: lookup("KUPA_TWILIO_API_URL")
            .filter(|u| !u.is_empty())
            .unwrap_or_else(|| twilio::DEFAULT_API_URL.into()),
        timeout: ATTEMPT_TIMEOUT,
    }))
}

fn smtp_settings(lookup: &dyn Fn(&str) -> Option<String>) -> Result<Option<SmtpConfig>, String> {
    let Some(host) = lookup("KUPA_SMTP_HOST").filter(|h| !h.trim().is_empty()) else {
        return Ok(None);
    };
    let security = match lookup("KUPA_SMTP_SECURITY").as_deref().map(str::trim) {
        None | Some("") | Some("starttls") => SmtpSecurity::StartTls,
        Some("tls") => SmtpSecurity::Tls,
        Some(other) => {
            return Err(format!(
                "KUPA_SMTP_SECURITY: {other:?} is not one of starttls, tls (plain text is not offered)"
            ));
        }
    };
    let port = match lookup("KUPA_SMTP_PORT").filter(|p| !p.is_empty()) {
        Some(p) => p
            .trim()
            .parse::<u16>()
            .map_err(|_| format!("KUPA_SMTP_PORT: {p:?} is not a port"))?,
        None => security.default_port(),
    };
    let from = required(lookup, "KUPA_MAIL_FROM")?;
    let from: lettre::message::Mailbox = from
        .parse()
        .map_err(|e| format!("KUPA_MAIL_FROM: {from:?} is not an address ({e})"))?;
    let username = lookup("KUPA_SMTP_USERNAME").filter(|u| !u.is_empty());
    let password = Secret::from_env_or_file("KUPA_SMTP_PASSWORD", lookup)?;
    if username.is_some() != password.is_some() {
        return Err("KUPA_SMTP_USERNAME and KUPA_SMTP_PASSWORD (or _FILE) go together".into());
    }
    let extra_roots_pem = match lookup("KUPA_SMTP_CA_FILE").filter(|p| !p.is_empty()) {
        Some(path) => Some(
            std::fs::read(&path)
                .map_err(|e| format!("KUPA_SMTP_CA_FILE: cannot read {path}: {e}"))?,
        ),
        None => None,
    };
    let hello_name = lookup("KUPA_SMTP_HELLO_NAME")
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| from.email.domain().to_owned());
    Ok(Some(SmtpConfig {
        host: host.trim().to_owned(),
        port,
        security,
        username,
        password,
        from,
        extra_roots_pem,
        hello_name,
        timeout: ATTEMPT_TIMEOUT,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lookup(pairs: &[(&str, &str)]) -> impl Fn(&str) -> Option<String> {
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        move |k| pairs.iter().find(|(n, _)| n == k).map(|(_, v)| v.clone())
    }

    #[test]
    fn nothing_set_keeps_both_channels_on_the_outbox() {
        let s = DeliverySettings::from_lookup(&lookup(&[])).unwrap();
        assert!(s.twilio.is_none() && s.smtp.is_none());
        assert!(!s.delivery().unwrap().is_configured());
    }

    #[test]
    fn twilio_needs_its_account_token_and_a_valid_sender() {
        let sid = "AC0123456789abcdef0123456789abcdef";
        let err =
            DeliverySettings::from_lookup(&lookup(&[("KUPA_SMS_PROVIDER", "twilio")])).unwrap_err();
        assert!(err.contains("KUPA_TWILIO_ACCOUNT_SID"), "{err}");
        let err = DeliverySettings::from_lookup(&lookup(&[
            ("KUPA_SMS_PROVIDER", "twilio"),
            ("KUPA_TWILIO_ACCOUNT_SID", sid),
            ("KUPA_TWILIO_AUTH_TOKEN", "tok-secret-1"),
            ("KUPA_SMS_FROM", "Much too long a name"),
        ]))
        .unwrap_err();
        assert!(err.contains("KUPA_SMS_FROM"), "{err}");
        let s = DeliverySettings::from_lookup(&lookup(&[
            ("KUPA_SMS_PROVIDER", "twilio"),
            ("KUPA_TWILIO_ACCOUNT_SID", sid),
            ("KUPA_TWILIO_AUTH_TOKEN", "tok-secret-1"),
            ("KUPA_SMS_FROM", "Kupa"),
        ]))
        .unwrap();
        let shown = format!("{s:?} {:?}", s.summary());
        assert!(
            !shown.contains("tok-secret-1"),
            "the token never shows: {shown}"
        );
        assert!(s.summary().sms.contains("Twilio"), "{shown}");
    }

    #[test]
    fn smtp_defaults_to_starttls_on_587_and_refuses_plain_text() {
        let s = DeliverySettings::from_lookup(&lookup(&[
            ("KUPA_SMTP_HOST", "smtp.example.com"),
            ("KUPA_MAIL_FROM", "Kupa <tickets@cinema.example>"),
            ("KUPA_SMTP_USERNAME", "kupa"),
            ("KUPA_SMTP_PASSWORD", "pw-secret-2"),
        ]))
        .unwrap();
        let smtp = s.smtp.as_ref().unwrap();
        assert_eq!((smtp.port, smtp.security), (587, SmtpSecurity::StartTls));
        assert_eq!(smtp.hello_name, "cinema.example");
        assert!(!format!("{s:?}").contains("pw-secret-2"));
        let err = DeliverySettings::from_lookup(&lookup(&[
            ("KUPA_SMTP_HOST", "smtp.example.com"),
            ("KUPA_MAIL_FROM", "tickets@cinema.example"),
            ("KUPA_SMTP_SECURITY", "none"),
        ]))
        .unwrap_err();
        assert!(err.contains("plain text"), "{err}");
        let err = DeliverySettings::from_lookup(&lookup(&[
            ("KUPA_SMTP_HOST", "smtp.example.com"),
            ("KUPA_MAIL_FROM", "tickets@cinema.example"),
            ("KUPA_SMTP_USERNAME", "kupa"),
        ]))
        .unwrap_err();
        assert!(err.contains("go together"), "{err}");
    }
}
