//! Paying the pending order: the payment started (and the holds' payment window), the gateway's
//! callback, and vouchers as a way to pay.

use kupa_domain::checkout::Step;
use kupa_domain::ids::{PresentationId, SessionId};
use kupa_domain::money::Money;
use kupa_domain::pricing::{self};

use crate::error::{AppError, AppResult, ErrorCode};

use super::*;

const MAX_INSTALLMENTS: i64 = 12;
/// How long the payment page of an order without seats (vouchers, donations) stays open.
const GIFT_PAYMENT_WINDOW_MS: i64 = 20 * 60 * 1000;

/// A donation's receipt names its donor, and a member is known by ID number (the member login
/// is by member number and ID number): an order of donations or memberships needs a valid Israeli
/// ID number (spec section 5: membership and donation orders require ssn).
fn check_donor(order: &Order) -> AppResult<()> {
    if (matches!(order.kind, OrderKind::Donations | OrderKind::Memberships)
        || order.enrollment.is_some())
        && kupa_domain::ids::IsraeliId::parse(&order.customer.ssn).is_none()
    {
        return Err(AppError::rejected_with(
            ErrorCode::FormValidation,
            "a donation, a membership or an enrolment needs the buyer's ID number",
            serde_json::json!({ "fields": { "ssn": "idNumber" } }),
        ));
    }
    Ok(())
}

impl OrderService {
    /// POST /cart/token: the captcha, before a cart is built.
    pub async fn cart_token(&self, captcha_token: &str) -> AppResult<()> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await
    }

    /// Starts paying the session's pending order: checks the total the client shows, gives the
    /// holds the payment window, and returns the payment (whose form URL the gateway knows).
    pub async fn start_payment(
        &self,
        session: &SessionId,
        login: Option<&str>,
        cart: CartKey,
        request: StartPayment,
    ) -> AppResult<(Payment, String, i64)> {
        crate::ports::require_captcha(self.captcha.as_ref(), &request.captcha_token).await?;
        let order = self
            .orders
            .pending_order(session, cart)
            .await?
            .ok_or_else(|| {
                invalid(
                    ErrorCode::NotFound,
                    "there is no priced cart to pay: send the cart first",
                )
            })?;
        if order.customer.email.is_empty() && order.customer.mobile_number.is_empty() {
            return Err(invalid(
                ErrorCode::FormValidation,
                "the customer details are missing: send them with the cart",
            ));
        }
        if request.total.is_some_and(|t| t != order.total) {
            return Err(AppError::rejected_with(
                ErrorCode::PriceMismatch,
                "the total is not what you were shown",
                serde_json::json!({ "total": order.total }),
            ));
        }
        self.check_tickets_fit(&order).await?;
        // A sales switch set since the cart (decision 0067): the sale stops here, before any money.
        let sale_channel = match order.channel {
            Channel::Web => Some(crate::sales_switches::SaleChannel::Web),
            Channel::MiniSite => Some(crate::sales_switches::SaleChannel::MiniSite),
            Channel::PartnerApi => None,
        };
        if let Some(ch) = sale_channel {
            for id in &order.presentations {
                self.catalogue.require_not_switched_off(*id, ch).await?;
            }
        }
        check_donor(&order)?;
        if let Some(e) = &order.enrollment
            && !self
                .orders
                .enrolled_members(e.season_id, &[e.member_id])
                .await?
                .is_empty()
        {
            return Err(AppError::rejected(
                ErrorCode::AlreadyEnrolled,
                "this member was enrolled in the season by another order meanwhile",
            ));
        }
        Self::check_installments(request.installments)?;
        // Every presentation of the order enters its payment window; the order's is the earliest.
        // An order without seats (vouchers, donations) holds nothing: its page waits as long.
        let mut deadline_ms = if order.presentations.is_empty() {
            self.clock.now_ms() + GIFT_PAYMENT_WINDOW_MS
        } else {
            i64::MAX
        };
        for id in &order.presentations {
            let checkout = self.booking.advance(session, *id, Step::Payment).await?;
            deadline_ms = deadline_ms.min(checkout.deadline_ms);
        }
        let customer_id = self
            .customers
            .customer_of_login(login)
            .await?
            .map(|a| a.customer.id);
        let (payment, url) = self
            .open_payment(
                &order,
                session,
                customer_id,
                request,
                "paid in full by vouchers",
            )
            .await?;
        Ok((payment, url, deadline_ms))
    }

    /// The number of payments a card may be split into, checked.
    pub(super) fn check_installments(installments: i64) -> AppResult<()> {
        if (1..=MAX_INSTALLMENTS).contains(&installments) {
            Ok(())
        } else {
            Err(invalid(
                ErrorCode::FormValidation,
                format!("number of payments must be 1 to {MAX_INSTALLMENTS}"),
            ))
        }
    }

    /// The methods a buyer may pay by (all but vouchers, which are not chosen but sent), each
    /// with where the gateway takes it; the methods no gateway takes are left out (GET /config).
    pub fn payment_methods(&self) -> Vec<(PaymentMethod, MethodOffer)> {
        [
            PaymentMethod::Card,
            PaymentMethod::SavedCard,
            PaymentMethod::Paypal,
            PaymentMethod::Blik,
            PaymentMethod::Payu,
        ]
        .into_iter()
        .map(|m| (m, self.gateway.offer(m)))
        .filter(|(_, offer)| *offer != MethodOffer::No)
        .collect()
    }

    /// A method the gateway does not take for the order's currency (a method no configured
    /// provider takes, or PayU's outside złoty) is refused here, before anything is recorded or
    /// any provider is called (issue 20): the one place for every way to pay.
    fn check_offered(&self, method: PaymentMethod, currency: &str) -> AppResult<()> {
        if self.gateway.offers(method, currency) {
            return Ok(());
        }
        Err(AppError::rejected_with(
            ErrorCode::PaymentError,
            format!(
                "the payment method {} is not offered for an order in {currency}: choose another",
                method.as_str()
            ),
            serde_json::json!({ "failureCode": payment_codes::FORM_VALIDATION }),
        ))
    }

    /// Opens one payment of `order` (a priced cart, or a hold): vouchers pay first, and the
    /// gateway is asked only for what is left; when vouchers cover it all it is finalised at
    /// once. Returns the payment and where the buyer goes: the gateway's form, or back.
    pub(super) async fn open_payment(
        &self,
        order: &Order,
        session: &SessionId,
        customer_id: Option<i64>,
        request: StartPayment,
        paid_by_vouchers_note: &str,
    ) -> AppResult<(Payment, String)> {
        let now = self.clock.now_ms();
        let due = order.amount_due();
        if due > Money::ZERO {
            self.check_offered(request.method, &order.currency)?;
        }
        let payment = Payment {
            id: token(),
            order_id: order.id.clone(),
            session_id: session.to_owned(),
            customer_id,
            method: if due == Money::ZERO {
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
            decline_reason: None,
            locale: request.locale,
            return_url: request.return_url,
            created_at_ms: now,
            updated_at_ms: now,
        };
        self.orders.create_payment(&payment).await?;
        if due == Money::ZERO {
            // Paid in full by vouchers: nothing for a gateway to take; finalise at once.
            let authorized = PaymentUpdate {
                status: PaymentStatus::Authorized,
                card_brand: None,
                card_last4: None,
                card_bin: None,
                failure_code: None,
                decline_reason: None,
                note: paid_by_vouchers_note.into(),
            };
            self.payment_callback(&payment.id, authorized).await?;
            let paid = self.payment(&payment.id).await?;
            let back = paid.return_url.clone();
            return Ok((paid, back));
        }
        if payment.method == PaymentMethod::SavedCard
            && let Some(card) = request.saved_card.as_deref()
        {
            match self.gateway.charge_saved_card(&payment, card).await? {
                SavedCardCharge::OnPage => {}
                SavedCardCharge::Answered(word) => {
                    self.payment_callback(&payment.id, word).await?;
                    let charged = self.payment(&payment.id).await?;
                    if matches!(
                        charged.status,
                        PaymentStatus::Declined | PaymentStatus::Failed
                    ) {
                        return Err(AppError::rejected_with(
                            ErrorCode::PaymentError,
                            "the saved card was not charged: try another card",
                            serde_json::json!({ "failureCode": charged.failure_code }),
                        ));
                    }
                    let back = with_payment_id(&charged.return_url, &charged.id);
                    return Ok((charged, back));
                }
                // No answer: the payment stays open, and the buyer's status read (or the
                // reconciliation) asks the provider; its idempotency key keeps it charged once.
                SavedCardCharge::NoAnswer => {
                    let back = with_payment_id(&payment.return_url, &payment.id);
                    return Ok((payment, back));
                }
            }
        }
        let url = self.gateway.open_page(&payment).await?;
        Ok((payment, url))
    }

    /// An open payment is settled by the provider's word when it can be asked, and one past its
    /// provider's window times out (expired, `errorNoResponse`) the first time anyone looks at
    /// it: the provider's word, recorded as any other.
    pub async fn expire_if_due(&self, payment: Payment) -> AppResult<Payment> {
        // A provider that can be asked settles an open payment first (its notification may be
        // late or lost): the word it gives is recorded as any other.
        if payment.status.is_open()
            && let Some(word) = self.gateway.ask_provider(&payment).await
        {
            self.record_word(&payment.id, word).await?;
            let payment = self.payment(&payment.id).await?;
            if !payment.status.is_open() {
                return Ok(payment);
            }
        }
        let Some(answer) = self.gateway.timed_out(&payment, self.clock.now_ms()) else {
            return Ok(payment);
        };
        self.record_word(&payment.id, answer).await?;
        tracing::info!(payment = %payment.id, "payment timed out at its provider");
        self.payment(&payment.id).await
    }

    /// The gateway's callback: records the provider's word and, when the money is authorized,
    /// finalises. Safe to call any number of times, in any order, late. The provider's own record
    /// comes first: a payment past its window has timed out there, so an authorization arriving
    /// after that is late, and is given back instead of captured.
    pub async fn payment_callback(
        &self,
        payment_id: &str,
        update: PaymentUpdate,
    ) -> AppResult<Finalised> {
        if let Some(payment) = self.orders.payment(payment_id).await? {
            self.expire_if_due(payment).await?;
        }
        self.record_word(payment_id, update).await
    }

    /// Records one word of the provider as [`payment_move`] allows, and acts on where the payment
    /// is afterwards: finalises an authorized one, refunds a late authorization.
    async fn record_word(&self, payment_id: &str, update: PaymentUpdate) -> AppResult<Finalised> {
        let now = self.clock.now_ms();
        let (payment, step) = self
            .orders
            .update_payment(payment_id, &update, now)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::NotFound, "no such payment"))?;
        if step == PaymentMove::VoidLate {
            // Only the word that made this move gets here (the store moved the payment once,
            // under its lock), so the money goes back exactly once.
            if let Err(e) = self
                .gateway
                .refund(&payment, &GatewayRefund::whole(&payment))
                .await
            {
                tracing::error!(payment = %payment.id, error = %e, "REFUND FAILED: a late authorization is marked refunded but the gateway did not confirm; refund it by hand");
                return Err(e);
            }
            tracing::warn!(payment = %payment.id, order = %payment.order_id, "an authorization arrived after the payment had ended: refunded, never captured");
            return Ok(Finalised::NotAuthorized(payment.status));
        }
        if payment.status.is_paid() {
            self.finalise(&payment).await
        } else {
            Ok(Finalised::NotAuthorized(payment.status))
        }
    }
}

/// The buyer's way back from a payment made without a page: its return path with the payment's id.
fn with_payment_id(return_url: &str, payment_id: &str) -> String {
    let (path, fragment) = match return_url.split_once('#') {
        Some((path, f)) => (path, format!("#{f}")),
        None => (return_url, String::new()),
    };
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}paymentId={payment_id}{fragment}")
}

impl OrderService {
    /// The vouchers of a cart, each paying the smaller of what is still due and its balance, in
    /// order. A voucher with nothing left to give answers the spec's "לא נותרה יתרה למימוש הטבה"
    /// (voucherBalance) and is not added.
    pub(super) async fn voucher_lines(
        &self,
        session: &SessionId,
        references: &[String],
        total: Money,
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
                    ErrorCode::CodeNotFound,
                    "no voucher with a balance has this reference",
                ));
            };
            if lines.iter().any(|l| l.code == rule.code) {
                return Err(AppError::rejected(
                    ErrorCode::CodeAlreadyEntered,
                    "this voucher is already paying for the order",
                ));
            }
            rule.check_redeemable(self.tickets.today())
                .map_err(AppError::from)?;
            let free = self.free_balance(&rule, session).await?;
            let amount = pricing::voucher_payment(due, free).ok_or_else(|| {
                AppError::rejected(ErrorCode::VoucherBalance, "לא נותרה יתרה למימוש הטבה")
            })?;
            due -= amount;
            lines.push(OrderVoucher {
                code: rule.code,
                amount,
            });
        }
        Ok(lines)
    }
}

impl OrderService {
    /// A voucher's balance less what live pending orders of other sessions hold of it.
    async fn free_balance(
        &self,
        rule: &kupa_domain::tickets::TicketCodeRule,
        session: &SessionId,
    ) -> AppResult<Money> {
        let held = self
            .orders
            .voucher_held_by_others(&rule.code, session, self.clock.now_ms())
            .await?;
        Ok((rule.balance.unwrap_or(Money::ZERO) - Money(held)).max(Money::ZERO))
    }

    /// GET /payment/voucher: a voucher's balance, and (with a priced cart) the amount it would pay,
    /// the smaller of the total and the balance. No balance left answers the spec's
    /// "לא נותרה יתרה למימוש הטבה" (voucherBalance) and nothing is added.
    pub async fn voucher_payment(
        &self,
        session: &SessionId,
        presentation_id: Option<PresentationId>,
        reference: &str,
        captcha_token: &str,
    ) -> AppResult<VoucherPayment> {
        crate::ports::require_captcha(self.captcha.as_ref(), captcha_token).await?;
        let rules = self.tickets.code_rules(&[reference]).await?;
        let Some((_, rule)) = rules.into_iter().find(|(_, r)| r.balance.is_some()) else {
            return Err(AppError::rejected(
                ErrorCode::CodeNotFound,
                "no voucher with a balance has this reference",
            ));
        };
        rule.check_redeemable(self.tickets.today())
            .map_err(AppError::from)?;
        // What other buyers' live orders hold of it is not there to spend (decision 0036).
        let balance = self.free_balance(&rule, session).await?;
        if balance == Money::ZERO {
            return Err(AppError::rejected(
                ErrorCode::VoucherBalance,
                "לא נותרה יתרה למימוש הטבה",
            ));
        }
        let amount = match presentation_id {
            Some(pid) => match self
                .orders
                .pending_order(session, CartKey::Presentation(pid))
                .await?
            {
                Some(order) => Some(pricing::voucher_payment(order.total, balance).ok_or_else(
                    || AppError::rejected(ErrorCode::VoucherBalance, "לא נותרה יתרה למימוש הטבה"),
                )?),
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
