//! The embedder's API: text forms that read back, rules equality, positions that cannot
//! be mixed up between rules, checked set-ups, the play triad and serde.

mod common;

use hnefatafl_core::{
    AlgebraicSquare, Direction, EndReason, Game, MAX_SIDE, Move, MoveError, Notation,
    NotationError, Outcome, PieceType, PieceTypes, Player, Position, Rules, Setup, SetupProblem,
    Square, SquareType, SquareTypes,
};
use proptest::prelude::*;

fn shipped(name: &str) -> Rules {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/rules")
        .join(name);
    let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Rules::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn square(x: u8, y: u8) -> Square {
    Square::new(x, y).expect("below MAX_SIDE")
}

fn any_square() -> impl Strategy<Value = Square> {
    (0..MAX_SIDE, 0..MAX_SIDE).prop_map(|(x, y)| square(x, y))
}

proptest! {
    #[test]
    fn squares_and_moves_read_back_what_they_write(from in any_square(), to in any_square()) {
        prop_assert_eq!(from.to_string().parse::<Square>(), Ok(from));
        prop_assert_eq!(from.to_string(), format!("{} {}", from.x(), from.y()));
        let mv = Move::new(from, to);
        prop_assert_eq!(mv.to_string().parse::<Move>(), Ok(mv));
        prop_assert_eq!(Square::from_code(from.code()), Some(from));
    }

    #[test]
    fn algebraic_names_read_back(column in 0..MAX_SIDE, row in 1..=MAX_SIDE) {
        let name = AlgebraicSquare::new(column, row).expect("in range");
        prop_assert_eq!(name.to_string().parse::<AlgebraicSquare>(), Ok(name));
        prop_assert_eq!(name.to_string().to_uppercase().parse::<AlgebraicSquare>(), Ok(name));
    }

    #[test]
    fn square_text_never_panics(text in "[a-zA-Z0-9 ]{0,12}") {
        if let Ok(square) = text.parse::<Square>() {
            prop_assert!(square.x() < MAX_SIDE && square.y() < MAX_SIDE);
        }
        let _ = text.parse::<Move>();
        let _ = text.parse::<AlgebraicSquare>();
        let _ = text.parse::<Player>();
        let _ = text.parse::<Outcome>();
        let _ = text.parse::<Setup>();
    }
}

#[test]
fn coordinates_outside_the_largest_board_are_refused() {
    assert_eq!(Square::new(MAX_SIDE, 0), None);
    assert_eq!(Square::new(0, MAX_SIDE), None);
    assert_eq!(Square::from_code(31), None);
    assert!(matches!(
        "31 0".parse::<Square>(),
        Err(NotationError::OutOfBoard(_))
    ));
    assert!("1".parse::<Square>().is_err());
    assert!("1 2 3 4 5".parse::<Move>().is_err());
    assert!("af1".parse::<AlgebraicSquare>().is_err());
    assert!("a32".parse::<AlgebraicSquare>().is_err());
}

#[test]
fn columns_past_z_are_named_aa_to_ae_on_a_wide_board() {
    let first = format!("A{}", " .".repeat(30));
    let last = format!("{}D", ". ".repeat(30));
    let rules = common::rules(&[&first, &last], "");
    assert_eq!(rules.width(), 31);
    let names: Vec<String> = (26..31)
        .map(|x| {
            rules
                .algebraic(square(x, 1))
                .expect("on the board")
                .to_string()
        })
        .collect();
    assert_eq!(names, ["aa1", "ab1", "ac1", "ad1", "ae1"]);
    for square in rules.squares() {
        let name = rules.algebraic(square).expect("on the board");
        assert_eq!(rules.from_algebraic(name), Some(square));
    }
}

#[test]
fn players_and_outcomes_read_back() {
    for player in Player::BOTH {
        assert_eq!(player.to_string().parse::<Player>(), Ok(player));
    }
    assert!("2".parse::<Player>().is_err());
    let king = PieceType::from_bit(1).expect("a bit");
    for reason in [
        EndReason::NoMoves,
        EndReason::Escape(king),
        EndReason::CaptureLoss(king),
    ] {
        for winner in [Some(Player::Zero), Some(Player::One), None] {
            let outcome = Outcome { winner, reason };
            assert_eq!(outcome.to_string().parse::<Outcome>(), Ok(outcome));
        }
    }
    assert!(
        "player 1 wins: escape of piece 3"
            .parse::<Outcome>()
            .is_err()
    );
    assert!("player 2 wins: no moves".parse::<Outcome>().is_err());
}

#[test]
fn type_sets_hold_what_they_were_given() {
    let types: PieceTypes = [1u8, 8, 128]
        .into_iter()
        .filter_map(PieceType::from_bit)
        .collect();
    assert_eq!(types.bits(), 137);
    assert_eq!(
        types.iter().map(PieceType::bit).collect::<Vec<_>>(),
        [1, 8, 128]
    );
    assert!(types.contains(PieceType::from_bit(8).expect("a bit")));
    assert!(!types.contains(PieceType::from_bit(2).expect("a bit")));
    let squares = SquareTypes::from_bits(6);
    assert_eq!(
        squares & SquareTypes::from_bits(3),
        SquareTypes::from_bits(2)
    );
    assert_eq!(
        squares | SquareTypes::from_bits(1),
        SquareTypes::from_bits(7)
    );
    assert_eq!(SquareType::try_from(12u8).ok(), None);
    for index in 0..8 {
        let bit = PieceType::from_index(index).expect("an index");
        assert_eq!(bit.index(), index);
        assert_eq!(PieceType::from_bit(bit.bit()), Some(bit));
    }
}

#[test]
fn rules_are_equal_when_they_describe_the_same_game() {
    let text = String::from_utf8(
        std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../data/rules/tablut"),
        )
        .expect("tablut"),
    )
    .expect("text");
    let a = Rules::parse(text.as_bytes()).expect("valid");
    let b = Rules::parse(text.as_bytes()).expect("valid");
    assert_eq!(a, b);
    assert_eq!(a.fingerprint(), b.fingerprint());
    // Comments and blank lines change nothing.
    let commented = format!("# a comment\n\n{text}\n# the end\n");
    assert_eq!(Rules::parse(commented.as_bytes()).expect("valid"), a);
    // Another game is another set of rules.
    let other = shipped("brandub");
    assert_ne!(a, other);
    assert_ne!(a.fingerprint(), other.fingerprint());
    // One rule more is other rules too.
    assert!(!a.piece_rules()[2].capture_edge());
    let stricter = format!("{text}\npiece 4 capt_edge\n");
    let stricter = Rules::parse(stricter.as_bytes()).expect("valid");
    assert_ne!(stricter, a);
}

#[test]
fn positions_of_other_rules_are_not_mixed_up() {
    let tablut = shipped("tablut");
    let brandub = shipped("brandub");
    // A position plays by its own rules: there is no way to hand it to others.
    let position = brandub.start_position();
    assert_eq!(position.rules(), &brandub);
    assert_eq!(position.count_moves(), position.perft(1));
    // A game of other rules has never seen it.
    let game = Game::new(tablut.clone());
    assert!(!game.has_occurred(&position));
    assert!(game.has_occurred(&tablut.start_position()));
    // Positions of other rules differ even on the same pieces.
    assert_ne!(brandub.start_position(), tablut.start_position());
    // A set-up of the other board does not fit.
    let error = Position::from_setup(&tablut, &position.setup()).expect_err("7x7 on 9x9");
    assert_eq!(
        error.problems[0],
        SetupProblem::WrongSize {
            width: 7,
            height: 7
        }
    );
}

#[test]
fn a_setup_names_every_reason_it_fails() {
    // 3x3: a corner that is not part of the board, a centre the attacker may not enter.
    let rules = common::rules(&["X . .", ". T .", "A . D"], "");
    let (attacker, defender) = (
        PieceType::from_bit(4).expect("a bit"),
        PieceType::from_bit(2).expect("a bit"),
    );
    let unknown = PieceType::from_bit(64).expect("a bit");
    let setup = Setup::new(
        vec![
            (square(0, 0), attacker),
            (square(1, 1), attacker),
            (square(2, 0), unknown),
            (square(5, 5), defender),
            (square(2, 2), defender),
            (square(2, 2), attacker),
            (square(1, 0), defender),
        ],
        Player::One,
    );
    let error = Position::from_setup(&rules, &setup).expect_err("broken set-up");
    let throne = SquareType::from_bit(2).expect("a bit");
    assert_eq!(
        error.problems,
        [
            SetupProblem::NotOnBoard(square(0, 0)),
            SetupProblem::CannotStand {
                square: square(1, 1),
                piece: attacker,
                square_type: throne
            },
            SetupProblem::UnknownPiece {
                square: square(2, 0),
                piece: unknown
            },
            SetupProblem::OutsideBoard(square(5, 5)),
            SetupProblem::TwoPieces(square(2, 2)),
        ]
    );
    let message = error.to_string();
    assert!(message.contains("square 1 1"), "{message}");
    // Without the wrong pieces it is a position, with the side to move it says.
    let good = Setup::new(
        vec![(square(2, 2), defender), (square(1, 0), attacker)],
        Player::One,
    );
    let position = Position::from_setup(&rules, &good).expect("a good set-up");
    assert_eq!(position.side_to_move(), Player::One);
    assert_eq!(position.piece_at(square(1, 0)), Some(attacker));
    assert_eq!(position.pieces().count(), 2);
    let game = Game::from_position(position.clone());
    assert_eq!(game.position(), &position);
    assert!(game.legal_moves().all(|mv| mv.from() == square(2, 2)));
}

#[test]
fn the_board_diagram_reads_back_as_a_setup() {
    let rules = shipped("tablut");
    let mut game = Game::new(rules.clone());
    for _ in 0..7 {
        let mv = game.legal_moves().last().expect("a move");
        game.play(mv);
    }
    let diagram = game.position().to_string();
    let lines: Vec<&str> = diagram.lines().collect();
    assert_eq!(lines.len(), 11, "{diagram}");
    assert!(
        lines[0]
            .split_whitespace()
            .eq(["a", "b", "c", "d", "e", "f", "g", "h", "i"])
    );
    assert!(lines[1].trim_start().starts_with("9 "), "{diagram}");
    assert_eq!(lines[10], "side to move: 1");
    let setup: Setup = diagram.parse().expect("a diagram");
    assert_eq!(setup.size, Some((9, 9)));
    assert_eq!(
        Position::from_setup(&rules, &setup).as_ref(),
        Ok(game.position())
    );
    let broken = diagram.replace("side to move: 1", "");
    let error = broken.parse::<Setup>().expect_err("no side");
    assert_eq!(error.problems, [SetupProblem::NoSideToMove]);
    let broken = diagram.replacen(" . ", " 3 ", 1);
    let error = broken.parse::<Setup>().expect_err("3 is no bit");
    assert!(matches!(error.problems[..], [SetupProblem::BadCell(_)]));
}

#[test]
fn the_play_triad() {
    let rules = shipped("tablut");
    let mut position = rules.start_position();
    let start = position.clone();
    let diagonal = Move::new(square(3, 0), square(4, 1));
    assert_eq!(position.try_play(diagonal), Err(MoveError::NotStraight));
    assert_eq!(position, start);
    let mv = position.moves().next().expect("a move");
    let undo = position.play(mv);
    assert_ne!(position, start);
    position.take_back(&undo);
    assert_eq!(position, start);
    let caught = std::panic::catch_unwind(move || {
        let mut position = start;
        position.play(diagonal);
    });
    assert!(caught.is_err(), "play panics on an illegal move");

    let mut game = Game::new(rules);
    assert_eq!(game.try_play(diagonal).err(), Some(MoveError::NotStraight));
    assert_eq!(game.ply(), 0);
    let caught = std::panic::catch_unwind(move || {
        game.play(diagonal);
    });
    assert!(caught.is_err(), "Game::play panics on an illegal move");
}

#[test]
fn geometry_follows_the_directions() {
    let rules = shipped("brandub");
    for square in rules.squares() {
        for direction in Direction::ALL {
            let (dx, dy) = direction.offset();
            let x = i16::from(square.x()) + i16::from(dx);
            let y = i16::from(square.y()) + i16::from(dy);
            let expected = u8::try_from(x)
                .ok()
                .zip(u8::try_from(y).ok())
                .and_then(|(x, y)| rules.square_at(x, y));
            assert_eq!(rules.neighbour(square, direction), expected);
            if let Some(next) = expected {
                assert_eq!(rules.neighbour(next, direction.opposite()), Some(square));
            }
        }
        let index = rules.index(square).expect("on the board");
        assert_eq!(rules.square_of_index(index), Some(square));
    }
}

#[test]
fn the_moves_iterator_walks_what_the_callback_walks() {
    let rules = shipped("hnefatafl");
    let mut game = Game::new(rules);
    for _ in 0..30 {
        let position = game.position();
        let mut walked = Vec::new();
        position.for_each_move(|mv| walked.push(mv));
        assert!(position.moves().eq(walked.iter().copied()));
        assert_eq!(position.count_moves(), walked.len() as u64);
        let Some(mv) = game.legal_moves().nth(walked.len() / 2) else {
            break;
        };
        game.play(mv);
    }
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trips_moves_outcomes_and_saved_games() {
    use hnefatafl_core::save::SavedGame;
    let mv = Move::new(square(4, 1), square(2, 1));
    let json = serde_json::to_string(&mv).expect("serializes");
    assert_eq!(json, r#"{"from":[4,1],"to":[2,1]}"#);
    assert_eq!(serde_json::from_str::<Move>(&json).ok(), Some(mv));
    assert!(serde_json::from_str::<Square>("[31,0]").is_err());
    let jump: Move = "0 0 2 0 2 2".parse().expect("a jump capture");
    let json = serde_json::to_string(&jump).expect("serializes");
    assert_eq!(
        json,
        r#"{"from":[0,0],"to":[2,2],"jumps":["East","South"]}"#
    );
    assert_eq!(serde_json::from_str::<Move>(&json).ok(), Some(jump));
    let too_long = format!(
        r#"{{"from":[0,0],"to":[0,0],"jumps":[{}]}}"#,
        ["\"East\""; 16].join(",")
    );
    assert!(serde_json::from_str::<Move>(&too_long).is_err());
    let outcome = Outcome {
        winner: Some(Player::One),
        reason: EndReason::Escape(PieceType::from_bit(1).expect("a bit")),
    };
    let json = serde_json::to_string(&outcome).expect("serializes");
    assert_eq!(serde_json::from_str::<Outcome>(&json).ok(), Some(outcome));
    assert!(serde_json::from_str::<PieceType>("3").is_err());
    let rules = shipped("tablut");
    let game = hnefatafl_core::random::random_opening(&rules, 10, 5);
    let saved = SavedGame::from_game(&game, "tablut", [vec!["human".into()], vec![]]);
    let json = serde_json::to_string(&saved).expect("serializes");
    let back: SavedGame = serde_json::from_str(&json).expect("reads back");
    assert_eq!(back, saved);
    assert!(
        back.replay(&rules)
            .expect("replays")
            .moves()
            .eq(game.moves())
    );
}

#[test]
fn a_jump_capture_is_written_with_every_square_it_lands_on() {
    let rules = shipped("tablut");
    let numeric = rules
        .parse_move(&["0", "8", "0", "6", "2", "6"])
        .expect("numeric");
    let algebraic = rules.parse_move(&["a1", "a3", "c3"]).expect("algebraic");
    assert_eq!(numeric, algebraic);
    assert_eq!(numeric.jumps().len(), 2);
    assert_eq!(rules.format_move(numeric, Notation::Algebraic), "a1 a3 c3");
    assert_eq!(rules.format_move(numeric, Notation::Numeric), "0 8 0 6 2 6");
    assert_eq!(
        rules.parse_move(&["a1", "a3", "b3"]),
        Err(NotationError::NotAJump(square(1, 6)))
    );
    assert_eq!(
        rules.parse_move(&["0", "8", "0", "6", "2"]),
        Err(NotationError::WordCount)
    );
    assert!(!rules.parse_move(&["a1", "a3"]).expect("plain").is_jump());
}
