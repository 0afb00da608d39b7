//! The sales switches in the staff area and the back office's audit (issue 18 items 5 and 6,
//! decision 0067). Managers only, scoped by `businessIds`: another business's complex is
//! `notFound`. A switch is written with its audit row and a `catalogue_version` bump in one
//! transaction, so every node's catalogue (and so every sale) follows within a second.

use super::*;
use crate::sales_switches::{SaleChannel, SalesSwitch};

/// How many audit rows one page holds at most.
pub const AUDIT_PAGE_MAX: i64 = 100;

/// A complex's switches, one per channel (those without a row: on sale).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ComplexSwitches {
    pub complex: Complex,
    pub switches: Vec<SalesSwitch>,
}

/// What the audit page asks for: the caller's businesses, newest first, before a row id.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AuditQuery {
    pub business_ids: Vec<i64>,
    pub kind: Option<String>,
    pub location_id: Option<i64>,
    /// Rows older than this id (the previous page's last); None: the newest.
    pub before_id: Option<i64>,
    pub limit: i64,
}

/// The kinds of change the audit keeps: a screening added, moved, cancelled, its ticket group or
/// a channel of it set; a complex's sales switch; a price or service charge scheduled from a day
/// or withdrawn (decision 0070); a hall's new seat-plan version (decision 0068); a film added,
/// changed or given a poster, a product added or changed or its picture uploaded or taken away
/// (decision 0069). The database checks only that a kind is named: this list is the closed one.
pub const AUDIT_KINDS: [&str; 15] = [
    "added",
    "moved",
    "cancelled",
    "salesSwitch",
    "seatPlan",
    "ticketGroup",
    "screeningChannel",
    "priceScheduled",
    "priceWithdrawn",
    crate::backoffice::FILM_ADDED,
    crate::backoffice::FILM_CHANGED,
    crate::backoffice::FILM_POSTER,
    crate::backoffice::PRODUCT_ADDED,
    crate::backoffice::PRODUCT_CHANGED,
    crate::backoffice::PRODUCT_IMAGE,
];

impl ProgrammeService {
    /// Every complex of the caller's businesses with its switches per channel.
    pub async fn sales_switches(&self, caller: &Caller) -> AppResult<Vec<ComplexSwitches>> {
        let (complexes, _) = self.choices(caller).await?;
        let rows = self.store.stored_sales_switches().await?;
        Ok(complexes
            .into_iter()
            .map(|complex| {
                let switches = SaleChannel::ALL
                    .into_iter()
                    .map(|ch| {
                        rows.iter()
                            .find(|s| s.location_id == complex.id && s.channel == ch)
                            .copied()
                            .unwrap_or_else(|| SalesSwitch::on_sale(complex.id, ch))
                    })
                    .collect();
                ComplexSwitches { complex, switches }
            })
            .collect())
    }

    /// Sets one complex's switches for one channel (recorded with who, before and after).
    pub async fn set_sales_switch(
        &self,
        caller: &Caller,
        switch: SalesSwitch,
    ) -> AppResult<SalesSwitch> {
        let complex = self.complex(caller, switch.location_id).await?;
        let by = Change {
            staff_user_id: caller.user.id,
            at_ms: self.clock.now_ms(),
        };
        self.store
            .set_sales_switch(&switch, complex.business_id, by)
            .await?;
        self.changed();
        tracing::info!(
            location_id = switch.location_id,
            channel = switch.channel.as_str(),
            offline = switch.offline,
            advance_sales = switch.advance_sales,
            open = switch.open,
            staff_user_id = caller.user.id,
            "sales switch set"
        );
        Ok(switch)
    }

    /// The back office's changes in the caller's businesses, newest first, a page at a time;
    /// a complex named must be the caller's (`notFound` otherwise).
    pub async fn audit(
        &self,
        caller: &Caller,
        kind: Option<String>,
        location_id: Option<i64>,
        before_id: Option<i64>,
        limit: Option<i64>,
    ) -> AppResult<Vec<ChangeRecord>> {
        caller.require(Access::Programme)?;
        if let Some(id) = location_id {
            self.complex(caller, id).await?;
        }
        if let Some(k) = &kind
            && !AUDIT_KINDS.contains(&k.as_str())
        {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                format!("kind is one of {}", AUDIT_KINDS.join(", ")),
                serde_json::json!({ "field": "kind" }),
            ));
        }
        let query = AuditQuery {
            business_ids: caller.user.business_ids.clone(),
            kind,
            location_id,
            before_id,
            limit: limit.unwrap_or(25).clamp(1, AUDIT_PAGE_MAX),
        };
        Ok(self.store.audit(&query).await?)
    }
}
