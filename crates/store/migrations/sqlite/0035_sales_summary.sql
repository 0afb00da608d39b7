-- Sales kept summed for live monitoring and reports (issue 17 item 4, decision 0052):
-- one row per presentation, business day of payment (Jerusalem, 05:00 to 05:00, 'YYYY-MM-DD') and
-- ticket type, written by the finalisation (+) and the cancellation (-) in their own transactions,
-- so the reads of a month or a year sum a few rows per screening instead of every ticket sold.
-- `orders` counts each paid order once per presentation, on the row of its first line there.
-- Filled from the orders already paid the first time the store starts after this migration.
CREATE TABLE sales_summary (
    presentation_id BIGINT NOT NULL,
    sale_day TEXT NOT NULL,
    ticket_id BIGINT NOT NULL,
    tickets BIGINT NOT NULL,
    revenue BIGINT NOT NULL,
    service_charges BIGINT NOT NULL,
    orders BIGINT NOT NULL,
    CONSTRAINT sales_summary_pkey PRIMARY KEY (presentation_id, sale_day, ticket_id)
);
CREATE INDEX sales_summary_day_idx ON sales_summary (sale_day);
-- The reference-prompt admin reads only the sold lines that carry a reference.
CREATE INDEX order_tickets_ref_idx ON order_tickets (order_id) WHERE ref1 IS NOT NULL;
