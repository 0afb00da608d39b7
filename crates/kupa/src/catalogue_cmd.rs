//! `kupa catalogue import FILE [--dry-run]` (issue 18 item 1, decision 0049): merges a catalogue
//! file (docs/catalogue.md) into a live database by ids. Prints what changes per kind; with any
//! conflict (a change to what has sales) it writes nothing and exits non-zero. Running nodes
//! read the new catalogue within about a second.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;
use kupa_app::catalogue_file::{self, import};
use kupa_app::ports::CatalogueStore;
use kupa_providers::clock::ServerClock;
use kupa_store::Db;

#[derive(Subcommand)]
pub enum CatalogueCommand {
    /// Merge a catalogue file into the database: add and update by id, delete nothing, refuse
    /// changes to what has sales.
    Import {
        /// The catalogue file (docs/catalogue.md); a schedule is laid out from today.
        file: PathBuf,
        /// Print what would change and write nothing.
        #[arg(long)]
        dry_run: bool,
    },
}

pub async fn run(db: Db, command: CatalogueCommand) -> anyhow::Result<()> {
    let CatalogueCommand::Import { file, dry_run } = command;
    let json = std::fs::read_to_string(&file)
        .with_context(|| format!("cannot read {}", file.display()))?;
    let data = catalogue_file::expand(
        catalogue_file::parse(&json)?,
        crate::today_in_jerusalem(&ServerClock::new()),
    )?;
    anyhow::ensure!(
        !db.is_catalogue_empty().await?,
        "the database has no catalogue: load one with `kupa seed --catalogue <file>`"
    );
    let outcome = import::import(&db, &data, dry_run).await;
    db.close().await;
    let outcome = outcome?;
    print!("{}", outcome.plan.describe());
    if !outcome.plan.conflicts.is_empty() {
        anyhow::bail!(
            "{} conflicts: nothing was written",
            outcome.plan.conflicts.len()
        );
    }
    match (dry_run, outcome.written) {
        (true, _) => println!("dry run: nothing was written"),
        (false, true) => println!("{} changes written", outcome.plan.changes()),
        (false, false) => println!("nothing to change"),
    }
    Ok(())
}
