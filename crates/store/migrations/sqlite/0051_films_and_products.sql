-- Films and products in the back office (issue 18 item 3, decision 0069). Written as 0049 on an
-- older main and renumbered to follow 0050, whose SQLite rebuild of backoffice_audit keeps only the
-- columns and checks it knows: this migration takes that table as 0050 left it.
--
-- A film's trailer link (https, shown to buyers) and its uploaded poster: the poster's bytes are
-- kept here, each size the storefront shows in its own row (several nodes share the database,
-- none keeps files of its own); `poster_version` names the upload (null: none, the generated
-- poster is shown) and goes into the poster's address, so a new upload is a new address.
ALTER TABLE features ADD COLUMN trailer_url TEXT NOT NULL DEFAULT '';
ALTER TABLE features ADD COLUMN poster_version TEXT;
CREATE TABLE feature_posters (
    feature_id BIGINT NOT NULL CONSTRAINT feature_posters_feature_fkey REFERENCES features (id),
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    content_type TEXT NOT NULL,
    bytes BLOB NOT NULL,
    CONSTRAINT feature_posters_pkey PRIMARY KEY (feature_id, width)
);

-- A product is sold at the complexes of `product_locations` (none: at every complex, as a
-- product without `location_id` was), and only while `is_active`. `products.location_id` (one
-- complex or all) gives way to the join table; SQLite drops a column with a foreign key only by
-- building the table again.
CREATE TABLE products_new (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    category TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT products_price_check CHECK (price >= 0),
    icon TEXT NOT NULL,
    color TEXT NOT NULL,
    sort BIGINT NOT NULL,
    is_active BOOLEAN NOT NULL DEFAULT TRUE
);
INSERT INTO products_new (id, name, name_en, category, price, icon, color, sort, is_active)
    SELECT id, name, name_en, category, price, icon, color, sort, TRUE FROM products;
CREATE TEMP TABLE sold_at_before AS SELECT id, location_id FROM products WHERE location_id IS NOT NULL;
DROP TABLE products;
ALTER TABLE products_new RENAME TO products;
CREATE TABLE product_locations (
    product_id BIGINT NOT NULL CONSTRAINT product_locations_product_fkey REFERENCES products (id),
    location_id BIGINT NOT NULL CONSTRAINT product_locations_location_fkey REFERENCES locations (id),
    CONSTRAINT product_locations_pkey PRIMARY KEY (product_id, location_id)
);
INSERT INTO product_locations (product_id, location_id) SELECT id, location_id FROM sold_at_before;
DROP TABLE sold_at_before;

-- The audit keeps the chain's own changes too: a film belongs to no business or complex (null:
-- every manager reads it), a product to one business only when every complex it is sold at is
-- of that business. 0050 already made location_id nullable and left the kinds to the application
-- (AUDIT_KINDS, the table checking only that a kind is named); business_id becomes nullable here.
-- SQLite drops a NOT NULL only by building the table again.
CREATE TABLE backoffice_audit_new (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CONSTRAINT backoffice_audit_kind_check CHECK (kind <> ''),
    business_id BIGINT,
    location_id BIGINT,
    presentation_id BIGINT,
    staff_user_id BIGINT NOT NULL,
    changed_at BIGINT NOT NULL,
    before_doc TEXT,
    after_doc TEXT NOT NULL
);
INSERT INTO backoffice_audit_new (id, kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc)
    SELECT id, kind, business_id, location_id, presentation_id, staff_user_id, changed_at, before_doc, after_doc
    FROM backoffice_audit ORDER BY id;
DROP TABLE backoffice_audit;
ALTER TABLE backoffice_audit_new RENAME TO backoffice_audit;
CREATE INDEX backoffice_audit_presentation_idx ON backoffice_audit (presentation_id, id);
CREATE INDEX backoffice_audit_business_idx ON backoffice_audit (business_id, id);
