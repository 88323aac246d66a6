//! Saved games: the text round-trips, and bad files are refused with where and why.

mod common;

use common::{mv, play, rules};
use hnefatafl_core::MoveError;
use hnefatafl_core::save::{SaveError, SavedGame};

fn board() -> hnefatafl_core::Rules {
    rules(&["A . . .", ". . . .", ". . . .", ". . . D"], "")
}

#[test]
fn a_saved_game_reads_back_and_replays() {
    let r = board();
    let game = play(&r, &[(0, 0, 1, 0), (3, 3, 2, 3), (1, 0, 1, 2)]);
    let players = [
        vec!["human".to_owned()],
        vec!["computer".to_owned(), "d4".to_owned(), "t2.5".to_owned()],
    ];
    let saved = SavedGame::from_game(&game, "my rules/test file", players.clone());
    let text = saved.to_text(&r);
    let read = SavedGame::parse(text.as_bytes()).expect("reads back");
    assert_eq!(read, saved);
    assert_eq!(read.rules_file, "my rules/test file");
    assert_eq!(read.players, players);
    let replayed = read.replay(&r).expect("replays");
    assert_eq!(replayed.position(), game.position());
    assert!(replayed.moves().eq(game.moves()));
}

#[test]
fn the_format_is_plain_text() {
    let text =
        "# a game\nrules test test.rules\nsize 4 4\nplayer 0 human\nplayer 1 human\nmove 0 0 1 0\n";
    let saved = SavedGame::parse(text.as_bytes()).expect("reads");
    let r = board();
    assert_eq!(saved.moves, vec![mv(&r, 0, 0, 1, 0)]);
    assert_eq!(saved.rules_id, "test");
}

#[test]
fn other_rules_are_refused() {
    let text = "rules other x\nsize 4 4\nmove 0 0 1 0\n";
    let saved = SavedGame::parse(text.as_bytes()).expect("reads");
    assert!(matches!(
        saved.replay(&board()),
        Err(SaveError::WrongRules { .. })
    ));
    let text = "rules test x\nsize 5 4\n";
    let saved = SavedGame::parse(text.as_bytes()).expect("reads");
    assert!(matches!(
        saved.replay(&board()),
        Err(SaveError::WrongSize { .. })
    ));
}

#[test]
fn an_illegal_move_is_named() {
    let text = "rules test x\nsize 4 4\nmove 0 0 1 0\nmove 0 0 1 0\n";
    let saved = SavedGame::parse(text.as_bytes()).expect("reads");
    match saved.replay(&board()) {
        Err(SaveError::IllegalMove {
            number,
            text,
            reason,
        }) => {
            assert_eq!(number, 2);
            assert_eq!(text, "0 0 1 0");
            assert_eq!(reason, MoveError::NoPiece);
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn bad_lines_are_refused_with_their_line() {
    for (text, line) in [
        ("rules a\n", 1),
        ("rules a b\nsize 4\n", 2),
        ("rules a b\nsize 4 4\nmove 0 0 9 0\n", 3),
        ("rules a b\nsize 4 4\nplayer 2 human\n", 3),
        ("rules a b\nsize 4 4\nfrobnicate\n", 3),
        ("rules a b\nmove 0 0 1 0\n", 2),
    ] {
        match SavedGame::parse(text.as_bytes()) {
            Err(SaveError::Read { line: found, .. }) => assert_eq!(found, line, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert_eq!(
        SavedGame::parse(b"size 4 4\n"),
        Err(SaveError::Missing("rules"))
    );
    assert_eq!(
        SavedGame::parse(b"rules a b\n"),
        Err(SaveError::Missing("size"))
    );
    assert!(matches!(
        SavedGame::parse(b"rules \"a\n"),
        Err(SaveError::Syntax(_))
    ));
}

#[test]
fn records_that_may_appear_once_are_refused_twice() {
    // A second `size` would renumber the moves read before it.
    let cases = [
        ("rules test a\nrules test b\nsize 4 4\n", 2),
        ("rules test a\nsize 4 4\nmove 0 0 1 0\nsize 2 8\n", 4),
        (
            "rules test a\nsize 4 4\nplayer 1 human\nplayer 1 computer\n",
            4,
        ),
    ];
    for (text, line) in cases {
        match SavedGame::parse(text.as_bytes()) {
            Err(SaveError::Read { line: at, .. }) => assert_eq!(at, line, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // One of each is fine.
    let text = "rules test a\nsize 4 4\nplayer 0 human\nplayer 1 computer\n";
    assert!(SavedGame::parse(text.as_bytes()).is_ok());
}

#[test]
fn a_jump_capture_is_saved_with_every_square_it_lands_on() {
    let text = "rules test test.rules\nsize 7 7\nmove 0 6 0 4 2 4 2 2\nmove 1 1 1 2\n";
    let saved = SavedGame::parse(text.as_bytes()).expect("reads");
    let jump = saved.moves[0];
    assert!(jump.is_jump());
    let landings: Vec<String> = jump.landings().map(|s| s.to_string()).collect();
    assert_eq!(landings, ["0 4", "2 4", "2 2"]);
    assert!(!saved.moves[1].is_jump());
    let r = rules(
        &[
            "A . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . .",
            ". . . . . . D",
        ],
        "",
    );
    assert!(saved.to_text(&r).contains("move 0 6 0 4 2 4 2 2\n"));
    for bad in ["move 0 6 0 4 1 4", "move 0 6 0 4 2", "move 0 6"] {
        let text = format!("rules test test.rules\nsize 7 7\n{bad}\n");
        let error = SavedGame::parse(text.as_bytes()).expect_err(bad);
        assert!(
            matches!(error, SaveError::Read { line: 3, .. }),
            "{bad}: {error}"
        );
    }
}
