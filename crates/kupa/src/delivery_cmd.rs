//! `kupa outbox` and `kupa check-config`: how the outboxes stand, and whether the captcha, SMS
//! and mail providers are configured and answer (decisions 0057, 0062).

use kupa_app::ports::Clock;
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

use crate::config;

/// `kupa outbox`: one line per channel and status, with the oldest message's age, and the
/// confirmations still to make.
pub async fn outbox_status(db: &Db) -> anyhow::Result<()> {
    use kupa_app::ports::OutboxStore;
    let now = ServerClock::new().now_ms();
    let counts = db.outbox_counts().await?;
    if counts.is_empty() {
        println!("the outboxes are empty");
    }
    for c in counts {
        let age_min = (now - c.oldest_created_at_ms).max(0) / 60_000;
        println!(
            "{:<5} {:<9} {:>7}  oldest {age_min} min ago",
            c.channel.as_str(),
            c.status,
            c.count
        );
    }
    // The confirmations not made yet (decision 0061): their mail is not in the outbox yet.
    use kupa_app::ports::ConfirmationStore;
    let (waiting, oldest) = db.confirmations_waiting().await?;
    if let Some(oldest) = oldest {
        let age_min = (now - oldest).max(0) / 60_000;
        println!("confirmations to make {waiting:>7}  oldest {age_min} min ago");
    }
    Ok(())
}

/// `kupa check-config`: what is configured and, with `probe`, whether it answers. Fails (exit
/// status 1) when a setting is wrong or a probed provider does not answer.
pub async fn check_config(
    probe: bool,
    file_captcha: Option<config::CaptchaSetting>,
) -> anyhow::Result<()> {
    use kupa_providers::delivery::{smtp::SmtpMailer, twilio::TwilioSms};
    let lookup = |n: &str| std::env::var(n).ok();
    let captcha_setting = crate::captcha_config::setting_from_env(&lookup)?.or(file_captcha);
    let captcha = match config::captcha(captcha_setting, false, false, &lookup) {
        Ok(config::CaptchaStart::Provider(c)) => {
            println!("captcha: {}", kupa_providers::captcha::config::summary(&c));
            Some(c)
        }
        Ok(_) => {
            println!("captcha: off (KUPA_CAPTCHA=off): every token is accepted");
            None
        }
        Err(e) => {
            println!("captcha: NOT READY: {e}");
            None
        }
    };
    let public_url = lookup("KUPA_PUBLIC_URL").unwrap_or_default();
    match kupa_providers::cardcom::CardComConfig::from_lookup(&lookup, &public_url) {
        Ok(Some(c)) => println!("payments: {}", c.summary()),
        Ok(None) => println!("payments: the built-in test gateway"),
        Err(e) => println!("payments: NOT READY: {e}"),
    }
    let payu = match kupa_providers::payu::PayUConfig::from_lookup(&lookup, &public_url) {
        Ok(Some(c)) => {
            println!("payu: {}", c.summary());
            Some(c)
        }
        Ok(None) => {
            println!("payu: off (PayU and Blik go to the card gateway)");
            None
        }
        Err(e) => {
            println!("payu: NOT READY: {e}");
            None
        }
    };
    let paypal = match kupa_providers::paypal::PayPalConfig::from_lookup(&lookup, &public_url) {
        Ok(Some(c)) => {
            println!("paypal: {}", c.summary());
            Some(c)
        }
        Ok(None) => {
            println!("paypal: off (no KUPA_PAYPAL_CLIENT_ID)");
            None
        }
        Err(e) => {
            println!("paypal: NOT READY: {e}");
            None
        }
    };
    let settings = config::delivery_settings()?;
    let summary = settings.summary();
    println!("sms:  {}", summary.sms);
    println!("mail: {}", summary.mail);
    if !probe {
        return Ok(());
    }
    let mut broken = false;
    if let Some(c) = captcha {
        let answer = kupa_providers::captcha::SiteVerify::new(c)
            .map_err(|e| anyhow::anyhow!(e))?
            .probe()
            .await;
        broken |= answer.is_err();
        println!(
            "captcha probe: {}",
            answer.unwrap_or_else(|e| format!("FAILED: {e}"))
        );
    }
    if let Some(t) = &settings.twilio {
        let answer = TwilioSms::new(t.clone())
            .map_err(|e| anyhow::anyhow!(e))?
            .check()
            .await;
        broken |= answer.is_err();
        println!(
            "sms probe:  {}",
            answer.unwrap_or_else(|e| format!("FAILED: {e}"))
        );
    }
    if let Some(s) = &settings.smtp {
        let answer = SmtpMailer::new(s.clone())
            .map_err(|e| anyhow::anyhow!(e))?
            .check()
            .await;
        broken |= answer.is_err();
        println!(
            "mail probe: {}",
            answer.unwrap_or_else(|e| format!("FAILED: {e}"))
        );
    }
    if let Some(c) = payu {
        // A real call: an OAuth token for the POS (in PayU's sandbox with sandbox keys).
        let answer = kupa_providers::payu::probe(&c).await;
        broken |= answer.is_err();
        println!(
            "payu probe: {}",
            answer.unwrap_or_else(|e| format!("FAILED: {e}"))
        );
    }
    if let Some(c) = paypal {
        // A token asked for: the client id and secret are right for this API (live or sandbox).
        let answer = kupa_providers::paypal::probe(&c).await;
        broken |= answer.is_err();
        println!(
            "paypal probe: {}",
            answer.unwrap_or_else(|e| format!("FAILED: {e}"))
        );
    }
    anyhow::ensure!(!broken, "a configured provider does not answer");
    Ok(())
}
