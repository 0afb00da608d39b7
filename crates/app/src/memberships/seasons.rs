//! Membership seasons (spec section 3 "Enroll membership"; issue 15, decision 0040): a season is
//! a set of presentations in one hall that a member of its membership enrols in, choosing a seat
//! (the member seat, the same in every presentation unless the season skips it), a ticket, the
//! optional presentations and, per presentation, another seat. What is sold is an ordinary ticket
//! order over those presentations, priced by the season. The rules here are pure.

use jiff::civil::Date;
use kupa_domain::ids::PresentationId;
use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};

use crate::error::{AppError, AppResult, ErrorCode};

/// A season, as the catalogue file writes it and the store keeps it (one JSON document).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Season {
    pub id: i64,
    /// Who may enrol: members of this membership.
    pub membership_id: i64,
    pub name: String,
    pub name_en: String,
    pub description: String,
    pub description_en: String,
    /// The member chooses no member seat, only a seat in each presentation.
    pub is_skip_member_seat: bool,
    /// Each ticket has its own price per presentation (`presentation_detail`); otherwise the
    /// ticket's catalogue price, and the presentation's `membership_payable_amount`.
    pub is_pricing_per_ticket: bool,
    pub default_ticket_group_id: i64,
    /// The ticket groups an enrolment's tickets come from (default: the default one).
    pub ticket_group_ids: Vec<i64>,
    /// The local days enrolment is open, inclusive (`YYYY-MM-DD` once loaded; the file may say
    /// `today+3`). None: from the day it is loaded / until its first presentation starts.
    pub enroll_from: Option<String>,
    pub enroll_to: Option<String>,
    pub presentations: Vec<SeasonPresentation>,
    pub presentation_detail: Vec<SeasonPrice>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SeasonPresentation {
    pub presentation_id: PresentationId,
    pub is_required: bool,
    /// What of each ticket's price the member's series balance pays, when the season is not
    /// priced per ticket.
    pub membership_payable_amount: Money,
}

/// A ticket's price in one presentation of a season priced per ticket.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SeasonPrice {
    pub presentation_id: PresentationId,
    pub ticket_group_id: i64,
    pub ticket_id: i64,
    /// `price` replaces the ticket's catalogue price.
    pub is_price_override: bool,
    pub price: Money,
    /// What of the price the member's series balance pays.
    pub membership_payable_amount: Money,
}

/// What one ticket of an enrolment costs in one presentation: all of it, and the part the
/// member's series balance pays (the rest is money).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeasonTicketPrice {
    pub price: Money,
    pub membership_payable: Money,
}

impl SeasonTicketPrice {
    pub fn money(&self) -> Money {
        self.price - self.membership_payable
    }
}

impl Season {
    pub fn ticket_groups(&self) -> Vec<i64> {
        if self.ticket_group_ids.is_empty() {
            vec![self.default_ticket_group_id]
        } else {
            self.ticket_group_ids.clone()
        }
    }

    pub fn presentation(&self, id: PresentationId) -> Option<&SeasonPresentation> {
        self.presentations.iter().find(|p| p.presentation_id == id)
    }

    /// Its presentations' ids, ascending: the order a member seat is claimed in, so two buyers
    /// racing for one seat meet at the first presentation and one of them wins.
    pub fn presentation_ids(&self) -> Vec<PresentationId> {
        let mut ids: Vec<PresentationId> = self
            .presentations
            .iter()
            .map(|p| p.presentation_id)
            .collect();
        ids.sort_unstable();
        ids
    }

    pub fn required(&self) -> impl Iterator<Item = PresentationId> + '_ {
        self.presentations
            .iter()
            .filter(|p| p.is_required)
            .map(|p| p.presentation_id)
    }

    /// Open for enrolment on `today` (local) when its window holds it and its first presentation
    /// has not started (`first_start_ms` against `now_ms`).
    pub fn is_open(&self, today: Date, now_ms: i64, first_start_ms: Option<i64>) -> bool {
        let day = today.to_string();
        self.enroll_from
            .as_deref()
            .is_none_or(|f| f <= day.as_str())
            && self.enroll_to.as_deref().is_none_or(|t| day.as_str() <= t)
            && first_start_ms.is_some_and(|s| now_ms < s)
    }

    /// A ticket's price in a presentation of the season, from the ticket's catalogue price.
    pub fn price_of(
        &self,
        presentation_id: PresentationId,
        ticket_group_id: i64,
        ticket_id: i64,
        catalogue_price: Money,
    ) -> SeasonTicketPrice {
        if self.is_pricing_per_ticket
            && let Some(d) = self.presentation_detail.iter().find(|d| {
                d.presentation_id == presentation_id
                    && d.ticket_group_id == ticket_group_id
                    && d.ticket_id == ticket_id
            })
        {
            let price = if d.is_price_override {
                d.price
            } else {
                catalogue_price
            };
            return SeasonTicketPrice {
                price,
                membership_payable: d.membership_payable_amount.clamp(Money::ZERO, price),
            };
        }
        let payable = if self.is_pricing_per_ticket {
            Money::ZERO
        } else {
            self.presentation(presentation_id)
                .map(|p| p.membership_payable_amount)
                .unwrap_or(Money::ZERO)
        };
        SeasonTicketPrice {
            price: catalogue_price,
            membership_payable: payable.clamp(Money::ZERO, catalogue_price),
        }
    }

    /// The presentations an enrolment cart names: each of the season, every required one there.
    pub fn check_chosen(&self, chosen: &[PresentationId]) -> AppResult<()> {
        if let Some(p) = chosen.iter().find(|p| self.presentation(**p).is_none()) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                format!("presentation {p} is not in the season"),
                serde_json::json!({ "reason": "notInSeason", "presentationId": p }),
            ));
        }
        let missing: Vec<PresentationId> =
            self.required().filter(|r| !chosen.contains(r)).collect();
        if !missing.is_empty() {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "every required presentation of the season must be in the enrolment",
                serde_json::json!({ "reason": "requiredPresentations", "missing": missing }),
            ));
        }
        Ok(())
    }

    /// The catalogue file's checks: presentations once each, details naming the season's own
    /// presentations and ticket groups, amounts not negative.
    pub fn problems(&self) -> Option<String> {
        let ids = self.presentation_ids();
        if ids.is_empty() {
            return Some("has no presentations".into());
        }
        if ids.windows(2).any(|w| w[0] == w[1]) {
            return Some("names a presentation twice".into());
        }
        if self.default_ticket_group_id <= 0 {
            return Some("needs a defaultTicketGroupId".into());
        }
        let groups = self.ticket_groups();
        if !groups.contains(&self.default_ticket_group_id) {
            return Some("defaultTicketGroupId is not one of ticketGroupIds".into());
        }
        if self
            .presentations
            .iter()
            .any(|p| p.membership_payable_amount < Money::ZERO)
        {
            return Some("membershipPayableAmount below 0".into());
        }
        for d in &self.presentation_detail {
            if !ids.contains(&d.presentation_id) {
                return Some(format!(
                    "presentationDetail names presentation {} not in the season",
                    d.presentation_id
                ));
            }
            if !groups.contains(&d.ticket_group_id) {
                return Some(format!(
                    "presentationDetail names ticket group {} not of the season",
                    d.ticket_group_id
                ));
            }
            if d.price < Money::ZERO || d.membership_payable_amount < Money::ZERO {
                return Some("presentationDetail amounts below 0".into());
            }
            if d.is_price_override && d.membership_payable_amount > d.price {
                return Some("membershipPayableAmount above the price".into());
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn season() -> Season {
        Season {
            id: 1,
            membership_id: 2,
            is_pricing_per_ticket: true,
            default_ticket_group_id: 10,
            presentations: vec![
                SeasonPresentation {
                    presentation_id: PresentationId(902),
                    is_required: true,
                    membership_payable_amount: Money(0),
                },
                SeasonPresentation {
                    presentation_id: PresentationId(901),
                    is_required: true,
                    membership_payable_amount: Money(0),
                },
                SeasonPresentation {
                    presentation_id: PresentationId(903),
                    is_required: false,
                    membership_payable_amount: Money(700),
                },
            ],
            presentation_detail: vec![SeasonPrice {
                presentation_id: PresentationId(901),
                ticket_group_id: 10,
                ticket_id: 1001,
                is_price_override: true,
                price: Money(3000),
                membership_payable_amount: Money(1500),
            }],
            ..Season::default()
        }
    }

    #[test]
    fn a_price_override_and_the_part_the_pass_pays() {
        let s = season();
        let p = s.price_of(PresentationId(901), 10, 1001, Money(3500));
        assert_eq!(
            (p.price, p.membership_payable, p.money()),
            (Money(3000), Money(1500), Money(1500))
        );
        // No detail for this presentation: the catalogue price, nothing from the pass.
        let p = s.price_of(PresentationId(902), 10, 1001, Money(3500));
        assert_eq!((p.price, p.membership_payable), (Money(3500), Money(0)));
        // Not priced per ticket: the presentation's payable amount.
        let flat = Season {
            is_pricing_per_ticket: false,
            ..season()
        };
        let p = flat.price_of(PresentationId(903), 10, 1001, Money(3500));
        assert_eq!((p.price, p.membership_payable), (Money(3500), Money(700)));
        let p = flat.price_of(PresentationId(901), 10, 1001, Money(3500));
        assert_eq!((p.price, p.membership_payable), (Money(3500), Money(0)));
    }

    #[test]
    fn required_presentations_and_only_the_seasons() {
        let s = season();
        assert!(
            s.check_chosen(&[PresentationId(901), PresentationId(902)])
                .is_ok()
        );
        assert!(
            s.check_chosen(&[
                PresentationId(902),
                PresentationId(901),
                PresentationId(903)
            ])
            .is_ok()
        );
        let e = s.check_chosen(&[PresentationId(901)]).unwrap_err();
        assert!(
            matches!(&e, AppError::Rejected { code: ErrorCode::FormValidation, params: Some(p), .. }
                if p["missing"] == serde_json::json!([902])),
            "{e:?}"
        );
        let e = s
            .check_chosen(&[
                PresentationId(901),
                PresentationId(902),
                PresentationId(904),
            ])
            .unwrap_err();
        assert!(e.to_string().contains("not in the season"));
        assert_eq!(s.presentation_ids(), [901, 902, 903].map(PresentationId));
    }

    #[test]
    fn open_between_its_days_and_before_its_first_presentation() {
        let s = Season {
            enroll_from: Some("2026-11-20".into()),
            enroll_to: Some("2026-12-10".into()),
            ..season()
        };
        let day = |d: &str| d.parse::<Date>().unwrap();
        assert!(s.is_open(day("2026-11-20"), 0, Some(10)));
        assert!(s.is_open(day("2026-12-10"), 0, Some(10)));
        assert!(!s.is_open(day("2026-11-19"), 0, Some(10)));
        assert!(!s.is_open(day("2026-12-11"), 0, Some(10)));
        assert!(!s.is_open(day("2026-11-25"), 10, Some(10)));
        assert!(!s.is_open(day("2026-11-25"), 0, None));
    }

    #[test]
    fn the_files_checks() {
        assert_eq!(season().problems(), None);
        let twice = Season {
            presentations: vec![
                SeasonPresentation {
                    presentation_id: PresentationId(901),
                    ..Default::default()
                };
                2
            ],
            ..season()
        };
        assert!(twice.problems().unwrap().contains("twice"));
        let mut bad = season();
        bad.presentation_detail[0].membership_payable_amount = Money(4000);
        assert!(bad.problems().unwrap().contains("above the price"));
        let mut stray = season();
        stray.presentation_detail[0].presentation_id = PresentationId(999);
        assert!(stray.problems().unwrap().contains("not in the season"));
    }
}
