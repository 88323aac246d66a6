//! The end of the game by the board: no move, an escape, a lost `capt_loss` type.

use super::type_index;
use crate::position::Board;
use crate::tables::Tables;
use crate::{EndReason, Outcome, PieceType, Player};

/// The end of the game by the board, in the manual's order.
pub(crate) fn outcome(tables: &Tables, position: &Board, has_move: bool) -> Option<Outcome> {
    if !has_move {
        return Some(Outcome {
            winner: position.side.opponent(),
            reason: EndReason::NoMoves,
        });
    }
    ended(tables, position)
}

/// An escape or a lost `capt_loss` type.
#[inline]
pub(crate) fn ended(tables: &Tables, position: &Board) -> Option<Outcome> {
    for &square in &tables.escape_squares {
        let bit = position.board[usize::from(square)];
        if bit & tables.escape_pieces != 0 {
            let owner = tables.pieces[type_index(bit)].owner;
            let winner = Player::from_index(usize::from(owner)).unwrap_or(Player::Zero);
            return Some(Outcome {
                winner,
                reason: EndReason::Escape(PieceType(bit)),
            });
        }
    }
    for &index in &tables.capture_loss {
        if position.counts[index] == 0 {
            let owner = tables.pieces[index].owner;
            let loser = Player::from_index(usize::from(owner)).unwrap_or(Player::Zero);
            return Some(Outcome {
                winner: loser.opponent(),
                reason: EndReason::CaptureLoss(PieceType(1 << index)),
            });
        }
    }
    None
}
