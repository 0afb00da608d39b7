//! The hall before its seats' states arrive: every seat of a plan in one neutral colour and the
//! screen, in SeatMap.tsx's geometry (its CELL, SEAT, SCREEN_BAND and LABEL_BAND, and
//! seatModel.ts's `screenSpan`). The order page's first screen shows it as an image in the map's
//! box (decision 0076): the buyer sees the hall's shape at the first paint, and the page's largest
//! paint is a picture whose size no web font changes.

use std::fmt::Write;

use kupa_app::catalogue::SeatplanFull;

const CELL: f64 = 10.0;
const SEAT: f64 = 8.4;
const SCREEN_BAND: f64 = 22.0;
const LABEL_BAND: f64 = 12.0;
/// The picture's own size is this many times its drawing units: never smaller than the box the
/// page draws it in (a picture shown larger than its own size counts only its own size as a paint).
const SCALE: f64 = 4.0;

/// The box the map draws a `width` × `height` (in seats) hall in: SeatMap.tsx's `viewBox` size.
pub fn view_box(width: i64, height: i64) -> (f64, f64) {
    (
        width as f64 * CELL + 2.0 * LABEL_BAND,
        height as f64 * CELL + SCREEN_BAND,
    )
}

/// The plan drawn as an SVG document.
pub fn hall_svg(plan: &SeatplanFull) -> String {
    let p = &plan.seatplan;
    let (w, h) = view_box(p.width, p.height);
    let full = p.width as f64 * CELL;
    let (from, to) = match (p.screen_x, p.screen_width) {
        (Some(x), Some(width)) if width > 0 => (x as f64 * CELL, (x + width) as f64 * CELL),
        _ => (full * 0.15, full * 0.85),
    };
    let middle = (from + to) / 2.0;
    let mut svg = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"{} 0 {w} {h}\">\
         <path d=\"M {from} 12 Q {middle} 4 {to} 12\" fill=\"none\" stroke=\"#5a5f6b\" stroke-width=\"2\" stroke-linecap=\"round\"/>\
         <g transform=\"translate(0 {SCREEN_BAND})\" fill=\"#eceef2\" stroke=\"#c4c8d0\" stroke-width=\"0.8\">",
        w * SCALE,
        h * SCALE,
        -LABEL_BAND,
    );
    let inset = (CELL - SEAT) / 2.0;
    for seat in &plan.seats {
        let _ = write!(
            svg,
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{SEAT}\" height=\"{SEAT}\" rx=\"2\"/>",
            seat.x as f64 * CELL + inset,
            seat.y as f64 * CELL + inset
        );
    }
    svg.push_str("</g></svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use kupa_app::model::{Seat, Seatplan};

    fn plan(screen: Option<(i64, i64)>) -> SeatplanFull {
        SeatplanFull {
            venue_id: 1,
            seatplan: Seatplan {
                id: 1,
                venue_id: 1,
                width: 30,
                height: 12,
                screen_x: screen.map(|s| s.0),
                screen_width: screen.map(|s| s.1),
                ..Default::default()
            },
            sections: vec![],
            seats: vec![
                Seat {
                    x: 0,
                    y: 0,
                    ..Default::default()
                },
                Seat {
                    x: 29,
                    y: 11,
                    ..Default::default()
                },
            ],
        }
    }

    #[test]
    fn every_seat_is_drawn_where_the_map_draws_it() {
        let svg = hall_svg(&plan(None));
        assert!(svg.contains("viewBox=\"-12 0 324 142\""), "{svg}");
        assert!(svg.contains("width=\"1296\" height=\"568\""), "{svg}");
        assert_eq!(svg.matches("<rect ").count(), 2);
        assert!(svg.contains("<rect x=\"0.8\" y=\"0.8\""), "{svg}");
        assert!(svg.contains("<rect x=\"290.8\" y=\"110.8\""), "{svg}");
        // Across the middle 70 % without a screen of its own.
        assert!(svg.contains("M 45 12 Q 150 4 255 12"), "{svg}");
    }

    #[test]
    fn a_drawn_screen_stands_where_it_was_drawn() {
        let svg = hall_svg(&plan(Some((10, 10))));
        assert!(svg.contains("M 100 12 Q 150 4 200 12"), "{svg}");
    }
}
