//! Drawing on one page: text in a frame (mirrored for right-to-left), boxes, rules, the QR code.

use pdf_writer::{Content, Str};

use super::fonts_embed::{FontUsage, font_name};
use super::*;

/// Drawing on one page; `y` arguments are measured from the top of the page.
pub(super) struct Canvas<'a> {
    pub(super) content: Content,
    pub(super) usage: &'a mut FontUsage,
    pub(super) rtl: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Align {
    Start,
    End,
    Center,
}

impl Canvas<'_> {
    /// Left edge on the page of the box that starts `start` points from the start side
    /// (left in English, right in Hebrew) of the frame `left..left + width`.
    pub(super) fn x(&self, frame_left: f32, frame_width: f32, start: f32, width: f32) -> f32 {
        if self.rtl {
            frame_left + frame_width - start - width
        } else {
            frame_left + start
        }
    }

    pub(super) fn fill_rgb(&mut self, (r, g, b): Rgb) {
        self.content.set_fill_rgb(r, g, b);
    }

    pub(super) fn rect(&mut self, x: f32, top: f32, w: f32, h: f32, color: Rgb) {
        self.fill_rgb(color);
        self.content.rect(x, PAGE_H - top - h, w, h).fill_nonzero();
    }

    /// A rectangle with rounded corners, filled and/or stroked.
    pub(super) fn rounded(
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

    pub(super) fn hline(&mut self, x: f32, top: f32, w: f32, color: Rgb, dashed: bool) {
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
    pub(super) fn text(&mut self, line: &Line, x: f32, baseline: f32, color: Rgb) {
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
    pub(super) fn text_in(
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
    pub(super) fn qr(&mut self, modules: &qr::Modules, x: f32, top: f32, side: f32) {
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
