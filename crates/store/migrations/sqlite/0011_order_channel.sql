-- Where an order was sold (spec: the cart's referralMiniSiteId; reports of sales by point of
-- sale): the web shop, a promotional mini-site, or a partner's API. Orders before this were sold
-- on the web shop.
ALTER TABLE orders ADD COLUMN channel TEXT NOT NULL DEFAULT 'web'
    CONSTRAINT orders_channel_check CHECK (channel IN ('web', 'miniSite', 'partnerApi'));
-- The mini-site that referred the order (channel miniSite).
ALTER TABLE orders ADD COLUMN referral_mini_site_id BIGINT;
