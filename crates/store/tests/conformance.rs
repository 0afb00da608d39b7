//! The store conformance suite: every test runs on SQLite, and on PostgreSQL when
//! KUPA_TEST_POSTGRES_URL is set, each on a database of its own.

use kupa_app::catalogue_file;
use kupa_app::model::CatalogueData;
use kupa_app::ports::{CatalogueStore, ClaimStore};
use kupa_domain::catalogue::SectionKind;
use kupa_store::Db;

const SMALL: &str = include_str!("fixtures/small.json");

fn small_catalogue() -> CatalogueData {
    catalogue_file::expand(
        catalogue_file::parse(SMALL).unwrap(),
        jiff::civil::date(2026, 11, 22),
    )
    .unwrap()
}

/// Each check becomes two tests, `sqlite::<name>` and `postgres::<name>`, so the log shows which
/// backend passed. The PostgreSQL one runs when KUPA_TEST_POSTGRES_URL is set (and fails if that
/// server does not answer); unset, it says so and passes, as on a newcomer's machine.
macro_rules! conformance {
    ($(async fn $name:ident($db:ident: &Db) $body:block)*) => {
        $(async fn $name($db: &Db) $body)*

        mod sqlite {
            $(
                #[tokio::test]
                async fn $name() {
                    let t = kupa_store::testing::TestDb::sqlite().await;
                    super::$name(&t.db).await;
                    t.cleanup().await;
                }
            )*
        }

        mod postgres {
            $(
                #[tokio::test]
                async fn $name() {
                    let Some(url) = kupa_store::testing::postgres_url() else {
                        eprintln!("KUPA_TEST_POSTGRES_URL is not set: PostgreSQL not tested");
                        return;
                    };
                    let t = kupa_store::testing::TestDb::postgres(&url).await;
                    super::$name(&t.db).await;
                    t.cleanup().await;
                }
            )*
        }
    };
}

conformance! {
async fn a_new_database_is_migrated_and_empty_and_migrating_again_changes_nothing(db: &Db) {
    assert!(db.is_catalogue_empty().await.unwrap());
    db.migrate().await.unwrap();
    assert!(db.is_catalogue_empty().await.unwrap());
    assert!(db.presentations_between(0, i64::MAX).await.unwrap().is_empty());
}

async fn the_catalogue_reads_back_as_it_was_written(db: &Db) {
    let data = small_catalogue();
    db.load_catalogue(&data).await.unwrap();
    assert!(!db.is_catalogue_empty().await.unwrap());
    assert_eq!(db.site_config().await.unwrap().unwrap(), data.site_config);
    assert_eq!(db.locations().await.unwrap(), data.locations);
    assert_eq!(db.seatplan(1).await.unwrap().as_ref(), data.seatplans.iter().find(|s| s.id == 1));
    let seats = db.seats(1).await.unwrap();
    let mut expected: Vec<_> = data.seats.iter().filter(|s| s.seatplan_id == 1).cloned().collect();
    expected.sort_by_key(|s| (s.section_id, s.y, s.x));
    assert_eq!(seats, expected);
    assert!(seats.iter().any(|s| s.handicap) && seats.iter().any(|s| s.sofa_id.is_some()));
    let sections = db.sections(2).await.unwrap();
    assert_eq!(sections.iter().map(|s| s.kind).collect::<Vec<_>>(), vec![SectionKind::Reserved, SectionKind::Ga]);
    assert_eq!(sections[1].capacity, 40);
    let groups = db.ticket_groups(&[1]).await.unwrap();
    assert_eq!(groups.len(), 1);
    assert_eq!(groups[0].1.iter().map(|t| t.id).collect::<Vec<_>>(), vec![1, 2]);
    assert_eq!(groups[0].1[1].old_price, Some(4200));
    assert_eq!(db.products_for_location(2).await.unwrap().len(), 1, "beer is sold in Haifa only");
    assert_eq!(db.products_for_location(3).await.unwrap().len(), 2);
    assert_eq!(db.product(2).await.unwrap().unwrap().icon, "🍺");
    assert_eq!(db.service_charge(2).await.unwrap().unwrap().percent_bp, Some(1000));
    assert!(db.service_charge(99).await.unwrap().is_none());
    assert_eq!(db.mini_site("festival").await.unwrap().unwrap().feature_ids, vec![1]);
    assert_eq!(db.integration("partner-demo").await.unwrap().unwrap().business_id, 1);
    let customer = db.customer_by_mobile("0521234567").await.unwrap().unwrap();
    let members = db.members_of_customer(customer.id).await.unwrap();
    assert_eq!(members[0].0.member_number, "100001");
    assert_eq!(members[0].1.name_en, "Club");
    assert_eq!(db.features().await.unwrap().len(), 2);
    assert_eq!(db.feature(1).await.unwrap().unwrap().name, "הים של תל אביב");
}

async fn presentations_come_with_their_names_and_section_counts_in_time_order(db: &Db) {
    let data = small_catalogue();
    db.load_catalogue(&data).await.unwrap();
    let all = db.presentations_between(0, i64::MAX).await.unwrap();
    assert_eq!(all.len(), data.presentations.len());
    assert!(all.windows(2).all(|w| w[0].presentation.starts_at_ms <= w[1].presentation.starts_at_ms));
    let seven = db.presentation(7).await.unwrap().unwrap();
    assert_eq!(seven.feature.name_en, "The Sea of Tel Aviv");
    assert_eq!(seven.location.name_en, "Kupa Tel Aviv");
    assert_eq!(seven.venue.name_en, "Hall 1");
    assert_eq!(seven.category.name_en, "Drama");
    assert_eq!((seven.reserved_sections, seven.ga_sections), (1, 0));
    let stage = all.iter().find(|p| p.venue.id == 2).unwrap();
    assert_eq!((stage.reserved_sections, stage.ga_sections), (1, 1));
    assert_eq!(stage.presentation.business_id, 2);
    let (from, to) = kupa_domain::time::local_day_range_ms(jiff::civil::date(2026, 11, 22));
    let today = db.presentations_between(from, to).await.unwrap();
    assert_eq!(today.len(), 3, "two in the hall and one on the stage");
    assert!(db.presentation(424242).await.unwrap().is_none());
    assert!(db.claims(7).await.unwrap().is_empty());
}

async fn a_catalogue_with_a_bad_row_is_not_written_at_all(db: &Db) {
    let mut data = small_catalogue();
    // A seat in a section that does not exist: the foreign key refuses it near the end of the load.
    let mut stray = data.seats[0].clone();
    stray.section_id = 999;
    stray.x = 500;
    data.seats.push(stray);
    assert!(db.load_catalogue(&data).await.is_err());
    assert!(db.is_catalogue_empty().await.unwrap(), "the transaction was rolled back whole");
    assert!(db.locations().await.unwrap().is_empty());
}

async fn the_pool_serves_concurrent_readers(db: &Db) {
    let data = small_catalogue();
    db.load_catalogue(&data).await.unwrap();
    let mut tasks = Vec::new();
    for _ in 0..16 {
        let db = db.clone();
        tasks.push(tokio::spawn(async move { db.presentations_between(0, i64::MAX).await.map(|v| v.len()) }));
    }
    for t in tasks {
        assert_eq!(t.await.unwrap().unwrap(), data.presentations.len());
    }
}
}
