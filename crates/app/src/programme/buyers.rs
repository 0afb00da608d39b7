//! Changes that reach buyers: a screening moved (its holders keep their seats, its paid seats go
//! with it, its buyers are told and may cancel free) and a screening cancelled by the cinema
//! (every paid order on it refunded in full through the refund ledger, exactly once; held seats
//! released; buyers told by mail and text message; the sale stopped).

use jiff::civil::{Date, Time};

use super::*;

/// Where and when a screening moves to (local date and time in Asia/Jerusalem).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveScreening {
    /// None: the same hall.
    pub venue_id: Option<i64>,
    pub date: Date,
    pub time: Time,
}

/// A screening moved, and how many paid orders were told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScreeningMoved {
    pub screening: Screening,
    pub orders_told: usize,
    /// Seats held or sold that moved to their places in another seat plan.
    pub seats_moved: usize,
}

/// A screening cancelled: what this call refunded. A second call finds nothing left and answers
/// zeros with `already_cancelled`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ScreeningCancelled {
    pub already_cancelled: bool,
    /// Orders refunded by this call, and the agorot they got back.
    pub orders_refunded: usize,
    pub refunded: Money,
    /// Held seats released by this call.
    pub holds_released: usize,
    /// Reservation numbers left for the box office (a ticket already admitted at the door).
    pub left_for_box_office: Vec<String>,
}

impl ProgrammeService {
    /// The names of places of a plan, as a buyer reads them on a ticket.
    async fn seat_names(
        &self,
        seatplan_id: i64,
        places: &[SeatAddress],
    ) -> AppResult<Vec<serde_json::Value>> {
        let sections = self.catalogue.sections(seatplan_id).await?;
        let seats = self.catalogue.seats(seatplan_id).await?;
        Ok(places
            .iter()
            .map(|p| {
                let section = sections.iter().find(|s| s.id == p.section_id);
                let seat = seats.iter().find(|s| s.address() == *p);
                serde_json::json!({
                    "section": section.map(|s| s.name.clone()).unwrap_or_default(),
                    "sectionEn": section.map(|s| s.name_en.clone()).unwrap_or_default(),
                    "row": seat.map(|s| s.row_name.clone()).unwrap_or_default(),
                    "seat": seat.map_or_else(|| p.x.to_string(), |s| s.seat_name.clone()),
                })
            })
            .collect())
    }

    /// Moves a screening to another time and/or hall of its complex.
    pub async fn move_screening(
        &self,
        caller: &Caller,
        id: PresentationId,
        to: &MoveScreening,
    ) -> AppResult<ScreeningMoved> {
        let s = self.own_screening(caller, id).await?;
        if s.cancelled_at_ms.is_some() {
            return Err(AppError::rejected(
                ErrorCode::NoEvent,
                "the screening is cancelled",
            ));
        }
        let complex = self.complex(caller, s.location_id).await?;
        let venue_id = to.venue_id.unwrap_or(s.venue_id);
        let hall = complex
            .halls
            .iter()
            .find(|h| h.id == venue_id)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::NotFound, "no such hall in this complex")
            })?;
        // The same hall keeps its plan; another hall sells its own.
        let seatplan_id = if venue_id == s.venue_id {
            s.seatplan_id
        } else {
            hall.seatplan_id.ok_or_else(|| {
                AppError::rejected(ErrorCode::FormValidation, "the hall has no seat plan")
            })?
        };
        let now = self.clock.now_ms();
        let starts = local_to_ms(to.date, to.time)?;
        if starts <= now {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "a screening moves to a time in the future",
                serde_json::json!({ "field": "date" }),
            ));
        }
        // Onto another plan, every seat held or sold goes to its place of the same name there.
        let remap = if seatplan_id == s.seatplan_id {
            None
        } else {
            Some(self.remap_between(s.seatplan_id, seatplan_id).await?)
        };
        let by = Change {
            staff_user_id: caller.user.id,
            at_ms: now,
        };
        let seats_moved = match self
            .move_through_arbiter(id, venue_id, seatplan_id, starts, remap.as_ref(), by)
            .await?
        {
            MoveOutcome::Moved { remapped, .. } => remapped.len(),
            MoveOutcome::Overlaps(other) => return Err(placing::overlap(other)),
            MoveOutcome::SeatsMissing(missing) => {
                let names = self.seat_names(s.seatplan_id, &missing).await?;
                return Err(AppError::rejected_with(
                    ErrorCode::SeatPlanDiffers,
                    "seats are held or sold that the new hall's seat plan does not have",
                    serde_json::json!({
                        "seatplanId": s.seatplan_id,
                        "newSeatplanId": seatplan_id,
                        "missing": names,
                    }),
                ));
            }
            MoveOutcome::Gone => {
                return Err(AppError::rejected(
                    ErrorCode::NoEvent,
                    "the screening is cancelled",
                ));
            }
        };
        self.changed();
        let moved = self
            .store
            .screening(id, now)
            .await?
            .ok_or_else(|| AppError::internal("the screening just moved is gone"))?;
        let hall_names = (hall.name.clone(), hall.name_en.clone());
        let mut told = 0;
        for order_id in self.store.paid_orders_on(id).await? {
            if self
                .orders
                .tell_of_move(
                    &order_id.clone().into(),
                    &moved.feature,
                    moved.starts_at_ms,
                    &hall_names,
                )
                .await?
            {
                told += 1;
            }
        }
        tracing::info!(
            presentation = id.get(),
            user_id = caller.user.id,
            venue = venue_id,
            orders_told = told,
            seats_moved,
            "screening moved"
        );
        Ok(ScreeningMoved {
            screening: moved,
            orders_told: told,
            seats_moved,
        })
    }

    /// The cinema cancels a screening: its sale stops, its holds are released, and every paid
    /// order's tickets of it are cancelled with no charge and no window, refunded in full through
    /// the refund ledger (the order's service charges and products too when nothing else of it is
    /// left), its buyer told. Safe to call again, at once or later: an order's tickets are
    /// cancelled under the order's lock, so each is refunded once, and a later call refunds what a
    /// sale racing the first one may have paid.
    pub async fn cancel_screening(
        &self,
        caller: &Caller,
        id: PresentationId,
    ) -> AppResult<ScreeningCancelled> {
        let s = self.own_screening(caller, id).await?;
        let now = self.clock.now_ms();
        let stopped = self
            .store
            .stop_screening(
                id,
                Change {
                    staff_user_id: caller.user.id,
                    at_ms: now,
                },
            )
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such screening"))?;
        self.changed();
        self.orders.announce_released(id, &stopped.released);
        let mut done = ScreeningCancelled {
            already_cancelled: !stopped.newly,
            holds_released: stopped.released.len(),
            ..Default::default()
        };
        for order_id in self.store.paid_orders_on(id).await? {
            match self
                .orders
                .cancel_for_the_cinema(&order_id.clone().into(), id, &s.feature, s.starts_at_ms)
                .await?
            {
                CinemaCancel::Refunded(amount) => {
                    done.orders_refunded += 1;
                    done.refunded += amount;
                }
                CinemaCancel::Nothing => {}
                CinemaCancel::BoxOffice(number) => done.left_for_box_office.push(number),
            }
        }
        tracing::info!(
            presentation = id.get(),
            user_id = caller.user.id,
            orders = done.orders_refunded,
            refunded = done.refunded.minor(),
            holds = done.holds_released,
            again = done.already_cancelled,
            "screening cancelled"
        );
        Ok(done)
    }
}

/// What the cinema's cancel did to one order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CinemaCancel {
    /// Its tickets of the screening cancelled, this many agorot refunded.
    Refunded(Money),
    /// Nothing left to cancel (another call did it).
    Nothing,
    /// A ticket already admitted: its reservation number, for the box office.
    BoxOffice(String),
}
