-- The programme in the staff area (issue 18 item 2, decision 0058). A screening the cinema
-- cancelled keeps its row (its orders and refunds refer to it) with the time it was cancelled;
-- one moved to another time or hall says when, so its buyers may cancel free afterwards.
ALTER TABLE presentations ADD COLUMN cancelled_at BIGINT;
ALTER TABLE presentations ADD COLUMN moved_at BIGINT;
-- The week grid and the overlap check read a hall's screenings by time.
CREATE INDEX presentations_venue_starts_idx ON presentations (venue_id, starts_at);
