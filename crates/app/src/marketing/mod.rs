//! The chain's marketing pages (spec section 1, issue 19 item 3, decision 0051): the contact,
//! birthday and job forms (kept, then mailed to the chain's address through the mail port), the
//! search over features and complexes, and the complexes with their parking and accessibility.
//! The movie page and the quick order read the catalogue's own calls.

pub mod inquiry;

use std::sync::Arc;

use async_trait::async_trait;
use kupa_domain::html::escape;
use kupa_domain::time;

use crate::catalogue::CatalogueService;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::model::{Feature, FeatureCategory, Location};
use crate::ports::{Captcha, CatalogueStore, Clock, Mail, Mailer, require_captcha};
pub use inquiry::{Inquiry, InquiryKind};

/// What the marketing mails are for (the outbox's `kind`).
pub const INQUIRY_MAIL_KIND: &str = "inquiry";

/// Where the forms are kept.
#[async_trait]
pub trait InquiryStore: Send + Sync {
    /// Keeps a form; returns its id.
    async fn save_inquiry(&self, inquiry: &Inquiry, locale: &str, now_ms: i64) -> StoreResult<i64>;
    /// Marks a kept form as mailed to the chain.
    async fn mark_inquiry_mailed(&self, id: i64, now_ms: i64) -> StoreResult<()>;
    /// The newest kept forms first, at most `limit`.
    async fn recent_inquiries(&self, limit: i64) -> StoreResult<Vec<StoredInquiry>>;
    /// Deletes the forms kept since before `before_ms`; how many.
    async fn forget_inquiries(&self, before_ms: i64) -> StoreResult<u64>;
}

/// How long a form is kept after it came in (names, numbers, a child's age, a job application:
/// personal data kept no longer than a chain needs to answer it). The chain has its copy by mail.
pub const INQUIRY_KEPT_MS: i64 = 365 * 24 * 3_600_000;

/// A form as the store keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredInquiry {
    pub id: i64,
    pub inquiry: Inquiry,
    pub locale: String,
    pub created_at_ms: i64,
    /// None while it has not been mailed to the chain.
    pub mailed_at_ms: Option<i64>,
}

/// What a search finds: features and complexes, in catalogue order.
#[derive(Debug, Clone, Default)]
pub struct SearchResults {
    pub features: Vec<(Feature, FeatureCategory)>,
    pub locations: Vec<Location>,
}

/// The longest query searched (longer ones are cut, not refused).
pub const QUERY_MAX_CHARS: usize = 100;

pub struct MarketingService {
    catalogue: Arc<CatalogueService>,
    store: Arc<dyn CatalogueStore>,
    inquiries: Arc<dyn InquiryStore>,
    mailer: Arc<dyn Mailer>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
}

impl MarketingService {
    pub fn new(
        catalogue: Arc<CatalogueService>,
        store: Arc<dyn CatalogueStore>,
        inquiries: Arc<dyn InquiryStore>,
        mailer: Arc<dyn Mailer>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
    ) -> MarketingService {
        MarketingService {
            catalogue,
            store,
            inquiries,
            mailer,
            captcha,
            clock,
        }
    }

    /// The chain's complexes (cinemas; not the online location), in catalogue order.
    pub async fn complexes(&self) -> AppResult<Vec<Location>> {
        Ok(self
            .store
            .locations()
            .await?
            .into_iter()
            .filter(|l| l.is_cinema)
            .collect())
    }

    /// Features and complexes whose Hebrew or English name matches the query, niqqud and case
    /// aside (`kupa_domain::search`).
    pub async fn search(&self, query: &str) -> AppResult<SearchResults> {
        let query: String = query.chars().take(QUERY_MAX_CHARS).collect();
        let features = self
            .catalogue
            .features(&Default::default(), &Default::default())
            .await?
            .into_iter()
            .filter(|(f, _)| kupa_domain::search::matches(&query, &[&f.name, &f.name_en]))
            .collect();
        let locations = self
            .complexes()
            .await?
            .into_iter()
            .filter(|l| {
                kupa_domain::search::matches(&query, &[&l.name, &l.name_en, &l.city, &l.city_en])
            })
            .collect();
        Ok(SearchResults {
            features,
            locations,
        })
    }

    /// Checks the captcha and the form, keeps it, and mails it to the chain's address. The form
    /// is kept first: a mail that fails is logged (without the form's text) and leaves the form
    /// unmailed in the store, and the sender is still told it was received.
    pub async fn submit(
        &self,
        inquiry: Inquiry,
        locale: &str,
        captcha_token: &str,
    ) -> AppResult<i64> {
        require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let inquiry = inquiry.normalised();
        let now = self.clock.now_ms();
        let today = time::local_date(time::ms_to_timestamp(now));
        let complexes = self.complexes().await?;
        let ids: Vec<i64> = complexes.iter().map(|l| l.id).collect();
        let problems = inquiry.problems(today, &ids);
        if !problems.is_empty() {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "some details are missing or not valid",
                serde_json::json!({ "fields": problems }),
            ));
        }
        let inquiry = inquiry.only_its_fields();
        let locale = if locale == "en" { "en" } else { "he" };
        let id = self.inquiries.save_inquiry(&inquiry, locale, now).await?;
        let config = self.catalogue.site_config().await?;
        if config.chain_email.is_empty() {
            tracing::warn!(
                inquiry_id = id,
                kind = inquiry.kind.as_str(),
                "a marketing form was kept but not mailed: the site config has no chainEmail"
            );
            return Ok(id);
        }
        let location = inquiry
            .location_id
            .and_then(|lid| complexes.iter().find(|l| l.id == lid));
        let mail = inquiry_mail(id, &inquiry, location, &config.chain_email);
        match self.mailer.send_mail(&mail).await {
            Ok(()) => {
                self.inquiries
                    .mark_inquiry_mailed(id, self.clock.now_ms())
                    .await?
            }
            Err(e) => tracing::warn!(
                inquiry_id = id,
                kind = inquiry.kind.as_str(),
                error = %e,
                "a marketing form was kept but its mail to the chain failed"
            ),
        }
        Ok(id)
    }
}

/// The mail to the chain's office: Hebrew labels with English beside them, the sender's own
/// words as sent.
fn inquiry_mail(id: i64, q: &Inquiry, location: Option<&Location>, to: &str) -> Mail {
    let (title_he, title_en) = match q.kind {
        InquiryKind::Contact => ("פנייה מטופס צור קשר", "Contact form"),
        InquiryKind::Birthday => ("בקשה לאירוע יום הולדת", "Birthday party request"),
        InquiryKind::Job => ("מועמדות למשרה", "Job application"),
    };
    let opt = |n: Option<i64>| n.map(|v| v.to_string()).unwrap_or_default();
    let mut rows: Vec<(&str, String)> = vec![
        ("שם / Name", q.full_name.clone()),
        ("אימייל / Email", q.email.clone()),
        ("נייד / Mobile", q.mobile_number.clone()),
        (
            "קולנוע / Complex",
            location
                .map(|l| format!("{} ({})", l.name, l.name_en))
                .unwrap_or_default(),
        ),
    ];
    match q.kind {
        InquiryKind::Birthday => {
            rows.push(("תאריך / Date", q.party_date.clone()));
            rows.push(("מוזמנים / Guests", opt(q.guests)));
            rows.push(("גיל החוגג/ת / Child's age", opt(q.child_age)));
        }
        InquiryKind::Job => rows.push(("משרה / Position", q.position.clone())),
        InquiryKind::Contact => {}
    }
    rows.push(("הודעה / Message", q.message.clone()));
    rows.retain(|(_, v)| !v.is_empty());
    let subject = format!("{title_he} / {title_en} #{id}");
    let text = std::iter::once(subject.clone())
        .chain(std::iter::once(String::new()))
        .chain(rows.iter().map(|(k, v)| format!("{k}: {v}")))
        .collect::<Vec<_>>()
        .join("\n");
    let html_rows: String = rows
        .iter()
        .map(|(k, v)| {
            format!(
                "<tr><th style=\"text-align:start;padding:4px 8px\">{}</th><td style=\"padding:4px 8px;white-space:pre-wrap\">{}</td></tr>",
                escape(k),
                escape(v)
            )
        })
        .collect();
    let html = format!(
        "<!doctype html><html lang=\"he\" dir=\"rtl\"><body><h1>{}</h1><table>{html_rows}</table></body></html>",
        escape(&subject)
    );
    Mail {
        to: to.to_owned(),
        subject,
        text,
        html,
        kind: INQUIRY_MAIL_KIND.to_owned(),
        reference: Some(format!("inquiry-{id}")),
        attachments: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mail_escapes_the_senders_words_and_names_the_form() {
        let q = Inquiry {
            kind: InquiryKind::Job,
            full_name: "Dana Levi".into(),
            email: "dana@example.com".into(),
            mobile_number: "0521234567".into(),
            position: "Usher <b>".into(),
            ..Inquiry::default()
        };
        let m = inquiry_mail(7, &q, None, "office@example.com");
        assert_eq!(m.to, "office@example.com");
        assert!(m.subject.contains("Job application #7"));
        assert!(m.text.contains("Position: Usher <b>"));
        assert!(m.html.contains("Usher &lt;b&gt;") && !m.html.contains("<b>"));
        assert!(!m.text.contains("Complex"));
        assert_eq!(m.reference.as_deref(), Some("inquiry-7"));
    }
}
