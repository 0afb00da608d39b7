use super::*;

fn today() -> Date {
    Date::constant(2030, 6, 12)
}

fn gift_card() -> SystemVoucherClass {
    SystemVoucherClass {
        id: 2,
        ticket_id: 115,
        name: "כרטיס מתנה".into(),
        name_en: "Gift card".into(),
        prices: vec![SystemVoucherPrice {
            id: 21,
            price: Money(5000),
            value: None,
        }],
        open_price: Some(OpenPrice {
            min: Money(3000),
            max: Money(50000),
        }),
        valid_days: 365,
        ..Default::default()
    }
}

fn choice(price_id: Option<i64>, amount: Option<i64>, quantity: i64) -> VoucherChoice {
    VoucherChoice {
        class_id: 2,
        price_id,
        amount: amount.map(Money),
        quantity,
    }
}

fn code(r: AppResult<Vec<OrderSystemVoucher>>) -> ErrorCode {
    match r {
        Err(AppError::Rejected { code, .. }) => code,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn each_voucher_is_a_line_with_its_own_reference_and_a_year_of_validity() {
    let lines = voucher_lines(&[gift_card()], &[choice(Some(21), None, 3)], today()).unwrap();
    assert_eq!(lines.len(), 3);
    assert_eq!(
        lines.iter().map(|l| l.line).collect::<Vec<_>>(),
        vec![0, 1, 2]
    );
    assert!(
        lines
            .iter()
            .all(|l| l.price == Money(5000) && l.value == Some(Money(5000)))
    );
    assert_eq!(
        (lines[0].valid_from.as_str(), lines[0].valid_to.as_str()),
        ("2030-06-12", "2031-06-12")
    );
    assert_ne!(lines[0].reference, lines[1].reference);
    assert_ne!(lines[0].code_id, lines[1].code_id);
}

#[test]
fn an_open_price_is_whole_shekels_between_its_bounds() {
    let ok = voucher_lines(&[gift_card()], &[choice(None, Some(15000), 1)], today()).unwrap();
    assert_eq!(
        (ok[0].price, ok[0].value),
        (Money(15000), Some(Money(15000)))
    );
    assert_eq!(
        code(voucher_lines(
            &[gift_card()],
            &[choice(None, None, 1)],
            today()
        )),
        ErrorCode::GetPrice,
        "an open price needs its amount"
    );
    assert_eq!(
        code(voucher_lines(
            &[gift_card()],
            &[choice(Some(999), None, 1)],
            today()
        )),
        ErrorCode::PriceNotFound
    );
    for amount in [Some(2900), Some(50100), Some(4550)] {
        assert_eq!(
            code(voucher_lines(
                &[gift_card()],
                &[choice(None, amount, 1)],
                today()
            )),
            ErrorCode::FormValidation,
            "{amount:?}"
        );
    }
}

#[test]
fn nothing_chosen_too_many_or_not_on_sale_is_refused_with_the_spec_codes() {
    let classes = [gift_card()];
    assert_eq!(
        code(voucher_lines(&classes, &[], today())),
        ErrorCode::MustSelectVouchers
    );
    assert_eq!(
        code(voucher_lines(
            &classes,
            &[choice(Some(21), None, 0)],
            today()
        )),
        ErrorCode::MustSelectVouchers
    );
    assert_eq!(
        code(voucher_lines(
            &classes,
            &[choice(Some(21), None, 11)],
            today()
        )),
        ErrorCode::FormValidation
    );
    let ended = SystemVoucherClass {
        sale_to: Some("2030-06-11".into()),
        ..gift_card()
    };
    assert_eq!(
        code(voucher_lines(
            &[ended],
            &[choice(Some(21), None, 1)],
            today()
        )),
        ErrorCode::NoVouchers
    );
    let box_office = SystemVoucherClass {
        box_office_only: true,
        ..gift_card()
    };
    let other = SystemVoucherClass {
        id: 5,
        ..gift_card()
    };
    assert_eq!(
        code(voucher_lines(
            &[box_office, other],
            &[choice(Some(21), None, 1)],
            today()
        )),
        ErrorCode::SystemVoucherNotSoldInOutlet
    );
}

#[test]
fn a_benefit_voucher_counts_its_tickets_not_its_popcorn() {
    let class = SystemVoucherClass {
        benefits: vec![
            VoucherBenefit {
                quantity: 2,
                ..Default::default()
            },
            VoucherBenefit {
                quantity: 1,
                product: true,
                ..Default::default()
            },
        ],
        open_price: None,
        ..gift_card()
    };
    let lines = voucher_lines(&[class], &[choice(Some(21), None, 1)], today()).unwrap();
    assert_eq!((lines[0].value, lines[0].benefit_tickets), (None, Some(2)));
}

#[test]
fn a_donation_is_a_fixed_amount_or_a_custom_one_within_bounds() {
    let donation = Donation {
        id: 1,
        details: vec![
            DonationDetail {
                id: 11,
                amount: Money(1800),
                ..Default::default()
            },
            DonationDetail {
                id: 14,
                custom_amount: true,
                min: Money(1000),
                max: Money(500000),
                ..Default::default()
            },
        ],
        ..Default::default()
    };
    let pick = |detail_id, amount: Option<i64>, quantity| DonationChoice {
        donation_id: 1,
        detail_id,
        amount: amount.map(Money),
        quantity,
    };
    let lines = donation_lines(
        std::slice::from_ref(&donation),
        &[pick(11, Some(1), 2), pick(14, Some(7200), 1)],
    )
    .unwrap();
    assert_eq!(
        lines.iter().map(|l| l.amount.minor()).collect::<Vec<_>>(),
        vec![1800, 1800, 7200],
        "a fixed amount ignores the client's"
    );
    let refused = |r: AppResult<Vec<OrderDonation>>| match r {
        Err(AppError::Rejected { code, .. }) => code,
        other => panic!("{other:?}"),
    };
    assert_eq!(
        refused(donation_lines(std::slice::from_ref(&donation), &[])),
        ErrorCode::MustSelectDonations
    );
    assert_eq!(
        refused(donation_lines(&[], &[pick(11, None, 1)])),
        ErrorCode::NoDonations
    );
    for amount in [Some(900), Some(500100), Some(1050), None] {
        assert_eq!(
            refused(donation_lines(
                std::slice::from_ref(&donation),
                &[pick(14, amount, 1)]
            )),
            ErrorCode::FormValidation,
            "{amount:?}"
        );
    }
}

#[test]
fn references_are_four_groups_of_unambiguous_characters() {
    let r = new_reference();
    assert_eq!(r.len(), 22);
    assert!(r.starts_with("KV-"));
    assert!(
        r[3..]
            .chars()
            .all(|c| c == '-' || "0123456789ABCDEFGHJKMNPQRSTVWXYZ".contains(c))
    );
    assert!(new_code_id() >= 1 << 40);
}
