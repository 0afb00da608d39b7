-- A mini-site's own look (issue 19 item 1, decision 0050): a line under its title, a banner and
-- its colours (#rrggbb; none: the site's). The catalogue loader checks them before they get here.
ALTER TABLE mini_sites ADD COLUMN description TEXT NOT NULL DEFAULT '';
ALTER TABLE mini_sites ADD COLUMN description_en TEXT NOT NULL DEFAULT '';
ALTER TABLE mini_sites ADD COLUMN image_url TEXT;
ALTER TABLE mini_sites ADD COLUMN primary_color TEXT;
ALTER TABLE mini_sites ADD COLUMN background_color TEXT;
ALTER TABLE mini_sites ADD COLUMN text_color TEXT;
