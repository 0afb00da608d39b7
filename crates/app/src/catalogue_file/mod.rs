//! The catalogue file `kupa seed` loads (docs/catalogue.md describes it). Tables that are plain
//! rows use the model structs as they are; seat plans are written as rows of seats, and the
//! programme as a schedule relative to the day of seeding, so a demo never goes stale.

use jiff::ToSpan;
use jiff::civil::{Date, Time};
use kupa_domain::catalogue::SectionKind;
use serde::Deserialize;

use crate::model::*;

mod checks;
mod gifts;
pub mod import;
pub mod import_plan;

use checks::check_references;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct CatalogueFile {
    #[serde(rename = "$comment")]
    pub comment: Option<String>,
    pub site_config: crate::site_config::SiteConfig,
    pub locations: Vec<Location>,
    pub venues: Vec<Venue>,
    pub seatplans: Vec<SeatplanFile>,
    pub categories: Vec<FeatureCategory>,
    pub features: Vec<Feature>,
    pub ticket_groups: Vec<TicketGroup>,
    pub tickets: Vec<Ticket>,
    pub products: Vec<Product>,
    pub service_charges: Vec<ServiceCharge>,
    pub presentations: Vec<PresentationFile>,
    pub schedule: Vec<ScheduleFile>,
    pub customers: Vec<Customer>,
    pub memberships: Vec<Membership>,
    pub members: Vec<Member>,
    pub mini_sites: Vec<MiniSite>,
    pub integrations: Vec<Integration>,
    /// Codes that unlock tickets; `validFrom` and `validTo` are days, relative allowed.
    pub ticket_codes: Vec<TicketCode>,
    /// References (hotel rooms) a ticket with a reference prompt accepts.
    pub ref_prompt_options: Vec<RefPromptOption>,
    /// System voucher classes; `saleFrom` and `saleTo` are days, relative allowed.
    pub system_voucher_classes: Vec<crate::vouchers::SystemVoucherClass>,
    pub donations: Vec<crate::vouchers::Donation>,
    /// Membership seasons to enrol in; `enrollFrom` and `enrollTo` are days, relative allowed.
    pub seasons: Vec<crate::memberships::Season>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SeatplanFile {
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    pub screen_label: String,
    pub screen_label_en: String,
    /// Best viewing point [x, y]; default: the middle of the seats, two thirds back.
    pub best: Option<[i64; 2]>,
    pub sections: Vec<SectionFile>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct SectionFile {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    pub kind: SectionKind,
    /// General admission only: the number of places.
    pub capacity: i64,
    pub ticket_group_id: i64,
    pub price_level: i64,
    pub rows: Vec<RowFile>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct RowFile {
    pub name: String,
    pub y: i64,
    /// x of the first seat.
    pub x: i64,
    /// Number of seats.
    pub seats: i64,
    /// Seat numbers after which the row has an aisle (one empty x).
    pub aisles_after: Vec<i64>,
    /// Seat names run from high to low as x grows (seat 1 on the right, as many Israeli halls).
    pub descending: bool,
    pub premium: bool,
    /// Seats 1-2, 3-4, ... are sofas (or beds) sold together.
    pub sofas: bool,
    pub wheelchair: Vec<i64>,
    pub companion: Vec<i64>,
    pub limited_view: Vec<i64>,
    pub attributes: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct PresentationFile {
    pub id: i64,
    pub feature_id: i64,
    pub venue_id: i64,
    /// Default: the venue's first seat plan.
    pub seatplan_id: Option<i64>,
    /// Local time in Asia/Jerusalem: "2026-12-01 20:30" or "today+3 20:30".
    pub starts: String,
    /// Default: 21 days before the start, at 10:00.
    pub sale_starts: Option<String>,
    /// Video on demand: the last local day of availability.
    pub available_until: Option<String>,
    pub auth_profile_id: Option<i64>,
    pub business_id: Option<i64>,
    pub seating_policy_id: Option<i64>,
    pub new_booking_url: String,
    /// Cancellations close this many minutes before the start (default: the configured window,
    /// KUPA_CANCELLATION_WINDOW_MINUTES).
    pub cancellation_window_minutes: Option<i64>,
    /// The screening's own ticket group, in place of its hall's main one (default: as the hall).
    pub ticket_group_id: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct ScheduleFile {
    pub feature_id: i64,
    pub venue_id: i64,
    pub seatplan_id: Option<i64>,
    /// Local start times, "HH:MM".
    pub times: Vec<String>,
    /// Days relative to the day of seeding, inclusive.
    pub from_day: i64,
    pub to_day: i64,
    /// Every n-th day (default 1).
    pub every: Option<i64>,
    pub auth_profile_id: Option<i64>,
    pub business_id: Option<i64>,
    pub seating_policy_id: Option<i64>,
    /// Video on demand: days each item stays available.
    pub available_days: Option<i64>,
    /// As a presentation's `cancellationWindowMinutes`, for each scheduled one.
    pub cancellation_window_minutes: Option<i64>,
    /// As a presentation's `ticketGroupId`, for each scheduled one.
    pub ticket_group_id: Option<i64>,
}

/// Sales close this long after a screening starts (latecomers still buy at the box office).
pub const SALE_CLOSES_AFTER_START_MS: i64 = 15 * 60 * 1000;
/// Ids given to scheduled presentations start here.
pub const SCHEDULE_FIRST_ID: i64 = 1000;

#[derive(Debug, thiserror::Error)]
#[error("catalogue: {0}")]
pub struct CatalogueFileError(pub String);

fn err(msg: impl Into<String>) -> CatalogueFileError {
    CatalogueFileError(msg.into())
}

/// A cancellation window is whole minutes, zero (until the start) or more.
fn window(minutes: Option<i64>, id: i64) -> Result<Option<i64>, CatalogueFileError> {
    match minutes {
        Some(m) if m < 0 => Err(err(format!(
            "presentation {id}: cancellationWindowMinutes must be 0 or more"
        ))),
        m => Ok(m),
    }
}

pub fn parse(json: &str) -> Result<CatalogueFile, CatalogueFileError> {
    serde_json::from_str(json).map_err(|e| err(format!("not a catalogue file: {e}")))
}

/// "2026-12-01", "today", "today+3", "today-14".
pub fn parse_day(s: &str, today: Date) -> Result<Date, CatalogueFileError> {
    let s = s.trim();
    if let Some(rest) = s.strip_prefix("today") {
        let offset: i64 = if rest.is_empty() {
            0
        } else {
            rest.trim_start_matches('+')
                .parse()
                .map_err(|_| err(format!("bad relative day {s:?}")))?
        };
        return today
            .checked_add(offset.days())
            .map_err(|e| err(format!("{s:?}: {e}")));
    }
    s.parse::<Date>()
        .map_err(|e| err(format!("bad day {s:?}: {e}")))
}

/// "<day> HH:MM" in Asia/Jerusalem, to UTC milliseconds.
pub fn parse_local(s: &str, today: Date) -> Result<i64, CatalogueFileError> {
    let (day, time) = s
        .trim()
        .rsplit_once(' ')
        .ok_or_else(|| err(format!("{s:?}: want \"<day> HH:MM\"")))?;
    local_ms(parse_day(day, today)?, parse_time(time)?)
}

fn parse_time(s: &str) -> Result<Time, CatalogueFileError> {
    s.parse::<Time>()
        .map_err(|e| err(format!("bad time {s:?}: {e}")))
}

fn local_ms(day: Date, time: Time) -> Result<i64, CatalogueFileError> {
    let zoned = day
        .to_datetime(time)
        .to_zoned(kupa_domain::time::zone())
        .map_err(|e| err(format!("{day} {time}: {e}")))?;
    Ok(zoned.timestamp().as_millisecond())
}

/// Turns the file into rows, checking every reference, so a bad file fails before anything is written.
pub fn expand(file: CatalogueFile, today: Date) -> Result<CatalogueData, CatalogueFileError> {
    // A ticket tied to a custom seat attribute names one the site configuration defines.
    for t in &file.tickets {
        if let Some(kupa_domain::seat_kinds::SeatKind::Attribute(code)) = &t.seat_kind
            && !file
                .site_config
                .custom_seat_attributes
                .iter()
                .any(|a| &a.code == code)
        {
            return Err(err(format!(
                "ticket {}: seatKind attribute:{code} is not a customSeatAttributes code",
                t.id
            )));
        }
    }
    let mut data = CatalogueData {
        site_config: serde_json::to_value(file.site_config.normalised())
            .map_err(|e| err(e.to_string()))?,
        locations: file.locations,
        venues: file.venues,
        categories: file.categories,
        features: file.features,
        ticket_groups: file.ticket_groups,
        tickets: file.tickets,
        products: file.products.into_iter().map(Product::folded).collect(),
        service_charges: file.service_charges,
        // Spec 4: stored mobiles starting +972 start with 0 instead; the login looks them up so.
        customers: file
            .customers
            .into_iter()
            .map(|mut c| {
                if let Some(m) = kupa_domain::customer::MobileNumber::parse(&c.mobile) {
                    c.mobile = m.as_str().to_owned();
                }
                c
            })
            .collect(),
        memberships: file.memberships,
        mini_sites: file.mini_sites,
        integrations: file.integrations,
        ref_prompt_options: file.ref_prompt_options,
        ..CatalogueData::default()
    };
    for c in file.ticket_codes {
        let day = |d: &Option<String>| -> Result<Option<String>, CatalogueFileError> {
            d.as_deref()
                .map(|d| parse_day(d, today).map(|d| d.to_string()))
                .transpose()
        };
        data.ticket_codes.push(TicketCode {
            code: c.code.trim().to_owned(),
            valid_from: day(&c.valid_from)?,
            valid_to: day(&c.valid_to)?,
            ..c
        });
    }
    gifts::expand_gifts(
        file.system_voucher_classes,
        file.donations,
        today,
        &mut data,
    )?;
    for s in file.seasons {
        let day = |d: &Option<String>| -> Result<Option<String>, CatalogueFileError> {
            d.as_deref()
                .map(|d| parse_day(d, today).map(|d| d.to_string()))
                .transpose()
        };
        data.seasons.push(crate::memberships::Season {
            enroll_from: day(&s.enroll_from)?,
            enroll_to: day(&s.enroll_to)?,
            ..s
        });
    }
    for m in file.members {
        let start_date = parse_day(&m.start_date, today)?.to_string();
        let end_date = parse_day(&m.end_date, today)?.to_string();
        data.members.push(Member {
            start_date,
            end_date,
            ..m
        });
    }
    for sp in file.seatplans {
        expand_seatplan(sp, &mut data)?;
    }
    let first_plan = |venue_id: i64| {
        data.seatplans
            .iter()
            .find(|s| s.venue_id == venue_id)
            .map(|s| s.id)
    };
    let venue_business = |venue_id: i64| -> Option<i64> {
        let v = data.venues.iter().find(|v| v.id == venue_id)?;
        data.locations
            .iter()
            .find(|l| l.id == v.location_id)
            .map(|l| l.business_id)
    };

    let mut presentations = Vec::new();
    for p in &file.presentations {
        let starts_at_ms = parse_local(&p.starts, today)?;
        let seatplan_id = p
            .seatplan_id
            .or(first_plan(p.venue_id))
            .ok_or_else(|| err(format!("presentation {}: venue has no seat plan", p.id)))?;
        let sale_starts_at_ms = match &p.sale_starts {
            Some(s) => parse_local(s, today)?,
            None => default_sale_start(starts_at_ms, today)?,
        };
        let available_until_ms = match &p.available_until {
            Some(d) => Some(local_ms(
                parse_day(d, today)?
                    .checked_add(1.day())
                    .map_err(|e| err(e.to_string()))?,
                Time::midnight(),
            )?),
            None => None,
        };
        presentations.push(Presentation {
            id: PresentationId(p.id),
            feature_id: p.feature_id,
            venue_id: p.venue_id,
            seatplan_id,
            starts_at_ms,
            available_until_ms,
            sale_starts_at_ms,
            sale_ends_at_ms: available_until_ms
                .unwrap_or(starts_at_ms + SALE_CLOSES_AFTER_START_MS),
            auth_profile_id: p.auth_profile_id.unwrap_or(1),
            business_id: p.business_id.or(venue_business(p.venue_id)).unwrap_or(0),
            seating_policy_id: p.seating_policy_id.unwrap_or(1),
            new_booking_url: p.new_booking_url.clone(),
            cancellation_window_minutes: window(p.cancellation_window_minutes, p.id)?,
            ticket_group_id: p.ticket_group_id,
        });
    }
    let mut next_id = SCHEDULE_FIRST_ID.max(
        presentations
            .iter()
            .map(|p| p.id.get() + 1)
            .max()
            .unwrap_or(0),
    );
    for s in &file.schedule {
        let every = s.every.unwrap_or(1).max(1);
        let seatplan_id = s.seatplan_id.or(first_plan(s.venue_id)).ok_or_else(|| {
            err(format!(
                "schedule of feature {}: venue {} has no seat plan",
                s.feature_id, s.venue_id
            ))
        })?;
        let times = s
            .times
            .iter()
            .map(|t| parse_time(t))
            .collect::<Result<Vec<_>, _>>()?;
        let mut offset = s.from_day;
        while offset <= s.to_day {
            let day = today
                .checked_add(offset.days())
                .map_err(|e| err(e.to_string()))?;
            for &time in &times {
                let starts_at_ms = local_ms(day, time)?;
                let available_until_ms = match s.available_days {
                    Some(n) => Some(local_ms(
                        day.checked_add(n.days()).map_err(|e| err(e.to_string()))?,
                        Time::midnight(),
                    )?),
                    None => None,
                };
                presentations.push(Presentation {
                    id: PresentationId(next_id),
                    feature_id: s.feature_id,
                    venue_id: s.venue_id,
                    seatplan_id,
                    starts_at_ms,
                    available_until_ms,
                    sale_starts_at_ms: default_sale_start(starts_at_ms, today)?,
                    sale_ends_at_ms: available_until_ms
                        .unwrap_or(starts_at_ms + SALE_CLOSES_AFTER_START_MS),
                    auth_profile_id: s.auth_profile_id.unwrap_or(1),
                    business_id: s.business_id.or(venue_business(s.venue_id)).unwrap_or(0),
                    seating_policy_id: s.seating_policy_id.unwrap_or(1),
                    new_booking_url: String::new(),
                    cancellation_window_minutes: window(s.cancellation_window_minutes, next_id)?,
                    ticket_group_id: s.ticket_group_id,
                });
                next_id += 1;
            }
            offset += every;
        }
    }
    presentations.sort_by_key(|p| (p.starts_at_ms, p.id));
    data.presentations = presentations;
    check_references(&data)?;
    Ok(data)
}

/// Sales open 21 days ahead at 10:00 local time.
fn default_sale_start(starts_at_ms: i64, _today: Date) -> Result<i64, CatalogueFileError> {
    let start_day = kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(starts_at_ms));
    let open_day = start_day
        .checked_sub(21.days())
        .map_err(|e| err(e.to_string()))?;
    local_ms(open_day, Time::constant(10, 0, 0, 0))
}

fn expand_seatplan(sp: SeatplanFile, data: &mut CatalogueData) -> Result<(), CatalogueFileError> {
    let mut seats = Vec::new();
    for (sort, sec) in sp.sections.iter().enumerate() {
        let capacity = match sec.kind {
            SectionKind::Ga => {
                if sec.capacity <= 0 || !sec.rows.is_empty() {
                    return Err(err(format!(
                        "GA section {} needs a capacity and no rows",
                        sec.id
                    )));
                }
                sec.capacity
            }
            SectionKind::Reserved => {
                let before = seats.len();
                for row in &sec.rows {
                    if row.seats <= 0 {
                        return Err(err(format!(
                            "section {} row {:?} has no seats",
                            sec.id, row.name
                        )));
                    }
                    let mut x = row.x;
                    for i in 0..row.seats {
                        let number = if row.descending { row.seats - i } else { i + 1 };
                        // Seats 1-2, 3-4, ... of a row share a sofa, whichever way the names run.
                        let sofa_id = sec.id * 100_000 + row.y * 1_000 + (number + 1) / 2;
                        seats.push(Seat {
                            seatplan_id: sp.id,
                            section_id: sec.id,
                            x,
                            y: row.y,
                            row_name: row.name.clone(),
                            seat_name: number.to_string(),
                            group_id: row.y,
                            premium: row.premium,
                            handicap: row.wheelchair.contains(&number),
                            companion: row.companion.contains(&number),
                            limited_view: row.limited_view.contains(&number),
                            sofa_id: row.sofas.then_some(sofa_id),
                            attributes: row.attributes.clone(),
                        });
                        let aisle_number = if row.descending { number - 1 } else { number };
                        x += if row.aisles_after.contains(&aisle_number) {
                            2
                        } else {
                            1
                        };
                    }
                }
                (seats.len() - before) as i64
            }
        };
        data.sections.push(Section {
            id: sec.id,
            seatplan_id: sp.id,
            name: sec.name.clone(),
            name_en: sec.name_en.clone(),
            kind: sec.kind,
            capacity,
            ticket_group_id: sec.ticket_group_id,
            price_level: sec.price_level.max(1),
            sort: sort as i64,
        });
    }
    let (max_x, max_y) = seats
        .iter()
        .fold((0, 0), |(mx, my), s| (mx.max(s.x), my.max(s.y)));
    let [best_x, best_y] = sp.best.unwrap_or([(max_x + 1) / 2, (max_y * 2 + 2) / 3]);
    data.seatplans.push(Seatplan {
        id: sp.id,
        venue_id: sp.venue_id,
        name: sp.name,
        width: max_x + 1,
        height: max_y + 1,
        screen_label: sp.screen_label,
        screen_label_en: sp.screen_label_en,
        best_x,
        best_y,
        screen_x: None,
        screen_width: None,
    });
    data.seats.extend(seats);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    const SMALL: &str = r#"{
      "siteConfig": {},
      "locations": [{"id": 2, "name": "כפר", "businessId": 1, "isCinema": true}],
      "venues": [{"id": 1, "locationId": 2, "name": "אולם 1", "venueTypeId": 1}],
      "seatplans": [{"id": 1, "venueId": 1, "sections": [
        {"id": 10, "kind": "reserved", "ticketGroupId": 1, "rows": [
          {"name": "1", "y": 1, "x": 1, "seats": 6, "aislesAfter": [3], "descending": true, "sofas": true, "wheelchair": [1]}
        ]},
        {"id": 11, "kind": "ga", "capacity": 50, "ticketGroupId": 1}
      ]}],
      "categories": [{"id": 1, "name": "דרמה"}],
      "features": [{"id": 5, "name": "סרט", "categoryId": 1}],
      "ticketGroups": [{"id": 1, "name": "רגיל"}],
      "tickets": [{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1}],
      "presentations": [{"id": 7, "featureId": 5, "venueId": 1, "starts": "today+2 20:30", "saleStarts": "today+1 10:00"}],
      "schedule": [{"featureId": 5, "venueId": 1, "times": ["10:00", "22:15"], "fromDay": -1, "toDay": 1}]
    }"#;

    #[test]
    fn rows_become_seats_with_aisles_sofas_and_flags() {
        let d = expand(parse(SMALL).unwrap(), date(2026, 11, 22)).unwrap();
        let names: Vec<(&str, i64)> = d
            .seats
            .iter()
            .map(|s| (s.seat_name.as_str(), s.x))
            .collect();
        // Descending names: seat 6 at x=1; the aisle comes after seat 3, i.e. between 4 and 3.
        assert_eq!(
            names,
            vec![("6", 1), ("5", 2), ("4", 3), ("3", 5), ("2", 6), ("1", 7)]
        );
        let s1 = d.seats.iter().find(|s| s.seat_name == "1").unwrap();
        let s2 = d.seats.iter().find(|s| s.seat_name == "2").unwrap();
        let s3 = d.seats.iter().find(|s| s.seat_name == "3").unwrap();
        assert!(s1.handicap && !s2.handicap);
        assert_eq!(s1.sofa_id, s2.sofa_id);
        assert_ne!(s2.sofa_id, s3.sofa_id);
        assert_eq!(d.sections[0].capacity, 6);
        assert_eq!(d.sections[1].capacity, 50);
    }

    #[test]
    fn schedule_is_relative_to_the_seeding_day_in_jerusalem_time() {
        let d = expand(parse(SMALL).unwrap(), date(2026, 11, 22)).unwrap();
        assert_eq!(d.presentations.len(), 1 + 3 * 2);
        let explicit = d
            .presentations
            .iter()
            .find(|p| p.id == PresentationId(7))
            .unwrap();
        assert_eq!(
            kupa_domain::time::ms_to_rfc3339(explicit.starts_at_ms),
            "2026-11-24T18:30:00Z"
        );
        assert_eq!(
            kupa_domain::time::ms_to_rfc3339(explicit.sale_starts_at_ms),
            "2026-11-23T08:00:00Z"
        );
        assert_eq!(
            explicit.sale_ends_at_ms - explicit.starts_at_ms,
            SALE_CLOSES_AFTER_START_MS
        );
        assert_eq!(
            explicit.business_id, 1,
            "business comes from the venue's location"
        );
        let first = &d.presentations[0];
        assert_eq!(
            kupa_domain::time::ms_to_rfc3339(first.starts_at_ms),
            "2026-11-21T08:00:00Z"
        );
        assert!(
            d.presentations
                .iter()
                .filter(|p| p.id != PresentationId(7))
                .all(|p| p.id >= PresentationId(SCHEDULE_FIRST_ID))
        );
    }

    #[test]
    fn unknown_references_and_duplicate_ids_are_refused() {
        let bad = SMALL.replace(
            r#""featureId": 5, "venueId": 1, "starts""#,
            r#""featureId": 99, "venueId": 1, "starts""#,
        );
        let e = expand(parse(&bad).unwrap(), date(2026, 11, 22)).unwrap_err();
        assert!(e.0.contains("unknown feature 99"), "{e}");
        let dup = SMALL.replace(
            r#"{"id": 1, "name": "רגיל"}"#,
            r#"{"id": 1, "name": "רגיל"}, {"id": 1, "name": "x"}"#,
        );
        assert!(
            expand(parse(&dup).unwrap(), date(2026, 11, 22))
                .unwrap_err()
                .0
                .contains("appears twice")
        );
        assert!(
            parse(r#"{"nonsense": 1}"#).is_err(),
            "unknown fields are refused"
        );
        // Two rows drawn over one another name the same places twice.
        let row = r#"{"name": "1", "y": 1, "x": 1, "seats": 6, "aislesAfter": [3], "descending": true, "sofas": true, "wheelchair": [1]}"#;
        let twice = SMALL.replace(
            row,
            &format!(r#"{row}, {{"name": "2", "y": 1, "x": 1, "seats": 2}}"#),
        );
        assert_ne!(
            twice, SMALL,
            "the test catalogue changed: this test no longer adds a row"
        );
        let e = expand(parse(&twice).unwrap(), date(2026, 11, 22)).unwrap_err();
        assert!(e.0.contains("two seats at x 1 y 1"), "{e}");
    }

    #[test]
    fn a_pass_ticket_is_member_only_priced_zero_and_takes_a_positive_amount() {
        let with = |t: &str| {
            SMALL.replace(
                r#""tickets": [{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1}],"#,
                &format!(r#""tickets": [{t}],"#),
            )
        };
        let load = |t: &str| expand(parse(&with(t)).unwrap(), date(2026, 11, 22));
        let good = r#"{"id": 1, "ticketGroupId": 1, "price": 0, "multiplyFactor": 1, "memberOnly": true, "memberBalancePrice": 3500}"#;
        assert!(load(good).is_ok());
        for bad in [
            good.replace(r#""memberOnly": true"#, r#""memberOnly": false"#),
            good.replace(r#""price": 0"#, r#""price": 100"#),
            good.replace("3500", "0"),
            good.replace("3500", r#"3500, "loyaltyPointsPrice": 10"#),
        ] {
            let e = load(&bad).unwrap_err();
            assert!(e.0.contains("a pass ticket"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_membership_sold_online_must_make_sense() {
        let with = |m: &str| {
            SMALL.replacen(
                r#""schedule""#,
                &format!(r#""memberships": [{m}], "schedule""#),
                1,
            )
        };
        let load = |m: &str| expand(parse(&with(m)).unwrap(), date(2026, 11, 22));
        let pass = r#"{"id": 2, "typeId": 2, "name": "כרטיסייה", "price": 100, "topUp": true,
                       "prices": [{"id": 21, "price": 100, "value": 120, "reference1": {"label": "מספר", "pattern": "^[0-9]+$"}}]}"#;
        let d = load(pass).unwrap();
        let m = &d.memberships[0];
        assert_eq!(
            (m.valid_months, m.on_sale, m.top_up),
            (12, true, true),
            "the defaults"
        );
        for (bad, why) in [
            (
                pass.replace(r#""typeId": 2"#, r#""typeId": 1"#),
                "only a series",
            ),
            (pass.replace("^[0-9]+$", "[0-9"), "not a regular expression"),
            (
                pass.replace(r#""topUp": true"#, r#""validMonths": 0"#),
                "validMonths",
            ),
            (
                pass.replace(r#""value": 120"#, r#""currency": "ils""#),
                "not a code",
            ),
            (
                pass.replace(r#""price": 100, "value""#, r#""price": -1, "value""#),
                "negative",
            ),
        ] {
            let e = load(&bad).unwrap_err();
            assert!(e.0.contains(why), "{why}: {e}");
        }
    }

    fn with_codes(codes: &str) -> String {
        SMALL.replacen(
            r#""schedule""#,
            &format!(
                r#""ticketGroups": [{{"id": 1, "name": "רגיל", "isByCodeEnabled": true}}, {{"id": 2, "name": "אחר"}}],
      "tickets": [{{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1, "refPrompt": "חדר"}},
                  {{"id": 2, "ticketGroupId": 1, "price": 3500, "multiplyFactor": 1, "byCodeOnly": true}},
                  {{"id": 3, "ticketGroupId": 2, "price": 3500, "multiplyFactor": 1}}],
      {codes},
      "schedule""#
            ),
            1,
        )
        .replacen(r#""ticketGroups": [{"id": 1, "name": "רגיל"}],"#, "", 1)
        .replacen(
            r#""tickets": [{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1}],"#,
            "",
            1,
        )
    }

    #[test]
    fn a_ticket_names_a_seat_kind_the_file_knows() {
        let tied = |kind: &str| {
            SMALL.replacen(
                r#""tickets": [{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1}],"#,
                &format!(
                    r#""tickets": [{{"id": 1, "ticketGroupId": 1, "price": 4200, "multiplyFactor": 1, "seatKind": "{kind}"}}],"#
                ),
                1,
            )
        };
        let d = expand(parse(&tied("wheelchair")).unwrap(), date(2026, 11, 22)).unwrap();
        assert_eq!(
            d.tickets[0].seat_kind,
            Some(kupa_domain::seat_kinds::SeatKind::Wheelchair)
        );
        assert!(parse(&tied("vip")).is_err(), "an unknown kind is refused");
        let e = expand(
            parse(&tied("attribute:recliner")).unwrap(),
            date(2026, 11, 22),
        )
        .unwrap_err();
        assert!(e.0.contains("customSeatAttributes"), "{}", e.0);
    }

    #[test]
    fn ticket_codes_get_their_days_and_a_trimmed_code() {
        let file = with_codes(
            r#""ticketCodes": [{"id": 1, "code": " Kupa10 ", "kind": "discountCode", "ticketId": 2, "validFrom": "today-3", "validTo": "today+30"}],
      "refPromptOptions": [{"ticketId": 1, "reference": "101", "quantity": 2}]"#,
        );
        let d = expand(parse(&file).unwrap(), date(2026, 11, 22)).unwrap();
        let c = &d.ticket_codes[0];
        assert_eq!(c.code, "Kupa10");
        assert_eq!(
            (c.valid_from.as_deref(), c.valid_to.as_deref()),
            (Some("2026-11-19"), Some("2026-12-22"))
        );
        assert_eq!(d.ref_prompt_options.len(), 1);
        assert!(d.tickets.iter().any(|t| t.id == 2 && t.by_code_only));
    }

    #[test]
    fn bad_ticket_codes_and_reference_options_are_refused() {
        let refused = |codes: &str, why: &str| {
            let e = expand(parse(&with_codes(codes)).unwrap(), date(2026, 11, 22)).unwrap_err();
            assert!(e.0.contains(why), "{why}: {e}");
        };
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "ticketId": 2}, {"id": 2, "code": " a", "ticketId": 2}]"#,
            "appears twice",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "ticketId": 3}]"#,
            "does not take codes",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "ticketId": 9}]"#,
            "unknown ticket 9",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "kind": "creditCardBenefit", "ticketId": 2}]"#,
            "cardPrefix",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "ticketId": 2, "usageLimit": 1, "usedCount": 2}]"#,
            "usedCount",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "A", "ticketId": 2, "validFrom": "today", "validTo": "today-1"}]"#,
            "validFrom is after validTo",
        );
        refused(
            r#""refPromptOptions": [{"ticketId": 2, "reference": "101", "quantity": 1}]"#,
            "has no refPrompt",
        );
        refused(
            r#""ticketCodes": [{"id": 1, "code": "  ", "ticketId": 2}]"#,
            "empty",
        );
    }

    #[test]
    fn relative_days() {
        let t = date(2026, 11, 22);
        assert_eq!(parse_day("today", t).unwrap(), t);
        assert_eq!(parse_day("today+10", t).unwrap(), date(2026, 12, 2));
        assert_eq!(parse_day("today-14", t).unwrap(), date(2026, 11, 8));
        assert_eq!(parse_day("2027-01-05", t).unwrap(), date(2027, 1, 5));
        assert!(parse_day("tomorrow", t).is_err());
    }
}
