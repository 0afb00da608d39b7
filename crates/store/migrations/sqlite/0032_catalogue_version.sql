-- Catalogue import on a live database (issue 18 item 1, decision 0049): one counter row, bumped in
-- the same transaction as every load or import of the catalogue. Each node compares it with the
-- value it last saw (at most once a second) and empties its catalogue cache when it changed.
CREATE TABLE catalogue_version (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    version BIGINT NOT NULL
);
INSERT INTO catalogue_version (id, version) VALUES (1, 0);
