-- Tickets by code and the data of the ticket rules (spec sections 4, 5 and 6).
--
-- A ticket code unlocks one ticket: a discount code, a voucher, a coupon, a bank benefits card
-- or a credit-card benefit. `code_key` is the code trimmed and in lower case, the form buyers'
-- input is matched in. Redeeming a code at finalisation is one statement the constraints
-- arbitrate: `used_count = used_count + n` fails `ticket_codes_used_count_check` past the limit,
-- `balance = balance - amount` fails `ticket_codes_balance_check` below zero.
CREATE TABLE ticket_codes (
    id INTEGER PRIMARY KEY,
    code TEXT NOT NULL,
    code_key TEXT NOT NULL CONSTRAINT ticket_codes_code_key UNIQUE,
    kind TEXT NOT NULL CONSTRAINT ticket_codes_kind_check
        CHECK (kind IN ('discountCode', 'voucher', 'coupon', 'bankCard', 'creditCardBenefit')),
    ticket_id BIGINT NOT NULL CONSTRAINT ticket_codes_ticket_fkey REFERENCES tickets (id),
    -- Inclusive local days, YYYY-MM-DD; NULL: open.
    valid_from TEXT,
    valid_to TEXT,
    -- NULL: no limit.
    usage_limit BIGINT,
    used_count BIGINT NOT NULL,
    -- A voucher's remaining value in agorot; NULL: the code has no balance.
    balance BIGINT CONSTRAINT ticket_codes_balance_check CHECK (balance IS NULL OR balance >= 0),
    -- The order needs at least this many seats (a coupon "needs N tickets").
    min_tickets BIGINT NOT NULL CONSTRAINT ticket_codes_min_tickets_check CHECK (min_tickets >= 0),
    -- Credit-card benefit: the card paid with must start with these digits.
    card_prefix TEXT NOT NULL,
    label TEXT NOT NULL,
    label_en TEXT NOT NULL,
    CONSTRAINT ticket_codes_used_count_check
        CHECK (used_count >= 0 AND (usage_limit IS NULL OR used_count <= usage_limit)),
    CONSTRAINT ticket_codes_valid_range_check
        CHECK (valid_from IS NULL OR valid_to IS NULL OR valid_from <= valid_to)
);
CREATE INDEX ticket_codes_ticket_idx ON ticket_codes (ticket_id);

-- The references a ticket with a reference prompt accepts (a hotel's room numbers), and how many
-- more tickets may name each. The staff dashboard (PRES-live reference prompt admin) edits the
-- quantities; a sale takes one per ticket.
CREATE TABLE ticket_ref_options (
    ticket_id BIGINT NOT NULL CONSTRAINT ticket_ref_options_ticket_fkey REFERENCES tickets (id),
    reference TEXT NOT NULL,
    reference2 TEXT NOT NULL,
    quantity BIGINT NOT NULL CONSTRAINT ticket_ref_options_quantity_check CHECK (quantity >= 0),
    sort BIGINT NOT NULL,
    CONSTRAINT ticket_ref_options_pkey PRIMARY KEY (ticket_id, reference, reference2)
);

-- Tickets reached only through a code are never in their group's list.
ALTER TABLE tickets ADD COLUMN by_code_only INTEGER NOT NULL DEFAULT 0;

-- Discounted (member-only) tickets a member may take in one order; NULL: no limit.
ALTER TABLE memberships ADD COLUMN max_discounted_tickets BIGINT
    CONSTRAINT memberships_max_discounted_tickets_check CHECK (max_discounted_tickets IS NULL OR max_discounted_tickets >= 0);
