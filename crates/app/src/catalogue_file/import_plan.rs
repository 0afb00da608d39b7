//! What `kupa catalogue import` would do (decision 0049): the changes of each kind of row, the
//! conflicts that stop it, and the rows to write. Data only: [`super::import`] makes and writes it.

use std::fmt::Write as _;

use crate::model::CatalogueData;

/// What one kind of row would undergo.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KindChanges {
    pub kind: &'static str,
    pub added: Vec<i64>,
    pub updated: Vec<i64>,
    pub unchanged: usize,
}

/// Everything an import would do, and what stops it.
#[derive(Debug, Clone, Default)]
pub struct ImportPlan {
    pub kinds: Vec<KindChanges>,
    /// Changes to what has sales, in words; any one of them and nothing is written.
    pub conflicts: Vec<String>,
    /// Kinds of the file an import does not touch (buyers' data, codes), with their row counts.
    pub ignored: Vec<(&'static str, usize)>,
    /// The rows to add or update; `site_config` is null when it is unchanged.
    pub write: CatalogueData,
    /// Seat plans whose sections and seats are written anew (those of `write`).
    pub replaced_seatplans: Vec<i64>,
    /// Presentations changed on the understanding that they have no sales: the write checks it
    /// again, in its transaction, so a sale made meanwhile stops the import.
    pub unsold_presentations: Vec<i64>,
}

impl ImportPlan {
    pub fn changes(&self) -> usize {
        self.kinds
            .iter()
            .map(|k| k.added.len() + k.updated.len())
            .sum()
    }

    /// The plan in lines, for the console.
    pub fn describe(&self) -> String {
        let mut out = String::new();
        for k in &self.kinds {
            let _ = write!(
                out,
                "{}: {} added, {} updated, {} unchanged",
                k.kind,
                k.added.len(),
                k.updated.len(),
                k.unchanged
            );
            for (what, ids) in [("added", &k.added), ("updated", &k.updated)] {
                if !ids.is_empty() {
                    let shown: Vec<String> = ids.iter().take(20).map(i64::to_string).collect();
                    let more = if ids.len() > 20 { ", ..." } else { "" };
                    let _ = write!(out, "; {what} {}{more}", shown.join(", "));
                }
            }
            out.push('\n');
        }
        for (kind, n) in &self.ignored {
            let _ = writeln!(out, "{kind}: {n} in the file, not imported");
        }
        for c in &self.conflicts {
            let _ = writeln!(out, "conflict: {c}");
        }
        out
    }
}
