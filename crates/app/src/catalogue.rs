//! Catalogue use cases: what is on, one presentation, its ticket groups, seat plans and the
//! state of their seats, as a buyer through a given channel (web, mini-site) may see them.

use std::collections::HashMap;
use std::sync::Arc;

use jiff::civil::Date;
use kupa_domain::catalogue::{
    SaleState, SaleWindow, SeatState, SeatingMode, SectionKind, is_vod_venue_type,
};
use kupa_domain::seating::SeatAddress;
use kupa_domain::time;

use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::*;
use crate::ports::{Captcha, CatalogueStore, ClaimStore, Clock};
use crate::site_config::SiteConfig;

/// How far ahead "upcoming" lists reach.
const UPCOMING_DAYS: i64 = 60;
/// Integration links are valid this long either side of their time stamp.
const INTEGRATION_SKEW_MS: i64 = 10 * 60 * 1000;

/// A presentation with what the wire needs derived once, here.
#[derive(Debug, Clone, PartialEq)]
pub struct PresentationInfo {
    pub view: PresentationView,
    pub sale_state: SaleState,
    pub seating_mode: SeatingMode,
    pub is_vod: bool,
}

impl PresentationInfo {
    /// Refuses a presentation outside its sale window: not started yet, or ended.
    pub fn require_on_sale(&self) -> AppResult<()> {
        match self.sale_state {
            SaleState::OnSale => Ok(()),
            SaleState::NotYetStarted => Err(AppError::rejected(
                ErrorCode::TicketSaleNotYetStarted,
                "ticket sale has not started yet",
            )),
            SaleState::Ended => Err(AppError::rejected(
                ErrorCode::TicketingEnded,
                "ticketing for this presentation has ended",
            )),
        }
    }

    fn new(view: PresentationView, now_ms: i64) -> PresentationInfo {
        let p = &view.presentation;
        let sale_state = SaleWindow {
            starts_at_ms: p.sale_starts_at_ms,
            ends_at_ms: p.sale_ends_at_ms,
        }
        .state_at(now_ms);
        let seating_mode =
            SeatingMode::from_sections(view.reserved_sections as usize, view.ga_sections as usize);
        let is_vod = is_vod_venue_type(view.venue.venue_type_id);
        PresentationInfo {
            view,
            sale_state,
            seating_mode,
            is_vod,
        }
    }

    pub fn id(&self) -> i64 {
        self.view.presentation.id
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct PresentationDetail {
    pub info: PresentationInfo,
    pub products: Vec<Product>,
    pub service_charge: Option<ServiceCharge>,
}

/// Who is asking: the web shop, or a mini-site that shows only part of the programme.
#[derive(Debug, Clone, Default)]
pub struct Channel {
    pub mini_site: Option<MiniSite>,
}

impl Channel {
    fn admits(&self, v: &PresentationView) -> bool {
        match &self.mini_site {
            None => true,
            Some(m) => {
                (m.feature_ids.is_empty() || m.feature_ids.contains(&v.feature.id))
                    && m.location_id.is_none_or(|l| l == v.location.id)
            }
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct PresentationFilter {
    pub feature_ids: Vec<i64>,
    pub location_id: Option<i64>,
}

impl PresentationFilter {
    fn admits(&self, v: &PresentationView) -> bool {
        (self.feature_ids.is_empty() || self.feature_ids.contains(&v.feature.id))
            && self.location_id.is_none_or(|l| l == v.location.id)
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct SeatplanFull {
    pub venue_id: i64,
    pub seatplan: Seatplan,
    pub sections: Vec<Section>,
    pub seats: Vec<Seat>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SectionStatus {
    pub section: Section,
    /// Places not held or sold; for reserved sections, available seats.
    pub remaining: i64,
    pub sold_out: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct SeatStatus {
    pub presentation_id: i64,
    pub sections: Vec<SectionStatus>,
    pub seats: Vec<(Seat, SeatState)>,
    /// Free seats this buyer may not take next: under seating policy 3 they would leave a new
    /// single empty seat beside the buyer's selection.
    pub blocked: std::collections::BTreeSet<kupa_domain::seating::SeatAddress>,
}

pub struct CatalogueService {
    store: Arc<dyn CatalogueStore>,
    claims: Arc<dyn ClaimStore>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    /// Test mode only: step timers that replace the configured ones, for holds and config alike.
    timer_override: std::sync::RwLock<Option<crate::site_config::TimerMode>>,
    /// The claims of recently asked presentations, for the seat status (see `claims_for_status`).
    claims_cache: std::sync::Mutex<HashMap<i64, CachedClaims>>,
}

/// Claims read for the seat status, reused until a seat event of the presentation, a hold's
/// deadline passing, or `CLAIMS_TTL_MS`.
struct CachedClaims {
    read_at: std::time::Instant,
    /// Bumped by every change: a read that began before a change is not kept after it.
    generation: u64,
    claims: Option<Arc<Vec<Claim>>>,
    /// The earliest deadline of a live hold when read: past it, a hold may have expired or been
    /// extended (extensions publish no event), so the claims are read again.
    next_deadline_ms: i64,
}

/// How long the seat status may be served from memory without any event saying it changed (the
/// safety net for a missed cross-node event). The status is advisory: a lock always asks the
/// database.
pub const CLAIMS_TTL_MS: u64 = 1_000;

fn no_event(id: i64) -> AppError {
    AppError::rejected(ErrorCode::NoEvent, format!("presentation {id} not found"))
}

impl CatalogueService {
    pub fn new(
        store: Arc<dyn CatalogueStore>,
        claims: Arc<dyn ClaimStore>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
    ) -> CatalogueService {
        CatalogueService {
            store,
            claims,
            captcha,
            clock,
            timer_override: std::sync::RwLock::new(None),
            claims_cache: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// A seat of the presentation changed (on this node or, relayed, another; None: any may have):
    /// the next seat status reads the claims again.
    pub fn forget_claims(&self, presentation_id: Option<i64>) {
        let mut cache = self.claims_cache.lock().expect("claims cache poisoned");
        let Some(presentation_id) = presentation_id else {
            for c in cache.values_mut() {
                c.generation += 1;
                c.claims = None;
            }
            return;
        };
        let entry = cache.entry(presentation_id).or_insert(CachedClaims {
            read_at: std::time::Instant::now(),
            generation: 0,
            claims: None,
            next_deadline_ms: 0,
        });
        entry.generation += 1;
        entry.claims = None;
    }

    /// The claims for the seat status: from memory when nothing says they changed, so a hall's
    /// watchers reloading the status during a rush cost the database one read, not one each.
    async fn claims_for_status(&self, presentation_id: i64) -> AppResult<Arc<Vec<Claim>>> {
        let now = self.now_ms();
        let generation = {
            let cache = self.claims_cache.lock().expect("claims cache poisoned");
            match cache.get(&presentation_id) {
                Some(c) => {
                    if let Some(claims) = &c.claims
                        && c.read_at.elapsed().as_millis() < u128::from(CLAIMS_TTL_MS)
                        && now < c.next_deadline_ms
                    {
                        return Ok(claims.clone());
                    }
                    c.generation
                }
                None => 0,
            }
        };
        let claims = Arc::new(self.claims.claims(presentation_id).await?);
        let next_deadline_ms = claims
            .iter()
            .filter(|c| c.view().is_live_hold(now))
            .map(|c| c.expires_at_ms)
            .min()
            .unwrap_or(i64::MAX);
        let mut cache = self.claims_cache.lock().expect("claims cache poisoned");
        if cache.len() > 10_000 {
            cache.retain(|_, c| c.read_at.elapsed().as_millis() < u128::from(CLAIMS_TTL_MS));
        }
        let entry = cache.entry(presentation_id).or_insert(CachedClaims {
            read_at: std::time::Instant::now(),
            generation,
            claims: None,
            next_deadline_ms,
        });
        // Keep what was read only if no change came in while reading.
        if entry.generation == generation {
            entry.read_at = std::time::Instant::now();
            entry.claims = Some(claims.clone());
            entry.next_deadline_ms = next_deadline_ms;
        }
        Ok(claims)
    }

    /// Test mode: shorter (or longer) step timers for every checkout from now on; None restores
    /// the configured ones.
    pub fn set_timer_override(&self, timers: Option<crate::site_config::TimerMode>) {
        *self.timer_override.write().expect("timer lock") = timers;
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    pub async fn site_config(&self) -> AppResult<SiteConfig> {
        let mut config = match self.store.site_config().await? {
            None => SiteConfig::default(),
            Some(doc) => serde_json::from_value::<SiteConfig>(doc).map_err(AppError::internal)?,
        };
        if let Some(timers) = *self.timer_override.read().expect("timer lock") {
            config.timer_mode = timers;
        }
        Ok(config.normalised())
    }

    /// The channel for an optional `miniSiteUrl`; an unknown mini-site is an error, not "everything".
    pub async fn channel(&self, mini_site_url: Option<&str>) -> AppResult<Channel> {
        match mini_site_url.filter(|u| !u.is_empty()) {
            None => Ok(Channel::default()),
            Some(url) => match self.store.mini_site(url).await? {
                Some(m) => Ok(Channel { mini_site: Some(m) }),
                None => Err(AppError::rejected(
                    ErrorCode::NotFound,
                    format!("no mini-site {url:?}"),
                )),
            },
        }
    }

    /// Every presentation starting on a local calendar day in Asia/Jerusalem.
    pub async fn presentations_on(
        &self,
        day: Date,
        channel: &Channel,
    ) -> AppResult<Vec<PresentationInfo>> {
        let (from, to) = time::local_day_range_ms(day);
        let now = self.now_ms();
        let views = self.store.presentations_between(from, to).await?;
        Ok(views
            .into_iter()
            .filter(|v| channel.admits(v))
            .map(|v| PresentationInfo::new(v, now))
            .collect())
    }

    /// The local days, from today on, with a screening whose sale has not ended (on sale or
    /// opening later): the days a buyer can choose. Video on demand has no day to choose.
    pub async fn sale_dates(&self, channel: &Channel) -> AppResult<Vec<Date>> {
        let now = self.now_ms();
        let today = time::local_date(time::ms_to_timestamp(now));
        let (from, _) = time::local_day_range_ms(today);
        let views = self
            .store
            .presentations_between(from, now + UPCOMING_DAYS * 86_400_000)
            .await?;
        let days: std::collections::BTreeSet<Date> = views
            .iter()
            .filter(|v| {
                v.presentation.sale_ends_at_ms > now
                    && !is_vod_venue_type(v.venue.venue_type_id)
                    && channel.admits(v)
            })
            .map(|v| time::local_date(time::ms_to_timestamp(v.presentation.starts_at_ms)))
            .collect();
        Ok(days.into_iter().collect())
    }

    /// Presentations a buyer can still buy or wait for: sales not ended, up to 60 days ahead.
    pub async fn upcoming(
        &self,
        filter: &PresentationFilter,
        channel: &Channel,
    ) -> AppResult<Vec<PresentationInfo>> {
        let now = self.now_ms();
        // VOD items started in the past may still be available; reach back far enough to see them.
        let from = now - UPCOMING_DAYS * 86_400_000;
        let to = now + UPCOMING_DAYS * 86_400_000;
        let views = self.store.presentations_between(from, to).await?;
        Ok(views
            .into_iter()
            .filter(|v| {
                v.presentation.sale_ends_at_ms > now && filter.admits(v) && channel.admits(v)
            })
            .map(|v| PresentationInfo::new(v, now))
            .collect())
    }

    pub async fn presentation(&self, id: i64, channel: &Channel) -> AppResult<PresentationDetail> {
        let view = self
            .store
            .presentation(id)
            .await?
            .filter(|v| channel.admits(v))
            .ok_or_else(|| no_event(id))?;
        let info = PresentationInfo::new(view, self.now_ms());
        let products = self
            .store
            .products_for_location(info.view.location.id)
            .await?;
        let service_charge = self
            .store
            .service_charge(info.view.presentation.business_id)
            .await?;
        Ok(PresentationDetail {
            info,
            products,
            service_charge,
        })
    }

    /// Features, optionally only those given, or those with upcoming presentations at a location.
    pub async fn features(
        &self,
        filter: &PresentationFilter,
        channel: &Channel,
    ) -> AppResult<Vec<(Feature, FeatureCategory)>> {
        let all = self.store.features().await?;
        let shown: Option<Vec<i64>> = if filter.location_id.is_some() || channel.mini_site.is_some()
        {
            let upcoming = self.upcoming(filter, channel).await?;
            Some(upcoming.iter().map(|p| p.view.feature.id).collect())
        } else {
            None
        };
        Ok(all
            .into_iter()
            .filter(|(f, _)| filter.feature_ids.is_empty() || filter.feature_ids.contains(&f.id))
            .filter(|(f, _)| shown.as_ref().is_none_or(|ids| ids.contains(&f.id)))
            .collect())
    }

    pub async fn feature(&self, id: i64) -> AppResult<Feature> {
        self.store.feature(id).await?.ok_or_else(|| {
            AppError::rejected(ErrorCode::NotFound, format!("feature {id} not found"))
        })
    }

    pub async fn product(&self, id: i64) -> AppResult<Product> {
        self.store.product(id).await?.ok_or_else(|| {
            AppError::rejected(ErrorCode::NotFound, format!("product {id} not found"))
        })
    }

    /// The ticket groups of a presentation's sections. Member-only tickets are listed only when
    /// the buyer names a membership (`tickets::TicketService::ticket_groups` checks it first);
    /// tickets sold only by code are never listed.
    pub async fn ticket_groups(
        &self,
        presentation_id: i64,
        channel: &Channel,
        with_member_tickets: bool,
    ) -> AppResult<(Vec<(TicketGroup, Vec<Ticket>)>, Option<ServiceCharge>)> {
        let detail = self.presentation(presentation_id, channel).await?;
        let sections = self
            .store
            .sections(detail.info.view.presentation.seatplan_id)
            .await?;
        let mut ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        ids.sort_unstable();
        ids.dedup();
        let groups = self
            .store
            .ticket_groups(&ids)
            .await?
            .into_iter()
            .map(|(g, ts)| {
                (
                    g,
                    ts.into_iter()
                        .filter(|t| (with_member_tickets || !t.member_only) && !t.by_code_only)
                        .collect(),
                )
            })
            .collect();
        Ok((groups, detail.service_charge))
    }

    /// The seat plan as a buyer asks for it (spec: POST /seats/seatplanV2 carries a captcha).
    pub async fn buyer_seatplan(
        &self,
        captcha_token: &str,
        venue_id: i64,
        seatplan_id: i64,
    ) -> AppResult<SeatplanFull> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        self.seatplan(venue_id, seatplan_id).await
    }

    /// The older seat status call (GET /seats/seats-status), which carries a captcha.
    pub async fn buyer_seat_status(
        &self,
        captcha_token: &str,
        presentation_id: i64,
        viewer: &str,
        channel: &Channel,
    ) -> AppResult<SeatStatus> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        self.seat_status(presentation_id, None, Some(viewer), channel)
            .await
    }

    pub async fn seatplan(&self, venue_id: i64, seatplan_id: i64) -> AppResult<SeatplanFull> {
        let seatplan = self
            .store
            .seatplan(seatplan_id)
            .await?
            .filter(|s| s.venue_id == venue_id)
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::NotFound,
                    format!("seat plan {seatplan_id} of venue {venue_id} not found"),
                )
            })?;
        let sections = self.store.sections(seatplan_id).await?;
        let seats = self.store.seats(seatplan_id).await?;
        Ok(SeatplanFull {
            venue_id,
            seatplan,
            sections,
            seats,
        })
    }

    /// Each seat as `viewer` sees it, and each section's remaining places.
    pub async fn seat_status(
        &self,
        presentation_id: i64,
        section_id: Option<i64>,
        viewer: Option<&str>,
        channel: &Channel,
    ) -> AppResult<SeatStatus> {
        let detail = self.presentation(presentation_id, channel).await?;
        let seatplan_id = detail.info.view.presentation.seatplan_id;
        let mut sections = self.store.sections(seatplan_id).await?;
        if let Some(sid) = section_id {
            sections.retain(|s| s.id == sid);
            if sections.is_empty() {
                return Err(AppError::rejected(
                    ErrorCode::NotFound,
                    format!("section {sid} is not in this presentation"),
                ));
            }
        }
        let seats = self.store.seats(seatplan_id).await?;
        let claims = self.claims_for_status(presentation_id).await?;
        let now = self.now_ms();
        let by_place: HashMap<SeatAddress, &Claim> =
            claims.iter().map(|c| (c.address(), c)).collect();
        let state_of = |section_id: i64, x: i64, y: i64| {
            let claim = by_place
                .get(&SeatAddress::new(section_id, x, y))
                .map(|c| c.view());
            SeatState::from_claim(claim, viewer, now)
        };
        let seats: Vec<(Seat, SeatState)> = seats
            .into_iter()
            .filter(|s| sections.iter().any(|sec| sec.id == s.section_id))
            .map(|s| {
                let st = state_of(s.section_id, s.x, s.y);
                (s, st)
            })
            .collect();
        let blocked = {
            let statuses = crate::seat_plan::rule_statuses(&seats, &sections);
            let mut blocked = kupa_domain::seating::blocked_seats(
                detail.info.view.presentation.seating_policy_id,
                &statuses,
            );
            // Seats of a section with no price online (press seats) are sold at the box office
            // only: not selectable here, whatever their state.
            let group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
            let priced: Vec<i64> = self
                .store
                .ticket_groups(&group_ids)
                .await?
                .into_iter()
                .filter(|(_, tickets)| !tickets.is_empty())
                .map(|(g, _)| g.id)
                .collect();
            for (seat, _) in &seats {
                let unpriced = sections
                    .iter()
                    .any(|s| s.id == seat.section_id && !priced.contains(&s.ticket_group_id));
                if unpriced {
                    blocked.insert(kupa_domain::seating::SeatAddress {
                        section_id: seat.section_id,
                        x: seat.x,
                        y: seat.y,
                    });
                }
            }
            blocked
        };
        let sections = sections
            .into_iter()
            .map(|section| {
                let remaining = match section.kind {
                    SectionKind::Reserved => seats
                        .iter()
                        .filter(|(s, st)| s.section_id == section.id && st.is_available())
                        .count() as i64,
                    SectionKind::Ga => {
                        let taken = claims
                            .iter()
                            .filter(|c| {
                                c.section_id == section.id
                                    && !state_of(c.section_id, c.x, c.y).is_available()
                            })
                            .count() as i64;
                        (section.capacity - taken).max(0)
                    }
                };
                SectionStatus {
                    sold_out: remaining == 0,
                    remaining,
                    section,
                }
            })
            .collect();
        Ok(SeatStatus {
            presentation_id,
            sections,
            seats,
            blocked,
        })
    }

    /// An integration link from a partner site: its key, a time stamp close to now, and a return address it may use.
    pub async fn integration(&self, key: &str, ts_ms: i64, ret: &str) -> AppResult<Integration> {
        let bad = |why: &str| AppError::rejected(ErrorCode::IntegrationError, why.to_owned());
        let integration = self
            .store
            .integration(key)
            .await?
            .ok_or_else(|| bad("unknown integration key"))?;
        if (self.now_ms() - ts_ms).abs() > INTEGRATION_SKEW_MS {
            return Err(bad("the link's time stamp is too old or in the future"));
        }
        if !ret.is_empty() && !ret.starts_with(&integration.return_url_prefix) {
            return Err(bad("the return address is not one this partner may use"));
        }
        Ok(integration)
    }

    pub async fn is_catalogue_empty(&self) -> AppResult<bool> {
        Ok(self.store.is_catalogue_empty().await?)
    }

    pub async fn load_catalogue(&self, data: &CatalogueData) -> AppResult<()> {
        Ok(self.store.load_catalogue(data).await?)
    }
}
