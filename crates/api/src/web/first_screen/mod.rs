//! The landing pages' first screen, written by the server inside the app's root element
//! (decision 0071): the markup the app draws first (the same elements, classes and sizes),
//! painted before any script has run; the app replaces it with its own when it starts
//! (web/src/main.tsx), drawing the same thing in the same place. What's on (`/`) and an order
//! page (`/order/{id}`), in Hebrew and English; another language keeps the bar of index.html.
//!
//! It is a copy of the app's markup and must stay one: `web/e2e/first-screen.spec.ts` compares
//! the two in Chromium (the same texts, the same boxes), the tests here the texts and escaping.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

mod dates;
mod hall;
mod order;
mod whats_on;

pub(super) use dates::written_in;
pub(crate) use hall::hall_svg;
pub(super) use order::{Hall, order_screen};
pub(super) use whats_on::{WhatsOnData, feature_ids, whats_on_screen};

const HE_CATALOGUE: &str = include_str!("../../../../../web/src/locales/he.json");
const EN_CATALOGUE: &str = include_str!("../../../../../web/src/locales/en.json");

fn catalogue(lang: &str) -> &'static HashMap<String, String> {
    static HE: OnceLock<HashMap<String, String>> = OnceLock::new();
    static EN: OnceLock<HashMap<String, String>> = OnceLock::new();
    let (cell, json) = if lang == "he" {
        (&HE, HE_CATALOGUE)
    } else {
        (&EN, EN_CATALOGUE)
    };
    cell.get_or_init(|| crate::wording::flat_catalogue(json))
}

/// The page a first screen is written for.
pub(super) struct Page<'a> {
    /// The language the app will show it in (he or en, [`written_in`]).
    pub lang: &'a str,
    /// The address's query (without `?`), for what the page reads from it and its links keep.
    pub query: Option<&'a str>,
    pub path: &'a str,
    /// The site's languages, for the language switcher.
    pub enabled: &'a [String],
    /// The tenant's words over the catalogue (decision 0054), this language's.
    pub wording: Option<&'a std::collections::BTreeMap<String, String>>,
}

impl Page<'_> {
    /// The text of a catalogue key as i18next finds it: the tenant's words, the language's
    /// catalogue, then English (the app's fallback language).
    pub(super) fn t(&self, key: &str) -> String {
        self.wording
            .and_then(|w| w.get(key))
            .or_else(|| catalogue(self.lang).get(key))
            .or_else(|| catalogue("en").get(key))
            .cloned()
            .unwrap_or_else(|| key.to_owned())
    }

    /// `t` with `{{name}}`s filled in (the app's i18next does not escape: neither does this; the
    /// caller escapes the whole text).
    pub(super) fn t_with(&self, key: &str, values: &[(&str, &str)]) -> String {
        let mut text = self.t(key);
        for (name, value) in values {
            text = text.replace(&format!("{{{{{name}}}}}"), value);
        }
        text
    }

    /// A query parameter, decoded as URLSearchParams decodes it.
    pub(super) fn param(&self, name: &str) -> Option<String> {
        form_urlencoded::parse(self.query.unwrap_or_default().as_bytes())
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.into_owned())
    }

    /// An in-app address with the page's `?lang` carried over (web/src/lib/lang.ts `withLang`).
    pub(super) fn href(&self, to: &str) -> String {
        match self.param("lang") {
            Some(lang) if !to.contains("lang=") => {
                let sep = if to.contains('?') { '&' } else { '?' };
                let lang: String = form_urlencoded::byte_serialize(lang.as_bytes()).collect();
                format!("{to}{sep}lang={lang}")
            }
            _ => to.to_owned(),
        }
    }

    /// This address in another language (`useSwitchLanguageHref`): the query with `lang` set.
    fn switch_href(&self, lang: &str) -> String {
        let mut pairs: Vec<(String, String)> =
            form_urlencoded::parse(self.query.unwrap_or_default().as_bytes())
                .map(|(k, v)| (k.into_owned(), v.into_owned()))
                .collect();
        match pairs.iter().position(|(k, _)| k == "lang") {
            Some(first) => {
                pairs[first].1 = lang.to_owned();
                let mut index = 0;
                pairs.retain(|(k, _)| {
                    index += 1;
                    k != "lang" || index - 1 == first
                });
            }
            None => pairs.push(("lang".into(), lang.into())),
        }
        let query = form_urlencoded::Serializer::new(String::new())
            .extend_pairs(pairs)
            .finish();
        format!("{}?{query}", self.path)
    }
}

/// Text for HTML, in an element or a quoted attribute: a film's name from the catalogue can
/// neither close an element nor open one.
pub(super) fn esc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The API's Hebrew name, or its English one on a page in another language when it has one
/// (web/src/lib/localized.ts `localizedName`).
pub(super) fn localized<'a>(lang: &str, hebrew: &'a str, english: &'a str) -> &'a str {
    if lang == "he" || english.trim().is_empty() {
        hebrew
    } else {
        english
    }
}

/// Where a presentation is, as buyers know it (`placeName`): the cinema, or for video on demand
/// the venue.
pub(super) fn place_name<'a>(lang: &str, p: &'a crate::dto::Presentation) -> &'a str {
    if p.is_vod {
        localized(lang, &p.venue_name, &p.venue_name_en)
    } else {
        localized(lang, &p.location_name, &p.location_name_en)
    }
}

/// The poster's address in the page's language (`featurePosterUrl`).
pub(super) fn poster_url(feature_id: i64, image_url: &str, lang: &str) -> String {
    let generated = crate::dto::generated_poster_url(feature_id);
    let url = if image_url.is_empty() {
        generated.clone()
    } else {
        image_url.to_owned()
    };
    if url == generated && lang != "he" {
        format!("{url}?lang={lang}")
    } else {
        url
    }
}

/// The languages' own names (web/src/lib/i18n/languages.ts).
fn native_name(code: &str) -> &str {
    match code {
        "he" => "עברית",
        "en" => "English",
        "ru" => "Русский",
        "ar" => "العربية",
        "pl" => "Polski",
        "sk" => "Slovenčina",
        "ro" => "Română",
        "bg" => "Български",
        "cs" => "Čeština",
        "hu" => "Magyar",
        other => other,
    }
}

/// The app's frame around a page (web/src/app/layouts/RootLayout.tsx): the skip link, the header
/// (Header.tsx, LanguageSwitcher.tsx; nobody logged in, which the app adds when someone is) and
/// the main element with the page in it.
pub(super) fn frame(page: &Page<'_>, main: &str) -> String {
    let mut html = String::with_capacity(main.len() + 2048);
    let _ = write!(
        html,
        "<a class=\"skip-link\" href=\"#main\">{}</a>\
         <header class=\"site-header\"><div class=\"site-header__inner\">\
         <a aria-label=\"{}\" class=\"site-header__brand\" href=\"{}\">\
         <svg class=\"site-header__logo\" viewBox=\"0 0 32 32\" aria-hidden=\"true\" focusable=\"false\">\
         <rect width=\"32\" height=\"32\" rx=\"7\" fill=\"currentColor\" opacity=\"0.12\"></rect>\
         <path d=\"M7 10h18v4a2 2 0 0 0 0 4v4H7v-4a2 2 0 0 0 0-4z\" fill=\"var(--color-accent)\"></path>\
         </svg><span class=\"site-header__name\">{}</span></a>\
         <nav class=\"site-header__nav\" aria-label=\"{}\">",
        esc(&page.t("app.skipToContent")),
        esc(&page.t("app.home")),
        esc(&page.href("/")),
        esc(&page.t("app.name")),
        esc(&page.t("nav.main")),
    );
    for (to, key) in [
        ("/", "nav.whatsOn"),
        ("/quick-order", "marketing.nav.quickOrder"),
        ("/search", "marketing.nav.search"),
    ] {
        let _ = write!(
            html,
            "<a class=\"site-header__nav-link\" href=\"{}\">{}</a>",
            esc(&page.href(to)),
            esc(&page.t(key))
        );
    }
    html.push_str("</nav>");
    html.push_str(&language_switcher(page));
    let _ = write!(
        html,
        "</div></header><main id=\"main\" class=\"page\" tabindex=\"-1\">{main}</main>"
    );
    html
}

fn language_switcher(page: &Page<'_>) -> String {
    let label = esc(&page.t("nav.language"));
    let mut html = String::new();
    if page.enabled.len() > 3 {
        let _ = write!(
            html,
            "<label class=\"language-switcher language-switcher--menu\">\
             <span class=\"visually-hidden\">{label}</span><select>"
        );
        for code in page.enabled {
            let selected = if code == page.lang { " selected" } else { "" };
            let _ = write!(
                html,
                "<option value=\"{0}\" lang=\"{0}\"{selected}>{1}</option>",
                esc(code),
                esc(native_name(code))
            );
        }
        html.push_str("</select></label>");
        return html;
    }
    let _ = write!(
        html,
        "<nav class=\"language-switcher\" aria-label=\"{label}\"><ul>"
    );
    for code in page.enabled {
        let current = if code == page.lang {
            " aria-current=\"true\""
        } else {
            ""
        };
        let _ = write!(
            html,
            "<li><a lang=\"{0}\" hreflang=\"{0}\"{current} class=\"language-switcher__link\" href=\"{1}\">{2}</a></li>",
            esc(code),
            esc(&page.switch_href(code)),
            esc(native_name(code))
        );
    }
    html.push_str("</ul></nav>");
    html
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page<'a>(lang: &'a str, query: Option<&'a str>, enabled: &'a [String]) -> Page<'a> {
        Page {
            lang,
            query,
            path: "/",
            enabled,
            wording: None,
        }
    }

    #[test]
    fn texts_come_from_the_catalogue_the_tenant_and_english() {
        let enabled = ["he".to_owned(), "en".to_owned()];
        assert_eq!(page("he", None, &enabled).t("whatsOn.title"), "מה מוקרן");
        assert_eq!(page("en", None, &enabled).t("whatsOn.title"), "What's on");
        let words = [("whatsOn.title".to_owned(), "מה מקרינים".to_owned())].into();
        let mut tenant = page("he", None, &enabled);
        tenant.wording = Some(&words);
        assert_eq!(tenant.t("whatsOn.title"), "מה מקרינים");
        assert_eq!(
            page("en", None, &enabled).t_with("whatsOn.minutes", &[("count", "95")]),
            "95 min"
        );
    }

    #[test]
    fn links_keep_the_pages_language_and_the_switcher_sets_it() {
        let enabled = ["he".to_owned(), "en".to_owned()];
        let p = page("en", Some("date=2026-07-14&lang=en&view=feature"), &enabled);
        assert_eq!(p.href("/order/5"), "/order/5?lang=en");
        assert_eq!(
            p.switch_href("he"),
            "/?date=2026-07-14&lang=he&view=feature"
        );
        let plain = page("he", None, &enabled);
        assert_eq!(plain.href("/order/5"), "/order/5");
        assert_eq!(plain.switch_href("en"), "/?lang=en");
        let html = frame(&plain, "<p>x</p>");
        assert!(html.contains("aria-current=\"true\" class=\"language-switcher__link\" href=\"/?lang=he\">עברית</a>"), "{html}");
        assert!(html.ends_with("<main id=\"main\" class=\"page\" tabindex=\"-1\"><p>x</p></main>"));
    }

    #[test]
    fn text_is_escaped_for_elements_and_attributes() {
        assert_eq!(
            esc("<b>\"Tom & Jerry's\"</b>"),
            "&lt;b&gt;&quot;Tom &amp; Jerry&#39;s&quot;&lt;/b&gt;"
        );
    }
}
