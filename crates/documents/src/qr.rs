//! QR codes of ticket e-documents: SVG for the web page, modules for the PDF.

use qrcode::render::svg;
use qrcode::{Color, QrCode};

use crate::DocumentError;

/// Size of one module in the SVG's user units (its `width`/`height`; the `viewBox` lets CSS
/// scale it to any size).
const SVG_MODULE: u32 = 8;

/// The QR code (error correction level M, with its quiet zone) of `text` as an SVG document:
/// black modules on white, one `<path>`, no XML declaration, so it can be served as
/// `image/svg+xml` or inlined into HTML. The same text always gives the same SVG.
///
/// A text too long for a QR code (over about 2,300 bytes) gives an empty white square; use
/// [`try_qr_svg`] to get an error instead.
pub fn qr_svg(text: &str) -> String {
    try_qr_svg(text).unwrap_or_else(|_| {
        let side = 21 * SVG_MODULE;
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{side}" height="{side}" viewBox="0 0 {side} {side}"><rect x="0" y="0" width="{side}" height="{side}" fill="#fff"/></svg>"##
        )
    })
}

/// Like [`qr_svg`], with an error for a text too long for a QR code
/// ([`DocumentError::QrPayloadTooLong`], `ticket` 0).
pub fn try_qr_svg(text: &str) -> Result<String, DocumentError> {
    let code = QrCode::new(text.as_bytes()).map_err(|_| DocumentError::QrPayloadTooLong {
        ticket: 0,
        len: text.len(),
    })?;
    let svg = code
        .render::<svg::Color>()
        .module_dimensions(SVG_MODULE, SVG_MODULE)
        .dark_color(svg::Color("#000"))
        .light_color(svg::Color("#fff"))
        .quiet_zone(true)
        .build();
    // Drop `<?xml …?>`: optional in an SVG file and not allowed inside HTML.
    Ok(match svg.find("<svg") {
        Some(i) => svg[i..].to_owned(),
        None => svg,
    })
}

/// The dark modules of the QR code of `text`, row by row (`width` × `width`), without the
/// quiet zone.
pub(crate) struct Modules {
    pub width: usize,
    pub dark: Vec<bool>,
}

pub(crate) fn modules(text: &str) -> Option<Modules> {
    let code = QrCode::new(text.as_bytes()).ok()?;
    Some(Modules {
        width: code.width(),
        dark: code
            .to_colors()
            .into_iter()
            .map(|c| c == Color::Dark)
            .collect(),
    })
}
