//! What the adapters' unit tests share: a payment as the app hands it to a gateway.

use kupa_app::orders::{Payment, PaymentMethod, PaymentStatus};

/// A payment just opened: 100.00 ILS by card in one payment, in Hebrew, its way back `/order`.
/// Tests change what they are about with `Payment { ..., ..payment() }`.
pub fn payment() -> Payment {
    Payment {
        id: "pay_1".into(),
        order_id: "ord_1".into(),
        session_id: "s".into(),
        customer_id: None,
        method: PaymentMethod::Card,
        amount: kupa_domain::money::Money(10_000),
        currency: "ILS".into(),
        installments: 1,
        status: PaymentStatus::Created,
        card_brand: None,
        card_last4: None,
        card_bin: None,
        save_card: false,
        failure_code: None,
        decline_reason: None,
        locale: "he".into(),
        return_url: "/order".into(),
        created_at_ms: 0,
        updated_at_ms: 0,
    }
}
