//! The seats a seated membership sells with it (decision 0043): the member seat the buyer's
//! session holds in every screening of the membership's season becomes the order's ticket lines
//! (the season's seat ticket, included in the membership's price), its presentations the order's,
//! and the member the payment creates is enrolled in the season. The one finalisation sells the
//! seats with the member, or neither.

use crate::error::{AppError, AppResult, ErrorCode};
use crate::memberships::{OrderMembership, season_selections};
use crate::model::Membership;
use kupa_domain::ids::{PresentationId, SessionId};

use super::*;

/// What a seated membership adds to its order.
pub(super) struct SeatedLines {
    pub presentations: Vec<PresentationId>,
    pub tickets: Vec<OrderTicket>,
    pub enrollment: OrderEnrollment,
    /// When the earliest of the seats' holds ends.
    pub expires_at_ms: i64,
}

fn seats_refused(message: &str, params: serde_json::Value) -> AppError {
    AppError::rejected_with(ErrorCode::FormValidation, message, params)
}

impl OrderService {
    /// The seats of the new member of a seated membership among `lines` (None: no such line):
    /// one seat held by this session in each screening of its season, or `formValidation`
    /// (`membershipSeats`, naming the screenings without one).
    pub(super) async fn seated_lines(
        &self,
        session: &SessionId,
        lines: &[OrderMembership],
        catalogue: &[Membership],
    ) -> AppResult<Option<SeatedLines>> {
        let seated: Vec<(&OrderMembership, &Membership)> = lines
            .iter()
            .filter(|l| l.member_number.is_some())
            .filter_map(|l| {
                catalogue
                    .iter()
                    .find(|m| m.id == l.membership_id && m.seats.is_some())
                    .map(|m| (l, m))
            })
            .collect();
        let (line, membership) = match seated.as_slice() {
            [] => return Ok(None),
            [one] => *one,
            _ => {
                return Err(seats_refused(
                    "one seated membership per order: buy the other apart",
                    serde_json::json!({ "fields": ["memberships"], "reason": "membershipSeats" }),
                ));
            }
        };
        let open = self.enrollment_rules().seated_season(membership).await?;
        let now = self.clock.now_ms();
        let held = season_selections(
            self.store.as_ref(),
            self.claims.as_ref(),
            session,
            &open,
            now,
        )
        .await?;
        let ids = open.season.presentation_ids();
        let missing: Vec<PresentationId> = ids
            .iter()
            .copied()
            .filter(|id| !held.iter().any(|s| s.presentation_id == *id))
            .collect();
        if !missing.is_empty() {
            return Err(seats_refused(
                "choose the membership's seat: one in every screening of its season",
                serde_json::json!({
                    "reason": "membershipSeats",
                    "membershipId": membership.id,
                    "missing": missing,
                }),
            ));
        }
        if ids
            .iter()
            .any(|id| held.iter().filter(|s| s.presentation_id == *id).count() > 1)
        {
            return Err(seats_refused(
                "a member has one seat in each screening: release the others",
                serde_json::json!({ "reason": "oneSeatPerPresentation", "membershipId": membership.id }),
            ));
        }
        let (group, tickets) = open
            .ticket_groups
            .iter()
            .find(|(g, _)| g.id == open.season.default_ticket_group_id)
            .or_else(|| open.ticket_groups.first())
            .ok_or_else(|| {
                AppError::internal("a seated membership's season has no ticket group")
            })?;
        let ticket = tickets
            .first()
            .ok_or_else(|| AppError::internal(format!("ticket group {} is empty", group.id)))?;
        let first = &open.presentations[0].view.presentation;
        let plan = self
            .catalogue
            .seatplan(first.venue_id, first.seatplan_id)
            .await?;
        let member_number = line.member_number.clone();
        let tickets: Vec<OrderTicket> = held
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let section = plan.sections.iter().find(|x| x.id == s.section_id);
                OrderTicket {
                    line: i as i64 + 1,
                    presentation_id: s.presentation_id,
                    section_id: s.section_id,
                    x: s.x,
                    y: s.y,
                    section_name: section.map(|x| x.name.clone()).unwrap_or_default(),
                    section_name_en: section.map(|x| x.name_en.clone()).unwrap_or_default(),
                    row_name: s.row_name.clone(),
                    seat_name: s.seat_name.clone(),
                    ticket_id: ticket.id,
                    ticket_name: ticket.name.clone(),
                    ticket_name_en: ticket.name_en.clone(),
                    // Included in the membership's price.
                    price: Money::ZERO,
                    service_charge: Money::ZERO,
                    is_sub_ticket: false,
                    code: None,
                    ref1: None,
                    ref2: None,
                    member_number: member_number.clone(),
                    points: 0,
                    member_balance: Money::ZERO,
                    document_key: token(),
                    scanned_at_ms: None,
                    cancelled_at_ms: None,
                }
            })
            .collect();
        let expires_at_ms = held.iter().map(|s| s.expires_at_ms).min().unwrap_or(now);
        Ok(Some(SeatedLines {
            presentations: ids,
            tickets,
            enrollment: OrderEnrollment {
                season_id: open.season.id,
                membership_id: membership.id,
                member_id: line
                    .member_id
                    .ok_or_else(|| AppError::internal("a new member's line has no id"))?,
                member_number: line.member_number.clone().unwrap_or_default(),
                name: open.season.name.clone(),
                name_en: open.season.name_en.clone(),
            },
            expires_at_ms,
        }))
    }
}
