//! The first example of core's and aim's READMEs, built and run as written in a new
//! project: the README's own `[dependencies]` (paths to a checkout of hnefatafl-rs) in a
//! fresh `Cargo.toml`, its first Rust block as `main`, `cargo run --offline`. The
//! doctests run the same code, but inside the workspace, where a path such as
//! `include_str!("../../data/rules/brandub")` resolves; a new project has no such file.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The workspace root.
fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("core sits in the workspace")
        .to_path_buf()
}

/// The first fenced block of a language in a README, without its fences.
fn first_block(readme: &str, language: &str) -> String {
    let fence = format!("```{language}\n");
    let start = readme
        .find(&fence)
        .unwrap_or_else(|| panic!("no {language} block"))
        + fence.len();
    let length = readme[start..].find("```").expect("a closing fence");
    readme[start..start + length].to_owned()
}

/// A README's first Rust block as the body of `main`, as rustdoc makes it: hidden lines
/// (`# ...`) shown, and `main` returning the error type of the closing
/// `Ok::<(), E>(())`.
fn main_of(block: &str) -> String {
    let lines: Vec<&str> = block
        .lines()
        .map(|line| match line.strip_prefix('#') {
            Some(rest) if rest.is_empty() || rest.starts_with(' ') => rest.trim_start(),
            _ => line,
        })
        .collect();
    let last = lines.last().expect("a non-empty example").trim();
    let error = last
        .strip_prefix("Ok::<(), ")
        .and_then(|rest| rest.strip_suffix(">(())"))
        .unwrap_or_else(|| panic!("the example ends in `Ok::<(), E>(())`, not `{last}`"));
    format!(
        "fn main() -> Result<(), {error}> {{\n{}\n}}\n",
        lines.join("\n")
    )
}

/// Writes a new project for a README beside a link named `hnefatafl-rs` to the workspace
/// (the README's paths are `../hnefatafl-rs/...`), builds and runs it; returns its
/// standard output.
fn run_first_example(readme: &Path, root: &Path) -> String {
    let text = std::fs::read_to_string(readme).expect("the README");
    let project = root.join("project");
    std::fs::create_dir_all(project.join("src")).expect("the project's folder");
    let manifest = format!(
        "[package]\nname = \"readme-example\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n{}",
        first_block(&text, "toml")
    );
    std::fs::write(project.join("Cargo.toml"), manifest).expect("Cargo.toml written");
    std::fs::write(
        project.join("src/main.rs"),
        main_of(&first_block(&text, "rust")),
    )
    .expect("main.rs written");
    // The workspace's versions of every dependency: nothing to fetch.
    std::fs::copy(workspace().join("Cargo.lock"), project.join("Cargo.lock"))
        .expect("Cargo.lock copied");
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    // One target folder for every run, so that the crates are built once.
    let target = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-projects");
    let output = Command::new(cargo)
        .args(["run", "--offline", "--quiet"])
        .current_dir(&project)
        .env("CARGO_TARGET_DIR", target)
        .output()
        .expect("cargo runs");
    assert!(
        output.status.success(),
        "{}: the first example does not build and run in a new project:\n{}",
        readme.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn the_first_examples_of_core_and_aim_build_and_run_in_a_new_project() {
    // Outside the workspace, as a new project is: a folder of its own in the system's
    // temporary folder.
    let root = std::env::temp_dir().join(format!("hnefatafl-readmes-{}", std::process::id()));
    std::fs::create_dir_all(&root).expect("a folder for the project");
    std::os::unix::fs::symlink(workspace(), root.join("hnefatafl-rs"))
        .expect("a link to the workspace");
    // core's example plays d11-d9 on Copenhagen's board and prints it.
    let board = run_first_example(&workspace().join("core/README.md"), &root);
    assert!(
        board.contains(" a  b  c  d  e  f  g  h  i  j  k"),
        "{board}"
    );
    assert_eq!(board.lines().count(), 13, "{board}");
    std::fs::remove_dir_all(root.join("project")).expect("the project removed");
    // aim's example prints a move of the start position in algebraic notation.
    let out = run_first_example(&workspace().join("aim/README.md"), &root);
    let squares: Vec<&str> = out.split_whitespace().collect();
    assert_eq!(squares.len(), 2, "{out}");
    assert!(
        squares.iter().all(|square| {
            square.len() >= 2
                && square.as_bytes()[0].is_ascii_lowercase()
                && square[1..].parse::<u8>().is_ok()
        }),
        "{out}"
    );
    std::fs::remove_dir_all(&root).expect("the projects removed");
}
