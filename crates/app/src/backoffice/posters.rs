//! A film's poster made from an upload (decision 0069): a JPEG or PNG of at most 5 MB, read
//! within bounds (no side over 10 000 px, so a small file cannot unpack into gigabytes), cut to
//! the storefront's 2:3 from its middle, and made in the widths the storefront shows as JPEG.
//! Anything that is not such an image is refused by name (422 `formValidation`, field `poster`).

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageFormat, ImageReader, Limits};
use sha2::{Digest, Sha256};

use crate::error::{AppError, AppResult, ErrorCode};

/// The widths the storefront shows a poster at (a card at 1x and 2x; the movie page).
pub const POSTER_WIDTHS: [i64; 2] = [300, 600];
/// The largest upload taken.
pub const MAX_POSTER_BYTES: usize = 5 * 1024 * 1024;
/// Neither side of an upload may be longer (a decompression bomb is refused before it unpacks).
const MAX_SIDE: u32 = 10_000;
const JPEG_QUALITY: u8 = 85;

/// One size of a poster, as served.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PosterImage {
    pub width: i64,
    pub height: i64,
    pub content_type: String,
    pub bytes: Vec<u8>,
}

/// A film's poster in every size, under the version that names this upload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poster {
    pub feature_id: i64,
    /// The first 16 hex digits of the upload's SHA-256: a new upload, a new address.
    pub version: String,
    pub images: Vec<PosterImage>,
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
    /// Smaller than the largest size the storefront shows once cut to 2:3, or a side too long.
    pub const SIZE: &str = "imageSize";
}

fn refused(rule: &'static str, message: impl std::fmt::Display) -> AppError {
    AppError::rejected_with(
        ErrorCode::FormValidation,
        message,
        serde_json::json!({ "fields": { "poster": rule }, "maxBytes": MAX_POSTER_BYTES }),
    )
}

/// The image format a `Content-Type` names, when it is one a poster may be.
fn declared_format(content_type: &str) -> Option<ImageFormat> {
    let base = content_type.split(';').next().unwrap_or_default().trim();
    match base.to_ascii_lowercase().as_str() {
        "image/jpeg" | "image/jpg" => Some(ImageFormat::Jpeg),
        "image/png" => Some(ImageFormat::Png),
        _ => None,
    }
}

/// The middle of the image at the storefront's 2:3 (width : height): (x, y, width, height).
pub fn crop_to_poster(width: u32, height: u32) -> (u32, u32, u32, u32) {
    // Taller than 2:3: keep the width, cut top and bottom; wider: keep the height.
    if u64::from(height) * 2 >= u64::from(width) * 3 {
        let h = (u64::from(width) * 3 / 2) as u32;
        (0, (height - h) / 2, width, h)
    } else {
        let w = (u64::from(height) * 2 / 3) as u32;
        ((width - w) / 2, 0, w, height)
    }
}

/// Reads an upload and makes the poster's sizes. CPU work: call it off the async threads.
pub fn make_poster(feature_id: i64, content_type: &str, bytes: &[u8]) -> AppResult<Poster> {
    if bytes.len() > MAX_POSTER_BYTES {
        return Err(AppError::rejected(
            ErrorCode::PayloadTooLarge,
            format!("a poster is at most {MAX_POSTER_BYTES} bytes"),
        ));
    }
    let format = declared_format(content_type).ok_or_else(|| {
        refused(
            poster_rule::TYPE,
            "a poster is sent as image/jpeg or image/png",
        )
    })?;
    if image::guess_format(bytes).ok() != Some(format) {
        return Err(refused(
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
            poster_rule::SIZE,
            format!("neither side of a poster may be over {MAX_SIDE} px"),
        ),
        _ => refused(poster_rule::IMAGE, "the image could not be read"),
    })?;
    let (x, y, w, h) = crop_to_poster(image.width(), image.height());
    let largest = POSTER_WIDTHS.iter().copied().max().unwrap_or(0);
    if i64::from(w) < largest {
        return Err(refused(
            poster_rule::SIZE,
            format!(
                "a poster is at least {largest} px wide and {} px high",
                largest * 3 / 2
            ),
        ));
    }
    let middle = image.crop_imm(x, y, w, h);
    let images = POSTER_WIDTHS
        .iter()
        .map(|&width| encode(&middle, width))
        .collect::<AppResult<Vec<_>>>()?;
    let digest = Sha256::digest(bytes);
    let version: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Ok(Poster {
        feature_id,
        version,
        images,
        source_width: image.width(),
        source_height: image.height(),
    })
}

fn encode(middle: &DynamicImage, width: i64) -> AppResult<PosterImage> {
    let height = width * 3 / 2;
    let sized = middle.resize_exact(width as u32, height as u32, FilterType::CatmullRom);
    let rgb = DynamicImage::ImageRgb8(sized.to_rgb8());
    let mut out = Vec::new();
    rgb.write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
        .map_err(AppError::internal)?;
    Ok(PosterImage {
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
        match e {
            AppError::Rejected { params, .. } => params.unwrap()["fields"]["poster"]
                .as_str()
                .unwrap()
                .to_owned(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn the_middle_is_cut_to_two_by_three() {
        assert_eq!(crop_to_poster(600, 900), (0, 0, 600, 900));
        assert_eq!(crop_to_poster(1000, 900), (200, 0, 600, 900));
        assert_eq!(crop_to_poster(600, 1000), (0, 50, 600, 900));
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
