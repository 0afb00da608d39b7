-- The catalogue (written by `kupa seed`) and the seat claims that arbitrate every seat.
-- Times are BIGINT milliseconds since the epoch, UTC; money is BIGINT agorot.

CREATE TABLE site_config (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    doc TEXT NOT NULL
);

CREATE TABLE locations (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    address TEXT NOT NULL,
    address_en TEXT NOT NULL,
    city TEXT NOT NULL,
    city_en TEXT NOT NULL,
    phone TEXT NOT NULL,
    parking TEXT NOT NULL,
    parking_en TEXT NOT NULL,
    accessibility TEXT NOT NULL,
    accessibility_en TEXT NOT NULL,
    business_id BIGINT NOT NULL,
    is_cinema INTEGER NOT NULL
);

CREATE TABLE venues (
    id INTEGER PRIMARY KEY,
    location_id BIGINT NOT NULL CONSTRAINT venues_location_fkey REFERENCES locations (id),
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    venue_type_id BIGINT NOT NULL
);

CREATE TABLE ticket_groups (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    is_by_code_enabled INTEGER NOT NULL
);

CREATE TABLE seatplans (
    id INTEGER PRIMARY KEY,
    venue_id BIGINT NOT NULL CONSTRAINT seatplans_venue_fkey REFERENCES venues (id),
    name TEXT NOT NULL,
    width BIGINT NOT NULL,
    height BIGINT NOT NULL,
    screen_label TEXT NOT NULL,
    screen_label_en TEXT NOT NULL,
    best_x BIGINT NOT NULL,
    best_y BIGINT NOT NULL
);

CREATE TABLE sections (
    id INTEGER PRIMARY KEY,
    seatplan_id BIGINT NOT NULL CONSTRAINT sections_seatplan_fkey REFERENCES seatplans (id),
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    kind TEXT NOT NULL CONSTRAINT sections_kind_check CHECK (kind IN ('reserved', 'ga')),
    capacity BIGINT NOT NULL CONSTRAINT sections_capacity_check CHECK (capacity >= 0),
    ticket_group_id BIGINT NOT NULL CONSTRAINT sections_ticket_group_fkey REFERENCES ticket_groups (id),
    price_level BIGINT NOT NULL,
    sort BIGINT NOT NULL
);
CREATE INDEX sections_seatplan_idx ON sections (seatplan_id);

CREATE TABLE seats (
    seatplan_id BIGINT NOT NULL CONSTRAINT seats_seatplan_fkey REFERENCES seatplans (id),
    section_id BIGINT NOT NULL CONSTRAINT seats_section_fkey REFERENCES sections (id),
    x BIGINT NOT NULL,
    y BIGINT NOT NULL,
    row_name TEXT NOT NULL,
    seat_name TEXT NOT NULL,
    group_id BIGINT NOT NULL,
    premium INTEGER NOT NULL,
    handicap INTEGER NOT NULL,
    companion INTEGER NOT NULL,
    limited_view INTEGER NOT NULL,
    sofa_id BIGINT,
    attributes TEXT NOT NULL,
    CONSTRAINT seats_pkey PRIMARY KEY (section_id, x, y),
    CONSTRAINT seats_place_key UNIQUE (seatplan_id, x, y)
);

CREATE TABLE feature_categories (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL
);

CREATE TABLE features (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    category_id BIGINT NOT NULL CONSTRAINT features_category_fkey REFERENCES feature_categories (id),
    original_language TEXT NOT NULL,
    dubbing TEXT NOT NULL,
    subtitles TEXT NOT NULL,
    release_date TEXT NOT NULL,
    runtime BIGINT NOT NULL,
    classification TEXT NOT NULL,
    synopsis TEXT NOT NULL,
    synopsis_en TEXT NOT NULL,
    poster_from TEXT NOT NULL,
    poster_to TEXT NOT NULL
);

CREATE TABLE tickets (
    id INTEGER PRIMARY KEY,
    ticket_group_id BIGINT NOT NULL CONSTRAINT tickets_ticket_group_fkey REFERENCES ticket_groups (id),
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT tickets_price_check CHECK (price >= 0),
    old_price BIGINT,
    service_charge BIGINT NOT NULL,
    price_policy_id BIGINT NOT NULL,
    min_quantity BIGINT NOT NULL,
    max_quantity BIGINT NOT NULL,
    requires_ticket_id BIGINT,
    member_only INTEGER NOT NULL,
    needs_senior_id INTEGER NOT NULL,
    ref_prompt TEXT NOT NULL,
    ref_prompt_en TEXT NOT NULL,
    loyalty_points_price BIGINT,
    multiply_factor BIGINT NOT NULL,
    sort BIGINT NOT NULL
);

CREATE TABLE products (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    category TEXT NOT NULL,
    price BIGINT NOT NULL CONSTRAINT products_price_check CHECK (price >= 0),
    location_id BIGINT CONSTRAINT products_location_fkey REFERENCES locations (id),
    icon TEXT NOT NULL,
    color TEXT NOT NULL,
    sort BIGINT NOT NULL
);

CREATE TABLE service_charges (
    id INTEGER PRIMARY KEY,
    business_id BIGINT NOT NULL CONSTRAINT service_charges_business_key UNIQUE,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    amount BIGINT,
    percent_bp BIGINT,
    per_ticket INTEGER NOT NULL,
    CONSTRAINT service_charges_one_kind_check CHECK ((amount IS NULL) <> (percent_bp IS NULL))
);

CREATE TABLE presentations (
    id INTEGER PRIMARY KEY,
    feature_id BIGINT NOT NULL CONSTRAINT presentations_feature_fkey REFERENCES features (id),
    venue_id BIGINT NOT NULL CONSTRAINT presentations_venue_fkey REFERENCES venues (id),
    seatplan_id BIGINT NOT NULL CONSTRAINT presentations_seatplan_fkey REFERENCES seatplans (id),
    starts_at BIGINT NOT NULL,
    available_until BIGINT,
    sale_starts_at BIGINT NOT NULL,
    sale_ends_at BIGINT NOT NULL,
    auth_profile_id BIGINT NOT NULL,
    business_id BIGINT NOT NULL,
    seating_policy_id BIGINT NOT NULL,
    new_booking_url TEXT NOT NULL
);
CREATE INDEX presentations_starts_at_idx ON presentations (starts_at);
CREATE INDEX presentations_feature_idx ON presentations (feature_id, starts_at);

CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    first_name TEXT NOT NULL,
    last_name TEXT NOT NULL,
    ssn TEXT NOT NULL,
    email TEXT NOT NULL,
    mobile TEXT NOT NULL,
    city TEXT NOT NULL,
    address1 TEXT NOT NULL,
    postal_code TEXT NOT NULL,
    date_of_birth TEXT NOT NULL,
    is_sms_allowed INTEGER NOT NULL,
    is_mailing_allowed INTEGER NOT NULL
);
CREATE INDEX customers_mobile_idx ON customers (mobile);

CREATE TABLE memberships (
    id INTEGER PRIMARY KEY,
    type_id BIGINT NOT NULL,
    name TEXT NOT NULL,
    name_en TEXT NOT NULL,
    code TEXT NOT NULL,
    class_name TEXT NOT NULL,
    price BIGINT NOT NULL
);

CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    member_number TEXT NOT NULL CONSTRAINT members_number_key UNIQUE,
    membership_id BIGINT NOT NULL CONSTRAINT members_membership_fkey REFERENCES memberships (id),
    customer_id BIGINT NOT NULL CONSTRAINT members_customer_fkey REFERENCES customers (id),
    balance BIGINT NOT NULL,
    points_balance BIGINT NOT NULL,
    start_date TEXT NOT NULL,
    end_date TEXT NOT NULL
);

CREATE TABLE mini_sites (
    id INTEGER PRIMARY KEY,
    url TEXT NOT NULL CONSTRAINT mini_sites_url_key UNIQUE,
    title TEXT NOT NULL,
    title_en TEXT NOT NULL,
    feature_ids TEXT NOT NULL,
    location_id BIGINT
);

CREATE TABLE integrations (
    key TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    business_id BIGINT NOT NULL,
    return_url_prefix TEXT NOT NULL
);

-- The one arbiter of a seat (or a numbered general-admission place) of a presentation:
-- a row here means held (until expires_at) or sold. Its primary key is what makes a
-- double sale impossible; see docs/decisions/0002-seat-claims.md.
CREATE TABLE seat_claims (
    presentation_id BIGINT NOT NULL CONSTRAINT seat_claims_presentation_fkey REFERENCES presentations (id),
    section_id BIGINT NOT NULL,
    x BIGINT NOT NULL,
    y BIGINT NOT NULL,
    session_id TEXT NOT NULL,
    state TEXT NOT NULL CONSTRAINT seat_claims_state_check CHECK (state IN ('held', 'sold')),
    expires_at BIGINT NOT NULL,
    order_id TEXT,
    updated_at BIGINT NOT NULL,
    CONSTRAINT seat_claims_presentation_seat_key PRIMARY KEY (presentation_id, section_id, x, y)
);
CREATE INDEX seat_claims_session_idx ON seat_claims (session_id);
CREATE INDEX seat_claims_expiry_idx ON seat_claims (expires_at) WHERE state = 'held';
