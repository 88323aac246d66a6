//! Ends decided by enclosed areas: the exit fort (`exit_fort`) and encirclement
//! (`encircle`). Both are flood fills over fixed-size bitsets on the stack, so a search
//! may ask at every node without allocating.

use super::board::Board;
use super::type_index;
use crate::BitBoard;
use crate::tables::{DIRECTIONS, MAX_SQUARES, Tables, WORDS, is_x_axis, opposite};

/// The squares still to visit of a flood fill.
struct Stack {
    squares: [u16; MAX_SQUARES],
    len: usize,
}

impl Stack {
    fn new() -> Stack {
        Stack {
            squares: [0; MAX_SQUARES],
            len: 0,
        }
    }

    fn push(&mut self, square: usize) {
        // Each square is pushed at most once (the callers keep a visited set), so the
        // stack never holds more than the board's squares.
        if self.len < MAX_SQUARES {
            self.squares[self.len] = square as u16;
            self.len += 1;
        }
    }

    fn pop(&mut self) -> Option<usize> {
        self.len = self.len.checked_sub(1)?;
        Some(usize::from(self.squares[self.len]))
    }
}

/// The neighbour of a square in a direction, if it is a square of the board.
#[inline]
fn board_neighbour(tables: &Tables, square: usize, direction: usize) -> Option<usize> {
    tables
        .neighbour(square, direction)
        .filter(|&next| tables.square_bits[next] != 0)
}

/// Whether every piece of `enclosed` (0 or 1) is enclosed: no path through empty squares
/// and that player's own pieces leads from any of them to a square at the edge. False
/// when the player has no piece.
///
/// A search asks this at every node, so the fill runs on whole words of the bitset: each
/// round adds every neighbour of the area at once, and a round that reaches the edge ends
/// it (almost always in the first few rounds). It is compiled for a few word counts, so
/// that a board of two words copies and compares two words a round, not [`WORDS`].
pub(crate) fn encircled(tables: &Tables, position: &Board, enclosed: usize) -> bool {
    match tables.words {
        1 => fill::<1>(tables, position, enclosed),
        2 => fill::<2>(tables, position, enclosed),
        3 => fill::<3>(tables, position, enclosed),
        4 => fill::<4>(tables, position, enclosed),
        5..=8 => fill::<8>(tables, position, enclosed),
        _ => fill::<WORDS>(tables, position, enclosed),
    }
}

/// [`encircled`] on the first `N` words (at least the board's; the words past the board
/// hold no square, so they stay empty).
fn fill<const N: usize>(tables: &Tables, position: &Board, enclosed: usize) -> bool {
    let mut open = [0u64; N];
    let mut area = [0u64; N];
    let mut touches = 0;
    for word in 0..N {
        open[word] = tables.on_board[word] & !position.occupied[enclosed ^ 1][word];
        area[word] = position.occupied[enclosed][word];
        touches |= area[word] & tables.edge[word];
    }
    if area.iter().all(|&bits| bits == 0) || touches != 0 {
        return false;
    }
    let width = tables.width as u32;
    loop {
        let mut grown = [0u64; N];
        let mut changed = 0;
        let mut touches = 0;
        for word in 0..N {
            let here = area[word];
            let below = if word > 0 { area[word - 1] } else { 0 };
            let above = if word + 1 < N { area[word + 1] } else { 0 };
            // A row-major index grows by 1 to the east and by the width to the south.
            let east = here << 1 | below >> 63;
            let west = here >> 1 | above << 63;
            let south = here << width | below >> (64 - width);
            let north = here >> width | above << (64 - width);
            grown[word] = (here
                | (east & tables.not_first_column[word])
                | (west & tables.not_last_column[word])
                | south
                | north)
                & open[word];
            changed |= grown[word] ^ here;
            touches |= grown[word] & tables.edge[word];
        }
        if changed == 0 {
            return true;
        }
        if touches != 0 {
            return false;
        }
        area = grown;
    }
}

/// Whether the piece at `king` stands in an exit fort (see docs/rules.md, "Exit fort"):
/// on the edge, able to move, and in an area of empty squares that no enemy borders,
/// walled in by pieces of its owner that no enemy can ever capture.
///
/// Allocates nothing; the wall is found by at most one pass per piece dropped.
pub(crate) fn exit_fort(tables: &Tables, position: &Board, king: usize) -> bool {
    if tables.outward[king] == 0 || !super::movegen::piece_has_move(tables, position, king) {
        return false;
    }
    let owner = tables.pieces[type_index(position.board[king])].owner;
    let mut inside = BitBoard::EMPTY;
    let mut border = BitBoard::EMPTY;
    let mut stack = Stack::new();
    inside.insert(king);
    stack.push(king);
    while let Some(square) = stack.pop() {
        for direction in 0..DIRECTIONS {
            let Some(next) = board_neighbour(tables, square, direction) else {
                continue;
            };
            let piece = position.board[next];
            if piece == 0 {
                if inside.insert(next) {
                    stack.push(next);
                }
            } else if tables.pieces[type_index(piece)].owner != owner {
                // An enemy next to the area can move into it.
                return false;
            } else if next != king {
                border.insert(next);
            }
        }
    }
    // The wall: the largest set of the owner's pieces of which each holds while all the
    // others stand. Start from every piece and drop those that do not hold until none
    // is left to drop; the pieces around the inside must all remain.
    let mut fort = Fort {
        tables,
        position,
        inside,
        wall: BitBoard::from_words(position.occupied[usize::from(owner)]),
    };
    fort.wall.remove(king);
    loop {
        let mut dropped = false;
        for square in fort.wall.iter() {
            if !fort.piece_holds(square) {
                fort.wall.remove(square);
                dropped = true;
            }
        }
        if !dropped {
            break;
        }
    }
    border.iter().all(|square| fort.wall.contains(square))
}

/// An exit fort being judged: the area around the king and the wall that holds so far.
struct Fort<'a> {
    tables: &'a Tables,
    position: &'a Board,
    /// The empty squares the king can reach, and the king's own.
    inside: BitBoard,
    /// The owner's pieces that hold while all of them stand.
    wall: BitBoard,
}

impl Fort<'_> {
    /// Whether the wall piece at `square` can never be captured while every wall piece
    /// stands and no enemy enters the inside: each side that could ever be enclosed is
    /// counted, and the piece holds when too few are left for its capture rule (ordinary,
    /// custodial, shieldwall). A piece that may be taken in a double trap, or that an enemy
    /// type captures by jumping (`jump`), never holds.
    fn piece_holds(&self, square: usize) -> bool {
        let (tables, wall) = (self.tables, &self.wall);
        let bit = self.position.board[square];
        let info = &tables.pieces[type_index(bit)];
        if info.double_trap || tables.jumped & bit != 0 {
            return false;
        }
        // A side is safe when it can never enclose the piece: the board's end (unless the
        // piece is captured against it), an inside square that is not hostile to it, or
        // another wall piece.
        let safe = |direction: usize| match board_neighbour(tables, square, direction) {
            None => !(info.capture_edge || info.capture_edge_alone),
            Some(next) => wall.contains(next) || self.calm_inside(next, bit),
        };
        let mut sides = info.capture_sides;
        let mut custodial = info.custodial;
        let square_info = &tables.square_types[type_index(tables.square_bits[square])];
        if square_info.capture_sides != 0 && square_info.capture_sides_pieces & bit != 0 {
            sides = square_info.capture_sides;
            if !(2..4).contains(&sides) {
                custodial = false;
            }
        }
        let mut open = [0u8; 2];
        let mut on_board = 0;
        let mut axes_at_edge = 0;
        for direction in 0..DIRECTIONS {
            let axis = usize::from(!is_x_axis(direction));
            let here = board_neighbour(tables, square, direction).is_some();
            on_board += u8::from(here);
            if !here {
                axes_at_edge |= 1 << axis;
            }
            if here && !safe(direction) {
                open[axis] += 1;
            }
        }
        let edge = info.capture_edge || info.capture_edge_alone;
        if edge {
            sides = sides.min(on_board);
        }
        let total = open[0] + open[1];
        let mut capturable = total >= sides;
        if capturable && custodial {
            let lifted = edge && (total >= on_board || axes_at_edge == 3);
            capturable = lifted || open[0] == 2 || open[1] == 2;
        }
        if capturable {
            return false;
        }
        tables.shieldwall & bit == 0 || !self.shieldwall_possible(square)
    }

    /// Whether the wall piece at `square` could be taken in a shieldwall along one of the
    /// edges it stands on: the run of wall pieces along that edge through `square` has an
    /// open front at every piece (a square that is neither inside nor wall) and, at each
    /// end, a square that could become a bracket (not the board's end, not a safe inside
    /// square).
    fn shieldwall_possible(&self, square: usize) -> bool {
        let Fort {
            tables,
            position,
            inside,
            wall,
        } = self;
        let bit = position.board[square];
        let front_open = |piece: usize, out: usize| {
            board_neighbour(tables, piece, opposite(out))
                .is_some_and(|front| !inside.contains(front) && !wall.contains(front))
        };
        let run_open = |out: usize| {
            if !front_open(square, out) {
                return false;
            }
            let along = if is_x_axis(out) { [2, 3] } else { [0, 1] };
            along.into_iter().all(|direction| {
                let mut piece = square;
                loop {
                    match board_neighbour(tables, piece, direction) {
                        Some(next) if wall.contains(next) => {
                            if !front_open(next, out) {
                                return false;
                            }
                            piece = next;
                        }
                        // The run ends at the board's end: nothing can bracket it there.
                        None => return false,
                        Some(next) => {
                            return !self.calm_inside(next, bit);
                        }
                    }
                }
            })
        };
        (0..DIRECTIONS).any(|out| tables.outward[square] & (1 << out) != 0 && run_open(out))
    }

    /// Whether `square` is inside and not hostile to a piece of type `bit`: no side of
    /// the piece that a capture could use.
    fn calm_inside(&self, square: usize, bit: u8) -> bool {
        self.inside.contains(square) && self.tables.hostile[square] & bit == 0
    }
}
