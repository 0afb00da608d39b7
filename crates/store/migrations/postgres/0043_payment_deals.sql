-- A card provider's own names for a payment (decision 0063): its page (CardCom's LowProfileId),
-- kept when the page is opened, so the server can ask the provider how the payment stands; its
-- deal (CardCom's TranzactionId), kept when the provider confirms it, so a refund can name it;
-- and each refund made of it, by the refund's key, so a refund asked twice is made once.
CREATE TABLE payment_deals (
    payment_id TEXT CONSTRAINT payment_deals_pkey PRIMARY KEY,
    provider TEXT NOT NULL,
    page_id TEXT,
    deal_id TEXT,
    created_at BIGINT NOT NULL
);
CREATE TABLE payment_deal_refunds (
    payment_id TEXT NOT NULL,
    refund_key TEXT NOT NULL,
    amount BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    CONSTRAINT payment_deal_refunds_pkey PRIMARY KEY (payment_id, refund_key)
);
