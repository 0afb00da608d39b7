-- Refunds as voucher credit (issue 14, decision 0034). A cancellation may give the payment's part
-- of its refund as a new value voucher of the order's customer instead of back to the payment: a
-- refund row with target 'credit' names both the payment it stands in for (so the "never more
-- back than paid" check counts it) and the code of the voucher it became.

-- SQLite changes a CHECK constraint by building the table again (nothing references refunds).
CREATE TABLE refunds_new (
    -- `{cancellation}:payment`, `{cancellation}:voucher:{code}` or `{cancellation}:credit`.
    id TEXT NOT NULL CONSTRAINT refunds_pkey PRIMARY KEY,
    cancellation_id TEXT NOT NULL CONSTRAINT refunds_cancellation_fkey REFERENCES cancellations (id),
    order_id TEXT NOT NULL,
    target TEXT NOT NULL CONSTRAINT refunds_target_check CHECK (target IN ('payment', 'voucher', 'credit')),
    payment_id TEXT,
    code_key TEXT,
    amount BIGINT NOT NULL CONSTRAINT refunds_amount_check CHECK (amount > 0),
    status TEXT NOT NULL CONSTRAINT refunds_status_check CHECK (status IN ('pending', 'done')),
    attempts BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT refunds_target_key_check CHECK ((target IN ('payment', 'credit')) = (payment_id IS NOT NULL)
        AND (target IN ('voucher', 'credit')) = (code_key IS NOT NULL)),
    -- Credit is issued done, in the cancellation's transaction; never left for the sweeper.
    CONSTRAINT refunds_credit_done_check CHECK (target <> 'credit' OR status = 'done')
);
INSERT INTO refunds_new (id, cancellation_id, order_id, target, payment_id, code_key, amount, status, attempts, created_at, updated_at)
    SELECT id, cancellation_id, order_id, target, payment_id, code_key, amount, status, attempts, created_at, updated_at FROM refunds;
DROP TABLE refunds;
ALTER TABLE refunds_new RENAME TO refunds;
CREATE INDEX refunds_order_idx ON refunds (order_id);
CREATE INDEX refunds_pending_idx ON refunds (status, updated_at);

-- Where a system voucher came from: sold ('sale', its line in order_system_vouchers) or given as
-- a cancellation's refund ('credit': order_id is the cancelled order, credit its value, and
-- cancellation_id the cancellation, at most one voucher each).
ALTER TABLE system_vouchers ADD COLUMN source TEXT NOT NULL DEFAULT 'sale'
    CONSTRAINT system_vouchers_source_check CHECK (source IN ('sale', 'credit'));
ALTER TABLE system_vouchers ADD COLUMN cancellation_id TEXT;
ALTER TABLE system_vouchers ADD COLUMN credit BIGINT
    CONSTRAINT system_vouchers_credit_check CHECK (credit IS NULL OR credit > 0);
CREATE UNIQUE INDEX system_vouchers_cancellation_key ON system_vouchers (cancellation_id);
