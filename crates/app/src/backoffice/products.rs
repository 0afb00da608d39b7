//! A product (a concession) in the back office: its names, category, price in agorot, the
//! generated picture's icon and colour or an uploaded picture (a square, made 240 and 480 px
//! wide, [`PRODUCT_PICTURE`]), its place on the menu, on or off, and the complexes that sell it.
//! A manager ticks only their own complexes; the other businesses' stay as they were.
//!
//! A price changed here reaches the next cart priced: an order keeps the unit price it was
//! priced at (`order_products.unit_price`), and paying a pending order charges its stored total,
//! so no order already priced changes (decision 0069).

use std::collections::{BTreeMap, BTreeSet};

use kupa_domain::money::Money;

use super::films::rule;
use super::*;

/// The highest price taken, in agorot (₪10,000: a typo's guard, not a business rule).
pub const MAX_PRODUCT_PRICE: Money = Money(1_000_000);

/// What a manager sends for a product.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductForm {
    pub name: String,
    pub name_en: String,
    /// Free text that groups the menu (popcorn, drinks, combo, snacks, ice-cream).
    pub category: String,
    /// What a buyer pays, 0 or more.
    pub price: Money,
    /// An emoji drawn on the generated picture.
    pub icon: String,
    /// The picture's background, "#rrggbb".
    pub color: String,
    pub sort: i64,
    pub on_sale: bool,
    /// Sold at every complex of the chain, those opened later too.
    pub everywhere: bool,
    /// The caller's complexes that sell it (ignored when `everywhere`).
    pub location_ids: Vec<i64>,
}

fn is_colour(s: &str) -> bool {
    s.len() == 7 && s.starts_with('#') && s[1..].bytes().all(|b| b.is_ascii_hexdigit())
}

impl ProductForm {
    pub fn trimmed(mut self) -> ProductForm {
        for f in [
            &mut self.name,
            &mut self.name_en,
            &mut self.category,
            &mut self.icon,
            &mut self.color,
        ] {
            *f = f.trim().to_owned();
        }
        self
    }

    /// Every broken rule of the fields themselves, field → rule.
    pub fn problems(&self) -> BTreeMap<&'static str, &'static str> {
        let mut p = BTreeMap::new();
        let long = |s: &str, max: usize| s.chars().count() > max;
        for (field, value, max) in [
            ("name", &self.name, 100),
            ("nameEn", &self.name_en, 100),
            ("category", &self.category, 40),
        ] {
            if value.is_empty() {
                p.insert(field, rule::REQUIRED);
            } else if long(value, max) {
                p.insert(field, rule::MAX);
            }
        }
        if self.price < Money::ZERO {
            p.insert("price", rule::MIN);
        } else if self.price > MAX_PRODUCT_PRICE {
            p.insert("price", rule::MAX);
        }
        if long(&self.icon, 8) {
            p.insert("icon", rule::MAX);
        }
        if !is_colour(&self.color) {
            p.insert("color", rule::COLOUR);
        }
        if !(0..=100_000).contains(&self.sort) {
            p.insert("sort", rule::MIN);
        }
        p
    }
}

/// A product as the audit keeps it.
pub fn product_doc(p: &Product) -> serde_json::Value {
    serde_json::json!({
        "id": p.id,
        "name": p.name,
        "nameEn": p.name_en,
        "category": p.category,
        "price": p.price,
        "icon": p.icon,
        "color": p.color,
        "sort": p.sort,
        "onSale": p.on_sale,
        "locationIds": p.location_ids,
    })
}

/// The complexes a product is sold at, spelled out (every complex when it has none of its own).
fn sold_at(p: &Product, complexes: &[Location]) -> BTreeSet<i64> {
    if p.location_ids.is_empty() {
        complexes.iter().map(|c| c.id).collect()
    } else {
        p.location_ids.iter().copied().collect()
    }
}

/// Where a product's change is filed: its business and complex when it has only one of each.
pub fn audit_place(sold: &BTreeSet<i64>, everywhere: bool, complexes: &[Location]) -> AuditPlace {
    if everywhere {
        return AuditPlace::default();
    }
    let businesses: BTreeSet<i64> = complexes
        .iter()
        .filter(|c| sold.contains(&c.id))
        .map(|c| c.business_id)
        .collect();
    AuditPlace {
        business_id: (businesses.len() == 1)
            .then(|| businesses.into_iter().next())
            .flatten(),
        location_id: (sold.len() == 1)
            .then(|| sold.iter().next().copied())
            .flatten(),
    }
}

/// A product is the caller's when it is sold at one of their complexes.
pub fn may_change_product(caller: &Caller, p: &Product, complexes: &[Location]) -> bool {
    let sold = sold_at(p, complexes);
    complexes
        .iter()
        .any(|c| sold.contains(&c.id) && caller.sees(c.business_id))
}

impl BackOfficeService {
    /// The caller's products (sold at one of their complexes), in menu order, and the chain's
    /// complexes (each with its business: the caller ticks their own).
    pub async fn products(&self, caller: &Caller) -> AppResult<(Vec<Product>, Vec<Location>)> {
        manager(caller)?;
        let complexes = self.complexes().await?;
        let products = self
            .store
            .all_products()
            .await?
            .into_iter()
            .filter(|p| may_change_product(caller, p, &complexes))
            .collect();
        Ok((products, complexes))
    }

    async fn own_product(&self, caller: &Caller, id: i64) -> AppResult<(Product, Vec<Location>)> {
        let (products, complexes) = self.products(caller).await?;
        let p = products
            .into_iter()
            .find(|p| p.id == id)
            .ok_or_else(|| not_found("product"))?;
        Ok((p, complexes))
    }

    /// The product the form makes over `old` (None: a new one), and where its change is filed.
    fn product_of(
        &self,
        caller: &Caller,
        form: ProductForm,
        old: Option<&Product>,
        complexes: &[Location],
    ) -> AppResult<(Product, AuditPlace)> {
        let form = form.trimmed();
        let mut problems = form.problems();
        let theirs = |id: &i64| {
            complexes
                .iter()
                .any(|c| c.id == *id && caller.sees(c.business_id))
        };
        if !form.everywhere && form.location_ids.iter().any(|l| !theirs(l)) {
            problems.insert("locationIds", rule::LOCATION);
        }
        // The other businesses' complexes that sold it before keep selling it.
        let others: BTreeSet<i64> = old
            .map(|p| sold_at(p, complexes))
            .unwrap_or_default()
            .into_iter()
            .filter(|l| !theirs(l))
            .collect();
        let every: BTreeSet<i64> = complexes.iter().map(|c| c.id).collect();
        let sold: BTreeSet<i64> = if form.everywhere {
            every.clone()
        } else {
            others
                .union(&form.location_ids.iter().copied().collect())
                .copied()
                .collect()
        };
        // "Every complex" puts it on other businesses' menus: only for who has them all, or
        // when it was sold everywhere already.
        let was_everywhere = old.is_some_and(|p| p.location_ids.is_empty());
        if form.everywhere && !was_everywhere && !every.iter().all(theirs) {
            problems.insert("everywhere", rule::LOCATION);
        }
        if !form.everywhere && form.location_ids.is_empty() && others.is_empty() {
            problems.insert("locationIds", rule::REQUIRED);
        }
        if !problems.is_empty() {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                format!(
                    "the product's {} not valid",
                    problems.keys().copied().collect::<Vec<_>>().join(", ")
                ),
                serde_json::json!({ "fields": problems }),
            ));
        }
        let mut place_of = sold.clone();
        if let Some(p) = old {
            place_of.extend(sold_at(p, complexes));
        }
        let place = audit_place(&place_of, form.everywhere || was_everywhere, complexes);
        let product = Product {
            id: old.map(|p| p.id).unwrap_or(0),
            name: form.name,
            name_en: form.name_en,
            category: form.category,
            price: form.price,
            location_id: None,
            location_ids: if form.everywhere {
                Vec::new()
            } else {
                sold.into_iter().collect()
            },
            icon: form.icon,
            color: form.color,
            sort: form.sort,
            on_sale: form.on_sale,
            // The picture is uploaded or taken away on its own call.
            image_version: old.and_then(|p| p.image_version.clone()),
        };
        Ok((product, place))
    }

    /// Adds a product, sold at the complexes given.
    pub async fn add_product(&self, caller: &Caller, form: ProductForm) -> AppResult<Product> {
        manager(caller)?;
        let complexes = self.complexes().await?;
        let (product, place) = self.product_of(caller, form, None, &complexes)?;
        let id = self
            .store
            .add_product(&product, place, self.by(caller))
            .await?;
        self.changed();
        tracing::info!(
            product_id = id,
            staff_user_id = caller.user.id,
            "product added"
        );
        Ok(self.own_product(caller, id).await?.0)
    }

    /// Changes a product of the caller's: its fields, and which of their complexes sell it.
    pub async fn change_product(
        &self,
        caller: &Caller,
        id: i64,
        form: ProductForm,
    ) -> AppResult<Product> {
        let (old, complexes) = self.own_product(caller, id).await?;
        let (product, place) = self.product_of(caller, form, Some(&old), &complexes)?;
        if !self
            .store
            .change_product(&product, place, self.by(caller))
            .await?
        {
            return Err(not_found("product"));
        }
        self.changed();
        tracing::info!(
            product_id = id,
            price = product.price.minor(),
            staff_user_id = caller.user.id,
            "product changed"
        );
        // A manager who untied their last complex no longer sees it: answer what was written.
        Ok(Product { id, ..product })
    }

    /// Makes a product's picture from an upload (a square from its middle, 240 and 480 px) and
    /// shows it from then on in place of the generated one. Same scope as changing the product.
    pub async fn upload_product_picture(
        &self,
        caller: &Caller,
        id: i64,
        content_type: String,
        bytes: Vec<u8>,
    ) -> AppResult<Product> {
        let (old, complexes) = self.own_product(caller, id).await?;
        let size = bytes.len();
        // Decoding and resizing take a CPU for a moment: not on the threads that serve calls.
        let picture = tokio::task::spawn_blocking(move || {
            make_picture(&PRODUCT_PICTURE, id, &content_type, &bytes)
        })
        .await
        .map_err(AppError::internal)??;
        let place = audit_place(
            &sold_at(&old, &complexes),
            old.location_ids.is_empty(),
            &complexes,
        );
        if !self
            .store
            .set_product_picture(id, Some(&picture), place, self.by(caller))
            .await?
        {
            return Err(not_found("product"));
        }
        self.changed();
        tracing::info!(
            product_id = id,
            version = %picture.version,
            bytes = size,
            staff_user_id = caller.user.id,
            "product picture uploaded"
        );
        Ok(Product {
            image_version: Some(picture.version),
            ..old
        })
    }

    /// Takes a product's uploaded picture away: the generated one (its icon on its colour) is
    /// shown again. A product with no uploaded picture is answered as it is (no audit row).
    pub async fn remove_product_picture(&self, caller: &Caller, id: i64) -> AppResult<Product> {
        let (old, complexes) = self.own_product(caller, id).await?;
        if old.image_version.is_none() {
            return Ok(old);
        }
        let place = audit_place(
            &sold_at(&old, &complexes),
            old.location_ids.is_empty(),
            &complexes,
        );
        if !self
            .store
            .set_product_picture(id, None, place, self.by(caller))
            .await?
        {
            return Err(not_found("product"));
        }
        self.changed();
        tracing::info!(
            product_id = id,
            staff_user_id = caller.user.id,
            "product picture taken away"
        );
        Ok(Product {
            image_version: None,
            ..old
        })
    }

    /// One size of a product's uploaded picture, for anyone (the storefront's image); None: none
    /// was uploaded (the generated one is shown).
    pub async fn product_picture(
        &self,
        id: i64,
        width: i64,
    ) -> AppResult<Option<(String, SizedImage)>> {
        Ok(self.store.product_picture(id, width).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complex(id: i64, business_id: i64) -> Location {
        Location {
            id,
            business_id,
            ..Location::default()
        }
    }

    #[test]
    fn a_product_is_filed_under_its_one_business_and_complex() {
        let complexes = [complex(2, 1), complex(3, 1), complex(4, 2)];
        let one: BTreeSet<i64> = [2].into();
        assert_eq!(
            audit_place(&one, false, &complexes),
            AuditPlace {
                business_id: Some(1),
                location_id: Some(2)
            }
        );
        let two: BTreeSet<i64> = [2, 3].into();
        assert_eq!(audit_place(&two, false, &complexes).business_id, Some(1));
        assert_eq!(audit_place(&two, false, &complexes).location_id, None);
        let across: BTreeSet<i64> = [3, 4].into();
        assert_eq!(
            audit_place(&across, false, &complexes),
            AuditPlace::default()
        );
        assert_eq!(audit_place(&one, true, &complexes), AuditPlace::default());
    }

    #[test]
    fn a_products_fields_are_checked_by_name() {
        let bad = ProductForm {
            name: String::new(),
            name_en: "Popcorn".into(),
            category: "popcorn".into(),
            price: Money(-1),
            color: "red".into(),
            ..ProductForm::default()
        };
        let p = bad.problems();
        assert_eq!(p["name"], rule::REQUIRED);
        assert_eq!(p["price"], rule::MIN);
        assert_eq!(p["color"], rule::COLOUR);
        assert!(!p.contains_key("nameEn"));
    }
}
