//! Kupa from its parts: the use cases on one store (SQLite or PostgreSQL) and the providers,
//! handed to the HTTP layer as a ready [`AppState`], and the whole site's router: Kupa's own
//! routes and the test gateway's pages under one set of layers. The binary (`kupa serve`) and the
//! HTTP tests both build the app with these functions, so a test runs what a node serves.

pub mod serve;

use std::sync::Arc;

use axum::Router;
use axum::http::StatusCode;
use axum::http::request::Parts;
use kupa_api::rate_limit::RateLimiter;
use kupa_api::seat_event_hub::SeatEventHub;
use kupa_api::session::BuyerSession;
use kupa_api::{ApiSettings, AppState, Services};
use kupa_app::AppError;
use kupa_app::accounts::{CustomerService, MobileLoginService};
use kupa_app::booking::BookingService;
use kupa_app::catalogue::CatalogueService;
use kupa_app::catalogue_cache::CachedCatalogue;
use kupa_app::logins::CustomerLoginService;
use kupa_app::orders::{Messages, OrderService, PaymentGateway};
use kupa_app::ports::SmsSender;
use kupa_app::ports::{
    AdjustableClock, Captcha, CatalogueStore, Clock, Mailer, OutboxStore, PaymentDeals,
};
use kupa_app::saved_cards::SavedCardService;
use kupa_app::tickets::TicketService;
use kupa_providers::captcha::{CaptchaMode, ConfiguredCaptcha};
use kupa_providers::clock::ServerClock;
use kupa_providers::outbox::{OutboxMailer, OutboxSmsSender};
use kupa_providers::test_gateway::{TestGateway, pages};
use kupa_store::Db;

/// The adapters behind the app's ports.
pub struct Providers {
    pub captcha: Arc<dyn Captcha>,
    /// The card gateway (the test gateway or CardCom), and every method's without its own.
    pub gateway: Arc<dyn PaymentGateway>,
    /// PayU, for the PayU and Blik methods (decision 0064); `None`: the card gateway's.
    pub payu: Option<Arc<dyn PaymentGateway>>,
    /// A PayPal gateway for the PayPal method; `None`: the card gateway's.
    pub paypal: Option<Arc<dyn PaymentGateway>>,
    pub sms: Arc<dyn SmsSender>,
    pub mailer: Arc<dyn Mailer>,
    pub clock: Arc<dyn AdjustableClock>,
}

impl Providers {
    /// The built-in providers, all working offline: the captcha in test mode (or off), the test
    /// payment gateway, and text messages and mail written to the database's outbox.
    pub fn built_in(db: &Arc<Db>, clock: Arc<ServerClock>, test_mode: bool) -> Providers {
        let mode = if test_mode {
            CaptchaMode::Test
        } else {
            CaptchaMode::Off
        };
        Providers {
            captcha: Arc::new(ConfiguredCaptcha::new(mode)),
            gateway: Arc::new(TestGateway::default()),
            payu: None,
            paypal: None,
            sms: Arc::new(OutboxSmsSender::new(db.clone(), clock.clone())),
            mailer: Arc::new(OutboxMailer::new(db.clone(), clock.clone())),
            clock,
        }
    }
}

impl Providers {
    /// A captcha provider's server-side check in place of the built-in captcha (decision 0062);
    /// `None` keeps it.
    pub fn with_captcha(
        self,
        config: Option<kupa_providers::captcha::SiteVerifyConfig>,
    ) -> Result<Providers, String> {
        Ok(match config {
            Some(c) => Providers {
                captcha: Arc::new(kupa_providers::captcha::SiteVerify::new(c)?),
                ..self
            },
            None => self,
        })
    }

    /// CardCom's hosted page in place of the test gateway (decision 0063), its deals kept in
    /// `db`; `None` keeps the test gateway. The adapter is answered too, for its notification
    /// route ([`site_with_cardcom`]).
    pub fn with_cardcom(
        self,
        db: &Arc<Db>,
        config: Option<kupa_providers::cardcom::CardComConfig>,
    ) -> Result<(Providers, Option<Arc<kupa_providers::cardcom::CardCom>>), String> {
        self.with_payments(
            db,
            config,
            kupa_providers::cardcom::CardCom::new,
            |p, cardcom| Providers {
                gateway: cardcom,
                ..p
            },
        )
    }

    /// PayU for the PayU and Blik methods (decision 0064), its orders kept in `db`; `None`
    /// keeps them with the card gateway. The adapter is answered too, for its routes
    /// ([`ProviderRoutes::payu`]).
    pub fn with_payu(
        self,
        db: &Arc<Db>,
        config: Option<kupa_providers::payu::PayUConfig>,
    ) -> Result<(Providers, Option<Arc<kupa_providers::payu::PayU>>), String> {
        self.with_payments(db, config, kupa_providers::payu::PayU::new, |p, payu| {
            Providers {
                payu: Some(payu),
                ..p
            }
        })
    }

    /// PayPal's Orders API for the `paypal` method (decision 0065), its orders and captures kept
    /// in `db`; `None` keeps that method with the card gateway. The adapter is answered too, for
    /// its webhook route ([`ProviderRoutes::paypal`]).
    pub fn with_paypal(
        self,
        db: &Arc<Db>,
        config: Option<kupa_providers::paypal::PayPalConfig>,
    ) -> Result<(Providers, Option<Arc<kupa_providers::paypal::PayPal>>), String> {
        self.with_payments(
            db,
            config,
            kupa_providers::paypal::PayPal::new,
            |p, paypal| Providers {
                paypal: Some(paypal),
                ..p
            },
        )
    }

    /// A payment provider's adapter made from its `config` (its deals kept in `db`, on the
    /// providers' clock) and `put` in its place; `None` changes nothing.
    fn with_payments<C, P: PaymentGateway + 'static>(
        self,
        db: &Arc<Db>,
        config: Option<C>,
        make: impl FnOnce(C, Arc<dyn PaymentDeals>, Arc<dyn Clock>) -> Result<P, String>,
        put: impl FnOnce(Providers, Arc<dyn PaymentGateway>) -> Providers,
    ) -> Result<(Providers, Option<Arc<P>>), String> {
        let Some(config) = config else {
            return Ok((self, None));
        };
        let clock: Arc<dyn Clock> = self.clock.clone();
        let adapter = Arc::new(make(config, db.clone(), clock)?);
        Ok((put(self, adapter.clone()), Some(adapter)))
    }

    /// The real SMS provider and mail server of `delivery` in place of the outbox adapters, for
    /// the channels it configures (decision 0057), and the outbox worker that sends for both:
    /// `None` when nothing is configured, and then everything stays as [`Providers::built_in`].
    pub fn with_delivery(
        self,
        db: &Arc<Db>,
        delivery: &kupa_providers::delivery::Delivery,
    ) -> (
        Providers,
        Option<Arc<kupa_providers::delivery::OutboxWorker>>,
    ) {
        let clock: Arc<dyn Clock> = self.clock.clone();
        let built = delivery.build(db.clone(), clock);
        let providers = Providers {
            sms: built.sms.unwrap_or(self.sms),
            mailer: built.mailer.unwrap_or(self.mailer),
            ..self
        };
        (providers, built.worker)
    }
}

/// The key that signs buyer session ids, shared by every node of the database: drawn by the
/// first node that starts and kept in the database (`server_secrets`), so a session minted on one
/// node is known on the others and survives a restart.
pub async fn session_key(
    db: &Db,
    now_ms: i64,
) -> kupa_app::StoreResult<kupa_api::session::SessionKey> {
    use rand::Rng;
    let secret = db
        .server_secret("session", rand::rng().random(), now_ms)
        .await?;
    Ok(kupa_api::session::SessionKey::new(secret))
}

/// The key that signs reservation links (mail, SMS, calendar file), shared by every node of the
/// database and kept across restarts like the session key, but a secret of its own.
pub async fn link_key(db: &Db, now_ms: i64) -> kupa_app::StoreResult<kupa_api::state::LinkKey> {
    use rand::Rng;
    let secret = db
        .server_secret("links", rand::rng().random(), now_ms)
        .await?;
    Ok(kupa_api::state::LinkKey::new(secret))
}

/// Wires the use cases onto one store and the providers.
pub fn app_state(store: Arc<Db>, providers: Providers, settings: ApiSettings) -> AppState {
    let Providers {
        captcha,
        gateway,
        payu,
        paypal,
        sms,
        mailer,
        clock,
    } = providers;
    // Each payment to the gateway of its method (decision 0064); with no other provider
    // configured, every call goes to the card gateway as before.
    let gateway: Arc<dyn PaymentGateway> = Arc::new(
        kupa_providers::by_method::ByMethod::new(gateway)
            .with_payu(payu)
            .with_paypal(paypal),
    );
    let clock_port: Arc<dyn Clock> = clock.clone();
    let seat_events = Arc::new(SeatEventHub::new());
    // The catalogue is read from memory after the first read (it never changes while serving).
    let cache = Arc::new(CachedCatalogue::new(store.clone()));
    let cat: Arc<dyn CatalogueStore> = cache.clone();
    let catalogue = Arc::new(CatalogueService::new(
        cat.clone(),
        store.clone(),
        captcha.clone(),
        clock_port.clone(),
    ));
    let forget = catalogue.clone();
    seat_events.on_change(Arc::new(move |p| forget.forget_claims(p)));
    let booking = Arc::new(
        BookingService::new(
            catalogue.clone(),
            cat.clone(),
            store.clone(),
            store.clone(),
            captcha.clone(),
            clock_port.clone(),
            seat_events.clone(),
        )
        .with_hold_limits(store.clone(), settings.hold_limits),
    );
    // The arbiter follows every seat event, this node's and (relayed) the others' (decision 0059).
    let arbiter = booking.arbiter();
    let arbiter_clock = clock_port.clone();
    seat_events.on_event(Arc::new(move |e| {
        arbiter.observe(e, arbiter_clock.now_ms())
    }));
    let customers = Arc::new(
        CustomerService::new(
            cat.clone(),
            store.clone(),
            store.clone(),
            clock_port.clone(),
        )
        .with_credentials(store.clone()),
    );
    let mobile_login = Arc::new(MobileLoginService::new(
        customers.clone(),
        cat.clone(),
        store.clone(),
        sms.clone(),
        captcha.clone(),
        clock_port.clone(),
    ));
    let logins = Arc::new(CustomerLoginService::new(
        customers.clone(),
        cat.clone(),
        store.clone(),
        store.clone(),
        mobile_login.clone(),
        mailer.clone(),
        captcha.clone(),
        clock_port.clone(),
        settings.public_url.clone(),
    ));
    let tickets = Arc::new(TicketService::new(
        catalogue.clone(),
        cat.clone(),
        store.clone(),
        captcha.clone(),
        clock_port.clone(),
    ));
    let outbox: Arc<dyn OutboxStore> = store.clone();
    let saved_cards = Arc::new(SavedCardService::new(
        store.clone(),
        store.clone(),
        tickets.clone(),
        catalogue.clone(),
        customers.clone(),
        clock_port.clone(),
    ));
    let customer_area = Arc::new(kupa_app::customer_area::CustomerAreaService::new(
        customers.clone(),
        catalogue.clone(),
        cat.clone(),
        store.clone(),
        store.clone(),
        clock_port.clone(),
    ));
    let staff = Arc::new(kupa_app::staff::StaffService::new(
        store.clone(),
        store.clone(),
        clock_port.clone(),
    ));
    let live = Arc::new(kupa_app::staff::live::LiveService::new(
        store.clone(),
        clock_port.clone(),
    ));
    let door = Arc::new(kupa_app::staff::door::DoorService::new(
        store.clone(),
        clock_port.clone(),
    ));
    let reports = Arc::new(kupa_app::staff::reports::ReportService::new(
        store.clone(),
        store.clone(),
        clock_port.clone(),
    ));
    let holds: Arc<dyn kupa_app::orders::HoldStore> = store.clone();
    let voucher_store: Arc<dyn kupa_app::vouchers::VoucherStore> = store.clone();
    let waiver_store: Arc<dyn kupa_app::vouchers::waiver::WaiverStore> = store.clone();
    let vouchers = Arc::new(kupa_app::vouchers::VoucherService::new(
        voucher_store.clone(),
        customers.clone(),
        clock_port.clone(),
        settings.voucher_replacement_days,
    ));
    let enroll = Arc::new(kupa_app::memberships::EnrollService::new(
        catalogue.clone(),
        booking.clone(),
        cat.clone(),
        store.clone(),
        store.clone(),
        customers.clone(),
        captcha.clone(),
        clock_port.clone(),
    ));
    let marketing = Arc::new(kupa_app::marketing::MarketingService::new(
        catalogue.clone(),
        cat.clone(),
        store.clone(),
        mailer.clone(),
        captcha.clone(),
        clock_port.clone(),
    ));
    // This node's confirmation worker (decision 0061) wakes when an order is paid here.
    let confirmations_wake = Arc::new(tokio::sync::Notify::new());
    let wake = confirmations_wake.clone();
    let confirmation_jobs: Arc<dyn kupa_app::ports::ConfirmationStore> = store.clone();
    let vod_store: Arc<dyn kupa_app::vod::VodStore> = store.clone();
    let programme_store: Arc<dyn kupa_app::programme::ProgrammeStore> = store.clone();
    let seat_plan_store: Arc<dyn kupa_app::seat_plans::SeatPlanStore> = store.clone();
    let price_store: Arc<dyn kupa_app::programme::PriceStore> = store.clone();
    let programme_catalogue = cat.clone();
    let backoffice_store: Arc<dyn kupa_app::backoffice::BackOfficeStore> = store.clone();
    let clock_port_for_programme = clock_port.clone();
    let seat_plans = Arc::new(
        kupa_app::seat_plans::SeatPlanService::new(seat_plan_store, clock_port.clone())
            .with_cache(cache.clone()),
    );
    let orders = Arc::new(
        OrderService::new(
            catalogue.clone(),
            booking.clone(),
            cat,
            store.clone(),
            store,
            tickets.clone(),
            customers.clone(),
            gateway,
            captcha,
            clock_port,
            Messages {
                sms: sms.clone(),
                mailer: mailer.clone(),
                public_url: settings.public_url.clone(),
                link_key: settings.link_key.clone(),
                confirmations: confirmation_jobs,
                wake_confirmations: Arc::new(move || wake.notify_one()),
            },
        )
        .with_cancellation_policy(settings.cancellation.clone())
        .with_loyalty(settings.loyalty)
        .with_holds(holds)
        .with_vouchers(voucher_store)
        .with_waivers(waiver_store),
    );
    let vod = Arc::new(kupa_app::vod::VodService::new(
        orders.clone(),
        vod_store,
        settings.link_key.clone(),
        clock.clone(),
    ));
    let backoffice = Arc::new(
        kupa_app::backoffice::BackOfficeService::new(
            backoffice_store,
            cache.clone(),
            clock_port_for_programme.clone(),
            settings.cleaning_gap_minutes,
        )
        .with_cache(cache.clone()),
    );
    let programme = Arc::new(
        kupa_app::programme::ProgrammeService::new(
            programme_store,
            price_store,
            orders.clone(),
            booking.clone(),
            programme_catalogue,
            clock_port_for_programme,
            settings.cleaning_gap_minutes,
        )
        .with_cache(cache),
    );
    AppState::new(Services {
        programme,
        seat_plans,
        backoffice,
        catalogue,
        booking,
        tickets,
        orders,
        customers,
        mobile_login,
        logins,
        saved_cards,
        customer_area,
        sms,
        mailer,
        outbox,
        clock,
        rate_limiter: Arc::new(RateLimiter::new(settings.rate_limits.clone())),
        settings: Arc::new(settings),
        seat_events,
        confirmations_wake,
        staff,
        live,
        door,
        reports,
        vouchers,
        enroll,
        marketing,
        vod,
    })
}

/// This node's confirmation worker (decision 0061): makes the confirmations that are due at
/// once, then whenever an order is paid on this node (`state.confirmations_wake`) or `every`
/// passes (other nodes' orders, retries, jobs whose worker died). Each node runs one; leases in
/// the database keep two from making the same job.
pub async fn run_confirmations(state: AppState, every: std::time::Duration) {
    loop {
        match state.orders.make_confirmations().await {
            Ok(r) if r == Default::default() => {}
            Ok(r) => tracing::info!(
                made = r.made,
                retrying = r.retrying,
                failed = r.failed,
                lost = r.lost,
                "confirmation round"
            ),
            Err(e) => tracing::warn!(error = %e, "the confirmation round failed; will retry"),
        }
        let _ = tokio::time::timeout(every, state.confirmations_wake.notified()).await;
    }
}

/// This node's CardCom reconciliation (decision 0066): every `every`, asks CardCom about up to
/// [`CARDCOM_RECONCILE_BATCH`] open CardCom payments nobody reads (no post came, no buyer came
/// back), so a paid deal never stays unrecorded. Leases in `payment_deals` keep two nodes from
/// asking about the same payment at once; nothing of the card is logged.
pub async fn run_cardcom_reconciliation(
    orders: Arc<kupa_app::orders::OrderService>,
    cardcom: Arc<kupa_providers::cardcom::CardCom>,
    every: std::time::Duration,
) {
    loop {
        tokio::time::sleep(every).await;
        match cardcom.reconcile(&orders, CARDCOM_RECONCILE_BATCH).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(asked = n, "CardCom reconciliation pass"),
            Err(e) => {
                tracing::warn!(error = %e, "the CardCom reconciliation pass failed; will retry")
            }
        }
    }
}

/// How many open CardCom payments one reconciliation pass asks about at most.
pub const CARDCOM_RECONCILE_BATCH: i64 = 50;

/// The whole site: Kupa's routes and the test gateway's pages, under the layers every request
/// passes (the buyer session, the limits, compression, the request id).
pub fn site(state: AppState) -> Router {
    site_with_routes(state, ProviderRoutes::default())
}

/// [`site`], with CardCom's notification route when CardCom takes the payments (decision 0063).
pub fn site_with_cardcom(
    state: AppState,
    cardcom: Option<Arc<kupa_providers::cardcom::CardCom>>,
) -> Router {
    site_with_routes(state, ProviderRoutes::default().cardcom(cardcom))
}

/// A provider's own routes on the site (its notification, its pages), each made once the use
/// cases exist.
type RouteMaker = Box<dyn FnOnce(&AppState) -> Router + Send>;

/// The routes of the configured providers, merged into the site by [`site_with_routes`].
#[derive(Default)]
pub struct ProviderRoutes(Vec<RouteMaker>);

impl ProviderRoutes {
    /// Any provider's routes, made from the app's state.
    pub fn with(mut self, make: impl FnOnce(&AppState) -> Router + Send + 'static) -> Self {
        self.0.push(Box::new(make));
        self
    }

    /// CardCom's notification (decision 0063), when CardCom is configured.
    pub fn cardcom(self, cardcom: Option<Arc<kupa_providers::cardcom::CardCom>>) -> Self {
        match cardcom {
            Some(cardcom) => self.with(move |state| {
                // The cards CardCom tokenises are saved with the app's saved cards (decision 0066).
                cardcom.attach(state.saved_cards.clone());
                kupa_providers::cardcom::notify::router(kupa_providers::cardcom::notify::Notify {
                    orders: state.orders.clone(),
                    cardcom,
                })
            }),
            None => self,
        }
    }

    /// PayU's notification and Blik code page (decision 0064), when PayU is configured.
    pub fn payu(self, payu: Option<Arc<kupa_providers::payu::PayU>>) -> Self {
        match payu {
            Some(payu) => self.with(move |state| {
                kupa_providers::payu::notify::router(kupa_providers::payu::notify::Notify {
                    orders: state.orders.clone(),
                    payu,
                    shop: Arc::new(KupaHttp),
                })
            }),
            None => self,
        }
    }

    /// PayPal's webhook (decision 0065), when PayPal is configured.
    pub fn paypal(self, paypal: Option<Arc<kupa_providers::paypal::PayPal>>) -> Self {
        match paypal {
            Some(paypal) => self.with(move |state| paypal_route(state, paypal)),
            None => self,
        }
    }
}

/// [`site`], with the configured providers' routes.
pub fn site_with_routes(state: AppState, providers: ProviderRoutes) -> Router {
    let gateway_pages = pages::router(pages::GatewayPages {
        orders: state.orders.clone(),
        saved_cards: state.saved_cards.clone(),
        default_locale: state.settings.default_locale.clone(),
        shop: Arc::new(KupaHttp),
    });
    let mut routes = kupa_api::router(state.clone()).merge(gateway_pages);
    for make in providers.0 {
        routes = routes.merge(make(&state));
    }
    kupa_api::with_site_layers(routes, state)
}

/// PayPal's webhook route (`POST /pay/paypal/webhook`, decision 0065), to merge into the site's
/// routes beside Kupa's own (under the same layers).
pub fn paypal_route(state: &AppState, paypal: Arc<kupa_providers::paypal::PayPal>) -> Router {
    kupa_providers::paypal::webhook::router(kupa_providers::paypal::webhook::Webhook {
        orders: state.orders.clone(),
        paypal,
    })
}

/// What the test gateway's pages ask of Kupa's HTTP: the buyer session (set by its session
/// layer), and the status an error answers with (the API's mapping, which logs it once).
struct KupaHttp;

impl pages::Shop for KupaHttp {
    fn buyer_session(&self, request: &Parts) -> Option<String> {
        request
            .extensions
            .get::<BuyerSession>()
            .map(|b| b.id().as_str().to_owned())
    }

    fn error_status(&self, error: AppError) -> StatusCode {
        kupa_api::error::ApiError::from(error).status
    }
}
