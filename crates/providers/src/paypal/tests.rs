use super::*;
use kupa_app::orders::PaymentMethod;

#[test]
fn minor_units_become_paypals_decimal_strings_and_back_exactly() {
    assert_eq!(value_of(0), "0.00");
    assert_eq!(value_of(5), "0.05");
    assert_eq!(value_of(1234), "12.34");
    assert_eq!(value_of(10_000_000_001), "100000000.01");
    for v in [0, 1, 99, 100, 4_590, 123_456_789] {
        assert_eq!(minor_of(&value_of(v)), Some(v));
    }
    assert_eq!(minor_of("12"), Some(1200));
    assert_eq!(minor_of("12.3"), Some(1230));
    for bad in ["", ".5", "12.345", "1e3", "-1.00", "12,30", " 1.00"] {
        assert_eq!(minor_of(bad), None, "{bad}");
    }
}

fn lookup(vars: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
    move |k: &str| {
        vars.iter()
            .find(|(n, _)| *n == k)
            .map(|(_, v)| (*v).to_owned())
    }
}

#[test]
fn paypal_is_configured_by_its_client_id_and_its_secret_never_shows() {
    let none = lookup(&[]);
    assert!(
        PayPalConfig::from_lookup(&none, "https://t.example")
            .unwrap()
            .is_none()
    );
    let no_secret = lookup(&[
        ("KUPA_PAYPAL_CLIENT_ID", "AbC"),
        ("KUPA_PAYPAL_WEBHOOK_ID", "8PT597110X687430LKGECATA"),
    ]);
    let e = PayPalConfig::from_lookup(&no_secret, "https://t.example").unwrap_err();
    assert!(e.contains("KUPA_PAYPAL_CLIENT_SECRET"), "{e}");
    let sandbox = lookup(&[
        ("KUPA_PAYPAL_CLIENT_ID", "AbC"),
        ("KUPA_PAYPAL_CLIENT_SECRET", "very-secret-value"),
        ("KUPA_PAYPAL_WEBHOOK_ID", "8PT597110X687430LKGECATA"),
        ("KUPA_PAYPAL_SANDBOX", "true"),
    ]);
    let c = PayPalConfig::from_lookup(&sandbox, "https://t.example/")
        .unwrap()
        .unwrap();
    assert_eq!(c.base_url, SANDBOX_URL);
    assert!(c.is_sandbox());
    assert_eq!(c.public_url, "https://t.example");
    let shown = format!("{c:?} {}", c.summary());
    assert!(!shown.contains("very-secret-value"), "{shown}");
    let live = lookup(&[
        ("KUPA_PAYPAL_CLIENT_ID", "AbC"),
        ("KUPA_PAYPAL_CLIENT_SECRET", "s"),
        ("KUPA_PAYPAL_WEBHOOK_ID", "W1"),
    ]);
    let c = PayPalConfig::from_lookup(&live, "https://t.example")
        .unwrap()
        .unwrap();
    assert_eq!(c.base_url, LIVE_URL);
    assert!(!c.is_sandbox());
    assert!(PayPalConfig::from_lookup(&live, "http://t.example").is_err());
}

fn payment() -> Payment {
    Payment {
        id: "pay1".into(),
        order_id: "ord1".into(),
        method: PaymentMethod::Paypal,
        amount: kupa_domain::money::Money(4_590),
        currency: "PLN".into(),
        locale: "pl".into(),
        ..crate::testing::payment()
    }
}

#[test]
fn a_capture_is_believed_only_for_its_payment_and_amount() {
    let p = payment();
    let ok = json!({ "id": "3C679366HH908993F", "status": "COMPLETED", "custom_id": "pay1",
        "amount": { "currency_code": "PLN", "value": "45.90" } });
    let (u, id) = judge_capture(&p, &ok).unwrap().unwrap();
    assert_eq!(u.status, PaymentStatus::Authorized);
    assert_eq!(id, "3C679366HH908993F");
    let mut other = ok.clone();
    other["custom_id"] = json!("pay2");
    assert!(judge_capture(&p, &other).is_err());
    let mut less = ok.clone();
    less["amount"]["value"] = json!("45.00");
    assert!(judge_capture(&p, &less).is_err());
    let mut ils = ok.clone();
    ils["amount"]["currency_code"] = json!("ILS");
    assert!(judge_capture(&p, &ils).is_err());
    let mut denied = ok.clone();
    denied["status"] = json!("DECLINED");
    let (u, _) = judge_capture(&p, &denied).unwrap().unwrap();
    assert_eq!(u.status, PaymentStatus::Declined);
    assert_eq!(
        u.failure_code.as_deref(),
        Some(payment_codes::PAYMENT_ERROR)
    );
    let mut pending = ok;
    pending["status"] = json!("PENDING");
    assert!(judge_capture(&p, &pending).unwrap().is_none());
}
