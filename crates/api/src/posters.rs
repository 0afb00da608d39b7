//! A film's uploaded poster, for anyone (decision 0069): one of the sizes the back office made,
//! from the database (every node serves the same), cacheable. Its address carries the upload's
//! version (`?v=`, from the film's `imageUrl`), so a browser or a cache may keep it a year; the
//! ETag is the version and width, and an `If-None-Match` that names it answers 304. A product's
//! uploaded picture is served the same way ([`uploaded_image`], from `GET /products/{id}/image`).

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use kupa_app::backoffice::{POSTER_WIDTHS, SizedImage};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(poster))
}

/// The film's uploaded poster at one width (300 or 600 px; 2:3, JPEG). 404 `notFound` when no
/// poster was uploaded (the storefront then shows `/features/{id}/placeholderImage`).
#[utoipa::path(get, operation_id = "featurePoster", path = "/features/{id}/poster/{width}", tag = "catalogue",
    params(("id" = i64, Path, description = "Feature id"),
           ("width" = i64, Path, description = "300 or 600"),
           ("v" = Option<String>, Query, description = "The poster's version, from `imageUrl`: only makes the address new after an upload")),
    responses((status = 200, description = "The poster", content_type = "image/jpeg", body = Vec<u8>),
              (status = 304, description = "Not modified (If-None-Match)"),
              (status = 404, description = "notFound: no uploaded poster, or another width", body = ErrorBody),
              (status = 422, description = "formValidation: an id or width that is not a number", body = ErrorBody)))]
async fn poster(
    State(state): State<AppState>,
    Path((id, width)): Path<(i64, i64)>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    if !POSTER_WIDTHS.contains(&width) {
        return Err(kupa_app::AppError::rejected(
            kupa_app::ErrorCode::NotFound,
            "a poster is 300 or 600 px wide",
        )
        .into());
    }
    let (version, image) = state.backoffice.poster(id, width).await?;
    Ok(uploaded_image(&version, image, &headers, true))
}

/// A drawn SVG picture (a placeholder poster or product picture, a hall's seat plan): its content
/// type and how long (`max_age`, seconds) anyone may keep it.
pub(crate) fn svg_response(body: String, max_age: u32) -> Response {
    (
        [
            (CONTENT_TYPE, "image/svg+xml; charset=utf-8".to_owned()),
            (CACHE_CONTROL, format!("public, max-age={max_age}")),
        ],
        body,
    )
        .into_response()
}

/// One size of an uploaded picture (a film's poster, a product's picture) as served: its ETag is
/// the upload's version and the width, and an `If-None-Match` that names it answers 304. Asked
/// for at its versioned address (`immutable`) it may be kept a year; at another address a cache
/// asks again each time (a later upload changes what that address shows).
pub(crate) fn uploaded_image(
    version: &str,
    image: SizedImage,
    headers: &HeaderMap,
    immutable: bool,
) -> Response {
    let etag = format!("\"{version}-{}\"", image.width);
    let cache = (
        CACHE_CONTROL,
        HeaderValue::from_static(if immutable {
            "public, max-age=31536000, immutable"
        } else {
            "public, no-cache"
        }),
    );
    let tag = HeaderValue::from_str(&etag).unwrap_or(HeaderValue::from_static("\"picture\""));
    let matches = headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == etag || t.trim() == "*");
    if matches {
        return (StatusCode::NOT_MODIFIED, [cache, (ETAG, tag)]).into_response();
    }
    let kind = HeaderValue::from_str(&image.content_type)
        .unwrap_or(HeaderValue::from_static("image/jpeg"));
    ([cache, (ETAG, tag), (CONTENT_TYPE, kind)], image.bytes).into_response()
}
