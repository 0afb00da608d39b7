-- The door (issue 17 item 2, decision 0044): an usher marks a ticket scanned (order_tickets.scanned_at,
-- set once by a conditional UPDATE, so two doors scanning at once admit it once) and the staff user
-- who scanned it is kept beside it, for the box office's questions afterwards ("who let them in?").
-- No personal data: a staff user's id.
ALTER TABLE order_tickets ADD COLUMN scanned_by BIGINT;
