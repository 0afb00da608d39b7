//! Wire shapes. Field names follow the spec (section 3 and 7); money is integer agorot with a
//! currency code; times are RFC 3339 UTC strings; ids are numbers. docs/api.md explains each.

use kupa_app::backoffice::PRODUCT_PICTURE_WIDTHS;
use kupa_app::catalogue::{PresentationDetail, PresentationInfo};
use kupa_app::model::FeatureCategory;
use kupa_domain::catalogue::SaleState;
use kupa_domain::money::{DEFAULT_CURRENCY, Money};
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

pub(crate) mod cart;
mod seats;

pub use seats::*;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Presentation {
    pub id: i64,
    pub venue_id: i64,
    pub venue_name: String,
    pub venue_name_en: String,
    pub seatplan_id: i64,
    /// 101–104 are video on demand.
    pub venue_type_id: i64,
    pub feature_category_id: i64,
    pub feature_category_name: String,
    pub feature_category_name_en: String,
    pub feature_id: i64,
    /// Hebrew name; `featureNameEn` is the English one (other locales fall back to English).
    pub feature_name: String,
    pub feature_name_en: String,
    /// The film's poster: the uploaded one (600 px wide), else the generated one.
    pub feature_image_url: String,
    /// The uploaded poster's sizes for `<img srcset>` (300w, 600w); null: the generated poster.
    pub feature_image_srcset: Option<String>,
    /// The film's trailer (https); empty: none.
    pub feature_trailer_url: String,
    pub location_id: i64,
    pub location_name: String,
    pub location_name_en: String,
    /// Start (screenings) or start of availability (video on demand), UTC.
    pub date_time: String,
    /// Video on demand: end of availability, UTC.
    pub available_until: Option<String>,
    pub auth_profile_id: i64,
    pub business_id: i64,
    /// True when the seat plan has at least one reserved (numbered-seat) section.
    pub is_reserved: bool,
    /// Number of general-admission sections.
    #[serde(rename = "isGA")]
    pub is_ga: i64,
    pub seating_policy_id: i64,
    /// mixed, reserved, singleGA or multiGA.
    pub seating_mode: String,
    pub has_reserved_section: bool,
    #[serde(rename = "hasGASection")]
    pub has_ga_section: bool,
    #[serde(rename = "hasMultiGASections")]
    pub has_multi_ga_sections: bool,
    pub new_booking_url: String,
    pub view_area_filename: Option<String>,
    pub image_map_html: Option<String>,
    pub sale_starts_at: String,
    pub sale_ends_at: String,
    /// notYetStarted, onSale or ended, at `serverTime`.
    pub sale_state: String,
    /// False when the sale window is not open or a sales switch stops the sale (`salesClosed`).
    pub is_on_sale: bool,
    /// The manager's sales switch that stops this presentation's sale through the asking channel
    /// (decision 0067): `locationOffline` (book at the box office),
    /// `advanced_sales_not_allowed_by_outlet` or `noTicketsInChannel`; null: none.
    pub sales_closed: Option<String>,
    pub is_vod: bool,
    /// Minutes.
    pub runtime: i64,
    pub classification: String,
    pub classification_en: String,
    /// Only in GET /presentations/{id}: the concessions sold at this presentation's complex.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub products: Option<Vec<Product>>,
    /// Only in GET /presentations/{id}: the service charge of this presentation's business.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub service_charge: Option<ServiceCharge>,
}

fn sale_state_str(s: SaleState) -> &'static str {
    match s {
        SaleState::NotYetStarted => "notYetStarted",
        SaleState::OnSale => "onSale",
        SaleState::Ended => "ended",
    }
}

impl Presentation {
    pub fn from_info(i: &PresentationInfo) -> Presentation {
        let v = &i.view;
        let p = &v.presentation;
        Presentation {
            id: p.id.get(),
            venue_id: p.venue_id,
            venue_name: v.venue.name.clone(),
            venue_name_en: v.venue.name_en.clone(),
            seatplan_id: p.seatplan_id,
            venue_type_id: v.venue.venue_type_id,
            feature_category_id: v.category.id,
            feature_category_name: v.category.name.clone(),
            feature_category_name_en: v.category.name_en.clone(),
            feature_id: v.feature.id,
            feature_name: v.feature.name.clone(),
            feature_name_en: v.feature.name_en.clone(),
            feature_image_url: feature_image_url(&v.feature),
            feature_image_srcset: feature_image_srcset(&v.feature),
            feature_trailer_url: v.feature.trailer_url.clone(),
            location_id: v.location.id,
            location_name: v.location.name.clone(),
            location_name_en: v.location.name_en.clone(),
            date_time: ms_to_rfc3339(p.starts_at_ms),
            available_until: p.available_until_ms.map(ms_to_rfc3339),
            auth_profile_id: p.auth_profile_id,
            business_id: p.business_id,
            is_reserved: v.reserved_sections > 0,
            is_ga: v.ga_sections,
            seating_policy_id: p.seating_policy_id,
            seating_mode: i.seating_mode.as_str().to_owned(),
            has_reserved_section: v.reserved_sections > 0,
            has_ga_section: v.ga_sections > 0,
            has_multi_ga_sections: v.ga_sections > 1,
            new_booking_url: p.new_booking_url.clone(),
            view_area_filename: None,
            image_map_html: None,
            sale_starts_at: ms_to_rfc3339(p.sale_starts_at_ms),
            sale_ends_at: ms_to_rfc3339(p.sale_ends_at_ms),
            sale_state: sale_state_str(i.sale_state).to_owned(),
            is_on_sale: i.sale_state == SaleState::OnSale && i.blocked.is_none(),
            sales_closed: i.blocked.map(|b| b.code().as_str().to_owned()),
            is_vod: i.is_vod,
            runtime: v.feature.runtime,
            classification: v.feature.classification.clone(),
            classification_en: v.feature.classification_en.clone(),
            products: None,
            service_charge: None,
        }
    }

    pub fn from_detail(d: &PresentationDetail) -> Presentation {
        Presentation {
            products: Some(d.products.iter().map(Product::from).collect()),
            service_charge: d.service_charge.as_ref().map(ServiceCharge::from),
            ..Presentation::from_info(&d.info)
        }
    }
}

/// The generated poster of a feature (its colours and title, SVG).
pub fn generated_poster_url(id: i64) -> String {
    format!("/api/features/{id}/placeholderImage")
}

/// One size of a feature's uploaded poster (decision 0069); its version makes the address new
/// with each upload, so it may be cached for good.
fn uploaded_poster_url(id: i64, version: &str, width: i64) -> String {
    format!("/api/features/{id}/poster/{width}?v={version}")
}

/// The poster the storefront shows: the uploaded one (its largest size), else the generated one.
pub fn feature_image_url(f: &kupa_app::model::Feature) -> String {
    match &f.poster_version {
        Some(v) => uploaded_poster_url(f.id, v, 600),
        None => generated_poster_url(f.id),
    }
}

/// One size of a product's uploaded picture (decision 0069), at its versioned address.
fn uploaded_product_image_url(id: i64, version: &str, width: i64) -> String {
    format!("/api/products/{id}/image?w={width}&v={version}")
}

/// A product's picture: the uploaded one (its smaller size: a card shows it small), else the
/// generated one (one SVG for every size).
pub fn product_image_url(p: &kupa_app::model::Product) -> String {
    match &p.image_version {
        Some(v) => uploaded_product_image_url(p.id, v, PRODUCT_PICTURE_WIDTHS[0]),
        None => format!("/api/products/{}/image", p.id),
    }
}

/// The uploaded picture's sizes as an `<img srcset>` (null: none uploaded).
pub fn product_image_srcset(p: &kupa_app::model::Product) -> Option<String> {
    p.image_version.as_ref().map(|v| {
        PRODUCT_PICTURE_WIDTHS
            .iter()
            .map(|w| format!("{} {w}w", uploaded_product_image_url(p.id, v, *w)))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

/// The uploaded poster's sizes as an `<img srcset>` (null: none uploaded, one SVG serves all).
pub fn feature_image_srcset(f: &kupa_app::model::Feature) -> Option<String> {
    f.poster_version.as_ref().map(|v| {
        kupa_app::backoffice::POSTER_WIDTHS
            .iter()
            .map(|w| format!("{} {w}w", uploaded_poster_url(f.id, v, *w)))
            .collect::<Vec<_>>()
            .join(", ")
    })
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub category: String,
    /// Agorot.
    pub price: i64,
    pub currency: String,
    /// URL of the product's image: the uploaded picture (240 px) when a manager uploaded one,
    /// else the generated one.
    pub img: String,
    /// The uploaded picture's sizes for `<img srcset>` (240w, 480w); null: the generated picture.
    pub img_srcset: Option<String>,
    /// Always 0 from the server; the cart keeps the buyer's choice.
    pub selected_quantity: i64,
}

impl From<&kupa_app::model::Product> for Product {
    fn from(p: &kupa_app::model::Product) -> Product {
        Product {
            id: p.id,
            name: p.name.clone(),
            name_en: p.name_en.clone(),
            category: p.category.clone(),
            price: p.price.minor(),
            currency: DEFAULT_CURRENCY.into(),
            img: product_image_url(p),
            img_srcset: product_image_srcset(p),
            selected_quantity: 0,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceCharge {
    pub name: String,
    pub name_en: String,
    /// Fixed amount in agorot, or null when `percentBp` applies.
    pub amount: Option<i64>,
    /// Basis points of the ticket price (1000 = 10 %), or null.
    pub percent_bp: Option<i64>,
    /// Per ticket, or once per order.
    pub per_ticket: bool,
    pub currency: String,
}

impl From<&kupa_app::model::ServiceCharge> for ServiceCharge {
    fn from(s: &kupa_app::model::ServiceCharge) -> ServiceCharge {
        ServiceCharge {
            name: s.name.clone(),
            name_en: s.name_en.clone(),
            amount: s.amount.map(Money::minor),
            percent_bp: s.percent_bp,
            per_ticket: s.per_ticket,
            currency: DEFAULT_CURRENCY.into(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Feature {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub category_id: i64,
    pub category_name: String,
    pub category_name_en: String,
    pub original_language: String,
    pub dubbing: String,
    pub subtitles: String,
    pub original_language_en: String,
    pub dubbing_en: String,
    pub subtitles_en: String,
    /// YYYY-MM-DD.
    pub release_date: String,
    /// Minutes.
    pub runtime: i64,
    pub classification: String,
    pub classification_en: String,
    pub synopsis: String,
    pub synopsis_en: String,
    /// The poster: the uploaded one (600 px wide), else the generated one.
    pub image_url: String,
    /// The uploaded poster's sizes for `<img srcset>`; null: the generated poster.
    pub image_srcset: Option<String>,
    /// The trailer (https), shown as a link; empty: none.
    pub trailer_url: String,
}

impl Feature {
    pub fn new(f: &kupa_app::model::Feature, c: &FeatureCategory) -> Feature {
        Feature {
            id: f.id,
            name: f.name.clone(),
            name_en: f.name_en.clone(),
            category_id: c.id,
            category_name: c.name.clone(),
            category_name_en: c.name_en.clone(),
            original_language: f.original_language.clone(),
            dubbing: f.dubbing.clone(),
            subtitles: f.subtitles.clone(),
            original_language_en: f.original_language_en.clone(),
            dubbing_en: f.dubbing_en.clone(),
            subtitles_en: f.subtitles_en.clone(),
            release_date: f.release_date.clone(),
            runtime: f.runtime,
            classification: f.classification.clone(),
            classification_en: f.classification_en.clone(),
            synopsis: f.synopsis.clone(),
            synopsis_en: f.synopsis_en.clone(),
            image_url: feature_image_url(f),
            image_srcset: feature_image_srcset(f),
            trailer_url: f.trailer_url.clone(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroup {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub is_by_code_enabled: bool,
    pub tickets: Vec<Ticket>,
    /// Tickets reached by a voucher or code (GET /presentations/{id}/ticket); none listed here.
    pub voucher_tickets: Vec<Ticket>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ticket {
    pub id: i64,
    /// The same as `id`, under the spec's other spelling.
    pub ticket_id: i64,
    pub ticket_group_id: i64,
    pub name: String,
    pub name_en: String,
    /// Agorot.
    pub price: i64,
    /// Agorot; shown struck out when present.
    pub old_price: Option<i64>,
    /// Agorot per ticket, on top of the price: what one such ticket is charged (its own charge,
    /// or the business's per-ticket charge). A per-order charge is the response's `serviceCharge`.
    pub service_charge: i64,
    pub price_policy_id: i64,
    pub min_quantity: i64,
    pub max_quantity: i64,
    /// A ticket that must be in the same order (e.g. a wheelchair ticket for a companion).
    pub requires_ticket_id: Option<i64>,
    pub member_only: bool,
    /// A senior citizen ticket: the buyer must give a valid Israeli ID.
    pub needs_senior_id: bool,
    /// The reference prompt's label (hotel guest: room number); empty when none.
    pub ref_prompt: String,
    pub ref_prompt_en: String,
    pub loyalty_points_price: Option<i64>,
    pub is_loyalty_points_redemption: bool,
    /// Agorot one ticket takes from the balance of the buyer's series pass (a pass ticket, priced 0
    /// in money; listed only for a series pass's `membershipLoyaltyId`); None: not a pass ticket.
    pub member_balance_price: Option<i64>,
    pub multiply_factor: i64,
    /// Sold only on a seat of this kind: `wheelchair`, `companion` (a companion seat, or a seat
    /// beside a wheelchair place of the same order), `limitedView`, `premium`, `sofa` or
    /// `attribute:<code>`; offered only for held seats whose `seatKinds` name it. None: any seat.
    pub seat_kind: Option<String>,
    pub currency: String,
    /// The code that reached this ticket (`GET /presentations/{id}/ticket` only), as printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// Agorot left on the code's voucher (`GET /presentations/{id}/ticket` only, vouchers with a balance).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balance: Option<i64>,
}

impl From<&kupa_app::model::Ticket> for Ticket {
    fn from(t: &kupa_app::model::Ticket) -> Ticket {
        Ticket {
            id: t.id,
            ticket_id: t.id,
            ticket_group_id: t.ticket_group_id,
            name: t.name.clone(),
            name_en: t.name_en.clone(),
            price: t.price.minor(),
            old_price: t.old_price.map(Money::minor),
            service_charge: t.service_charge.minor(),
            price_policy_id: t.price_policy_id,
            min_quantity: t.min_quantity,
            max_quantity: t.max_quantity,
            requires_ticket_id: t.requires_ticket_id,
            member_only: t.member_only,
            needs_senior_id: t.needs_senior_id,
            ref_prompt: t.ref_prompt.clone(),
            ref_prompt_en: t.ref_prompt_en.clone(),
            loyalty_points_price: t.loyalty_points_price,
            is_loyalty_points_redemption: t.loyalty_points_price.is_some(),
            member_balance_price: t.member_balance_price.map(Money::minor),
            multiply_factor: t.multiply_factor,
            seat_kind: t.seat_kind.as_ref().map(|k| k.as_string()),
            currency: DEFAULT_CURRENCY.into(),
            code: None,
            balance: None,
        }
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ChannelQuery {
    /// Limit to what this mini-site shows.
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    /// Codes that unlock tickets or presentations; accepted, used by the order calls.
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 1000)]
    pub ticket_codes: Option<String>,
}

/// How an order's price is shown, on every screen and document: each ticket at its full price
/// (`price` + `serviceCharge`) with the service charge itemised beside it; then these lines, which
/// add up to `total`. Agorot.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PriceBreakdown {
    /// The tickets at their full prices.
    pub tickets: i64,
    /// Of which the tickets' service charges (shown beside, not added again).
    pub tickets_service_charge: i64,
    /// A per-order service charge, on a line of its own (0 when the charge is per ticket).
    pub order_service_charge: i64,
    pub products: i64,
    pub total: i64,
}

impl From<kupa_domain::pricing::PriceBreakdown> for PriceBreakdown {
    fn from(b: kupa_domain::pricing::PriceBreakdown) -> PriceBreakdown {
        PriceBreakdown {
            tickets: b.tickets.minor(),
            tickets_service_charge: b.tickets_service_charge.minor(),
            order_service_charge: b.order_service_charge.minor(),
            products: b.products.minor(),
            total: b.total.minor(),
        }
    }
}
