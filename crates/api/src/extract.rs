//! Extractors that answer malformed input in our error shape (422 formValidation, or 413
//! payloadTooLarge for a body over the limit), never axum's text.

use axum::extract::rejection::{JsonRejection, PathRejection, QueryRejection};
use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::StatusCode;
use axum::http::request::Parts;
use kupa_app::ErrorCode;
use serde::de::DeserializeOwned;
use utoipa::{IntoParams, ToSchema};

use crate::error::ApiError;

pub struct Query<T>(pub T);

impl<T: DeserializeOwned + IntoParams + 'static, S: Send + Sync> FromRequestParts<S> for Query<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        // The bounds the document shows (decision 0017), before the values are read.
        if let Ok(axum::extract::Query(pairs)) =
            axum::extract::Query::<Vec<(String, String)>>::try_from_uri(&parts.uri)
        {
            crate::bounds::check_query::<T>(&pairs)?;
        }
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|q| Query(q.0))
            .map_err(|e: QueryRejection| ApiError::validation(e.body_text()))
    }
}

pub struct Path<T>(pub T);

impl<T: DeserializeOwned + Send, S: Send + Sync> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if let Ok(raw) = axum::extract::RawPathParams::from_request_parts(parts, state).await {
            crate::bounds::check_path(raw.iter())?;
        }
        axum::extract::Path::<T>::from_request_parts(parts, state)
            .await
            .map(|p| Path(p.0))
            .map_err(|e: PathRejection| ApiError::validation(e.body_text()))
    }
}

pub struct Json<T>(pub T);

impl<T: DeserializeOwned + ToSchema, S: Send + Sync> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let value = axum::Json::<serde_json::Value>::from_request(req, state)
            .await
            .map(|j| j.0)
            .map_err(|e: JsonRejection| body_rejection(e.status(), e.body_text()))?;
        // The bounds the document shows (decision 0017), before the value is read.
        crate::bounds::check_body(&T::name(), &value)?;
        let value = crate::bounds::integral_floats(value);
        serde_json::from_value(value).map(Json).map_err(|e| {
            ApiError::validation(format!(
                "Failed to deserialize the JSON body into the target type: {e}"
            ))
        })
    }
}

/// A body over the limit is 413 `payloadTooLarge`; anything else wrong with it is malformed input.
fn body_rejection(status: StatusCode, text: String) -> ApiError {
    if status == StatusCode::PAYLOAD_TOO_LARGE {
        too_large()
    } else {
        ApiError::validation(text)
    }
}

/// An uploaded picture as the staff's upload calls take it: its bytes as the body and its
/// `Content-Type` (the app decides what it accepts); a body over the limit is 413.
pub fn image_upload(
    headers: &axum::http::HeaderMap,
    body: Result<axum::body::Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<(String, Vec<u8>), ApiError> {
    let bytes = body.map_err(|e| body_rejection(e.status(), e.body_text()))?;
    let content_type = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned();
    Ok((content_type, bytes.to_vec()))
}

pub fn too_large() -> ApiError {
    ApiError::new(
        ErrorCode::PayloadTooLarge,
        "The request body is larger than this server takes.",
    )
}

/// "1,2,3" → [1, 2, 3]; empty → []. Anything else is a validation error naming the parameter.
pub fn id_list(name: &str, raw: Option<&str>) -> Result<Vec<i64>, ApiError> {
    let Some(raw) = raw.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(Vec::new());
    };
    raw.split(',')
        .map(|s| {
            s.trim().parse::<i64>().map_err(|_| {
                ApiError::validation(format!("{name} must be a comma-separated list of ids"))
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn id_lists() {
        assert_eq!(
            super::id_list("featureIds", Some("1, 2,3")).unwrap(),
            vec![1, 2, 3]
        );
        assert!(super::id_list("featureIds", Some("")).unwrap().is_empty());
        assert!(super::id_list("featureIds", None).unwrap().is_empty());
        assert_eq!(
            super::id_list("featureIds", Some("1,x")).unwrap_err().code,
            "formValidation"
        );
    }
}
