//! Video on demand (issue 19 item 2, decision 0053): a purchase of a presentation of venue type
//! 101–104 is an ordinary ticket order; this room says when it may be watched, spends one of its
//! playbacks when a play session opens, and signs the play session's stream link.
//!
//! Who may watch: the session that bought it, or the customer logged in who owns it (never a
//! reservation's mailed link, never anyone else). A playback is spent once per play session, in
//! one conditional statement of the store, never per byte range the player asks for.

use kupa_domain::ids::ReservationId;
use kupa_domain::ids::SessionId;
use std::sync::Arc;

use async_trait::async_trait;
use kupa_domain::vod::{
    PLAY_SESSION_MS, VodOffer, VodStatus, playbacks_per_ticket, vod_offer, watch_window,
};

use crate::catalogue::PresentationInfo;
use crate::error::{AppError, AppResult, ErrorCode, StoreResult};
use crate::links::{LinkKey, LinkProof, VOD_PLAY_LINK};
use crate::orders::{Order, OrderService, OrderStatus, ReservationReader};
use crate::ports::Clock;

/// The playbacks a purchase has spent.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Playbacks {
    pub count: i64,
    pub last_at_ms: Option<i64>,
}

/// Where playbacks are counted (`vod_playbacks`, migration 0036).
#[async_trait]
pub trait VodStore: Send + Sync {
    /// The playbacks spent on an order (none yet: zero).
    async fn playbacks(&self, order_id: &ReservationId) -> StoreResult<Playbacks>;
    /// Spends one playback at `now_ms` when fewer than `allowance` are spent, in one transaction:
    /// of any number of concurrent calls, only as many as the balance allows succeed. None when
    /// nothing is left.
    async fn spend_playback(
        &self,
        order_id: &ReservationId,
        allowance: i64,
        now_ms: i64,
    ) -> StoreResult<Option<Playbacks>>;
}

/// A video-on-demand purchase as the spec's "Video on demand item" shows it.
#[derive(Debug, Clone)]
pub struct VodItem {
    pub order: Order,
    /// The order's (first) video-on-demand presentation.
    pub info: PresentationInfo,
    pub offer: VodOffer,
    /// When it may be watched: `[start, end)`; end None for no end.
    pub start_ms: i64,
    pub end_ms: Option<i64>,
    pub status: VodStatus,
    /// Play sessions opened.
    pub playback_count: i64,
    /// Play sessions left.
    pub playback_balance: i64,
    pub last_playback_ms: Option<i64>,
    pub purchased_at_ms: Option<i64>,
}

/// An opened play session: its number and the proof its stream link carries.
#[derive(Debug, Clone)]
pub struct PlaySession {
    pub item: VodItem,
    pub play: i64,
    pub proof: LinkProof,
}

/// Who asks: the request's buyer session and login.
#[derive(Debug, Clone, Copy)]
pub struct Watcher<'a> {
    pub session: &'a SessionId,
    pub login: Option<&'a str>,
}

pub struct VodService {
    orders: Arc<OrderService>,
    store: Arc<dyn VodStore>,
    link_key: LinkKey,
    clock: Arc<dyn Clock>,
}

fn not_found() -> AppError {
    AppError::rejected(ErrorCode::NotFound, "no such video-on-demand purchase")
}

/// What a stream link signs: the purchase and the play session's number.
fn subject(reservation_id: &ReservationId, play: i64) -> String {
    format!("{reservation_id}\n{play}")
}

impl VodService {
    pub fn new(
        orders: Arc<OrderService>,
        store: Arc<dyn VodStore>,
        link_key: LinkKey,
        clock: Arc<dyn Clock>,
    ) -> VodService {
        VodService {
            orders,
            store,
            link_key,
            clock,
        }
    }

    /// The item of a paid (or since cancelled) order with a video-on-demand presentation; None
    /// for any other order.
    pub async fn item_of(&self, order: Order) -> AppResult<Option<VodItem>> {
        let Some((info, offer)) = self
            .orders
            .presentations_of(&order)
            .await?
            .into_iter()
            .find_map(|i| vod_offer(i.view.venue.venue_type_id).map(|o| (i, o)))
        else {
            return Ok(None);
        };
        let p = &info.view.presentation;
        let paid_at = order.paid_at_ms.unwrap_or(order.created_at_ms);
        let (start_ms, end_ms) = watch_window(offer, p.starts_at_ms, p.available_until_ms, paid_at);
        let spent = self.store.playbacks(&order.id).await?;
        let balance = (self.allowance(&order, &info, offer) - spent.count).max(0);
        Ok(Some(VodItem {
            status: VodStatus::at(start_ms, end_ms, self.clock.now_ms()),
            start_ms,
            end_ms,
            offer,
            playback_count: spent.count,
            playback_balance: balance,
            last_playback_ms: spent.last_at_ms,
            purchased_at_ms: order.paid_at_ms,
            order,
            info,
        }))
    }

    /// Play sessions the purchase holds: so many per live ticket of its presentation; none once
    /// the order is cancelled.
    fn allowance(&self, order: &Order, info: &PresentationInfo, offer: VodOffer) -> i64 {
        if order.status != OrderStatus::Paid {
            return 0;
        }
        let tickets = order
            .tickets
            .iter()
            .filter(|t| {
                t.presentation_id == info.view.presentation.id
                    && !t.is_sub_ticket
                    && t.cancelled_at_ms.is_none()
            })
            .count() as i64;
        tickets * playbacks_per_ticket(offer)
    }

    /// The purchase, for its buyer only: the session that made it or its logged-in customer.
    /// Anyone else, and any order that is not a video-on-demand purchase, is told there is none.
    pub async fn purchase(
        &self,
        reservation_id: &ReservationId,
        who: Watcher<'_>,
    ) -> AppResult<VodItem> {
        let reader = ReservationReader {
            session: who.session,
            login: who.login,
            link: None,
        };
        let (order, _) = self.orders.reservation(reservation_id, reader).await?;
        self.item_of(order).await?.ok_or_else(not_found)
    }

    /// Opens a play session: inside the purchase's window, spends one playback (exactly once,
    /// whatever else runs at the same time) and signs the session's stream link, good for
    /// [`PLAY_SESSION_MS`] and never past the window's end.
    pub async fn open(
        &self,
        reservation_id: &ReservationId,
        who: Watcher<'_>,
    ) -> AppResult<PlaySession> {
        let item = self.purchase(reservation_id, who).await?;
        require_window(&item)?;
        let now = self.clock.now_ms();
        let allowance = self.allowance(&item.order, &item.info, item.offer);
        let Some(spent) = self
            .store
            .spend_playback(&item.order.id, allowance, now)
            .await?
        else {
            return Err(AppError::rejected(
                ErrorCode::TicketBalanceError,
                "no playback is left on this purchase",
            ));
        };
        tracing::info!(reservation = %item.order.id, play = spent.count, "vod play session opened");
        let until = item
            .end_ms
            .map_or(now + PLAY_SESSION_MS, |end| end.min(now + PLAY_SESSION_MS));
        let proof = self.link_key.sign_for(
            VOD_PLAY_LINK,
            &subject(&item.order.id, spent.count),
            until / 1000,
        );
        let item = VodItem {
            playback_count: spent.count,
            playback_balance: (allowance - spent.count).max(0),
            last_playback_ms: spent.last_at_ms,
            ..item
        };
        Ok(PlaySession {
            item,
            play: spent.count,
            proof,
        })
    }

    /// Whether a stream request may be answered: a stream link signed for this purchase's play
    /// session (`CUSTOMER_TOKEN_ERROR` otherwise) and not expired (`CUSTOMER_TOKEN_EXPIRED`), asked
    /// by the purchase's buyer, inside its window. Spends nothing.
    pub async fn stream_access(
        &self,
        reservation_id: &ReservationId,
        play: i64,
        proof: &LinkProof,
        who: Watcher<'_>,
    ) -> AppResult<()> {
        if !self
            .link_key
            .signed_for(VOD_PLAY_LINK, &subject(reservation_id, play), proof)
        {
            return Err(AppError::rejected(
                ErrorCode::CustomerTokenError,
                "this play link is not good: open the film again",
            ));
        }
        if self.clock.now_ms() >= proof.exp.saturating_mul(1000) {
            return Err(AppError::rejected_with(
                ErrorCode::CustomerTokenExpired,
                "this play link has expired: open the film again",
                serde_json::json!({
                    "expiredAt": kupa_domain::time::ms_to_rfc3339(proof.exp.saturating_mul(1000))
                }),
            ));
        }
        let item = self.purchase(reservation_id, who).await?;
        require_window(&item)?;
        if item.order.status != OrderStatus::Paid {
            return Err(not_found());
        }
        Ok(())
    }
}

/// Refuses a purchase outside its window: not yet (`ticket_sale_not_yet_started`) or no more
/// (`ticketing_ended`).
fn require_window(item: &VodItem) -> AppResult<()> {
    let at = |ms: i64| kupa_domain::time::ms_to_rfc3339(ms);
    match item.status {
        VodStatus::Available => Ok(()),
        VodStatus::Future => Err(AppError::rejected_with(
            ErrorCode::TicketSaleNotYetStarted,
            "this film cannot be watched yet",
            serde_json::json!({ "availableFrom": at(item.start_ms) }),
        )),
        VodStatus::Expired => Err(AppError::rejected_with(
            ErrorCode::TicketingEnded,
            "this film can no longer be watched",
            serde_json::json!({ "availableUntil": item.end_ms.map(at) }),
        )),
    }
}
