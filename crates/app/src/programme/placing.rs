//! Changes that touch only the programme: a screening added, a week copied to the next. A hall
//! takes one screening at a time: each lasts its film's runtime plus the cleaning gap, and one
//! that would overlap another (not cancelled) is refused, checked by the store under its write
//! lock so two managers adding at once cannot both win.

use jiff::ToSpan;
use jiff::civil::{Date, Time};

use super::*;
use crate::catalogue_file::SALE_CLOSES_AFTER_START_MS;

/// A manager's new screening, as parsed at the edge: local date and time in Asia/Jerusalem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddScreening {
    pub feature_id: i64,
    pub venue_id: i64,
    pub date: Date,
    pub time: Time,
    /// When the sale opens (local); None: now.
    pub sale_starts: Option<(Date, Time)>,
    /// When the sale closes (local); None: 15 minutes after the start, as the catalogue's default.
    pub sale_ends: Option<(Date, Time)>,
    /// The screening's own ticket group, in place of its hall's main one; None: as its hall.
    pub ticket_group_id: Option<i64>,
}

/// A screening a copied week left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The screening of the week copied.
    pub source_id: PresentationId,
    /// The screening of the next week it would overlap; None: it would start in the past.
    pub overlaps: Option<PresentationId>,
}

/// A week copied: the new screenings, and those left out.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WeekCopied {
    pub added: Vec<PresentationId>,
    pub skipped: Vec<Skipped>,
}

/// The seating policy and authorisation profile of a screening added here: the catalogue
/// file's own defaults for a screening that names none.
const DEFAULT_SEATING_POLICY: i64 = 1;
const DEFAULT_AUTH_PROFILE: i64 = 1;

fn overlap_error(other: PresentationId) -> AppError {
    AppError::rejected_with(
        ErrorCode::ScreeningOverlap,
        "the hall has another screening then (its runtime plus the cleaning gap)",
        serde_json::json!({ "presentationId": other }),
    )
}

impl ProgrammeService {
    /// Adds a screening to a hall of one of the caller's complexes.
    pub async fn add(&self, caller: &Caller, add: &AddScreening) -> AppResult<Screening> {
        caller.require(Access::Programme)?;
        let (complexes, features) = self.choices(caller).await?;
        let no_hall = || AppError::rejected(ErrorCode::NotFound, "no such hall");
        let (complex, hall) = complexes
            .iter()
            .find_map(|c| {
                c.halls
                    .iter()
                    .find(|h| h.id == add.venue_id)
                    .map(|h| (c, h))
            })
            .ok_or_else(no_hall)?;
        let seatplan_id = hall.seatplan_id.ok_or_else(|| {
            AppError::rejected(ErrorCode::FormValidation, "the hall has no seat plan")
        })?;
        if !features.iter().any(|f| f.id == add.feature_id) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "no such film",
                serde_json::json!({ "field": "featureId" }),
            ));
        }
        if let Some(g) = add.ticket_group_id {
            self.require_ticket_group(caller, g).await?;
        }
        let now = self.clock.now_ms();
        let starts = local_to_ms(add.date, add.time)?;
        if starts <= now {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "a new screening starts in the future",
                serde_json::json!({ "field": "date" }),
            ));
        }
        let sale_starts = match add.sale_starts {
            Some((d, t)) => local_to_ms(d, t)?,
            None => now,
        };
        let sale_ends = match add.sale_ends {
            Some((d, t)) => local_to_ms(d, t)?,
            None => starts + SALE_CLOSES_AFTER_START_MS,
        };
        if sale_ends <= sale_starts || sale_ends <= now {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "the sale must close after it opens, and in the future",
                serde_json::json!({ "field": "saleEnds" }),
            ));
        }
        let new = NewScreening {
            feature_id: add.feature_id,
            venue_id: hall.id,
            seatplan_id,
            business_id: complex.business_id,
            starts_at_ms: starts,
            sale_starts_at_ms: sale_starts,
            sale_ends_at_ms: sale_ends,
            seating_policy_id: DEFAULT_SEATING_POLICY,
            auth_profile_id: DEFAULT_AUTH_PROFILE,
            ticket_group_id: add.ticket_group_id,
        };
        let by = Change {
            staff_user_id: caller.user.id,
            at_ms: now,
        };
        let id = match self.store.add_screening(&new, self.gap_ms, by).await? {
            Placed::Done(id) => id,
            Placed::Overlaps(other) => return Err(overlap_error(other)),
            Placed::Gone => {
                return Err(AppError::internal("an added screening was refused oddly"));
            }
        };
        self.changed();
        tracing::info!(
            presentation = id.get(),
            user_id = caller.user.id,
            venue = hall.id,
            "screening added"
        );
        self.store
            .screening(id, now)
            .await?
            .ok_or_else(|| AppError::internal("the screening just added is gone"))
    }

    /// Copies the complex's screenings of the seven days from `from` (not cancelled) to the same
    /// hall, local time and film seven days later; those that would overlap a screening already
    /// there, or start in the past, are left out and reported. Each is its own write: a copy is
    /// not all or nothing, the report says what was not copied.
    pub async fn copy_week(
        &self,
        caller: &Caller,
        location_id: i64,
        from: Date,
    ) -> AppResult<WeekCopied> {
        let (_, screenings) = self.week(caller, location_id, from).await?;
        let now = self.clock.now_ms();
        let mut done = WeekCopied::default();
        for s in screenings.iter().filter(|s| s.cancelled_at_ms.is_none()) {
            let zone = kupa_domain::time::zone();
            let shift = |ms: i64| -> AppResult<i64> {
                let z = kupa_domain::time::ms_to_timestamp(ms).to_zoned(zone.clone());
                // Seven local days on: the same wall-clock time across a change of the clocks.
                z.checked_add(7.days())
                    .map(|z| z.timestamp().as_millisecond())
                    .map_err(|e| AppError::internal(format!("week copy: {e}")))
            };
            let starts = shift(s.starts_at_ms)?;
            if starts <= now {
                done.skipped.push(Skipped {
                    source_id: s.id,
                    overlaps: None,
                });
                continue;
            }
            let new = NewScreening {
                feature_id: s.feature.id,
                venue_id: s.venue_id,
                seatplan_id: s.seatplan_id,
                business_id: s.business_id,
                starts_at_ms: starts,
                sale_starts_at_ms: shift(s.sale_starts_at_ms)?,
                sale_ends_at_ms: starts + (s.sale_ends_at_ms - s.starts_at_ms),
                seating_policy_id: s.seating_policy_id,
                auth_profile_id: s.auth_profile_id,
                ticket_group_id: s.ticket_group_id,
            };
            let by = Change {
                staff_user_id: caller.user.id,
                at_ms: now,
            };
            match self.store.add_screening(&new, self.gap_ms, by).await? {
                Placed::Done(id) => done.added.push(id),
                Placed::Overlaps(other) => done.skipped.push(Skipped {
                    source_id: s.id,
                    overlaps: Some(other),
                }),
                Placed::Gone => {
                    return Err(AppError::internal("a copied screening was refused oddly"));
                }
            }
        }
        if !done.added.is_empty() {
            self.changed();
        }
        tracing::info!(
            location = location_id,
            user_id = caller.user.id,
            added = done.added.len(),
            skipped = done.skipped.len(),
            "week copied"
        );
        Ok(done)
    }
}

pub(super) fn overlap(other: PresentationId) -> AppError {
    overlap_error(other)
}
