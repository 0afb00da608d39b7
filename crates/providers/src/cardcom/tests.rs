use super::*;
use async_trait::async_trait;
use kupa_app::orders::PaymentGateway;
use kupa_domain::money::Money;

fn config() -> CardComConfig {
    CardComConfig {
        terminal: 1000,
        api_name: Secret::new("kupa-api-name"),
        api_password: Some(Secret::new("kupa-api-password")),
        api_url: "http://127.0.0.1:9".into(),
        public_url: "https://tickets.example".into(),
        timeout: Duration::from_secs(1),
    }
}

/// Deals kept nowhere: these tests only build requests and judge answers.
struct NoDeals;

#[async_trait]
impl PaymentDeals for NoDeals {
    async fn keep(
        &self,
        _: DealRef,
        _: &str,
        _: &str,
        _: &str,
        _: i64,
    ) -> kupa_app::StoreResult<()> {
        Ok(())
    }
    async fn kept(&self, _: DealRef, _: &str) -> kupa_app::StoreResult<Option<String>> {
        Ok(None)
    }
    async fn refund_made(&self, _: &str, _: &str) -> kupa_app::StoreResult<bool> {
        Ok(false)
    }
    async fn record_refund(&self, _: &str, _: &str, _: Money, _: i64) -> kupa_app::StoreResult<()> {
        Ok(())
    }
    async fn claim_refund_key(
        &self,
        _: &str,
        _: &str,
        _: Money,
        _: i64,
        _: i64,
    ) -> kupa_app::StoreResult<kupa_app::ports::RefundClaim> {
        Ok(kupa_app::ports::RefundClaim::Claimed)
    }
    async fn release_refund_key(&self, _: &str, _: &str) -> kupa_app::StoreResult<()> {
        Ok(())
    }
    async fn claim_open_to_ask(
        &self,
        _: &str,
        _: i64,
        _: i64,
        _: i64,
        _: i64,
        _: i64,
    ) -> kupa_app::StoreResult<Vec<String>> {
        Ok(Vec::new())
    }
    async fn keep_card_token(
        &self,
        _: &str,
        _: &str,
        _: &str,
        _: i64,
    ) -> kupa_app::StoreResult<()> {
        Ok(())
    }
    async fn provider_card(
        &self,
        _: &str,
        _: i64,
        _: &str,
    ) -> kupa_app::StoreResult<Option<kupa_app::ports::ProviderCard>> {
        Ok(None)
    }
}

fn cardcom() -> CardCom {
    CardCom::new(
        config(),
        Arc::new(NoDeals),
        Arc::new(crate::clock::ServerClock::new()),
    )
    .unwrap()
}

fn payment() -> Payment {
    Payment {
        amount: Money(8_400),
        installments: 3,
        locale: "ru".into(),
        return_url: "/order/12?step=payment#pay".into(),
        ..crate::testing::payment()
    }
}

fn result(return_value: &str, deal_code: i64, amount: f64) -> LpResult {
    LpResult {
        response_code: 0,
        terminal_number: Some(1000),
        low_profile_id: Some("lp-1".into()),
        return_value: Some(return_value.into()),
        tranzaction_info: Some(TranzactionInfo {
            response_code: deal_code,
            tranzaction_id: Some(555),
            amount: Some(amount),
            coin_id: Some(1),
            last4_card_digits_string: Some("4242".into()),
            number_of_payments: Some(3),
            brand: Some("Visa".into()),
            ..TranzactionInfo::default()
        }),
        ..LpResult::default()
    }
}

#[test]
fn the_page_is_asked_for_in_shekels_with_the_installments_and_our_payment_id() {
    let c = cardcom();
    let b = c.create_body(&payment());
    assert_eq!(b["TerminalNumber"], 1000);
    assert_eq!(b["Amount"], 84.0);
    assert_eq!(b["ReturnValue"], "pay_1");
    assert_eq!(b["Operation"], "ChargeOnly");
    assert_eq!(b["ISOCoinId"], 1);
    assert_eq!(b["Language"], "ru");
    assert_eq!(b["AdvancedDefinition"]["MinNumOfPayments"], 3);
    assert_eq!(b["AdvancedDefinition"]["MaxNumOfPayments"], 3);
    assert_eq!(
        b["WebHookUrl"],
        "https://tickets.example/pay/cardcom/notify"
    );
    assert_eq!(
        b["SuccessRedirectUrl"],
        "https://tickets.example/order/12?step=payment&paymentId=pay_1#pay"
    );
    let saving = Payment {
        save_card: true,
        return_url: "https://evil.example/".into(),
        ..payment()
    };
    let b = c.create_body(&saving);
    assert_eq!(b["Operation"], "ChargeAndCreateToken");
    assert_eq!(
        b["FailedRedirectUrl"],
        "https://tickets.example/?paymentId=pay_1"
    );
    assert!(!format!("{:?}", c.config()).contains("kupa-api-password"));
}

#[test]
fn a_successful_deal_for_this_payment_and_amount_is_authorized() {
    let u = judge(&payment(), 1000, &result("pay_1", 0, 84.0)).unwrap();
    assert_eq!(u.status, PaymentStatus::Authorized);
    assert_eq!(u.card_last4.as_deref(), Some("4242"));
    assert_eq!(u.failure_code, None);
    assert_eq!(u.note, "cardcom deal 555");
}

#[test]
fn a_declined_deal_is_a_payment_error() {
    let u = judge(&payment(), 1000, &result("pay_1", 5, 84.0)).unwrap();
    assert_eq!(u.status, PaymentStatus::Declined);
    assert_eq!(u.failure_code.as_deref(), Some("paymentError"));
    assert_eq!(u.card_last4, None);
}

#[test]
fn another_payment_amount_or_terminal_is_not_believed() {
    assert!(judge(&payment(), 1000, &result("pay_2", 0, 84.0)).is_err());
    assert!(judge(&payment(), 1000, &result("pay_1", 0, 1.0)).is_err());
    assert!(judge(&payment(), 2000, &result("pay_1", 0, 84.0)).is_err());
    let unfinished = LpResult {
        tranzaction_info: None,
        ..result("pay_1", 0, 84.0)
    };
    assert!(
        judge(&payment(), 1000, &unfinished).is_err(),
        "no deal yet: nothing to record"
    );
}

#[test]
fn cardcom_is_configured_only_when_asked_for_and_needs_its_keys() {
    let none = |_: &str| None;
    assert!(
        CardComConfig::from_lookup(&none, "https://t.example")
            .unwrap()
            .is_none()
    );
    let partial = |k: &str| (k == "KUPA_PAYMENT_GATEWAY").then(|| "cardcom".to_owned());
    assert!(CardComConfig::from_lookup(&partial, "https://t.example").is_err());
    let full = |k: &str| match k {
        "KUPA_PAYMENT_GATEWAY" => Some("cardcom".to_owned()),
        "KUPA_CARDCOM_TERMINAL" => Some("1000".to_owned()),
        "KUPA_CARDCOM_API_NAME" => Some("name".to_owned()),
        _ => None,
    };
    let c = CardComConfig::from_lookup(&full, "https://t.example/")
        .unwrap()
        .unwrap();
    assert_eq!(c.public_url, "https://t.example");
    assert!(c.summary().contains("refunds OFF"));
    assert_eq!(c.page_origin(), "https://secure.cardcom.solutions");
    assert!(CardComConfig::from_lookup(&full, "http://t.example").is_err());
}

#[tokio::test]
async fn a_method_cardcom_does_not_take_is_refused_before_any_call() {
    // The API address is a closed port: a call would fail as errorNoResponse instead.
    let blik = Payment {
        method: kupa_app::orders::PaymentMethod::Blik,
        ..payment()
    };
    let e = cardcom().open_page(&blik).await.unwrap_err().to_string();
    assert!(e.contains("not offered with CardCom"), "{e}");
    let card = cardcom()
        .open_page(&payment())
        .await
        .unwrap_err()
        .to_string();
    assert!(card.contains("could not be opened"), "{card}");
}

#[test]
fn a_saved_card_is_charged_by_token_with_our_payment_id_as_its_unique_id() {
    let c = cardcom();
    let b = c.charge_body(
        &payment(),
        "4cf8e168-261e-4613-8d20-000332986b24",
        &expiration_mmyy(2027, 3),
    );
    assert_eq!(b["Token"], "4cf8e168-261e-4613-8d20-000332986b24");
    assert_eq!(b["CardExpirationMMYY"], "0327");
    assert_eq!(b["Amount"], 84.0);
    assert_eq!(b["NumOfPayments"], 3);
    assert_eq!(b["ExternalUniqTranId"], "pay_1");
    assert_eq!(b["ExternalUniqUniqTranIdResponse"], true);
    assert_eq!(b["ISOCoinId"], 1);
    assert_eq!(expiration_mmyy(2030, 12), "1230");
}

#[test]
fn cardcoms_token_is_masked_in_debug() {
    let r: LpResult = serde_json::from_value(serde_json::json!({
        "ResponseCode": 0,
        "TokenInfo": { "Token": "4cf8e168-261e-4613-8d20-000332986b24", "CardYear": 2027, "CardMonth": 10 },
    }))
    .unwrap();
    let shown = format!("{r:?}");
    assert!(!shown.contains("4cf8e168"), "{shown}");
    assert!(
        shown.contains("[redacted]") && shown.contains("2027"),
        "{shown}"
    );
    let card = kupa_app::ports::ProviderCard {
        provider_token: "4cf8e168-secret".into(),
        expiry_year: 2027,
        expiry_month: 10,
    };
    assert!(!format!("{card:?}").contains("4cf8e168"));
}

#[test]
fn a_token_charges_answer_is_judged_on_terminal_and_amount() {
    let info = |code: i64, amount: f64, terminal: i64| TranzactionInfo {
        response_code: code,
        tranzaction_id: Some(556),
        terminal_number: Some(terminal),
        amount: Some(amount),
        coin_id: Some(1),
        first_card_digits: Some(458045),
        last4_card_digits_string: Some("4580".into()),
        ..TranzactionInfo::default()
    };
    let u = judge_charge(&payment(), 1000, &info(0, 84.0, 1000)).unwrap();
    assert_eq!(u.status, PaymentStatus::Authorized);
    assert_eq!(u.card_bin.as_deref(), Some("458045"));
    let u = judge_charge(&payment(), 1000, &info(33, 84.0, 1000)).unwrap();
    assert_eq!(u.status, PaymentStatus::Declined);
    assert_eq!(u.failure_code.as_deref(), Some("paymentError"));
    assert!(judge_charge(&payment(), 1000, &info(0, 1.0, 1000)).is_err());
    assert!(judge_charge(&payment(), 1000, &info(0, 84.0, 2000)).is_err());
}
