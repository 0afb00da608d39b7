//! The waiver a parent signs for the children who will use a voucher (spec sections 2, 3 and 5;
//! issue 15 item 6; decision 0041): checked when the cart is priced, stored with the pending
//! order in its transaction, read back masked by the buyer and whole by a manager of the
//! voucher's business, and deleted with the account or by the sweeper when its time is up.
//!
//! Children's names, birth dates and the signature are personal data: nothing here logs them,
//! and [`OrderWaiver`]'s `Debug` prints none of them.

use async_trait::async_trait;
use base64::Engine;
use jiff::ToSpan;
use jiff::civil::Date;

use super::{OrderSystemVoucher, SystemVoucherClass, WaiverTerms};
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};

/// At most this many children on one waiver.
pub const MAX_WAIVER_CHILDREN: usize = 10;
/// The longest signature accepted, as the data URL the client sends: a drawn signature is 5 to
/// 20 KB of PNG, and a cart must fit the node's 64 KB body limit (decisions 0017, 0041).
pub const MAX_SIGNATURE_CHARS: usize = 48_000;
/// The longest child's or signer's name.
pub const MAX_WAIVER_NAME_CHARS: usize = 100;
/// A waiver is kept this many days after the last day of the order's vouchers (decision 0041).
pub const WAIVER_KEPT_DAYS_AFTER_EXPIRY: i64 = 90;
/// The waiver of an order that was never paid is deleted this long after the order was priced.
pub const UNPAID_WAIVER_KEPT_MS: i64 = 24 * 60 * 60 * 1000;

const PNG_PREFIX: &str = "data:image/png;base64,";
const PNG_MAGIC: &[u8] = b"\x89PNG\r\n\x1a\n";

/// The waiver as the client sends it with `POST /cart`.
#[derive(Clone, PartialEq, Eq, Default)]
pub struct WaiverInput {
    pub children: Vec<ChildInput>,
    /// `data:image/png;base64,…`: the signature drawn on the canvas.
    pub signature: String,
    pub signer_name: String,
}

#[derive(Clone, PartialEq, Eq, Default)]
pub struct ChildInput {
    pub name: String,
    /// YYYY-MM-DD.
    pub birth_date: String,
}

impl std::fmt::Debug for WaiverInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "WaiverInput {{ {} children, redacted }}",
            self.children.len()
        )
    }
}

impl std::fmt::Debug for ChildInput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ChildInput { redacted }")
    }
}

/// A child named on a waiver.
#[derive(Clone, PartialEq, Eq)]
pub struct WaiverChild {
    pub name: String,
    pub birth_date: Date,
}

/// A signed waiver, as stored with its order.
#[derive(Clone, PartialEq, Eq)]
pub struct OrderWaiver {
    /// The (first) class of the order whose waiver this is, and its business: whose managers
    /// may read it.
    pub class_id: i64,
    pub business_id: i64,
    pub children: Vec<WaiverChild>,
    /// The PNG bytes of the signature.
    pub signature_png: Vec<u8>,
    pub signer_name: String,
    pub signed_at_ms: i64,
    /// The last local day it is kept: 90 days after the last day of the order's vouchers.
    pub keep_until: Date,
}

impl std::fmt::Debug for OrderWaiver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "OrderWaiver {{ class_id: {}, {} children, signature and names redacted }}",
            self.class_id,
            self.children.len()
        )
    }
}

impl OrderWaiver {
    /// The signature as the data URL a manager's screen shows.
    pub fn signature_data_url(&self) -> String {
        format!(
            "{PNG_PREFIX}{}",
            base64::engine::general_purpose::STANDARD.encode(&self.signature_png)
        )
    }

    /// What the buyer is shown back (decision 0041): each child's first name and birth year,
    /// never the full birth date or the signature.
    pub fn masked(&self) -> MaskedWaiver {
        MaskedWaiver {
            children: self
                .children
                .iter()
                .map(|c| MaskedChild {
                    first_name: c
                        .name
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_owned(),
                    birth_year: i64::from(c.birth_date.year()),
                })
                .collect(),
            signed_at_ms: self.signed_at_ms,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskedWaiver {
    pub children: Vec<MaskedChild>,
    pub signed_at_ms: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskedChild {
    pub first_name: String,
    pub birth_year: i64,
}

/// A stored waiver with what deciding who may read it needs.
#[derive(Debug, Clone)]
pub struct StoredWaiver {
    pub order_id: String,
    pub reservation_number: String,
    pub paid: bool,
    pub waiver: OrderWaiver,
}

/// The waivers (the store implements it). Written with the pending order
/// (`OrderStore::save_pending_order`), deleted with the account (`delete_account`).
#[async_trait]
pub trait WaiverStore: Send + Sync {
    async fn order_waiver(&self, order_id: &str) -> StoreResult<Option<StoredWaiver>>;
    /// Deletes the waivers kept past `keep_until` (before `today`) and those of orders not paid
    /// that were priced before `unpaid_before_ms`; answers how many.
    async fn sweep_waivers(&self, today: Date, unpaid_before_ms: i64) -> StoreResult<u64>;
}

/// Whole years from `birth` to `on`.
pub fn age_on(birth: Date, on: Date) -> i64 {
    let mut age = i64::from(on.year()) - i64::from(birth.year());
    if (on.month(), on.day()) < (birth.month(), birth.day()) {
        age -= 1;
    }
    age
}

fn invalid(message: impl std::fmt::Display, field: &str) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        message,
        serde_json::json!({ "fields": [field] }),
    )
}

/// Checks the waiver a voucher cart needs: none when no class chosen has one (a waiver sent
/// anyway is refused, so nothing personal is kept for nothing); otherwise at least one child,
/// each named with a birth date in the past, each of the ages of every class chosen on `today`
/// (Asia/Jerusalem), a PNG signature and the signer's name.
pub fn check_waiver(
    classes: &[SystemVoucherClass],
    lines: &[OrderSystemVoucher],
    input: Option<WaiverInput>,
    today: Date,
    now_ms: i64,
) -> AppResult<Option<OrderWaiver>> {
    let mut asking: Vec<(&SystemVoucherClass, &WaiverTerms)> = Vec::new();
    for line in lines {
        if let Some(class) = classes.iter().find(|c| c.id == line.class_id)
            && let Some(terms) = &class.waiver
            && !asking.iter().any(|(c, _)| c.id == class.id)
        {
            asking.push((class, terms));
        }
    }
    let Some((first, _)) = asking.first().copied() else {
        return match input {
            None => Ok(None),
            Some(_) => Err(invalid(
                "no voucher chosen asks for a waiver: send none",
                "waiver",
            )),
        };
    };
    let input = input.ok_or_else(|| {
        invalid(
            "this voucher needs a waiver: the children and a signature",
            "waiver",
        )
    })?;
    if input.children.is_empty() {
        return Err(invalid("name at least one child", "waiver.children"));
    }
    if input.children.len() > MAX_WAIVER_CHILDREN {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            format!("at most {MAX_WAIVER_CHILDREN} children on a waiver"),
            serde_json::json!({ "fields": ["waiver.children"], "max": MAX_WAIVER_CHILDREN }),
        ));
    }
    let mut children = Vec::with_capacity(input.children.len());
    for (i, child) in input.children.iter().enumerate() {
        let name = child.name.trim();
        if name.is_empty() || name.chars().count() > MAX_WAIVER_NAME_CHARS {
            return Err(invalid(
                format!(
                    "child {}: a name of 1 to {MAX_WAIVER_NAME_CHARS} characters",
                    i + 1
                ),
                &format!("waiver.children[{i}].name"),
            ));
        }
        let field = format!("waiver.children[{i}].birthDate");
        let birth_date = child
            .birth_date
            .trim()
            .parse::<Date>()
            .ok()
            .filter(|d| child.birth_date.trim().len() == 10 && d.year() >= 1900)
            .ok_or_else(|| {
                invalid(
                    format!("child {}: the birth date is not a date (YYYY-MM-DD)", i + 1),
                    &field,
                )
            })?;
        if birth_date > today {
            return Err(invalid(
                format!("child {}: the birth date is in the future", i + 1),
                &field,
            ));
        }
        let age = age_on(birth_date, today);
        for (class, terms) in &asking {
            if age < terms.min_age || age > terms.max_age {
                return Err(AppError::rejected_with(
                    ErrorCode::FormValidation,
                    format!(
                        "This voucher is for ages {}–{}; {name} is {age}.",
                        terms.min_age, terms.max_age
                    ),
                    serde_json::json!({
                        "fields": [field],
                        "reason": "waiverAge",
                        "child": name,
                        "childIndex": i,
                        "age": age,
                        "minAge": terms.min_age,
                        "maxAge": terms.max_age,
                        "systemVoucherId": class.id,
                    }),
                ));
            }
        }
        children.push(WaiverChild {
            name: name.to_owned(),
            birth_date,
        });
    }
    let signer_name = input.signer_name.trim();
    if signer_name.is_empty() || signer_name.chars().count() > MAX_WAIVER_NAME_CHARS {
        return Err(invalid(
            format!("the signer's name: 1 to {MAX_WAIVER_NAME_CHARS} characters"),
            "waiver.signerName",
        ));
    }
    let signature_png = signature_png(&input.signature)?;
    let last_day = lines
        .iter()
        .filter_map(|l| l.valid_to.parse::<Date>().ok())
        .max()
        .unwrap_or(today);
    let keep_until = last_day
        .checked_add(WAIVER_KEPT_DAYS_AFTER_EXPIRY.days())
        .map_err(|e| AppError::internal(format!("waiver keep-until: {e}")))?;
    Ok(Some(OrderWaiver {
        class_id: first.id,
        business_id: first.business_id,
        children,
        signature_png,
        signer_name: signer_name.to_owned(),
        signed_at_ms: now_ms,
        keep_until,
    }))
}

/// The PNG bytes of a `data:image/png;base64,` URL of at most [`MAX_SIGNATURE_CHARS`].
fn signature_png(url: &str) -> AppResult<Vec<u8>> {
    let bad = |why: &str| {
        AppError::rejected_with(
            ErrorCode::FormValidation,
            format!("the signature {why}"),
            serde_json::json!({ "fields": ["waiver.signature"], "maxLength": MAX_SIGNATURE_CHARS }),
        )
    };
    if url.len() > MAX_SIGNATURE_CHARS {
        return Err(bad("is too large"));
    }
    let data = url
        .strip_prefix(PNG_PREFIX)
        .ok_or_else(|| bad("must be a PNG image (data:image/png;base64,…)"))?;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|_| bad("is not valid base64"))?;
    if !bytes.starts_with(PNG_MAGIC) || bytes.len() < 64 {
        return Err(bad("must be a PNG image (data:image/png;base64,…)"));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kids_club() -> SystemVoucherClass {
        SystemVoucherClass {
            id: 5,
            business_id: 1,
            waiver: Some(WaiverTerms {
                min_age: 4,
                max_age: 12,
                text: "הסכמה".into(),
                text_en: "Consent".into(),
            }),
            ..Default::default()
        }
    }

    fn line(class_id: i64) -> OrderSystemVoucher {
        OrderSystemVoucher {
            line: 0,
            class_id,
            price_id: Some(51),
            name: String::new(),
            name_en: String::new(),
            price: kupa_domain::money::Money(12000),
            value: None,
            benefit_tickets: Some(5),
            ticket_id: 113,
            reference: String::new(),
            code_id: 1,
            valid_from: "2030-06-12".into(),
            valid_to: "2030-12-09".into(),
        }
    }

    fn png() -> String {
        let mut bytes = PNG_MAGIC.to_vec();
        bytes.extend([0u8; 80]);
        format!(
            "{PNG_PREFIX}{}",
            base64::engine::general_purpose::STANDARD.encode(bytes)
        )
    }

    fn input(children: &[(&str, &str)]) -> WaiverInput {
        WaiverInput {
            children: children
                .iter()
                .map(|(n, b)| ChildInput {
                    name: (*n).into(),
                    birth_date: (*b).into(),
                })
                .collect(),
            signature: png(),
            signer_name: "דנה לוי".into(),
        }
    }

    fn today() -> Date {
        Date::constant(2030, 6, 12)
    }

    fn params(e: AppError) -> serde_json::Value {
        match e {
            AppError::Rejected { params, .. } => params.unwrap_or_default(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn age_counts_whole_years_to_the_birthday() {
        assert_eq!(age_on(Date::constant(2018, 6, 12), today()), 12);
        assert_eq!(age_on(Date::constant(2018, 6, 13), today()), 11);
        assert_eq!(
            age_on(Date::constant(2028, 2, 29), Date::constant(2031, 2, 28)),
            2
        );
        assert_eq!(
            age_on(Date::constant(2028, 2, 29), Date::constant(2031, 3, 1)),
            3
        );
    }

    #[test]
    fn a_child_outside_the_ages_is_refused_by_name() {
        let classes = [kids_club()];
        let e = check_waiver(
            &classes,
            &[line(5)],
            Some(input(&[("נועה כהן", "2028-01-01"), ("Dan", "2020-01-01")])),
            today(),
            0,
        )
        .unwrap_err();
        assert!(e.to_string().contains("ages 4–12; נועה כהן is 2"), "{e}");
        let p = params(e);
        assert_eq!(p["reason"], "waiverAge");
        assert_eq!(p["childIndex"], 0);
        assert_eq!(
            (p["minAge"].as_i64(), p["maxAge"].as_i64()),
            (Some(4), Some(12))
        );
        // 12 on the day is in; 13 is out.
        assert!(
            check_waiver(
                &classes,
                &[line(5)],
                Some(input(&[("A", "2018-06-12")])),
                today(),
                0
            )
            .is_ok()
        );
        let e = check_waiver(
            &classes,
            &[line(5)],
            Some(input(&[("A", "2017-06-12")])),
            today(),
            0,
        );
        assert_eq!(params(e.unwrap_err())["age"], 13);
    }

    #[test]
    fn a_waiver_is_required_only_where_a_class_asks_for_one() {
        let classes = [
            kids_club(),
            SystemVoucherClass {
                id: 2,
                ..Default::default()
            },
        ];
        let e = check_waiver(&classes, &[line(5)], None, today(), 0).unwrap_err();
        assert_eq!(params(e)["fields"][0], "waiver");
        assert_eq!(
            check_waiver(&classes, &[line(2)], None, today(), 0).unwrap(),
            None
        );
        let e = check_waiver(
            &classes,
            &[line(2)],
            Some(input(&[("A", "2020-01-01")])),
            today(),
            0,
        );
        assert_eq!(params(e.unwrap_err())["fields"][0], "waiver");
    }

    #[test]
    fn children_dates_and_the_signature_are_checked() {
        let classes = [kids_club()];
        let field = |i: WaiverInput| {
            params(check_waiver(&classes, &[line(5)], Some(i), today(), 0).unwrap_err())["fields"]
                [0]
            .as_str()
            .unwrap()
            .to_owned()
        };
        assert_eq!(field(input(&[])), "waiver.children");
        assert_eq!(
            field(input(&[("  ", "2020-01-01")])),
            "waiver.children[0].name"
        );
        assert_eq!(
            field(input(&[("A", "2020-01-01"), ("B", "2020-13-01")])),
            "waiver.children[1].birthDate"
        );
        assert_eq!(
            field(input(&[("A", "2031-01-01")])),
            "waiver.children[0].birthDate"
        );
        let mut i = input(&[("A", "2020-01-01")]);
        i.signature = "data:image/jpeg;base64,AAAA".into();
        assert_eq!(field(i), "waiver.signature");
        let mut i = input(&[("A", "2020-01-01")]);
        i.signature = format!("{PNG_PREFIX}{}", "A".repeat(MAX_SIGNATURE_CHARS));
        assert_eq!(field(i), "waiver.signature");
        let mut i = input(&[("A", "2020-01-01")]);
        i.signer_name = String::new();
        assert_eq!(field(i), "waiver.signerName");
    }

    #[test]
    fn a_signed_waiver_is_kept_90_days_past_its_vouchers_and_shown_back_masked() {
        let w = check_waiver(
            &[kids_club()],
            &[line(5)],
            Some(input(&[("נועה כהן", "2022-03-04")])),
            today(),
            7,
        )
        .unwrap()
        .unwrap();
        assert_eq!(w.keep_until, Date::constant(2031, 3, 9));
        assert_eq!((w.class_id, w.business_id, w.signed_at_ms), (5, 1, 7));
        let m = w.masked();
        assert_eq!(
            m.children,
            vec![MaskedChild {
                first_name: "נועה".into(),
                birth_year: 2022
            }]
        );
        let debug = format!("{w:?} {:?}", input(&[("נועה כהן", "2022-03-04")]));
        assert!(
            !debug.contains("נועה") && !debug.contains("2022") && !debug.contains("דנה"),
            "{debug}"
        );
        assert!(w.signature_data_url().starts_with(PNG_PREFIX));
    }
}
