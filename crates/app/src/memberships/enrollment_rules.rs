//! The rules an enrolment cart and the enrolment calls share (decision 0040): the season of a
//! membership open for enrolment, and the member a customer enrols.

use kupa_domain::customer::MemberStanding;

use crate::accounts::{CustomerAccount, MemberCard};
use crate::catalogue::CatalogueService;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::Membership;
use crate::ports::{CatalogueStore, OrderStore};

use super::enroll::*;

/// The rules an enrolment cart and the enrolment calls share: the open season of a membership,
/// and the member a customer enrols.
pub struct EnrollmentRules<'a> {
    pub store: &'a dyn CatalogueStore,
    pub catalogue: &'a CatalogueService,
    pub orders: &'a dyn OrderStore,
    pub now_ms: i64,
}

impl EnrollmentRules<'_> {
    /// The season of `membership_id` open for enrolment now (`season_id`: that one, if open).
    pub async fn open_season(
        &self,
        membership_id: i64,
        season_id: Option<i64>,
    ) -> AppResult<OpenSeason> {
        let membership = self
            .store
            .memberships()
            .await?
            .into_iter()
            .find(|m| m.id == membership_id)
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such membership"))?;
        let today = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.now_ms));
        for season in self.store.seasons().await? {
            if season.membership_id != membership_id || season_id.is_some_and(|id| id != season.id)
            {
                continue;
            }
            let mut presentations = Vec::new();
            for id in season.presentation_ids() {
                presentations.push(
                    self.catalogue
                        .presentation(id, &Default::default())
                        .await?
                        .info,
                );
            }
            let first = presentations
                .iter()
                .map(|p| p.view.presentation.starts_at_ms)
                .min();
            if season.is_open(today, self.now_ms, first) {
                let ticket_groups = self.store.ticket_groups(&season.ticket_groups()).await?;
                return Ok(OpenSeason {
                    season,
                    membership,
                    presentations,
                    ticket_groups,
                });
            }
        }
        Err(AppError::rejected(
            ErrorCode::NotFound,
            "this membership has no season open for enrolment",
        ))
    }

    /// The season a seated membership's seats are in (decision 0043), open for sale now:
    /// `notFound` for a membership without seats, or once its season has closed.
    pub async fn seated_season(&self, membership: &Membership) -> AppResult<OpenSeason> {
        let seats = membership.seats.ok_or_else(|| {
            AppError::rejected(ErrorCode::NotFound, "this membership comes without seats")
        })?;
        self.open_season(membership.id, Some(seats.season_id)).await
    }

    /// The customer's members of the season's membership, each with whether it is enrolled.
    pub async fn members(
        &self,
        account: &CustomerAccount,
        open: &OpenSeason,
    ) -> AppResult<Vec<EnrollingMember>> {
        let cards: Vec<&MemberCard> = account
            .members
            .iter()
            .filter(|c| c.member.membership_id == open.membership.id)
            .collect();
        let ids: Vec<i64> = cards.iter().map(|c| c.member.id).collect();
        let enrolled = self.orders.enrolled_members(open.season.id, &ids).await?;
        Ok(cards
            .into_iter()
            .map(|c| EnrollingMember {
                enrolled: enrolled.contains(&c.member.id),
                card: c.clone(),
            })
            .collect())
    }

    /// The member a customer enrols: theirs, of the season's membership
    /// (`CUSTOMER_NOT_FOUND`), with a mobile number for the tickets (`CUSTOMER_NO_MOBILE`),
    /// valid (`memberExpired`, `memberNotStarted`) and not enrolled yet (`ALREADY_ENROLLED`).
    pub async fn member(
        &self,
        account: &CustomerAccount,
        open: &OpenSeason,
        member_number: &str,
    ) -> AppResult<MemberCard> {
        let number = member_number.trim();
        let member = self
            .members(account, open)
            .await?
            .into_iter()
            .find(|m| m.card.member.member_number == number)
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::CustomerNotFound,
                    "no member of this membership has that number among yours",
                )
            })?;
        if account.customer.mobile.trim().is_empty() {
            return Err(AppError::rejected(
                ErrorCode::CustomerNoMobile,
                "the member's customer has no mobile number for the tickets",
            ));
        }
        match member.card.standing {
            MemberStanding::Expired => {
                return Err(AppError::rejected(
                    ErrorCode::MemberExpired,
                    "the membership has expired",
                ));
            }
            MemberStanding::NotStarted => {
                return Err(AppError::rejected(
                    ErrorCode::MemberNotStarted,
                    "the membership has not started yet",
                ));
            }
            _ => {}
        }
        if member.enrolled {
            return Err(AppError::rejected(
                ErrorCode::AlreadyEnrolled,
                "this member is already enrolled in the season",
            ));
        }
        Ok(member.card)
    }
}
