//! The checkout's step timers: the current step, moving on, the "Time expired" extension, and
//! the buyer's own holds (to restore a page after a reload).

use super::*;
use kupa_domain::ids::{PresentationId, SessionId};

impl BookingService {
    /// The session's checkout on this presentation, or `timeExpired` when there is none.
    async fn current_checkout(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
    ) -> AppResult<CheckoutState> {
        self.checkout
            .checkout_state(session, presentation_id)
            .await?
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::TimeExpired, "there is no checkout to continue")
            })
    }

    /// The "Time expired" dialog's extension: once per step, before the deadline.
    pub async fn extend(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
    ) -> AppResult<CheckoutState> {
        let now = self.clock.now_ms();
        let timers = self.timers(&self.catalogue.site_config().await?);
        let state = self.current_checkout(session, presentation_id).await?;
        let next = state.extend(now, &timers).map_err(rule)?;
        self.save_checkout(session, presentation_id, &next, now)
            .await?;
        Ok(next)
    }

    /// Moves the checkout forward (ticket choice, cart, payment start); the holds follow the new deadline.
    pub async fn advance(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
        step: Step,
    ) -> AppResult<CheckoutState> {
        let now = self.clock.now_ms();
        let timers = self.timers(&self.catalogue.site_config().await?);
        let state = self.current_checkout(session, presentation_id).await?;
        let next = state.advance(step, now, &timers).map_err(rule)?;
        if next != state {
            self.save_checkout(session, presentation_id, &next, now)
                .await?;
        }
        Ok(next)
    }

    /// The session's live holds on a presentation and its checkout, to restore a page after a reload.
    pub async fn my_holds(
        &self,
        session: &SessionId,
        presentation_id: PresentationId,
    ) -> AppResult<(Vec<HeldPlace>, Option<CheckoutState>)> {
        let now = self.clock.now_ms();
        let info = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info;
        let seats = self.store.seats(info.view.presentation.seatplan_id).await?;
        let claims = self.claims.session_claims(presentation_id, session).await?;
        let mut holds: Vec<HeldPlace> = Self::my_live_holds(&claims, session, now)
            .map(|c| {
                match seats
                    .iter()
                    .find(|s| s.section_id == c.section_id && s.x == c.x && s.y == c.y)
                {
                    Some(s) => held(s),
                    None => ga_place(c.section_id, c.x),
                }
            })
            .collect();
        let places: Vec<SeatAddress> = holds
            .iter()
            .map(|h| SeatAddress::new(h.section_id, h.x, h.y))
            .collect();
        for (h, kinds) in holds
            .iter_mut()
            .zip(crate::seat_plan::seat_kinds_of(&places, &seats))
        {
            h.seat_kinds = kinds;
        }
        let state = self
            .checkout
            .checkout_state(session, presentation_id)
            .await?
            .filter(|s| s.is_live(now));
        Ok((holds, state))
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }
}
