//! Tenant wording (decision 0054): a file of key → text per locale that replaces the catalogue's
//! words without a rebuild. Read and checked once at start against the English catalogue the web
//! app is built with (a key it does not have, or a text whose `{{placeholders}}` differ, stops
//! the server with a message naming them); GET /config hands it to the web app, which lays it
//! over its bundled catalogue.
//!
//! ```json
//! { "he": { "whatsOn.title": "מה מקרינים" }, "en": { "whatsOn.title": "Now showing" } }
//! ```

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

/// The English catalogue, the reference of every key (web/src/locales/en.json).
const EN_CATALOGUE: &str = include_str!("../../../web/src/locales/en.json");

/// The staff screens' namespaces: written in he and en only (web/src/lib/i18n/languages.ts).
const STAFF_NAMESPACES: [&str; 5] = [
    "staff",
    "staffCharts",
    "staffResend",
    "door",
    "staffReports",
];
const STAFF_LOCALES: [&str; 2] = ["he", "en"];

const PLURAL_FORMS: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

/// Locale → flat catalogue key (`whatsOn.title`) → text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Wording(pub BTreeMap<String, BTreeMap<String, String>>);

impl Wording {
    /// Parses and checks a wording file; every problem is listed, one a line.
    pub fn parse(json: &str) -> Result<Wording, String> {
        let raw: BTreeMap<String, BTreeMap<String, String>> = serde_json::from_str(json)
            .map_err(|e| format!("not a JSON object of locale → {{key: text}}: {e}"))?;
        let en = english();
        let mut problems = Vec::new();
        for (locale, texts) in &raw {
            if !kupa_domain::locale::is_supported(locale) {
                problems.push(format!(
                    "{locale}: not a locale ({:?})",
                    kupa_domain::locale::SUPPORTED
                ));
                continue;
            }
            for (key, text) in texts {
                if let Err(p) = check(en, locale, key, text) {
                    problems.push(format!("{locale} {key}: {p}"));
                }
            }
        }
        if problems.is_empty() {
            Ok(Wording(raw))
        } else {
            Err(problems.join("\n"))
        }
    }

    /// The words of the locales a deployment serves.
    pub fn for_locales(&self, enabled: &[String]) -> BTreeMap<String, BTreeMap<String, String>> {
        self.0
            .iter()
            .filter(|(l, _)| enabled.contains(l))
            .map(|(l, t)| (l.clone(), t.clone()))
            .collect()
    }
}

fn check(en: &HashMap<String, String>, locale: &str, key: &str, text: &str) -> Result<(), String> {
    let (reference, plural) = match en.get(key) {
        Some(t) => (t, plural_form(key).is_some()),
        // A plural form English does not have (Russian `_few`) answers to English `_other`.
        None => match plural_form(key).and_then(|(base, _)| en.get(&format!("{base}_other"))) {
            Some(t) => (t, true),
            None => return Err("no such key in the catalogue".into()),
        },
    };
    let namespace = key.split('.').next().unwrap_or_default();
    if STAFF_NAMESPACES.contains(&namespace) && !STAFF_LOCALES.contains(&locale) {
        return Err("the staff screens are in he and en only".into());
    }
    if text.trim().is_empty() {
        return Err("empty".into());
    }
    // A form for one (zero, two) may spell the number out instead of {{count}}.
    let spelled = plural && matches!(plural_form(key), Some((_, "zero" | "one" | "two")));
    let keep = |p: &String| !(spelled && p == "count");
    let theirs: Vec<String> = placeholders(reference).into_iter().filter(keep).collect();
    let ours: Vec<String> = placeholders(text).into_iter().filter(keep).collect();
    if ours != theirs {
        return Err(format!(
            "placeholders {ours:?} differ from the catalogue's {theirs:?}"
        ));
    }
    Ok(())
}

fn plural_form(key: &str) -> Option<(&str, &str)> {
    let (base, form) = key.rsplit_once('_')?;
    PLURAL_FORMS.contains(&form).then_some((base, form))
}

/// The `{{name}}`s of a text, sorted.
fn placeholders(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else { break };
        out.push(after[..end].trim().to_owned());
        rest = &after[end + 2..];
    }
    out.sort();
    out
}

fn english() -> &'static HashMap<String, String> {
    static EN: OnceLock<HashMap<String, String>> = OnceLock::new();
    EN.get_or_init(|| flat_catalogue(EN_CATALOGUE))
}

/// A catalogue of web/src/locales as flat key (`whatsOn.title`) → text.
pub(crate) fn flat_catalogue(json: &str) -> HashMap<String, String> {
    let tree: serde_json::Value =
        serde_json::from_str(json).expect("the web app's catalogues are valid JSON");
    let mut flat = HashMap::new();
    flatten(&tree, String::new(), &mut flat);
    flat
}

fn flatten(node: &serde_json::Value, prefix: String, out: &mut HashMap<String, String>) {
    match node {
        serde_json::Value::String(s) => {
            out.insert(prefix, s.clone());
        }
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let path = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten(v, path, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wording_file_replaces_known_keys() {
        let w = Wording::parse(
            r#"{"he": {"whatsOn.title": "מה מקרינים"},
                "ru": {"whatsOn.screeningsCount_few": "{{count}} сеанса"},
                "en": {"staff.title": "Box office live"}}"#,
        )
        .unwrap();
        assert_eq!(w.0["he"]["whatsOn.title"], "מה מקרינים");
        let served = w.for_locales(&["he".into(), "en".into()]);
        assert!(served.contains_key("he") && !served.contains_key("ru"));
    }

    #[test]
    fn unknown_keys_other_placeholders_and_bad_locales_are_refused_by_name() {
        let e = Wording::parse(
            r#"{"he": {"whatsOn.nope": "x", "whatsOn.title": " "},
                "en": {"whatsOn.screeningsCount_other": "{{n}} screenings"},
                "ru": {"staff.title": "Касса"},
                "xx": {"whatsOn.title": "x"}}"#,
        )
        .unwrap_err();
        for part in [
            "he whatsOn.nope: no such key",
            "he whatsOn.title: empty",
            "en whatsOn.screeningsCount_other: placeholders [\"n\"] differ from the catalogue's [\"count\"]",
            "ru staff.title: the staff screens are in he and en only",
            "xx: not a locale",
        ] {
            assert!(e.contains(part), "{part} in {e}");
        }
        assert!(Wording::parse("[1]").is_err());
    }
}
