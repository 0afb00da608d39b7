//! The demo chain (demo/chain.json) keeps the promises the demo is used for: every kind of hall,
//! a full programme around the seeding day, every ticket type, valid customers and members in
//! every state. Expanded as if seeded on 2026-11-22.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use jiff::ToSpan;
use jiff::civil::{Date, date};
use kupa_app::catalogue_file::{expand, parse, parse_local};
use kupa_app::model::{CatalogueData, Presentation, Seat, Ticket};
use kupa_app::site_config::SiteConfig;
use kupa_domain::catalogue::{SeatingMode, SectionKind, is_vod_venue_type};
use kupa_domain::ids::IsraeliId;
use kupa_domain::money::Money;
use kupa_domain::time::{local_date, ms_to_timestamp};

const CHAIN: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../demo/chain.json"
));

fn today() -> Date {
    date(2026, 11, 22)
}

static DATA: LazyLock<CatalogueData> = LazyLock::new(|| {
    let file = parse(CHAIN).expect("demo/chain.json parses");
    expand(file, today()).expect("demo/chain.json expands")
});

fn data() -> &'static CatalogueData {
    &DATA
}

fn local_day(ms: i64) -> Date {
    local_date(ms_to_timestamp(ms))
}

fn at(s: &str) -> i64 {
    parse_local(s, today()).unwrap()
}

fn seats_of(seatplan_id: i64) -> Vec<&'static Seat> {
    data()
        .seats
        .iter()
        .filter(|s| s.seatplan_id == seatplan_id)
        .collect()
}

fn venue_of_plan(seatplan_id: i64) -> i64 {
    data()
        .seatplans
        .iter()
        .find(|p| p.id == seatplan_id)
        .unwrap()
        .venue_id
}

fn seating_mode(seatplan_id: i64) -> SeatingMode {
    let sections = data()
        .sections
        .iter()
        .filter(|s| s.seatplan_id == seatplan_id);
    let (reserved, ga) = sections.fold((0, 0), |(r, g), s| match s.kind {
        SectionKind::Reserved => (r + 1, g),
        SectionKind::Ga => (r, g + 1),
    });
    SeatingMode::from_sections(reserved, ga)
}

fn physical_venues() -> Vec<i64> {
    data()
        .venues
        .iter()
        .filter(|v| !is_vod_venue_type(v.venue_type_id))
        .map(|v| v.id)
        .collect()
}

fn ticket(pred: impl Fn(&Ticket) -> bool) -> Option<&'static Ticket> {
    data().tickets.iter().find(|t| pred(t))
}

#[test]
fn location_one_is_not_a_cinema_and_there_are_at_least_three_cinemas() {
    let d = data();
    let one = d.locations.iter().find(|l| l.id == 1).expect("location 1");
    assert!(!one.is_cinema);
    let cinemas: Vec<_> = d.locations.iter().filter(|l| l.is_cinema).collect();
    assert!(cinemas.len() >= 3, "{} cinemas", cinemas.len());
    for c in cinemas {
        for text in [
            &c.name,
            &c.name_en,
            &c.address,
            &c.address_en,
            &c.city,
            &c.city_en,
            &c.phone,
            &c.parking,
            &c.parking_en,
            &c.accessibility,
            &c.accessibility_en,
        ] {
            assert!(!text.is_empty(), "cinema {} lacks a text", c.id);
        }
    }
}

#[test]
fn one_complex_belongs_to_a_second_business_with_its_own_service_charge() {
    let d = data();
    assert!(
        d.locations
            .iter()
            .any(|l| l.is_cinema && l.business_id == 2)
    );
    let fee = |b: i64| d.service_charges.iter().find(|s| s.business_id == b);
    let one = fee(1).expect("business 1 service charge");
    assert_eq!(
        (
            one.name.as_str(),
            one.amount,
            one.percent_bp,
            one.per_ticket
        ),
        ("דמי טיפול", Some(Money(500)), None, true)
    );
    let two = fee(2).expect("business 2 service charge");
    assert_eq!(
        (two.amount, two.percent_bp, two.per_ticket),
        (None, Some(1000), false)
    );
}

#[test]
fn at_least_eight_venues_including_a_hall_of_over_four_hundred_seats_in_several_sections() {
    let d = data();
    assert!(d.venues.len() >= 8, "{} venues", d.venues.len());
    let big = d
        .seatplans
        .iter()
        .find(|p| seats_of(p.id).len() >= 400)
        .expect("a hall of 400+ seats");
    let sections: BTreeSet<i64> = seats_of(big.id).iter().map(|s| s.section_id).collect();
    assert!(sections.len() >= 3, "sections {sections:?}");
    assert!(seats_of(big.id).iter().any(|s| s.handicap));
}

#[test]
fn a_premium_hall_sells_its_seats_as_sofa_pairs() {
    let plan = data()
        .seatplans
        .iter()
        .find(|p| {
            let seats = seats_of(p.id);
            !seats.is_empty() && seats.iter().all(|s| s.premium && s.sofa_id.is_some())
        })
        .expect("a hall of premium sofas");
    let mut per_sofa: BTreeMap<i64, Vec<&Seat>> = BTreeMap::new();
    for s in seats_of(plan.id) {
        per_sofa.entry(s.sofa_id.unwrap()).or_default().push(s);
    }
    for (sofa, seats) in per_sofa {
        assert_eq!(seats.len(), 2, "sofa {sofa}");
        assert_eq!(seats[0].y, seats[1].y);
        assert_eq!((seats[0].x - seats[1].x).abs(), 1, "sofa {sofa} is split");
    }
}

#[test]
fn a_hall_has_wheelchair_companion_and_limited_view_seats() {
    assert!(data().seatplans.iter().any(|p| {
        let seats = seats_of(p.id);
        seats.iter().any(|s| s.handicap)
            && seats.iter().any(|s| s.companion)
            && seats.iter().any(|s| s.limited_view)
    }));
}

#[test]
fn every_wheelchair_place_has_a_companion_seat_beside_it() {
    for w in data().seats.iter().filter(|s| s.handicap) {
        assert!(
            data().seats.iter().any(|c| c.companion
                && c.seatplan_id == w.seatplan_id
                && c.y == w.y
                && (c.x - w.x).abs() == 1),
            "wheelchair place {}/{} of plan {}",
            w.row_name,
            w.seat_name,
            w.seatplan_id
        );
    }
}

#[test]
fn single_ga_mixed_and_multi_ga_venues_exist() {
    let d = data();
    let physical = physical_venues();
    let modes: Vec<(i64, SeatingMode)> = d
        .seatplans
        .iter()
        .filter(|p| physical.contains(&p.venue_id))
        .map(|p| (p.id, seating_mode(p.id)))
        .collect();
    for wanted in [
        SeatingMode::Reserved,
        SeatingMode::SingleGa,
        SeatingMode::Mixed,
        SeatingMode::MultiGa,
    ] {
        assert!(
            modes.iter().any(|(_, m)| *m == wanted),
            "no {wanted:?} venue"
        );
    }
    let (multi, _) = modes
        .iter()
        .find(|(_, m)| *m == SeatingMode::MultiGa)
        .unwrap();
    let groups: BTreeSet<i64> = d
        .sections
        .iter()
        .filter(|s| s.seatplan_id == *multi)
        .map(|s| s.ticket_group_id)
        .collect();
    assert_eq!(groups.len(), 3, "multi-GA sections sell different tickets");
}

#[test]
fn video_on_demand_venues_of_types_101_and_102_belong_to_location_one() {
    let d = data();
    for ty in [101, 102] {
        let v = d
            .venues
            .iter()
            .find(|v| v.venue_type_id == ty)
            .unwrap_or_else(|| panic!("no venue of type {ty}"));
        assert_eq!(v.location_id, 1);
        let plan = d.seatplans.iter().find(|p| p.venue_id == v.id).unwrap();
        assert_eq!(seating_mode(plan.id), SeatingMode::SingleGa);
        let vod: Vec<&Presentation> = d
            .presentations
            .iter()
            .filter(|p| p.venue_id == v.id)
            .collect();
        assert!(!vod.is_empty());
        assert!(vod.iter().all(|p| p.available_until_ms.is_some()));
    }
}

#[test]
fn every_section_sells_at_least_one_ticket() {
    let d = data();
    // The big hall's press seats (ticket group 9) are sold at the box office only: online they
    // answer no_price_policy. Every other section sells online.
    assert!(d.sections.iter().any(|s| s.ticket_group_id == 9));
    assert!(!d.tickets.iter().any(|t| t.ticket_group_id == 9));
    for s in d.sections.iter().filter(|s| s.ticket_group_id != 9) {
        assert!(
            d.tickets
                .iter()
                .any(|t| t.ticket_group_id == s.ticket_group_id),
            "section {}",
            s.id
        );
    }
}

#[test]
fn rows_are_centred_in_their_hall() {
    let d = data();
    for plan in &d.seatplans {
        let mut rows: BTreeMap<i64, (i64, i64)> = BTreeMap::new();
        for s in seats_of(plan.id) {
            let r = rows.entry(s.y).or_insert((i64::MAX, i64::MIN));
            *r = (r.0.min(s.x), r.1.max(s.x));
        }
        let right_edge = plan.width - 1;
        for (y, (min_x, max_x)) in rows {
            assert_eq!(
                min_x - 1,
                right_edge - max_x,
                "plan {} row at y={y} is off centre",
                plan.id
            );
        }
    }
}

#[test]
fn at_least_twelve_features_have_hebrew_and_english_names() {
    let d = data();
    assert!(d.features.len() >= 12);
    let colour = |c: &str| {
        c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit())
    };
    for f in &d.features {
        assert!(
            !f.name.is_empty() && !f.name_en.is_empty(),
            "feature {}",
            f.id
        );
        assert!(
            !f.synopsis.is_empty() && !f.synopsis_en.is_empty(),
            "feature {}",
            f.id
        );
        assert!(f.runtime > 0 && f.release_date.parse::<Date>().is_ok());
        assert!(
            colour(&f.poster_from) && colour(&f.poster_to),
            "feature {}",
            f.id
        );
    }
}

#[test]
fn every_physical_venue_plays_every_local_day_from_two_weeks_before_to_two_weeks_after() {
    let d = data();
    for venue in physical_venues() {
        let days: BTreeSet<Date> = d
            .presentations
            .iter()
            .filter(|p| p.venue_id == venue)
            .map(|p| local_day(p.starts_at_ms))
            .collect();
        for offset in -14..=14 {
            let day = today().checked_add(offset.days()).unwrap();
            assert!(days.contains(&day), "venue {venue} has nothing on {day}");
        }
    }
}

#[test]
fn the_programme_has_between_700_and_1200_presentations_and_no_hall_shows_two_at_once() {
    let d = data();
    let n = d.presentations.len();
    assert!((700..=1200).contains(&n), "{n} presentations");
    let runtime: BTreeMap<i64, i64> = d.features.iter().map(|f| (f.id, f.runtime)).collect();
    let mut by_venue: BTreeMap<i64, Vec<&Presentation>> = BTreeMap::new();
    for p in d
        .presentations
        .iter()
        .filter(|p| p.available_until_ms.is_none())
    {
        by_venue.entry(p.venue_id).or_default().push(p);
    }
    for (venue, mut shows) in by_venue {
        shows.sort_by_key(|p| p.starts_at_ms);
        for w in shows.windows(2) {
            let ends = w[0].starts_at_ms + runtime[&w[0].feature_id] * 60_000;
            assert!(
                ends <= w[1].starts_at_ms,
                "venue {venue}: presentation {} overlaps {}",
                w[0].id,
                w[1].id
            );
        }
    }
}

#[test]
fn reserved_halls_use_the_single_seat_gap_rule() {
    let d = data();
    // A season's screenings are seated one member at a time, one seat each: the single-seat rule
    // would refuse most of those choices, so the season's hall takes any seat.
    let seasonal: Vec<i64> = d
        .seasons
        .iter()
        .flat_map(|s| s.presentation_ids())
        .map(|p| p.get())
        .collect();
    assert_eq!(seasonal, vec![901, 902, 903, 911, 912, 913]);
    for p in d
        .presentations
        .iter()
        .filter(|p| !seasonal.contains(&p.id.get()))
    {
        let reserved = d
            .sections
            .iter()
            .any(|s| s.seatplan_id == p.seatplan_id && s.kind == SectionKind::Reserved);
        assert_eq!(
            p.seating_policy_id,
            if reserved { 3 } else { 1 },
            "presentation {}",
            p.id
        );
    }
}

#[test]
fn a_premiere_in_ten_days_is_not_yet_on_sale() {
    let now = at("today 12:00");
    let premiere = data()
        .presentations
        .iter()
        .find(|p| p.sale_starts_at_ms > now)
        .expect("a presentation whose sale has not started");
    assert_eq!(premiere.starts_at_ms, at("today+10 20:30"));
    assert_eq!(premiere.sale_starts_at_ms, at("today+5 10:00"));
    assert!(seats_of(premiere.seatplan_id).len() >= 400);
    assert_eq!(venue_of_plan(premiere.seatplan_id), premiere.venue_id);
}

#[test]
fn a_presentation_tomorrow_has_another_auth_profile() {
    let p = data()
        .presentations
        .iter()
        .find(|p| p.auth_profile_id == 2)
        .expect("a presentation of auth profile 2");
    assert_eq!(local_day(p.starts_at_ms), today().tomorrow().unwrap());
    assert!(
        data()
            .presentations
            .iter()
            .filter(|p| p.auth_profile_id != 2)
            .all(|p| p.auth_profile_id == 1)
    );
}

#[test]
fn max_seats_per_transaction_is_ten_and_the_timers_and_params_are_set() {
    let c: SiteConfig = serde_json::from_value(data().site_config.clone()).unwrap();
    assert_eq!(c.max_seats_per_transaction, 10);
    assert_eq!(c.timer_mode.choose_seats_in_seconds, 600);
    assert_eq!(c.timer_mode.choose_products_in_seconds, 300);
    assert!(c.param_on("64") && c.param_on("66") && c.param_on("670"));
    assert!(c.params.contains_key("665"));
    assert_eq!(c.currencies[0].CurrencyCode, "ILS");
    assert!(c.terms.iter().any(|t| t.is_required));
    assert!(!c.confirmation.order_terms.is_empty() && !c.confirmation.order_terms_en.is_empty());
}

#[test]
fn every_ticket_type_of_the_demo_exists() {
    let regular = ticket(|t| t.name_en == "Regular").expect("regular");
    assert_eq!(regular.price, Money(4200));
    let child = ticket(|t| t.name_en.starts_with("Child")).expect("child");
    assert_eq!(
        (child.price, child.old_price),
        (Money(3400), Some(Money(4200)))
    );
    assert!(ticket(|t| t.name_en == "Student").is_some(), "student");
    assert!(ticket(|t| t.needs_senior_id).is_some(), "senior");
    assert!(ticket(|t| t.member_only).is_some(), "member-only");
    assert!(
        ticket(|t| t.member_only && t.loyalty_points_price.is_some()).is_some(),
        "member points"
    );
    let hotel = ticket(|t| !t.ref_prompt.is_empty()).expect("hotel guest");
    assert_eq!(
        (hotel.ref_prompt.as_str(), hotel.ref_prompt_en.as_str()),
        ("מספר חדר", "Room number")
    );
    let companion = ticket(|t| t.requires_ticket_id.is_some()).expect("companion");
    let wheelchair = ticket(|t| Some(t.id) == companion.requires_ticket_id).unwrap();
    assert_eq!(wheelchair.name_en, "Wheelchair");
    assert_eq!(wheelchair.ticket_group_id, companion.ticket_group_id);
    let couple = ticket(|t| t.multiply_factor == 2).expect("couple on a sofa");
    let premium_sections: Vec<_> = data()
        .sections
        .iter()
        .filter(|s| s.ticket_group_id == couple.ticket_group_id)
        .collect();
    assert!(
        premium_sections
            .iter()
            .any(|s| seats_of(s.seatplan_id).iter().any(|x| x.sofa_id.is_some())),
        "the couple ticket is sold in the sofa hall"
    );
    assert!(
        data()
            .tickets
            .iter()
            .all(|t| t.multiply_factor == 1 || t.id == couple.id)
    );
    let policies: BTreeSet<i64> = data().tickets.iter().map(|t| t.price_policy_id).collect();
    assert_eq!(
        policies.len(),
        data().tickets.len(),
        "price policies are distinct"
    );
    assert!(data().ticket_groups.iter().any(|g| g.is_by_code_enabled));
}

#[test]
fn every_customer_has_a_valid_israeli_id_and_a_local_mobile_number() {
    let d = data();
    assert!(d.customers.len() >= 6);
    for c in &d.customers {
        assert!(
            c.ssn.len() == 9 && IsraeliId::parse(&c.ssn).is_some(),
            "customer {} ssn {}",
            c.id,
            c.ssn
        );
        assert!(
            c.mobile.len() == 10
                && c.mobile.starts_with("05")
                && c.mobile.bytes().all(|b| b.is_ascii_digit()),
            "customer {} mobile {}",
            c.id,
            c.mobile
        );
        assert!(c.email.contains('@'));
    }
}

#[test]
fn active_expired_and_not_yet_started_members_exist() {
    let d = data();
    let span = |m: &kupa_app::model::Member| {
        (
            m.start_date.parse::<Date>().unwrap(),
            m.end_date.parse::<Date>().unwrap(),
        )
    };
    let t = today();
    assert!(d.members.iter().any(|m| {
        let (s, e) = span(m);
        s <= t && t <= e
    }));
    assert!(d.members.iter().any(|m| span(m).1 < t), "expired");
    assert!(d.members.iter().any(|m| span(m).0 > t), "not yet started");
    let mut per_customer: BTreeMap<i64, usize> = BTreeMap::new();
    for m in &d.members {
        *per_customer.entry(m.customer_id).or_default() += 1;
    }
    assert!(
        per_customer.values().any(|&n| n >= 2),
        "a customer with two"
    );
    let types: BTreeSet<i64> = d.memberships.iter().map(|m| m.type_id).collect();
    assert!(types.contains(&1) && types.contains(&2));
}

#[test]
fn ids_the_store_keeps_unique_are_unique() {
    let d = data();
    let numbers: BTreeSet<&str> = d.members.iter().map(|m| m.member_number.as_str()).collect();
    assert_eq!(numbers.len(), d.members.len(), "member numbers");
    let urls: BTreeSet<&str> = d.mini_sites.iter().map(|m| m.url.as_str()).collect();
    assert_eq!(urls.len(), d.mini_sites.len(), "mini-site urls");
    let keys: BTreeSet<&str> = d.integrations.iter().map(|i| i.key.as_str()).collect();
    assert_eq!(keys.len(), d.integrations.len(), "integration keys");
    let businesses: BTreeSet<i64> = d.service_charges.iter().map(|s| s.business_id).collect();
    assert_eq!(
        businesses.len(),
        d.service_charges.len(),
        "one service charge per business"
    );
    let mobiles: BTreeSet<&str> = d.customers.iter().map(|c| c.mobile.as_str()).collect();
    assert_eq!(mobiles.len(), d.customers.len(), "customer mobiles");
}

#[test]
fn popcorn_drinks_and_a_combo_are_on_sale() {
    let d = data();
    for category in ["popcorn", "drinks", "combo"] {
        assert!(
            d.products.iter().any(|p| p.category == category),
            "{category}"
        );
    }
    assert!(
        d.products
            .iter()
            .filter(|p| p.category == "popcorn")
            .count()
            >= 3
    );
    assert!(d.products.iter().any(|p| !p.location_ids.is_empty()));
    assert!(
        d.products
            .iter()
            .all(|p| !p.icon.is_empty() && !p.color.is_empty())
    );
}

#[test]
fn the_mini_sites_and_the_partner_integration_exist() {
    let d = data();
    let festival = d.mini_sites.iter().find(|m| m.url == "festival").unwrap();
    let location = festival
        .location_id
        .expect("the festival is at one complex");
    for f in &festival.feature_ids {
        assert!(
            d.presentations.iter().any(|p| p.feature_id == *f
                && d.venues
                    .iter()
                    .any(|v| v.id == p.venue_id && v.location_id == location)),
            "festival feature {f} plays at location {location}"
        );
    }
    assert!(d.mini_sites.iter().any(|m| m.url == "kids"));
    // Each with its own look (decision 0050).
    for m in &d.mini_sites {
        assert!(m.colors.is_some() && m.image_url.is_some() && !m.description_en.is_empty());
    }
    let partner = d
        .integrations
        .iter()
        .find(|i| i.key == "partner-demo")
        .unwrap();
    assert_eq!(partner.return_url_prefix, "https://partner.example/");
}

#[test]
fn expanding_twice_gives_identical_data() {
    let again = expand(parse(CHAIN).unwrap(), today()).unwrap();
    assert_eq!(&again, data());
}

#[test]
fn the_example_in_the_catalogue_docs_loads() {
    let doc = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/catalogue.md"
    ));
    let start = doc.find("```json\n").expect("a json example") + "```json\n".len();
    let end = start + doc[start..].find("```").unwrap();
    let d = expand(parse(&doc[start..end]).unwrap(), today()).unwrap();
    assert_eq!(d.seats.len(), 28);
    assert_eq!(d.sections[1].capacity, 40);
    let ids: Vec<i64> = d.presentations.iter().map(|p| p.id.get()).collect();
    assert_eq!(ids.len(), 8);
    assert!(ids.contains(&1) && (1000..=1006).all(|i| ids.contains(&i)));
    let kinds: Vec<SectionKind> = d.sections.iter().map(|s| s.kind).collect();
    assert_eq!(kinds, vec![SectionKind::Reserved, SectionKind::Ga]);
    assert_eq!(SeatingMode::from_sections(1, 1), SeatingMode::Mixed);
}

#[test]
fn the_ticket_codes_cover_every_case_the_demo_shows() {
    use kupa_app::tickets::code_rule;
    use kupa_domain::tickets::{CodeKind, TicketRuleError};
    let d = data();
    let t = today();
    let rule = |code: &str| {
        let c = d
            .ticket_codes
            .iter()
            .find(|c| c.code == code)
            .unwrap_or_else(|| panic!("code {code}"));
        code_rule(c).unwrap()
    };
    // The three voucher-by-code buttons of spec section 9, each redeemable today.
    for kind in [
        CodeKind::BankCard,
        CodeKind::CreditCardBenefit,
        CodeKind::DiscountCode,
    ] {
        let c = d
            .ticket_codes
            .iter()
            .find(|c| c.kind == kind)
            .unwrap_or_else(|| panic!("a {kind:?}"));
        assert_eq!(
            code_rule(c).unwrap().check_redeemable(t),
            Ok(()),
            "{}",
            c.code
        );
    }
    let card = rule("CARD4580");
    assert!(card.card_accepted("4580 0000 0000 0000") && !card.card_accepted("5326000000000000"));
    assert_eq!(rule("DUO2").min_tickets, 2);
    assert_eq!(rule("DUO2").kind, CodeKind::Coupon);
    assert_eq!(rule("GIFT-2026").check_redeemable(t), Ok(()));
    assert_eq!(
        rule("GIFT-EXPIRED").check_redeemable(t),
        Err(TicketRuleError::VoucherExpired)
    );
    assert_eq!(
        rule("GIFT-USED").check_redeemable(t),
        Err(TicketRuleError::CodeUsageLimitExceeded)
    );
    assert_eq!(
        rule("VALUE-5000").balance,
        Some(kupa_domain::money::Money(5000))
    );
    assert_eq!(rule("VALUE-5000").check_redeemable(t), Ok(()));
    assert_eq!(
        rule("VALUE-EMPTY").check_redeemable(t),
        Err(TicketRuleError::VoucherBalance)
    );

    let sold_groups: BTreeSet<i64> = d.sections.iter().map(|s| s.ticket_group_id).collect();
    for c in &d.ticket_codes {
        let ticket = ticket(|x| x.id == c.ticket_id).unwrap();
        assert!(
            ticket.by_code_only,
            "code {}'s ticket is sold only by code",
            c.code
        );
        assert!(sold_groups.contains(&ticket.ticket_group_id));
        assert!(
            !c.label.is_empty() && !c.label_en.is_empty(),
            "{} has labels",
            c.code
        );
    }
    let docs = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../docs/catalogue.md"
    ));
    for c in &d.ticket_codes {
        assert!(
            docs.contains(&format!("`{}`", c.code)),
            "docs/catalogue.md lists {}",
            c.code
        );
    }
}

#[test]
fn the_hotel_guest_ticket_has_rooms_and_a_used_up_series_pass_exists() {
    let d = data();
    let hotel = ticket(|t| !t.ref_prompt.is_empty()).unwrap();
    let rooms: Vec<_> = d
        .ref_prompt_options
        .iter()
        .filter(|o| o.ticket_id == hotel.id)
        .collect();
    assert!(rooms.len() >= 3);
    assert!(
        rooms.iter().any(|o| o.quantity == 0),
        "a room with no tickets left"
    );
    let used_up = d.members.iter().find(|m| {
        let series = d
            .memberships
            .iter()
            .any(|ms| ms.id == m.membership_id && ms.type_id == 2);
        series && m.balance == Money::ZERO && m.points_balance == 0
    });
    assert!(used_up.is_some(), "a series pass with nothing left");
    assert!(
        d.memberships
            .iter()
            .any(|m| m.max_discounted_tickets.is_some())
    );
}

/// The loader refuses a mini-site whose url is not one path word, whose banner is not on the site
/// (the content security policy loads no other), or whose colours cannot be read together
/// (decision 0050).
#[test]
fn a_mini_site_that_cannot_be_read_is_refused() {
    let chain: serde_json::Value = serde_json::from_str(CHAIN).unwrap();
    // The festival with one field (a JSON pointer in it) set to `value`.
    let load = |field: &str, value: &str| {
        let mut v = chain.clone();
        if let Some(slot) = v.pointer_mut(&format!("/miniSites/0{field}")) {
            *slot = serde_json::from_str(value).unwrap();
        }
        expand(parse(&v.to_string()).map_err(|e| e.0)?, today())
            .map(|_| ())
            .map_err(|e| e.0)
    };
    assert_eq!(load("/url", r#""festival""#), Ok(()));
    for (field, value, expected) in [
        ("/url", r#""Festival 2026""#, "url must be"),
        ("/url", r#""-festival""#, "url must be"),
        ("/imageUrl", r#""http://cdn.example/a.png""#, "imageUrl"),
        ("/imageUrl", r#""//cdn.example/a.png""#, "imageUrl"),
        ("/imageUrl", r#""https://cdn.example/a.png""#, "imageUrl"),
        ("/colors/text", r##""#777""##, "colors.text must be #rrggbb"),
        ("/colors/text", r##""#a0a0a0""##, "text on background"),
        ("/colors/primary", r##""#e8a0b0""##, "white on primary"),
        ("/locationId", "99", "location"),
    ] {
        let e = load(field, value).expect_err(expected);
        assert!(e.contains(expected), "{field} = {value}: {e}");
    }
}
