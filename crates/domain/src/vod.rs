//! Video on demand (spec section 3 "Video on demand item", decision 0053): what each venue type
//! 101–104 sells, when a purchase may be watched, and how many play sessions it holds.

use crate::catalogue::is_vod_venue_type;

/// What a video-on-demand presentation sells.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VodOffer {
    /// A rental: watchable for [`RENTAL_HOURS`] from the purchase (or from the start of the
    /// title's availability when bought before it), never past the title's end.
    Rent,
    /// A purchase: watchable for as long as the title is offered.
    Buy,
}

/// The offer of a venue type: 101 and 103 rent, 102 and 104 buy; anything else is no VOD.
/// 101 and 102 also empty the cart of other presentations ([`crate::catalogue::vod_clears_cart`]).
pub fn vod_offer(venue_type_id: i64) -> Option<VodOffer> {
    if !is_vod_venue_type(venue_type_id) {
        return None;
    }
    Some(if venue_type_id % 2 == 1 {
        VodOffer::Rent
    } else {
        VodOffer::Buy
    })
}

/// How long a rental may be watched once it starts.
pub const RENTAL_HOURS: i64 = 48;

/// Play sessions each ticket of a purchase holds: a rental a few (a second device, a reload
/// after a lost connection), a purchase enough for years of watching.
pub fn playbacks_per_ticket(offer: VodOffer) -> i64 {
    match offer {
        VodOffer::Rent => 3,
        VodOffer::Buy => 20,
    }
}

/// How long one play session's link lasts (the film and a pause or two), never past the end of
/// the purchase's window.
pub const PLAY_SESSION_MS: i64 = 6 * 3600 * 1000;

/// When a purchase may be watched: `[start, end)` in UTC milliseconds; `end` None for no end.
/// `title_start` and `title_end` are the presentation's availability, `paid_at` the purchase.
pub fn watch_window(
    offer: VodOffer,
    title_start: i64,
    title_end: Option<i64>,
    paid_at: i64,
) -> (i64, Option<i64>) {
    match offer {
        VodOffer::Buy => (title_start, title_end),
        VodOffer::Rent => {
            let rental_end = title_start.max(paid_at) + RENTAL_HOURS * 3600 * 1000;
            let end = title_end.map_or(rental_end, |t| t.min(rental_end));
            (title_start, Some(end))
        }
    }
}

/// Where a video-on-demand purchase stands (spec section 3 "Video on demand item").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VodStatus {
    Future,
    Available,
    Expired,
}

impl VodStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            VodStatus::Future => "future",
            VodStatus::Available => "available",
            VodStatus::Expired => "expired",
        }
    }

    /// Before its window starts, future; from then until its end (exclusive), available; after,
    /// expired. Without an end it stays available.
    pub fn at(start_ms: i64, end_ms: Option<i64>, now_ms: i64) -> VodStatus {
        if now_ms < start_ms {
            VodStatus::Future
        } else if end_ms.is_some_and(|end| now_ms >= end) {
            VodStatus::Expired
        } else {
            VodStatus::Available
        }
    }
}

/// One byte range of a file of `len` bytes, both ends included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteRange {
    pub first: u64,
    pub last: u64,
}

/// A `Range` header's value against a file of `len` bytes (RFC 9110 section 14): one range of
/// bytes (`bytes=a-b`, `bytes=a-`, `bytes=-n`). None when it cannot be served (another unit,
/// several ranges, a malformed or unsatisfiable one): the answer is then 416.
pub fn byte_range(header: &str, len: u64) -> Option<ByteRange> {
    let spec = header.trim().strip_prefix("bytes=")?.trim();
    if spec.contains(',') || len == 0 {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
    match (a.is_empty(), b.is_empty()) {
        // The last n bytes.
        (true, false) if digits(b) => {
            let n: u64 = b.parse().ok()?;
            (n > 0).then(|| ByteRange {
                first: len.saturating_sub(n),
                last: len - 1,
            })
        }
        (false, _) if digits(a) && (b.is_empty() || digits(b)) => {
            let first: u64 = a.parse().ok()?;
            let last: u64 = if b.is_empty() {
                len - 1
            } else {
                b.parse::<u64>().ok()?.min(len - 1)
            };
            (first < len && first <= last).then_some(ByteRange { first, last })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = 3600 * 1000;

    #[test]
    fn odd_venue_types_rent_and_even_ones_buy() {
        assert_eq!(vod_offer(101), Some(VodOffer::Rent));
        assert_eq!(vod_offer(102), Some(VodOffer::Buy));
        assert_eq!(vod_offer(103), Some(VodOffer::Rent));
        assert_eq!(vod_offer(104), Some(VodOffer::Buy));
        assert_eq!(vod_offer(1), None);
        assert_eq!(vod_offer(105), None);
    }

    #[test]
    fn a_rental_lasts_48_hours_from_purchase_within_the_title() {
        // Bought after the title opened: 48 hours from the purchase.
        assert_eq!(
            watch_window(VodOffer::Rent, 0, Some(1000 * H), 10 * H),
            (0, Some(58 * H))
        );
        // Bought before it opened: 48 hours from its start.
        assert_eq!(
            watch_window(VodOffer::Rent, 10 * H, None, 0),
            (10 * H, Some(58 * H))
        );
        // Never past the title's end.
        assert_eq!(
            watch_window(VodOffer::Rent, 0, Some(20 * H), 10 * H),
            (0, Some(20 * H))
        );
        assert_eq!(
            watch_window(VodOffer::Buy, 5, Some(9), 7),
            (5, Some(9)),
            "a purchase keeps the title's window"
        );
    }

    #[test]
    fn a_vod_item_is_future_then_available_then_expired() {
        assert_eq!(VodStatus::at(100, Some(200), 99), VodStatus::Future);
        assert_eq!(VodStatus::at(100, Some(200), 100), VodStatus::Available);
        assert_eq!(VodStatus::at(100, Some(200), 199), VodStatus::Available);
        assert_eq!(VodStatus::at(100, Some(200), 200), VodStatus::Expired);
        assert_eq!(VodStatus::at(100, None, 10_000), VodStatus::Available);
    }

    #[test]
    fn one_range_of_bytes_is_served_and_anything_else_is_refused() {
        let r = |first, last| Some(ByteRange { first, last });
        assert_eq!(byte_range("bytes=0-", 100), r(0, 99));
        assert_eq!(byte_range("bytes=10-19", 100), r(10, 19));
        assert_eq!(
            byte_range("bytes=90-500", 100),
            r(90, 99),
            "clipped to the end"
        );
        assert_eq!(byte_range("bytes=-10", 100), r(90, 99));
        assert_eq!(byte_range("bytes=-500", 100), r(0, 99));
        assert_eq!(byte_range("bytes=99-99", 100), r(99, 99));
        for bad in [
            "bytes=100-",
            "bytes=20-10",
            "bytes=-0",
            "bytes=0-1,5-9",
            "items=0-1",
            "bytes=a-b",
            "bytes=-",
            "bytes=+1-2",
            "",
        ] {
            assert_eq!(byte_range(bad, 100), None, "{bad}");
        }
        assert_eq!(byte_range("bytes=0-", 0), None);
    }
}
