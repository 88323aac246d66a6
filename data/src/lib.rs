//! hnefatafl-data: the data that hnefatafl-rs ships (rule files, language files, themes,
//! the rc file, and whatever folder is added beside them), embedded in the program so it
//! works with nothing installed; the lookup of those files in the data directories; and
//! [`files`], the one place where files are opened safely.
//!
//! An embedder that only wants a shipped variant asks for it by name:
//!
//! ```
//! let text = hnefatafl_data::rules("copenhagen").expect("shipped");
//! assert!(hnefatafl_data::rule_names().contains(&"brandub"));
//! # assert!(!text.is_empty());
//! ```
//!
//! The interpreter and the server look files up with [`DataDirs`], which tries the user's
//! directories first and the embedded data last.

#![deny(missing_docs)]

pub mod files;
mod lookup;
#[cfg(feature = "xpm")]
pub mod xpm;

use include_dir::{Dir, include_dir};

pub use lookup::{DataDirs, Found, LookupError, Origin, SYSTEM_DIRS};

/// This crate's directory: the shipped data, every folder of it (a new one is carried
/// without a change here), and the crate's own files, which [`CRATE_FILES`] hides.
static EMBEDDED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR");

/// The crate's own files, which sit among the data but are none of it.
const CRATE_FILES: [&str; 3] = ["Cargo.toml", "build.rs", "src"];

/// Whether a relative path lies in the crate's own files rather than the data.
fn is_crate_file(relative: &str) -> bool {
    let first = relative.split('/').next().unwrap_or_default();
    CRATE_FILES.contains(&first)
}

/// The embedded file at `relative` (e.g. `rules/brandub`, `hnefataflrc`), if one is shipped.
pub fn embedded(relative: &str) -> Option<&'static [u8]> {
    if is_crate_file(relative) {
        return None;
    }
    EMBEDDED.get_file(relative).map(|file| file.contents())
}

/// The names of the embedded files directly under a folder (e.g. `rules`), sorted.
pub fn embedded_names(folder: &str) -> Vec<&'static str> {
    if is_crate_file(folder) {
        return Vec::new();
    }
    let mut names: Vec<&'static str> = EMBEDDED
        .get_dir(folder)
        .map(|dir| {
            dir.files()
                .filter_map(|file| file.path().file_name()?.to_str())
                .collect()
        })
        .unwrap_or_default();
    names.sort_unstable();
    names
}

/// The text of a shipped rule file by its name (`copenhagen`, `brandub` ...), as shipped,
/// whatever the data directories hold.
pub fn rules(name: &str) -> Option<&'static str> {
    if name.contains('/') {
        return None;
    }
    EMBEDDED
        .get_file(format!("rules/{name}"))
        .and_then(|file| file.contents_utf8())
}

/// Where the learned evaluation of a rule file lies in a data directory:
/// `networks/<name>.nnue`, by the rule file's name less any folders (`brandubh`, and
/// `~/tafl/rules/mine` gives `networks/mine.nnue`). The interpreter, the server and the
/// engine protocols look it up with [`DataDirs`], the embedded data last.
///
/// ```
/// assert_eq!(hnefatafl_data::network_file("brandubh"), "networks/brandubh.nnue");
/// assert_eq!(hnefatafl_data::network_file("rules/mine"), "networks/mine.nnue");
/// assert!(hnefatafl_data::embedded(&hnefatafl_data::network_file("copenhagen")).is_some());
/// ```
pub fn network_file(rules_name: &str) -> String {
    let name = std::path::Path::new(rules_name)
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or(rules_name);
    format!("networks/{name}.nnue")
}

/// The network of the rule file at `rules_path` in the data folder that holds it, for
/// tools that name a rule file by its path: [`network_file`] in the folder above the
/// rule file's (`data/rules/brandubh` gives `data/networks/brandubh.nnue`).
///
/// ```
/// use std::path::Path;
/// assert_eq!(
///     hnefatafl_data::network_beside(Path::new("data/rules/brandubh")),
///     Path::new("data/networks/brandubh.nnue")
/// );
/// ```
pub fn network_beside(rules_path: &std::path::Path) -> std::path::PathBuf {
    let name = rules_path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    let data = rules_path
        .parent()
        .and_then(std::path::Path::parent)
        .unwrap_or(std::path::Path::new("."));
    data.join(network_file(&name))
}

/// The names of the shipped rule files, sorted.
pub fn rule_names() -> Vec<&'static str> {
    embedded_names("rules")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_rules_are_given_by_name() {
        let names = rule_names();
        assert!(names.contains(&"copenhagen") && names.contains(&"tablut"));
        for name in names {
            let text = rules(name).expect("every listed name has its text");
            let id = format!("\nid\t{name}\n");
            assert!(text.contains(&id), "{name}'s text names its id");
        }
        assert_eq!(rules("none-such"), None);
        assert_eq!(rules("../Cargo.toml"), None);
    }

    #[test]
    fn the_crate_files_are_no_data() {
        assert!(embedded("hnefataflrc").is_some());
        assert!(embedded("lang/eng").is_some());
        assert_eq!(embedded("Cargo.toml"), None);
        assert_eq!(embedded("build.rs"), None);
        assert!(embedded("networks/brandubh.nnue").is_some());
        assert!(embedded("networks/tablut.nnue").is_some());
        assert!(embedded("networks/brandub.nnue").is_some());
        assert!(embedded("networks/halatafl.nnue").is_some());
        assert!(embedded("networks/copenhagen.nnue").is_some());
        assert!(embedded("networks/copenhagen13.nnue").is_some());
        assert!(embedded("networks/hnefatafl.nnue").is_some());
        assert_eq!(embedded("src/lib.rs"), None);
        assert!(embedded_names("src").is_empty());
    }
}
