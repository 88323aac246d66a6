//! The end of the game by the board: a move onto a `lose_on` square, no move, an escape, a lost `capt_loss` type, an exit
//! fort, an encirclement, and the draw when neither player can win.

use super::board::Board;
use super::enclosure::{encircled, exit_fort};
use super::type_index;
use crate::tables::Tables;
use crate::{EndReason, Outcome, PieceType, Player};

/// The end of the game by the board, in the order of docs/rules.md.
pub(crate) fn outcome(tables: &Tables, position: &Board, has_move: bool) -> Option<Outcome> {
    if !has_move {
        return Some(Outcome {
            winner: Some(position.side.opponent()),
            reason: EndReason::NoMoves,
        });
    }
    ended(tables, position)
}

fn player(index: u8) -> Player {
    Player::from_index(usize::from(index)).unwrap_or(Player::Zero)
}

/// Every end but the one of a player without a move. The tests every rule file has
/// (escapes and captured types) are inlined where a search or perft asks at every node;
/// those of the newer rules (forts, encirclement, no win) are only called under rules
/// that have them.
#[inline(always)]
pub(crate) fn ended(tables: &Tables, position: &Board) -> Option<Outcome> {
    if position.lost != 0 {
        return Some(Outcome {
            winner: Some(position.side),
            reason: EndReason::LosingSquare(PieceType(position.lost)),
        });
    }
    for &square in &tables.escape_squares {
        let square = usize::from(square);
        let bit = position.board[square];
        if bit & tables.escape_pieces != 0
            && tables.square_bits[square] & tables.pieces[type_index(bit)].escape_on != 0
        {
            return Some(Outcome {
                winner: Some(player(tables.pieces[type_index(bit)].owner)),
                reason: EndReason::Escape(PieceType(bit)),
            });
        }
    }
    for &index in &tables.capture_loss {
        if position.counts[index] == 0 {
            let loser = player(tables.pieces[index].owner);
            return Some(Outcome {
                winner: Some(loser.opponent()),
                reason: EndReason::CaptureLoss(PieceType(1 << index)),
            });
        }
    }
    if tables.exit_fort != 0 || tables.encircle.is_some() || tables.draw_no_win {
        return ended_by_area(tables, position);
    }
    None
}

/// The ends that look at the whole board: an exit fort, an encirclement, no win.
#[inline(never)]
fn ended_by_area(tables: &Tables, position: &Board) -> Option<Outcome> {
    if tables.exit_fort != 0 {
        if let Some(outcome) = fort(tables, position) {
            return Some(outcome);
        }
    }
    if let Some(winner) = tables.encircle {
        if encircled(tables, position, winner ^ 1) {
            return Some(Outcome {
                winner: Player::from_index(winner),
                reason: EndReason::Encircled,
            });
        }
    }
    if tables.draw_no_win && !can_win(tables, position, 0) && !can_win(tables, position, 1) {
        return Some(Outcome {
            winner: None,
            reason: EndReason::NoWin,
        });
    }
    None
}

/// An exit fort of any `exit_fort` piece. Only pieces at the edge can stand in one, so
/// only those are looked at.
fn fort(tables: &Tables, position: &Board) -> Option<Outcome> {
    for side in 0..2 {
        for word in 0..tables.words {
            let mut bits = position.occupied[side][word] & tables.edge[word];
            while bits != 0 {
                let square = word * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let bit = position.board[square];
                if bit & tables.exit_fort != 0 && exit_fort(tables, position, square) {
                    return Some(Outcome {
                        winner: Player::from_index(side),
                        reason: EndReason::ExitFort(PieceType(bit)),
                    });
                }
            }
        }
    }
    None
}

/// Whether a player (0 or 1) still has the pieces to win (`draw_no_win`): an `escape`
/// piece while the board has escape squares; a piece at all when he wins by `encircle`;
/// or, for a `capt_loss` type of the opponent still on the board, as many pieces that
/// capture it as its capture needs at the least (its `capt_sides` or a square's, one
/// less when a square type is hostile to it, one with `capt_edge`). Leaving the opponent
/// without a move is not counted.
fn can_win(tables: &Tables, position: &Board, side: usize) -> bool {
    let owns = |t: usize| usize::from(tables.pieces[t].owner) == side;
    let present = |t: usize| position.counts[t] > 0;
    if !tables.escape_squares.is_empty()
        && (0..8).any(|t| tables.escape_pieces & (1 << t) != 0 && owns(t) && present(t))
    {
        return true;
    }
    if tables.encircle == Some(side) && (0..8).any(|t| owns(t) && present(t)) {
        return true;
    }
    tables.capture_loss.iter().any(|&victim| {
        if owns(victim) || !present(victim) {
            return false;
        }
        let bit = 1u8 << victim;
        let info = &tables.pieces[victim];
        let mut sides = if info.capture_edge || info.capture_edge_alone {
            1
        } else {
            info.capture_sides
        };
        for square in &tables.square_types {
            if square.capture_sides != 0 && square.capture_sides_pieces & bit != 0 {
                sides = sides.min(square.capture_sides);
            }
        }
        if tables.square_types.iter().any(|s| s.captures & bit != 0) {
            sides = sides.saturating_sub(1);
        }
        let capturers: u32 = (0..8)
            .filter(|&t| owns(t) && tables.pieces[t].captures & bit != 0)
            .map(|t| u32::from(position.counts[t]))
            .sum();
        capturers >= u32::from(sides.max(1))
    })
}
