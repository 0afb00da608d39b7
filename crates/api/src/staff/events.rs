//! The staff figures stream (decision 0032): GET /PRES-live/events answers server-sent events
//! that tell the live monitoring screens which business days and locations of the user's
//! businesses just had a seat held, released or sold, so the calendar, a day's locations and a
//! location's halls or features re-read their figures within the 2 s of issue 16, without polling.
//!
//! It listens to the node's seat event hub (every presentation, local and relayed from the other
//! nodes) and sends at most one event per [`COALESCE`]: a sale of ten seats is one re-read, not
//! ten. The login is checked again before each event: a logged-out or disabled user's stream ends.

use kupa_domain::ids::PresentationId;
use std::collections::{BTreeSet, HashMap};
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use kupa_app::ErrorCode;
use kupa_app::staff::live::business_date;
use kupa_app::staff::{Access, Caller};
use serde::Serialize;
use tokio::sync::broadcast::error::{RecvError, TryRecvError};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{Staff, staff_cookie};
use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::session::BuyerSession;
use crate::state::AppState;

/// How long the stream gathers changes before it tells the screens (well inside the 2 s).
pub const COALESCE: Duration = Duration::from_millis(250);
const STREAM_RETRY_AFTER_SECONDS: u64 = 10;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(figure_events))
}

/// What changed, as one `figures` event tells it.
#[derive(Debug, Default, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FiguresChanged {
    /// The business days (`YYYY-MM-DD`) whose figures changed.
    pub dates: BTreeSet<String>,
    /// The locations whose figures changed.
    pub locations: BTreeSet<i64>,
    /// The presentations whose seats changed.
    pub presentation_ids: BTreeSet<i64>,
    /// Anything may have changed (events were missed): re-read everything shown.
    pub all: bool,
}

/// Where a presentation's figures count: its business, business day and location.
#[derive(Clone)]
struct Place {
    business_id: i64,
    date: String,
    location_id: i64,
}

struct Watch {
    state: AppState,
    login: String,
    caller: Caller,
    rx: tokio::sync::broadcast::Receiver<Option<PresentationId>>,
    places: HashMap<i64, Option<Place>>,
    ready: bool,
    _permit: crate::seat_event_hub::StreamPermit,
}

impl Watch {
    async fn place(&mut self, presentation: i64) -> Option<Place> {
        if let Some(known) = self.places.get(&presentation) {
            return known.clone();
        }
        let place = self
            .state
            .catalogue
            .presentation(PresentationId(presentation), &Default::default())
            .await
            .ok()
            .map(|d| Place {
                business_id: d.info.view.presentation.business_id,
                date: business_date(d.info.view.presentation.starts_at_ms).to_string(),
                location_id: d.info.view.location.id,
            });
        // A presentation does not move: remembered for the stream's life (a few hundred a day).
        self.places.insert(presentation, place.clone());
        place
    }

    /// Adds one hub message to the batch; false when the hub is gone (the node is closing).
    async fn take(
        &mut self,
        got: Result<Option<PresentationId>, RecvError>,
        batch: &mut FiguresChanged,
    ) -> bool {
        match got {
            Ok(Some(p)) => {
                let p = p.get();
                if let Some(place) = self.place(p).await
                    && self.caller.sees(place.business_id)
                {
                    batch.dates.insert(place.date);
                    batch.locations.insert(place.location_id);
                    batch.presentation_ids.insert(p);
                }
                true
            }
            Ok(None) | Err(RecvError::Lagged(_)) => {
                batch.all = true;
                true
            }
            Err(RecvError::Closed) => false,
        }
    }

    /// The next event to send, or None to end the stream.
    async fn next(&mut self) -> Option<Event> {
        if !self.ready {
            self.ready = true;
            return Some(
                Event::default()
                    .event("ready")
                    .retry(Duration::from_millis(1000))
                    .data("{}"),
            );
        }
        loop {
            let mut batch = FiguresChanged::default();
            let first = self.rx.recv().await;
            if !self.take(first, &mut batch).await {
                return None;
            }
            tokio::time::sleep(COALESCE).await;
            loop {
                let got = match self.rx.try_recv() {
                    Ok(p) => Ok(p),
                    Err(TryRecvError::Empty) => break,
                    Err(TryRecvError::Lagged(n)) => Err(RecvError::Lagged(n)),
                    Err(TryRecvError::Closed) => Err(RecvError::Closed),
                };
                if !self.take(got, &mut batch).await {
                    return None;
                }
            }
            if !batch.all && batch.presentation_ids.is_empty() {
                continue; // Only other businesses' seats changed.
            }
            // Still logged in, still allowed (a logout or a disabled account ends the stream).
            let still = self.state.staff.caller(Some(&self.login)).await.ok()?;
            still.require(Access::Attendance).ok()?;
            self.caller = still;
            let data = serde_json::to_string(&batch).expect("figures serialise");
            return Some(Event::default().event("figures").data(data));
        }
    }
}

/// Tells the live monitoring screens, as server-sent events, when the figures of a business day
/// and location of the user's businesses change. `event: ready` first (data `{}`), then
/// `event: figures` with data `{"dates":["YYYY-MM-DD"],"locations":[id],"presentationIds":[id],"all":false}`
/// at most every 250 ms while seats change (`all: true`: events were missed, re-read everything
/// shown). Managers and ushers. The stream ends when the login does.
#[utoipa::path(get, operation_id = "staffFigureEvents", path = "/PRES-live/events", tag = "pres-live",
    responses((status = 200, description = "text/event-stream; each `figures` event's data is a FiguresChanged", content_type = "text/event-stream", body = FiguresChanged),
              (status = 401, description = "loginError", body = ErrorBody),
              (status = 403, description = "forbidden: the role", body = ErrorBody),
              (status = 429, description = "tooManyRequests: this address has its cap of open streams (Retry-After)", body = ErrorBody)))]
async fn figure_events(
    State(state): State<AppState>,
    Staff(caller): Staff,
    session: BuyerSession,
    headers: HeaderMap,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    caller.require(Access::Attendance)?;
    let login = staff_cookie(&headers).ok_or_else(|| {
        ApiError::from(kupa_app::AppError::rejected(
            ErrorCode::LoginError,
            "log in as a staff user first",
        ))
    })?;
    let Some(permit) = state.seat_events.open_stream(
        session.address(),
        state.settings.max_event_streams_per_address,
    ) else {
        return Err(ApiError::retry_later(
            ErrorCode::TooManyRequests,
            "too many event streams from this address; close one or try again later",
            STREAM_RETRY_AFTER_SECONDS,
        ));
    };
    let watch = Watch {
        rx: state.seat_events.subscribe_all(),
        state,
        login,
        caller,
        places: HashMap::new(),
        ready: false,
        _permit: permit,
    };
    let stream =
        futures_util::stream::unfold(
            watch,
            |mut w| async move { w.next().await.map(|e| (Ok(e), w)) },
        );
    Ok(Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("ping"),
    ))
}
