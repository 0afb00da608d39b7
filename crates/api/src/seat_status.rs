//! The seat status calls: GET /seats/seats-statusV2 (the spec's shape), its compact and delta
//! form GET /seats/seats-statusV2/compact, and the older GET /seats/seats-status.
//!
//! The V2 and compact answers carry a weak `ETag` made of the presentation's status version
//! (decision 0060) and what is the viewer's own in the answer (their holds, the seats blocked
//! for them, the box office's seats); `If-None-Match` with it answers 304 without a body.

use axum::extract::State;
use axum::http::header::{CACHE_CONTROL, ETAG, IF_NONE_MATCH};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use kupa_app::catalogue::{SeatStatus, StatusVersion};
use kupa_domain::catalogue::SeatState;
use kupa_domain::ids::PresentationId;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::dto;
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Query;
use crate::session::BuyerSession;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(seats_status_v2))
        .routes(routes!(seats_status_compact))
        .routes(routes!(seats_status))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatusV2Query {
    pub presentation_id: i64,
    /// Accepted for the spec's client; the server knows the venue type.
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub venue_type_id: Option<i64>,
    /// Accepted for the spec's client; the server knows the seating.
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 10)]
    pub is_reserved: Option<String>,
    /// Only this section.
    pub section_id: Option<i64>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatsStatusV2Response {
    pub presentation_id: i64,
    pub sections: Vec<dto::SectionStatus>,
    pub seats: Vec<dto::SeatStatusShort>,
    pub server_time: String,
}

/// The weak entity tag of one viewer's answer: the status version, the form, and what in it is
/// the viewer's own.
fn entity_tag(form: &str, section_id: Option<i64>, status: &SeatStatus) -> String {
    // FNV-1a: stable across processes and cheap; the version's epoch already differs per node.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |v: i64| {
        for b in v.to_le_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(section_id.unwrap_or(-1));
    for (i, set) in [&status.mine, &status.blocked, &status.box_office]
        .into_iter()
        .enumerate()
    {
        eat(-2 - i as i64);
        for a in set {
            eat(a.section_id);
            eat(a.x);
            eat(a.y);
        }
    }
    format!("W/\"{form}-{}-{h:016x}\"", status.version.token())
}

/// The request's `If-None-Match` names `tag` (weak comparison; `*` matches any).
fn not_modified(headers: &HeaderMap, tag: &str) -> bool {
    let strip = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    let ours = strip(tag);
    headers
        .get_all(IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || strip(t) == ours)
}

/// The answer with its tag, or 304 when the client has it already.
fn tagged(headers: &HeaderMap, tag: String, body: impl FnOnce() -> Response) -> Response {
    let cache = (CACHE_CONTROL, "private, no-cache".to_owned());
    if not_modified(headers, &tag) {
        return (StatusCode::NOT_MODIFIED, [(ETAG, tag), cache]).into_response();
    }
    let mut r = body();
    if let Ok(v) = tag.parse() {
        r.headers_mut().insert(ETAG, v);
    }
    if let Ok(v) = cache.1.parse() {
        r.headers_mut().insert(CACHE_CONTROL, v);
    }
    r
}

/// The answers a tagged seat status gives besides its own: unchanged, or no such screening.
#[derive(utoipa::IntoResponses)]
#[allow(dead_code)]
pub enum TaggedStatusResponses {
    #[response(
        status = 304,
        description = "Unchanged since the ETag sent in If-None-Match"
    )]
    NotModified,
    #[response(status = 404, description = "noEvent")]
    NoEvent(ErrorBody),
}

/// Each seat's state as this buyer sees it, and each section's remaining places. Tagged with an
/// `ETag`; `If-None-Match` with it answers 304 while nothing in the answer changed.
#[utoipa::path(get, operation_id = "seatsStatusV2", path = "/seats/seats-statusV2", tag = "seats", params(StatusV2Query),
    responses((status = 200, description = "Seat states", body = SeatsStatusV2Response),
              TaggedStatusResponses,
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seats_status_v2(
    State(state): State<AppState>,
    session: BuyerSession,
    headers: HeaderMap,
    Query(q): Query<StatusV2Query>,
) -> ApiResult<Response> {
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let status = state
        .catalogue
        .seat_status(
            PresentationId(q.presentation_id),
            q.section_id,
            Some(session.id()),
            &channel,
        )
        .await?;
    let tag = entity_tag("v2", q.section_id, &status);
    Ok(tagged(&headers, tag, || {
        axum::Json(SeatsStatusV2Response {
            presentation_id: status.presentation_id.get(),
            sections: dto::section_statuses(&status),
            seats: dto::seat_statuses_short(&status),
            server_time: ms_to_rfc3339(state.catalogue.now_ms()),
        })
        .into_response()
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatusCompactQuery {
    pub presentation_id: i64,
    /// The `version` of an earlier answer: the answer then lists only the seats changed since
    /// (`full` false), or everything when this node cannot tell.
    #[param(max_length = 40)]
    pub since: Option<String>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

/// A seat changed since the version asked about: its index in the plan's seats and its letter.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct CompactSeatChange {
    /// The seat's index in the seat plan's `seats` (POST /seats/seatplanV2), from 0.
    pub i: usize,
    /// a (available), m (held by me), o (held by another), s (sold).
    pub s: String,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatsStatusCompactResponse {
    pub presentation_id: i64,
    /// This answer's version, to send back as `since` (opaque; valid on the node that made it).
    pub version: String,
    /// True: `seats` has every seat. False: `changes` has the seats changed since `since`, and
    /// every other seat is as it was.
    pub full: bool,
    /// One letter per seat, in the order of the seat plan's `seats`: a (available), m (held by
    /// me), o (held by another), s (sold).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changes: Option<Vec<CompactSeatChange>>,
    /// Indexes of the free seats blocked by the seating policy (taking one would leave a single
    /// empty seat beside the buyer's), always in full.
    pub blocked: Vec<usize>,
    /// Indexes of the seats sold at the box office only, always in full.
    pub box_office: Vec<usize>,
    pub sections: Vec<dto::SectionStatus>,
    pub server_time: String,
}

fn letter(s: SeatState) -> char {
    match s {
        SeatState::Available => 'a',
        SeatState::HeldByMe => 'm',
        SeatState::HeldByOther => 'o',
        SeatState::Sold => 's',
    }
}

fn compact(status: &SeatStatus, now: String) -> SeatsStatusCompactResponse {
    let key = |i: usize| {
        let (seat, _) = &status.seats[i];
        kupa_domain::seating::SeatAddress::new(seat.section_id, seat.x, seat.y)
    };
    let indexes = |set: &std::collections::BTreeSet<kupa_domain::seating::SeatAddress>,
                   not: Option<&std::collections::BTreeSet<_>>| {
        (0..status.seats.len())
            .filter(|&i| set.contains(&key(i)) && not.is_none_or(|n| !n.contains(&key(i))))
            .collect::<Vec<usize>>()
    };
    let (seats, changes) = match &status.changed {
        None => (
            Some(status.seats.iter().map(|(_, st)| letter(*st)).collect()),
            None,
        ),
        Some(changed) => {
            let changed: std::collections::HashSet<_> = changed.iter().collect();
            let changes = (0..status.seats.len())
                .filter(|&i| changed.contains(&key(i)))
                .map(|i| CompactSeatChange {
                    i,
                    s: letter(status.seats[i].1).to_string(),
                })
                .collect();
            (None, Some(changes))
        }
    };
    SeatsStatusCompactResponse {
        presentation_id: status.presentation_id.get(),
        version: status.version.token(),
        full: status.changed.is_none(),
        seats,
        changes,
        blocked: indexes(&status.blocked, Some(&status.box_office)),
        box_office: indexes(&status.box_office, None),
        sections: dto::section_statuses(status),
        server_time: now,
    }
}

/// The seat status in the compact form (one letter per seat, decision 0060), or with `since`
/// only the seats changed after that version. Tagged with an `ETag` like the V2 form.
#[utoipa::path(get, operation_id = "seatsStatusCompact", path = "/seats/seats-statusV2/compact", tag = "seats", params(StatusCompactQuery),
    responses((status = 200, description = "Seat states, in full or changed since `since`", body = SeatsStatusCompactResponse),
              TaggedStatusResponses,
              (status = 422, description = "formValidation (a malformed `since`)", body = ErrorBody)))]
async fn seats_status_compact(
    State(state): State<AppState>,
    session: BuyerSession,
    headers: HeaderMap,
    Query(q): Query<StatusCompactQuery>,
) -> ApiResult<Response> {
    let since = match q.since.as_deref().filter(|s| !s.is_empty()) {
        None => None,
        Some(s) => Some(StatusVersion::parse(s).ok_or_else(|| {
            ApiError::validation("since must be the version of an earlier answer")
        })?),
    };
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let status = state
        .catalogue
        .seat_status_since(
            PresentationId(q.presentation_id),
            None,
            Some(session.id()),
            &channel,
            since,
        )
        .await?;
    let tag = entity_tag("c", None, &status);
    Ok(tagged(&headers, tag, || {
        axum::Json(compact(&status, ms_to_rfc3339(state.catalogue.now_ms()))).into_response()
    }))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct StatusQuery {
    pub presentation_id: i64,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    pub venue_type_id: Option<i64>,
    #[allow(dead_code)] // part of the spec's call; parsed so a malformed value is refused
    #[param(max_length = 10)]
    pub is_reserved: Option<String>,
    #[param(max_length = 2000)]
    pub recaptcha_token: Option<String>,
    #[param(max_length = 200)]
    pub mini_site_url: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatsStatusResponse {
    pub sections: Vec<dto::SectionStatus>,
    pub seats: Vec<dto::SeatStatusLong>,
    pub server_time: String,
}

/// The older seat-status call, long form, with a captcha token.
#[utoipa::path(get, operation_id = "seatsStatus", path = "/seats/seats-status", tag = "seats", params(StatusQuery),
    responses((status = 200, description = "Seat states", body = SeatsStatusResponse),
              (status = 400, description = "recaptcha", body = ErrorBody),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody)))]
async fn seats_status(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<StatusQuery>,
) -> ApiResult<axum::Json<SeatsStatusResponse>> {
    let channel = state.catalogue.channel(q.mini_site_url.as_deref()).await?;
    let status = state
        .catalogue
        .buyer_seat_status(
            q.recaptcha_token.as_deref().unwrap_or_default(),
            PresentationId(q.presentation_id),
            session.id(),
            &channel,
        )
        .await?;
    Ok(axum::Json(SeatsStatusResponse {
        sections: dto::section_statuses(&status),
        seats: dto::seat_statuses_long(&status),
        server_time: ms_to_rfc3339(state.catalogue.now_ms()),
    }))
}
