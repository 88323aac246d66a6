//! The iterator over a position's moves, which the caller pulls one by one.

use std::ops::ControlFlow;

use crate::engine::{self, Board};
use crate::tables::{DIRECTIONS, Tables};
use crate::{Direction, Move, Square};

/// The moves of a position, walked one by one without allocating (under rules with jump
/// captures, they are gathered into a list first): see [`Position::moves`](crate::Position::moves).
///
/// ```
/// # use hnefatafl_core::Rules;
/// let rules = Rules::parse(include_bytes!("../../data/rules/tablut"))?;
/// let position = rules.start_position();
/// let mut moves = position.moves();
/// let first = moves.next().unwrap();
/// assert_eq!(moves.count() + 1, 80);
/// assert_eq!(position.check_move(first), Ok(()));
/// # Ok::<(), hnefatafl_core::RulesError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Moves<'a> {
    tables: &'a Tables,
    board: &'a Board,
    word: usize,
    bits: u64,
    from: usize,
    from_square: Square,
    type_index: usize,
    direction: usize,
    /// Steps left on the current ray, and where the ray stands.
    left: usize,
    to: usize,
    to_square: Square,
    /// Under rules with jump captures: every move, gathered at the start.
    gathered: Option<std::vec::IntoIter<Move>>,
}

impl<'a> Moves<'a> {
    /// The walk over the moves of the side to move on `board`.
    pub(crate) fn new(tables: &'a Tables, board: &'a Board) -> Moves<'a> {
        Moves {
            tables,
            board,
            word: 0,
            bits: board.occupied[board.side.index()][0],
            from: 0,
            from_square: Square(0),
            type_index: 0,
            direction: DIRECTIONS,
            left: 0,
            to: 0,
            to_square: Square(0),
            gathered: tables.jumping.then(|| {
                let mut moves = Vec::new();
                let _ = engine::try_for_each_move(tables, board, |mv| {
                    moves.push(mv);
                    ControlFlow::Continue(())
                });
                moves.into_iter()
            }),
        }
    }
}

impl Iterator for Moves<'_> {
    type Item = Move;

    // The walk of `engine::try_for_each_move`, turned inside out so that the caller pulls.
    fn next(&mut self) -> Option<Move> {
        if let Some(gathered) = &mut self.gathered {
            return gathered.next();
        }
        loop {
            if self.left > 0 {
                let direction = Direction::ALL[self.direction - 1];
                self.to = self
                    .to
                    .wrapping_add_signed(self.tables.steps[direction.index()]);
                if self.board.board[self.to] != 0 {
                    self.left = 0;
                    continue;
                }
                self.left -= 1;
                self.to_square = Square(self.to_square.0.wrapping_add_signed(direction.packed()));
                // A square the piece may only pass over (`pass`) is no destination.
                let tables = self.tables;
                if tables.passing
                    && tables.square_bits[self.to] & tables.occupies[self.type_index] == 0
                {
                    continue;
                }
                return Some(Move::new(self.from_square, self.to_square));
            }
            if self.direction < DIRECTIONS {
                self.left = self
                    .tables
                    .reach(self.type_index, self.from, self.direction);
                self.to = self.from;
                self.to_square = self.from_square;
                self.direction += 1;
                continue;
            }
            while self.bits == 0 {
                self.word += 1;
                if self.word >= self.tables.words {
                    return None;
                }
                self.bits = self.board.occupied[self.board.side.index()][self.word];
            }
            self.from = self.word * 64 + self.bits.trailing_zeros() as usize;
            self.bits &= self.bits - 1;
            self.from_square = self.tables.square_of(self.from);
            self.type_index = self.board.board[self.from].trailing_zeros() as usize;
            self.direction = 0;
        }
    }
}
