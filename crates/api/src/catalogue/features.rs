//! GET /features, a feature's placeholder poster and a product's image.

use axum::extract::State;
use axum::response::Response;
use kupa_app::catalogue::PresentationFilter;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Path, Query, id_list};
use crate::posters::svg_response;
use crate::state::AppState;

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct FeatureQuery {
    #[param(
        max_length = 1000,
        pattern = r"^ *([0-9]{1,18} *(, *[0-9]{1,18} *)*)?$"
    )]
    pub feature_ids: Option<String>,
    /// Only features with upcoming presentations at this complex.
    pub location_id: Option<i64>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct FeatureListResponse {
    pub features: Vec<dto::Feature>,
}

pub(super) async fn list_features(
    state: AppState,
    q: FeatureQuery,
) -> ApiResult<axum::Json<FeatureListResponse>> {
    let ids = id_list("featureIds", q.feature_ids.as_deref())?;
    features_body(&state, ids, q.location_id, q.mini_site_url.as_deref())
        .await
        .map(axum::Json)
}

/// GET /features's body (web.rs writes the index's cards' into its HTML, decision 0071).
pub(crate) async fn features_body(
    state: &AppState,
    feature_ids: Vec<i64>,
    location_id: Option<i64>,
    mini_site_url: Option<&str>,
) -> ApiResult<FeatureListResponse> {
    let filter = PresentationFilter {
        feature_ids,
        location_id,
    };
    let channel = state.catalogue.channel(mini_site_url).await?;
    let features = state.catalogue.features(&filter, &channel).await?;
    Ok(FeatureListResponse {
        features: features
            .iter()
            .map(|(f, c)| dto::Feature::new(f, c))
            .collect(),
    })
}

/// Features (films and events).
#[utoipa::path(get, operation_id = "featureList", path = "/features/", tag = "catalogue", params(FeatureQuery),
    responses((status = 200, description = "Features", body = FeatureListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn feature_list(
    State(state): State<AppState>,
    Query(q): Query<FeatureQuery>,
) -> ApiResult<axum::Json<FeatureListResponse>> {
    list_features(state, q).await
}

/// The same as `/features/`, without the trailing slash.
#[utoipa::path(get, operation_id = "featureListNoSlash", path = "/features", tag = "catalogue", params(FeatureQuery),
    responses((status = 200, description = "Features", body = FeatureListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
pub(super) async fn feature_list_no_slash(
    State(state): State<AppState>,
    Query(q): Query<FeatureQuery>,
) -> ApiResult<axum::Json<FeatureListResponse>> {
    list_features(state, q).await
}

fn xml_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn colour(c: &str, fallback: &str) -> String {
    let ok = c.len() == 7 && c.starts_with('#') && c[1..].bytes().all(|b| b.is_ascii_hexdigit());
    if ok {
        c.to_owned()
    } else {
        fallback.to_owned()
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PosterQuery {
    /// The page's language: `he` (the default) titles the poster in Hebrew with the English
    /// title under it; any other language in English only.
    #[param(max_length = 8)]
    pub lang: Option<String>,
}

/// A generated poster: the feature's two colours and its title in the page's language.
#[utoipa::path(get, operation_id = "featureImage", path = "/features/{id}/placeholderImage", tag = "catalogue",
    params(("id" = i64, Path, description = "Feature id"), PosterQuery),
    responses((status = 200, description = "An SVG poster", content_type = "image/svg+xml", body = String),
              (status = 404, description = "notFound", body = ErrorBody),
              (status = 422, description = "formValidation: the id is not a 64-bit number", body = ErrorBody)))]
pub(super) async fn feature_image(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<PosterQuery>,
) -> ApiResult<Response> {
    let f = state.catalogue.feature(id).await?;
    let from = colour(&f.poster_from, "#1f2a44");
    let to = colour(&f.poster_to, "#b3395b");
    let hebrew = q.lang.as_deref().is_none_or(|l| l == "he");
    let name_en = xml_escape(if f.name_en.is_empty() {
        &f.name
    } else {
        &f.name_en
    });
    // An English page shows no Hebrew: the English title takes the big line, none under it.
    let (name, name_en) = if hebrew {
        (xml_escape(&f.name), name_en)
    } else {
        (name_en, String::new())
    };
    let direction = if hebrew { "rtl" } else { "ltr" };
    // A long title gets smaller type so it fits the 400-wide poster (a bold letter is about 0.6 em).
    let size = (520 / name.chars().count().max(1)).clamp(18, 40);
    let class = xml_escape(if hebrew || f.classification_en.is_empty() {
        &f.classification
    } else {
        &f.classification_en
    });
    Ok(svg_response(
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="400" height="600" viewBox="0 0 400 600" role="img" aria-label="{name_en}">
<defs><linearGradient id="g" x1="0" y1="0" x2="0.4" y2="1"><stop offset="0" stop-color="{from}"/><stop offset="1" stop-color="{to}"/></linearGradient></defs>
<rect width="400" height="600" fill="url(#g)"/>
<circle cx="320" cy="120" r="150" fill="#ffffff" opacity="0.08"/>
<circle cx="60" cy="520" r="110" fill="#000000" opacity="0.12"/>
<text x="200" y="380" font-family="Noto Sans Hebrew, DejaVu Sans, sans-serif" font-size="{size}" font-weight="700" fill="#ffffff" text-anchor="middle" direction="{direction}">{name}</text>
<text x="200" y="430" font-family="Noto Sans, DejaVu Sans, sans-serif" font-size="24" fill="#ffffff" opacity="0.85" text-anchor="middle">{name_en}</text>
<text x="200" y="560" font-family="Noto Sans, DejaVu Sans, sans-serif" font-size="18" fill="#ffffff" opacity="0.7" text-anchor="middle">{class}</text>
</svg>"##
        ),
        3600,
    ))
}

/// `GET /products/{id}/image`'s query.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProductImageQuery {
    /// An uploaded picture's width: 240 (the default) or 480 px. The generated picture is one
    /// SVG for every width.
    pub w: Option<i64>,
    /// The uploaded picture's version, from the product's `img`: only makes the address new
    /// after an upload (at that address it may be kept a year).
    #[param(max_length = 32)]
    pub v: Option<String>,
}

/// A product's picture: the one a manager uploaded (a square JPEG, 240 or 480 px; decision
/// 0069), else the generated one, its icon on its colour (SVG).
#[utoipa::path(get, operation_id = "productImage", path = "/products/{id}/image", tag = "catalogue",
    params(("id" = i64, Path, description = "Product id"), ProductImageQuery),
    responses((status = 200, description = "The uploaded picture (JPEG), or the generated one (SVG)",
               content((Vec<u8> = "image/jpeg"), (String = "image/svg+xml"))),
              (status = 304, description = "Not modified (If-None-Match, an uploaded picture)"),
              (status = 404, description = "notFound: no such product, or a width other than 240 or 480", body = ErrorBody),
              (status = 422, description = "formValidation: the id is not a 64-bit number", body = ErrorBody)))]
pub(super) async fn product_image(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<ProductImageQuery>,
    headers: axum::http::HeaderMap,
) -> ApiResult<Response> {
    let width =
        q.w.unwrap_or(kupa_app::backoffice::PRODUCT_PICTURE_WIDTHS[0]);
    if !kupa_app::backoffice::PRODUCT_PICTURE_WIDTHS.contains(&width) {
        return Err(kupa_app::AppError::rejected(
            kupa_app::ErrorCode::NotFound,
            "a product's picture is 240 or 480 px wide",
        )
        .into());
    }
    let p = state.catalogue.product(id).await?;
    if p.image_version.is_some()
        && let Some((version, image)) = state.backoffice.product_picture(id, width).await?
    {
        let at_its_address = q.v.as_deref() == Some(version.as_str());
        return Ok(crate::posters::uploaded_image(
            &version,
            image,
            &headers,
            at_its_address,
        ));
    }
    let bg = colour(&p.color, "#f0b429");
    let icon = xml_escape(&p.icon);
    let name_en = xml_escape(&p.name_en);
    Ok(svg_response(
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 240 240" role="img" aria-label="{name_en}">
<rect width="240" height="240" rx="32" fill="{bg}"/>
<text x="120" y="150" font-size="110" text-anchor="middle">{icon}</text>
</svg>"##
        ),
        3600,
    ))
}
