-- CardCom's saved cards, reconciliation and one refund at a time (decision 0066).
-- A payment charged by a saved card's provider token, server to server (no page): the saved card
-- it charged, so the provider can be asked about it by the payment's id.
ALTER TABLE payment_deals ADD COLUMN card_token TEXT;
-- When a reconciliation pass last asked the provider about the payment (its lease: one node asks).
ALTER TABLE payment_deals ADD COLUMN asked_at BIGINT;
-- A refund key is claimed (a row with no done_at) before the provider is called, and marked done
-- once it confirms: two refunds of one key reach the provider once. Rows made before were done.
ALTER TABLE payment_deal_refunds ADD COLUMN done_at BIGINT;
UPDATE payment_deal_refunds SET done_at = created_at;
-- The provider's own token of a saved card (CardCom's TokenInfo.Token): kept server-side only,
-- never answered by any call. The saved card (our random token) is what the buyer sees.
CREATE TABLE saved_card_tokens (
    card_token TEXT NOT NULL CONSTRAINT saved_card_tokens_pkey PRIMARY KEY
        CONSTRAINT saved_card_tokens_card_fkey REFERENCES saved_cards (token),
    provider TEXT NOT NULL,
    provider_token TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
