//! Everything outside /api: the built web app (embedded in release builds, read from web/dist in
//! debug builds), with real HTTP statuses. One route list (web/src/app/routes.json) feeds both
//! react-router and this fallback, so a path the app would call "not found" is a real 404.

use kupa_domain::ids::PresentationId;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, LOCATION};
use axum::http::{Method, StatusCode};
use axum::response::{IntoResponse, Response};
use rust_embed::RustEmbed;
use serde::Deserialize;

use crate::state::{AppState, RoutePaths};

mod first_screen;
pub(crate) use first_screen::hall_svg;
mod landing;
use landing::{Landing, landing};

#[derive(RustEmbed)]
#[folder = "../../web/dist"]
struct WebAssets;

const ROUTES_JSON: &str = include_str!("../../../web/src/app/routes.json");

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RouteFile {
    routes: Vec<RouteDef>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RouteDef {
    pub path: String,
    #[serde(default)]
    pub config_key: Option<String>,
    /// The page's module (a key of Vite's manifest), for the pages a visitor lands on: the
    /// server names its chunks in the HTML so they load beside the app's entry, not after it.
    #[serde(default)]
    pub page: Option<String>,
}

pub fn route_defs() -> &'static [RouteDef] {
    static ROUTES: OnceLock<Vec<RouteDef>> = OnceLock::new();
    ROUTES.get_or_init(|| {
        serde_json::from_str::<RouteFile>(ROUTES_JSON)
            .expect("web/src/app/routes.json is valid")
            .routes
    })
}

/// The route's path with its configurable prefix replaced by the configured one.
fn effective_path(def: &RouteDef, configured: &RoutePaths) -> String {
    let Some(key) = &def.config_key else {
        return def.path.clone();
    };
    let defaults = RoutePaths::default();
    match (defaults.by_key(key), configured.by_key(key)) {
        (Some(default_base), Some(base)) if def.path.starts_with(default_base) => {
            format!("{base}{}", &def.path[default_base.len()..])
        }
        _ => def.path.clone(),
    }
}

fn segment_match(pattern: &str, path: &str) -> bool {
    let pat: Vec<&str> = pattern.split('/').filter(|s| !s.is_empty()).collect();
    let got: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    for (i, p) in pat.iter().enumerate() {
        if *p == "*" {
            return got.len() > i;
        }
        match got.get(i) {
            None => return false,
            Some(g) if p.starts_with(':') => {
                if g.is_empty() {
                    return false;
                }
            }
            Some(g) if g != p => return false,
            Some(_) => {}
        }
    }
    pat.len() == got.len()
}

pub fn is_known_route(path: &str, configured: &RoutePaths) -> bool {
    route_defs()
        .iter()
        .any(|d| segment_match(&effective_path(d, configured), path))
}

/// The route a page's path matches, as routes.json writes it (`/order/:presentationId`), with
/// the configured prefixes: what a log may keep of an address (no ids, keys or query).
pub fn route_pattern(path: &str, configured: &RoutePaths) -> Option<String> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    route_defs()
        .iter()
        .map(|d| effective_path(d, configured))
        .find(|p| segment_match(p, path))
}

/// `/https://host/x` → the address after the slash, only for allow-listed hosts.
pub fn redirect_target(path_and_query: &str, allow_list: &[String]) -> Option<String> {
    let target = path_and_query.strip_prefix('/')?;
    let rest = target
        .strip_prefix("https://")
        .or_else(|| target.strip_prefix("http://"))?;
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if authority.contains('@') {
        return None; // user-info tricks like https://allowed@evil.example
    }
    let host = authority
        .split(':')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    (!host.is_empty() && allow_list.iter().any(|h| h.eq_ignore_ascii_case(&host)))
        .then(|| target.to_owned())
}

fn lang_param(query: Option<&str>) -> Option<String> {
    query?.split('&').find_map(|kv| {
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        (k == "lang").then(|| v.to_owned())
    })
}

/// The page's `<html lang dir>`: what the app will settle on, so the first paint (and a 404 that
/// never runs the app's scripts) is already in the buyer's language and direction.
fn html_lang_attrs(lang: &str) -> String {
    let dir = if kupa_domain::locale::is_rtl(lang) {
        "rtl"
    } else {
        "ltr"
    };
    format!("<html lang=\"{lang}\" dir=\"{dir}\">")
}

#[derive(Debug, Deserialize)]
struct ManifestChunk {
    file: String,
    #[serde(default)]
    imports: Vec<String>,
    #[serde(default)]
    css: Vec<String>,
}

/// The `<link>`s that fetch a page's own chunks (its script, the shared chunks it imports that
/// the entry does not, and its styles) while the entry loads: without them the browser learns of
/// them only once the entry has run and the router has matched, a round trip later. Under a
/// first screen the server wrote (decision 0071) the styles are applied, not only fetched: that
/// screen is drawn with them before any script runs (the app's loader finds them in place).
fn page_preloads(manifest: &str, page: &str, first_screen: bool) -> String {
    let Ok(chunks) = serde_json::from_str::<HashMap<String, ManifestChunk>>(manifest) else {
        return String::new();
    };
    // What index.html already names (the entry and its static imports).
    let mut named: HashSet<&str> = HashSet::new();
    let mut stack = vec!["index.html"];
    while let Some(key) = stack.pop() {
        if let Some(chunk) = chunks.get(key).filter(|_| named.insert(key)) {
            stack.extend(chunk.imports.iter().map(String::as_str));
        }
    }
    let mut links = String::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut stack = vec![page];
    while let Some(key) = stack.pop() {
        if named.contains(key) || !seen.insert(key) {
            continue;
        }
        let Some(chunk) = chunks.get(key) else {
            continue;
        };
        links.push_str(&format!(
            "<link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/{}\">",
            chunk.file
        ));
        for css in &chunk.css {
            links.push_str(&if first_screen {
                format!("<link rel=\"stylesheet\" crossorigin href=\"/{css}\">")
            } else {
                format!("<link rel=\"preload\" as=\"style\" crossorigin href=\"/{css}\">")
            });
        }
        stack.extend(chunk.imports.iter().map(String::as_str));
    }
    links
}

/// The preloads of the page at `path` (none for a page without a `page` in routes.json).
fn preloads_for(path: &str, configured: &RoutePaths, first_screen: bool) -> String {
    let Some(page) = route_defs()
        .iter()
        .find(|d| segment_match(&effective_path(d, configured), path))
        .and_then(|d| d.page.as_deref())
    else {
        return String::new();
    };
    match WebAssets::get(".vite/manifest.json") {
        Some(manifest) => {
            page_preloads(&String::from_utf8_lossy(&manifest.data), page, first_screen)
        }
        None => String::new(),
    }
}

/// index.html with the page's language, `head` before `</head>`, and a landing page's first
/// screen (its route id and markup) in place of the bar between index.html's two marks.
fn index_html(
    status: StatusCode,
    lang: &str,
    head: &str,
    first_screen: Option<(&str, String)>,
) -> Response {
    match WebAssets::get("index.html") {
        Some(file) => {
            let mut html = String::from_utf8_lossy(&file.data)
                .replacen("<html lang=\"he\" dir=\"rtl\">", &html_lang_attrs(lang), 1)
                .replacen("</head>", &format!("{head}</head>"), 1);
            if let Some((page, screen)) = first_screen {
                html = with_first_screen(&html, page, &screen);
            }
            (status, [(CONTENT_TYPE, "text/html; charset=utf-8"), (CACHE_CONTROL, "no-cache")], html).into_response()
        }
        // Without the web app, a landing page's first screen is still its content.
        None => (
            status,
            [(CONTENT_TYPE, "text/html; charset=utf-8")],
            format!(
                "<!doctype html>{}<head><meta charset=\"utf-8\"><title>Kupa</title>{head}</head>\
                 <body><p>The Kupa API is running, but the web app is not built. Run <code>make build</code> (or <code>make run</code>).</p>\
                 {}</body></html>",
                html_lang_attrs(lang),
                match first_screen {
                    Some((page, screen)) => format!("<div id=\"root\" data-first-screen=\"{page}\">{screen}</div>"),
                    None => "<p>This page could not be found.</p>".to_owned(),
                }
            ),
        )
            .into_response(),
    }
}

const FIRST_SCREEN_START: &str = "<!--first-screen-->";

/// Whether a first screen is shown: index.html has its marks (or there is no web app, whose
/// stand-in page shows it as it is). A build without them keeps the bar and its styles preloaded.
fn shows_first_screen() -> bool {
    WebAssets::get("index.html")
        .is_none_or(|f| String::from_utf8_lossy(&f.data).contains(FIRST_SCREEN_START))
}
const FIRST_SCREEN_END: &str = "<!--/first-screen-->";

/// index.html with `screen` between its marks and `data-first-screen` on the root element; as
/// it was when the marks are missing (a build without them keeps its bar).
fn with_first_screen(html: &str, page: &str, screen: &str) -> String {
    let (Some(start), Some(end)) = (html.find(FIRST_SCREEN_START), html.find(FIRST_SCREEN_END))
    else {
        return html.to_owned();
    };
    if end < start {
        return html.to_owned();
    }
    let mut out = String::with_capacity(html.len() + screen.len());
    out.push_str(&html[..start]);
    out.push_str(screen);
    out.push_str(&html[end + FIRST_SCREEN_END.len()..]);
    let out = out.replacen(
        "<div id=\"root\">",
        &format!("<div id=\"root\" data-first-screen=\"{page}\">"),
        1,
    );
    with_boot_loader(&out)
}

/// index.html with its entry script run by `first-screen.js` once the first screen is shown
/// (decision 0076): the entry and every module preload wait in a `<template>` the loader puts in
/// place then, so no script competes with the screen's styles, fonts and pictures before it is
/// painted. As it was when it has no entry script.
fn with_boot_loader(html: &str) -> String {
    const OPEN: &str = "<script type=\"module\"";
    const PRELOAD: &str = "<link rel=\"modulepreload\"";
    let Some(start) = html.find(OPEN) else {
        return html.to_owned();
    };
    let Some(len) = html[start..].find("</script>") else {
        return html.to_owned();
    };
    let tag = &html[start..start + len];
    let Some(src) = tag
        .split_once(" src=\"")
        .and_then(|(_, rest)| rest.split_once('"'))
        .map(|(src, _)| src)
    else {
        return html.to_owned();
    };
    let mut preloads =
        format!("<link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"{src}\">");
    let mut rest = String::with_capacity(html.len());
    rest.push_str(&html[..start]);
    rest.push_str(&format!(
        "<script defer src=\"/first-screen.js\" data-entry=\"{src}\"></script>"
    ));
    rest.push_str(&html[start + len + "</script>".len()..]);
    // The module preloads of the head (index.html's and the page's) move into the template.
    let head_end = rest.find("</head>").unwrap_or(rest.len());
    let mut head = String::with_capacity(head_end);
    let mut cursor = 0;
    while let Some(at) = rest[cursor..head_end].find(PRELOAD) {
        let at = cursor + at;
        let Some(close) = rest[at..head_end].find('>') else {
            break;
        };
        head.push_str(&rest[cursor..at]);
        preloads.push_str(&rest[at..=at + close]);
        cursor = at + close + 1;
    }
    head.push_str(&rest[cursor..head_end]);
    format!(
        "{head}<template id=\"kupa-app-preloads\">{preloads}</template>{}",
        &rest[head_end..]
    )
}

/// `/order/{id}` of a presentation that does not exist (or an id that is no number): the order page
/// would only say "not found", so the status says it too. A store that cannot answer leaves the
/// page to the app, which says so and retries.
async fn is_missing_order(state: &AppState, path: &str) -> bool {
    let Some(raw) = path
        .strip_prefix("/order/")
        .map(|r| r.trim_end_matches('/'))
    else {
        return false;
    };
    if raw.is_empty() || raw.contains('/') {
        return false;
    }
    let Ok(id) = raw.parse::<i64>() else {
        return true;
    };
    let channel = kupa_app::catalogue::Channel::default();
    matches!(
        state
            .catalogue
            .presentation(PresentationId(id), &channel)
            .await,
        Err(kupa_app::AppError::Rejected { .. })
    )
}

pub async fn serve(State(state): State<AppState>, request: Request) -> Response {
    let path = request.uri().path().to_owned();
    let query = request.uri().query().map(str::to_owned);
    if path.starts_with("/api/") || path == "/api" {
        return crate::api_not_found().await.into_response();
    }
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return StatusCode::METHOD_NOT_ALLOWED.into_response();
    }
    if path.starts_with("/http") {
        let full = match &query {
            Some(q) => format!("{path}?{q}"),
            None => path.clone(),
        };
        return match redirect_target(&full, &state.settings.redirect_allow_list) {
            Some(to) => (StatusCode::FOUND, [(LOCATION, to)], Body::empty()).into_response(),
            // A ?lang the site does not offer may be the far address's own: the default then.
            None => {
                let lang = lang_param(query.as_deref())
                    .filter(|l| state.settings.enabled_locales.contains(l))
                    .unwrap_or_else(|| state.settings.default_locale.clone());
                index_html(StatusCode::NOT_FOUND, &lang, "", None)
            }
        };
    }
    let file = path.trim_start_matches('/');
    // Debug builds read web/dist from disk: never let a path climb out of it.
    let safe = !file.is_empty() && !file.split('/').any(|seg| seg == ".." || seg.contains('\\'));
    if let Some(asset) = WebAssets::get(file).filter(|_| safe) {
        // Vite puts content hashes in names under assets/: those never change.
        let cache = if file.starts_with("assets/") {
            "public, max-age=31536000, immutable"
        } else {
            "public, max-age=300"
        };
        let mime = asset.metadata.mimetype().to_owned();
        return (
            [(CONTENT_TYPE, mime), (CACHE_CONTROL, cache.to_owned())],
            asset.data.into_owned(),
        )
            .into_response();
    }
    let lang_ok =
        lang_param(query.as_deref()).is_none_or(|l| state.settings.enabled_locales.contains(&l));
    let status = if lang_ok
        && is_known_route(&path, &state.settings.routes)
        && !is_missing_order(&state, &path).await
    {
        StatusCode::OK
    } else {
        StatusCode::NOT_FOUND
    };
    let lang = page_lang(query.as_deref(), &state);
    if status != StatusCode::OK {
        return index_html(status, &lang, "", None);
    }
    let Landing { head, first_screen } = landing(&state, &path, query.as_deref(), &lang).await;
    let first_screen = first_screen.filter(|_| shows_first_screen());
    let mut preloads = preloads_for(&path, &state.settings.routes, first_screen.is_some());
    preloads.push_str(&head);
    index_html(status, &lang, &preloads, first_screen)
}

/// The language the app will show the page in: ?lang when the site offers it, the default
/// without one, and English for a ?lang it does not offer (web/src/lib/lang.ts).
fn page_lang(query: Option<&str>, state: &AppState) -> String {
    match lang_param(query) {
        None => state.settings.default_locale.clone(),
        Some(l) if state.settings.enabled_locales.contains(&l) => l,
        Some(_) => "en".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_spec_route_is_known_and_others_are_not() {
        let r = RoutePaths::default();
        for p in [
            "/",
            "/order",
            "/order/1234",
            "/PRES-live",
            "/edocument/abc",
            "/mini-site/festival",
            "/mini-site",
            "/vod",
            "/system-vouchers",
            "/memberships",
            "/order/12/",
            "/terms",
            "/privacy",
            "/contact",
            "/accessibility",
        ] {
            assert!(is_known_route(p, &r), "{p}");
        }
        for p in ["/nope", "/order/1/2", "/edocument", "/vod/x", "/ORDER"] {
            assert!(!is_known_route(p, &r), "{p}");
        }
    }

    #[test]
    fn a_page_is_known_by_its_route_only() {
        let r = RoutePaths::default();
        assert_eq!(
            route_pattern("/reservation/AB12CD/seats?lang=en", &r).as_deref(),
            Some("/reservation/:reservationId/seats")
        );
        assert_eq!(route_pattern("/", &r).as_deref(), Some("/"));
        assert_eq!(route_pattern("/nope/0521234567", &r), None);
    }

    #[test]
    fn configured_route_paths_replace_the_defaults() {
        let r = RoutePaths {
            vod: "/watch".into(),
            mini_site: "/sites".into(),
            ..RoutePaths::default()
        };
        assert!(is_known_route("/watch", &r));
        assert!(!is_known_route("/vod", &r));
        assert!(is_known_route("/sites/festival", &r));
        assert!(!is_known_route("/mini-site/festival", &r));
    }

    #[test]
    fn a_page_preloads_its_own_chunks_and_styles_but_not_the_entrys() {
        let manifest = r#"{
          "index.html": {"file": "assets/index-1.js", "imports": ["_react-2.js"], "css": ["assets/index-3.css"]},
          "_react-2.js": {"file": "assets/react-2.js"},
          "_shared-4.js": {"file": "assets/shared-4.js", "imports": ["_react-2.js"]},
          "src/Page.tsx": {"file": "assets/Page-5.js", "imports": ["_react-2.js", "_shared-4.js", "index.html"], "css": ["assets/Page-6.css"]}
        }"#;
        assert_eq!(
            page_preloads(manifest, "src/Page.tsx", false),
            "<link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/Page-5.js\">\
             <link rel=\"preload\" as=\"style\" crossorigin href=\"/assets/Page-6.css\">\
             <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/shared-4.js\">"
        );
        // Under the server's first screen its styles apply at once.
        assert!(
            page_preloads(manifest, "src/Page.tsx", true)
                .contains("<link rel=\"stylesheet\" crossorigin href=\"/assets/Page-6.css\">")
        );
        assert_eq!(page_preloads(manifest, "src/Missing.tsx", false), "");
        assert_eq!(page_preloads("not json", "src/Page.tsx", false), "");
    }

    #[test]
    fn the_landing_pages_name_modules_the_build_has() {
        // Only where the web app is built (dist/ embedded): a page renamed in the app but not in
        // routes.json would silently lose its preloads.
        let Some(manifest) = WebAssets::get(".vite/manifest.json") else {
            return;
        };
        let manifest = String::from_utf8_lossy(&manifest.data);
        let pages: Vec<&str> = route_defs()
            .iter()
            .filter_map(|d| d.page.as_deref())
            .collect();
        assert!(!pages.is_empty());
        for page in pages {
            assert!(!page_preloads(&manifest, page, false).is_empty(), "{page}");
        }
    }

    #[test]
    fn the_app_scripts_load_at_low_priority() {
        // Only where the web app is built: vite.config.ts marks the entry and its preloads.
        let Some(index) = WebAssets::get("index.html") else {
            return;
        };
        let index = String::from_utf8_lossy(&index.data);
        let scripts: Vec<&str> = index
            .split('<')
            .filter(|tag| tag.starts_with("script ") || tag.contains("rel=\"modulepreload\""))
            .collect();
        assert!(!scripts.is_empty());
        for tag in scripts {
            assert!(tag.contains("fetchpriority=\"low\""), "{tag}");
        }
    }

    #[test]
    fn a_first_screen_runs_the_app_after_its_paint() {
        let index = "<html><head><script type=\"module\" fetchpriority=\"low\" crossorigin \
                     src=\"/assets/index-1.js\"></script>\
                     <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/a-2.js\">\
                     <link rel=\"stylesheet\" href=\"/a.css\">\
                     <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/Page-3.js\">\
                     </head><body><div id=\"root\"><!--first-screen--><header></header>\
                     <!--/first-screen--></div></body></html>";
        let html = with_first_screen(index, "order", "<main>screen</main>");
        assert_eq!(
            html,
            "<html><head><script defer src=\"/first-screen.js\" data-entry=\"/assets/index-1.js\">\
             </script><link rel=\"stylesheet\" href=\"/a.css\"><template id=\"kupa-app-preloads\">\
             <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/index-1.js\">\
             <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/a-2.js\">\
             <link rel=\"modulepreload\" fetchpriority=\"low\" crossorigin href=\"/assets/Page-3.js\">\
             </template></head><body><div id=\"root\" data-first-screen=\"order\"><main>screen</main>\
             </div></body></html>"
        );
        // Without an entry script (or without the marks) the page is left as it is.
        assert_eq!(with_boot_loader("<p>x</p>"), "<p>x</p>");
        let plain = "<html><head><script type=\"module\" src=\"/e.js\"></script></head></html>";
        assert_eq!(with_first_screen(plain, "order", "s"), plain);
    }

    #[test]
    fn redirects_go_only_to_allow_listed_hosts() {
        let allow = vec!["partner.example".to_owned()];
        assert_eq!(
            redirect_target("/https://partner.example/x?y=1", &allow).as_deref(),
            Some("https://partner.example/x?y=1")
        );
        assert_eq!(
            redirect_target("/http://PARTNER.example:8443/", &allow).as_deref(),
            Some("http://PARTNER.example:8443/")
        );
        assert!(redirect_target("/https://evil.example/", &allow).is_none());
        assert!(redirect_target("/https://partner.example@evil.example/", &allow).is_none());
        assert!(redirect_target("/https://partner.example.evil.example/", &allow).is_none());
        assert!(redirect_target("/httpsomething", &allow).is_none());
    }
}
