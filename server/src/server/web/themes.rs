//! The X window's themes (`data/xlib/<theme>/pNNN.xpm`, the images of piece types by
//! bit), served to the page as PNG (`/theme/<theme>/pNNN.png`), since browsers do not
//! read XPM. Only the shipped, embedded themes are served, each image decoded once and
//! kept.

use std::collections::HashMap;
use std::io::Cursor;
use std::sync::{Mutex, OnceLock};

use image::{DynamicImage, ImageFormat};

/// The theme that stands for the built-in graphics: it has no images.
const NULL_THEME: &str = "null";

/// The shipped themes with images, in the order of `xlib/themes`.
pub(super) fn names() -> Vec<String> {
    let listed = hnefatafl_data::embedded("xlib/themes").unwrap_or_default();
    String::from_utf8_lossy(listed)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#') && *line != NULL_THEME)
        .map(str::to_owned)
        .collect()
}

/// A piece's image as PNG, by its path under `/theme/` (`wood/p004.png`): `None` for a
/// theme that is not shipped, a name that is not `pNNN.png` with NNN a type's bit (1 to
/// 128, three digits), or an image the theme lacks or that cannot be read.
pub(super) fn png(path: &str) -> Option<Vec<u8>> {
    let (theme, file) = path.split_once('/')?;
    let bit = file.strip_prefix('p')?.strip_suffix(".png")?;
    let valid = bit.len() == 3
        && bit.parse::<u8>().is_ok_and(u8::is_power_of_two)
        && names().iter().any(|name| name == theme);
    if !valid {
        return None;
    }
    static MADE: OnceLock<Mutex<HashMap<String, Option<Vec<u8>>>>> = OnceLock::new();
    let mut made = MADE
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    made.entry(path.to_owned())
        .or_insert_with(|| {
            let xpm = hnefatafl_data::embedded(&format!("xlib/{theme}/p{bit}.xpm"))?;
            converted(xpm).ok()
        })
        .clone()
}

/// An XPM image as PNG, its `None` colour transparent (decoded as the X window does).
fn converted(xpm: &[u8]) -> Result<Vec<u8>, String> {
    let decoded = DynamicImage::ImageRgba8(hnefatafl_data::xpm::decode(xpm)?);
    let mut png = Vec::new();
    decoded
        .write_to(&mut Cursor::new(&mut png), ImageFormat::Png)
        .map_err(|error| error.to_string())?;
    Ok(png)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_piece_image_becomes_a_png_of_its_size() {
        let themes = names();
        assert!(themes.iter().any(|name| name == "wood"), "{themes:?}");
        for theme in &themes {
            for shift in 0..8 {
                let bit = 1u8 << shift;
                let Some(xpm) = hnefatafl_data::embedded(&format!("xlib/{theme}/p{bit:03}.xpm"))
                else {
                    continue;
                };
                // The XPM's first string says its width and height.
                let text = String::from_utf8_lossy(xpm);
                let header = text.split('"').nth(1).expect("a header");
                let sides: Vec<u32> = header
                    .split_whitespace()
                    .take(2)
                    .map(|side| side.parse().expect("a side"))
                    .collect();
                let png = png(&format!("{theme}/p{bit:03}.png")).expect("converted");
                let read =
                    image::load_from_memory_with_format(&png, ImageFormat::Png).expect("a PNG");
                assert_eq!([read.width(), read.height()], sides[..], "{theme} {bit}");
            }
        }
    }

    #[test]
    fn only_shipped_piece_images_are_served() {
        for path in [
            "wood/p003.png",
            "wood/p4.png",
            "wood/p256.png",
            "wood/s001.png",
            "null/p001.png",
            "elsewhere/p001.png",
            "../p001.png",
            "wood/../wood/p001.png",
            "wood",
        ] {
            assert_eq!(png(path), None, "{path}");
        }
    }
}
