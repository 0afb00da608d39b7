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
    bytes BYTEA NOT NULL,
    CONSTRAINT feature_posters_pkey PRIMARY KEY (feature_id, width)
);

-- A product is sold at the complexes of `product_locations` (none: at every complex, as a
-- product without `location_id` was), and only while `is_active`. `products.location_id` (one
-- complex or all) gives way to the join table.
CREATE TABLE product_locations (
    product_id BIGINT NOT NULL CONSTRAINT product_locations_product_fkey REFERENCES products (id),
    location_id BIGINT NOT NULL CONSTRAINT product_locations_location_fkey REFERENCES locations (id),
    CONSTRAINT product_locations_pkey PRIMARY KEY (product_id, location_id)
);
INSERT INTO product_locations (product_id, location_id)
    SELECT id, location_id FROM products WHERE location_id IS NOT NULL;
ALTER TABLE products DROP COLUMN location_id;
ALTER TABLE products ADD COLUMN is_active BOOLEAN NOT NULL DEFAULT TRUE;

-- The audit keeps the chain's own changes too: a film belongs to no business or complex (null:
-- every manager reads it), a product to one business only when every complex it is sold at is
-- of that business. 0050 already made location_id nullable and left the kinds to the application
-- (AUDIT_KINDS, the table checking only that a kind is named); business_id becomes nullable here.
ALTER TABLE backoffice_audit ALTER COLUMN business_id DROP NOT NULL;
