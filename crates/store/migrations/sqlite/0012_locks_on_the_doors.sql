-- Secrets the nodes share, drawn once by whichever node starts first (INSERT ... ON CONFLICT DO
-- NOTHING, then read back): the key that signs buyer session ids and reservation links. Deleting
-- a row rotates its secret at the next start of every node (sessions and links signed with the
-- old one stop working).
CREATE TABLE server_secrets (
    name TEXT NOT NULL CONSTRAINT server_secrets_pkey PRIMARY KEY,
    secret BLOB NOT NULL,
    created_at BIGINT NOT NULL
);
-- Who a buyer session belongs to, for the limits that follow the buyer and not the session:
-- seats held per client address and per logged-in customer, across sessions.
CREATE TABLE hold_owners (
    session_id TEXT NOT NULL CONSTRAINT hold_owners_pkey PRIMARY KEY,
    address TEXT NOT NULL,
    customer_id BIGINT,
    updated_at BIGINT NOT NULL
);
CREATE INDEX hold_owners_address_idx ON hold_owners (address);
CREATE INDEX hold_owners_customer_idx ON hold_owners (customer_id);
-- The logged-in customer when the payment started (the login lives in its own HttpOnly cookie,
-- not in the buyer session, so the finalisation cannot look it up later).
ALTER TABLE payments ADD COLUMN customer_id BIGINT;
-- When the session's checkout of the presentation began: its holds are not renewed past a ceiling.
ALTER TABLE checkout_steps ADD COLUMN started_at BIGINT;
-- A login is now keyed by its own id, the HttpOnly kupa_login cookie, rotated at every login and
-- logout (session_customers.session_id holds it); the buyer session id alone no longer logs
-- anyone in. Logins from before were keyed by buyer session ids: they end here.
DELETE FROM session_customers;
