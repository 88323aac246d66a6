//! Theme loading of the X interface: any bytes as an XPM image must give an image within
//! the size limit or an error (decoder panics are contained), and a theme made of such
//! images must load with at most one warning.

#![no_main]

use libfuzzer_sys::fuzz_target;
use uicx::x11::theme::{self, MAX_IMAGE_SIDE};

fuzz_target!(|bytes: &[u8]| {
    if let Ok(image) = theme::decode_xpm(bytes) {
        assert!(image.width() >= 1 && image.width() <= MAX_IMAGE_SIDE);
        assert!(image.height() >= 1 && image.height() <= MAX_IMAGE_SIDE);
    }
    let read = |relative: &str| match relative {
        "xlib/themes" => Some(b"fuzzed\n".to_vec()),
        "xlib/fuzzed/s001.xpm" | "xlib/fuzzed/p001.xpm" => Some(bytes.to_vec()),
        _ => None,
    };
    let loaded = theme::load(&read, None, None);
    assert_eq!(loaded.theme.name, "fuzzed");
    assert_eq!(loaded.theme.squares.len(), loaded.theme.pieces.len());
    if let Some(warning) = loaded.warning {
        assert_eq!(warning.lines().count().max(1), 1, "one warning line");
    }
});
