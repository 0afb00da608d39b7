-- Every customer login beside the SMS code (decision 0023): passwords, mailed tokens, failed-login
-- counts, guests' logins to one reservation, and the proof that a guest order's mobile number was
-- verified in its checkout.

-- A customer's password: an argon2id PHC string, never the password. email_verified_at stays
-- NULL until the mailed link is opened; the password logs in only after that.
CREATE TABLE customer_passwords (
    customer_id BIGINT NOT NULL CONSTRAINT customer_passwords_pkey PRIMARY KEY
        CONSTRAINT customer_passwords_customer_fkey REFERENCES customers (id),
    password_hash TEXT NOT NULL,
    email_verified_at BIGINT,
    updated_at BIGINT NOT NULL
);

-- Mailed tokens (confirm the address, reset the password, log in by link, log in by a mailed
-- code): only the SHA-256 hash, single use (redeemed_at), expiring.
CREATE TABLE customer_tokens (
    token_hash TEXT NOT NULL CONSTRAINT customer_tokens_pkey PRIMARY KEY,
    purpose TEXT NOT NULL CONSTRAINT customer_tokens_purpose_check
        CHECK (purpose IN ('verifyEmail', 'resetPassword', 'loginLink', 'loginCode')),
    customer_id BIGINT NOT NULL CONSTRAINT customer_tokens_customer_fkey REFERENCES customers (id),
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    redeemed_at BIGINT
);
CREATE INDEX customer_tokens_customer_idx ON customer_tokens (customer_id, purpose);

-- Failed logins per key in a fixed window. The key is a SHA-256 of what it counts (an account:
-- email, member number, reservation number; or a client address), so no email sits here.
CREATE TABLE login_failures (
    key TEXT NOT NULL CONSTRAINT login_failures_pkey PRIMARY KEY,
    window_started_at BIGINT NOT NULL,
    failures BIGINT NOT NULL
);

-- A guest logged in by reservation number and the order's contact: that reservation only. The
-- login id is the HttpOnly kupa_login cookie, as for customers.
CREATE TABLE reservation_logins (
    login_id TEXT NOT NULL CONSTRAINT reservation_logins_pkey PRIMARY KEY,
    order_id TEXT NOT NULL CONSTRAINT reservation_logins_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    logged_in_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

-- The number a customer-area mobile login sent its code to, per buyer session: the validation
-- call carries only the code.
CREATE TABLE area_login_numbers (
    session_id TEXT NOT NULL CONSTRAINT area_login_numbers_pkey PRIMARY KEY,
    mobile TEXT NOT NULL,
    checkout BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL
);

-- The mobile number an SMS code proved in the order's checkout (a guest order): the order joins
-- the account of the customer who later proves the same number by SMS.
ALTER TABLE orders ADD COLUMN verified_mobile TEXT;
CREATE INDEX orders_verified_mobile_idx ON orders (verified_mobile);
CREATE INDEX customers_email_idx ON customers (lower(email));
