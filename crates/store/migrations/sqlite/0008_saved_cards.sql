-- Saved cards of customers (the spec's MagCards): saved when a card payment that asked for it is
-- captured for a logged-in customer. Only what may be shown is kept: a random token, the brand,
-- the BIN (first six digits; NULL for Isracard's short numbers), the last four and the expiry.
-- Never the card number or its security code. A deleted card keeps its row (isDeleted), marked
-- by deleted_at, and is never offered again.
CREATE TABLE saved_cards (
    token TEXT NOT NULL CONSTRAINT saved_cards_pkey PRIMARY KEY,
    customer_id BIGINT NOT NULL CONSTRAINT saved_cards_customer_fkey REFERENCES customers (id),
    brand TEXT NOT NULL,
    bin TEXT CONSTRAINT saved_cards_bin_check CHECK (bin IS NULL OR length(bin) = 6),
    last4 TEXT NOT NULL CONSTRAINT saved_cards_last4_check CHECK (length(last4) = 4),
    expiry_year BIGINT NOT NULL,
    expiry_month BIGINT NOT NULL CONSTRAINT saved_cards_expiry_month_check CHECK (expiry_month BETWEEN 1 AND 12),
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
);
CREATE INDEX saved_cards_customer_idx ON saved_cards (customer_id, created_at);
