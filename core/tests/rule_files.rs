//! Reading rule files: every shipped file loads, and each kind of mistake is refused
//! with the right class (RREAD or RVALID), line and rule.

mod common;

use std::path::Path;

use hnefatafl_core::random::SplitMix;
use hnefatafl_core::{EndReason, Game, Rules, RulesError, RulesErrorKind, Subject};

fn base() -> String {
    common::rules_text(&["A . .", ". . .", ". . D"], "")
}

fn refuse(text: &str) -> RulesError {
    match Rules::parse(text.as_bytes()) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(error) => error,
    }
}

#[test]
fn every_shipped_rule_file_loads() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut count = 0;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rules =
            Rules::parse(&text).unwrap_or_else(|e| panic!("{}: {} {e}", path.display(), e.code()));
        let game = Game::new(rules.clone());
        assert!(
            game.outcome().is_none(),
            "{}: over at the start",
            path.display()
        );
        assert!(rules.start_position().perft(2) > 0);
        count += 1;
    }
    assert!(count > 0, "no rule files in {}", dir.display());
}

#[test]
fn the_test_base_is_valid() {
    assert!(Rules::parse(base().as_bytes()).is_ok());
}

#[test]
fn read_errors_name_the_line_and_word() {
    let cases: &[(&str, &str, u32)] = &[
        ("frobnicate 3\n", "frobnicate", 1),
        ("forbid_repeat yes\n", "yes", 1),
        ("piece bit 3\n", "3", 1),
        ("piece 8 owner 0\n", "8", 1),
        ("piece 4 owner 2\n", "2", 1),
        ("piece 4 capt_sides 5\n", "5", 1),
        ("piece 4 colour 2\n", "colour", 1),
        ("piece 4 captures 256\n", "256", 1),
        ("piece 4 ui_bit 3\n", "3", 1),
        ("piece bit 4\n", "4", 1),
        ("square 1 capt_sides 5\n", "5", 1),
        ("name\n", "name", 1),
    ];
    for &(line, word, _) in cases {
        let text = format!("{}{line}", base());
        let error = refuse(&text);
        assert_eq!(error.kind(), RulesErrorKind::Read, "{line}: {error}");
        let expected_line = text.lines().count() as u32;
        assert_eq!(error.line(), Some(expected_line), "{line}: {error}");
        match &error {
            RulesError::Read { word: found, .. } => assert_eq!(found, word, "{line}"),
            other => panic!("{line}: {other:?}"),
        }
        assert_eq!(error.code(), "RREAD");
    }
}

#[test]
fn board_size_errors_are_read_errors() {
    for (line, word) in [
        ("width 0", "0"),
        ("width 32", "32"),
        ("height nine", "nine"),
        ("width 3 3", "3"),
    ] {
        let text = format!("# comment\n\n{line}\n{}", base());
        let error = refuse(&text);
        assert_eq!(error.kind(), RulesErrorKind::Read, "{line}");
        assert_eq!(error.line(), Some(3), "{line}");
        assert!(
            matches!(&error, RulesError::Read { word: w, .. } if w == word),
            "{line}: {error:?}"
        );
    }
}

#[test]
fn syntax_errors_are_read_errors() {
    let error = refuse("id \"open\n");
    assert_eq!(error.kind(), RulesErrorKind::Read);
    assert_eq!(error.line(), Some(1));
}

#[test]
fn width_after_pieces_is_a_read_error() {
    let text = base().replace("height 3\n", "") + "height 3\n";
    // `pieces` now comes before `height`: refused at `pieces`.
    assert_eq!(refuse(&text).kind(), RulesErrorKind::Read);
    let text = base() + "width 3\n";
    let error = refuse(&text);
    assert_eq!(error.kind(), RulesErrorKind::Read);
    assert_eq!(error.line(), Some(text.lines().count() as u32));
}

#[test]
fn wrong_number_of_squares_is_a_read_error() {
    let text = base().replace("squares 1 1 1", "squares 1 1");
    assert_eq!(refuse(&text).kind(), RulesErrorKind::Read);
    let text = base().replace("pieces 4 0 0", "pieces 4 0 3");
    assert_eq!(refuse(&text).kind(), RulesErrorKind::Read);
}

#[test]
fn validation_errors_name_the_rule() {
    let cases: &[(&str, &str, &str)] = &[
        ("id", "id test\n", ""),
        ("name", "name Test\n", ""),
        (
            "pieces",
            "pieces 4 0 0 0 0 0 0 0 2",
            "pieces 4 0 0 0 0 0 0 0 8",
        ),
        (
            "squares",
            "squares 1 1 1 1 1 1 1 1 1",
            "squares 1 1 1 1 1 1 1 1 2",
        ),
        ("owner", "piece 2 owner 1\n", ""),
        ("captures", "piece 4 captures 2", "piece 4 captures 6"),
        ("custodial", "", "piece 2 capt_sides 1\npiece 2 custodial\n"),
        ("noreturn", "", "piece 2 noreturn 2\n"),
        (
            "occupies",
            "squares 1 1 1 1 1 1 1 1 1",
            "squares 1 1 1 1 1 1 1 1 2\nsquare bit 2",
        ),
        ("dbl_trap_capt", "", "piece 2 dbl_trap_capt\n"),
        ("dbl_trap_compl", "", "piece 2 dbl_trap_compl\n"),
        ("dbl_trap_edge", "", "piece 2 dbl_trap_edge\n"),
        ("dbl_trap_encl", "", "piece 2 dbl_trap_encl\n"),
        ("dbl_trap_squares", "", "piece 2 dbl_trap\n"),
        (
            "dbl_trap_compl",
            "",
            "piece 2 dbl_trap\npiece 2 dbl_trap_squares 1\npiece 2 dbl_trap_compl\n",
        ),
        ("bit", "", "piece bit 8\npiece 8 owner 0\n"),
        ("bit", "", "square bit 8\n"),
        (
            "capt_sides",
            "squares 1 1 1 1 1 1 1 1 1",
            "squares 1 1 1 1 2 1 1 1 1\nsquare bit 2\nsquare 2 capt_sides 4\nsquare 2 capt_sides_pieces 2",
        ),
        ("capt_sides_pieces", "", "square 1 capt_sides 4\n"),
        (
            "capt_sides_pieces",
            "",
            "square 1 capt_sides 4\nsquare 1 capt_sides_pieces 8\n",
        ),
    ];
    for &(rule, from, to) in cases {
        let mut text = base();
        if from.is_empty() {
            text += to;
        } else {
            assert!(text.contains(from), "{from}");
            text = text.replace(from, to);
        }
        let error = refuse(&text);
        assert_eq!(
            error.kind(),
            RulesErrorKind::Valid,
            "{rule}: {error}\n{text}"
        );
        assert_eq!(error.code(), "RVALID");
        // The error names the line of its rule, or the declaration of its type; only a
        // rule that is not written at all has no line.
        match error.line() {
            Some(line) => {
                let written = text.lines().nth(line as usize - 1).unwrap_or_default();
                let words: Vec<&str> = written.split_whitespace().collect();
                let declares = error.subject().is_some_and(|subject| {
                    written == format!("{} bit {}", words[0], subject_bit(subject))
                });
                assert!(
                    words.contains(&rule) || declares,
                    "{rule}: line {line} `{written}`"
                );
            }
            None => assert!(
                !text.lines().any(|line| line.starts_with(rule)),
                "{rule}: no line: {error}"
            ),
        }
        assert!(
            matches!(&error, RulesError::Invalid { .. }),
            "{rule}: {error:?}"
        );
        assert_eq!(error.rule(), Some(rule), "{error}");
    }
}

/// The three rules naming squares a piece moves over or ends on share one complaint,
/// each with its own rule's name.
#[test]
fn squares_of_undeclared_types_are_named_with_their_rule() {
    for rule in ["pass", "escape_on", "lose_on"] {
        let text = base() + &format!("piece 2 {rule} 2\n");
        let error = refuse(&text);
        assert_eq!(error.kind(), RulesErrorKind::Valid, "{rule}: {error}");
        assert_eq!(error.rule(), Some(rule), "{error}");
        let reason = format!("piece type 2 has `{rule}` squares of undeclared square types");
        assert!(error.to_string().contains(&reason), "{rule}: {error}");
    }
}

fn subject_bit(subject: Subject) -> u8 {
    match subject {
        Subject::Piece(piece) => piece.bit(),
        Subject::Square(square) => square.bit(),
        _ => unreachable!("a new kind of subject"),
    }
}

#[test]
fn a_player_without_pieces_is_invalid() {
    let text = common::rules_text(&["A . .", ". . .", ". . ."], "");
    assert_eq!(refuse(&text).kind(), RulesErrorKind::Valid);
}

#[test]
fn values_are_read_back() {
    let text = base() + "ui_theme stone\nforbid_repeat\npiece 2 ui_bit 1\n";
    let rules = Rules::parse(text.as_bytes()).expect("valid");
    assert_eq!(rules.id(), "test");
    assert_eq!(rules.name(), "Test");
    assert_eq!(rules.ui_theme(), Some("stone"));
    assert!(rules.forbid_repeat());
    assert_eq!(
        (rules.width(), rules.height(), rules.square_count()),
        (3, 3, 9)
    );
    assert_eq!(rules.piece_rules().len(), 2);
    let defender = rules.piece_rules()[0].clone();
    assert_eq!(defender.piece().bit(), 2);
    assert_eq!(defender.ui_bit().map(|p| p.bit()), Some(1));
    assert_eq!(defender.capture_sides(), 2);
    assert_eq!(rules.square_rules().len(), 1);
}

/// Every shipped variant, played by random moves from the start, comes to an end: no
/// shipped file can leave a game stuck without a way to finish.
#[test]
fn random_games_on_every_shipped_file_end() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules");
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut games = 0;
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let rules = Rules::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for seed in 1..=3u64 {
            let mut game = Game::new(rules.clone());
            // The games are the same on every run.
            let mut random = SplitMix::new(seed);
            let mut plies = 0;
            while game.outcome().is_none() {
                assert!(
                    plies < 100_000,
                    "{}: seed {seed} still going after {plies} plies",
                    path.display()
                );
                let moves = game.legal_moves().collect::<Vec<_>>();
                assert!(
                    !moves.is_empty(),
                    "{}: no move but not over",
                    path.display()
                );
                game.try_play(moves[random.below(moves.len())])
                    .unwrap_or_else(|e| panic!("{}: a listed move refused: {e}", path.display()));
                plies += 1;
            }
            // Only the mover captures and escapes, and a side without a move loses: those
            // ends come with the last move's player winning. A fort or an encirclement
            // may be closed by either side's move, and the other ends may be draws.
            let outcome = game.outcome().expect("the game is over");
            let by_board = matches!(
                outcome.reason,
                EndReason::NoMoves | EndReason::Escape(_) | EndReason::CaptureLoss(_)
            );
            if by_board {
                assert_eq!(
                    outcome.winner,
                    Some(game.side_to_move().opponent()),
                    "{}: seed {seed}: {outcome:?}",
                    path.display()
                );
            }
            games += 1;
        }
    }
    assert!(games >= 8 * 3, "only {games} games in {}", dir.display());
}

#[test]
fn every_violation_is_reported_each_with_its_line() {
    // Two broken piece types, each on the line it is written on.
    let text = base() + "piece 2 dbl_trap_capt\npiece 4 exit_fort\n";
    let count = text.lines().count() as u32;
    let error = refuse(&text);
    let found: Vec<(&str, Option<u32>)> = error
        .violations()
        .iter()
        .map(|violation| (violation.rule, violation.line))
        .collect();
    assert_eq!(
        found,
        [
            ("dbl_trap_capt", Some(count - 1)),
            ("exit_fort", Some(count)),
        ],
        "{error}"
    );
    assert_eq!(error.line(), Some(count - 1));
    assert_eq!(error.rule(), Some("dbl_trap_capt"));
    let shown = error.to_string();
    assert!(
        shown.contains(&format!("line {count}: exit_fort: ")),
        "{shown}"
    );
    // Every keyword that must be written and is not, none with a line.
    let error = refuse("id x\n");
    let missing: Vec<&str> = error.violations().iter().map(|v| v.rule).collect();
    assert_eq!(missing, ["name", "width", "height", "pieces", "squares"]);
    assert!(error.violations().iter().all(|v| v.line.is_none()));
    // A single violation reads as before.
    let error = refuse(&(base() + "piece 4 exit_fort\n"));
    assert_eq!(
        error.to_string(),
        format!(
            "line {}: invalid rules: exit_fort: piece type 4 has `exit_fort` without `escape`",
            count - 1
        )
    );
}
