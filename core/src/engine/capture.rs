//! Making and taking back a move, and judging the captures it makes.

use super::board::Board;
use super::type_index;
use super::undo::Undo;
use crate::Move;
use crate::tables::{DIRECTIONS, NONE, Tables, is_x_axis, opposite};

/// Plays a move with its captures.
#[inline(always)]
pub(crate) fn make_move(tables: &Tables, position: &mut Board, mv: Move) -> Undo {
    let mut undo = Undo::new(position, mv);
    play_into(tables, position, mv, &mut undo);
    undo
}

/// Plays a move with its captures, recording them in `undo` (made by [`Undo::new`]).
fn play_into(tables: &Tables, position: &mut Board, mv: Move, undo: &mut Undo) {
    let (Some(from), Some(to)) = (tables.index_of(mv.from), tables.index_of(mv.to)) else {
        // A move off the board changes nothing, so that a wrong call never panics.
        return;
    };
    undo.set_squares(tables, from, to);
    // A move that cannot even be made (no piece, a taken square) changes nothing.
    if position.board[from] == 0 || (position.board[to] != 0 && !mv.is_jump()) {
        return;
    }
    let bit = position.take(tables, from);
    if mv.is_jump() && !take_jumped(tables, position, from, to, mv, undo) {
        position.put(tables, from, bit);
        return;
    }
    undo.played = true;
    position.put(tables, to, bit);
    if tables.losing {
        let t = type_index(bit);
        if tables.square_bits[to] & tables.pieces[t].lose_on != 0 {
            position.lost = bit;
        }
    }
    let captures = tables.pieces[type_index(bit)].captures;
    for direction in 0..DIRECTIONS {
        let Some(adjacent) = tables.neighbour(to, direction) else {
            continue;
        };
        let victim = position.board[adjacent];
        if victim == 0 || captures & victim == 0 {
            continue;
        }
        // A double trap, when it triggers, replaces the ordinary judgement of this piece.
        if double_trap(tables, position, to, adjacent, victim, undo) {
            continue;
        }
        if is_captured(tables, position, to, adjacent, victim, None) {
            position.take(tables, adjacent);
            undo.push_capture(adjacent, victim);
        }
    }
    if tables.shieldwall != 0 && tables.outward[to] != 0 {
        shieldwall(tables, position, to, bit, undo);
    }
    position.pass(tables);
}

/// Captures the shieldwalls that the piece `bit`, just moved to `dest` on an edge,
/// brackets: along that edge, a row of two or more enemy pieces, each with an armed
/// piece of the mover directly in front of it (on the inside), ending at a bracket (an
/// armed piece of the mover, or an empty square hostile to a piece of the row). The
/// row's pieces of `shieldwall` types that the mover captures are removed; the others
/// (a king) stay.
// Kept out of `play_into`, so that the moves of rules without shieldwalls run no larger code.
#[inline(never)]
fn shieldwall(tables: &Tables, position: &mut Board, dest: usize, bit: u8, undo: &mut Undo) {
    let mover = tables.pieces[type_index(bit)];
    let armed_mover = |piece: u8| {
        piece != 0 && {
            let info = &tables.pieces[type_index(piece)];
            info.owner == mover.owner && info.captures != 0
        }
    };
    for out in 0..DIRECTIONS {
        if tables.outward[dest] & (1 << out) == 0 {
            continue;
        }
        let along = if is_x_axis(out) { [2, 3] } else { [0, 1] };
        for direction in along {
            let mut end = dest;
            let mut length = 0;
            let mut row_types = 0u8;
            let bracketed = loop {
                let next = tables.neighbours[end][direction];
                if next == NONE || tables.square_bits[usize::from(next)] == 0 {
                    break false;
                }
                let next = usize::from(next);
                let piece = position.board[next];
                let enemy = piece != 0 && tables.pieces[type_index(piece)].owner != mover.owner;
                if !enemy {
                    break length >= 2
                        && (armed_mover(piece)
                            || (piece == 0 && tables.hostile[next] & row_types != 0));
                }
                let front = tables.neighbours[next][opposite(out)];
                let in_row = tables.outward[next] & (1 << out) != 0
                    && front != NONE
                    && armed_mover(position.board[usize::from(front)]);
                if !in_row {
                    break false;
                }
                row_types |= piece;
                length += 1;
                end = next;
            };
            if !bracketed {
                continue;
            }
            let step = tables.steps[direction];
            let mut square = dest;
            for _ in 0..length {
                square = square.wrapping_add_signed(step);
                let victim = position.board[square];
                if victim & tables.shieldwall & mover.captures != 0 {
                    position.take(tables, square);
                    undo.push_capture(square, victim);
                }
            }
        }
    }
}

/// Takes off the pieces that a jump capture from `from` jumps over, whatever their type,
/// recording them in `undo`. If the path leaves the board, lands on a taken square or
/// does not end on `to`, puts them back and returns false: the move cannot be made.
// Kept out of `play_into`, as `shieldwall` is.
#[inline(never)]
fn take_jumped(
    tables: &Tables,
    position: &mut Board,
    from: usize,
    to: usize,
    mv: Move,
    undo: &mut Undo,
) -> bool {
    let mut at = from;
    let directions = mv.jumps.iter().map(Some).chain([None]);
    for direction in directions {
        let Some(direction) = direction else {
            if at == to {
                return true;
            }
            restore(tables, position, undo);
            return false;
        };
        let over = tables.neighbours[at][direction.index()];
        let land = if over == NONE {
            NONE
        } else {
            tables.neighbours[usize::from(over)][direction.index()]
        };
        if land == NONE || position.board[usize::from(land)] != 0 {
            restore(tables, position, undo);
            return false;
        }
        let over = usize::from(over);
        if position.board[over] != 0 {
            let victim = position.take(tables, over);
            undo.push_capture(over, victim);
        }
        at = usize::from(land);
    }
    true
}

/// Puts back the pieces recorded in `undo` and forgets them.
fn restore(tables: &Tables, position: &mut Board, undo: &mut Undo) {
    for (square, victim) in undo.captured_pieces() {
        position.put(tables, square, victim);
    }
    undo.clear_captures();
}

/// Takes back a move made by [`make_move`].
#[inline]
pub(crate) fn unmake_move(tables: &Tables, position: &mut Board, undo: &Undo) {
    if !undo.played {
        return;
    }
    position.pass(tables);
    let (from, to) = (usize::from(undo.from), usize::from(undo.to));
    let bit = position.take(tables, to);
    position.put(tables, from, bit);
    for (square, victim) in undo.captured_pieces() {
        position.put(tables, square, victim);
    }
    position.lost = undo.lost;
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
        let Some(partner) = tables.neighbour(adjacent, direction) else {
            continue;
        };
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
        let alone = info.capture_edge_alone && {
            let owned = &position.occupied[usize::from(info.owner)][..tables.words];
            owned.iter().map(|word| word.count_ones()).sum::<u32>() == 1
        };
        (
            info.capture_edge || alone,
            info.capture_sides,
            info.custodial,
        )
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
