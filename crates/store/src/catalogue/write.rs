//! Writing the catalogue: every insert of it, as upserts by key, and the upsert statement they use.

/// `INSERT INTO t (a, b, c) VALUES ...` as an upsert on `key` (comma separated columns): a row of
/// that key already there has its other columns set to the new values.
pub(crate) fn upsert(insert: &str, key: &str) -> String {
    let columns = insert
        .split_once('(')
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(cols, _)| cols)
        .unwrap_or_default();
    let keys: Vec<&str> = key.split(',').map(str::trim).collect();
    let set: Vec<String> = columns
        .split(',')
        .map(str::trim)
        .filter(|c| !keys.contains(c))
        .map(|c| format!("{c} = excluded.{c}"))
        .collect();
    format!(
        "{insert} ON CONFLICT ({key}) DO UPDATE SET {}",
        set.join(", ")
    )
}

/// Every insert of the catalogue, run on one open transaction `$tx`. The catalogue's own rows are
/// upserts by their key, so `kupa catalogue import` writes its changes with the same statements
/// (a site config of null is left as it is); buyers' rows (customers, members) are plain inserts.
///
/// The seats and the presentations, most of a catalogue's rows, go to PostgreSQL as one statement
/// each over arrays (`$backend` `postgres`): one round trip instead of one per row. SQLite, in the
/// process, takes them a row at a time (`sqlite`).
macro_rules! insert_catalogue {
    ($tx:expr, $d:expr, $backend:ident) => {{
        let tx = &mut *$tx;
        let d = $d;
        if !d.site_config.is_null() {
            let doc = serde_json::to_string(&d.site_config).map_err(StoreError::other)?;
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO site_config (id, doc) VALUES (1, $1)", "id"))).bind(doc).execute(&mut *tx).await.map_err(db_err)?;
        }
        for l in &d.locations {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO locations (id, name, name_en, address, address_en, city, city_en, phone, parking, \
                 parking_en, accessibility, accessibility_en, business_id, is_cinema) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)", "id"),
            ))
            .bind(l.id).bind(&l.name).bind(&l.name_en).bind(&l.address).bind(&l.address_en).bind(&l.city)
            .bind(&l.city_en).bind(&l.phone).bind(&l.parking).bind(&l.parking_en).bind(&l.accessibility)
            .bind(&l.accessibility_en).bind(l.business_id).bind(l.is_cinema)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for v in &d.venues {
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO venues (id, location_id, name, name_en, venue_type_id) VALUES ($1, $2, $3, $4, $5)", "id")))
                .bind(v.id).bind(v.location_id).bind(&v.name).bind(&v.name_en).bind(v.venue_type_id)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        for g in &d.ticket_groups {
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO ticket_groups (id, name, name_en, is_by_code_enabled) VALUES ($1, $2, $3, $4)", "id")))
                .bind(g.id).bind(&g.name).bind(&g.name_en).bind(g.is_by_code_enabled)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        for s in &d.seatplans {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO seatplans (id, venue_id, name, width, height, screen_label, screen_label_en, best_x, best_y) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", "id"),
            ))
            .bind(s.id).bind(s.venue_id).bind(&s.name).bind(s.width).bind(s.height).bind(&s.screen_label)
            .bind(&s.screen_label_en).bind(s.best_x).bind(s.best_y)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for s in &d.sections {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO sections (id, seatplan_id, name, name_en, kind, capacity, ticket_group_id, price_level, sort) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", "id"),
            ))
            .bind(s.id).bind(s.seatplan_id).bind(&s.name).bind(&s.name_en).bind(s.kind.as_str()).bind(s.capacity)
            .bind(s.ticket_group_id).bind(s.price_level).bind(s.sort)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        insert_catalogue!(@seats $backend, tx, d);
        for c in &d.categories {
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO feature_categories (id, name, name_en) VALUES ($1, $2, $3)", "id")))
                .bind(c.id).bind(&c.name).bind(&c.name_en)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        for f in &d.features {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO features (id, name, name_en, category_id, original_language, dubbing, subtitles, \
                 release_date, runtime, classification, classification_en, synopsis, synopsis_en, poster_from, poster_to, \
                 original_language_en, dubbing_en, subtitles_en, trailer_url) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)", "id"),
            ))
            .bind(f.id).bind(&f.name).bind(&f.name_en).bind(f.category_id).bind(&f.original_language)
            .bind(&f.dubbing).bind(&f.subtitles).bind(&f.release_date).bind(f.runtime).bind(&f.classification).bind(&f.classification_en)
            .bind(&f.synopsis).bind(&f.synopsis_en).bind(&f.poster_from).bind(&f.poster_to)
            .bind(&f.original_language_en).bind(&f.dubbing_en).bind(&f.subtitles_en).bind(&f.trailer_url)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for t in &d.tickets {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO tickets (id, ticket_group_id, name, name_en, price, old_price, service_charge, \
                 price_policy_id, min_quantity, max_quantity, requires_ticket_id, member_only, needs_senior_id, \
                 ref_prompt, ref_prompt_en, loyalty_points_price, multiply_factor, sort, by_code_only, seat_kind, member_balance_price) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)", "id"),
            ))
            .bind(t.id).bind(t.ticket_group_id).bind(&t.name).bind(&t.name_en).bind(t.price).bind(t.old_price)
            .bind(t.service_charge).bind(t.price_policy_id).bind(t.min_quantity).bind(t.max_quantity)
            .bind(t.requires_ticket_id).bind(t.member_only).bind(t.needs_senior_id).bind(&t.ref_prompt)
            .bind(&t.ref_prompt_en).bind(t.loyalty_points_price).bind(t.multiply_factor).bind(t.sort).bind(t.by_code_only)
            .bind(t.seat_kind.as_ref().map(|k| k.as_string())).bind(t.member_balance_price)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for p in &d.products {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO products (id, name, name_en, category, price, icon, color, sort, is_active) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", "id"),
            ))
            .bind(p.id).bind(&p.name).bind(&p.name_en).bind(&p.category).bind(p.price)
            .bind(&p.icon).bind(&p.color).bind(p.sort).bind(p.on_sale)
            .execute(&mut *tx).await.map_err(db_err)?;
            crate::catalogue::set_product_locations!(tx, p.id, p.location_ids.iter().chain(&p.location_id));
        }
        for s in &d.service_charges {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO service_charges (id, business_id, name, name_en, amount, percent_bp, per_ticket) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)", "id"),
            ))
            .bind(s.id).bind(s.business_id).bind(&s.name).bind(&s.name_en).bind(s.amount).bind(s.percent_bp)
            .bind(s.per_ticket)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        insert_catalogue!(@presentations $backend, tx, d);
        for c in &d.customers {
            sqlx::query(
                "INSERT INTO customers (id, first_name, last_name, ssn, email, mobile, city, address1, postal_code, \
                 date_of_birth, is_sms_allowed, is_mailing_allowed) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(c.id).bind(&c.first_name).bind(&c.last_name).bind(&c.ssn).bind(&c.email).bind(&c.mobile)
            .bind(&c.city).bind(&c.address1).bind(&c.postal_code).bind(&c.date_of_birth).bind(c.is_sms_allowed)
            .bind(c.is_mailing_allowed)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for m in &d.memberships {
            let doc = serde_json::to_string(m).map_err(StoreError::other)?;
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO memberships (id, type_id, name, name_en, code, class_name, price, max_discounted_tickets, doc) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)", "id"),
            ))
            .bind(m.id).bind(m.type_id).bind(&m.name).bind(&m.name_en).bind(&m.code).bind(&m.class_name).bind(m.price)
            .bind(m.max_discounted_tickets).bind(doc)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for season in &d.seasons {
            let doc = serde_json::to_string(season).map_err(StoreError::other)?;
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO seasons (id, membership_id, doc) VALUES ($1, $2, $3)", "id")))
                .bind(season.id).bind(season.membership_id).bind(doc)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        for m in &d.members {
            sqlx::query(
                "INSERT INTO members (id, member_number, membership_id, customer_id, balance, points_balance, \
                 start_date, end_date) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            )
            .bind(m.id).bind(&m.member_number).bind(m.membership_id).bind(m.customer_id).bind(m.balance)
            .bind(m.points_balance).bind(&m.start_date).bind(&m.end_date)
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for m in &d.mini_sites {
            let ids = m.feature_ids.iter().map(|i| i.to_string()).collect::<Vec<_>>().join(",");
            let colour = |pick: fn(&kupa_app::model::MiniSiteColors) -> &String| m.colors.as_ref().map(pick);
            sqlx::query(
                "INSERT INTO mini_sites (id, url, title, title_en, feature_ids, location_id, description, description_en, \
                 image_url, primary_color, background_color, text_color) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
            )
            .bind(m.id).bind(&m.url).bind(&m.title).bind(&m.title_en).bind(ids).bind(m.location_id)
            .bind(&m.description).bind(&m.description_en).bind(&m.image_url)
            .bind(colour(|c| &c.primary)).bind(colour(|c| &c.background)).bind(colour(|c| &c.text))
            .execute(&mut *tx).await.map_err(db_err)?;
        }
        for i in &d.integrations {
            sqlx::query("INSERT INTO integrations (key, name, business_id, return_url_prefix) VALUES ($1, $2, $3, $4)")
                .bind(&i.key).bind(&i.name).bind(i.business_id).bind(&i.return_url_prefix)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        crate::tickets::insert_ticket_codes!(tx, d);
        for c in &d.system_voucher_classes {
            let doc = serde_json::to_string(c).map_err(StoreError::other)?;
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO system_voucher_classes (id, sort, doc) VALUES ($1, $2, $3)", "id")))
                .bind(c.id).bind(c.sort).bind(doc)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        for g in &d.donations {
            let doc = serde_json::to_string(g).map_err(StoreError::other)?;
            sqlx::query(sqlx::AssertSqlSafe(upsert("INSERT INTO donations (id, sort, doc) VALUES ($1, $2, $3)", "id")))
                .bind(g.id).bind(g.sort).bind(doc)
                .execute(&mut *tx).await.map_err(db_err)?;
        }
        // Every node's cache sees the new number and reads the catalogue again (decision 0049).
        sqlx::query("UPDATE catalogue_version SET version = version + 1 WHERE id = 1")
            .execute(&mut *tx).await.map_err(db_err)?;
    }};
    (@seats sqlite, $tx:ident, $d:ident) => {
        for s in &$d.seats {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO seats (seatplan_id, section_id, x, y, row_name, seat_name, group_id, premium, handicap, \
                 companion, limited_view, sofa_id, attributes) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)", "section_id, x, y"),
            ))
            .bind(s.seatplan_id).bind(s.section_id).bind(s.x).bind(s.y).bind(&s.row_name).bind(&s.seat_name)
            .bind(s.group_id).bind(s.premium).bind(s.handicap).bind(s.companion).bind(s.limited_view)
            .bind(s.sofa_id).bind(&s.attributes)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    };
    (@seats postgres, $tx:ident, $d:ident) => {
        if !$d.seats.is_empty() {
            let s = &$d.seats;
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO seats (seatplan_id, section_id, x, y, row_name, seat_name, group_id, premium, handicap, \
                 companion, limited_view, sofa_id, attributes) \
                 SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::text[], $6::text[], \
                 $7::bigint[], $8::boolean[], $9::boolean[], $10::boolean[], $11::boolean[], $12::bigint[], $13::text[])",
                "section_id, x, y"),
            ))
            .bind(s.iter().map(|s| s.seatplan_id).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.section_id).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.x).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.y).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.row_name.clone()).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.seat_name.clone()).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.group_id).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.premium).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.handicap).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.companion).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.limited_view).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.sofa_id).collect::<Vec<_>>())
            .bind(s.iter().map(|s| s.attributes.clone()).collect::<Vec<_>>())
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    };
    (@presentations sqlite, $tx:ident, $d:ident) => {
        for p in &$d.presentations {
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO presentations (id, feature_id, venue_id, seatplan_id, starts_at, available_until, \
                 sale_starts_at, sale_ends_at, auth_profile_id, business_id, seating_policy_id, new_booking_url, \
                 cancellation_window_minutes, ticket_group_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)", "id"),
            ))
            .bind(p.id).bind(p.feature_id).bind(p.venue_id).bind(p.seatplan_id).bind(p.starts_at_ms)
            .bind(p.available_until_ms).bind(p.sale_starts_at_ms).bind(p.sale_ends_at_ms).bind(p.auth_profile_id)
            .bind(p.business_id).bind(p.seating_policy_id).bind(&p.new_booking_url).bind(p.cancellation_window_minutes)
            .bind(p.ticket_group_id)
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    };
    (@presentations postgres, $tx:ident, $d:ident) => {
        if !$d.presentations.is_empty() {
            let p = &$d.presentations;
            sqlx::query(sqlx::AssertSqlSafe(upsert(
                "INSERT INTO presentations (id, feature_id, venue_id, seatplan_id, starts_at, available_until, \
                 sale_starts_at, sale_ends_at, auth_profile_id, business_id, seating_policy_id, new_booking_url, \
                 cancellation_window_minutes, ticket_group_id) \
                 SELECT * FROM UNNEST($1::bigint[], $2::bigint[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], \
                 $7::bigint[], $8::bigint[], $9::bigint[], $10::bigint[], $11::bigint[], $12::text[], $13::bigint[], \
                 $14::bigint[])",
                "id"),
            ))
            .bind(p.iter().map(|p| p.id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.feature_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.venue_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.seatplan_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.starts_at_ms).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.available_until_ms).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.sale_starts_at_ms).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.sale_ends_at_ms).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.auth_profile_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.business_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.seating_policy_id).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.new_booking_url.clone()).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.cancellation_window_minutes).collect::<Vec<_>>())
            .bind(p.iter().map(|p| p.ticket_group_id).collect::<Vec<_>>())
            .execute(&mut *$tx).await.map_err(db_err)?;
        }
    };
}

pub(crate) use insert_catalogue;
