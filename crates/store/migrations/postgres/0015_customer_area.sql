-- The customer area (spec section 3 "Customer", customer-area additions): the profile fields a
-- customer edits there, and the tombstone a deleted account leaves (decision 0024). A deleted
-- customer keeps only its id (member cards and their balances still point at it); every personal
-- field is blanked and deleted_at set.
ALTER TABLE customers ADD COLUMN address2 TEXT NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN license_plate_number TEXT NOT NULL DEFAULT '';
ALTER TABLE customers ADD COLUMN is_email_allowed BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE customers ADD COLUMN location_id BIGINT;
ALTER TABLE customers ADD COLUMN updated_at BIGINT;
ALTER TABLE customers ADD COLUMN deleted_at BIGINT;
-- The customer area lists a customer's orders.
CREATE INDEX orders_customer_idx ON orders (customer_id, created_at);
