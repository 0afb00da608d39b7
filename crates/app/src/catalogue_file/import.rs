//! `kupa catalogue import`: merges a catalogue file into a live database (issue 18 item 1,
//! decision 0049). The plan is pure: the file's rows against the stored ones, by id, and the
//! presentations with sales. Rows missing from the file are left as they are (nothing is
//! deleted); a change to what was sold is a conflict, and any conflict writes nothing.

use std::collections::{HashMap, HashSet};
use std::hash::Hash;

use crate::error::StoreResult;
use crate::model::*;
use crate::ports::{CatalogueImportStore, SeatAddress};

pub use super::import_plan::{ImportPlan, KindChanges};

/// The rows of `new` that are not in `old` or differ from them, by key; and how many are the same.
fn diff<'a, T: PartialEq, K: Eq + Hash + Copy>(
    new: &'a [T],
    old: &'a [T],
    key: impl Fn(&T) -> K,
) -> (Vec<(Option<&'a T>, &'a T)>, usize) {
    let old: HashMap<K, &T> = old.iter().map(|t| (key(t), t)).collect();
    let mut changed = Vec::new();
    let mut same = 0;
    for n in new {
        match old.get(&key(n)) {
            Some(o) if *o == n => same += 1,
            o => changed.push((o.copied(), n)),
        }
    }
    (changed, same)
}

fn kind_of<T>(
    kind: &'static str,
    changed: &[(Option<&T>, &T)],
    same: usize,
    id: impl Fn(&T) -> i64,
) -> KindChanges {
    KindChanges {
        kind,
        added: changed
            .iter()
            .filter(|(o, _)| o.is_none())
            .map(|(_, n)| id(n))
            .collect(),
        updated: changed
            .iter()
            .filter(|(o, _)| o.is_some())
            .map(|(_, n)| id(n))
            .collect(),
        unchanged: same,
    }
}

/// Plain rows: every changed one is written.
macro_rules! plain {
    ($plan:ident, $file:ident, $current:ident, $field:ident, $kind:literal) => {{
        let (changed, same) = diff(&$file.$field, &$current.$field, |r| r.id);
        $plan.kinds.push(kind_of($kind, &changed, same, |r| r.id));
        $plan.write.$field = changed.into_iter().map(|(_, n)| n.clone()).collect();
    }};
}

/// One seat plan with its sections and seats, in a fixed order, for comparing.
#[derive(PartialEq)]
struct PlanWhole<'a> {
    plan: &'a Seatplan,
    sections: Vec<&'a Section>,
    seats: Vec<&'a Seat>,
}

fn wholes(d: &CatalogueData) -> Vec<PlanWhole<'_>> {
    d.seatplans
        .iter()
        .map(|plan| {
            let mut sections: Vec<&Section> = d
                .sections
                .iter()
                .filter(|s| s.seatplan_id == plan.id)
                .collect();
            sections.sort_by_key(|s| s.id);
            let mut seats: Vec<&Seat> = d
                .seats
                .iter()
                .filter(|s| s.seatplan_id == plan.id)
                .collect();
            seats.sort_by_key(|s| (s.section_id, s.y, s.x));
            PlanWhole {
                plan,
                sections,
                seats,
            }
        })
        .collect()
}

/// What would stop a change to a seat plan that has sales: a section or a seat gone, a seat
/// renamed, a section of another kind or a smaller general-admission capacity, another venue.
fn sold_plan_conflicts(old: &PlanWhole, new: &PlanWhole, sold_on: &[i64]) -> Vec<String> {
    let id = new.plan.id;
    let on = format!("seat plan {id} has sales (presentations {sold_on:?})");
    let mut out = Vec::new();
    if old.plan.venue_id != new.plan.venue_id {
        out.push(format!("{on}: its venue would change"));
    }
    for s in &old.sections {
        match new.sections.iter().find(|n| n.id == s.id) {
            None => out.push(format!("{on}: section {} would be removed", s.id)),
            Some(n) if n.kind != s.kind => {
                out.push(format!("{on}: section {} would change its kind", s.id))
            }
            Some(n)
                if n.capacity < s.capacity && n.kind == kupa_domain::catalogue::SectionKind::Ga =>
            {
                out.push(format!("{on}: section {} would lose places", s.id))
            }
            Some(_) => {}
        }
    }
    let new_seats: HashMap<SeatAddress, &Seat> =
        new.seats.iter().map(|s| (s.address(), *s)).collect();
    let mut lost = 0;
    let mut renamed = 0;
    let mut first = None;
    for s in &old.seats {
        match new_seats.get(&s.address()) {
            None => lost += 1,
            Some(n) if n.row_name != s.row_name || n.seat_name != s.seat_name => renamed += 1,
            Some(_) => continue,
        }
        first.get_or_insert_with(|| format!("row {} seat {}", s.row_name, s.seat_name));
    }
    if lost + renamed > 0 {
        out.push(format!(
            "{on}: {lost} seats would be removed and {renamed} renumbered (the first: {})",
            first.unwrap_or_default()
        ));
    }
    out
}

/// The plan of merging `file` into `current`; `sold` are the presentations with sales (a seat
/// held or sold, or an order).
pub fn plan_import(
    file: &CatalogueData,
    current: &CatalogueData,
    sold: &HashSet<i64>,
) -> ImportPlan {
    let mut plan = ImportPlan::default();
    let site_changed = file.site_config != current.site_config;
    plan.kinds.push(KindChanges {
        kind: "site config",
        added: vec![],
        updated: if site_changed { vec![1] } else { vec![] },
        unchanged: usize::from(!site_changed),
    });
    plan.write.site_config = if site_changed {
        file.site_config.clone()
    } else {
        serde_json::Value::Null
    };
    plain!(plan, file, current, locations, "locations");
    plain!(plan, file, current, venues, "venues");
    seatplans(&mut plan, file, current, sold);
    plain!(plan, file, current, categories, "categories");
    plain!(plan, file, current, features, "features");
    plain!(plan, file, current, ticket_groups, "ticket groups");
    // A price may change although tickets were sold: an order keeps the price it was sold at.
    plain!(plan, file, current, tickets, "tickets");
    plain!(plan, file, current, products, "products");
    plain!(plan, file, current, service_charges, "service charges");
    presentations(&mut plan, file, current, sold);
    plain!(plan, file, current, memberships, "memberships");
    plain!(plan, file, current, seasons, "seasons");
    plain!(
        plan,
        file,
        current,
        system_voucher_classes,
        "system voucher classes"
    );
    plain!(plan, file, current, donations, "donations");
    plan.ignored = [
        ("customers", file.customers.len()),
        ("members", file.members.len()),
        ("mini sites", file.mini_sites.len()),
        ("integrations", file.integrations.len()),
        ("ticket codes", file.ticket_codes.len()),
        ("reference options", file.ref_prompt_options.len()),
    ]
    .into_iter()
    .filter(|(_, n)| *n > 0)
    .collect();
    plan.unsold_presentations.sort_unstable();
    plan.unsold_presentations.dedup();
    plan
}

fn seatplans(
    plan: &mut ImportPlan,
    file: &CatalogueData,
    current: &CatalogueData,
    sold: &HashSet<i64>,
) {
    let new = wholes(file);
    let old = wholes(current);
    let (changed, same) = diff(&new, &old, |w| w.plan.id);
    plan.kinds
        .push(kind_of("seat plans", &changed, same, |w| w.plan.id));
    let section_plan: HashMap<i64, i64> = current
        .sections
        .iter()
        .map(|s| (s.id, s.seatplan_id))
        .collect();
    for (old, new) in changed {
        let id = new.plan.id;
        for s in &new.sections {
            if let Some(other) = section_plan.get(&s.id).filter(|p| **p != id) {
                plan.conflicts.push(format!(
                    "seat plan {id}: section {} belongs to seat plan {other}",
                    s.id
                ));
            }
        }
        let on_plan: Vec<i64> = current
            .presentations
            .iter()
            .filter(|p| p.seatplan_id == id)
            .map(|p| p.id.get())
            .collect();
        let sold_on: Vec<i64> = on_plan
            .iter()
            .copied()
            .filter(|p| sold.contains(p))
            .collect();
        if let Some(old) = old {
            if sold_on.is_empty() {
                plan.unsold_presentations.extend(on_plan);
            } else {
                plan.conflicts
                    .extend(sold_plan_conflicts(old, new, &sold_on));
            }
        }
        plan.replaced_seatplans.push(id);
        plan.write.seatplans.push(new.plan.clone());
        plan.write
            .sections
            .extend(new.sections.iter().map(|s| (*s).clone()));
        plan.write
            .seats
            .extend(new.seats.iter().map(|s| (*s).clone()));
    }
}

fn presentations(
    plan: &mut ImportPlan,
    file: &CatalogueData,
    current: &CatalogueData,
    sold: &HashSet<i64>,
) {
    let (changed, same) = diff(&file.presentations, &current.presentations, |p| p.id);
    plan.kinds
        .push(kind_of("presentations", &changed, same, |p| p.id.get()));
    for (old, new) in &changed {
        let Some(old) = old else { continue };
        let mut moved = Vec::new();
        if old.feature_id != new.feature_id {
            moved.push("feature");
        }
        if old.venue_id != new.venue_id {
            moved.push("venue");
        }
        if old.seatplan_id != new.seatplan_id {
            moved.push("seat plan");
        }
        if old.starts_at_ms != new.starts_at_ms {
            moved.push("start time");
        }
        // Its buyers were priced by the group it sells (decision 0070).
        if old.ticket_group_id != new.ticket_group_id {
            moved.push("ticket group");
        }
        if moved.is_empty() {
            continue;
        }
        if sold.contains(&new.id.get()) {
            plan.conflicts.push(format!(
                "presentation {} has sales: its {} would change",
                new.id,
                moved.join(", ")
            ));
        } else {
            plan.unsold_presentations.push(new.id.get());
        }
    }
    plan.write.presentations = changed.into_iter().map(|(_, n)| n.clone()).collect();
}

/// What an import did (or, on a dry run, would do).
#[derive(Debug)]
pub struct ImportOutcome {
    pub plan: ImportPlan,
    /// True when the changes were written (never on a dry run, nor with a conflict).
    pub written: bool,
}

/// Plans the import of `file` and, unless `dry_run` or in conflict, writes it in one transaction.
pub async fn import(
    store: &dyn CatalogueImportStore,
    file: &CatalogueData,
    dry_run: bool,
) -> StoreResult<ImportOutcome> {
    let current = store.stored_catalogue().await?;
    let sold: HashSet<i64> = store
        .presentations_with_sales()
        .await?
        .into_iter()
        .collect();
    let plan = plan_import(file, &current, &sold);
    if dry_run || !plan.conflicts.is_empty() || plan.changes() == 0 {
        return Ok(ImportOutcome {
            plan,
            written: false,
        });
    }
    let sold_meanwhile = store.apply_import(&plan).await?;
    let mut plan = plan;
    if !sold_meanwhile.is_empty() {
        plan.conflicts.push(format!(
            "presentations {sold_meanwhile:?} were sold while the import ran: run it again"
        ));
        return Ok(ImportOutcome {
            plan,
            written: false,
        });
    }
    Ok(ImportOutcome {
        plan,
        written: true,
    })
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
