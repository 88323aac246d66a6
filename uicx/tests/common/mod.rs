//! What the command-line tests share: the real `hnefatafl` binary, started with an empty
//! temporary HOME, no display, no colour and none of the program's variables, so that no
//! test depends on the machine or the person that runs it; driving it at a terminal
//! ([`pty`]); and the recorded game the review tests go over ([`recorded`]).

// Each test file uses its own part of this module.
#![allow(dead_code)]

pub mod pty;
pub mod recorded;

use std::path::{Path, PathBuf};
use std::process::{Command as StdCommand, Output};
use std::time::Duration;

use assert_cmd::Command;
use tempfile::TempDir;

/// The variables the program reads, cleared so that the tests do not depend on the caller.
pub const VARIABLES: [&str; 4] = [
    "HNEFATAFL_LANG",
    "HNEFATAFL_PATH",
    "HNEFATAFL_RC",
    "HNEFATAFL_RULES",
];

/// The longest a single run may take: far more than any test needs, far less than a run
/// that hangs would.
pub const LIMIT: Duration = Duration::from_secs(120);

/// A fresh, empty HOME, removed when dropped.
pub fn home() -> TempDir {
    tempfile::tempdir().expect("temporary HOME")
}

/// The shipped data directory.
pub fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// The binary as a plain process, isolated from the caller's environment.
pub fn process(home: &Path) -> StdCommand {
    let mut command = StdCommand::new(env!("CARGO_BIN_EXE_hnefatafl"));
    command
        .env("HOME", home)
        .env_remove("DISPLAY")
        .env("NO_COLOR", "1");
    for name in VARIABLES {
        command.env_remove(name);
    }
    command
}

/// The binary for a run with its input given at once, stopped after [`LIMIT`].
pub fn program(home: &Path) -> Command {
    let mut command = Command::from_std(process(home));
    command.timeout(LIMIT);
    command
}

/// The program on some rules in English, with no rc file.
pub fn on_rules(home: &Path, rules: &str) -> Command {
    let mut command = program(home);
    command.args(["-C", "-l", "eng", "-r", rules]);
    command
}

/// The program on some rules in English, with no rc file and the shipped data directory
/// named (`-d`).
pub fn on_shipped(home: &Path, rules: &str) -> Command {
    let mut command = program(home);
    command
        .arg("-C")
        .arg("-d")
        .arg(data())
        .args(["-r", rules, "-l", "eng"]);
    command
}

/// Runs a command on `input` to its end.
pub fn output_of(command: &mut Command, input: impl Into<Vec<u8>>) -> Output {
    command.write_stdin(input).output().expect("runs")
}

/// Runs a command on `input`; checks that it ends well and gives its standard output.
pub fn stdout_of(command: &mut Command, input: &str) -> String {
    let output = output_of(command, input);
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8_lossy(&output.stdout).into_owned()
}

/// Writes a file of the test's own, making its folder first.
pub fn write(path: &Path, text: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().expect("a file in a folder")).expect("makes the folder");
    std::fs::write(path, text).expect("writes a test file");
}

/// The names of the entries of a folder, sorted.
pub fn file_names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("lists the folder")
        .map(|entry| {
            entry
                .expect("reads an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
