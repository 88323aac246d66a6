//! `hnefatafl --engine htp`: the real binary spoken to in the Hnefatafl Text Protocol,
//! with transcripts written from the protocol's description (hnefatafl-copenhagen's
//! `src/message.rs`).

// The `hnefatafl` binary is uicx's; this finds it, built and up to date.
#[path = "../../server/tests/server_support/binaries.rs"]
mod binaries;

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use hnefatafl_core::{Game, Rules};

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../data")
}

/// Runs the engine on shipped rules with a script; returns the answers (each `= ...` or
/// `? ...` with the lines that follow it up to its empty line).
fn transcript(rules: &str, script: &str) -> Vec<String> {
    let output = Command::new(binaries::client_binary())
        .args(["--engine", "htp", "--limits", "d2", "-d"])
        .arg(data())
        .args(["-r", rules])
        .env_remove("HNEFATAFL_RULES")
        .env_remove("HNEFATAFL_PATH")
        .timeout(std::time::Duration::from_secs(120))
        .write_stdin(script)
        .output()
        .expect("runs");
    assert!(output.status.success(), "{output:?}");
    // Standard error says at most which network it evaluates with (rules that have one).
    let said = String::from_utf8_lossy(&output.stderr);
    assert!(
        said.lines()
            .all(|line| line.starts_with("hnefatafl: evaluation: network ")),
        "{said}"
    );
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    assert!(
        text.is_empty() || text.ends_with("\n\n"),
        "every answer ends with an empty line: {text:?}"
    );
    text.split_terminator("\n\n").map(str::to_owned).collect()
}

#[test]
fn identity_and_commands() {
    let answers = transcript(
        "hnefatafl",
        "protocol_version\nname\nversion\nknown_command play\nknown_command fly\n\
         list_commands\n",
    );
    assert_eq!(answers[0], "= 1-beta");
    assert_eq!(answers[1], "= hnefatafl-rs");
    assert_eq!(answers[2], format!("= {}", env!("CARGO_PKG_VERSION")));
    assert_eq!(answers[3], "= true");
    assert_eq!(answers[4], "= false");
    let listed: Vec<&str> = answers[5].lines().skip(1).collect();
    for command in [
        "board_size",
        "final_status",
        "generate_move",
        "known_command",
        "list_commands",
        "name",
        "play",
        "play_undo",
        "protocol_version",
        "quit",
        "show_board",
        "time_settings",
        "version",
    ] {
        assert!(listed.contains(&command), "{command} in {listed:?}");
    }
    assert_eq!(answers.len(), 6);
}

#[test]
fn plays_with_captures_undo_and_errors() {
    // Fetlar: the attackers e11 and g11 come down beside the defender f8 and take it.
    let answers = transcript(
        "hnefatafl",
        "board_size 11\n\
         play attacker e11 e8\n\
         play d e5 e3\n\
         play a g11 g8\n\
         show_board\n\
         play_undo\n\
         show_board\n\
         play a G11 G8   # upper case, and a comment\n\
         \n\
         # a line of comment only\n\
         play d f6 f3\n\
         play a a7 a8\n\
         play defender k1 k2\n\
         play_undo\nplay_undo\nplay_undo\nplay_undo\n\
         board_size 13\n\
         fly away\n\
         play\n\
         final_status\n",
    );
    let expected_heads = [
        "= ",
        "= ",
        "= ",
        "= f8",
        "= ",
        "= ",
        "= ",
        "= f8",
        "? ",
        "? ",
        "? ",
        "= ",
        "= ",
        "= ",
        "? ",
        "? ",
        "? ",
        "? ",
        "= ongoing",
    ];
    assert_eq!(answers.len(), expected_heads.len(), "{answers:#?}");
    for (answer, head) in answers.iter().zip(expected_heads) {
        assert!(answer.starts_with(head), "{answer:?} should start {head:?}");
    }
    // The board after the capture has no defender on f8; after the undo it has.
    let row = |board: &str, rank: &str| -> String {
        board
            .lines()
            .find(|line| line.trim_start().starts_with(&format!("{rank} ")))
            .map(|line| line.split_whitespace().skip(1).collect())
            .unwrap_or_default()
    };
    assert_eq!(row(&answers[4], "8"), "A...A.A...A", "{}", answers[4]);
    assert_eq!(row(&answers[6], "8"), "A...AD....A", "{}", answers[6]);
    // The king is blocked, the attacker plays out of turn, the k1 corner is empty.
    assert!(answers[8].contains("in the way"), "{}", answers[8]);
    assert!(answers[9].contains("defender's turn"), "{}", answers[9]);
    // The square with no piece is named as the host wrote it.
    assert_eq!(answers[10], "? there is no piece to move on k1");
    assert!(answers[15].contains("plays"), "{}", answers[15]);
    assert!(
        answers[16].contains("unrecognized command: fly"),
        "{}",
        answers[16]
    );
}

#[test]
fn generates_legal_moves_on_a_clock_and_resigns() {
    let answers = transcript(
        "brandub",
        "time_settings fischer 1 1\n\
         generate_move attacker\n\
         generate_move\n\
         generate_move defender\n\
         time_settings fischer x 1\n\
         play a resign\n\
         final_status\n\
         play a d1 d2\n\
         time_settings un-timed\n\
         final_status\n\
         quit\n\
         name\n",
    );
    assert_eq!(answers.len(), 11, "{answers:#?}");
    // The moves the engine generated are legal, replayed on the rules here.
    let rules =
        Rules::parse(&std::fs::read(data().join("rules/brandub")).expect("reads")).expect("valid");
    let mut game = Game::new(rules.clone());
    for (answer, role) in answers[1..3].iter().zip(["attacker", "defender"]) {
        let words: Vec<&str> = answer.split_whitespace().collect();
        assert_eq!(words[..3], ["=", "play", role], "{answer}");
        let mv = rules.parse_move(&words[3..5]).expect("squares");
        game.try_play(mv).expect("legal");
    }
    assert_eq!(answers[0], "= ");
    assert!(answers[3].contains("attacker's turn"), "{}", answers[3]);
    assert!(answers[4].starts_with("? "), "{}", answers[4]);
    assert_eq!(answers[5], "= ");
    assert_eq!(answers[6], "= defender_wins");
    assert!(answers[7].contains("over"), "{}", answers[7]);
    assert_eq!(answers[8], "= ");
    assert_eq!(answers[9], "= ongoing");
    // `quit` is answered and ends the engine: `name` after it is not.
    assert_eq!(answers.last().map(String::as_str), Some("= "));
}

#[test]
fn bad_bytes_and_endless_lines_do_not_end_the_engine() {
    let mut script = b"name\n\xff\xfe\n".to_vec();
    script.extend(std::iter::repeat_n(b'x', (1 << 20) + 10));
    script.extend(b"\nfinal_status\n");
    let output = Command::new(binaries::client_binary())
        .args(["--engine", "htp", "-d"])
        .arg(data())
        .args(["-r", "brandub"])
        .timeout(std::time::Duration::from_secs(60))
        .write_stdin(script)
        .output()
        .expect("runs");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let answers: Vec<&str> = text.split_terminator("\n\n").collect();
    assert_eq!(answers.len(), 4, "{text}");
    assert_eq!(answers[0], "= hnefatafl-rs");
    assert!(answers[1].starts_with("? ") && answers[1].contains("UTF-8"));
    assert!(answers[2].starts_with("? ") && answers[2].contains("longer"));
    assert_eq!(answers[3], "= ongoing");
}

#[test]
fn a_bad_start_is_reported_before_any_protocol() {
    for args in [
        vec!["--engine", "uci"],
        vec!["--engine", "htp", "-r", "no-such-rules"],
        vec!["--engine", "htp", "--limits", "q"],
    ] {
        let output = Command::new(binaries::client_binary())
            .args(&args)
            .arg("-d")
            .arg(data())
            .timeout(std::time::Duration::from_secs(30))
            .write_stdin("name\n")
            .output()
            .expect("runs");
        assert!(!output.status.success(), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(!output.stderr.is_empty(), "{args:?}");
    }
}
