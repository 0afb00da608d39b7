-- Loyalty points (issue 14, decision 0036). A points ticket is paid with points: the line keeps
-- what it cost (order_tickets.points, spent from its member at finalisation, given back when the
-- line is cancelled). An order paid with money earns points for its member (orders.points_member)
-- by the configured rule; orders.points_earned is what it earned and still holds (cancelling
-- lines takes back what their money earned).
ALTER TABLE order_tickets ADD COLUMN points BIGINT NOT NULL DEFAULT 0;
ALTER TABLE orders ADD COLUMN points_member TEXT;
ALTER TABLE orders ADD COLUMN points_earned BIGINT NOT NULL DEFAULT 0;
-- A voucher's balance and a member's points are reserved by the live pending orders that use them:
-- found by code and by member number.
CREATE INDEX order_vouchers_code_idx ON order_vouchers (code_key);
CREATE INDEX order_tickets_member_idx ON order_tickets (member_number) WHERE points > 0;
