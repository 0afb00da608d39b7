//! Changing seats of a paid order (spec section 3 "Modify": resId, lastTransactionId, tickets
//! with presentationId, sectionId, x, y, newSeat). The new seat is claimed before the old one is
//! released, in one transaction: a buyer never ends with both seats lost, nor with two.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::{PresentationId, SessionId};
use std::collections::BTreeSet;

use kupa_domain::catalogue::{SaleState, SeatingMode, SectionKind};
use kupa_domain::seating::{self, Occupancy, SeatAddress};

use super::*;
use crate::booking::Settled;
use crate::seat_plan::{plan_seat, rule_statuses};

/// Until when the tickets of a presentation may change seats online: its start, or the end of its
/// sale when that comes first (decision 0030). `None`: never, as there are no seats to change
/// (video on demand, general admission only).
pub fn seat_change_closes_at(info: &PresentationInfo) -> Option<i64> {
    if info.is_vod
        || matches!(
            info.seating_mode,
            SeatingMode::SingleGa | SeatingMode::MultiGa
        )
    {
        return None;
    }
    let p = &info.view.presentation;
    Some(p.starts_at_ms.min(p.sale_ends_at_ms))
}

/// Until when the order's seats of `info`'s presentation may change, if they may now: a paid
/// order, a presentation with reserved seats, on sale and not started, with a live ticket not yet
/// admitted at the door. Who asks is the caller's to check.
pub fn seat_change_open(order: &Order, info: &PresentationInfo, now_ms: i64) -> Option<i64> {
    let movable = order
        .tickets_of(info.id())
        .any(|t| t.cancelled_at_ms.is_none() && t.scanned_at_ms.is_none());
    let until = seat_change_closes_at(info)?;
    (order.status == OrderStatus::Paid
        && movable
        && info.sale_state == SaleState::OnSale
        && now_ms < until)
        .then_some(until)
}

/// A presentation of a reservation whose seats its reader may change now, and until when.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatChangeWindow {
    pub presentation_id: PresentationId,
    pub until_ms: i64,
}

/// A ticket of the request: which seat of the order, and where to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatChange {
    pub presentation_id: PresentationId,
    pub from: SeatAddress,
    pub to: SeatAddress,
}

/// Who asks to change seats, and what they read last.
#[derive(Debug, Clone, Copy)]
pub struct SeatChangeRequest<'a> {
    pub reservation_id: &'a ReservationId,
    /// The order's last transaction as the buyer read it (the payment id of the reservation).
    pub last_transaction_id: &'a str,
    pub session: &'a SessionId,
    pub login: Option<&'a str>,
}

impl OrderService {
    /// The presentations of a reservation whose seats `who` may change now (the reservation page
    /// offers "Change seats" for these): a paid order of theirs, a presentation with reserved
    /// seats, on sale and not started, with a live ticket not yet admitted at the door.
    pub async fn seat_change_windows(
        &self,
        order: &Order,
        who: Canceller<'_>,
    ) -> AppResult<Vec<SeatChangeWindow>> {
        if order.status != OrderStatus::Paid || !self.may_cancel_order(order, who).await? {
            return Ok(Vec::new());
        }
        let now = self.clock.now_ms();
        let mut open = Vec::new();
        for id in &order.presentations {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            if let Some(until_ms) = seat_change_open(order, &info, now) {
                open.push(SeatChangeWindow {
                    presentation_id: *id,
                    until_ms,
                });
            }
        }
        Ok(open)
    }

    /// Moves tickets of a paid reservation to other seats of the same presentation, all or none.
    /// A new seat must be free (or held by the asking session), of the same ticket group and price
    /// level as the old one, and fit the ticket (a wheelchair ticket on a wheelchair place); the
    /// presentation must still be on sale. The price does not change.
    pub async fn change_seats(
        &self,
        request: SeatChangeRequest<'_>,
        changes: &[SeatChange],
    ) -> AppResult<Order> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such reservation");
        let order = self
            .orders
            .order(request.reservation_id)
            .await?
            .ok_or_else(no_such)?;
        let who = Canceller {
            session: request.session,
            login: request.login,
        };
        if !self.may_cancel_order(&order, who).await? {
            tracing::info!(reservation = %order.id, "seat change refused: not its buyer");
            return Err(no_such());
        }
        if order.status != OrderStatus::Paid {
            return Err(no_such());
        }
        if changes.is_empty() || changes.len() > order.tickets.len() {
            return Err(invalid(
                ErrorCode::FormValidation,
                "name one to all of the reservation's tickets, each with its new seat",
            ));
        }
        let mut moves = Vec::new();
        let mut plans: Vec<(
            PresentationId,
            Vec<crate::model::Section>,
            Vec<crate::model::Seat>,
        )> = Vec::new();
        for c in changes {
            let ticket = order
                .tickets_of(c.presentation_id)
                .find(|t| t.address() == c.from && t.cancelled_at_ms.is_none())
                .ok_or_else(|| {
                    AppError::rejected_with(
                        ErrorCode::FormValidation,
                        "a ticket to move is not a live ticket of this reservation",
                        serde_json::json!({ "presentationId": c.presentation_id, "sectionId": c.from.section_id, "x": c.from.x, "y": c.from.y }),
                    )
                })?;
            if ticket.scanned_at_ms.is_some() {
                return Err(AppError::rejected_with(
                    ErrorCode::TicketingEnded,
                    "a ticket already admitted at the door changes seats only at the box office",
                    serde_json::json!({ "reason": "admitted", "line": ticket.line }),
                ));
            }
            if moves.iter().any(|m: &SeatMove| m.line == ticket.line)
                || changes
                    .iter()
                    .filter(|o| o.presentation_id == c.presentation_id && o.to == c.to)
                    .count()
                    > 1
                || order
                    .tickets_of(c.presentation_id)
                    .any(|t| t.address() == c.to)
            {
                return Err(invalid(
                    ErrorCode::FormValidation,
                    "each ticket moves once, to a seat that is not already the reservation's",
                ));
            }
            if !plans.iter().any(|(id, _, _)| *id == c.presentation_id) {
                let info = self.sellable(c.presentation_id).await?;
                match seat_change_closes_at(&info) {
                    None => {
                        return Err(invalid(
                            ErrorCode::FormValidation,
                            "this presentation has no reserved seats to change",
                        ));
                    }
                    Some(until) if self.clock.now_ms() >= until => {
                        return Err(AppError::rejected_with(
                            ErrorCode::TicketingEnded,
                            "seat changes close when the presentation starts",
                            serde_json::json!({ "reason": "started" }),
                        ));
                    }
                    Some(_) => {}
                }
                let plan_id = info.view.presentation.seatplan_id;
                plans.push((
                    c.presentation_id,
                    crate::prices::sections_of(self.store.as_ref(), &info.view.presentation)
                        .await?,
                    self.store.seats(plan_id).await?,
                ));
            }
            let (_, sections, seats) = plans
                .iter()
                .find(|(id, _, _)| *id == c.presentation_id)
                .ok_or_else(|| AppError::internal("a plan vanished"))?;
            let find = |a: SeatAddress| seats.iter().find(|s| s.address() == a);
            let section = |id: i64| sections.iter().find(|s| s.id == id);
            let (Some(old), Some(new)) = (find(c.from), find(c.to)) else {
                return Err(AppError::rejected_with(
                    ErrorCode::LockSeatError,
                    "there is no such seat",
                    serde_json::json!({ "sectionId": c.to.section_id, "x": c.to.x, "y": c.to.y }),
                ));
            };
            let (Some(old_section), Some(new_section)) =
                (section(old.section_id), section(new.section_id))
            else {
                return Err(AppError::internal("a seat without its section"));
            };
            if old_section.kind == SectionKind::Ga || new_section.kind == SectionKind::Ga {
                return Err(invalid(
                    ErrorCode::FormValidation,
                    "general-admission places have no seat to change",
                ));
            }
            if old_section.ticket_group_id != new_section.ticket_group_id {
                return Err(invalid(
                    ErrorCode::FormValidation,
                    "the new seat sells other tickets: choose one in an area of the same tickets",
                ));
            }
            seating::check_price_level(&[plan_seat(old, sections), plan_seat(new, sections)])
                .map_err(|v| AppError::rejected(v.code(), v.to_string()))?;
            moves.push(SeatMove {
                line: ticket.line,
                presentation_id: c.presentation_id,
                from: c.from,
                to: c.to,
                section_name: new_section.name.clone(),
                section_name_en: new_section.name_en.clone(),
                row_name: new.row_name.clone(),
                seat_name: new.seat_name.clone(),
                document_key: token(),
            });
        }
        // The tickets must fit their new seats (the seat-kind rule), as at the sale.
        let mut moved = order.clone();
        for m in &moves {
            if let Some(t) = moved.tickets.iter_mut().find(|t| t.line == m.line) {
                (t.section_id, t.x, t.y) = (m.to.section_id, m.to.x, m.to.y);
            }
        }
        self.check_tickets_fit(&moved).await?;
        for (id, sections, _) in &plans {
            self.check_moved_seating(request.session, *id, sections, &order, &moves)
                .await?;
        }
        let now = self.clock.now_ms();
        // Through the seat arbiter (decision 0059): the new seats are the buyer's in memory while
        // the move is written (a seat memory knows taken is refused before writing), sold once it
        // is, and the old seats free.
        let from: Vec<(PresentationId, SeatAddress)> =
            moves.iter().map(|m| (m.presentation_id, m.from)).collect();
        let to: Vec<(PresentationId, SeatAddress)> =
            moves.iter().map(|m| (m.presentation_id, m.to)).collect();
        let taken = AppError::rejected(
            ErrorCode::LockSeatError,
            "the new seat is no longer available; your seats are unchanged",
        );
        let done = self
            .booking
            .settle(
                &from,
                Some((request.session, &to)),
                Some(taken),
                self.orders.move_seats(
                    &order.id,
                    request.last_transaction_id,
                    request.session,
                    &moves,
                    now,
                ),
                |done| match done {
                    Ok(_) => moves
                        .iter()
                        .flat_map(|m| {
                            [
                                (m.presentation_id, m.to, Settled::Sold),
                                (m.presentation_id, m.from, Settled::Freed),
                            ]
                        })
                        .collect(),
                    Err(_) => Vec::new(),
                },
            )
            .await?;
        let order = match done {
            Ok(order) => order,
            Err(MoveRefusal::NotPaid) => return Err(no_such()),
            Err(MoveRefusal::Stale) => {
                return Err(invalid(
                    ErrorCode::ReservationChanged,
                    "the reservation changed since you read it; read it again",
                ));
            }
            Err(MoveRefusal::SeatTaken {
                presentation_id,
                seat,
            }) => {
                return Err(AppError::rejected_with(
                    ErrorCode::LockSeatError,
                    "the new seat is no longer available; your seats are unchanged",
                    serde_json::json!({ "presentationId": presentation_id, "sectionId": seat.section_id, "x": seat.x, "y": seat.y }),
                ));
            }
        };
        tracing::info!(reservation = %order.id, tickets = moves.len(), "seats changed");
        for (id, _, _) in &plans {
            let of = |f: fn(&SeatMove) -> SeatAddress| {
                moves
                    .iter()
                    .filter(|m| m.presentation_id == *id)
                    .map(f)
                    .collect::<Vec<_>>()
            };
            self.booking
                .publish(*id, crate::seat_events::SeatChangeKind::Sold, of(|m| m.to));
            self.booking.publish(
                *id,
                crate::seat_events::SeatChangeKind::Released,
                of(|m| m.from),
            );
        }
        // The buyer gets the tickets again, with the new seats and QR codes: the move wrote the
        // job, this node's worker makes the mail after the answer (decision 0061).
        (self.messages.wake_confirmations)();
        Ok(order)
    }

    /// The hall's seating rules on the seats after the move, as at a sale: sofas stay whole (the
    /// order's seats after the move), and under the single-seat rule no new seat leaves a free
    /// seat alone beside it. The seats given back count as free, the order's other seats as
    /// anyone's: a seat left alone where a moved ticket was is the hall's, as after a
    /// cancellation, and is not held against the buyer.
    async fn check_moved_seating(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        sections: &[crate::model::Section],
        order: &Order,
        moves: &[SeatMove],
    ) -> AppResult<()> {
        let of_this = || {
            moves
                .iter()
                .filter(|m| m.presentation_id == presentation_id)
        };
        let to: BTreeSet<SeatAddress> = of_this().map(|m| m.to).collect();
        let from: BTreeSet<SeatAddress> = of_this().map(|m| m.from).collect();
        let kept: BTreeSet<SeatAddress> = order
            .tickets_of(presentation_id)
            .filter(|t| t.cancelled_at_ms.is_none())
            .map(OrderTicket::address)
            .filter(|a| !from.contains(a))
            .collect();
        let status = self
            .catalogue
            .seat_status(presentation_id, None, Some(session), &Default::default())
            .await?;
        let policy = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info
            .view
            .presentation
            .seating_policy_id;
        let hall = rule_statuses(&status.seats, sections);
        let seen_as = |mine: &BTreeSet<SeatAddress>| {
            hall.iter()
                .map(|s| {
                    let key = s.seat.key();
                    let occupancy = if mine.contains(&key) {
                        Occupancy::Mine
                    } else if from.contains(&key) {
                        Occupancy::Free
                    } else if s.occupancy == Occupancy::Mine {
                        // The session's holds for another order: not part of this change.
                        Occupancy::Taken
                    } else {
                        s.occupancy
                    };
                    seating::SeatStatus {
                        seat: s.seat,
                        occupancy,
                    }
                })
                .collect::<Vec<_>>()
        };
        let rule = |v: seating::SeatingViolation| AppError::rejected(v.code(), v.to_string());
        seating::check_single_seat_gap(policy, &seen_as(&to)).map_err(rule)?;
        let after: BTreeSet<SeatAddress> = to.union(&kept).copied().collect();
        seating::check_sofas(&seen_as(&after)).map_err(rule)
    }
}
