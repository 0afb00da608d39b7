-- Refunds as voucher credit (issue 14, decision 0034). A cancellation may give the payment's part
-- of its refund as a new value voucher of the order's customer instead of back to the payment: a
-- refund row with target 'credit' names both the payment it stands in for (so the "never more
-- back than paid" check counts it) and the code of the voucher it became.
ALTER TABLE refunds DROP CONSTRAINT refunds_target_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_target_check CHECK (target IN ('payment', 'voucher', 'credit'));
ALTER TABLE refunds DROP CONSTRAINT refunds_target_key_check;
ALTER TABLE refunds ADD CONSTRAINT refunds_target_key_check CHECK ((target IN ('payment', 'credit')) = (payment_id IS NOT NULL)
    AND (target IN ('voucher', 'credit')) = (code_key IS NOT NULL));
-- Credit is issued done, in the cancellation's transaction; never left for the sweeper.
ALTER TABLE refunds ADD CONSTRAINT refunds_credit_done_check CHECK (target <> 'credit' OR status = 'done');

-- Where a system voucher came from: sold ('sale', its line in order_system_vouchers) or given as
-- a cancellation's refund ('credit': order_id is the cancelled order, credit its value, and
-- cancellation_id the cancellation, at most one voucher each).
ALTER TABLE system_vouchers ADD COLUMN source TEXT NOT NULL DEFAULT 'sale'
    CONSTRAINT system_vouchers_source_check CHECK (source IN ('sale', 'credit'));
ALTER TABLE system_vouchers ADD COLUMN cancellation_id TEXT;
ALTER TABLE system_vouchers ADD COLUMN credit BIGINT
    CONSTRAINT system_vouchers_credit_check CHECK (credit IS NULL OR credit > 0);
CREATE UNIQUE INDEX system_vouchers_cancellation_key ON system_vouchers (cancellation_id);
