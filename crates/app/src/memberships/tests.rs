use jiff::civil::date;

use super::*;

fn club() -> Membership {
    Membership {
        id: 1,
        type_id: 1,
        name: "כרטיס מועדון".into(),
        name_en: "Club card".into(),
        code: "CLUB".into(),
        price: Money(9900),
        ..Membership::default()
    }
}

fn pass() -> Membership {
    Membership {
        id: 2,
        type_id: 2,
        name: "כרטיסייה".into(),
        name_en: "Pass".into(),
        code: "PASS".into(),
        price: Money(33000),
        top_up: true,
        prices: vec![
            MembershipPrice {
                id: 21,
                price_code: "P10".into(),
                price: Money(33000),
                value: Some(Money(35000)),
                ..MembershipPrice::default()
            },
            MembershipPrice {
                id: 22,
                price_code: "P5".into(),
                price: Money(17500),
                ..MembershipPrice::default()
            },
        ],
        ..Membership::default()
    }
}

fn student() -> Membership {
    Membership {
        id: 3,
        type_id: 3,
        price: Money(4900),
        prices: vec![MembershipPrice {
            id: 31,
            price: Money(4900),
            reference1: Some(ReferencePrompt {
                label: "מספר תעודת סטודנט".into(),
                label_en: "Student card number".into(),
                pattern: Some("^[0-9]{5,10}$".into()),
            }),
            ..MembershipPrice::default()
        }],
        ..Membership::default()
    }
}

fn catalogue() -> Vec<Membership> {
    vec![club(), pass(), student()]
}

fn new(membership_id: i64, price_id: i64, quantity: i64) -> MembershipChoice {
    MembershipChoice {
        membership_id,
        prices: vec![PriceChoice {
            price_id: Some(price_id),
            quantity,
            ..PriceChoice::default()
        }],
        top_ups: Vec::new(),
    }
}

fn my_pass(end: &str) -> (Member, Membership) {
    (
        Member {
            id: 9,
            member_number: "20000001".into(),
            membership_id: 2,
            customer_id: 1,
            balance: Money(1000),
            start_date: "2026-01-01".into(),
            end_date: end.into(),
            ..Member::default()
        },
        pass(),
    )
}

fn code_of(e: AppError) -> ErrorCode {
    match e {
        AppError::Rejected { code, .. } => code,
        other => panic!("not a refusal: {other:?}"),
    }
}

const TODAY: Date = date(2026, 11, 26);

#[test]
fn a_membership_without_prices_is_sold_at_its_one_implicit_price() {
    let p = prices_of(&club());
    assert_eq!(p.len(), 1);
    assert_eq!(
        (p[0].id, p[0].price, value_of(&p[0])),
        (100, Money(9900), Money(9900))
    );
    let lines = membership_lines(&catalogue(), &[new(1, 100, 1)], &[], TODAY).unwrap();
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0].valid_from.as_deref(), Some("2026-11-26"));
    assert_eq!(lines[0].valid_to.as_deref(), Some("2027-11-25"));
    assert_eq!(lines[0].member_number.as_ref().unwrap().len(), 8);
    assert_eq!(
        lines[0].balance(),
        Money::ZERO,
        "only a series carries a balance"
    );
}

#[test]
fn a_series_price_gives_its_value_as_balance() {
    let lines = membership_lines(&catalogue(), &[new(2, 21, 1)], &[], TODAY).unwrap();
    assert_eq!(
        (lines[0].price, lines[0].balance()),
        (Money(33000), Money(35000))
    );
}

#[test]
fn more_than_one_new_member_of_a_membership_is_refused() {
    let e = membership_lines(&catalogue(), &[new(1, 100, 2)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
}

#[test]
fn a_membership_named_twice_in_a_cart_is_counted_once() {
    let e =
        membership_lines(&catalogue(), &[new(1, 100, 1), new(1, 100, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
    let mine = [my_pass("2027-01-01")];
    let e = membership_lines(
        &catalogue(),
        &[top_up(2, "20000001", 6), top_up(2, "20000001", 5)],
        &mine,
        TODAY,
    )
    .unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
}

#[test]
fn nothing_chosen_unknown_or_foreign_prices_are_refused_by_their_codes() {
    let e = membership_lines(&catalogue(), &[new(1, 100, 0)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::MustSelectMemberships);
    let e = membership_lines(&catalogue(), &[new(7, 100, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::NotFound);
    let e = membership_lines(&catalogue(), &[new(1, 21, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::PriceNotFound);
    let mut no_price = new(1, 100, 1);
    no_price.prices[0].price_id = None;
    let e = membership_lines(&catalogue(), &[no_price], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::GetPrice);
    let off: Vec<Membership> = catalogue()
        .into_iter()
        .map(|m| Membership {
            on_sale: false,
            ..m
        })
        .collect();
    let e = membership_lines(&off, &[new(1, 100, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::NoMemberships);
}

#[test]
fn a_reference_must_be_given_and_match_its_pattern() {
    let e = membership_lines(&catalogue(), &[new(3, 31, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::ValidateReferences);
    let mut wrong = new(3, 31, 1);
    wrong.prices[0].reference1 = Some("12a45".into());
    let e = membership_lines(&catalogue(), &[wrong.clone()], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::ValidateReferences);
    wrong.prices[0].reference1 = Some(" 1234567 ".into());
    let lines = membership_lines(&catalogue(), &[wrong], &[], TODAY).unwrap();
    assert_eq!(lines[0].reference1.as_deref(), Some("1234567"));
}

#[test]
fn mixed_currencies_are_refused() {
    let mut cat = catalogue();
    cat[0].prices = vec![MembershipPrice {
        id: 11,
        price: Money(2000),
        currency: Some("EUR".into()),
        ..MembershipPrice::default()
    }];
    let e = membership_lines(&cat, &[new(1, 11, 1), new(2, 22, 1)], &[], TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
}

fn top_up(membership_id: i64, number: &str, quantity: i64) -> MembershipChoice {
    MembershipChoice {
        membership_id,
        prices: Vec::new(),
        top_ups: vec![TopUpChoice {
            member_number: number.into(),
            price_id: Some(if membership_id == 2 { 22 } else { 100 }),
            quantity,
        }],
    }
}

#[test]
fn a_top_up_is_of_the_buyers_own_unexpired_member_of_a_membership_that_allows_it() {
    let mine = [my_pass("2027-01-01")];
    let lines = membership_lines(&catalogue(), &[top_up(2, "20000001", 2)], &mine, TODAY).unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1].top_up_member_number.as_deref(), Some("20000001"));
    assert!(lines[1].member_number.is_none() && lines[1].valid_from.is_none());
    let e = membership_lines(&catalogue(), &[top_up(2, "99999999", 1)], &mine, TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::MemberNotFound);
    let old = [my_pass("2026-11-25")];
    let e = membership_lines(&catalogue(), &[top_up(2, "20000001", 1)], &old, TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::MemberExpired);
    let e = membership_lines(&catalogue(), &[top_up(1, "20000001", 1)], &mine, TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
    let e = membership_lines(&catalogue(), &[top_up(2, "20000001", 11)], &mine, TODAY).unwrap_err();
    assert_eq!(code_of(e), ErrorCode::FormValidation);
}

#[test]
fn a_membership_lasts_its_months_less_a_day() {
    let (from, to) = member_days(date(2026, 1, 31), 1).unwrap();
    assert_eq!(
        (from.to_string(), to.to_string()),
        ("2026-01-31".into(), "2026-02-27".into())
    );
    let (_, to) = member_days(date(2026, 3, 1), 12).unwrap();
    assert_eq!(to, date(2027, 2, 28));
}
