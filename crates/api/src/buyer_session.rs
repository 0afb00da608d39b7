//! The buyer session of a request as the session layer ([`crate::session`]) found it: what the
//! handlers and the limits layer read.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use kupa_domain::ids::SessionId;

use crate::error::ApiError;

/// The buyer session of a request, its login (when the HttpOnly login cookie came with it) and
/// the client's address (for the limits that follow the buyer across sessions).
#[derive(Debug, Clone)]
pub struct BuyerSession {
    id: SessionId,
    login: Option<String>,
    address: String,
}

impl BuyerSession {
    /// What the session layer found for a request.
    pub(crate) fn new(id: SessionId, login: Option<String>, address: String) -> BuyerSession {
        BuyerSession { id, login, address }
    }

    pub fn id(&self) -> &SessionId {
        &self.id
    }

    /// The id of the login the request carries (the `kupa_login` cookie), if any. Whether it is a
    /// live login is the accounts' question.
    pub fn login(&self) -> Option<&str> {
        self.login.as_deref()
    }

    /// The client's address, as the limits see it.
    pub fn address(&self) -> &str {
        &self.address
    }
}

impl<S: Send + Sync> FromRequestParts<S> for BuyerSession {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        parts
            .extensions
            .get::<BuyerSession>()
            .cloned()
            .ok_or_else(|| {
                ApiError::from(kupa_app::AppError::internal(
                    "session middleware not installed",
                ))
            })
    }
}
