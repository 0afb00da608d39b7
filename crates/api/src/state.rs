use std::sync::Arc;

use kupa_app::accounts::{CustomerService, MobileLoginService};
use kupa_app::booking::BookingService;
use kupa_app::catalogue::CatalogueService;
pub use kupa_app::links::LinkKey;
use kupa_app::orders::OrderService;
use kupa_app::ports::{AdjustableClock, Mailer, OutboxStore, SmsSender};
use kupa_app::saved_cards::SavedCardService;
use kupa_app::tickets::TicketService;

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
    /// Each mini-site's validation key, as the SHA-256 of the key (decision 0048): the partner
    /// sends the key in `X-Mini-Site-Key`; the server keeps only its hash.
    pub mini_site_keys: Vec<MiniSiteKey>,
    pub enabled_locales: Vec<String>,
    pub default_locale: String,
    /// Tenant wording over the catalogue's (KUPA_WORDING, decision 0054), checked at start.
    pub wording: Arc<crate::wording::Wording>,
    pub test_mode: bool,
    /// The captcha provider the page runs (decision 0062): its name (`recaptcha-v2`,
    /// `recaptcha-v3`, `turnstile`) and public site key, for GET /config. None: off, or test mode.
    pub captcha_site: Option<CaptchaSite>,
    /// The origin of a card provider's hosted page the payment dialog frames (CardCom's,
    /// decision 0063); None with the test gateway, whose pages are this site's.
    pub payment_page_origin: Option<String>,
    /// The shared secret of the payment gateway's signed callback (`KUPA_GATEWAY_SECRET`). When
    /// none is configured, test mode uses a fixed test secret and other modes refuse callbacks.
    pub gateway_secret: Option<GatewaySecret>,
    /// How far a signed callback's `timestamp` may be from the server's clock, either way
    /// (KUPA_CALLBACK_WINDOW_SECONDS; five minutes).
    pub callback_window_s: i64,
    /// The site's public address, for links in mails, text messages, calendar files and QR codes
    /// (KUPA_PUBLIC_URL); never taken from a request's `Host`.
    pub public_url: String,
    /// The key reservation links are signed with (decision 0018). Every node must hold the same
    /// one. The default is random (links die with the process); the binary says where it comes from.
    pub link_key: LinkKey,
    /// Abuse limits on lock, best-available, SMS and login calls (KUPA_RATE_LIMITS).
    pub rate_limits: crate::rate_limit::RateLimits,
    /// Take the client's address from X-Forwarded-For, and the scheme from X-Forwarded-Proto
    /// (behind a trusted load balancer only).
    pub trust_forwarded_for: bool,
    /// Signs the buyer session ids; shared by the nodes (the wiring reads it from the database).
    pub session_key: crate::session_key::SessionKey,
    /// Seats held per address and per customer across sessions, and the ceiling of a session's
    /// holds (KUPA_HOLD_LIMITS).
    pub hold_limits: kupa_app::booking::HoldLimits,
    /// The largest request body taken, in bytes; larger ones answer 413 `payloadTooLarge`
    /// (KUPA_MAX_BODY_BYTES).
    pub max_body_bytes: usize,
    /// Seat event streams one client address may hold open at once; more answer 429
    /// `tooManyRequests` (KUPA_MAX_EVENT_STREAMS_PER_ADDRESS; 0 means no cap).
    pub max_event_streams_per_address: usize,
    /// The cancellation window, service charge and the payment methods not refunded online
    /// (KUPA_CANCELLATION_FEE, KUPA_CANCELLATION_WINDOW_MINUTES, KUPA_NOT_REFUNDABLE_ONLINE).
    pub cancellation: kupa_app::orders::CancellationPolicy,
    /// A replacement voucher is good for this many days (KUPA_VOUCHER_REPLACEMENT_DAYS).
    pub voucher_replacement_days: i64,
    /// How paid orders earn loyalty points (KUPA_LOYALTY_AGOROT_PER_POINT).
    pub loyalty: kupa_app::orders::LoyaltyRule,
    /// Minutes a hall is kept free after each screening's runtime; the programme refuses a
    /// screening inside them (KUPA_CLEANING_GAP_MINUTES, decision 0058).
    pub cleaning_gap_minutes: i64,
}

/// The defaults of the limits above, for a single node that faces browsers.
pub const DEFAULT_MAX_BODY_BYTES: usize = 64 * 1024;
pub const DEFAULT_MAX_EVENT_STREAMS_PER_ADDRESS: usize = 32;
pub const DEFAULT_VOUCHER_REPLACEMENT_DAYS: i64 = 90;

/// A secret that never shows in `Debug` output or logs.
#[derive(Clone, PartialEq, Eq, serde::Deserialize)]
#[serde(transparent)]
pub struct GatewaySecret(pub String);

/// A mini-site's validation key, kept as its SHA-256.
#[derive(Clone, PartialEq, Eq)]
pub struct MiniSiteKey {
    pub url: String,
    pub sha256: [u8; 32],
}

impl MiniSiteKey {
    /// `url=64 hex digits` (the key's SHA-256), as `KUPA_MINI_SITE_KEYS` lists them.
    pub fn parse(item: &str) -> Result<MiniSiteKey, String> {
        let (url, hex) = item
            .trim()
            .split_once('=')
            .ok_or_else(|| format!("`{item}`: expected url=sha256-hex"))?;
        let hex = hex.trim();
        if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Err(format!("`{url}`: the key's SHA-256 as 64 hex digits"));
        }
        let mut sha256 = [0u8; 32];
        for (i, byte) in sha256.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).map_err(|e| e.to_string())?;
        }
        Ok(MiniSiteKey {
            url: url.trim().to_owned(),
            sha256,
        })
    }

    /// The key of a plain text (the demo's, in test mode).
    pub fn of_plain(url: &str, key: &str) -> MiniSiteKey {
        use sha2::Digest;
        MiniSiteKey {
            url: url.to_owned(),
            sha256: sha2::Sha256::digest(key.as_bytes()).into(),
        }
    }

    /// Whether `key` is this mini-site's, compared in constant time.
    pub fn accepts(&self, key: &str) -> bool {
        use sha2::Digest;
        let h: [u8; 32] = sha2::Sha256::digest(key.as_bytes()).into();
        h.iter()
            .zip(self.sha256.iter())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
    }
}

impl std::fmt::Debug for MiniSiteKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "MiniSiteKey({}, ***)", self.url)
    }
}

impl std::fmt::Debug for GatewaySecret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("GatewaySecret(***)")
    }
}

/// The public half of a captcha provider's keys: what the page needs to run its widget.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaptchaSite {
    pub mode: &'static str,
    pub site_key: String,
}

impl Default for ApiSettings {
    fn default() -> Self {
        ApiSettings {
            routes: RoutePaths::default(),
            redirect_allow_list: Vec::new(),
            mini_site_keys: Vec::new(),
            enabled_locales: vec!["he".into(), "en".into()],
            default_locale: "he".into(),
            wording: Arc::default(),
            test_mode: false,
            captcha_site: None,
            payment_page_origin: None,
            gateway_secret: None,
            callback_window_s: kupa_app::orders::CALLBACK_WINDOW_SECONDS,
            public_url: "http://127.0.0.1:8080".into(),
            link_key: LinkKey::random(),
            rate_limits: crate::rate_limit::RateLimits::default(),
            trust_forwarded_for: false,
            session_key: crate::session_key::SessionKey::random(),
            hold_limits: kupa_app::booking::HoldLimits::default(),
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_event_streams_per_address: DEFAULT_MAX_EVENT_STREAMS_PER_ADDRESS,
            cancellation: kupa_app::orders::CancellationPolicy::default(),
            voucher_replacement_days: DEFAULT_VOUCHER_REPLACEMENT_DAYS,
            loyalty: kupa_app::orders::LoyaltyRule::default(),
            cleaning_gap_minutes: kupa_app::programme::DEFAULT_CLEANING_GAP_MINUTES,
        }
    }
}

/// What the handlers work with: the use cases and the providers, built by the wiring
/// (`kupa-wiring`), and this layer's own settings and hubs. Every middleware and handler that
/// takes the state clones it, several times a request, so it is one `Arc`: a clone is one count,
/// not one per service (cloning and dropping the 28 were 3 % of the server's CPU in the lock
/// storm, docs/benchmark.md).
#[derive(Clone)]
pub struct AppState(Arc<Services>);

impl AppState {
    pub fn new(services: Services) -> AppState {
        AppState(Arc::new(services))
    }
}

impl std::ops::Deref for AppState {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.0
    }
}

/// The services behind [`AppState`].
pub struct Services {
    pub catalogue: Arc<CatalogueService>,
    pub booking: Arc<BookingService>,
    /// Tickets by code, member checks, and the ticket rules' lookups.
    pub tickets: Arc<TicketService>,
    pub orders: Arc<OrderService>,
    /// Who is logged in on a buyer session (`customer_of_session`), logout.
    pub customers: Arc<CustomerService>,
    /// Login by mobile number and SMS code.
    pub mobile_login: Arc<MobileLoginService>,
    /// Every other login: email and password, member number, reservation number, mailed link and
    /// code, the customer area's mobile login (decision 0023).
    pub logins: Arc<kupa_app::logins::CustomerLoginService>,
    /// The logged-in customer's saved cards, and the credit-card-benefit check at payment.
    pub saved_cards: Arc<SavedCardService>,
    /// The logged-in customer's area: its data, profile, account deletion, locations.
    pub customer_area: Arc<kupa_app::customer_area::CustomerAreaService>,
    pub sms: Arc<dyn SmsSender>,
    pub mailer: Arc<dyn Mailer>,
    /// What the default SMS and mail adapters wrote (read by the test mode's outbox routes).
    pub outbox: Arc<dyn OutboxStore>,
    pub clock: Arc<dyn AdjustableClock>,
    pub settings: Arc<ApiSettings>,
    /// This node's fan-out of live seat events (and its hand-off to the cross-node relay).
    pub seat_events: Arc<crate::seat_event_hub::SeatEventHub>,
    /// Wakes this node's confirmation worker when an order is paid here (decision 0061).
    pub confirmations_wake: Arc<tokio::sync::Notify>,
    pub rate_limiter: Arc<crate::rate_limit::RateLimiter>,
    /// Staff users, their logins and roles (decision 0026).
    pub staff: Arc<kupa_app::staff::StaffService>,
    /// The figures of live monitoring (PRES-live), scoped to the staff caller.
    pub live: Arc<kupa_app::staff::live::LiveService>,
    /// The door: tickets checked and marked scanned by ushers (decision 0044).
    pub door: Arc<kupa_app::staff::door::DoorService>,
    /// Cinema reports (issue 17, decision 0047), managers only.
    pub reports: Arc<kupa_app::staff::reports::ReportService>,
    /// The vouchers sold: their owners' list, history and replacement (issue 14).
    pub vouchers: Arc<kupa_app::vouchers::VoucherService>,
    /// Enrolment in membership seasons: the season, its seat map and the seats held (decision 0040).
    pub enroll: Arc<kupa_app::memberships::EnrollService>,
    /// The marketing pages: the contact, birthday and job forms, search, complexes (decision 0051).
    pub marketing: Arc<kupa_app::marketing::MarketingService>,
    /// Video on demand: a purchase's item, its play sessions and their stream links (decision 0053).
    pub vod: Arc<kupa_app::vod::VodService>,
    /// The programme: a complex's week, screenings added, moved, cancelled (decision 0058).
    pub programme: Arc<kupa_app::programme::ProgrammeService>,
    /// The seat-plan editor: a hall's plan versions, read and saved (decision 0068).
    pub seat_plans: Arc<kupa_app::seat_plans::SeatPlanService>,
    /// The chain's films (posters included) and products in the back office (decision 0069).
    pub backoffice: Arc<kupa_app::backoffice::BackOfficeService>,
}
