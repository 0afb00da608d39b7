-- Staff users of the live monitoring (PRES-live) and the other staff screens (decision 0026):
-- separate from customers. A password is an argon2id PHC string; an optional TOTP secret
-- (RFC 6238, base32) is the second factor, and the last time step used keeps a code from being
-- used twice. business_ids is a JSON array of the businesses the user may see.
CREATE TABLE staff_users (
    id BIGINT NOT NULL CONSTRAINT staff_users_pkey PRIMARY KEY,
    email TEXT NOT NULL CONSTRAINT staff_users_email_key UNIQUE,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    role TEXT NOT NULL CONSTRAINT staff_users_role_check
        CHECK (role IN ('manager', 'ticketReferenceAgent', 'usher')),
    business_ids TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    totp_secret TEXT,
    totp_last_step BIGINT,
    created_at BIGINT NOT NULL,
    disabled_at BIGINT
);

-- A staff login: the SHA-256 of the HttpOnly, SameSite=Strict `kupa_staff` cookie's value.
CREATE TABLE staff_logins (
    login_hash TEXT NOT NULL CONSTRAINT staff_logins_pkey PRIMARY KEY,
    user_id BIGINT NOT NULL CONSTRAINT staff_logins_user_fkey REFERENCES staff_users (id),
    logged_in_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX staff_logins_user_idx ON staff_logins (user_id);

-- The live figures read the sold and held seats of a day's presentations by presentation.
CREATE INDEX IF NOT EXISTS seat_claims_presentation_state_idx ON seat_claims (presentation_id, state);
CREATE INDEX IF NOT EXISTS order_tickets_presentation_idx ON order_tickets (presentation_id);
CREATE INDEX IF NOT EXISTS orders_paid_at_idx ON orders (paid_at);
