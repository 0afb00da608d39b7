-- Memberships sold (issue 15, decision 0037).
--
-- A membership's page fields (description, prices, validity, top-up, terms, on sale, sort) are
-- read whole with it: one JSON document, as voucher classes. NULL for a row written before this
-- migration (its columns still say what it is).
ALTER TABLE memberships ADD COLUMN doc TEXT;

-- An order may sell memberships. SQLite cannot change a column's CHECK in place: the column is
-- made anew with the wider check, filled, and put in the old one's place.
ALTER TABLE orders ADD COLUMN kind_new TEXT NOT NULL DEFAULT 'tickets'
    CONSTRAINT orders_kind_check CHECK (kind_new IN ('tickets', 'vouchers', 'donations', 'memberships'));
UPDATE orders SET kind_new = kind;
ALTER TABLE orders DROP COLUMN kind;
ALTER TABLE orders RENAME COLUMN kind_new TO kind;

-- One line per membership unit sold. A new member's number and row id are drawn when the cart is
-- priced (the number unique here, so two carts never promise the same one); the member is created,
-- and its days written here as paid, by the finalisation that sells the order. A top-up names the
-- buyer's existing member instead and adds its value to that member's balance.
CREATE TABLE order_memberships (
    order_id TEXT NOT NULL CONSTRAINT order_memberships_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    line BIGINT NOT NULL,
    membership_id BIGINT NOT NULL,
    price_id BIGINT NOT NULL,
    type_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT order_memberships_price_check CHECK (price >= 0),
    value BIGINT NOT NULL,
    currency TEXT NOT NULL,
    member_number TEXT CONSTRAINT order_memberships_member_number_key UNIQUE,
    member_id BIGINT,
    top_up_member_number TEXT,
    reference1 TEXT,
    reference2 TEXT,
    valid_months BIGINT NOT NULL,
    valid_from TEXT,
    valid_to TEXT,
    CONSTRAINT order_memberships_pkey PRIMARY KEY (order_id, line),
    CONSTRAINT order_memberships_new_or_top_up_check CHECK ((member_number IS NULL) <> (top_up_member_number IS NULL))
);
CREATE INDEX order_memberships_top_up_idx ON order_memberships (top_up_member_number);
