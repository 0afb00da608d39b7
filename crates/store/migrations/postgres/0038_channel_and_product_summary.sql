-- The points-of-sale and products reports' sums (issue 17 item 4, decision 0052 amended), kept
-- by the finalisation (+) and the cancellation (-) beside sales_summary, keyed by the business
-- day of payment ('YYYY-MM-DD') and the order's business (its first presentation's, 0 for an
-- order without one). Filled from the orders already paid when the store starts without them.
CREATE TABLE channel_summary (
    sale_day TEXT NOT NULL,
    business_id BIGINT NOT NULL,
    channel TEXT NOT NULL,
    orders BIGINT NOT NULL,
    tickets BIGINT NOT NULL,
    revenue BIGINT NOT NULL,
    service_charges BIGINT NOT NULL,
    CONSTRAINT channel_summary_pkey PRIMARY KEY (sale_day, business_id, channel)
);
CREATE TABLE product_summary (
    sale_day TEXT NOT NULL,
    business_id BIGINT NOT NULL,
    product_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    quantity BIGINT NOT NULL,
    revenue BIGINT NOT NULL,
    CONSTRAINT product_summary_pkey PRIMARY KEY (sale_day, business_id, product_id)
);
