//! The ticket order on the server: the priced cart (a pending order), the payment it starts, the
//! one finalisation path (keyed by payment id, safe to run twice) that both the gateway's callback
//! and the buyer's commit go through, and the reservation read back for tickets out.
//!
//! A room per step a reader names: [`model`] (what is stored), [`cart`] (pricing a cart into the
//! session's pending order), [`payment`] (starting a payment, the gateway's word, vouchers),
//! [`finalise`] (the one finalisation path, the commit, the sweeper), [`messages`] (the
//! confirmation mail and the tickets by text message) and [`confirmations`] (that mail made after
//! the answer, by a worker, from a job written with the sale). The ports are in [`crate::ports`].

pub(crate) mod cancel;
mod cart;
mod confirmations;
mod credit_mail;
mod decline;
mod finalise;
mod gift_cancel;
mod gift_cart;
mod gift_mail;
mod hold;
mod loyalty;
mod mail;
mod messages;
pub mod model;
mod modify;
mod payment;
mod seated_membership;
mod waiver;

use kupa_domain::ids::PresentationId;
use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use kupa_domain::money::Money;
use std::sync::Arc;

use kupa_domain::ids::Token;
use rand::Rng;

use crate::booking::BookingService;
use crate::catalogue::{CatalogueService, PresentationInfo};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::links::{LinkKey, LinkProof};
use crate::ports::{
    Captcha, CatalogueStore, ClaimStore, Clock, ConfirmationStore, Mailer, SmsSender,
};
use crate::tickets::TicketService;

pub use crate::ports::{MethodOffer, OrderStore, PaymentGateway, SavedCardCharge};
pub use cancel::*;
pub use confirmations::*;
pub use decline::DeclineReason;
pub use finalise::STRANDED_AFTER_MS;
pub use gift_cancel::VoucherCancelled;
pub use gift_cart::{GiftCartInput, GiftCartLines};
pub use hold::*;
pub use loyalty::*;
pub use model::*;
pub use modify::*;

fn token() -> String {
    Token::from_bytes(rand::rng().random()).to_string()
}

fn reservation_number() -> String {
    let n: u32 = rand::rng().random_range(0..100_000_000);
    format!("{:04}-{:04}", n / 10_000, n % 10_000)
}

/// The presentation an order's pages, mail and messages headline: its first. Every order read
/// back there has tickets; one without is a fault.
pub fn headline(order: &Order) -> AppResult<PresentationId> {
    order.first_presentation().ok_or_else(|| {
        AppError::internal("an order without a presentation was read as a ticket order")
    })
}

fn invalid(code: ErrorCode, message: impl std::fmt::Display) -> AppError {
    AppError::rejected(code, message)
}

pub struct OrderService {
    catalogue: Arc<CatalogueService>,
    booking: Arc<BookingService>,
    store: Arc<dyn CatalogueStore>,
    claims: Arc<dyn ClaimStore>,
    orders: Arc<dyn OrderStore>,
    tickets: Arc<TicketService>,
    customers: Arc<crate::accounts::CustomerService>,
    gateway: Arc<dyn PaymentGateway>,
    captcha: Arc<dyn Captcha>,
    clock: Arc<dyn Clock>,
    messages: Messages,
    cancellation: CancellationPolicy,
    /// Unpaid hold orders (decision 0028); None refuses them.
    holds: Option<Arc<dyn HoldStore>>,
    /// How paid orders earn loyalty points (decision 0036).
    loyalty: LoyaltyRule,
    /// The vouchers sold, for their cancellation (`gift_cancel`); None refuses it.
    vouchers: Option<Arc<dyn crate::vouchers::VoucherStore>>,
    /// The waivers of children's vouchers (decision 0041); None: none are read or swept.
    waivers: Option<Arc<dyn crate::vouchers::waiver::WaiverStore>>,
}

/// How the order reaches the buyer: mail, text messages, the site's public address for links,
/// and the key those links are signed with.
pub struct Messages {
    pub sms: Arc<dyn SmsSender>,
    pub mailer: Arc<dyn Mailer>,
    /// e.g. "https://tickets.example.co.il" (KUPA_PUBLIC_URL), no trailing slash. Every absolute
    /// link is built from it, never from a request's `Host`.
    pub public_url: String,
    /// Signs the reservation links of the mail, the text message and the calendar file.
    pub link_key: LinkKey,
    /// The confirmations to make after a sale (decision 0061).
    pub confirmations: Arc<dyn ConfirmationStore>,
    /// Wakes this node's confirmation worker: an order was just paid.
    pub wake_confirmations: Arc<dyn Fn() + Send + Sync>,
}

/// Who asks to read a reservation: a buyer session, and the signed link it came with, if any.
#[derive(Debug, Clone, Copy)]
pub struct ReservationReader<'a> {
    pub session: &'a SessionId,
    /// The login the request carried (the HttpOnly login cookie), if any.
    pub login: Option<&'a str>,
    pub link: Option<&'a LinkProof>,
}

impl OrderService {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        catalogue: Arc<CatalogueService>,
        booking: Arc<BookingService>,
        store: Arc<dyn CatalogueStore>,
        claims: Arc<dyn ClaimStore>,
        orders: Arc<dyn OrderStore>,
        tickets: Arc<TicketService>,
        customers: Arc<crate::accounts::CustomerService>,
        gateway: Arc<dyn PaymentGateway>,
        captcha: Arc<dyn Captcha>,
        clock: Arc<dyn Clock>,
        messages: Messages,
    ) -> OrderService {
        OrderService {
            catalogue,
            booking,
            store,
            claims,
            orders,
            tickets,
            customers,
            gateway,
            captcha,
            clock,
            messages,
            cancellation: CancellationPolicy::default(),
            holds: None,
            loyalty: LoyaltyRule::default(),
            vouchers: None,
            waivers: None,
        }
    }

    /// How paid orders earn loyalty points (the default: a point for every ₪10 of money).
    pub fn with_loyalty(mut self, rule: LoyaltyRule) -> OrderService {
        self.loyalty = rule;
        self
    }

    /// The cancellation rules from configuration (the default charges ₪5 a ticket and closes two
    /// hours before the event).
    pub fn with_cancellation_policy(mut self, policy: CancellationPolicy) -> OrderService {
        self.cancellation = policy;
        self
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    async fn sellable(&self, presentation_id: PresentationId) -> AppResult<PresentationInfo> {
        self.sellable_in(presentation_id, &Default::default()).await
    }

    /// A presentation on sale that the channel shows (`noEvent` when a mini-site does not).
    async fn sellable_in(
        &self,
        presentation_id: PresentationId,
        channel: &crate::catalogue::Channel,
    ) -> AppResult<PresentationInfo> {
        let info = self
            .catalogue
            .presentation(presentation_id, channel)
            .await?
            .info;
        info.require_on_sale()?;
        Ok(info)
    }

    /// The presentation an order's pages, mail and messages headline ([`headline`]).
    async fn headline_presentation(&self, order: &Order) -> AppResult<PresentationInfo> {
        Ok(self
            .catalogue
            .presentation(headline(order)?, &Default::default())
            .await?
            .info)
    }

    pub async fn payment(&self, id: &str) -> AppResult<Payment> {
        self.orders
            .payment(id)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such payment"))
    }

    /// A paid reservation, for its buyer only: the session that made it, the customer logged in
    /// on the asking session when the order is theirs, or anyone with a signed link that is still
    /// good. Anyone else is told there is no such reservation, as for an unknown id.
    pub async fn reservation(
        &self,
        id: &ReservationId,
        reader: ReservationReader<'_>,
    ) -> AppResult<(Order, PresentationInfo)> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such reservation");
        let order = self.orders.order(id).await?;
        let (order, info) = self
            .paid_with_presentation(order)
            .await?
            .ok_or_else(no_such)?;
        if self.may_read(&order, reader).await? {
            Ok((order, info))
        } else {
            tracing::info!(reservation = %order.id, "reservation read refused: not its buyer and no good link");
            Err(no_such())
        }
    }

    async fn may_read(&self, order: &Order, reader: ReservationReader<'_>) -> AppResult<bool> {
        if &order.session_id == reader.session {
            return Ok(true);
        }
        if reader.link.is_some_and(|proof| {
            self.messages
                .link_key
                .verify(order.id.as_str(), proof, self.clock.now_ms())
        }) {
            return Ok(true);
        }
        // A guest logged in by the reservation number and the order's contact reads that one.
        if self
            .customers
            .reservation_of_login(reader.login)
            .await?
            .is_some_and(|id| order.id == id.as_str())
        {
            return Ok(true);
        }
        let Some(owner) = order.customer_id else {
            return Ok(false);
        };
        Ok(self
            .customers
            .customer_of_login(reader.login)
            .await?
            .is_some_and(|c| c.customer.id == owner))
    }

    /// The proof a signed link to this reservation carries: good until the end of the day after
    /// its event.
    pub fn link_proof(&self, order: &Order, info: &PresentationInfo) -> LinkProof {
        let exp = crate::links::link_expiry(info.view.presentation.starts_at_ms);
        self.messages.link_key.sign(order.id.as_str(), exp)
    }

    /// `path` (one of the reservation's, under the site's root) signed for anyone who has it.
    pub fn signed_path(&self, path: &str, order: &Order, info: &PresentationInfo) -> String {
        format!("{path}?{}", self.link_proof(order, info).query())
    }

    /// The signed link to the reservation's tickets (PDF) at the site's public address.
    pub fn signed_tickets_url(&self, order: &Order, info: &PresentationInfo, lang: &str) -> String {
        format!(
            "{}{}&lang={lang}",
            self.messages.public_url,
            self.signed_path(
                &crate::links::tickets_pdf_path(order.id.as_str()),
                order,
                info
            )
        )
    }

    /// The signed link to the reservation's confirmation page at the site's public address: what
    /// the mail, the text message and the calendar file give the buyer, good on any device, in
    /// the page language `lang`.
    pub fn signed_confirmation_url(
        &self,
        order: &Order,
        info: &PresentationInfo,
        lang: &str,
    ) -> String {
        format!(
            "{}{}&lang={lang}",
            self.messages.public_url,
            self.signed_path(
                &crate::links::confirmation_path(order.id.as_str()),
                order,
                info
            )
        )
    }

    /// The site's public address (KUPA_PUBLIC_URL), for links that leave the site.
    pub fn public_url(&self) -> &str {
        &self.messages.public_url
    }

    /// A paid order (or one cancelled after payment) with its presentation; None for no order or
    /// one never paid.
    async fn paid_with_presentation(
        &self,
        order: Option<Order>,
    ) -> AppResult<Option<(Order, PresentationInfo)>> {
        // A reservation cancelled after payment stays readable: its page shows what was cancelled.
        // A voucher or donation order is read as one (GET /gift-orders/{id}), not as a reservation.
        let Some(order) = order.filter(|o| {
            o.kind == OrderKind::Tickets
                && (o.status == OrderStatus::Paid
                    || (o.status == OrderStatus::Cancelled && o.paid_at_ms.is_some()))
        }) else {
            return Ok(None);
        };
        let info = self.headline_presentation(&order).await?;
        Ok(Some((order, info)))
    }

    /// The paid order a ticket's e-document key belongs to, with that ticket's presentation (an
    /// order may hold several).
    pub async fn by_document_key(&self, key: &str) -> AppResult<Option<(Order, PresentationInfo)>> {
        let order = self.orders.order_by_document_key(key).await?;
        // A seated membership's seats are tickets at the door too (decision 0043), read only
        // here: the membership order is not a reservation to cancel or change.
        let found = match order {
            Some(o) if o.kind == OrderKind::Memberships && o.status == OrderStatus::Paid => {
                let headline = self.headline_presentation(&o).await?;
                Some((o, headline))
            }
            other => self.paid_with_presentation(other).await?,
        };
        let Some((order, headline)) = found else {
            return Ok(None);
        };
        let own = order
            .tickets
            .iter()
            .find(|t| t.document_key == key)
            .map(|t| t.presentation_id);
        let info = match own {
            Some(id) if id != headline.view.presentation.id => {
                self.catalogue
                    .presentation(id, &Default::default())
                    .await?
                    .info
            }
            _ => headline,
        };
        Ok(Some((order, info)))
    }

    /// Every presentation of an order, in its order (the first is the one it headlines).
    pub async fn presentations_of(&self, order: &Order) -> AppResult<Vec<PresentationInfo>> {
        let mut out = Vec::with_capacity(order.presentations.len());
        for id in &order.presentations {
            out.push(
                self.catalogue
                    .presentation(*id, &Default::default())
                    .await?
                    .info,
            );
        }
        Ok(out)
    }
}
