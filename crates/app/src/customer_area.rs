//! The customer area (spec sections 2 and 7 "Customer"): what a logged-in customer sees of their
//! account in one answer (profile, tickets ahead, past and cancelled reservations, member cards,
//! video on demand, saved cards), the profile they edit, and the deletion of their account
//! (decision 0024).
//!
//! Everything here is the logged-in customer's own: the login (the HttpOnly login cookie) names
//! the customer, and every read and write is keyed by that customer's id, never by an id the
//! request carries. Personal data (names, ID number, birth date, address, plate) is never logged.

use std::collections::BTreeMap;
use std::sync::Arc;

use async_trait::async_trait;
use kupa_domain::customer::clean_address;

use crate::accounts::{CUSTOMER_NOT_FOUND, CustomerAccount, CustomerService, NOT_LOGGED_IN};
use crate::catalogue::{CatalogueService, PresentationInfo};
use crate::customer_info::{CustomerInfo, rule};
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::model::Location;
use crate::orders::{Order, OrderStatus};
use crate::ports::{CatalogueStore, Clock};
use crate::saved_cards::{SavedCard, SavedCardStore};

/// Venue types of video on demand (spec section 3 "Presentation": 101-104).
pub const VOD_VENUE_TYPES: std::ops::RangeInclusive<i64> = 101..=104;

/// The customer's profile as stored, with the customer-area additions (migration 0015).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Profile {
    pub customer_id: i64,
    pub first_name: String,
    pub last_name: String,
    /// The whole ID number: masked by whoever shows it.
    pub ssn: String,
    pub email: String,
    /// Local form ("05...").
    pub mobile: String,
    pub address1: String,
    pub address2: String,
    pub city: String,
    pub postal_code: String,
    /// YYYY-MM-DD, or empty.
    pub date_of_birth: String,
    /// Digits only, or empty.
    pub license_plate_number: String,
    pub is_sms_allowed: bool,
    pub is_mailing_allowed: bool,
    pub is_email_allowed: bool,
    pub location_id: Option<i64>,
}

/// What the profile form changes. Email and mobile number are not here: they are how the
/// customer logs in and where tickets go, so changing them needs the new one proven first
/// (decision 0024).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProfileUpdate {
    pub first_name: String,
    pub last_name: String,
    pub address1: String,
    pub address2: String,
    pub city: String,
    pub postal_code: String,
    pub date_of_birth: String,
    pub license_plate_number: String,
    pub is_sms_allowed: bool,
    pub is_mailing_allowed: bool,
    pub is_email_allowed: bool,
    pub location_id: Option<i64>,
}

/// What a deleted account left behind, for the log (counts only).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct AccountDeletion {
    pub orders_anonymised: u64,
    pub saved_cards_deleted: u64,
    pub logins_ended: u64,
}

#[async_trait]
pub trait CustomerAreaStore: Send + Sync {
    /// The customer's profile; None for no such customer or a deleted one.
    async fn profile(&self, customer_id: i64) -> StoreResult<Option<Profile>>;
    /// Writes the profile fields; false when the customer is gone (deleted meanwhile).
    async fn update_profile(
        &self,
        customer_id: i64,
        update: &ProfileUpdate,
        now_ms: i64,
    ) -> StoreResult<bool>;
    /// The customer's orders that were paid (or paid and cancelled since), newest first, at most
    /// `limit`: never a pending or failed one, never another customer's.
    async fn orders_of_customer(&self, customer_id: i64, limit: i64) -> StoreResult<Vec<Order>>;
    /// In one transaction: the customer's orders keep their money and tickets but lose the
    /// customer (customer_id cleared, the contact replaced by `scrubbed_contact`, JSON); saved
    /// cards, logins, login codes and the outbox messages to the customer's number and address
    /// are deleted; the customer row becomes a tombstone (personal fields blanked, deleted_at).
    /// None when the customer was already deleted or never was.
    async fn delete_account(
        &self,
        customer_id: i64,
        scrubbed_contact: &str,
        now_ms: i64,
    ) -> StoreResult<Option<AccountDeletion>>;
}

/// An order of the customer with its presentation.
#[derive(Debug, Clone)]
pub struct AreaOrder {
    pub order: Order,
    pub info: PresentationInfo,
}

impl AreaOrder {
    pub fn is_vod(&self) -> bool {
        VOD_VENUE_TYPES.contains(&self.info.view.venue.venue_type_id)
    }
}

pub use kupa_domain::vod::VodStatus;

/// The customer area in one answer.
#[derive(Debug, Clone)]
pub struct AreaData {
    pub account: CustomerAccount,
    pub profile: Profile,
    /// Paid screenings still ahead, soonest first.
    pub upcoming: Vec<AreaOrder>,
    /// Screenings that began, and cancelled orders, newest first.
    pub past: Vec<AreaOrder>,
    /// Video-on-demand purchases, newest first.
    pub vod: Vec<AreaOrder>,
    pub saved_cards: Vec<SavedCard>,
    pub now_ms: i64,
}

/// Orders listed in the area at most (newest first).
pub const MAX_ORDERS: i64 = 200;

pub struct CustomerAreaService {
    customers: Arc<CustomerService>,
    catalogue: Arc<CatalogueService>,
    catalogue_store: Arc<dyn CatalogueStore>,
    store: Arc<dyn CustomerAreaStore>,
    cards: Arc<dyn SavedCardStore>,
    clock: Arc<dyn Clock>,
}

impl CustomerAreaService {
    pub fn new(
        customers: Arc<CustomerService>,
        catalogue: Arc<CatalogueService>,
        catalogue_store: Arc<dyn CatalogueStore>,
        store: Arc<dyn CustomerAreaStore>,
        cards: Arc<dyn SavedCardStore>,
        clock: Arc<dyn Clock>,
    ) -> CustomerAreaService {
        CustomerAreaService {
            customers,
            catalogue,
            catalogue_store,
            store,
            cards,
            clock,
        }
    }

    /// The logged-in customer: loginError without a live login, CUSTOMER_NOT_FOUND when the
    /// login proved a number no customer has.
    pub async fn customer(&self, login: Option<&str>) -> AppResult<CustomerAccount> {
        let Some(login) = login else {
            return Err(AppError::rejected(NOT_LOGGED_IN, "log in first"));
        };
        let logged_in = self
            .customers
            .login_of(login)
            .await?
            .ok_or_else(|| AppError::rejected(NOT_LOGGED_IN, "log in first"))?;
        logged_in.account.ok_or_else(|| {
            AppError::rejected(
                CUSTOMER_NOT_FOUND,
                "no customer account has the logged-in mobile number",
            )
        })
    }

    async fn profile_of(&self, customer_id: i64) -> AppResult<Profile> {
        self.store
            .profile(customer_id)
            .await?
            .ok_or_else(|| AppError::rejected(CUSTOMER_NOT_FOUND, "the account is gone"))
    }

    /// GET /customer-area/customerAreaData.
    pub async fn area(&self, login: Option<&str>) -> AppResult<AreaData> {
        let account = self.customer(login).await?;
        let id = account.customer.id;
        let profile = self.profile_of(id).await?;
        let now_ms = self.clock.now_ms();
        let mut upcoming = Vec::new();
        let mut past = Vec::new();
        let mut vod = Vec::new();
        for order in self.store.orders_of_customer(id, MAX_ORDERS).await? {
            // The store answers only this customer's; checked again, as a guard for the future.
            if order.customer_id != Some(id) {
                return Err(AppError::internal(
                    "an order of another customer was listed",
                ));
            }
            let info = self
                .catalogue
                .presentation(crate::orders::headline(&order)?, &Default::default())
                .await?
                .info;
            let o = AreaOrder { order, info };
            if o.is_vod() {
                vod.push(o);
            } else if o.order.status == OrderStatus::Paid
                && o.info.view.presentation.starts_at_ms > now_ms
            {
                upcoming.push(o);
            } else {
                past.push(o);
            }
        }
        upcoming.sort_by_key(|o| o.info.view.presentation.starts_at_ms);
        past.sort_by_key(|o| std::cmp::Reverse(o.info.view.presentation.starts_at_ms));
        let saved_cards = self.cards.saved_cards(id).await?;
        Ok(AreaData {
            account,
            profile,
            upcoming,
            past,
            vod,
            saved_cards,
            now_ms,
        })
    }

    /// GET /customer/locations: the chain's locations, for the profile's location choice.
    pub async fn locations(&self) -> AppResult<Vec<Location>> {
        Ok(self.catalogue_store.locations().await?)
    }

    /// PUT /customer-area/profile: checks every field (formValidation with `params.fields`,
    /// field → rule, as the checkout's details), then writes them; answers the new profile.
    pub async fn update_profile(
        &self,
        login: Option<&str>,
        update: ProfileUpdate,
    ) -> AppResult<Profile> {
        let account = self.customer(login).await?;
        let update = normalised(update);
        let locations: Vec<i64> = self.locations().await?.iter().map(|l| l.id).collect();
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()));
        let problems = profile_problems(&update, &locations, today);
        if !problems.is_empty() {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "some details are missing or not valid",
                serde_json::json!({ "fields": problems }),
            ));
        }
        let id = account.customer.id;
        if !self
            .store
            .update_profile(id, &update, self.clock.now_ms())
            .await?
        {
            return Err(AppError::rejected(
                CUSTOMER_NOT_FOUND,
                "the account is gone",
            ));
        }
        tracing::info!(customer_id = id, "customer profile updated");
        self.profile_of(id).await
    }

    /// DELETE /customer-area/account: deletes the logged-in customer's personal data, saved
    /// cards and every login (decision 0024). The caller ends this request's login cookie.
    pub async fn delete_account(&self, login: Option<&str>) -> AppResult<AccountDeletion> {
        let account = self.customer(login).await?;
        let id = account.customer.id;
        let scrubbed =
            serde_json::to_string(&CustomerInfo::default()).map_err(AppError::internal)?;
        let deleted = self
            .store
            .delete_account(id, &scrubbed, self.clock.now_ms())
            .await?
            .ok_or_else(|| AppError::rejected(CUSTOMER_NOT_FOUND, "the account is gone"))?;
        tracing::info!(
            customer_id = id,
            orders_anonymised = deleted.orders_anonymised,
            saved_cards_deleted = deleted.saved_cards_deleted,
            logins_ended = deleted.logins_ended,
            "customer account deleted"
        );
        Ok(deleted)
    }
}

/// Trimmed, '#' in addresses replaced (spec section 4), the plate reduced to its digits.
pub fn normalised(mut u: ProfileUpdate) -> ProfileUpdate {
    for s in [
        &mut u.first_name,
        &mut u.last_name,
        &mut u.city,
        &mut u.postal_code,
        &mut u.date_of_birth,
    ] {
        *s = s.trim().to_owned();
    }
    u.address1 = clean_address(&u.address1);
    u.address2 = clean_address(&u.address2);
    let plate = u.license_plate_number.trim();
    if plate
        .chars()
        .all(|c| c.is_ascii_digit() || c == '-' || c == ' ')
    {
        u.license_plate_number = plate.chars().filter(char::is_ascii_digit).collect();
    } else {
        u.license_plate_number = plate.to_owned();
    }
    u
}

fn is_name(s: &str) -> bool {
    s.chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '-' || c == '\'' || c == '"' || c == '.')
}

/// The rule names of the checkout's details ([`rule`]) plus `date` (not a real past date),
/// `plate` (not an Israeli plate: 7 or 8 digits) and `location` (no such location).
pub mod profile_rule {
    pub const DATE: &str = "date";
    pub const PLATE: &str = "plate";
    pub const LOCATION: &str = "location";
}

/// Every broken rule of a normalised update, field → rule (empty when acceptable).
pub fn profile_problems(
    u: &ProfileUpdate,
    locations: &[i64],
    today: jiff::civil::Date,
) -> BTreeMap<&'static str, &'static str> {
    let mut p = BTreeMap::new();
    let too_long = |s: &str, max: usize| s.chars().count() > max;
    for (field, value) in [("firstName", &u.first_name), ("lastName", &u.last_name)] {
        if value.is_empty() {
            p.insert(field, rule::REQUIRED);
        } else if too_long(value, 50) {
            p.insert(field, rule::MAX);
        } else if !is_name(value) {
            p.insert(field, rule::ALPHA);
        }
    }
    for (field, value) in [("address1", &u.address1), ("address2", &u.address2)] {
        if too_long(value, 100) {
            p.insert(field, rule::MAX);
        }
    }
    if too_long(&u.city, 50) {
        p.insert("city", rule::MAX);
    } else if !is_name(&u.city) {
        p.insert("city", rule::ALPHA);
    }
    if !u.postal_code.is_empty() {
        if !u.postal_code.bytes().all(|b| b.is_ascii_digit()) {
            p.insert("postalCode", rule::NUMERIC);
        } else if u.postal_code.len() != 7 {
            p.insert("postalCode", rule::MIN);
        }
    }
    if !u.date_of_birth.is_empty() {
        let ok = u.date_of_birth.len() == 10
            && u.date_of_birth
                .parse::<jiff::civil::Date>()
                .is_ok_and(|d| d.year() >= 1900 && d <= today);
        if !ok {
            p.insert("dateOfBirth", profile_rule::DATE);
        }
    }
    if !u.license_plate_number.is_empty() {
        let n = u.license_plate_number.len();
        if !(u.license_plate_number.bytes().all(|b| b.is_ascii_digit()) && (7..=8).contains(&n)) {
            p.insert("licensePlateNumber", profile_rule::PLATE);
        }
    }
    if let Some(l) = u.location_id
        && !locations.contains(&l)
    {
        p.insert("location", profile_rule::LOCATION);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    fn good() -> ProfileUpdate {
        ProfileUpdate {
            first_name: "דנה".into(),
            last_name: "לוי-כהן".into(),
            address1: "רחוב דיזנגוף 210 #4".into(),
            address2: String::new(),
            city: "תל אביב-יפו".into(),
            postal_code: "6311712".into(),
            date_of_birth: "1986-04-17".into(),
            license_plate_number: "12-345-67".into(),
            is_sms_allowed: true,
            is_mailing_allowed: false,
            is_email_allowed: true,
            location_id: Some(2),
        }
    }

    const TODAY: jiff::civil::Date = jiff::civil::date(2030, 6, 12);

    #[test]
    fn a_good_profile_passes_and_is_normalised() {
        let u = normalised(good());
        assert_eq!(u.address1, "רחוב דיזנגוף 210 4", "'#' replaced by a space");
        assert_eq!(u.license_plate_number, "1234567");
        assert!(profile_problems(&u, &[1, 2], TODAY).is_empty());
    }

    #[test]
    fn each_broken_field_is_named_with_its_rule() {
        let u = normalised(ProfileUpdate {
            first_name: " ".into(),
            last_name: "L3vi".into(),
            city: "x".repeat(51),
            postal_code: "63117".into(),
            date_of_birth: "2031-01-01".into(),
            license_plate_number: "12AB345".into(),
            location_id: Some(99),
            ..good()
        });
        let p = profile_problems(&u, &[1, 2], TODAY);
        assert_eq!(
            p,
            BTreeMap::from([
                ("firstName", rule::REQUIRED),
                ("lastName", rule::ALPHA),
                ("city", rule::MAX),
                ("postalCode", rule::MIN),
                ("dateOfBirth", profile_rule::DATE),
                ("licensePlateNumber", profile_rule::PLATE),
                ("location", profile_rule::LOCATION),
            ])
        );
        for bad in ["1899-12-31", "17/04/1986", "1986-02-30", "1986-4-17"] {
            let u = ProfileUpdate {
                date_of_birth: bad.into(),
                ..good()
            };
            assert_eq!(
                profile_problems(&normalised(u), &[2], TODAY).get("dateOfBirth"),
                Some(&profile_rule::DATE),
                "{bad}"
            );
        }
        let u = ProfileUpdate {
            postal_code: "63117a2".into(),
            license_plate_number: "123456".into(),
            ..good()
        };
        let p = profile_problems(&normalised(u), &[2], TODAY);
        assert_eq!(p.get("postalCode"), Some(&rule::NUMERIC));
        assert_eq!(p.get("licensePlateNumber"), Some(&profile_rule::PLATE));
    }

    #[test]
    fn optional_fields_may_be_empty() {
        let u = ProfileUpdate {
            first_name: "Dana".into(),
            last_name: "Levi".into(),
            ..Default::default()
        };
        assert!(profile_problems(&normalised(u), &[], TODAY).is_empty());
    }
}
