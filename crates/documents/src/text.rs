//! Lines of text as glyphs in visual order (left to right on the page).
//!
//! PDF text has no direction: glyphs are drawn where they are put. Hebrew is therefore
//! reordered here with the Unicode bidirectional algorithm (UAX #9, `unicode-bidi`): the
//! characters of right-to-left runs are reversed (and brackets mirrored), runs are put in
//! visual order, and numbers and Latin inside Hebrew keep reading left to right. Readers that
//! extract text (pdftotext, copy and paste) apply the same algorithm backwards and get the
//! logical string.

use std::ops::Range;

use unicode_bidi::{BidiClass, Level, ParagraphBidiInfo, bidi_class};

use crate::fonts::{self, FaceId, Weight};

/// One glyph placed on a line.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glyph {
    pub face: FaceId,
    pub gid: u16,
    /// The character the glyph stands for, for the PDF's ToUnicode map (a `(` drawn with the
    /// glyph of `)` in right-to-left text stays `(`).
    pub ch: char,
    /// Drawn with the glyph of [`mirror`]`(ch)`.
    pub mirrored: bool,
    /// Advance in 1/1000 em.
    pub advance: f32,
}

/// A line of glyphs in visual order, at a font size.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    pub glyphs: Vec<Glyph>,
    pub size: f32,
}

impl Line {
    /// Width in points.
    pub(crate) fn width(&self) -> f32 {
        self.glyphs.iter().map(|g| g.advance).sum::<f32>() * self.size / 1000.0
    }

    /// The characters whose glyphs are drawn, left to right (brackets mirrored), for tests.
    #[cfg(test)]
    pub(crate) fn visual_text(&self) -> String {
        self.glyphs
            .iter()
            .map(|g| if g.mirrored { mirror(g.ch) } else { g.ch })
            .collect()
    }
}

/// Lays out text for a document whose main direction is `rtl`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Typesetter {
    /// Direction of the document: the paragraph direction of text that has no strong
    /// direction of its own, and of mixed text that has strong characters of this direction.
    pub rtl: bool,
    /// `false` draws characters in logical order, which is what a naive PDF writer does and
    /// what makes Hebrew come out backwards. Only the tests turn it off, to prove they notice.
    pub reorder: bool,
}

impl Typesetter {
    /// Paragraph level of `text`: the document's direction when the text has a strong
    /// character of that direction or none at all, otherwise the other one. So in a Hebrew
    /// document `"אולם 1 – IMAX"` and `"7"` run right to left and `"The Road"` left to right.
    fn base_level(&self, text: &str) -> Level {
        let (mut has_l, mut has_r) = (false, false);
        for c in text.chars() {
            match bidi_class(c) {
                BidiClass::L => has_l = true,
                BidiClass::R | BidiClass::AL => has_r = true,
                _ => {}
            }
        }
        let rtl = if self.rtl {
            has_r || !has_l
        } else {
            has_r && !has_l
        };
        if rtl { Level::rtl() } else { Level::ltr() }
    }

    /// One line of text (line breaks become spaces), not wrapped.
    pub(crate) fn line(&self, text: &str, weight: Weight, size: f32) -> Line {
        let text = text.replace(['\n', '\r', '\t'], " ");
        let bidi = ParagraphBidiInfo::new(&text, Some(self.base_level(&text)));
        self.visual_line(&text, &bidi, 0..text.len(), weight, size)
    }

    /// The line `range` (bytes) of the paragraph `text`, in visual order.
    fn visual_line(
        &self,
        text: &str,
        bidi: &ParagraphBidiInfo,
        range: Range<usize>,
        weight: Weight,
        size: f32,
    ) -> Line {
        let mut glyphs = Vec::new();
        if range.is_empty() {
            return Line { glyphs, size };
        }
        // `shape` is the character whose glyph is drawn, `ch` the one in the text.
        let mut push = |shape: char, ch: char| {
            let (face, gid) = fonts::glyph_for(shape, weight);
            glyphs.push(Glyph {
                face,
                gid,
                ch,
                mirrored: shape != ch,
                advance: fonts::advance(face, gid),
            });
        };
        if !self.reorder {
            text[range].chars().for_each(|c| push(c, c));
            return Line { glyphs, size };
        }
        let (levels, runs) = bidi.visual_runs(range);
        for run in runs {
            let run_text = &text[run.clone()];
            if levels[run.start].is_rtl() {
                // Reverse by cluster (a letter and its points), mirroring brackets.
                for cluster in clusters(run_text).into_iter().rev() {
                    cluster.chars().for_each(|c| push(mirror(c), c));
                }
            } else {
                run_text.chars().for_each(|c| push(c, c));
            }
        }
        Line { glyphs, size }
    }

    /// `text` broken into lines no wider than `max_width` points; `\n` starts a paragraph.
    pub(crate) fn wrap(&self, text: &str, weight: Weight, size: f32, max_width: f32) -> Vec<Line> {
        let mut lines = Vec::new();
        for paragraph in text.lines() {
            let paragraph = paragraph.replace(['\r', '\t'], " ");
            let bidi = ParagraphBidiInfo::new(&paragraph, Some(self.base_level(&paragraph)));
            for range in break_lines(&paragraph, weight, size, max_width) {
                lines.push(self.visual_line(&paragraph, &bidi, range, weight, size));
            }
        }
        lines
    }

    /// One line at `size`, shrunk down to `min_size` if needed to fit `max_width`, then cut
    /// with an ellipsis.
    pub(crate) fn fit(
        &self,
        text: &str,
        weight: Weight,
        size: f32,
        min_size: f32,
        max_width: f32,
    ) -> Line {
        let mut s = size;
        loop {
            let line = self.line(text, weight, s);
            if line.width() <= max_width {
                return line;
            }
            if s <= min_size {
                break;
            }
            s = (s - 0.5).max(min_size);
        }
        let cut = self.truncate(text, weight, min_size, max_width);
        self.line(&cut, weight, min_size)
    }

    /// `text` as given when it fits `max_width` at `size`, else its longest beginning that
    /// fits with an ellipsis after it (possibly just `…`, or nothing).
    pub(crate) fn truncate(&self, text: &str, weight: Weight, size: f32, max_width: f32) -> String {
        let fits = |t: &str| self.line(t, weight, size).width() <= max_width;
        if fits(text) {
            return text.to_owned();
        }
        let mut chars: Vec<char> = text.trim_end().chars().collect();
        while !chars.is_empty() {
            chars.pop();
            let cut = chars.iter().collect::<String>().trim_end().to_owned() + "…";
            if fits(&cut) {
                return cut;
            }
        }
        String::new()
    }
}

/// Splits a right-to-left run into clusters: a character and the nonspacing marks after it.
fn clusters(run: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, c) in run.char_indices() {
        if i > start && bidi_class(c) != BidiClass::NSM {
            out.push(&run[start..i]);
            start = i;
        }
    }
    if start < run.len() {
        out.push(&run[start..]);
    }
    out
}

/// The mirrored form of a bracket-like character in right-to-left text (Unicode's
/// Bidi_Mirroring_Glyph for the characters a ticket may contain).
fn mirror(c: char) -> char {
    match c {
        '(' => ')',
        ')' => '(',
        '[' => ']',
        ']' => '[',
        '{' => '}',
        '}' => '{',
        '<' => '>',
        '>' => '<',
        '«' => '»',
        '»' => '«',
        '‹' => '›',
        '›' => '‹',
        _ => c,
    }
}

/// Greedy line breaking at spaces (a word wider than the line is broken between
/// characters). Returns byte ranges of the lines without their surrounding spaces.
fn break_lines(text: &str, weight: Weight, size: f32, max_width: f32) -> Vec<Range<usize>> {
    let width = |s: &str| -> f32 {
        s.chars()
            .map(|c| {
                let (face, gid) = fonts::glyph_for(c, weight);
                fonts::advance(face, gid) * size / 1000.0
            })
            .sum()
    };
    let mut lines = Vec::new();
    let mut line: Option<Range<usize>> = None;
    let mut offset = 0;
    for word in text.split(' ') {
        let range = offset..offset + word.len();
        offset = range.end + 1;
        if word.is_empty() {
            continue;
        }
        if let Some(current) = &mut line {
            if width(&text[current.start..range.end]) <= max_width {
                current.end = range.end;
                continue;
            }
            lines.push(current.clone());
        }
        // The word starts a line; a word wider than a line is cut between characters.
        let mut start = range.start;
        for (i, c) in text[range.clone()].char_indices() {
            let at = range.start + i;
            if at > start && width(&text[start..at + c.len_utf8()]) > max_width {
                lines.push(start..at);
                start = at;
            }
        }
        line = Some(start..range.end);
    }
    lines.extend(line);
    if lines.is_empty() {
        // An empty paragraph still takes a line.
        lines.push(0..0);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn he() -> Typesetter {
        Typesetter {
            rtl: true,
            reorder: true,
        }
    }

    #[test]
    fn hebrew_is_reversed_and_numbers_are_not() {
        let line = he().line("שורה 7 כיסא 12", Weight::Regular, 10.0);
        // Drawn left to right: the last word first, the number kept in reading order.
        assert_eq!(line.visual_text(), "12 אסיכ 7 הרוש");
    }

    #[test]
    fn mixed_hebrew_and_latin() {
        let line = he().line("אולם 1 – IMAX", Weight::Regular, 10.0);
        assert_eq!(line.visual_text(), "IMAX – 1 םלוא");
        let en = Typesetter {
            rtl: false,
            reorder: true,
        };
        assert_eq!(
            en.line("The Road to Ein Gedi", Weight::Regular, 10.0)
                .visual_text(),
            "The Road to Ein Gedi"
        );
        // Latin-only text stays left to right in a Hebrew document.
        assert_eq!(
            he().line("The Road (2026)", Weight::Regular, 10.0)
                .visual_text(),
            "The Road (2026)"
        );
    }

    #[test]
    fn brackets_are_mirrored_in_hebrew() {
        let line = he().line("סרט (מדובב)", Weight::Regular, 10.0);
        assert_eq!(line.visual_text(), "(בבודמ) טרס");
    }

    #[test]
    fn price_reads_right_to_left() {
        // "45.00 ₪" in logical order is shown with the shekel sign on the left.
        let line = he().line("45.00 ₪", Weight::Regular, 10.0);
        assert_eq!(line.visual_text(), "₪ 45.00");
    }

    #[test]
    fn hebrew_and_digits_use_their_fonts() {
        let line = he().line("א1", Weight::Bold, 10.0);
        let faces: Vec<FaceId> = line.glyphs.iter().map(|g| g.face).collect();
        assert_eq!(faces, [FaceId::LatinBold, FaceId::HebrewBold]);
        assert!(line.glyphs.iter().all(|g| g.gid != 0 && g.advance > 0.0));
    }

    #[test]
    fn wrapping_keeps_lines_within_width_and_words_whole() {
        let text = "הכרטיס תקף להקרנה המצוינת בלבד. אין כניסה לאחר תחילת ההקרנה. ביטול עד 4 שעות לפני ההקרנה.";
        let lines = he().wrap(text, Weight::Regular, 9.0, 150.0);
        assert!(lines.len() > 2, "{} lines", lines.len());
        for line in &lines {
            assert!(line.width() <= 150.0, "{}", line.width());
        }
        // Reading each line right to left and joining them gives the words back.
        let read: Vec<String> = lines
            .iter()
            .map(|l| l.visual_text().chars().rev().collect())
            .collect();
        assert_eq!(read.join(" "), text);
    }

    #[test]
    fn fit_shrinks_then_cuts() {
        let ts = he();
        let long = "הדרך לעין גדי ".repeat(10);
        let line = ts.fit(&long, Weight::Bold, 20.0, 12.0, 200.0);
        assert!(line.width() <= 200.0);
        assert_eq!(line.size, 12.0);
        assert!(line.visual_text().starts_with('…'));
        let short = ts.fit("הדרך", Weight::Bold, 20.0, 12.0, 200.0);
        assert_eq!(short.size, 20.0);
    }
}
