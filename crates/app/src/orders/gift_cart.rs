//! Carts of system vouchers and of donations (spec section 2, the vouchers and donations flows;
//! issue 14): priced by the vouchers room's rules into the session's pending order of that kind,
//! then paid through the same payment and the one finalisation as tickets.

use kupa_domain::checkout::Step;
use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use kupa_domain::money::DEFAULT_CURRENCY;

use crate::customer_info::CustomerInfo;
use crate::error::{AppError, AppResult, ErrorCode};
use crate::vouchers::{self, DonationChoice, VoucherChoice};

use super::*;

/// A cart of vouchers or of donations, as the client sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GiftCartLines {
    Vouchers(Vec<VoucherChoice>),
    Donations(Vec<DonationChoice>),
    /// New members and top-ups (issue 15, decision 0037).
    Memberships(Vec<crate::memberships::MembershipChoice>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GiftCartInput {
    pub lines: GiftCartLines,
    pub customer: Option<CustomerInfo>,
    pub step: Option<Step>,
    pub locale: String,
    /// What the client believes the order costs; refused when it differs.
    pub total: Option<Money>,
    /// Chain-wide products added to a voucher order (product id, quantity; decision 0035).
    pub products: Vec<(i64, i64)>,
    /// The waiver a children's voucher needs (decision 0041).
    pub waiver: Option<vouchers::WaiverInput>,
}

impl OrderService {
    /// The system voucher classes on sale online today, in their order; box-office-only classes
    /// are listed too (the spec's "some sold at the box office only"), marked so.
    pub async fn voucher_classes(&self) -> AppResult<Vec<vouchers::SystemVoucherClass>> {
        let today = self.tickets.today();
        Ok(self
            .store
            .system_voucher_classes()
            .await?
            .into_iter()
            .filter(|c| c.box_office_only || vouchers::on_sale_online(c, today))
            .collect())
    }

    /// The products a voucher order offers: those sold at every cinema (decision 0035).
    pub async fn gift_products(&self) -> AppResult<Vec<crate::model::Product>> {
        Ok(self.store.chain_products().await?)
    }

    /// The donations offered, in their order.
    pub async fn donation_list(&self) -> AppResult<Vec<vouchers::Donation>> {
        Ok(self.store.donations().await?)
    }

    /// Prices a cart of vouchers or donations and keeps it as the session's pending order of that
    /// kind (replacing the session's earlier one of the kind). No seats are held, so no timer
    /// runs until the payment page opens.
    pub async fn price_gift_cart(
        &self,
        session: &SessionId,
        login: Option<&str>,
        cart: GiftCartInput,
    ) -> AppResult<PricedCart> {
        let now = self.clock.now_ms();
        let customer_id = self
            .customers
            .customer_of_login(login)
            .await?
            .map(|a| a.customer.id);
        // A voucher lives in its buyer's customer area (cancel, replace, history are its
        // owner's), so it is sold to a customer logged in; a member is a customer's, so a
        // membership too; a donation needs no account.
        if matches!(cart.lines, GiftCartLines::Vouchers(_)) && customer_id.is_none() {
            return Err(AppError::rejected(
                ErrorCode::LoginError,
                "log in to buy vouchers: they are kept in your customer area",
            ));
        }
        if matches!(cart.lines, GiftCartLines::Memberships(_)) && customer_id.is_none() {
            return Err(AppError::rejected(
                ErrorCode::LoginError,
                "log in to buy a membership: a member is a customer's",
            ));
        }
        let config = self.catalogue.site_config().await?;
        let today = self.tickets.today();
        let mut memberships = Vec::new();
        let mut seated = None;
        let mut waiver = None;
        if cart.waiver.is_some() && !matches!(cart.lines, GiftCartLines::Vouchers(_)) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                "only a voucher order has a waiver",
                serde_json::json!({ "fields": ["waiver"] }),
            ));
        }
        let (kind, system_vouchers, donations) = match &cart.lines {
            GiftCartLines::Vouchers(choices) => {
                let classes = self.store.system_voucher_classes().await?;
                let lines = vouchers::voucher_lines(&classes, choices, today)?;
                waiver = vouchers::waiver::check_waiver(
                    &classes,
                    &lines,
                    cart.waiver.clone(),
                    today,
                    now,
                )?;
                (OrderKind::Vouchers, lines, Vec::new())
            }
            GiftCartLines::Donations(_) | GiftCartLines::Memberships(_)
                if !cart.products.is_empty() =>
            {
                return Err(AppError::rejected_with(
                    ErrorCode::FormValidation,
                    "only a voucher order has products",
                    serde_json::json!({ "fields": ["products"] }),
                ));
            }
            GiftCartLines::Donations(choices) => {
                let offered = self.store.donations().await?;
                let lines = vouchers::donation_lines(&offered, choices)?;
                (OrderKind::Donations, Vec::new(), lines)
            }
            GiftCartLines::Memberships(choices) => {
                let catalogue = self.store.memberships().await?;
                let mine = match customer_id {
                    Some(id) => self.store.members_of_customer(id).await?,
                    None => Vec::new(),
                };
                memberships =
                    crate::memberships::membership_lines(&catalogue, choices, &mine, today)?;
                self.fresh_member_numbers(&mut memberships).await?;
                self.references_free(&memberships, today).await?;
                seated = self.seated_lines(session, &memberships, &catalogue).await?;
                (OrderKind::Memberships, Vec::new(), Vec::new())
            }
        };
        let currency = memberships
            .first()
            .map_or(DEFAULT_CURRENCY, |m| m.currency.as_str())
            .to_owned();
        let products = if cart.products.is_empty() {
            Vec::new()
        } else {
            gift_products(&self.store.chain_products().await?, &cart.products)?
        };
        let products_total: Money = products.iter().map(|p| p.unit_price * p.quantity).sum();
        let total: Money = system_vouchers.iter().map(|v| v.price).sum::<Money>()
            + donations.iter().map(|d| d.amount).sum::<Money>()
            + memberships.iter().map(|m| m.price).sum::<Money>()
            + products_total;
        if cart.total.is_some_and(|t| t != total) {
            return Err(AppError::rejected_with(
                ErrorCode::PriceMismatch,
                "the total is not what you were shown",
                serde_json::json!({ "total": total }),
            ));
        }
        let customer = super::cart::customer_details(cart.customer, &config)?;
        let (presentations, tickets, enrollment, expires_at_ms) = match seated {
            Some(s) => (
                s.presentations,
                s.tickets,
                Some(s.enrollment),
                s.expires_at_ms,
            ),
            None => (Vec::new(), Vec::new(), None, now + GIFT_CART_KEPT_MS),
        };
        let mut order = Order {
            id: token().into(),
            reservation_number: reservation_number(),
            session_id: session.to_owned(),
            presentations,
            status: OrderStatus::Pending,
            channel: Channel::Web,
            referral_mini_site_id: None,
            is_hold: false,
            customer_id,
            customer,
            locale: cart.locale.clone(),
            tickets_total: Money::ZERO,
            products_total,
            service_charge_total: Money::ZERO,
            service_charge_name: String::new(),
            total,
            currency,
            payment_id: None,
            created_at_ms: now,
            paid_at_ms: None,
            committed_at_ms: None,
            tickets,
            products,
            // Vouchers are not bought with vouchers.
            vouchers: Vec::new(),
            kind,
            system_vouchers,
            donations,
            memberships,
            points_member: None,
            points_earned: 0,
            enrollment,
            waiver,
        };
        self.save_pending(&mut order, now).await?;
        Ok(PricedCart {
            order,
            expires_at_ms,
            step: cart.step.unwrap_or(Step::CustomerInfo),
        })
    }

    /// The vouchers (or members) a paid order of this session (or of the customer logged in)
    /// issued, with the order: what the confirmation shows. None: no such paid order of theirs.
    pub async fn gift_order(
        &self,
        id: &ReservationId,
        reader: ReservationReader<'_>,
    ) -> AppResult<Order> {
        let no_such = || AppError::rejected(ErrorCode::NotFound, "no such order");
        let order = self
            .orders
            .order(id)
            .await?
            .filter(|o| o.kind != OrderKind::Tickets && o.status == OrderStatus::Paid)
            .ok_or_else(no_such)?;
        if &order.session_id == reader.session {
            return Ok(order);
        }
        let owner = self.customers.customer_of_login(reader.login).await?;
        match (order.customer_id, owner) {
            (Some(id), Some(a)) if a.customer.id == id => Ok(order),
            _ => Err(no_such()),
        }
    }

    /// The members a paid membership order made or topped up, as they are now (empty for other
    /// orders): the commit's and the confirmation's `members`.
    pub async fn members_of_order(
        &self,
        order: &Order,
    ) -> AppResult<Vec<crate::memberships::OrderMember>> {
        let Some(customer_id) = order.customer_id.filter(|_| !order.memberships.is_empty()) else {
            return Ok(Vec::new());
        };
        let mine = self.store.members_of_customer(customer_id).await?;
        Ok(crate::memberships::order_members(&order.memberships, &mine))
    }

    /// Draws again a new member's number that a member already has (one the catalogue file
    /// loaded) or another line of the order drew: the lines' own UNIQUE key keeps carts apart, and
    /// this keeps the finalisation's insert of the member from ever meeting a taken number.
    async fn fresh_member_numbers(
        &self,
        lines: &mut [crate::memberships::OrderMembership],
    ) -> AppResult<()> {
        let mut drawn: Vec<String> = Vec::new();
        for line in lines.iter_mut() {
            let Some(mut number) = line.member_number.clone() else {
                continue;
            };
            while drawn.contains(&number)
                || !self
                    .tickets
                    .member_infos(&[number.as_str()])
                    .await?
                    .is_empty()
            {
                number = crate::memberships::new_member_number();
            }
            drawn.push(number.clone());
            line.member_number = Some(number);
        }
        Ok(())
    }

    /// A new member's identifying reference (reference1: a student card number) is one member's:
    /// `codeAlreadyEntered` when a member still valid holds it.
    async fn references_free(
        &self,
        lines: &[crate::memberships::OrderMembership],
        today: jiff::civil::Date,
    ) -> AppResult<()> {
        for line in lines.iter().filter(|l| l.member_number.is_some()) {
            let Some(reference) = line.reference1.as_deref() else {
                continue;
            };
            if self
                .orders
                .membership_reference_taken(line.membership_id, reference, &today.to_string())
                .await?
            {
                return Err(AppError::rejected_with(
                    ErrorCode::CodeAlreadyEntered,
                    "a member still valid already holds this reference (one card, one member)",
                    serde_json::json!({ "fields": ["reference1"] }),
                ));
            }
        }
        Ok(())
    }

    /// The memberships on sale, by their sort (GET /memberships).
    pub async fn memberships_on_sale(&self) -> AppResult<Vec<crate::model::Membership>> {
        Ok(self
            .store
            .memberships()
            .await?
            .into_iter()
            .filter(|m| m.on_sale)
            .collect())
    }
}

/// How long a priced voucher or donation cart waits for its payment to start.
const GIFT_CART_KEPT_MS: i64 = 30 * 60 * 1000;

/// The products of a voucher order: each sold at every cinema (a voucher belongs to no complex,
/// so its snacks are collected at any cinema's bar), once, 1 to 20, at the catalogue's price.
fn gift_products(
    menu: &[crate::model::Product],
    wanted: &[(i64, i64)],
) -> AppResult<Vec<OrderProduct>> {
    let mut seen = std::collections::HashSet::new();
    let mut lines = Vec::new();
    for (id, quantity) in wanted.iter().filter(|(_, q)| *q != 0) {
        if !(1..=MAX_GIFT_PRODUCT_QUANTITY).contains(quantity) || !seen.insert(*id) {
            return Err(AppError::rejected_with(
                ErrorCode::FormValidation,
                format!("product {id}: quantity must be 1 to {MAX_GIFT_PRODUCT_QUANTITY}, once"),
                serde_json::json!({ "fields": ["products"], "max": MAX_GIFT_PRODUCT_QUANTITY }),
            ));
        }
        // Only a chain-wide product: one of a single complex could not be collected anywhere.
        let product = menu
            .iter()
            .find(|p| p.id == *id && p.location_ids.is_empty())
            .ok_or_else(|| {
                AppError::rejected_with(
                    ErrorCode::FormValidation,
                    format!("product {id} is not sold with vouchers"),
                    serde_json::json!({ "fields": ["products"] }),
                )
            })?;
        lines.push(OrderProduct {
            product_id: product.id,
            name: product.name.clone(),
            name_en: product.name_en.clone(),
            quantity: *quantity,
            unit_price: product.price,
        });
    }
    Ok(lines)
}

/// At most this many of one product in a voucher order (as in a ticket order).
const MAX_GIFT_PRODUCT_QUANTITY: i64 = 20;
