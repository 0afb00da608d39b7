//! The catalogue as the store holds it: one struct per table, plain values, times in UTC ms.
//! The same rows are written by the seed command and read back by the use cases.

use kupa_domain::catalogue::SectionKind;
pub use kupa_domain::ids::{PresentationId, ReservationId, SessionId};
use kupa_domain::money::Money;
use kupa_domain::seating::SeatAddress;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Location {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub address: String,
    pub address_en: String,
    pub city: String,
    pub city_en: String,
    pub phone: String,
    pub parking: String,
    pub parking_en: String,
    pub accessibility: String,
    pub accessibility_en: String,
    pub business_id: i64,
    /// Location 1 of the spec is not a cinema and stays out of cinema totals.
    pub is_cinema: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Venue {
    pub id: i64,
    pub location_id: i64,
    pub name: String,
    pub name_en: String,
    pub venue_type_id: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Seatplan {
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub screen_label: String,
    pub screen_label_en: String,
    /// The hall's best viewing point, in seat coordinates, for best-available.
    pub best_x: i64,
    pub best_y: i64,
    /// Where the screen stands: from this x, `screen_width` cells wide (a plan drawn in the
    /// staff area, decision 0068); None: across the middle of the hall.
    pub screen_x: Option<i64>,
    pub screen_width: Option<i64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Section {
    pub id: i64,
    pub seatplan_id: i64,
    pub name: String,
    pub name_en: String,
    pub kind: SectionKind,
    /// Seats in a reserved section; places in a general-admission one.
    pub capacity: i64,
    pub ticket_group_id: i64,
    pub price_level: i64,
    pub sort: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Seat {
    pub seatplan_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub row_name: String,
    pub seat_name: String,
    pub group_id: i64,
    pub premium: bool,
    pub handicap: bool,
    pub companion: bool,
    pub limited_view: bool,
    /// Seats sharing a sofa (or bed) id are sold together.
    pub sofa_id: Option<i64>,
    /// Codes of the site's custom seat attributes, comma separated.
    pub attributes: String,
}

impl Seat {
    pub fn address(&self) -> SeatAddress {
        SeatAddress::new(self.section_id, self.x, self.y)
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct FeatureCategory {
    pub id: i64,
    pub name: String,
    pub name_en: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Feature {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub category_id: i64,
    pub original_language: String,
    pub dubbing: String,
    pub subtitles: String,
    /// The three above in English (decision 0051): the movie page in English shows them.
    pub original_language_en: String,
    pub dubbing_en: String,
    pub subtitles_en: String,
    /// YYYY-MM-DD.
    pub release_date: String,
    pub runtime: i64,
    pub classification: String,
    pub classification_en: String,
    pub synopsis: String,
    pub synopsis_en: String,
    /// Two colours for the generated poster, "#rrggbb".
    pub poster_from: String,
    pub poster_to: String,
    /// The film's trailer, an https address shown to buyers as a link; empty: none.
    pub trailer_url: String,
    /// The uploaded poster's version (decision 0069), part of its address; None: no poster was
    /// uploaded, the generated one is shown. Never in a catalogue file: an upload sets it.
    #[serde(skip)]
    pub poster_version: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TicketGroup {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub is_by_code_enabled: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Ticket {
    pub id: i64,
    pub ticket_group_id: i64,
    pub name: String,
    pub name_en: String,
    pub price: Money,
    pub old_price: Option<Money>,
    pub service_charge: Money,
    pub price_policy_id: i64,
    pub min_quantity: i64,
    pub max_quantity: i64,
    /// A ticket of this id must be in the same order (a companion ticket needs a wheelchair one).
    pub requires_ticket_id: Option<i64>,
    pub member_only: bool,
    pub needs_senior_id: bool,
    /// Label of the reference prompt (hotel guest: room number); empty when none.
    pub ref_prompt: String,
    pub ref_prompt_en: String,
    pub loyalty_points_price: Option<i64>,
    /// Agorot one ticket takes from the balance of the buyer's series pass (a pass ticket, priced 0
    /// in money; decision 0039); None: not a pass ticket.
    pub member_balance_price: Option<Money>,
    pub multiply_factor: i64,
    pub sort: i64,
    /// Sold only through a ticket code (GET /presentations/{id}/ticket); never in the group's list.
    pub by_code_only: bool,
    /// Sold only on a seat of this kind (a wheelchair ticket on a wheelchair place); none: any seat.
    pub seat_kind: Option<kupa_domain::seat_kinds::SeatKind>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Product {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub category: String,
    pub price: Money,
    /// A catalogue file's one complex that sells it (the older spelling of `location_ids`):
    /// folded into `location_ids` when the file is read, never stored.
    #[serde(skip_serializing)]
    pub location_id: Option<i64>,
    /// The complexes that sell it (decision 0069); empty: every complex.
    pub location_ids: Vec<i64>,
    /// An emoji drawn on the generated product image.
    pub icon: String,
    pub color: String,
    pub sort: i64,
    /// False: sold nowhere (the back office turned it off); true by default.
    pub on_sale: bool,
    /// The uploaded picture's version (decision 0069), part of its address; None: none was
    /// uploaded, the generated one (its icon on its colour) is shown. Never in a catalogue file.
    #[serde(skip)]
    pub image_version: Option<String>,
}

impl Default for Product {
    fn default() -> Product {
        Product {
            id: 0,
            name: String::new(),
            name_en: String::new(),
            category: String::new(),
            price: Money::ZERO,
            location_id: None,
            location_ids: Vec::new(),
            icon: String::new(),
            color: String::new(),
            sort: 0,
            on_sale: true,
            image_version: None,
        }
    }
}

impl Product {
    /// The file's `locationId` folded into `location_ids`, sorted, once each.
    pub fn folded(mut self) -> Product {
        if let Some(l) = self.location_id.take() {
            self.location_ids.push(l);
        }
        self.location_ids.sort_unstable();
        self.location_ids.dedup();
        self
    }

    /// Sold at this complex (and on sale at all).
    pub fn sold_at(&self, location_id: i64) -> bool {
        self.on_sale && (self.location_ids.is_empty() || self.location_ids.contains(&location_id))
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ServiceCharge {
    pub id: i64,
    pub business_id: i64,
    pub name: String,
    pub name_en: String,
    /// Fixed amount in agorot, or None when `percent_bp` applies.
    pub amount: Option<Money>,
    /// Basis points of the ticket price (1 % = 100).
    pub percent_bp: Option<i64>,
    pub per_ticket: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Presentation {
    pub id: PresentationId,
    pub feature_id: i64,
    pub venue_id: i64,
    pub seatplan_id: i64,
    pub starts_at_ms: i64,
    /// Video on demand: end of availability; None for screenings.
    pub available_until_ms: Option<i64>,
    pub sale_starts_at_ms: i64,
    pub sale_ends_at_ms: i64,
    pub auth_profile_id: i64,
    pub business_id: i64,
    pub seating_policy_id: i64,
    pub new_booking_url: String,
    /// Cancellations close this many minutes before the start; None: the configured default.
    pub cancellation_window_minutes: Option<i64>,
    /// The screening's own ticket group, sold in place of its hall's main one (decision 0070);
    /// None: as its hall.
    pub ticket_group_id: Option<i64>,
}

/// A presentation with the names a list needs, as one join returns it.
#[derive(Debug, Clone, PartialEq)]
pub struct PresentationView {
    pub presentation: Presentation,
    pub feature: Feature,
    pub category: FeatureCategory,
    pub venue: Venue,
    pub location: Location,
    pub reserved_sections: i64,
    pub ga_sections: i64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Customer {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub ssn: String,
    pub email: String,
    pub mobile: String,
    pub city: String,
    pub address1: String,
    pub postal_code: String,
    /// YYYY-MM-DD.
    pub date_of_birth: String,
    pub is_sms_allowed: bool,
    pub is_mailing_allowed: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Membership {
    pub id: i64,
    /// 2 means a series.
    pub type_id: i64,
    pub name: String,
    pub name_en: String,
    pub code: String,
    pub class_name: String,
    pub price: Money,
    /// Discounted (member-only) tickets a member may take in one order; None: no limit.
    pub max_discounted_tickets: Option<i64>,
    // What the memberships page sells (issue 15, decision 0037); every field has a default, so
    // a catalogue file written before them still loads.
    pub description: String,
    pub description_en: String,
    /// The prices it is sold at; empty: one implicit price (see
    /// [`crate::memberships::prices_of`]).
    pub prices: Vec<MembershipPrice>,
    /// A new member is good from the day of payment for this many months (inclusive end).
    pub valid_months: i64,
    /// A series whose prices can be bought again for an existing member, adding to its balance.
    pub top_up: bool,
    /// False: listed in the customer area only, not sold.
    pub on_sale: bool,
    pub terms: String,
    pub terms_en: String,
    pub sort: i64,
    /// A seated subscription (spec section 3 Membership `seats`; decision 0043): its price includes
    /// the member's one seat in every screening of this season, chosen when it is bought.
    pub seats: Option<MembershipSeats>,
}

/// The season whose screenings a seated membership includes a seat in.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MembershipSeats {
    pub season_id: i64,
}

impl Default for Membership {
    fn default() -> Membership {
        Membership {
            id: 0,
            type_id: 0,
            name: String::new(),
            name_en: String::new(),
            code: String::new(),
            class_name: String::new(),
            price: Money::ZERO,
            max_discounted_tickets: None,
            description: String::new(),
            description_en: String::new(),
            prices: Vec::new(),
            valid_months: 12,
            top_up: false,
            on_sale: true,
            terms: String::new(),
            terms_en: String::new(),
            sort: 0,
            seats: None,
        }
    }
}

impl Membership {
    /// A series (type 2): a balance of tickets' worth, which only a series carries.
    pub fn is_series(&self) -> bool {
        self.type_id == 2
    }
}

/// One price a membership is sold at (issue 15).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct MembershipPrice {
    pub id: i64,
    pub price_code: String,
    /// Agorot paid.
    pub price: Money,
    /// The balance a series member gets; None: the price.
    pub value: Option<Money>,
    /// None: ILS.
    pub currency: Option<String>,
    /// A prompt present must be filled by the buyer (and match its pattern, when given).
    pub reference1: Option<ReferencePrompt>,
    pub reference2: Option<ReferencePrompt>,
}

/// What a membership price asks the buyer to type (a student card number).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ReferencePrompt {
    pub label: String,
    pub label_en: String,
    /// A regular expression the whole answer must match; None: anything not blank.
    pub pattern: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Member {
    pub id: i64,
    pub member_number: String,
    pub membership_id: i64,
    pub customer_id: i64,
    pub balance: Money,
    pub points_balance: i64,
    /// YYYY-MM-DD, inclusive.
    pub start_date: String,
    pub end_date: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct MiniSite {
    pub id: i64,
    pub url: String,
    pub title: String,
    pub title_en: String,
    /// Only these features (empty: all), only this location (None: all).
    pub feature_ids: Vec<i64>,
    pub location_id: Option<i64>,
    /// A line under the title (may be empty).
    pub description: String,
    pub description_en: String,
    /// The banner: a path on the site (`/…`; the CSP loads images from the site only).
    pub image_url: Option<String>,
    /// The page's own colours; None: the site's.
    pub colors: Option<MiniSiteColors>,
}

/// A mini-site's colours, each `#rrggbb`: the loader checks that `text` on `background` and
/// white on `primary` (its buttons) can be read (WCAG AA, 4.5:1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MiniSiteColors {
    pub primary: String,
    pub background: String,
    pub text: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Integration {
    pub key: String,
    pub name: String,
    pub business_id: i64,
    /// `ret` must start with this.
    pub return_url_prefix: String,
}

/// A code that unlocks a ticket: a discount code, voucher, coupon, bank benefits card or
/// credit-card benefit (spec section 4, "Voucher or code ticket application").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct TicketCode {
    pub id: i64,
    /// As printed; matched trimmed and without regard to case.
    pub code: String,
    pub kind: kupa_domain::tickets::CodeKind,
    /// The ticket it unlocks (usually `byCodeOnly`).
    pub ticket_id: i64,
    /// YYYY-MM-DD, inclusive, local days; None: open.
    pub valid_from: Option<String>,
    pub valid_to: Option<String>,
    /// Tickets the code may ever be used for; None: no limit.
    pub usage_limit: Option<i64>,
    pub used_count: i64,
    /// A voucher's remaining value (reduced at finalisation); None: no balance.
    pub balance: Option<Money>,
    /// The order needs at least this many seats (a coupon "needs N tickets").
    pub min_tickets: i64,
    /// Credit-card benefit: the card paid with must start with these digits.
    pub card_prefix: String,
    pub label: String,
    pub label_en: String,
}

/// A reference a ticket accepts (a hotel's room number) and how many tickets may still name it.
/// The staff dashboard (PRES-live reference prompt admin) edits the quantities.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RefPromptOption {
    pub ticket_id: i64,
    pub reference: String,
    /// Empty: any second reference.
    pub reference2: String,
    pub quantity: i64,
}

/// One claim on a seat or a general-admission place.
#[derive(Debug, Clone, PartialEq)]
pub struct Claim {
    pub presentation_id: PresentationId,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub session_id: SessionId,
    pub sold: bool,
    pub expires_at_ms: i64,
}

impl Claim {
    pub fn address(&self) -> SeatAddress {
        SeatAddress::new(self.section_id, self.x, self.y)
    }

    /// As the domain's liveness rule sees it ([`kupa_domain::catalogue::ClaimView`]).
    pub fn view(&self) -> kupa_domain::catalogue::ClaimView<'_> {
        kupa_domain::catalogue::ClaimView {
            sold: self.sold,
            expires_at_ms: self.expires_at_ms,
            session_id: &self.session_id,
        }
    }
}

/// Everything `kupa seed` writes, in insertion order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CatalogueData {
    pub site_config: serde_json::Value,
    pub locations: Vec<Location>,
    pub venues: Vec<Venue>,
    pub seatplans: Vec<Seatplan>,
    pub sections: Vec<Section>,
    pub seats: Vec<Seat>,
    pub categories: Vec<FeatureCategory>,
    pub features: Vec<Feature>,
    pub ticket_groups: Vec<TicketGroup>,
    pub tickets: Vec<Ticket>,
    pub products: Vec<Product>,
    pub service_charges: Vec<ServiceCharge>,
    pub presentations: Vec<Presentation>,
    pub customers: Vec<Customer>,
    pub memberships: Vec<Membership>,
    pub members: Vec<Member>,
    pub mini_sites: Vec<MiniSite>,
    pub integrations: Vec<Integration>,
    pub ticket_codes: Vec<TicketCode>,
    pub ref_prompt_options: Vec<RefPromptOption>,
    pub system_voucher_classes: Vec<crate::vouchers::model::SystemVoucherClass>,
    pub donations: Vec<crate::vouchers::model::Donation>,
    pub seasons: Vec<crate::memberships::seasons::Season>,
}
