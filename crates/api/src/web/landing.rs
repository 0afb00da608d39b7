//! The landing pages' first data and posters, written into their HTML (decision 0056).

use super::first_screen;
use crate::state::AppState;

/// JSON for a `<script type="application/json">` block: `<` escaped, so no text in the data (a
/// film's name, a tenant's wording) can close the element or open a comment.
fn json_in_html(value: &serde_json::Value) -> String {
    value.to_string().replace('<', "\\u003c")
}

/// What the server writes into a landing page's HTML (decisions 0056 and 0071).
#[derive(Default)]
pub(super) struct Landing {
    /// Into `<head>`: the first posters' preloads and the page's first data.
    pub head: String,
    /// Into the root element: the page's first screen, with its route id (`index`, `order`) for
    /// main.tsx, which loads that page's module before the app replaces the screen.
    pub first_screen: Option<(&'static str, String)>,
}

/// The first data a landing page asks for, written into its HTML (decision 0056): the
/// configuration, and what's on for the day the index will show (with its features' details)
/// or the order page's presentation, the very bodies of those calls. The app reads them before
/// its first render (web/src/app/landingPrefetch.ts) instead of asking for them a round trip
/// after its scripts. A call that fails is left out: the app then asks for it as before.
/// In Hebrew and English the page's first screen too, drawn from the same data (decision 0071).
pub(super) async fn landing(
    state: &AppState,
    path: &str,
    query: Option<&str>,
    lang: &str,
) -> Landing {
    let mut data = serde_json::Map::new();
    let mut head = String::new();
    let mut first_screen = None;
    let page = first_screen::Page {
        lang,
        query,
        path,
        enabled: &state.settings.enabled_locales,
        wording: state.settings.wording.0.get(lang),
    };
    let drawn = first_screen::written_in(lang);
    let param = |name: &str| {
        query?.split('&').find_map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k == name).then(|| v.to_owned())
        })
    };
    let to_json = |v: serde_json::Result<serde_json::Value>| v.ok();
    if path == "/" {
        // The day the page will show: ?date= when it is a calendar day, today otherwise.
        let date =
            param("date").filter(|d| d.len() == 10 && d.parse::<jiff::civil::Date>().is_ok());
        if let Ok(day) =
            crate::catalogue::presentations_by_date_body(state, date.as_deref(), None).await
        {
            head.push_str(&first_posters(&day.presentations, lang));
            // The cards' details (their synopses), as the page asks for them: every feature of
            // the day.
            let ids = first_screen::feature_ids(&day.presentations);
            let features = if ids.is_empty() {
                None
            } else {
                crate::catalogue::features_body(state, ids, None, None)
                    .await
                    .ok()
            };
            if drawn {
                let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(
                    state.catalogue.now_ms(),
                ));
                let screen = first_screen::whats_on_screen(
                    &page,
                    &first_screen::WhatsOnData {
                        day: &day,
                        features: features.as_ref().map(|f| f.features.as_slice()),
                        today,
                        vod_path: &state.settings.routes.vod,
                    },
                );
                first_screen = Some(("index", first_screen::frame(&page, &screen)));
            }
            if let Some(v) = features.and_then(|f| to_json(serde_json::to_value(f))) {
                data.insert("features".into(), v);
            }
            if let Some(v) = to_json(serde_json::to_value(day)) {
                data.insert("presentationsByDate".into(), v);
            }
        }
    } else if let Some(id) = path
        .strip_prefix("/order/")
        .map(|r| r.trim_end_matches('/'))
        .and_then(|r| r.parse::<i64>().ok())
    {
        // A mini-site's order sees its own channel: the app asks for that itself.
        if param("miniSiteUrl").is_none()
            && let Ok(body) = crate::catalogue::presentation_body(state, id, None).await
        {
            if drawn {
                // The hall's size, for the map's box (a hall of numbered seats only).
                let p = &body.presentation;
                let hall = match state.catalogue.seatplan(p.venue_id, p.seatplan_id).await {
                    Ok(plan) if !plan.seats.is_empty() => Some(first_screen::Hall {
                        venue_id: p.venue_id,
                        seatplan_id: p.seatplan_id,
                        width: plan.seatplan.width,
                        height: plan.seatplan.height,
                    }),
                    _ => None,
                };
                let screen = first_screen::order_screen(&page, p, hall.as_ref());
                first_screen = Some(("order", first_screen::frame(&page, &screen)));
            }
            if let Some(v) = to_json(serde_json::to_value(body)) {
                data.insert("presentation".into(), v);
            }
        }
    } else {
        return Landing::default();
    }
    if let Some(v) = crate::catalogue::config_body(state)
        .await
        .ok()
        .and_then(|b| to_json(serde_json::to_value(b)))
    {
        data.insert("config".into(), v);
    }
    head.push_str(&format!(
        "<script type=\"application/json\" id=\"kupa-landing\">{}</script>",
        json_in_html(&serde_json::Value::Object(data))
    ));
    Landing { head, first_screen }
}

/// What's on's first two posters (its first cards, which it loads eagerly: on a phone the first
/// is the largest paint), fetched with the HTML instead of after the app has drawn the cards.
/// The cards are the features in the order of their first showtime
/// (web/src/features/whats-on/schedule.ts `groupByFeature`), the poster's address that of
/// `featurePosterUrl` (web/src/lib/api/client.ts).
fn first_posters(presentations: &[crate::dto::Presentation], lang: &str) -> String {
    let showings = presentations.iter().map(|p| Showing {
        id: p.id,
        date_time: &p.date_time,
        feature_id: p.feature_id,
        feature_image_url: &p.feature_image_url,
        feature_image_srcset: p.feature_image_srcset.as_deref(),
    });
    poster_preloads(showings.collect(), lang)
}

/// What the poster preloads need of a presentation.
struct Showing<'a> {
    id: i64,
    /// RFC 3339 in UTC, all written alike: their order as text is their order in time.
    date_time: &'a str,
    feature_id: i64,
    feature_image_url: &'a str,
    /// An uploaded poster's sizes: preloaded as the card's `<img srcset sizes>` picks them.
    feature_image_srcset: Option<&'a str>,
}

/// The card poster's `sizes` (web/src/features/whats-on/components/Poster.tsx `POSTER_SIZES`).
pub(in crate::web) const POSTER_SIZES: &str = "200px";

fn poster_preloads(mut by_time: Vec<Showing<'_>>, lang: &str) -> String {
    by_time.sort_by(|a, b| a.date_time.cmp(b.date_time).then(a.id.cmp(&b.id)));
    let mut features: Vec<i64> = Vec::new();
    let mut links = String::new();
    for p in by_time {
        if features.len() == 2 {
            break;
        }
        if features.contains(&p.feature_id) {
            continue;
        }
        features.push(p.feature_id);
        let generated = crate::dto::generated_poster_url(p.feature_id);
        let url = if p.feature_image_url.is_empty() {
            generated.clone()
        } else {
            p.feature_image_url.to_owned()
        };
        let url = if url == generated && lang != "he" {
            format!("{url}?lang={lang}")
        } else {
            url
        };
        let srcset = p
            .feature_image_srcset
            .map(|set| {
                format!(
                    " imagesrcset=\"{}\" imagesizes=\"{POSTER_SIZES}\"",
                    html_attr(set)
                )
            })
            .unwrap_or_default();
        links.push_str(&format!(
            "<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"{}\"{srcset}>",
            html_attr(&url)
        ));
    }
    links
}

fn html_attr(value: &str) -> String {
    value
        .replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    #[test]
    fn landing_data_cannot_close_its_script_element() {
        let v = serde_json::json!({ "name": "</script><script>alert(1)</script><!--" });
        let html = json_in_html(&v);
        assert!(!html.contains('<'), "{html}");
        let back: serde_json::Value = serde_json::from_str(&html).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn the_first_two_cards_posters_are_preloaded_in_the_pages_language() {
        let urls: HashMap<i64, String> = [10, 20, 30]
            .into_iter()
            .map(|f| (f, crate::dto::generated_poster_url(f)))
            .collect();
        let day = || {
            [
                (5, 30, "2026-12-08T18:00:00Z"),
                (4, 10, "2026-12-08T16:00:00Z"),
                (3, 10, "2026-12-08T12:00:00Z"),
                (2, 20, "2026-12-08T14:00:00Z"),
            ]
            .into_iter()
            .map(|(id, feature_id, date_time)| Showing {
                id,
                date_time,
                feature_id,
                feature_image_url: &urls[&feature_id],
                feature_image_srcset: None,
            })
            .collect::<Vec<_>>()
        };
        assert_eq!(
            poster_preloads(day(), "he"),
            "<link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"/api/features/10/placeholderImage\">\
             <link rel=\"preload\" as=\"image\" fetchpriority=\"high\" href=\"/api/features/20/placeholderImage\">"
        );
        assert!(
            poster_preloads(day(), "en").contains("/api/features/10/placeholderImage?lang=en\"")
        );
        assert_eq!(poster_preloads(vec![], "he"), "");
    }
}
