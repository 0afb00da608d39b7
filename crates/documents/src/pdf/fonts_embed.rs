//! The fonts a PDF embeds: which glyphs each page used, and each face written once as a subset.

use std::collections::BTreeMap;

use pdf_writer::types::{CidFontType, FontFlags, SystemInfo, UnicodeCmap};
use pdf_writer::{Filter, Finish, Name, Pdf, Rect, Ref, Str};

use crate::DocumentError;
use crate::fonts::{self, FaceId};

#[derive(Default)]
pub(super) struct FontUsage {
    pub(super) glyphs: BTreeMap<FaceId, BTreeMap<(u16, char), u16>>,
}

impl FontUsage {
    pub(super) fn cid(&mut self, face: FaceId, gid: u16, ch: char) -> u16 {
        let map = self.glyphs.entry(face).or_default();
        let next = map.len() as u16 + 1;
        *map.entry((gid, ch)).or_insert(next)
    }
}

pub(super) fn font_name(face: FaceId) -> Name<'static> {
    match face {
        FaceId::HebrewRegular => Name(b"F1"),
        FaceId::HebrewBold => Name(b"F2"),
        FaceId::LatinRegular => Name(b"F3"),
        FaceId::LatinBold => Name(b"F4"),
    }
}

pub(super) fn deflate(data: &[u8]) -> Vec<u8> {
    miniz_oxide::deflate::compress_to_vec_zlib(data, 6)
}

/// Writes one face as a Type 0 font (two-byte CIDs, Identity-H) with an embedded TrueType
/// subset (glyph ids kept), a CID-to-glyph map and a ToUnicode map.
pub(super) fn write_font(
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
pub(super) fn subset_tag(face: FaceId, gids: &[u16]) -> String {
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
