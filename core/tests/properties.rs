//! Property tests: generated moves equal the moves a naive checker accepts, undo restores
//! the position and its key, and pieces are conserved apart from captures.

mod common;

use common::naive::naive_moves;
use hnefatafl_core::{Move, Player, Position, Rules, Square};
use proptest::prelude::*;

/// A 9x9 board with a throne the king may not return to, hostile corners that are escape
/// squares, an attackers' domain (noreturn) and double traps.
const TABLUT_LIKE: &str = include_str!("data/prop9.txt");

/// A small board with off-board squares, an edge-capturable defender and square capt_sides.
const SMALL_ODD: &str = "
id prop6
name Odd
width 6
height 5
pieces 0 4 0 0 4 0 \\
       4 0 2 2 0 0 \\
       0 2 1 0 2 4 \\
       0 0 2 0 0 0 \\
       0 4 0 0 4 0
squares 0 1 1 1 1 1 \\
        1 1 1 1 1 1 \\
        1 1 2 1 1 1 \\
        1 1 1 1 1 0 \\
        1 1 1 1 1 1
piece bit 1
piece 1 owner 0
piece 1 captures 4
piece 1 occupies 3
piece 1 capt_edge
piece 1 capt_sides 3
piece bit 2
piece 2 owner 0
piece 2 captures 4
piece 2 occupies 1
piece 2 capt_edge
piece 2 custodial
piece bit 4
piece 4 owner 1
piece 4 captures 3
piece 4 occupies 1
square bit 1
square 1 capt_sides 4
square 1 capt_sides_pieces 2
square bit 2
square 2 captures 4
";

fn load(text: &str) -> Rules {
    Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"))
}

fn sorted(mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort();
    moves
}

fn total_pieces(position: &Position) -> usize {
    position.pieces().count()
}

/// Plays a random game, checking the properties at every position.
fn check_game(rules: &Rules, choices: &[usize]) -> Result<(), TestCaseError> {
    let mut position = rules.start_position();
    for &choice in choices {
        let mut moves = Vec::new();
        position.for_each_move(|m| moves.push(m));
        let naive = naive_moves(rules, &position);
        prop_assert_eq!(sorted(moves.clone()), sorted(naive));
        prop_assert_eq!(position.count_moves(), moves.len() as u64);
        prop_assert_eq!(position.has_move(), !moves.is_empty());
        for &mv in &moves {
            prop_assert_eq!(position.check_move(mv), Ok(()));
            let before = position.clone();
            let undo = position.play_unchecked(mv);
            prop_assert_eq!(position.side_to_move(), before.side_to_move().opponent());
            prop_assert_eq!(position.piece_at(mv.to()), before.piece_at(mv.from()));
            prop_assert_eq!(position.piece_at(mv.from()), None);
            let captured: Vec<(Square, _)> = undo.captures().collect();
            prop_assert_eq!(
                total_pieces(&position) + captured.len(),
                total_pieces(&before)
            );
            for &(square, piece) in &captured {
                prop_assert_eq!(position.piece_at(square), None);
                prop_assert_eq!(before.piece_at(square), Some(piece));
                prop_assert_eq!(rules.owner(piece), Some(before.side_to_move().opponent()));
            }
            for piece in rules.piece_rules() {
                let lost = captured.iter().filter(|(_, p)| *p == piece.piece()).count() as u32;
                prop_assert_eq!(
                    position.count(piece.piece()) + lost,
                    before.count(piece.piece())
                );
            }
            prop_assert_ne!(position.hash(), before.hash());
            position.take_back(&undo);
            prop_assert_eq!(&position, &before);
            prop_assert_eq!(position.hash(), before.hash());
        }
        if position.outcome_with(!moves.is_empty()).is_some() {
            break;
        }
        let mv = moves[choice % moves.len()];
        position.play_unchecked(mv);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn tablut_like_games_keep_the_invariants(choices in proptest::collection::vec(any::<usize>(), 1..120)) {
        check_game(&load(TABLUT_LIKE), &choices)?;
    }

    #[test]
    fn odd_board_games_keep_the_invariants(choices in proptest::collection::vec(any::<usize>(), 1..80)) {
        check_game(&load(SMALL_ODD), &choices)?;
    }

    #[test]
    fn keys_follow_pieces_and_side(choices in proptest::collection::vec(any::<usize>(), 1..150)) {
        // Every position reached, in any order, has one key, and different positions
        // have different keys. Moves are often taken straight back, so positions recur.
        let rules = load(TABLUT_LIKE);
        let mut position = rules.start_position();
        let mut seen: std::collections::HashMap<(Vec<u8>, Player), u64> = Default::default();
        for &choice in &choices {
            let key = (position.board().map(|p| p.map_or(0, |p| p.bit())).collect(), position.side_to_move());
            let hash = *seen.entry(key).or_insert(position.hash());
            prop_assert_eq!(hash, position.hash());
            let mut moves = Vec::new();
            position.for_each_move(|m| moves.push(m));
            if moves.is_empty() || position.outcome_with(true).is_some() {
                break;
            }
            let mv = moves[choice % moves.len()];
            position.play_unchecked(mv);
            let back = Move::new(mv.to(), mv.from());
            if choice % 3 == 0 && position.check_move(back).is_ok() {
                position.play_unchecked(back);
            }
        }
        let distinct: std::collections::HashSet<u64> = seen.values().copied().collect();
        prop_assert_eq!(distinct.len(), seen.len());
    }
}
