//! Running a package's real programs from its tests: the match crate's and, by path,
//! the learning crate's.

// Each test crate that includes this module uses some of its helpers, not all.
#![allow(dead_code)]

use std::path::Path;

use assert_cmd::Command;

/// The path of a shipped rule file.
pub fn rules(name: &str) -> String {
    format!("{}/../data/rules/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Writes a file named `name` in `folder`: its path, as text.
pub fn write_file(folder: &Path, name: &str, text: impl AsRef<[u8]>) -> String {
    let path = folder.join(name);
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    path.display().to_string()
}

/// Runs one of this package's programs to its end: whether it succeeded, its standard
/// output and its standard error.
pub fn run(program: &str, args: &[&str]) -> (bool, String, String) {
    let output = Command::cargo_bin(program)
        .expect("the program is built")
        .args(args)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .expect("the program runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Asserts that a program's `text` holds each of `parts`, showing the whole text if not.
pub fn assert_holds(text: &str, parts: &[&str]) {
    for part in parts {
        assert!(text.contains(part), "`{part}` is not in:\n{text}");
    }
}
