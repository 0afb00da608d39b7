use super::*;
use crate::seating::SeatingViolation;
use jiff::civil::date;

const TODAY: Date = date(2026, 11, 22);
const GROUP: i64 = 1;
const REGULAR: i64 = 101;
const SENIOR: i64 = 104;
const MEMBER: i64 = 105;
const POINTS: i64 = 106;
const HOTEL: i64 = 107;
const WHEELCHAIR: i64 = 108;
const COMPANION: i64 = 109;
const COUPLE: i64 = 202;
const CODE_TICKET: i64 = 112;
const FAMILY: i64 = 120;

fn ticket(id: i64, price: i64) -> TicketType {
    TicketType {
        id,
        ticket_group_id: GROUP,
        price: Money(price),
        service_charge: Money(500),
        max_quantity: 10,
        multiply_factor: 1,
        ..TicketType::default()
    }
}

fn tickets() -> Vec<TicketType> {
    vec![
        ticket(REGULAR, 4200),
        TicketType {
            needs_senior_id: true,
            ..ticket(SENIOR, 2900)
        },
        TicketType {
            member_only: true,
            service_charge: Money::ZERO,
            ..ticket(MEMBER, 3200)
        },
        TicketType {
            member_only: true,
            loyalty_points_price: Some(320),
            service_charge: Money::ZERO,
            ..ticket(POINTS, 3200)
        },
        TicketType {
            has_ref_prompt: true,
            ..ticket(HOTEL, 3800)
        },
        TicketType {
            max_quantity: 2,
            seat_kind: Some(SeatKind::Wheelchair),
            ..ticket(WHEELCHAIR, 3400)
        },
        TicketType {
            requires_ticket_id: Some(WHEELCHAIR),
            price: Money::ZERO,
            service_charge: Money::ZERO,
            seat_kind: Some(SeatKind::Companion),
            ..ticket(COMPANION, 0)
        },
        TicketType {
            ticket_group_id: 2,
            multiply_factor: 2,
            service_charge: Money(1000),
            ..ticket(COUPLE, 12000)
        },
        TicketType {
            by_code_only: true,
            ..ticket(CODE_TICKET, 3500)
        },
        TicketType {
            min_quantity: 3,
            ..ticket(FAMILY, 3000)
        },
    ]
}

fn code(text: &str, kind: CodeKind) -> TicketCodeRule {
    TicketCodeRule {
        code: normalise_code(text),
        kind,
        ticket_id: CODE_TICKET,
        valid_from: Some(date(2026, 11, 1)),
        valid_to: Some(date(2026, 12, 31)),
        ..TicketCodeRule::default()
    }
}

fn codes() -> Vec<TicketCodeRule> {
    vec![
        code("KUPA10", CodeKind::DiscountCode),
        TicketCodeRule {
            min_tickets: 2,
            ..code("DUO", CodeKind::Coupon)
        },
        TicketCodeRule {
            min_tickets: 4,
            ..code("FOURSOME", CodeKind::Coupon)
        },
        TicketCodeRule {
            usage_limit: Some(1),
            ..code("GIFT-ONE", CodeKind::Voucher)
        },
        TicketCodeRule {
            usage_limit: Some(3),
            used_count: 3,
            ..code("GIFT-USED", CodeKind::Voucher)
        },
        TicketCodeRule {
            valid_to: Some(date(2026, 11, 1)),
            ..code("GIFT-OLD", CodeKind::Voucher)
        },
        TicketCodeRule {
            balance: Some(Money(0)),
            ..code("GIFT-EMPTY", CodeKind::Voucher)
        },
        TicketCodeRule {
            valid_from: Some(date(2026, 12, 1)),
            ..code("LATER", CodeKind::DiscountCode)
        },
        TicketCodeRule {
            card_prefix: "4580".into(),
            ..code("VISA4580", CodeKind::CreditCardBenefit)
        },
    ]
}

fn ref_options() -> Vec<RefOption> {
    vec![
        RefOption {
            ticket_id: HOTEL,
            reference: "101".into(),
            reference2: String::new(),
            quantity: 2,
        },
        RefOption {
            ticket_id: HOTEL,
            reference: "Suite A".into(),
            reference2: String::new(),
            quantity: 0,
        },
    ]
}

fn member(number: &str, type_id: i64, points: i64) -> MemberInfo {
    MemberInfo {
        member_number: number.into(),
        membership_type_id: type_id,
        balance: Money::ZERO,
        points_balance: points,
        start_date: date(2026, 1, 1),
        end_date: date(2026, 12, 31),
        max_discounted_tickets: Some(4),
    }
}

fn members() -> Vec<MemberInfo> {
    vec![
        member("100001", 1, 1250),
        member("100009", 1, 300),
        MemberInfo {
            end_date: date(2026, 10, 1),
            ..member("100002", 1, 480)
        },
        MemberInfo {
            start_date: date(2026, 12, 2),
            ..member("300001", 3, 0)
        },
        member("200003", SERIES_MEMBERSHIP_TYPE, 0),
    ]
}

/// Seat `n` of a row, with the ticket; a wheelchair or companion ticket is on a seat of its
/// kind (see `on_ordinary_seat`).
fn line(n: i64, ticket_id: i64) -> OrderLine {
    let seat_kinds = match ticket_id {
        WHEELCHAIR => vec![SeatKind::Wheelchair],
        COMPANION => vec![SeatKind::Companion],
        _ => Vec::new(),
    };
    OrderLine {
        seat: SeatAddress {
            section_id: 11,
            x: n,
            y: 5,
        },
        ticket_group_id: GROUP,
        ticket_id,
        seat_kinds,
        ..OrderLine::default()
    }
}

fn on_ordinary_seat(l: OrderLine) -> OrderLine {
    OrderLine {
        seat_kinds: Vec::new(),
        ..l
    }
}

fn with_code(n: i64, code: &str) -> OrderLine {
    OrderLine {
        code: Some(code.into()),
        ..line(n, CODE_TICKET)
    }
}

struct Fixture {
    tickets: Vec<TicketType>,
    codes: Vec<TicketCodeRule>,
    refs: Vec<RefOption>,
    members: Vec<MemberInfo>,
}

impl Fixture {
    fn new() -> Fixture {
        Fixture {
            tickets: tickets(),
            codes: codes(),
            refs: ref_options(),
            members: members(),
        }
    }

    fn check_as(
        &self,
        lines: &[OrderLine],
        member: Option<&str>,
        entered: &[&str],
    ) -> Result<Vec<PricedLine>, TicketRuleError> {
        let entered: Vec<String> = entered.iter().map(|s| s.to_string()).collect();
        check_order(
            lines,
            &TicketCatalogue {
                tickets: &self.tickets,
                codes: &self.codes,
                ref_options: &self.refs,
            },
            &Buyer {
                member_number: member,
                members: &self.members,
                entered_codes: &entered,
            },
            TODAY,
        )
    }

    fn check(&self, lines: &[OrderLine]) -> Result<Vec<PricedLine>, TicketRuleError> {
        self.check_as(lines, None, &[])
    }

    fn code(&self, text: &str) -> &TicketCodeRule {
        self.codes
            .iter()
            .find(|c| c.code == normalise_code(text))
            .unwrap()
    }
}

fn err(r: Result<Vec<PricedLine>, TicketRuleError>) -> TicketRuleError {
    r.expect_err("the order should be refused")
}

// --- pricing and plain tickets ---

#[test]
fn plain_tickets_are_priced_with_their_own_service_charge() {
    let f = Fixture::new();
    let priced = f.check(&[line(1, REGULAR), line(2, REGULAR)]).unwrap();
    assert_eq!(priced.len(), 2);
    assert_eq!(priced[0].price, Money(4200));
    assert_eq!(priced[0].service_charge, Money(500));
    assert!(!priced[0].is_sub_ticket && priced[0].code.is_none());
}

#[test]
fn a_ticket_not_of_the_seats_group_is_not_found() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[line(1, COUPLE)])),
        TicketRuleError::TicketNotFound { ticket_id: COUPLE }
    );
    assert_eq!(err(f.check(&[line(1, 999)])).code(), "ticketNotFound");
}

#[test]
fn a_code_only_ticket_without_its_code_is_not_found() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[line(1, CODE_TICKET)])).code(),
        "ticketNotFound"
    );
}

// --- minimum, maximum, companion ---

#[test]
fn more_tickets_of_a_type_than_its_maximum_are_refused() {
    let f = Fixture::new();
    let lines: Vec<_> = (1..=3).map(|n| line(n, WHEELCHAIR)).collect();
    let e = err(f.check(&lines));
    assert_eq!(
        e,
        TicketRuleError::TicketMaxExceeded {
            ticket_id: WHEELCHAIR,
            max: 2
        }
    );
    assert_eq!(e.code(), "ticketMaxQuantity");
    assert_eq!(e.params(), vec![("ticketId", WHEELCHAIR), ("max", 2)]);
}

#[test]
fn fewer_tickets_of_a_type_than_its_minimum_are_refused_but_none_at_all_is_fine() {
    let f = Fixture::new();
    let e = err(f.check(&[line(1, FAMILY), line(2, FAMILY)]));
    assert_eq!(
        e,
        TicketRuleError::TicketMinNotReached {
            ticket_id: FAMILY,
            min: 3,
            missing: 1
        }
    );
    assert_eq!(e.code(), "ticketMinQuantity");
    assert!(
        f.check(&[line(1, FAMILY), line(2, FAMILY), line(3, FAMILY)])
            .is_ok()
    );
    assert!(f.check(&[line(1, REGULAR)]).is_ok());
}

#[test]
fn a_companion_ticket_needs_a_wheelchair_ticket_for_each_companion() {
    let f = Fixture::new();
    let e = err(f.check(&[line(1, COMPANION)]));
    assert_eq!(
        e,
        TicketRuleError::RequiredTicketMissing {
            ticket_id: COMPANION,
            required_ticket_id: WHEELCHAIR,
            missing: 1
        }
    );
    assert_eq!(e.code(), "requiredTicketMissing");
    assert!(f.check(&[line(1, WHEELCHAIR), line(2, COMPANION)]).is_ok());
    assert_eq!(
        err(f.check(&[line(1, WHEELCHAIR), line(2, COMPANION), line(3, COMPANION)])).code(),
        "requiredTicketMissing"
    );
}

// --- tickets tied to a kind of seat ---

#[test]
fn a_wheelchair_ticket_on_an_ordinary_seat_is_refused() {
    let f = Fixture::new();
    let e = err(f.check(&[on_ordinary_seat(line(1, WHEELCHAIR)), line(2, REGULAR)]));
    assert_eq!(
        e,
        TicketRuleError::TicketNotForSeat {
            ticket_id: WHEELCHAIR,
            seat_kind: SeatKind::Wheelchair
        }
    );
    assert_eq!(e.code(), "ticketSeatKind");
    assert_eq!(e.params(), vec![("ticketId", WHEELCHAIR)]);
}

#[test]
fn a_wheelchair_and_companion_pair_on_two_ordinary_seats_is_refused() {
    let f = Fixture::new();
    let e = err(f.check(&[
        on_ordinary_seat(line(1, WHEELCHAIR)),
        on_ordinary_seat(line(2, COMPANION)),
    ]));
    assert_eq!(e.code(), "ticketSeatKind");
    let e = err(f.check(&[line(1, WHEELCHAIR), on_ordinary_seat(line(2, COMPANION))]));
    assert_eq!(
        e,
        TicketRuleError::TicketNotForSeat {
            ticket_id: COMPANION,
            seat_kind: SeatKind::Companion
        }
    );
}

#[test]
fn a_wheelchair_ticket_with_a_companion_on_their_seats_is_priced() {
    let f = Fixture::new();
    let priced = f.check(&[line(1, WHEELCHAIR), line(2, COMPANION)]).unwrap();
    let prices: Vec<i64> = priced.iter().map(|p| p.price.minor()).collect();
    assert_eq!(prices, vec![3400, 0]);
}

#[test]
fn an_untied_ticket_fits_any_seat_even_a_wheelchair_place() {
    let f = Fixture::new();
    let regular_on_wheelchair_place = OrderLine {
        seat_kinds: vec![SeatKind::Wheelchair],
        ..line(1, REGULAR)
    };
    assert!(f.check(&[regular_on_wheelchair_place]).is_ok());
}

// --- multiply factor ---

fn sofa(n: i64) -> OrderLine {
    OrderLine {
        ticket_group_id: 2,
        ..line(n, COUPLE)
    }
}

#[test]
fn a_couple_ticket_covers_two_seats_and_the_second_is_a_free_sub_ticket() {
    let f = Fixture::new();
    let priced = f.check(&[sofa(1), sofa(2), sofa(3), sofa(4)]).unwrap();
    let subs: Vec<bool> = priced.iter().map(|p| p.is_sub_ticket).collect();
    assert_eq!(subs, vec![false, true, false, true]);
    assert_eq!(priced[1].covered_by, Some(0));
    assert_eq!(priced[3].covered_by, Some(2));
    assert_eq!(
        (priced[0].price, priced[0].service_charge),
        (Money(12000), Money(1000))
    );
    assert_eq!(
        (priced[1].price, priced[1].service_charge),
        (Money::ZERO, Money::ZERO)
    );
}

#[test]
fn a_couple_ticket_on_an_odd_number_of_seats_does_not_match_the_seat_count() {
    let f = Fixture::new();
    let e = err(f.check(&[sofa(1), sofa(2), sofa(3)]));
    assert_eq!(e.code(), "ticketCountMismatch");
    assert_eq!(
        e,
        TicketRuleError::Seating(SeatingViolation::TicketCountMismatch {
            seats: 3,
            tickets_cover: 4
        })
    );
}

#[test]
fn sub_tickets_are_counted_per_ticket_in_line_order() {
    let t = tickets();
    let lines = [sofa(1), line(2, REGULAR), sofa(3)];
    assert_eq!(sub_tickets(&lines, &t), vec![None, None, Some(0)]);
}

#[test]
fn a_ticket_is_auto_assigned_only_for_one_seat_no_reference_and_no_held_system_voucher() {
    let t = tickets();
    let by_id = |id: i64| t.iter().find(|x| x.id == id).unwrap();
    assert!(auto_assignable(by_id(REGULAR), false, false));
    assert!(
        !auto_assignable(by_id(COUPLE), false, false),
        "multiply factor 2"
    );
    assert!(
        !auto_assignable(by_id(HOTEL), false, false),
        "reference prompt"
    );
    assert!(
        !auto_assignable(by_id(REGULAR), true, true),
        "system voucher in a hold"
    );
    assert!(
        auto_assignable(by_id(REGULAR), true, false),
        "system voucher in a paid order"
    );
    assert!(auto_assignable(by_id(REGULAR), false, true));
}

// --- codes ---

#[test]
fn a_code_ticket_is_priced_and_its_code_matched_without_regard_to_case_or_spaces() {
    let f = Fixture::new();
    let priced = f.check(&[with_code(1, "  kupa10 ")]).unwrap();
    assert_eq!(priced[0].price, Money(3500));
    assert_eq!(priced[0].code.as_deref(), Some("kupa10"));
}

#[test]
fn an_unknown_code_is_not_found() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[with_code(1, "NOPE")])),
        TicketRuleError::CodeNotFound
    );
    assert_eq!(
        err(f.check(&[with_code(1, "LATER")])).code(),
        "codeNotFound",
        "not valid yet"
    );
}

#[test]
fn a_code_on_a_ticket_it_does_not_unlock_is_ticket_not_found() {
    let f = Fixture::new();
    let l = OrderLine {
        code: Some("KUPA10".into()),
        ..line(1, REGULAR)
    };
    assert_eq!(err(f.check(&[l])).code(), "ticketNotFound");
}

#[test]
fn an_expired_voucher_and_an_empty_one_are_refused() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[with_code(1, "GIFT-OLD")])),
        TicketRuleError::VoucherExpired
    );
    assert_eq!(
        err(f.check(&[with_code(1, "GIFT-EMPTY")])),
        TicketRuleError::VoucherBalance
    );
}

#[test]
fn a_coupon_for_two_tickets_needs_one_more_ticket_when_the_order_has_one() {
    let f = Fixture::new();
    let e = err(f.check(&[with_code(1, "DUO")]));
    assert_eq!(e, TicketRuleError::CouponNeedsMoreTickets { missing: 1 });
    assert_eq!(e.code(), "couponNeedsMoreTickets");
    assert_eq!(e.params(), vec![("missing", 1)]);
    assert!(f.check(&[with_code(1, "DUO"), line(2, REGULAR)]).is_ok());
}

#[test]
fn a_coupon_for_four_tickets_needs_n_more_tickets() {
    let f = Fixture::new();
    let e = err(f.check(&[with_code(1, "FOURSOME"), line(2, REGULAR)]));
    assert_eq!(e.params(), vec![("missing", 2)]);
    let e = apply_code(&[line(1, REGULAR)], f.code("FOURSOME"), &f.tickets, TODAY).unwrap_err();
    assert_eq!(e, TicketRuleError::CouponNeedsMoreTickets { missing: 3 });
}

#[test]
fn a_used_up_code_is_already_used_in_an_order() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[with_code(1, "GIFT-USED")])),
        TicketRuleError::CouponAlreadyUsed
    );
    assert_eq!(
        f.code("GIFT-USED").check_redeemable(TODAY),
        Err(TicketRuleError::CodeUsageLimitExceeded),
        "looked up alone, it is over its usage limit"
    );
}

#[test]
fn a_single_use_voucher_on_two_tickets_is_already_used() {
    let f = Fixture::new();
    let e = err(f.check(&[with_code(1, "GIFT-ONE"), with_code(2, "gift-one")]));
    assert_eq!(e.code(), "couponAlreadyUsed");
}

#[test]
fn a_code_entered_twice_is_already_used() {
    let f = Fixture::new();
    let lines = [with_code(1, "KUPA10")];
    assert!(f.check_as(&lines, None, &["KUPA10"]).is_ok());
    assert_eq!(
        err(f.check_as(&lines, None, &["KUPA10", " kupa10"])),
        TicketRuleError::CouponAlreadyUsed
    );
    assert_eq!(
        apply_code(&lines, f.code("KUPA10"), &f.tickets, TODAY),
        Err(TicketRuleError::CouponAlreadyUsed)
    );
}

#[test]
fn an_entered_code_with_no_ticket_to_apply_to_has_no_tickets() {
    let f = Fixture::new();
    let e = err(f.check_as(&[line(1, REGULAR)], None, &["KUPA10"]));
    assert_eq!(e, TicketRuleError::CouponNoTickets);
    assert_eq!(e.code(), "couponNoTickets");
    assert_eq!(
        err(f.check_as(&[line(1, REGULAR)], None, &["NOPE"])).code(),
        "codeNotFound"
    );
}

#[test]
fn applying_a_code_with_no_seat_of_its_group_has_no_tickets_to_apply_to() {
    let f = Fixture::new();
    let e = apply_code(&[sofa(1), sofa(2)], f.code("KUPA10"), &f.tickets, TODAY).unwrap_err();
    assert_eq!(e, TicketRuleError::CouponNoTickets);
    let all_coded = [with_code(1, "GIFT-ONE")];
    assert_eq!(
        apply_code(&all_coded, f.code("KUPA10"), &f.tickets, TODAY),
        Err(TicketRuleError::CouponNoTickets)
    );
}

#[test]
fn applying_a_code_fills_the_seats_without_a_code_and_removing_it_restores_their_tickets() {
    let f = Fixture::new();
    let lines = [line(1, REGULAR), line(2, SENIOR), sofa(3), sofa(4)];
    let applied = apply_code(&lines, f.code("KUPA10"), &f.tickets, TODAY).unwrap();
    let ids: Vec<i64> = applied.iter().map(|l| l.ticket_id).collect();
    assert_eq!(ids, vec![CODE_TICKET, CODE_TICKET, COUPLE, COUPLE]);
    assert_eq!(applied[1].previous_ticket_id, Some(SENIOR));
    assert!(f.check(&applied).is_ok());
    let removed = remove_code(&applied, "KUPA10");
    assert_eq!(removed, lines.to_vec());
}

#[test]
fn a_single_use_voucher_fills_one_seat_only() {
    let f = Fixture::new();
    let lines = [line(1, REGULAR), line(2, REGULAR)];
    let applied = apply_code(&lines, f.code("GIFT-ONE"), &f.tickets, TODAY).unwrap();
    assert_eq!(applied[0].ticket_id, CODE_TICKET);
    assert_eq!(applied[1].ticket_id, REGULAR);
    assert!(applied[1].code.is_none());
}

#[test]
fn a_code_for_a_couple_ticket_fills_seats_two_at_a_time() {
    let mut f = Fixture::new();
    f.codes.push(TicketCodeRule {
        ticket_id: COUPLE,
        ..code("SOFA", CodeKind::BankCard)
    });
    let lines = [sofa(1), sofa(2), sofa(3)];
    let lines: Vec<OrderLine> = lines
        .into_iter()
        .map(|l| OrderLine {
            ticket_id: 201,
            ..l
        })
        .collect();
    f.tickets.push(TicketType {
        ticket_group_id: 2,
        ..ticket(201, 6500)
    });
    let applied = apply_code(&lines, f.code("SOFA"), &f.tickets, TODAY).unwrap();
    let ids: Vec<i64> = applied.iter().map(|l| l.ticket_id).collect();
    assert_eq!(ids, vec![COUPLE, COUPLE, 201]);
    let priced = f.check(&applied).unwrap();
    assert!(priced[1].is_sub_ticket && priced[1].code.as_deref() == Some("sofa"));
}

#[test]
fn a_credit_card_benefit_accepts_only_cards_of_its_issuer() {
    let f = Fixture::new();
    let visa = f.code("VISA4580");
    assert!(visa.card_accepted("4580 1234 5678 9012"));
    assert!(!visa.card_accepted("5326-1234-5678-9012"));
    assert!(
        f.code("KUPA10").card_accepted("5326123456789012"),
        "no prefix: any card"
    );
}

#[test]
fn code_kinds_round_trip_their_names() {
    for k in CodeKind::ALL {
        assert_eq!(CodeKind::parse(k.as_str()), Some(k));
    }
    assert_eq!(CodeKind::parse("giftCard"), None);
}

// --- members ---

#[test]
fn a_member_ticket_without_any_member_has_no_valid_member() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[line(1, MEMBER)])),
        TicketRuleError::NoValidMember
    );
}

#[test]
fn a_member_ticket_takes_the_orders_member_or_the_lines_own() {
    let f = Fixture::new();
    let priced = f.check_as(&[line(1, MEMBER)], Some("100001"), &[]).unwrap();
    assert_eq!(priced[0].member_number.as_deref(), Some("100001"));
    let own = OrderLine {
        member_number: Some("100009".into()),
        ..line(1, MEMBER)
    };
    let priced = f.check_as(&[own], Some("100001"), &[]).unwrap();
    assert_eq!(priced[0].member_number.as_deref(), Some("100009"));
}

#[test]
fn unknown_expired_and_not_started_members_are_refused() {
    let f = Fixture::new();
    let as_member = |n: &str| f.check_as(&[line(1, MEMBER)], Some(n), &[]);
    assert_eq!(err(as_member("999999")), TicketRuleError::MemberNotFound);
    assert_eq!(err(as_member("100002")), TicketRuleError::MemberExpired);
    assert_eq!(err(as_member("300001")), TicketRuleError::MemberNotStarted);
}

#[test]
fn a_used_up_series_pass_has_none_available() {
    let f = Fixture::new();
    let m = f.members.iter().find(|m| m.member_number == "200003");
    assert_eq!(
        check_member(m, TODAY),
        Err(TicketRuleError::MemberNoneAvailable)
    );
    let club_without_points = member("1", 1, 0);
    assert!(
        check_member(Some(&club_without_points), TODAY).is_ok(),
        "a club card still gives member prices"
    );
}

#[test]
fn a_member_without_enough_points_for_the_points_tickets_has_none_available() {
    let f = Fixture::new();
    let e = err(f.check_as(&[line(1, POINTS)], Some("100009"), &[]));
    assert_eq!(e, TicketRuleError::MemberNoneAvailable);
    let priced = f
        .check_as(&[line(1, POINTS), line(2, POINTS)], Some("100001"), &[])
        .unwrap();
    assert_eq!(priced[0].loyalty_points, Some(320));
}

#[test]
fn a_member_takes_at_most_the_memberships_discounted_tickets() {
    let f = Fixture::new();
    let lines: Vec<_> = (1..=5).map(|n| line(n, MEMBER)).collect();
    let e = err(f.check_as(&lines, Some("100001"), &[]));
    assert_eq!(e, TicketRuleError::MemberTicketsMax { max: 4 });
    assert!(f.check_as(&lines[..4], Some("100001"), &[]).is_ok());
}

// --- senior citizens ---

fn senior(id: Option<&str>) -> OrderLine {
    OrderLine {
        senior_id: id.map(str::to_owned),
        ..line(1, SENIOR)
    }
}

#[test]
fn a_senior_ticket_with_a_valid_id_is_accepted() {
    let f = Fixture::new();
    assert!(f.check(&[senior(Some("012347811"))]).is_ok());
}

#[test]
fn a_senior_id_whose_check_digit_fails_is_an_ilsenior_error() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[senior(Some("123456789"))])).code(),
        "ilSenior_error"
    );
}

#[test]
fn a_missing_or_malformed_senior_id_is_an_invalid_ssn() {
    let f = Fixture::new();
    for id in [None, Some(""), Some("12a"), Some("1234567890")] {
        assert_eq!(
            err(f.check(&[senior(id)])),
            TicketRuleError::InvalidSsn,
            "{id:?}"
        );
    }
}

#[test]
fn one_senior_id_buys_one_senior_ticket_however_it_is_written() {
    let f = Fixture::new();
    let two = |a: &str, b: &str| {
        [
            senior(Some(a)),
            OrderLine {
                seat: SeatAddress {
                    section_id: 11,
                    x: 2,
                    y: 5,
                },
                ..senior(Some(b))
            },
        ]
    };
    let e = err(f.check(&two("012347811", "12347811")));
    assert_eq!(e, TicketRuleError::IlSeniorBalance);
    assert_eq!(e.code(), "ilSenior_balance");
    assert!(
        f.check(&two("012347811", "000000018")).is_ok(),
        "two seniors"
    );
}

#[test]
fn a_group_without_a_senior_ticket_has_no_senior_ticket_to_find() {
    let t = tickets();
    assert_eq!(senior_ticket(&t, GROUP).unwrap().id, SENIOR);
    let e = senior_ticket(&t, 2).unwrap_err();
    assert_eq!(e.code(), "ilSenior_ticketNotFound");
    assert_eq!(e.params(), vec![("ticketGroupId", 2)]);
}

// --- hotel guests ---

fn guest(n: i64, room: Option<&str>) -> OrderLine {
    OrderLine {
        ref1: room.map(str::to_owned),
        ..line(n, HOTEL)
    }
}

#[test]
fn a_hotel_guest_ticket_needs_a_sensible_reference() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[guest(1, None)])),
        TicketRuleError::RefPromptOptError
    );
    assert_eq!(
        err(f.check(&[guest(1, Some("  "))])).code(),
        "refPromptOptError"
    );
    let long = "9".repeat(MAX_REFERENCE_CHARS + 1);
    assert_eq!(
        err(f.check(&[guest(1, Some(&long))])).code(),
        "refPromptOptError"
    );
}

#[test]
fn a_room_not_among_the_accepted_references_is_not_found() {
    let f = Fixture::new();
    assert_eq!(
        err(f.check(&[guest(1, Some("999"))])),
        TicketRuleError::RefPromptOptNotFound
    );
    assert_eq!(
        err(f.check(&[guest(1, Some("suite a"))])).code(),
        "refPromptOptNotFound",
        "a reference with no quantity left"
    );
}

#[test]
fn a_room_takes_at_most_its_quantity_of_tickets() {
    let f = Fixture::new();
    assert!(
        f.check(&[guest(1, Some("101")), guest(2, Some(" 101 "))])
            .is_ok()
    );
    let e = err(f.check(&[
        guest(1, Some("101")),
        guest(2, Some("101")),
        guest(3, Some("101")),
    ]));
    assert_eq!(e, TicketRuleError::RefPromptOptUsedUp { available: 2 });
    assert_eq!(e.code(), "refPromptOptNotFound");
}

#[test]
fn a_reference_ticket_without_listed_options_takes_any_sensible_reference() {
    let mut f = Fixture::new();
    f.refs.clear();
    assert!(f.check(&[guest(1, Some("any room"))]).is_ok());
}
