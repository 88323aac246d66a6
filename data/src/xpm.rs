//! The themes' XPM images decoded into RGBA (feature `xpm`), for every program that
//! shows them: the X window draws them, the server serves them to the web page as PNG.

use std::cell::Cell;
use std::io::Cursor;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use image::{DynamicImage, ImageDecoder, Limits, RgbaImage};
use image_extras::xpm::XpmDecoder;

/// The largest image side a theme may use, in pixels; larger images are refused before
/// any pixel is decoded.
pub const MAX_IMAGE_SIDE: u32 = 1024;

/// The most memory the decoder may take for one image.
const MAX_ALLOCATION: u64 = 64 * 1024 * 1024;

/// Decodes one XPM image into RGBA (the colour `None` becomes transparent).
///
/// # Errors
///
/// A readable reason when the bytes are not a usable XPM image: malformed, empty, larger
/// than [`MAX_IMAGE_SIDE`], or making the decoder panic (the decoder does not promise to
/// be panic-free on malformed input, so the panic is contained here, and not printed).
pub fn decode(bytes: &[u8]) -> Result<RgbaImage, String> {
    install_quiet_panic_hook();
    QUIET_PANICS.with(|quiet| quiet.set(true));
    let outcome = panic::catch_unwind(AssertUnwindSafe(|| decode_unguarded(bytes)));
    QUIET_PANICS.with(|quiet| quiet.set(false));
    match outcome {
        Ok(result) => result,
        Err(_) => Err("malformed XPM image".to_owned()),
    }
}

fn decode_unguarded(bytes: &[u8]) -> Result<RgbaImage, String> {
    let mut decoder = XpmDecoder::new(Cursor::new(bytes)).map_err(|error| error.to_string())?;
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    limits.max_alloc = Some(MAX_ALLOCATION);
    decoder
        .set_limits(limits)
        .map_err(|error| error.to_string())?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 {
        return Err("empty XPM image".to_owned());
    }
    let image = DynamicImage::from_decoder(decoder).map_err(|error| error.to_string())?;
    Ok(image.to_rgba8())
}

thread_local! {
    /// Set while this thread decodes an image, so that a contained decoder panic does not
    /// print a backtrace message on top of the one warning the user gets.
    static QUIET_PANICS: Cell<bool> = const { Cell::new(false) };
}

fn install_quiet_panic_hook() {
    static INSTALL: Once = Once::new();
    INSTALL.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if !QUIET_PANICS.with(Cell::get) {
                previous(info);
            }
        }));
    });
}
