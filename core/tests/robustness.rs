//! Nothing that comes from outside may make the engine panic: moves with any square
//! numbers, notation words, rule text and saved-game text. A refused move leaves the game
//! exactly as it was.

use hnefatafl_core::save::SavedGame;
use hnefatafl_core::{Game, MAX_SIDE, Move, MoveError, Notation, Rules, Square};
use proptest::prelude::*;

/// Brandub-like 7x7 rules with `forbid_repeat`, so that refusals by repetition occur too.
const RULES: &str = include_str!("data/robust7.txt");

fn rules() -> Rules {
    Rules::parse(RULES.as_bytes()).expect("the test rules are valid")
}

#[test]
fn the_test_rules_leave_both_sides_moves() {
    let game = Game::new(rules());
    assert!(game.outcome().is_none());
    assert!(game.legal_moves().next().is_some());
}

/// Everything a refused move must leave as it was.
fn snapshot(game: &Game) -> impl PartialEq + std::fmt::Debug + use<> {
    (
        game.position().clone(),
        game.moves().collect::<Vec<_>>(),
        game.position_hashes().to_vec(),
        game.redo_moves().collect::<Vec<_>>(),
        game.outcome(),
    )
}

/// Any square of the largest board.
fn any_square() -> impl Strategy<Value = Square> {
    (0..MAX_SIDE, 0..MAX_SIDE).prop_map(|(x, y)| Square::new(x, y).expect("below MAX_SIDE"))
}

fn any_move() -> impl Strategy<Value = Move> {
    (any_square(), any_square()).prop_map(|(from, to)| Move::new(from, to))
}

/// A move that is usually near the board, so that many are legal.
fn near_move() -> impl Strategy<Value = Move> {
    let near = || (0u8..9, 0u8..9).prop_map(|(x, y)| Square::new(x, y).expect("small"));
    (near(), near()).prop_map(|(from, to)| Move::new(from, to))
}

proptest! {
    #[test]
    fn random_moves_never_panic_and_refusals_change_nothing(
        moves in proptest::collection::vec(
            (prop_oneof![any_move(), near_move()], any::<usize>()),
            1..200,
        )
    ) {
        let rules = rules();
        let mut game = Game::new(rules.clone());
        for (mv, choice) in moves {
            // Play a legal move too, so that the random ones meet many positions.
            let legal: Vec<Move> = game.legal_moves().collect();
            if !legal.is_empty() {
                prop_assert!(game.try_play(legal[choice % legal.len()]).is_ok());
            }
            // Every reader of a move copes with any square.
            let _ = rules.format_move(mv, Notation::Algebraic);
            let _ = rules.format_move(mv, Notation::Numeric);
            let _ = rules.index(mv.from());
            let checked = game.position().check_move(mv);
            let before = snapshot(&game);
            match game.try_play(mv) {
                Ok(_) => {
                    prop_assert!(checked.is_ok());
                    prop_assert_eq!(game.last_move(), Some(mv));
                }
                Err(error) => {
                    prop_assert_eq!(snapshot(&game), before, "refused with {}", error);
                    if game.outcome().is_none() && error != MoveError::Repetition {
                        prop_assert_eq!(checked, Err(error));
                    }
                }
            }
        }
    }

    #[test]
    fn notation_words_never_panic(words in proptest::collection::vec("[a-zA-Z0-9 ]{0,8}", 0..6)) {
        let rules = rules();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        if let Ok(mv) = rules.parse_move(&words) {
            prop_assert!(rules.contains(mv.from()) && rules.contains(mv.to()));
        }
        if let Ok(square) = rules.parse_square(&words) {
            prop_assert!(rules.contains(square));
        }
    }

    #[test]
    fn rule_text_never_panics(text in "[a-z_0-9 \\n\\\\\"#]{0,300}") {
        let _ = Rules::parse(text.as_bytes());
        // Lines of real rule text with one changed word.
        let mut lines: Vec<String> = RULES.lines().map(str::to_owned).collect();
        let index = text.len() % lines.len();
        lines[index] = text.lines().next().unwrap_or_default().to_owned();
        let _ = Rules::parse(lines.join("\n").as_bytes());
    }

    #[test]
    fn saved_game_text_never_panics(text in "(rules|size|player|move| |[0-9]{1,3}|\\n){0,40}") {
        if let Ok(saved) = SavedGame::parse(text.as_bytes()) {
            let rules = rules();
            let _ = saved.to_text(&rules);
            let _ = saved.replay(&rules);
        }
    }
}

#[test]
fn out_of_range_squares_are_refused_everywhere() {
    let rules = rules();
    let mut game = Game::new(rules.clone());
    let square = |x, y| Square::new(x, y).expect("below MAX_SIDE");
    let far = Move::new(square(3, 0), square(30, 30));
    assert_eq!(
        game.position().check_move(far),
        Err(MoveError::OutOfBoard(square(30, 30)))
    );
    assert!(game.try_play(far).is_err());
    assert_eq!(game.ply(), 0);
    // Unchecked play of a move off the board changes nothing.
    let mut position = game.position().clone();
    let undo = position.play_unchecked(far);
    assert_eq!(&position, game.position());
    position.take_back(&undo);
    assert_eq!(&position, game.position());
    // A square below the board is written as numbers in both notations.
    let below = square(2, 7);
    assert_eq!(rules.format_square(below, Notation::Algebraic), "2 7");
    assert_eq!(rules.format_square(below, Notation::Numeric), "2 7");
    assert_eq!(rules.index(below), None);
    assert_eq!(rules.square_of_index(7 * 7), None);
    // Coordinates past the largest board are no squares at all.
    assert_eq!(Square::new(MAX_SIDE, 0), None);
    assert_eq!(Square::try_from((0, MAX_SIDE)).ok(), None);
    // Words naming squares off the board are errors, not squares.
    assert!(rules.parse_move(&["h1", "a1"]).is_err());
    assert!(rules.parse_move(&["7", "0", "0", "0"]).is_err());
    assert!(rules.parse_move(&["99999999999", "0", "0", "0"]).is_err());
    assert!(rules.parse_move(&["a0", "a1"]).is_err());
}
