//! The HTTP face of Kupa: axum routers per spec area under /api, the web app outside it.
//! Handlers parse input into domain types, call a use case and shape the answer; no rules, no SQL.
//! A payment provider's own pages (the test gateway's /pay/...) are not here: the wiring merges
//! them beside [`router`] and wraps both in [`with_site_layers`].

mod bounds;
mod buyer_session;
mod captcha_call;
mod cart;
mod catalogue;
mod client_address;
mod client_errors;
mod contact_change;
mod customer;
mod customer_area;
mod dev_outbox;
mod dto;
pub mod edge;
mod enroll;
pub mod error;
mod events;
mod extract;
mod holds;
mod logins;
mod marketing;
mod membership_seats;
mod memberships;
mod mini_site;
mod mini_site_validate;
mod payment;
mod posters;
pub mod rate_limit;
mod request_id;
mod reservation_cancel;
mod reservation_modify;
mod reservations;
mod saved_cards;
pub mod seat_event_hub;
mod seat_status;
mod seats;
pub mod session;
mod session_key;
pub mod staff;
pub mod state;
mod test_mode;
mod tickets;
pub mod vod;
mod vouchers;
mod waivers;
mod web;
pub mod wording;

use axum::Router;
use axum::routing::get;
use kupa_app::ErrorCode;
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;

pub use state::{ApiSettings, AppState, MiniSiteKey, RoutePaths, Services};

/// The answers of the calls, as a client written in Rust reads them (the API tests' typed
/// client): the same types the handlers serialise, so a renamed field breaks the tests' build
/// instead of passing unnoticed; the web app reads the OpenAPI document instead.
pub mod wire {
    pub use crate::cart::{
        CartResponse, CommitResponse, PaymentFormResponse, PricedCartDto, PricedProduct,
        PricedTicket, PricedVoucher,
    };
    pub use crate::catalogue::{
        PresentationListResponse, PresentationResponse, PresentationsByDateResponse,
        TicketGroupsResponse,
    };
    pub use crate::dto::{
        Presentation, PriceBreakdown, Product, SeatBlockReason, SeatShort, SeatStatusShort,
        SeatplanV2, Section, SectionStatus, ServiceCharge, Ticket, TicketGroup,
    };
    pub use crate::error::{ErrorBody, ErrorDetail};
    pub use crate::mini_site::{MiniSiteDto, MiniSiteResponse};
    pub use crate::payment::PaymentStatusResponse;
    pub use crate::reservation_modify::{ModifiedTicket, ModifyResponse};
    pub use crate::reservations::{
        Reservation, ReservationResponse, ReservedProduct, ReservedSeat,
    };
    pub use crate::seat_status::{
        CompactSeatChange, SeatsStatusCompactResponse, SeatsStatusV2Response,
    };
    pub use crate::seats::{
        BestAvailableResponse, BestMatchDto, CheckoutResponse, LockResponse, LockedSeat,
        MyHoldsResponse, SeatplanV2Response, UnlockResponse,
    };
    pub use crate::tickets::{TicketByCodeResponse, TicketCodeInfo};
}

use crate::error::ApiError;

fn api_router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .merge(catalogue::router())
        .merge(posters::router())
        .merge(memberships::router())
        .merge(enroll::router())
        .merge(membership_seats::router())
        .merge(mini_site::router())
        .merge(mini_site_validate::router())
        .merge(seats::router())
        .merge(seat_status::router())
        .merge(events::router())
        .merge(cart::router())
        .merge(reservations::router())
        .merge(reservation_cancel::router())
        .merge(holds::router())
        .merge(reservation_modify::router())
        .merge(customer::router())
        .merge(customer_area::router())
        .merge(contact_change::router())
        .merge(logins::router())
        .merge(saved_cards::router())
        .merge(tickets::router())
        .merge(payment::router())
        .merge(staff::router())
        .merge(vouchers::router())
        .merge(waivers::router())
        .merge(marketing::router())
        .merge(client_errors::router())
        .merge(vod::router())
}

/// The OpenAPI document of the public API (paths relative to /api).
pub fn openapi() -> OpenApi {
    let (_, mut doc) = api_router().split_for_parts();
    doc.info.title = "Kupa API".into();
    doc.info.version = env!("CARGO_PKG_VERSION").into();
    doc.info.description = Some("Cinema and event ticketing. Money is integer agorot; times are UTC (RFC 3339). See docs/api.md.".into());
    doc.info.license = None;
    doc.info.contact = None;
    doc.servers = Some(vec![utoipa::openapi::Server::new("/api")]);
    allow_extra_properties(&mut doc, "SiteConfig");
    bounds::describe_captcha(&mut doc);
    doc
}

/// `SiteConfig` refuses unknown options (serde's deny_unknown_fields, which utoipa turns into
/// additionalProperties: false), but GET /config flattens it beside other fields (allOf), where
/// that would refuse the response's own fields. Catalogue files stay strict through serde.
fn allow_extra_properties(doc: &mut OpenApi, schema: &str) {
    use utoipa::openapi::{RefOr, schema::Schema};
    if let Some(RefOr::T(Schema::Object(object))) = doc
        .components
        .as_mut()
        .and_then(|c| c.schemas.get_mut(schema))
    {
        object.additional_properties = None;
    }
}

pub(crate) async fn api_not_found() -> ApiError {
    ApiError::new(ErrorCode::NotFound, "No such API call.")
}

/// The document; in test mode with the captcha pinned to the test token (decision 0017).
async fn openapi_json(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> axum::Json<serde_json::Value> {
    let mut doc = serde_json::to_value(openapi()).expect("the document serialises");
    if state.settings.test_mode {
        bounds::pin_test_captcha(&mut doc, kupa_app::ports::CAPTCHA_TEST_TOKEN);
    }
    axum::Json(doc)
}

#[derive(serde::Serialize)]
struct Health {
    status: &'static str,
}

async fn health(
    axum::extract::State(state): axum::extract::State<AppState>,
) -> Result<axum::Json<Health>, ApiError> {
    state.catalogue.is_catalogue_empty().await?;
    Ok(axum::Json(Health { status: "ok" }))
}

/// Kupa's own HTTP: /api, the test mode's pages and the web app (the fallback), without the
/// layers; [`with_site_layers`] adds them once a provider's pages are merged beside.
pub fn router(state: AppState) -> Router {
    let (api, _) = api_router().split_for_parts();
    let mut api = api
        .route("/openapi.json", get(openapi_json))
        .route("/health", get(health));
    if state.settings.test_mode {
        api = api.merge(test_mode::router());
        api = api.merge(dev_outbox::test_router());
    }
    let api = api
        .fallback(|| async { api_not_found().await })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                ErrorCode::MethodNotAllowed,
                "This call does not take that method.",
            )
        });
    Router::new()
        .nest("/api", api)
        .merge(dev_outbox::pages(state.settings.test_mode))
        .fallback(web::serve)
        .with_state(state)
}

/// The layers every request of the site passes, Kupa's own routes and a payment provider's
/// pages alike: the request id, the hardening headers, gzip, the body limit, the buyer session
/// (`session::BuyerSession`), the limits.
pub fn with_site_layers(site: Router, state: AppState) -> Router {
    let https = edge::Https {
        public_url_is_https: state.settings.public_url.starts_with("https://"),
        trust_forwarded: state.settings.trust_forwarded_for,
        csp: axum::http::HeaderValue::from_str(&edge::shop_csp(
            state
                .settings
                .captcha_site
                .as_ref()
                .filter(|_| !state.settings.test_mode)
                .map(|c| c.mode),
            state.settings.payment_page_origin.as_deref(),
        ))
        .expect("the policy is plain text"),
    };
    site
        // Inside the session layer: the captcha provider is told the session's address.
        .layer(axum::middleware::from_fn(captcha_call::middleware))
        // Inside the session layer: the limits key on the buyer session.
        .layer(axum::middleware::from_fn_with_state(
            rate_limit::Gate {
                limiter: state.rate_limiter.clone(),
            },
            rate_limit::middleware,
        ))
        .layer(axum::middleware::from_fn_with_state(
            session::SessionGate {
                key: state.settings.session_key.clone(),
                trust_forwarded_for: state.settings.trust_forwarded_for,
                public_origin: session::origin_of(&state.settings.public_url),
            },
            session::middleware,
        ))
        // Every body extractor stops reading past the limit (413 payloadTooLarge, in our shape
        // also where axum's own extractor wrote text).
        .layer(axum::extract::DefaultBodyLimit::max(
            state.settings.max_body_bytes,
        ))
        .layer(axum::middleware::from_fn_with_state(
            state.settings.max_body_bytes,
            edge::body_limit,
        ))
        // Pages, scripts and JSON go out gzipped to browsers that ask (the order page's script
        // is about 160 KB gzipped instead of 520 KB; `make bench` measures it).
        // Never the film: its byte ranges must arrive as they are (decision 0053).
        .layer(
            tower_http::compression::CompressionLayer::new()
                .gzip(true)
                .compress_when({
                    use tower_http::compression::predicate::{
                        DefaultPredicate, NotForContentType, Predicate,
                    };
                    DefaultPredicate::new().and(NotForContentType::const_new("video/"))
                }),
        )
        .layer(axum::middleware::from_fn_with_state(
            https,
            edge::security_headers,
        ))
        .layer(axum::middleware::from_fn(request_id::middleware))
}
