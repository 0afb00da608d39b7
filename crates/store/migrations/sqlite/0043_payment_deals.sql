-- A card provider's own name for a payment's deal (CardCom's TranzactionId, decision 0063), kept
-- when the provider confirms it, so a refund can name the deal; and each refund made of it, by
-- the refund's key, so a refund asked twice is made once.
CREATE TABLE payment_deals (
    payment_id TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    deal_id TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE TABLE payment_deal_refunds (
    payment_id TEXT NOT NULL,
    refund_key TEXT NOT NULL,
    amount INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (payment_id, refund_key)
);
