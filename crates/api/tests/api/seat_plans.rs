//! The seat-plan editor over HTTP (issue 18 item 4, decision 0068), on SQLite and (when
//! KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a new version saved and read back whole (and every
//! demo hall's plan opened and saved again as it is), a plan that breaks a rule refused with its
//! field and nothing written, screenings that keep the plan they were made with while a new one
//! sells on the newest (a seat on it locked and paid the real way), two saves at once, the audit
//! row, and the scoping by role and business.

use crate::common::paying::*;
use crate::common::staff::*;
use crate::common::*;
use axum::http::StatusCode;
use jiff::ToSpan;
use kupa_app::staff::Role;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

async fn manager(app: &TestApp, email: &str, businesses: &[i64]) -> String {
    add(app, email, Role::Manager, businesses, false).await;
    staff_login(app, email).await
}

async fn call(app: &TestApp, cookie: &str, method: &str, uri: &str, body: Option<Value>) -> Reply {
    staff_call(app, cookie, method, uri, body, None).await
}

async fn count(db: &TestDb, sql: &str) -> i64 {
    let sql = format!("SELECT CAST(({sql}) AS TEXT)");
    rows(db, Box::leak(sql.into_boxed_str())).await[0]
        .parse()
        .unwrap()
}

/// A row of `n` seats numbered 1.. from the left, on line `y`, from x = 2.
fn row(name: &str, y: i64, n: i64) -> Value {
    let seats: Vec<Value> = (0..n)
        .map(|i| json!({ "x": 2 + i, "y": y, "name": (i + 1).to_string() }))
        .collect();
    json!({ "name": name, "line": y, "seats": seats })
}

/// A small hall as a manager draws it: three rows of eight seats selling the regular tickets
/// (group 1), the last row's first two seats a sofa, a wheelchair place with its companion.
fn small_hall() -> Value {
    let mut back = row("3", 6, 8);
    back["seats"][0]["sofa"] = json!(1);
    back["seats"][1]["sofa"] = json!(1);
    let mut middle = row("2", 4, 8);
    middle["seats"][7]["wheelchair"] = json!(true);
    middle["seats"][6]["companion"] = json!(true);
    json!({
        "name": "Small hall",
        "width": 12,
        "height": 8,
        "screen": { "label": "מסך", "labelEn": "Screen", "x": 2, "width": 8 },
        "sections": [{
            "name": "אולם", "nameEn": "Stalls", "kind": "reserved", "ticketGroupId": 1, "priceLevel": 1,
            "rows": [row("1", 2, 8), middle, back],
        }],
    })
}

async fn save(app: &TestApp, m: &str, venue: i64, based_on: Option<i64>, plan: Value) -> Reply {
    let body = json!({ "venueId": venue, "basedOn": based_on, "plan": plan });
    call(app, m, "POST", "/api/staff/seatPlans", Some(body)).await
}

async fn versions(app: &TestApp, m: &str, venue: i64) -> Value {
    let r = call(
        app,
        m,
        "GET",
        &format!("/api/staff/seatPlans?venueId={venue}"),
        None,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text);
    r.body
}

fn day(app: &TestApp, n: i64) -> String {
    app.today.checked_add(n.days()).unwrap().to_string()
}

api_tests! {

async fn a_manager_saves_a_new_version_and_reads_it_back_whole(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // The demo's big hall has one plan, from the catalogue: the newest, sold on.
    let before = versions(&app, &m, 1).await;
    let list = before["versions"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!((list[0]["id"].as_i64(), list[0]["version"].as_i64()), (Some(1), Some(1)));
    assert!(list[0]["newest"].as_bool().unwrap() && list[0]["savedAt"].is_null());
    assert!(list[0]["screenings"].as_i64().unwrap() > 0);
    assert!(before["ticketGroups"].as_array().unwrap().iter().any(|g| g["id"] == 1));
    let bumps = count(db, "SELECT version FROM catalogue_version").await;

    let r = save(&app, &m, 1, Some(1), small_hall()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    example(&app, "saveSeatPlan", "SeatPlanResponse", &r);
    let v = &r.body["version"];
    let id = v["id"].as_i64().unwrap();
    assert_eq!((v["version"].as_i64(), v["basedOn"].as_i64()), (Some(2), Some(1)));
    assert_eq!((v["seats"].as_i64(), v["sections"].as_i64(), v["screenings"].as_i64()), (Some(24), Some(1), Some(0)));
    assert!(v["newest"].as_bool().unwrap() && v["savedAt"].is_string());
    assert_eq!(v["savedBy"], "Test Staff");
    // Read back whole: exactly what was drawn (false flags left out).
    let read = call(&app, &m, "GET", &format!("/api/staff/seatPlans/{id}"), None).await;
    assert_eq!(read.status, StatusCode::OK, "{}", read.text);
    example(&app, "seatPlan", "SeatPlanResponse", &read);
    assert_eq!(read.body["plan"], small_hall());
    // The list: the new one first and newest, the catalogue's after it.
    let after = versions(&app, &m, 1).await;
    let ids: Vec<i64> = after["versions"].as_array().unwrap().iter().map(|v| v["id"].as_i64().unwrap()).collect();
    assert_eq!(ids, vec![id, 1]);
    assert_eq!(after["versions"][1]["newest"], false);
    let listed = call(&app, &m, "GET", "/api/staff/seatPlans?venueId=1", None).await;
    example(&app, "seatPlanVersions", "SeatPlanVersionsResponse", &listed);
    // Buyers' plan of it: sofa, wheelchair and companion seats, the screen where it was drawn.
    let plan = app
        .post(&format!("/api/seats/seatplanV2?venueId=1&seatplanId={id}"), &json!({ "recaptchaToken": kupa_app::ports::CAPTCHA_TEST_TOKEN }).to_string())
        .await;
    assert_eq!(plan.status, StatusCode::OK, "{}", plan.text);
    let sp = &plan.body["seatplan"];
    assert_eq!((sp["width"].as_i64(), sp["height"].as_i64()), (Some(12), Some(8)));
    assert_eq!((sp["screen"]["x"].as_i64(), sp["screen"]["width"].as_i64()), (Some(2), Some(8)));
    let seats = sp["seats"].as_array().unwrap();
    assert_eq!(seats.len(), 24);
    assert_eq!(seats.iter().filter(|s| s["sf"].is_i64()).count(), 2);
    assert_eq!(seats.iter().filter(|s| s["hc"] == true).count(), 1);
    assert!(seats.iter().all(|s| s["gi"] == s["y"]), "a straight row's group is its line");
    // One audit row, before (the catalogue's plan) and after, and the catalogue moved on.
    let docs = rows(db, "SELECT COALESCE(before_doc, '') || '|' || after_doc FROM backoffice_audit WHERE kind = 'seatPlan'").await;
    assert_eq!(docs.len(), 1);
    let (b, a) = docs[0].split_once('|').unwrap();
    let (b, a): (Value, Value) = (serde_json::from_str(b).unwrap(), serde_json::from_str(a).unwrap());
    assert_eq!((b["seatplanId"].as_i64(), a["seatplanId"].as_i64()), (Some(1), Some(id)));
    assert_eq!((a["version"].as_i64(), a["seats"].as_i64(), a["venueId"].as_i64()), (Some(2), Some(24), Some(1)));
    let audit = call(&app, &m, "GET", "/api/staff/audit?kind=seatPlan", None).await;
    assert_eq!(audit.status, StatusCode::OK, "{}", audit.text);
    assert_eq!(audit.body["changes"][0]["locationId"], 2);
    assert!(audit.body["changes"][0]["presentationId"].is_null());
    assert!(count(db, "SELECT version FROM catalogue_version").await > bumps);
}

async fn every_demo_hall_opens_in_the_editor_and_saves_again_as_it_is(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1, 2]).await;
    // Aisles, descending numbers, sofas, wheelchair places with companions, side sections and
    // GA areas: each demo plan keeps the editor's rules and comes back the same (sofas read
    // numbered 1, 2, ... in their section, as a save numbers them).
    for venue in 1..=9 {
        let list = versions(&app, &m, venue).await;
        let newest = list["versions"][0]["id"].as_i64().unwrap();
        let read = call(&app, &m, "GET", &format!("/api/staff/seatPlans/{newest}"), None).await;
        assert_eq!(read.status, StatusCode::OK, "{}", read.text);
        let r = save(&app, &m, venue, Some(newest), read.body["plan"].clone()).await;
        assert_eq!(r.status, StatusCode::CREATED, "hall {venue}: {}", r.text);
        let id = r.body["version"]["id"].as_i64().unwrap();
        let again = call(&app, &m, "GET", &format!("/api/staff/seatPlans/{id}"), None).await;
        assert_eq!(read.body["plan"], again.body["plan"], "hall {venue}");
        let old = count(db, &format!("SELECT COUNT(*) FROM seats WHERE seatplan_id = {newest}")).await;
        let new = count(db, &format!("SELECT COUNT(*) FROM seats WHERE seatplan_id = {id}")).await;
        assert_eq!(old, new, "hall {venue}");
    }
}

async fn a_plan_that_breaks_a_rule_is_refused_with_its_field_and_nothing_is_written(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let plans = count(db, "SELECT COUNT(*) FROM seatplans").await;
    let seats = count(db, "SELECT COUNT(*) FROM seats").await;
    let edit = |f: &dyn Fn(&mut Value)| {
        let mut p = small_hall();
        f(&mut p);
        p
    };
    let seat = "plan.sections[0].rows[0].seats[1]";
    let cases: Vec<(Value, &str, &str)> = vec![
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["name"] = json!("1")), "seatNameTaken", seat),
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["x"] = json!(12)), "outsidePlan", seat),
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["y"] = json!(0)), "outsidePlan", seat),
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["x"] = json!(2)), "placeTaken", seat),
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["sofa"] = json!(7)), "sofaNotPair", seat),
        (edit(&|p| {
            p["sections"][0]["rows"][0]["seats"][0]["sofa"] = json!(7);
            p["sections"][0]["rows"][0]["seats"][2]["sofa"] = json!(7);
        }), "sofaNotPair", "plan.sections[0].rows[0].seats[2]"),
        (edit(&|p| p["sections"][0]["rows"][0]["seats"][1]["companion"] = json!(true)), "companionAlone", seat),
        (edit(&|p| p["sections"][0]["rows"][1]["seats"] = json!([])), "rowEmpty", "plan.sections[0].rows[1].seats"),
        (edit(&|p| p["sections"][0]["ticketGroupId"] = json!(999)), "ticketGroup", "plan.sections[0].ticketGroupId"),
        (edit(&|p| p["sections"][0]["kind"] = json!("balcony")), "kind", "plan.sections[0].kind"),
        (edit(&|p| p["sections"][0]["rows"] = json!([])), "empty", "plan.sections"),
        (edit(&|p| {
            p["sections"][0] = json!({ "name": "דשא", "kind": "ga", "ticketGroupId": 1, "capacity": 0 });
        }), "gaCapacity", "plan.sections[0].capacity"),
        (edit(&|p| p["screen"]["width"] = json!(11)), "outsidePlan", "plan.screen"),
        (edit(&|p| p["width"] = json!(500)), "planSize", "plan.width"),
        (edit(&|p| p["name"] = json!("")), "text", "plan.name"),
    ];
    for (plan, rule, field) in cases {
        let r = save(&app, &m, 1, None, plan).await;
        assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "seatPlanInvalid"), "{rule}: {}", r.text);
        assert_eq!(r.body["error"]["params"]["rule"], rule, "{}", r.text);
        assert_eq!(r.body["error"]["params"]["field"], field, "{}", r.text);
    }
    // Drawn from another hall's plan; a malformed body.
    let r = save(&app, &m, 1, Some(2), small_hall()).await;
    assert_eq!((code(&r), r.body["error"]["params"]["field"].as_str()), ("seatPlanInvalid", Some("basedOn")));
    let r = call(&app, &m, "POST", "/api/staff/seatPlans", Some(json!({ "venueId": 1, "plan": { "name": "x" } }))).await;
    assert_eq!((r.status, code(&r)), (StatusCode::UNPROCESSABLE_ENTITY, "formValidation"), "{}", r.text);
    // Nothing written, nothing audited.
    assert_eq!(count(db, "SELECT COUNT(*) FROM seatplans").await, plans);
    assert_eq!(count(db, "SELECT COUNT(*) FROM seats").await, seats);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit").await, 0);
    // A GA area alone is a plan; one beside the rows too.
    let mut ga = small_hall();
    ga["sections"] = json!([{ "name": "דשא", "nameEn": "Lawn", "kind": "ga", "ticketGroupId": 1, "capacity": 120 }]);
    let r = save(&app, &m, 1, None, ga).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    assert_eq!((r.body["version"]["gaCapacity"].as_i64(), r.body["version"]["seats"].as_i64()), (Some(120), Some(0)));
}

async fn screenings_keep_their_plan_and_a_new_one_sells_on_the_newest(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    // A buyer has paid for two seats of a screening of the big hall (plan 1).
    let old = buy_two(&app, &buyer(31), 0).await;
    let old_id = old["id"].as_i64().unwrap();
    let sold_before = count(db, &format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {old_id} AND state = 'sold'")).await;
    assert_eq!(sold_before, 2);
    let r = save(&app, &m, 1, Some(1), small_hall()).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text);
    let new_plan = r.body["version"]["id"].as_i64().unwrap();
    // Every screening made before keeps plan 1, its seats and its sales.
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM presentations WHERE seatplan_id = {new_plan}")).await, 0);
    let detail = app.get(&format!("/api/presentations/{old_id}")).await;
    assert_eq!(detail.body["presentation"]["seatplanId"], 1);
    let old_p = app.presentations().await.into_iter().find(|p| p.id == old_id).unwrap();
    assert_eq!(app.seat_plan(&old_p).await.seats.len(), count(db, "SELECT COUNT(*) FROM seats WHERE seatplan_id = 1").await as usize);
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {old_id} AND state = 'sold'")).await, 2);
    // The programme offers the newest plan for the hall, and a screening added now sells on it.
    let choices = call(&app, &m, "GET", "/api/staff/programme/choices", None).await;
    let hall = choices.body["complexes"].as_array().unwrap().iter()
        .flat_map(|c| c["halls"].as_array().unwrap().iter())
        .find(|h| h["id"] == 1).unwrap().clone();
    assert_eq!(hall["seatplanId"], new_plan);
    let body = json!({ "featureId": 3, "venueId": 1, "date": day(&app, 7), "time": "08:00" });
    let added = call(&app, &m, "POST", "/api/staff/programme/screenings", Some(body)).await;
    assert_eq!(added.status, StatusCode::CREATED, "{}", added.text);
    assert_eq!(added.body["screening"]["seatplanId"], new_plan);
    let id = added.body["screening"]["id"].as_i64().unwrap();
    // A buyer locks two seats of the new plan, prices and pays: they are sold.
    let p = app.presentations().await.into_iter().find(|p| p.id == id).expect("listed");
    assert_eq!(p.seatplan_id, new_plan);
    let who = buyer(32);
    let paid = pay_by_card(&app, &who, priced_cart_for(&app, &who, serde_json::to_value(&p).unwrap(), 0, None, "en").await).await;
    assert!(!paid.reservation.is_empty());
    assert_eq!(count(db, &format!("SELECT COUNT(*) FROM seat_claims WHERE presentation_id = {id} AND state = 'sold'")).await, 2);
    let sections: Vec<String> = rows(db, Box::leak(format!("SELECT CAST(section_id AS TEXT) FROM seat_claims WHERE presentation_id = {id}").into_boxed_str())).await;
    let new_sections = rows(db, Box::leak(format!("SELECT CAST(id AS TEXT) FROM sections WHERE seatplan_id = {new_plan}").into_boxed_str())).await;
    assert!(sections.iter().all(|s| new_sections.contains(s)), "{sections:?} {new_sections:?}");
    // The version list counts the screening on its plan.
    let list = versions(&app, &m, 1).await;
    assert_eq!((list["versions"][0]["id"].as_i64(), list["versions"][0]["upcoming"].as_i64()), (Some(new_plan), Some(1)));
}

async fn two_saves_at_once_make_two_versions(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let m = manager(&app, "m@chain.example", &[1]).await;
    let (a, b) = tokio::join!(save(&app, &m, 4, None, small_hall()), save(&app, &m, 4, None, small_hall()));
    assert_eq!((a.status, b.status), (StatusCode::CREATED, StatusCode::CREATED), "{} {}", a.text, b.text);
    let mut got = vec![a.body["version"]["version"].as_i64().unwrap(), b.body["version"]["version"].as_i64().unwrap()];
    got.sort();
    assert_eq!(got, vec![2, 3]);
    assert_ne!(a.body["version"]["id"], b.body["version"]["id"]);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit WHERE kind = 'seatPlan'").await, 2);
}

async fn only_managers_of_the_hall_business_may_read_or_save_its_plans(db: &TestDb) {
    let app = TestApp::new(db, test_settings()).await;
    let haifa = manager(&app, "haifa@chain.example", &[2]).await;
    add(&app, "usher@chain.example", Role::Usher, &[1], false).await;
    let usher = staff_login(&app, "usher@chain.example").await;
    // Another business's hall or plan is not found; its own (hall 7 in Haifa) is fine.
    for (method, uri, body) in [
        ("GET", "/api/staff/seatPlans?venueId=1", None),
        ("GET", "/api/staff/seatPlans/1", None),
        ("POST", "/api/staff/seatPlans", Some(json!({ "venueId": 1, "plan": small_hall() }))),
    ] {
        let r = call(&app, &haifa, method, uri, body.clone()).await;
        assert_eq!((r.status, code(&r)), (StatusCode::NOT_FOUND, "notFound"), "{uri}: {}", r.text);
        let r = call(&app, &usher, method, uri, body).await;
        assert_eq!((r.status, code(&r)), (StatusCode::FORBIDDEN, "forbidden"), "{uri}: {}", r.text);
    }
    assert_eq!(versions(&app, &haifa, 7).await["hall"]["locationId"], 4);
    // A video-on-demand channel has no seat plan to draw; a plan that does not exist either.
    let m = manager(&app, "m@chain.example", &[1]).await;
    let r = call(&app, &m, "GET", "/api/staff/seatPlans?venueId=101", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = call(&app, &m, "GET", "/api/staff/seatPlans/9999", None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // No staff login; a save from another site's page.
    let r = app.get("/api/staff/seatPlans?venueId=1").await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let r = staff_call(&app, &m, "POST", "/api/staff/seatPlans", Some(json!({ "venueId": 1, "plan": small_hall() })), Some("https://evil.example")).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(count(db, "SELECT COUNT(*) FROM backoffice_audit").await, 0);
}

}
