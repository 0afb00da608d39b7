//! Live seat events (decision 0010): GET /seats/events?presentationId= answers a server-sent event
//! stream of every change of seat state on that presentation, from the node's
//! [`SeatEventHub`](crate::seat_event_hub::SeatEventHub).

use kupa_domain::ids::PresentationId;
use std::convert::Infallible;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::Stream;
use serde::Deserialize;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ApiResult, ErrorBody};
use crate::extract::Query;
use crate::session::BuyerSession;
use kupa_app::ErrorCode;

/// How long a client refused for too many streams is told to wait.
const STREAM_RETRY_AFTER_SECONDS: u64 = 10;
use crate::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(seat_events))
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct EventsQuery {
    pub presentation_id: i64,
}

/// Live seat changes of a presentation as server-sent events. `event: ready` first (data
/// `{"presentationId":N}`), then `event: seats` with data
/// `{"presentationId":N,"emittedAtMs":unix ms,"changes":[{"sectionId","x","y","state":"held|released|sold|expired"}]}`,
/// and `event: resync` (data `{}`) when events may have been missed: reload the seat status.
/// A `: ping` comment every 15 s keeps proxies from closing the stream. A watcher that falls
/// behind is disconnected; reconnect and reload the status.
#[utoipa::path(get, operation_id = "seatEvents", path = "/seats/events", tag = "seats", params(EventsQuery),
    responses((status = 200, description = "text/event-stream of seat changes: each event's data is a JSON object (above)", content_type = "text/event-stream", body = serde_json::Value),
              (status = 404, description = "noEvent", body = ErrorBody),
              (status = 422, description = "formValidation", body = ErrorBody),
              (status = 429, description = "tooManyRequests: this address has its cap of open streams (Retry-After)", body = ErrorBody)))]
async fn seat_events(
    State(state): State<AppState>,
    session: BuyerSession,
    Query(q): Query<EventsQuery>,
) -> ApiResult<Sse<impl Stream<Item = Result<Event, Infallible>>>> {
    // Refuses unknown presentations (noEvent) before anything is subscribed.
    state
        .catalogue
        .presentation(PresentationId(q.presentation_id), &Default::default())
        .await?;
    // One address may not hold a node's streams (each is an open connection for as long as a
    // seat map is open): past the cap, 429 until one of its streams ends.
    let Some(permit) = state.seat_events.open_stream(
        session.address(),
        state.settings.max_event_streams_per_address,
    ) else {
        tracing::warn!(address = %session.address(), "seat event streams per address reached");
        return Err(ApiError::retry_later(
            ErrorCode::TooManyRequests,
            "too many seat event streams from this address; close one or try again later",
            STREAM_RETRY_AFTER_SECONDS,
        ));
    };
    let rx = state
        .seat_events
        .subscribe(PresentationId(q.presentation_id));
    let ready = Event::default()
        .event("ready")
        .retry(Duration::from_millis(1000))
        .data(format!("{{\"presentationId\":{}}}", q.presentation_id));
    // The permit lives in the stream's state: it is given back when the stream is dropped.
    let stream = futures_util::stream::unfold(
        (Some(ready), rx, permit),
        |(first, mut rx, permit)| async move {
            if let Some(ready) = first {
                return Some((Ok(ready), (None, rx, permit)));
            }
            match rx.recv().await {
                Ok(out) => Some((
                    Ok(Event::default().event(out.name).data(&out.data)),
                    (None, rx, permit),
                )),
                // Fallen behind (or the hub is gone): end the stream; the browser reconnects and
                // reloads the status, and the others were never held up.
                Err(_) => None,
            }
        },
    );
    Ok(Sse::new(stream).keep_alive(
        KeepAlive::new()
            .interval(Duration::from_secs(15))
            .text("ping"),
    ))
}
