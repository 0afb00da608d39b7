//! The ticket order on the server: the priced cart (a pending order), the payment it starts, the
//! one finalisation path (keyed by payment id, safe to run twice) that both the gateway's callback
//! and the buyer's commit go through, and the reservation read back for tickets out.

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;

use async_trait::async_trait;
use kupa_domain::catalogue::SaleState;
use kupa_domain::checkout::Step;
use kupa_domain::ids::Token;
use kupa_domain::money::{DEFAULT_CURRENCY, Money};
use kupa_domain::pricing::{self, ProductLine, ServiceChargeRule, TicketLine};
use kupa_domain::seating::{self, Occupancy, SeatKey};
use rand::Rng;
use serde::{Deserialize, Serialize};

use crate::booking::{BookingService, plan_seat};
use crate::catalogue::{CatalogueService, PresentationInfo};
use crate::customer_info::CustomerInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::model::{Seat, Ticket};
use crate::ports::{
    Attachment, Captcha, CatalogueStore, ClaimStore, Clock, Mail, Mailer, Sms, SmsSender,
    message_kind,
};
use crate::tickets::TicketService;
use kupa_domain::tickets::{Buyer, OrderLine, TicketCatalogue, TicketCodeRule, TicketType};

// ------------------------------------------------------------------------------------------
// What is stored

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum OrderStatus {
    Pending,
    Paid,
    Failed,
    Cancelled,
}

impl OrderStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::Pending => "pending",
            OrderStatus::Paid => "paid",
            OrderStatus::Failed => "failed",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    pub fn parse(s: &str) -> Option<OrderStatus> {
        [
            OrderStatus::Pending,
            OrderStatus::Paid,
            OrderStatus::Failed,
            OrderStatus::Cancelled,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderTicket {
    pub line: i64,
    pub presentation_id: i64,
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub section_name: String,
    pub section_name_en: String,
    pub row_name: String,
    pub seat_name: String,
    pub ticket_id: i64,
    pub ticket_name: String,
    pub ticket_name_en: String,
    pub price: i64,
    pub service_charge: i64,
    pub is_sub_ticket: bool,
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub member_number: Option<String>,
    pub document_key: String,
    pub scanned_at_ms: Option<i64>,
    pub cancelled_at_ms: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderProduct {
    pub product_id: i64,
    pub name: String,
    pub name_en: String,
    pub quantity: i64,
    pub unit_price: i64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Order {
    pub id: String,
    pub reservation_number: String,
    pub session_id: String,
    pub presentation_id: i64,
    pub status: OrderStatus,
    pub is_hold: bool,
    pub customer_id: Option<i64>,
    pub customer: CustomerInfo,
    pub locale: String,
    pub tickets_total: i64,
    pub products_total: i64,
    pub service_charge_total: i64,
    pub service_charge_name: String,
    pub total: i64,
    pub currency: String,
    pub payment_id: Option<String>,
    pub created_at_ms: i64,
    pub paid_at_ms: Option<i64>,
    pub committed_at_ms: Option<i64>,
    pub tickets: Vec<OrderTicket>,
    pub products: Vec<OrderProduct>,
    /// Vouchers paying part (or all) of the total, in the order they were applied.
    pub vouchers: Vec<OrderVoucher>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderVoucher {
    /// The voucher's code, normalised.
    pub code: String,
    /// Agorot it pays: the smaller of what was still due and its balance.
    pub amount: i64,
}

impl Order {
    /// What is left to pay after the vouchers.
    pub fn amount_due(&self) -> i64 {
        self.total - self.vouchers.iter().map(|v| v.amount).sum::<i64>()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentMethodValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentMethod {
    Card,
    SavedCard,
    Paypal,
    Blik,
    Payu,
    Voucher,
}

impl PaymentMethod {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentMethod::Card => "card",
            PaymentMethod::SavedCard => "savedCard",
            PaymentMethod::Paypal => "paypal",
            PaymentMethod::Blik => "blik",
            PaymentMethod::Payu => "payu",
            PaymentMethod::Voucher => "voucher",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentMethod> {
        [
            PaymentMethod::Card,
            PaymentMethod::SavedCard,
            PaymentMethod::Paypal,
            PaymentMethod::Blik,
            PaymentMethod::Payu,
            PaymentMethod::Voucher,
        ]
        .into_iter()
        .find(|m| m.as_str() == s)
    }
}

/// Where a payment stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema), schema(as = PaymentStatusValue))]
#[serde(rename_all = "camelCase")]
pub enum PaymentStatus {
    Created,
    /// The card's 3-D Secure check is waiting.
    Challenge,
    /// Blik: waiting for the buyer to confirm in the bank's app.
    AwaitingBank,
    /// PayU or PayPal: the buyer is on the provider's page.
    Redirected,
    Authorized,
    /// Paid: the order is a reservation.
    Captured,
    Declined,
    Failed,
    Refunded,
    Expired,
}

impl PaymentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PaymentStatus::Created => "created",
            PaymentStatus::Challenge => "challenge",
            PaymentStatus::AwaitingBank => "awaitingBank",
            PaymentStatus::Redirected => "redirected",
            PaymentStatus::Authorized => "authorized",
            PaymentStatus::Captured => "captured",
            PaymentStatus::Declined => "declined",
            PaymentStatus::Failed => "failed",
            PaymentStatus::Refunded => "refunded",
            PaymentStatus::Expired => "expired",
        }
    }

    pub fn parse(s: &str) -> Option<PaymentStatus> {
        use PaymentStatus::*;
        [
            Created,
            Challenge,
            AwaitingBank,
            Redirected,
            Authorized,
            Captured,
            Declined,
            Failed,
            Refunded,
            Expired,
        ]
        .into_iter()
        .find(|x| x.as_str() == s)
    }

    /// Still waiting for the buyer or the provider.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            PaymentStatus::Created
                | PaymentStatus::Challenge
                | PaymentStatus::AwaitingBank
                | PaymentStatus::Redirected
        )
    }

    /// The money is there: a payment is "paid" once authorized, before it is captured.
    pub fn is_paid(self) -> bool {
        matches!(self, PaymentStatus::Authorized | PaymentStatus::Captured)
    }
}

/// The spec's payment codes (section 8), as stored in `failure_code`: what a provider may say a
/// payment failed with, whichever provider it is.
pub mod payment_codes {
    pub const PAYMENT_ERROR: &str = "paymentError";
    pub const BLIK_ERROR: &str = "blikError";
    pub const PAYU_ERROR: &str = "payUerror";
    pub const PAYU_3DS_ERROR: &str = "payU_3DS_error";
    pub const ERROR_NO_RESPONSE: &str = "errorNoResponse";
    pub const ERROR_RESPONSE: &str = "errorResponse";
    pub const FORM_VALIDATION: &str = "formValidation";
    /// Every code a payment may fail with.
    pub const ALL: [&str; 6] = [
        PAYMENT_ERROR,
        BLIK_ERROR,
        PAYU_ERROR,
        PAYU_3DS_ERROR,
        ERROR_NO_RESPONSE,
        ERROR_RESPONSE,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payment {
    pub id: String,
    pub order_id: String,
    pub session_id: String,
    pub method: PaymentMethod,
    pub amount: i64,
    pub currency: String,
    pub installments: i64,
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub save_card: bool,
    pub failure_code: Option<String>,
    pub locale: String,
    pub return_url: String,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

impl Payment {
    /// The failure code to tell the buyer: none once paid (a code from an earlier try is history).
    pub fn failure_code_for_buyer(&self) -> Option<String> {
        if self.status.is_paid() {
            None
        } else {
            self.failure_code.clone()
        }
    }
}

/// What a payment provider reports back about a payment (the callback's content).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PaymentUpdate {
    pub status: PaymentStatus,
    pub card_brand: Option<String>,
    pub card_last4: Option<String>,
    pub card_bin: Option<String>,
    pub failure_code: Option<String>,
    /// For the payment's event log; never card data.
    pub note: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Finalised {
    /// Turned paid now, by this call.
    Paid(Order),
    /// Paid earlier by this same payment (a callback arriving twice, or the commit after it).
    AlreadyPaid(Order),
    /// The payment is not (or no longer) authorized.
    NotAuthorized(PaymentStatus),
    /// A held seat was lost (its hold expired and another buyer took it): nothing was written.
    HoldsLost,
    /// A code's uses, or a reference option's places, ran out before this order was paid:
    /// nothing was written.
    CodeUsedUp,
    /// The order was already paid by another payment.
    PaidByAnother(Order),
}

/// Orders and payments. `finalise` is the one path from an authorized payment to a reservation.
#[async_trait]
pub trait OrderStore: Send + Sync {
    /// Writes a pending order, replacing the session's earlier pending (unpaid) order on the same
    /// presentation and any of its open payments.
    async fn save_pending_order(&self, order: &Order, now_ms: i64) -> AppResult<()>;
    async fn pending_order(
        &self,
        session_id: &str,
        presentation_id: i64,
    ) -> AppResult<Option<Order>>;
    async fn latest_order(
        &self,
        session_id: &str,
        presentation_id: i64,
    ) -> AppResult<Option<Order>>;
    async fn order(&self, id: &str) -> AppResult<Option<Order>>;
    async fn order_by_document_key(&self, key: &str) -> AppResult<Option<Order>>;
    async fn create_payment(&self, payment: &Payment) -> AppResult<()>;
    async fn payment(&self, id: &str) -> AppResult<Option<Payment>>;
    /// Records what the provider said. A payment that already reached a final state
    /// (captured, refunded) is left as it is; returns the payment as stored afterwards.
    async fn update_payment(
        &self,
        id: &str,
        update: &PaymentUpdate,
        now_ms: i64,
    ) -> AppResult<Option<Payment>>;
    /// In one transaction: the order's held seats become sold (each must still be held by the
    /// order's session, live), the order becomes paid and the payment captured. Safe to run twice.
    async fn finalise(&self, payment_id: &str, now_ms: i64) -> AppResult<Finalised>;
    /// Moves an authorized payment to refunded, with the reason, if nothing else moved it first:
    /// true for the one caller that must give the money back (single winner, on any node).
    async fn claim_refund(
        &self,
        payment_id: &str,
        failure_code: &str,
        now_ms: i64,
    ) -> AppResult<bool>;
    /// Marks the buyer's first commit; false when the order was already committed.
    async fn mark_committed(&self, order_id: &str, now_ms: i64) -> AppResult<bool>;
    /// Authorized payments older than `before_ms` that no finalisation reached (a closed tab).
    async fn stranded_payments(&self, before_ms: i64) -> AppResult<Vec<Payment>>;
}

/// A payment provider. The built-in test gateway implements it with its own hosted pages.
#[async_trait]
pub trait PaymentGateway: Send + Sync {
    /// Where the buyer pays this payment (the spec's paymentFormURL).
    fn form_url(&self, payment: &Payment) -> String;
    /// Gives the money back (a finalisation that failed after the money was taken).
    async fn refund(&self, payment: &Payment) -> AppResult<()>;
    /// The provider's word for an open payment that has outlived its window at `now_ms`, if it
    /// has (the built-in test gateway times payments out itself; others call back).
    fn timed_out(&self, _payment: &Payment, _now_ms: i64) -> Option<PaymentUpdate> {
        None
    }
}

// ------------------------------------------------------------------------------------------
// The cart

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartSeat {
    pub section_id: i64,
    pub x: i64,
    pub y: i64,
    pub ticket_id: i64,
    /// What the client believes the ticket costs; refused when it differs.
    pub amount: Option<i64>,
    pub code: Option<String>,
    pub ref1: Option<String>,
    pub ref2: Option<String>,
    pub member_number: Option<String>,
    /// A senior citizen's Israeli ID (senior tickets).
    pub senior_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CartInput {
    pub presentation_id: i64,
    pub seats: Vec<CartSeat>,
    pub products: Vec<(i64, i64)>,
    /// Voucher references paying part of the order (spec: the cart's voucherPayments).
    pub vouchers: Vec<String>,
    pub customer: Option<CustomerInfo>,
    /// The step the buyer is entering (tickets, products, customerInfo); the holds follow it.
    pub step: Option<Step>,
    pub locale: String,
    /// What the client believes the order costs; refused when it differs.
    pub total: Option<i64>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PricedCart {
    pub order: Order,
    pub expires_at_ms: i64,
    pub step: Step,
}

const MAX_PRODUCT_QUANTITY: i64 = 20;
const MAX_INSTALLMENTS: i64 = 12;
/// An authorized payment that no finalisation reached within this time is finalised (or refunded) by the sweeper.
pub const STRANDED_AFTER_MS: i64 = 60_000;

fn token() -> String {
    Token::from_bytes(rand::rng().random()).to_string()
}

fn reservation_number() -> String {
    let n: u32 = rand::rng().random_range(0..100_000_000);
    format!("{:04}-{:04}", n / 10_000, n % 10_000)
}

fn invalid(code: &'static str, message: impl std::fmt::Display) -> AppError {
    AppError::rejected(ErrorCode::Invalid(code), message)
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
        match info.sale_state {
            SaleState::OnSale => Ok(info),
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

    /// Validates the whole cart against the session's holds and the rules, prices it on the
    /// server, and keeps it as the session's pending order.
    pub async fn price_cart(&self, session: &str, cart: CartInput) -> AppResult<PricedCart> {
        let now = self.clock.now_ms();
        let info = self.sellable(cart.presentation_id).await?;
        let p = &info.view.presentation;
        let config = self.catalogue.site_config().await?;
        if cart.seats.is_empty() {
            return Err(invalid("formValidation", "the cart has no seats"));
        }

        // Every seat of the cart is held, live, by this session, and every such hold is in the cart.
        let claims = self.claims.claims(p.id).await?;
        let mine: HashSet<(i64, i64, i64)> = claims
            .iter()
            .filter(|c| c.session_id == session && !c.sold && c.expires_at_ms > now)
            .map(|c| (c.section_id, c.x, c.y))
            .collect();
        let wanted: HashSet<(i64, i64, i64)> = cart
            .seats
            .iter()
            .map(|s| (s.section_id, s.x, s.y))
            .collect();
        if wanted.len() != cart.seats.len() {
            return Err(invalid(
                "formValidation",
                "a seat appears twice in the cart; one ticket per seat",
            ));
        }
        if let Some(lost) = wanted.iter().find(|k| !mine.contains(k)) {
            return Err(AppError::rejected_with(
                ErrorCode::LockSeatError,
                "a seat in the cart is not held by you (its hold may have expired)",
                serde_json::json!({ "sectionId": lost.0, "x": lost.1, "y": lost.2 }),
            ));
        }
        if mine.len() != wanted.len() {
            return Err(invalid(
                "cartSeatsMismatch",
                "the cart must have a ticket for every seat you hold",
            ));
        }

        // The seating rules on the whole selection.
        let sections = self.store.sections(p.seatplan_id).await?;
        let seats = self.store.seats(p.seatplan_id).await?;
        let status = self
            .catalogue
            .seat_status(p.id, None, Some(session), &Default::default())
            .await?;
        let statuses: Vec<seating::SeatStatus> = status
            .seats
            .iter()
            .map(|(s, st)| seating::SeatStatus {
                seat: plan_seat(s, &sections),
                occupancy: Occupancy::from(*st),
            })
            .collect();
        let rule = |v: seating::SeatingViolation| {
            AppError::rejected(ErrorCode::SeatingRule(v.code()), v.to_string())
        };
        seating::check_single_seat_gap(p.seating_policy_id, &statuses).map_err(rule)?;
        seating::check_sofas(&statuses).map_err(rule)?;
        let chosen: Vec<&Seat> = cart
            .seats
            .iter()
            .filter_map(|c| {
                seats
                    .iter()
                    .find(|s| s.section_id == c.section_id && s.x == c.x && s.y == c.y)
            })
            .collect();
        seating::check_price_level(
            &chosen
                .iter()
                .map(|s| plan_seat(s, &sections))
                .collect::<Vec<_>>(),
        )
        .map_err(rule)?;
        seating::check_max_seats(
            cart.seats.len(),
            config.max_seats_per_transaction.max(1) as usize,
        )
        .map_err(rule)?;

        // Tickets: each from its seat's section's ticket group, with the spec's ticket rules
        // (codes, members, senior IDs, references, companions, multiply factors), priced here.
        let group_ids: Vec<i64> = sections.iter().map(|s| s.ticket_group_id).collect();
        let groups = self.store.ticket_groups(&group_ids).await?;
        let all_tickets: Vec<&Ticket> = groups.iter().flat_map(|(_, ts)| ts.iter()).collect();
        let types: Vec<TicketType> = all_tickets
            .iter()
            .map(|t| crate::tickets::ticket_type(t))
            .collect();
        let mut order_lines = Vec::new();
        for c in &cart.seats {
            let section = sections
                .iter()
                .find(|s| s.id == c.section_id)
                .ok_or_else(|| invalid("formValidation", "unknown section"))?;
            order_lines.push(OrderLine {
                seat: SeatKey {
                    section_id: c.section_id,
                    x: c.x,
                    y: c.y,
                },
                ticket_group_id: section.ticket_group_id,
                ticket_id: c.ticket_id,
                code: c.code.clone().filter(|x| !x.trim().is_empty()),
                ref1: c.ref1.clone().filter(|x| !x.trim().is_empty()),
                ref2: c.ref2.clone().filter(|x| !x.trim().is_empty()),
                member_number: c.member_number.clone().filter(|x| !x.trim().is_empty()),
                senior_id: c.senior_id.clone().filter(|x| !x.trim().is_empty()),
                previous_ticket_id: None,
            });
        }
        // The codes the buyer entered, each once: a code filling several seats is one code.
        let mut entered: Vec<String> = Vec::new();
        for code in order_lines.iter().filter_map(|l| l.code.as_deref()) {
            let key = kupa_domain::tickets::normalise_code(code);
            if !entered.contains(&key) {
                entered.push(key);
            }
        }
        let entered_refs: Vec<&str> = entered.iter().map(String::as_str).collect();
        let codes: Vec<TicketCodeRule> = self
            .tickets
            .code_rules(&entered_refs)
            .await?
            .into_iter()
            .map(|(_, r)| r)
            .collect();
        let numbers: Vec<&str> = order_lines
            .iter()
            .filter_map(|l| l.member_number.as_deref())
            .collect();
        // A member's benefits are the member's: member numbers need the member logged in
        // (mobile and SMS code) on this session.
        if !numbers.is_empty() {
            let account = self
                .customers
                .customer_of_session(session)
                .await?
                .ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::Unauthorized("loginError"),
                        "log in to use member tickets",
                    )
                })?;
            if let Some(n) = numbers.iter().find(|n| {
                !account
                    .members
                    .iter()
                    .any(|m| m.member.member_number == n.trim())
            }) {
                return Err(AppError::rejected(
                    ErrorCode::Invalid("memberNotFound"),
                    format!("member {n} is not yours"),
                ));
            }
        }
        let members = self.tickets.member_infos(&numbers).await?;
        let ref_ticket_ids: Vec<i64> = all_tickets
            .iter()
            .filter(|t| !t.ref_prompt.is_empty())
            .map(|t| t.id)
            .collect();
        let ref_options = self.tickets.ref_options(&ref_ticket_ids).await?;
        let priced_lines = kupa_domain::tickets::check_order(
            &order_lines,
            &TicketCatalogue {
                tickets: &types,
                codes: &codes,
                ref_options: &ref_options,
            },
            &Buyer {
                member_number: None,
                members: &members,
                entered_codes: &entered,
            },
            self.tickets.today(),
        )
        .map_err(AppError::from)?;
        let chosen_tickets: Vec<&Ticket> = priced_lines
            .iter()
            .map(|pl| {
                all_tickets
                    .iter()
                    .find(|t| t.id == pl.ticket_id)
                    .copied()
                    .ok_or_else(|| AppError::internal("a priced ticket vanished"))
            })
            .collect::<AppResult<_>>()?;
        let sub: Vec<bool> = priced_lines.iter().map(|pl| pl.is_sub_ticket).collect();

        let charge = self.store.service_charge(p.business_id).await?;
        let charge_rule = charge.as_ref().map(|c| ServiceChargeRule {
            amount: c.amount.map(Money),
            percent_bp: c.percent_bp,
            per_ticket: c.per_ticket,
        });
        let lines: Vec<TicketLine> = priced_lines
            .iter()
            .map(|pl| TicketLine {
                price: pl.price,
                own_service_charge: pl.service_charge,
                is_sub_ticket: pl.is_sub_ticket,
            })
            .collect();

        // Products sold at this complex, in sane quantities.
        let menu = self
            .store
            .products_for_location(info.view.location.id)
            .await?;
        let mut product_lines = Vec::new();
        let mut order_products = Vec::new();
        let mut seen = HashSet::new();
        for (id, qty) in cart.products.iter().filter(|(_, q)| *q != 0) {
            if !(1..=MAX_PRODUCT_QUANTITY).contains(qty) || !seen.insert(*id) {
                return Err(invalid(
                    "formValidation",
                    format!("product {id}: quantity must be 1 to {MAX_PRODUCT_QUANTITY}, once"),
                ));
            }
            let product = menu.iter().find(|m| m.id == *id).ok_or_else(|| {
                invalid("formValidation", format!("product {id} is not sold here"))
            })?;
            product_lines.push(ProductLine {
                unit_price: Money(product.price),
                quantity: *qty,
            });
            order_products.push(OrderProduct {
                product_id: product.id,
                name: product.name.clone(),
                name_en: product.name_en.clone(),
                quantity: *qty,
                unit_price: product.price,
            });
        }
        let totals = pricing::totals(&lines, &product_lines, charge_rule.as_ref());

        // The client's amounts, if sent, must be the server's.
        for (c, (price, _)) in cart.seats.iter().zip(&totals.lines) {
            if c.amount.is_some_and(|a| a != price.minor()) {
                return Err(AppError::rejected_with(
                    ErrorCode::Invalid("priceMismatch"),
                    "a ticket's price is not what you were shown",
                    serde_json::json!({ "ticketId": c.ticket_id, "price": price.minor() }),
                ));
            }
        }
        if cart.total.is_some_and(|t| t != totals.total.minor()) {
            return Err(AppError::rejected_with(
                ErrorCode::Invalid("priceMismatch"),
                "the total is not what you were shown",
                serde_json::json!({ "total": totals.total.minor() }),
            ));
        }

        let customer = match cart.customer {
            Some(c) => {
                let c = c.normalised();
                let problems = c.problems(&config);
                if !problems.is_empty() {
                    return Err(AppError::rejected_with(
                        ErrorCode::FormValidation,
                        "some details are missing or not valid",
                        serde_json::json!({ "fields": problems }),
                    ));
                }
                c
            }
            None => CustomerInfo::default(),
        };

        let section_name = |id: i64| {
            sections
                .iter()
                .find(|s| s.id == id)
                .map(|s| s.name.clone())
                .unwrap_or_default()
        };
        let tickets: Vec<OrderTicket> = cart
            .seats
            .iter()
            .zip(&chosen_tickets)
            .zip(&totals.lines)
            .zip(&sub)
            .enumerate()
            .map(|(i, (((c, t), (price, charge)), is_sub))| {
                let seat = seats
                    .iter()
                    .find(|s| s.section_id == c.section_id && s.x == c.x && s.y == c.y);
                OrderTicket {
                    line: i as i64 + 1,
                    presentation_id: p.id,
                    section_id: c.section_id,
                    x: c.x,
                    y: c.y,
                    section_name: section_name(c.section_id),
                    section_name_en: sections
                        .iter()
                        .find(|s| s.id == c.section_id)
                        .map(|s| s.name_en.clone())
                        .unwrap_or_default(),
                    row_name: seat.map(|s| s.row_name.clone()).unwrap_or_default(),
                    seat_name: seat
                        .map(|s| s.seat_name.clone())
                        .unwrap_or_else(|| c.x.to_string()),
                    ticket_id: t.id,
                    ticket_name: t.name.clone(),
                    ticket_name_en: t.name_en.clone(),
                    price: price.minor(),
                    service_charge: charge.minor(),
                    is_sub_ticket: *is_sub,
                    code: priced_lines[i].code.clone(),
                    ref1: c.ref1.clone().filter(|x| !x.is_empty()),
                    ref2: c.ref2.clone().filter(|x| !x.is_empty()),
                    member_number: c.member_number.clone().filter(|x| !x.is_empty()),
                    document_key: token(),
                    scanned_at_ms: None,
                    cancelled_at_ms: None,
                }
            })
            .collect();
        let mut order = Order {
            id: token(),
            reservation_number: reservation_number(),
            session_id: session.to_owned(),
            presentation_id: p.id,
            status: OrderStatus::Pending,
            is_hold: false,
            customer_id: None,
            customer,
            locale: cart.locale,
            tickets_total: totals.tickets.minor(),
            products_total: totals.products.minor(),
            service_charge_total: totals.service_charge.minor(),
            service_charge_name: charge
                .as_ref()
                .map(|c| c.name.clone())
                .unwrap_or_else(|| "דמי טיפול".into()),
            total: totals.total.minor(),
            currency: DEFAULT_CURRENCY.into(),
            payment_id: None,
            created_at_ms: now,
            paid_at_ms: None,
            committed_at_ms: None,
            tickets,
            products: order_products,
            vouchers: self
                .voucher_lines(&cart.vouchers, totals.total.minor())
                .await?,
        };
        // Moving on (ticket choice, products, details) restarts the step timer; the holds follow.
        let step = cart.step.unwrap_or(Step::Tickets);
        let checkout = self.booking.advance(session, p.id, step).await?;
        // Reservation numbers are short and random: on the rare collision, draw another.
        let mut attempts = 0;
        loop {
            match self.orders.save_pending_order(&order, now).await {
                Err(AppError::Internal(e)) if e.contains("reservation_number") && attempts < 5 => {
                    attempts += 1;
                    order.reservation_number = reservation_number();
                }
                other => break other?,
            }
        }
        Ok(PricedCart {
            order,
            expires_at_ms: checkout.deadline_ms,
            step: checkout.step,
        })
    }

    /// The spec's cart rule: presentations of one cart must share their auth profile and business.
    pub async fn check_compatible(&self, presentation_ids: &[i64]) -> AppResult<()> {
        let mut first: Option<PresentationInfo> = None;
        for id in presentation_ids {
            let info = self
                .catalogue
                .presentation(*id, &Default::default())
                .await?
                .info;
            if let Some(f) = &first {
                if f.view.presentation.auth_profile_id != info.view.presentation.auth_profile_id {
                    return Err(invalid(
                        "Incompatible AuthProfile",
                        "these presentations cannot be bought together (auth profile)",
                    ));
                }
                if f.view.presentation.business_id != info.view.presentation.business_id {
                    return Err(invalid(
                        "Incompatible Business",
                        "these presentations cannot be bought together (business)",
                    ));
                }
            } else {
                first = Some(info);
            }
        }
        Ok(())
    }

    /// Starts paying the session's pending order: checks the total the client shows, gives the
    /// holds the payment window, and returns the payment (whose form URL the gateway knows).
    pub async fn start_payment(
        &self,
        session: &str,
        presentation_id: i64,
        request: StartPayment,
    ) -> AppResult<(Payment, String, i64)> {
        crate::ports::require_captcha(self.captcha.as_ref(), &request.captcha_token).await?;
        let now = self.clock.now_ms();
        let order = self
            .orders
            .pending_order(session, presentation_id)
            .await?
            .ok_or_else(|| {
                invalid(
                    "formValidation",
                    "there is no priced cart to pay: send the cart first",
                )
            })?;
        if order.customer.email.is_empty() && order.customer.mobile_number.is_empty() {
            return Err(invalid(
                "formValidation",
                "the customer details are missing: send them with the cart",
            ));
        }
        if request.total.is_some_and(|t| t != order.total) {
            return Err(AppError::rejected_with(
                ErrorCode::Invalid("priceMismatch"),
                "the total is not what you were shown",
                serde_json::json!({ "total": order.total }),
            ));
        }
        if !(1..=MAX_INSTALLMENTS).contains(&request.installments) {
            return Err(invalid(
                "formValidation",
                format!("number of payments must be 1 to {MAX_INSTALLMENTS}"),
            ));
        }
        let checkout = self
            .booking
            .advance(session, presentation_id, Step::Payment)
            .await?;
        // Vouchers pay first; the gateway is asked only for what is left.
        let due = order.amount_due();
        let payment = Payment {
            id: token(),
            order_id: order.id.clone(),
            session_id: session.to_owned(),
            method: if due == 0 {
                PaymentMethod::Voucher
            } else {
                request.method
            },
            amount: due,
            currency: order.currency.clone(),
            installments: request.installments,
            status: PaymentStatus::Created,
            card_brand: None,
            card_last4: None,
            card_bin: None,
            save_card: request.save_card,
            failure_code: None,
            locale: request.locale,
            return_url: request.return_url,
            created_at_ms: now,
            updated_at_ms: now,
        };
        self.orders.create_payment(&payment).await?;
        if due == 0 {
            // Paid in full by vouchers: nothing for a gateway to take; finalise at once.
            let authorized = PaymentUpdate {
                status: PaymentStatus::Authorized,
                card_brand: None,
                card_last4: None,
                card_bin: None,
                failure_code: None,
                note: "paid in full by vouchers".into(),
            };
            self.payment_callback(&payment.id, authorized).await?;
            let paid = self.payment(&payment.id).await?;
            let back = paid.return_url.clone();
            return Ok((paid, back, checkout.deadline_ms));
        }
        let url = self.gateway.form_url(&payment);
        Ok((payment, url, checkout.deadline_ms))
    }

    /// An open payment past its provider's window times out (expired, `errorNoResponse`) the
    /// first time anyone looks at it: the provider's word, through the same callback.
    pub async fn expire_if_due(&self, payment: Payment) -> AppResult<Payment> {
        let Some(answer) = self.gateway.timed_out(&payment, self.clock.now_ms()) else {
            return Ok(payment);
        };
        self.payment_callback(&payment.id, answer).await?;
        tracing::info!(payment = %payment.id, "payment timed out at its provider");
        self.payment(&payment.id).await
    }

    /// The gateway's callback: records the provider's word and, when the money is authorized,
    /// finalises. Safe to call any number of times, in any order, late.
    pub async fn payment_callback(
        &self,
        payment_id: &str,
        update: PaymentUpdate,
    ) -> AppResult<Finalised> {
        let now = self.clock.now_ms();
        let payment = self
            .orders
            .update_payment(payment_id, &update, now)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::Missing("notFound"), "no such payment"))?;
        if payment.status == PaymentStatus::Authorized || payment.status == PaymentStatus::Captured
        {
            self.finalise(&payment).await
        } else {
            Ok(Finalised::NotAuthorized(payment.status))
        }
    }

    /// The one finalisation path. A payment whose seats were lost is refunded, whole.
    async fn finalise(&self, payment: &Payment) -> AppResult<Finalised> {
        let now = self.clock.now_ms();
        let outcome = self.orders.finalise(&payment.id, now).await?;
        match &outcome {
            Finalised::HoldsLost | Finalised::PaidByAnother(_) | Finalised::CodeUsedUp => {
                let reason = match outcome {
                    Finalised::HoldsLost => "holdsLost",
                    Finalised::CodeUsedUp => "couponAlreadyUsed",
                    _ => "ORDER_ALREADY_PAID",
                };
                // Only the run that moves the payment from authorized to refunded gives the money
                // back: a callback, a commit and sweepers on several nodes may all get here.
                if self
                    .orders
                    .claim_refund(&payment.id, reason, self.clock.now_ms())
                    .await?
                {
                    if let Err(e) = self.gateway.refund(payment).await {
                        tracing::error!(payment = %payment.id, error = %e, "REFUND FAILED: the payment is marked refunded but the gateway did not confirm; refund it by hand");
                        return Err(e);
                    }
                    tracing::warn!(payment = %payment.id, order = %payment.order_id, reason, "finalisation failed; payment refunded");
                }
            }
            Finalised::Paid(order) => {
                tracing::info!(order = %order.id, payment = %payment.id, "order paid");
                self.booking.publish(
                    order.presentation_id,
                    crate::seat_events::SeatChangeKind::Sold,
                    order.tickets.iter().map(|t| crate::ports::Place {
                        section_id: t.section_id,
                        x: t.x,
                        y: t.y,
                    }),
                );
                // The order is paid whatever happens to the mail; a failure is logged, not thrown.
                if let Err(e) = self.send_confirmation(order).await {
                    tracing::warn!(order = %order.id, error = %e, "confirmation mail not sent");
                }
            }
            Finalised::AlreadyPaid(_) | Finalised::NotAuthorized(_) => {}
        }
        Ok(outcome)
    }

    /// The buyer's commit (spec: POST /payment/commit): the reservation of the session's paid or
    /// just-authorized order, once. A second commit is refused with ORDER_ALREADY_PAID.
    pub async fn commit(
        &self,
        session: &str,
        presentation_id: i64,
        captcha_token: &str,
    ) -> AppResult<Order> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let now = self.clock.now_ms();
        let order = self
            .orders
            .latest_order(session, presentation_id)
            .await?
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::Conflict("lastCommit"),
                    "there is no order to commit",
                )
            })?;
        let order = match order.status {
            OrderStatus::Paid => order,
            OrderStatus::Pending => {
                let payment_id = order.payment_id.clone();
                let payment = match payment_id {
                    Some(id) => self.orders.payment(&id).await?,
                    None => None,
                };
                let Some(payment) = payment else {
                    return Err(AppError::rejected(
                        ErrorCode::PaymentFailed("paymentError"),
                        "the order has not been paid",
                    ));
                };
                match payment.status {
                    PaymentStatus::Authorized | PaymentStatus::Captured => {
                        match self.finalise(&payment).await? {
                            Finalised::Paid(o) | Finalised::AlreadyPaid(o) => o,
                            Finalised::HoldsLost => {
                                return Err(AppError::rejected_with(
                                    ErrorCode::Conflict("lastCommit"),
                                    "your seats were released before the payment completed; the payment was refunded",
                                    serde_json::json!({ "reason": "holdsLost", "refunded": true }),
                                ));
                            }
                            Finalised::CodeUsedUp => {
                                return Err(AppError::rejected_with(
                                    ErrorCode::Conflict("couponAlreadyUsed"),
                                    "a code (or a reference) of this order was used up before the payment completed; the payment was refunded",
                                    serde_json::json!({ "refunded": true }),
                                ));
                            }
                            Finalised::PaidByAnother(_) => {
                                return Err(AppError::rejected(
                                    ErrorCode::Conflict("ORDER_ALREADY_PAID"),
                                    "this order was already paid",
                                ));
                            }
                            Finalised::NotAuthorized(_) => {
                                return Err(AppError::rejected(
                                    ErrorCode::PaymentFailed("paymentError"),
                                    "the payment was not completed",
                                ));
                            }
                        }
                    }
                    s if s.is_open() => {
                        return Err(AppError::rejected(
                            ErrorCode::Conflict("paymentPending"),
                            "the payment is still in progress",
                        ));
                    }
                    PaymentStatus::Refunded
                        if payment.failure_code.as_deref() == Some("holdsLost") =>
                    {
                        return Err(AppError::rejected_with(
                            ErrorCode::Conflict("lastCommit"),
                            "your seats were released before the payment completed; the payment was refunded",
                            serde_json::json!({ "reason": "holdsLost", "refunded": true }),
                        ));
                    }
                    _ => {
                        let code = payment
                            .failure_code
                            .clone()
                            .unwrap_or_else(|| "paymentError".into());
                        return Err(AppError::rejected_with(
                            ErrorCode::PaymentFailed("paymentError"),
                            "the payment was declined",
                            serde_json::json!({ "reason": code }),
                        ));
                    }
                }
            }
            OrderStatus::Failed | OrderStatus::Cancelled => {
                return Err(AppError::rejected(
                    ErrorCode::Conflict("lastCommit"),
                    "this order cannot be committed",
                ));
            }
        };
        if !self.orders.mark_committed(&order.id, now).await? {
            return Err(AppError::rejected(
                ErrorCode::Conflict("ORDER_ALREADY_PAID"),
                "this order was already paid and committed; check your email for the tickets",
            ));
        }
        Ok(order)
    }

    pub async fn payment(&self, id: &str) -> AppResult<Payment> {
        self.orders
            .payment(id)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::Missing("notFound"), "no such payment"))
    }

    pub async fn reservation(&self, id: &str) -> AppResult<(Order, PresentationInfo)> {
        let order = self
            .orders
            .order(id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid)
            .ok_or_else(|| {
                AppError::rejected(ErrorCode::Missing("notFound"), "no such reservation")
            })?;
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        Ok((order, info))
    }

    pub async fn by_document_key(&self, key: &str) -> AppResult<Option<(Order, PresentationInfo)>> {
        let Some(order) = self
            .orders
            .order_by_document_key(key)
            .await?
            .filter(|o| o.status == OrderStatus::Paid)
        else {
            return Ok(None);
        };
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        Ok(Some((order, info)))
    }

    /// Finalises or refunds payments that were authorized but never finalised (the buyer closed
    /// the tab, the callback was lost). Returns how many it handled.
    pub async fn sweep_stranded_payments(&self) -> AppResult<usize> {
        let stranded = self
            .orders
            .stranded_payments(self.clock.now_ms() - STRANDED_AFTER_MS)
            .await?;
        // One payment that keeps failing must not hold up the others behind it.
        for p in &stranded {
            if let Err(e) = self.finalise(p).await {
                tracing::error!(payment = %p.id, error = %e, "a stranded payment could not be finalised or refunded; will retry");
            }
        }
        Ok(stranded.len())
    }

    pub fn seat_key(t: &OrderTicket) -> SeatKey {
        SeatKey {
            section_id: t.section_id,
            x: t.x,
            y: t.y,
        }
    }

    /// Per-ticket totals for display, line order.
    pub fn price_summary(order: &Order) -> BTreeMap<&'static str, i64> {
        BTreeMap::from([
            ("tickets", order.tickets_total),
            ("products", order.products_total),
            ("serviceCharge", order.service_charge_total),
            ("total", order.total),
        ])
    }
}

impl OrderService {
    fn lang(order: &Order) -> &'static str {
        if order.locale == "he" { "he" } else { "en" }
    }

    fn when(info: &PresentationInfo, lang: &str) -> String {
        let starts = info.view.presentation.starts_at_ms;
        format!(
            "{} {}",
            crate::tickets_out::local_date(starts, lang),
            crate::tickets_out::local_time(starts)
        )
    }

    /// The confirmation mail of a paid order, in its language, with the tickets PDF attached.
    async fn send_confirmation(&self, order: &Order) -> AppResult<()> {
        if order.customer.email.is_empty() {
            return Ok(());
        }
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        let config = self.catalogue.site_config().await?;
        let lang = Self::lang(order);
        let terms = if lang == "he" {
            &config.confirmation.order_terms
        } else {
            &config.confirmation.order_terms_en
        };
        let doc = crate::tickets_out::tickets_document(
            order,
            &info,
            lang,
            &self.messages.public_url,
            terms,
        );
        let pdf = kupa_documents::render_tickets_pdf(&doc).map_err(AppError::internal)?;
        let v = &info.view;
        let when = Self::when(&info, lang);
        let link = format!(
            "{}/api/reservations/{}/tickets.pdf",
            self.messages.public_url, order.id
        );
        let (subject, text) = if lang == "he" {
            (
                format!(
                    "הכרטיסים שלך ל{} – הזמנה {}",
                    v.feature.name, order.reservation_number
                ),
                format!(
                    "שלום {},\n\nההזמנה {} שולמה.\n{} · {} · {}\n{} כרטיסים. הכרטיסים מצורפים, וגם כאן: {}\n\n{}",
                    order.customer.first_name,
                    order.reservation_number,
                    v.feature.name,
                    v.location.name,
                    when,
                    order.tickets.len(),
                    link,
                    terms
                ),
            )
        } else {
            (
                format!(
                    "Your tickets for {} – reservation {}",
                    v.feature.name_en, order.reservation_number
                ),
                format!(
                    "Hello {},\n\nReservation {} is paid.\n{} · {} · {}\n{} tickets. They are attached, and also here: {}\n\n{}",
                    order.customer.first_name,
                    order.reservation_number,
                    v.feature.name_en,
                    v.location.name_en,
                    when,
                    order.tickets.len(),
                    link,
                    terms
                ),
            )
        };
        let dir = if lang == "he" { "rtl" } else { "ltr" };
        let html = format!(
            "<!doctype html><html lang=\"{lang}\" dir=\"{dir}\"><body style=\"font-family:sans-serif\"><p>{}</p><p><a href=\"{}\">{}</a></p></body></html>",
            html_escape(&text).replace('\n', "<br>"),
            html_escape(&link),
            if lang == "he" {
                "הכרטיסים"
            } else {
                "Your tickets"
            }
        );
        let mail = Mail {
            to: order.customer.email.clone(),
            subject,
            text,
            html,
            kind: message_kind::ORDER_CONFIRMATION.into(),
            reference: Some(order.id.clone()),
            attachments: vec![Attachment {
                name: format!("tickets-{}.pdf", order.reservation_number),
                content_type: "application/pdf".into(),
                bytes: pdf,
            }],
        };
        self.messages.mailer.send_mail(&mail).await
    }

    /// Sends the links to a paid reservation's tickets by text message (the buyer's own order only).
    pub async fn send_tickets(
        &self,
        session: &str,
        reservation_id: &str,
        mobile: &str,
    ) -> AppResult<()> {
        let to = kupa_domain::customer::MobileNumber::parse(mobile).ok_or_else(|| {
            AppError::rejected(
                ErrorCode::Invalid("invalid_mobileNumber"),
                "not an Israeli mobile number",
            )
        })?;
        let order = self
            .orders
            .order(reservation_id)
            .await?
            .filter(|o| o.status == OrderStatus::Paid && o.session_id == session)
            .ok_or_else(|| {
                AppError::rejected(
                    ErrorCode::Missing("notFound"),
                    "no such reservation of yours",
                )
            })?;
        let info = self
            .catalogue
            .presentation(order.presentation_id, &Default::default())
            .await?
            .info;
        let v = &info.view;
        let lang = Self::lang(&order);
        let when = Self::when(&info, lang);
        let links: Vec<String> = order
            .tickets
            .iter()
            .map(|t| {
                format!(
                    "{}{}",
                    self.messages.public_url,
                    crate::tickets_out::edocument_path(t)
                )
            })
            .collect();
        let text = if lang == "he" {
            format!(
                "קופה: הכרטיסים ל{} ({}), הזמנה {}:\n{}",
                v.feature.name,
                when,
                order.reservation_number,
                links.join("\n")
            )
        } else {
            format!(
                "Kupa: your tickets for {} ({}), reservation {}:\n{}",
                v.feature.name_en,
                when,
                order.reservation_number,
                links.join("\n")
            )
        };
        let sms = Sms {
            to,
            kind: message_kind::TICKETS.into(),
            reference: Some(order.id.clone()),
            text,
        };
        self.messages.sms.send_sms(&sms).await.map_err(|_| {
            AppError::rejected(
                ErrorCode::Conflict("SMS_FAILED"),
                "the text message could not be sent",
            )
        })
    }
}

impl OrderService {
    /// The vouchers of a cart, each paying the smaller of what is still due and its balance, in
    /// order. A voucher with nothing left to give answers the spec's "לא נותרה יתרה למימוש הטבה"
    /// (voucherBalance) and is not added.
    async fn voucher_lines(
        &self,
        references: &[String],
        total: i64,
    ) -> AppResult<Vec<OrderVoucher>> {
        let mut due = total;
        let mut lines: Vec<OrderVoucher> = Vec::new();
        for reference in references
            .iter()
            .map(|r| r.trim())
            .filter(|r| !r.is_empty())
        {
            let rules = self.tickets.code_rules(&[reference]).await?;
            let Some((_, rule)) = rules.into_iter().find(|(_, r)| r.balance.is_some()) else {
                return Err(AppError::rejected(
                    ErrorCode::Invalid("codeNotFound"),
                    "no voucher with a balance has this reference",
                ));
            };
            if lines.iter().any(|l| l.code == rule.code) {
                return Err(AppError::rejected(
                    ErrorCode::Conflict("couponAlreadyUsed"),
                    "this voucher is already paying for the order",
                ));
            }
            rule.check_redeemable(self.tickets.today())
                .map_err(AppError::from)?;
            let amount = pricing::voucher_payment(Money(due), Money(rule.balance.unwrap_or(0)))
                .ok_or_else(|| {
                    AppError::rejected(
                        ErrorCode::Conflict("voucherBalance"),
                        "לא נותרה יתרה למימוש הטבה",
                    )
                })?
                .minor();
            due -= amount;
            lines.push(OrderVoucher {
                code: rule.code,
                amount,
            });
        }
        Ok(lines)
    }
}

/// A voucher as a way to pay: its balance, and what it would pay of the buyer's priced cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VoucherPayment {
    pub reference: String,
    pub balance: i64,
    /// The smaller of the order's total and the balance; None without a priced cart.
    pub amount: Option<i64>,
}

impl OrderService {
    /// GET /payment/voucher: a voucher's balance, and (with a priced cart) the amount it would pay,
    /// the smaller of the total and the balance. No balance left answers the spec's
    /// "לא נותרה יתרה למימוש הטבה" (voucherBalance) and nothing is added.
    pub async fn voucher_payment(
        &self,
        session: &str,
        presentation_id: Option<i64>,
        reference: &str,
        captcha_token: &str,
    ) -> AppResult<VoucherPayment> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let rules = self.tickets.code_rules(&[reference]).await?;
        let Some((_, rule)) = rules.into_iter().find(|(_, r)| r.balance.is_some()) else {
            return Err(AppError::rejected(
                ErrorCode::Invalid("codeNotFound"),
                "no voucher with a balance has this reference",
            ));
        };
        rule.check_redeemable(self.tickets.today())
            .map_err(AppError::from)?;
        let balance = rule.balance.unwrap_or(0);
        let amount = match presentation_id {
            Some(pid) => match self.orders.pending_order(session, pid).await? {
                Some(order) => Some(
                    pricing::voucher_payment(Money(order.total), Money(balance))
                        .ok_or_else(|| {
                            AppError::rejected(
                                ErrorCode::Conflict("voucherBalance"),
                                "לא נותרה יתרה למימוש הטבה",
                            )
                        })?
                        .minor(),
                ),
                None => None,
            },
            None => None,
        };
        Ok(VoucherPayment {
            reference: rule.code,
            balance,
            amount,
        })
    }
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StartPayment {
    pub method: PaymentMethod,
    pub installments: i64,
    pub save_card: bool,
    pub total: Option<i64>,
    pub locale: String,
    pub return_url: String,
    pub captcha_token: String,
}
