//! POST /client-errors (decision 0055): the web app reports the errors a buyer met (a call that
//! answered an error, an error in the page's own script) to the log, classified as spec section 8
//! says. Nothing personal is kept: the addresses become their route templates (no ids, no keys,
//! no query strings), the words lose long numbers and e-mail addresses, and the body has no room
//! for form values. The call is small (a 4 KiB body at most) and rate-limited (`report`).

use std::sync::OnceLock;

use axum::extract::State;
use axum::http::StatusCode;
use kupa_domain::client_error::{Severity, is_error_code, scrub_message};
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::{ApiError, ErrorBody};
use crate::extract::Json;
use crate::state::AppState;

/// The largest report taken; a larger body answers 413 `payloadTooLarge` unread.
pub const MAX_REPORT_BYTES: usize = 4 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(post_client_error))
        .layer(axum::extract::DefaultBodyLimit::max(MAX_REPORT_BYTES))
}

#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum ClientErrorKind {
    /// A call of this API answered an error.
    Api,
    /// An error in the page's own script (uncaught, or a failed route).
    Script,
}

/// One error the web app met. There is deliberately no field for what the buyer typed.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ClientErrorReport {
    pub kind: ClientErrorKind,
    /// The failed call's HTTP status (400 to 599); only with `api`.
    #[serde(default)]
    pub status: Option<u16>,
    /// The error code the call answered (`lock_seat_error`), or the script error's name.
    #[serde(default)]
    #[schema(max_length = 64)]
    pub code: Option<String>,
    /// What went wrong, in words (the log keeps 300 characters, numbers and e-mails masked).
    #[serde(default)]
    #[schema(max_length = 1000)]
    pub message: String,
    /// The page's path; the log keeps only its route (`/order/:presentationId`).
    #[schema(max_length = 500)]
    pub page: String,
    /// The failed call's path; the log keeps only its template (`/reservations/{id}`).
    #[serde(default)]
    #[schema(max_length = 500)]
    pub api_path: Option<String>,
    /// The failed call's `x-request-id`, to find its own log lines.
    #[serde(default)]
    #[schema(max_length = 32)]
    pub request_id: Option<String>,
    /// The page's language.
    #[serde(default)]
    #[schema(max_length = 8)]
    pub lang: Option<String>,
}

/// Writes a buyer's error to the log, classified: 500 and above (and script errors) critical,
/// 401/403 high, 404 medium, other 4xx low. Answers 204; nothing is stored.
#[utoipa::path(post, operation_id = "postClientError", path = "/client-errors", tag = "client-errors",
    request_body = ClientErrorReport,
    responses((status = 204, description = "Logged"),
              (status = 413, description = "payloadTooLarge: over 4 KiB", body = ErrorBody),
              (status = 422, description = "formValidation: a status outside 400–599, a status with a script error, a code that is no code", body = ErrorBody),
              (status = 429, description = "tooManyRequests: the reports' rate limit (report.session, report.address)", body = ErrorBody)))]
async fn post_client_error(
    State(state): State<AppState>,
    Json(report): Json<ClientErrorReport>,
) -> Result<StatusCode, ApiError> {
    let status = match (report.kind, report.status) {
        (ClientErrorKind::Api, Some(s)) if (400..=599).contains(&s) => Some(s),
        (ClientErrorKind::Api, _) => {
            return Err(ApiError::validation(
                "an api error needs its status, 400 to 599",
            ));
        }
        (ClientErrorKind::Script, None) => None,
        (ClientErrorKind::Script, Some(_)) => {
            return Err(ApiError::validation("a script error has no status"));
        }
    };
    let severity = Severity::of_status(status).expect("statuses checked above");
    let code = match report.code.as_deref().filter(|c| !c.is_empty()) {
        Some(c) if is_error_code(c) => c,
        Some(_) => return Err(ApiError::validation("code must be an error code")),
        None => "-",
    };
    let failed_request_id = report
        .request_id
        .as_deref()
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_hexdigit()))
        .unwrap_or("-");
    let lang = report
        .lang
        .as_deref()
        .filter(|l| kupa_domain::locale::is_supported(l))
        .unwrap_or("-");
    let page = crate::web::route_pattern(&report.page, &state.settings.routes)
        .unwrap_or_else(|| "(other)".to_owned());
    let api = match (report.kind, report.api_path.as_deref()) {
        (ClientErrorKind::Api, Some(p)) => api_template(p).unwrap_or("(other)"),
        _ => "-",
    };
    let message = scrub_message(&report.message);
    let status = status.map_or_else(|| "-".to_owned(), |s| s.to_string());
    let kind = match report.kind {
        ClientErrorKind::Api => "api",
        ClientErrorKind::Script => "script",
    };
    macro_rules! log {
        ($level:ident) => {
            tracing::$level!(
                severity = %severity, kind, status = %status, code, page = %page, api,
                failed_request_id, lang, text = %message, "client error"
            )
        };
    }
    match severity {
        Severity::Critical => log!(error),
        Severity::High => log!(warn),
        Severity::Medium | Severity::Low => log!(info),
    }
    Ok(StatusCode::NO_CONTENT)
}

/// The API's path templates (`/reservations/{id}`), from the OpenAPI document.
fn api_templates() -> &'static [String] {
    static TEMPLATES: OnceLock<Vec<String>> = OnceLock::new();
    TEMPLATES.get_or_init(|| crate::openapi().paths.paths.keys().cloned().collect())
}

/// `/api/reservations/AB12/sendTickets?x` → `/reservations/{resId}/sendTickets`.
fn api_template(path: &str) -> Option<&'static str> {
    let path = path.split(['?', '#']).next().unwrap_or_default();
    let path = path.strip_prefix("/api").unwrap_or(path);
    let got: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // A literal segment beats a parameter (`/presentations/by-date` over `/presentations/{id}`).
    api_templates()
        .iter()
        .filter(|t| {
            let pat: Vec<&str> = t.split('/').filter(|s| !s.is_empty()).collect();
            pat.len() == got.len()
                && pat
                    .iter()
                    .zip(&got)
                    .all(|(p, g)| p.starts_with('{') || p == g)
        })
        .min_by_key(|t| t.matches('{').count())
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    #[test]
    fn api_paths_become_their_templates() {
        assert_eq!(
            super::api_template("/api/reservations/AB12CD?lang=he"),
            Some("/reservations/{id}")
        );
        assert_eq!(super::api_template("/api/config"), Some("/config"));
        assert_eq!(super::api_template("/api/no/such/call/here"), None);
    }
}
