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

use pdf_writer::types::{CidFontType, Direction, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str, TextStr};

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
#[derive(Default)]
struct FontUsage {
    glyphs: BTreeMap<FaceId, BTreeMap<(u16, char), u16>>,
}

impl FontUsage {
    fn cid(&mut self, face: FaceId, gid: u16, ch: char) -> u16 {
        let map = self.glyphs.entry(face).or_default();
        let next = map.len() as u16 + 1;
        *map.entry((gid, ch)).or_insert(next)
    }
}

fn font_name(face: FaceId) -> Name<'static> {
    match face {
        FaceId::HebrewRegular => Name(b"F1"),
        FaceId::HebrewBold => Name(b"F2"),
        FaceId::LatinRegular => Name(b"F3"),
        FaceId::LatinBold => Name(b"F4"),
    }
}

fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}

/// Writes one face as a Type 0 font (two-byte CIDs, Identity-H) with an embedded TrueType
/// subset (glyph ids kept), a CID-to-glyph map and a ToUnicode map.
fn write_font(
    pdf: &mut Pdf,
    next: &mut impl FnMut() -> Ref,
    type0_id: Ref,
    face: FaceId,
    glyphs: &BTreeMap<(u16, char), u16>,
) -> Result<(), DocumentError> {
    let (cid_id, descriptor_id, file_id, cmap_id, cid_map_id) =
        (next(), next(), next(), next(), next());
    // (cid, gid, char) in CID order.
    let mut cids: Vec<(u16, u16, char)> =
        glyphs.iter().map(|(&(g, ch), &cid)| (cid, g, ch)).collect();
    cids.sort_unstable();
    let mut gids: Vec<u16> = cids.iter().map(|&(_, g, _)| g).collect();
    gids.sort_unstable();
    gids.dedup();
    let subset = subsetter::subset(face.data(), 0, subsetter::Profile::pdf(&gids))
        .map_err(|e| DocumentError::Font(face.postscript_name(), format!("{e:?}")))?;
    let base_font = format!("{}+{}", subset_tag(face, &gids), face.postscript_name());
    let system_info = SystemInfo {
        registry: Str(b"Adobe"),
        ordering: Str(b"Identity"),
        supplement: 0,
    };

    pdf.type0_font(type0_id)
        .base_font(Name(base_font.as_bytes()))
        .encoding_predefined(Name(b"Identity-H"))
        .descendant_font(cid_id)
        .to_unicode(cmap_id);

    let mut cid = pdf.cid_font(cid_id);
    cid.subtype(CidFontType::Type2)
        .base_font(Name(base_font.as_bytes()))
        .system_info(system_info)
        .font_descriptor(descriptor_id)
        .cid_to_gid_map_stream(cid_map_id);
    let mut widths = cid.widths();
    widths.consecutive(1, cids.iter().map(|&(_, g, _)| fonts::advance(face, g)));
    widths.finish();
    cid.finish();

    // CID 0 is .notdef; CID n draws the glyph in the map's entry n.
    let mut cid_map = vec![0u8; 2];
    for &(_, g, _) in &cids {
        cid_map.extend(g.to_be_bytes());
    }
    pdf.stream(cid_map_id, &deflate(&cid_map))
        .filter(Filter::FlateDecode);

    let f = face.face();
    let scale = 1000.0 / f32::from(f.units_per_em());
    let bbox = f.global_bounding_box();
    pdf.font_descriptor(descriptor_id)
        .name(Name(base_font.as_bytes()))
        .flags(FontFlags::SYMBOLIC)
        .bbox(Rect::new(
            f32::from(bbox.x_min) * scale,
            f32::from(bbox.y_min) * scale,
            f32::from(bbox.x_max) * scale,
            f32::from(bbox.y_max) * scale,
        ))
        .italic_angle(0.0)
        .ascent(f32::from(f.ascender()) * scale)
        .descent(f32::from(f.descender()) * scale)
        .cap_height(f32::from(f.capital_height().unwrap_or(714)) * scale)
        .stem_v(if face.is_bold() { 140.0 } else { 80.0 })
        .font_file2(file_id);

    let compressed = deflate(&subset);
    pdf.stream(file_id, &compressed)
        .filter(Filter::FlateDecode)
        .pair(Name(b"Length1"), subset.len() as i32);

    let mut cmap = UnicodeCmap::new(Name(b"Custom"), system_info);
    for &(cid, _, ch) in &cids {
        cmap.pair(cid, ch);
    }
    pdf.cmap(cmap_id, &deflate(&cmap.finish()))
        .filter(Filter::FlateDecode);
    Ok(())
}

/// Six capital letters naming a subset, derived from the face and its glyphs (stable output).
fn subset_tag(face: FaceId, gids: &[u16]) -> String {
    let mut h: u32 = 0x811c_9dc5 ^ face as u32;
    for &g in gids {
        for b in g.to_be_bytes() {
            h = (h ^ u32::from(b)).wrapping_mul(0x0100_0193);
        }
    }
    (0..6)
        .map(|i| char::from(b'A' + ((h >> (i * 5)) % 26) as u8))
        .collect()
}

/// Drawing on one page; `y` arguments are measured from the top of the page.
struct Canvas<'a> {
    content: Content,
    usage: &'a mut FontUsage,
    rtl: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Align {
    Start,
    End,
    Center,
}

impl Canvas<'_> {
    /// Left edge on the page of the box that starts `start` points from the start side
    /// (left in English, right in Hebrew) of the frame `left..left + width`.
    fn x(&self, frame_left: f32, frame_width: f32, start: f32, width: f32) -> f32 {
        if self.rtl {
            frame_left + frame_width - start - width
        } else {
            frame_left + start
        }
    }

    fn fill_rgb(&mut self, (r, g, b): Rgb) {
        self.content.set_fill_rgb(r, g, b);
    }

    fn rect(&mut self, x: f32, top: f32, w: f32, h: f32, color: Rgb) {
        self.fill_rgb(color);
        self.content.rect(x, PAGE_H - top - h, w, h).fill_nonzero();
    }

    /// A rectangle with rounded corners, filled and/or stroked.
    fn rounded(
        &mut self,
        (x, top, w, h): (f32, f32, f32, f32),
        r: f32,
        fill: Option<Rgb>,
        stroke: Option<Rgb>,
    ) {
        let (x0, y0, x1, y1) = (x, PAGE_H - top - h, x + w, PAGE_H - top);
        let k = r * 0.552_284_8; // control point distance for a quarter circle
        let c = &mut self.content;
        c.move_to(x0 + r, y0)
            .line_to(x1 - r, y0)
            .cubic_to(x1 - r + k, y0, x1, y0 + r - k, x1, y0 + r)
            .line_to(x1, y1 - r)
            .cubic_to(x1, y1 - r + k, x1 - r + k, y1, x1 - r, y1)
            .line_to(x0 + r, y1)
            .cubic_to(x0 + r - k, y1, x0, y1 - r + k, x0, y1 - r)
            .line_to(x0, y0 + r)
            .cubic_to(x0, y0 + r - k, x0 + r - k, y0, x0 + r, y0)
            .close_path();
        if let Some((r, g, b)) = fill {
            c.set_fill_rgb(r, g, b);
        }
        if let Some((r, g, b)) = stroke {
            c.set_stroke_rgb(r, g, b).set_line_width(0.8);
        }
        match (fill, stroke) {
            (Some(_), Some(_)) => c.fill_nonzero_and_stroke(),
            (Some(_), None) => c.fill_nonzero(),
            _ => c.stroke(),
        };
    }

    fn hline(&mut self, x: f32, top: f32, w: f32, color: Rgb, dashed: bool) {
        let (r, g, b) = color;
        let c = &mut self.content;
        c.save_state();
        c.set_stroke_rgb(r, g, b).set_line_width(0.8);
        if dashed {
            c.set_dash_pattern([4.0, 3.0], 0.0);
        }
        c.move_to(x, PAGE_H - top)
            .line_to(x + w, PAGE_H - top)
            .stroke();
        c.restore_state();
    }

    /// Draws `line` with its left end at `x` and its baseline at `baseline` (from the top).
    fn text(&mut self, line: &Line, x: f32, baseline: f32, color: Rgb) {
        if line.glyphs.is_empty() {
            return;
        }
        self.fill_rgb(color);
        let c = &mut self.content;
        c.begin_text();
        let mut pen = x;
        let mut i = 0;
        while i < line.glyphs.len() {
            let face = line.glyphs[i].face;
            let mut codes = Vec::new();
            let mut advance = 0.0;
            while i < line.glyphs.len() && line.glyphs[i].face == face {
                let g = &line.glyphs[i];
                codes.extend(self.usage.cid(face, g.gid, g.ch).to_be_bytes());
                advance += g.advance;
                i += 1;
            }
            c.set_font(font_name(face), line.size);
            c.set_text_matrix([1.0, 0.0, 0.0, 1.0, pen, PAGE_H - baseline]);
            c.show(Str(&codes));
            pen += advance * line.size / 1000.0;
        }
        c.end_text();
    }

    /// Draws `line` aligned in the box `start..start + width` of the frame.
    #[allow(clippy::too_many_arguments)]
    fn text_in(
        &mut self,
        frame: (f32, f32),
        start: f32,
        width: f32,
        baseline: f32,
        line: &Line,
        align: Align,
        color: Rgb,
    ) {
        let x0 = self.x(frame.0, frame.1, start, width);
        let w = line.width();
        let x = match (align, self.rtl) {
            (Align::Center, _) => x0 + (width - w) / 2.0,
            (Align::Start, false) | (Align::End, true) => x0,
            (Align::Start, true) | (Align::End, false) => x0 + width - w,
        };
        self.text(line, x, baseline, color);
    }

    /// The QR code as black squares, `side` points wide including a 4-module quiet zone.
    fn qr(&mut self, modules: &qr::Modules, x: f32, top: f32, side: f32) {
        let n = modules.width;
        let m = side / (n as f32 + 8.0);
        self.rect(x, top, side, side, (1.0, 1.0, 1.0));
        self.fill_rgb((0.0, 0.0, 0.0));
        for row in 0..n {
            let mut col = 0;
            while col < n {
                if !modules.dark[row * n + col] {
                    col += 1;
                    continue;
                }
                let run_start = col;
                while col < n && modules.dark[row * n + col] {
                    col += 1;
                }
                let rx = x + (run_start as f32 + 4.0) * m;
                let ry = PAGE_H - top - (row as f32 + 5.0) * m;
                self.content.rect(rx, ry, (col - run_start) as f32 * m, m);
            }
        }
        self.content.fill_nonzero();
    }
}

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
