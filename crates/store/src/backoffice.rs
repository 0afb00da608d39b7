//! The back office's films and products (decision 0069): read for the manager, written each in
//! one transaction with its `backoffice_audit` row and a `catalogue_version` bump. The bump comes
//! first: that row's lock makes writers take turns on PostgreSQL (SQLite's `BEGIN IMMEDIATE`
//! does already), so an id drawn as the highest plus one is still free when written and a
//! runtime checked against the halls is still the one written.

use async_trait::async_trait;
use kupa_app::backoffice::*;
use kupa_app::error::StoreResult;
use kupa_app::model::{Feature, FeatureCategory, Product};
use kupa_app::programme::Change;

use crate::catalogue::{all_products, set_product_locations, with_locations};
use crate::programme_macros::bump_version;
use crate::{BeginWrite, Db, db_err, rows};

type R<T> = Result<T, sqlx::Error>;

/// A film's columns as `rows::feature` reads them.
const FILM_SELECT: &str = "SELECT f.id AS f_id, f.name AS f_name, f.name_en AS f_name_en, f.category_id AS f_category_id, \
     f.original_language AS f_original_language, f.dubbing AS f_dubbing, f.subtitles AS f_subtitles, \
     f.original_language_en AS f_original_language_en, f.dubbing_en AS f_dubbing_en, f.subtitles_en AS f_subtitles_en, \
     f.release_date AS f_release_date, f.runtime AS f_runtime, f.classification AS f_classification, \
     f.classification_en AS f_classification_en, f.synopsis AS f_synopsis, f.synopsis_en AS f_synopsis_en, \
     f.poster_from AS f_poster_from, f.poster_to AS f_poster_to, f.trailer_url AS f_trailer_url, \
     f.poster_version AS f_poster_version, c.id AS c_id, c.name AS c_name, c.name_en AS c_name_en \
     FROM features f JOIN feature_categories c ON c.id = f.category_id";

/// One row of `backoffice_audit` (decision 0067) in the change's transaction.
macro_rules! audit {
    ($tx:expr, $kind:expr, $place:expr, $by:expr, $before:expr, $after:expr) => {{
        let place: AuditPlace = $place;
        let by: Change = $by;
        let before: Option<serde_json::Value> = $before;
        let after: serde_json::Value = $after;
        sqlx::query(
            "INSERT INTO backoffice_audit (kind, business_id, location_id, presentation_id, staff_user_id, \
             changed_at, before_doc, after_doc) VALUES ($1, $2, $3, NULL, $4, $5, $6, $7)",
        )
        .bind($kind)
        .bind(place.business_id)
        .bind(place.location_id)
        .bind(by.staff_user_id)
        .bind(by.at_ms)
        .bind(before.map(|b| b.to_string()))
        .bind(after.to_string())
        .execute(&mut *$tx)
        .await
        .map_err(db_err)?;
    }};
}

/// The next id of a table: the highest plus one (the writers take turns, see above).
macro_rules! next_id {
    ($tx:expr, $table:literal) => {{
        let id: i64 = sqlx::query_scalar(concat!(
            "SELECT CAST(COALESCE(MAX(id), 0) + 1 AS BIGINT) FROM ",
            $table
        ))
        .fetch_one(&mut *$tx)
        .await
        .map_err(db_err)?;
        id
    }};
}

macro_rules! write_film {
    ($tx:expr, $f:expr, $insert:expr) => {{
        let f: &Feature = $f;
        let sql = if $insert {
            "INSERT INTO features (id, name, name_en, category_id, original_language, dubbing, subtitles, \
             release_date, runtime, classification, classification_en, synopsis, synopsis_en, poster_from, poster_to, \
             original_language_en, dubbing_en, subtitles_en, trailer_url) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19)"
        } else {
            "UPDATE features SET name = $2, name_en = $3, category_id = $4, original_language = $5, dubbing = $6, \
             subtitles = $7, release_date = $8, runtime = $9, classification = $10, classification_en = $11, \
             synopsis = $12, synopsis_en = $13, poster_from = $14, poster_to = $15, original_language_en = $16, \
             dubbing_en = $17, subtitles_en = $18, trailer_url = $19 WHERE id = $1"
        };
        sqlx::query(sql)
            .bind(f.id).bind(&f.name).bind(&f.name_en).bind(f.category_id).bind(&f.original_language)
            .bind(&f.dubbing).bind(&f.subtitles).bind(&f.release_date).bind(f.runtime).bind(&f.classification)
            .bind(&f.classification_en).bind(&f.synopsis).bind(&f.synopsis_en).bind(&f.poster_from)
            .bind(&f.poster_to).bind(&f.original_language_en).bind(&f.dubbing_en).bind(&f.subtitles_en)
            .bind(&f.trailer_url)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
    }};
}

macro_rules! write_product {
    ($tx:expr, $p:expr, $insert:expr) => {{
        let p: &Product = $p;
        let sql = if $insert {
            "INSERT INTO products (id, name, name_en, category, price, icon, color, sort, is_active) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)"
        } else {
            "UPDATE products SET name = $2, name_en = $3, category = $4, price = $5, icon = $6, color = $7, \
             sort = $8, is_active = $9 WHERE id = $1"
        };
        sqlx::query(sql)
            .bind(p.id).bind(&p.name).bind(&p.name_en).bind(&p.category).bind(p.price)
            .bind(&p.icon).bind(&p.color).bind(p.sort).bind(p.on_sale)
            .execute(&mut *$tx)
            .await
            .map_err(db_err)?;
        set_product_locations!($tx, p.id, p.location_ids.iter());
    }};
}

#[async_trait]
impl BackOfficeStore for Db {
    async fn films(&self, now_ms: i64) -> StoreResult<Vec<FilmRecord>> {
        let films = fetch_all!(
            self,
            sqlx::AssertSqlSafe(format!("{FILM_SELECT} ORDER BY f.id")),
            [],
            film_and_category
        )?;
        let shown: Vec<(i64, i64)> = on_pool!(self, |p| sqlx::query_as(
            "SELECT DISTINCT p.feature_id, p.business_id FROM presentations p \
             JOIN features f ON f.id = p.feature_id \
             WHERE p.cancelled_at IS NULL AND p.starts_at + f.runtime * 60000 > $1 \
             ORDER BY p.feature_id, p.business_id"
        )
        .bind(now_ms)
        .fetch_all(p)
        .await
        .map_err(db_err))?;
        Ok(films
            .into_iter()
            .map(|(feature, category)| FilmRecord {
                shown_by: shown
                    .iter()
                    .filter(|(f, _)| *f == feature.id)
                    .map(|(_, b)| *b)
                    .collect(),
                feature,
                category,
            })
            .collect())
    }

    async fn categories(&self) -> StoreResult<Vec<FeatureCategory>> {
        fetch_all!(
            self,
            "SELECT id AS c_id, name AS c_name, name_en AS c_name_en FROM feature_categories ORDER BY id",
            [],
            rows::category
        )
    }

    async fn add_film(&self, film: &Feature, by: Change) -> StoreResult<i64> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let id = next_id!(tx, "features");
            let film = Feature { id, ..film.clone() };
            write_film!(tx, &film, true);
            audit!(
                tx,
                FILM_ADDED,
                AuditPlace::default(),
                by,
                None,
                film_doc(&film)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    async fn change_film(
        &self,
        film: &Feature,
        gap_ms: i64,
        now_ms: i64,
        by: Change,
    ) -> StoreResult<FilmWritten> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let old = sqlx::query(sqlx::AssertSqlSafe(format!(
                "{FILM_SELECT} WHERE f.id = $1"
            )))
            .bind(film.id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
            let Some(old) = old
                .as_ref()
                .map(rows::feature)
                .transpose()
                .map_err(db_err)?
            else {
                return Ok(FilmWritten::Gone);
            };
            if film.runtime > old.runtime {
                // The first screening in the way of one of this film's, once it runs longer:
                // a screening of the hall that starts after the old end (and gap), before the new.
                let other: Option<i64> = sqlx::query_scalar(
                    "SELECT q.id FROM presentations p JOIN presentations q \
                     ON q.venue_id = p.venue_id AND q.id <> p.id AND q.cancelled_at IS NULL \
                     WHERE p.feature_id = $1 AND p.cancelled_at IS NULL AND p.starts_at + $2 * 60000 > $5 \
                     AND q.starts_at >= p.starts_at + $3 * 60000 + $4 \
                     AND q.starts_at < p.starts_at + $2 * 60000 + $4 \
                     ORDER BY q.starts_at, q.id LIMIT 1",
                )
                .bind(film.id)
                .bind(film.runtime)
                .bind(old.runtime)
                .bind(gap_ms)
                .bind(now_ms)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
                if let Some(other) = other {
                    return Ok(FilmWritten::Overlaps(other));
                }
            }
            write_film!(tx, film, false);
            audit!(
                tx,
                FILM_CHANGED,
                AuditPlace::default(),
                by,
                Some(film_doc(&old)),
                film_doc(film)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(FilmWritten::Done)
        })
    }

    async fn set_poster(&self, poster: &Picture, by: Change) -> StoreResult<bool> {
        // The upload's name and size, never its bytes.
        let docs = |old: Option<String>| {
            (
                serde_json::json!({ "id": poster.owner_id, "posterVersion": old }),
                serde_json::json!({
                    "id": poster.owner_id,
                    "posterVersion": poster.version,
                    "posterSize": format!("{}×{}", poster.source_width, poster.source_height),
                }),
            )
        };
        let place = AuditPlace::default();
        write_picture(
            self,
            &POSTER,
            poster.owner_id,
            Some(poster),
            place,
            by,
            docs,
        )
        .await
    }

    async fn poster_image(
        &self,
        feature_id: i64,
        width: i64,
    ) -> StoreResult<Option<(String, SizedImage)>> {
        read_picture(self, &POSTER, feature_id, width).await
    }

    async fn all_products(&self) -> StoreResult<Vec<Product>> {
        with_locations(self, all_products(self).await?).await
    }

    async fn add_product(
        &self,
        product: &Product,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<i64> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let id = next_id!(tx, "products");
            let product = Product {
                id,
                ..product.clone()
            };
            write_product!(tx, &product, true);
            audit!(tx, PRODUCT_ADDED, place, by, None, product_doc(&product));
            tx.commit().await.map_err(db_err)?;
            Ok(id)
        })
    }

    async fn change_product(
        &self,
        product: &Product,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<bool> {
        on_pool!(self, |p| {
            let mut tx = p.begin_write().await.map_err(db_err)?;
            bump_version!(tx);
            let old = sqlx::query("SELECT * FROM products WHERE id = $1")
                .bind(product.id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err)?;
            let Some(mut old) = old
                .as_ref()
                .map(rows::product)
                .transpose()
                .map_err(db_err)?
            else {
                return Ok(false);
            };
            old.location_ids = sqlx::query_scalar(
                "SELECT location_id FROM product_locations WHERE product_id = $1 ORDER BY location_id",
            )
            .bind(product.id)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err)?;
            write_product!(tx, product, false);
            audit!(
                tx,
                PRODUCT_CHANGED,
                place,
                by,
                Some(product_doc(&old)),
                product_doc(product)
            );
            tx.commit().await.map_err(db_err)?;
            Ok(true)
        })
    }

    async fn set_product_picture(
        &self,
        product_id: i64,
        picture: Option<&Picture>,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<bool> {
        // Whether a picture was uploaded (its name and size), never its bytes.
        let docs = |old: Option<String>| {
            let version = picture.map(|p| p.version.clone());
            let mut after = serde_json::json!({
                "id": product_id,
                "uploaded": version.is_some(),
                "imageVersion": version,
            });
            if let Some(p) = picture {
                after["imageSize"] = format!("{}×{}", p.source_width, p.source_height).into();
            }
            let before = serde_json::json!({
                "id": product_id,
                "uploaded": old.is_some(),
                "imageVersion": old,
            });
            (before, after)
        };
        write_picture(self, &PRODUCT_PICTURE, product_id, picture, place, by, docs).await
    }

    async fn product_picture(
        &self,
        product_id: i64,
        width: i64,
    ) -> StoreResult<Option<(String, SizedImage)>> {
        read_picture(self, &PRODUCT_PICTURE, product_id, width).await
    }
}

/// Where an owner's uploaded picture is kept (decision 0069): the owner's row names the upload
/// (`version`, null: none), and each size is a row of `sizes` keyed by the owner's id. A film's
/// poster and a product's picture are kept alike; only a product's sizes say when they came.
struct PictureRows {
    owner: &'static str,
    version: &'static str,
    sizes: &'static str,
    key: &'static str,
    uploaded_at: bool,
    audit_kind: &'static str,
}

const POSTER: PictureRows = PictureRows {
    owner: "features",
    version: "poster_version",
    sizes: "feature_posters",
    key: "feature_id",
    uploaded_at: false,
    audit_kind: FILM_POSTER,
};

const PRODUCT_PICTURE: PictureRows = PictureRows {
    owner: "products",
    version: "image_version",
    sizes: "product_images",
    key: "product_id",
    uploaded_at: true,
    audit_kind: PRODUCT_IMAGE,
};

/// Replaces an owner's uploaded picture (`None`: removes it, the generated one is shown again) in
/// one transaction with its audit row and a catalogue version bump; `docs` makes that row's before
/// and after from the version replaced. False when there is no such owner.
async fn write_picture(
    db: &Db,
    rows: &PictureRows,
    owner_id: i64,
    picture: Option<&Picture>,
    place: AuditPlace,
    by: Change,
    docs: impl FnOnce(Option<String>) -> (serde_json::Value, serde_json::Value) + Send,
) -> StoreResult<bool> {
    let PictureRows {
        owner,
        version,
        sizes,
        key,
        ..
    } = rows;
    let read_old = format!("SELECT {version} FROM {owner} WHERE id = $1");
    let delete = format!("DELETE FROM {sizes} WHERE {key} = $1");
    let insert = if rows.uploaded_at {
        format!(
            "INSERT INTO {sizes} ({key}, width, height, content_type, bytes, uploaded_at) \
             VALUES ($1, $2, $3, $4, $5, $6)"
        )
    } else {
        format!(
            "INSERT INTO {sizes} ({key}, width, height, content_type, bytes) \
             VALUES ($1, $2, $3, $4, $5)"
        )
    };
    let set_version = format!("UPDATE {owner} SET {version} = $2 WHERE id = $1");
    on_pool!(db, |p| {
        let mut tx = p.begin_write().await.map_err(db_err)?;
        bump_version!(tx);
        let old: Option<Option<String>> = sqlx::query_scalar(sqlx::AssertSqlSafe(read_old))
            .bind(owner_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err)?;
        let Some(old) = old else {
            return Ok(false);
        };
        sqlx::query(sqlx::AssertSqlSafe(delete))
            .bind(owner_id)
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        for image in picture.iter().flat_map(|p| &p.images) {
            let mut q = sqlx::query(sqlx::AssertSqlSafe(insert.clone()))
                .bind(owner_id)
                .bind(image.width)
                .bind(image.height)
                .bind(&image.content_type)
                .bind(&image.bytes);
            if rows.uploaded_at {
                q = q.bind(by.at_ms);
            }
            q.execute(&mut *tx).await.map_err(db_err)?;
        }
        sqlx::query(sqlx::AssertSqlSafe(set_version))
            .bind(owner_id)
            .bind(picture.map(|p| &p.version))
            .execute(&mut *tx)
            .await
            .map_err(db_err)?;
        let (before, after) = docs(old);
        audit!(tx, rows.audit_kind, place, by, Some(before), after);
        tx.commit().await.map_err(db_err)?;
        Ok(true)
    })
}

/// One size (`width`) of an owner's uploaded picture with the upload's version.
async fn read_picture(
    db: &Db,
    rows: &PictureRows,
    owner_id: i64,
    width: i64,
) -> StoreResult<Option<(String, SizedImage)>> {
    let PictureRows {
        owner,
        version,
        sizes,
        key,
        ..
    } = rows;
    let sql = format!(
        "SELECT o.{version} AS version, i.width, i.height, i.content_type, i.bytes \
         FROM {sizes} i JOIN {owner} o ON o.id = i.{key} \
         WHERE i.{key} = $1 AND i.width = $2"
    );
    on_pool!(db, |p| {
        let row = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(owner_id)
            .bind(width)
            .fetch_optional(p)
            .await
            .map_err(db_err)?;
        row.as_ref().map(sized_image).transpose().map_err(db_err)
    })
}

fn film_and_category(r: &impl rows::Get) -> R<(Feature, FeatureCategory)> {
    Ok((rows::feature(r)?, rows::category(r)?))
}

/// One size of an uploaded picture (a poster or a product's) with the version it belongs to.
fn sized_image(r: &impl rows::Get) -> R<(String, SizedImage)> {
    Ok((
        r.os("version")?.unwrap_or_default(),
        SizedImage {
            width: r.i("width")?,
            height: r.i("height")?,
            content_type: r.s("content_type")?,
            bytes: r.bytes("bytes")?,
        },
    ))
}
