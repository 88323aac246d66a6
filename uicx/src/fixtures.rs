//! What the unit tests read from the checkout: the shipped rule files and the image sets.

use std::path::PathBuf;

use hnefatafl_core::Rules;

/// A shipped rule file (`data/rules/<name>`), read and parsed.
pub(crate) fn shipped_rules(name: &str) -> Rules {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../data/rules")
        .join(name);
    Rules::parse(&std::fs::read(path).expect("rule file")).expect("valid rules")
}

/// The original program's image sets beside the checkout, when they are there: the
/// tests that read them say so and check nothing else when they are absent.
pub(crate) fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/xpm-samples");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "note: {} is absent: the original program's image sets are not checked",
            dir.display()
        );
        None
    }
}

/// The project's own test images (`tests/xpm/`, made by `tools/themes/make_test_images.py`).
pub(crate) fn own_images() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/xpm")
}
