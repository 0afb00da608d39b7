//! The embedded fonts (SIL OFL 1.1, see `fonts/OFL.txt`) and the choice of font per character.
//!
//! Noto Sans Hebrew has Hebrew letters, points, `₪`, space and hyphen but no Latin letters and
//! no digits, so every other character falls back to a Latin subset of Noto Sans.

use std::sync::OnceLock;

use ttf_parser::Face;

use crate::DocumentError;

/// Stroke weight of a piece of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Weight {
    Regular,
    Bold,
}

/// One of the four embedded font files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum FaceId {
    HebrewRegular,
    HebrewBold,
    LatinRegular,
    LatinBold,
}

impl FaceId {
    pub(crate) const ALL: [FaceId; 4] = [
        FaceId::HebrewRegular,
        FaceId::HebrewBold,
        FaceId::LatinRegular,
        FaceId::LatinBold,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// The file's bytes, compiled into the binary.
    pub(crate) fn data(self) -> &'static [u8] {
        match self {
            FaceId::HebrewRegular => include_bytes!("../fonts/NotoSansHebrew-Regular.ttf"),
            FaceId::HebrewBold => include_bytes!("../fonts/NotoSansHebrew-Bold.ttf"),
            FaceId::LatinRegular => include_bytes!("../fonts/NotoSans-Regular-Latin.ttf"),
            FaceId::LatinBold => include_bytes!("../fonts/NotoSans-Bold-Latin.ttf"),
        }
    }

    /// PostScript name, for the PDF's `/BaseFont`.
    pub(crate) fn postscript_name(self) -> &'static str {
        match self {
            FaceId::HebrewRegular => "NotoSansHebrew-Regular",
            FaceId::HebrewBold => "NotoSansHebrew-Bold",
            FaceId::LatinRegular => "NotoSans-Regular",
            FaceId::LatinBold => "NotoSans-Bold",
        }
    }

    pub(crate) fn is_bold(self) -> bool {
        matches!(self, FaceId::HebrewBold | FaceId::LatinBold)
    }

    /// The parsed face.
    pub(crate) fn face(self) -> &'static Face<'static> {
        &faces()[self.index()]
    }
}

fn faces() -> &'static [Face<'static>; 4] {
    static FACES: OnceLock<[Face<'static>; 4]> = OnceLock::new();
    FACES.get_or_init(|| {
        FaceId::ALL.map(|id| {
            // The files are part of the crate and checked by `check_fonts` in the tests.
            Face::parse(id.data(), 0).expect("embedded font parses")
        })
    })
}

/// Parses every embedded font, so a broken font file is reported as an error, not a panic.
pub(crate) fn check_fonts() -> Result<(), DocumentError> {
    for id in FaceId::ALL {
        Face::parse(id.data(), 0)
            .map_err(|e| DocumentError::Font(id.postscript_name(), e.to_string()))?;
    }
    Ok(())
}

fn is_hebrew(c: char) -> bool {
    matches!(c, '\u{0590}'..='\u{05FF}' | '\u{FB1D}'..='\u{FB4F}')
}

/// The face and glyph that draw `c`: Hebrew letters from Noto Sans Hebrew, everything else
/// from Noto Sans when it has the character, then from Noto Sans Hebrew, else Noto Sans'
/// `.notdef` box.
pub(crate) fn glyph_for(c: char, weight: Weight) -> (FaceId, u16) {
    let (hebrew, latin) = match weight {
        Weight::Regular => (FaceId::HebrewRegular, FaceId::LatinRegular),
        Weight::Bold => (FaceId::HebrewBold, FaceId::LatinBold),
    };
    let order = if is_hebrew(c) {
        [hebrew, latin]
    } else {
        [latin, hebrew]
    };
    for id in order {
        if let Some(g) = id.face().glyph_index(c) {
            return (id, g.0);
        }
    }
    (latin, 0)
}

/// Horizontal advance of a glyph in 1/1000 em (both fonts have 1000 units per em).
pub(crate) fn advance(face: FaceId, gid: u16) -> f32 {
    let f = face.face();
    let units = f.glyph_hor_advance(ttf_parser::GlyphId(gid)).unwrap_or(0);
    f32::from(units) * 1000.0 / f32::from(f.units_per_em())
}
