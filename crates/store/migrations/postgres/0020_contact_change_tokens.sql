-- Changing the email address from the profile (decision 0031): the mailed code is a customer
-- token of its own purpose, 'changeEmail'.
ALTER TABLE customer_tokens DROP CONSTRAINT customer_tokens_purpose_check;
ALTER TABLE customer_tokens ADD CONSTRAINT customer_tokens_purpose_check
    CHECK (purpose IN ('verifyEmail', 'resetPassword', 'loginLink', 'loginCode', 'changeEmail'));
