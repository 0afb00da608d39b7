//! What's on's first screen (web/src/features/whats-on/WhatsOnPage.tsx and its components): the
//! title and view tabs, the date strip, the day's date and its first feature cards.

use std::collections::HashMap;
use std::fmt::Write as _;

use jiff::ToSpan;
use jiff::civil::Date;

use super::{Page, dates, esc, localized, place_name, poster_url};
use crate::catalogue::PresentationsByDateResponse;
use crate::dto::{Feature, Presentation};
use crate::web::landing::POSTER_SIZES;

/// The cards written: more than fill the first screen of a phone (two) or a desktop (two rows
/// of two); the app adds the rest.
const CARDS: usize = 6;

/// The date strip offers at least a fortnight (schedule.ts `SCHEDULE_DAYS`).
const SCHEDULE_DAYS: i32 = 14;

/// What the page shows, as the server read it for the page's HTML.
pub(in crate::web) struct WhatsOnData<'a> {
    pub day: &'a PresentationsByDateResponse,
    /// The details of the day's features (GET /features), when they could be read.
    pub features: Option<&'a [Feature]>,
    /// Today in the cinema's zone.
    pub today: Date,
    /// The video-on-demand page's path (configurable).
    pub vod_path: &'a str,
}

/// `stripDays`: today and every day to the last one with a screening on sale, at least a
/// fortnight.
fn strip_days(today: Date, sale_dates: &[String]) -> Vec<Date> {
    let mut last = today
        .checked_add((SCHEDULE_DAYS - 1).days())
        .unwrap_or(today);
    for d in sale_dates.iter().filter_map(|d| d.parse::<Date>().ok()) {
        last = last.max(d);
    }
    let mut days = Vec::new();
    let mut day = today;
    while day <= last {
        days.push(day);
        match day.tomorrow() {
            Ok(next) => day = next,
            Err(_) => break,
        }
    }
    days
}

struct Group<'a> {
    feature_id: i64,
    sample: &'a Presentation,
    complexes: Vec<(i64, Vec<&'a Presentation>)>,
}

/// `groupByFeature`: features in the order of their first showtime, their showtimes by complex.
fn group_by_feature(presentations: &[Presentation]) -> Vec<Group<'_>> {
    let mut by_time: Vec<&Presentation> = presentations.iter().collect();
    // RFC 3339 in UTC, all written alike: their order as text is their order in time.
    by_time.sort_by(|a, b| a.date_time.cmp(&b.date_time).then(a.id.cmp(&b.id)));
    let mut groups: Vec<Group<'_>> = Vec::new();
    for p in by_time {
        let index = match groups.iter().position(|g| g.feature_id == p.feature_id) {
            Some(i) => i,
            None => {
                groups.push(Group {
                    feature_id: p.feature_id,
                    sample: p,
                    complexes: Vec::new(),
                });
                groups.len() - 1
            }
        };
        let complexes = &mut groups[index].complexes;
        match complexes.iter_mut().find(|(id, _)| *id == p.location_id) {
            Some((_, list)) => list.push(p),
            None => complexes.push((p.location_id, vec![p])),
        }
    }
    groups
}

/// The feature ids the page asks the details of (`useFeatures(groups.map(g => g.featureId))`),
/// as its query key holds them: sorted, once each.
pub(in crate::web) fn feature_ids(presentations: &[Presentation]) -> Vec<i64> {
    let mut ids: Vec<i64> = presentations.iter().map(|p| p.feature_id).collect();
    ids.sort_unstable();
    ids.dedup();
    ids
}

/// The page's first screen. Its buttons are `disabled` until the app's take their place: a press
/// before that would do nothing (and a test's click waits for the app's); they look the same,
/// the page's styles setting their colours. The date strip's days are `aria-disabled` instead:
/// still focusable, so the strip, which scrolls on a phone, can be scrolled from the keyboard
/// before the app takes over (axe's `scrollable-region-focusable`).
pub(in crate::web) fn whats_on_screen(page: &Page<'_>, data: &WhatsOnData<'_>) -> String {
    let lang = page.lang;
    let date: Date = data.day.date.parse().unwrap_or(data.today);
    let view = match page.param("view").as_deref() {
        Some("presentation") => "presentation",
        _ => "feature",
    };
    let days = strip_days(data.today, &data.day.sale_dates);
    let mut html = String::with_capacity(16 * 1024);
    let _ = write!(
        html,
        "<div class=\"whats-on\"><div class=\"whats-on__head\"><h1 class=\"page-title\">{}</h1>\
         <div class=\"view-tabs\" role=\"tablist\" aria-label=\"{}\">",
        esc(&page.t("whatsOn.title")),
        esc(&page.t("whatsOn.views")),
    );
    for (v, key) in [
        ("feature", "whatsOn.byFeature"),
        ("presentation", "whatsOn.byPresentation"),
    ] {
        let selected = v == view;
        let _ = write!(
            html,
            "<button id=\"whats-on-tab-{v}\" type=\"button\" role=\"tab\" class=\"view-tabs__tab\" \
             aria-selected=\"{selected}\"{} tabindex=\"{}\" disabled>{}</button>",
            if selected {
                format!(" aria-controls=\"whats-on-panel-{v}\"")
            } else {
                String::new()
            },
            if selected { 0 } else { -1 },
            esc(&page.t(key)),
        );
    }
    let _ = write!(
        html,
        "</div></div><div class=\"date-strip\" role=\"group\" aria-label=\"{}\">",
        esc(&page.t("whatsOn.dates"))
    );
    for (index, day) in days.iter().enumerate() {
        let name = if *day == data.today {
            page.t("whatsOn.today")
        } else if index == 1 {
            page.t("whatsOn.tomorrow")
        } else {
            dates::weekday_short(*day, lang).to_owned()
        };
        let _ = write!(
            html,
            "<button type=\"button\" class=\"date-strip__day\" aria-pressed=\"{}\" aria-disabled=\"true\">\
             <span class=\"date-strip__name\">{}</span><span class=\"date-strip__date\">{}</span>\
             <span class=\"visually-hidden\">, {}</span></button>",
            *day == date,
            esc(&name),
            esc(&dates::day_month(*day, lang)),
            esc(&dates::long_date(*day, lang)),
        );
    }
    let _ = write!(
        html,
        "</div><div id=\"whats-on-panel-{view}\" role=\"tabpanel\" aria-labelledby=\"whats-on-tab-{view}\" \
         class=\"whats-on__panel\"><p class=\"whats-on__date\">{}</p>",
        esc(&dates::long_date(date, lang))
    );
    // The by-feature view of a day on offer with screenings; anything else the app draws.
    if view == "feature" && days.contains(&date) && !data.day.presentations.is_empty() {
        let features: HashMap<i64, &Feature> = data
            .features
            .unwrap_or_default()
            .iter()
            .map(|f| (f.id, f))
            .collect();
        html.push_str("<div class=\"feature-grid\">");
        for (index, group) in group_by_feature(&data.day.presentations)
            .iter()
            .take(CARDS)
            .enumerate()
        {
            feature_card(
                &mut html,
                page,
                data,
                group,
                features.get(&group.feature_id).copied(),
                index < 2,
            );
        }
        html.push_str("</div>");
    }
    html.push_str("</div></div>");
    html
}

/// FeatureCard.tsx (with Poster.tsx and ShowtimeAction.tsx's chip).
fn feature_card(
    html: &mut String,
    page: &Page<'_>,
    data: &WhatsOnData<'_>,
    group: &Group<'_>,
    feature: Option<&Feature>,
    eager: bool,
) {
    let lang = page.lang;
    let p = group.sample;
    let fid = group.feature_id;
    let category = localized(lang, &p.feature_category_name, &p.feature_category_name_en);
    let runtime = feature.map_or(p.runtime, |f| f.runtime);
    let classification = match feature {
        Some(f) => localized(lang, &f.classification, &f.classification_en),
        None => localized(lang, &p.classification, &p.classification_en),
    };
    let synopsis = feature.map_or("", |f| localized(lang, &f.synopsis, &f.synopsis_en));
    let (loading, priority, decoding) = if eager {
        ("eager", "high", "sync")
    } else {
        ("lazy", "auto", "async")
    };
    // An uploaded poster's two widths, picked by the card's width as the app's Poster picks them
    // (decision 0069); the generated poster is one SVG.
    let srcset = p
        .feature_image_srcset
        .as_deref()
        .map(|set| format!(" srcset=\"{}\" sizes=\"{POSTER_SIZES}\"", esc(set)))
        .unwrap_or_default();
    // The first screen's loader (web/public/first-screen.js) runs the app once these are shown.
    let timing = if priority == "high" {
        " elementtiming=\"first-screen\""
    } else {
        ""
    };
    let _ = write!(
        html,
        "<article class=\"feature-card\" aria-labelledby=\"feature-{fid}-name\">\
         <img class=\"feature-card__poster\" src=\"{}\"{srcset} alt=\"\" width=\"200\" height=\"300\" \
         loading=\"{loading}\" fetchpriority=\"{priority}\" decoding=\"{decoding}\"{timing}>\
         <div class=\"feature-card__head\"><h2 id=\"feature-{fid}-name\" class=\"feature-card__name\">\
         <a class=\"feature-card__name-link\" href=\"{}\">{}</a></h2>",
        esc(&poster_url(p.feature_id, &p.feature_image_url, lang)),
        esc(&page.href(&format!("/movie/{fid}"))),
        esc(localized(lang, &p.feature_name, &p.feature_name_en)),
    );
    let mut facts: Vec<String> = Vec::new();
    if !category.is_empty() {
        facts.push(esc(category));
    }
    if runtime != 0 {
        facts.push(esc(
            &page.t_with("whatsOn.minutes", &[("count", &runtime.to_string())])
        ));
    }
    if !classification.is_empty() {
        // "16+" is a left-to-right token: isolated, a Hebrew line does not turn it into "+16".
        facts.push(format!("<bdi dir=\"ltr\">{}</bdi>", esc(classification)));
    }
    if !facts.is_empty() {
        html.push_str("<ul class=\"feature-card__facts\">");
        for fact in facts {
            let _ = write!(html, "<li>{fact}</li>");
        }
        html.push_str("</ul>");
    }
    if !synopsis.is_empty() {
        let _ = write!(
            html,
            "<p class=\"feature-card__synopsis\">{}</p>",
            esc(synopsis)
        );
    }
    html.push_str("</div><div class=\"feature-card__times\">");
    for (location_id, showings) in &group.complexes {
        let _ = write!(
            html,
            "<section class=\"feature-card__complex\" aria-labelledby=\"feature-{fid}-complex-{location_id}\">\
             <h3 id=\"feature-{fid}-complex-{location_id}\" class=\"feature-card__complex-name\">{}</h3>\
             <ul class=\"showtimes\">",
            esc(place_name(lang, showings[0])),
        );
        for showing in showings {
            html.push_str("<li>");
            showtime_chip(html, page, data, showing);
            html.push_str("</li>");
        }
        html.push_str("</ul></section>");
    }
    html.push_str("</div></article>");
}

/// ShowtimeAction.tsx's chip: buy, watch, or why not.
fn showtime_chip(html: &mut String, page: &Page<'_>, data: &WhatsOnData<'_>, p: &Presentation) {
    let lang = page.lang;
    let feature = localized(lang, &p.feature_name, &p.feature_name_en);
    let venue = localized(lang, &p.venue_name, &p.venue_name_en);
    let time = dates::time(&p.date_time);
    if p.is_vod {
        let label = page.t_with("vod.watchAt", &[("feature", feature), ("venue", venue)]);
        let _ = write!(
            html,
            "<a class=\"showtime showtime--vod\" aria-label=\"{}\" href=\"{}\">\
             <span class=\"showtime__time\">{}</span><span class=\"showtime__venue\">{}</span></a>",
            esc(&label),
            esc(&page.href(&format!("{}?presentationId={}", data.vod_path, p.id))),
            esc(&page.t("whatsOn.watchNow")),
            esc(venue),
        );
        return;
    }
    if p.is_on_sale {
        let label = page.t_with(
            "whatsOn.buyAt",
            &[("feature", feature), ("time", &time), ("venue", venue)],
        );
        let _ = write!(
            html,
            "<a class=\"showtime\" aria-label=\"{}\" href=\"{}\">\
             <time class=\"showtime__time\" datetime=\"{}\">{}</time>\
             <span class=\"showtime__venue\">{}</span></a>",
            esc(&label),
            esc(&page.href(&format!("/order/{}", p.id))),
            esc(&p.date_time),
            esc(&time),
            esc(venue),
        );
        return;
    }
    let closed = p
        .sales_closed
        .as_deref()
        .filter(|_| p.sale_state == "onSale");
    let reason = match (closed, p.sale_state.as_str()) {
        (Some(closed), _) => page.t(&format!("errors.{closed}")),
        (None, "notYetStarted") if !p.sale_starts_at.is_empty() => page.t_with(
            "whatsOn.saleOpens",
            &[("date", &dates::date_time(&p.sale_starts_at, lang))],
        ),
        (None, "ended") => page.t("whatsOn.saleEnded"),
        _ => page.t("whatsOn.notOnSale"),
    };
    let _ = write!(
        html,
        "<span class=\"showtime showtime--off\"><time class=\"showtime__time\" datetime=\"{}\">{}</time>\
         <span class=\"showtime__venue\">{}</span></span>",
        esc(&p.date_time),
        esc(&time),
        esc(&reason),
    );
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A presentation as the API writes it, with `overrides` laid over.
    pub(in crate::web) fn presentation(overrides: serde_json::Value) -> Presentation {
        let mut p = serde_json::json!({
            "id": 1000, "venueId": 1, "venueName": "אולם 1", "venueNameEn": "Hall 1",
            "seatplanId": 1, "venueTypeId": 1, "featureCategoryId": 1,
            "featureCategoryName": "דרמה", "featureCategoryNameEn": "Drama",
            "featureId": 10, "featureName": "הסרט", "featureNameEn": "The Film",
            "featureImageUrl": "/api/features/10/placeholderImage", "featureTrailerUrl": "",
            "locationId": 1, "locationName": "קופה תל אביב", "locationNameEn": "Kupa Tel Aviv",
            "dateTime": "2026-07-14T17:00:00Z", "authProfileId": 1, "businessId": 1,
            "isReserved": true, "isGA": 0, "seatingPolicyId": 1, "seatingMode": "reserved",
            "hasReservedSection": true, "hasGASection": false, "hasMultiGASections": false,
            "newBookingUrl": "", "saleStartsAt": "2026-07-01T00:00:00Z",
            "saleEndsAt": "2026-07-14T17:00:00Z", "saleState": "onSale", "isOnSale": true,
            "isVod": false, "runtime": 95, "classification": "16+", "classificationEn": "16+"
        });
        for (k, v) in overrides.as_object().unwrap() {
            p[k] = v.clone();
        }
        serde_json::from_value(p).unwrap()
    }

    fn day(presentations: Vec<Presentation>) -> PresentationsByDateResponse {
        PresentationsByDateResponse {
            date: "2026-07-14".into(),
            presentations,
            sale_dates: vec!["2026-07-14".into(), "2026-07-15".into()],
            server_time: "2026-07-14T08:00:00Z".into(),
        }
    }

    fn screen(lang: &str, query: Option<&str>, day: &PresentationsByDateResponse) -> String {
        let enabled = ["he".to_owned(), "en".to_owned()];
        let page = Page {
            lang,
            query,
            path: "/",
            enabled: &enabled,
            wording: None,
        };
        whats_on_screen(
            &page,
            &WhatsOnData {
                day,
                features: None,
                today: "2026-07-14".parse().unwrap(),
                vod_path: "/vod",
            },
        )
    }

    #[test]
    fn the_strip_runs_a_fortnight_or_to_the_last_day_on_sale() {
        let today: Date = "2026-12-01".parse().unwrap();
        assert_eq!(strip_days(today, &[]).len(), 14);
        let far = ["2026-12-20".to_owned(), "2026-12-03".to_owned()];
        let days = strip_days(today, &far);
        assert_eq!(days.len(), 20);
        assert_eq!(days.last().unwrap().to_string(), "2026-12-20");
    }

    #[test]
    fn the_cards_come_in_the_order_of_their_first_showtime_in_the_pages_language() {
        let d = day(vec![
            presentation(
                serde_json::json!({"id": 3, "featureId": 20, "featureName": "שני",
                "featureNameEn": "Second", "dateTime": "2026-07-14T18:00:00Z"}),
            ),
            presentation(serde_json::json!({"id": 2, "dateTime": "2026-07-14T19:00:00Z"})),
            presentation(serde_json::json!({"id": 1, "dateTime": "2026-07-14T16:00:00Z"})),
        ]);
        let he = screen("he", None, &d);
        let first = he.find(">הסרט</a>").unwrap();
        assert!(first < he.find(">שני</a>").unwrap(), "{he}");
        assert!(he.contains("<h1 class=\"page-title\">מה מוקרן</h1>"));
        // 16:00 UTC is 19:00 in Jerusalem; both showtimes of the film in its card, in order.
        assert!(he.contains("aria-label=\"לרכישה: הסרט, 19:00, אולם 1\" href=\"/order/1\"><time class=\"showtime__time\" datetime=\"2026-07-14T16:00:00Z\">19:00</time>"), "{he}");
        assert!(he.find("href=\"/order/1\"").unwrap() < he.find("href=\"/order/2\"").unwrap());
        assert!(he.contains("<button type=\"button\" class=\"date-strip__day\" aria-pressed=\"true\" aria-disabled=\"true\"><span class=\"date-strip__name\">היום</span><span class=\"date-strip__date\">14.7</span><span class=\"visually-hidden\">, יום שלישי, 14 ביולי 2026</span></button>"), "{he}");
        assert!(he.contains("<li><bdi dir=\"ltr\">16+</bdi></li>"));
        // The first two posters load at once and first.
        assert_eq!(he.matches("fetchpriority=\"high\"").count(), 2);
        assert_eq!(he.matches("elementtiming=\"first-screen\"").count(), 2);
        let en = screen("en", Some("lang=en"), &d);
        assert!(
            en.contains(">The Film</a>") && en.contains(">Second</a>"),
            "{en}"
        );
        assert!(en.contains("href=\"/order/1?lang=en\""));
        assert!(en.contains("src=\"/api/features/10/placeholderImage?lang=en\""));
        assert!(en.contains("<span class=\"date-strip__name\">Tomorrow</span><span class=\"date-strip__date\">15/07</span>"));
        assert!(
            !en.contains("הסרט"),
            "an English page shows no Hebrew name: {en}"
        );
        // Another view, or a day not offered, leaves the cards to the app.
        assert!(!screen("he", Some("view=presentation"), &d).contains("feature-card"));
    }

    #[test]
    fn a_films_name_is_text_never_markup() {
        let hostile = "Tom & Jerry <script>alert(1)</script> \"Live\"";
        let d = day(vec![presentation(serde_json::json!({
            "featureName": hostile, "featureNameEn": hostile, "venueName": "<b>1</b>"
        }))]);
        for lang in ["he", "en"] {
            let html = screen(lang, None, &d);
            assert!(
                !html.contains("<script>") && !html.contains("<b>"),
                "{html}"
            );
            assert!(
                html.contains(
                    ">Tom &amp; Jerry &lt;script&gt;alert(1)&lt;/script&gt; &quot;Live&quot;</a>"
                ),
                "{html}"
            );
            assert!(
                html.contains("aria-label=\"") && !html.contains("\"Live\""),
                "{html}"
            );
        }
    }
}
