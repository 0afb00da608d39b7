//! The vouchers a buyer owns: the customer area's list with each voucher's status, balance and
//! benefits; a voucher's history; turning one into a replacement voucher (spec sections 3, 4 and
//! 7: `GET /system-vouchers/{ref}/history`, `POST /system-vouchers/{ref}/replacement`). Only the
//! voucher's owner: the customer logged in whose it is, or the buyer session that bought it.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use kupa_domain::money::Money;
use std::sync::Arc;

use async_trait::async_trait;
use jiff::ToSpan;
use jiff::civil::Date;
use serde::{Deserialize, Serialize};

use crate::accounts::CustomerService;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::ports::Clock;

/// A voucher sold, with what is left of it (its code's balance or uses).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SoldVoucher {
    pub reference: String,
    pub code_key: String,
    pub order_id: ReservationId,
    pub reservation_number: String,
    /// The buyer session that paid for it.
    pub session_id: SessionId,
    pub customer_id: Option<i64>,
    pub class_id: i64,
    pub name: String,
    pub name_en: String,
    pub price: Money,
    /// What it was worth (a value voucher) and what is left of it.
    pub value: Option<Money>,
    pub balance: Option<Money>,
    /// Tickets a benefit voucher unlocks, and how many were taken.
    pub benefit_tickets: Option<i64>,
    pub used_count: i64,
    pub valid_from: String,
    pub valid_to: String,
    /// active, cancelled or replacement, as stored.
    pub stored_status: String,
    pub is_for_replacement: bool,
    /// Given as a cancellation's refund (decision 0034), not sold: `order_id` is the cancelled
    /// order, `price` is 0 and `value` the credit.
    pub is_credit: bool,
    pub created_at_ms: i64,
    /// When its row last changed (the replacement, the cancellation).
    pub updated_at_ms: i64,
}

/// One event in a voucher's life, for its history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub struct VoucherEvent {
    /// purchased, credited (a cancellation's refund given as this voucher), redeemed, cancelled
    /// or replacement.
    pub kind: String,
    /// When (UTC, RFC 3339).
    pub at: String,
    /// Agorot paid (purchased), taken off the balance (redeemed), or given back.
    #[cfg_attr(feature = "openapi", schema(value_type = Option<i64>))]
    pub amount: Option<Money>,
    /// Tickets of a benefit voucher taken (redeemed).
    pub tickets: Option<i64>,
    /// The order it happened in.
    pub reservation_number: Option<String>,
}

/// Where a voucher stands (spec section 3: active, partially redeemed, redeemed, expired,
/// cancelled, replacement).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "camelCase")]
pub enum VoucherStatus {
    Active,
    PartiallyRedeemed,
    Redeemed,
    Expired,
    Cancelled,
    Replacement,
}

impl SoldVoucher {
    /// Its status on `today` (a local day).
    pub fn status(&self, today: Date) -> VoucherStatus {
        if self.stored_status == "cancelled" {
            return VoucherStatus::Cancelled;
        }
        let used_up = match (self.balance, self.benefit_tickets) {
            (Some(b), _) => b <= Money::ZERO,
            (None, Some(n)) => self.used_count >= n,
            (None, None) => false,
        };
        if used_up {
            return VoucherStatus::Redeemed;
        }
        if self.valid_to.as_str() < today.to_string().as_str() {
            return VoucherStatus::Expired;
        }
        if self.is_for_replacement {
            return VoucherStatus::Replacement;
        }
        let touched = match (self.balance, self.value) {
            (Some(b), Some(v)) => b < v,
            _ => self.used_count > 0,
        };
        if touched {
            VoucherStatus::PartiallyRedeemed
        } else {
            VoucherStatus::Active
        }
    }
}

/// The vouchers sold, as the store keeps them.
#[async_trait]
pub trait VoucherStore: Send + Sync {
    /// A customer's vouchers, newest first.
    async fn customer_vouchers(&self, customer_id: i64) -> StoreResult<Vec<SoldVoucher>>;
    async fn sold_voucher(&self, reference: &str) -> StoreResult<Option<SoldVoucher>>;
    /// What the voucher paid or took in paid orders other than its own purchase, oldest first.
    async fn redemptions(&self, code_key: &str) -> StoreResult<Vec<VoucherEvent>>;
    /// Cancels an untouched voucher and writes its refund to the ledger, in one transaction: its
    /// code is emptied only if nothing of it was used, it turns `cancelled` only if it was active,
    /// and the payment never gets back more than it paid (a pending refund row keyed
    /// `{cancellation_id}:payment`). False, with nothing changed, when any of that fails.
    async fn cancel_voucher(&self, cancel: &VoucherCancel<'_>) -> StoreResult<bool>;
    /// Marks it for replacement, good until `valid_to`; false when it was already (or is no
    /// longer active), with nothing changed.
    async fn mark_for_replacement(
        &self,
        reference: &str,
        valid_to: &str,
        now_ms: i64,
    ) -> StoreResult<bool>;
}

/// A voucher's cancellation as the store writes it.
#[derive(Debug, Clone)]
pub struct VoucherCancel<'a> {
    pub voucher: &'a SoldVoucher,
    pub cancellation_id: &'a str,
    pub payment_id: &'a str,
    /// What the payment paid at the provider: the most it may ever get back.
    pub payment_amount: Money,
    pub now_ms: i64,
}

pub struct VoucherService {
    store: Arc<dyn VoucherStore>,
    customers: Arc<CustomerService>,
    clock: Arc<dyn Clock>,
    /// A replacement voucher is good for this many days from the day it is made.
    replacement_days: i64,
}

/// Who asks about a voucher: the buyer session and its login cookie.
#[derive(Debug, Clone, Copy)]
pub struct VoucherReader<'a> {
    pub session: &'a SessionId,
    pub login: Option<&'a str>,
}

impl VoucherService {
    pub fn new(
        store: Arc<dyn VoucherStore>,
        customers: Arc<CustomerService>,
        clock: Arc<dyn Clock>,
        replacement_days: i64,
    ) -> VoucherService {
        VoucherService {
            store,
            customers,
            clock,
            replacement_days: replacement_days.max(1),
        }
    }

    pub fn today(&self) -> Date {
        kupa_domain::time::local_date(kupa_domain::time::ms_to_timestamp(self.clock.now_ms()))
    }

    /// The logged-in customer's vouchers (the customer area's list); `loginError` without a login.
    pub async fn customer_vouchers(&self, login: Option<&str>) -> AppResult<Vec<SoldVoucher>> {
        let account = self
            .customers
            .customer_of_login(login)
            .await?
            .ok_or_else(|| AppError::rejected(ErrorCode::LoginError, "log in first"))?;
        Ok(self.store.customer_vouchers(account.customer.id).await?)
    }

    /// The voucher of `reservation` (the order that bought it), for its owner only.
    pub async fn owned_in(
        &self,
        reference: &str,
        reservation: &str,
        reader: VoucherReader<'_>,
    ) -> AppResult<SoldVoucher> {
        owned_voucher(
            self.store.as_ref(),
            &self.customers,
            reference,
            Some(reservation),
            reader,
        )
        .await
    }

    /// The voucher, for its owner only; anyone else is told there is no such voucher.
    async fn owned(&self, reference: &str, reader: VoucherReader<'_>) -> AppResult<SoldVoucher> {
        owned_voucher(
            self.store.as_ref(),
            &self.customers,
            reference,
            None,
            reader,
        )
        .await
    }

    /// GET /system-vouchers/{ref}/history: the purchase, each redemption, and what became of it.
    pub async fn history(
        &self,
        reference: &str,
        reader: VoucherReader<'_>,
    ) -> AppResult<(SoldVoucher, Vec<VoucherEvent>)> {
        let v = self.owned(reference, reader).await?;
        let mut events = vec![VoucherEvent {
            kind: if v.is_credit { "credited" } else { "purchased" }.into(),
            at: kupa_domain::time::ms_to_rfc3339(v.created_at_ms),
            amount: Some(if v.is_credit {
                v.value.unwrap_or(Money::ZERO)
            } else {
                v.price
            }),
            tickets: None,
            reservation_number: Some(v.reservation_number.clone()),
        }];
        events.extend(self.store.redemptions(&v.code_key).await?);
        if v.stored_status == "cancelled" {
            events.push(VoucherEvent {
                kind: "cancelled".into(),
                at: kupa_domain::time::ms_to_rfc3339(v.updated_at_ms),
                amount: Some(v.price),
                tickets: None,
                reservation_number: Some(v.reservation_number.clone()),
            });
        }
        if v.is_for_replacement {
            events.push(VoucherEvent {
                kind: "replacement".into(),
                at: kupa_domain::time::ms_to_rfc3339(v.updated_at_ms),
                amount: None,
                tickets: None,
                reservation_number: None,
            });
        }
        Ok((v, events))
    }

    /// POST /system-vouchers/{ref}/replacement: the voucher (named with the order that bought
    /// it) becomes a replacement voucher, good for the configured days from today, once.
    pub async fn replace(
        &self,
        reference: &str,
        reservation: &str,
        reader: VoucherReader<'_>,
    ) -> AppResult<SoldVoucher> {
        let v = self.owned_in(reference, reservation, reader).await?;
        let today = self.today();
        match v.status(today) {
            VoucherStatus::Replacement => {
                return Err(AppError::rejected(
                    ErrorCode::SystemVoucherAlreadyForReplacement,
                    "this voucher is already a replacement voucher",
                ));
            }
            VoucherStatus::Cancelled | VoucherStatus::Redeemed | VoucherStatus::Expired => {
                return Err(AppError::rejected(
                    ErrorCode::SystemVoucherNotActive,
                    "this voucher is not active",
                ));
            }
            VoucherStatus::Active | VoucherStatus::PartiallyRedeemed => {}
        }
        let valid_to = today
            .checked_add(self.replacement_days.days())
            .map_err(|e| AppError::internal(format!("replacement validity: {e}")))?
            .to_string();
        if !self
            .store
            .mark_for_replacement(&v.reference, &valid_to, self.clock.now_ms())
            .await?
        {
            return Err(AppError::rejected(
                ErrorCode::SystemVoucherAlreadyForReplacement,
                "this voucher is already a replacement voucher",
            ));
        }
        self.store
            .sold_voucher(&v.reference)
            .await?
            .ok_or_else(|| AppError::internal("a voucher vanished while it was replaced"))
    }
}

/// The voucher with this reference (of `reservation`, the order that bought it, when named), for
/// its owner only: the buyer session that bought it, or its customer logged in. Anyone else is
/// told there is no such voucher. Shared by the vouchers room and the orders room's cancellation.
pub async fn owned_voucher(
    store: &dyn VoucherStore,
    customers: &CustomerService,
    reference: &str,
    reservation: Option<&str>,
    reader: VoucherReader<'_>,
) -> AppResult<SoldVoucher> {
    let not_found = || {
        AppError::rejected(
            ErrorCode::SystemVoucherNotFound,
            match reservation {
                Some(_) => "no system voucher of yours has this reference in this reservation",
                None => "no system voucher of yours has this reference",
            },
        )
    };
    let reference = reference.trim().to_uppercase();
    let v = store
        .sold_voucher(&reference)
        .await?
        .ok_or_else(not_found)?;
    let owner = if &v.session_id == reader.session {
        true
    } else {
        let customer = customers.customer_of_login(reader.login).await?;
        matches!((v.customer_id, customer), (Some(owner), Some(a)) if a.customer.id == owner)
    };
    if !owner || reservation.is_some_and(|r| v.order_id != r) {
        return Err(not_found());
    }
    Ok(v)
}
