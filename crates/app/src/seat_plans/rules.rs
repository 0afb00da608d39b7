//! A seat plan as the editor draws it ([`PlanDraft`]: sections, rows, seats with their flags, GA
//! areas, the screen) and the rules a plan must keep before it is saved ([`build`]), pure. A
//! stored plan reads back as a draft ([`draft_of`]), so the editor opens what buyers see.
//!
//! The rules (decision 0068), each refused with `seatPlanInvalid` and `params.field` /
//! `params.rule`: the plan is 2 to 200 cells each way and every seat and row line lies inside
//! it; no two seats share a cell; a seat's row and seat names are unique in its section; a sofa
//! is two seats side by side (same row, same y, next x); a companion seat sits beside a
//! wheelchair place (same section and row, next x: where the companion ticket sells, decision
//! 0010); a GA area has a capacity above 0 and no rows; the plan has at least one seat or GA
//! place; ticket groups exist; texts are not empty and not too long.

use std::collections::{BTreeMap, HashMap, HashSet};

use kupa_domain::catalogue::SectionKind;

use crate::model::{Seat, Seatplan, Section};

/// The largest plan, in grid cells each way.
pub const MAX_PLAN_CELLS: i64 = 200;
/// Limits that keep one save to one reasonable transaction.
pub const MAX_SECTIONS: usize = 50;
pub const MAX_SEATS: usize = 5000;
pub const MAX_GA_CAPACITY: i64 = 100_000;
const MAX_NAME: usize = 100;
const MAX_SEAT_NAME: usize = 10;
const MAX_ATTRIBUTES: usize = 200;

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlanDraft {
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub screen: ScreenDraft,
    pub sections: Vec<SectionDraft>,
}

/// The screen: its words, and where it stands (from `x`, `width` cells wide, at the top).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScreenDraft {
    pub label: String,
    pub label_en: String,
    pub x: i64,
    pub width: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SectionDraft {
    pub name: String,
    pub name_en: String,
    pub kind: SectionKind,
    pub ticket_group_id: i64,
    pub price_level: i64,
    /// Places of a GA area; ignored for a reserved section (its seats count).
    pub capacity: i64,
    pub rows: Vec<RowDraft>,
}

/// A row: its name, the line it stands on (its y before a curve; the seats' `group_id`, so the
/// seating rules see one row however it curves) and its seats.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RowDraft {
    pub name: String,
    pub line: i64,
    pub seats: Vec<SeatDraft>,
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SeatDraft {
    pub x: i64,
    pub y: i64,
    pub name: String,
    pub premium: bool,
    pub wheelchair: bool,
    pub companion: bool,
    pub limited_view: bool,
    /// Seats of one section with the same number share a sofa (or bed).
    pub sofa: Option<i64>,
    /// Custom attribute codes, comma separated (kept from the plan it was drawn from).
    pub attributes: String,
}

/// A plan that keeps the rules, ready to write: the store gives it its ids.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewPlan {
    pub venue_id: i64,
    pub based_on: Option<i64>,
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub screen_label: String,
    pub screen_label_en: String,
    pub screen_x: i64,
    pub screen_width: i64,
    pub best_x: i64,
    pub best_y: i64,
    pub sections: Vec<NewSection>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSection {
    pub name: String,
    pub name_en: String,
    pub kind: SectionKind,
    pub capacity: i64,
    pub ticket_group_id: i64,
    pub price_level: i64,
    pub seats: Vec<NewSeat>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewSeat {
    pub x: i64,
    pub y: i64,
    pub row_name: String,
    pub seat_name: String,
    pub group_id: i64,
    pub premium: bool,
    pub handicap: bool,
    pub companion: bool,
    pub limited_view: bool,
    /// The seat's sofa, numbered from 1 within its section; see [`sofa_id`].
    pub sofa: Option<i64>,
    pub attributes: String,
}

impl NewPlan {
    pub fn seat_count(&self) -> usize {
        self.sections.iter().map(|s| s.seats.len()).sum()
    }
}

/// The stored sofa id of a section's sofa number `n` (unique in the plan, as the catalogue's).
pub fn sofa_id(section_id: i64, n: i64) -> i64 {
    section_id * 100_000 + n
}

/// A broken rule: where (`plan.sections[0].rows[1].seats[2]`), which, and in words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    pub field: String,
    pub rule: &'static str,
    pub message: String,
}

fn invalid(field: impl Into<String>, rule: &'static str, message: impl Into<String>) -> Invalid {
    Invalid {
        field: field.into(),
        rule,
        message: message.into(),
    }
}

fn text(field: &str, s: &str, max: usize, required: bool) -> Result<(), Invalid> {
    let n = s.chars().count();
    if (required && s.trim().is_empty()) || n > max {
        let need = if required { "1" } else { "0" };
        return Err(invalid(
            field,
            "text",
            format!("{field} takes {need} to {max} characters"),
        ));
    }
    Ok(())
}

/// Checks a drawn plan against every rule and makes it ready to write.
pub fn build(
    venue_id: i64,
    based_on: Option<i64>,
    d: &PlanDraft,
    ticket_groups: &[i64],
) -> Result<NewPlan, Invalid> {
    for (field, v) in [("plan.width", d.width), ("plan.height", d.height)] {
        if !(2..=MAX_PLAN_CELLS).contains(&v) {
            return Err(invalid(
                field,
                "planSize",
                format!("a plan is 2 to {MAX_PLAN_CELLS} cells each way"),
            ));
        }
    }
    text("plan.name", &d.name, MAX_NAME, true)?;
    text("plan.screen.label", &d.screen.label, MAX_NAME, false)?;
    text("plan.screen.labelEn", &d.screen.label_en, MAX_NAME, false)?;
    if d.screen.x < 0 || d.screen.width < 1 || d.screen.x + d.screen.width > d.width {
        return Err(invalid(
            "plan.screen",
            "outsidePlan",
            "the screen stands inside the plan's width",
        ));
    }
    if d.sections.is_empty() || d.sections.len() > MAX_SECTIONS {
        return Err(invalid(
            "plan.sections",
            "empty",
            format!("a plan has 1 to {MAX_SECTIONS} sections"),
        ));
    }
    let inside = |x: i64, y: i64| (1..d.width).contains(&x) && (1..d.height).contains(&y);
    let mut places: HashSet<(i64, i64)> = HashSet::new();
    let mut sections = Vec::with_capacity(d.sections.len());
    let mut total_seats = 0usize;
    let mut total_places = 0i64;
    for (si, s) in d.sections.iter().enumerate() {
        let at = format!("plan.sections[{si}]");
        text(&format!("{at}.name"), &s.name, MAX_NAME, true)?;
        text(&format!("{at}.nameEn"), &s.name_en, MAX_NAME, false)?;
        if !ticket_groups.contains(&s.ticket_group_id) {
            return Err(invalid(
                format!("{at}.ticketGroupId"),
                "ticketGroup",
                "no such ticket group",
            ));
        }
        if !(1..=99).contains(&s.price_level) {
            return Err(invalid(
                format!("{at}.priceLevel"),
                "priceLevel",
                "a price level is 1 to 99",
            ));
        }
        let mut seats = Vec::new();
        match s.kind {
            SectionKind::Ga => {
                if !s.rows.is_empty() {
                    return Err(invalid(
                        format!("{at}.rows"),
                        "gaRows",
                        "a GA area has no rows",
                    ));
                }
                if !(1..=MAX_GA_CAPACITY).contains(&s.capacity) {
                    return Err(invalid(
                        format!("{at}.capacity"),
                        "gaCapacity",
                        format!("a GA area holds 1 to {MAX_GA_CAPACITY} places"),
                    ));
                }
                total_places += s.capacity;
            }
            SectionKind::Reserved => {
                let mut names: HashSet<(&str, &str)> = HashSet::new();
                for (ri, r) in s.rows.iter().enumerate() {
                    let at = format!("{at}.rows[{ri}]");
                    text(&format!("{at}.name"), &r.name, MAX_SEAT_NAME, true)?;
                    if !(1..d.height).contains(&r.line) {
                        return Err(invalid(
                            format!("{at}.line"),
                            "outsidePlan",
                            "the row's line is inside the plan",
                        ));
                    }
                    if r.seats.is_empty() {
                        return Err(invalid(
                            format!("{at}.seats"),
                            "rowEmpty",
                            "a row has at least one seat",
                        ));
                    }
                    for (ki, k) in r.seats.iter().enumerate() {
                        let at = format!("{at}.seats[{ki}]");
                        text(&format!("{at}.name"), &k.name, MAX_SEAT_NAME, true)?;
                        text(
                            &format!("{at}.attributes"),
                            &k.attributes,
                            MAX_ATTRIBUTES,
                            false,
                        )?;
                        if !inside(k.x, k.y) {
                            return Err(invalid(
                                at,
                                "outsidePlan",
                                format!(
                                    "the seat is outside the plan (x 1 to {}, y 1 to {})",
                                    d.width - 1,
                                    d.height - 1
                                ),
                            ));
                        }
                        if !places.insert((k.x, k.y)) {
                            return Err(invalid(
                                at,
                                "placeTaken",
                                format!("another seat stands at x {} y {}", k.x, k.y),
                            ));
                        }
                        if !names.insert((r.name.as_str(), k.name.as_str())) {
                            return Err(invalid(
                                at,
                                "seatNameTaken",
                                format!(
                                    "row {} already has a seat {} in this section",
                                    r.name, k.name
                                ),
                            ));
                        }
                        total_seats += 1;
                        if total_seats > MAX_SEATS {
                            return Err(invalid(
                                "plan.sections",
                                "tooMany",
                                format!("a plan has at most {MAX_SEATS} seats"),
                            ));
                        }
                        seats.push(NewSeat {
                            x: k.x,
                            y: k.y,
                            row_name: r.name.clone(),
                            seat_name: k.name.clone(),
                            group_id: r.line,
                            premium: k.premium,
                            handicap: k.wheelchair,
                            companion: k.companion,
                            limited_view: k.limited_view,
                            sofa: k.sofa,
                            attributes: k.attributes.clone(),
                        });
                    }
                }
                check_sofas(&at, s, &mut seats)?;
                check_companions(&at, s)?;
            }
        }
        sections.push(NewSection {
            name: s.name.clone(),
            name_en: s.name_en.clone(),
            kind: s.kind,
            capacity: match s.kind {
                SectionKind::Ga => s.capacity,
                SectionKind::Reserved => seats.len() as i64,
            },
            ticket_group_id: s.ticket_group_id,
            price_level: s.price_level,
            seats,
        });
    }
    if total_seats == 0 && total_places == 0 {
        return Err(invalid(
            "plan.sections",
            "empty",
            "a plan has at least one seat or GA place",
        ));
    }
    let max_y = sections
        .iter()
        .flat_map(|s| s.seats.iter().map(|k| k.y))
        .max()
        .unwrap_or(0);
    Ok(NewPlan {
        venue_id,
        based_on,
        name: d.name.trim().to_owned(),
        width: d.width,
        height: d.height,
        screen_label: d.screen.label.clone(),
        screen_label_en: d.screen.label_en.clone(),
        screen_x: d.screen.x,
        screen_width: d.screen.width,
        // Best-available looks from the middle of the screen, two thirds back (as the
        // catalogue's default).
        best_x: d.screen.x + d.screen.width / 2,
        best_y: (2 * max_y + 2) / 3,
        sections,
    })
}

/// The (row, seat) index of every seat of a section, in the order of the draft.
fn positions(s: &SectionDraft) -> impl Iterator<Item = (usize, usize, &RowDraft, &SeatDraft)> {
    s.rows.iter().enumerate().flat_map(|(ri, r)| {
        r.seats
            .iter()
            .enumerate()
            .map(move |(ki, k)| (ri, ki, r, k))
    })
}

/// Every sofa is two seats side by side: same row line, same y, next x. Its seats are numbered
/// 1, 2, ... within the section in the order they first appear.
fn check_sofas(at: &str, s: &SectionDraft, seats: &mut [NewSeat]) -> Result<(), Invalid> {
    let mut groups: BTreeMap<i64, Vec<(usize, usize, &RowDraft, &SeatDraft)>> = BTreeMap::new();
    let mut order: Vec<i64> = Vec::new();
    for p in positions(s) {
        if let Some(sofa) = p.3.sofa {
            if !groups.contains_key(&sofa) {
                order.push(sofa);
            }
            groups.entry(sofa).or_default().push(p);
        }
    }
    for (sofa, members) in &groups {
        let pair = match members.as_slice() {
            [a, b] => a.2.line == b.2.line && a.3.y == b.3.y && a.3.x.abs_diff(b.3.x) == 1,
            _ => false,
        };
        if !pair {
            let (ri, ki, _, _) = members[members.len() - 1];
            return Err(invalid(
                format!("{at}.rows[{ri}].seats[{ki}]"),
                "sofaNotPair",
                format!("sofa {sofa} is not two seats side by side in one row"),
            ));
        }
    }
    let number: HashMap<i64, i64> = order
        .iter()
        .enumerate()
        .map(|(i, sofa)| (*sofa, i as i64 + 1))
        .collect();
    for (seat, (_, _, _, k)) in seats.iter_mut().zip(positions(s)) {
        seat.sofa = k.sofa.map(|n| number[&n]);
    }
    Ok(())
}

/// A companion seat sits beside a wheelchair place: the same section and row line, the next x.
fn check_companions(at: &str, s: &SectionDraft) -> Result<(), Invalid> {
    let wheelchairs: HashSet<(i64, i64)> = positions(s)
        .filter(|p| p.3.wheelchair)
        .map(|p| (p.2.line, p.3.x))
        .collect();
    for (ri, ki, r, k) in positions(s) {
        if k.companion
            && !wheelchairs.contains(&(r.line, k.x - 1))
            && !wheelchairs.contains(&(r.line, k.x + 1))
        {
            return Err(invalid(
                format!("{at}.rows[{ri}].seats[{ki}]"),
                "companionAlone",
                format!(
                    "companion seat {} of row {} is not beside a wheelchair place",
                    k.name, r.name
                ),
            ));
        }
    }
    Ok(())
}

/// A stored plan as the editor opens it: sections in their order, each reserved section's seats
/// gathered into rows (by row line and name, in line then x order), seats left to right. A plan
/// without a screen position gets the middle of the hall, as the buyer's map draws it.
pub fn draft_of(plan: &Seatplan, sections: &[Section], seats: &[Seat]) -> PlanDraft {
    // A plan of GA areas only is 1 by 1 in the catalogue: the editor opens it with room to draw.
    let (width, height) = if seats.is_empty() {
        (plan.width.max(24), plan.height.max(16))
    } else {
        (plan.width.max(2), plan.height.max(2))
    };
    let (screen_x, screen_width) = match (plan.screen_x, plan.screen_width) {
        (Some(x), Some(w)) => (x, w),
        _ => {
            let x = (width * 15 + 50) / 100;
            (x, (width - 2 * x).max(1))
        }
    };
    let mut ordered: Vec<&Section> = sections.iter().collect();
    ordered.sort_by_key(|s| (s.sort, s.id));
    PlanDraft {
        name: plan.name.clone(),
        width,
        height,
        screen: ScreenDraft {
            label: plan.screen_label.clone(),
            label_en: plan.screen_label_en.clone(),
            x: screen_x,
            width: screen_width,
        },
        sections: ordered
            .into_iter()
            .map(|s| {
                let mut rows: Vec<RowDraft> = Vec::new();
                let mut mine: Vec<&Seat> = seats.iter().filter(|k| k.section_id == s.id).collect();
                mine.sort_by_key(|k| (k.group_id, k.x, k.y));
                // Sofas numbered 1, 2, ... in the section, in drawing order (as a save numbers them).
                let mut sofas: Vec<i64> = Vec::new();
                for k in &mine {
                    if let Some(id) = k.sofa_id
                        && !sofas.contains(&id)
                    {
                        sofas.push(id);
                    }
                }
                let sofa_number =
                    |id: i64| sofas.iter().position(|s| *s == id).map(|i| i as i64 + 1);
                for k in mine {
                    let seat = SeatDraft {
                        x: k.x,
                        y: k.y,
                        name: k.seat_name.clone(),
                        premium: k.premium,
                        wheelchair: k.handicap,
                        companion: k.companion,
                        limited_view: k.limited_view,
                        sofa: k.sofa_id.and_then(sofa_number),
                        attributes: k.attributes.clone(),
                    };
                    match rows
                        .iter_mut()
                        .find(|r| r.line == k.group_id && r.name == k.row_name)
                    {
                        Some(r) => r.seats.push(seat),
                        None => rows.push(RowDraft {
                            name: k.row_name.clone(),
                            line: k.group_id,
                            seats: vec![seat],
                        }),
                    }
                }
                for r in &mut rows {
                    r.seats.sort_by_key(|k| k.x);
                }
                SectionDraft {
                    name: s.name.clone(),
                    name_en: s.name_en.clone(),
                    kind: s.kind,
                    ticket_group_id: s.ticket_group_id,
                    price_level: s.price_level,
                    capacity: match s.kind {
                        SectionKind::Ga => s.capacity,
                        SectionKind::Reserved => 0,
                    },
                    rows,
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(x: i64, name: &str) -> SeatDraft {
        SeatDraft {
            x,
            y: 2,
            name: name.into(),
            ..SeatDraft::default()
        }
    }

    fn row(name: &str, seats: Vec<SeatDraft>) -> RowDraft {
        RowDraft {
            name: name.into(),
            line: 2,
            seats,
        }
    }

    fn reserved(rows: Vec<RowDraft>) -> SectionDraft {
        SectionDraft {
            name: "אולם".into(),
            name_en: "Stalls".into(),
            kind: SectionKind::Reserved,
            ticket_group_id: 1,
            price_level: 1,
            capacity: 0,
            rows,
        }
    }

    fn plan(sections: Vec<SectionDraft>) -> PlanDraft {
        PlanDraft {
            name: "Hall".into(),
            width: 12,
            height: 8,
            screen: ScreenDraft {
                label: "מסך".into(),
                label_en: "Screen".into(),
                x: 2,
                width: 8,
            },
            sections,
        }
    }

    fn three() -> Vec<SeatDraft> {
        vec![seat(3, "1"), seat(4, "2"), seat(5, "3")]
    }

    fn rule(d: &PlanDraft) -> (&'static str, String) {
        let e = build(1, None, d, &[1]).expect_err("refused");
        (e.rule, e.field)
    }

    #[test]
    fn a_plain_row_builds_with_its_line_as_the_group_and_the_best_point_under_the_screen() {
        let p = build(
            1,
            Some(4),
            &plan(vec![reserved(vec![row("א", three())])]),
            &[1],
        )
        .unwrap();
        assert_eq!(p.seat_count(), 3);
        assert_eq!(p.sections[0].capacity, 3);
        assert!(p.sections[0].seats.iter().all(|k| k.group_id == 2));
        assert_eq!((p.best_x, p.best_y), (6, 2));
        assert_eq!(p.based_on, Some(4));
    }

    #[test]
    fn seats_outside_the_plan_or_on_a_taken_cell_are_refused_with_their_place() {
        let mut d = plan(vec![reserved(vec![row("1", vec![seat(12, "1")])])]);
        assert_eq!(
            rule(&d),
            ("outsidePlan", "plan.sections[0].rows[0].seats[0]".into())
        );
        d.sections[0].rows[0].seats = vec![seat(0, "1")];
        assert_eq!(rule(&d).0, "outsidePlan");
        d.sections[0].rows = vec![row("1", three()), row("2", vec![seat(4, "1")])];
        assert_eq!(
            rule(&d),
            ("placeTaken", "plan.sections[0].rows[1].seats[0]".into())
        );
    }

    #[test]
    fn seat_names_are_unique_in_a_row_of_a_section_but_not_across_sections() {
        let d = plan(vec![reserved(vec![row(
            "1",
            vec![seat(3, "1"), seat(4, "1")],
        )])]);
        assert_eq!(
            rule(&d),
            ("seatNameTaken", "plan.sections[0].rows[0].seats[1]".into())
        );
        let mut other = reserved(vec![row("1", vec![seat(8, "1")])]);
        other.rows[0].line = 4;
        other.rows[0].seats[0].y = 4;
        let d = plan(vec![reserved(vec![row("1", vec![seat(3, "1")])]), other]);
        assert!(build(1, None, &d, &[1]).is_ok());
    }

    #[test]
    fn a_sofa_is_two_seats_side_by_side_in_one_row() {
        let mut seats = three();
        seats[0].sofa = Some(9);
        seats[1].sofa = Some(9);
        let p = build(
            1,
            None,
            &plan(vec![reserved(vec![row("1", seats.clone())])]),
            &[1],
        )
        .unwrap();
        let sofas: Vec<Option<i64>> = p.sections[0].seats.iter().map(|k| k.sofa).collect();
        assert_eq!(sofas, [Some(1), Some(1), None]);
        // Three seats, one seat alone, or two apart: refused.
        seats[2].sofa = Some(9);
        assert_eq!(
            rule(&plan(vec![reserved(vec![row("1", seats.clone())])])).0,
            "sofaNotPair"
        );
        let mut alone = three();
        alone[1].sofa = Some(3);
        assert_eq!(
            rule(&plan(vec![reserved(vec![row("1", alone)])])).0,
            "sofaNotPair"
        );
        let mut apart = three();
        apart[0].sofa = Some(3);
        apart[2].sofa = Some(3);
        assert_eq!(
            rule(&plan(vec![reserved(vec![row("1", apart)])])),
            ("sofaNotPair", "plan.sections[0].rows[0].seats[2]".into())
        );
    }

    #[test]
    fn a_companion_seat_must_sit_beside_a_wheelchair_place() {
        let mut seats = three();
        seats[0].companion = true;
        assert_eq!(
            rule(&plan(vec![reserved(vec![row("1", seats.clone())])])).0,
            "companionAlone"
        );
        seats[1].wheelchair = true;
        assert!(build(1, None, &plan(vec![reserved(vec![row("1", seats)])]), &[1]).is_ok());
    }

    #[test]
    fn a_ga_area_needs_places_and_a_plan_needs_a_seat_or_a_place() {
        let mut ga = reserved(vec![]);
        ga.kind = SectionKind::Ga;
        ga.capacity = 0;
        assert_eq!(
            rule(&plan(vec![ga.clone()])),
            ("gaCapacity", "plan.sections[0].capacity".into())
        );
        ga.capacity = 80;
        let p = build(1, None, &plan(vec![ga]), &[1]).unwrap();
        assert_eq!(p.sections[0].capacity, 80);
        assert_eq!(rule(&plan(vec![reserved(vec![])])).0, "empty");
        assert_eq!(rule(&plan(vec![])).0, "empty");
    }

    #[test]
    fn sizes_texts_ticket_groups_and_the_screen_are_checked() {
        let ok = plan(vec![reserved(vec![row("1", three())])]);
        let mut d = ok.clone();
        d.width = 201;
        assert_eq!(rule(&d), ("planSize", "plan.width".into()));
        let mut d = ok.clone();
        d.name = " ".into();
        assert_eq!(rule(&d), ("text", "plan.name".into()));
        let mut d = ok.clone();
        d.sections[0].ticket_group_id = 7;
        assert_eq!(
            rule(&d),
            ("ticketGroup", "plan.sections[0].ticketGroupId".into())
        );
        let mut d = ok.clone();
        d.screen.x = 6;
        assert_eq!(rule(&d), ("outsidePlan", "plan.screen".into()));
        let mut d = ok;
        d.sections[0].rows[0].seats.clear();
        assert_eq!(
            rule(&d),
            ("rowEmpty", "plan.sections[0].rows[0].seats".into())
        );
    }

    #[test]
    fn a_stored_plan_reads_back_as_rows_of_seats_left_to_right() {
        let sp = Seatplan {
            id: 5,
            venue_id: 1,
            name: "Hall".into(),
            width: 20,
            height: 6,
            ..Seatplan::default()
        };
        let section = Section {
            id: 10,
            seatplan_id: 5,
            name: "a".into(),
            kind: SectionKind::Reserved,
            ticket_group_id: 1,
            price_level: 1,
            ..Section::default()
        };
        let k = |x: i64, y: i64, row: &str, n: &str| Seat {
            seatplan_id: 5,
            section_id: 10,
            x,
            y,
            row_name: row.into(),
            seat_name: n.into(),
            group_id: 2,
            ..Seat::default()
        };
        // A curved row: its ends stand a cell nearer the screen.
        let seats = vec![k(4, 1, "1", "3"), k(3, 2, "1", "2"), k(2, 1, "1", "1")];
        let d = draft_of(&sp, &[section], &seats);
        assert_eq!((d.screen.x, d.screen.width), (3, 14));
        assert_eq!(d.sections[0].rows.len(), 1);
        let names: Vec<&str> = d.sections[0].rows[0]
            .seats
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        assert_eq!(names, ["1", "2", "3"]);
        assert_eq!(d.sections[0].rows[0].line, 2);
        // And builds again as it was.
        let p = build(1, None, &d, &[1]).unwrap();
        assert_eq!(p.seat_count(), 3);
    }
}
