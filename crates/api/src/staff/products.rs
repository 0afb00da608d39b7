//! The chain's concessions in the back office over HTTP (issue 18 item 3, decision 0069; Kupa's
//! own calls): the products sold at the caller's complexes, a product added or changed (names,
//! category, price in agorot, icon and colour, menu order, on or off, and which of the caller's
//! complexes sell it), its picture uploaded (the image's bytes as the body) or taken away.
//! Managers only; a product sold only at other businesses' complexes is 404.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use kupa_app::backoffice::{MAX_POSTER_BYTES, ProductForm};
use kupa_app::model::{Location, Product};
use kupa_app::staff::Caller;
use kupa_domain::money::Money;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Staff;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Path};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(products, add_product))
        .routes(routes!(change_product))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(upload_product_image, remove_product_image))
                .layer(axum::extract::DefaultBodyLimit::max(MAX_POSTER_BYTES)),
        )
}

/// A product as a manager sends it.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductBody {
    #[schema(max_length = 100)]
    pub name: String,
    #[schema(max_length = 100)]
    pub name_en: String,
    /// Groups the menu: popcorn, drinks, combo, snacks, ice-cream, or another word.
    #[schema(max_length = 40)]
    pub category: String,
    /// Agorot, 0 or more.
    pub price: i64,
    /// An emoji drawn on the generated picture.
    #[schema(max_length = 16)]
    #[serde(default)]
    pub icon: String,
    /// The picture's background, "#rrggbb".
    #[schema(max_length = 7)]
    pub color: String,
    /// Its place on the menu (smaller first).
    #[serde(default)]
    pub sort: i64,
    /// False: not sold anywhere for now.
    pub on_sale: bool,
    /// Sold at every complex of the chain (those opened later too): only for a manager of every
    /// business, or a product sold everywhere already.
    #[serde(default)]
    pub everywhere: bool,
    /// The caller's complexes that sell it (the other businesses' complexes that sold it before
    /// keep selling it). Ignored when `everywhere`.
    #[schema(max_items = 200)]
    #[serde(default)]
    pub location_ids: Vec<i64>,
}

impl ProductBody {
    fn form(self) -> ProductForm {
        ProductForm {
            name: self.name,
            name_en: self.name_en,
            category: self.category,
            price: Money(self.price),
            icon: self.icon,
            color: self.color,
            sort: self.sort,
            on_sale: self.on_sale,
            everywhere: self.everywhere,
            location_ids: self.location_ids,
        }
    }
}

/// A product as the back office shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub category: String,
    /// Agorot.
    pub price: i64,
    pub icon: String,
    pub color: String,
    pub sort: i64,
    pub on_sale: bool,
    /// Sold at every complex.
    pub everywhere: bool,
    /// The complexes that sell it (every complex when `everywhere`), the other businesses' too.
    pub location_ids: Vec<i64>,
    /// Its picture as the storefront shows it: the uploaded one (240 px), else the generated
    /// one (its icon on its colour).
    pub img: String,
    /// The uploaded picture's version; null: none uploaded (the generated one is shown).
    pub image_version: Option<String>,
}

impl ProductDto {
    fn of(p: &Product, complexes: &[Location]) -> ProductDto {
        ProductDto {
            id: p.id,
            name: p.name.clone(),
            name_en: p.name_en.clone(),
            category: p.category.clone(),
            price: p.price.minor(),
            icon: p.icon.clone(),
            color: p.color.clone(),
            sort: p.sort,
            on_sale: p.on_sale,
            everywhere: p.location_ids.is_empty(),
            location_ids: if p.location_ids.is_empty() {
                complexes.iter().map(|c| c.id).collect()
            } else {
                p.location_ids.clone()
            },
            img: crate::dto::product_image_url(p),
            image_version: p.image_version.clone(),
        }
    }
}

/// A complex of the chain, and whether it is the caller's to tick.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductComplexDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub business_id: i64,
    /// One of the caller's businesses' complexes.
    pub own: bool,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductsResponse {
    /// The products sold at one of the caller's complexes, in menu order (those off too).
    pub products: Vec<ProductDto>,
    /// Every complex of the chain.
    pub complexes: Vec<ProductComplexDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductResponse {
    pub product: ProductDto,
}

fn complexes_of(all: &[Location], caller: &Caller) -> Vec<ProductComplexDto> {
    all.iter()
        .map(|c| ProductComplexDto {
            id: c.id,
            name: c.name.clone(),
            name_en: c.name_en.clone(),
            business_id: c.business_id,
            own: caller.sees(c.business_id),
        })
        .collect()
}

/// The products sold at one of the user's complexes, and the chain's complexes.
#[utoipa::path(get, operation_id = "staffProducts", path = "/staff/products", tag = "staff",
    responses((status = 200, description = "The products", body = ProductsResponse),
              crate::error::ManagersOnly))]
async fn products(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<ProductsResponse>> {
    let (products, complexes) = state.backoffice.products(&caller).await?;
    Ok(axum::Json(ProductsResponse {
        products: products
            .iter()
            .map(|p| ProductDto::of(p, &complexes))
            .collect(),
        complexes: complexes_of(&complexes, &caller),
    }))
}

/// Adds a product, sold at the complexes given (from the next cart priced there).
#[utoipa::path(post, operation_id = "addProduct", path = "/staff/products", tag = "staff",
    request_body = ProductBody,
    responses((status = 201, description = "Added", body = ProductResponse),
              (status = 422, description = "formValidation (params.fields: field → rule: required, max, min, colour, location)", body = ErrorBody),
              crate::error::ManagersOnlyFromOurPages))]
async fn add_product(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<ProductBody>,
) -> ApiResult<(StatusCode, axum::Json<ProductResponse>)> {
    let product = state.backoffice.add_product(&caller, b.form()).await?;
    let (_, complexes) = state.backoffice.products(&caller).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(ProductResponse {
            product: ProductDto::of(&product, &complexes),
        }),
    ))
}

/// Changes a product of the user's complexes. A new price is charged from the next cart priced:
/// orders already priced keep theirs.
#[utoipa::path(put, operation_id = "changeProduct", path = "/staff/products/{id}", tag = "staff",
    params(("id" = i64, Path, description = "Product id")),
    request_body = ProductBody,
    responses((status = 200, description = "Changed", body = ProductResponse),
              (status = 422, description = "formValidation (params.fields)", body = ErrorBody),
              crate::error::ManagersOnly,
              (status = 404, description = "notFound: no such product at the user's complexes", body = ErrorBody)))]
async fn change_product(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    Json(b): Json<ProductBody>,
) -> ApiResult<axum::Json<ProductResponse>> {
    let product = state
        .backoffice
        .change_product(&caller, id, b.form())
        .await?;
    let (_, complexes) = state.backoffice.products(&caller).await?;
    Ok(axum::Json(ProductResponse {
        product: ProductDto::of(&product, &complexes),
    }))
}

/// Uploads a product's picture: the image's bytes as the body, `Content-Type: image/jpeg` or
/// `image/png`, at most 5 MB, at least 240 px wide and high once cut to a square from its middle.
/// It is kept in the database in the sizes the storefront shows (240 and 480 px, JPEG) and shown
/// from then on in place of the generated picture.
#[utoipa::path(put, operation_id = "uploadProductImage", path = "/staff/products/{id}/image", tag = "staff",
    params(("id" = i64, Path, description = "Product id")),
    request_body(description = "The image", content(("image/jpeg"), ("image/png"))),
    responses((status = 200, description = "Uploaded", body = ProductResponse),
              (status = 422, description = "formValidation (params.fields.image: imageType, image, imageSize)", body = ErrorBody),
              (status = 413, description = "payloadTooLarge: over 5 MB", body = ErrorBody),
              crate::error::ManagersOnlyFromOurPages,
              (status = 404, description = "notFound: no such product at the user's complexes", body = ErrorBody)))]
async fn upload_product_image(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<axum::Json<ProductResponse>> {
    let (content_type, bytes) = crate::extract::image_upload(&headers, body)?;
    let product = state
        .backoffice
        .upload_product_picture(&caller, id, content_type, bytes)
        .await?;
    let (_, complexes) = state.backoffice.products(&caller).await?;
    Ok(axum::Json(ProductResponse {
        product: ProductDto::of(&product, &complexes),
    }))
}

/// Takes a product's uploaded picture away: the generated one (its icon on its colour) is shown
/// again.
#[utoipa::path(delete, operation_id = "removeProductImage", path = "/staff/products/{id}/image", tag = "staff",
    params(("id" = i64, Path, description = "Product id")),
    responses((status = 200, description = "Taken away (or there was none)", body = ProductResponse),
              crate::error::ManagersOnlyFromOurPages,
              (status = 404, description = "notFound: no such product at the user's complexes", body = ErrorBody)))]
async fn remove_product_image(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
) -> ApiResult<axum::Json<ProductResponse>> {
    let product = state.backoffice.remove_product_picture(&caller, id).await?;
    let (_, complexes) = state.backoffice.products(&caller).await?;
    Ok(axum::Json(ProductResponse {
        product: ProductDto::of(&product, &complexes),
    }))
}
