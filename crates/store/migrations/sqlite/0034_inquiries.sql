-- The marketing pages' forms (issue 19 item 3, decision 0051): a contact message, a birthday
-- party request and a job application, each kept here and mailed to the chain's address
-- (the site config's chainEmail) through the mail port. kind is contact, birthday or job;
-- the fields every form has are columns, the rest of a form (the party's date and guests, the
-- position applied for) is the details JSON. mailed_at stays NULL while the mail has not gone.
-- Personal data: kept for the chain to answer, never logged.
CREATE TABLE inquiries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CONSTRAINT inquiries_kind_check CHECK (kind IN ('contact', 'birthday', 'job')),
    location_id BIGINT,
    full_name TEXT NOT NULL,
    email TEXT NOT NULL,
    mobile TEXT NOT NULL,
    message TEXT NOT NULL,
    details TEXT NOT NULL,
    locale TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    mailed_at BIGINT
);
CREATE INDEX inquiries_created_idx ON inquiries (created_at);

-- The movie page in English (decision 0051): a feature's original language, dubbing and subtitles
-- were Hebrew words only; these are the same in English (empty: the page shows the Hebrew).
ALTER TABLE features ADD COLUMN original_language_en TEXT NOT NULL DEFAULT '';
ALTER TABLE features ADD COLUMN dubbing_en TEXT NOT NULL DEFAULT '';
ALTER TABLE features ADD COLUMN subtitles_en TEXT NOT NULL DEFAULT '';
