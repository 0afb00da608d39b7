-- The programme's changes, each written in the transaction that made it (issue 18 item 6 for the
-- programme, decision 0058): who (the staff user), when, what (added, moved, cancelled) and the
-- screening before and after (JSON: venueId, seatplanId, startsAt, saleStartsAt, saleEndsAt,
-- featureId; null before an addition).
CREATE TABLE programme_changes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    presentation_id BIGINT NOT NULL,
    kind TEXT NOT NULL CONSTRAINT programme_changes_kind_check CHECK (kind IN ('added', 'moved', 'cancelled')),
    staff_user_id BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    before_doc TEXT,
    after_doc TEXT NOT NULL
);
CREATE INDEX programme_changes_presentation_idx ON programme_changes (presentation_id, id);
