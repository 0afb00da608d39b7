//! Colours a catalogue gives (a mini-site's own colours): `#rrggbb`, and the WCAG 2 contrast
//! between two of them, so a tenant's colours cannot make its page unreadable.

/// A colour written `#rrggbb` (either case), as red, green and blue.
pub fn parse_hex(s: &str) -> Option<[u8; 3]> {
    let hex = s.strip_prefix('#')?;
    if hex.len() != 6 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// WCAG 2 relative luminance, 0 (black) to 1 (white).
fn luminance([r, g, b]: [u8; 3]) -> f64 {
    let channel = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.039_28 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
}

/// WCAG 2 contrast ratio of two colours, 1 to 21.
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (hi, lo) = if la > lb { (la, lb) } else { (lb, la) };
    (hi + 0.05) / (lo + 0.05)
}

/// The contrast WCAG AA asks of ordinary text.
pub const TEXT_CONTRAST: f64 = 4.5;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_only_six_digit_hex() {
        assert_eq!(parse_hex("#7A1f3d"), Some([0x7a, 0x1f, 0x3d]));
        for bad in ["7a1f3d", "#7a1f3", "#7a1f3dd", "#7a1g3d", "", "#", "#ééé"] {
            assert_eq!(parse_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn contrast_runs_from_one_to_twenty_one() {
        let white = [255, 255, 255];
        assert!((contrast([0, 0, 0], white) - 21.0).abs() < 1e-9);
        assert!((contrast(white, white) - 1.0).abs() < 1e-9);
        // #767676 on white is the classic just-passing grey (4.54).
        let grey = contrast([0x76, 0x76, 0x76], white);
        assert!(grey > TEXT_CONTRAST && grey < 4.6, "{grey}");
        assert!(contrast([0x77, 0x77, 0x77], white) < TEXT_CONTRAST);
    }
}
