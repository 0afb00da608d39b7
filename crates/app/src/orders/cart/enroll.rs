//! An enrolment cart (decision 0040): a ticket order over a season's presentations, one seat in
//! each for the member enrolled, each ticket priced by the season (its price, and the part the
//! member's series balance pays). The seats and the seating rules are checked as for any cart.

use kupa_domain::money::Money;
use kupa_domain::tickets::PricedLine;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::memberships::EnrollmentRules;
use crate::model::Ticket;

use super::super::*;

impl OrderService {
    /// The member checked (the customer logged in, theirs, valid, not enrolled yet), the
    /// presentations the season's (every required one there, one seat each), and each seat's
    /// ticket one of the season's, priced by it. Nothing else is sold with an enrolment.
    pub(super) async fn price_enrollment(
        &self,
        login: Option<&str>,
        choice: &EnrollmentChoice,
        cart: &CartInput,
    ) -> AppResult<(Vec<(PricedLine, Ticket)>, OrderEnrollment)> {
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in to enrol a member"))?;
        let open = self
            .enrollment_rules()
            .open_season(choice.membership_id, Some(choice.season_id))
            .await?;
        let card = self
            .enrollment_rules()
            .member(&account, &open, &choice.member_number)
            .await?;
        if cart.products.iter().any(|(_, q)| *q != 0) || !cart.vouchers.is_empty() {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "an enrolment sells its tickets alone: no products or voucher payments",
                serde_json::json!({ "reason": "enrollment" }),
            ));
        }
        let ids: Vec<PresentationId> = cart
            .presentations
            .iter()
            .map(|p| p.presentation_id)
            .collect();
        open.season.check_chosen(&ids)?;
        if cart.presentations.iter().any(|p| p.seats.len() != 1) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "a member has one seat in each presentation of the season",
                serde_json::json!({ "reason": "oneSeatPerPresentation" }),
            ));
        }
        let tickets: Vec<&Ticket> = open.ticket_groups.iter().flat_map(|(_, ts)| ts).collect();
        let mut priced = Vec::new();
        for part in &cart.presentations {
            let seat = &part.seats[0];
            let ticket = tickets
                .iter()
                .find(|t| t.id == seat.ticket_id)
                .ok_or_else(|| {
                    AppError::from(kupa_domain::tickets::TicketRuleError::TicketNotFound {
                        ticket_id: seat.ticket_id,
                    })
                })?;
            let price = open.season.price_of(
                part.presentation_id,
                ticket.ticket_group_id,
                ticket.id,
                ticket.price,
            );
            priced.push((
                PricedLine {
                    seat: seat.address(),
                    ticket_id: ticket.id,
                    price: price.money(),
                    service_charge: ticket.service_charge,
                    loyalty_points: None,
                    member_balance: (price.membership_payable > Money::ZERO)
                        .then_some(price.membership_payable),
                    is_sub_ticket: false,
                    covered_by: None,
                    code: None,
                    member_number: Some(card.member.member_number.clone()),
                },
                (*ticket).clone(),
            ));
        }
        let enrollment = OrderEnrollment {
            season_id: open.season.id,
            membership_id: open.membership.id,
            member_id: card.member.id,
            member_number: card.member.member_number.clone(),
            name: open.season.name.clone(),
            name_en: open.season.name_en.clone(),
        };
        Ok((priced, enrollment))
    }

    pub(in crate::orders) fn enrollment_rules(&self) -> EnrollmentRules<'_> {
        EnrollmentRules {
            store: self.store.as_ref(),
            catalogue: &self.catalogue,
            orders: self.orders.as_ref(),
            now_ms: self.clock.now_ms(),
        }
    }
}
