-- Vouchers that pay part (or all) of an order: each takes the smaller of what is still due and
-- its balance when the cart is priced; finalisation takes that amount off the voucher's balance.
CREATE TABLE order_vouchers (
    order_id TEXT NOT NULL CONSTRAINT order_vouchers_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    code_key TEXT NOT NULL,
    amount BIGINT NOT NULL CONSTRAINT order_vouchers_amount_check CHECK (amount > 0),
    CONSTRAINT order_vouchers_pkey PRIMARY KEY (order_id, code_key)
);
