//! The store conformance suite: every test runs on SQLite, and on PostgreSQL when
//! KUPA_TEST_POSTGRES_URL is set, each on a database of its own.

use kupa_app::catalogue_file;
use kupa_app::model::CatalogueData;
use kupa_app::ports::{CatalogueStore, ClaimStore};
use kupa_domain::catalogue::SectionKind;
use kupa_domain::ids::PresentationId;
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
    assert_eq!(groups[0].1[1].old_price, Some(kupa_domain::money::Money(4200)));
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
    let seven = db.presentation(PresentationId(7)).await.unwrap().unwrap();
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
    assert!(db.presentation(PresentationId(424242)).await.unwrap().is_none());
    assert!(db.claims(PresentationId(7)).await.unwrap().is_empty());
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

mod claims {
    use std::collections::HashMap;
    use std::sync::Arc;

    use kupa_app::ports::{CatalogueStore, ClaimStore, SeatAddress};
    use kupa_domain::ids::{PresentationId, SessionId};
    use kupa_store::Db;

    fn sid(s: &str) -> SessionId {
        SessionId::from(s)
    }

    const P: PresentationId = PresentationId(7);
    const SEAT: SeatAddress = SeatAddress {
        section_id: 10,
        x: 1,
        y: 1,
    };

    async fn seeded(db: &Db) {
        db.load_catalogue(&super::small_catalogue()).await.unwrap();
    }

    fn row_seat(x: i64) -> SeatAddress {
        SeatAddress {
            section_id: 10,
            x,
            y: 1,
        }
    }

    conformance! {
    async fn a_free_seat_is_held_once_and_a_second_session_is_refused(db: &Db) {
        seeded(db).await;
        assert!(db.hold(P, &[SEAT], &sid("a"), 1_000, 61_000).await.unwrap());
        assert!(!db.hold(P, &[SEAT], &sid("b"), 2_000, 62_000).await.unwrap(), "a live hold of another session wins");
        let claims = db.claims(P).await.unwrap();
        assert_eq!(claims.len(), 1);
        assert_eq!((claims[0].session_id.as_str(), claims[0].expires_at_ms), ("a", 61_000));
        assert!(db.hold(P, &[SEAT], &sid("a"), 3_000, 90_000).await.unwrap(), "the holder may renew");
        assert_eq!(db.claims(P).await.unwrap()[0].expires_at_ms, 90_000);
    }

    async fn an_expired_hold_is_free_to_claim_at_once(db: &Db) {
        seeded(db).await;
        assert!(db.hold(P, &[SEAT], &sid("a"), 1_000, 61_000).await.unwrap());
        assert!(!db.hold(P, &[SEAT], &sid("b"), 60_999, 120_000).await.unwrap());
        assert!(db.hold(P, &[SEAT], &sid("b"), 61_000, 121_000).await.unwrap(), "at expiry the seat is free");
        let claims = db.claims(P).await.unwrap();
        assert_eq!(claims[0].session_id, "b");
        assert_eq!(db.extend(P, &sid("a"), 61_500, 200_000).await.unwrap(), 0, "the old holder cannot extend what it lost");
    }

    async fn holding_several_places_is_all_or_nothing(db: &Db) {
        seeded(db).await;
        assert!(db.hold(P, &[row_seat(3)], &sid("a"), 0, 60_000).await.unwrap());
        let wanted = [row_seat(1), row_seat(2), row_seat(3)];
        assert!(!db.hold(P, &wanted, &sid("b"), 1, 60_000).await.unwrap());
        let claims = db.claims(P).await.unwrap();
        assert_eq!(claims.len(), 1, "b got nothing, not seats 1 and 2");
        assert_eq!(claims[0].session_id, "a");
    }

    async fn release_frees_only_the_sessions_own_holds(db: &Db) {
        seeded(db).await;
        assert!(db.hold(P, &[row_seat(1), row_seat(2)], &sid("a"), 0, 60_000).await.unwrap());
        assert_eq!(db.release(P, &[row_seat(1)], &sid("b")).await.unwrap(), 0);
        assert_eq!(db.release(P, &[row_seat(1), row_seat(2)], &sid("a")).await.unwrap(), 2);
        assert!(db.claims(P).await.unwrap().is_empty());
        assert!(db.hold(P, &[row_seat(1)], &sid("b"), 1, 60_000).await.unwrap());
    }

    async fn extend_moves_only_live_holds_of_that_session(db: &Db) {
        seeded(db).await;
        assert!(db.hold(P, &[row_seat(1), row_seat(2)], &sid("a"), 0, 60_000).await.unwrap());
        assert!(db.hold(P, &[row_seat(5)], &sid("b"), 0, 60_000).await.unwrap());
        assert_eq!(db.extend(P, &sid("a"), 30_000, 300_000).await.unwrap(), 2);
        let by: HashMap<i64, i64> = db.claims(P).await.unwrap().into_iter().map(|c| (c.x, c.expires_at_ms)).collect();
        assert_eq!((by[&1], by[&2], by[&5]), (300_000, 300_000, 60_000));
    }

    async fn sweepers_each_release_an_expired_hold_once(db: &Db) {
        seeded(db).await;
        for x in 1..=8 {
            assert!(db.hold(P, &[row_seat(x)], &sid(&format!("s{x}")), 0, if x <= 5 { 1_000 } else { 100_000 }).await.unwrap());
        }
        let (a, b) = tokio::join!(db.sweep_expired(1_000), db.sweep_expired(1_000));
        let (a, b) = (a.unwrap(), b.unwrap());
        assert_eq!(a.len() + b.len(), 5, "five expired holds, each reported by exactly one sweeper");
        assert_eq!(db.claims(P).await.unwrap().len(), 3);
    }

    async fn racing_sessions_never_share_a_seat(db: &Db) {
        seeded(db).await;
        // 24 buyers, each wanting 2 adjacent seats of one 8-seat row, all at once on a pool of
        // several connections: every seat ends with at most one holder, and each buyer got both or none.
        let db = Arc::new(db.clone());
        let mut tasks = Vec::new();
        for buyer in 0..24 {
            let db = db.clone();
            tasks.push(tokio::spawn(async move {
                let first = 1 + (buyer % 7) as i64;
                let want = [row_seat(first), row_seat(first + 1)];
                let got = db.hold(P, &want, &sid(&format!("buyer{buyer}")), 0, 60_000).await.unwrap();
                (format!("buyer{buyer}"), got, want)
            }));
        }
        let mut winners = Vec::new();
        for t in tasks {
            let (who, got, want) = t.await.unwrap();
            if got {
                winners.push((who, want));
            }
        }
        let claims = db.claims(P).await.unwrap();
        let mut holder: HashMap<(i64, i64), String> = HashMap::new();
        for c in &claims {
            assert!(holder.insert((c.x, c.y), c.session_id.as_str().to_owned()).is_none(), "one row per seat");
        }
        for (who, want) in &winners {
            for p in want {
                assert_eq!(holder.get(&(p.x, p.y)), Some(who), "{who} holds both of its seats");
            }
        }
        assert_eq!(claims.len(), winners.len() * 2, "no half-claimed pairs");
        assert!(!winners.is_empty());
    }
    }
}

mod login_and_outbox {
    use std::sync::Arc;

    use kupa_app::ports::{
        Attachment, CatalogueStore, CodeLimits, LoginCode, LoginStore, Mail, OutboxStore,
        SessionLogin, Sms,
    };
    use kupa_domain::customer::MobileNumber;
    use kupa_store::Db;

    const MOBILE: &str = "0521234567";
    const LIMITS: CodeLimits = CodeLimits {
        resend_after_ms: 30_000,
        window_ms: 3_600_000,
        max_per_window: 5,
    };

    fn code(hash: &str, now: i64) -> LoginCode {
        LoginCode {
            mobile: MOBILE.into(),
            code_hash: hash.into(),
            salt: format!("salt-{hash}"),
            created_at_ms: now,
            expires_at_ms: now + 300_000,
            attempts: 0,
            window_started_at_ms: now,
            sends_in_window: 1,
        }
    }

    async fn attempts(db: &Db) -> i64 {
        db.attempt_login_code(MOBILE)
            .await
            .unwrap()
            .unwrap()
            .attempts
    }

    fn sms(to: &str, body: &str) -> Sms {
        Sms {
            to: MobileNumber::parse(to).unwrap(),
            kind: "loginCode".into(),
            reference: None,
            text: body.into(),
        }
    }

    conformance! {
    async fn a_new_code_replaces_the_old_one_but_not_within_the_resend_wait(db: &Db) {
        assert_eq!(db.issue_login_code(&code("h1", 0), &LIMITS).await.unwrap(), None);
        assert_eq!(attempts(db).await, 1);
        let refused = db.issue_login_code(&code("h2", 29_999), &LIMITS).await.unwrap().expect("too soon");
        assert_eq!((refused.code_hash.as_str(), refused.created_at_ms), ("h1", 0), "the standing code is reported, unchanged");
        assert_eq!(db.issue_login_code(&code("h3", 30_000), &LIMITS).await.unwrap(), None);
        let now = db.attempt_login_code(MOBILE).await.unwrap().unwrap();
        assert_eq!((now.code_hash.as_str(), now.salt.as_str(), now.attempts), ("h3", "salt-h3", 1), "replaced, attempts zeroed");
        assert_eq!((now.expires_at_ms, now.sends_in_window, now.window_started_at_ms), (330_000, 2, 0));
    }

    async fn a_number_gets_at_most_five_codes_an_hour(db: &Db) {
        for i in 0..5 {
            assert_eq!(db.issue_login_code(&code(&format!("h{i}"), i * 60_000), &LIMITS).await.unwrap(), None, "code {i}");
        }
        let refused = db.issue_login_code(&code("h5", 3_599_999), &LIMITS).await.unwrap().expect("window used up");
        assert_eq!((refused.sends_in_window, refused.window_started_at_ms), (5, 0));
        assert_eq!(db.issue_login_code(&code("h6", 3_600_000), &LIMITS).await.unwrap(), None, "a new window");
        let now = db.attempt_login_code(MOBILE).await.unwrap().unwrap();
        assert_eq!((now.code_hash.as_str(), now.sends_in_window, now.window_started_at_ms), ("h6", 1, 3_600_000));
    }

    async fn racing_guesses_each_get_their_own_attempt_count(db: &Db) {
        db.issue_login_code(&code("h", 0), &LIMITS).await.unwrap();
        let db = Arc::new(db.clone());
        let tasks: Vec<_> = (0..12)
            .map(|_| {
                let db = db.clone();
                tokio::spawn(async move { db.attempt_login_code(MOBILE).await.unwrap().unwrap().attempts })
            })
            .collect();
        let mut counts = Vec::new();
        for t in tasks {
            counts.push(t.await.unwrap());
        }
        counts.sort();
        assert_eq!(counts, (1..=12).collect::<Vec<_>>(), "no two guesses saw the same count");
        assert_eq!(db.attempt_login_code("0529999999").await.unwrap(), None, "no code, nothing counted");
    }

    async fn a_code_is_used_once_however_many_requests_race(db: &Db) {
        db.issue_login_code(&code("h", 0), &LIMITS).await.unwrap();
        assert!(!db.consume_login_code(MOBILE, "other").await.unwrap(), "only the code with that hash");
        let (a, b) = tokio::join!(db.consume_login_code(MOBILE, "h"), db.consume_login_code(MOBILE, "h"));
        assert!(a.unwrap() ^ b.unwrap(), "exactly one request used it");
        assert_eq!(db.attempt_login_code(MOBILE).await.unwrap(), None);
        assert_eq!(db.issue_login_code(&code("h2", 1_000), &LIMITS).await.unwrap(), None, "a used code does not make the next wait");
    }

    async fn a_session_login_is_bound_replaced_expired_and_ended(db: &Db) {
        db.load_catalogue(&super::small_catalogue()).await.unwrap();
        let login = SessionLogin { session_id: "s1".into(), customer_id: Some(1), mobile: MOBILE.into(), logged_in_at_ms: 1_000, expires_at_ms: 10_000 };
        db.bind_session(&login).await.unwrap();
        assert_eq!(db.session_login("s1", 9_999).await.unwrap(), Some(login.clone()));
        assert_eq!(db.session_login("s1", 10_000).await.unwrap(), None, "expired at its end");
        assert_eq!(db.session_login("s2", 5_000).await.unwrap(), None);
        let bare = SessionLogin { customer_id: None, mobile: "0540000000".into(), logged_in_at_ms: 2_000, expires_at_ms: 20_000, ..login };
        db.bind_session(&bare).await.unwrap();
        assert_eq!(db.session_login("s1", 9_999).await.unwrap(), Some(bare), "a number with no customer; the earlier login replaced");
        assert!(db.end_session_login("s1").await.unwrap());
        assert!(!db.end_session_login("s1").await.unwrap());
        assert_eq!(db.session_login("s1", 3_000).await.unwrap(), None);
        assert_eq!(db.customer_by_id(1).await.unwrap().unwrap().mobile, MOBILE);
        assert_eq!(db.customer_by_id(99).await.unwrap(), None);
        assert_eq!(db.customer_by_mobile(MOBILE).await.unwrap().unwrap().id, 1);
    }

    async fn the_outboxes_list_newest_first_by_recipient(db: &Db) {
        let a = db.record_sms(&sms("0521111111", "ראשון"), 1_000).await.unwrap();
        let b = db.record_sms(&Sms { reference: Some("R1".into()), kind: "tickets".into(), ..sms("0522222222", "שני") }, 2_000).await.unwrap();
        let c = db.record_sms(&sms("0521111111", "שלישי"), 3_000).await.unwrap();
        assert!(a < b && b < c);
        let all = db.sms_outbox(None, 10).await.unwrap();
        assert_eq!(all.iter().map(|m| m.id).collect::<Vec<_>>(), vec![c, b, a]);
        assert_eq!((all[1].kind.as_str(), all[1].reference.as_deref(), all[1].body.as_str(), all[1].created_at_ms), ("tickets", Some("R1"), "שני", 2_000));
        assert_eq!(all[0].reference, None);
        let mine = db.sms_outbox(Some("0521111111"), 10).await.unwrap();
        assert_eq!(mine.iter().map(|m| m.body.as_str()).collect::<Vec<_>>(), vec!["שלישי", "ראשון"]);
        assert_eq!(db.sms_outbox(None, 1).await.unwrap().len(), 1);

        let mail = Mail {
            to: "dana@example.com".into(),
            subject: "הכרטיסים שלך".into(),
            text: "text".into(),
            html: "<p>html</p>".into(),
            kind: "tickets".into(),
            reference: Some("R1".into()),
            attachments: vec![Attachment { name: "tickets.pdf".into(), content_type: "application/pdf".into(), bytes: vec![0; 1234] }],
        };
        let id = db.record_mail(&mail, 5_000).await.unwrap();
        db.record_mail(&Mail { to: "other@example.com".into(), ..Mail::default() }, 6_000).await.unwrap();
        let got = db.mail_outbox(Some("dana@example.com"), 10).await.unwrap();
        assert_eq!(got.len(), 1);
        let m = &got[0];
        assert_eq!((m.id, m.subject.as_str(), m.text_body.as_str(), m.html_body.as_str(), m.created_at_ms), (id, "הכרטיסים שלך", "text", "<p>html</p>", 5_000));
        assert_eq!((m.attachments[0].name.as_str(), m.attachments[0].content_type.as_str(), m.attachments[0].size), ("tickets.pdf", "application/pdf", 1234));
        assert_eq!(db.mail_outbox(None, 10).await.unwrap().len(), 2);
    }
    }
}

mod ticket_codes {
    use kupa_app::error::constraint;
    use kupa_app::model::{CatalogueData, RefPromptOption, TicketCode};
    use kupa_app::ports::{CatalogueStore, TicketStore};
    use kupa_domain::tickets::CodeKind;
    use kupa_store::Db;

    fn with_codes() -> CatalogueData {
        let mut data = super::small_catalogue();
        data.tickets[1].by_code_only = true;
        data.tickets[0].ref_prompt = "מספר חדר".into();
        data.memberships[0].max_discounted_tickets = Some(4);
        data.ticket_codes = vec![
            TicketCode {
                id: 1,
                code: "Kupa10".into(),
                kind: CodeKind::DiscountCode,
                ticket_id: 2,
                valid_from: Some("2026-11-01".into()),
                valid_to: Some("2026-12-31".into()),
                usage_limit: Some(10),
                used_count: 3,
                label: "קוד הנחה".into(),
                label_en: "Discount code".into(),
                ..TicketCode::default()
            },
            TicketCode {
                id: 2,
                code: "VALUE".into(),
                kind: CodeKind::Voucher,
                ticket_id: 2,
                balance: Some(kupa_domain::money::Money(5000)),
                card_prefix: "4580".into(),
                min_tickets: 2,
                ..TicketCode::default()
            },
        ];
        data.ref_prompt_options = vec![
            RefPromptOption {
                ticket_id: 1,
                reference: "102".into(),
                reference2: String::new(),
                quantity: 2,
            },
            RefPromptOption {
                ticket_id: 1,
                reference: "101".into(),
                reference2: "Cohen".into(),
                quantity: 0,
            },
        ];
        data
    }

    conformance! {
    async fn ticket_codes_read_back_by_their_code_in_any_case(db: &Db) {
        let data = with_codes();
        db.load_catalogue(&data).await.unwrap();
        assert_eq!(db.ticket_code("kupa10").await.unwrap().as_ref(), Some(&data.ticket_codes[0]));
        assert_eq!(db.ticket_code("  KUPA10 ").await.unwrap().as_ref(), Some(&data.ticket_codes[0]));
        assert_eq!(db.ticket_code("value").await.unwrap().as_ref(), Some(&data.ticket_codes[1]));
        assert!(db.ticket_code("nope").await.unwrap().is_none());
        assert_eq!(db.ref_prompt_options(1).await.unwrap(), data.ref_prompt_options, "in file order");
        assert!(db.ref_prompt_options(2).await.unwrap().is_empty());
        let groups = db.ticket_groups(&[1]).await.unwrap();
        assert!(groups[0].1.iter().any(|t| t.id == 2 && t.by_code_only));
        let (member, membership) = db.member_by_number("100001").await.unwrap().unwrap();
        assert_eq!((member.id, membership.max_discounted_tickets), (1, Some(4)));
        assert!(db.member_by_number("999").await.unwrap().is_none());
    }

    async fn a_code_used_beyond_its_limit_or_repeated_in_another_case_is_not_written(db: &Db) {
        let mut data = with_codes();
        data.ticket_codes[0].used_count = 11;
        // The broken constraint comes back by its name, on either database.
        let e = db.load_catalogue(&data).await.unwrap_err();
        assert!(e.is_conflict_on(constraint::TICKET_CODES_USED_COUNT_CHECK), "{e}");
        assert!(db.is_catalogue_empty().await.unwrap(), "the whole load was rolled back");
        let mut data = with_codes();
        data.ticket_codes[1].code = " KUPA10".into();
        let e = db.load_catalogue(&data).await.unwrap_err();
        assert!(e.is_conflict_on(constraint::TICKET_CODES_CODE_KEY), "{e}");
        assert!(db.is_catalogue_empty().await.unwrap());
        let mut data = with_codes();
        let twin = data.members[0].clone();
        data.members.push(kupa_app::model::Member { id: 99, ..twin });
        let e = db.load_catalogue(&data).await.unwrap_err();
        assert!(e.is_conflict_on(constraint::MEMBERS_NUMBER_KEY), "{e}");
    }
    }
}

mod outbox_hygiene {
    use kupa_app::ports::{OutboxStore, Sms, message_kind};
    use kupa_domain::customer::MobileNumber;
    use kupa_store::Db;

    fn sms(kind: &str, text: &str) -> Sms {
        Sms {
            to: MobileNumber::parse("0521234567").unwrap(),
            kind: kind.into(),
            reference: None,
            text: text.into(),
        }
    }

    conformance! {
    async fn old_login_codes_are_blanked_and_other_messages_kept(db: &Db) {
        db.record_sms(&sms(message_kind::LOGIN_CODE, "your code is 123456"), 1_000).await.unwrap();
        db.record_sms(&sms(message_kind::LOGIN_CODE, "your code is 654321"), 900_000).await.unwrap();
        db.record_sms(&sms(message_kind::TICKETS, "your tickets: https://x"), 1_000).await.unwrap();
        assert_eq!(db.redact_login_codes(600_000).await.unwrap(), 1);
        assert_eq!(db.redact_login_codes(600_000).await.unwrap(), 0, "once is enough");
        let bodies: Vec<String> = db.sms_outbox(None, 10).await.unwrap().into_iter().map(|m| m.body).collect();
        assert!(!bodies.iter().any(|b| b.contains("123456")), "the old code is gone: {bodies:?}");
        assert!(bodies.iter().any(|b| b.contains("654321")), "a live code stays readable (test mode's inbox)");
        assert!(bodies.iter().any(|b| b.contains("your tickets")), "other messages are kept");
    }
    }
}

mod payment_deals {
    use kupa_app::ports::{DealRef, PaymentDeals, RefundClaim};
    use kupa_store::Db;

    conformance! {
    async fn a_payments_page_deal_and_card_charge_are_each_kept_as_first_written(db: &Db) {
        assert_eq!(db.kept(DealRef::Page, "pay-1").await.unwrap(), None, "no row yet");
        db.keep(DealRef::Page, "pay-1", "cardcom", "lp-1", 1_000).await.unwrap();
        db.keep(DealRef::Page, "pay-1", "cardcom", "lp-2", 2_000).await.unwrap();
        assert_eq!(db.kept(DealRef::Page, "pay-1").await.unwrap().as_deref(), Some("lp-1"), "a page is kept as first written");
        assert_eq!(db.kept(DealRef::Deal, "pay-1").await.unwrap(), None, "no deal until one is confirmed");
        db.keep(DealRef::Deal, "pay-1", "cardcom", "77", 3_000).await.unwrap();
        db.keep(DealRef::Deal, "pay-1", "cardcom", "78", 4_000).await.unwrap();
        assert_eq!(db.kept(DealRef::Deal, "pay-1").await.unwrap().as_deref(), Some("77"), "the deal fills in the page's row, never replaced");
        assert_eq!(db.kept(DealRef::Page, "pay-1").await.unwrap().as_deref(), Some("lp-1"));
        assert_eq!(db.kept(DealRef::CardCharge, "pay-1").await.unwrap(), None);
        // A token charge: no page, the card named; a later page does not take the row over.
        db.keep(DealRef::CardCharge, "pay-2", "cardcom", "card-a", 1_000).await.unwrap();
        db.keep(DealRef::CardCharge, "pay-2", "cardcom", "card-b", 2_000).await.unwrap();
        db.keep(DealRef::Page, "pay-2", "cardcom", "lp-3", 3_000).await.unwrap();
        assert_eq!(db.kept(DealRef::CardCharge, "pay-2").await.unwrap().as_deref(), Some("card-a"));
        assert_eq!(db.kept(DealRef::Page, "pay-2").await.unwrap(), None);
        // A deal with no row before it (PayPal's capture by webhook) makes the row.
        db.keep(DealRef::Deal, "pay-3", "paypal", "CAP-1", 1_000).await.unwrap();
        assert_eq!(db.kept(DealRef::Deal, "pay-3").await.unwrap().as_deref(), Some("CAP-1"));
        assert_eq!((db.kept(DealRef::Page, "pay-3").await.unwrap(), db.kept(DealRef::CardCharge, "pay-3").await.unwrap()), (None, None));
    }

    async fn a_refund_key_is_claimed_once_made_once_and_given_up_when_refused(db: &Db) {
        assert!(!db.refund_made("pay-1", "k").await.unwrap());
        assert_eq!(db.claim_refund_key("pay-1", "k", kupa_domain::money::Money(500), 1_000, i64::MIN).await.unwrap(), RefundClaim::Claimed);
        assert_eq!(db.claim_refund_key("pay-1", "k", kupa_domain::money::Money(500), 2_000, i64::MIN).await.unwrap(), RefundClaim::Busy);
        db.release_refund_key("pay-1", "k").await.unwrap();
        assert_eq!(db.claim_refund_key("pay-1", "k", kupa_domain::money::Money(500), 3_000, i64::MIN).await.unwrap(), RefundClaim::Claimed);
        db.record_refund("pay-1", "k", kupa_domain::money::Money(500), 4_000).await.unwrap();
        assert!(db.refund_made("pay-1", "k").await.unwrap());
        assert_eq!(db.claim_refund_key("pay-1", "k", kupa_domain::money::Money(500), 5_000, i64::MAX).await.unwrap(), RefundClaim::Done);
        assert!(!db.refund_made("pay-1", "other").await.unwrap());
    }
    }
}

/// Every constraint a use case may meet by name is named so in both migration trees.
#[test]
fn the_constraints_the_app_names_are_named_so_in_both_migration_trees() {
    for tree in ["sqlite", "postgres"] {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("migrations")
            .join(tree);
        let sql: String = std::fs::read_dir(&dir)
            .unwrap()
            .map(|f| std::fs::read_to_string(f.unwrap().path()).unwrap())
            .collect();
        for name in kupa_app::error::constraint::ALL {
            let named = sql
                .match_indices(&format!("CONSTRAINT {name}"))
                .any(|(i, m)| {
                    sql[i + m.len()..]
                        .chars()
                        .next()
                        .is_some_and(char::is_whitespace)
                });
            assert!(named, "{name} is not a named constraint of the {tree} tree");
        }
    }
}
