-- Unpaid hold orders ("reserve and pay later", the cart's isHold; decision 0028). A hold is a
-- pending order with is_hold set: its seats stay claimed under the hold's own owner key
-- ('hold:' || id, never a buyer session) until hold_until, the event's start less 30 minutes,
-- when the seat-claim sweeper frees them and the hold sweeper cancels the order. Paying it goes
-- through the one finalisation path like any order.
ALTER TABLE orders ADD COLUMN hold_until BIGINT;
CREATE INDEX orders_hold_until_idx ON orders (hold_until) WHERE hold_until IS NOT NULL;
