//! The arithmetic and the fee configuration, without a database.

use super::super::*;

#[test]
fn fees_parse_from_configuration() {
    assert_eq!(CancellationFee::parse("none"), Ok(None));
    assert_eq!(
        CancellationFee::parse("fixed:500:perTicket"),
        Ok(Some(CancellationFee {
            amount: FeeAmount::Fixed(Money(500)),
            scope: FeeScope::PerTicket
        }))
    );
    assert_eq!(
        CancellationFee::parse("percent:12.5:perOrder"),
        Ok(Some(CancellationFee {
            amount: FeeAmount::PercentBp(1250),
            scope: FeeScope::PerOrder
        }))
    );
    for bad in [
        "percent:101:perOrder",
        "percent:1.234:perTicket",
        "fixed:-1:perTicket",
        "fixed:5",
        "odd:1:perOrder",
        "fixed:1:perSeat",
    ] {
        assert!(CancellationFee::parse(bad).is_err(), "{bad}");
    }
}

pub(crate) fn ticket(line: i64, price: i64, charge: i64, sub: bool) -> OrderTicket {
    OrderTicket {
        line,
        presentation_id: PresentationId(1),
        section_id: 1,
        x: line,
        y: 1,
        section_name: String::new(),
        section_name_en: String::new(),
        row_name: "1".into(),
        seat_name: line.to_string(),
        ticket_id: 1,
        ticket_name: String::new(),
        ticket_name_en: String::new(),
        price: Money(price),
        service_charge: Money(charge),
        is_sub_ticket: sub,
        code: None,
        ref1: None,
        ref2: None,
        member_number: None,
        points: 0,
        member_balance: Money::ZERO,
        document_key: format!("doc{line}"),
        scanned_at_ms: None,
        cancelled_at_ms: None,
    }
}

pub(crate) fn order(
    tickets: Vec<OrderTicket>,
    vouchers: Vec<OrderVoucher>,
    per_order_charge: i64,
) -> Order {
    let tickets_total: Money = tickets.iter().map(|t| t.price).sum();
    let charges: Money =
        tickets.iter().map(|t| t.service_charge).sum::<Money>() + Money(per_order_charge);
    Order {
        id: "o".into(),
        reservation_number: "0000-0001".into(),
        session_id: "s".into(),
        presentations: vec![PresentationId(1)],
        status: OrderStatus::Paid,
        channel: Channel::Web,
        referral_mini_site_id: None,
        is_hold: false,
        customer_id: None,
        customer: Default::default(),
        locale: "he".into(),
        tickets_total,
        products_total: Money::ZERO,
        service_charge_total: charges,
        service_charge_name: String::new(),
        total: tickets_total + charges,
        currency: "ILS".into(),
        payment_id: Some("p".into()),
        created_at_ms: 0,
        paid_at_ms: Some(1),
        committed_at_ms: None,
        tickets,
        products: Vec::new(),
        vouchers,
        kind: OrderKind::Tickets,
        system_vouchers: Vec::new(),
        donations: Vec::new(),
        memberships: Vec::new(),
        points_member: None,
        points_earned: 0,
        enrollment: None,
        waiver: None,
    }
}

#[test]
fn an_order_reads_as_typed_lines_over_its_presentations() {
    let mut second = ticket(3, 3000, 0, false);
    second.presentation_id = PresentationId(2);
    let mut o = order(
        vec![
            ticket(1, 4200, 500, false),
            ticket(2, 4200, 500, false),
            second,
        ],
        Vec::new(),
        0,
    );
    o.presentations = Order::presentations_of(&o.tickets);
    o.products.push(OrderProduct {
        product_id: 9,
        name: String::new(),
        name_en: String::new(),
        quantity: 2,
        unit_price: Money(1500),
    });
    assert_eq!(o.presentations, [1, 2].map(PresentationId));
    assert_eq!(o.first_presentation(), Some(PresentationId(1)));
    assert_eq!(
        o.tickets_of(PresentationId(2))
            .map(|t| t.line)
            .collect::<Vec<_>>(),
        vec![3]
    );
    let kinds: Vec<LineKind> = o.lines().map(|l| l.kind()).collect();
    assert_eq!(
        kinds,
        vec![
            LineKind::Ticket,
            LineKind::Ticket,
            LineKind::Ticket,
            LineKind::Product
        ]
    );
    assert_eq!(
        o.lines().map(|l| l.amount()).collect::<Vec<_>>(),
        [4700, 4700, 3000, 3000].map(Money)
    );
    assert_eq!(
        o.lines()
            .map(|l| l.presentation_id().map(PresentationId::get))
            .collect::<Vec<_>>(),
        vec![Some(1), Some(1), Some(2), None]
    );
    let no_tickets = order(Vec::new(), Vec::new(), 0);
    assert_eq!(
        Order::presentations_of(&no_tickets.tickets),
        Vec::<PresentationId>::new()
    );
}

fn card(amount: Money) -> Payment {
    Payment {
        id: "p".into(),
        order_id: "o".into(),
        session_id: "s".into(),
        customer_id: None,
        method: PaymentMethod::Card,
        amount,
        currency: "ILS".into(),
        installments: 1,
        status: PaymentStatus::Captured,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        save_card: false,
        failure_code: None,
        decline_reason: None,
        locale: "he".into(),
        return_url: String::new(),
        created_at_ms: 0,
        updated_at_ms: 0,
    }
}

fn fee(s: &str) -> Option<CancellationFee> {
    CancellationFee::parse(s).unwrap()
}

fn run(
    o: &Order,
    p: &Payment,
    previous: &[Refund],
    charged: i64,
    lines: Option<Vec<i64>>,
    f: &str,
) -> Cancellation {
    let facts = CancelFacts {
        order: o,
        payment: Some(p),
        previous,
        fee_charged: Money(charged),
    };
    plan(
        &facts,
        &CancelRequest {
            lines,
            dry_run: false,
            ..Default::default()
        },
        fee(f),
        "c1",
        5,
    )
    .unwrap()
}

#[test]
fn a_percent_charge_per_ticket_rounds_each_ticket_half_up() {
    // 4150 * 12.5 % = 518.75 -> 519; 4100 * 12.5 % = 512.5 -> 513 (half up); 3999 * 12.5 % = 499.875 -> 500.
    let o = order(
        vec![
            ticket(1, 4000, 150, false),
            ticket(2, 4000, 100, false),
            ticket(3, 3999, 0, false),
        ],
        vec![],
        0,
    );
    let c = run(&o, &card(o.total), &[], 0, None, "percent:12.5:perTicket");
    assert_eq!(
        (c.value, c.fee, c.refund),
        (Money(12249), Money(519 + 513 + 500), Money(12249 - 1532))
    );
    // Fixed per ticket: one charge per ticket, whatever its price.
    let c = run(
        &o,
        &card(o.total),
        &[],
        0,
        Some(vec![2]),
        "fixed:500:perTicket",
    );
    assert_eq!(
        (c.value, c.fee, c.refund, c.whole),
        (Money(4100), Money(500), Money(3600), false)
    );
}

#[test]
fn a_per_order_charge_is_kept_once_over_partial_cancels() {
    let o = order(
        vec![ticket(1, 4000, 0, false), ticket(2, 4000, 0, false)],
        vec![],
        300,
    );
    let c = run(
        &o,
        &card(o.total),
        &[],
        0,
        Some(vec![1]),
        "fixed:700:perOrder",
    );
    assert_eq!(
        (c.value, c.fee, c.refund),
        (Money(4000), Money(700), Money(3300))
    );
    let mut o2 = o.clone();
    o2.tickets[0].cancelled_at_ms = Some(5);
    let c2 = run(
        &o2,
        &card(o.total),
        &c.refunds,
        700,
        None,
        "fixed:700:perOrder",
    );
    // The last ticket brings back the per-order service charge (300) too; no second charge.
    assert_eq!(
        (c2.value, c2.fee, c2.refund, c2.whole),
        (Money(4300), Money(0), Money(4300), true)
    );
    assert_eq!(c.refund + c2.refund, o.total - Money(700));
    // A percent per order is of the order's total: 10 % of 8300 = 830, kept once.
    let c = run(
        &o,
        &card(o.total),
        &[],
        0,
        Some(vec![1]),
        "percent:10:perOrder",
    );
    assert_eq!(c.fee, Money(830));
    // A charge never exceeds what is cancelled.
    let c = run(
        &o,
        &card(o.total),
        &[],
        0,
        Some(vec![1]),
        "fixed:9000:perOrder",
    );
    assert_eq!(
        (c.fee, c.refund, c.refunds.len()),
        (Money(4000), Money(0), 0)
    );
}

#[test]
fn a_ticket_with_a_multiply_factor_is_never_split() {
    let o = order(
        vec![
            ticket(1, 9000, 0, false),
            ticket(2, 0, 0, true),
            ticket(3, 4000, 0, false),
        ],
        vec![],
        0,
    );
    let c = run(
        &o,
        &card(o.total),
        &[],
        0,
        Some(vec![2]),
        "fixed:500:perTicket",
    );
    assert_eq!(
        (c.lines.clone(), c.value, c.fee),
        (vec![1, 2], Money(9000), Money(500)),
        "naming the sub ticket takes its main ticket"
    );
    assert!(!c.whole);
}

#[test]
fn vouchers_and_the_card_get_back_in_proportion_and_never_more_than_they_paid() {
    // 10000 paid: 3000 by voucher, 7000 by card.
    let o = order(
        vec![ticket(1, 5000, 0, false), ticket(2, 5000, 0, false)],
        vec![OrderVoucher {
            code: "v".into(),
            amount: Money(3000),
        }],
        0,
    );
    let p = card(Money(7000));
    let c = run(&o, &p, &[], 0, Some(vec![1]), "fixed:333:perTicket");
    // 4667 back: card round(4667 * 0.7) = 3267, voucher 1400.
    let amounts: Vec<(RefundTarget, Money)> = c
        .refunds
        .iter()
        .map(|r| (r.target.clone(), r.amount))
        .collect();
    assert_eq!(
        amounts,
        vec![
            (
                RefundTarget::Payment {
                    payment_id: "p".into()
                },
                Money(3267)
            ),
            (RefundTarget::Voucher { code: "v".into() }, Money(1400)),
        ]
    );
    let mut o2 = o.clone();
    o2.tickets[0].cancelled_at_ms = Some(5);
    let c2 = run(&o2, &p, &c.refunds, 333, None, "fixed:333:perTicket");
    let card_back: Money = c
        .refunds
        .iter()
        .chain(&c2.refunds)
        .filter(|r| matches!(r.target, RefundTarget::Payment { .. }))
        .map(|r| r.amount)
        .sum();
    let voucher_back: Money = c
        .refunds
        .iter()
        .chain(&c2.refunds)
        .filter(|r| matches!(r.target, RefundTarget::Voucher { .. }))
        .map(|r| r.amount)
        .sum();
    assert_eq!(card_back + voucher_back, Money(10000 - 666));
    assert!(card_back <= Money(7000) && voucher_back <= Money(3000));
    assert_eq!(
        card_back,
        Money((9334 * 7 + 5) / 10),
        "cumulative proportion, rounded half up"
    );
}

#[test]
fn nothing_left_or_an_unknown_line_is_refused() {
    let mut o = order(vec![ticket(1, 5000, 0, false)], vec![], 0);
    let p = card(o.total);
    let facts = CancelFacts {
        order: &o,
        payment: Some(&p),
        previous: &[],
        fee_charged: Money::ZERO,
    };
    assert_eq!(
        plan(
            &facts,
            &CancelRequest {
                lines: Some(vec![7]),
                dry_run: false,
                ..Default::default()
            },
            None,
            "c",
            1
        ),
        Err(CancelRefusal::UnknownLine(7))
    );
    o.tickets[0].cancelled_at_ms = Some(1);
    let facts = CancelFacts {
        order: &o,
        payment: Some(&p),
        previous: &[],
        fee_charged: Money::ZERO,
    };
    assert_eq!(
        plan(&facts, &CancelRequest::default(), None, "c", 1),
        Err(CancelRefusal::NothingToCancel)
    );
}

#[test]
fn the_worked_example_of_the_api_document() {
    let o = order(
        vec![ticket(1, 4200, 300, false), ticket(2, 4200, 300, false)],
        vec![OrderVoucher {
            code: "v".into(),
            amount: Money(3000),
        }],
        200,
    );
    assert_eq!(o.total, Money(9200));
    let p = card(Money(6200));
    let parts =
        |c: &Cancellation| -> Vec<i64> { c.refunds.iter().map(|r| r.amount.minor()).collect() };
    let c1 = run(&o, &p, &[], 0, Some(vec![1]), "percent:12.5:perTicket");
    assert_eq!(
        (c1.value, c1.fee, c1.refund, parts(&c1)),
        (Money(4500), Money(563), Money(3937), vec![2653, 1284])
    );
    let mut o2 = o.clone();
    o2.tickets[0].cancelled_at_ms = Some(5);
    let c2 = run(
        &o2,
        &p,
        &c1.refunds,
        c1.fee.minor(),
        None,
        "percent:12.5:perTicket",
    );
    assert_eq!(
        (c2.value, c2.fee, c2.refund, parts(&c2)),
        (Money(4700), Money(563), Money(4137), vec![2788, 1349])
    );
    let c1 = run(&o, &p, &[], 0, Some(vec![1]), "fixed:700:perOrder");
    let c2 = run(
        &o2,
        &p,
        &c1.refunds,
        c1.fee.minor(),
        None,
        "fixed:700:perOrder",
    );
    assert_eq!((c1.fee, c2.fee), (Money(700), Money(0)));
}

fn credit_voucher() -> CreditVoucher {
    CreditVoucher {
        reference: "KV-AAAA-BBBB-CCCC-DDDD".into(),
        code_id: 1 << 41,
        class_id: 2,
        ticket_id: 115,
        customer_id: 7,
        valid_from: "2026-11-25".into(),
        valid_to: "2027-11-25".into(),
        label: "זיכוי".into(),
        label_en: "Credit".into(),
    }
}

#[test]
fn credit_takes_the_cards_part_at_once_and_counts_against_the_card_afterwards() {
    // 10000 paid: 3000 by voucher, 7000 by card.
    let o = order(
        vec![ticket(1, 5000, 0, false), ticket(2, 5000, 0, false)],
        vec![OrderVoucher {
            code: "v".into(),
            amount: Money(3000),
        }],
        0,
    );
    let p = card(Money(7000));
    let facts = CancelFacts {
        order: &o,
        payment: Some(&p),
        previous: &[],
        fee_charged: Money::ZERO,
    };
    let request = CancelRequest {
        lines: Some(vec![1]),
        dry_run: false,
        credit: Some(credit_voucher()),
    };
    let c = plan(&facts, &request, fee("fixed:333:perTicket"), "c1", 5).unwrap();
    let parts: Vec<(RefundTarget, Money, RefundStatus)> = c
        .refunds
        .iter()
        .map(|r| (r.target.clone(), r.amount, r.status))
        .collect();
    assert_eq!(
        parts,
        vec![
            (
                RefundTarget::Credit {
                    payment_id: "p".into(),
                    reference: "KV-AAAA-BBBB-CCCC-DDDD".into(),
                    code: kupa_domain::tickets::normalise_code("KV-AAAA-BBBB-CCCC-DDDD"),
                },
                Money(3267),
                RefundStatus::Done
            ),
            (
                RefundTarget::Voucher { code: "v".into() },
                Money(1400),
                RefundStatus::Pending
            ),
        ],
        "the card's part as credit, the voucher's back to the voucher"
    );
    assert_eq!(c.credit(), Some(("KV-AAAA-BBBB-CCCC-DDDD", Money(3267))));
    assert_eq!(c.refunds[0].id, "c1:credit");
    // The rest to the card: what the credit took counts as the card's.
    let mut o2 = o.clone();
    o2.tickets[0].cancelled_at_ms = Some(5);
    let c2 = run(&o2, &p, &c.refunds, 333, None, "fixed:333:perTicket");
    let card_and_credit: Money = c
        .refunds
        .iter()
        .chain(&c2.refunds)
        .filter(|r| r.target.paid_from() == Some("p"))
        .map(|r| r.amount)
        .sum();
    assert_eq!(card_and_credit, Money((9334 * 7 + 5) / 10));
    assert!(c2.credit().is_none());
}

#[test]
fn an_order_paid_all_by_vouchers_gives_no_credit() {
    let o = order(
        vec![ticket(1, 5000, 0, false)],
        vec![OrderVoucher {
            code: "v".into(),
            amount: Money(5000),
        }],
        0,
    );
    let facts = CancelFacts {
        order: &o,
        payment: None,
        previous: &[],
        fee_charged: Money::ZERO,
    };
    let request = CancelRequest {
        credit: Some(credit_voucher()),
        ..Default::default()
    };
    let c = plan(&facts, &request, None, "c1", 5).unwrap();
    assert!(c.credit().is_none());
    assert_eq!(c.refunds.len(), 1);
}
