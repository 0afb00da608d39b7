-- Changing the email address from the profile (decision 0031): the mailed code is a customer
-- token of its own purpose, 'changeEmail'. SQLite cannot alter a CHECK constraint, so the table
-- is rebuilt with its rows.
CREATE TABLE customer_tokens_new (
    token_hash TEXT NOT NULL CONSTRAINT customer_tokens_pkey PRIMARY KEY,
    purpose TEXT NOT NULL CONSTRAINT customer_tokens_purpose_check
        CHECK (purpose IN ('verifyEmail', 'resetPassword', 'loginLink', 'loginCode', 'changeEmail')),
    customer_id BIGINT NOT NULL CONSTRAINT customer_tokens_customer_fkey REFERENCES customers (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    redeemed_at BIGINT
);
INSERT INTO customer_tokens_new (token_hash, purpose, customer_id, created_at, expires_at, redeemed_at)
    SELECT token_hash, purpose, customer_id, created_at, expires_at, redeemed_at FROM customer_tokens;
DROP TABLE customer_tokens;
ALTER TABLE customer_tokens_new RENAME TO customer_tokens;
CREATE INDEX customer_tokens_customer_idx ON customer_tokens (customer_id, purpose);
