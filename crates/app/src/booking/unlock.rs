//! Unlock: a held seat (its whole sofa) or general-admission place given back by its session.

use kupa_domain::catalogue::SectionKind;
use kupa_domain::ids::SessionId;

use super::{BookingService, HeldPlace, SeatRequest, ga_place, held, place};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::ports::SeatAddress;
use crate::seat_events::SeatChangeKind;

impl BookingService {
    /// Releases a held seat (its whole sofa) or general-admission place of this session.
    pub async fn unlock(
        &self,
        session: &SessionId,
        req: SeatRequest,
        captcha_token: &str,
    ) -> AppResult<Vec<HeldPlace>> {
        self.require_captcha(captcha_token).await?;
        self.unlock_checked(session, req).await
    }

    /// [`BookingService::unlock`] once the caller has checked the captcha.
    pub(crate) async fn unlock_checked(
        &self,
        session: &SessionId,
        req: SeatRequest,
    ) -> AppResult<Vec<HeldPlace>> {
        let info = self
            .catalogue
            .presentation(req.presentation_id, &Default::default())
            .await?
            .info;
        if info.view.presentation.seatplan_id != req.seatplan_id
            || info.view.presentation.venue_id != req.venue_id
        {
            return Err(AppError::rejected(
                ErrorCode::NotFound,
                "the venue or seat plan is not this presentation's",
            ));
        }
        let (section, _) = self
            .section(&info.view.presentation, req.section_id)
            .await?;
        let group: Vec<HeldPlace> = match section.kind {
            SectionKind::Ga => vec![ga_place(section.id, req.x)],
            SectionKind::Reserved => {
                let group = self
                    .store
                    .seat_with_partners(
                        req.seatplan_id,
                        SeatAddress::new(req.section_id, req.x, req.y),
                    )
                    .await?;
                if group.is_empty() {
                    return Err(AppError::rejected(ErrorCode::NotFound, "no such seat"));
                }
                group.iter().map(held).collect()
            }
        };
        let places: Vec<SeatAddress> = group.iter().map(place).collect();
        let released = self
            .arbiter
            .release(req.presentation_id, &places, session)
            .await?;
        if released > 0 {
            self.publish(req.presentation_id, SeatChangeKind::Released, places);
        } else {
            return Err(AppError::rejected(
                ErrorCode::UnlockSeatError,
                "this seat is not held by you",
            ));
        }
        Ok(group)
    }
}
