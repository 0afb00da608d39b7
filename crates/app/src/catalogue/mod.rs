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
use crate::sales_switches::{SaleChannel, SalesBlock, SalesSwitch};
use crate::site_config::SiteConfig;

mod seat_map;
mod snapshot;
pub use seat_map::{BlockReason, CLAIMS_TTL_MS, SeatStatus, SeatplanFull, SectionStatus};
pub use snapshot::{CHANGE_LOG_VERSIONS, SharedSeat, Snapshot, StatusVersion};

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
    /// The manager's sales switch that stops the sale through the asking channel, if one does
    /// (decision 0067); None: only the sale window decides.
    pub blocked: Option<SalesBlock>,
}

impl PresentationInfo {
    /// Refuses a presentation outside its sale window (not started yet, or ended) or stopped
    /// by a sales switch of the asking channel (offline, no advance sales, channel closed).
    pub fn require_on_sale(&self) -> AppResult<()> {
        match self.sale_state {
            SaleState::OnSale => match self.blocked {
                None => Ok(()),
                Some(b) => Err(b.error()),
            },
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

    fn new(
        view: PresentationView,
        now_ms: i64,
        switches: &Switches,
        channel: &Channel,
    ) -> PresentationInfo {
        let blocked = switches.verdict(&view, channel.sale_channel(), now_ms);
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
            blocked,
        }
    }

    pub fn id(&self) -> PresentationId {
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
    /// The storefront channel whose sales switches apply.
    pub fn sale_channel(&self) -> SaleChannel {
        if self.mini_site.is_some() {
            SaleChannel::MiniSite
        } else {
            SaleChannel::Web
        }
    }

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

pub struct CatalogueService {
    store: Arc<dyn CatalogueStore>,
    claims: Arc<dyn ClaimStore>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    /// Test mode only: step timers that replace the configured ones, for holds and config alike.
    timer_override: std::sync::RwLock<Option<crate::site_config::TimerMode>>,
    /// The seat status snapshots of recently asked presentations (see `status_snapshot`).
    claims_cache: std::sync::Mutex<HashMap<PresentationId, snapshot::Entry>>,
}

/// The managers' switches: per complex and channel (decision 0067) and per screening and channel
/// (decision 0070), read together through the catalogue's cache.
struct Switches {
    complexes: Vec<SalesSwitch>,
    screenings: Vec<(PresentationId, SaleChannel)>,
}

impl Switches {
    /// What they say of a screening sold through `channel` now: the complex's switch first
    /// (offline wins over closed, closed over no advance sales), then the screening's own.
    fn verdict(
        &self,
        v: &PresentationView,
        channel: SaleChannel,
        now_ms: i64,
    ) -> Option<SalesBlock> {
        let p = &v.presentation;
        self.complexes
            .iter()
            .find(|s| s.location_id == v.location.id && s.channel == channel)
            .and_then(|s| s.refusal(p.starts_at_ms, now_ms))
            .or_else(|| {
                self.screenings
                    .contains(&(p.id, channel))
                    .then_some(SalesBlock::Closed)
            })
    }
}

fn no_event(id: PresentationId) -> AppError {
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

    /// Every presentation starting on a local calendar day in Asia/Jerusalem, and every film at
    /// home (video on demand) that can be watched that day and is still sold: it is offered on
    /// each day of its window, not only on the day it starts.
    pub async fn presentations_on(
        &self,
        day: Date,
        channel: &Channel,
    ) -> AppResult<Vec<PresentationInfo>> {
        let (from, to) = time::local_day_range_ms(day);
        let now = self.now_ms();
        let mut views = self.store.presentations_between(from, to).await?;
        let started_before: Vec<PresentationView> = self
            .store
            .vod_presentations()
            .await?
            .into_iter()
            .filter(|v| {
                let p = &v.presentation;
                p.starts_at_ms < from
                    && p.available_until_ms.is_none_or(|until| until > from)
                    && p.sale_ends_at_ms > now.max(from)
            })
            .collect();
        views.splice(0..0, started_before);
        let switches = self.switches().await?;
        Ok(views
            .into_iter()
            .filter(|v| channel.admits(v))
            .map(|v| PresentationInfo::new(v, now, &switches, channel))
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
        let switches = self.switches().await?;
        Ok(views
            .into_iter()
            .filter(|v| {
                v.presentation.sale_ends_at_ms > now && filter.admits(v) && channel.admits(v)
            })
            .map(|v| PresentationInfo::new(v, now, &switches, channel))
            .collect())
    }

    /// Refuses a presentation whose sale a sales switch of the channel stops now (decision 0067):
    /// the payment's second look, after the seat lock's and the cart's.
    pub async fn require_not_switched_off(
        &self,
        presentation_id: PresentationId,
        channel: SaleChannel,
    ) -> AppResult<()> {
        let Some(view) = self.store.presentation(presentation_id).await? else {
            return Ok(());
        };
        match self
            .switches()
            .await?
            .verdict(&view, channel, self.now_ms())
        {
            None => Ok(()),
            Some(b) => Err(b.error()),
        }
    }

    async fn switches(&self) -> AppResult<Switches> {
        Ok(Switches {
            complexes: self.store.sales_switches().await?,
            screenings: self.store.screening_closures().await?,
        })
    }

    pub async fn presentation(
        &self,
        id: PresentationId,
        channel: &Channel,
    ) -> AppResult<PresentationDetail> {
        let view = self
            .store
            .presentation(id)
            .await?
            .filter(|v| channel.admits(v))
            .ok_or_else(|| no_event(id))?;
        let switches = self.switches().await?;
        let info = PresentationInfo::new(view, self.now_ms(), &switches, channel);
        // Nothing from the bar goes with a film watched at home (decision 0053).
        let products = if info.is_vod {
            Vec::new()
        } else {
            self.store
                .products_for_location(info.view.location.id)
                .await?
        };
        let service_charge =
            crate::prices::service_charge_of(self.store.as_ref(), &info.view.presentation).await?;
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
        presentation_id: PresentationId,
        channel: &Channel,
        with_member_tickets: bool,
    ) -> AppResult<(Vec<(TicketGroup, Vec<Ticket>)>, Option<ServiceCharge>)> {
        let detail = self.presentation(presentation_id, channel).await?;
        let p = &detail.info.view.presentation;
        let sections = crate::prices::sections_of(self.store.as_ref(), p).await?;
        let mut ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        ids.sort_unstable();
        ids.dedup();
        let groups = crate::prices::ticket_groups_of(self.store.as_ref(), p, &ids)
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
