//! Themes: XPM images for square and piece types, read through the program's data lookup.
//!
//! A theme is a directory `xlib/<name>/` holding `pNNN.xpm` (piece type with bit NNN) and
//! `sNNN.xpm` (square type with bit NNN). The list `xlib/themes` names the themes, one a
//! line; the first is the default. The theme `null` has no directory: it means the built-in
//! fallback graphics, which also stand in for any image that is missing or unreadable.

use std::collections::BTreeMap;

use image::RgbaImage;

/// The name of the theme that stands for the built-in fallback graphics.
pub const NULL_THEME: &str = "null";

// The decoding is the data crate's, shared with the server's web page.
pub use hnefatafl_data::xpm::{MAX_IMAGE_SIDE, decode as decode_xpm};

/// The images of one theme, by type bit. A bit without an image is drawn by the fallback.
#[derive(Clone, Debug, Default)]
pub struct Theme {
    /// The theme's name as listed in `xlib/themes` (`null` for the fallback graphics).
    pub name: String,
    /// Square images by square type bit (1, 2, 4 ... 128).
    pub squares: BTreeMap<u8, RgbaImage>,
    /// Piece images by piece type bit (1, 2, 4 ... 128).
    pub pieces: BTreeMap<u8, RgbaImage>,
}

impl Theme {
    /// The built-in fallback graphics: no images at all.
    pub fn fallback() -> Theme {
        Theme {
            name: NULL_THEME.to_owned(),
            ..Theme::default()
        }
    }

    /// The side of a square in the theme's own images, when it has any square image:
    /// pieces are scaled by the same factor as squares so that they keep their margin.
    pub fn native_square_side(&self) -> Option<u32> {
        self.squares
            .values()
            .map(|image| image.width().max(image.height()))
            .max()
    }
}

/// What [`load`] found: the theme, and one warning when something asked for could not be
/// used (an unknown theme, unreadable images). The caller shows the warning.
#[derive(Clone, Debug)]
pub struct LoadedTheme {
    /// The theme to draw with.
    pub theme: Theme,
    /// One line saying what fell back, if anything did.
    pub warning: Option<String>,
}

/// Reads the theme list and picks a theme: the one asked for when it is listed, else the
/// rule file's suggestion when it is listed (compared case-sensitively), else the first
/// listed; then reads its images. `read` is the program's data lookup (relative paths such
/// as `xlib/themes`). Never fails: whatever cannot be used falls back element by element.
pub fn load(
    read: &dyn Fn(&str) -> Option<Vec<u8>>,
    requested: Option<&str>,
    suggested: Option<&str>,
) -> LoadedTheme {
    let listed = read("xlib/themes")
        .map(|bytes| parse_theme_list(&bytes))
        .unwrap_or_default();
    let mut problems = Vec::new();
    let is_listed = |name: &str| listed.iter().any(|entry| entry == name);
    let mut unknown = None;

    let chosen = match requested {
        Some(name) if is_listed(name) || name == NULL_THEME => name.to_owned(),
        other => {
            unknown = other;
            match suggested {
                Some(name) if is_listed(name) => name.to_owned(),
                _ => listed
                    .first()
                    .cloned()
                    .unwrap_or_else(|| NULL_THEME.to_owned()),
            }
        }
    };

    let mut theme = Theme {
        name: chosen.clone(),
        ..Theme::default()
    };
    if chosen != NULL_THEME {
        let mut found_any = false;
        for shift in 0..8 {
            let bit = 1u8 << shift;
            for (prefix, images) in [("s", &mut theme.squares), ("p", &mut theme.pieces)] {
                let path = format!("xlib/{chosen}/{prefix}{bit:03}.xpm");
                let Some(bytes) = read(&path) else { continue };
                found_any = true;
                match decode_xpm(&bytes) {
                    Ok(image) => {
                        images.insert(bit, image);
                    }
                    Err(why) => problems.push(format!("{path}: {why}")),
                }
            }
        }
        if !found_any {
            problems.push(format!("theme \"{chosen}\" has no images"));
        }
    }

    let mut said = Vec::new();
    if let Some(name) = unknown {
        let mut names: Vec<&str> = listed.iter().map(String::as_str).collect();
        if !names.contains(&NULL_THEME) {
            names.push(NULL_THEME);
        }
        said.push(format!(
            "theme \"{name}\" does not exist; the themes are {}. Drawing with theme {}.",
            names.join(", "),
            theme.name
        ));
    }
    if !problems.is_empty() {
        said.push(format!(
            "theme {}: using fallback graphics where needed ({})",
            theme.name,
            problems.join("; ")
        ));
    }
    let warning = (!said.is_empty()).then(|| said.join(" "));
    LoadedTheme { theme, warning }
}

/// The theme names of an `xlib/themes` file: one a line, blank lines and surrounding
/// white space ignored.
pub fn parse_theme_list(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::fixtures::{own_images, samples};

    /// A data lookup where `xlib/themes` lists `own` (the project's test images) and the
    /// sample sets, and `xlib/<set>/` is the set's folder.
    fn sample_reader(relative: &str) -> Option<Vec<u8>> {
        if relative == "xlib/themes" {
            return Some(b"20\n30\n40\n50\nnull\nown\n".to_vec());
        }
        let rest = relative.strip_prefix("xlib/")?;
        if let Some(name) = rest.strip_prefix("own/") {
            return std::fs::read(own_images().join(name)).ok();
        }
        std::fs::read(samples()?.join(rest)).ok()
    }

    #[test]
    fn own_images_load_completely() {
        let loaded = load(&sample_reader, Some("own"), None);
        assert_eq!(loaded.warning, None);
        let theme = loaded.theme;
        assert_eq!(theme.squares.keys().copied().collect::<Vec<_>>(), [1, 2]);
        assert_eq!(theme.pieces.keys().copied().collect::<Vec<_>>(), [1, 2, 4]);
        assert_eq!(theme.native_square_side(), Some(24));
        // 16-bit colours keep their high byte; X colour names are looked up (sienna).
        assert_eq!(theme.squares[&1].get_pixel(0, 0).0, [0xCC, 0xA8, 0x74, 255]);
        assert_eq!(theme.squares[&1].get_pixel(1, 0).0, [0xD6, 0xB2, 0x7E, 255]);
        assert_eq!(theme.squares[&2].get_pixel(0, 0).0, [160, 82, 45, 255]);
        for (bit, image) in &theme.pieces {
            assert_eq!(image.dimensions(), (18, 18), "piece {bit}");
            assert_eq!(image.get_pixel(0, 0)[3], 0, "`None` is transparent");
            assert_eq!(image.get_pixel(9, 9)[3], 255, "the piece itself is opaque");
        }
        // Two characters a pixel: the king's gold mark in the middle.
        assert_eq!(theme.pieces[&1].get_pixel(9, 9).0, [0xDE, 0xB4, 0x28, 255]);
        // The attacker (with a hotspot in its header) is dark, the defender light.
        assert_eq!(theme.pieces[&4].get_pixel(9, 9).0, [0x2C, 0x28, 0x26, 255]);
        assert_eq!(theme.pieces[&2].get_pixel(9, 9).0, [0xF4, 0xEC, 0xD6, 255]);
    }

    #[test]
    fn every_sample_set_loads_completely() {
        if samples().is_none() {
            return;
        }
        for (set, side, piece, piece_bits) in [
            ("20", 20, 14, 3),
            ("30", 30, 22, 3),
            ("40", 40, 30, 5),
            ("50", 50, 38, 3),
        ] {
            let loaded = load(&sample_reader, Some(set), None);
            assert_eq!(loaded.warning, None, "set {set}");
            let theme = loaded.theme;
            assert_eq!(theme.name, set);
            assert_eq!(
                theme.squares.keys().copied().collect::<Vec<_>>(),
                [1, 2, 4, 8]
            );
            assert_eq!(theme.pieces.len(), piece_bits, "set {set}");
            assert_eq!(theme.native_square_side(), Some(side));
            for image in theme.squares.values() {
                assert_eq!(image.dimensions(), (side, side));
                assert!(
                    image.pixels().all(|pixel| pixel[3] == 255),
                    "squares are opaque"
                );
            }
            for image in theme.pieces.values() {
                assert_eq!(image.dimensions(), (piece, piece));
                assert_eq!(image.get_pixel(0, 0)[3], 0, "`None` is transparent");
                let opaque = image.pixels().filter(|pixel| pixel[3] == 255).count();
                assert!(
                    opaque * 3 > (piece * piece) as usize,
                    "the piece itself is opaque"
                );
            }
        }
    }

    #[test]
    fn sixteen_bit_colours_are_read() {
        let Some(samples) = samples() else { return };
        // 50/s001.xpm uses colours like #618565956185.
        let bytes = std::fs::read(samples.join("50/s001.xpm")).expect("sample");
        let image = decode_xpm(&bytes).expect("decodes");
        assert_eq!(image.get_pixel(0, 0).0, [0x61, 0x65, 0x61, 255]);
        assert_eq!(image.get_pixel(1, 1).0, [0x8E, 0x59, 0x00, 255]);
    }

    #[test]
    fn choice_follows_request_then_suggestion_then_first() {
        if samples().is_none() {
            return;
        }
        assert_eq!(
            load(&sample_reader, Some("40"), Some("30")).theme.name,
            "40"
        );
        assert_eq!(load(&sample_reader, None, Some("30")).theme.name, "30");
        assert_eq!(load(&sample_reader, None, Some("nosuch")).theme.name, "20");
        assert_eq!(load(&sample_reader, None, None).theme.name, "20");
        let unknown = load(&sample_reader, Some("nosuch"), Some("50"));
        assert_eq!(unknown.theme.name, "50");
        let warning = unknown.warning.expect("warned");
        assert_eq!(
            warning,
            "theme \"nosuch\" does not exist; the themes are 20, 30, 40, 50, null, own. \
             Drawing with theme 50."
        );
        let null = load(&sample_reader, Some("null"), None);
        assert_eq!(null.theme.name, "null");
        assert!(null.theme.squares.is_empty() && null.theme.pieces.is_empty());
        assert_eq!(null.warning, None);
        // The suggestion is case-sensitive.
        assert_eq!(load(&sample_reader, None, Some("NULL")).theme.name, "20");
    }

    #[test]
    fn no_theme_list_means_fallback_graphics() {
        let loaded = load(&|_| None, None, Some("wood"));
        assert_eq!(loaded.theme.name, NULL_THEME);
        assert_eq!(loaded.warning, None);
    }

    #[test]
    fn corrupt_images_fall_back_one_by_one_with_one_warning() {
        let reader = |relative: &str| -> Option<Vec<u8>> {
            match relative {
                "xlib/themes" => Some(b"broken\n".to_vec()),
                "xlib/broken/s001.xpm" => sample_reader("xlib/own/s001.xpm"),
                "xlib/broken/s002.xpm" => {
                    Some(b"/* XPM */ static char *x[] = {\"2 2 1 1\"".to_vec())
                }
                "xlib/broken/p001.xpm" => Some(b"\x00\xff garbage".to_vec()),
                "xlib/broken/p002.xpm" => {
                    Some(b"/* XPM */\nstatic char *x[] = {\n\"99999 99999 1 1\",\n".to_vec())
                }
                "xlib/broken/p004.xpm" => sample_reader("xlib/own/p004.xpm"),
                _ => None,
            }
        };
        let loaded = load(&reader, None, None);
        let theme = &loaded.theme;
        assert_eq!(theme.squares.keys().copied().collect::<Vec<_>>(), [1]);
        assert_eq!(theme.pieces.keys().copied().collect::<Vec<_>>(), [4]);
        let warning = loaded.warning.expect("one warning");
        assert_eq!(warning.lines().count(), 1);
        for bad in ["s002", "p001", "p002"] {
            assert!(warning.contains(bad), "{warning}");
        }
    }

    #[test]
    fn truncations_of_a_real_image_never_panic() {
        let bytes = std::fs::read(own_images().join("p001.xpm")).expect("test image");
        // Everything up to the closing `};` is missing in each cut.
        for end in (0..bytes.len().saturating_sub(3)).step_by(7) {
            let result = decode_xpm(&bytes[..end]);
            assert!(result.is_err(), "a cut at {end} cannot be a whole image");
        }
        assert!(decode_xpm(&bytes).is_ok());
    }
}
