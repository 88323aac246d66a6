//! The escape terms: how near an escape piece (the king) is to an escape square, the open
//! lines and routes to one, and its paths a few moves ahead on a board of [`BoardBits`].

use hnefatafl_core::{Move, Position};

use super::{BoardBits, EMPTY, EvalWeights, NONE, Tables, kind};

/// The escape terms of the escape piece of type `t` on `s`, for its owner: its distance to
/// an escape square, open lines to one, the routes and, on a board of [`BoardBits`], the
/// paths a few moves ahead. `occupied`: the occupied squares on such a board.
#[inline]
pub(super) fn escape_terms(
    tables: &Tables,
    board: &[u8],
    s: usize,
    t: usize,
    to_move: usize,
    occupied: u128,
) -> i32 {
    let w = &tables.weights;
    let info = &tables.types[t];
    let owner = info.owner;
    let mut score = 0;
    let distance = tables.escape_distance[t][s];
    if let Some(&bonus) = w.escape_distance.get(distance as usize) {
        score += bonus;
    }
    if !info.scan_lines {
        return score;
    }
    let lines = open_lines(tables, board, s, t);
    if lines == 0 && (w.two_moves_to_escape != 0 || w.escape_route != 0) {
        let routes = escape_routes(tables, board, s, t);
        if routes > 0 {
            score += w.two_moves_to_escape + routes as i32 * w.escape_route;
        }
    }
    if lines == 0 && info.follow && tables.paths_weighed {
        if let Some(bits) = &tables.bits {
            score += escape_paths(bits, w, occupied, s, t, info.steps, owner == to_move);
        }
    }
    if lines > 0 {
        score += if owner == to_move {
            w.open_line_to_move
        } else if lines == 1 {
            w.open_line_one
        } else {
            w.open_line_two
        };
    }
    score
}

/// The terms of an escape piece of type `t` on `s` with no open line to an escape square
/// that follow its moves over the empty squares: forks (a square it reaches in one move
/// with open lines to two escape squares) and the need for three moves. `steps`: how far it
/// moves; `own_move`: its side is to move.
fn escape_paths(
    bits: &BoardBits,
    w: &EvalWeights,
    occupied: u128,
    s: usize,
    t: usize,
    steps: u8,
    own_move: bool,
) -> i32 {
    let free = bits.stand[t] & !occupied;
    let escapes = bits.escapes[t] & !occupied;
    // Squares that see an escape square looking in each direction.
    let sight: [u128; 4] =
        std::array::from_fn(|d| bits.slide(escapes, free, d ^ 1, steps) & !escapes);
    let seen = sight[0] | sight[1] | sight[2] | sight[3];
    let forks = (sight[0] & (sight[1] | sight[2] | sight[3]))
        | (sight[1] & (sight[2] | sight[3]))
        | (sight[2] & sight[3]);
    let king = 1u128 << s;
    let mut reach = 0;
    let mut fork_lines = 0;
    for d in 0..4 {
        let line = bits.slide(king, free, d, steps);
        reach |= line;
        fork_lines += i32::from(line & forks != 0);
    }
    if fork_lines > 0 {
        return if own_move {
            w.fork_to_move
        } else if fork_lines == 1 {
            w.fork_one
        } else {
            w.fork_two
        };
    }
    if reach & seen != 0 || w.three_moves_to_escape == 0 {
        return 0;
    }
    let second = (0..4).fold(0, |r, d| r | bits.slide(reach, free, d, steps));
    if second & seen != 0 {
        w.three_moves_to_escape
    } else {
        0
    }
}

/// Whether the move puts an escape piece on a square that has an open line to an escape
/// square, so that the mover threatens to win with its next move. Reads the board before
/// the move (with the piece moved; captures are left out, they only open lines).
pub(crate) fn threatens_escape(tables: &Tables, board: &mut [u8], mv: Move) -> bool {
    let (from, to) = (tables.index(mv.from()), tables.index(mv.to()));
    let t = board[from];
    if t == EMPTY {
        return false;
    }
    let info = &tables.types[kind(t)];
    if !info.escape || !info.scan_lines || tables.escape_square[to] {
        return false;
    }
    board[from] = EMPTY;
    board[to] = t;
    let lines = open_lines(tables, board, to, kind(t));
    board[to] = EMPTY;
    board[from] = t;
    lines > 0
}

/// Whether an escape piece of the player not to move has an open line to an escape
/// square: unless the side to move blocks every such line (or captures the piece), the
/// piece escapes with its next move. The search's "check".
pub(crate) fn escape_threatened(tables: &Tables, position: &Position) -> bool {
    let board = position.board_bits();
    let enemy = position.side_to_move().opponent();
    position.occupied(enemy).iter().any(|s| {
        let t = kind(board[s]);
        let info = &tables.types[t];
        info.escape && info.scan_lines && open_lines(tables, board, s, t) > 0
    })
}

/// Whether a move builds around its own side's escape piece: it moves an escape piece, or
/// lands on one of the eight squares around one of its side's. An exit fort is made of
/// such moves, most of them quiet. Reads the board before the move.
pub(crate) fn near_own_escape_piece(tables: &Tables, board: &[u8], mv: Move) -> bool {
    let (from, to) = (tables.index(mv.from()), tables.index(mv.to()));
    let t = board[from];
    if t == EMPTY {
        return false;
    }
    let info = &tables.types[kind(t)];
    if info.escape {
        return true;
    }
    let own_escape = |s: u16| {
        s != NONE && board[s as usize] != EMPTY && {
            let there = &tables.types[kind(board[s as usize])];
            there.escape && there.owner == info.owner
        }
    };
    // The four beside `to`, and from each the one a quarter turn on: the four corners.
    tables.neighbours[to]
        .iter()
        .enumerate()
        .any(|(direction, &n)| {
            own_escape(n)
                || (n != NONE && own_escape(tables.neighbours[n as usize][(direction + 1) % 4]))
        })
}

/// Open lines from square `s` to an escape square for a piece of type `t`.
fn open_lines(tables: &Tables, board: &[u8], s: usize, t: usize) -> u32 {
    let mut lines = 0;
    for direction in 0..4 {
        let mut at = tables.neighbours[s][direction];
        while at != NONE && board[at as usize] == EMPTY && tables.may_stand(t, at as usize) {
            if tables.escape_square[at as usize] {
                lines += 1;
                break;
            }
            at = tables.neighbours[at as usize][direction];
        }
    }
    lines
}

/// Squares the piece of type `t` on `s` reaches in one move from which it sees an escape
/// square (the board as it stands).
fn escape_routes(tables: &Tables, board: &[u8], s: usize, t: usize) -> u32 {
    let mut routes = 0;
    for direction in 0..4 {
        let mut at = tables.neighbours[s][direction];
        while at != NONE && board[at as usize] == EMPTY && tables.may_stand(t, at as usize) {
            let a = at as usize;
            if tables.escape_distance[t][a] == 1 {
                // Look sideways only: straight on was already seen from `s`.
                let side_lines = [(direction + 1) % 4, (direction + 3) % 4]
                    .iter()
                    .any(|&side| {
                        let mut step = tables.neighbours[a][side];
                        while step != NONE
                            && board[step as usize] == EMPTY
                            && tables.may_stand(t, step as usize)
                        {
                            if tables.escape_square[step as usize] {
                                return true;
                            }
                            step = tables.neighbours[step as usize][side];
                        }
                        false
                    });
                routes += u32::from(side_lines);
            }
            at = tables.neighbours[a][direction];
        }
    }
    routes
}
