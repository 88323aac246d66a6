//! Perft: counting move sequences, the check of move generation and make/unmake.

use std::ops::ControlFlow;

use super::board::Board;
use super::capture::{make_move, unmake_move};
use super::end_rules::ended;
use super::movegen::{count_moves, try_for_each_move};
use crate::Move;
use crate::tables::Tables;

/// Counts the move sequences of `depth` plies, with no move after the end.
pub(crate) fn perft(
    tables: &Tables,
    position: &mut Board,
    depth: u32,
    buffers: &mut [Vec<Move>],
) -> u64 {
    if depth == 0 {
        return 1;
    }
    if ended(tables, position).is_some() {
        return 0;
    }
    if depth == 1 {
        return count_moves(tables, position);
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return 0;
    };
    moves.clear();
    let _ = try_for_each_move(tables, position, |mv| {
        moves.push(mv);
        ControlFlow::Continue(())
    });
    let mut total = 0;
    for &mv in moves.iter() {
        let undo = make_move(tables, position, mv);
        total += perft(tables, position, depth - 1, rest);
        unmake_move(tables, position, &undo);
    }
    total
}
