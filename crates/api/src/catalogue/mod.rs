//! GET /config, /integration, /seats/presentations, /presentations, /features, images.

mod features;
mod presentations;

use std::collections::BTreeMap;

use axum::extract::State;
use kupa_app::orders::MethodOffer;
use kupa_app::site_config::SiteConfig;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiResult, ErrorBody};
use crate::extract::Query;
use crate::state::{AppState, RoutePaths};

pub(crate) use features::features_body;
pub use presentations::{
    PresentationListResponse, PresentationResponse, PresentationsByDateResponse,
    TicketGroupsResponse,
};
pub(crate) use presentations::{presentation_body, presentations_by_date_body};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_config))
        .routes(routes!(get_integration))
        .routes(routes!(presentations::presentations_by_date))
        .routes(routes!(presentations::presentation_list))
        .routes(routes!(presentations::presentation_list_no_slash))
        .routes(routes!(presentations::get_presentation))
        .routes(routes!(presentations::ticket_groups))
        .routes(routes!(features::feature_list))
        .routes(routes!(features::feature_list_no_slash))
        .routes(routes!(features::feature_image))
        .routes(routes!(features::product_image))
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
