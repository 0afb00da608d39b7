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
-- The audit keeps a saved seat plan too (kind seatPlan, no screening). SQLite cannot change a
-- CHECK in place: the table is built again with the wider list and its rows copied.
CREATE TABLE backoffice_audit_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CONSTRAINT backoffice_audit_kind_check CHECK (kind IN ('added', 'moved', 'cancelled', 'salesSwitch', 'seatPlan')),
    business_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    presentation_id BIGINT,
    staff_user_id BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    before_doc TEXT,
    after_doc TEXT NOT NULL
);
INSERT INTO backoffice_audit_next (id, kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc)
    SELECT id, kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc
    FROM backoffice_audit ORDER BY id;
DROP TABLE backoffice_audit;
ALTER TABLE backoffice_audit_next RENAME TO backoffice_audit;
CREATE INDEX backoffice_audit_presentation_idx ON backoffice_audit (presentation_id, id);
CREATE INDEX backoffice_audit_business_idx ON backoffice_audit (business_id, id);
