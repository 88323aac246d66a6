//! The static guess of a move's worth, from the position and the move alone: the order in
//! which the search tries moves and which it searches less deeply.

use super::{EMPTY, NONE, Tables, kind, occupancy};
use hnefatafl_core::{Move, Player, Position};

/// The static guess of an escape piece's move onto an escape square, far above any
/// capture's.
pub(crate) const ESCAPE_GUESS: i32 = 1_000_000;

/// The squares beside a piece of the player not to move, for [`move_guess`]: on a board
/// of [`super::BoardBits`], where no such square may have a guess but an escape piece's move;
/// every square on a larger board.
pub(crate) fn beside_enemy(tables: &Tables, position: &Position) -> u128 {
    match &tables.bits {
        Some(bits) => {
            let enemy = occupancy(position)[1 - position.side_to_move().index()];
            (0..4).fold(0, |beside, d| beside | bits.step(enemy, d))
        }
        None => u128::MAX,
    }
}

/// A static guess of a move's worth for ordering and for deciding which moves are searched
/// less deeply. Depends on the position and the move only. `beside`: the squares beside
/// an enemy piece ([`beside_enemy`]; a move of another piece than an escape piece to any
/// other square guesses 0).
#[inline]
pub(crate) fn move_guess(
    tables: &Tables,
    board: &[u8],
    beside: u128,
    mv: Move,
    mover: Player,
) -> i32 {
    match worth_guessing(tables, board, beside, mv) {
        Some((from, to, t)) => guess_beside(tables, board, from, to, t, mover),
        None => 0,
    }
}

/// The origin, the destination and the piece type of a move that may guess more than 0
/// ([`move_guess`]): an escape piece's, or one to a square beside an enemy piece.
#[inline]
fn worth_guessing(
    tables: &Tables,
    board: &[u8],
    beside: u128,
    mv: Move,
) -> Option<(usize, usize, usize)> {
    let (from, to) = (tables.index(mv.from()), tables.index(mv.to()));
    let t = board[from];
    if t == EMPTY {
        return None;
    }
    let t = kind(t);
    if !tables.types[t].escape && to < 128 && (beside >> to) & 1 == 0 {
        return None;
    }
    Some((from, to, t))
}

/// [`move_guess`] for the moves of one node at a time, remembering the guess of each
/// piece type's move to each square. Under the ordinary moves of a piece that is no escape
/// piece the guess depends on the type and the destination only: the origin holds the
/// mover's own piece, which the guess passes over like any other, and no such move comes
/// from beyond an enemy neighbour of the destination (it would have to cross it). So
/// pieces of one type that reach the same square need one guess. An escape piece's move
/// (which counts its distance from the origin) and a jump capture are guessed each time.
pub(crate) struct NodeGuesses {
    /// The node's number: a slot holds a guess of this node when it has this number.
    node: u32,
    /// Per piece type and square (type-major), the node's number and the guess.
    slots: Vec<(u32, i32)>,
}

impl NodeGuesses {
    /// Room for the guesses of a board of `square_count` squares.
    pub fn new(square_count: usize) -> NodeGuesses {
        NodeGuesses {
            node: 0,
            slots: vec![(0, 0); 8 * square_count],
        }
    }

    /// Forgets the guesses of the last node: the position has changed.
    #[inline]
    pub fn next_node(&mut self) {
        self.node = self.node.wrapping_add(1);
        if self.node == 0 {
            // After 2^32 nodes the numbers come round: start afresh.
            self.slots.fill((0, 0));
            self.node = 1;
        }
    }

    /// [`move_guess`], remembered for the other pieces of the type that reach its square.
    #[inline]
    pub fn guess(
        &mut self,
        tables: &Tables,
        board: &[u8],
        beside: u128,
        mv: Move,
        mover: Player,
    ) -> i32 {
        let Some((from, to, t)) = worth_guessing(tables, board, beside, mv) else {
            return 0;
        };
        if tables.types[t].escape || mv.is_jump() {
            return guess_beside(tables, board, from, to, t, mover);
        }
        let slot = &mut self.slots[t * tables.square_count + to];
        if slot.0 != self.node {
            *slot = (self.node, guess_beside(tables, board, from, to, t, mover));
        }
        slot.1
    }
}

/// [`move_guess`] of a move of a piece of type `t` from `from` to `to` that may be worth
/// something (an escape piece's, or one next to an enemy piece).
fn guess_beside(
    tables: &Tables,
    board: &[u8],
    from: usize,
    to: usize,
    t: usize,
    mover: Player,
) -> i32 {
    let info = &tables.types[t];
    let mut guess = 0;
    if info.escape {
        if tables.escape_square[to] {
            return ESCAPE_GUESS;
        }
        let (before, after) = (
            tables.escape_distance[t][from],
            tables.escape_distance[t][to],
        );
        guess += 200 + (i32::from(before) - i32::from(after)).clamp(-3, 3) * 60;
    }
    let me = mover.index();
    for direction in 0..4 {
        let n = tables.neighbours[to][direction];
        if n == NONE || n as usize == from {
            continue;
        }
        let victim = board[n as usize];
        if victim == EMPTY {
            continue;
        }
        let victim = kind(victim);
        let vinfo = &tables.types[victim];
        if vinfo.owner == me {
            continue;
        }
        guess += 40;
        if vinfo.escape {
            guess += 150;
        }
        if info.captures & (1 << victim) != 0 && vinfo.capture_sides <= 2 {
            let beyond = tables.neighbours[n as usize][direction];
            let closes = if beyond == NONE {
                vinfo.capture_edge
            } else if beyond as usize == from {
                false
            } else {
                match board[beyond as usize] {
                    EMPTY => tables.square_captures[beyond as usize] & (1 << victim) != 0,
                    b => {
                        let b = &tables.types[kind(b)];
                        b.owner == me && b.captures & (1 << victim) != 0
                    }
                }
            };
            if closes {
                guess += 1000 + vinfo.value;
            }
        }
    }
    guess
}
