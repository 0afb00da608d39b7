//! What the staff rooms need from the store: accounts, logins and failed attempts, and the
//! figures of live monitoring and reports.

use async_trait::async_trait;
use kupa_domain::ids::PresentationId;

use crate::error::StoreResult;

use super::*;

/// The staff accounts and logins, and the figures of live monitoring (the store implements it).
#[async_trait]
pub trait StaffStore: Send + Sync {
    /// A new user; `None` when the email has an account already.
    async fn create_staff_user(&self, u: &NewStaffUser, now_ms: i64) -> StoreResult<Option<i64>>;
    async fn staff_account_by_email(&self, email: &str) -> StoreResult<Option<StaffAccount>>;
    async fn staff_users(&self) -> StoreResult<Vec<StaffUser>>;
    /// Records the TOTP step used; false when this step (or a later one) was used already.
    async fn use_totp_step(&self, user_id: i64, step: i64) -> StoreResult<bool>;
    async fn bind_staff_login(
        &self,
        login_hash: &str,
        user_id: i64,
        now_ms: i64,
        expires_at_ms: i64,
    ) -> StoreResult<()>;
    /// The live (not expired, not disabled) user of a login.
    async fn staff_of_login(&self, login_hash: &str, now_ms: i64)
    -> StoreResult<Option<StaffUser>>;
    async fn end_staff_login(&self, login_hash: &str) -> StoreResult<()>;
    /// Marks the user disabled (their logins stop working at once) and deletes their logins;
    /// false when no user has this email.
    async fn disable_staff_user(&self, email: &str, now_ms: i64) -> StoreResult<bool>;
    /// Replaces the user's password hash and deletes their logins; false when no user has this
    /// email.
    async fn set_staff_password(&self, email: &str, password_hash: &str) -> StoreResult<bool>;
    /// The presentations starting in [from, to) with their live figures (see [`live::LiveRow`]).
    async fn live_rows(
        &self,
        from_ms: i64,
        to_ms: i64,
        now_ms: i64,
    ) -> StoreResult<Vec<live::LiveRow>>;
    /// [`StaffStore::live_rows`] of one feature (its presentations only are counted).
    async fn feature_live_rows(
        &self,
        from_ms: i64,
        to_ms: i64,
        now_ms: i64,
        feature_id: i64,
    ) -> StoreResult<Vec<live::LiveRow>>;
    /// The features with a presentation starting in [from, to), each with the businesses that
    /// show it: (feature id, name, English name, business id), by feature id.
    async fn features_between(
        &self,
        from_ms: i64,
        to_ms: i64,
    ) -> StoreResult<Vec<(i64, String, String, i64)>>;
    async fn live_row(
        &self,
        presentation_id: PresentationId,
        now_ms: i64,
    ) -> StoreResult<Option<live::LiveRow>>;
    /// Paid, not cancelled ticket lines that carry a reference (the reference-prompt admin's),
    /// by when they were paid (`by_sale`) or when their presentation starts, in [from, to).
    async fn ref_lines(
        &self,
        from_ms: i64,
        to_ms: i64,
        by_sale: bool,
    ) -> StoreResult<Vec<live::SoldLine>>;
    /// The summed sales paid on the business days `first..=last` (`YYYY-MM-DD`), by business,
    /// location and feature (decision 0052).
    async fn day_sales(&self, first: &str, last: &str) -> StoreResult<Vec<summary::SalesCell>>;
    /// The summed sales, by business day of payment, of the presentations starting in
    /// [from, to) that `filter` keeps (on-demand video left out, as live monitoring does).
    async fn sales_by_day(
        &self,
        from_ms: i64,
        to_ms: i64,
        filter: &summary::SalesFilter,
    ) -> StoreResult<Vec<summary::DaySales>>;
    /// One presentation's summed sales by business day of payment and ticket type.
    async fn presentation_cells(
        &self,
        presentation_id: PresentationId,
    ) -> StoreResult<Vec<summary::TicketDaySales>>;
    /// The product categories of the catalogue (the "product classes" of the cinema filter).
    async fn product_classes(&self) -> StoreResult<Vec<String>>;
    /// The reference options of the tickets that prompt for one, with their ticket.
    async fn ref_options(&self) -> StoreResult<Vec<refs::RefOption>>;
    /// Sets an option's quantity; false when no option has that key.
    async fn set_ref_option_quantity(
        &self,
        ticket_id: i64,
        row: i64,
        reference: &str,
        reference2: &str,
        quantity: i64,
    ) -> StoreResult<bool>;
}
