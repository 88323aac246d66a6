//! `w` and `e` with OpenTafl game records (`.otg`), through the real binary.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use tempfile::TempDir;

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// Runs the interpreter on `rules` in English with no rc file; returns stdout and stderr.
fn run(home: &Path, rules: &str, script: &str) -> (String, String) {
    let output = Command::cargo_bin("hnefatafl")
        .expect("built")
        .env("HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("DISPLAY")
        .env_remove("HNEFATAFL_RULES")
        .env_remove("HNEFATAFL_PATH")
        .env_remove("HNEFATAFL_LANG")
        .env_remove("HNEFATAFL_RC")
        .args(["-C", "-d"])
        .arg(data())
        .args(["-r", rules, "-l", "eng"])
        .timeout(std::time::Duration::from_secs(60))
        .write_stdin(script)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// The lines of the printed board: the column numbers and the numbered rows.
fn board(out: &str) -> Vec<String> {
    out.lines()
        .filter(|line| line.len() > 30)
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

#[test]
fn a_game_is_written_and_read_as_an_otg_record() {
    let home = TempDir::new().expect("temp dir");
    let path = home.path().join("game.otg");
    // Fetlar: the attacker f10 goes to c10, the defender f8 to f9.
    let (out, err) = run(
        home.path(),
        "hnefatafl",
        &format!("m f10 c10\nm f8 f9\nb\nw {}\n", path.display()),
    );
    assert!(err.is_empty(), "{err}");
    let record = std::fs::read_to_string(&path).expect("written");
    assert!(
        record.starts_with("[variant:Hnefatafl (Fetlar rules)]\n"),
        "{record}"
    );
    assert!(record.contains("\n[rules:dim:11 "), "{record}");
    // OTN counts ranks from the top: our f10 is its f2.
    assert!(record.ends_with("\n\n1. f2-c2 f4-f3\n"), "{record}");
    let board_before = board(&out);

    // A new game on other rules, then the record: back to Fetlar with both moves.
    let (out, err) = run(
        home.path(),
        "brandub",
        &format!("e {}\nb\n", path.display()),
    );
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("2 moves"), "{out}");
    assert_eq!(board_before.len(), 12, "{out}");
    assert_eq!(board(&out), board_before);
}

#[test]
fn otg_records_that_cannot_be_written_or_read_are_refused() {
    let home = TempDir::new().expect("temp dir");
    let path = home.path().join("brandub.otg");
    // Brandub's king is strong on the throne only: OTN cannot say it.
    let (_, err) = run(home.path(), "brandub", &format!("w {}\n", path.display()));
    assert!(
        err.contains("cannot write") && err.contains("`ks`"),
        "{err}"
    );
    assert!(!path.exists());

    let bad = home.path().join("bad.otg");
    std::fs::write(&bad, "[event:x]\n[rules:dim:7 start:/7/]\n").expect("writes");
    let (out, err) = run(home.path(), "brandub", &format!("e {}\nb\n", bad.display()));
    assert!(
        err.contains("saved game refused") && err.contains("line 2"),
        "{err}"
    );
    // The game stayed: brandub's 7x7 board.
    assert!(out.contains(" 7 "), "{out}");
}
