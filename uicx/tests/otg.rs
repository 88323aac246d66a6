//! `w` and `e` with OpenTafl game records (`.otg`), through the real binary.

use std::path::Path;

use tempfile::TempDir;

mod common;
use common::on_shipped;

/// Runs the interpreter on `rules` in English with no rc file; returns stdout and stderr.
fn run(home: &Path, rules: &str, script: &str) -> (String, String) {
    let output = on_shipped(home, rules)
        .write_stdin(script)
        .output()
        .expect("runs");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Loads a record on brandub and prints the board: stdout and stderr.
fn load_and_show(home: &Path, record: &Path) -> (String, String) {
    run(home, "brandub", &format!("e {}\nb\n", record.display()))
}

/// The lines of the printed board: the column numbers and the numbered rows.
fn board(out: &str) -> Vec<String> {
    out.lines()
        .filter(|line| line.len() > 30)
        .filter(|line| line.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .map(str::to_owned)
        .collect()
}

/// Fetlar as an OpenTafl rules string describes it.
const FETLAR_OTN: &str = "dim:11 name:Fetlar surf:n tfr:i corh:tT cenp:K \
    start:/3ttttt3/5t5/11/t4T4t/t3TTT3t/tt1TTKTT1tt/t3TTT3t/t4T4t/11/5t5/3ttttt3/";

#[test]
fn a_game_is_read_and_written_as_an_otg_record() {
    let home = TempDir::new().expect("temp dir");
    let first = home.path().join("first.otg");
    let second = home.path().join("second.otg");
    // OTN counts ranks from the top: its f2-c2 is our f10 c10, its f4-f3 our f8 f9.
    std::fs::write(
        &first,
        format!("[event:test]\n[rules:{FETLAR_OTN}]\n\n1. f2-c2 f4-f3\n"),
    )
    .expect("writes");
    let (out, err) = run(
        home.path(),
        "brandub",
        &format!(
            "e {}\nb\nm d11 d10\nw {}\n",
            first.display(),
            second.display()
        ),
    );
    assert!(err.is_empty(), "{err}");
    assert!(out.contains("2 moves"), "{out}");
    let rows = board(&out);
    assert_eq!(rows.len(), 12, "{out}");
    assert!(
        rows.iter().any(|r| r.starts_with(" 1 10  .  .  A")),
        "{rows:#?}"
    );
    assert!(
        rows.iter()
            .any(|r| r.starts_with(" 2  9  .  .  .  .  . [d]")),
        "{rows:#?}"
    );
    let record = std::fs::read_to_string(&second).expect("written");
    assert!(record.starts_with("[variant:Fetlar]\n"), "{record}");
    assert!(record.contains("\n[rules:dim:11 "), "{record}");
    // Our d11 d10 is OTN's d1-d2: its ranks count from the top.
    assert!(
        record.ends_with("\n\n1. f2-c2 f4-f3\n2. d1-d2\n"),
        "{record}"
    );
}

#[test]
fn otg_records_that_cannot_be_written_or_read_are_refused() {
    let home = TempDir::new().expect("temp dir");
    let path = home.path().join("petteia.otg");
    // Petteia has no king: OTN cannot describe it.
    let (_, err) = run(home.path(), "petteia", &format!("w {}\n", path.display()));
    assert!(
        err.contains("cannot write") && err.contains("`start`"),
        "{err}"
    );
    assert!(!path.exists());

    let bad = home.path().join("bad.otg");
    std::fs::write(&bad, "[event:x]\n[rules:dim:7 start:/7/]\n").expect("writes");
    let (out, err) = load_and_show(home.path(), &bad);
    assert!(
        err.contains("saved game refused") && err.contains("line 2"),
        "{err}"
    );
    // The game stayed: brandub's 7x7 board.
    assert!(out.contains(" 7 "), "{out}");
}

#[test]
fn a_shipped_file_otn_only_approaches_is_written_and_read_back_on_its_own_rules() {
    let home = TempDir::new().expect("temp dir");
    let path = home.path().join("brandub.otg");
    // Brandub forbids repeating a position: written as OTN's nearest, `tfr:l`.
    let (_, err) = run(
        home.path(),
        "brandub",
        &format!("m d7 c7\nw {}\n", path.display()),
    );
    assert!(err.is_empty(), "{err}");
    let record = std::fs::read_to_string(&path).expect("written");
    assert!(record.contains(" tfr:l "), "{record}");
    assert!(record.contains("\n1. d1-c1\n"), "{record}");
    // Read back in a brandub session: the move is replayed.
    let (back, err) = load_and_show(home.path(), &path);
    assert!(err.is_empty(), "{err}");
    assert!(back.contains(": 1 move."), "{back}");
    // The attacker moved from d7 to c7 (the top row, shown first).
    assert!(back.contains("\n 0  7  *  . [A][.] "), "{back}");
}

#[test]
fn a_record_whose_rules_the_language_only_approaches_is_read_on_the_nearest_rules() {
    let home = TempDir::new().expect("temp dir");
    let path = home.path().join("opentafl.otg");
    // As OpenTafl writes its records: the centre hostile to no one even when occupied
    // (`cenh:`), which the rule language cannot say; the record is played on the nearest.
    std::fs::write(
        &path,
        "[date:2026.12.01]\n[compiler:OpenTafl]\n\
         [rules:dim:7 name:Brandub_7 esc:c atkf:y ks:w cenh: cenhe: \
         start:/3t3/3t3/3T3/ttTKTtt/3T3/3t3/3t3/]\n\n1. d1-c1 d3-b3\n",
    )
    .expect("writes");
    let (out, err) = load_and_show(home.path(), &path);
    assert!(err.is_empty(), "{err}");
    assert!(out.contains(": 2 moves."), "{out}");
    // The defender moved from d5 to b5 (OTN d3-b3: ranks from the top).
    assert!(out.contains("\n 2  5  . [d] . [.] .  .  .\n"), "{out}");
}
