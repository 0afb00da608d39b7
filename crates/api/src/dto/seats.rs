//! Seat plans and seat states on the wire: sections, the short and long seat forms, statuses.

use kupa_app::catalogue::{SeatStatus, SeatplanFull};
use kupa_app::model::*;
use kupa_domain::catalogue::SeatState;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Section {
    pub id: i64,
    pub name: String,
    pub name_en: String,
    /// reserved (numbered seats) or ga (general admission).
    pub kind: String,
    /// Seats, or general-admission places.
    pub capacity: i64,
    pub ticket_group_id: i64,
    pub price_level: i64,
}

impl From<&kupa_app::model::Section> for Section {
    fn from(s: &kupa_app::model::Section) -> Section {
        Section {
            id: s.id,
            name: s.name.clone(),
            name_en: s.name_en.clone(),
            kind: s.kind.as_str().to_owned(),
            capacity: s.capacity,
            ticket_group_id: s.ticket_group_id,
            price_level: s.price_level,
        }
    }
}

/// A seat in the short form of the V2 calls.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct SeatShort {
    pub x: i64,
    pub y: i64,
    /// Row name.
    pub r: String,
    /// Seat name.
    pub n: String,
    /// Section id.
    pub si: i64,
    /// Seat group (the row's group).
    pub gi: i64,
    /// Price level of the section.
    pub pi: i64,
    /// Venue id.
    pub vi: i64,
    /// Seat plan id.
    pub sp: i64,
    /// Ticket group id.
    pub tg: i64,
    /// Allocation id: 0, the general allocation (house allocations are not modelled).
    pub ai: i64,
    /// Modifiers: codes of the site's custom seat attributes.
    pub m: Vec<String>,
    /// Premium.
    pub pr: bool,
    /// Handicap (wheelchair place).
    pub hc: bool,
    /// Companion seat of a wheelchair place.
    pub co: bool,
    /// Limited view.
    pub lv: bool,
    /// Sofa (or bed) id: seats sharing it are sold together; null when not a sofa.
    pub sf: Option<i64>,
}

/// A seat in the long form of the older calls.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct SeatLong {
    pub XCoordinate: i64,
    pub YCoordinate: i64,
    pub VenueId: i64,
    pub VenueSeatplanId: i64,
    pub VenueSectionId: i64,
    pub VenueSectionSeatGroupId: i64,
    pub TicketGroupId: i64,
    pub AllocationId: i64,
    pub SectionName: String,
    pub RowName: String,
    pub SeatName: String,
    pub IsPremium: bool,
    pub IsHandicap: bool,
    pub IsCompanion: bool,
    pub IsLimitedView: bool,
    pub SofaId: Option<i64>,
}

fn attributes(s: &Seat) -> Vec<String> {
    s.attributes
        .split(',')
        .map(str::trim)
        .filter(|a| !a.is_empty())
        .map(str::to_owned)
        .collect()
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Screen {
    pub label: String,
    pub label_en: String,
    /// Where the screen stands, in grid cells: from `x`, `width` cells wide (a plan drawn in the
    /// staff area); absent: across the middle of the hall.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub width: Option<i64>,
}

impl Screen {
    pub fn of(sp: &kupa_app::model::Seatplan) -> Screen {
        Screen {
            label: sp.screen_label.clone(),
            label_en: sp.screen_label_en.clone(),
            x: sp.screen_x,
            width: sp.screen_width,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatplanV2 {
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    /// Grid size: seats have 0 <= x < width and 0 <= y < height.
    pub width: i64,
    pub height: i64,
    pub screen: Screen,
    /// The hall's best viewing point, in seat coordinates.
    pub best_x: i64,
    pub best_y: i64,
    pub sections: Vec<Section>,
    pub seats: Vec<SeatShort>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatplanLong {
    pub id: i64,
    pub venue_id: i64,
    pub name: String,
    pub width: i64,
    pub height: i64,
    pub screen: Screen,
    pub sections: Vec<Section>,
    pub seats: Vec<SeatLong>,
}

fn section_price_level(plan: &SeatplanFull, section_id: i64) -> i64 {
    plan.sections
        .iter()
        .find(|s| s.id == section_id)
        .map(|s| s.price_level)
        .unwrap_or(1)
}

fn section_group(plan: &SeatplanFull, section_id: i64) -> i64 {
    plan.sections
        .iter()
        .find(|s| s.id == section_id)
        .map(|s| s.ticket_group_id)
        .unwrap_or(0)
}

impl SeatplanV2 {
    pub fn new(plan: &SeatplanFull) -> SeatplanV2 {
        let sp = &plan.seatplan;
        SeatplanV2 {
            id: sp.id,
            venue_id: plan.venue_id,
            name: sp.name.clone(),
            width: sp.width,
            height: sp.height,
            screen: Screen::of(sp),
            best_x: sp.best_x,
            best_y: sp.best_y,
            sections: plan.sections.iter().map(Section::from).collect(),
            seats: plan
                .seats
                .iter()
                .map(|s| SeatShort {
                    x: s.x,
                    y: s.y,
                    r: s.row_name.clone(),
                    n: s.seat_name.clone(),
                    si: s.section_id,
                    gi: s.group_id,
                    pi: section_price_level(plan, s.section_id),
                    vi: plan.venue_id,
                    sp: sp.id,
                    tg: section_group(plan, s.section_id),
                    ai: 0,
                    m: attributes(s),
                    pr: s.premium,
                    hc: s.handicap,
                    co: s.companion,
                    lv: s.limited_view,
                    sf: s.sofa_id,
                })
                .collect(),
        }
    }
}

impl SeatplanLong {
    pub fn new(plan: &SeatplanFull) -> SeatplanLong {
        let sp = &plan.seatplan;
        let section_name = |id: i64| {
            plan.sections
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.name.clone())
                .unwrap_or_default()
        };
        SeatplanLong {
            id: sp.id,
            venue_id: plan.venue_id,
            name: sp.name.clone(),
            width: sp.width,
            height: sp.height,
            screen: Screen::of(sp),
            sections: plan.sections.iter().map(Section::from).collect(),
            seats: plan
                .seats
                .iter()
                .map(|s| SeatLong {
                    XCoordinate: s.x,
                    YCoordinate: s.y,
                    VenueId: plan.venue_id,
                    VenueSeatplanId: sp.id,
                    VenueSectionId: s.section_id,
                    VenueSectionSeatGroupId: s.group_id,
                    TicketGroupId: section_group(plan, s.section_id),
                    AllocationId: 0,
                    SectionName: section_name(s.section_id),
                    RowName: s.row_name.clone(),
                    SeatName: s.seat_name.clone(),
                    IsPremium: s.premium,
                    IsHandicap: s.handicap,
                    IsCompanion: s.companion,
                    IsLimitedView: s.limited_view,
                    SofaId: s.sofa_id,
                })
                .collect(),
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SectionStatus {
    pub id: i64,
    pub kind: String,
    pub capacity: i64,
    /// Places (or seats) free to claim now: neither held (by anyone, this buyer included) nor sold.
    pub remaining: i64,
    pub sold_out: bool,
}

/// One seat's state, short form.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SeatStatusShort {
    pub x: i64,
    pub y: i64,
    pub si: i64,
    /// available, heldByMe, heldByOther or sold.
    pub s: String,
    /// Free to claim now.
    pub is_available: bool,
    /// Not selectable by this buyer now: the seating policy (it would leave a new single seat), or a section with no price online; see docs/api.md.
    pub is_blocked: bool,
    /// Held by the asking session.
    pub is_selected: bool,
    /// Why a blocked seat is blocked (absent when it is not): `singleSeat` or `boxOffice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_reason: Option<SeatBlockReason>,
}

/// Why a seat is not selectable by this buyer now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub enum SeatBlockReason {
    /// Taking it would leave a new single empty seat beside the buyer's (seating policy 3).
    SingleSeat,
    /// Its section has no price online: sold at the box office only.
    BoxOffice,
}

fn block_reason(status: &SeatStatus, seat: &Seat) -> Option<SeatBlockReason> {
    status.block_reason(&key(seat)).map(|r| match r {
        kupa_app::catalogue::BlockReason::SingleSeat => SeatBlockReason::SingleSeat,
        kupa_app::catalogue::BlockReason::BoxOffice => SeatBlockReason::BoxOffice,
    })
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
#[allow(non_snake_case)]
pub struct SeatStatusLong {
    pub XCoordinate: i64,
    pub YCoordinate: i64,
    pub VenueSectionId: i64,
    pub Status: String,
    pub IsAvailable: bool,
    pub IsBlocked: bool,
    pub IsSelected: bool,
    /// Why a blocked seat is blocked (absent when it is not): `singleSeat` or `boxOffice`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub BlockReason: Option<SeatBlockReason>,
}

fn key(seat: &Seat) -> kupa_domain::seating::SeatAddress {
    kupa_domain::seating::SeatAddress {
        section_id: seat.section_id,
        x: seat.x,
        y: seat.y,
    }
}

/// What both forms of the seat status say of one seat.
struct SeatParts {
    s: String,
    is_available: bool,
    is_blocked: bool,
    is_selected: bool,
    block_reason: Option<SeatBlockReason>,
}

/// Each seat of the status, written by `each` from its seat and its parts.
fn each_seat<T>(status: &SeatStatus, each: impl Fn(&Seat, SeatParts) -> T) -> Vec<T> {
    status
        .seats
        .iter()
        .map(|(seat, state)| {
            let parts = SeatParts {
                s: state.as_str().to_owned(),
                is_available: *state == SeatState::Available,
                is_blocked: status.blocked.contains(&key(seat)),
                is_selected: *state == SeatState::HeldByMe,
                block_reason: block_reason(status, seat),
            };
            each(seat, parts)
        })
        .collect()
}

pub fn section_statuses(status: &SeatStatus) -> Vec<SectionStatus> {
    status
        .sections
        .iter()
        .map(|s| SectionStatus {
            id: s.section.id,
            kind: s.section.kind.as_str().to_owned(),
            capacity: s.section.capacity,
            remaining: s.remaining,
            sold_out: s.sold_out,
        })
        .collect()
}

pub fn seat_statuses_short(status: &SeatStatus) -> Vec<SeatStatusShort> {
    each_seat(status, |seat, p| SeatStatusShort {
        x: seat.x,
        y: seat.y,
        si: seat.section_id,
        s: p.s,
        is_available: p.is_available,
        is_blocked: p.is_blocked,
        is_selected: p.is_selected,
        block_reason: p.block_reason,
    })
}

pub fn seat_statuses_long(status: &SeatStatus) -> Vec<SeatStatusLong> {
    each_seat(status, |seat, p| SeatStatusLong {
        XCoordinate: seat.x,
        YCoordinate: seat.y,
        VenueSectionId: seat.section_id,
        Status: p.s,
        IsAvailable: p.is_available,
        IsBlocked: p.is_blocked,
        IsSelected: p.is_selected,
        BlockReason: p.block_reason,
    })
}
