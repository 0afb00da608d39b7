//! The gateway's rules, case by case.

use super::*;
use kupa_app::orders::{DeclineReason, PaymentStatus};

/// 2026-05-10 12:00 UTC.
const NOW: i64 = 1_778_414_400_000;

fn card<'a>(number: &'a str, expiry: &'a str, cvv: &'a str, id: &'a str) -> CardInput<'a> {
    CardInput {
        number,
        expiry,
        cvv,
        holder_id: id,
    }
}

#[test]
fn the_test_cards_pass_their_checks() {
    for n in [
        cards::APPROVED_VISA,
        cards::APPROVED_ISRAELI_VISA,
        cards::APPROVED_MASTERCARD,
        cards::APPROVED_AMEX,
        cards::DECLINED,
        cards::INSUFFICIENT_FUNDS,
        cards::THREE_D_SECURE,
        cards::NO_RESPONSE,
    ] {
        assert!(luhn(n), "{n}");
        assert!(CardBrand::of(n).is_some(), "{n}");
    }
    assert!(isracard_check(cards::APPROVED_ISRACARD));
    assert!(!luhn("4242424242424241"));
    assert!(!luhn(""));
    assert!(!isracard_check("123456780"));
    assert!(!isracard_check("000000000"));
}

#[test]
fn brands_come_from_the_number() {
    assert_eq!(CardBrand::of("4242424242424242"), Some(CardBrand::Visa));
    assert_eq!(
        CardBrand::of("5555555555554444"),
        Some(CardBrand::Mastercard)
    );
    assert_eq!(
        CardBrand::of("2223003122003222"),
        Some(CardBrand::Mastercard)
    );
    assert_eq!(CardBrand::of("378282246310005"), Some(CardBrand::Amex));
    assert_eq!(CardBrand::of("30569309025904"), Some(CardBrand::Diners));
    assert_eq!(CardBrand::of("6011111111111117"), Some(CardBrand::Discover));
    assert_eq!(CardBrand::of("3530111333300000"), Some(CardBrand::Jcb));
    assert_eq!(CardBrand::of("123456789"), Some(CardBrand::Isracard));
    assert_eq!(CardBrand::of("9999999999999995"), None);
    assert_eq!(
        CardBrand::of("42424242424242"),
        None,
        "a Visa has 13, 16 or 19 digits"
    );
}

#[test]
fn an_approved_card_keeps_only_brand_bin_and_last_four() {
    let u = check_card(&card("4242 4242 4242 4242", "12/30", "123", ""), NOW).unwrap();
    assert_eq!(u.status, PaymentStatus::Authorized);
    assert_eq!(
        (
            u.card_brand.as_deref(),
            u.card_bin.as_deref(),
            u.card_last4.as_deref()
        ),
        (Some("visa"), Some("424242"), Some("4242"))
    );
    assert_eq!(u.failure_code, None);
    assert!(
        !u.note.contains("4242424242424242") && !u.note.contains("123 "),
        "{}",
        u.note
    );
    let u = check_card(
        &card(cards::APPROVED_ISRAELI_VISA, "05/26", "999", "000000018"),
        NOW,
    )
    .unwrap();
    assert_eq!(
        u.status,
        PaymentStatus::Authorized,
        "a card is good through its expiry month"
    );
    let u = check_card(&card(cards::APPROVED_ISRACARD, "0129", "123", ""), NOW).unwrap();
    assert_eq!(
        (
            u.card_brand.as_deref(),
            u.card_bin.as_deref(),
            u.card_last4.as_deref()
        ),
        (Some("isracard"), None, Some("6789"))
    );
    let u = check_card(&card(cards::APPROVED_AMEX, "01/2029", "1234", ""), NOW).unwrap();
    assert_eq!(u.card_brand.as_deref(), Some("amex"));
}

#[test]
fn special_cards_decline_fail_or_challenge() {
    let u = check_card(&card(cards::DECLINED, "12/30", "123", ""), NOW).unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert!(u.note.contains("declined"));
    let u = check_card(&card(cards::INSUFFICIENT_FUNDS, "12/30", "123", ""), NOW).unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert!(u.note.contains("insufficientFunds"));
    let u = check_card(&card(cards::NO_RESPONSE, "12/30", "123", ""), NOW).unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Failed, Some("errorNoResponse"))
    );
    let u = check_card(&card(cards::THREE_D_SECURE, "12/30", "123", ""), NOW).unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref(), u.card_last4.as_deref()),
        (PaymentStatus::Challenge, None, Some("3220"))
    );
    assert!(!u.note.contains(cards::THREE_D_SECURE));
}

#[test]
fn malformed_card_fields_are_named() {
    let e = check_card(
        &card("4242 4242 4242 4241", "13/30", "12", "123456789"),
        NOW,
    )
    .unwrap_err();
    assert_eq!(e.0, vec!["cardNumber", "expiry", "cvv", "holderId"]);
    assert_eq!(e.code(), "formValidation");
    assert_eq!(
        check_card(&card("", "", "", ""), NOW).unwrap_err().0,
        vec!["cardNumber", "expiry", "cvv"]
    );
    assert_eq!(
        check_card(&card("4242x242424242424", "12/30", "123", ""), NOW)
            .unwrap_err()
            .0,
        vec!["cardNumber"]
    );
    assert_eq!(
        check_card(&card(cards::APPROVED_VISA, "04/26", "123", ""), NOW)
            .unwrap_err()
            .0,
        vec!["expiry"],
        "expired last month"
    );
    assert_eq!(
        check_card(&card(cards::APPROVED_VISA, "12/99", "123", ""), NOW)
            .unwrap_err()
            .0,
        vec!["expiry"],
        "too far ahead"
    );
    assert_eq!(
        check_card(&card(cards::APPROVED_VISA, "12/30", "1234", ""), NOW)
            .unwrap_err()
            .0,
        vec!["cvv"],
        "a Visa code has 3 digits"
    );
    assert_eq!(
        check_card(&card(cards::APPROVED_AMEX, "12/30", "123", ""), NOW)
            .unwrap_err()
            .0,
        vec!["cvv"],
        "an Amex code has 4"
    );
    assert_eq!(
        check_card(&card(cards::APPROVED_VISA, "12/30", "12a", ""), NOW)
            .unwrap_err()
            .0,
        vec!["cvv"]
    );
    assert_eq!(
        check_card(
            &card(cards::APPROVED_VISA, "12/30", "123", "12345678a"),
            NOW
        )
        .unwrap_err()
        .0,
        vec!["holderId"]
    );
}

#[test]
fn card_input_debug_shows_no_card_data() {
    let shown = format!(
        "{:?}",
        card(cards::APPROVED_VISA, "12/30", "123", "000000018")
    );
    assert!(!shown.contains("4242") && !shown.contains("123"), "{shown}");
}

#[test]
fn expiry_forms() {
    assert_eq!(parse_expiry("12/30"), Some((2030, 12)));
    assert_eq!(parse_expiry(" 1 / 2031 "), Some((2031, 1)));
    assert_eq!(parse_expiry("0128"), Some((2028, 1)));
    assert_eq!(parse_expiry("01-28"), Some((2028, 1)));
    assert_eq!(parse_expiry("00/28"), None);
    assert_eq!(parse_expiry("13/28"), None);
    assert_eq!(parse_expiry("1/2"), None);
    assert_eq!(parse_expiry("ab/cd"), None);
    assert!(expiry_ok(2026, 5, NOW));
    assert!(!expiry_ok(2026, 4, NOW));
}

#[test]
fn three_d_secure_passes_only_with_its_code() {
    assert_eq!(
        check_three_ds("1234").unwrap().status,
        PaymentStatus::Authorized
    );
    let u = check_three_ds("0000").unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert_eq!(check_three_ds(" ").unwrap_err().0, vec!["code"]);
}

#[test]
fn blik_codes() {
    assert_eq!(
        check_blik_code("123 456").unwrap().status,
        PaymentStatus::AwaitingBank
    );
    let u = check_blik_code("777777").unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("blikError"))
    );
    for bad in ["12345", "1234567", "12345a", ""] {
        assert_eq!(check_blik_code(bad).unwrap_err().0, vec!["code"], "{bad}");
    }
    assert_eq!(bank_app_answer(true).status, PaymentStatus::Authorized);
    let u = bank_app_answer(false);
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("blikError"))
    );
}

#[test]
fn payu_and_paypal_answers() {
    assert_eq!(PayuChoice::parse("pay"), Some(PayuChoice::Pay));
    assert_eq!(PayuChoice::parse("nope"), None);
    assert_eq!(
        payu_answer(PayuChoice::Pay).status,
        PaymentStatus::Authorized
    );
    let u = payu_answer(PayuChoice::ThreeDsFails);
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("payU_3DS_error"))
    );
    let u = payu_answer(PayuChoice::Error);
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Failed, Some("payUerror"))
    );
    assert_eq!(paypal_answer(true).status, PaymentStatus::Authorized);
    let u = paypal_answer(false);
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert_eq!(redirected("payu").status, PaymentStatus::Redirected);
}

#[test]
fn open_payments_time_out_after_the_window() {
    assert!(!timed_out(
        NOW,
        PaymentStatus::Created,
        NOW + PAYMENT_WINDOW_MS - 1
    ));
    assert!(timed_out(
        NOW,
        PaymentStatus::Challenge,
        NOW + PAYMENT_WINDOW_MS
    ));
    assert!(
        !timed_out(NOW, PaymentStatus::Captured, NOW + PAYMENT_WINDOW_MS * 2),
        "only open payments time out"
    );
    let u = timed_out_answer();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Expired, Some("errorNoResponse"))
    );
    assert_eq!(
        unsupported_method_answer("savedCard").status,
        PaymentStatus::Failed
    );
}

#[test]
fn saved_cards_check_their_code_and_expiry() {
    let visa = SavedCardFacts {
        brand: "visa",
        bin: Some("424242"),
        last4: "4242",
        expiry_year: 2026,
        expiry_month: 5,
    };
    let u = check_saved_card(&visa, "123", NOW).unwrap();
    assert_eq!(
        (u.status, u.card_last4.as_deref(), u.card_bin.as_deref()),
        (PaymentStatus::Authorized, Some("4242"), Some("424242"))
    );
    assert_eq!(
        check_saved_card(&visa, "12", NOW).unwrap_err().0,
        vec!["cvv"]
    );
    assert_eq!(
        check_saved_card(&visa, "1234", NOW).unwrap_err().0,
        vec!["cvv"]
    );
    let old = SavedCardFacts {
        expiry_month: 4,
        ..visa.clone()
    };
    let u = check_saved_card(&old, "123", NOW).unwrap();
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert!(u.note.contains("expiredCard"));
    let amex = SavedCardFacts {
        brand: "amex",
        ..visa
    };
    assert!(check_saved_card(&amex, "1234", NOW).is_ok());
    let u = not_eligible_answer(&check_saved_card(&amex, "1234", NOW).unwrap());
    assert_eq!(
        (u.status, u.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("paymentError"))
    );
    assert!(u.note.contains("cardNotEligible"), "{}", u.note);
    assert_eq!(
        login_needed_answer().failure_code.as_deref(),
        Some("paymentError")
    );
}

#[test]
fn installments_put_the_remainder_first() {
    assert_eq!(installment_plan(4200, 1), (4200, 4200));
    assert_eq!(installment_plan(10_000, 3), (3334, 3333));
    assert_eq!(installment_plan(4200, 0), (4200, 4200));
}

#[test]
fn declines_say_why() {
    let expiry = "12/30";
    let reason = |number: &str| {
        check_card(&card(number, expiry, "123", ""), NOW)
            .unwrap()
            .decline_reason
    };
    assert_eq!(reason(cards::DECLINED), Some(DeclineReason::Declined));
    assert_eq!(
        reason(cards::INSUFFICIENT_FUNDS),
        Some(DeclineReason::InsufficientFunds)
    );
    assert_eq!(
        reason(cards::EXPIRED_CARD),
        Some(DeclineReason::ExpiredCard)
    );
    assert_eq!(
        reason(cards::CARD_BLOCKED),
        Some(DeclineReason::CardBlocked)
    );
    assert_eq!(reason(cards::APPROVED_VISA), None);
    assert_eq!(
        reason(cards::NO_RESPONSE),
        None,
        "no answer is not a decline"
    );
    assert_eq!(
        check_three_ds("9999").unwrap().decline_reason,
        Some(DeclineReason::ThreeDSecureFailed)
    );
    assert_eq!(
        bank_app_answer(false).decline_reason,
        Some(DeclineReason::RejectedInBankApp)
    );
    assert_eq!(
        paypal_answer(false).decline_reason,
        Some(DeclineReason::CancelledByBuyer)
    );
    assert_eq!(
        payu_answer(PayuChoice::ThreeDsFails).decline_reason,
        Some(DeclineReason::ThreeDSecureFailed)
    );
    let approved = check_card(&card(cards::APPROVED_VISA, expiry, "123", ""), NOW).unwrap();
    assert_eq!(
        not_eligible_answer(&approved).decline_reason,
        Some(DeclineReason::CardNotEligible)
    );
}
