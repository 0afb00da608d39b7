use std::sync::{Arc, RwLock};

use kupa_app::booking::BookingService;
use kupa_app::catalogue::CatalogueService;
use kupa_app::ports::{AdjustableClock, Captcha, CatalogueStore, CheckoutStore, ClaimStore};
use kupa_app::site_config::TimerMode;

/// The configurable route paths of spec section 2.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", default)]
pub struct RoutePaths {
    pub vod: String,
    pub system_vouchers: String,
    pub memberships: String,
    pub mini_site: String,
}

impl Default for RoutePaths {
    fn default() -> Self {
        RoutePaths {
            vod: "/vod".into(),
            system_vouchers: "/system-vouchers".into(),
            memberships: "/memberships".into(),
            mini_site: "/mini-site".into(),
        }
    }
}

impl RoutePaths {
    pub fn by_key(&self, key: &str) -> Option<&str> {
        match key {
            "vod" => Some(&self.vod),
            "systemVouchers" => Some(&self.system_vouchers),
            "memberships" => Some(&self.memberships),
            "miniSite" => Some(&self.mini_site),
            _ => None,
        }
    }
}

/// Settings of the HTTP layer (the rest lives in the site config in the database).
#[derive(Debug, Clone)]
pub struct ApiSettings {
    pub routes: RoutePaths,
    /// Hosts a `/http...` route may send the window to; anything else is a 404 (no open redirect).
    pub redirect_allow_list: Vec<String>,
    pub enabled_locales: Vec<String>,
    pub default_locale: String,
    pub test_mode: bool,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            routes: RoutePaths::default(),
            redirect_allow_list: Vec::new(),
            enabled_locales: vec!["he".into(), "en".into()],
            default_locale: "he".into(),
            test_mode: false,
        }
    }
}

#[derive(Clone)]
pub struct AppState {
    pub catalogue: Arc<CatalogueService>,
    pub booking: Arc<BookingService>,
    pub captcha: Arc<dyn Captcha>,
    pub clock: Arc<dyn AdjustableClock>,
    pub settings: Arc<ApiSettings>,
    /// Test mode only: step timers that replace the configured ones.
    pub timer_override: Arc<RwLock<Option<TimerMode>>>,
}

impl AppState {
    /// Wires the use cases onto one store (SQLite or PostgreSQL) and the providers.
    pub fn new<S>(
        store: Arc<S>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn AdjustableClock>,
        settings: ApiSettings,
    ) -> AppState
    where
        S: CatalogueStore + ClaimStore + CheckoutStore + 'static,
    {
        let clock_port: Arc<dyn kupa_app::ports::Clock> = clock.clone();
        let catalogue = Arc::new(CatalogueService::new(
            store.clone(),
            store.clone(),
            clock_port.clone(),
        ));
        let booking = Arc::new(BookingService::new(
            catalogue.clone(),
            store.clone(),
            store.clone(),
            store,
            captcha.clone(),
            clock_port,
        ));
        AppState {
            catalogue,
            booking,
            captcha,
            clock,
            settings: Arc::new(settings),
            timer_override: Arc::new(RwLock::new(None)),
        }
    }
}
