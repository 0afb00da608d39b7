//! The customer area (spec section 7 "Customer"): GET /customer-area/customerAreaData, GET
//! /customer/locations, POST /customer-area/logout, and the calls the spec does not show that a
//! chain's customer area needs (decision 0024): PUT /customer-area/profile and DELETE
//! /customer-area/account. Every call is the logged-in customer's own (the HttpOnly login cookie);
//! without a login it answers 401 `loginError`.

use axum::extract::State;
use axum::response::Response;
use kupa_app::customer_area::{AreaOrder, Profile, ProfileUpdate};
use kupa_app::links;
use kupa_app::model::Location;
use kupa_app::{AppError, ErrorCode};
use kupa_domain::customer::{MobileNumber, masked_id_number};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::customer::{MemberCard, SuccessResponse, end_login};
use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Json;
use crate::saved_cards::SavedCardDto;
use crate::session::BuyerSession;
use crate::state::AppState;
use crate::vod::VodItem;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(customer_area_data))
        .routes(routes!(locations))
        .routes(routes!(logout))
        .routes(routes!(update_profile))
        .routes(routes!(delete_account))
}

/// A ticket of a reservation in the customer area.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AreaSeat {
    pub section: String,
    pub section_en: String,
    pub row: String,
    pub seat: String,
    pub ticket_type: String,
    pub ticket_type_en: String,
    /// Agorot.
    pub price: i64,
    pub service_charge: i64,
    /// valid, scanned or cancelled (as its e-document says).
    pub state: String,
    /// The e-document key (its QR code leads to /edocument/{documentKey}).
    pub document_key: String,
    /// `/edocument/{documentKey}` on the site.
    pub edocument_url: String,
}

/// A reservation of the customer: an upcoming one (`Tickets`) or a past or cancelled one
/// (`PastReservations`).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AreaReservation {
    #[serde(rename = "ReservationIdentifier")]
    pub reservation_identifier: String,
    pub reservation_number: String,
    /// paid or cancelled.
    pub status: String,
    pub presentation: dto::Presentation,
    pub event_date_time: String,
    pub seats: Vec<AreaSeat>,
    /// Agorot.
    pub total: i64,
    pub currency: String,
    pub paid_at: Option<String>,
    /// The tickets (PDF), signed like the confirmation's `pdfUrl` (add `&lang=he|en`).
    pub pdf_url: String,
    /// The calendar file, signed like `pdfUrl`.
    pub calendar_url: String,
    /// The reservation's page on the site, `/reservation/{id}` (manage, cancel).
    pub reservation_url: String,
    /// The seat-change screen, `/reservation/{id}/seats`, while the seats may change (decision
    /// 0030); null otherwise.
    pub seat_change_url: Option<String>,
}

/// The logged-in customer in the spec's spelling (section 3 "Customer" with the customer-area
/// additions), with everything the area lists.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "PascalCase")]
pub struct AreaCustomer {
    pub customer_id: i64,
    pub first_name: String,
    pub last_name: String,
    /// Israeli ID number, all but the last 4 digits masked: "*****8711".
    #[serde(rename = "SSN")]
    pub ssn: String,
    pub email_address1: String,
    /// Local form: a stored +972 number is shown with a leading 0.
    pub mobile_number1: String,
    pub address1: String,
    pub address2: String,
    pub city: String,
    pub postal_code: String,
    /// YYYY-MM-DD, or empty.
    pub date_of_birth: String,
    pub license_plate_number: String,
    #[serde(rename = "IsSMSAllowed")]
    pub is_sms_allowed: bool,
    pub is_mailing_allowed: bool,
    pub is_email_allowed: bool,
    /// The customer's location (branch) id, or null.
    pub location: Option<i64>,
    /// Member cards.
    pub members: Vec<MemberCard>,
    /// Saved cards (none deleted).
    pub mag_cards: Vec<SavedCardDto>,
    /// The customer's system vouchers, newest first (as GET /customer-area/system-vouchers).
    pub system_vouchers: Vec<crate::vouchers::OwnedVoucher>,
    #[serde(rename = "VODTickets")]
    pub vod_tickets: Vec<VodItem>,
    /// Paid reservations whose screening is still ahead, soonest first.
    pub tickets: Vec<AreaReservation>,
    /// Screenings that began, and cancelled reservations, newest first.
    pub past_reservations: Vec<AreaReservation>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerAreaDataResponse {
    pub customer: AreaCustomer,
    pub server_time: String,
}

fn local_mobile(stored: &str) -> String {
    MobileNumber::parse(stored)
        .map(|m| m.as_str().to_owned())
        .unwrap_or_else(|| stored.to_owned())
}

fn profile_fields(p: &Profile) -> AreaCustomer {
    AreaCustomer {
        customer_id: p.customer_id,
        first_name: p.first_name.clone(),
        last_name: p.last_name.clone(),
        ssn: masked_id_number(&p.ssn),
        email_address1: p.email.clone(),
        mobile_number1: local_mobile(&p.mobile),
        address1: kupa_domain::customer::clean_address(&p.address1),
        address2: kupa_domain::customer::clean_address(&p.address2),
        city: p.city.clone(),
        postal_code: p.postal_code.clone(),
        date_of_birth: p.date_of_birth.clone(),
        license_plate_number: p.license_plate_number.clone(),
        is_sms_allowed: p.is_sms_allowed,
        is_mailing_allowed: p.is_mailing_allowed,
        is_email_allowed: p.is_email_allowed,
        location: p.location_id,
        members: Vec::new(),
        mag_cards: Vec::new(),
        system_vouchers: Vec::new(),
        vod_tickets: Vec::new(),
        tickets: Vec::new(),
        past_reservations: Vec::new(),
    }
}

fn reservation(state: &AppState, o: &AreaOrder) -> AreaReservation {
    let (order, info) = (&o.order, &o.info);
    AreaReservation {
        reservation_identifier: order.id.to_string(),
        reservation_number: order.reservation_number.clone(),
        status: order.status.as_str().to_owned(),
        presentation: dto::Presentation::from_info(info),
        event_date_time: ms_to_rfc3339(info.view.presentation.starts_at_ms),
        seats: order
            .tickets
            .iter()
            .map(|t| AreaSeat {
                section: t.section_name.clone(),
                section_en: t.section_name_en.clone(),
                row: t.row_name.clone(),
                seat: t.seat_name.clone(),
                ticket_type: t.ticket_name.clone(),
                ticket_type_en: t.ticket_name_en.clone(),
                price: t.price.minor(),
                service_charge: t.service_charge.minor(),
                state: if t.cancelled_at_ms.is_some() {
                    "cancelled"
                } else if t.scanned_at_ms.is_some() {
                    "scanned"
                } else {
                    "valid"
                }
                .into(),
                document_key: t.document_key.clone(),
                edocument_url: kupa_app::tickets_out::edocument_path(t),
            })
            .collect(),
        total: order.total.minor(),
        currency: order.currency.clone(),
        paid_at: order.paid_at_ms.map(ms_to_rfc3339),
        pdf_url: state
            .orders
            .signed_path(&links::tickets_pdf_path(order.id.as_str()), order, info),
        calendar_url: state.orders.signed_path(
            &links::calendar_path(order.id.as_str()),
            order,
            info,
        ),
        reservation_url: format!("/reservation/{}", order.id),
        seat_change_url: kupa_app::orders::seat_change_open(order, info, state.orders.now_ms())
            .map(|_| format!("/reservation/{}/seats", order.id)),
    }
}

/// The logged-in customer's area in one answer: the profile (ID number masked, mobile in local
/// form), member cards, saved cards, upcoming tickets, past and cancelled reservations and
/// video-on-demand purchases. Only this customer's paid orders: never a guest's or another
/// customer's. System vouchers are an empty list until the vouchers issue.
#[utoipa::path(get, operation_id = "customerAreaData", path = "/customer-area/customerAreaData", tag = "customer",
    responses((status = 200, description = "The customer area", body = CustomerAreaDataResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 404, description = "CUSTOMER_NOT_FOUND: the login proved a mobile number that no customer account has", body = ErrorBody)))]
async fn customer_area_data(
    State(state): State<AppState>,
    session: BuyerSession,
) -> ApiResult<axum::Json<CustomerAreaDataResponse>> {
    let area = state.customer_area.area(session.login()).await?;
    let mut customer = profile_fields(&area.profile);
    customer.members = area.account.members.iter().map(MemberCard::from).collect();
    customer.mag_cards = area
        .saved_cards
        .iter()
        .map(|c| SavedCardDto::new(c, area.now_ms))
        .collect();
    customer.tickets = area
        .upcoming
        .iter()
        .map(|o| reservation(&state, o))
        .collect();
    customer.past_reservations = area.past.iter().map(|o| reservation(&state, o)).collect();
    for o in &area.vod {
        if let Some(item) = state.vod.item_of(o.order.clone()).await? {
            customer.vod_tickets.push(VodItem::from_item(&item));
        }
    }
    customer.system_vouchers = crate::vouchers::owned_vouchers(&state, session.login()).await?;
    Ok(axum::Json(CustomerAreaDataResponse {
        customer,
        server_time: ms_to_rfc3339(area.now_ms),
    }))
}

/// A location (branch) of the chain.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocationDto {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub city: String,
    pub city_en: String,
}

impl From<&Location> for LocationDto {
    fn from(l: &Location) -> LocationDto {
        LocationDto {
            id: l.id,
            name: l.name.clone(),
            name_en: l.name_en.clone(),
            city: l.city.clone(),
            city_en: l.city_en.clone(),
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LocationsResponse {
    pub locations: Vec<LocationDto>,
}

/// The chain's locations, for the profile's location (branch) choice. Public: the same list the
/// site shows anyway.
#[utoipa::path(get, operation_id = "customerLocations", path = "/customer/locations", tag = "customer",
    responses((status = 200, description = "The locations", body = LocationsResponse)))]
async fn locations(State(state): State<AppState>) -> ApiResult<axum::Json<LocationsResponse>> {
    let locations = state.customer_area.locations().await?;
    Ok(axum::Json(LocationsResponse {
        locations: locations.iter().map(LocationDto::from).collect(),
    }))
}

/// Ends the login, as POST /customer/logout does: the login cookie is cleared and the buyer
/// session id rotated.
#[utoipa::path(post, operation_id = "customerAreaLogout", path = "/customer-area/logout", tag = "customer",
    responses((status = 200, description = "Logged out", body = SuccessResponse)))]
async fn logout(State(state): State<AppState>, session: BuyerSession) -> ApiResult<Response> {
    end_login(&state, &session).await
}

/// The profile fields the customer edits. Email and mobile number are not among them (decision
/// 0024): they change only once the new one is proven.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProfileBody {
    #[schema(max_length = 50)]
    pub first_name: String,
    #[schema(max_length = 50)]
    pub last_name: String,
    /// '#' is replaced by a space.
    #[serde(default)]
    #[schema(max_length = 100)]
    pub address1: String,
    #[serde(default)]
    #[schema(max_length = 100)]
    pub address2: String,
    #[serde(default)]
    #[schema(max_length = 50)]
    pub city: String,
    /// 7 digits, or empty.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub postal_code: String,
    /// YYYY-MM-DD, not in the future, or empty.
    #[serde(default)]
    #[schema(max_length = 10)]
    pub date_of_birth: String,
    /// An Israeli plate, 7 or 8 digits (dashes and spaces dropped), or empty.
    #[serde(default)]
    #[schema(max_length = 20)]
    pub license_plate_number: String,
    #[serde(default, rename = "isSMSAllowed")]
    pub is_sms_allowed: bool,
    #[serde(default)]
    pub is_mailing_allowed: bool,
    #[serde(default)]
    pub is_email_allowed: bool,
    /// A location id of GET /customer/locations, or null.
    #[serde(default)]
    pub location: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ProfileResponse {
    pub customer: AreaCustomer,
}

/// Changes the logged-in customer's profile (not shown in the spec; decision 0024). Every field is
/// checked; a broken one answers formValidation with `params.fields` (field → rule: required,
/// alpha, max, numeric, min, date, plate, location) and nothing is written.
#[utoipa::path(put, operation_id = "updateCustomerProfile", path = "/customer-area/profile", tag = "customer",
    request_body = ProfileBody,
    responses((status = 200, description = "The profile as saved (lists empty: read them with customerAreaData)", body = ProfileResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 404, description = "CUSTOMER_NOT_FOUND: no customer account for the login", body = ErrorBody),
              (status = 422, description = "formValidation (params.fields)", body = ErrorBody)))]
async fn update_profile(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<ProfileBody>,
) -> ApiResult<axum::Json<ProfileResponse>> {
    let update = ProfileUpdate {
        first_name: b.first_name,
        last_name: b.last_name,
        address1: b.address1,
        address2: b.address2,
        city: b.city,
        postal_code: b.postal_code,
        date_of_birth: b.date_of_birth,
        license_plate_number: b.license_plate_number,
        is_sms_allowed: b.is_sms_allowed,
        is_mailing_allowed: b.is_mailing_allowed,
        is_email_allowed: b.is_email_allowed,
        location_id: b.location,
    };
    let profile = state
        .customer_area
        .update_profile(session.login(), update)
        .await?;
    Ok(axum::Json(ProfileResponse {
        customer: profile_fields(&profile),
    }))
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeleteAccountBody {
    /// Must be true: the customer confirmed in the dialog.
    pub confirm: bool,
}

/// Deletes the logged-in customer's account (not shown in the spec; decision 0024): personal data,
/// saved cards, every login and login code; orders stay as anonymised financial records and their
/// tickets stay valid; member cards stay with their balances, no longer tied to a person. Logs out
/// as POST /customer-area/logout does.
#[utoipa::path(delete, operation_id = "deleteCustomerAccount", path = "/customer-area/account", tag = "customer",
    request_body = DeleteAccountBody,
    responses((status = 200, description = "Deleted and logged out", body = SuccessResponse),
              (status = 401, description = "loginError: nobody is logged in on this session", body = ErrorBody),
              (status = 404, description = "CUSTOMER_NOT_FOUND: no customer account for the login", body = ErrorBody),
              (status = 422, description = "formValidation: confirm is not true", body = ErrorBody)))]
async fn delete_account(
    State(state): State<AppState>,
    session: BuyerSession,
    Json(b): Json<DeleteAccountBody>,
) -> ApiResult<Response> {
    if !b.confirm {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "confirm the deletion",
            serde_json::json!({ "fields": { "confirm": "required" } }),
        )
        .into());
    }
    state.customer_area.delete_account(session.login()).await?;
    end_login(&state, &session).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_plus_972_number_is_shown_with_a_leading_zero_and_the_id_number_masked() {
        let p = Profile {
            customer_id: 7,
            ssn: "034528711".into(),
            mobile: "+972524318876".into(),
            address1: "דיזנגוף 210 #4".into(),
            ..Profile::default()
        };
        let c = profile_fields(&p);
        assert_eq!(c.mobile_number1, "0524318876");
        assert_eq!(c.ssn, "*****8711");
        assert_eq!(c.address1, "דיזנגוף 210 4");
        assert_eq!(
            local_mobile("02-6234567"),
            "02-6234567",
            "not a mobile: as stored"
        );
        let json = serde_json::to_string(&c).unwrap();
        assert!(
            !json.contains("034528711") && json.contains("\"IsSMSAllowed\""),
            "{json}"
        );
    }
}
