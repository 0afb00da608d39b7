//! What the use cases need from the outside world. `store` implements the store traits on SQLite
//! and PostgreSQL; `providers` implements the rest.

use async_trait::async_trait;

use crate::error::AppResult;
use crate::model::*;

/// The catalogue: written whole by the seed command, read by every buyer.
#[async_trait]
pub trait CatalogueStore: Send + Sync {
    async fn is_catalogue_empty(&self) -> AppResult<bool>;
    /// Writes the whole catalogue in one transaction; fails whole if any row is refused.
    async fn load_catalogue(&self, data: &CatalogueData) -> AppResult<()>;

    async fn site_config(&self) -> AppResult<Option<serde_json::Value>>;
    async fn presentation(&self, id: i64) -> AppResult<Option<PresentationView>>;
    /// Presentations starting in [from_ms, to_ms), ordered by start time then id.
    async fn presentations_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> AppResult<Vec<PresentationView>>;
    async fn features(&self) -> AppResult<Vec<(Feature, FeatureCategory)>>;
    async fn feature(&self, id: i64) -> AppResult<Option<Feature>>;
    async fn product(&self, id: i64) -> AppResult<Option<Product>>;
    /// Products sold at a location (and those sold everywhere), in menu order.
    async fn products_for_location(&self, location_id: i64) -> AppResult<Vec<Product>>;
    async fn seatplan(&self, seatplan_id: i64) -> AppResult<Option<Seatplan>>;
    async fn sections(&self, seatplan_id: i64) -> AppResult<Vec<Section>>;
    async fn seats(&self, seatplan_id: i64) -> AppResult<Vec<Seat>>;
    async fn ticket_groups(&self, ids: &[i64]) -> AppResult<Vec<(TicketGroup, Vec<Ticket>)>>;
    async fn service_charge(&self, business_id: i64) -> AppResult<Option<ServiceCharge>>;
    async fn mini_site(&self, url: &str) -> AppResult<Option<MiniSite>>;
    async fn integration(&self, key: &str) -> AppResult<Option<Integration>>;
    async fn locations(&self) -> AppResult<Vec<Location>>;
    async fn customer_by_mobile(&self, mobile: &str) -> AppResult<Option<Customer>>;
    async fn members_of_customer(&self, customer_id: i64) -> AppResult<Vec<(Member, Membership)>>;
}

/// A place to claim: a seat, or a numbered general-admission place (x = number, y = 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Place {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
}

/// Claims on seats and general-admission places. The store is the only arbiter: each claim is one
/// atomic statement (insert, or take over an expired hold), never "select, then insert".
#[async_trait]
pub trait ClaimStore: Send + Sync {
    async fn claims(&self, presentation_id: i64) -> AppResult<Vec<Claim>>;
    /// Holds every place for `session_id` until `expires_at_ms`, in one transaction: all or none.
    /// A place already held by the same session has its hold renewed. Returns false (and claims
    /// nothing) when any place is sold, or held by another session whose hold has not expired.
    async fn hold(
        &self,
        presentation_id: i64,
        places: &[Place],
        session_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<bool>;
    /// Releases the session's unexpired-or-expired holds on these places; returns how many it released.
    async fn release(
        &self,
        presentation_id: i64,
        places: &[Place],
        session_id: &str,
    ) -> AppResult<u64>;
    /// Moves the expiry of all of a session's holds on a presentation; returns how many moved.
    async fn extend(
        &self,
        presentation_id: i64,
        session_id: &str,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> AppResult<u64>;
    /// Deletes holds that expired at or before `now_ms` and returns them (for events).
    async fn sweep_expired(&self, now_ms: i64) -> AppResult<Vec<Claim>>;
}

/// Where each buyer session stands in a checkout, and the deadline of its holds.
#[async_trait]
pub trait CheckoutStore: Send + Sync {
    async fn checkout_state(
        &self,
        session_id: &str,
        presentation_id: i64,
    ) -> AppResult<Option<kupa_domain::checkout::CheckoutState>>;
    /// Saves the state and moves the session's live holds on the presentation to its deadline,
    /// in one transaction; returns how many holds moved.
    async fn save_checkout_state(
        &self,
        session_id: &str,
        presentation_id: i64,
        state: &kupa_domain::checkout::CheckoutState,
        now_ms: i64,
    ) -> AppResult<u64>;
}

/// The server's clock. Tests and the test mode move it; nothing else reads the system time.
pub trait Clock: Send + Sync {
    fn now_ms(&self) -> i64;
}

/// A clock the test mode may move forward (never backward).
pub trait AdjustableClock: Clock {
    fn advance_ms(&self, by_ms: i64);
    fn offset_ms(&self) -> i64;
}

/// The captcha token the test mode accepts and the web app sends in test mode.
pub const CAPTCHA_TEST_TOKEN: &str = "kupa-test-captcha";

/// The captcha check of lock, login and best-available calls.
#[async_trait]
pub trait Captcha: Send + Sync {
    async fn verify(&self, token: &str) -> AppResult<bool>;
}
