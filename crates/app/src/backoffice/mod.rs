//! Films and products in the back office (issue 18 item 3, decision 0069): a manager lists,
//! adds and changes the chain's films (with an uploaded poster, kept in the database and made in
//! the sizes the storefront shows) and its concessions (their price, their complexes, on or off,
//! an uploaded picture kept the same way).
//!
//! Its rooms: the service, its store port and who may change what (here), a film's form and its
//! rules ([`films`]), a poster or a product's picture made from an upload ([`posters`]), a
//! product's form, its picture and the complexes that sell it ([`products`]).
//!
//! **Scope.** Films and products are the chain's, not one business's. Every manager reads every
//! film; a manager may change a film that no business shows, or that one of their businesses
//! shows (a screening not yet over). A product is a manager's to read and change when it is sold
//! at one of their complexes (sold everywhere included); the complexes they tick are only their
//! own, the other businesses' complexes stay as they were. Another role is 403 `forbidden`.
//!
//! **Every write** is one transaction with its `backoffice_audit` row (before and after, never
//! the image's bytes) and a `catalogue_version` bump (decision 0049): every node's storefront
//! follows within a second, this one at once.

pub mod films;
pub mod posters;
pub mod products;

use std::sync::Arc;

use async_trait::async_trait;

pub use films::*;
pub use posters::*;
pub use products::*;

use crate::catalogue_cache::CachedCatalogue;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::model::{Feature, FeatureCategory, Location, Product};
use crate::ports::{CatalogueStore, Clock};
use crate::programme::Change;
use crate::staff::{Access, Caller};

/// A film with what the back office needs beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct FilmRecord {
    pub feature: Feature,
    pub category: FeatureCategory,
    /// The businesses with a screening of it not yet over (cancelled ones aside).
    pub shown_by: Vec<i64>,
}

/// Where a change is filed in the audit: the business and the complex it belongs to, when it
/// belongs to only one (None: the chain's, every manager reads it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AuditPlace {
    pub business_id: Option<i64>,
    pub location_id: Option<i64>,
}

/// What a change of a film came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilmWritten {
    Done,
    /// The new runtime would make this screening overlap the next one of its hall.
    Overlaps(i64),
    /// No such film.
    Gone,
}

/// The back office's reads and writes of films and products. Every write raises
/// `catalogue_version` and writes its audit row in its own transaction.
#[async_trait]
pub trait BackOfficeStore: Send + Sync {
    /// Every film with its category and the businesses showing it after `now_ms`, by id.
    async fn films(&self, now_ms: i64) -> StoreResult<Vec<FilmRecord>>;
    async fn categories(&self) -> StoreResult<Vec<FeatureCategory>>;
    /// Adds a film (its id drawn: the highest plus one); answers the id.
    async fn add_film(&self, film: &Feature, by: Change) -> StoreResult<i64>;
    /// Changes a film's fields (not its poster). A longer runtime is refused when a screening
    /// of it not yet over would then overlap the next one of its hall (`gap_ms` after each).
    async fn change_film(
        &self,
        film: &Feature,
        gap_ms: i64,
        now_ms: i64,
        by: Change,
    ) -> StoreResult<FilmWritten>;
    /// Replaces a film's poster with these sizes, under a new version; false: no such film.
    async fn set_poster(&self, poster: &Picture, by: Change) -> StoreResult<bool>;
    /// One size of a film's uploaded poster, with the version it belongs to.
    async fn poster_image(
        &self,
        feature_id: i64,
        width: i64,
    ) -> StoreResult<Option<(String, SizedImage)>>;
    /// Every product with its complexes, by sort then id, those turned off included.
    async fn all_products(&self) -> StoreResult<Vec<Product>>;
    /// Adds a product (its id drawn: the highest plus one); answers the id.
    async fn add_product(
        &self,
        product: &Product,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<i64>;
    /// Replaces a product's fields and complexes; false: no such product.
    async fn change_product(
        &self,
        product: &Product,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<bool>;
    /// Replaces a product's uploaded picture with these sizes, under a new version (None: back
    /// to the generated picture); false: no such product.
    async fn set_product_picture(
        &self,
        product_id: i64,
        picture: Option<&Picture>,
        place: AuditPlace,
        by: Change,
    ) -> StoreResult<bool>;
    /// One size of a product's uploaded picture, with the version it belongs to.
    async fn product_picture(
        &self,
        product_id: i64,
        width: i64,
    ) -> StoreResult<Option<(String, SizedImage)>>;
}

/// The kinds of change this room writes to the audit.
pub const FILM_ADDED: &str = "filmAdded";
pub const FILM_CHANGED: &str = "filmChanged";
pub const FILM_POSTER: &str = "filmPoster";
pub const PRODUCT_ADDED: &str = "productAdded";
pub const PRODUCT_CHANGED: &str = "productChanged";
/// A product's picture uploaded, or taken away (back to the generated one).
pub const PRODUCT_IMAGE: &str = "productImage";

/// Films and products in the back office.
pub struct BackOfficeService {
    store: Arc<dyn BackOfficeStore>,
    /// The catalogue as buyers read it (the complexes and their businesses).
    catalogue: Arc<dyn CatalogueStore>,
    /// This node's cache, emptied at once after a change (other nodes follow the version).
    cache: Option<Arc<CachedCatalogue>>,
    clock: Arc<dyn Clock>,
    gap_ms: i64,
}

impl BackOfficeService {
    pub fn new(
        store: Arc<dyn BackOfficeStore>,
        catalogue: Arc<dyn CatalogueStore>,
        clock: Arc<dyn Clock>,
        cleaning_gap_minutes: i64,
    ) -> BackOfficeService {
        BackOfficeService {
            store,
            catalogue,
            cache: None,
            clock,
            gap_ms: cleaning_gap_minutes.max(0) * 60_000,
        }
    }

    /// Empties this node's catalogue cache after every change, not a second later.
    pub fn with_cache(mut self, cache: Arc<CachedCatalogue>) -> BackOfficeService {
        self.cache = Some(cache);
        self
    }

    fn changed(&self) {
        if let Some(c) = &self.cache {
            c.forget_everything();
        }
    }

    fn by(&self, caller: &Caller) -> Change {
        Change {
            staff_user_id: caller.user.id,
            at_ms: self.clock.now_ms(),
        }
    }

    /// Every complex of the chain (a cinema with its business; the head office sells no popcorn).
    async fn complexes(&self) -> AppResult<Vec<Location>> {
        Ok(self
            .catalogue
            .locations()
            .await?
            .into_iter()
            .filter(|l| l.is_cinema)
            .collect())
    }
}

/// A film no business shows is anyone's; one shown is its showing businesses' managers'.
pub fn may_change_film(caller: &Caller, film: &FilmRecord) -> bool {
    film.shown_by.is_empty() || film.shown_by.iter().any(|b| caller.sees(*b))
}

fn not_found(what: &str) -> AppError {
    AppError::rejected(ErrorCode::NotFound, format!("no such {what}"))
}

fn not_yours(what: &str) -> AppError {
    AppError::rejected(
        ErrorCode::Forbidden,
        format!("this {what} is shown or sold only by other businesses"),
    )
}

/// The caller must be a manager.
fn manager(caller: &Caller) -> AppResult<()> {
    caller.require(Access::Catalogue)
}
