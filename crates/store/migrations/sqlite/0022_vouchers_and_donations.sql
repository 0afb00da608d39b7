-- System vouchers and donations (issue 14, decision 0033).
--
-- The catalogue's voucher classes and donations are read whole (a list to choose from, one class
-- to price): each is one JSON document, as the site config is.
CREATE TABLE system_voucher_classes (
    id BIGINT PRIMARY KEY,
    sort BIGINT NOT NULL,
    doc TEXT NOT NULL
);
CREATE TABLE donations (
    id BIGINT PRIMARY KEY,
    sort BIGINT NOT NULL,
    doc TEXT NOT NULL
);

-- What an order sells: tickets (over its presentations), system vouchers, or donations. The
-- session's pending order of a kind without presentations is found by its kind.
ALTER TABLE orders ADD COLUMN kind TEXT NOT NULL DEFAULT 'tickets'
    CONSTRAINT orders_kind_check CHECK (kind IN ('tickets', 'vouchers', 'donations'));

-- One line per voucher sold (a quantity of 3 is three lines, three references). The reference and
-- the id of the code it becomes are drawn when the cart is priced; the code is written, and the
-- voucher issued, by the finalisation that sells the order.
CREATE TABLE order_system_vouchers (
    order_id TEXT NOT NULL CONSTRAINT order_system_vouchers_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    line BIGINT NOT NULL,
    class_id BIGINT NOT NULL,
    price_id BIGINT,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT order_system_vouchers_price_check CHECK (price > 0),
    -- Agorot the voucher is worth; NULL for a benefit voucher.
    value BIGINT,
    -- Tickets a benefit voucher unlocks; NULL for a value voucher.
    benefit_tickets BIGINT,
    ticket_id BIGINT NOT NULL,
    reference TEXT NOT NULL CONSTRAINT order_system_vouchers_reference_key UNIQUE,
    code_id BIGINT NOT NULL,
    valid_from TEXT NOT NULL,
    valid_to TEXT NOT NULL,
    CONSTRAINT order_system_vouchers_pkey PRIMARY KEY (order_id, line)
);

CREATE TABLE order_donations (
    order_id TEXT NOT NULL CONSTRAINT order_donations_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    line BIGINT NOT NULL,
    donation_id BIGINT NOT NULL,
    detail_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    amount BIGINT NOT NULL CONSTRAINT order_donations_amount_check CHECK (amount > 0),
    CONSTRAINT order_donations_pkey PRIMARY KEY (order_id, line)
);

-- A voucher sold: its code (ticket_codes, by code_key) carries what is left of it (balance or
-- uses); this row carries whose it is, where it came from and what became of it.
CREATE TABLE system_vouchers (
    reference TEXT PRIMARY KEY,
    code_key TEXT NOT NULL CONSTRAINT system_vouchers_code_key UNIQUE,
    order_id TEXT NOT NULL CONSTRAINT system_vouchers_order_fkey REFERENCES orders (id),
    line BIGINT NOT NULL,
    class_id BIGINT NOT NULL,
    customer_id BIGINT,
    -- active; cancelled (refunded); replacement (turned into a replacement voucher).
    status TEXT NOT NULL CONSTRAINT system_vouchers_status_check CHECK (status IN ('active', 'cancelled', 'replacement')),
    is_for_replacement BOOLEAN NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX system_vouchers_customer_idx ON system_vouchers (customer_id);
CREATE INDEX system_vouchers_order_idx ON system_vouchers (order_id);
