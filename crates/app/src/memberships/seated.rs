//! A seated membership's seat (spec sections 2 "Memberships: choose memberships, choose seats", 3
//! Membership `seats`, 7 `GET /membership/seatplan`, `PUT /membership/lock-seat` and
//! `unlock-seat`; issue 15, decision 0043): a subscription whose price includes one seat in every
//! screening of its season. The seat is the enrolment's member seat, held the same way (every
//! screening, all or none, through the booking service's one claim); the membership cart sells it
//! with the membership, and the member it makes is enrolled in the season.

use crate::booking::Holder;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::Membership;
use kupa_domain::ids::SessionId;

use super::{EnrollSeat, EnrollSeatMap, EnrollService, OpenSeason, Selection};

impl EnrollService {
    /// The membership on sale with seats, and its season open now (`notFound` otherwise).
    async fn seated(&self, membership_id: i64) -> AppResult<(Membership, OpenSeason)> {
        let membership = self
            .store
            .memberships()
            .await?
            .into_iter()
            .find(|m| m.id == membership_id && m.on_sale)
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such membership on sale"))?;
        let open = self.rules().seated_season(&membership).await?;
        Ok((membership, open))
    }

    /// A buyer choosing a seated membership must be logged in: the member is a customer's.
    async fn buyer(&self, login: Option<&str>) -> AppResult<()> {
        self.customers
            .customer_of_login(login)
            .await?
            .map(|_| ())
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in to buy a membership"))
    }

    /// The seated membership's season, for its card on the memberships page: None when it has
    /// no seats; `notFound` once its season has closed (it is then not sold).
    pub async fn seats_of(&self, membership: &Membership) -> AppResult<Option<OpenSeason>> {
        if membership.seats.is_none() {
            return Ok(None);
        }
        self.rules().seated_season(membership).await.map(Some)
    }

    /// The member-seat map of the membership's season: a seat is free only when free (or this
    /// session's) in every screening.
    pub async fn membership_seat_map(
        &self,
        session: &SessionId,
        login: Option<&str>,
        membership_id: i64,
    ) -> AppResult<(OpenSeason, EnrollSeatMap, Vec<Selection>)> {
        self.buyer(login).await?;
        let (_, open) = self.seated(membership_id).await?;
        let (map, selections) = self
            .seat_map(session, login, membership_id, Some(open.season.id), None)
            .await?;
        Ok((open, map, selections))
    }

    /// What a lock or an unlock of a membership seat checks (the captcha, the buyer logged in, the
    /// membership on sale with its season open), and the seat as the member seat: every screening.
    async fn member_seat(
        &self,
        login: Option<&str>,
        captcha_token: &str,
        membership_id: i64,
        seat: EnrollSeat,
    ) -> AppResult<(OpenSeason, EnrollSeat)> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        self.buyer(login).await?;
        let (_, open) = self.seated(membership_id).await?;
        let seat = EnrollSeat {
            presentation_id: None,
            ..seat
        };
        Ok((open, seat))
    }

    /// Holds the seat in every screening of the membership's season, all or none; the seat this
    /// session held there before gives way (one seat: a new member per membership per order).
    pub async fn membership_lock(
        &self,
        session: &SessionId,
        login: Option<&str>,
        holder: &Holder,
        captcha_token: &str,
        membership_id: i64,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        let (open, seat) = self
            .member_seat(login, captcha_token, membership_id, seat)
            .await?;
        self.hold(session, holder, &open, seat).await
    }

    /// Releases the seat in every screening of the membership's season.
    pub async fn membership_unlock(
        &self,
        session: &SessionId,
        login: Option<&str>,
        captcha_token: &str,
        membership_id: i64,
        seat: EnrollSeat,
    ) -> AppResult<Vec<Selection>> {
        let (open, seat) = self
            .member_seat(login, captcha_token, membership_id, seat)
            .await?;
        self.release(session, &open, seat).await
    }
}
