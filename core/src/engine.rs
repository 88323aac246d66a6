//! Move generation, captures and the end of the game, on compiled tables.

use std::ops::ControlFlow;

use crate::error::MoveError;
use crate::position::{Board, Undo};
use crate::tables::{DIRECTIONS, NONE, Tables, is_x_axis, opposite};
use crate::{Direction, EndReason, Move, Outcome, PieceType, Player, Square};

#[inline]
fn type_index(bit: u8) -> usize {
    bit.trailing_zeros() as usize
}

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
                while steps < reach {
                    to = to.wrapping_add_signed(step);
                    if position.board[to] != 0 {
                        break;
                    }
                    steps += 1;
                }
                count += steps as u64;
            }
        }
    }
    count
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
            return Ok(());
        }
    }
    Ok(())
}

/// Plays a move with its captures.
pub(crate) fn make_move(tables: &Tables, position: &mut Board, mv: Move) -> Undo {
    let (Some(from), Some(to)) = (tables.index_of(mv.from), tables.index_of(mv.to)) else {
        // A move off the board changes nothing, so that a wrong call never panics.
        return Undo::new(tables, position, mv, 0, 0);
    };
    let mut undo = Undo::new(tables, position, mv, from, to);
    // A move that cannot even be made (no piece, a taken square) changes nothing.
    if position.board[from] == 0 || position.board[to] != 0 {
        return undo;
    }
    undo.played = true;
    let bit = position.take(tables, from);
    position.put(tables, to, bit);
    let captures = tables.pieces[type_index(bit)].captures;
    for direction in 0..DIRECTIONS {
        let adjacent = tables.neighbours[to][direction];
        if adjacent == NONE {
            continue;
        }
        let adjacent = usize::from(adjacent);
        let victim = position.board[adjacent];
        if victim == 0 || captures & victim == 0 {
            continue;
        }
        // A double trap, when it triggers, replaces the ordinary judgement of this piece.
        if double_trap(tables, position, to, adjacent, victim, &mut undo) {
            continue;
        }
        if is_captured(tables, position, to, adjacent, victim, None) {
            position.take(tables, adjacent);
            undo.push_capture(adjacent, victim);
        }
    }
    position.pass(tables);
    undo
}

/// Takes back a move made by [`make_move`].
pub(crate) fn unmake_move(tables: &Tables, position: &mut Board, undo: &Undo) {
    if !undo.played {
        return;
    }
    position.pass(tables);
    let (from, to) = (usize::from(undo.from), usize::from(undo.to));
    let bit = position.take(tables, to);
    position.put(tables, from, bit);
    for &(square, victim) in &undo.captured[..usize::from(undo.capture_count)] {
        position.put(tables, usize::from(square), victim);
    }
    debug_assert_eq!(position.hash, undo.hash);
}

/// Judges a double trap of the piece at `adjacent` with a neighbour of the same owner;
/// removes the trapped pieces that have `dbl_trap_capt`. Returns whether one triggered.
fn double_trap(
    tables: &Tables,
    position: &mut Board,
    dest: usize,
    adjacent: usize,
    victim: u8,
    undo: &mut Undo,
) -> bool {
    let info = tables.pieces[type_index(victim)];
    if !info.double_trap || tables.square_bits[adjacent] & info.double_trap_squares == 0 {
        return false;
    }
    for direction in 0..DIRECTIONS {
        let partner = tables.neighbours[adjacent][direction];
        if partner == NONE {
            continue;
        }
        let partner = usize::from(partner);
        let partner_bit = position.board[partner];
        if partner_bit == 0 {
            continue;
        }
        let other = tables.pieces[type_index(partner_bit)];
        if other.owner != info.owner
            || !other.double_trap
            || !(info.double_trap_capture || other.double_trap_capture)
            || (info.double_trap_complement && other.double_trap_complement)
            || tables.square_bits[partner] & other.double_trap_squares == 0
        {
            continue;
        }
        if is_captured(tables, position, dest, adjacent, victim, Some(direction))
            && is_captured(
                tables,
                position,
                dest,
                partner,
                partner_bit,
                Some(opposite(direction)),
            )
        {
            if info.double_trap_capture {
                position.take(tables, adjacent);
                undo.push_capture(adjacent, victim);
            }
            if other.double_trap_capture {
                position.take(tables, partner);
                undo.push_capture(partner, partner_bit);
            }
            return true;
        }
    }
    false
}

/// Whether the piece `victim` at `square` is captured by the piece that moved to `dest`.
///
/// `partner` is the direction of the other piece of a double trap: that side is judged
/// one square further (the board's end or a 0-square there is an edge), the custodial
/// pair may be any two enclosing pieces, and the double-trap variants of `capt_edge`,
/// `capt_sides` and `custodial` apply.
fn is_captured(
    tables: &Tables,
    position: &Board,
    dest: usize,
    square: usize,
    victim: u8,
    partner: Option<usize>,
) -> bool {
    let info = &tables.pieces[type_index(victim)];
    let double = partner.is_some();
    let (edge, mut sides, mut custodial) = if double {
        let enclosed = info.double_trap_enclosed;
        (
            info.double_trap_edge,
            if enclosed { 4 } else { info.capture_sides },
            !enclosed && info.custodial,
        )
    } else {
        (info.capture_edge, info.capture_sides, info.custodial)
    };
    let square_bit = tables.square_bits[square];
    let square_info = &tables.square_types[type_index(square_bit)];
    if square_info.capture_sides != 0
        && square_info.capture_sides_pieces & victim != 0
        && !(double && info.double_trap_enclosed)
    {
        sides = square_info.capture_sides;
        if !(2..4).contains(&sides) {
            custodial = false;
        }
    }

    let mut off_board = [0u8; 2];
    let mut enclosed = [0u8; 2];
    for direction in 0..DIRECTIONS {
        let axis = usize::from(!is_x_axis(direction));
        let mut next = tables.neighbours[square][direction];
        if next == NONE {
            off_board[axis] += 1;
            continue;
        }
        if partner == Some(direction) {
            next = tables.neighbours[usize::from(next)][direction];
            // The board may end beyond the partner: that is an edge like a 0-square there
            // (the original counted only the 0-square).
            if next == NONE {
                off_board[axis] += 1;
                continue;
            }
        }
        let next = usize::from(next);
        if tables.square_bits[next] == 0 {
            off_board[axis] += 1;
        } else if next == dest {
            enclosed[axis] += 1;
        } else {
            let piece = position.board[next];
            let hostile = if piece != 0 {
                tables.pieces[type_index(piece)].captures & victim != 0
            } else {
                tables.hostile[next] & victim != 0
            };
            if hostile {
                enclosed[axis] += 1;
            }
        }
    }
    let on_board = 4 - off_board[0] - off_board[1];
    if edge && sides > on_board {
        sides = on_board;
    }
    let total = enclosed[0] + enclosed[1];
    if total < sides {
        return false;
    }
    // capt_edge lifts the custodial requirement when the piece is enclosed on every
    // on-board side, or when both axes touch the edge so no custodial pair is possible.
    let custodial_applies = custodial
        && !(edge && total >= on_board)
        && !(edge && off_board[0] > 0 && off_board[1] > 0);
    if !custodial_applies {
        return true;
    }
    if double {
        enclosed[0] >= 2 || enclosed[1] >= 2
    } else {
        let on_x_axis = tables.neighbours[square][0] == dest as u16
            || tables.neighbours[square][1] == dest as u16;
        enclosed[usize::from(!on_x_axis)] >= 2
    }
}

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
