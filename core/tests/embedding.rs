//! What an embedder writes first: rules and moves read from text, the board printed as
//! the interpreter prints it, a checked pass, and the typed sets of squares.

use hnefatafl_core::random::random_opening;
use hnefatafl_core::{
    BitBoard, Game, Move, MoveError, MoveText, Notation, NotationError, PieceType, Player,
    Position, Rules, Setup, Square,
};

fn shipped(name: &str) -> Rules {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../data/rules")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.parse()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The README's tiny game: player 0's piece 1 captures player 1's only `capt_loss` piece
/// with `a3 c3`, which ends the game.
const TINY: &str = "
id tiny
name tiny
width 3
height 3
pieces 1 0 0 \\
       0 0 2 \\
       0 4 0
squares 1 1 1 \\
        1 1 1 \\
        1 1 1
piece bit 1
piece 1 owner 0
piece 1 occupies 1
piece 1 captures 2
piece bit 2
piece 2 owner 1
piece 2 occupies 1
piece 2 capt_sides 1
piece 2 capt_loss
piece bit 4
piece 4 owner 1
piece 4 occupies 1
square bit 1
";

#[test]
fn rules_read_from_a_str_are_the_rules_parse_reads() {
    for name in ["brandub", "tablut", "copenhagen", "halatafl"] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../data/rules")
            .join(name);
        let text = std::fs::read_to_string(&path).expect("a shipped file");
        let parsed: Rules = text.parse().expect("valid rules");
        assert_eq!(parsed, Rules::parse(text.as_bytes()).expect("valid rules"));
        assert_eq!(parsed.id(), name);
    }
    let bad = "width 3\nheight 3\nwidth 40\n";
    assert_eq!(
        bad.parse::<Rules>().err(),
        Rules::parse(bad.as_bytes()).err()
    );
    assert!(bad.parse::<Rules>().is_err());
}

#[test]
fn every_move_reads_back_in_every_form_the_command_line_takes() {
    for name in ["brandub", "tablut", "halatafl", "alea_evangelii"] {
        let rules = shipped(name);
        for seed in 0..4 {
            let game = random_opening(&rules, 6, seed);
            let position = game.position();
            let mut seen = 0;
            for mv in position.moves() {
                seen += 1;
                let algebraic = rules.format_move(mv, Notation::Algebraic);
                let numeric = rules.format_move(mv, Notation::Numeric);
                let joined = algebraic.replace(' ', "-");
                for text in [&algebraic, &numeric, &joined] {
                    // A single jump is written like an ordinary move: the position tells.
                    let read = rules
                        .read_move(text)
                        .map(|read| position.resolve_move(read));
                    assert_eq!(read, Ok(mv), "{name}: {text}");
                }
                let parsed = numeric
                    .parse::<Move>()
                    .map(|read| position.resolve_move(read));
                assert_eq!(parsed, Ok(mv), "{name}: {numeric}");
                let parsed = mv.to_string().parse::<Move>();
                assert_eq!(parsed.map(|read| position.resolve_move(read)), Ok(mv));
            }
            assert!(seen > 0, "{name}: a move after the opening");
        }
    }
}

#[test]
fn algebraic_text_parses_without_a_board_and_is_placed_by_the_board_s_height() {
    let text: MoveText = "a1-b1".parse().expect("two algebraic squares");
    assert_eq!(text.notation(), Notation::Algebraic);
    assert_eq!(
        "a1-b1".parse::<Move>(),
        Err(NotationError::NeedsBoard("a1-b1".to_owned()))
    );
    for name in ["brandub", "tablut", "copenhagen", "alea_evangelii"] {
        let rules = shipped(name);
        // Row 1 is the bottom row: y = height - 1 from the top.
        let bottom = rules.height() - 1;
        let expected = Move::new(
            Square::new(0, bottom).expect("on the board"),
            Square::new(1, bottom).expect("on the board"),
        );
        assert_eq!(text.on(&rules), Ok(expected), "{name}");
        for mv in random_opening(&rules, 6, 1).position().moves() {
            let algebraic = rules.format_move(mv, Notation::Algebraic);
            let written: MoveText = algebraic.parse().expect("a written move");
            assert_eq!(written.to_string(), algebraic, "{name}");
            assert_eq!(written.on(&rules), rules.read_move(&algebraic), "{name}");
            let numeric: MoveText = rules
                .format_move(mv, Notation::Numeric)
                .parse()
                .expect("a written move");
            assert_eq!(numeric.notation(), Notation::Numeric);
            assert_eq!(numeric.on(&rules), written.on(&rules), "{name}");
        }
    }
}

#[test]
fn a_move_text_that_is_no_move_is_refused_in_words() {
    let rules = shipped("tablut");
    assert_eq!(rules.read_move("d9-d7"), rules.read_move("d9 d7"));
    for text in [
        "", "d9", "d9-", "-d9 d7", "d9--d7", "3 0 3", "d9 z7", "3 0 9 9",
    ] {
        let error = rules.read_move(text).expect_err(text);
        assert!(!error.to_string().is_empty());
    }
    assert_eq!(
        rules.read_move("d9-"),
        Err(NotationError::BadWord("d9-".to_owned()))
    );
    assert_eq!(
        rules.read_move("d9 j7"),
        Err(NotationError::OutOfBoard("j7".to_owned()))
    );
}

#[test]
fn an_embedder_plays_a_move_from_a_string_and_prints_the_board() {
    let rules = shipped("brandub");
    let mut position = rules.start_position();
    position
        .try_play(rules.read_move("d6-b6").expect("a move"))
        .expect("a legal move");
    // Written by hand from the start position of the README's session.
    let expected = "       0  1  2  3  4  5  6
       a  b  c  d  e  f  g
 0  7  *  .  .  A  .  .  *
 1  6  .  A  .  .  .  .  .
 2  5  .  .  .  d  .  .  .
 3  4  A  A  d  k  d  A  A
 4  3  .  .  .  d  .  .  .
 5  2  .  .  .  A  .  .  .
 6  1  *  .  .  A  .  .  *
";
    assert_eq!(position.display().to_string(), expected);
}

#[test]
fn the_game_board_is_the_one_the_readme_session_printed() {
    // The README's session: `m 3 1 1 1`, `m 3 2 1 2`, then `b` in the interpreter.
    let rules = shipped("brandub");
    let mut game = Game::new(rules.clone());
    for text in ["3 1 1 1", "3 2 1 2"] {
        game.try_play(rules.read_move(text).expect("a move"))
            .expect("a legal move");
    }
    let printed = "       0  1  2  3  4  5  6
       a  b  c  d  e  f  g
 0  7  *  .  .  A  .  .  *
 1  6  .  A  .  .  .  .  .
 2  5  . [d] . [.] .  .  .
 3  4  A  A  d  k  d  A  A
 4  3  .  .  .  d  .  .  .
 5  2  .  .  .  A  .  .  .
 6  1  *  .  .  A  .  .  *
";
    assert_eq!(game.display().to_string(), printed);
}

#[test]
fn escape_hostile_and_other_squares_have_their_marks() {
    // Tablut's edge is escape squares (`*`), its empty throne captures (`+`), the four
    // squares beside the throne are of a fourth, plain type (`:`).
    let rules = shipped("tablut");
    let piece = |bit| PieceType::from_bit(bit).expect("a bit");
    let square = |x, y| Square::new(x, y).expect("a square");
    let setup = Setup::new(
        vec![(square(2, 2), piece(1)), (square(6, 6), piece(4))],
        Player::Zero,
    );
    let position = Position::from_setup(&rules, &setup).expect("a position of tablut");
    let expected = "       0  1  2  3  4  5  6  7  8
       a  b  c  d  e  f  g  h  i
 0  9  *  *  *  *  *  *  *  *  *
 1  8  *  .  .  .  .  .  .  .  *
 2  7  *  .  k  .  .  .  .  .  *
 3  6  *  .  .  .  :  .  .  .  *
 4  5  *  .  .  :  +  :  .  .  *
 5  4  *  .  .  .  :  .  .  .  *
 6  3  *  .  .  .  .  .  A  .  *
 7  2  *  .  .  .  .  .  .  .  *
 8  1  *  *  *  *  *  *  *  *  *
";
    assert_eq!(position.display().to_string(), expected);
}

#[test]
fn squares_off_the_board_are_blank() {
    let text = "
id holes
name holes
width 3
height 2
pieces 1 0 0 \\
       0 0 2
squares 1 0 1 \\
        2 1 1
piece bit 1
piece 1 owner 0
piece 1 occupies 3
piece bit 2
piece 2 owner 1
piece 2 occupies 3
square bit 1
square bit 2
square 2 escape
";
    let rules: Rules = text.parse().expect("valid rules");
    assert_eq!(
        rules.start_position().display().to_string(),
        "       0  1  2\n       a  b  c\n 0  2  K     .\n 1  1  *  .  d\n"
    );
}

#[test]
fn a_pass_is_refused_once_the_game_is_over() {
    let rules: Rules = TINY.parse().expect("valid rules");
    let mut position = rules.start_position();
    assert_eq!(position.pass(), Ok(()));
    assert_eq!(position.side_to_move(), Player::One);
    assert_eq!(position.pass(), Ok(()));
    assert_eq!(position, rules.start_position());

    position
        .try_play(rules.read_move("a3-c3").expect("a move"))
        .expect("a legal move");
    assert!(
        position.outcome().is_some(),
        "player 1 lost his only piece 2"
    );
    let before = position.clone();
    assert_eq!(position.pass(), Err(MoveError::GameOver));
    assert_eq!(position, before, "a refused pass changes nothing");

    // The unchecked pass is the search's: it does what it is told.
    position.pass_unchecked();
    assert_eq!(position.side_to_move(), Player::Zero);
}

#[test]
fn a_pass_is_refused_to_a_side_without_a_move() {
    // Player 0's only piece is boxed in by its own pieces... of player 1, which it
    // cannot capture: no move, so the game is over and there is nothing to pass.
    let text = "
id boxed
name boxed
width 2
height 2
pieces 1 2 \\
       2 0
squares 1 1 \\
        1 0
piece bit 1
piece 1 owner 0
piece 1 occupies 1
piece bit 2
piece 2 owner 1
piece 2 occupies 1
square bit 1
";
    let rules: Rules = text.parse().expect("valid rules");
    let mut position = rules.start_position();
    assert!(!position.has_move());
    assert_eq!(position.pass(), Err(MoveError::GameOver));
    assert_eq!(position.side_to_move(), Player::Zero);
}

#[test]
fn the_sets_of_squares_are_the_pieces_of_the_board() {
    for name in ["brandub", "tablut", "alea_evangelii", "halatafl"] {
        let rules = shipped(name);
        for seed in 0..4 {
            let game = random_opening(&rules, 10, seed);
            let position = game.position();
            let index = |square| rules.index(square).expect("on the board");
            for player in Player::BOTH {
                let expected: Vec<usize> = position
                    .pieces()
                    .filter(|&(_, piece)| rules.owner(piece) == Some(player))
                    .map(|(square, _)| index(square))
                    .collect();
                let set = position.occupied(player);
                assert_eq!(set.iter().collect::<Vec<_>>(), expected, "{name}");
                assert_eq!(set.len(), expected.len());
            }
            for rule in rules.piece_rules() {
                let piece = rule.piece();
                let expected: BitBoard = position
                    .pieces()
                    .filter(|&(_, p)| p == piece)
                    .map(|(square, _)| index(square))
                    .collect();
                assert_eq!(position.occupied_by(piece), expected, "{name}");
                assert_eq!(expected.len() as u32, position.count(piece));
            }
            let occupied = position.occupied(Player::Zero) | position.occupied(Player::One);
            let board = rules.board_squares();
            assert_eq!(position.empty_squares(), !occupied & board, "{name}");
            assert_eq!(position.empty_squares() & occupied, BitBoard::EMPTY);
            assert_eq!(
                (position.empty_squares() ^ occupied),
                board,
                "{name}: every square of the board is empty or taken"
            );
            let typed: usize = rules
                .square_rules()
                .iter()
                .map(|rule| rules.squares_of_type(rule.square()).len())
                .sum();
            assert_eq!(typed, board.len(), "{name}: each square has one type");
        }
    }
}
