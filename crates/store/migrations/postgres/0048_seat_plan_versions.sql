-- Seat plans drawn in the staff area (issue 18 item 4, decision 0068). A hall's plan is never
-- edited in place: each save is a new `seatplans` row, a version of the hall's plan, and the
-- presentations keep the plan they were made with. A new screening takes the hall's newest
-- (the highest version; the catalogue's plans are all version 1, the first of them by id being
-- the hall's default, as before). Who saved it and when (null: loaded from the catalogue), the
-- version it was drawn from, and where the screen stands (from x, so many cells wide; null:
-- centred, as drawn before).
ALTER TABLE seatplans ADD COLUMN version BIGINT NOT NULL DEFAULT 1;
ALTER TABLE seatplans ADD COLUMN based_on BIGINT;
ALTER TABLE seatplans ADD COLUMN saved_at BIGINT;
ALTER TABLE seatplans ADD COLUMN saved_by BIGINT;
ALTER TABLE seatplans ADD COLUMN screen_x BIGINT;
ALTER TABLE seatplans ADD COLUMN screen_width BIGINT;
CREATE INDEX seatplans_venue_version_idx ON seatplans (venue_id, version);
-- The audit keeps a saved seat plan too (kind seatPlan, no screening).
ALTER TABLE backoffice_audit DROP CONSTRAINT backoffice_audit_kind_check;
ALTER TABLE backoffice_audit ADD CONSTRAINT backoffice_audit_kind_check
    CHECK (kind IN ('added', 'moved', 'cancelled', 'salesSwitch', 'seatPlan'));
