//! An order page's first screen (web/src/features/order/components/OrderPage.tsx): the title,
//! the screening's card and, while its sale is open, the steps with the first one's frame.

use std::fmt::Write as _;

use super::{Page, dates, esc, localized, place_name, poster_url};
use crate::dto::Presentation;

/// The order's steps (web/src/features/order/model/steps.ts).
const STEPS: [&str; 5] = ["seats", "tickets", "products", "payment", "confirmation"];

/// A hall's drawing size, in seat-grid cells (the seat plan's `width` and `height`).
pub(in crate::web) struct Hall {
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub width: i64,
    pub height: i64,
}

/// The page's first screen; `hall` when the screening has numbered seats: the seat step then
/// starts with the map's box at the size the app draws the hall at, and its hint under it (on a
/// phone the largest text of the first screen: Lighthouse's largest paint).
pub(in crate::web) fn order_screen(
    page: &Page<'_>,
    p: &Presentation,
    hall: Option<&Hall>,
) -> String {
    let lang = page.lang;
    let mut html = String::with_capacity(4096);
    let _ = write!(
        html,
        "<div class=\"order-page\"><h1 class=\"page-title\">{}</h1>\
         <section class=\"order-summary\" aria-labelledby=\"order-feature-name\">\
         <img class=\"order-summary__poster\" src=\"{}\" alt=\"\" width=\"120\" height=\"180\">\
         <div class=\"order-summary__details\"><h2 id=\"order-feature-name\" class=\"order-summary__name\">{}</h2>\
         <dl class=\"order-summary__facts{}\"><div><dt>{}</dt><dd>{}</dd></div>",
        esc(&page.t("order.title")),
        esc(&poster_url(p.feature_id, &p.feature_image_url, lang)),
        esc(localized(lang, &p.feature_name, &p.feature_name_en)),
        if p.is_vod {
            " order-summary__facts--window"
        } else {
            ""
        },
        esc(&page.t("order.complex")),
        esc(place_name(lang, p)),
    );
    if p.is_vod {
        // A film watched at home: when it may be watched, not a hall and a start.
        let _ = write!(
            html,
            "<div><dt>{}</dt><dd>{}</dd></div>",
            esc(&page.t("customerArea.vod.from")),
            date_time(&p.date_time, lang)
        );
        if let Some(until) = &p.available_until {
            let _ = write!(
                html,
                "<div><dt>{}</dt><dd>{}</dd></div>",
                esc(&page.t("customerArea.vod.until")),
                date_time(until, lang)
            );
        }
    } else {
        let _ = write!(
            html,
            "<div><dt>{}</dt><dd>{}</dd></div><div><dt>{}</dt><dd>{}</dd></div>",
            esc(&page.t("order.venue")),
            esc(localized(lang, &p.venue_name, &p.venue_name_en)),
            esc(&page.t("order.dateTime")),
            date_time(&p.date_time, lang)
        );
    }
    html.push_str("</dl></div></section>");
    // The steps only while the sale is open: otherwise the app says why it is not.
    if p.sale_state == "onSale" && p.is_on_sale && p.sales_closed.is_none() {
        steps(&mut html, page, p);
        if let Some(hall) = hall.filter(|_| !p.is_vod) {
            seat_step(&mut html, page, hall);
        }
    }
    html.push_str("</div>");
    html
}

/// SeatMap.tsx's drawing and tools as the app draws them before anything is chosen
/// (web/src/components/seat-map/SeatMap.tsx, in SeatStep.tsx inside StepFrame.tsx): the box of
/// the hall at its size (the app's viewBox, the seats the app adds), the zoom tools and the hint.
fn seat_step(html: &mut String, page: &Page<'_>, hall: &Hall) {
    let (width, height) = super::hall::view_box(hall.width, hall.height);
    let _ = write!(
        html,
        "<div class=\"step-frame__expired\"></div><fieldset class=\"step-frame\" role=\"none\">\
         <section class=\"seat-step\" aria-labelledby=\"seat-step-title\">\
         <h2 id=\"seat-step-title\" class=\"seat-step__title\">{}</h2>\
         <div class=\"seat-step__layout\"><div class=\"seat-step__map\"><div class=\"seat-map\">\
         <div class=\"seat-map__viewport\" dir=\"ltr\">\
         <img class=\"seat-map__svg seat-map__svg--fit seat-map__preview\" src=\"/api/seats/seatplan/preview?venueId={}&amp;seatplanId={}\" \
         width=\"{width}\" height=\"{height}\" alt=\"\" fetchpriority=\"high\" elementtiming=\"first-screen\"></div>\
         <div class=\"seat-map__toolbar\" role=\"toolbar\" aria-label=\"{}\">\
         <button type=\"button\" class=\"tool-button seat-map__tool\" aria-label=\"{}\">+</button>\
         <button type=\"button\" class=\"tool-button seat-map__tool\" disabled aria-label=\"{}\">−</button>\
         <button type=\"button\" class=\"tool-button seat-map__tool seat-map__tool--text\" disabled>{}</button></div>\
         <div class=\"seat-map__details\" aria-live=\"polite\"><p class=\"seat-map__details-more\">{}</p></div>\
         </div></div></div></section></fieldset>",
        esc(&page.t("order.seats.title")),
        hall.venue_id,
        hall.seatplan_id,
        esc(&page.t("seatMap.zoomTools")),
        esc(&page.t("seatMap.zoomIn")),
        esc(&page.t("seatMap.zoomOut")),
        esc(&page.t("seatMap.zoomReset")),
        esc(&page.t("seatMap.detailsHint")),
    );
}

/// DateTime.tsx: "Friday, 27/11/2026, 20:00", never broken inside a part.
fn date_time(iso: &str, lang: &str) -> String {
    let (weekday, date, time) = dates::date_time_parts(iso, lang);
    format!(
        "<time datetime=\"{}\" class=\"date-time\"><span class=\"date-time__part\">{},</span> \
         <span class=\"date-time__part\"><bdi>{}</bdi>,</span> \
         <span class=\"date-time__part\"><bdi>{}</bdi></span></time>",
        esc(iso),
        esc(&weekday),
        esc(&date),
        esc(&time)
    )
}

/// OrderSteps.tsx at the first step (the seats; the products only where the complex sells any,
/// no seats for video on demand).
fn steps(html: &mut String, page: &Page<'_>, p: &Presentation) {
    let has_products = p.products.as_ref().is_some_and(|list| !list.is_empty());
    let steps: Vec<&str> = STEPS
        .into_iter()
        .filter(|s| (*s != "products" || has_products) && (*s != "seats" || !p.is_vod))
        .collect();
    let _ = write!(
        html,
        "<nav class=\"order-steps\" aria-label=\"{}\"><ol class=\"order-steps__list\">",
        esc(&page.t("order.steps.label"))
    );
    for (index, step) in steps.iter().enumerate() {
        let current = index == 0;
        let _ = write!(
            html,
            "<li class=\"order-steps__item order-steps__item--{}\"{}>\
             <span class=\"order-steps__number\" aria-hidden=\"true\">{}</span>\
             <span class=\"order-steps__name\">{}</span></li>",
            if current { "current" } else { "next" },
            if current {
                " aria-current=\"step\""
            } else {
                ""
            },
            index + 1,
            esc(&page.t(&format!("order.steps.{step}"))),
        );
    }
    html.push_str("</ol></nav>");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::web::first_screen::whats_on::tests::presentation;

    fn screen(lang: &str, p: &Presentation) -> String {
        let enabled = ["he".to_owned(), "en".to_owned()];
        let page = Page {
            lang,
            query: None,
            path: "/order/1000",
            enabled: &enabled,
            wording: None,
        };
        order_screen(
            &page,
            p,
            Some(&Hall {
                venue_id: 1,
                seatplan_id: 2,
                width: 30,
                height: 12,
            }),
        )
    }

    #[test]
    fn the_screening_card_and_the_first_step_in_the_pages_language() {
        let p = presentation(serde_json::json!({}));
        let he = screen("he", &p);
        assert!(
            he.contains("<h2 id=\"order-feature-name\" class=\"order-summary__name\">הסרט</h2>"),
            "{he}"
        );
        assert!(
            he.contains("<div><dt>אולם</dt><dd>אולם 1</dd></div>"),
            "{he}"
        );
        // 17:00 UTC in July is 20:00 in Jerusalem.
        assert!(he.contains("<span class=\"date-time__part\">יום שלישי,</span> <span class=\"date-time__part\"><bdi>14/07/2026</bdi>,</span> <span class=\"date-time__part\"><bdi>20:00</bdi></span>"), "{he}");
        assert!(he.contains("<li class=\"order-steps__item order-steps__item--current\" aria-current=\"step\"><span class=\"order-steps__number\" aria-hidden=\"true\">1</span><span class=\"order-steps__name\">מושבים</span></li>"), "{he}");
        // No products at this complex: four steps.
        assert_eq!(he.matches("order-steps__item ").count(), 4);
        let en = screen("en", &p);
        assert!(
            en.contains(">The Film</h2>") && en.contains("<dt>Hall</dt><dd>Hall 1</dd>"),
            "{en}"
        );
        assert!(en.contains("src=\"/api/features/10/placeholderImage?lang=en\""));
        // The hall's picture in a box at the app's size, and the hint the app writes under it.
        assert!(
            he.contains(
                "<img class=\"seat-map__svg seat-map__svg--fit seat-map__preview\" \
                 src=\"/api/seats/seatplan/preview?venueId=1&amp;seatplanId=2\" \
                 width=\"324\" height=\"142\" alt=\"\" fetchpriority=\"high\" elementtiming=\"first-screen\">"
            ),
            "{he}"
        );
        assert!(en.contains("<p class=\"seat-map__details-more\">Tap or point at a seat to see its row, price and kind.</p>"), "{en}");
        // A sale that is not open gets no steps: the app says why.
        let ended = presentation(serde_json::json!({"saleState": "ended", "isOnSale": false}));
        assert!(!screen("he", &ended).contains("order-steps"));
    }

    #[test]
    fn a_films_name_is_text_never_markup() {
        let p = presentation(
            serde_json::json!({"featureName": "<img src=x onerror=alert(1)>", "featureNameEn": "A \"B\" & C"}),
        );
        assert!(screen("he", &p).contains(">&lt;img src=x onerror=alert(1)&gt;</h2>"));
        assert!(screen("en", &p).contains(">A &quot;B&quot; &amp; C</h2>"));
    }
}
