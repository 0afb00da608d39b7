//! One screening's own settings (decision 0070): the ticket group it sells (chosen when it is
//! added, changeable while none of its seats is held or sold: a buyer is never priced by one list
//! and charged by another), and a channel closed to it (web or miniSite: "no tickets open in this
//! channel", the complex's switches of decision 0067 for one screening). Each is written with its
//! audit row and a `catalogue_version` bump, so every node sells by it within a second.

use super::*;

/// What setting a screening's ticket group came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TicketGroupSet {
    Done,
    /// Seats of it are held or sold (counts).
    HasSales {
        sold: i64,
        held: i64,
    },
    /// No such screening, or it was cancelled.
    Gone,
}

impl ProgrammeService {
    /// A ticket group a screening may sell as its own, or `formValidation`.
    pub(super) async fn require_ticket_group(&self, caller: &Caller, id: i64) -> AppResult<()> {
        if self
            .ticket_group_choices(caller)
            .await?
            .iter()
            .any(|g| g.id == id)
        {
            Ok(())
        } else {
            Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "no such ticket group sold online",
                serde_json::json!({ "field": "ticketGroupId" }),
            ))
        }
    }

    /// Sets the screening's own ticket group (None: as its hall) while none of its seats is held
    /// or sold (`screeningHasSales` otherwise).
    pub async fn set_ticket_group(
        &self,
        caller: &Caller,
        id: PresentationId,
        ticket_group_id: Option<i64>,
    ) -> AppResult<Screening> {
        let s = self.own_screening(caller, id).await?;
        if s.cancelled_at_ms.is_some() {
            return Err(AppError::rejected(
                ErrorCode::NoEvent,
                "the screening is cancelled",
            ));
        }
        if let Some(g) = ticket_group_id {
            self.require_ticket_group(caller, g).await?;
        }
        let by = self.change_by(caller);
        match self.store.set_ticket_group(id, ticket_group_id, by).await? {
            TicketGroupSet::Done => {}
            TicketGroupSet::HasSales { sold, held } => {
                return Err(AppError::rejected_with(
                    ErrorCode::ScreeningHasSales,
                    "seats of the screening are held or sold: its ticket group stays",
                    serde_json::json!({ "sold": sold, "held": held }),
                ));
            }
            TicketGroupSet::Gone => {
                return Err(AppError::rejected(
                    ErrorCode::NoEvent,
                    "the screening is cancelled",
                ));
            }
        }
        self.changed();
        tracing::info!(
            presentation = id.get(),
            ticket_group = ?ticket_group_id,
            user_id = caller.user.id,
            "screening ticket group set"
        );
        self.store
            .screening(id, by.at_ms)
            .await?
            .ok_or_else(|| AppError::internal("the screening just changed is gone"))
    }

    /// Opens or closes one screening to one channel.
    pub async fn set_screening_channel(
        &self,
        caller: &Caller,
        id: PresentationId,
        channel: SaleChannel,
        open: bool,
    ) -> AppResult<Screening> {
        self.own_screening(caller, id).await?;
        let by = self.change_by(caller);
        self.store
            .set_screening_channel(id, channel, open, by)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such screening"))?;
        self.changed();
        tracing::info!(
            presentation = id.get(),
            channel = channel.as_str(),
            open,
            user_id = caller.user.id,
            "screening channel set"
        );
        self.store
            .screening(id, by.at_ms)
            .await?
            .ok_or_else(|| AppError::internal("the screening just changed is gone"))
    }
}
