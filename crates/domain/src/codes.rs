//! Every error code Kupa answers with, one closed list: the spellings of the spec's error
//! catalogue (section 8), and Kupa's own where the spec names a message but no code. The HTTP
//! layer gives each code its one status; the web app gives each its words (a test fails when a
//! code has no Hebrew or English text). docs/api.md section 3 says what each means.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

macro_rules! error_codes {
    ($( $(#[$doc:meta])* $variant:ident = $wire:literal, )*) => {
        /// An error code, as it travels in `{"error": {"code": ...}}`.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum ErrorCode {
            $( $(#[$doc])* $variant, )*
        }

        impl ErrorCode {
            /// Every code, in the order of this list.
            pub const ALL: &'static [ErrorCode] = &[$(ErrorCode::$variant),*];

            /// The code's spelling on the wire.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( ErrorCode::$variant => $wire, )*
                }
            }
        }
    };
}

error_codes! {
    // --- General
    /// No such presentation, or not sellable through this channel.
    NoEvent = "noEvent",
    /// No such thing (a catalogue object, a payment, a reservation, an API call).
    NotFound = "notFound",
    /// The request's fields or parameters are malformed or missing.
    FormValidation = "formValidation",
    /// An integration link whose key, time stamp or return address does not check out.
    IntegrationError = "integrationError",
    /// The captcha token was missing or rejected.
    Recaptcha = "recaptcha",
    /// The captcha provider says the token was checked before or is too old (its
    /// `timeout-or-duplicate`): refresh the page or use another browser (decision 0062).
    RecaptchaRepeated = "recaptcha_repeated",
    /// The captcha provider could not be asked (down, too slow, or it refused the server's own
    /// key): nothing was done, and the buyer may try again (decision 0062).
    InvalidCaptcha = "invalid_captcha",
    /// A storage or other internal failure; its details stay in the log.
    GeneralError = "GENERAL_ERROR",
    /// The database is unreachable right now; try again.
    ServiceUnavailable = "serviceUnavailable",
    /// The call does not take that HTTP method.
    MethodNotAllowed = "methodNotAllowed",
    /// Too many calls of one kind; `Retry-After` says when to try again.
    TooManyRequests = "tooManyRequests",
    /// A state-changing call from another site's page (its `Origin` is not this site's).
    Forbidden = "forbidden",
    /// The request body is larger than the server takes.
    PayloadTooLarge = "payloadTooLarge",
    // --- Seats
    /// The seat is no longer available (held by another buyer or sold).
    LockSeatError = "lock_seat_error",
    /// The seat is not held by this buyer, so it cannot be released.
    UnlockSeatError = "unlock_seat_error",
    /// The buyer (address or logged-in customer, across sessions) holds as many seats as allowed,
    /// or the session's holds of one presentation have run past their ceiling.
    HoldLimitReached = "holdLimitReached",
    /// The presentation's sale window has not opened yet.
    TicketSaleNotYetStarted = "ticket_sale_not_yet_started",
    /// The presentation's sale window has closed.
    TicketingEnded = "ticketing_ended",
    /// The complex is not selling through this channel now: book at the box office (the spec's
    /// "location offline (book at box office)"; a manager's sales switch, decision 0067).
    LocationOffline = "locationOffline",
    /// The channel sells only today's screenings at this complex (a manager's sales switch).
    AdvancedSalesNotAllowedByOutlet = "advanced_sales_not_allowed_by_outlet",
    /// No tickets open in this channel at this complex (a manager's sales switch).
    NoTicketsInChannel = "noTicketsInChannel",
    /// A selection would leave a single empty seat (seating policy 3).
    SingleSeatGap = "singleSeatGap",
    /// A sofa or bed held in part.
    SofaSplit = "sofaSplit",
    /// Seats of different price levels in one order.
    MixedPriceLevels = "mixedPriceLevels",
    /// The tickets do not cover the seats exactly (a multiply-factor ticket covers N seats).
    TicketCountMismatch = "ticketCountMismatch",
    /// More seats than one transaction may take.
    TooManySeats = "tooManySeats",
    /// A wheelchair or limited-view seat not confirmed by the buyer.
    SeatConfirmationRequired = "seatConfirmationRequired",
    /// Not enough free seats in the allowed sections.
    ResNotEnoughSeats = "res_not_enough_seats",
    /// Not enough free seats in the section asked for.
    SectionNotEnoughSeats = "section_not_enough_seats",
    /// Enough free seats, but none side by side (best available).
    NotEnoughSeats = "NOT_ENOUGH_SEATS",
    /// Not enough general-admission places.
    GaNotEnoughSeats = "ga_not_enough_seats",
    /// A section's ticket group has no price for this presentation.
    NoPricePolicy = "no_price_policy",
    /// The checkout's step timer ran out.
    TimeExpired = "timeExpired",
    /// The step was extended once already, or a payment is in progress.
    ExtensionNotAllowed = "extensionNotAllowed",
    // --- Tickets and the cart
    /// No such code (or not valid yet).
    CodeNotFound = "codeNotFound",
    /// The voucher's last day has passed.
    VoucherExpired = "voucherExpired",
    /// The voucher has no balance left ("לא נותרה יתרה למימוש הטבה").
    VoucherBalance = "voucherBalance",
    /// The code's usage limit is reached.
    CodeUsageLimitExceeded = "codeUsageLimitExceeded",
    /// The code is already in the order or used up ("coupon code already used, try another").
    CouponAlreadyUsed = "couponAlreadyUsed",
    /// The code needs more seats in the order.
    CouponNeedsMoreTickets = "couponNeedsMoreTickets",
    /// No seat of the code's ticket group to apply it to.
    CouponNoTickets = "couponNoTickets",
    /// The ticket is not sold here this way.
    TicketNotFound = "ticketNotFound",
    /// More of one ticket than its maximum.
    TicketMaxQuantity = "ticketMaxQuantity",
    /// Fewer of one ticket than its minimum.
    TicketMinQuantity = "ticketMinQuantity",
    /// A ticket tied to a kind of seat on a seat that does not serve it.
    TicketSeatKind = "ticketSeatKind",
    /// A ticket that needs another (a companion needs a wheelchair ticket) without it.
    RequiredTicketMissing = "requiredTicketMissing",
    /// A member-only ticket with no member.
    NoValidMember = "noValidMember",
    /// No such member, or not the logged-in customer's.
    MemberNotFound = "memberNotFound",
    MemberExpired = "memberExpired",
    MemberNotStarted = "memberNotStarted",
    /// The member has no balance or points left for this.
    MemberNoneAvailable = "memberNoneAvailable",
    /// More discounted member tickets than the membership allows in one order.
    MemberTicketsMax = "memberTicketsMax",
    /// A senior citizen's ID number whose check digit fails.
    IlSeniorError = "ilSenior_error",
    /// One senior citizen's ID number for more than one senior ticket.
    IlSeniorBalance = "ilSenior_balance",
    /// The ticket group has no senior citizen ticket.
    IlSeniorTicketNotFound = "ilSenior_ticketNotFound",
    /// An ID number missing or not up to 9 digits.
    InvalidSsn = "invalidSSN",
    /// A reference (hotel room) missing or not sensible.
    RefPromptOptError = "refPromptOptError",
    /// A reference the ticket does not accept, or accepts no more.
    RefPromptOptNotFound = "refPromptOptNotFound",
    /// A price or total the client shows that is not the server's.
    PriceMismatch = "priceMismatch",
    /// The cart lacks a ticket for a seat the buyer holds.
    CartSeatsMismatch = "cartSeatsMismatch",
    /// A ticket order has seats of one presentation only.
    OnePresentationPerOrder = "onePresentationPerOrder",
    /// Presentations of different auth profiles in one cart.
    IncompatibleAuthProfile = "Incompatible AuthProfile",
    /// Presentations of different businesses in one cart.
    IncompatibleBusiness = "Incompatible Business",
    // --- Payment and confirmation
    /// The payment was declined or failed.
    PaymentError = "paymentError",
    /// The payment is still in progress.
    PaymentPending = "paymentPending",
    /// The order cannot be committed (its seats were lost, it was cancelled, ...).
    LastCommit = "lastCommit",
    /// The order was already paid (and committed).
    OrderAlreadyPaid = "ORDER_ALREADY_PAID",
    /// A payment provider's callback whose signature does not check out.
    InvalidSignature = "invalidSignature",
    // --- Cancellation (POST /reservations/{id}/cancel)
    /// Nothing of the reservation is left to cancel.
    NothingToCancel = "NOTHING_TO_CANCEL",
    /// The payment method cannot be refunded online: contact the box office.
    BalanceIsDue = "BALANCE_IS_DUE",
    /// The event's cancellation window has closed (or a ticket was admitted at the door).
    TicketCancellationsAreNoLongerPossible = "TICKET_CANCELLATIONS_ARE_NO_LONGER_POSSIBLE",
    /// Kupa's own: a seat change named a reservation as it no longer is (its lastTransactionId is
    /// not the reservation's last payment, or a ticket was moved or cancelled meanwhile).
    ReservationChanged = "reservationChanged",
    /// Kupa's own: this reservation cannot take its refund as voucher credit
    /// (refundToTransactionCredit): it has no customer (a guest's), or the chain offers no value
    /// voucher to hold credit (decision 0034).
    RefundToCreditUnavailable = "refundToCreditUnavailable",
    // --- System vouchers and donations (issue 14)
    /// A voucher order with no voucher chosen.
    MustSelectVouchers = "mustSelectVouchers",
    /// No voucher is sold online (none on sale now).
    NoVouchers = "noVouchers",
    /// A donation order with no donation chosen.
    MustSelectDonations = "mustSelectDonations",
    /// No donation is offered now.
    NoDonations = "noDonations",
    /// A voucher's or donation's price that is not one of its prices.
    PriceNotFound = "priceNotFound",
    /// No price to be got for a voucher chosen: an open-price voucher without its amount, or a
    /// fixed-price one without the price chosen.
    GetPrice = "getPrice",
    /// A mini-site's validation asked to use a ticket that has nothing left to use: scanned,
    /// cancelled or not paid (`GET /mini-site/validate/{url}` with `mode=use`).
    TicketBalanceError = "ticket_balance_error",
    /// The same code entered twice in one order (a voucher asked to pay twice), or a membership's
    /// identifying reference (a student card number) that a member still valid already holds.
    CodeAlreadyEntered = "codeAlreadyEntered",
    // --- Memberships (issue 15)
    /// A membership order with nothing chosen (no quantity above zero).
    MustSelectMemberships = "mustSelectMemberships",
    /// No membership is on sale now.
    NoMemberships = "noMemberships",
    /// A membership price's reference missing or not in its form (params.fields).
    ValidateReferences = "validateReferences",
    /// The member is already enrolled in this season (a paid enrolment of theirs stands).
    AlreadyEnrolled = "ALREADY_ENROLLED",
    /// No system voucher has this reference (or it is not the asker's).
    SystemVoucherNotFound = "SYSTEM_VOUCHER_NOT_FOUND",
    /// The system voucher is not active (cancelled, turned into a replacement, expired or used).
    SystemVoucherNotActive = "SYSTEM_VOUCHER_NOT_ACTIVE",
    /// The system voucher is sold (and handled) at the box office only.
    SystemVoucherNotSoldInOutlet = "SYSTEM_VOUCHER_NOT_SOLD_IN_OUTLET",
    /// The system voucher is already a replacement voucher.
    SystemVoucherAlreadyForReplacement = "SYSTEM_VOUCHER_ALREADY_FOR_REPLACEMENT",
    // --- Customers
    /// A member or customer lookup found no one.
    CustomerNotFound = "CUSTOMER_NOT_FOUND",
    /// The customer or order has no mobile number to send a text message to.
    CustomerNoMobile = "CUSTOMER_NO_MOBILE",
    /// The SMS code is wrong or expired.
    InvalidSmsCode = "INVALID_SMS_CODE",
    /// The text message could not be sent.
    SmsFailed = "SMS_FAILED",
    /// Log in first.
    LoginError = "loginError",
    /// Too many wrong codes.
    LoginValidation = "loginValidation",
    /// A new code was asked for too soon after the last.
    SmsResendTooSoon = "smsResendTooSoon",
    /// Not an Israeli mobile number.
    InvalidMobileNumber = "invalid_mobileNumber",
    /// The login's secret does not match (email and password, member number and ID number,
    /// reservation number and contact, a mailed code): one answer, so nothing tells which half
    /// was wrong or whether the account exists.
    LoginFailed = "LOGIN_FAILED",
    /// An ID number whose check digit fails (member number + ID number login).
    InvalidSsnLogin = "invalid_ssn",
    /// A mailed link's token is unknown or malformed: ask for a new link.
    CustomerTokenError = "CUSTOMER_TOKEN_ERROR",
    /// A mailed link's or code's token has expired (params.expiredAt).
    CustomerTokenExpired = "CUSTOMER_TOKEN_EXPIRED",
    /// A mailed link's or code's token was used already (params.redeemedAt).
    CustomerTokenRedeemed = "CUSTOMER_TOKEN_REDEEMED",
    /// Too many failed logins for this account or from this address (params.retryAfterSeconds).
    TooManyLoginAttempts = "tooManyLoginAttempts",
    /// The password is right but the address was never confirmed: the mailed link first.
    EmailNotVerified = "emailNotVerified",
    /// The customer logged in already has a mobile number, or another customer has this one.
    MobileNumberTaken = "mobileNumberTaken",
    /// Another customer's account has this email address (the profile's change of address).
    EmailTaken = "emailTaken",
    /// The order is already in a customer's account (a claim by another customer).
    OrderAlreadyClaimed = "orderAlreadyClaimed",
    // --- Unpaid hold orders (the cart's isHold; Kupa's own codes, decision 0028)
    /// A premium seat cannot be held unpaid (params.seats; params.offer "regularOrder": pay now).
    HoldPremiumSeat = "holdPremiumSeat",
    /// In a hold a system voucher pays for one seat only (params.code; params.offer).
    HoldSystemVoucher = "holdSystemVoucher",
    /// Too close to the event to hold: a hold is paid and collected at least 30 minutes before
    /// it (params.payBy; params.offer "regularOrder").
    HoldTooLate = "holdTooLate",
    /// The hold was not paid in time (30 minutes before the event) and its seats went back to
    /// sale (params.holdUntil).
    HoldReleased = "holdReleased",
    // --- The programme in the staff area (Kupa's own codes, decision 0058)
    /// The hall has another screening then: its runtime plus the cleaning gap
    /// (params.presentationId: the other screening).
    ScreeningOverlap = "screeningOverlap",
    /// Seats of the screening are held or sold and the new hall sells another seat plan
    /// (params.seatplanId, params.newSeatplanId).
    SeatPlanDiffers = "seatPlanDiffers",
    // --- The seat-plan editor in the staff area (Kupa's own code, decision 0068)
    /// A seat plan saved from the editor breaks one of its rules: params.field names the part
    /// (`plan.sections[0].rows[2].seats[5]`), params.rule the rule (`seatNameTaken`,
    /// `placeTaken`, `outsidePlan`, `sofaNotPair`, `companionAlone`, `gaCapacity`, `empty`, ...).
    SeatPlanInvalid = "seatPlanInvalid",
    /// Seats of the screening are held or sold: its ticket group stays as it is (params.sold,
    /// params.held; decision 0070).
    ScreeningHasSales = "screeningHasSales",
    /// A change of this price (or of this service charge) from this day is scheduled already:
    /// withdraw it first (params.id; decision 0070).
    PriceChangeExists = "priceChangeExists",
}

impl ErrorCode {
    /// The code spelt so on the wire, if Kupa has it.
    pub fn parse(wire: &str) -> Option<ErrorCode> {
        ErrorCode::ALL.iter().copied().find(|c| c.as_str() == wire)
    }
}

impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Compared with its wire spelling (tests read best with the code as the client sees it).
impl PartialEq<&str> for ErrorCode {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ErrorCode> for &str {
    fn eq(&self, other: &ErrorCode) -> bool {
        *self == other.as_str()
    }
}

impl Serialize for ErrorCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Read back by its wire spelling (clients and tests); an unknown code is an error.
impl<'de> Deserialize<'de> for ErrorCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ErrorCode, D::Error> {
        let wire = String::deserialize(d)?;
        ErrorCode::parse(&wire)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown error code {wire:?}")))
    }
}

#[cfg(feature = "openapi")]
impl utoipa::PartialSchema for ErrorCode {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        utoipa::openapi::schema::ObjectBuilder::new()
            .schema_type(utoipa::openapi::schema::Type::String)
            .description(Some(
                "A code from the spec's error catalogue (section 8), or Kupa's own where the \
                 spec names a message but no code; docs/api.md section 3 says what each means.",
            ))
            .enum_values(Some(ErrorCode::ALL.iter().map(|c| c.as_str())))
            .into()
    }
}

#[cfg(feature = "openapi")]
impl utoipa::ToSchema for ErrorCode {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_one_spelling_and_reads_back() {
        let mut seen = std::collections::HashSet::new();
        for c in ErrorCode::ALL {
            assert!(seen.insert(c.as_str()), "{} twice", c.as_str());
            assert_eq!(ErrorCode::parse(c.as_str()), Some(*c));
        }
        assert_eq!(ErrorCode::parse("noSuchCode"), None);
    }
}
