-- Enrolment in a membership season (issue 15, decision 0040).
--
-- A season is read whole (its presentations, ticket groups and per-presentation prices): one JSON
-- document, as memberships and voucher classes keep their page fields.
CREATE TABLE seasons (
    id BIGINT NOT NULL CONSTRAINT seasons_pkey PRIMARY KEY,
    membership_id BIGINT NOT NULL CONSTRAINT seasons_membership_fkey REFERENCES memberships (id),
    doc TEXT NOT NULL
);

-- A ticket order that enrols a member in a season: written with the pending order, replaced with
-- it. The member is enrolled once such an order is paid (and not wholly cancelled).
CREATE TABLE order_enrollments (
    order_id TEXT NOT NULL CONSTRAINT order_enrollments_pkey PRIMARY KEY
        CONSTRAINT order_enrollments_order_fkey REFERENCES orders (id) ON DELETE CASCADE,
    season_id BIGINT NOT NULL,
    membership_id BIGINT NOT NULL,
    member_id BIGINT NOT NULL,
    member_number TEXT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL
);
CREATE INDEX order_enrollments_member_idx ON order_enrollments (season_id, member_id);
