//! Films and products in the back office over HTTP (issue 18 item 3, decision 0069), on SQLite
//! and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a film added and changed, its poster
//! uploaded, kept resized and served with an ETag, and drawn by the first screen as by the app; a
//! bad upload refused; a product sold only at the complexes it names, and a new price that leaves
//! an order already priced alone; who may change what; the audit of each change; a second node
//! that follows within a second.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

fn film(name_en: &str) -> Value {
    json!({
        "name": "הסרט החדש", "nameEn": name_en, "synopsis": "על סרט", "synopsisEn": "About a film",
        "categoryId": 2, "runtime": 95, "classification": "הותר לכל", "classificationEn": "All ages",
        "originalLanguage": "עברית", "originalLanguageEn": "Hebrew", "dubbing": "", "dubbingEn": "",
        "subtitles": "אנגלית", "subtitlesEn": "English", "releaseDate": "2030-06-01",
        "trailerUrl": "https://videos.example/new-film",
    })
}

fn product(location_ids: &[i64], price: i64) -> Value {
    json!({
        "name": "פופקורן טרטופו", "nameEn": "Truffle popcorn", "category": "popcorn", "price": price,
        "icon": "🍿", "color": "#aa7733", "sort": 20, "onSale": true, "locationIds": location_ids,
    })
}

/// A picture of `width` × `height` in `format`, with something on it.
fn picture(width: u32, height: u32, format: image::ImageFormat) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 251) as u8, (y % 241) as u8, 90])
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut out, format)
        .unwrap();
    out.into_inner()
}

async fn upload(
    app: &TestApp,
    cookie: &str,
    film: i64,
    content_type: &str,
    bytes: Vec<u8>,
) -> Reply {
    let req = Request::put(format!("/api/staff/films/{film}/poster"))
        .header("cookie", format!("kupa_staff={cookie}"))
        .header("content-type", content_type)
        .body(Body::from(bytes))
        .unwrap();
    app.send(req).await
}

async fn upload_product_image(
    app: &TestApp,
    cookie: &str,
    product: i64,
    content_type: &str,
    bytes: Vec<u8>,
) -> Reply {
    let req = Request::put(format!("/api/staff/products/{product}/image"))
        .header("cookie", format!("kupa_staff={cookie}"))
        .header("content-type", content_type)
        .body(Body::from(bytes))
        .unwrap();
    app.send(req).await
}

async fn count(db: &TestDb, sql: &'static str) -> String {
    rows(db, sql).await.remove(0)
}

/// The ids of the products GET /presentations/{id} offers.
async fn offered(app: &TestApp, presentation: i64) -> Vec<i64> {
    let r = app.get(&format!("/api/presentations/{presentation}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body["presentation"]["products"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect()
}

/// A screening on sale at a complex, from What's on.
async fn on_sale_at(app: &TestApp, location: i64) -> Presentation {
    app.presentations()
        .await
        .into_iter()
        .find(|p| p.location_id == location && p.is_on_sale && !p.is_vod)
        .expect("a screening on sale there")
}

api_tests! {

async fn a_manager_adds_and_changes_a_film_and_every_manager_reads_it_in_the_audit(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let r = staff_call(&app, &m, "POST", "/api/staff/films", Some(film("The New Film")), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let f = &r.body["film"];
    let id = f["id"].as_i64().unwrap();
    assert_eq!((f["runtime"].as_i64(), f["editable"].as_bool()), (Some(95), Some(true)));
    assert_eq!(f["imageUrl"], format!("/api/features/{id}/placeholderImage"));
    assert_eq!(f["posterVersion"], Value::Null);
    // The storefront's films list it with its trailer link.
    let listed = app.get(&format!("/api/features/?featureIds={id}")).await;
    assert_eq!(listed.body["features"][0]["nameEn"], "The New Film", "{}", listed.text);
    assert_eq!(listed.body["features"][0]["trailerUrl"], "https://videos.example/new-film");
    // Changed: a new name and runtime, the trailer taken away.
    let changed = with(film("The Newer Film"), json!({ "runtime": 101, "trailerUrl": "" }));
    let r = staff_call(&app, &m, "PUT", &format!("/api/staff/films/{id}"), Some(changed), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["film"]["nameEn"].as_str(), r.body["film"]["runtime"].as_i64()), (Some("The Newer Film"), Some(101)));
    let listed = app.get(&format!("/api/features/?featureIds={id}")).await;
    assert_eq!(listed.body["features"][0]["nameEn"], "The Newer Film");
    assert_eq!(listed.body["features"][0]["trailerUrl"], "");
    // In the list, newest first.
    let all = get(&app, &m, "/api/staff/films").await;
    assert_eq!(all.body["films"][0]["id"], id);
    assert!(all.body["categories"].as_array().unwrap().len() >= 9);
    // The audit: two rows of the chain's (no business, no complex), which another business's
    // manager reads too.
    let haifa = manager(&app, "h@chain.example", &[2]).await;
    for who in [&m, &haifa] {
        let audit = get(&app, who, "/api/staff/audit?limit=10").await;
        let changes = audit.body["changes"].as_array().unwrap();
        let kinds: Vec<&str> = changes.iter().map(|c| c["kind"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["filmChanged", "filmAdded"], "{}", audit.text);
        assert_eq!((&changes[0]["businessId"], &changes[0]["locationId"]), (&Value::Null, &Value::Null));
        assert_eq!(changes[0]["before"]["nameEn"], "The New Film");
        assert_eq!(changes[0]["after"]["nameEn"], "The Newer Film");
        assert_eq!(changes[0]["after"]["runtime"], 101);
        assert_eq!(changes[1]["before"], Value::Null);
    }
    let only = get(&app, &m, "/api/staff/audit?kind=filmAdded").await;
    assert_eq!(only.body["changes"].as_array().unwrap().len(), 1);
}

async fn a_bad_film_is_refused_field_by_field_and_nothing_is_written(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let before = count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM features").await;
    let bad = with(film("x"), json!({ "name": " ", "runtime": 0, "categoryId": 99, "releaseDate": "2030-13-01",
        "trailerUrl": "http://videos.example/t" }));
    let r = staff_call(&app, &m, "POST", "/api/staff/films", Some(bad), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["fields"], json!({
        "name": "required", "runtime": "min", "categoryId": "category", "releaseDate": "date", "trailerUrl": "https",
    }));
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM features").await, before);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM backoffice_audit").await, "0");
}

async fn a_poster_upload_is_kept_resized_and_served_with_an_etag(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // Feature 2 is shown in Tel Aviv and Jerusalem (business 1).
    let shown = on_sale_at(&app, 2).await;
    let id = shown.feature_id;
    // Wider than 2:3: its middle is kept.
    let r = upload(&app, &m, id, "image/png", picture(1200, 1200, image::ImageFormat::Png)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let version = r.body["film"]["posterVersion"].as_str().unwrap().to_owned();
    let url = r.body["film"]["imageUrl"].as_str().unwrap().to_owned();
    assert_eq!(url, format!("/api/features/{id}/poster/600?v={version}"));
    // Each size the storefront shows, as JPEG, cut to 2:3.
    for width in [300_u32, 600] {
        let got = app.get(&format!("/api/features/{id}/poster/{width}?v={version}")).await;
        assert_eq!(got.status, StatusCode::OK, "{}", got.text);
        assert_eq!(got.headers["content-type"], "image/jpeg");
        assert!(got.headers["cache-control"].to_str().unwrap().contains("public"));
        let etag = got.headers["etag"].to_str().unwrap().to_owned();
        let back = image::load_from_memory_with_format(&got.bytes, image::ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (width, width * 3 / 2));
        // Asked again with its ETag: not sent again.
        let again = app
            .send(Request::get(format!("/api/features/{id}/poster/{width}")).header("if-none-match", &etag).body(Body::empty()).unwrap())
            .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert!(again.bytes.is_empty());
    }
    assert_eq!(app.get(&format!("/api/features/{id}/poster/450")).await.status, StatusCode::NOT_FOUND);
    // The storefront shows it: What's on, the presentation, the film.
    let p = app.get(&format!("/api/presentations/{}", shown.id)).await;
    assert_eq!(p.body["presentation"]["featureImageUrl"], url);
    assert_eq!(
        p.body["presentation"]["featureImageSrcset"],
        format!("/api/features/{id}/poster/300?v={version} 300w, /api/features/{id}/poster/600?v={version} 600w")
    );
    let listed = app.presentations().await;
    assert!(listed.iter().filter(|x| x.feature_id == id).all(|x| x.feature_image_url == url));
    // Another film still has its generated poster, and a film without an upload has no poster.
    assert!(listed.iter().filter(|x| x.feature_id != id).all(|x| x.feature_image_url.ends_with("/placeholderImage")));
    let other = listed.iter().find(|x| x.feature_id != id).unwrap().feature_id;
    assert_eq!(app.get(&format!("/api/features/{other}/poster/600")).await.status, StatusCode::NOT_FOUND);
    // A JPEG replaces it under a new version; the audit keeps the versions, never the bytes.
    let r = upload(&app, &m, id, "image/jpeg", picture(700, 1050, image::ImageFormat::Jpeg)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_ne!(r.body["film"]["posterVersion"].as_str().unwrap(), version);
    let audit = get(&app, &m, "/api/staff/audit?kind=filmPoster").await;
    let changes = audit.body["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2);
    assert_eq!(changes[0]["before"]["posterVersion"], version);
    assert_eq!(changes[1]["before"]["posterVersion"], Value::Null);
    assert_eq!(changes[1]["after"]["posterSize"], "1200×1200");
    assert!(audit.text.len() < 4000, "no image in the audit");
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM feature_posters").await, "2");
}

async fn an_uploaded_poster_is_the_first_screens_poster_as_in_the_app(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1, 2]).await;
    // The feature of the day's first showtime: the first card of what's on, loaded first.
    let day = app.get("/api/seats/presentations").await.body;
    let mut by_time: Vec<&Value> = day["presentations"].as_array().unwrap().iter().collect();
    by_time.sort_by_key(|p| (p["dateTime"].as_str().unwrap().to_owned(), p["id"].as_i64().unwrap()));
    let (id, fid) = (by_time[0]["id"].as_i64().unwrap(), by_time[0]["featureId"].as_i64().unwrap());
    let r = upload(&app, &m, fid, "image/png", picture(600, 900, image::ImageFormat::Png)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.body["film"]["posterVersion"].as_str().unwrap().to_owned();
    let big = format!("/api/features/{fid}/poster/600?v={v}");
    let set = format!("/api/features/{fid}/poster/300?v={v} 300w, {big} 600w");
    // The card's <img> as the app's Poster draws it (src, srcset, sizes), in either language: an
    // uploaded poster has no language of its own.
    for uri in ["/", "/?lang=en"] {
        let page = app.get(uri).await.text;
        let card = format!(
            r#"<img class="feature-card__poster" src="{big}" srcset="{set}" sizes="200px" alt="" width="200" height="300" loading="eager""#
        );
        assert!(page.contains(&card), "{uri}: {page}");
        assert!(!page.contains(&format!("/api/features/{fid}/placeholderImage")), "{uri}: {page}");
    }
    // The order page's summary takes the large one, as OrderPage does.
    let order = app.get(&format!("/order/{id}?lang=en")).await.text;
    assert!(
        order.contains(&format!(r#"<img class="order-summary__poster" src="{big}" alt="""#)),
        "{order}"
    );
}

async fn a_bad_upload_is_refused_and_changes_nothing(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let id = on_sale_at(&app, 2).await.feature_id;
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"900\"/>".to_vec();
    let cases: [(&str, Vec<u8>, &str); 4] = [
        ("text/plain", b"not a picture".to_vec(), "imageType"),
        ("image/svg+xml", svg.clone(), "imageType"),
        ("image/png", svg, "image"),
        ("image/png", picture(400, 600, image::ImageFormat::Png), "imageSize"),
    ];
    for (content_type, bytes, rule) in cases {
        let r = upload(&app, &m, id, content_type, bytes).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{content_type}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["fields"]["poster"], rule, "{}", r.text);
    }
    // Over 5 MB: refused before it is read.
    let r = upload(&app, &m, id, "image/png", vec![0_u8; 5 * 1024 * 1024 + 1]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"), "{}", r.text);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM feature_posters").await, "0");
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM features WHERE poster_version IS NOT NULL").await, "0");
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM backoffice_audit").await, "0");
}

async fn a_product_is_offered_only_at_the_complexes_that_sell_it(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let tel_aviv = on_sale_at(&app, 2).await;
    let jerusalem = on_sale_at(&app, 3).await;
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[2], 2200)), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let id = r.body["product"]["id"].as_i64().unwrap();
    assert_eq!(r.body["product"]["locationIds"], json!([2]));
    assert_eq!(r.body["product"]["everywhere"], false);
    assert!(offered(&app, tel_aviv.id).await.contains(&id));
    assert!(!offered(&app, jerusalem.id).await.contains(&id));
    // Moved to Jerusalem, then turned off: offered there, then nowhere.
    let moved = with(product(&[3], 2200), json!({}));
    let r = staff_call(&app, &m, "PUT", &format!("/api/staff/products/{id}"), Some(moved), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert!(!offered(&app, tel_aviv.id).await.contains(&id));
    assert!(offered(&app, jerusalem.id).await.contains(&id));
    let off = with(product(&[3], 2200), json!({ "onSale": false }));
    assert_eq!(staff_call(&app, &m, "PUT", &format!("/api/staff/products/{id}"), Some(off), None).await.status, StatusCode::OK);
    assert!(!offered(&app, jerusalem.id).await.contains(&id));
    // Still the manager's, listed as off.
    let list = get(&app, &m, "/api/staff/products").await;
    let mine = list.body["products"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    assert_eq!(mine["onSale"], false);
    // The audit files it under the one business and complex it is sold at.
    let audit = get(&app, &m, "/api/staff/audit?kind=productChanged").await;
    let last = &audit.body["changes"][0];
    assert_eq!((last["businessId"].as_i64(), last["locationId"].as_i64()), (Some(1), Some(3)), "{}", audit.text);
    assert_eq!((last["before"]["onSale"].as_bool(), last["after"]["onSale"].as_bool()), (Some(true), Some(false)));
    let moved_row = &audit.body["changes"][1];
    assert_eq!((moved_row["before"]["locationIds"].clone(), moved_row["after"]["locationIds"].clone()), (json!([2]), json!([3])));
    // Spanning two complexes of one business: filed under the business only.
    assert_eq!(moved_row["businessId"], 1);
    assert_eq!(moved_row["locationId"], Value::Null);
}

async fn a_new_price_leaves_an_order_already_priced_alone(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let p = on_sale_at(&app, 2).await;
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[2], 1500)), None).await;
    let id = r.body["product"]["id"].as_i64().unwrap();
    let who = buyer(5);
    let big_hall = app.presentations().await.into_iter().find(|x| x.venue_id == 1 && x.is_on_sale).unwrap();
    assert_eq!(big_hall.location_id, p.location_id);
    let k = priced_cart_with(&app, &who, serde_json::to_value(&big_hall).unwrap(), 0,
        json!({ "products": [{ "id": id, "quantity": 2 }] })).await;
    let priced_total = k.total;
    // The price goes up while the order waits to be paid.
    let dearer = product(&[2], 2500);
    assert_eq!(staff_call(&app, &m, "PUT", &format!("/api/staff/products/{id}"), Some(dearer), None).await.status, StatusCode::OK);
    let paid = pay_by_card(&app, &who, k).await;
    let order = app.reservation(&who, &paid.reservation).await.ok();
    let bought: Vec<(i64, i64)> = order.reservation.products.iter().map(|p| (p.quantity, p.amount)).collect();
    assert_eq!(bought, [(2, 3000)]);
    assert_eq!(rows(db, "SELECT CAST(unit_price AS TEXT) FROM order_products").await, ["1500"]);
    assert_eq!(rows(db, "SELECT CAST(total AS TEXT) FROM orders WHERE status = 'paid'").await, [priced_total.to_string()]);
    assert_eq!(rows(db, "SELECT CAST(amount AS TEXT) FROM payments WHERE status = 'captured'").await, [priced_total.to_string()]);
    // The next cart is priced at the new price.
    let next = priced_cart_with(&app, &buyer(6), serde_json::to_value(&big_hall).unwrap(), 1,
        json!({ "products": [{ "id": id, "quantity": 2 }] })).await;
    assert_eq!(next.total - priced_total, 2 * (2500 - 1500));
}

async fn only_managers_change_films_and_products_of_their_businesses(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let haifa = manager(&app, "h@chain.example", &[2]).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    // Another role: 403 for every call; no login: 401.
    for (method, uri) in [("GET", "/api/staff/films"), ("GET", "/api/staff/products")] {
        assert_eq!(staff_call(&app, &usher, method, uri, None, None).await.status, StatusCode::FORBIDDEN);
        assert_eq!(app.get(uri).await.status, StatusCode::UNAUTHORIZED);
    }
    let r = staff_call(&app, &usher, "POST", "/api/staff/films", Some(film("No")), None).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // Film 2 is shown by business 1 only, film 17 by business 2 only, film 10 by both.
    let put = |id: i64| format!("/api/staff/films/{id}");
    let r = staff_call(&app, &haifa, "PUT", &put(2), Some(film("Taken")), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{}", r.text);
    assert_eq!(upload(&app, &haifa, 2, "image/png", picture(600, 900, image::ImageFormat::Png)).await.status, StatusCode::FORBIDDEN);
    assert_eq!(staff_call(&app, &m, "PUT", &put(17), Some(film("Taken")), None).await.status, StatusCode::FORBIDDEN);
    let films = get(&app, &m, "/api/staff/films").await;
    let editable = |id: i64| films.body["films"].as_array().unwrap().iter().find(|f| f["id"] == id).unwrap()["editable"].clone();
    assert_eq!((editable(2), editable(17), editable(10)), (json!(true), json!(false), json!(true)));
    let ten = with(film("Shared"), json!({ "runtime": 90 }));
    assert_eq!(staff_call(&app, &haifa, "PUT", &put(10), Some(ten), None).await.status, StatusCode::OK);
    // A new film, shown by no one, is any manager's.
    let r = staff_call(&app, &m, "POST", "/api/staff/films", Some(film("Fresh")), None).await;
    let fresh = r.body["film"]["id"].as_i64().unwrap();
    assert_eq!(staff_call(&app, &haifa, "PUT", &put(fresh), Some(film("Fresher")), None).await.status, StatusCode::OK);
    // Products: Haifa's manager does not see Tel Aviv's, may not tick Tel Aviv, nor sell everywhere.
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[2], 900)), None).await;
    let tel_aviv = r.body["product"]["id"].as_i64().unwrap();
    let r = staff_call(&app, &haifa, "PUT", &format!("/api/staff/products/{tel_aviv}"), Some(product(&[4], 900)), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    let listed = get(&app, &haifa, "/api/staff/products").await;
    assert!(listed.body["products"].as_array().unwrap().iter().all(|p| p["id"] != tel_aviv));
    let r = staff_call(&app, &haifa, "POST", "/api/staff/products", Some(product(&[2], 900)), None).await;
    assert_eq!(r.body["error"]["params"]["fields"]["locationIds"], "location", "{}", r.text);
    let everywhere = with(product(&[], 900), json!({ "everywhere": true }));
    let r = staff_call(&app, &haifa, "POST", "/api/staff/products", Some(everywhere), None).await;
    assert_eq!(r.body["error"]["params"]["fields"]["everywhere"], "location", "{}", r.text);
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(with(product(&[2], -1), json!({ "color": "blue" }))), None).await;
    assert_eq!(r.body["error"]["params"]["fields"], json!({ "price": "min", "color": "colour" }), "{}", r.text);
    // A product sold everywhere (the demo's popcorn): Haifa's manager changes its price and
    // takes it out of Haifa; the other complexes keep selling it.
    let popcorn = with(product(&[], 1900), json!({ "name": "פופקורן קטן", "nameEn": "Small popcorn" }));
    let r = staff_call(&app, &haifa, "PUT", "/api/staff/products/1", Some(popcorn), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(r.body["product"]["everywhere"], false);
    assert_eq!(r.body["product"]["locationIds"], json!([2, 3]));
    assert!(offered(&app, on_sale_at(&app, 2).await.id).await.contains(&1));
    assert!(!offered(&app, on_sale_at(&app, 4).await.id).await.contains(&1));
    // Refused calls wrote nothing: the audit holds the allowed ones only.
    let kinds = rows(db, "SELECT kind FROM backoffice_audit ORDER BY id").await;
    assert_eq!(kinds, ["filmChanged", "filmAdded", "filmChanged", "productAdded", "productChanged"]);
}

async fn a_longer_runtime_that_would_overlap_the_next_screening_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // A new film screened in hall 1 at 08:00 a week ahead; the demo's next one there is at 10:30.
    let r = staff_call(&app, &m, "POST", "/api/staff/films", Some(film("Short")), None).await;
    let id = r.body["film"]["id"].as_i64().unwrap();
    let day = app.today.checked_add(jiff::ToSpan::days(7)).unwrap().to_string();
    let r = staff_call(&app, &m, "POST", "/api/staff/programme/screenings",
        Some(json!({ "featureId": id, "venueId": 1, "date": day, "time": "08:00" })), None).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    // 95 minutes and the 15-minute gap end at 09:50; 140 minutes would end at 10:35.
    let r = staff_call(&app, &m, "PUT", &format!("/api/staff/films/{id}"), Some(with(film("Long"), json!({ "runtime": 140 }))), None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "screeningOverlap"), "{}", r.text);
    assert_eq!(r.body["error"]["params"]["fields"]["runtime"], "overlap");
    assert_eq!(rows(db, "SELECT CAST(runtime AS TEXT) FROM features WHERE name_en = 'Short'").await, ["95"]);
    let r = staff_call(&app, &m, "PUT", &format!("/api/staff/films/{id}"), Some(with(film("Long"), json!({ "runtime": 125 }))), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
}

async fn a_change_on_one_node_is_served_by_another_within_a_second(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let p = on_sale_at(&app, 3).await;
    let other = app.another_node(db, test_settings()).await;
    // The other node has the presentation and its products in its catalogue cache.
    let before = offered(&other, p.id).await;
    let name_before = other.get(&format!("/api/presentations/{}", p.id)).await.body["presentation"]["featureNameEn"].clone();
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[3], 1200)), None).await;
    let id = r.body["product"]["id"].as_i64().unwrap();
    let renamed = with(film("Renamed on one node"), json!({ "categoryId": 1 }));
    let r = staff_call(&app, &m, "PUT", &format!("/api/staff/films/{}", p.feature_id), Some(renamed), None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    // This node at once.
    assert!(offered(&app, p.id).await.contains(&id));
    assert!(!before.contains(&id));
    assert_ne!(name_before, "Renamed on one node");
    // The other within a second (catalogue_version).
    tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
    assert!(offered(&other, p.id).await.contains(&id));
    let shown = other.get(&format!("/api/presentations/{}", p.id)).await;
    assert_eq!(shown.body["presentation"]["featureNameEn"], "Renamed on one node");
}


async fn a_products_uploaded_picture_is_served_square_in_two_sizes_until_it_is_taken_away(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let tel_aviv = on_sale_at(&app, 2).await;
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[2], 2200)), None).await;
    let id = r.body["product"]["id"].as_i64().unwrap();
    assert_eq!(r.body["product"]["imageVersion"], Value::Null);
    let plain = format!("/api/products/{id}/image");
    assert_eq!(r.body["product"]["img"], plain);
    let generated = app.get(&plain).await;
    assert!(generated.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"));
    // A wide PNG: its middle square, made 240 and 480 px.
    let r = upload_product_image(&app, &m, id, "image/png", picture(600, 400, image::ImageFormat::Png)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let v = r.body["product"]["imageVersion"].as_str().unwrap().to_owned();
    let small = format!("/api/products/{id}/image?w=240&v={v}");
    assert_eq!(r.body["product"]["img"], small);
    for width in [240_u32, 480] {
        let got = app.get(&format!("/api/products/{id}/image?w={width}&v={v}")).await;
        assert_eq!(got.status, StatusCode::OK, "{}", got.text);
        assert_eq!(got.headers["content-type"], "image/jpeg");
        assert_eq!(got.headers["cache-control"], "public, max-age=31536000, immutable");
        let back = image::load_from_memory_with_format(&got.bytes, image::ImageFormat::Jpeg).unwrap();
        assert_eq!((back.width(), back.height()), (width, width));
        // Asked again with its ETag: not sent again.
        let etag = got.headers["etag"].to_str().unwrap().to_owned();
        let again = app
            .send(Request::get(format!("/api/products/{id}/image?w={width}")).header("if-none-match", &etag).body(Body::empty()).unwrap())
            .await;
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert!(again.bytes.is_empty());
    }
    // Its plain address serves it too (240 px), but a cache asks again: a later upload changes it.
    let got = app.get(&plain).await;
    assert_eq!((got.headers["content-type"].to_str().unwrap(), got.headers["cache-control"].to_str().unwrap()), ("image/jpeg", "public, no-cache"));
    assert_eq!(image::load_from_memory(&got.bytes).unwrap().width(), 240);
    assert_eq!(app.get(&format!("/api/products/{id}/image?w=300")).await.status, StatusCode::NOT_FOUND);
    // The storefront's products step offers it with both sizes.
    let shown = app.get(&format!("/api/presentations/{}", tel_aviv.id)).await;
    let offer = shown.body["presentation"]["products"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    assert_eq!(offer["img"], small);
    assert_eq!(offer["imgSrcset"], format!("{small} 240w, /api/products/{id}/image?w=480&v={v} 480w"));
    // Another product keeps its generated picture.
    let popcorn = app.get("/api/products/1/image").await;
    assert!(popcorn.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"));
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM product_images").await, "2");
    // Taken away: the generated picture again, nothing kept.
    let r = staff_call(&app, &m, "DELETE", &format!("/api/staff/products/{id}/image"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!((r.body["product"]["imageVersion"].clone(), r.body["product"]["img"].clone()), (Value::Null, json!(plain)));
    let got = app.get(&format!("/api/products/{id}/image?w=240&v={v}")).await;
    assert!(got.headers["content-type"].to_str().unwrap().starts_with("image/svg+xml"), "{}", got.text);
    let shown = app.get(&format!("/api/presentations/{}", tel_aviv.id)).await;
    let offer = shown.body["presentation"]["products"].as_array().unwrap().iter().find(|p| p["id"] == id).unwrap().clone();
    assert_eq!((offer["img"].clone(), offer["imgSrcset"].clone()), (json!(plain), Value::Null));
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM product_images").await, "0");
    // The audit: who, when, whether a picture was there before and after, never its bytes;
    // filed under the one business and complex that sell it.
    let audit = get(&app, &m, "/api/staff/audit?kind=productImage").await;
    let changes = audit.body["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{}", audit.text);
    let (removed, uploaded) = (&changes[0], &changes[1]);
    assert_eq!((uploaded["before"]["uploaded"].as_bool(), uploaded["after"]["uploaded"].as_bool()), (Some(false), Some(true)));
    assert_eq!(uploaded["after"]["imageVersion"], v.as_str());
    assert_eq!(uploaded["after"]["imageSize"], "600×400");
    assert_eq!((removed["before"]["uploaded"].as_bool(), removed["after"]["uploaded"].as_bool()), (Some(true), Some(false)));
    for row in changes {
        assert_eq!((row["businessId"].as_i64(), row["locationId"].as_i64()), (Some(1), Some(2)), "{}", audit.text);
        assert!(row["by"].as_str().is_some_and(|b| !b.is_empty()) && row["at"].is_string(), "{}", audit.text);
        assert_eq!(row["staffUserId"], changes[0]["staffUserId"]);
    }
    assert!(audit.text.len() < 4000, "no image in the audit");
    // Taking away what is not there writes nothing more.
    let r = staff_call(&app, &m, "DELETE", &format!("/api/staff/products/{id}/image"), None, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM backoffice_audit WHERE kind = 'productImage'").await, "2");
}

async fn a_bad_product_picture_is_refused_by_name_and_changes_nothing(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let svg = b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"600\" height=\"600\"/>".to_vec();
    let cases: [(&str, Vec<u8>, &str); 5] = [
        ("text/plain", b"not a picture".to_vec(), "imageType"),
        ("image/gif", b"GIF89a".to_vec(), "imageType"),
        ("image/png", svg, "image"),
        ("image/jpeg", picture(300, 300, image::ImageFormat::Png), "image"),
        // 239 px high: its middle square is too small for the 240 px card.
        ("image/png", picture(600, 239, image::ImageFormat::Png), "imageSize"),
    ];
    for (content_type, bytes, rule) in cases {
        let r = upload_product_image(&app, &m, 1, content_type, bytes).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{content_type}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["fields"]["image"], rule, "{}", r.text);
    }
    // Over 5 MB: refused before it is read.
    let r = upload_product_image(&app, &m, 1, "image/png", vec![0_u8; 5 * 1024 * 1024 + 1]).await;
    assert_eq!((r.status, code(&r)), (StatusCode::PAYLOAD_TOO_LARGE, "payloadTooLarge"), "{}", r.text);
    // Exactly 240 px is taken.
    let r = upload_product_image(&app, &m, 1, "image/png", picture(240, 240, image::ImageFormat::Png)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM product_images").await, "2");
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM backoffice_audit").await, "1");
}

async fn only_a_manager_of_a_complex_that_sells_a_product_changes_its_picture(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let haifa = manager(&app, "h@chain.example", &[2]).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    let r = staff_call(&app, &m, "POST", "/api/staff/products", Some(product(&[2], 900)), None).await;
    let tel_aviv = r.body["product"]["id"].as_i64().unwrap();
    let png = || picture(300, 300, image::ImageFormat::Png);
    let uri = format!("/api/staff/products/{tel_aviv}/image");
    // Another business's product: 404, as changing it is.
    let r = upload_product_image(&app, &haifa, tel_aviv, "image/png", png()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    let r = staff_call(&app, &haifa, "DELETE", &uri, None, None).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{}", r.text);
    // Another role: 403; no login: 401.
    let r = upload_product_image(&app, &usher, tel_aviv, "image/png", png()).await;
    assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{}", r.text);
    assert_eq!(staff_call(&app, &usher, "DELETE", &uri, None, None).await.status, StatusCode::FORBIDDEN);
    let anonymous = app
        .send(Request::put(&uri).header("content-type", "image/png").body(Body::from(png())).unwrap())
        .await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    assert_eq!(count(db, "SELECT CAST(COUNT(*) AS TEXT) FROM product_images").await, "0");
    // A product sold everywhere (the demo's popcorn) is every manager's: filed as the chain's.
    let r = upload_product_image(&app, &haifa, 1, "image/png", png()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let audit = get(&app, &m, "/api/staff/audit?kind=productImage").await;
    let row = &audit.body["changes"][0];
    assert_eq!((row["businessId"].clone(), row["locationId"].clone()), (Value::Null, Value::Null), "{}", audit.text);
    assert_eq!(rows(db, "SELECT kind FROM backoffice_audit ORDER BY id").await, ["productAdded", "productImage"]);
}

}
