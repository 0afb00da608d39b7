-- Cancellations and refunds (decision 0022). A cancellation takes ticket lines of a paid order
-- back; each agora it gives back is a row of the refund ledger, keyed by the cancellation: a
-- voucher's part goes back to its balance at once (done), the payment's part is pending until the
-- provider confirms it (the sweeper retries). The cancellation transaction checks that no payment
-- or voucher ever gets back more than it paid.

-- Cancellations close this many minutes before the start; NULL: the configured window.
ALTER TABLE presentations ADD COLUMN cancellation_window_minutes BIGINT;

CREATE TABLE cancellations (
    id TEXT NOT NULL CONSTRAINT cancellations_pkey PRIMARY KEY,
    order_id TEXT NOT NULL CONSTRAINT cancellations_order_fkey REFERENCES orders (id),
    -- The ticket lines cancelled, a JSON array of numbers.
    lines TEXT NOT NULL,
    whole INTEGER NOT NULL,
    -- What was taken back, the charge kept and what is owed back: refund = value - fee.
    value BIGINT NOT NULL CONSTRAINT cancellations_value_check CHECK (value >= 0),
    fee BIGINT NOT NULL CONSTRAINT cancellations_fee_check CHECK (fee >= 0 AND fee <= value),
    refund BIGINT NOT NULL CONSTRAINT cancellations_refund_check CHECK (refund = value - fee),
    created_at BIGINT NOT NULL
);
CREATE INDEX cancellations_order_idx ON cancellations (order_id);

CREATE TABLE refunds (
    -- `{cancellation}:payment` or `{cancellation}:voucher:{code}`: the provider's idempotency key.
    id TEXT NOT NULL CONSTRAINT refunds_pkey PRIMARY KEY,
    cancellation_id TEXT NOT NULL CONSTRAINT refunds_cancellation_fkey REFERENCES cancellations (id),
    order_id TEXT NOT NULL,
    target TEXT NOT NULL CONSTRAINT refunds_target_check CHECK (target IN ('payment', 'voucher')),
    payment_id TEXT,
    code_key TEXT,
    amount BIGINT NOT NULL CONSTRAINT refunds_amount_check CHECK (amount > 0),
    status TEXT NOT NULL CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'done')),
    attempts BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT refunds_target_key_check CHECK ((target = 'payment') = (payment_id IS NOT NULL)
        AND (target = 'voucher') = (code_key IS NOT NULL))
);
CREATE INDEX refunds_order_idx ON refunds (order_id);
CREATE INDEX refunds_pending_idx ON refunds (status, updated_at);

-- The ticket's cancellation (order_tickets.cancelled_at says when).
ALTER TABLE order_tickets ADD COLUMN cancellation_id TEXT;
-- The order's running figures: a per-order cancellation charge is kept once however many
-- partial cancels follow; refunded_total is the sum of its refund rows.
ALTER TABLE orders ADD COLUMN cancellation_fee_charged BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN refunded_total BIGINT NOT NULL DEFAULT 0;
