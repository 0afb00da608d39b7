-- Mobile login (spec sections 4 and 7 "Customer") and the default SMS and mail adapters' outboxes.

-- One live code per mobile number (local form, "05..."): asking again replaces it. Only a salted
-- SHA-256 hash of the code is kept, never the code. The sending window counts the codes sent to
-- the number, so one number cannot be flooded.
CREATE TABLE login_codes (
    mobile TEXT NOT NULL CONSTRAINT login_codes_pkey PRIMARY KEY,
    code_hash TEXT NOT NULL,
    salt TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    attempts BIGINT NOT NULL CONSTRAINT login_codes_attempts_check CHECK (attempts >= 0),
    window_started_at BIGINT NOT NULL,
    sends_in_window BIGINT NOT NULL
);

-- A buyer session (the kupa_uuid token) that proved a mobile number with a code. customer_id is
-- NULL when no customer has the number (the code was sent regardless of that).
CREATE TABLE session_customers (
    session_id TEXT NOT NULL CONSTRAINT session_customers_pkey PRIMARY KEY,
    customer_id BIGINT CONSTRAINT session_customers_customer_fkey REFERENCES customers (id),
    mobile TEXT NOT NULL,
    logged_in_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX session_customers_customer_idx ON session_customers (customer_id);

-- Text messages the default SMS adapter "sent". kind says what a message is for (loginCode, ...),
-- reference what it is about (a reservation id).
CREATE TABLE sms_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    reference TEXT,
    body TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX sms_outbox_recipient_idx ON sms_outbox (recipient, id);

-- Mail the default mail adapter "sent". attachments is JSON [{name, contentType, size}]: the
-- names and sizes, not the bytes.
CREATE TABLE mail_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    kind TEXT NOT NULL,
    reference TEXT,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    attachments TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX mail_outbox_recipient_idx ON mail_outbox (recipient, id);
