use super::*;
use crate::catalogue_file::{expand, parse};
use jiff::civil::date;

const FILE: &str = r#"{
  "locations": [{"id": 2, "name": "כפר", "businessId": 1, "isCinema": true}],
  "venues": [{"id": 1, "locationId": 2, "name": "אולם 1", "venueTypeId": 1}],
  "seatplans": [{"id": 1, "venueId": 1, "sections": [
    {"id": 10, "kind": "reserved", "ticketGroupId": 1, "rows": [{"name": "1", "y": 1, "x": 1, "seats": 6}]}
  ]}],
  "categories": [{"id": 1, "name": "דרמה"}],
  "features": [{"id": 5, "name": "סרט", "categoryId": 1}],
  "ticketGroups": [{"id": 1, "name": "רגיל"}],
  "tickets": [{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1}],
  "presentations": [{"id": 7, "featureId": 5, "venueId": 1, "starts": "today+2 20:30"},
                    {"id": 8, "featureId": 5, "venueId": 1, "starts": "today+3 20:30"}]
}"#;

fn load(json: &str) -> CatalogueData {
    expand(parse(json).unwrap(), date(2026, 11, 22)).unwrap()
}

fn kind<'a>(p: &'a ImportPlan, k: &str) -> &'a KindChanges {
    p.kinds.iter().find(|c| c.kind == k).unwrap()
}

#[test]
fn the_same_file_changes_nothing() {
    let d = load(FILE);
    let p = plan_import(&d, &d, &HashSet::from([7]));
    assert_eq!(p.changes(), 0, "{}", p.describe());
    assert!(p.conflicts.is_empty());
    assert_eq!(kind(&p, "presentations").unchanged, 2);
    assert!(p.write.site_config.is_null());
}

#[test]
fn new_rows_are_added_and_changed_ones_updated() {
    let current = load(FILE);
    let file = load(
        &FILE
            .replace(r#""name": "סרט""#, r#""name": "סרט חדש""#)
            .replace(
                r#"{"id": 8,"#,
                r#"{"id": 9, "featureId": 6, "venueId": 1, "starts": "today+4 18:00"}, {"id": 8,"#,
            )
            .replace(
                r#""features": ["#,
                r#""features": [{"id": 6, "name": "אחר", "categoryId": 1}, "#,
            )
            .replace("4200", "4500"),
    );
    let p = plan_import(&file, &current, &HashSet::from([7]));
    assert!(p.conflicts.is_empty(), "{:?}", p.conflicts);
    let f = kind(&p, "features");
    assert_eq!((f.added.clone(), f.updated.clone()), (vec![6], vec![5]));
    let pr = kind(&p, "presentations");
    assert_eq!((pr.added.clone(), pr.unchanged), (vec![9], 2));
    assert_eq!(
        kind(&p, "tickets").updated,
        vec![1],
        "a price changes even where tickets were sold"
    );
    assert_eq!(p.write.features.len(), 2);
    assert_eq!(p.write.presentations.len(), 1);
    assert!(p.write.seatplans.is_empty() && p.write.seats.is_empty());
}

#[test]
fn a_sold_presentation_keeps_its_time_and_an_unsold_one_moves() {
    let current = load(FILE);
    let file = load(
        &FILE
            .replace("today+2 20:30", "today+2 21:00")
            .replace("today+3 20:30", "today+3 22:00"),
    );
    let p = plan_import(&file, &current, &HashSet::from([7]));
    assert_eq!(p.conflicts.len(), 1, "{:?}", p.conflicts);
    assert!(p.conflicts[0].contains("presentation 7 has sales: its start time"));
    assert_eq!(p.unsold_presentations, vec![8]);
    assert!(
        plan_import(&file, &current, &HashSet::new())
            .conflicts
            .is_empty()
    );
}

#[test]
fn a_sold_seat_plan_keeps_its_seats_but_may_grow() {
    let current = load(FILE);
    let fewer = load(&FILE.replace(r#""seats": 6"#, r#""seats": 5"#));
    let p = plan_import(&fewer, &current, &HashSet::from([8]));
    assert_eq!(kind(&p, "seat plans").updated, vec![1]);
    assert_eq!(p.conflicts.len(), 1, "{:?}", p.conflicts);
    assert!(
        p.conflicts[0].contains("1 seats would be removed"),
        "{}",
        p.conflicts[0]
    );
    let renumbered = load(&FILE.replace(r#""seats": 6}"#, r#""seats": 6, "descending": true}"#));
    let p = plan_import(&renumbered, &current, &HashSet::from([8]));
    assert!(p.conflicts[0].contains("6 renumbered"), "{:?}", p.conflicts);
    let more = load(&FILE.replace(r#""seats": 6"#, r#""seats": 8"#));
    let p = plan_import(&more, &current, &HashSet::from([8]));
    assert!(p.conflicts.is_empty(), "{:?}", p.conflicts);
    assert_eq!(p.replaced_seatplans, vec![1]);
    assert_eq!(p.write.seats.len(), 8);
    // Without sales the plan is rewritten whole, and its presentations are checked again.
    let p = plan_import(&fewer, &current, &HashSet::new());
    assert!(p.conflicts.is_empty());
    assert_eq!(p.write.seats.len(), 5);
    assert_eq!(p.unsold_presentations, vec![7, 8]);
}

#[test]
fn the_plan_reads_as_counts_and_conflicts() {
    let current = load(FILE);
    let file = load(&FILE.replace("today+2 20:30", "today+2 21:00"));
    let text = plan_import(&file, &current, &HashSet::from([7])).describe();
    assert!(
        text.contains("presentations: 0 added, 1 updated, 1 unchanged; updated 7"),
        "{text}"
    );
    assert!(
        text.contains("conflict: presentation 7 has sales"),
        "{text}"
    );
}
