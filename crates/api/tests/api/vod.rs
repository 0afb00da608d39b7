//! Video on demand (issue 19 item 2, decision 0053): the demo film rented or bought through the
//! normal order (a general-admission place, a ticket, a payment), then watched: a play session
//! spends one playback exactly once however many open at the same time, the film comes in byte
//! ranges behind the session's signed link, an expired or forged link is refused, and so is a
//! purchase outside its window or asked for by anyone but its buyer. On SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL.

use crate::common::paying::*;
use crate::common::*;
use axum::body::Body;
use axum::http::{Request, StatusCode};
use kupa_app::ports::CAPTCHA_TEST_TOKEN;
use kupa_providers::test_gateway::cards;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

/// The demo film "The Test Signal": presentation 4 rents it (venue type 101), 5 buys it (102).
const RENT: i64 = 4;
const BUY: i64 = 5;
/// Dana Levi, customer 1 of the demo chain.
const DANA: &str = "0524318876";
const HOUR_MS: i64 = 3_600_000;

/// `who` buys the demo film's presentation the way the web app does: one general-admission
/// place, its one ticket, the card, the commit. The reservation identifier.
async fn buy_film(app: &TestApp, who: &str, presentation: i64) -> String {
    let r = app.get(&format!("/api/presentations/{presentation}")).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let p = &r.body["presentation"];
    assert_eq!(p["isVod"], true);
    assert_eq!(p["isOnSale"], true, "{p}");
    // The demo's home-viewing sections: 1011 (venue 101) and 1021 (venue 102).
    let section = p["venueId"].as_i64().unwrap() * 10 + 1;
    let groups = app.ticket_groups(presentation, None).await.ok();
    let group = &groups.ticket_groups[0];
    let ticket = group
        .tickets
        .iter()
        .find(|t| !t.name_en.contains("member"))
        .expect("the film's ticket");
    let lock = json!({ "recaptchaToken": CAPTCHA_TEST_TOKEN, "seat": {
        "PresentationId": presentation, "VenueId": p["venueId"], "VenueSeatplanId": p["seatplanId"],
        "VenueSectionId": section, "TicketGroupId": group.id, "XCoordinate": 0, "YCoordinate": 0 } });
    let held = app.lock_with(who, &lock).await.ok().locked_seat;
    let cart = json!({
        "cart": {
            "presentations": [{ "presentationId": presentation, "seats": [{
                "XCoordinate": held.x, "YCoordinate": held.y, "VenueSectionId": section,
                "ticket": { "ticketId": ticket.id, "amount": ticket.price } }] }],
            "customerInfo": { "firstName": "דנה", "lastName": "לוי", "email": "dana@example.com",
                              "verifyEmailAddress": "dana@example.com", "mobileNumber": "+972524318876",
                              "acceptedTerms": [1, 2, 3] },
        },
        "step": "customerInfo",
        "locale": "he",
    });
    let total = app.post_cart(who, &cart).await.ok().cart.total;
    let payment = app
        .payment_form(
            who,
            "he",
            presentation,
            total,
            "method=card&numberOfPayments=1&saveCard=false",
        )
        .await
        .ok()
        .payment_identifier;
    let r = pay_card(app, who, &payment, cards::APPROVED_VISA).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text);
    app.commit(who, presentation)
        .await
        .ok()
        .reservation_identifier
}

async fn open(app: &TestApp, who: &str, id: &str) -> Reply {
    app.call_as(who, "POST", &format!("/api/vod/{id}/play"), None)
        .await
}

/// GET of the stream link as `who`, with a `Range` header when given.
async fn fetch(app: &TestApp, who: &str, url: &str, range: Option<&str>) -> Reply {
    let (session, login) = who_parts(who);
    let mut req = Request::get(url).header("uuid", session);
    if let Some(login) = login {
        req = req.header("cookie", format!("kupa_login={login}"));
    }
    if let Some(range) = range {
        req = req.header("range", range);
    }
    app.send(req.body(Body::empty()).unwrap()).await
}

fn header<'a>(r: &'a Reply, name: &str) -> &'a str {
    r.headers.get(name).map_or("", |v| v.to_str().unwrap())
}

fn url(r: &Reply) -> String {
    r.body["streamUrl"]
        .as_str()
        .unwrap_or_else(|| panic!("no streamUrl: {}", r.text))
        .to_owned()
}

api_tests! {

async fn a_rented_film_streams_in_byte_ranges_behind_its_play_link(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let id = buy_film(&app, &who, RENT).await;
    let film = kupa_api::vod::DEMO_FILM;
    let size = film.len();

    let item = app.call_as(&who, "GET", &format!("/api/vod/{id}"), None).await;
    assert_eq!(item.status, StatusCode::OK, "{}", item.text);
    example(&app, "vodItem", "VodItem", &item);
    assert_eq!((item.body["offer"].as_str(), item.body["status"].as_str()), (Some("rent"), Some("available")));
    assert_eq!((item.body["playbackCount"].as_i64(), item.body["playbackBalance"].as_i64()), (Some(0), Some(3)));
    assert_eq!(item.body["lastPlayback"], Value::Null);
    // A rental lasts 48 hours from its purchase.
    let ms = |k: &str| item.body[k].as_str().unwrap().parse::<jiff::Timestamp>().unwrap().as_millisecond();
    assert_eq!(ms("availabilityEnd") - ms("purchaseDate"), 48 * HOUR_MS);

    let r = open(&app, &who, &id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    example(&app, "openPlaySession", "PlaySessionResponse", &r);
    assert_eq!((r.body["item"]["playbackCount"].as_i64(), r.body["item"]["playbackBalance"].as_i64()), (Some(1), Some(2)));
    let link = url(&r);

    let whole = fetch(&app, &who, &link, None).await;
    assert_eq!(whole.status, StatusCode::OK, "{}", whole.text);
    assert_eq!(whole.bytes, film);
    assert_eq!((header(&whole, "content-type"), header(&whole, "accept-ranges")), ("video/webm", "bytes"));
    let asking_gzip = Request::get(&link).header("uuid", who.as_str()).header("accept-encoding", "gzip");
    let r = app.send(asking_gzip.body(Body::empty()).unwrap()).await;
    assert_eq!((header(&r, "content-encoding"), r.bytes.as_slice()), ("", film), "the film is never gzipped");

    let part = fetch(&app, &who, &link, Some("bytes=100-1123")).await;
    assert_eq!(part.status, StatusCode::PARTIAL_CONTENT);
    assert_eq!(header(&part, "content-range"), format!("bytes 100-1123/{size}"));
    assert_eq!(header(&part, "content-length"), "1024");
    assert_eq!(part.bytes, &film[100..1124]);
    let open_ended = fetch(&app, &who, &link, Some("bytes=5000-")).await;
    assert_eq!((open_ended.status, open_ended.bytes.as_slice()), (StatusCode::PARTIAL_CONTENT, &film[5000..]));
    let tail = fetch(&app, &who, &link, Some("bytes=-10")).await;
    assert_eq!(tail.bytes, &film[size - 10..]);

    for bad in [format!("bytes={size}-"), "bytes=9-3".into(), "bytes=0-1,4-5".into(), "pages=1-2".into()] {
        let r = fetch(&app, &who, &link, Some(&bad)).await;
        assert_eq!(r.status, StatusCode::RANGE_NOT_SATISFIABLE, "{bad}");
        assert_eq!(header(&r, "content-range"), format!("bytes */{size}"), "{bad}");
        assert_eq!(code(&r), "formValidation");
    }

    // However many ranges were read, the session spent one playback.
    let item = app.call_as(&who, "GET", &format!("/api/vod/{id}"), None).await;
    assert_eq!((item.body["playbackCount"].as_i64(), item.body["playbackBalance"].as_i64()), (Some(1), Some(2)));
    assert!(item.body["lastPlayback"].is_string());
}

async fn an_expired_or_forged_play_link_is_refused(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let id = buy_film(&app, &who, BUY).await;
    let link = url(&open(&app, &who, &id).await);
    assert_eq!(fetch(&app, &who, &link, Some("bytes=0-9")).await.status, StatusCode::PARTIAL_CONTENT);

    // Another play session's number, another purchase, a changed expiry or signature: forged.
    let forged = [
        link.replace("play=1", "play=2"),
        link.replace("sig=", "sig=00"),
        link.replacen("exp=", "exp=1", 1),
    ];
    for f in &forged {
        let r = fetch(&app, &who, f, Some("bytes=0-9")).await;
        assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_ERROR"), "{f}");
    }
    // A reservation's mailed link proof does not open the film either.
    let reservation = app.call_as(&who, "GET", &format!("/api/reservations/{id}"), None).await;
    let mailed = reservation.body["reservation"]["pdfUrl"].as_str().unwrap().to_owned();
    let (_, proof) = mailed.split_once('?').unwrap();
    let r = fetch(&app, &who, &format!("/api/vod/{id}/stream?play=1&{proof}"), None).await;
    assert_eq!(r.status, StatusCode::GONE, "{}", r.text);

    // The session's link lasts six hours.
    app.advance_clock_ms(6 * HOUR_MS + 1000).await;
    let r = fetch(&app, &who, &link, Some("bytes=0-9")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"), "{}", r.text);
    assert!(r.body["error"]["params"]["expiredAt"].is_string());
    // A new session (one more playback) opens it again.
    let link = url(&open(&app, &who, &id).await);
    assert_eq!(fetch(&app, &who, &link, Some("bytes=0-9")).await.status, StatusCode::PARTIAL_CONTENT);
}

async fn concurrent_play_sessions_spend_the_balance_exactly_once_each(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let id = buy_film(&app, &who, RENT).await;
    // A rental holds three sessions: six open at once, three succeed.
    let opens = futures_util::future::join_all((0..6).map(|_| open(&app, &who, &id))).await;
    let ok: Vec<&Reply> = opens.iter().filter(|r| r.status == StatusCode::OK).collect();
    let refused: Vec<&Reply> = opens.iter().filter(|r| r.status != StatusCode::OK).collect();
    assert_eq!(ok.len(), 3, "{:?}", opens.iter().map(|r| &r.text).collect::<Vec<_>>());
    for r in &refused {
        assert_eq!((r.status, code(r)), (StatusCode::CONFLICT, "ticket_balance_error"), "{}", r.text);
    }
    let mut counts: Vec<i64> = ok.iter().map(|r| r.body["item"]["playbackCount"].as_i64().unwrap()).collect();
    counts.sort();
    assert_eq!(counts, [1, 2, 3], "each session got its own number");
    let item = app.call_as(&who, "GET", &format!("/api/vod/{id}"), None).await;
    assert_eq!((item.body["playbackCount"].as_i64(), item.body["playbackBalance"].as_i64()), (Some(3), Some(0)));
    let r = open(&app, &who, &id).await;
    assert_eq!(code(&r), "ticket_balance_error");
}

async fn a_rental_is_watched_only_inside_its_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(1);
    let id = buy_film(&app, &who, RENT).await;
    let link = url(&open(&app, &who, &id).await);
    app.advance_clock_ms(47 * HOUR_MS).await;
    let late = url(&open(&app, &who, &id).await);
    // Past the rental's 48 hours: no new session, and the session opened late stops too,
    // though its own six hours have not run out.
    app.advance_clock_ms(HOUR_MS + 1000).await;
    let r = open(&app, &who, &id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::CONFLICT, "ticketing_ended"), "{}", r.text);
    let r = fetch(&app, &who, &late, Some("bytes=0-9")).await;
    // Its link ended with the window.
    assert_eq!((r.status, code(&r)), (StatusCode::GONE, "CUSTOMER_TOKEN_EXPIRED"), "{}", r.text);
    let r = fetch(&app, &who, &link, None).await;
    assert_eq!(r.status, StatusCode::GONE);
    let item = app.call_as(&who, "GET", &format!("/api/vod/{id}"), None).await;
    assert_eq!(item.body["status"], "expired");
    assert_eq!(item.body["playbackCount"], 2, "refused opens spend nothing");
}

async fn only_the_buyer_or_the_owning_customer_may_watch(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let dana = log_in(&app, &buyer(1), DANA).await;
    let id = buy_film(&app, &dana, BUY).await;
    let link = url(&open(&app, &dana, &id).await);

    // Another buyer, even with the link: no such purchase.
    let stranger = buyer(2);
    let r = open(&app, &stranger, &id).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
    let r = app.call_as(&stranger, "GET", &format!("/api/vod/{id}"), None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = fetch(&app, &stranger, &link, Some("bytes=0-9")).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));

    // Dana on another device, logged in: hers to watch, and listed in her area.
    let dana2 = log_in(&app, &buyer(3), DANA).await;
    let r = open(&app, &dana2, &id).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    assert_eq!(fetch(&app, &dana2, &url(&r), Some("bytes=0-9")).await.status, StatusCode::PARTIAL_CONTENT);
    let area = app.call_as(&dana2, "GET", "/api/customer-area/customerAreaData", None).await;
    let vod = &area.body["customer"]["VODTickets"];
    assert_eq!(vod.as_array().map(Vec::len), Some(1), "{vod}");
    assert_eq!(vod[0]["ReservationIdentifier"], id.as_str());
    assert_eq!((vod[0]["offer"].as_str(), vod[0]["status"].as_str()), (Some("buy"), Some("available")));
    assert_eq!((vod[0]["playbackCount"].as_i64(), vod[0]["playbackBalance"].as_i64()), (Some(2), Some(18)));

    // A screening's reservation is no film.
    let screening = {
        let k = priced_cart_at(&app, &dana2, 0, None, "he").await;
        let payment = start_payment_with(&app, &dana2, &k, "card", "he", 1, false).await;
        pay_card(&app, &dana2, &payment, cards::APPROVED_VISA).await;
        app.commit(&dana2, k.presentation["id"].as_i64().unwrap()).await.ok().reservation_identifier
    };
    let r = open(&app, &dana2, &screening).await;
    assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"));
}

async fn choosing_a_rental_or_purchase_clears_the_cart_of_other_presentations(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let body = json!({ "cart": { "presentations": [
        { "presentationId": RENT, "seats": [] }, { "presentationId": BUY, "seats": [] }] } });
    let r = app.call_as(&buyer(1), "POST", "/api/cart", Some(&body.to_string())).await;
    assert_eq!(code(&r), "onePresentationPerOrder", "{}", r.text);
}


async fn a_film_at_home_is_confirmed_as_one_without_seats_doors_or_printed_tickets(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let who = buyer(7);
    let id = buy_film(&app, &who, RENT).await;

    // The confirmation page: its window and viewings, and the terms of a film at home.
    let res = app.reservation(&who, &id).await.ok().reservation;
    let vod = res.vod.as_ref().expect("a film at home tells its window");
    assert_eq!((vod.offer.as_str(), vod.playback_balance), ("rent", 3));
    assert!(vod.availability_end.is_some());
    assert!(res.order_terms_en.starts_with("Rental: watch for 48 hours"), "{}", res.order_terms_en);
    assert!(!res.order_terms.contains("15 דקות") && res.order_terms.contains("48"), "{}", res.order_terms);

    // The mail: the film is ready; no seat, doors, QR or PDF.
    let outbox = app.get("/api/test/outbox/mail?to=dana@example.com").await;
    let mail = &outbox.body["messages"][0];
    assert_eq!(mail["reference"].as_str(), Some(id.as_str()), "{}", outbox.text);
    let (subject, text, html) = (mail["subject"].as_str().unwrap(), mail["text"].as_str().unwrap(), mail["html"].as_str().unwrap());
    assert!(subject.starts_with("הסרט") && subject.contains("מחכה לך"), "{subject}");
    assert_eq!(mail["attachments"].as_array().map(Vec::len), Some(0), "no tickets to print: {}", mail["attachments"]);
    for body in [text, html] {
        assert!(body.contains("צפייה עד") && body.contains("השכרה") && body.contains("אנדרואיד"), "{body}");
        for word in ["כניסה לאולם", "מושב", "PDF", "/edocument/", "QR", "15 דקות"] {
            assert!(!body.contains(word), "{word} in a film's mail: {body}");
        }
    }

    // The text message links the order, where it plays; no ticket for a door.
    let body = json!({ "mobileNumber": DANA }).to_string();
    let r = app.call_as(&who, "POST", &format!("/api/reservations/{id}/sendTickets"), Some(&body)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    let sms = app.get(&format!("/api/test/outbox/sms?to={DANA}&limit=1")).await;
    let text = sms.body["messages"][0]["body"].as_str().unwrap_or_default();
    assert!(text.contains("מחכה לך") && text.contains(&format!("/reservation/{id}?")), "{text}");
    assert!(!text.contains("/edocument/"), "{text}");
}


async fn a_film_at_home_is_offered_on_every_day_of_its_window(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let on = |days: i64| {
        let app = &app;
        async move {
            let date = app.today.checked_add(jiff::Span::new().days(days)).unwrap();
            let r = app.get(&format!("/api/seats/presentations?date={date}")).await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text);
            let ids: Vec<i64> = r.body["presentations"].as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect();
            ids
        }
    };
    // The demo: presentation 3 is watched from two days ago for a week, 4 (rent) for 60 days
    // from today, 5 (buy) for ten years. Each is offered on every day it can be watched.
    let today = on(0).await;
    assert!([3, RENT, BUY].iter().all(|id| today.contains(id)), "{today:?}");
    let tomorrow = on(1).await;
    assert!([3, RENT, BUY].iter().all(|id| tomorrow.contains(id)), "{tomorrow:?}");
    let in_a_week = on(7).await;
    assert!(in_a_week.contains(&RENT) && in_a_week.contains(&BUY) && !in_a_week.contains(&3), "{in_a_week:?}");
    let after_the_rental = on(61).await;
    assert!(after_the_rental.contains(&BUY) && !after_the_rental.contains(&RENT), "{after_the_rental:?}");
    // Listed once on its first day.
    assert_eq!(today.iter().filter(|&&id| id == RENT).count(), 1);
}

}
