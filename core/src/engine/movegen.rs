//! Move generation: walking, counting and checking the moves of the side to move.

use std::ops::ControlFlow;

use super::type_index;
use crate::error::MoveError;
use crate::position::Board;
use crate::tables::{DIRECTIONS, Tables};
use crate::{Direction, Move, Square};

/// Walks the moves of the side to move until `f` breaks.
#[inline]
pub(crate) fn try_for_each_move(
    tables: &Tables,
    position: &Board,
    mut f: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    let side = position.side.index();
    for word in 0..tables.words {
        let mut bits = position.occupied[side][word];
        while bits != 0 {
            let from = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let t = type_index(position.board[from]);
            let from_square = tables.square_of(from);
            for direction in Direction::ALL {
                let reach = tables.reach(t, from, direction.index());
                let step = tables.steps[direction.index()];
                // A step changes the square's packed coordinates by a fixed amount.
                let packed = direction.packed();
                let mut to = from;
                let mut to_square = from_square;
                for _ in 0..reach {
                    to = to.wrapping_add_signed(step);
                    if position.board[to] != 0 {
                        break;
                    }
                    to_square = Square(to_square.0.wrapping_add_signed(packed));
                    // A square the piece may only pass over (`pass`) is no destination.
                    if tables.passing && !may_stop(tables, t, to) {
                        continue;
                    }
                    f(Move::new(from_square, to_square))?;
                }
            }
        }
    }
    ControlFlow::Continue(())
}

/// The number of moves of the side to move.
///
/// The same walk as [`try_for_each_move`], kept apart because perft's last ply only
/// needs the count: it adds up each ray's free length without making a move per square.
#[inline]
pub(crate) fn count_moves(tables: &Tables, position: &Board) -> u64 {
    let side = position.side.index();
    let mut count = 0u64;
    for word in 0..tables.words {
        let mut bits = position.occupied[side][word];
        while bits != 0 {
            let from = word * 64 + bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let t = type_index(position.board[from]);
            for direction in 0..DIRECTIONS {
                let reach = tables.reach(t, from, direction);
                let step = tables.steps[direction];
                let mut to = from;
                let mut steps = 0;
                let mut passed = 0;
                while steps < reach {
                    to = to.wrapping_add_signed(step);
                    if position.board[to] != 0 {
                        break;
                    }
                    steps += 1;
                    if tables.passing && !may_stop(tables, t, to) {
                        passed += 1;
                    }
                }
                count += (steps - passed) as u64;
            }
        }
    }
    count
}

/// Whether a piece of type index `t` may end a move on `square` (its type is in the
/// piece's `occupies`; the reach already keeps it on squares it may pass over).
#[inline]
fn may_stop(tables: &Tables, t: usize, square: usize) -> bool {
    tables.square_bits[square] & tables.occupies[t] != 0
}

/// Whether the piece on `from` has a move.
pub(crate) fn piece_has_move(tables: &Tables, position: &Board, from: usize) -> bool {
    let t = type_index(position.board[from]);
    (0..DIRECTIONS).any(|direction| {
        let step = tables.steps[direction];
        let mut to = from;
        for _ in 0..tables.reach(t, from, direction) {
            to = to.wrapping_add_signed(step);
            if position.board[to] != 0 {
                return false;
            }
            if may_stop(tables, t, to) {
                return true;
            }
        }
        false
    })
}

/// Whether the side to move has any move.
pub(crate) fn has_move(tables: &Tables, position: &Board) -> bool {
    try_for_each_move(tables, position, |_| ControlFlow::Break(())).is_break()
}

/// Checks a move against the board rules, naming the first rule it breaks.
pub(crate) fn check_move(tables: &Tables, position: &Board, mv: Move) -> Result<(), MoveError> {
    let index = |square: Square| tables.index_of(square).ok_or(MoveError::OutOfBoard(square));
    let (from, to) = (index(mv.from)?, index(mv.to)?);
    if from == to {
        return Err(MoveError::SameSquare);
    }
    let direction = mv.direction().ok_or(MoveError::NotStraight)?.index();
    let bit = position.board[from];
    if bit == 0 {
        return Err(MoveError::NoPiece);
    }
    let info = &tables.pieces[type_index(bit)];
    if usize::from(info.owner) != position.side.index() {
        return Err(MoveError::NotYourPiece);
    }
    let t = type_index(bit);
    let reach = tables.reach(t, from, direction);
    let step = tables.steps[direction];
    let mut square = from;
    for taken in 0.. {
        square = square.wrapping_add_signed(step);
        if position.board[square] != 0 {
            return Err(MoveError::Blocked(tables.square_of(square)));
        }
        if taken >= reach {
            // The square types stop the piece here: `occupies` or, if it may stand
            // there, `noreturn`.
            let bit_here = tables.square_bits[square];
            if bit_here != 0 && bit_here & tables.occupies[t] != 0 {
                return Err(MoveError::NoReturn(tables.square_of(square)));
            }
            return Err(MoveError::CannotEnter(tables.square_of(square)));
        }
        if square == to {
            if !may_stop(tables, t, to) {
                return Err(MoveError::CannotEnter(tables.square_of(to)));
            }
            return Ok(());
        }
    }
    Ok(())
}
