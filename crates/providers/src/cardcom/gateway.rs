//! CardCom as a `PaymentGateway`: its offer, pages, saved-card charges, status questions, refunds.

use async_trait::async_trait;
use kupa_app::AppError;
use kupa_app::ErrorCode;
use kupa_app::error::AppResult;
use kupa_app::orders::SavedCardCharge;
use kupa_app::orders::{
    GatewayRefund, Payment, PaymentGateway, PaymentMethod, PaymentStatus, PaymentUpdate,
    payment_codes,
};
use kupa_app::ports::{DealRef, MethodOffer, RefundClaim};
use serde_json::json;

use super::{
    CallError, CardCom, PROVIDER, TOKEN_CHARGE_LOST_MS, TranzactionInfo, expiration_mmyy, judge,
};

#[async_trait]
impl PaymentGateway for CardCom {
    /// CardCom's page takes cards (and its tokens, the saved cards), in any currency the
    /// catalogue sells in; PayPal, Blik and PayU are other providers'.
    fn offer(&self, method: PaymentMethod) -> MethodOffer {
        match method {
            PaymentMethod::Card | PaymentMethod::SavedCard => MethodOffer::AnyCurrency,
            _ => MethodOffer::No,
        }
    }

    /// CardCom's pages are opened by a call ([`PaymentGateway::open_page`]); this address is
    /// never handed out.
    fn form_url(&self, _payment: &Payment) -> String {
        String::new()
    }

    /// GetLpResult for the payment's page: a finished deal's word (the notification may not have
    /// come); nothing while the buyer is still on the page, or when CardCom cannot be asked.
    /// A payment charged by token asks `GetTransactionByExternalUniqTran` instead: CardCom's
    /// deal when the charge reached it; when CardCom still knows none [`TOKEN_CHARGE_LOST_MS`]
    /// after it was sent, the charge never arrived and the payment fails (`errorNoResponse`).
    async fn ask_provider(&self, payment: &Payment) -> Option<PaymentUpdate> {
        let Some(page) = self.deals.kept(DealRef::Page, &payment.id).await.ok()? else {
            self.deals
                .kept(DealRef::CardCharge, &payment.id)
                .await
                .ok()??;
            let info = self.charge_result(&payment.id).await.ok()?;
            if info.response_code != 0 && info.tranzaction_id.is_none() {
                let lost = self.clock.now_ms() - payment.created_at_ms > TOKEN_CHARGE_LOST_MS;
                return lost.then(|| PaymentUpdate {
                    status: PaymentStatus::Failed,
                    card_brand: None,
                    card_last4: None,
                    card_bin: None,
                    failure_code: Some(payment_codes::ERROR_NO_RESPONSE.to_owned()),
                    decline_reason: None,
                    note: "cardcom: the token charge never reached CardCom".into(),
                });
            }
            return self.charge_word(payment, &info).await;
        };
        let result = self.lp_result(&page).await.ok()?;
        let update = judge(payment, self.config.terminal, &result).ok()?;
        if update.status == PaymentStatus::Authorized {
            self.confirmed(payment, &result).await.ok()?;
        }
        Some(update)
    }

    /// A saved card CardCom holds a token for, charged by `Transactions/Transaction`: refused
    /// (`notFound`) when it is not the payment's customer's live card, and (`paymentError`,
    /// failureCode `formValidation`) when CardCom holds no token for it (a card saved under
    /// another gateway) or it has expired: the buyer pays with a card instead.
    async fn charge_saved_card(
        &self,
        payment: &Payment,
        card_token: &str,
    ) -> AppResult<SavedCardCharge> {
        let Some(customer) = payment.customer_id else {
            return Err(AppError::rejected(
                kupa_app::accounts::NOT_LOGGED_IN,
                "a saved card needs a logged-in customer",
            ));
        };
        let Some(cards) = self.saved_cards.get() else {
            return Err(AppError::internal("CardCom has no saved cards attached"));
        };
        if cards.card_of(customer, card_token).await?.is_none() {
            return Err(AppError::rejected(
                kupa_app::saved_cards::SAVED_CARD_NOT_FOUND,
                "no such saved card",
            ));
        }
        let cannot = |why: &str| {
            AppError::rejected_with(
                ErrorCode::PaymentError,
                format!("this saved card cannot be charged here ({why}): pay with a card"),
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            )
        };
        let Some(card) = self
            .deals
            .provider_card(card_token, customer, PROVIDER)
            .await?
        else {
            return Err(cannot("it was not saved with CardCom"));
        };
        let today =
            kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()));
        let expiry = card.expiry_year * 12 + i32::try_from(card.expiry_month).unwrap_or(0);
        if expiry < i32::from(today.year()) * 12 + i32::from(today.month()) {
            return Err(cannot("it has expired"));
        }
        self.deals
            .keep(
                DealRef::CardCharge,
                &payment.id,
                PROVIDER,
                card_token,
                self.clock.now_ms(),
            )
            .await?;
        let body = self.charge_body(
            payment,
            &card.provider_token,
            &expiration_mmyy(card.expiry_year, card.expiry_month),
        );
        let info: TranzactionInfo = match self
            .call("/api/v11/Transactions/Transaction", &body)
            .await
        {
            Ok(info) => info,
            Err(CallError::NoResponse(why)) => {
                tracing::warn!(payment = %payment.id, %why, "CardCom did not answer a token charge: it is asked again by the payment's id");
                return Ok(SavedCardCharge::NoAnswer);
            }
            Err(CallError::Refused(code, _)) => {
                // An HTTP error or an answer that is not CardCom's: whether it charged is not
                // known, so the payment stays open and CardCom is asked by the payment's id.
                tracing::warn!(payment = %payment.id, code, "CardCom's answer to a token charge was not readable: it is asked again by the payment's id");
                return Ok(SavedCardCharge::NoAnswer);
            }
        };
        Ok(match self.charge_word(payment, &info).await {
            Some(word) => SavedCardCharge::Answered(word),
            None => SavedCardCharge::NoAnswer,
        })
    }

    async fn open_page(&self, payment: &Payment) -> AppResult<String> {
        // CardCom's page takes cards; PayPal, Blik and PayU are other providers' (issue 20 item
        // 2), so they are refused here rather than sent to a card page.
        if !matches!(
            payment.method,
            PaymentMethod::Card | PaymentMethod::SavedCard
        ) {
            return Err(AppError::rejected_with(
                ErrorCode::PaymentError,
                "this payment method is not offered with CardCom",
                json!({ "failureCode": payment_codes::FORM_VALIDATION }),
            ));
        }
        let (url, page) = self.create_page(payment).await.map_err(|e| {
            let (code, why) = match &e {
                CallError::NoResponse(why) => (payment_codes::ERROR_NO_RESPONSE, why.clone()),
                CallError::Refused(c, _) => {
                    (payment_codes::ERROR_RESPONSE, format!("response code {c}"))
                }
            };
            tracing::warn!(payment = %payment.id, %why, "CardCom did not open a payment page");
            AppError::rejected_with(
                ErrorCode::PaymentError,
                "the payment page could not be opened: please try again",
                json!({ "failureCode": code }),
            )
        })?;
        self.deals
            .keep(
                DealRef::Page,
                &payment.id,
                "cardcom",
                &page,
                self.clock.now_ms(),
            )
            .await?;
        Ok(url)
    }

    /// RefundByTransactionId for the payment's deal (kept when CardCom confirmed it): the whole
    /// deal, or `PartialSum` for part of it. A key already made answers at once, so a refund asked
    /// twice gives the money once.
    ///
    /// The key is claimed in the database before CardCom is called (decision 0066), so two
    /// refunds of one key, on any nodes, reach CardCom once: the second answers an error while
    /// the first is in flight and Ok once it is made. A refusal gives the claim up (no money
    /// moved). No answer (a timeout, a crash mid-call) keeps the claim for good:
    /// `RefundByTransactionId` has no idempotency field, so calling again could refund twice;
    /// the refund waits for a person, who checks the deal in CardCom's back office
    /// (docs/operations.md).
    async fn refund(&self, payment: &Payment, refund: &GatewayRefund) -> AppResult<()> {
        let now = self.clock.now_ms();
        match self
            .deals
            .claim_refund_key(
                &payment.id,
                &refund.key,
                refund.amount,
                now,
                // Never taken over: an unanswered refund may have been made.
                i64::MIN,
            )
            .await?
        {
            RefundClaim::Done => return Ok(()),
            RefundClaim::Busy => {
                return Err(AppError::rejected(
                    ErrorCode::PaymentError,
                    "this refund is being made: try again shortly",
                ));
            }
            RefundClaim::Claimed => {}
        }
        let Some(deal) = self
            .deals
            .kept(DealRef::Deal, &payment.id)
            .await?
            .and_then(|d| d.parse::<i64>().ok())
        else {
            self.deals
                .release_refund_key(&payment.id, &refund.key)
                .await?;
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "no CardCom deal is known for this payment",
            ));
        };
        let whole = refund.amount >= payment.amount;
        if let Err(e) = self.refund_deal(deal, refund.amount.minor(), whole).await {
            if matches!(e, CallError::Refused(code, _) if code != -1) {
                tracing::warn!(payment = %payment.id, error = ?e, "CardCom refused a refund");
                self.deals
                    .release_refund_key(&payment.id, &refund.key)
                    .await?;
            } else {
                tracing::error!(payment = %payment.id, key = %refund.key, error = ?e, "CardCom did not confirm a refund and it may have been made: it is not retried; check the deal in CardCom's back office and settle the refund by hand");
            }
            return Err(AppError::rejected(
                ErrorCode::PaymentError,
                "CardCom did not confirm the refund",
            ));
        }
        self.deals
            .record_refund(&payment.id, &refund.key, refund.amount, self.clock.now_ms())
            .await?;
        tracing::info!(payment = %payment.id, amount = refund.amount.minor(), whole, "CardCom refund made");
        Ok(())
    }
}
