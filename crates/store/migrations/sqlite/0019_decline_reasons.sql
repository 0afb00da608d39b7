-- Why a payment was declined, when its provider said (decision 0029): one of the names of
-- kupa_app::orders::DeclineReason (declined, insufficientFunds, expiredCard, cardBlocked,
-- callIssuer, threeDSecureFailed, cardNotEligible, rejectedInBankApp, cancelledByBuyer).
-- NULL when the provider gave no reason, and for every payment that was not declined.
ALTER TABLE payments ADD COLUMN decline_reason TEXT;
