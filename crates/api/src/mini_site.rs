//! A mini-site (spec sections 1, 3 and 7 `GET /mini-site/{url}`; issue 19 item 1, decision 0050):
//! a promotional page of part of the programme (a festival, the children's films) with its own
//! title, banner and colours. It sells through the normal order: every call of the order takes
//! `miniSiteUrl` and answers only for what the mini-site shows, and the order is the mini-site's.

use axum::extract::State;
use kupa_app::booking::BestAvailableQuery;
use kupa_app::catalogue::{Channel, PresentationFilter};
use kupa_app::error::{AppError, ErrorCode};
use kupa_app::model::MiniSite;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiResult, ErrorBody};
use crate::extract::Path;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(get_mini_site))
}

/// A mini-site's colours, each `#rrggbb`, readable together (the catalogue loader checks it).
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct MiniSiteColorsDto {
    /// Buttons (with white text), headings and links.
    pub primary: String,
    pub background: String,
    pub text: String,
}

/// The spec's Mini-site (`URL`, `PresentationList`) with Kupa's own look: title, line, banner,
/// colours.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MiniSiteDto {
    /// What an order through it carries as `referralMiniSiteId`.
    pub id: i64,
    #[serde(rename = "URL")]
    pub url: String,
    pub title: String,
    pub title_en: String,
    pub description: String,
    pub description_en: String,
    /// The banner: a path on this site; null: none.
    pub image_url: Option<String>,
    /// Null: the site's own colours.
    pub colors: Option<MiniSiteColorsDto>,
    /// Its upcoming presentations (sale not ended), in start order.
    #[serde(rename = "PresentationList")]
    pub presentation_list: Vec<dto::Presentation>,
}

impl MiniSiteDto {
    fn new(m: MiniSite, presentation_list: Vec<dto::Presentation>) -> Self {
        MiniSiteDto {
            id: m.id,
            url: m.url,
            title: m.title,
            title_en: m.title_en,
            description: m.description,
            description_en: m.description_en,
            image_url: m.image_url,
            colors: m.colors.map(|c| MiniSiteColorsDto {
                primary: c.primary,
                background: c.background,
                text: c.text,
            }),
            presentation_list,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MiniSiteResponse {
    pub mini_site: MiniSiteDto,
    pub server_time: String,
}

/// A mini-site and its presentations.
#[utoipa::path(get, operation_id = "miniSite", path = "/mini-site/{url}", tag = "catalogue",
    params(("url" = String, Path, max_length = 200, description = "The mini-site's url word")),
    responses((status = 200, description = "The mini-site", body = MiniSiteResponse),
              (status = 404, description = "notFound: no such mini-site", body = ErrorBody)))]
async fn get_mini_site(
    State(state): State<AppState>,
    Path(url): Path<String>,
) -> ApiResult<axum::Json<MiniSiteResponse>> {
    let channel = state.catalogue.channel(Some(url.as_str())).await?;
    let list = state
        .catalogue
        .upcoming(&PresentationFilter::default(), &channel)
        .await?;
    let site = channel
        .mini_site
        .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such mini-site"))?;
    Ok(axum::Json(MiniSiteResponse {
        mini_site: MiniSiteDto::new(
            site,
            list.iter().map(dto::Presentation::from_info).collect(),
        ),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}

/// Best available through a mini-site searches only what it shows: a presentation it does not
/// show is `noEvent`, as is a feature it does not show; its complex bounds a search by feature.
/// The channel, whose sales switches then judge the search (decision 0070).
pub(crate) async fn scope_best_available(
    state: &AppState,
    mini_site_url: Option<&str>,
    query: &mut BestAvailableQuery,
) -> ApiResult<Channel> {
    let channel: Channel = state.catalogue.channel(mini_site_url).await?;
    let Some(site) = &channel.mini_site else {
        return Ok(channel);
    };
    if let Some(id) = query.presentation_id {
        state.catalogue.presentation(id, &channel).await?;
        return Ok(channel);
    }
    let not_shown = || AppError::rejected(ErrorCode::NoEvent, "the mini-site does not show it");
    if let Some(f) = query.feature_id
        && !site.feature_ids.is_empty()
        && !site.feature_ids.contains(&f)
    {
        return Err(not_shown().into());
    }
    if let Some(l) = site.location_id {
        match query.location_id {
            Some(asked) if asked != l => return Err(not_shown().into()),
            _ => query.location_id = Some(l),
        }
    }
    Ok(channel)
}
