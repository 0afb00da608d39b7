//! Video on demand (issue 19 item 2, decision 0053): a purchase's item, the play session that
//! spends one playback, and the film itself in byte ranges behind the session's signed link.

use axum::extract::{Path, State};
use axum::http::header::{
    ACCEPT_RANGES, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_RANGE, CONTENT_TYPE, RANGE,
};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use kupa_app::ErrorCode;
use kupa_app::links::LinkProof;
use kupa_app::vod::{VodItem as Item, Watcher};
use kupa_domain::time::ms_to_rfc3339;
use kupa_domain::vod::{VodOffer, byte_range};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Query;
use crate::session::BuyerSession;
use crate::state::AppState;

/// The demo film every video-on-demand presentation plays (a few seconds of VP9 and Opus, made
/// once with ffmpeg; decision 0053). A chain's own films would come from its media store.
pub const DEMO_FILM: &[u8] = include_bytes!("../../../demo/media/demo-film.webm");

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(vod_item))
        .routes(routes!(open_play_session))
        .routes(routes!(stream))
}

/// A video-on-demand purchase (spec section 3 "Video on demand item").
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VodItem {
    #[serde(rename = "ReservationIdentifier")]
    pub reservation_identifier: String,
    pub reservation_number: String,
    pub presentation: dto::Presentation,
    /// rent or buy (venue types 101 and 103 rent, 102 and 104 buy).
    pub offer: String,
    /// expired, future or available.
    pub status: String,
    /// When it may be watched from, UTC.
    pub availability_start: String,
    /// When it may be watched until (exclusive), UTC; null: no end.
    pub availability_end: Option<String>,
    /// Play sessions opened.
    pub playback_count: i64,
    /// Play sessions left.
    pub playback_balance: i64,
    /// When the last play session opened; null before the first.
    pub last_playback: Option<String>,
    pub purchase_date: Option<String>,
}

impl VodItem {
    pub fn from_item(i: &Item) -> VodItem {
        VodItem {
            reservation_identifier: i.order.id.to_string(),
            reservation_number: i.order.reservation_number.clone(),
            presentation: dto::Presentation::from_info(&i.info),
            offer: match i.offer {
                VodOffer::Rent => "rent",
                VodOffer::Buy => "buy",
            }
            .into(),
            status: i.status.as_str().into(),
            availability_start: ms_to_rfc3339(i.start_ms),
            availability_end: i.end_ms.map(ms_to_rfc3339),
            playback_count: i.playback_count,
            playback_balance: i.playback_balance,
            last_playback: i.last_playback_ms.map(ms_to_rfc3339),
            purchase_date: i.purchased_at_ms.map(ms_to_rfc3339),
        }
    }
}

fn watcher(session: &BuyerSession) -> Watcher<'_> {
    Watcher {
        session: session.id(),
        login: session.login(),
    }
}

/// A video-on-demand purchase, for its buyer: the session that bought it or the customer logged
/// in who owns it.
#[utoipa::path(get, operation_id = "vodItem", path = "/vod/{reservationId}", tag = "vod",
    params(("reservationId" = String, Path, description = "The reservation identifier of the purchase")),
    responses((status = 200, description = "The purchase", body = VodItem),
              (status = 404, description = "notFound: no such purchase, not a video-on-demand one, or not this buyer's", body = ErrorBody)))]
async fn vod_item(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<VodItem>> {
    let item = state.vod.purchase(&id.into(), watcher(&session)).await?;
    Ok(axum::Json(VodItem::from_item(&item)))
}

/// An opened play session: the link the player streams from.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaySessionResponse {
    /// The purchase after this session spent its playback.
    pub item: VodItem,
    /// The film's address for this session (signed; under the site's root).
    pub stream_url: String,
    /// When the link stops working, UTC.
    pub expires_at: String,
}

/// Opens a play session: spends one playback of the purchase (once per session, never per byte
/// range) and answers the session's signed stream link. For the purchase's buyer only, inside its
/// availability window.
#[utoipa::path(post, operation_id = "openPlaySession", path = "/vod/{reservationId}/play", tag = "vod",
    params(("reservationId" = String, Path, description = "The reservation identifier of the purchase")),
    responses((status = 200, description = "The play session", body = PlaySessionResponse),
              (status = 404, description = "notFound: no such purchase, or not this buyer's", body = ErrorBody),
              (status = 409, description = "ticket_sale_not_yet_started (params.availableFrom), ticketing_ended (params.availableUntil): outside the purchase's window; ticket_balance_error: no playback left", body = ErrorBody)))]
async fn open_play_session(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
) -> ApiResult<axum::Json<PlaySessionResponse>> {
    let s = state.vod.open(&id.into(), watcher(&session)).await?;
    Ok(axum::Json(PlaySessionResponse {
        stream_url: format!(
            "/api/vod/{}/stream?play={}&{}",
            s.item.order.id,
            s.play,
            s.proof.query()
        ),
        expires_at: ms_to_rfc3339(s.proof.exp.saturating_mul(1000)),
        item: VodItem::from_item(&s.item),
    }))
}

/// A play session's stream link.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct StreamQuery {
    /// The play session's number.
    pub play: i64,
    /// The link's expiry, Unix seconds.
    pub exp: i64,
    /// The link's signature, hex.
    #[param(max_length = 64)]
    pub sig: String,
}

/// The film, whole (200) or one byte range (`Range: bytes=…`, 206 with `Content-Range`), for the
/// play session's signed link and the purchase's buyer. Asking for ranges spends nothing.
#[utoipa::path(get, operation_id = "vodStream", path = "/vod/{reservationId}/stream", tag = "vod",
    params(("reservationId" = String, Path, description = "The reservation identifier of the purchase"), StreamQuery),
    responses((status = 200, description = "The whole film", content_type = "video/webm", body = Vec<u8>),
              (status = 206, description = "One byte range of the film", content_type = "video/webm", body = Vec<u8>),
              (status = 404, description = "notFound: no such purchase, or not this buyer's", body = ErrorBody),
              (status = 409, description = "ticket_sale_not_yet_started, ticketing_ended: outside the purchase's window", body = ErrorBody),
              (status = 410, description = "CUSTOMER_TOKEN_ERROR: not a good play link; CUSTOMER_TOKEN_EXPIRED: the link expired (params.expiredAt): open the film again", body = ErrorBody),
              (status = 416, description = "formValidation: a range that cannot be served (several, malformed or past the end); Content-Range: bytes */size", body = ErrorBody)))]
async fn stream(
    State(state): State<AppState>,
    session: BuyerSession,
    Path(id): Path<String>,
    Query(q): Query<StreamQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let proof = LinkProof {
        exp: q.exp,
        sig: q.sig,
    };
    state
        .vod
        .stream_access(&id.into(), q.play, &proof, watcher(&session))
        .await?;
    Ok(film_part(DEMO_FILM, headers.get(RANGE)))
}

/// The film, whole or the one range asked for.
fn film_part(film: &'static [u8], range: Option<&axum::http::HeaderValue>) -> Response {
    let len = film.len() as u64;
    let common = [
        (CONTENT_TYPE, "video/webm".to_owned()),
        (ACCEPT_RANGES, "bytes".to_owned()),
        (CACHE_CONTROL, "private, no-store".to_owned()),
    ];
    let Some(range) = range else {
        return (common, [(CONTENT_LENGTH, len.to_string())], film).into_response();
    };
    match range.to_str().ok().and_then(|r| byte_range(r, len)) {
        Some(r) => (
            StatusCode::PARTIAL_CONTENT,
            common,
            [
                (CONTENT_RANGE, format!("bytes {}-{}/{len}", r.first, r.last)),
                (CONTENT_LENGTH, (r.last - r.first + 1).to_string()),
            ],
            &film[r.first as usize..=r.last as usize],
        )
            .into_response(),
        None => {
            let mut response = ApiError {
                status: StatusCode::RANGE_NOT_SATISFIABLE,
                code: ErrorCode::FormValidation,
                message: "only one range of bytes within the film can be served".into(),
                params: Some(serde_json::json!({ "size": len })),
            }
            .into_response();
            if let Ok(v) = format!("bytes */{len}").parse() {
                response.headers_mut().insert(CONTENT_RANGE, v);
            }
            response
        }
    }
}
