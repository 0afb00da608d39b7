//! Sales switches (issue 18 item 5, decision 0067): a manager's per complex and channel stops on
//! the online sale — the complex taken offline ("book at the box office"), advance sales not
//! allowed (only today's screenings, Asia/Jerusalem), the channel closed. The catalogue reads
//! them through its cache (every write raises `catalogue_version`), and a presentation's
//! [`crate::catalogue::PresentationInfo::require_on_sale`] refuses with the spec's codes: one
//! check where a sale starts (a seat lock, the cart, a hold) and again at payment.

use kupa_domain::time;

use crate::error::{AppError, ErrorCode};

/// The storefront channels a switch applies to (an order's `channel`, less the partner API).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SaleChannel {
    Web,
    MiniSite,
}

impl SaleChannel {
    pub const ALL: [SaleChannel; 2] = [SaleChannel::Web, SaleChannel::MiniSite];

    pub fn as_str(self) -> &'static str {
        match self {
            SaleChannel::Web => "web",
            SaleChannel::MiniSite => "miniSite",
        }
    }

    pub fn parse(s: &str) -> Option<SaleChannel> {
        SaleChannel::ALL.into_iter().find(|c| c.as_str() == s)
    }
}

/// One complex's switches for one channel. No row in the store: [`SalesSwitch::on_sale`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SalesSwitch {
    pub location_id: i64,
    pub channel: SaleChannel,
    /// Taken offline: nothing sells here through the channel ("book at the box office").
    pub offline: bool,
    /// False: only screenings of today (local) sell through the channel.
    pub advance_sales: bool,
    /// False: no tickets open in this channel.
    pub open: bool,
}

impl SalesSwitch {
    pub fn on_sale(location_id: i64, channel: SaleChannel) -> SalesSwitch {
        SalesSwitch {
            location_id,
            channel,
            offline: false,
            advance_sales: true,
            open: true,
        }
    }

    pub fn is_on_sale(&self) -> bool {
        !self.offline && self.advance_sales && self.open
    }

    /// Why a screening starting at `starts_at_ms` does not sell now, if it does not.
    pub fn refusal(&self, starts_at_ms: i64, now_ms: i64) -> Option<SalesBlock> {
        if self.offline {
            Some(SalesBlock::Offline)
        } else if !self.open {
            Some(SalesBlock::Closed)
        } else if !self.advance_sales
            && time::local_date(time::ms_to_timestamp(starts_at_ms))
                != time::local_date(time::ms_to_timestamp(now_ms))
        {
            Some(SalesBlock::NoAdvanceSales)
        } else {
            None
        }
    }

    /// The switch as the audit keeps it (no personal data).
    pub fn doc(&self) -> serde_json::Value {
        serde_json::json!({
            "locationId": self.location_id,
            "channel": self.channel.as_str(),
            "offline": self.offline,
            "advanceSales": self.advance_sales,
            "open": self.open,
        })
    }
}

/// Why a presentation does not sell through a channel although its sale window is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SalesBlock {
    Offline,
    NoAdvanceSales,
    Closed,
}

impl SalesBlock {
    pub fn code(self) -> ErrorCode {
        match self {
            SalesBlock::Offline => ErrorCode::LocationOffline,
            SalesBlock::NoAdvanceSales => ErrorCode::AdvancedSalesNotAllowedByOutlet,
            SalesBlock::Closed => ErrorCode::NoTicketsInChannel,
        }
    }

    pub fn error(self) -> AppError {
        let message = match self {
            SalesBlock::Offline => "this complex is not selling online now: book at the box office",
            SalesBlock::NoAdvanceSales => "only today's screenings are sold through this channel",
            SalesBlock::Closed => "no tickets open in this channel",
        };
        AppError::rejected(self.code(), message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HOUR: i64 = 3_600_000;

    #[test]
    fn each_switch_refuses_with_its_reason() {
        let on = SalesSwitch::on_sale(1, SaleChannel::Web);
        // 2026-11-27 10:00 UTC = 12:00 in Jerusalem.
        let now = 1_795_773_600_000;
        assert_eq!(on.refusal(now + 30 * 24 * HOUR, now), None);
        let offline = SalesSwitch {
            offline: true,
            ..on
        };
        assert_eq!(offline.refusal(now, now), Some(SalesBlock::Offline));
        let closed = SalesSwitch { open: false, ..on };
        assert_eq!(closed.refusal(now, now), Some(SalesBlock::Closed));
        let today_only = SalesSwitch {
            advance_sales: false,
            ..on
        };
        assert_eq!(today_only.refusal(now + 8 * HOUR, now), None, "20:00 today");
        assert_eq!(
            today_only.refusal(now + 13 * HOUR, now),
            Some(SalesBlock::NoAdvanceSales),
            "01:00 tomorrow, local"
        );
        assert_eq!(
            SalesBlock::NoAdvanceSales.code().as_str(),
            "advanced_sales_not_allowed_by_outlet"
        );
    }
}
