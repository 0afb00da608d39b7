//! A picture made from an upload (decision 0069): a film's poster or a product's picture. A JPEG
//! or PNG of at most 5 MB, read within bounds (no side over 10 000 px, so a small file cannot
//! unpack into gigabytes), cut from its middle to the shape the storefront shows ([`Shape`]: 2:3
//! for a poster, a square for a product) and made in that shape's widths as JPEG. Anything that
//! is not such an image is refused by name (422 `formValidation`, the shape's field: `poster`,
//! `image`).

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult, ErrorCode};

/// What a kind of picture is cut to and made in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Width : height.
    pub aspect: (u32, u32),
    /// The widths the storefront shows it at, smallest first.
    pub widths: &'static [i64],
    /// The narrowest upload taken, once cut (a smaller one is refused, not blown up).
    pub min_width: i64,
    /// The form's field a refusal names.
    pub field: &'static str,
    /// What it is called in a refusal's message.
    pub name: &'static str,
}

impl Shape {
    /// The height at this width.
    pub fn height(&self, width: i64) -> i64 {
        width * i64::from(self.aspect.1) / i64::from(self.aspect.0)
    }
}

/// A film's poster: 2:3, a card at 1x and 2x (300, 600 px wide; the movie page takes 600).
pub const POSTER: Shape = Shape {
    aspect: (2, 3),
    widths: &POSTER_WIDTHS,
    min_width: 600,
    field: "poster",
    name: "a poster",
};
/// The widths the storefront shows a poster at.
pub const POSTER_WIDTHS: [i64; 2] = [300, 600];

/// A product's picture: a square, the products step's card at 1x and 2x (240, 480 px). An upload
/// of 240 px or more is taken: a concession's photo is often small, and 480 is only for 2x
/// screens.
pub const PRODUCT_PICTURE: Shape = Shape {
    aspect: (1, 1),
    widths: &PRODUCT_PICTURE_WIDTHS,
    min_width: 240,
    field: "image",
    name: "a product's picture",
};
/// The widths the storefront shows a product's picture at.
pub const PRODUCT_PICTURE_WIDTHS: [i64; 2] = [240, 480];

/// The largest upload taken.
pub const MAX_POSTER_BYTES: usize = 5 * 1024 * 1024;
/// Neither side of an upload may be longer (a decompression bomb is refused before it unpacks).
const MAX_SIDE: u32 = 10_000;
const JPEG_QUALITY: u8 = 85;

/// One size of a picture, as served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SizedImage {
    pub width: i64,
    pub height: i64,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A picture in every size of its shape, under the version that names this upload: a film's
/// poster (`owner_id` the film's) or a product's picture (the product's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    pub owner_id: i64,
    /// The first 16 hex digits of the upload's SHA-256: a new upload, a new address.
    pub version: String,
    pub images: Vec<SizedImage>,
    /// The upload's own size, for the audit.
    pub source_width: u32,
    pub source_height: u32,
}

/// The rules an upload can break, as the form shows them.
pub mod poster_rule {
    /// Not sent as `image/jpeg` or `image/png`.
    pub const TYPE: &str = "imageType";
    /// The bytes are not an image of the type sent (or cannot be read).
    pub const IMAGE: &str = "image";
    /// Smaller than the shape's narrowest once cut, or a side too long.
    pub const SIZE: &str = "imageSize";
}

fn refused(shape: &Shape, rule: &'static str, message: impl std::fmt::Display) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        message,
        serde_json::json!({ "fields": { shape.field: rule }, "maxBytes": MAX_POSTER_BYTES }),
    )
}

/// The image format a `Content-Type` names, when it is one a picture may be.
fn declared_format(content_type: &str) -> Option<ImageFormat> {
    let base = content_type.split(';').next().unwrap_or_default().trim();
    match base.to_ascii_lowercase().as_str() {
        "image/jpeg" | "image/jpg" => Some(ImageFormat::Jpeg),
        "image/png" => Some(ImageFormat::Png),
        _ => None,
    }
}

/// The middle of the image at the aspect `w : h`: (x, y, width, height).
pub fn crop_to(aspect: (u32, u32), width: u32, height: u32) -> (u32, u32, u32, u32) {
    let (aw, ah) = (u64::from(aspect.0), u64::from(aspect.1));
    // Taller than the aspect: keep the width, cut top and bottom; wider: keep the height.
    if u64::from(height) * aw >= u64::from(width) * ah {
        let h = (u64::from(width) * ah / aw) as u32;
        (0, (height - h) / 2, width, h)
    } else {
        let w = (u64::from(height) * aw / ah) as u32;
        ((width - w) / 2, 0, w, height)
    }
}

/// Reads an upload and makes the picture's sizes for its shape. CPU work: call it off the async
/// threads.
pub fn make_picture(
    shape: &Shape,
    owner_id: i64,
    content_type: &str,
    bytes: &[u8],
) -> AppResult<Picture> {
    if bytes.len() > MAX_POSTER_BYTES {
        return Err(AppError::rejected(
            ErrorCode::PayloadTooLarge,
            format!("{} is at most {MAX_POSTER_BYTES} bytes", shape.name),
        ));
    }
    let format = declared_format(content_type).ok_or_else(|| {
        refused(
            shape,
            poster_rule::TYPE,
            format!("{} is sent as image/jpeg or image/png", shape.name),
        )
    })?;
    if image::guess_format(bytes).ok() != Some(format) {
        return Err(refused(
            shape,
            poster_rule::IMAGE,
            "the upload is not a JPEG or PNG image of the type it was sent as",
        ));
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    reader.limits(limits);
    let image = reader.decode().map_err(|e| match e {
        image::ImageError::Limits(_) => refused(
            shape,
            poster_rule::SIZE,
            format!("neither side of {} may be over {MAX_SIDE} px", shape.name),
        ),
        _ => refused(shape, poster_rule::IMAGE, "the image could not be read"),
    })?;
    let (x, y, w, h) = crop_to(shape.aspect, image.width(), image.height());
    if i64::from(w) < shape.min_width {
        return Err(refused(
            shape,
            poster_rule::SIZE,
            format!(
                "{} is at least {} px wide and {} px high",
                shape.name,
                shape.min_width,
                shape.height(shape.min_width)
            ),
        ));
    }
    let middle = image.crop_imm(x, y, w, h);
    let images = shape
        .widths
        .iter()
        .map(|&width| encode(&middle, width, shape.height(width)))
        .collect::<AppResult<Vec<_>>>()?;
    let digest = Sha256::digest(bytes);
    let version: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Ok(Picture {
        owner_id,
        version,
        images,
        source_width: image.width(),
        source_height: image.height(),
    })
}

/// A film's poster from an upload.
pub fn make_poster(feature_id: i64, content_type: &str, bytes: &[u8]) -> AppResult<Picture> {
    make_picture(&POSTER, feature_id, content_type, bytes)
}

fn encode(middle: &DynamicImage, width: i64, height: i64) -> AppResult<SizedImage> {
    let sized = middle.resize_exact(width as u32, height as u32, FilterType::CatmullRom);
    let rgb = DynamicImage::ImageRgb8(sized.to_rgb8());
    let mut out = Vec::new();
    rgb.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
        .map_err(AppError::internal)?;
    Ok(SizedImage {
        width,
        height,
        content_type: "image/jpeg".to_owned(),
        bytes: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| {
            image::Rgb([(x % 256) as u8, (y % 256) as u8, 128])
        });
        let mut out = Vec::new();
        DynamicImage::ImageRgb8(img)
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .unwrap();
        out
    }

    fn rule_of(e: AppError) -> String {
        rule_in(e, "poster")
    }

    fn rule_in(e: AppError, field: &str) -> String {
        match e {
            AppError::Rejected { params, .. } => params.unwrap()["fields"][field]
                .as_str()
                .unwrap()
                .to_owned(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_middle_is_cut_to_two_by_three() {
        assert_eq!(crop_to((2, 3), 600, 900), (0, 0, 600, 900));
        assert_eq!(crop_to((2, 3), 1000, 900), (200, 0, 600, 900));
        assert_eq!(crop_to((2, 3), 600, 1000), (0, 50, 600, 900));
    }

    #[test]
    fn the_middle_is_cut_to_a_square() {
        assert_eq!(crop_to((1, 1), 300, 300), (0, 0, 300, 300));
        assert_eq!(crop_to((1, 1), 500, 300), (100, 0, 300, 300));
        assert_eq!(crop_to((1, 1), 300, 401), (0, 50, 300, 300));
    }

    #[test]
    fn a_products_picture_is_made_square_in_both_widths() {
        // 300 px once cut: over the narrowest taken, under the larger width (made larger).
        let picture = make_picture(&PRODUCT_PICTURE, 3, "image/png", &png(500, 300)).unwrap();
        assert_eq!(picture.owner_id, 3);
        let sizes: Vec<(u32, u32)> = picture
            .images
            .iter()
            .map(|i| {
                let back =
                    image::load_from_memory_with_format(&i.bytes, ImageFormat::Jpeg).unwrap();
                (back.width(), back.height())
            })
            .collect();
        assert_eq!(sizes, [(240, 240), (480, 480)]);
        let e = make_picture(&PRODUCT_PICTURE, 3, "image/png", &png(400, 239)).unwrap_err();
        assert_eq!(rule_in(e, "image"), poster_rule::SIZE);
        let e = make_picture(&PRODUCT_PICTURE, 3, "image/gif", b"GIF89a").unwrap_err();
        assert_eq!(rule_in(e, "image"), poster_rule::TYPE);
    }

    #[test]
    fn an_upload_is_made_in_every_width_as_jpeg() {
        let poster = make_poster(7, "image/png", &png(800, 1000)).unwrap();
        assert_eq!(poster.version.len(), 16);
        assert_eq!((poster.source_width, poster.source_height), (800, 1000));
        for (image, width) in poster.images.iter().zip(POSTER_WIDTHS) {
            let back =
                image::load_from_memory_with_format(&image.bytes, ImageFormat::Jpeg).unwrap();
            assert_eq!(
                (i64::from(back.width()), i64::from(back.height())),
                (width, width * 3 / 2)
            );
            assert_eq!((image.width, image.height), (width, width * 3 / 2));
        }
    }

    #[test]
    fn what_is_not_a_poster_is_refused_by_name() {
        let e = make_poster(7, "text/plain", b"hello").unwrap_err();
        assert_eq!(rule_of(e), poster_rule::TYPE);
        let e =
            make_poster(7, "image/png", b"<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap_err();
        assert_eq!(rule_of(e), poster_rule::IMAGE);
        // A PNG sent as a JPEG is not what it says it is.
        let e = make_poster(7, "image/jpeg", &png(600, 900)).unwrap_err();
        assert_eq!(rule_of(e), poster_rule::IMAGE);
        let e = make_poster(7, "image/png", &png(400, 600)).unwrap_err();
        assert_eq!(rule_of(e), poster_rule::SIZE);
        let mut cut = png(600, 900);
        cut.truncate(cut.len() / 2);
        assert_eq!(
            rule_of(make_poster(7, "image/png", &cut).unwrap_err()),
            poster_rule::IMAGE
        );
    }
}
