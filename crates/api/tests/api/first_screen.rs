//! The landing pages' first screen in their HTML (issue 12 item 13, decision 0071), on SQLite and
//! (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: what's on and an order page come with the
//! markup the app draws first, inside the app's root element, in Hebrew and English, the films'
//! names written as text; other pages, other languages and a mini-site's order keep the bar.

use crate::common::*;
use axum::http::StatusCode;
use kupa_store::testing::TestDb;
use serde_json::Value;

/// What the page carries inside its root element: `Some((route id, markup))` for a first screen.
fn first_screen(html: &str) -> Option<(String, String)> {
    const OPEN: &str = r#"<div id="root" data-first-screen=""#;
    let start = html.find(OPEN)? + OPEN.len();
    let id_end = start + html[start..].find('"')?;
    let end = html.rfind("</main>")?;
    Some((html[start..id_end].to_owned(), html[id_end..end].to_owned()))
}

fn text(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// Runs statements straight on the database and raises the catalogue's version, as an import
/// does: the server reads the catalogue afresh.
async fn rename_feature(db: &TestDb, id: i64, name: &str, name_en: &str) {
    let rename = "UPDATE features SET name = $1, name_en = $2 WHERE id = $3";
    let bump = "UPDATE catalogue_version SET version = version + 1";
    // The same two statements on either database (SQLite numbers `$1`… in order of appearance,
    // as PostgreSQL does).
    macro_rules! rename_on {
        ($pool:ty) => {{
            let pool = <$pool>::connect(&db.url).await.unwrap();
            sqlx::query(rename)
                .bind(name)
                .bind(name_en)
                .bind(id)
                .execute(&pool)
                .await
                .unwrap();
            sqlx::query(bump).execute(&pool).await.unwrap();
            pool.close().await;
        }};
    }
    if db.url.starts_with("sqlite:") {
        rename_on!(sqlx::SqlitePool)
    } else {
        rename_on!(sqlx::PgPool)
    }
}

api_tests! {
async fn whats_on_comes_with_its_first_screen_in_hebrew_and_english(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let day = app.get("/api/seats/presentations").await.body;
    let mut by_time: Vec<&Value> = day["presentations"].as_array().unwrap().iter().collect();
    by_time.sort_by_key(|p| (p["dateTime"].as_str().unwrap().to_owned(), p["id"].as_i64().unwrap()));
    let first = by_time[0];
    let fid = first["featureId"].as_i64().unwrap();

    let page = app.get("/").await;
    assert_eq!(page.status, StatusCode::OK);
    let (id, he) = first_screen(&page.text).expect("the index carries its first screen");
    assert_eq!(id, "index");
    for part in [
        r#"<header class="site-header">"#.to_owned(),
        r#"<main id="main" class="page" tabindex="-1">"#.to_owned(),
        r#"<h1 class="page-title">מה מוקרן</h1>"#.to_owned(),
        r#"<span class="date-strip__name">היום</span>"#.to_owned(),
        // The first card is the feature of the day's first showtime, its poster loaded first.
        format!(r#"<article class="feature-card" aria-labelledby="feature-{fid}-name"><img class="feature-card__poster" src="/api/features/{fid}/placeholderImage" alt="" width="200" height="300" loading="eager" fetchpriority="high" decoding="sync" elementtiming="first-screen">"#),
        format!(r#"<a class="feature-card__name-link" href="/movie/{fid}">{}</a></h2>"#, text(first["featureName"].as_str().unwrap())),
    ] {
        assert!(he.contains(&part), "{part} in {he}");
    }
    // The cards' synopses: the features' details come with the page, as data and as text.
    let features = app.get(&format!("/api/features/?featureIds={fid}")).await.body;
    let synopsis = features["features"][0]["synopsis"].as_str().unwrap();
    assert!(!synopsis.is_empty());
    assert!(he.contains(&format!(r#"<p class="feature-card__synopsis">{}</p>"#, text(synopsis))), "{he}");
    assert!(page.text.contains(r#""features":{"features":["#), "the features' details are in the landing data");
    // Its styles apply before any script: the page's stylesheet is linked, not only fetched.
    assert!(!page.text.contains(r#"<link rel="preload" as="style""#));

    let english = app.get("/?lang=en").await.text;
    assert!(english.contains(r#"<html lang="en" dir="ltr">"#));
    let (_, en) = first_screen(&english).unwrap();
    assert!(en.contains("<h1 class=\"page-title\">What&#39;s on</h1>"), "{en}");
    assert!(en.contains(&format!(">{}</a></h2>", text(first["featureNameEn"].as_str().unwrap()))), "{en}");
    // The first card's showtimes lead to their order pages, keeping the language.
    let on_sale = by_time.iter().find(|p| p["featureId"] == fid && p["isOnSale"] == true && p["isVod"] == false);
    if let Some(p) = on_sale {
        assert!(he.contains(&format!(r#"href="/order/{}""#, p["id"])), "{he}");
        assert!(en.contains(&format!(r#"href="/order/{}?lang=en""#, p["id"])), "{en}");
    }
    assert!(!en.contains(first["featureName"].as_str().unwrap()), "no Hebrew name on an English page");
}

async fn an_order_page_comes_with_its_first_screen_in_hebrew_and_english(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // A screening on sale in a hall of numbered seats: the seat step is its first step.
    let day = app.get("/api/seats/presentations").await.body;
    let id = day["presentations"].as_array().unwrap().iter()
        .find(|p| p["isOnSale"] == true && p["isVod"] == false && p["hasReservedSection"] == true)
        .expect("a reserved screening on sale today")["id"].as_i64().unwrap();
    let p = app.get(&format!("/api/presentations/{id}")).await.body["presentation"].clone();
    let page = app.get(&format!("/order/{id}")).await;
    assert_eq!(page.status, StatusCode::OK);
    let (route, he) = first_screen(&page.text).expect("an order page carries its first screen");
    assert_eq!(route, "order");
    assert!(he.contains(r#"<h1 class="page-title">ההזמנה שלך</h1>"#), "{he}");
    assert!(he.contains(&format!(r#"<h2 id="order-feature-name" class="order-summary__name">{}</h2>"#, text(p["featureName"].as_str().unwrap()))), "{he}");
    assert!(he.contains(r#"aria-current="step"><span class="order-steps__number" aria-hidden="true">1</span><span class="order-steps__name">מושבים</span>"#), "{he}");
    // The hall's picture in the map's box, at the size of the seat plan's grid, and the map's hint
    // under it; the picture is every seat of the plan (decision 0076).
    let (venue, plan_id) = (p["venueId"].as_i64().unwrap(), p["seatplanId"].as_i64().unwrap());
    let src = format!("/api/seats/seatplan/preview?venueId={venue}&amp;seatplanId={plan_id}");
    assert!(he.contains(&format!(r#"<img class="seat-map__svg seat-map__svg--fit seat-map__preview" src="{src}""#)), "{he}");
    assert!(he.contains(r#"fetchpriority="high" elementtiming="first-screen">"#), "{he}");
    let plan = app.get(&format!("/api/seats/seatplan?venueId={venue}&seatplanId={plan_id}")).await.body;
    let (w, h) = (plan["seatplan"]["width"].as_i64().unwrap(), plan["seatplan"]["height"].as_i64().unwrap());
    assert!(he.contains(&format!(r#"width="{}" height="{}""#, w * 10 + 24, h * 10 + 22)), "{he}");
    let picture = app.get(&src.replace("&amp;", "&")).await;
    assert_eq!(picture.status, StatusCode::OK);
    assert!(picture.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"));
    assert_eq!(picture.headers["cache-control"], "public, max-age=300");
    assert!(picture.text.contains(&format!(r#"viewBox="-12 0 {} {}""#, w * 10 + 24, h * 10 + 22)), "{}", picture.text);
    assert_eq!(picture.text.matches("<rect ").count(), plan["seatplan"]["seats"].as_array().unwrap().len());
    // Another venue's plan is not found, as the plan itself is not.
    let other = app.get(&format!("/api/seats/seatplan/preview?venueId={}&seatplanId={plan_id}", venue + 1000)).await;
    assert_eq!(other.status, StatusCode::NOT_FOUND);
    assert!(he.contains(r#"<p class="seat-map__details-more">"#), "{he}");
    let (_, en) = first_screen(&app.get(&format!("/order/{id}?lang=en")).await.text).unwrap();
    assert!(en.contains(&format!(">{}</h2>", text(p["featureNameEn"].as_str().unwrap()))), "{en}");
    assert!(en.contains(r#"<span class="order-steps__name">Seats</span>"#), "{en}");

    // A mini-site's order (its own channel), another page and a 404 keep index.html's bar.
    for uri in ["/order/1000?miniSiteUrl=festival", "/terms", "/order/999999", "/nope"] {
        assert!(first_screen(&app.get(uri).await.text).is_none(), "{uri}");
    }
}

async fn a_films_name_from_the_catalogue_is_written_as_text(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    // The feature of the day's first showtime: the first card of what's on.
    let day = app.get("/api/seats/presentations").await.body;
    let mut by_time: Vec<&Value> = day["presentations"].as_array().unwrap().iter().collect();
    by_time.sort_by_key(|p| (p["dateTime"].as_str().unwrap().to_owned(), p["id"].as_i64().unwrap()));
    let (id, fid) = (by_time[0]["id"].as_i64().unwrap(), by_time[0]["featureId"].as_i64().unwrap());
    let hostile = r#"</main><script>alert("x")</script><img src=x onerror=alert(1)> & 'co'"#;
    rename_feature(db, fid, &format!("סרט {hostile}"), &format!("Film {hostile}")).await;
    let escaped = text(hostile);
    for (uri, name) in [
        ("/".to_owned(), format!(">סרט {escaped}</a></h2>")),
        ("/?lang=en".to_owned(), format!(">Film {escaped}</a></h2>")),
        (format!("/order/{id}"), format!(">סרט {escaped}</h2>")),
        (format!("/order/{id}?lang=en"), format!(">Film {escaped}</h2>")),
    ] {
        let (_, html) = first_screen(&app.get(&uri).await.text).unwrap();
        assert!(html.contains(&name), "{uri}: {html}");
        assert!(!html.contains("<script") && !html.contains("<img src=x"), "{uri}: {html}");
    }
}
}
