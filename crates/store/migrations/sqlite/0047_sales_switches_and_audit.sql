-- Sales switches (issue 18 item 5, decision 0067): per complex (location) and channel, the
-- complex taken offline ("book at the box office"), advance sales not allowed (only today's
-- screenings sell), or the channel closed. No row: on sale as usual. Read through the catalogue
-- cache; every write raises catalogue_version, so every node sees it within a second.
CREATE TABLE sales_switches (
    location_id BIGINT NOT NULL,
    channel TEXT NOT NULL CONSTRAINT sales_switches_channel_check CHECK (channel IN ('web', 'miniSite')),
    is_offline BOOLEAN NOT NULL,
    advance_sales BOOLEAN NOT NULL,
    is_open BOOLEAN NOT NULL,
    CONSTRAINT sales_switches_pkey PRIMARY KEY (location_id, channel)
);
-- Every back-office change (issue 18 item 6, decision 0067), written in the change's own
-- transaction: what (added, moved, cancelled, salesSwitch), whose (business, complex,
-- screening if any), who (the staff user), when, and the thing before and after (JSON, no
-- personal data; null before an addition). The programme's changes (0041) move here.
CREATE TABLE backoffice_audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CONSTRAINT backoffice_audit_kind_check CHECK (kind IN ('added', 'moved', 'cancelled', 'salesSwitch')),
    business_id BIGINT NOT NULL,
    location_id BIGINT NOT NULL,
    presentation_id BIGINT,
    staff_user_id BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    before_doc TEXT,
    after_doc TEXT NOT NULL
);
INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc)
    SELECT c.kind, p.business_id, v.location_id, c.presentation_id, c.staff_user_id, c.changed_at, c.before_doc, c.after_doc
    FROM programme_changes c JOIN presentations p ON p.id = c.presentation_id JOIN venues v ON v.id = p.venue_id
    ORDER BY c.id;
DROP TABLE programme_changes;
CREATE INDEX backoffice_audit_presentation_idx ON backoffice_audit (presentation_id, id);
CREATE INDEX backoffice_audit_business_idx ON backoffice_audit (business_id, id);
