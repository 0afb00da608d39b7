//! `kupa catalogue import` on a live database with sales (issue 18 item 1, decision 0049), on
//! SQLite and (when KUPA_TEST_POSTGRES_URL is set) PostgreSQL: a dry run writes nothing, a
//! change to a sold seat plan is a conflict and writes nothing, an import adds and updates, and a
//! running app whose cache held the old catalogue serves the new one.

use crate::common::staff::buy_two;
use crate::common::*;
use axum::http::StatusCode;
use kupa_app::catalogue_file::{self, import};
use kupa_app::model::CatalogueData;
use kupa_app::ports::{CatalogueImportStore, CatalogueStore};
use kupa_domain::ids::PresentationId;
use kupa_store::testing::TestDb;
use serde_json::{Value, json};

const NEW_FEATURE: i64 = 9001;
const NEW_PRESENTATION: i64 = 990;

/// The demo chain as the app loaded it, changed by `edit`, expanded on the app's day.
fn demo_with(app: &TestApp, edit: impl FnOnce(&mut Value)) -> CatalogueData {
    let mut demo: Value = serde_json::from_str(DEMO).unwrap();
    edit(&mut demo);
    let file = catalogue_file::parse(&demo.to_string()).unwrap();
    catalogue_file::expand(file, app.today).unwrap()
}

/// A new film with a screening, and the sold presentation's film renamed.
fn additions(demo: &mut Value, sold: &Value) {
    let features = demo["features"].as_array_mut().unwrap();
    let category = features[0]["categoryId"].clone();
    features.push(json!({ "id": NEW_FEATURE, "name": "סרט חדש", "nameEn": "A new film", "categoryId": category }));
    let renamed = features
        .iter_mut()
        .find(|f| f["id"] == sold["featureId"])
        .unwrap();
    renamed["name"] = json!("שם חדש");
    demo["presentations"].as_array_mut().unwrap().push(json!({
        "id": NEW_PRESENTATION, "featureId": NEW_FEATURE, "venueId": sold["venueId"], "starts": "today+2 19:00"
    }));
}

fn kind<'a>(plan: &'a import::ImportPlan, k: &str) -> &'a import::KindChanges {
    plan.kinds.iter().find(|c| c.kind == k).unwrap()
}

async fn feature_name(app: &TestApp, presentation: i64) -> Reply {
    app.get(&format!("/api/presentations/{presentation}")).await
}

api_tests! {
    async fn an_import_adds_updates_and_refuses_to_change_sold_seats(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let sold = buy_two(&app, &buyer(1), 0).await;
        let sold_id = sold["id"].as_i64().unwrap();
        // The app reads (and caches) the sold presentation with its film's name.
        let before = feature_name(&app, sold_id).await;
        assert_eq!(before.status, StatusCode::OK, "{}", before.text);
        let old_name = before.body["presentation"]["featureName"].clone();
        assert_ne!(old_name, json!("שם חדש"));

        // The file the database was loaded from changes nothing.
        let same = import::import(&db.db, &demo_with(&app, |_| {}), false).await.unwrap();
        assert_eq!(same.plan.changes(), 0, "{}", same.plan.describe());
        assert!(!same.written);

        // A dry run plans the additions and writes nothing.
        let file = demo_with(&app, |d| additions(d, &sold));
        let dry = import::import(&db.db, &file, true).await.unwrap();
        assert!(!dry.written && dry.plan.conflicts.is_empty(), "{}", dry.plan.describe());
        let features = kind(&dry.plan, "features");
        assert_eq!((features.added.clone(), features.updated.len()), (vec![NEW_FEATURE], 1));
        assert_eq!(kind(&dry.plan, "presentations").added, vec![NEW_PRESENTATION]);
        assert!(db.db.feature(NEW_FEATURE).await.unwrap().is_none(), "a dry run writes nothing");
        assert!(db.db.presentation(PresentationId(NEW_PRESENTATION)).await.unwrap().is_none());

        // The same, with a row taken from the sold presentation's seat plan: a conflict, and
        // nothing of the file is written.
        let plan_id = sold["seatplanId"].clone();
        let conflicting = demo_with(&app, |d| {
            additions(d, &sold);
            let plan = d["seatplans"].as_array_mut().unwrap().iter_mut().find(|p| p["id"] == plan_id).unwrap();
            let section = plan["sections"].as_array_mut().unwrap().iter_mut()
                .find(|s| s["rows"].as_array().is_some_and(|r| r.len() > 1)).unwrap();
            section["rows"].as_array_mut().unwrap().pop();
        });
        let refused = import::import(&db.db, &conflicting, false).await.unwrap();
        assert!(!refused.written);
        assert_eq!(refused.plan.conflicts.len(), 1, "{}", refused.plan.describe());
        assert!(refused.plan.conflicts[0].contains("seats would be removed"), "{:?}", refused.plan.conflicts);
        assert!(refused.plan.conflicts[0].contains(&sold_id.to_string()));
        assert!(db.db.feature(NEW_FEATURE).await.unwrap().is_none(), "a conflict writes nothing");
        let seats_before = db.db.seats(plan_id.as_i64().unwrap()).await.unwrap().len();

        // The import itself: written, and served by the running app within a second.
        let done = import::import(&db.db, &file, false).await.unwrap();
        assert!(done.written && done.plan.conflicts.is_empty(), "{}", done.plan.describe());
        assert_eq!(done.plan.changes(), 3, "{}", done.plan.describe());
        assert_eq!(db.db.seats(plan_id.as_i64().unwrap()).await.unwrap().len(), seats_before);
        tokio::time::sleep(kupa_app::catalogue_cache::VERSION_CHECK_EVERY + std::time::Duration::from_millis(100)).await;
        let after = feature_name(&app, sold_id).await;
        assert_eq!(after.body["presentation"]["featureName"], json!("שם חדש"), "{}", after.text);
        let added = feature_name(&app, NEW_PRESENTATION).await;
        assert_eq!(added.status, StatusCode::OK, "{}", added.text);
        assert_eq!(added.body["presentation"]["featureNameEn"], json!("A new film"));
        assert!(app.presentations().await.iter().any(|p| p.id == NEW_PRESENTATION));
        // The sold seats are still sold, and a second import has nothing to do.
        let again = import::import(&db.db, &file, false).await.unwrap();
        assert_eq!(again.plan.changes(), 0, "{}", again.plan.describe());
    }

    async fn a_sold_screening_keeps_its_hour_and_an_unsold_one_moves(db: &TestDb) {
        let app = TestApp::new(db, test_settings()).await;
        let sold = buy_two(&app, &buyer(2), 0).await;
        let sold_id = sold["id"].as_i64().unwrap();
        let data = demo_with(&app, |_| {});
        let unsold = data
            .presentations
            .iter()
            .find(|p| p.id != PresentationId(sold_id) && p.id < PresentationId(1000))
            .unwrap()
            .clone();
        let moved = |ids: &[i64]| {
            let mut d = data.clone();
            for p in d.presentations.iter_mut().filter(|p| ids.contains(&(p.id.get()))) {
                p.starts_at_ms += 30 * 60_000;
            }
            d
        };
        let refused = import::import(&db.db, &moved(&[sold_id, unsold.id.get()]), false).await.unwrap();
        assert!(!refused.written);
        assert_eq!(refused.plan.conflicts, vec![format!("presentation {sold_id} has sales: its start time would change")]);
        let stored = db.db.presentation(unsold.id).await.unwrap().unwrap();
        assert_eq!(stored.presentation.starts_at_ms, unsold.starts_at_ms, "nothing written");
        let done = import::import(&db.db, &moved(&[unsold.id.get()]), false).await.unwrap();
        assert!(done.written, "{}", done.plan.describe());
        let stored = db.db.presentation(unsold.id).await.unwrap().unwrap();
        assert_eq!(stored.presentation.starts_at_ms, unsold.starts_at_ms + 30 * 60_000);

        // A seat held between the plan and its write: the write checks again and writes nothing.
        let other = app
            .presentations()
            .await
            .into_iter()
            .find(|p| p.id != sold_id && p.id != unsold.id.get() && p.is_on_sale && !p.is_vod && p.venue_id == 1)
            .unwrap();
        let mut data = data.clone();
        let p = data.presentations.iter_mut().find(|p| p.id == PresentationId(other.id)).unwrap();
        p.starts_at_ms += 15 * 60_000;
        let p_moved = p.starts_at_ms;
        let current = db.db.stored_catalogue().await.unwrap();
        let sold_now = db.db.presentations_with_sales().await.unwrap().into_iter().collect();
        let plan = import::plan_import(&data, &current, &sold_now);
        assert!(plan.conflicts.is_empty() && plan.unsold_presentations.contains(&other.id), "{}", plan.describe());
        let seat = crate::common::paying::row_end_pair(&app.seat_plan(&other).await, 0).0.key();
        app.lock(&buyer(3), &other, seat).await.expect("the seat is free");
        assert_eq!(db.db.apply_import(&plan).await.unwrap(), vec![other.id]);
        let stored = db.db.presentation(PresentationId(other.id)).await.unwrap().unwrap();
        assert_ne!(stored.presentation.starts_at_ms, p_moved, "nothing written");
    }
}
