//! `hnefatafl --check [-w] [FILE...]`, the rule-file checker: the real binary on files
//! and on standard input, one test per warning, and every shipped file clean.

use assert_cmd::Command;

mod common;
use common::{data, file_names};

/// A small valid file: a king who escapes to the corners, defenders and attackers who
/// capture each other; no repetition or draw rule unless `extra` adds one. Line 14 is
/// `piece bit 2`; `extra` starts on line 28.
fn text(extra: &str) -> String {
    format!(
        "id small\nname Small\nwidth 5\nheight 5\n\
         pieces 0 4 0 4 0  4 0 2 0 4  0 2 1 2 0  4 0 2 0 4  0 4 0 4 0\n\
         squares 2 1 1 1 2  1 1 1 1 1  1 1 1 1 1  1 1 1 1 1  2 1 1 1 2\n\
         piece bit 1\npiece 1 owner 1\npiece 1 captures 4\npiece 1 custodial\n\
         piece 1 capt_loss\npiece 1 escape\npiece 1 occupies 3\n\
         piece bit 2\npiece 2 owner 1\npiece 2 captures 4\npiece 2 custodial\npiece 2 occupies 1\n\
         piece bit 4\npiece 4 owner 0\npiece 4 captures 3\npiece 4 custodial\npiece 4 occupies 1\n\
         square bit 1\nsquare bit 2\nsquare 2 escape\nsquare 2 captures 7\n{extra}"
    )
}

/// The exit status and standard error of `hnefatafl --check ARGS`.
fn check(args: &[&str], stdin: &str) -> (i32, String) {
    let (status, _, stderr) = check_all(args, stdin);
    (status, stderr)
}

/// The exit status, standard output and standard error of `hnefatafl --check ARGS`.
fn check_all(args: &[&str], stdin: &str) -> (i32, String, String) {
    let output = Command::cargo_bin("hnefatafl")
        .expect("the binary is built")
        .arg("--check")
        .args(args)
        .write_stdin(stdin)
        .output()
        .expect("the checker runs");
    let status = output.status.code().expect("an exit status");
    let text = |bytes: &[u8]| String::from_utf8_lossy(bytes).into_owned();
    (status, text(&output.stdout), text(&output.stderr))
}

/// The warnings of `-w` on standard input.
fn warnings(text: &str) -> String {
    let (status, stderr) = check(&["-w"], text);
    assert_eq!(status, 0, "warnings are no errors: {stderr}");
    stderr
}

#[test]
fn a_clean_file_is_said_to_be_good() {
    assert_eq!(
        check_all(&["-w"], &text("forbid_repeat\n")),
        (
            0,
            "<stdin>: good: no errors, no warnings\n".to_owned(),
            String::new()
        )
    );
    assert_eq!(
        check_all(&[], &text("")),
        (0, "<stdin>: good: no errors\n".to_owned(), String::new())
    );
    // Warnings are counted, and a file with errors is not said to be good.
    let (_, stdout, _) = check_all(&["-w"], &text(""));
    assert_eq!(stdout, "<stdin>: no errors, 1 warning\n");
    let (status, stdout, _) = check_all(&[], "id x\nwidth 99\n");
    assert_eq!((status, stdout.as_str()), (1, ""));
}

#[test]
fn errors_name_the_file_line_and_class_and_fail() {
    let (status, stderr) = check(&[], "id x\nwidth 99\n");
    assert_eq!(status, 1);
    assert_eq!(
        stderr,
        "<stdin>:2: RREAD: `width` takes a number from 1 to 31, not `99`\n"
    );
    let dir = tempfile::tempdir().expect("a temporary directory");
    let bad = dir.path().join("bad");
    std::fs::write(&bad, text("piece 2 noreturn 2\n")).expect("written");
    let good = dir.path().join("good");
    std::fs::write(&good, text("forbid_repeat\n")).expect("written");
    let names = [good.to_str().expect("utf-8"), bad.to_str().expect("utf-8")];
    let (status, stderr) = check(&names, "");
    assert_eq!(status, 1, "{stderr}");
    let expected = format!("{}:", bad.display());
    assert!(stderr.starts_with(&expected), "{stderr}");
    assert!(stderr.contains(": RVALID: noreturn"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_file_that_cannot_be_read_is_an_error() {
    let (status, stderr) = check(&["/nonexistent/rules"], "");
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("/nonexistent/rules: cannot read:"),
        "{stderr}"
    );
}

#[test]
fn warns_of_a_game_that_may_never_end() {
    assert_eq!(
        warnings(&text("")),
        "<stdin>:1: warning: a game may never end: no `forbid_repeat`, `repetition` or `draw_plies`\n"
    );
    assert_eq!(warnings(&text("draw_plies 100\n")), "");
    assert_eq!(warnings(&text("repetition 3\n")), "");
}

#[test]
fn warns_of_a_piece_type_nothing_can_capture() {
    let file = text("forbid_repeat\n").replace("piece 4 captures 3", "piece 4 captures 1");
    let out = warnings(&file);
    assert!(
        out.contains("<stdin>:14: warning: piece type 2 can never be captured"),
        "{out}"
    );
}

#[test]
fn warns_of_an_escape_square_no_escape_piece_can_reach() {
    let file = text("forbid_repeat\n").replace("piece 1 occupies 3", "piece 1 occupies 1");
    // The king may no longer stand on the corners, the escape squares.
    let out = warnings(&file);
    assert!(
        out.contains(": warning: escape square type 2 can never be reached"),
        "{out}"
    );
}

#[test]
fn warns_of_a_player_who_cannot_win() {
    let file = text("forbid_repeat\n").replace("piece 4 captures 3", "piece 4 captures 2");
    let out = warnings(&file);
    assert!(out.contains("warning: player 0 cannot win"), "{out}");
    assert!(!out.contains("player 1 cannot win"), "{out}");
}

#[test]
fn warns_of_noreturn_squares_no_piece_starts_on() {
    let file = text("forbid_repeat\npiece 1 noreturn 2\n");
    let out = warnings(&file);
    assert!(
        out.contains("<stdin>:29: warning: piece type 1 has `noreturn` squares but starts on none"),
        "{out}"
    );
}

#[test]
fn warns_of_ui_bit_naming_an_undeclared_type() {
    let file = text("forbid_repeat\npiece 2 ui_bit 64\nsquare 2 ui_bit 8\n");
    let out = warnings(&file);
    assert!(
        out.contains("<stdin>:29: warning: piece type 2 has `ui_bit 64`, an undeclared piece type"),
        "{out}"
    );
    assert!(
        out.contains(
            "<stdin>:30: warning: square type 2 has `ui_bit 8`, an undeclared square type"
        ),
        "{out}"
    );
}

#[test]
fn warns_of_a_start_position_less_symmetric_than_the_squares() {
    // One attacker moved from 3 0 to 2 0: the squares are still symmetric.
    let file = text("forbid_repeat\n").replace("pieces 0 4 0 4 0", "pieces 0 4 4 0 0");
    let out = warnings(&file);
    assert!(
        out.contains("<stdin>:5: warning: the squares are symmetric left to right, but the start position is not"),
        "{out}"
    );
}

#[test]
fn every_shipped_file_passes_without_a_warning() {
    let dir = data().join("rules");
    let names: Vec<String> = file_names(&dir)
        .iter()
        .map(|name| dir.join(name).display().to_string())
        .collect();
    assert!(names.len() >= 11, "{names:?}");
    let mut args = vec!["-w"];
    args.extend(names.iter().map(String::as_str));
    assert_eq!(check(&args, ""), (0, String::new()));
}

#[test]
fn every_error_of_a_file_is_reported_in_line_order() {
    // Lines 28 to 31: an unknown keyword, an unterminated quote, a rule in the wrong
    // place, and a good rule between them.
    let file = text("bogus 1\nname \"unclosed\nforbid_repeat\nwidth 9\n");
    let (status, stderr) = check(&[], &file);
    assert_eq!(status, 1);
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 3, "{stderr}");
    assert!(lines[0].starts_with("<stdin>:28: RREAD: "), "{stderr}");
    assert!(lines[0].contains("bogus"), "{stderr}");
    assert!(lines[1].starts_with("<stdin>:29: RREAD: "), "{stderr}");
    assert!(lines[2].starts_with("<stdin>:31: RREAD: "), "{stderr}");
    assert!(lines[2].contains("width"), "{stderr}");
}

#[test]
fn shipped_rule_files_are_found_by_name() {
    let (status, stdout, stderr) = check_all(&["-w", "brandub", "halatafl"], "");
    assert_eq!((status, stderr.as_str()), (0, ""));
    let good: Vec<&str> = stdout.lines().collect();
    assert_eq!(good.len(), 2, "{stdout}");
    for (line, name) in good.iter().zip(["brandub", "halatafl"]) {
        assert!(line.contains(name), "{stdout}");
        assert!(line.ends_with(": good: no errors, no warnings"), "{stdout}");
    }
    // A name that is neither a file nor a rule file.
    let (status, stderr) = check(&["no_such_rules"], "");
    assert_eq!(status, 1);
    assert!(
        stderr.starts_with("no_such_rules: cannot read:"),
        "{stderr}"
    );
}

#[test]
fn every_missing_rule_is_reported_not_only_the_first() {
    let (status, stderr) = check(&[], "id x\n");
    assert_eq!(status, 1);
    let expected: String = ["name", "width", "height", "pieces", "squares"]
        .iter()
        .map(|rule| format!("<stdin>: RVALID: {rule}: `{rule}` is missing\n"))
        .collect();
    assert_eq!(stderr, expected);
}

#[test]
fn every_invalid_rule_is_reported_with_its_line() {
    // Piece type 2 is custodial with one side, piece type 4 has `exit_fort` without
    // `escape`, and square type 2 captures with `capt_sides` but names no piece that may
    // stand on it (its line is the type's declaration): two piece types and a square
    // type broken at once.
    let file = text("forbid_repeat\n").replace("piece 2 custodial\n", "")
        + "piece 2 capt_sides 1\npiece 2 custodial\npiece 4 exit_fort\nsquare 2 capt_sides 2\n";
    let lines: Vec<&str> = file.lines().collect();
    let line_of = |wanted: &str| {
        1 + lines
            .iter()
            .position(|line| *line == wanted)
            .unwrap_or_else(|| panic!("{wanted} in\n{file}"))
    };
    let (status, stderr) = check(&[], &file);
    assert_eq!(status, 1, "{stderr}");
    // In the order of the lines: the square type is declared before the rules added.
    let expected = [
        format!(
            "<stdin>:{}: RVALID: capt_sides_pieces: square type 2 has `capt_sides` but `capt_sides_pieces` names no piece that may stand on it",
            line_of("square bit 2")
        ),
        format!(
            "<stdin>:{}: RVALID: custodial: piece type 2 is custodial, which needs `capt_sides` of 2 or more",
            line_of("piece 2 custodial")
        ),
        format!(
            "<stdin>:{}: RVALID: exit_fort: piece type 4 has `exit_fort` without `escape`",
            line_of("piece 4 exit_fort")
        ),
    ];
    let found: Vec<&str> = stderr.lines().collect();
    assert_eq!(found, expected, "{stderr}");
}
