//! Row decoders, written once for both databases.

use kupa_app::model::*;
use kupa_domain::catalogue::SectionKind;
use kupa_domain::money::Money;
use sqlx::Row;
use sqlx::postgres::PgRow;
use sqlx::sqlite::SqliteRow;

type R<T> = Result<T, sqlx::Error>;

/// Typed column access that both row types offer.
pub(crate) trait Get {
    fn i(&self, c: &str) -> R<i64>;
    fn p(&self, c: &str) -> R<PresentationId>;
    fn op(&self, c: &str) -> R<Option<PresentationId>>;
    fn sid(&self, c: &str) -> R<SessionId>;
    fn rid(&self, c: &str) -> R<ReservationId>;
    fn oi(&self, c: &str) -> R<Option<i64>>;
    /// An amount in minor units, as the `Money` it is.
    fn m(&self, c: &str) -> R<Money>;
    fn om(&self, c: &str) -> R<Option<Money>>;
    fn s(&self, c: &str) -> R<String>;
    fn b(&self, c: &str) -> R<bool>;
    fn os(&self, c: &str) -> R<Option<String>>;
    fn bytes(&self, c: &str) -> R<Vec<u8>>;
}

macro_rules! impl_get {
    ($row:ty) => {
        impl Get for $row {
            fn i(&self, c: &str) -> R<i64> {
                self.try_get(c)
            }
            fn p(&self, c: &str) -> R<PresentationId> {
                self.try_get(c)
            }
            fn op(&self, c: &str) -> R<Option<PresentationId>> {
                self.try_get(c)
            }
            fn sid(&self, c: &str) -> R<SessionId> {
                self.try_get(c)
            }
            fn rid(&self, c: &str) -> R<ReservationId> {
                self.try_get(c)
            }
            fn oi(&self, c: &str) -> R<Option<i64>> {
                self.try_get(c)
            }
            fn m(&self, c: &str) -> R<Money> {
                self.try_get(c)
            }
            fn om(&self, c: &str) -> R<Option<Money>> {
                self.try_get(c)
            }
            fn s(&self, c: &str) -> R<String> {
                self.try_get(c)
            }
            fn b(&self, c: &str) -> R<bool> {
                self.try_get(c)
            }
            fn os(&self, c: &str) -> R<Option<String>> {
                self.try_get(c)
            }
            fn bytes(&self, c: &str) -> R<Vec<u8>> {
                self.try_get(c)
            }
        }
    };
}
impl_get!(SqliteRow);
impl_get!(PgRow);

pub(crate) fn location(r: &impl Get) -> R<Location> {
    Ok(Location {
        id: r.i("id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        address: r.s("address")?,
        address_en: r.s("address_en")?,
        city: r.s("city")?,
        city_en: r.s("city_en")?,
        phone: r.s("phone")?,
        parking: r.s("parking")?,
        parking_en: r.s("parking_en")?,
        accessibility: r.s("accessibility")?,
        accessibility_en: r.s("accessibility_en")?,
        business_id: r.i("business_id")?,
        is_cinema: r.b("is_cinema")?,
    })
}

pub(crate) fn feature(r: &impl Get) -> R<Feature> {
    Ok(Feature {
        id: r.i("f_id")?,
        name: r.s("f_name")?,
        name_en: r.s("f_name_en")?,
        category_id: r.i("f_category_id")?,
        original_language: r.s("f_original_language")?,
        dubbing: r.s("f_dubbing")?,
        subtitles: r.s("f_subtitles")?,
        original_language_en: r.s("f_original_language_en")?,
        dubbing_en: r.s("f_dubbing_en")?,
        subtitles_en: r.s("f_subtitles_en")?,
        release_date: r.s("f_release_date")?,
        runtime: r.i("f_runtime")?,
        classification: r.s("f_classification")?,
        classification_en: r.s("f_classification_en")?,
        synopsis: r.s("f_synopsis")?,
        synopsis_en: r.s("f_synopsis_en")?,
        poster_from: r.s("f_poster_from")?,
        poster_to: r.s("f_poster_to")?,
        trailer_url: r.s("f_trailer_url")?,
        poster_version: r.os("f_poster_version")?,
    })
}

pub(crate) fn category(r: &impl Get) -> R<FeatureCategory> {
    Ok(FeatureCategory {
        id: r.i("c_id")?,
        name: r.s("c_name")?,
        name_en: r.s("c_name_en")?,
    })
}

pub(crate) fn presentation(r: &impl Get) -> R<Presentation> {
    Ok(Presentation {
        id: r.p("id")?,
        feature_id: r.i("feature_id")?,
        venue_id: r.i("venue_id")?,
        seatplan_id: r.i("seatplan_id")?,
        starts_at_ms: r.i("starts_at")?,
        available_until_ms: r.oi("available_until")?,
        sale_starts_at_ms: r.i("sale_starts_at")?,
        sale_ends_at_ms: r.i("sale_ends_at")?,
        auth_profile_id: r.i("auth_profile_id")?,
        business_id: r.i("business_id")?,
        seating_policy_id: r.i("seating_policy_id")?,
        new_booking_url: r.s("new_booking_url")?,
        cancellation_window_minutes: r.oi("cancellation_window_minutes")?,
        ticket_group_id: r.oi("ticket_group_id")?,
    })
}

/// A venue of columns `v_id`, `v_location_id`, ...
pub(crate) fn venue(r: &impl Get) -> R<Venue> {
    Ok(Venue {
        id: r.i("v_id")?,
        location_id: r.i("v_location_id")?,
        name: r.s("v_name")?,
        name_en: r.s("v_name_en")?,
        venue_type_id: r.i("v_venue_type_id")?,
    })
}

pub(crate) fn presentation_view(r: &impl Get) -> R<PresentationView> {
    Ok(PresentationView {
        presentation: presentation(r)?,
        feature: feature(r)?,
        category: category(r)?,
        venue: venue(r)?,
        location: Location {
            id: r.i("l_id")?,
            name: r.s("l_name")?,
            name_en: r.s("l_name_en")?,
            address: r.s("l_address")?,
            address_en: r.s("l_address_en")?,
            city: r.s("l_city")?,
            city_en: r.s("l_city_en")?,
            phone: r.s("l_phone")?,
            parking: r.s("l_parking")?,
            parking_en: r.s("l_parking_en")?,
            accessibility: r.s("l_accessibility")?,
            accessibility_en: r.s("l_accessibility_en")?,
            business_id: r.i("l_business_id")?,
            is_cinema: r.b("l_is_cinema")?,
        },
        reserved_sections: r.i("reserved_sections")?,
        ga_sections: r.i("ga_sections")?,
    })
}

pub(crate) fn seatplan(r: &impl Get) -> R<Seatplan> {
    Ok(Seatplan {
        id: r.i("id")?,
        venue_id: r.i("venue_id")?,
        name: r.s("name")?,
        width: r.i("width")?,
        height: r.i("height")?,
        screen_label: r.s("screen_label")?,
        screen_label_en: r.s("screen_label_en")?,
        best_x: r.i("best_x")?,
        best_y: r.i("best_y")?,
        screen_x: r.oi("screen_x")?,
        screen_width: r.oi("screen_width")?,
    })
}

pub(crate) fn section(r: &impl Get) -> R<Section> {
    let kind = r.s("kind")?;
    Ok(Section {
        id: r.i("id")?,
        seatplan_id: r.i("seatplan_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        kind: SectionKind::parse(&kind)
            .ok_or_else(|| sqlx::Error::Decode(format!("section kind {kind:?}").into()))?,
        capacity: r.i("capacity")?,
        ticket_group_id: r.i("ticket_group_id")?,
        price_level: r.i("price_level")?,
        sort: r.i("sort")?,
    })
}

pub(crate) fn seat(r: &impl Get) -> R<Seat> {
    Ok(Seat {
        seatplan_id: r.i("seatplan_id")?,
        section_id: r.i("section_id")?,
        x: r.i("x")?,
        y: r.i("y")?,
        row_name: r.s("row_name")?,
        seat_name: r.s("seat_name")?,
        group_id: r.i("group_id")?,
        premium: r.b("premium")?,
        handicap: r.b("handicap")?,
        companion: r.b("companion")?,
        limited_view: r.b("limited_view")?,
        sofa_id: r.oi("sofa_id")?,
        attributes: r.s("attributes")?,
    })
}

pub(crate) fn ticket_group(r: &impl Get) -> R<TicketGroup> {
    Ok(TicketGroup {
        id: r.i("id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        is_by_code_enabled: r.b("is_by_code_enabled")?,
    })
}

pub(crate) fn ticket(r: &impl Get) -> R<Ticket> {
    Ok(Ticket {
        id: r.i("id")?,
        ticket_group_id: r.i("ticket_group_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        price: r.m("price")?,
        old_price: r.om("old_price")?,
        service_charge: r.m("service_charge")?,
        price_policy_id: r.i("price_policy_id")?,
        min_quantity: r.i("min_quantity")?,
        max_quantity: r.i("max_quantity")?,
        requires_ticket_id: r.oi("requires_ticket_id")?,
        member_only: r.b("member_only")?,
        needs_senior_id: r.b("needs_senior_id")?,
        ref_prompt: r.s("ref_prompt")?,
        ref_prompt_en: r.s("ref_prompt_en")?,
        loyalty_points_price: r.oi("loyalty_points_price")?,
        member_balance_price: r.om("member_balance_price")?,
        multiply_factor: r.i("multiply_factor")?,
        sort: r.i("sort")?,
        by_code_only: r.b("by_code_only")?,
        seat_kind: r
            .os("seat_kind")?
            .map(|k| {
                kupa_domain::seat_kinds::SeatKind::parse(&k).ok_or_else(|| {
                    sqlx::Error::Decode(format!("tickets.seat_kind: unknown kind {k:?}").into())
                })
            })
            .transpose()?,
    })
}

pub(crate) fn product(r: &impl Get) -> R<Product> {
    Ok(Product {
        id: r.i("id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        category: r.s("category")?,
        price: r.m("price")?,
        location_id: None,
        // Read from `product_locations` beside it (`catalogue::with_locations`).
        location_ids: Vec::new(),
        icon: r.s("icon")?,
        color: r.s("color")?,
        sort: r.i("sort")?,
        on_sale: r.b("is_active")?,
        image_version: r.os("image_version")?,
    })
}

pub(crate) fn service_charge(r: &impl Get) -> R<ServiceCharge> {
    Ok(ServiceCharge {
        id: r.i("id")?,
        business_id: r.i("business_id")?,
        name: r.s("name")?,
        name_en: r.s("name_en")?,
        amount: r.om("amount")?,
        percent_bp: r.oi("percent_bp")?,
        per_ticket: r.b("per_ticket")?,
    })
}

pub(crate) fn mini_site(r: &impl Get) -> R<MiniSite> {
    let ids = r.s("feature_ids")?;
    let feature_ids = ids
        .split(',')
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse::<i64>()
                .map_err(|e| sqlx::Error::Decode(Box::new(e)))
        })
        .collect::<R<Vec<_>>>()?;
    Ok(MiniSite {
        id: r.i("id")?,
        url: r.s("url")?,
        title: r.s("title")?,
        title_en: r.s("title_en")?,
        feature_ids,
        location_id: r.oi("location_id")?,
        description: r.s("description")?,
        description_en: r.s("description_en")?,
        image_url: r.os("image_url")?,
        colors: match (
            r.os("primary_color")?,
            r.os("background_color")?,
            r.os("text_color")?,
        ) {
            (Some(primary), Some(background), Some(text)) => Some(MiniSiteColors {
                primary,
                background,
                text,
            }),
            _ => None,
        },
    })
}

pub(crate) fn integration(r: &impl Get) -> R<Integration> {
    Ok(Integration {
        key: r.s("key")?,
        name: r.s("name")?,
        business_id: r.i("business_id")?,
        return_url_prefix: r.s("return_url_prefix")?,
    })
}

pub(crate) fn customer(r: &impl Get) -> R<Customer> {
    Ok(Customer {
        id: r.i("id")?,
        first_name: r.s("first_name")?,
        last_name: r.s("last_name")?,
        ssn: r.s("ssn")?,
        email: r.s("email")?,
        mobile: r.s("mobile")?,
        city: r.s("city")?,
        address1: r.s("address1")?,
        postal_code: r.s("postal_code")?,
        date_of_birth: r.s("date_of_birth")?,
        is_sms_allowed: r.b("is_sms_allowed")?,
        is_mailing_allowed: r.b("is_mailing_allowed")?,
    })
}

pub(crate) fn member_with_membership(r: &impl Get) -> R<(Member, Membership)> {
    Ok((
        Member {
            id: r.i("id")?,
            member_number: r.s("member_number")?,
            membership_id: r.i("membership_id")?,
            customer_id: r.i("customer_id")?,
            balance: r.m("balance")?,
            points_balance: r.i("points_balance")?,
            start_date: r.s("start_date")?,
            end_date: r.s("end_date")?,
        },
        membership_of(r, "ms_")?,
    ))
}

/// A membership row (its columns named `{prefix}id`, ...): its JSON document when it has one
/// (decision 0037), else its columns with the new fields' defaults.
pub(crate) fn membership_of(r: &impl Get, prefix: &str) -> R<Membership> {
    let c = |name: &str| format!("{prefix}{name}");
    if let Some(doc) = r.os(&c("doc"))? {
        return serde_json::from_str(&doc).map_err(|e| sqlx::Error::Decode(Box::new(e)));
    }
    Ok(Membership {
        id: r.i(&c("id"))?,
        type_id: r.i(&c("type_id"))?,
        name: r.s(&c("name"))?,
        name_en: r.s(&c("name_en"))?,
        code: r.s(&c("code"))?,
        class_name: r.s(&c("class_name"))?,
        price: r.m(&c("price"))?,
        max_discounted_tickets: r.oi(&c("max_discounted_tickets"))?,
        ..Membership::default()
    })
}

pub(crate) fn membership(r: &impl Get) -> R<Membership> {
    membership_of(r, "")
}

pub(crate) fn claim(r: &impl Get) -> R<Claim> {
    Ok(Claim {
        presentation_id: r.p("presentation_id")?,
        section_id: r.i("section_id")?,
        x: r.i("x")?,
        y: r.i("y")?,
        session_id: r.sid("session_id")?,
        sold: r.s("state")? == "sold",
        expires_at_ms: r.i("expires_at")?,
    })
}
