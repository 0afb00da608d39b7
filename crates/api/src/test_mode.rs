//! Routes that exist only in test mode: move the server's clock forward and shorten the step
//! timers, so end-to-end tests and benchmarks never sit out real minutes. Never in the OpenAPI
//! document, never routed when test mode is off.

use axum::Router;
use axum::extract::State;
use axum::routing::post;
use kupa_app::site_config::TimerMode;
use kupa_domain::time::ms_to_rfc3339;
use serde::{Deserialize, Serialize};

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::state::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/test/clock", post(advance_clock))
        .route("/test/timer-mode", post(set_timers).delete(clear_timers))
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct Advance {
    advance_ms: i64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ClockState {
    offset_ms: i64,
    server_time: String,
}

async fn advance_clock(
    State(state): State<AppState>,
    Json(body): Json<Advance>,
) -> ApiResult<axum::Json<ClockState>> {
    if body.advance_ms < 0 {
        return Err(ApiError::validation("the clock only moves forward"));
    }
    state.clock.advance_ms(body.advance_ms);
    tracing::warn!(
        advance_ms = body.advance_ms,
        "test mode: server clock moved"
    );
    Ok(axum::Json(ClockState {
        offset_ms: state.clock.offset_ms(),
        server_time: ms_to_rfc3339(state.clock.now_ms()),
    }))
}

async fn set_timers(
    State(state): State<AppState>,
    Json(timers): Json<TimerMode>,
) -> ApiResult<axum::Json<TimerMode>> {
    state.catalogue.set_timer_override(Some(timers));
    Ok(axum::Json(timers))
}

async fn clear_timers(State(state): State<AppState>) -> axum::http::StatusCode {
    state.catalogue.set_timer_override(None);
    axum::http::StatusCode::NO_CONTENT
}
