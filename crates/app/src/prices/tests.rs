use jiff::civil::Date;
use kupa_domain::money::Money;

use super::*;
use crate::model::PresentationId;

fn day(s: &str) -> Date {
    s.parse().unwrap()
}

fn ticket(id: i64, price: i64) -> Ticket {
    Ticket {
        id,
        ticket_group_id: 1,
        price: Money(price),
        ..Ticket::default()
    }
}

fn change(id: i64, business_id: i64, ticket_id: i64, from: &str, price: i64) -> TicketPriceChange {
    TicketPriceChange {
        id,
        business_id,
        ticket_id,
        effective_from: day(from),
        price: Money(price),
        created_at_ms: 0,
        staff_user_id: 1,
    }
}

/// A screening of business 1 starting at 20:00 local time on `date`.
fn screening_on(date: &str) -> Presentation {
    let starts = day(date)
        .to_datetime(jiff::civil::time(20, 0, 0, 0))
        .to_zoned(kupa_domain::time::zone())
        .unwrap()
        .timestamp()
        .as_millisecond();
    Presentation {
        id: PresentationId(7),
        business_id: 1,
        starts_at_ms: starts,
        ..Presentation::default()
    }
}

#[test]
fn a_price_holds_from_its_day_on_and_the_latest_change_wins() {
    let changes = PriceChanges {
        tickets: vec![
            change(1, 1, 101, "2026-12-10", 4500),
            change(2, 1, 101, "2026-12-20", 4800),
            // Another business's, another ticket's: not this one's.
            change(3, 2, 101, "2026-12-01", 9900),
            change(4, 1, 102, "2026-12-01", 100),
        ],
        service_charges: vec![],
    };
    let t = ticket(101, 4200);
    assert_eq!(changes.ticket_price(1, &t, day("2026-12-09")), Money(4200));
    assert_eq!(changes.ticket_price(1, &t, day("2026-12-10")), Money(4500));
    assert_eq!(changes.ticket_price(1, &t, day("2026-12-19")), Money(4500));
    assert_eq!(changes.ticket_price(1, &t, day("2027-01-05")), Money(4800));
    assert_eq!(changes.ticket_price(3, &t, day("2027-01-05")), Money(4200));
}

#[test]
fn a_late_screening_is_priced_by_its_local_day_not_by_utc() {
    // 00:30 on the 10th in Jerusalem is still the 9th in UTC.
    let starts = day("2026-12-10")
        .to_datetime(jiff::civil::time(0, 30, 0, 0))
        .to_zoned(kupa_domain::time::zone())
        .unwrap()
        .timestamp();
    assert_eq!(starts.to_string()[..10].to_owned(), "2026-12-09");
    let p = Presentation {
        business_id: 1,
        starts_at_ms: starts.as_millisecond(),
        ..Presentation::default()
    };
    let changes = PriceChanges {
        tickets: vec![change(1, 1, 101, "2026-12-10", 4500)],
        service_charges: vec![],
    };
    let group = TicketGroup {
        id: 1,
        ..TicketGroup::default()
    };
    let priced = changes.priced(&p, vec![(group, vec![ticket(101, 4200)])]);
    assert_eq!(priced[0].1[0].price, Money(4500));
}

#[test]
fn the_service_charge_in_force_keeps_the_catalogues_name() {
    let base = ServiceCharge {
        id: 1,
        business_id: 1,
        name: "דמי טיפול".into(),
        name_en: "Handling".into(),
        amount: Some(Money(500)),
        percent_bp: None,
        per_ticket: true,
    };
    let changes = PriceChanges {
        tickets: vec![],
        service_charges: vec![ServiceChargeChange {
            id: 9,
            business_id: 1,
            effective_from: day("2026-12-10"),
            amount: None,
            percent_bp: Some(1000),
            per_ticket: false,
            created_at_ms: 0,
            staff_user_id: 1,
        }],
    };
    let p = screening_on("2026-12-09");
    assert_eq!(
        changes.service_charge(1, Some(base.clone()), screening_day(&p)),
        Some(base.clone())
    );
    let later = changes
        .service_charge(
            1,
            Some(base.clone()),
            screening_day(&screening_on("2026-12-10")),
        )
        .unwrap();
    assert_eq!(
        (
            later.name_en.as_str(),
            later.amount,
            later.percent_bp,
            later.per_ticket
        ),
        ("Handling", None, Some(1000), false)
    );
    // A business with none in the catalogue gets the scheduled one under the default name.
    let none = changes.service_charge(1, None, day("2026-12-11")).unwrap();
    assert_eq!(none.name, "דמי טיפול");
    assert_eq!(changes.service_charge(2, None, day("2026-12-11")), None);
}

#[test]
fn a_screenings_own_group_replaces_its_halls_main_group_only() {
    let section = |id: i64, sort: i64, group: i64| Section {
        id,
        sort,
        ticket_group_id: group,
        ..Section::default()
    };
    // The main group is the first section's in display order (sort, then id).
    let sections = vec![
        section(14, 4, 9),
        section(12, 2, 1),
        section(11, 1, 1),
        section(13, 3, 2),
    ];
    assert_eq!(main_ticket_group(&sections), Some(1));
    let mut p = screening_on("2026-12-09");
    assert_eq!(with_screening_group(&p, sections.clone()), sections);
    p.ticket_group_id = Some(5);
    let groups: Vec<(i64, i64)> = with_screening_group(&p, sections)
        .iter()
        .map(|s| (s.id, s.ticket_group_id))
        .collect();
    assert_eq!(groups, [(14, 9), (12, 5), (11, 5), (13, 2)]);
}
