//! GET /config, /integration, /seats/presentations, /presentations, /features, images.

use kupa_domain::ids::PresentationId;
use std::collections::BTreeMap;

use axum::extract::State;
use axum::response::Response;
use jiff::civil::Date;
use kupa_app::catalogue::PresentationFilter;
use kupa_app::orders::MethodOffer;
use kupa_app::site_config::SiteConfig;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto::{self, ChannelQuery};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::{Path, Query, id_list};
use crate::posters::svg_response;
use crate::state::{AppState, RoutePaths};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_config))
        .routes(routes!(get_integration))
        .routes(routes!(presentations_by_date))
        .routes(routes!(presentation_list))
        .routes(routes!(presentation_list_no_slash))
        .routes(routes!(get_presentation))
        .routes(routes!(ticket_groups))
        .routes(routes!(feature_list))
        .routes(routes!(feature_list_no_slash))
        .routes(routes!(feature_image))
        .routes(routes!(product_image))
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LocaleInfo {
    pub default: String,
    /// Locales this deployment serves; `?lang=` with any other is a 404.
    pub enabled: Vec<String>,
    /// Every locale the interface has catalogues for.
    pub supported: Vec<String>,
    pub rtl: Vec<String>,
    pub time_zone: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaptchaInfo {
    /// `off` (no provider configured), `test` (only the test token passes), or the provider
    /// whose widget the page runs: `recaptcha-v2`, `recaptcha-v3`, `turnstile`.
    pub mode: String,
    /// The token to send in test mode; null otherwise.
    pub test_token: Option<String>,
    /// The provider's public site key; null when off or in test mode.
    pub site_key: Option<String>,
}

/// A payment method the site offers (issue 20), and where.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OfferedPaymentMethod {
    /// `card`, `savedCard`, `paypal`, `blik` or `payu`.
    pub method: String,
    /// The currencies (ISO 4217) an order may be paid by this method in; absent: every currency.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currencies: Option<Vec<String>>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConfigResponse {
    #[serde(flatten)]
    pub site: SiteConfig,
    pub locale: LocaleInfo,
    pub routes: RoutePaths,
    pub redirect_allow_list: Vec<String>,
    pub captcha: CaptchaInfo,
    pub test_mode: bool,
    pub server_time: String,
    /// Tenant wording over the catalogue, per enabled locale: flat key (`whatsOn.title`) → text
    /// (decision 0054). Empty unless the deployment configures a wording file.
    pub wording: BTreeMap<String, BTreeMap<String, String>>,
    /// The payment methods the configured providers take, each in its currencies: the payment
    /// step offers a method only for an order in one of them (a method left out is refused).
    pub payment_methods: Vec<OfferedPaymentMethod>,
}

/// The site configuration: numbered params, step timers, currencies, options; plus locales and routes.
#[utoipa::path(get, operation_id = "getConfig", path = "/config", tag = "catalogue",
    responses((status = 200, description = "The site configuration", body = ConfigResponse)))]
async fn get_config(State(state): State<AppState>) -> ApiResult<axum::Json<ConfigResponse>> {
    config_body(&state).await.map(axum::Json)
}

/// GET /config's body; web.rs also writes it into the landing pages' HTML (decision 0056).
pub(crate) async fn config_body(state: &AppState) -> ApiResult<ConfigResponse> {
    let site = state.catalogue.site_config().await?;
    let s = &state.settings;
    Ok(ConfigResponse {
        site,
        locale: LocaleInfo {
            default: s.default_locale.clone(),
            enabled: s.enabled_locales.clone(),
            supported: kupa_domain::locale::SUPPORTED
                .iter()
                .map(|l| l.to_string())
                .collect(),
            rtl: kupa_domain::locale::RTL
                .iter()
                .map(|l| l.to_string())
                .collect(),
            time_zone: kupa_domain::time::ZONE.into(),
        },
        routes: s.routes.clone(),
        redirect_allow_list: s.redirect_allow_list.clone(),
        captcha: CaptchaInfo {
            mode: match (&s.captcha_site, s.test_mode) {
                (_, true) => "test",
                (Some(site), false) => site.mode,
                (None, false) => "off",
            }
            .into(),
            test_token: s
                .test_mode
                .then(|| kupa_app::ports::CAPTCHA_TEST_TOKEN.to_owned()),
            site_key: s
                .captcha_site
                .as_ref()
                .filter(|_| !s.test_mode)
                .map(|c| c.site_key.clone()),
        },
        test_mode: s.test_mode,
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
        wording: s.wording.for_locales(&s.enabled_locales),
        payment_methods: state
            .orders
            .payment_methods()
            .into_iter()
            .map(|(method, offer)| OfferedPaymentMethod {
                method: method.as_str().into(),
                currencies: match offer {
                    MethodOffer::Only(list) => Some(list.iter().map(|c| c.to_string()).collect()),
                    _ => None,
                },
            })
            .collect(),
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(non_snake_case)]
pub struct IntegrationQuery {
    /// The link's time stamp, milliseconds since the epoch.
    pub TS: i64,
    /// Where to send the buyer back to; must start with the partner's registered prefix.
    #[serde(default)]
    #[param(max_length = 2000)]
    pub ret: String,
    /// The partner's integration key.
    #[param(max_length = 200)]
    pub key: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationInfo {
    pub key: String,
    pub name: String,
    pub business_id: i64,
    pub return_url: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntegrationResponse {
    pub integration: IntegrationInfo,
    pub server_time: String,
}

/// Checks a partner's link (key, time stamp, return address).
#[utoipa::path(get, operation_id = "getIntegration", path = "/integration", tag = "catalogue", params(IntegrationQuery),
    responses((status = 200, description = "The partner the link comes from", body = IntegrationResponse),
              (status = 403, description = "integrationError", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn get_integration(
    State(state): State<AppState>,
    Query(q): Query<IntegrationQuery>,
) -> ApiResult<axum::Json<IntegrationResponse>> {
    let i = state.catalogue.integration(&q.key, q.TS, &q.ret).await?;
    Ok(axum::Json(IntegrationResponse {
        integration: IntegrationInfo {
            key: i.key,
            name: i.name,
            business_id: i.business_id,
            return_url: q.ret,
        },
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct DateQuery {
    /// A calendar day in Asia/Jerusalem, YYYY-MM-DD; default today.
    #[param(format = Date)]
    pub date: Option<String>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationsByDateResponse {
    pub date: String,
    pub presentations: Vec<dto::Presentation>,
    /// The days (YYYY-MM-DD, from today on) with a screening whose sale has not ended: the days
    /// a date strip offers. Not the same for every channel (a mini-site sees its own).
    pub sale_dates: Vec<String>,
    pub server_time: String,
}

/// Every presentation of one local day, in start order.
#[utoipa::path(get, operation_id = "presentationsByDate", path = "/seats/presentations", tag = "catalogue", params(DateQuery),
    responses((status = 200, description = "The day's presentations", body = PresentationsByDateResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn presentations_by_date(
    State(state): State<AppState>,
    Query(q): Query<DateQuery>,
) -> ApiResult<axum::Json<PresentationsByDateResponse>> {
    presentations_by_date_body(&state, q.date.as_deref(), q.mini_site_url.as_deref())
        .await
        .map(axum::Json)
}

/// GET /seats/presentations's body (web.rs writes the index's into its HTML, decision 0056).
pub(crate) async fn presentations_by_date_body(
    state: &AppState,
    date: Option<&str>,
    mini_site_url: Option<&str>,
) -> ApiResult<PresentationsByDateResponse> {
    let day = match date.filter(|d| !d.is_empty()) {
        Some(d) => d
            .parse::<Date>()
            .map_err(|_| ApiError::validation("date must be YYYY-MM-DD"))?,
        None => kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(
            state.catalogue.now_ms(),
        )),
    };
    let channel = state.catalogue.channel(mini_site_url).await?;
    let list = state.catalogue.presentations_on(day, &channel).await?;
    let sale_dates = state.catalogue.sale_dates(&channel).await?;
    Ok(PresentationsByDateResponse {
        date: day.to_string(),
        presentations: list.iter().map(dto::Presentation::from_info).collect(),
        sale_dates: sale_dates.iter().map(ToString::to_string).collect(),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    /// Comma-separated feature ids; empty for all.
    #[param(
        max_length = 1000,
        pattern = r"^ *([0-9]{1,18} *(, *[0-9]{1,18} *)*)?$"
    )]
    pub feature_ids: Option<String>,
    pub location_id: Option<i64>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 1000)]
    pub ticket_codes: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationListResponse {
    pub presentations: Vec<dto::Presentation>,
    pub has_reserved: bool,
    #[serde(rename = "hasGA")]
    pub has_ga: bool,
    pub server_time: String,
}

async fn list_presentations(
    state: AppState,
    q: ListQuery,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    let filter = PresentationFilter {
        feature_ids: id_list("featureIds", q.feature_ids.as_deref())?,
        location_id: q.location_id,
    };
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let list = state.catalogue.upcoming(&filter, &channel).await?;
    let presentations: Vec<dto::Presentation> =
        list.iter().map(dto::Presentation::from_info).collect();
    Ok(axum::Json(PresentationListResponse {
        has_reserved: presentations.iter().any(|p| p.has_reserved_section),
        has_ga: presentations.iter().any(|p| p.has_ga_section),
        presentations,
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}

/// Upcoming presentations (sales not ended), optionally of some features at one complex.
#[utoipa::path(get, operation_id = "presentationList", path = "/presentations/", tag = "catalogue", params(ListQuery),
    responses((status = 200, description = "Upcoming presentations", body = PresentationListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn presentation_list(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    list_presentations(state, q).await
}

/// The same as `/presentations/`, without the trailing slash.
#[utoipa::path(get, operation_id = "presentationListNoSlash", path = "/presentations", tag = "catalogue", params(ListQuery),
    responses((status = 200, description = "Upcoming presentations", body = PresentationListResponse),
              (status = 404, description = "notFound (unknown mini-site)", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn presentation_list_no_slash(
    State(state): State<AppState>,
    Query(q): Query<ListQuery>,
) -> ApiResult<axum::Json<PresentationListResponse>> {
    list_presentations(state, q).await
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresentationResponse {
    pub presentation: dto::Presentation,
    pub server_time: String,
    /// Always null on success (errors come as an error body with a 4xx status).
    pub error: Option<String>,
}

/// One presentation with its products and service charge.
#[utoipa::path(get, operation_id = "getPresentation", path = "/presentations/{id}", tag = "catalogue",
    params(("id" = i64, Path, description = "Presentation id"), ChannelQuery),
    responses((status = 200, description = "The presentation", body = PresentationResponse),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn get_presentation(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<ChannelQuery>,
) -> ApiResult<axum::Json<PresentationResponse>> {
    presentation_body(&state, id, q.mini_site_url.as_deref())
        .await
        .map(axum::Json)
}

/// GET /presentations/{id}'s body (web.rs writes an order page's into its HTML, decision 0056).
pub(crate) async fn presentation_body(
    state: &AppState,
    id: i64,
    mini_site_url: Option<&str>,
) -> ApiResult<PresentationResponse> {
    let channel = state.catalogue.channel(mini_site_url).await?;
    let detail = state
        .catalogue
        .presentation(PresentationId(id), &channel)
        .await?;
    Ok(PresentationResponse {
        presentation: dto::Presentation::from_detail(&detail),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
        error: None,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupsQuery {
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
    /// A member's loyalty id (the member number on the card): the member is checked, and
    /// member-only tickets are listed too.
    #[param(max_length = 64)]
    pub membership_loyalty_id: Option<String>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 64)]
    pub integration_id: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketGroupsResponse {
    pub ticket_groups: Vec<dto::TicketGroup>,
    pub service_charge: Option<dto::ServiceCharge>,
}

/// The ticket groups (and their tickets) of a presentation's sections.
#[utoipa::path(get, operation_id = "ticketGroups", path = "/presentations/{id}/ticketGroups", tag = "catalogue",
    params(("id" = i64, Path, description = "Presentation id"), TicketGroupsQuery),
    responses((status = 200, description = "Ticket groups", body = TicketGroupsResponse),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 409, description = "memberExpired, memberNotStarted, memberNoneAvailable", body = ErrorBody),
              (status = 422, description = "memberNotFound, formValidation", body = ErrorBody)))]
async fn ticket_groups(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(q): Query<TicketGroupsQuery>,
) -> ApiResult<axum::Json<TicketGroupsResponse>> {
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let (groups, charge) = state
        .tickets
        .ticket_groups(
            PresentationId(id),
            &channel,
            q.membership_loyalty_id.as_deref(),
        )
        .await?;
    Ok(axum::Json(TicketGroupsResponse {
        ticket_groups: groups
            .iter()
            .map(|(g, ts)| dto::TicketGroup {
                id: g.id,
                name: g.name.clone(),
                name_en: g.name_en.clone(),
                is_by_code_enabled: g.is_by_code_enabled,
                tickets: ts.iter().map(dto::Ticket::from).collect(),
                voucher_tickets: Vec::new(),
            })
            .collect(),
        service_charge: charge.as_ref().map(dto::ServiceCharge::from),
    }))
}

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

async fn list_features(
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
async fn feature_list(
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
async fn feature_list_no_slash(
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
async fn feature_image(
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
async fn product_image(
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
