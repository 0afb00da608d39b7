-- Prices from a date, a ticket group per screening, a screening closed to one channel
-- (issue 18 items 2 and 5, decision 0070).
--
-- A screening's own ticket group: it prices the sections of its hall's main ticket group (the
-- group of the plan's first section); NULL: as its hall.
ALTER TABLE presentations ADD COLUMN ticket_group_id BIGINT CONSTRAINT presentations_ticket_group_fkey REFERENCES ticket_groups (id);
-- A ticket's price from a local day (Asia/Jerusalem) on, in one business's screenings: a
-- screening of that day or later sells at it (until a later change); an order keeps the price it
-- was priced at. Withdrawn changes are deleted (the audit keeps them).
CREATE TABLE ticket_price_changes (
    id BIGINT GENERATED ALWAYS AS IDENTITY CONSTRAINT ticket_price_changes_pkey PRIMARY KEY,
    business_id BIGINT NOT NULL,
    ticket_id BIGINT NOT NULL CONSTRAINT ticket_price_changes_ticket_fkey REFERENCES tickets (id),
    effective_from TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT ticket_price_changes_price_check CHECK (price >= 0),
    created_at BIGINT NOT NULL,
    staff_user_id BIGINT NOT NULL,
    CONSTRAINT ticket_price_changes_day_key UNIQUE (business_id, ticket_id, effective_from)
);
-- A business's service charge from a local day on (a fixed amount or basis points, per ticket
-- or per order), for its screenings of that day or later.
CREATE TABLE service_charge_changes (
    id BIGINT GENERATED ALWAYS AS IDENTITY CONSTRAINT service_charge_changes_pkey PRIMARY KEY,
    business_id BIGINT NOT NULL,
    effective_from TEXT NOT NULL,
    amount BIGINT,
    percent_bp BIGINT,
    per_ticket BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    staff_user_id BIGINT NOT NULL,
    CONSTRAINT service_charge_changes_one_kind_check CHECK ((amount IS NULL) <> (percent_bp IS NULL)),
    CONSTRAINT service_charge_changes_amount_check CHECK ((amount IS NULL OR amount >= 0) AND (percent_bp IS NULL OR (percent_bp >= 0 AND percent_bp <= 10000))),
    CONSTRAINT service_charge_changes_day_key UNIQUE (business_id, effective_from)
);
-- One screening closed to one channel by a manager: no tickets open in this channel
-- (noTicketsInChannel). No row: the complex's switches decide.
CREATE TABLE screening_channel_closures (
    presentation_id BIGINT NOT NULL CONSTRAINT screening_channel_closures_presentation_fkey REFERENCES presentations (id),
    channel TEXT NOT NULL CONSTRAINT screening_channel_closures_channel_check CHECK (channel IN ('web', 'miniSite')),
    CONSTRAINT screening_channel_closures_pkey PRIMARY KEY (presentation_id, channel)
);
-- The audit takes kinds the app names (each area adds its own) and changes of a whole business
-- (no complex: a price list).
ALTER TABLE backoffice_audit DROP CONSTRAINT backoffice_audit_kind_check;
ALTER TABLE backoffice_audit ADD CONSTRAINT backoffice_audit_kind_check CHECK (kind <> '');
ALTER TABLE backoffice_audit ALTER COLUMN location_id DROP NOT NULL;
