-- Tickets in English name their section in English.
ALTER TABLE order_tickets ADD COLUMN section_name_en TEXT NOT NULL DEFAULT '';
