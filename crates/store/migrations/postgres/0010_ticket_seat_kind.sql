-- A ticket tied to a kind of seat (a wheelchair ticket on a wheelchair place, a companion ticket on
-- a companion seat or beside a wheelchair place of the same order): wheelchair, companion,
-- limitedView, premium, sofa or attribute:<code>. NULL: the ticket fits any seat.
ALTER TABLE tickets ADD COLUMN seat_kind TEXT;
