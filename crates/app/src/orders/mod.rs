//! The ticket order on the server: the priced cart (a pending order), the payment it starts, the
//! one finalisation path (keyed by payment id, safe to run twice) that both the gateway's callback
//! and the buyer's commit go through, and the reservation read back for tickets out.
//!
//! A room per step a reader names: [`model`] (what is stored), [`cart`] (pricing a cart into the
//! session's pending order), [`payment`] (starting a payment, the gateway's word, vouchers),
//! [`finalise`] (the one finalisation path, the commit, the sweeper) and [`messages`] (the
//! confirmation mail and the tickets by text message). The ports are in [`crate::ports`].

mod cart;
mod finalise;
mod messages;
pub mod model;
mod payment;

use std::sync::Arc;

use kupa_domain::ids::Token;
use rand::Rng;

use crate::booking::BookingService;
use crate::catalogue::{CatalogueService, PresentationInfo};
use crate::error::{AppError, AppResult, ErrorCode};
use crate::ports::{Captcha, CatalogueStore, ClaimStore, Clock, Mailer, SmsSender};
use crate::tickets::TicketService;

pub use crate::ports::{OrderStore, PaymentGateway};
pub use finalise::STRANDED_AFTER_MS;
pub use model::*;

fn token() -> String {
    Token::from_bytes(rand::rng().random()).to_string()
}

fn reservation_number() -> String {
    let n: u32 = rand::rng().random_range(0..100_000_000);
    format!("{:04}-{:04}", n / 10_000, n % 10_000)
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
}

/// How the order reaches the buyer: mail, text messages, and the site's public address for links.
pub struct Messages {
    pub sms: Arc<dyn SmsSender>,
    pub mailer: Arc<dyn Mailer>,
    /// e.g. "https://tickets.example.co.il" (KUPA_PUBLIC_URL), no trailing slash.
    pub public_url: String,
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
        }
    }

    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    async fn sellable(&self, presentation_id: i64) -> AppResult<PresentationInfo> {
        let info = self
            .catalogue
            .presentation(presentation_id, &Default::default())
            .await?
            .info;
        info.require_on_sale()?;
        Ok(info)
    }

    pub async fn payment(&self, id: &str) -> AppResult<Payment> {
        self.orders
            .payment(id)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such payment"))
    }

    pub async fn reservation(&self, id: &str) -> AppResult<(Order, PresentationInfo)> {
        let order = self.orders.order(id).await?;
        self.paid_with_presentation(order)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such reservation"))
    }

    /// A paid order with its presentation; None for no order or one not paid.
    async fn paid_with_presentation(
        &self,
        order: Option<Order>,
    ) -> AppResult<Option<(Order, PresentationInfo)>> {
        let Some(order) = order.filter(|o| o.status == OrderStatus::Paid) else {
            return Ok(None);
        };
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        Ok(Some((order, info)))
    }

    pub async fn by_document_key(&self, key: &str) -> AppResult<Option<(Order, PresentationInfo)>> {
        let order = self.orders.order_by_document_key(key).await?;
        self.paid_with_presentation(order).await
    }
}
