//! The chain's films in the back office over HTTP (issue 18 item 3, decision 0069; Kupa's own
//! calls, the spec has no back office): the list, a film added or changed, its poster uploaded
//! (the image's bytes as the body). Managers only (another role 403 `forbidden`); a film shown by
//! other businesses only is theirs to change (403 `forbidden`). The poster's sizes are served to
//! anyone by `GET /features/{id}/poster/{width}` ([`crate::posters`]).

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use kupa_app::backoffice::{FilmForm, FilmRecord, MAX_POSTER_BYTES, may_change_film};
use kupa_app::staff::Caller;
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
        .routes(routes!(films, add_film))
        .routes(routes!(change_film))
        .merge(
            OpenApiRouter::new()
                .routes(routes!(upload_poster))
                .layer(axum::extract::DefaultBodyLimit::max(MAX_POSTER_BYTES)),
        )
}

/// A film as a manager sends it. Every text is trimmed; `runtime` in minutes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilmBody {
    #[schema(max_length = 200)]
    pub name: String,
    #[schema(max_length = 200)]
    pub name_en: String,
    #[schema(max_length = 2000)]
    #[serde(default)]
    pub synopsis: String,
    #[schema(max_length = 2000)]
    #[serde(default)]
    pub synopsis_en: String,
    pub category_id: i64,
    /// Minutes, 1 to 600.
    pub runtime: i64,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub classification: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub classification_en: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub original_language: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub original_language_en: String,
    /// Empty: not dubbed.
    #[schema(max_length = 50)]
    #[serde(default)]
    pub dubbing: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub dubbing_en: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub subtitles: String,
    #[schema(max_length = 50)]
    #[serde(default)]
    pub subtitles_en: String,
    /// YYYY-MM-DD.
    #[schema(max_length = 10)]
    pub release_date: String,
    /// An https address (shown to buyers as a link); empty: none.
    #[schema(max_length = 500)]
    #[serde(default)]
    pub trailer_url: String,
}

impl FilmBody {
    fn form(self) -> FilmForm {
        FilmForm {
            name: self.name,
            name_en: self.name_en,
            synopsis: self.synopsis,
            synopsis_en: self.synopsis_en,
            category_id: self.category_id,
            runtime: self.runtime,
            classification: self.classification,
            classification_en: self.classification_en,
            original_language: self.original_language,
            original_language_en: self.original_language_en,
            dubbing: self.dubbing,
            dubbing_en: self.dubbing_en,
            subtitles: self.subtitles,
            subtitles_en: self.subtitles_en,
            release_date: self.release_date,
            trailer_url: self.trailer_url,
        }
    }
}

/// A film as the back office shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilmDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub synopsis: String,
    pub synopsis_en: String,
    pub category_id: i64,
    pub category_name: String,
    pub category_name_en: String,
    /// Minutes.
    pub runtime: i64,
    pub classification: String,
    pub classification_en: String,
    pub original_language: String,
    pub original_language_en: String,
    pub dubbing: String,
    pub dubbing_en: String,
    pub subtitles: String,
    pub subtitles_en: String,
    pub release_date: String,
    pub trailer_url: String,
    /// The poster the storefront shows: the uploaded one, else the generated one.
    pub image_url: String,
    /// The uploaded poster's version; null: none uploaded.
    pub poster_version: Option<String>,
    /// The businesses with a screening of it not yet over.
    pub shown_by: Vec<i64>,
    /// The caller may change it (no business shows it, or one of theirs does).
    pub editable: bool,
}

impl FilmDto {
    fn of(f: &FilmRecord, caller: &Caller) -> FilmDto {
        let x = &f.feature;
        FilmDto {
            id: x.id,
            name: x.name.clone(),
            name_en: x.name_en.clone(),
            synopsis: x.synopsis.clone(),
            synopsis_en: x.synopsis_en.clone(),
            category_id: f.category.id,
            category_name: f.category.name.clone(),
            category_name_en: f.category.name_en.clone(),
            runtime: x.runtime,
            classification: x.classification.clone(),
            classification_en: x.classification_en.clone(),
            original_language: x.original_language.clone(),
            original_language_en: x.original_language_en.clone(),
            dubbing: x.dubbing.clone(),
            dubbing_en: x.dubbing_en.clone(),
            subtitles: x.subtitles.clone(),
            subtitles_en: x.subtitles_en.clone(),
            release_date: x.release_date.clone(),
            trailer_url: x.trailer_url.clone(),
            image_url: crate::dto::feature_image_url(x),
            poster_version: x.poster_version.clone(),
            shown_by: f.shown_by.clone(),
            editable: may_change_film(caller, f),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoryDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilmsResponse {
    /// Every film of the chain, newest first.
    pub films: Vec<FilmDto>,
    /// The categories a film may have.
    pub categories: Vec<CategoryDto>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FilmResponse {
    pub film: FilmDto,
}

/// Every film of the chain (newest first) and the categories a film may have.
#[utoipa::path(get, operation_id = "staffFilms", path = "/staff/films", tag = "staff",
    responses((status = 200, description = "The films", body = FilmsResponse),
              crate::error::ManagersOnly))]
async fn films(
    State(state): State<AppState>,
    Staff(caller): Staff,
) -> ApiResult<axum::Json<FilmsResponse>> {
    let (films, categories) = state.backoffice.films(&caller).await?;
    Ok(axum::Json(FilmsResponse {
        films: films.iter().map(|f| FilmDto::of(f, &caller)).collect(),
        categories: categories
            .into_iter()
            .map(|c| CategoryDto {
                id: c.id,
                name: c.name,
                name_en: c.name_en,
            })
            .collect(),
    }))
}

/// Adds a film to the chain's catalogue (the generated poster until one is uploaded).
#[utoipa::path(post, operation_id = "addFilm", path = "/staff/films", tag = "staff",
    request_body = FilmBody,
    responses((status = 201, description = "Added", body = FilmResponse),
              (status = 422, description = "formValidation (params.fields: field → rule: required, max, min, date, https, category)", body = ErrorBody),
              crate::error::ManagersOnlyFromOurPages))]
async fn add_film(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Json(b): Json<FilmBody>,
) -> ApiResult<(StatusCode, axum::Json<FilmResponse>)> {
    let film = state.backoffice.add_film(&caller, b.form()).await?;
    Ok((
        StatusCode::CREATED,
        axum::Json(FilmResponse {
            film: FilmDto::of(&film, &caller),
        }),
    ))
}

/// Changes a film's fields (its poster stays). Every node shows the change within a second.
#[utoipa::path(put, operation_id = "changeFilm", path = "/staff/films/{id}", tag = "staff",
    params(("id" = i64, Path, description = "Film (feature) id")),
    request_body = FilmBody,
    responses((status = 200, description = "Changed", body = FilmResponse),
              (status = 422, description = "formValidation (params.fields)", body = ErrorBody),
              (status = 409, description = "screeningOverlap: with a longer runtime a screening of it would overlap the next one of its hall (params.presentationId)", body = ErrorBody),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: managers only; a film shown only by other businesses", body = ErrorBody),
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn change_film(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    Json(b): Json<FilmBody>,
) -> ApiResult<axum::Json<FilmResponse>> {
    let film = state.backoffice.change_film(&caller, id, b.form()).await?;
    Ok(axum::Json(FilmResponse {
        film: FilmDto::of(&film, &caller),
    }))
}

/// Uploads a film's poster: the image's bytes as the body, `Content-Type: image/jpeg` or
/// `image/png`, at most 5 MB, at least 600 px wide once cut to 2:3 from its middle. It is kept
/// in the database in the sizes the storefront shows (300 and 600 px wide, JPEG), and shown from
/// then on in place of the generated poster.
#[utoipa::path(put, operation_id = "uploadFilmPoster", path = "/staff/films/{id}/poster", tag = "staff",
    params(("id" = i64, Path, description = "Film (feature) id")),
    request_body(description = "The image", content(("image/jpeg"), ("image/png"))),
    responses((status = 200, description = "Uploaded", body = FilmResponse),
              (status = 422, description = "formValidation (params.fields.poster: imageType, image, imageSize)", body = ErrorBody),
              (status = 413, description = "payloadTooLarge: over 5 MB", body = ErrorBody),
              crate::error::StaffOnly,
              (status = 404, description = "notFound", body = ErrorBody)))]
async fn upload_poster(
    State(state): State<AppState>,
    Staff(caller): Staff,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> ApiResult<axum::Json<FilmResponse>> {
    let (content_type, bytes) = crate::extract::image_upload(&headers, body)?;
    let film = state
        .backoffice
        .upload_poster(&caller, id, content_type, bytes)
        .await?;
    Ok(axum::Json(FilmResponse {
        film: FilmDto::of(&film, &caller),
    }))
}
