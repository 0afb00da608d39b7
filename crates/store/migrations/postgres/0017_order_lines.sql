-- Order lines over zero or more presentations (decision 0027). An order no longer names one
-- presentation: its presentations are listed here, in the order the buyer chose them, and each
-- ticket line (order_tickets.presentation_id) says which of them it is for. An order of products,
-- vouchers, memberships or donations alone has none.
CREATE TABLE order_presentations (
    order_id TEXT NOT NULL CONSTRAINT order_presentations_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    presentation_id BIGINT NOT NULL CONSTRAINT order_presentations_presentation_fkey REFERENCES presentations (id),
    position BIGINT NOT NULL,
    CONSTRAINT order_presentations_pkey PRIMARY KEY (order_id, presentation_id)
);
CREATE INDEX order_presentations_presentation_idx ON order_presentations (presentation_id);

-- Every existing order carries its one presentation over.
INSERT INTO order_presentations (order_id, presentation_id, position)
SELECT id, presentation_id, 0 FROM orders;

-- The session's orders are found by session (a session has one cart, over any presentations).
DROP INDEX orders_session_idx;
ALTER TABLE orders DROP COLUMN presentation_id;
CREATE INDEX orders_session_idx ON orders (session_id, status);
