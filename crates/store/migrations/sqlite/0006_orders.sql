-- Orders (a reservation once paid), their tickets and products, and payments.
-- An order is written when the buyer prices the cart (status pending); one finalisation,
-- keyed by payment id, turns it paid and its held seats sold, in one transaction.

CREATE TABLE orders (
    -- The reservation identifier: a random 128-bit token, unguessable.
    id TEXT PRIMARY KEY,
    -- The short number a buyer reads out at the box office.
    reservation_number TEXT NOT NULL CONSTRAINT orders_reservation_number_key UNIQUE,
    session_id TEXT NOT NULL,
    presentation_id BIGINT NOT NULL CONSTRAINT orders_presentation_fkey REFERENCES presentations (id),
    status TEXT NOT NULL CONSTRAINT orders_status_check CHECK (status IN ('pending', 'paid', 'failed', 'cancelled')),
    is_hold INTEGER NOT NULL,
    customer_id BIGINT,
    customer TEXT NOT NULL,
    locale TEXT NOT NULL,
    tickets_total BIGINT NOT NULL,
    products_total BIGINT NOT NULL,
    service_charge_total BIGINT NOT NULL,
    service_charge_name TEXT NOT NULL,
    total BIGINT NOT NULL CONSTRAINT orders_total_check CHECK (total >= 0),
    currency TEXT NOT NULL,
    payment_id TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    paid_at BIGINT
);
CREATE INDEX orders_session_idx ON orders (session_id, presentation_id);

CREATE TABLE order_tickets (
    order_id TEXT NOT NULL CONSTRAINT order_tickets_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    line BIGINT NOT NULL,
    presentation_id BIGINT NOT NULL,
    section_id BIGINT NOT NULL,
    x BIGINT NOT NULL,
    y BIGINT NOT NULL,
    section_name TEXT NOT NULL,
    row_name TEXT NOT NULL,
    seat_name TEXT NOT NULL,
    ticket_id BIGINT NOT NULL,
    ticket_name TEXT NOT NULL,
    ticket_name_en TEXT NOT NULL,
    price BIGINT NOT NULL,
    service_charge BIGINT NOT NULL,
    is_sub_ticket INTEGER NOT NULL,
    code TEXT,
    ref1 TEXT,
    ref2 TEXT,
    member_number TEXT,
    -- The e-document key of this ticket (its QR): random, unguessable.
    document_key TEXT NOT NULL CONSTRAINT order_tickets_document_key UNIQUE,
    scanned_at BIGINT,
    cancelled_at BIGINT,
    CONSTRAINT order_tickets_pkey PRIMARY KEY (order_id, line)
);

CREATE TABLE order_products (
    order_id TEXT NOT NULL CONSTRAINT order_products_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    product_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    quantity BIGINT NOT NULL CONSTRAINT order_products_quantity_check CHECK (quantity > 0),
    unit_price BIGINT NOT NULL,
    CONSTRAINT order_products_pkey PRIMARY KEY (order_id, product_id)
);

CREATE TABLE payments (
    -- The payment id: random, the key of the one finalisation path.
    id TEXT PRIMARY KEY,
    order_id TEXT NOT NULL CONSTRAINT payments_order_fkey REFERENCES orders (id),
    session_id TEXT NOT NULL,
    method TEXT NOT NULL CONSTRAINT payments_method_check
        CHECK (method IN ('card', 'savedCard', 'paypal', 'blik', 'payu', 'voucher')),
    amount BIGINT NOT NULL CONSTRAINT payments_amount_check CHECK (amount >= 0),
    currency TEXT NOT NULL,
    installments BIGINT NOT NULL,
    status TEXT NOT NULL CONSTRAINT payments_status_check
        CHECK (status IN ('created', 'challenge', 'awaitingBank', 'redirected', 'authorized', 'captured',
                          'declined', 'failed', 'refunded', 'expired')),
    -- Only what a receipt shows: never the card number or its security code.
    card_brand TEXT,
    card_last4 TEXT,
    card_bin TEXT,
    save_card INTEGER NOT NULL,
    failure_code TEXT,
    locale TEXT NOT NULL,
    return_url TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
);
CREATE INDEX payments_order_idx ON payments (order_id);
CREATE INDEX payments_status_idx ON payments (status, updated_at);

CREATE TABLE payment_events (
    payment_id TEXT NOT NULL CONSTRAINT payment_events_payment_fkey REFERENCES payments (id),
    seq BIGINT NOT NULL,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT payment_events_pkey PRIMARY KEY (payment_id, seq)
);

-- The buyer's first commit reads the reservation; a second commit is refused (ORDER_ALREADY_PAID).
ALTER TABLE orders ADD COLUMN committed_at BIGINT;
