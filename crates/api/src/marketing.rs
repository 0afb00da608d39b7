//! The chain's marketing pages (decision 0051): the contact, birthday and job forms in one call,
//! the search over features and complexes, and the complexes with parking, accessibility and a
//! map link. The movie page and the quick order read the catalogue's own calls.

use axum::extract::State;
use kupa_app::marketing::{Inquiry, InquiryKind};
use kupa_app::model::Location;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::{Json, Query};
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_inquiry))
        .routes(routes!(search))
        .routes(routes!(complexes))
}

/// One of the three forms. Every kind has `fullName` and `email`; a contact message also needs
/// `message`; a birthday `mobileNumber`, `locationId`, `partyDate` and `guests` (`childAge`
/// optional); a job application `mobileNumber` and `position` (`locationId` optional).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InquiryBody {
    pub kind: InquiryKind,
    #[serde(default)]
    #[schema(max_length = 100)]
    pub full_name: String,
    #[serde(default)]
    #[schema(max_length = 254)]
    pub email: String,
    /// An Israeli mobile number (0521234567, +972 52-123-4567, ...).
    #[serde(default)]
    #[schema(max_length = 20)]
    pub mobile_number: String,
    /// A complex (GET /locations).
    #[serde(default)]
    pub location_id: Option<i64>,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub message: String,
    /// Birthday: YYYY-MM-DD, from tomorrow up to a year ahead.
    #[serde(default)]
    #[schema(max_length = 10)]
    pub party_date: String,
    /// Birthday: 5 to 100.
    #[serde(default)]
    pub guests: Option<i64>,
    /// Birthday: 1 to 18.
    #[serde(default)]
    pub child_age: Option<i64>,
    /// Job: the position applied for.
    #[serde(default)]
    #[schema(max_length = 100)]
    pub position: String,
    /// The page's language (`he` or `en`), kept with the form.
    #[serde(default)]
    #[schema(max_length = 8)]
    pub locale: String,
    #[serde(default)]
    #[schema(max_length = 2000)]
    pub recaptcha_token: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InquiryResponse {
    pub success: bool,
    /// The kept form's number (the mail's reference is `inquiry-{id}`).
    pub inquiry_id: i64,
}

/// Sends a contact message, a birthday party request or a job application: checked, kept, and
/// mailed to the chain's address (the site config's `chainEmail`) through the mail port.
#[utoipa::path(post, operation_id = "postInquiry", path = "/inquiries", tag = "marketing",
    request_body = InquiryBody,
    responses((status = 200, description = "Received (and mailed when the chain has an address)", body = InquiryResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 422, description = "formValidation: params.fields maps each field (fullName, email, mobileNumber, locationId, message, partyDate, guests, childAge, position) to the rule it broke (required, alpha, email, mobile, min, max)", body = ErrorBody),
              (status = 429, description = "tooManyRequests: the forms' rate limit (form.session, form.address)", body = ErrorBody)))]
async fn post_inquiry(
    State(state): State<AppState>,
    Json(b): Json<InquiryBody>,
) -> ApiResult<axum::Json<InquiryResponse>> {
    let inquiry = Inquiry {
        kind: b.kind,
        full_name: b.full_name,
        email: b.email,
        mobile_number: b.mobile_number,
        location_id: b.location_id,
        message: b.message,
        party_date: b.party_date,
        guests: b.guests,
        child_age: b.child_age,
        position: b.position,
    };
    let id = state
        .marketing
        .submit(inquiry, &b.locale, &b.recaptcha_token)
        .await?;
    Ok(axum::Json(InquiryResponse {
        success: true,
        inquiry_id: id,
    }))
}

/// A complex of the chain, as its page shows it.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Complex {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub address: String,
    pub address_en: String,
    pub city: String,
    pub city_en: String,
    pub phone: String,
    pub parking: String,
    pub parking_en: String,
    pub accessibility: String,
    pub accessibility_en: String,
    /// A map search for the address (OpenStreetMap), to open in a new tab.
    pub map_url: String,
}

/// Percent-encodes a query value (RFC 3986 unreserved characters stay).
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

impl From<&Location> for Complex {
    fn from(l: &Location) -> Complex {
        let (address, city) = if l.address_en.is_empty() {
            (&l.address, &l.city)
        } else {
            (&l.address_en, &l.city_en)
        };
        let query = format!("{address}, {city}, Israel");
        Complex {
            id: l.id,
            name: l.name.clone(),
            name_en: l.name_en.clone(),
            address: l.address.clone(),
            address_en: l.address_en.clone(),
            city: l.city.clone(),
            city_en: l.city_en.clone(),
            phone: l.phone.clone(),
            parking: l.parking.clone(),
            parking_en: l.parking_en.clone(),
            accessibility: l.accessibility.clone(),
            accessibility_en: l.accessibility_en.clone(),
            map_url: format!(
                "https://www.openstreetmap.org/search?query={}",
                encode(&query)
            ),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ComplexesResponse {
    pub complexes: Vec<Complex>,
}

/// The chain's complexes (cinemas), with address, phone, parking, accessibility and a map link.
#[utoipa::path(get, operation_id = "complexes", path = "/locations", tag = "marketing",
    responses((status = 200, description = "The complexes, in catalogue order", body = ComplexesResponse)))]
async fn complexes(State(state): State<AppState>) -> ApiResult<axum::Json<ComplexesResponse>> {
    let complexes = state.marketing.complexes().await?;
    Ok(axum::Json(ComplexesResponse {
        complexes: complexes.iter().map(Complex::from).collect(),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SearchQuery {
    /// What the buyer typed: Hebrew or English, with or without niqqud, any case (longer than
    /// 100 characters is cut).
    #[param(max_length = 400)]
    pub q: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SearchResponse {
    pub features: Vec<dto::Feature>,
    pub complexes: Vec<Complex>,
}

/// Features and complexes whose Hebrew or English name (or a complex's city) matches: niqqud
/// and case do not matter, and every word typed must begin a word of the name.
#[utoipa::path(get, operation_id = "search", path = "/search", tag = "marketing", params(SearchQuery),
    responses((status = 200, description = "What matches (both lists empty when nothing does)", body = SearchResponse),
              (status = 422, description = "formValidation (q missing or too long)", body = ErrorBody)))]
async fn search(
    State(state): State<AppState>,
    Query(q): Query<SearchQuery>,
) -> ApiResult<axum::Json<SearchResponse>> {
    let found = state.marketing.search(&q.q).await?;
    Ok(axum::Json(SearchResponse {
        features: found
            .features
            .iter()
            .map(|(f, c)| dto::Feature::new(f, c))
            .collect(),
        complexes: found.locations.iter().map(Complex::from).collect(),
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn map_queries_are_percent_encoded() {
        assert_eq!(
            super::encode("1 Ha-Namal St, Tel Aviv"),
            "1%20Ha-Namal%20St%2C%20Tel%20Aviv"
        );
        assert_eq!(super::encode("א"), "%D7%90");
    }
}
