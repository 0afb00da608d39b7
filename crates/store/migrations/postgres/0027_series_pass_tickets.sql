-- A series pass pays for tickets (issue 15, decision 0039). A pass ticket takes its price from the
-- balance of the buyer's series pass (tickets.member_balance_price, agorot per ticket); the order
-- line keeps what it took (order_tickets.member_balance), reserved from the member's balance while
-- the order is live, spent by the finalisation, given back when the line is cancelled.
ALTER TABLE tickets ADD COLUMN member_balance_price BIGINT;
ALTER TABLE order_tickets ADD COLUMN member_balance BIGINT NOT NULL DEFAULT 0;
CREATE INDEX order_tickets_member_balance_idx ON order_tickets (member_number) WHERE member_balance > 0;
