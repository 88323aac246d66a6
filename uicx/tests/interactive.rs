//! The program at a terminal (a pty): the prompt, the progress line, `f` during a
//! long search and a live analysis rewritten in place. Every wait is for text to appear, never a fixed time.

use rexpect::session::PtySession;
use std::path::Path;
use std::time::Duration;

mod common;
use common::process;
use common::pty::{at_a_terminal, expect, expect_regex, quit, type_line};

/// How long each wait at the terminal may take.
const PATIENCE: Duration = Duration::from_secs(60);

/// The program on brandub in English, with no rc file, an empty HOME and no colour.
fn start(home: &Path) -> PtySession {
    start_coloured(home, false)
}

/// The same, with `$NO_COLOR` unset when `colour`.
fn start_coloured(home: &Path, colour: bool) -> PtySession {
    let mut command = process(home);
    if colour {
        command.env_remove("NO_COLOR");
    }
    command.args(["-C", "-r", "brandub", "-l", "eng"]);
    at_a_terminal(command, PATIENCE)
}

/// The program on brandub in English, with no colour, at a terminal of type `term`.
fn start_on_terminal(home: &Path, term: &str) -> PtySession {
    let mut command = process(home);
    command.env("TERM", term);
    command.args(["-C", "-r", "brandub", "-l", "eng"]);
    at_a_terminal(command, PATIENCE)
}

#[test]
fn prompt_board_and_quit() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "Player 0 to move.");
    expect(&mut session, "> ");
    type_line(&mut session, "m 3 1 1 1");
    // At a terminal the board follows every move, the move marked.
    expect(&mut session, "[A]");
    expect(&mut session, "Player 1 to move.");
    expect(&mut session, "> ");
    quit(&mut session);
}

#[test]
fn f_makes_the_computer_move_now() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "> ");
    type_line(&mut session, "p 1 c t600");
    expect(&mut session, "Player 1: computer, 600 s a move");
    type_line(&mut session, "m 3 1 1 1");
    expect(&mut session, "Player 1 to move.");
    // The search runs: its progress line shows the depth, the time of its budget and
    // the best move so far.
    expect(&mut session, "Player 1 is thinking.");
    expect_regex(
        &mut session,
        r"Player 1 thinks: depth [1-9]\d*, [0-9.]+ s of 600\.0 s, best so far [a-g]\d-[a-g]\d",
    );
    // A command that only reads answers at once, while the search goes on.
    type_line(&mut session, "p");
    expect(&mut session, "Player 0: human.");
    type_line(&mut session, "f");
    // The search had ten minutes; the move comes at once.
    expect_regex(&mut session, r"m \d+ \d+ \d+ \d+");
    expect(&mut session, "Player 0 to move.");
    quit(&mut session);
}

#[test]
fn end_of_input_quits() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "> ");
    if let Err(error) = session.send_control('d') {
        panic!("cannot send EOF: {error}");
    }
    if let Err(error) = session.exp_eof() {
        panic!("the program should end at EOF: {error}");
    }
}

#[test]
fn colour_at_a_terminal_unless_no_color() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start_coloured(home.path(), true);
    expect(&mut session, "> ");
    type_line(&mut session, "b");
    expect(&mut session, "\x1b[33m");
    type_line(&mut session, "q");
    let mut plain = start(home.path());
    expect(&mut plain, "> ");
    type_line(&mut plain, "b");
    let before = expect(&mut plain, "Player 0 to move.");
    assert!(!before.contains('\x1b'), "{before:?}");
    type_line(&mut plain, "q");
}

#[test]
fn two_computers_at_a_terminal_play_at_a_pace_that_can_be_followed() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "> ");
    type_line(&mut session, "p 1 c d1");
    expect(&mut session, "Player 1: computer, depth 1");
    // A depth-1 search ends at once; the moves still come at the window's pace.
    type_line(&mut session, "p 0 c d1");
    let mut times = Vec::new();
    for _ in 0..4 {
        expect_regex(&mut session, r"m \d+ \d+ \d+ \d+ \(");
        times.push(std::time::Instant::now());
    }
    for pair in times.windows(2) {
        let gap = pair[1] - pair[0];
        assert!(gap >= std::time::Duration::from_millis(600), "{gap:?}");
    }
    quit(&mut session);
}

#[test]
fn a_live_analysis_stops_on_any_key_without_enter() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "> ");
    type_line(&mut session, "live j1");
    expect(&mut session, "depth 6  score ");
    // One key, no Enter: at a terminal it is read as it is pressed.
    if let Err(error) = session.send("k") {
        panic!("cannot press a key: {error}");
    }
    if let Err(error) = session.flush() {
        panic!("cannot press a key: {error}");
    }
    expect_regex(
        &mut session,
        r"Best move: m \d+ \d+ \d+ \d+ \([a-g]\d-[a-g]\d\)",
    );
    // The key was no command, and lines are read again: `s` with Enter answers.
    expect(&mut session, "> ");
    type_line(&mut session, "s");
    expect(&mut session, "No analysis is running.");
    quit(&mut session);
}

#[test]
fn a_live_analysis_rewrites_its_lines_in_place() {
    let home = tempfile::tempdir().expect("HOME");
    // No colour (`NO_COLOR` is set): moving the cursor is not colour.
    let mut session = start_on_terminal(home.path(), "xterm");
    expect(&mut session, "> ");
    type_line(&mut session, "live d3 j1 lines=2");
    expect(&mut session, "depth 1  score ");
    // Each new depth goes back up over the lines before it (cursor up, erase to the
    // end of the screen) and writes the block again.
    expect_regex(&mut session, r"\r\x1b\[\d+A\x1b\[Jdepth 2  score ");
    expect_regex(&mut session, r"\r\x1b\[\d+A\x1b\[Jdepth 3  score ");
    // The second line's depths come below the first line's deepest, in one block.
    expect_regex(
        &mut session,
        r"\r\x1b\[\d+A\x1b\[Jdepth 3  score [^\r\n]*\r\nline 2  depth 1  score ",
    );
    // The result is written once, below the last block.
    expect_regex(
        &mut session,
        r"\r\x1b\[\d+A\x1b\[Jdepth 3  score [^\r\n]*\r\nline 2  depth 3  score [^\r\n]*\r\nBest move: m ",
    );
    expect(&mut session, "> ");
    quit(&mut session);
}

#[test]
fn a_live_analysis_on_a_dumb_terminal_prints_one_line_a_depth() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start_on_terminal(home.path(), "dumb");
    expect(&mut session, "> ");
    type_line(&mut session, "live d3 j1");
    expect_regex(
        &mut session,
        r"depth 1  score [^\r\n\x1b]*\r\ndepth 2  score [^\r\n\x1b]*\r\ndepth 3  score [^\r\n\x1b]*\r\nBest move: m ",
    );
    expect(&mut session, "> ");
    quit(&mut session);
}

#[test]
fn a_live_analysis_deepens_until_s_stops_it() {
    let home = tempfile::tempdir().expect("HOME");
    let mut session = start(home.path());
    expect(&mut session, "> ");
    type_line(&mut session, "live j1");
    // No limit bounds it: it goes on past the depths a level would stop at.
    expect(&mut session, "depth 1  score ");
    expect(&mut session, "depth 6  score ");
    type_line(&mut session, "s");
    expect_regex(
        &mut session,
        r"Best move: m \d+ \d+ \d+ \d+ \([a-g]\d-[a-g]\d\) \(score [^,]+, attackers \d+%\)",
    );
    // Nothing runs any more: a second s says so.
    type_line(&mut session, "s");
    expect(&mut session, "No analysis is running.");
    quit(&mut session);
}
