//! The tickets PDF: one A4 page per ticket, drawn with `pdf-writer`.
//!
//! Page layout (mirrored for right-to-left documents, where "start" is the right side):
//!
//! ```text
//! ┌──────────────────────────────────────────────┐
//! │ chain name                     ticket n of m │  header band
//! │ Feature name (large, bold)                   │
//! │ Secondary name                               │
//! │──────────────────────────────────────────────│
//! │ date        time        │ ┌────────┐         │
//! │ complex     hall        │ │   QR   │         │
//! │ [section] [row] [seat]  │ └────────┘         │
//! │ ticket type price       │  caption           │
//! │ entrance    reservation │                    │
//! │- - - - - - - - - - - - - - - - - - - - - - - │  tear line
//! │ feature · date time · hall · row 7 seat 12   │  stub
//! └──────────────────────────────────────────────┘
//!  Order terms (small, wrapped)
//! ```

use std::collections::BTreeMap;

use pdf_writer::types::Direction;
use pdf_writer::{Content, Filter, Finish, Pdf, Rect, Ref, TextStr};

use crate::DocumentError;
use crate::fonts::{self, FaceId, Weight};
use crate::model::{Seat, Ticket, TicketsDocument};
use crate::qr;
use crate::text::{Line, Typesetter};

const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
const MARGIN: f32 = 36.0;
const CARD_W: f32 = PAGE_W - 2.0 * MARGIN;
const PAD: f32 = 22.0;
const BAND_H: f32 = 58.0;
const QR_COLUMN: f32 = 168.0;
const QR_SIDE: f32 = 150.0;
const ROW_H: f32 = 48.0;

type Rgb = (f32, f32, f32);
const INK: Rgb = (0.09, 0.10, 0.13);
const MUTED: Rgb = (0.40, 0.43, 0.49);
const BAND: Rgb = (0.10, 0.14, 0.26);
const BAND_TEXT: Rgb = (1.0, 1.0, 1.0);
const BAND_MUTED: Rgb = (0.78, 0.82, 0.90);
const BOX: Rgb = (0.94, 0.95, 0.97);
const RULE: Rgb = (0.80, 0.82, 0.86);
const ACCENT: Rgb = (0.80, 0.16, 0.22);

/// The tickets of `doc` as a PDF: one A4 page per ticket, in the order given, with the
/// embedded fonts subset to the glyphs used.
///
/// Fails when there are no tickets or a QR payload is too long for a QR code.
pub fn render_tickets_pdf(doc: &TicketsDocument) -> Result<Vec<u8>, DocumentError> {
    render(doc, true)
}

/// [`render_tickets_pdf`], with the bidirectional reordering switchable for the tests.
pub(crate) fn render(doc: &TicketsDocument, reorder: bool) -> Result<Vec<u8>, DocumentError> {
    if doc.tickets.is_empty() {
        return Err(DocumentError::NoTickets);
    }
    fonts::check_fonts()?;
    let ts = Typesetter {
        rtl: doc.rtl,
        reorder,
    };

    let mut usage = FontUsage::default();
    let mut contents = Vec::with_capacity(doc.tickets.len());
    for (i, ticket) in doc.tickets.iter().enumerate() {
        let qr = qr::modules(&ticket.qr_payload).ok_or(DocumentError::QrPayloadTooLong {
            ticket: i,
            len: ticket.qr_payload.len(),
        })?;
        let mut canvas = Canvas {
            content: Content::new(),
            usage: &mut usage,
            rtl: doc.rtl,
        };
        draw_ticket(&mut canvas, &ts, doc, ticket, i, &qr);
        contents.push(canvas.content.finish());
    }

    let mut alloc = Ref::new(1);
    let mut next = || alloc.bump();
    let catalog_id = next();
    let tree_id = next();
    let info_id = next();
    let page_ids: Vec<(Ref, Ref)> = contents.iter().map(|_| (next(), next())).collect();
    let font_ids: BTreeMap<FaceId, Ref> = usage.glyphs.keys().map(|&f| (f, next())).collect();

    let mut pdf = Pdf::new();
    {
        let mut catalog = pdf.catalog(catalog_id);
        catalog.pages(tree_id);
        catalog.lang(TextStr(&doc.lang));
        let mut prefs = catalog.viewer_preferences();
        prefs.display_doc_title(true);
        if doc.rtl {
            prefs.direction(Direction::R2L);
        }
    }
    pdf.document_info(info_id)
        .title(TextStr(&doc.title))
        .creator(TextStr(&doc.chain_name))
        .producer(TextStr("Kupa"));
    pdf.pages(tree_id)
        .kids(page_ids.iter().map(|&(page, _)| page))
        .count(page_ids.len() as i32);
    for (&(page_id, content_id), content) in page_ids.iter().zip(&contents) {
        let mut page = pdf.page(page_id);
        page.parent(tree_id)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(content_id);
        let mut resources = page.resources();
        let mut fonts = resources.fonts();
        for (&face, &id) in &font_ids {
            fonts.pair(font_name(face), id);
        }
        fonts.finish();
        resources.finish();
        page.finish();
        pdf.stream(content_id, &deflate(content))
            .filter(Filter::FlateDecode);
    }
    for (face, glyphs) in &usage.glyphs {
        write_font(&mut pdf, &mut next, font_ids[face], *face, glyphs)?;
    }
    Ok(pdf.finish())
}

/// The glyphs used per face. Each (glyph, character) pair gets its own character id (CID),
/// numbered from 1 in order of first use: the ToUnicode map then tells the character for
/// every CID even where one glyph stands for two characters, as the mirrored `)` that draws a
/// `(` in right-to-left text.
mod canvas;
mod fonts_embed;

use canvas::{Align, Canvas};
use fonts_embed::*;

fn draw_ticket(
    c: &mut Canvas,
    ts: &Typesetter,
    doc: &TicketsDocument,
    ticket: &Ticket,
    index: usize,
    qr: &qr::Modules,
) {
    let labels = &doc.labels;
    let card = (MARGIN, CARD_W);
    let inner = (MARGIN + PAD, CARD_W - 2.0 * PAD);
    let top = MARGIN;

    // Header band: chain name at the start, the ticket counter at the end.
    let counter = labels
        .ticket_counter
        .replace("{n}", &(index + 1).to_string())
        .replace("{total}", &doc.tickets.len().to_string());
    let counter_line = ts.fit(&counter, Weight::Regular, 10.0, 8.0, 150.0);
    let chain_w = inner.1 - counter_line.width() - 16.0;
    let chain = ts.fit(&doc.chain_name, Weight::Bold, 20.0, 12.0, chain_w);
    // Card background with a border, then the band over its top.
    // A row more for the order's total, when it is printed.
    let card_h = if ticket.order_total.is_empty() {
        476.0
    } else {
        476.0 + ROW_H
    };
    c.rounded(
        (card.0, top, card.1, card_h),
        10.0,
        Some((1.0, 1.0, 1.0)),
        Some(RULE),
    );
    c.rounded((card.0, top, card.1, BAND_H), 10.0, Some(BAND), None);
    c.rect(card.0, top + BAND_H - 12.0, card.1, 12.0, BAND);
    c.rect(card.0, top + BAND_H, card.1, 3.0, ACCENT);
    c.text_in(
        inner,
        0.0,
        inner.1,
        top + 37.0,
        &chain,
        Align::Start,
        BAND_TEXT,
    );
    c.text_in(
        inner,
        0.0,
        inner.1,
        top + 35.0,
        &counter_line,
        Align::End,
        BAND_MUTED,
    );

    // Feature names.
    let mut y = top + BAND_H + 3.0 + 38.0;
    let name = ts.fit(&ticket.feature_name, Weight::Bold, 26.0, 15.0, inner.1);
    c.text_in(inner, 0.0, inner.1, y, &name, Align::Start, INK);
    if !ticket.feature_name_secondary.is_empty() {
        y += 22.0;
        let secondary = ts.fit(
            &ticket.feature_name_secondary,
            Weight::Regular,
            14.0,
            10.0,
            inner.1,
        );
        c.text_in(inner, 0.0, inner.1, y, &secondary, Align::Start, MUTED);
    }
    y += 18.0;
    c.hline(inner.0, y, inner.1, RULE, false);

    // Details at the start side, the QR code at the end side.
    let body_top = y + 16.0;
    let info_w = inner.1 - QR_COLUMN;
    let col_w = (info_w - 16.0) / 2.0;
    let field = |c: &mut Canvas, start: f32, width: f32, row_top: f32, label: &str, value: &str| {
        let l = ts.fit(label, Weight::Regular, 9.0, 7.0, width);
        let v = ts.fit(value, Weight::Bold, 14.0, 9.0, width);
        c.text_in(inner, start, width, row_top + 11.0, &l, Align::Start, MUTED);
        c.text_in(inner, start, width, row_top + 30.0, &v, Align::Start, INK);
    };
    let mut row = body_top;
    field(c, 0.0, col_w, row, &labels.date, &ticket.date);
    field(c, col_w + 16.0, col_w, row, &labels.time, &ticket.time);
    row += ROW_H;
    field(c, 0.0, col_w, row, &labels.complex, &ticket.complex);
    field(c, col_w + 16.0, col_w, row, &labels.hall, &ticket.hall);
    row += ROW_H;

    // Seat boxes.
    let box_h = 52.0;
    let box_top = row + 2.0;
    match &ticket.seat {
        Seat::Reserved {
            section,
            row: r,
            seat,
        } => {
            let mut boxes: Vec<(&str, &str)> = Vec::new();
            if !section.is_empty() {
                boxes.push((&labels.section, section));
            }
            boxes.push((&labels.row, r));
            boxes.push((&labels.seat, seat));
            let gap = 10.0;
            let bw = (info_w - 16.0 - gap * (boxes.len() as f32 - 1.0)) / boxes.len() as f32;
            for (k, (label, value)) in boxes.into_iter().enumerate() {
                let start = k as f32 * (bw + gap);
                let bx = c.x(inner.0, inner.1, start, bw);
                c.rounded((bx, box_top, bw, box_h), 6.0, Some(BOX), None);
                let l = ts.fit(label, Weight::Regular, 9.0, 7.0, bw - 12.0);
                let v = ts.fit(value, Weight::Bold, 22.0, 10.0, bw - 12.0);
                c.text_in(inner, start, bw, box_top + 15.0, &l, Align::Center, MUTED);
                c.text_in(inner, start, bw, box_top + 42.0, &v, Align::Center, INK);
            }
        }
        Seat::GeneralAdmission => {
            let bw = info_w - 16.0;
            let bx = c.x(inner.0, inner.1, 0.0, bw);
            c.rounded((bx, box_top, bw, box_h), 6.0, Some(BOX), None);
            let v = ts.fit(
                &labels.general_admission,
                Weight::Bold,
                18.0,
                10.0,
                bw - 12.0,
            );
            c.text_in(inner, 0.0, bw, box_top + 33.0, &v, Align::Center, INK);
        }
    }
    row = box_top + box_h + 12.0;
    field(c, 0.0, col_w, row, &labels.ticket_type, &ticket.ticket_type);
    field(c, col_w + 16.0, col_w, row, &labels.price, &ticket.price);
    if !ticket.price_note.is_empty() {
        let note = ts.fit(&ticket.price_note, Weight::Regular, 8.0, 6.5, col_w);
        c.text_in(
            inner,
            col_w + 16.0,
            col_w,
            row + 43.0,
            &note,
            Align::Start,
            MUTED,
        );
    }
    row += ROW_H;
    field(
        c,
        0.0,
        col_w,
        row,
        &labels.entrance_time,
        &ticket.entrance_time,
    );
    field(
        c,
        col_w + 16.0,
        col_w,
        row,
        &labels.reservation_number,
        &ticket.reservation_number,
    );
    if !ticket.order_total.is_empty() {
        row += ROW_H;
        field(c, 0.0, col_w, row, &labels.order_total, &ticket.order_total);
    }
    let body_bottom = row + ROW_H;

    // QR code and its caption.
    let qr_start = inner.1 - QR_SIDE;
    let qr_x = c.x(inner.0, inner.1, qr_start, QR_SIDE);
    c.rounded(
        (qr_x - 4.0, body_top - 4.0, QR_SIDE + 8.0, QR_SIDE + 8.0),
        6.0,
        None,
        Some(RULE),
    );
    c.qr(qr, qr_x, body_top, QR_SIDE);
    let caption_lines = ts.wrap(&labels.qr_caption, Weight::Regular, 9.0, QR_SIDE);
    for (k, line) in caption_lines.iter().take(3).enumerate() {
        c.text_in(
            inner,
            qr_start,
            QR_SIDE,
            body_top + QR_SIDE + 20.0 + 12.0 * k as f32,
            line,
            Align::Center,
            MUTED,
        );
    }

    // Tear line and stub: one line that says it all.
    let tear = body_bottom + 10.0;
    c.hline(card.0, tear, card.1, MUTED, true);
    let seat_text = match &ticket.seat {
        Seat::Reserved { row, seat, .. } => {
            format!("{} {} {} {}", labels.row, row, labels.seat, seat)
        }
        Seat::GeneralAdmission => labels.general_admission.clone(),
    };
    // The feature name gives way (is cut) so that date, hall and seat always fit.
    const SEP: &str = "  ·  ";
    let rest = [
        format!("{} {}", ticket.date, ticket.time),
        ticket.hall.clone(),
        seat_text,
    ]
    .into_iter()
    .filter(|s| !s.trim().is_empty())
    .collect::<Vec<_>>()
    .join(SEP);
    let rest_w = ts.line(&format!("{SEP}{rest}"), Weight::Bold, 11.0).width();
    let feature = ts.truncate(
        &ticket.feature_name,
        Weight::Bold,
        11.0,
        (inner.1 - rest_w).max(0.0),
    );
    let stub = if feature.is_empty() {
        rest
    } else {
        format!("{feature}{SEP}{rest}")
    };
    let stub_line = ts.fit(&stub, Weight::Bold, 11.0, 7.0, inner.1);
    c.text_in(
        inner,
        0.0,
        inner.1,
        tear + 26.0,
        &stub_line,
        Align::Start,
        INK,
    );
    debug_assert!(tear + 40.0 <= top + card_h);

    // Terms under the card, shrunk to fit the rest of the page.
    let terms_top = top + card_h + 26.0;
    let available = PAGE_H - MARGIN - terms_top - 18.0;
    let heading = ts.fit(&labels.terms, Weight::Bold, 10.0, 8.0, card.1);
    c.text_in(card, 0.0, card.1, terms_top, &heading, Align::Start, INK);
    let mut size = 8.5;
    let mut lines = ts.wrap(&doc.terms, Weight::Regular, size, card.1);
    while lines.len() as f32 * size * 1.4 > available && size > 6.0 {
        size -= 0.5;
        lines = ts.wrap(&doc.terms, Weight::Regular, size, card.1);
    }
    let max_lines = (available / (size * 1.4)).floor() as usize;
    if lines.len() > max_lines {
        lines.truncate(max_lines);
    }
    for (k, line) in lines.iter().enumerate() {
        let baseline = terms_top + 18.0 + k as f32 * size * 1.4;
        c.text_in(card, 0.0, card.1, baseline, line, Align::Start, MUTED);
    }
}

#[cfg(test)]
mod tests;
