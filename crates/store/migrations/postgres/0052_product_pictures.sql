-- A product's uploaded picture (issue 18 item 3, decision 0069), kept as a film's poster is: each
-- size the storefront shows (a square, 240 and 480 px, JPEG) in its own row, in the database the
-- nodes share. `image_version` names the upload (null: none, the generated picture, its icon on
-- its colour, is shown) and goes into the picture's address, so a new upload is a new address.
ALTER TABLE products ADD COLUMN image_version TEXT;
CREATE TABLE product_images (
    product_id BIGINT NOT NULL CONSTRAINT product_images_product_fkey REFERENCES products (id),
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    content_type TEXT NOT NULL,
    bytes BYTEA NOT NULL,
    uploaded_at BIGINT NOT NULL,
    CONSTRAINT product_images_pkey PRIMARY KEY (product_id, width)
);
