-- The waiver signed for a children's voucher (issue 15 item 6, decision 0041): written with the
-- pending voucher order in its transaction, replaced with it (a new cart of the session deletes
-- the waiver of the one it cancels), read by the buyer masked and by a manager of the voucher's
-- business whole. Personal data: deleted with the buyer's account, and by the sweeper after
-- keep_until (90 days past the order's last voucher day) or a day after an order never paid.
CREATE TABLE order_waivers (
    order_id TEXT NOT NULL PRIMARY KEY CONSTRAINT order_waivers_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    class_id BIGINT NOT NULL,
    business_id BIGINT NOT NULL,
    -- JSON: [{"name": "...", "birthDate": "YYYY-MM-DD"}]
    children TEXT NOT NULL,
    signature BYTEA NOT NULL,
    signer_name TEXT NOT NULL,
    signed_at BIGINT NOT NULL,
    -- The last local day it is kept (YYYY-MM-DD).
    keep_until TEXT NOT NULL
);
CREATE INDEX order_waivers_keep_until_idx ON order_waivers (keep_until);
