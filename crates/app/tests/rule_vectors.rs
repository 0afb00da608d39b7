//! The rules the web app judges before the server does, run on the shared vectors in
//! `rules/vectors/*.json`. The web app runs the same files with vitest
//! (`web/src/test/ruleVectors.test.ts`), so the two answers cannot drift apart: a change to a
//! rule on either side fails one of the two suites until the vectors say what the rule is.

use std::collections::BTreeMap;
use std::path::PathBuf;

use kupa_app::customer_info::CustomerInfo;
use kupa_app::model::Ticket;
use kupa_app::site_config::SiteConfig;
use kupa_app::tickets::ticket_type;
use kupa_domain::seat_kinds::{self, SeatKind};
use kupa_domain::tickets::{OrderLine, TicketType, auto_assignable, check_senior_id, sub_tickets};
use serde_json::Value;

fn vectors(name: &str) -> Value {
    let path: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "rules",
        "vectors",
        name,
    ]
    .iter()
    .collect();
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name} is not JSON: {e}"))
}

fn cases(doc: &Value) -> &Vec<Value> {
    doc["cases"].as_array().expect("a cases array")
}

fn name(case: &Value) -> &str {
    case["name"].as_str().expect("every case has a name")
}

/// `patch` over `base`, one level deep for the objects named in `deep`.
fn merged(base: &Value, patch: Option<&Value>, deep: &[&str]) -> Value {
    let mut out = base.clone();
    let Some(Value::Object(patch)) = patch else {
        return out;
    };
    let target = out.as_object_mut().expect("defaults are objects");
    for (key, value) in patch {
        match (target.get_mut(key), value) {
            (Some(Value::Object(inner)), Value::Object(changes))
                if deep.contains(&key.as_str()) =>
            {
                for (k, v) in changes {
                    inner.insert(k.clone(), v.clone());
                }
            }
            _ => {
                target.insert(key.clone(), value.clone());
            }
        }
    }
    out
}

#[test]
fn customer_details_break_the_rules_the_vectors_name() {
    let doc = vectors("customer_info.json");
    let mut failures = Vec::new();
    for case in cases(&doc) {
        let config: SiteConfig = serde_json::from_value(merged(
            &doc["defaults"]["config"],
            case.get("config"),
            &["customerInfo"],
        ))
        .unwrap_or_else(|e| panic!("{}: config: {e}", name(case)));
        let info: CustomerInfo =
            serde_json::from_value(merged(&doc["defaults"]["info"], case.get("info"), &[]))
                .unwrap_or_else(|e| panic!("{}: info: {e}", name(case)));
        let normalised = info.normalised();
        let problems: BTreeMap<String, String> = normalised
            .problems(&config)
            .into_iter()
            .map(|(field, rule)| (field.to_owned(), rule.to_owned()))
            .collect();
        let expected: BTreeMap<String, String> =
            serde_json::from_value(case["problems"].clone()).expect("problems: field to rule");
        if problems != expected {
            failures.push(format!(
                "{}: expected {expected:?}, got {problems:?}",
                name(case)
            ));
        }
        if let Some(Value::Object(fields)) = case.get("normalised") {
            let got = serde_json::to_value(&normalised).expect("serialisable");
            for (field, want) in fields {
                if &got[field] != want {
                    failures.push(format!(
                        "{}: normalised {field}: expected {want}, got {}",
                        name(case),
                        got[field]
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_ticket_is_auto_assigned_as_the_vectors_say() {
    let doc = vectors("auto_assignable.json");
    for case in cases(&doc) {
        let ticket: Ticket = serde_json::from_value(case["ticket"].clone())
            .unwrap_or_else(|e| panic!("{}: ticket: {e}", name(case)));
        let got = auto_assignable(
            &ticket_type(&ticket),
            case["isSystemVoucher"].as_bool().expect("isSystemVoucher"),
            case["isHold"].as_bool().expect("isHold"),
        );
        assert_eq!(got, case["expected"].as_bool().unwrap(), "{}", name(case));
    }
}

#[test]
fn a_ticket_fits_the_seats_the_vectors_say() {
    let doc = vectors("ticket_fits_seat.json");
    for case in cases(&doc) {
        let kind = case["ticketSeatKind"]
            .as_str()
            .map(|k| SeatKind::parse(k).unwrap_or_else(|| panic!("{}: kind {k}", name(case))));
        let served: Vec<SeatKind> = case["seatKinds"]
            .as_array()
            .expect("seatKinds")
            .iter()
            .map(|k| SeatKind::parse(k.as_str().unwrap()).expect("a seat kind"))
            .collect();
        assert_eq!(
            seat_kinds::fits(kind.as_ref(), &served),
            case["expected"].as_bool().unwrap(),
            "{}",
            name(case)
        );
    }
}

#[test]
fn a_senior_id_is_judged_as_the_vectors_say() {
    let doc = vectors("senior_id.json");
    for case in cases(&doc) {
        let got = match check_senior_id(Some(case["id"].as_str().expect("id"))) {
            Ok(_) => "ok".to_owned(),
            Err(e) => e.code().as_str().to_owned(),
        };
        assert_eq!(got, case["expected"].as_str().unwrap(), "{}", name(case));
    }
}

#[test]
fn sub_tickets_are_the_lines_the_vectors_say() {
    let doc = vectors("sub_tickets.json");
    for case in cases(&doc) {
        let tickets: Vec<TicketType> = case["tickets"]
            .as_array()
            .expect("tickets")
            .iter()
            .map(|t| TicketType {
                id: t["id"].as_i64().unwrap(),
                multiply_factor: t["multiplyFactor"].as_i64().unwrap(),
                ..TicketType::default()
            })
            .collect();
        let lines: Vec<OrderLine> = case["lines"]
            .as_array()
            .expect("lines")
            .iter()
            .map(|id| OrderLine {
                ticket_id: id.as_i64().unwrap(),
                ..OrderLine::default()
            })
            .collect();
        let expected: Vec<Option<usize>> =
            serde_json::from_value(case["expected"].clone()).expect("expected: null or index");
        assert_eq!(sub_tickets(&lines, &tickets), expected, "{}", name(case));
    }
}
