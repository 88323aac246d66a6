//! The program at a terminal (a pty): waiting for what it writes and typing lines, each
//! failing with what it waited for or typed.

use std::process::Command as StdCommand;
use std::time::Duration;

use rexpect::session::{PtySession, spawn_command};

/// Starts `command` at a terminal; each wait fails after `patience`.
pub fn at_a_terminal(command: StdCommand, patience: Duration) -> PtySession {
    spawn_command(command, Some(patience.as_millis() as u64))
        .unwrap_or_else(|error| panic!("cannot start the program in a pty: {error}"))
}

/// Waits for `text` at the terminal; what came before it.
pub fn expect(terminal: &mut PtySession, text: &str) -> String {
    terminal
        .exp_string(text)
        .unwrap_or_else(|error| panic!("expected {text:?}: {error}"))
}

/// Waits for `pattern` (a regular expression) in the raw output.
pub fn expect_regex(terminal: &mut PtySession, pattern: &str) {
    if let Err(error) = terminal.exp_regex(pattern) {
        panic!("expected {pattern:?}: {error}");
    }
}

/// Types a line and Enter.
pub fn type_line(terminal: &mut PtySession, line: &str) {
    if let Err(error) = terminal.send_line(line) {
        panic!("cannot type {line:?}: {error}");
    }
}

/// Types `q` and waits for the program to end.
pub fn quit(terminal: &mut PtySession) {
    type_line(terminal, "q");
    if let Err(error) = terminal.exp_eof() {
        panic!("the program should end on q: {error}");
    }
}
