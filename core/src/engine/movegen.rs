//! Move generation: walking, counting and checking the moves of the side to move.

use std::ops::ControlFlow;

use super::board::Board;
use super::type_index;
use crate::error::MoveError;
use crate::tables::NONE;
use crate::tables::{DIRECTIONS, Tables};
use crate::{Direction, Jumps, Move, Square};

/// Walks the moves of the side to move until `f` breaks: the jump captures first, then
/// (unless a jump capture is compulsory and there is one) the ordinary moves.
#[inline]
pub(crate) fn try_for_each_move(
    tables: &Tables,
    position: &Board,
    mut f: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    if tables.jumping {
        let mut any = false;
        for_each_jump(tables, position, &mut |mv| {
            any = true;
            f(mv)
        })?;
        if any && tables.jump_compulsory {
            return ControlFlow::Continue(());
        }
    }
    ordinary_moves(tables, position, f)
}

/// Walks the ordinary moves (along a row or column, no jump) of the side to move.
#[inline]
fn ordinary_moves(
    tables: &Tables,
    position: &Board,
    f: impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    // Two copies of the walk, so that rules without `pass` squares test none per square.
    if tables.passing {
        ordinary::<true, _>(tables, position, f)
    } else {
        ordinary::<false, _>(tables, position, f)
    }
}

/// The walk of [`ordinary_moves`]; `PASSING`: whether some squares may only be passed.
#[inline(always)]
fn ordinary<const PASSING: bool, F: FnMut(Move) -> ControlFlow<()>>(
    tables: &Tables,
    position: &Board,
    mut f: F,
) -> ControlFlow<()> {
    let board = &position.board[..];
    let width = tables.width as isize;
    for from in position.movers(tables) {
        // A piece's bit is never 0, so the mask changes nothing and spares a bound check.
        let t = type_index(board[from]) & 7;
        let from_square = tables.square_of(from);
        let reaches = tables.reaches(t, from);
        for direction in Direction::ALL {
            let reach = reaches[direction.index()];
            // A step changes the square's packed coordinates by a fixed amount, and
            // the index by 1 along a row (a constant once the loop is unrolled).
            let packed = direction.packed();
            let step = if direction.is_horizontal() {
                isize::from(packed)
            } else {
                isize::from(packed) / 32 * width
            };
            let mut to = from;
            let mut mv = Move::new(from_square, from_square);
            for _ in 0..reach {
                to = to.wrapping_add_signed(step);
                if board[to] != 0 {
                    break;
                }
                mv.to = Square(mv.to.0.wrapping_add_signed(packed));
                // A square the piece may only pass over (`pass`) is no destination.
                if PASSING && !may_stop(tables, t, to) {
                    continue;
                }
                f(mv)?;
            }
        }
    }
    ControlFlow::Continue(())
}

/// Walks the jump captures of the side to move. With `jump_compulsory` only the chains
/// that end where the piece cannot jump again; otherwise every chain, each stop after a
/// jump being a move of its own.
fn for_each_jump(
    tables: &Tables,
    position: &Board,
    f: &mut impl FnMut(Move) -> ControlFlow<()>,
) -> ControlFlow<()> {
    for from in position.movers(tables) {
        let t = type_index(position.board[from]);
        if tables.pieces[t].jump == 0 {
            continue;
        }
        let mut chain = Chain {
            from,
            t,
            taken: [0; Jumps::MAX],
        };
        chain.walk(tables, position, from, Jumps::EMPTY, f)?;
    }
    ControlFlow::Continue(())
}

/// A jump capture being walked: the jumping piece, and the squares of the pieces it has
/// jumped so far (taken off the board as they are jumped, so not jumped twice).
struct Chain {
    from: usize,
    t: usize,
    taken: [u16; Jumps::MAX],
}

impl Chain {
    /// Whether a square is free for the jumping piece: empty, the square it left, or a
    /// square of a piece it has already jumped.
    fn free(&self, position: &Board, square: usize, jumps: Jumps) -> bool {
        position.board[square] == 0
            || square == self.from
            || self.taken[..jumps.len()].contains(&(square as u16))
    }

    /// Walks every continuation of a chain that has made `jumps` and stands on `at`.
    fn walk(
        &mut self,
        tables: &Tables,
        position: &Board,
        at: usize,
        jumps: Jumps,
        f: &mut impl FnMut(Move) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let victims = tables.pieces[self.t].jump;
        let mut went_on = false;
        if jumps.len() < Jumps::MAX {
            for direction in Direction::ALL {
                let over = tables.neighbours[at][direction.index()];
                if over == NONE {
                    continue;
                }
                let over = usize::from(over);
                let victim = position.board[over];
                let jumped = self.taken[..jumps.len()].contains(&(over as u16));
                if victim & victims == 0 || jumped {
                    continue;
                }
                let land = tables.neighbours[over][direction.index()];
                if land == NONE {
                    continue;
                }
                let land = usize::from(land);
                if !self.free(position, land, jumps) || !may_stop(tables, self.t, land) {
                    continue;
                }
                went_on = true;
                let Some(next) = jumps.with(direction) else {
                    continue;
                };
                let mv = Move {
                    from: tables.square_of(self.from),
                    to: tables.square_of(land),
                    jumps: next,
                };
                if !tables.jump_compulsory {
                    f(mv)?;
                }
                self.taken[jumps.len()] = over as u16;
                self.walk(tables, position, land, next, f)?;
            }
        }
        if tables.jump_compulsory && !went_on && !jumps.is_empty() {
            f(Move {
                from: tables.square_of(self.from),
                to: tables.square_of(at),
                jumps,
            })?;
        }
        ControlFlow::Continue(())
    }
}

/// The number of moves of the side to move.
///
/// The same walk as [`try_for_each_move`], kept apart because perft's last ply only
/// needs the count: it adds up each ray's free length without making a move per square.
#[inline]
pub(crate) fn count_moves(tables: &Tables, position: &Board) -> u64 {
    if tables.jumping {
        let mut count = 0;
        let _ = try_for_each_move(tables, position, |_| {
            count += 1;
            ControlFlow::Continue(())
        });
        return count;
    }
    // Two copies of the walk, so that rules without `pass` squares test none per square.
    if tables.passing {
        count_ordinary::<true>(tables, position)
    } else {
        count_ordinary::<false>(tables, position)
    }
}

/// The number of ordinary moves; `PASSING`: whether some squares may only be passed.
#[inline(always)]
fn count_ordinary<const PASSING: bool>(tables: &Tables, position: &Board) -> u64 {
    let mut count = 0u64;
    for from in position.movers(tables) {
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
                if PASSING && !may_stop(tables, t, to) {
                    passed += 1;
                }
            }
            count += (steps - passed) as u64;
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

/// Whether the piece on `from` has a move: an ordinary one, or a jump capture (one jump
/// is enough to know that it can move).
pub(crate) fn piece_has_move(tables: &Tables, position: &Board, from: usize) -> bool {
    let t = type_index(position.board[from]);
    let victims = tables.pieces[t].jump;
    let can_jump = |direction: usize| {
        let over = tables.neighbours[from][direction];
        if over == NONE || position.board[usize::from(over)] & victims == 0 {
            return false;
        }
        let land = tables.neighbours[usize::from(over)][direction];
        land != NONE
            && position.board[usize::from(land)] == 0
            && may_stop(tables, t, usize::from(land))
    };
    if victims != 0 && (0..DIRECTIONS).any(can_jump) {
        return true;
    }
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
    if !tables.jumping {
        return check_ordinary(tables, position, mv);
    }
    let legal = try_for_each_move(tables, position, |m| {
        if m == mv {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    });
    if legal.is_break() {
        return Ok(());
    }
    if mv.is_jump() {
        // The piece's own errors first: none there, or not the mover's.
        let from = tables
            .index_of(mv.from)
            .ok_or(MoveError::OutOfBoard(mv.from))?;
        let bit = position.board[from];
        if bit == 0 {
            return Err(MoveError::NoPiece);
        }
        if usize::from(tables.pieces[type_index(bit)].owner) != position.side.index() {
            return Err(MoveError::NotYourPiece);
        }
        Err(MoveError::NoSuchJump)
    } else {
        // An ordinary move that is not among the moves: refused for a compulsory jump
        // when there is one, otherwise for the ordinary reason.
        let jump_exists = tables.jump_compulsory
            && for_each_jump(tables, position, &mut |_| ControlFlow::Break(())).is_break();
        match check_ordinary(tables, position, mv) {
            Err(MoveError::NoPiece) => Err(MoveError::NoPiece),
            Err(MoveError::NotYourPiece) => Err(MoveError::NotYourPiece),
            _ if jump_exists => Err(MoveError::MustJump),
            other => other,
        }
    }
}

/// Checks an ordinary move against the board rules, naming the first rule it breaks.
fn check_ordinary(tables: &Tables, position: &Board, mv: Move) -> Result<(), MoveError> {
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

#[cfg(test)]
mod tests {
    use super::piece_has_move;
    use crate::Rules;

    /// A 5x5 board with the king (1) in the bottom row between two defenders (2) and
    /// under an attacker (4) with an empty square beyond it: his only move, if any, is
    /// a jump over the attacker.
    fn boxed_king(king_jumps: bool) -> Rules {
        let jump = if king_jumps { "piece 1 jump 4\n" } else { "" };
        let text = format!(
            "id boxed\nname boxed\nwidth 5\nheight 5\n\
             pieces 0 0 0 0 0  0 0 0 0 0  0 0 0 0 0  0 2 4 2 0  0 2 1 2 0\n\
             squares {}\n\
             piece bit 1\npiece 1 owner 1\npiece 1 captures 4\npiece 1 capt_sides 4\n\
             piece 1 capt_loss\npiece 1 occupies 1\n{jump}\
             piece bit 2\npiece 2 owner 1\npiece 2 captures 4\npiece 2 custodial\n\
             piece 2 occupies 1\n\
             piece bit 4\npiece 4 owner 0\npiece 4 captures 3\npiece 4 custodial\n\
             piece 4 occupies 1\nsquare bit 1\n",
            ["1"; 25].join(" ")
        );
        Rules::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"))
    }

    #[test]
    fn a_jump_capture_counts_as_a_move_of_the_piece() {
        let king = 4 * 5 + 2;
        for (king_jumps, has_move) in [(false, false), (true, true)] {
            let rules = boxed_king(king_jumps);
            let position = rules.start_position();
            assert_eq!(
                piece_has_move(rules.tables(), &position.state, king),
                has_move,
                "king jumps: {king_jumps}"
            );
        }
    }
}
