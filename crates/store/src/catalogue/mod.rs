//! The catalogue: written whole by the seed command, read by every buyer.

mod write;

use async_trait::async_trait;
use kupa_app::error::{StoreError, StoreResult};
use kupa_app::model::*;
use kupa_app::ports::CatalogueStore;

use crate::{Db, Pool, db_err, rows};

pub(crate) use write::{insert_catalogue, upsert};

macro_rules! presentation_select {
    () => {
        "SELECT p.id, p.feature_id, p.venue_id, p.seatplan_id, p.starts_at, p.available_until, \
         p.sale_starts_at, p.sale_ends_at, p.auth_profile_id, p.business_id, p.seating_policy_id, \
         p.new_booking_url, p.cancellation_window_minutes, p.ticket_group_id, \
         f.id AS f_id, f.name AS f_name, f.name_en AS f_name_en, f.category_id AS f_category_id, \
         f.original_language AS f_original_language, f.dubbing AS f_dubbing, f.subtitles AS f_subtitles, \
         f.original_language_en AS f_original_language_en, f.dubbing_en AS f_dubbing_en, f.subtitles_en AS f_subtitles_en, \
         f.release_date AS f_release_date, f.runtime AS f_runtime, f.classification AS f_classification, f.classification_en AS f_classification_en, \
         f.synopsis AS f_synopsis, f.synopsis_en AS f_synopsis_en, f.poster_from AS f_poster_from, \
         f.poster_to AS f_poster_to, f.trailer_url AS f_trailer_url, f.poster_version AS f_poster_version, \
         c.id AS c_id, c.name AS c_name, c.name_en AS c_name_en, \
         v.id AS v_id, v.location_id AS v_location_id, v.name AS v_name, v.name_en AS v_name_en, \
         v.venue_type_id AS v_venue_type_id, \
         l.id AS l_id, l.name AS l_name, l.name_en AS l_name_en, l.address AS l_address, \
         l.address_en AS l_address_en, l.city AS l_city, l.city_en AS l_city_en, l.phone AS l_phone, \
         l.parking AS l_parking, l.parking_en AS l_parking_en, l.accessibility AS l_accessibility, \
         l.accessibility_en AS l_accessibility_en, l.business_id AS l_business_id, l.is_cinema AS l_is_cinema, \
         (SELECT COUNT(*) FROM sections s WHERE s.seatplan_id = p.seatplan_id AND s.kind = 'reserved') AS reserved_sections, \
         (SELECT COUNT(*) FROM sections s WHERE s.seatplan_id = p.seatplan_id AND s.kind = 'ga') AS ga_sections \
         FROM presentations p \
         JOIN features f ON f.id = p.feature_id \
         JOIN feature_categories c ON c.id = f.category_id \
         JOIN venues v ON v.id = p.venue_id \
         JOIN locations l ON l.id = v.location_id"
    };
}

#[async_trait]
impl CatalogueStore for Db {
    async fn is_catalogue_empty(&self) -> StoreResult<bool> {
        on_pool!(self, |p| {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM site_config")
                .fetch_one(p)
                .await
                .map_err(db_err)?;
            Ok(n == 0)
        })
    }

    async fn load_catalogue(&self, data: &CatalogueData) -> StoreResult<()> {
        match &self.pool {
            Pool::Sqlite(p) => {
                // IMMEDIATE takes the write lock up front, so a concurrent writer waits instead of failing mid-way.
                let mut tx = p.begin_with("BEGIN IMMEDIATE").await.map_err(db_err)?;
                insert_catalogue!(tx, data, sqlite);
                tx.commit().await.map_err(db_err)
            }
            Pool::Postgres(p) => {
                let mut tx = p.begin().await.map_err(db_err)?;
                insert_catalogue!(tx, data, postgres);
                tx.commit().await.map_err(db_err)
            }
        }
    }

    async fn catalogue_version(&self) -> StoreResult<i64> {
        let v: Option<i64> = on_pool!(self, |p| sqlx::query_scalar(
            "SELECT version FROM catalogue_version WHERE id = 1"
        )
        .fetch_optional(p)
        .await
        .map_err(db_err))?;
        Ok(v.unwrap_or(0))
    }

    async fn sales_switches(&self) -> StoreResult<Vec<kupa_app::sales_switches::SalesSwitch>> {
        crate::sales_switches::read_all(self).await
    }

    async fn screening_closures(
        &self,
    ) -> StoreResult<Vec<(PresentationId, kupa_app::sales_switches::SaleChannel)>> {
        crate::programme_screenings::closures(self).await
    }

    async fn price_changes(&self) -> StoreResult<kupa_app::prices::PriceChanges> {
        crate::prices::read_all(self).await
    }

    async fn site_config(&self) -> StoreResult<Option<serde_json::Value>> {
        let doc: Option<String> = on_pool!(self, |p| sqlx::query_scalar(
            "SELECT doc FROM site_config WHERE id = 1"
        )
        .fetch_optional(p)
        .await
        .map_err(db_err))?;
        doc.map(|d| serde_json::from_str(&d).map_err(StoreError::other))
            .transpose()
    }

    async fn presentation(&self, id: PresentationId) -> StoreResult<Option<PresentationView>> {
        fetch_optional!(
            self,
            concat!(presentation_select!(), " WHERE p.id = $1"),
            [id],
            rows::presentation_view
        )
    }

    async fn presentations_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<PresentationView>> {
        fetch_all!(
            self,
            concat!(
                presentation_select!(),
                " WHERE p.starts_at >= $1 AND p.starts_at < $2 ORDER BY p.starts_at, p.id"
            ),
            [from_ms, to_ms],
            rows::presentation_view
        )
    }

    async fn vod_presentations(&self) -> StoreResult<Vec<PresentationView>> {
        fetch_all!(
            self,
            concat!(
                presentation_select!(),
                " WHERE v.venue_type_id BETWEEN 101 AND 104 ORDER BY p.starts_at, p.id"
            ),
            [],
            rows::presentation_view
        )
    }

    async fn features(&self) -> StoreResult<Vec<(Feature, FeatureCategory)>> {
        fetch_all!(
            self,
            "SELECT f.id AS f_id, f.name AS f_name, f.name_en AS f_name_en, f.category_id AS f_category_id, \
             f.original_language AS f_original_language, f.dubbing AS f_dubbing, f.subtitles AS f_subtitles, \
         f.original_language_en AS f_original_language_en, f.dubbing_en AS f_dubbing_en, f.subtitles_en AS f_subtitles_en, \
             f.release_date AS f_release_date, f.runtime AS f_runtime, f.classification AS f_classification, f.classification_en AS f_classification_en, \
             f.synopsis AS f_synopsis, f.synopsis_en AS f_synopsis_en, f.poster_from AS f_poster_from, \
             f.poster_to AS f_poster_to, f.trailer_url AS f_trailer_url, f.poster_version AS f_poster_version, \
             c.id AS c_id, c.name AS c_name, c.name_en AS c_name_en \
             FROM features f JOIN feature_categories c ON c.id = f.category_id ORDER BY f.id",
            [],
            feature_and_category
        )
    }

    async fn feature(&self, id: i64) -> StoreResult<Option<Feature>> {
        Ok(self
            .features()
            .await?
            .into_iter()
            .map(|(f, _)| f)
            .find(|f| f.id == id))
    }

    async fn product(&self, id: i64) -> StoreResult<Option<Product>> {
        let found = fetch_optional!(
            self,
            "SELECT * FROM products WHERE id = $1",
            [id],
            rows::product
        )?;
        Ok(with_locations(self, found.into_iter().collect())
            .await?
            .pop())
    }

    async fn products_for_location(&self, location_id: i64) -> StoreResult<Vec<Product>> {
        let all = with_locations(self, all_products(self).await?).await?;
        Ok(all.into_iter().filter(|p| p.sold_at(location_id)).collect())
    }

    async fn chain_products(&self) -> StoreResult<Vec<Product>> {
        let all = with_locations(self, all_products(self).await?).await?;
        Ok(all
            .into_iter()
            .filter(|p| p.on_sale && p.location_ids.is_empty())
            .collect())
    }

    async fn seatplan(&self, seatplan_id: i64) -> StoreResult<Option<Seatplan>> {
        fetch_optional!(
            self,
            "SELECT * FROM seatplans WHERE id = $1",
            [seatplan_id],
            rows::seatplan
        )
    }

    async fn sections(&self, seatplan_id: i64) -> StoreResult<Vec<Section>> {
        fetch_all!(
            self,
            "SELECT * FROM sections WHERE seatplan_id = $1 ORDER BY sort, id",
            [seatplan_id],
            rows::section
        )
    }

    async fn seats(&self, seatplan_id: i64) -> StoreResult<Vec<Seat>> {
        fetch_all!(
            self,
            "SELECT * FROM seats WHERE seatplan_id = $1 ORDER BY section_id, y, x",
            [seatplan_id],
            rows::seat
        )
    }

    async fn ticket_groups(&self, ids: &[i64]) -> StoreResult<Vec<(TicketGroup, Vec<Ticket>)>> {
        // The catalogue is small; one read of each table beats an IN list built at run time.
        let groups = fetch_all!(
            self,
            "SELECT * FROM ticket_groups ORDER BY id",
            [],
            rows::ticket_group
        )?;
        let tickets = fetch_all!(
            self,
            "SELECT * FROM tickets ORDER BY sort, id",
            [],
            rows::ticket
        )?;
        Ok(groups
            .into_iter()
            .filter(|g| ids.contains(&g.id))
            .map(|g| {
                let ts = tickets
                    .iter()
                    .filter(|t| t.ticket_group_id == g.id)
                    .cloned()
                    .collect();
                (g, ts)
            })
            .collect())
    }

    async fn service_charge(&self, business_id: i64) -> StoreResult<Option<ServiceCharge>> {
        fetch_optional!(
            self,
            "SELECT * FROM service_charges WHERE business_id = $1",
            [business_id],
            rows::service_charge
        )
    }

    async fn mini_site(&self, url: &str) -> StoreResult<Option<MiniSite>> {
        fetch_optional!(
            self,
            "SELECT * FROM mini_sites WHERE url = $1",
            [url],
            rows::mini_site
        )
    }

    async fn integration(&self, key: &str) -> StoreResult<Option<Integration>> {
        fetch_optional!(
            self,
            "SELECT * FROM integrations WHERE key = $1",
            [key],
            rows::integration
        )
    }

    async fn system_voucher_classes(
        &self,
    ) -> StoreResult<Vec<kupa_app::vouchers::SystemVoucherClass>> {
        json_docs(
            self,
            "SELECT doc FROM system_voucher_classes ORDER BY sort, id",
        )
        .await
    }

    async fn donations(&self) -> StoreResult<Vec<kupa_app::vouchers::Donation>> {
        json_docs(self, "SELECT doc FROM donations ORDER BY sort, id").await
    }

    async fn memberships(&self) -> StoreResult<Vec<Membership>> {
        let mut all: Vec<Membership> = fetch_all!(
            self,
            "SELECT * FROM memberships ORDER BY id",
            [],
            rows::membership
        )?;
        all.sort_by_key(|m| (m.sort, m.id));
        Ok(all)
    }

    async fn seasons(&self) -> StoreResult<Vec<kupa_app::memberships::Season>> {
        json_docs(self, "SELECT doc FROM seasons ORDER BY id").await
    }

    async fn locations(&self) -> StoreResult<Vec<Location>> {
        fetch_all!(
            self,
            "SELECT * FROM locations ORDER BY id",
            [],
            rows::location
        )
    }

    async fn customer_by_mobile(&self, mobile: &str) -> StoreResult<Option<Customer>> {
        fetch_optional!(
            self,
            "SELECT * FROM customers WHERE mobile = $1",
            [mobile],
            rows::customer
        )
    }

    async fn members_of_customer(
        &self,
        customer_id: i64,
    ) -> StoreResult<Vec<(Member, Membership)>> {
        fetch_all!(
            self,
            "SELECT m.*, ms.id AS ms_id, ms.type_id AS ms_type_id, ms.name AS ms_name, ms.name_en AS ms_name_en, \
             ms.code AS ms_code, ms.class_name AS ms_class_name, ms.price AS ms_price, \
             ms.max_discounted_tickets AS ms_max_discounted_tickets, ms.doc AS ms_doc \
             FROM members m JOIN memberships ms ON ms.id = m.membership_id WHERE m.customer_id = $1 ORDER BY m.id",
            [customer_id],
            rows::member_with_membership
        )
    }
}

/// Every product, by sort then id, without its complexes.
pub(crate) async fn all_products(db: &Db) -> StoreResult<Vec<Product>> {
    fetch_all!(
        db,
        "SELECT * FROM products ORDER BY sort, id",
        [],
        rows::product
    )
}

/// The products with the complexes that sell them (`product_locations`; none: every complex).
/// The catalogue is small: one read of the join table beats one per product.
pub(crate) async fn with_locations(
    db: &Db,
    mut products: Vec<Product>,
) -> StoreResult<Vec<Product>> {
    if products.is_empty() {
        return Ok(products);
    }
    let pairs: Vec<(i64, i64)> = crate::on_pool!(db, |p| sqlx::query_as(
        "SELECT product_id, location_id FROM product_locations ORDER BY product_id, location_id"
    )
    .fetch_all(p)
    .await
    .map_err(db_err))?;
    for product in &mut products {
        product.location_ids = pairs
            .iter()
            .filter(|(p, _)| *p == product.id)
            .map(|(_, l)| *l)
            .collect();
    }
    Ok(products)
}

/// Replaces a product's complexes, on an open transaction `$tx` (an empty list: every complex).
macro_rules! set_product_locations {
    ($tx:expr, $id:expr, $locations:expr) => {{
        let id: i64 = $id;
        sqlx::query("DELETE FROM product_locations WHERE product_id = $1")
            .bind(id)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        let mut locations: Vec<i64> = $locations.copied().collect();
        locations.sort_unstable();
        locations.dedup();
        for l in locations {
            sqlx::query("INSERT INTO product_locations (product_id, location_id) VALUES ($1, $2)")
                .bind(id)
                .bind(l)
                .execute(&mut *$tx)
                .await
                .map_err(db_err)?;
        }
    }};
}

pub(crate) use set_product_locations;

fn feature_and_category(r: &impl rows::Get) -> Result<(Feature, FeatureCategory), sqlx::Error> {
    Ok((rows::feature(r)?, rows::category(r)?))
}

/// Rows of one JSON document each (`doc`), decoded.
async fn json_docs<T: serde::de::DeserializeOwned>(
    db: &Db,
    sql: &'static str,
) -> StoreResult<Vec<T>> {
    let docs: Vec<String> = crate::on_pool!(db, |p| sqlx::query_scalar(sql)
        .fetch_all(p)
        .await
        .map_err(db_err))?;
    docs.iter()
        .map(|d| serde_json::from_str(d).map_err(StoreError::other))
        .collect()
}
