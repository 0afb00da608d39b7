//! Why an order's tickets are refused, with the spec's catalogue codes.

use thiserror::Error;

use crate::codes::ErrorCode;
use crate::seat_kinds::SeatKind;
use crate::seating::SeatingViolation;

// ---------------------------------------------------------------------------------------------
// What the rules answer.

/// Why an order's tickets are refused. [`TicketRuleError::code`] is the spec's catalogue code
/// (section 8) where one exists; [`TicketRuleError::params`] are the numbers the client's words need.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TicketRuleError {
    #[error("no such code")]
    CodeNotFound,
    #[error("the code is not valid yet")]
    CodeNotYetValid,
    #[error("the voucher has expired")]
    VoucherExpired,
    #[error("the voucher has no balance left")]
    VoucherBalance,
    #[error("the code's usage limit is reached")]
    CodeUsageLimitExceeded,
    #[error("the coupon code was already used; try another")]
    CouponAlreadyUsed,
    #[error("the coupon needs {missing} more ticket(s)")]
    CouponNeedsMoreTickets { missing: i64 },
    #[error("no tickets found to apply the coupon to")]
    CouponNoTickets,
    #[error("ticket {ticket_id} is not sold here this way")]
    TicketNotFound { ticket_id: i64 },
    #[error("at most {max} of ticket {ticket_id} per order")]
    TicketMaxExceeded { ticket_id: i64, max: i64 },
    #[error("at least {min} of ticket {ticket_id} per order ({missing} more)")]
    TicketMinNotReached {
        ticket_id: i64,
        min: i64,
        missing: i64,
    },
    #[error("ticket {ticket_id} is sold only on a {seat_kind} seat")]
    TicketNotForSeat { ticket_id: i64, seat_kind: SeatKind },
    #[error("ticket {ticket_id} needs ticket {required_ticket_id} in the order ({missing} more)")]
    RequiredTicketMissing {
        ticket_id: i64,
        required_ticket_id: i64,
        missing: i64,
    },
    #[error(transparent)]
    Seating(SeatingViolation),
    #[error("a member ticket needs a member")]
    NoValidMember,
    #[error("no such member")]
    MemberNotFound,
    #[error("the membership has expired")]
    MemberExpired,
    #[error("the membership has not started yet")]
    MemberNotStarted,
    #[error("the member has no balance or points left for this")]
    MemberNoneAvailable,
    #[error("at most {max} discounted member tickets per order")]
    MemberTicketsMax { max: i64 },
    #[error("the senior citizen's ID number is not valid")]
    IlSeniorError,
    #[error("an ID number of up to 9 digits is needed")]
    InvalidSsn,
    #[error("one senior citizen ID number stands for one senior citizen ticket")]
    IlSeniorBalance,
    #[error("ticket group {ticket_group_id} has no senior citizen ticket")]
    IlSeniorTicketNotFound { ticket_group_id: i64 },
    #[error("the reference is missing or not valid")]
    RefPromptOptError,
    #[error("the reference is not one this ticket accepts")]
    RefPromptOptNotFound,
    #[error("the reference is accepted for {available} more ticket(s) only")]
    RefPromptOptUsedUp { available: i64 },
}

impl TicketRuleError {
    pub fn code(&self) -> ErrorCode {
        use TicketRuleError::*;
        match self {
            CodeNotFound | CodeNotYetValid => ErrorCode::CodeNotFound,
            VoucherExpired => ErrorCode::VoucherExpired,
            VoucherBalance => ErrorCode::VoucherBalance,
            CodeUsageLimitExceeded => ErrorCode::CodeUsageLimitExceeded,
            CouponAlreadyUsed => ErrorCode::CouponAlreadyUsed,
            CouponNeedsMoreTickets { .. } => ErrorCode::CouponNeedsMoreTickets,
            CouponNoTickets => ErrorCode::CouponNoTickets,
            TicketNotFound { .. } => ErrorCode::TicketNotFound,
            TicketMaxExceeded { .. } => ErrorCode::TicketMaxQuantity,
            TicketMinNotReached { .. } => ErrorCode::TicketMinQuantity,
            TicketNotForSeat { .. } => ErrorCode::TicketSeatKind,
            RequiredTicketMissing { .. } => ErrorCode::RequiredTicketMissing,
            Seating(v) => v.code(),
            NoValidMember => ErrorCode::NoValidMember,
            MemberNotFound => ErrorCode::MemberNotFound,
            MemberExpired => ErrorCode::MemberExpired,
            MemberNotStarted => ErrorCode::MemberNotStarted,
            MemberNoneAvailable => ErrorCode::MemberNoneAvailable,
            MemberTicketsMax { .. } => ErrorCode::MemberTicketsMax,
            IlSeniorError => ErrorCode::IlSeniorError,
            IlSeniorBalance => ErrorCode::IlSeniorBalance,
            InvalidSsn => ErrorCode::InvalidSsn,
            IlSeniorTicketNotFound { .. } => ErrorCode::IlSeniorTicketNotFound,
            RefPromptOptError => ErrorCode::RefPromptOptError,
            RefPromptOptNotFound | RefPromptOptUsedUp { .. } => ErrorCode::RefPromptOptNotFound,
        }
    }

    /// The numbers the client's message needs, e.g. `[("missing", 1)]` for "one more ticket".
    pub fn params(&self) -> Vec<(&'static str, i64)> {
        use TicketRuleError::*;
        match *self {
            TicketNotForSeat { ticket_id, .. } => vec![("ticketId", ticket_id)],
            CouponNeedsMoreTickets { missing } => vec![("missing", missing)],
            TicketNotFound { ticket_id } => vec![("ticketId", ticket_id)],
            TicketMaxExceeded { ticket_id, max } => vec![("ticketId", ticket_id), ("max", max)],
            TicketMinNotReached {
                ticket_id,
                min,
                missing,
            } => vec![("ticketId", ticket_id), ("min", min), ("missing", missing)],
            RequiredTicketMissing {
                ticket_id,
                required_ticket_id,
                missing,
            } => vec![
                ("ticketId", ticket_id),
                ("requiredTicketId", required_ticket_id),
                ("missing", missing),
            ],
            MemberTicketsMax { max } => vec![("max", max)],
            IlSeniorTicketNotFound { ticket_group_id } => vec![("ticketGroupId", ticket_group_id)],
            RefPromptOptUsedUp { available } => vec![("available", available)],
            _ => Vec::new(),
        }
    }
}
