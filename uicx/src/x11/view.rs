//! The board part of a [`BoardView`], read from a game: squares and pieces as they are
//! drawn (after `ui_bit`), the board's names in the game's own notation, the last move
//! with its captures, the move list and each player's side.
//!
//! The host adds what only it knows: the translated texts, who plays each side, the
//! computer's progress and the analysis.

use hnefatafl_core::{Game, Notation, Player, column_name};

use super::host::{BoardView, Captured};
use crate::roles::roles;

/// The view of a game's board; the texts (`status`, `sides`, `hint`, `game_over`) and the
/// computer's `thinking` and `best_move` are left for the host to fill in.
pub fn board_view(game: &Game) -> BoardView {
    let rules = game.rules();
    let position = game.position();
    let count = rules.square_count();
    let owner_of = |piece| {
        rules
            .owner(piece)
            .map_or(0, |owner: Player| owner.index() as u8)
    };
    let mut view = BoardView {
        width: rules.width(),
        height: rules.height(),
        squares: Vec::with_capacity(count),
        pieces: Vec::with_capacity(count),
        owners: Vec::with_capacity(count),
        column_labels: (0..rules.width()).map(column_name).collect(),
        row_labels: (0..rules.height())
            .map(|y| (rules.height() - y).to_string())
            .collect(),
        last_move: game
            .last_move()
            .and_then(|mv| rules.index(mv.from()).zip(rules.index(mv.to()))),
        side_to_move: game.side_to_move().index() as u8,
        roles: roles(rules),
        ..BoardView::default()
    };
    for square in rules.squares() {
        view.squares.push(
            rules
                .square_type(square)
                .map_or(0, |kind| rules.shown_square(kind).bit()),
        );
        let piece = position.piece_at(square);
        view.pieces
            .push(piece.map_or(0, |piece| rules.shown_piece(piece).bit()));
        view.owners.push(piece.map_or(0, owner_of));
    }
    if let Some(undo) = game.history().last() {
        view.captured = undo
            .captures()
            .filter_map(|(square, piece)| {
                Some(Captured {
                    square: rules.index(square)?,
                    piece: rules.shown_piece(piece).bit(),
                    owner: owner_of(piece),
                })
            })
            .collect();
    }
    view.moves = game
        .history()
        .iter()
        .map(|undo| {
            let mut text = rules
                .format_move(undo.mv(), Notation::Algebraic)
                .replace(' ', "-");
            for (square, _) in undo.captures() {
                text.push('x');
                text.push_str(&rules.format_square(square, Notation::Algebraic));
            }
            text
        })
        .collect();
    view
}

#[cfg(test)]
mod tests {
    use super::*;
    use hnefatafl_core::Rules;

    use crate::fixtures::shipped_rules as rules;

    #[test]
    fn names_moves_and_captures_come_from_the_game() {
        let mut game = Game::new(rules("brandub"));
        let view = board_view(&game);
        assert_eq!(view.column_labels, ["a", "b", "c", "d", "e", "f", "g"]);
        assert_eq!(view.row_labels, ["7", "6", "5", "4", "3", "2", "1"]);
        assert!(view.moves.is_empty() && view.captured.is_empty());
        // Play the first legal move until some move captures, then play that one.
        let mut captured = None;
        'search: for _ in 0..40 {
            let moves: Vec<_> = game.legal_moves().collect();
            for &mv in &moves {
                let mut trial = game.clone();
                if trial.play(mv).captures().next().is_some() {
                    game = trial;
                    captured = Some(mv);
                    break 'search;
                }
            }
            let Some(&first) = moves.first() else { break };
            game.play(first);
        }
        let mv = captured.expect("some move captures within 40 plies");
        let view = board_view(&game);
        let undo = game.history().last().expect("a move");
        let rules = game.rules();
        let victims: Vec<usize> = undo
            .captures()
            .filter_map(|(square, _)| rules.index(square))
            .collect();
        assert_eq!(
            view.captured.iter().map(|c| c.square).collect::<Vec<_>>(),
            victims
        );
        for captured in &view.captured {
            assert_eq!(
                view.pieces[captured.square], 0,
                "the captured piece is gone"
            );
            assert_ne!(captured.piece, 0);
        }
        let last = view.moves.last().expect("a move");
        let from = rules.format_square(mv.from(), Notation::Algebraic);
        assert!(last.starts_with(&from) && last.contains('x'), "{last}");
        assert_eq!(view.moves.len(), game.ply());
        assert_eq!(
            view.last_move,
            rules.index(mv.from()).zip(rules.index(mv.to()))
        );
    }

    #[test]
    fn wide_boards_name_columns_past_z() {
        let mut text = String::from("id wide\nname Wide\nwidth 31\nheight 2\npieces");
        for index in 0..62 {
            text.push_str(match index {
                0 => " 1",
                61 => " 2",
                _ => " 0",
            });
        }
        text.push_str("\nsquares");
        text.push_str(&" 1".repeat(62));
        text.push_str(
            "\npiece bit 1\npiece 1 owner 0\npiece 1 occupies 1\npiece bit 2\npiece 2 owner 1\npiece 2 occupies 1\nsquare bit 1\n",
        );
        let rules = Rules::parse(text.as_bytes()).expect("valid rules");
        let view = board_view(&Game::new(rules));
        assert_eq!(view.column_labels[25], "z");
        assert_eq!(view.column_labels[26], "aa");
        assert_eq!(view.column_labels[30], "ae");
    }
}
