//! PayU's pieces that need no server: the notification signature (developers.payu.com,
//! "Notifications": `OpenPayu-Signature`, hash of the body and the second key), the Blik code,
//! what an order's status means for a payment, and the configuration.

use std::collections::HashMap;

use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus};
use md5::Md5;
use sha2::{Digest, Sha256};

use super::notify::signature_holds;
use super::*;

const KEY: &str = "b6ca15b0d1020e8094d9b5f8d163db54";

fn hex(b: &[u8]) -> String {
    b.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn a_notification_is_believed_only_with_the_second_keys_signature() {
    let body = br#"{"order":{"orderId":"LDLW5N7MF4140324GUEST000P01","status":"COMPLETED"}}"#;
    let mut signed = body.to_vec();
    signed.extend_from_slice(KEY.as_bytes());
    let md5 = hex(&Md5::digest(&signed));
    let sha = hex(&Sha256::digest(&signed));
    let header = |sig: &str, alg: &str| {
        format!("sender=checkout;signature={sig};algorithm={alg};content=DOCUMENT")
    };
    assert!(signature_holds(&header(&md5, "MD5"), body, KEY));
    assert!(signature_holds(&header(&sha, "SHA256"), body, KEY));
    assert!(signature_holds(&header(&sha, "SHA-256"), body, KEY));
    // Another key, another body, another algorithm's hash, no algorithm: refused.
    assert!(!signature_holds(&header(&md5, "MD5"), body, "another-key"));
    assert!(!signature_holds(&header(&md5, "MD5"), b"{}", KEY));
    assert!(!signature_holds(&header(&md5, "SHA256"), body, KEY));
    assert!(!signature_holds(
        &format!("sender=checkout;signature={md5}"),
        body,
        KEY
    ));
    assert!(!signature_holds(&header(&md5, "CRC32"), body, KEY));
}

#[test]
fn a_blik_code_is_six_digits() {
    assert_eq!(blik_code("777 123").as_deref(), Some("777123"));
    for bad in ["", "12345", "1234567", "12345a", "١٢٣٤٥٦"] {
        assert_eq!(blik_code(bad), None, "{bad}");
    }
}

fn payment(method: PaymentMethod) -> Payment {
    Payment {
        id: "pay-1".into(),
        order_id: "ord-1".into(),
        method,
        amount: kupa_domain::money::Money(9_900),
        currency: "PLN".into(),
        locale: "pl".into(),
        return_url: "/memberships".into(),
        ..crate::testing::payment()
    }
}

fn order(status: &str) -> PayUOrder {
    PayUOrder {
        order_id: "O1".into(),
        ext_order_id: Some("pay-1".into()),
        total_amount: Some("9900".into()),
        currency_code: Some("PLN".into()),
        status: status.into(),
        merchant_pos_id: Some("300746".into()),
    }
}

#[test]
fn an_orders_status_is_the_payments_word_when_the_order_is_the_payments() {
    let p = payment(PaymentMethod::Payu);
    let paid = judge(&p, "300746", &order("COMPLETED")).unwrap().unwrap();
    assert_eq!(paid.status, PaymentStatus::Authorized);
    let waiting = judge(&p, "300746", &order("WAITING_FOR_CONFIRMATION"))
        .unwrap()
        .unwrap();
    assert_eq!(waiting.status, PaymentStatus::Authorized);
    assert!(judge(&p, "300746", &order("PENDING")).unwrap().is_none());
    let cancelled = judge(&p, "300746", &order("CANCELED")).unwrap().unwrap();
    assert_eq!(
        (cancelled.status, cancelled.failure_code.as_deref()),
        (PaymentStatus::Declined, Some("payUerror"))
    );
    let blik = judge(&payment(PaymentMethod::Blik), "300746", &order("CANCELED"))
        .unwrap()
        .unwrap();
    assert_eq!(blik.failure_code.as_deref(), Some("blikError"));
    // Another payment's, amount's, currency's or POS's order is not believed.
    let mut o = order("COMPLETED");
    o.total_amount = Some("1".into());
    assert!(judge(&p, "300746", &o).is_err());
    let mut o = order("COMPLETED");
    o.ext_order_id = Some("pay-2".into());
    assert!(judge(&p, "300746", &o).is_err());
    let mut o = order("COMPLETED");
    o.currency_code = Some("EUR".into());
    assert!(judge(&p, "300746", &o).is_err());
    assert!(judge(&p, "145227", &order("COMPLETED")).is_err());
}

#[test]
fn payu_is_configured_by_its_pos_and_keys_which_never_show() {
    let env: HashMap<&str, &str> = HashMap::from([
        ("KUPA_PAYU_POS_ID", "300746"),
        (
            "KUPA_PAYU_CLIENT_SECRET",
            "2ee86a66e5d97e3fadc400c9f19b065d",
        ),
        ("KUPA_PAYU_SECOND_KEY", KEY),
        ("KUPA_PAYU_BASE_URL", "https://secure.snd.payu.com/"),
    ]);
    let lookup = |n: &str| env.get(n).map(|v| v.to_string());
    let c = PayUConfig::from_lookup(&lookup, "https://tickets.example")
        .unwrap()
        .unwrap();
    assert_eq!(
        (c.pos_id.as_str(), c.client_id.as_str()),
        ("300746", "300746")
    );
    assert_eq!(c.base_url, SANDBOX_BASE_URL);
    let shown = format!("{c:?} {}", c.summary());
    assert!(
        !shown.contains(KEY) && !shown.contains("2ee86a66"),
        "{shown}"
    );
    assert!(c.summary().contains("sandbox"), "{}", c.summary());
    // Nothing set: no PayU. A POS without its keys: an error that names them.
    assert!(
        PayUConfig::from_lookup(&|_| None, "https://t.example")
            .unwrap()
            .is_none()
    );
    let only_pos = |n: &str| (n == "KUPA_PAYU_POS_ID").then(|| "300746".to_owned());
    let e = PayUConfig::from_lookup(&only_pos, "https://t.example").unwrap_err();
    assert!(e.contains("KUPA_PAYU_CLIENT_SECRET"), "{e}");
}

#[test]
fn the_way_to_payu_goes_to_payus_pages_only() {
    let base = "https://secure.snd.payu.com";
    for good in [
        "https://merch-prod.snd.payu.com/pay/?orderId=X&token=Y",
        "https://secure.payu.com/pay/?orderId=X",
        "https://secure.snd.payu.com/x",
    ] {
        assert!(is_payus_page(good, base), "{good}");
    }
    for bad in [
        "http://secure.payu.com/pay/",
        "https://payu.com.evil.example/",
        "https://evil.example/?a=payu.com",
        "https://secure.payu.com@evil.example/",
        "javascript:alert(1)",
        "/pay/x",
    ] {
        assert!(!is_payus_page(bad, base), "{bad}");
    }
    assert!(is_payus_page(
        "https://127.0.0.1:9/p",
        "https://127.0.0.1:9"
    ));
}
