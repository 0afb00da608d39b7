-- Where each buyer session stands in the checkout of one presentation, and until when its holds
-- last. The holds themselves are in seat_claims; this row sets their common deadline, and says
-- whether the current step was already extended (once per step).
CREATE TABLE checkout_steps (
    session_id TEXT NOT NULL,
    presentation_id BIGINT NOT NULL CONSTRAINT checkout_steps_presentation_fkey REFERENCES presentations (id),
    step TEXT NOT NULL CONSTRAINT checkout_steps_step_check
        CHECK (step IN ('seats', 'tickets', 'products', 'customerInfo', 'payment')),
    deadline BIGINT NOT NULL,
    extended BOOLEAN NOT NULL,
    updated_at BIGINT NOT NULL,
    CONSTRAINT checkout_steps_pkey PRIMARY KEY (session_id, presentation_id)
);
