//! PDF tests through poppler-utils (`pdftotext`, `pdffonts`, `pdfinfo`, `pdftoppm`), which CI
//! installs. Without them these tests fail, saying so.
//!
//! Set `KUPA_DOCUMENTS_PNG_DIR` to keep the rendered pages as PNG files (`ticket-he-1.png`,
//! `ticket-en-1.png`) for a look.

use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use unicode_bidi::{Level, ParagraphBidiInfo};

use super::render;
use crate::model::{Seat, Ticket, TicketLabels, TicketsDocument};
use crate::{DocumentError, render_tickets_pdf};

pub(crate) fn hebrew_doc() -> TicketsDocument {
    TicketsDocument {
        lang: "he".into(),
        rtl: true,
        title: "כרטיסים – הזמנה 4821-7731".into(),
        chain_name: "סינמה כוכב".into(),
        labels: TicketLabels {
            ticket_counter: "כרטיס {n} מתוך {total}".into(),
            complex: "קולנוע".into(),
            hall: "אולם".into(),
            date: "תאריך".into(),
            time: "שעה".into(),
            section: "אזור".into(),
            row: "שורה".into(),
            seat: "כיסא".into(),
            general_admission: "ללא מקומות מסומנים".into(),
            ticket_type: "סוג כרטיס".into(),
            price: "מחיר".into(),
            order_total: "סה״כ להזמנה".into(),
            reservation_number: "מספר הזמנה".into(),
            entrance_time: "כניסה לאולם".into(),
            qr_caption: "הציגו את הקוד בכניסה לאולם".into(),
            terms: "תנאי ההזמנה".into(),
        },
        terms: "הכרטיס תקף להקרנה, לאולם ולמקום המצוינים בו בלבד. הכניסה לאולם עד 15 דקות \
                לאחר תחילת ההקרנה.\nביטול הזמנה אפשרי עד 4 שעות לפני מועד ההקרנה, בניכוי דמי \
                טיפול של ₪ 5.00 לכרטיס (לפי חוק הגנת הצרכן). אין להכניס מזון ושתייה מבחוץ."
            .into(),
        tickets: vec![
            Ticket {
                feature_name: "הדרך לעין גדי".into(),
                feature_name_secondary: "The Road to Ein Gedi".into(),
                complex: "קולנוע כפר סבא G".into(),
                hall: "אולם 1 – IMAX".into(),
                date: "יום ה׳, 14.05.2026".into(),
                time: "20:30".into(),
                seat: Seat::Reserved {
                    section: String::new(),
                    row: "7".into(),
                    seat: "12".into(),
                },
                ticket_type: "רגיל".into(),
                price: "45.00 ₪".into(),
                price_note: "כולל דמי טיפול ₪5.00".into(),
                order_total: "₪83.00".into(),
                reservation_number: "4821-7731".into(),
                entrance_time: "20:10".into(),
                qr_payload: "https://kupa.example/e/T7Q2-9XKD-4821".into(),
            },
            Ticket {
                seat: Seat::GeneralAdmission,
                ticket_type: "סטודנט".into(),
                price: "38.00 ₪".into(),
                qr_payload: "https://kupa.example/e/T7Q3-1MZP-4821".into(),
                ..hebrew_ticket_placeholder()
            },
        ],
    }
}

fn hebrew_ticket_placeholder() -> Ticket {
    Ticket {
        feature_name: "הדרך לעין גדי".into(),
        feature_name_secondary: "The Road to Ein Gedi".into(),
        complex: "קולנוע כפר סבא G".into(),
        hall: "אולם 1 – IMAX".into(),
        date: "יום ה׳, 14.05.2026".into(),
        time: "20:30".into(),
        seat: Seat::GeneralAdmission,
        ticket_type: String::new(),
        price: String::new(),
        price_note: String::new(),
        order_total: String::new(),
        reservation_number: "4821-7731".into(),
        entrance_time: "20:10".into(),
        qr_payload: String::new(),
    }
}

pub(crate) fn english_doc() -> TicketsDocument {
    TicketsDocument {
        lang: "en".into(),
        rtl: false,
        title: "Tickets – order 4821-7731".into(),
        chain_name: "Cinema Kochav".into(),
        labels: TicketLabels {
            ticket_counter: "Ticket {n} of {total}".into(),
            complex: "Cinema".into(),
            hall: "Hall".into(),
            date: "Date".into(),
            time: "Time".into(),
            section: "Section".into(),
            row: "Row".into(),
            seat: "Seat".into(),
            general_admission: "General admission".into(),
            ticket_type: "Ticket type".into(),
            price: "Price".into(),
            order_total: "Order total".into(),
            reservation_number: "Reservation number".into(),
            entrance_time: "Entrance".into(),
            qr_caption: "Show this code at the entrance".into(),
            terms: "Order terms".into(),
        },
        terms: "This ticket is valid only for the screening, hall and seat printed on it. \
                Entrance until 15 minutes after the screening starts.\nCancellation up to 4 \
                hours before the screening, less a handling fee of ₪ 5.00 per ticket."
            .into(),
        tickets: vec![Ticket {
            feature_name: "The Road to Ein Gedi".into(),
            feature_name_secondary: "הדרך לעין גדי".into(),
            complex: "Kfar Saba G".into(),
            hall: "Hall 1 – IMAX".into(),
            date: "Thu, 14 May 2026".into(),
            time: "20:30".into(),
            seat: Seat::Reserved {
                section: "Balcony".into(),
                row: "7".into(),
                seat: "12".into(),
            },
            ticket_type: "Regular".into(),
            price: "₪ 45.00".into(),
            price_note: "incl. ₪5.00 service charge".into(),
            order_total: "₪ 45.00".into(),
            reservation_number: "4821-7731".into(),
            entrance_time: "20:10".into(),
            qr_payload: "https://kupa.example/e/T7Q2-9XKD-4821".into(),
        }],
    }
}

/// A file written into a new directory of its own, removed with it on drop.
struct TempFile {
    path: PathBuf,
}

impl TempFile {
    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }

    fn dir(&self) -> &std::path::Path {
        self.path.parent().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.dir());
    }
}

/// Writes `bytes` to a new file in the temporary directory.
fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "kupa-documents-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    TempFile { path }
}

/// Runs a poppler-utils tool; fails the test clearly when poppler-utils is not installed.
fn poppler(tool: &str, args: &[&str]) -> (String, String) {
    let out = Command::new(tool).args(args).output().unwrap_or_else(|e| {
        panic!(
            "`{tool}` could not be run ({e}): these tests need poppler-utils \
             (apt-get install poppler-utils)"
        )
    });
    let stdout = String::from_utf8(out.stdout).expect("UTF-8 output");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{tool} {args:?} failed: {stderr}");
    (stdout, stderr)
}

fn pdftotext(pdf: &[u8], layout: bool) -> String {
    let file = temp_file("tickets.pdf", pdf);
    let path = file.path();
    let mut args = vec!["-enc", "UTF-8"];
    if layout {
        args.push("-layout");
    }
    args.extend([path, "-"]);
    poppler("pdftotext", &args).0
}

/// Bidirectional formatting characters, which pdftotext puts around every right-to-left line
/// (U+202B … U+202C) and every left-to-right run inside one (U+202A … U+202C).
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// How a line of logical text looks on a right-to-left page: its characters left to right
/// (UAX #9, honouring pdftotext's embedding marks), marks removed, spaces collapsed.
fn displayed(line: &str) -> String {
    let bidi = ParagraphBidiInfo::new(line, Some(Level::rtl()));
    let visual: String = bidi
        .reorder_line(0..line.len())
        .chars()
        .filter(|&c| !is_bidi_control(c))
        .collect();
    visual.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// What `pdf`'s text lacks, in plain and in `-layout` mode, of
/// - `exact`: strings that must come out character for character (Hebrew words are in logical
///   order, so a Hebrew string drawn backwards does not match), and
/// - `shown`: mixed strings that must look the same as the expected string when the extracted
///   line is displayed right to left. Extraction has to guess the logical order of mixed
///   text from glyph positions, and pdftotext gives `אולם IMAX – 1` (with
///   embedding marks around `IMAX – 1`) for `אולם 1 – IMAX`
///   (both display as `IMAX – 1 םלוא`) and moves spaces around numbers; so these are compared
///   as displayed. A string drawn in the wrong order displays differently and does not match.
fn missing(pdf: &[u8], exact: &[&str], shown: &[&str]) -> Vec<String> {
    let mut missing = Vec::new();
    for layout in [false, true] {
        let mode = if layout { "-layout" } else { "plain" };
        let text = pdftotext(pdf, layout);
        let plain: String = text.chars().filter(|&c| !is_bidi_control(c)).collect();
        for e in exact {
            if !plain.contains(e) {
                missing.push(format!("{e:?} not in the {mode} text:\n{plain}"));
            }
        }
        let lines: Vec<String> = text.lines().map(displayed).collect();
        for e in shown {
            let want = displayed(e);
            if !lines.iter().any(|l| l.contains(&want)) {
                missing.push(format!(
                    "{e:?} (displayed {want:?}) not in the {mode} text:\n{}",
                    lines.join("\n")
                ));
            }
        }
    }
    missing
}

const HEBREW_EXACT: &[&str] = &[
    "הדרך לעין גדי",
    "The Road to Ein Gedi",
    "4821-7731",
    "סינמה כוכב",
    "ללא מקומות מסומנים",
    "קולנוע כפר סבא",
    "(לפי חוק הגנת הצרכן)",
];

const HEBREW_SHOWN: &[&str] = &[
    "הדרך לעין גדי",
    "שורה 7 כיסא 12",
    "אולם 1 – IMAX",
    "כרטיס 1 מתוך 2",
    "45.00 ₪",
    "יום ה׳, 14.05.2026",
    "הכניסה לאולם עד 15 דקות לאחר תחילת ההקרנה.",
];

#[test]
fn hebrew_ticket_text_reads_in_logical_order() {
    let pdf = render_tickets_pdf(&hebrew_doc()).unwrap();
    let missing = missing(&pdf, HEBREW_EXACT, HEBREW_SHOWN);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn naive_drawing_fails_the_same_check() {
    // Drawing characters in logical order (what printpdf or genpdf do) puts Hebrew on the page
    // backwards; the check above must notice.
    let pdf = render(&hebrew_doc(), false).unwrap();
    let missing = missing(&pdf, HEBREW_EXACT, HEBREW_SHOWN);
    for e in [
        "\"הדרך לעין גדי\" not",
        "\"הדרך לעין גדי\" (displayed",
        "\"שורה 7 כיסא 12\"",
    ] {
        assert!(
            missing.iter().any(|m| m.starts_with(e)),
            "the naive PDF passed the check for {e}: {missing:?}"
        );
    }
}

#[test]
fn english_ticket_text() {
    let pdf = render_tickets_pdf(&english_doc()).unwrap();
    let missing = missing(
        &pdf,
        &[
            "The Road to Ein Gedi",
            "הדרך לעין גדי",
            "Hall 1 – IMAX",
            "Row 7 Seat 12",
            "Balcony",
            "Reservation number",
            "4821-7731",
            "₪ 45.00",
            "Ticket 1 of 1",
            "Order terms",
            "less a handling fee of ₪ 5.00 per ticket.",
        ],
        &[],
    );
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

#[test]
fn one_page_per_ticket_fonts_embedded_and_subset() {
    let pdf = render_tickets_pdf(&hebrew_doc()).unwrap();
    let file = temp_file("tickets.pdf", &pdf);
    let path = file.path();
    let (info, _) = poppler("pdfinfo", &[path]);
    assert!(
        info.lines()
            .any(|l| l.starts_with("Pages:") && l.ends_with(" 2")),
        "{info}"
    );
    assert!(info.contains("כרטיסים – הזמנה 4821-7731"), "{info}");
    let (fonts, _) = poppler("pdffonts", &[path]);
    let rows: Vec<&str> = fonts.lines().skip(2).collect();
    assert_eq!(rows.len(), 4, "{fonts}");
    for row in rows {
        // name, type, encoding, emb, sub, uni, …
        let cols: Vec<&str> = row.split_whitespace().collect();
        assert!(cols[0].contains('+'), "not a subset: {row}");
        assert!(
            cols.ends_with(&["yes", "yes", "yes"]) || row.contains("yes yes yes"),
            "font not embedded, subset and mapped to Unicode: {row}"
        );
    }
}

#[test]
fn pdf_is_small_and_reproducible() {
    let a = render_tickets_pdf(&hebrew_doc()).unwrap();
    let b = render_tickets_pdf(&hebrew_doc()).unwrap();
    assert_eq!(a, b);
    assert!(a.starts_with(b"%PDF-"));
    assert!(a.len() < 60_000, "{} bytes", a.len());
}

/// Renders page 1 of `pdf` to PNG at 80 dpi, checks that poppler reported no error, and keeps
/// the PNG and the PDF in `KUPA_DOCUMENTS_PNG_DIR` as `{name}-1.png` and `{name}.pdf` when set.
fn render_page_one(name: &str, pdf: &[u8]) {
    let file = temp_file(&format!("{name}.pdf"), pdf);
    let prefix = file.path.with_extension("");
    let (_, stderr) = poppler(
        "pdftoppm",
        &[
            "-png",
            "-r",
            "80",
            "-f",
            "1",
            "-l",
            "1",
            file.path(),
            prefix.to_str().unwrap(),
        ],
    );
    assert!(stderr.trim().is_empty(), "pdftoppm: {stderr}");
    let png = std::fs::read_dir(file.dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "png"))
        .expect("pdftoppm wrote a PNG");
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 10_000);
    if let Some(dir) = std::env::var_os("KUPA_DOCUMENTS_PNG_DIR").map(PathBuf::from) {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{name}-1.png")), &bytes).unwrap();
        std::fs::write(dir.join(format!("{name}.pdf")), pdf).unwrap();
    }
}

#[test]
fn pages_render_without_errors() {
    render_page_one("ticket-he", &render_tickets_pdf(&hebrew_doc()).unwrap());
    render_page_one("ticket-en", &render_tickets_pdf(&english_doc()).unwrap());
    render_page_one("ticket-he-naive", &render(&hebrew_doc(), false).unwrap());
}

#[test]
fn errors() {
    let mut doc = hebrew_doc();
    doc.tickets.clear();
    assert_eq!(render_tickets_pdf(&doc), Err(DocumentError::NoTickets));
    let mut doc = hebrew_doc();
    doc.tickets[1].qr_payload = "x".repeat(5000);
    assert_eq!(
        render_tickets_pdf(&doc),
        Err(DocumentError::QrPayloadTooLong {
            ticket: 1,
            len: 5000
        })
    );
}

#[test]
fn long_values_and_terms_still_fit_on_the_page() {
    let mut doc = hebrew_doc();
    doc.tickets[0].feature_name = "הדרך הארוכה מאוד לעין גדי ".repeat(6);
    doc.tickets[0].complex = "קולנוע עם שם ארוך במיוחד ".repeat(4);
    doc.terms = "תנאי ההזמנה. ".repeat(600);
    let pdf = render_tickets_pdf(&doc).unwrap();
    render_page_one("ticket-he-long", &pdf);
    let text = pdftotext(&pdf, false);
    assert!(text.contains('…'), "{text}");
    let lines: Vec<String> = text.lines().map(displayed).collect();
    assert!(
        lines
            .iter()
            .any(|l| l.contains(&displayed("שורה 7 כיסא 12")))
    );
}
