//! The e-document QR code as SVG.

use kupa_documents::{DocumentError, qr_svg, try_qr_svg};

const URL: &str = "https://kupa.example/e/T7Q2-9XKD-4821";

#[test]
fn svg_root_and_modules() {
    let svg = qr_svg(URL);
    assert!(
        svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
        "{svg}"
    );
    assert!(svg.ends_with("</svg>"));
    assert!(
        !svg.contains("<?xml"),
        "no XML declaration, so it can be inlined in HTML"
    );
    assert!(svg.contains("viewBox=\"0 0 "));
    // The dark modules are one path of squares.
    assert_eq!(svg.matches("<path").count(), 1);
    assert!(svg.matches('M').count() > 100, "too few modules");
}

#[test]
fn same_input_same_svg_other_input_other_svg() {
    assert_eq!(qr_svg(URL), qr_svg(URL));
    assert_ne!(qr_svg(URL), qr_svg("https://kupa.example/e/T7Q3-1MZP-4821"));
}

#[test]
fn too_long_for_a_qr_code() {
    let long = "x".repeat(5000);
    assert_eq!(
        try_qr_svg(&long),
        Err(DocumentError::QrPayloadTooLong {
            ticket: 0,
            len: 5000
        })
    );
    let svg = qr_svg(&long);
    assert!(svg.starts_with("<svg") && svg.ends_with("</svg>") && !svg.contains("<path"));
}
